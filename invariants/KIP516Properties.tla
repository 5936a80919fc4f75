----------------------------- MODULE KIP516Properties -----------------------------
(***************************************************************************)
(* Properties of the KIP-516 model (spec/KIP516.tla).  From the repository *)
(* root:                                                                   *)
(*   kipcheck check invariants/KIP516Properties.tla --lib spec              *)
(*            --config invariants/KIP516_small.cfg                          *)
(* Expected results: invariants/EXPECTED.md.                               *)
(***************************************************************************)
EXTENDS KIP516

IdOrNone == Ids \cup {NONE}
PartStates == [id: IdOrNone, leader: Brokers \cup {NONE}, epoch: Nat]
Requests == [kind: {"lair", "stop", "stopkeep"}, full: BOOLEAN,
             parts: SUBSET [name: Names, id: IdOrNone, leader: Brokers \cup {NONE}, epoch: Nat],
             name: Names \cup {NONE}, id: IdOrNone]

TypeOK ==
    /\ ctrl \in [Names -> [state: {"none", "live", "deleting"}, id: IdOrNone,
                           replicas: SUBSET Brokers, leader: Brokers \cup {NONE},
                           epoch: Nat, awaiting: SUBSET Brokers, adding: SUBSET Brokers,
                           removing: SUBSET Brokers, reassigns: 0..MaxReassigns]]
    /\ \A n \in Names : /\ ctrl[n].adding \cup ctrl[n].removing \subseteq ctrl[n].replicas
                       /\ ctrl[n].adding \cap ctrl[n].removing = {}
    /\ usedIds \subseteq Ids
    /\ \A b \in Brokers : \A k \in 1..Len(chan[b]) : chan[b][k] \in Requests
    /\ alive \in [Brokers -> BOOLEAN]
    /\ image \in [Brokers -> [Names -> PartStates]]
    /\ logs \in [Brokers -> [Names -> IdOrNone]]
    /\ offline \in [Brokers -> SUBSET Names]
    /\ \A b \in Brokers : \A n \in offline[b] : logs[b][n] # NONE
    /\ \A n \in Names : client[n] = NONE \/ client[n] \in PartStates
    /\ staleReads \in BOOLEAN
    /\ fullDone \in [Brokers -> BOOLEAN]
    /\ crashesLeft \in 0..MaxCrashes

(* "any request to stale partitions will not be successful": no follower    *)
(* fetch and no consumer read is ever served from a log whose topic id       *)
(* differs from the id the requester resolved ("Stale reads").               *)
NoStaleTopicIdReads == ~staleReads

(* "When type = FULL, the broker is able to reconcile its local state on     *)
(* disk with the request": once a running broker has handled a FULL         *)
(* LeaderAndIsr, every log it holds belongs to a topic id its partition      *)
(* state knows (no stray log of a deleted or re-created topic).  A log on a  *)
(* failed dir is exempt: nothing can delete it until the dir is back, which  *)
(* takes a restart, after which the FULL LeaderAndIsr of the new             *)
(* registration must reconcile it (fullDone starts FALSE again).            *)
NoStrayAfterFullLeaderAndIsr ==
    \A b \in Brokers, n \in Names :
        alive[b] /\ fullDone[b] /\ logs[b][n] # NONE /\ n \notin offline[b]
            => image[b][n].id = logs[b][n]

(* A live topic's leader is one of its replicas. *)
LeaderIsReplica ==
    \A n \in Names : Live(ctrl, n) /\ ctrl[n].leader # NONE => ctrl[n].leader \in ctrl[n].replicas

(* Once quiet -- every broker running with its dirs online and nothing left *)
(* to handle -- no broker keeps a log of a partition it no longer hosts: a   *)
(* log is the current topic id's, on one of its replicas.  StopReplica       *)
(* (deletion, a reassignment's removed or cancelled replica) cleans up a     *)
(* broker that was up; the FULL LeaderAndIsr of a restart one that was down  *)
(* ("partitions ... reassigned away from brokers while they are down").      *)
QuietNoStrayLogs ==
    (\A b \in Brokers : alive[b] /\ chan[b] = <<>> /\ offline[b] = {})
        => \A b \in Brokers, n \in Names :
               logs[b][n] # NONE => Live(ctrl, n) /\ b \in ctrl[n].replicas /\ logs[b][n] = ctrl[n].id

-----------------------------------------------------------------------------
(* Liveness (with LiveSpec).                                                *)

(* A topic's replica on a running broker is eventually created, even when a  *)
(* log of an older incarnation of the name was left on that broker's disk   *)
(* (KAFKA-14616 left the new partition under-replicated for good).          *)
RecreatedTopicGetsReplicas ==
    \A n \in Names, i \in Ids, b \in Brokers :
        (Live(ctrl, n) /\ ctrl[n].id = i /\ b \in ctrl[n].replicas /\ alive[b])
            ~> (logs[b][n] = i \/ ctrl[n].id # i \/ ~alive[b])

(* "This can mean that downtime for a single broker can effectively cause a  *)
(* complete outage": a deletion completes, and the name becomes free, even   *)
(* while a replica's broker stays down.                                      *)
DeletionCompletes ==
    \A n \in Names : ctrl[n].state = "deleting" ~> ctrl[n].state # "deleting"

(* A started reassignment ends (completed, cancelled, or the topic deleted)  *)
(* unless an adding replica's broker is down or its dir failed: "the         *)
(* reassignment completes once TRS is in the ISR", whatever happens to the   *)
(* replicas being removed (with LiveReassignSpec).                          *)
ReassignmentEnds ==
    \A n \in Names :
        Reassigning(n) ~> (~Reassigning(n) \/ \E x \in ctrl[n].adding : ~alive[x] \/ n \in offline[x])
=============================================================================
