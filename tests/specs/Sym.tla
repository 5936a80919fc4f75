---- MODULE Sym ----
EXTENDS Naturals, FiniteSets, TLC
CONSTANT Procs
VARIABLES owner, count
Init == owner = (CHOOSE p \in Procs : TRUE) /\ count = 0
Next == \E p \in Procs : owner' = p /\ count' = (count + 1) % 3
Perms == Permutations(Procs)
View == count
====
