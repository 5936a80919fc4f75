----------------------------- MODULE KIP928Properties -----------------------------
(***************************************************************************)
(* Properties of the KIP-928 model (spec/KIP928.tla).  From the repository *)
(* root:                                                                   *)
(*   kipcheck check invariants/KIP928Properties.tla --lib spec              *)
(*            --config invariants/KIP928_kip_small.cfg                      *)
(* Expected results: invariants/EXPECTED.md.                               *)
(***************************************************************************)
EXTENDS KIP928

States == {"online", "saturated", "offline"}

TypeOK ==
    /\ alive \in [Brokers -> BOOLEAN]
    /\ status \in [Dirs -> States]
    /\ reserved \in [Dirs -> BOOLEAN]
    /\ logs \in [Brokers -> [Partitions -> [on: BOOLEAN, size: 0..Capacity, end: 0..MaxOffset]]]
    /\ \A b \in Brokers : pending[b] \cup impaired[b] \subseteq DirsOfBroker(b)
    /\ leader \in [Partitions -> Brokers \cup {NONE}]
    /\ isr \in [Partitions -> SUBSET Brokers]
    /\ topic \in [Partitions -> {"live", "deleting"}]
    /\ ioError \in [Dirs -> BOOLEAN]
    /\ diskFull \in [Dirs -> BOOLEAN]
    /\ satAppends \subseteq Dirs
    /\ restartsLeft \in 0..MaxRestarts

(* Space is never overcommitted: an append that does not fit fails. *)
WithinCapacity == \A d \in Dirs : Used(d) <= Capacity

(* "the broker will stop all operations on logs located in that directory":  *)
(* no append (produce or replica fetch) ever lands on a saturated dir.       *)
NoAppendToSaturatedDir == satAppends = {}

(* "All other IOExceptions will continue to be treated the same way ... and  *)
(* will result in a log directory going offline": only a non-space error     *)
(* takes a dir offline; a full one is saturated, not offline.  (A halted     *)
(* broker's dirs keep their state.)                                          *)
SaturatedIsNotOffline == \A d \in Dirs : status[d] = "offline" => ioError[d]

(* "Retention will continue to be respected": on a running broker every log  *)
(* with data on a saturated dir can have its oldest segment deleted, even    *)
(* when that needs a new segment to be rolled first (the reserved file's     *)
(* space).                                                                   *)
RetentionRunsOnSaturatedDirs ==
    \A b \in Brokers, p \in Partitions :
        alive[b] /\ status[DirOf(b, p)] = "saturated" /\ logs[b][p].size > 0
            => CanRetain(b, p)

(* "Leadership election is triggered for every partition, which has an      *)
(* impaired leader replica": once the controller has handled the event of a  *)
(* dir (offline or saturated), no live partition is led from that dir.       *)
LeaderOffImpairedDirs ==
    \A p \in Partitions :
        topic[p] = "live" /\ leader[p] # NONE => DirOf(leader[p], p) \notin impaired[leader[p]]

(* A dir event impairs that dir only: on a running broker, every dir the     *)
(* controller treats as impaired is saturated or offline, so a broker with   *)
(* one saturated dir keeps leading the partitions on its other dirs.         *)
ImpairedDirsAreUnhealthy ==
    \A b \in Brokers : alive[b] => \A d \in impaired[b] : status[d] # "online"

-----------------------------------------------------------------------------
(* Liveness (with LiveSpec).                                                *)

(* Deleting a topic frees its space on a dir that filled up, without a       *)
(* restart, unless that dir also had a hardware fault.  Today's behaviour    *)
(* violates it: the full dir is offline, the deletion never reaches it.      *)
DeleteFreesSaturatedDir ==
    \A b \in Brokers, p \in Partitions :
        (topic[p] = "deleting" /\ logs[b][p].on /\ diskFull[DirOf(b, p)])
            ~> (~logs[b][p].on \/ ioError[DirOf(b, p)])

(* A leader on a saturated dir eventually hands over leadership.             *)
SaturatedLeaderMoves ==
    \A b \in Brokers, p \in Partitions :
        (leader[p] = b /\ status[DirOf(b, p)] = "saturated")
            ~> (leader[p] # b \/ status[DirOf(b, p)] # "saturated")
=============================================================================
