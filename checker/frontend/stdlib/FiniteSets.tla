----------------------------- MODULE FiniteSets -----------------------------
\* kipcheck's own text of the standard module FiniteSets; the checker evaluates its operators natively.
LOCAL INSTANCE Naturals
LOCAL INSTANCE Sequences

\* A set is finite when some finite sequence lists all its elements.
IsFiniteSet(S) == \E s \in Seq(S) : \A x \in S : \E i \in 1 .. Len(s) : s[i] = x

\* The n for which there is a one-to-one correspondence between S and 1 .. n.
Cardinality(S) ==
    CHOOSE n \in Nat :
        \E f \in [S -> 1 .. n] :
            /\ \A x, y \in S : f[x] = f[y] => x = y
            /\ \A i \in 1 .. n : \E x \in S : f[x] = i
=============================================================================
