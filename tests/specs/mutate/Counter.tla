---- MODULE Counter ----
\* The spec of tests/test_mutate.py: every mutant's fate is known.
EXTENDS Naturals, Sequences
CONSTANT AllowToggle
VARIABLES x, total, y, q

vars == <<x, total, y, q>>

Init == x = 0 /\ total = 0 /\ y = 0 /\ q = <<>>

\* Bounded needs the guard; Sum needs both effects.
Inc == /\ x < 2
       /\ x' = x + 1
       /\ total' = total + 1
       /\ UNCHANGED <<y, q>>

\* No property needs the guard (y is 0 or 1 anyway), nor the effect.
Toggle == /\ AllowToggle
          /\ y \in {0, 1}
          /\ y' = 1 - y
          /\ UNCHANGED <<x, total, q>>

\* QBound needs the guard.
Push == /\ Len(q) < 1
        /\ q' = Append(q, x)
        /\ UNCHANGED <<x, total, y>>

\* Without the guard, Tail(<<>>) fails: the mutant is invalid.
Pop == /\ q # <<>>
       /\ q' = Tail(q)
       /\ UNCHANGED <<x, total, y>>

Next == Inc \/ Toggle \/ \E n \in {1} : Push \/ Pop

Spec == Init /\ [][Next]_vars

Bounded == x <= 2
Sum == total = x
QBound == Len(q) <= 1

\* Witnesses: states the spec must reach (no property needs Toggle).
Toggled == y = 1
Pushed == q # <<>>
Beyond == x = 3
Step == x' = x + 1
Twice(n) == x = 2 * n
====
