---- MODULE Counter ----
EXTENDS Naturals
VARIABLES x, y
Init == x \in {0, 1} /\ y = 0
Next == \/ x' = x + 1 /\ y' = y
        \/ x' = x /\ y' = (y + 1) % 3
        \/ \E d \in {1, 2} : x' = x + d /\ UNCHANGED y
Small == x < 6
Bounded == x <= 4
====
