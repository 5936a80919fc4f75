----------------------------- MODULE KIP36Properties -----------------------------
(***************************************************************************)
(* Properties of the KIP-36 model (spec/KIP36.tla), and ASSUMEs that pin  *)
(* the KIP's two worked examples.  From the repository root:              *)
(*   kipcheck check invariants/KIP36Properties.tla --lib spec               *)
(*            --config invariants/KIP36_small.cfg                           *)
(* Expected results: invariants/EXPECTED.md.                               *)
(***************************************************************************)
EXTENDS KIP36, TLC

-----------------------------------------------------------------------------
(* The KIP's worked examples, reproduced exactly.  They hold for the       *)
(* algorithm as the KIP describes it; a variant that changes the broker    *)
(* list or the skipping rule would need its own expectations, so they are  *)
(* only asserted with every variant off.                                   *)

Correct == ~NaivePlacement /\ ~LiteralSkipRule /\ ~GroupedBrokerList

\* "0 -> rack1, 1 -> rack3, 2 -> rack3, 3 -> rack2, 4 -> rack2, 5 -> rack1"
Example1Racks == (0 :> 1 @@ 1 :> 3 @@ 2 :> 3 @@ 3 :> 2 @@ 4 :> 2 @@ 5 :> 1)
\* "The rack alternated list will be 0 (rack1), 3 (rack2), 1 (rack3), 5 (rack1), 4 (rack2), 2 (rack3)"
Example1List == (0 :> 0 @@ 1 :> 3 @@ 2 :> 1 @@ 3 :> 5 @@ 4 :> 4 @@ 5 :> 2)
\* partitions 0..11 with replication factor 3
Example1Table ==
    << <<0, 3, 1>>, <<3, 1, 5>>, <<1, 5, 4>>, <<5, 4, 2>>, <<4, 2, 0>>, <<2, 0, 3>>,
       <<0, 4, 2>>, <<3, 2, 0>>, <<1, 0, 3>>, <<5, 3, 1>>, <<4, 1, 5>>, <<2, 5, 4>> >>

\* "0 -> rack1, 1 -> rack2, 2 -> rack2": list (0,1,2), 3 partitions, RF 2
Example2Racks == (0 :> 1 @@ 1 :> 2 @@ 2 :> 2)
Example2List == (0 :> 0 @@ 1 :> 1 @@ 2 :> 2)
Example2Table == << <<0, 1>>, <<1, 0>>, <<2, 0>> >>

ASSUME Correct => /\ BrokerList(Example1Racks) = Example1List
                  /\ Assignment(Example1Racks, 12, 3, 0, 0) = Example1Table
                  /\ BrokerList(Example2Racks) = Example2List
                  /\ Assignment(Example2Racks, 3, 2, 0, 0) = Example2Table

-----------------------------------------------------------------------------

TypeOK ==
    /\ rack \in [0..N - 1 -> 1..MaxRacks]
    /\ N \in 1..MaxBrokers
    /\ rf \in 1..Min(MaxRF, N)
    /\ start \in 0..N - 1
    /\ shift \in Nat
    /\ Len(asg) <= MaxPartitions
    /\ asg \in [1..Len(asg) -> [1..rf -> 0..N - 1]]

Brokers == 0..N - 1

(* "Assign to as many racks as possible": each partition's replicas cover   *)
(* min(RF, #racks) racks (at most one replica per rack while racks remain,  *)
(* at least one per rack once RF >= #racks).                                *)
RackSpread ==
    \A i \in 1..Len(asg) :
        Cardinality({rack[b] : b \in Range(asg[i])}) = Min(rf, NumRacks(rack))

(* No broker holds two replicas of a partition. *)
NoDuplicateReplica ==
    \A i \in 1..Len(asg) : Cardinality(Range(asg[i])) = Len(asg[i])

LeaderCount(b) == Cardinality({i \in 1..Len(asg) : asg[i][1] = b})
ReplicaCount(b) == Cardinality({i \in 1..Len(asg) : b \in Range(asg[i])})

(* "When the number of partition is N times number of brokers ... each       *)
(* broker will have the same leader count".                                 *)
LeaderBalance ==
    Len(asg) % N = 0 => \A b, c \in Brokers : LeaderCount(b) = LeaderCount(c)

\* Every rack has the same number of brokers.
EqualRacks ==
    \A r, s \in RacksOf(rack) :
        Cardinality({b \in Brokers : rack[b] = r}) = Cardinality({b \in Brokers : rack[b] = s})

(* "if each rack has the same broker count, each broker will have the same   *)
(* leader count and replica count."                                         *)
ReplicaBalance ==
    Len(asg) % N = 0 /\ EqualRacks => \A b, c \in Brokers : ReplicaCount(b) = ReplicaCount(c)

(* The step-by-step loop agrees with one call over all partitions: the last *)
(* partition assigned is the one Assignment (used by the ASSUMEs) gives it.  *)
(* Earlier partitions were checked in earlier states (asg only grows).      *)
LoopMatchesCall ==
    LET P == Len(asg)
        shift0 == shift - (P - 1) \div N
    IN ~FreshStartOnAdd /\ P > 0 =>
           asg[P] = AssignOne(rack, P - 1, rf, start, ShiftAt(N, P - 1, shift0))
=============================================================================
