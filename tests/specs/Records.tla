---- MODULE Records ----
EXTENDS Naturals, FiniteSets
CONSTANT Procs
VARIABLES pc, msgs
Init == pc = [p \in Procs |-> "idle"] /\ msgs = {}
Send(p) == /\ pc[p] = "idle"
           /\ pc' = [pc EXCEPT ![p] = "sent"]
           /\ msgs' = msgs \cup {[from |-> p, kind |-> "req"]}
Recv(p) == /\ pc[p] = "sent"
           /\ \E m \in msgs : m.from = p /\ msgs' = msgs \ {m}
           /\ pc' = [pc EXCEPT ![p] = "done"]
Next == \E p \in Procs : Send(p) \/ Recv(p)
TypeOK == pc \in [Procs -> {"idle", "sent", "done"}] /\ Cardinality(msgs) <= 2
AllDone == \A p \in Procs : pc[p] = "done"
NotAllDone == ~AllDone
====
