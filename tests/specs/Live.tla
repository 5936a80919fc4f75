---- MODULE Live ----
(* Two processes competing for one critical section: liveness under weak and strong fairness. *)
EXTENDS Naturals
CONSTANT Procs
VARIABLES pc, x
vars == <<pc, x>>

Init == pc = [p \in Procs |-> "idle"] /\ x = 0
Try(p) == pc[p] = "idle" /\ pc' = [pc EXCEPT ![p] = "waiting"] /\ UNCHANGED x
Enter(p) == pc[p] = "waiting" /\ x = 0 /\ pc' = [pc EXCEPT ![p] = "cs"] /\ x' = 1
Leave(p) == pc[p] = "cs" /\ pc' = [pc EXCEPT ![p] = "idle"] /\ x' = 0
Next == \E p \in Procs : Try(p) \/ Enter(p) \/ Leave(p)

NoFairness == Init /\ [][Next]_vars
WeakSpec == Init /\ [][Next]_vars /\ \A p \in Procs : WF_vars(Try(p) \/ Enter(p) \/ Leave(p))
StrongSpec == /\ Init /\ [][Next]_vars
              /\ \A p \in Procs : WF_vars(Try(p)) /\ SF_vars(Enter(p)) /\ WF_vars(Leave(p))

SomeoneEnters == <>(\E p \in Procs : pc[p] = "cs")
FreeInfinitelyOften == []<>(x = 0)
EventuallyAlwaysFree == <>[](x = 0)
NoStarvation == \A p \in Procs : pc[p] = "waiting" ~> pc[p] = "cs"
Mutex == [](\A p, q \in Procs : p # q => ~(pc[p] = "cs" /\ pc[q] = "cs"))
XFlips == [][x' = 1 - x]_x
Both == FreeInfinitelyOften /\ NoStarvation
EnterDisabledWhenBusy == [](x = 1 => ~ENABLED (\E p \in Procs : Enter(p)))
EventuallyBusyForever == <>[](x = 1)
BusyOftenOrFreeForever == []<>(x = 1) \/ <>[](x = 0)
FromInitSomeoneBusy == (x = 0) => <>(x = 1)
BusyThenFreeForever == [](x = 1 => <>[](x = 0))
====
