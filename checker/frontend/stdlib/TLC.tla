--------------------------------- MODULE TLC --------------------------------
\* kipcheck's own text of the standard module TLC; the checker evaluates its operators natively.
(***************************************************************************)
(* Operators for use with a model checker.  Several of them have effects   *)
(* (printing, reading the clock, keeping registers) that no mathematical   *)
(* definition can state; their bodies give only the value they return.     *)
(***************************************************************************)
LOCAL INSTANCE Naturals
LOCAL INSTANCE Sequences
LOCAL INSTANCE FiniteSets

\* Prints out and val, then equals val.
Print(out, val) == val

\* Prints out, then equals TRUE.
PrintT(out) == TRUE

\* TRUE when val is TRUE; otherwise checking stops with the message out.
Assert(val, out) == IF val = TRUE THEN TRUE ELSE CHOOSE v : v \notin BOOLEAN

\* The current time, in seconds since the epoch.
JavaTime == CHOOSE t \in Nat : TRUE

\* Reads register i (a number) or a statistic of the run (a string such as "level").
TLCGet(i) == CHOOSE v : TRUE

\* Sets register i to v.
TLCSet(i, v) == TRUE

\* The function mapping d alone to e.
d :> e == [x \in {d} |-> e]

\* Merges two functions, f taking precedence where both are defined.
f @@ g == [x \in DOMAIN f \cup DOMAIN g |-> IF x \in DOMAIN f THEN f[x] ELSE g[x]]

\* All the bijections from S to itself.
Permutations(S) == {f \in [S -> S] : \A y \in S : \E x \in S : f[x] = y}

\* s rearranged so that Op(a, b) holds of each element a and the element b after it.
SortSeq(s, Op(_, _)) ==
    LET n == Len(s)
        Sorted(t) == \A i \in 1 .. (n - 1) : Op(t[i], t[i + 1]) \/ t[i] = t[i + 1]
    IN  CHOOSE t \in {[i \in 1 .. n |-> s[p[i]]] : p \in Permutations(1 .. n)} : Sorted(t)

\* An element of S picked at random each time it is evaluated.
RandomElement(S) == CHOOSE x \in S : TRUE

\* A value that TLC treats as a member of every set.
Any == CHOOSE v : TRUE

\* The string that TLC prints for v.
ToString(v) == CHOOSE str \in STRING : TRUE

\* v, evaluated eagerly rather than lazily.
TLCEval(v) == v
=============================================================================
