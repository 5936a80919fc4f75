------------------------------ MODULE Relation ------------------------------
\* kipcheck's own text of the CommunityModules module Relation: properties of a binary relation
\* R on a set S, given as a Boolean function R[x, y] on S \X S (or as an operator, "Under").
EXTENDS Naturals, FiniteSets

\* The relation that the operator op defines on S, as a function.
LOCAL AsFunction(op(_, _), S) == [p \in S \X S |-> op(p[1], p[2])]

IsReflexive(R, S) == \A x \in S : R[x, x]

IsReflexiveUnder(op(_, _), S) == IsReflexive(AsFunction(op, S), S)

IsIrreflexive(R, S) == \A x \in S : ~ R[x, x]

IsIrreflexiveUnder(op(_, _), S) == IsIrreflexive(AsFunction(op, S), S)

IsSymmetric(R, S) == \A x, y \in S : R[x, y] <=> R[y, x]

IsSymmetricUnder(op(_, _), S) == IsSymmetric(AsFunction(op, S), S)

IsAntiSymmetric(R, S) == \A x, y \in S : R[x, y] /\ R[y, x] => x = y

IsAntiSymmetricUnder(op(_, _), S) == IsAntiSymmetric(AsFunction(op, S), S)

IsAsymmetric(R, S) == \A x, y \in S : ~ (R[x, y] /\ R[y, x])

IsAsymmetricUnder(op(_, _), S) == IsAsymmetric(AsFunction(op, S), S)

IsTransitive(R, S) == \A x, y, z \in S : R[x, y] /\ R[y, z] => R[x, z]

IsTransitiveUnder(op(_, _), S) == IsTransitive(AsFunction(op, S), S)

IsStrictlyPartiallyOrdered(R, S) ==
    IsIrreflexive(R, S) /\ IsAntiSymmetric(R, S) /\ IsTransitive(R, S)

IsStrictlyPartiallyOrderedUnder(op(_, _), S) == IsStrictlyPartiallyOrdered(AsFunction(op, S), S)

IsPartiallyOrdered(R, S) == IsReflexive(R, S) /\ IsAntiSymmetric(R, S) /\ IsTransitive(R, S)

IsPartiallyOrderedUnder(op(_, _), S) == IsPartiallyOrdered(AsFunction(op, S), S)

IsStrictlyTotallyOrdered(R, S) ==
    IsStrictlyPartiallyOrdered(R, S) /\ \A x, y \in S : x # y => R[x, y] \/ R[y, x]

IsStrictlyTotallyOrderedUnder(op(_, _), S) == IsStrictlyTotallyOrdered(AsFunction(op, S), S)

IsTotallyOrdered(R, S) == IsPartiallyOrdered(R, S) /\ \A x, y \in S : R[x, y] \/ R[y, x]

IsTotallyOrderedUnder(op(_, _), S) == IsTotallyOrdered(AsFunction(op, S), S)

\* The transitive closure of R: paths of at most 2^n steps after n squarings.
TransitiveClosure(R, S) ==
    LET T[n \in 0 .. Cardinality(S)] ==
            [x, y \in S |-> IF n = 0 THEN R[x, y]
                            ELSE T[n - 1][x, y] \/ \E z \in S : T[n - 1][x, z] /\ T[n - 1][z, y]]
    IN  T[Cardinality(S)]

ReflexiveTransitiveClosure(R, S) ==
    LET T == TransitiveClosure(R, S) IN [x, y \in S |-> x = y \/ T[x, y]]

IsConnected(R, S) == LET T == ReflexiveTransitiveClosure(R, S) IN \A x, y \in S : T[x, y]
=============================================================================
