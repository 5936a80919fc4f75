-------------------------------- MODULE KIP36 --------------------------------
(***************************************************************************)
(* KIP-36: rack-aware replica assignment.                                  *)
(*                                                                         *)
(* Behaviour only; the properties, the ASSUMEs that pin the KIP's worked   *)
(* examples and the TLC configurations live in                            *)
(* invariants/KIP36Properties.tla and invariants/KIP36_*.cfg.              *)
(*                                                                         *)
(* The algorithm is written as operators, exactly as "Implementation      *)
(* detail of the rack aware assignment" describes it (and as Kafka's      *)
(* AdminUtils.assignReplicasToBrokersRackAware codes it):                  *)
(*  1. the rack-alternated broker list: racks in sorted order, each rack's *)
(*     brokers in id order, one broker per rack in turn;                    *)
(*  2. the leader of partition p is list[(p + startIndex) % n]             *)
(*     (round-robin);                                                      *)
(*  3. followers are taken from the brokers after the leader: candidate k  *)
(*     is list[(first + 1 + (shift * #racks + k) % (n - 1)) % n], where    *)
(*     the shift grows by one each time p wraps around the list ("the      *)
(*     shift is N times number of racks, which N increasing for each       *)
(*     round") and k keeps counting across the followers of a partition;   *)
(*  4. a candidate is skipped if its rack already has a replica while some *)
(*     rack has none, or (in the code, not in the KIP text) if it already  *)
(*     holds a replica while some broker holds none.                       *)
(* Kafka draws startIndex and the initial shift at random in [0, n); the   *)
(* KIP's worked examples fix both at 0.  EnumerateStart chooses between    *)
(* enumerating every pair and fixing them at 0.                            *)
(*                                                                         *)
(* The state machine: Init picks a cluster (broker ids 0..n-1 with a rack  *)
(* each, racks being 1..MaxRacks; sorting rack names is sorting these      *)
(* numbers), a replication factor and the random choices; each step        *)
(* assigns the next partition, i.e. runs one iteration of the algorithm's *)
(* loop, so every partition count up to MaxPartitions is a reachable       *)
(* state.                                                                  *)
(*                                                                         *)
(* Variants (all FALSE in the correct configurations):                     *)
(*  - NaivePlacement: the rack-unaware assignment (broker list in id       *)
(*    order, no skipping): what Kafka did before KIP-36 and still does for *)
(*    auto-created topics when some broker has no rack.                    *)
(*  - LiteralSkipRule: skip only on the rack rule, as the KIP text         *)
(*    states it (no "broker already used" rule).                           *)
(*  - GroupedBrokerList: brokers listed rack by rack instead of            *)
(*    alternating racks (skipping kept).                                   *)
(*  - FreshStartOnAdd: partitions added later (kafka-topics --alter) are   *)
(*    placed by a fresh call with a new random start index and shift, as  *)
(*    at topic creation; Kafka instead continues the round robin.          *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets, Sequences

CONSTANTS
    MaxBrokers,         \* clusters of 1..MaxBrokers brokers are enumerated
    MaxRacks,           \* racks are 1..MaxRacks
    MaxRF,              \* replication factors 1..MaxRF (at most the broker count)
    MaxPartitions,      \* partitions 0..MaxPartitions-1 are assigned one step at a time
    EnumerateStart,     \* TRUE: every startIndex and initial shift in 0..n-1; FALSE: both 0
    \* variants (all FALSE in the correct configurations)
    NaivePlacement,
    LiteralSkipRule,
    GroupedBrokerList,
    FreshStartOnAdd

ASSUME /\ MaxBrokers \in Nat \ {0} /\ MaxRacks \in Nat \ {0}
       /\ MaxRF \in Nat \ {0} /\ MaxPartitions \in Nat
       /\ \A flag \in {EnumerateStart, NaivePlacement, LiteralSkipRule,
                       GroupedBrokerList, FreshStartOnAdd} : flag \in BOOLEAN

VARIABLES
    rack,       \* rack[b] for the brokers 0..n-1 of the chosen cluster
    rf,         \* replication factor of the topic
    start,      \* startIndex of the current assignReplicasToBrokers call
    shift,      \* nextReplicaShift of the current call (grows each round)
    asg         \* asg[p + 1]: the replica list of partition p (leader first)

vars == <<rack, rf, start, shift, asg>>

-----------------------------------------------------------------------------
(* The algorithm, as operators over a broker -> rack map rk (domain 0..n-1). *)

Min(a, b) == IF a < b THEN a ELSE b
Range(s) == {s[i] : i \in DOMAIN s}

NumBrokers(rk) == Cardinality(DOMAIN rk)
RacksOf(rk) == Range(rk)
NumRacks(rk) == Cardinality(RacksOf(rk))

\* The position of broker b among the brokers of its own rack (by id).
RankInRack(rk, b) == Cardinality({c \in DOMAIN rk : rk[c] = rk[b] /\ c < b})

\* "this API will first create an rack alternated broker list": Kafka cycles
\* through the sorted racks taking the next broker of each, skipping racks
\* that ran out; so b's position is the number of brokers that come before it
\* ordered by (rank in rack, rack).
AltPos(rk, b) ==
    Cardinality({c \in DOMAIN rk :
                    \/ RankInRack(rk, c) < RankInRack(rk, b)
                    \/ RankInRack(rk, c) = RankInRack(rk, b) /\ rk[c] < rk[b]})

\* GroupedBrokerList: ordered by (rack, id) instead.
GroupedPos(rk, b) ==
    Cardinality({c \in DOMAIN rk : rk[c] < rk[b] \/ (rk[c] = rk[b] /\ c < b)})

Pos(rk, b) == IF NaivePlacement THEN b
              ELSE IF GroupedBrokerList THEN GroupedPos(rk, b)
              ELSE AltPos(rk, b)

\* The broker list the algorithm walks, indexed 0..n-1 like Kafka's array.
BrokerList(rk) ==
    [i \in 0..NumBrokers(rk) - 1 |-> CHOOSE b \in DOMAIN rk : Pos(rk, b) = i]

\* Kafka's replicaIndex(firstReplicaIndex, secondReplicaShift, replicaIndex, n).
ReplicaIndex(first, secondShift, k, n) == (first + 1 + ((secondShift + k) % (n - 1))) % n

\* May candidate broker b follow the replicas chosen so far?
\* "skip a broker if its rack is already used for the partition" unless every
\* rack already has a replica; and (the code's second rule) skip a broker that
\* already has a replica unless every broker has one.
Acceptable(rk, reps, b) ==
    IF NaivePlacement THEN TRUE
    ELSE /\ rk[b] \notin {rk[r] : r \in Range(reps)}
              \/ Cardinality({rk[r] : r \in Range(reps)}) = NumRacks(rk)
         /\ \/ LiteralSkipRule
            \/ b \notin Range(reps)
            \/ Cardinality(Range(reps)) = NumBrokers(rk)

\* Followers of a partition whose leader sits at index `first` of list L:
\* `need` more replicas, trying candidate k next.  k is never reset within a
\* partition (Kafka's `var k`).  Some candidate among any n - 1 consecutive
\* ones is acceptable, so the recursion ends.
RECURSIVE Followers(_, _, _, _, _, _, _)
Followers(rk, L, first, secondShift, reps, k, need) ==
    IF need = 0 THEN reps
    ELSE LET b == L[ReplicaIndex(first, secondShift, k, NumBrokers(rk))]
         IN IF Acceptable(rk, reps, b)
            THEN Followers(rk, L, first, secondShift, Append(reps, b), k + 1, need - 1)
            ELSE Followers(rk, L, first, secondShift, reps, k + 1, need)

\* The replica list of partition p, for startIndex st and the call's current
\* nextReplicaShift sh (already grown for p).  The rack-unaware assignment
\* shifts by sh, the rack-aware one by sh * #racks.
AssignOne(rk, p, replicationFactor, st, sh) ==
    LET n == NumBrokers(rk)
        L == BrokerList(rk)
        first == (p + st) % n
        secondShift == IF NaivePlacement THEN sh ELSE sh * NumRacks(rk)
    IN Followers(rk, L, first, secondShift, <<L[first]>>, 0, replicationFactor - 1)

\* nextReplicaShift for partition p in a call over partitions 0..: it grows by
\* one whenever p (> 0) is a multiple of n.
ShiftAt(n, p, sh0) == sh0 + p \div n

\* The whole assignment of partitions 0..P-1 made by one call (what
\* AdminUtils.assignReplicasToBrokers returns), as a sequence.
Assignment(rk, P, replicationFactor, st, sh0) ==
    [i \in 1..P |-> AssignOne(rk, i - 1, replicationFactor, st,
                              ShiftAt(NumBrokers(rk), i - 1, sh0))]

-----------------------------------------------------------------------------
(* The state machine.                                                       *)

N == NumBrokers(rack)
StartChoices(n) == IF EnumerateStart THEN 0..n - 1 ELSE {0}

\* A cluster of n brokers, each with a rack (broker.rack), and a topic to
\* create with replication factor rf <= n (Kafka rejects a larger one);
\* startIndex and nextReplicaShift drawn at random ("Proposed Changes").
Init ==
    \E n \in 1..MaxBrokers :
        /\ rack \in [0..n - 1 -> 1..MaxRacks]
        /\ rf \in 1..Min(MaxRF, n)
        /\ start \in StartChoices(n)
        /\ shift \in StartChoices(n)
        /\ asg = <<>>

\* One iteration of the assignment loop: partition p = Len(asg) gets its
\* leader round-robin and its followers after the leader ("Implementation
\* detail of the rack aware assignment"); the shift grows when p wraps.
AssignPartition ==
    LET p == Len(asg)
        sh == IF p > 0 /\ p % N = 0 THEN shift + 1 ELSE shift
    IN /\ p < MaxPartitions
       /\ shift' = sh
       /\ asg' = Append(asg, AssignOne(rack, p, rf, start, sh))
       /\ UNCHANGED <<rack, rf, start>>

\* FreshStartOnAdd: before adding partitions to the existing topic, a new
\* call draws a new startIndex and shift (a rejected design: Kafka's
\* addPartitions keeps the round robin of the existing partitions going).
NewAddPartitionsCall ==
    /\ FreshStartOnAdd
    /\ 0 < Len(asg) /\ Len(asg) < MaxPartitions
    /\ start' \in 0..N - 1
    /\ shift' \in 0..N - 1
    /\ UNCHANGED <<rack, rf, asg>>

Next == AssignPartition \/ NewAddPartitionsCall

Spec == Init /\ [][Next]_vars
=============================================================================
