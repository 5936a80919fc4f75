-------------------------------- MODULE Bags --------------------------------
\* kipcheck's own text of the standard module Bags; the checker evaluates its operators natively.
(***************************************************************************)
(* A bag (multiset) is a function from its elements to their positive      *)
(* numbers of copies.                                                      *)
(***************************************************************************)
EXTENDS TLC
LOCAL INSTANCE Naturals

\* The sum of the values of a function with a finite domain.
LOCAL Total(f) ==
    LET sum[D \in SUBSET DOMAIN f] ==
            IF D = {} THEN 0
            ELSE LET x == CHOOSE y \in D : TRUE
                 IN  f[x] + sum[D \ {x}]
    IN  sum[DOMAIN f]

IsABag(B) == B \in [DOMAIN B -> {n \in Nat : n > 0}]

BagToSet(B) == DOMAIN B

SetToBag(S) == [e \in S |-> 1]

BagIn(e, B) == e \in BagToSet(B)

EmptyBag == SetToBag({})

CopiesIn(e, B) == IF BagIn(e, B) THEN B[e] ELSE 0

\* Bag sum, written B1 (+) B2.
B1 \oplus B2 == [e \in DOMAIN B1 \cup DOMAIN B2 |-> CopiesIn(e, B1) + CopiesIn(e, B2)]

\* Bag difference, written B1 (-) B2: copies in B2 are taken out of B1.
B1 \ominus B2 ==
    LET left == {e \in DOMAIN B1 : CopiesIn(e, B1) > CopiesIn(e, B2)}
    IN  [e \in left |-> B1[e] - CopiesIn(e, B2)]

\* The sum of all the bags in the finite set S.
BagUnion(S) == [e \in UNION {DOMAIN B : B \in S} |-> Total([B \in S |-> CopiesIn(e, B)])]

B1 \sqsubseteq B2 == \A e \in DOMAIN B1 : CopiesIn(e, B1) <= CopiesIn(e, B2)

\* All the bags contained in B. Written so that it can be enumerated (TLC computes it natively;
\* the textbook form ranges over [D -> {n \in Nat : n > 0}], an infinite set).
SubBag(B) ==
    UNION {{SB \in [D -> UNION {1..B[e] : e \in D}] : \A e \in D : SB[e] <= B[e]} :
           D \in SUBSET DOMAIN B}

\* The bag of the values F(x), each x of B counted as often as it occurs in B.
BagOfAll(F(_), B) ==
    [y \in {F(x) : x \in DOMAIN B} |-> Total([x \in {d \in DOMAIN B : F(d) = y} |-> B[x]])]

BagCardinality(B) == Total(B)
=============================================================================
