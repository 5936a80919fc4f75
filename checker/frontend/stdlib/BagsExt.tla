------------------------------ MODULE BagsExt ------------------------------
\* kipcheck's own text of the CommunityModules module BagsExt: more operators on bags (functions
\* from elements to their positive numbers of copies); the checker folds bags natively.
LOCAL INSTANCE Bags
LOCAL INSTANCE Integers
LOCAL INSTANCE Folds

\* B with one more copy of x.
BagAdd(B, x) ==
    IF x \in DOMAIN B
    THEN [e \in DOMAIN B |-> IF e = x THEN B[e] + 1 ELSE B[e]]
    ELSE [e \in DOMAIN B \union {x} |-> IF e = x THEN 1 ELSE B[e]]

\* B with one copy of x fewer (B itself when x is not in B).
BagRemove(B, x) ==
    IF x \in DOMAIN B
    THEN IF B[x] = 1 THEN [e \in DOMAIN B \ {x} |-> B[e]]
         ELSE [e \in DOMAIN B |-> IF e = x THEN B[e] - 1 ELSE B[e]]
    ELSE B

\* B without any copy of x.
BagRemoveAll(B, x) == [e \in DOMAIN B \ {x} |-> B[e]]

\* Folds op over the elements of B, each mapped by f: handle(x) folds the B[x] copies of x.
MapThenFoldBag(op(_, _), base, f(_), choose(_), B) ==
    LET handle(x) ==
            LET pow[n \in 1 .. B[x]] == op(IF n = 1 THEN base ELSE pow[n - 1], f(x))
            IN  pow[B[x]]
    IN  MapThenFoldSet(op, base, handle, LAMBDA S : CHOOSE x \in S : TRUE, DOMAIN B)

FoldBag(op(_, _), base, B) == MapThenFoldBag(op, base, LAMBDA x : x, LAMBDA S : CHOOSE x \in S : TRUE, B)

SumBag(B) == FoldBag(LAMBDA x, y : x + y, 0, B)

ProductBag(B) == FoldBag(LAMBDA x, y : x * y, 1, B)
=============================================================================
