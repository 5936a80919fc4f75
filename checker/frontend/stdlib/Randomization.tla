---------------------------- MODULE Randomization ---------------------------
\* kipcheck's own text of the standard module Randomization; the checker evaluates its operators natively.
(***************************************************************************)
(* Pseudo-random choices of subsets, mostly for checking inductive         *)
(* invariants on a sample of states.  Each evaluation may choose anew; the *)
(* bodies state only what any choice satisfies.                            *)
(***************************************************************************)
LOCAL INSTANCE Naturals
LOCAL INSTANCE FiniteSets

\* A subset of S with k elements.
RandomSubset(k, S) == CHOOSE T \in SUBSET S : Cardinality(T) = k

\* At most k subsets of S (k draws, duplicates merged), each holding every
\* element of S with probability n / Cardinality(S).
RandomSetOfSubsets(k, n, S) == CHOOSE T \in SUBSET SUBSET S : Cardinality(T) <= k

\* As RandomSetOfSubsets, with prob the probability written as a string such as "0.25".
RandomSubsetSet(k, prob, S) == CHOOSE T \in SUBSET SUBSET S : Cardinality(T) <= k

\* The sizes of five independent draws of RandomSetOfSubsets(k, n, S).
TestRandomSetOfSubsets(k, n, S) == [i \in 1 .. 5 |-> Cardinality(RandomSetOfSubsets(k, n, S))]

\* The sizes of five independent draws of RandomSubsetSet(k, prob, S).
RandomSubsetSetSize(k, prob, S) == [i \in 1 .. 5 |-> Cardinality(RandomSubsetSet(k, prob, S))]
=============================================================================
