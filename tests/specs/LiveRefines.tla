---- MODULE LiveRefines ----
(* A counter refining an hour clock (hr <- c \div 2): the abstract WF must hold. *)
EXTENDS Naturals
VARIABLE c
Inc == c' = (c + 1) % 6
Back == c = 1 /\ c' = 0
Next == Inc \/ Back
Spec == c = 0 /\ [][Inc]_c /\ WF_c(Inc)
BackSpec == c = 0 /\ [][Next]_c /\ WF_c(Inc)
A == INSTANCE LiveAbs WITH hr <- c \div 2
Refines == A!Spec
====
