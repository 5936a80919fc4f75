---- MODULE Phases ----
\* The spec of tests/test_mutate.py's widening mutants: every one's fate is known.
EXTENDS Naturals
VARIABLES phase, k

vars == <<phase, k>>

TypeOK == phase \in {"idle", "busy", "off"} /\ k \in 0..2

Init == phase = "idle" /\ k = 0

Start == /\ phase = "idle"
         /\ phase' = "busy"
         /\ UNCHANGED k

Finish == /\ phase = "busy"
          /\ k < 2
          /\ phase' = "idle"
          /\ k' = k + 1

Next == Start \/ Finish

Spec == Init /\ [][Next]_vars

NeverOff == phase # "off"

\* Only a finished job counts.
CountsFinishes == [][k' # k => phase = "busy"]_vars
====
