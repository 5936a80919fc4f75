------------------------------ MODULE FiniteSetsExt ------------------------------
\* kipcheck's own text of the CommunityModules module FiniteSetsExt; the checker evaluates
\* its folds and extrema natively.
EXTENDS Integers, FiniteSets, Folds, Functions

\* op(x1, op(x2, ... op(xn, base))) over the elements of S.
FoldSet(op(_, _), base, S) == MapThenFoldSet(op, base, LAMBDA x : x, LAMBDA s : CHOOSE x \in s : TRUE, S)

\* FoldSet with its arguments in another order.
ReduceSet(op(_, _), S, acc) == FoldSet(op, acc, S)

\* The number of elements of S that satisfy P.
Quantify(S, P(_)) == Cardinality({s \in S : P(s)})

\* The subsets of S with k elements.
kSubset(k, S) == {s \in SUBSET S : Cardinality(s) = k}

\* The greatest and the least element of a nonempty set of numbers.
Max(S) == CHOOSE x \in S : \A y \in S : x >= y

Min(S) == CHOOSE x \in S : \A y \in S : x <= y

\* The sum and the product of a finite set of numbers.
SumSet(S) == FoldSet(LAMBDA x, y : x + y, 0, S)

ProductSet(S) == FoldSet(LAMBDA x, y : x * y, 1, S)

\* The sum of f(x) over the elements x of S.
MapThenSumSet(f(_), S) ==
    MapThenFoldSet(LAMBDA x, y : x + y, 0, f, LAMBDA s : CHOOSE x \in s : TRUE, S)

\* The elements in exactly one of A and B.
SymDiff(A, B) == (A \ B) \cup (B \ A)

\* The union of a set of sets.
FlattenSet(S) == UNION S

\* The choice functions of Sets (TLC, and kipcheck, give the set of each one's values).
Choices(Sets) == {f \in [Sets -> UNION Sets] : \A T \in Sets : f[T] \in T}

\* The one element of S that satisfies P.
ChooseUnique(S, P(_)) == CHOOSE x \in S : P(x) /\ \A y \in S : P(y) => y = x
=============================================================================
