------------------------------- MODULE KIP516 -------------------------------
(***************************************************************************)
(* KIP-516: topic identifiers.                                             *)
(*                                                                         *)
(* Behaviour only; properties and TLC configurations are in                *)
(* invariants/KIP516Properties.tla and invariants/KIP516_*.cfg.            *)
(*                                                                         *)
(* A ZooKeeper-era controller keeps, per topic name, the current           *)
(* incarnation: its topic id, replicas, leader and leader epoch.  Topics   *)
(* are deleted and re-created under the same name with a fresh id.  The    *)
(* controller talks to each broker through a FIFO channel of               *)
(* LeaderAndIsr (INCREMENTAL or FULL) and StopReplica requests that the    *)
(* broker handles later (metadata reaches brokers late); requests to a     *)
(* broker that is down are lost.  A broker keeps, per name, at most one log *)
(* on disk, tagged with the topic id of its partition.metadata file, and   *)
(* an in-memory partition state (its "image": id, leader, leader epoch)    *)
(* lost on a crash.  Followers fetch and consumers read by name, leader    *)
(* epoch and, when UseTopicIds, topic id.                                  *)
(*                                                                         *)
(* Abstractions:                                                           *)
(*  - one partition per topic (a name stands for its partition 0);         *)
(*  - no data: a fetch or read is "served from a log", which is all the    *)
(*    stale-read story needs; ISR is not modelled (any alive replica can   *)
(*    lead after its leader crashed);                                      *)
(*  - the controller reacts to a crash or a restart in the same step       *)
(*    (ZooKeeper watch), and handles a StopReplica response in the step    *)
(*    the broker handles the request;                                      *)
(*  - the controller never fails over; the FULL LeaderAndIsr a broker gets *)
(*    when it registers stands for the one a new controller also sends.    *)
(*  - ids are never reused (a pool of model values).                       *)
(*  - dir failures (EnableDirFailures): a broker keeps its logs in several  *)
(*    log dirs and survives the failure of one; a log on a failed dir can   *)
(*    be neither read, replaced nor deleted until the broker restarts with  *)
(*    the dir repaired (a restart repairs every failed dir of the broker,   *)
(*    or none).  The controller's reaction to the dir event (moving         *)
(*    leadership) is not modelled: the replica is just unavailable.         *)
(*                                                                         *)
(* Switches: UseTopicIds = FALSE sends Fetch, ListOffsets, OffsetsFor-     *)
(* LeaderEpoch, consumer reads and StopReplica without the topic id (as    *)
(* before the KIP; LeaderAndIsr and partition.metadata keep their ids).    *)
(* Variants (FALSE in the correct configurations):                         *)
(*  - WaitForAllReplicasOnDelete: the deletion of old ("Topic Deletion"):  *)
(*    the name stays taken until every replica acknowledged StopReplica;   *)
(*  - BugIgnoreFullType: a FULL LeaderAndIsr is handled like an            *)
(*    INCREMENTAL one (type UNSPECIFIED): no reconciliation of stray logs; *)
(*  - BugKeepStrayLog (KAFKA-14616): a broker that finds a log of the name *)
(*    with another topic id keeps it and does not create the new replica;  *)
(*  - BugRemovedReplicaKeepsLog: a reassignment's removed replica gets only *)
(*    StopReplica(deletePartition = false): it stops, its log stays;       *)
(*  - BugFullKeepsLiveTopicLog: a FULL LeaderAndIsr stages only logs of    *)
(*    topic ids that are no longer live, not of a partition moved away;    *)
(*  - BugCompleteWaitsForRemoved: a reassignment completes only once every *)
(*    replica of RS, the removing ones too, is caught up on a running      *)
(*    broker (TRS in ISR is the rule): a removed broker that stays down    *)
(*    holds the reassignment for good.                                     *)
(*                                                                         *)
(* Reassignment (EnableReassign; at most MaxReassigns started per          *)
(* incarnation): the ZooKeeper controller's KIP-455 steps with RS = ORS +  *)
(* TRS, AR = TRS - ORS, RR = ORS - TRS kept in ctrl[n].replicas, .adding   *)
(* and .removing.  ISR is not modelled: an adding replica has "caught up"  *)
(* once its running broker holds the log of the current topic id.          *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets, Sequences

CONSTANTS
    Brokers,            \* broker ids (model values)
    Names,              \* topic names (model values)
    Ids,                \* pool of topic ids (model values), one per creation
    NONE,               \* no id / no leader / no client view (model value)
    ReplicationFactor,
    MaxCrashes,         \* broker crashes in all
    UseTopicIds,        \* requests carry the topic id and brokers check it
    EnableConsumer,     \* a consumer with cached metadata reads from leaders
    EnableDirFailures,  \* the log dir holding a broker's log of a name may fail
    \* variants (all FALSE in the correct configurations)
    WaitForAllReplicasOnDelete,
    BugIgnoreFullType,
    BugKeepStrayLog,
    \* inter-broker partition reassignment (AlterPartitionReassignments, KIP-455)
    EnableReassign,     \* a reassignment may start, complete or be cancelled
    MaxReassigns,       \* reassignments started per topic incarnation
    BugRemovedReplicaKeepsLog,
    BugFullKeepsLiveTopicLog,
    BugCompleteWaitsForRemoved

ASSUME /\ ReplicationFactor \in 1..Cardinality(Brokers)
       /\ MaxCrashes \in Nat
       /\ MaxReassigns \in Nat
       /\ NONE \notin Brokers \cup Names \cup Ids
       /\ \A flag \in {UseTopicIds, EnableConsumer, EnableDirFailures, WaitForAllReplicasOnDelete,
                       BugIgnoreFullType, BugKeepStrayLog, EnableReassign,
                       BugRemovedReplicaKeepsLog, BugFullKeepsLiveTopicLog,
                       BugCompleteWaitsForRemoved} : flag \in BOOLEAN

VARIABLES
    \* ---- controller (ZooKeeper /brokers/topics and its in-memory state) ----
    ctrl,         \* ctrl[n] = [state: "none" | "live" | "deleting", id, replicas,
                  \*            leader, epoch, awaiting: brokers yet to ack StopReplica,
                  \*            adding, removing: a reassignment's AR and RR,
                  \*            reassigns: reassignments started on this incarnation]
    usedIds,      \* topic ids handed out so far
    \* ---- controller -> broker ----
    chan,         \* chan[b]: requests not yet handled by b (FIFO)
    \* ---- brokers ----
    alive,        \* alive[b]
    image,        \* image[b][n]: NoPart or [id, leader, epoch] from LeaderAndIsr
    logs,         \* logs[b][n]: the topic id of b's log of n on disk, or NONE
    offline,      \* offline[b]: names whose log on b is on a failed log dir
    \* ---- consumer ----
    client,       \* client[n]: NONE or the [id, leader, epoch] the consumer resolved
    \* ---- history and bounds ----
    staleReads,   \* some fetch or read was served from a log of another topic id
    fullDone,     \* fullDone[b]: b has handled a FULL LeaderAndIsr since it started
    crashesLeft

ctrlVars   == <<ctrl, usedIds>>
brokerVars == <<alive, image, logs, offline>>
vars       == <<ctrl, usedIds, chan, alive, image, logs, offline, client, staleReads, fullDone,
               crashesLeft>>

-----------------------------------------------------------------------------
(* Helpers                                                                  *)

NoPart == [id |-> NONE, leader |-> NONE, epoch |-> 0]
NoTopic == [state |-> "none", id |-> NONE, replicas |-> {}, leader |-> NONE, epoch |-> 0,
            awaiting |-> {}, adding |-> {}, removing |-> {}, reassigns |-> 0]

\* Requests share one record shape (kind "lair", "stop" or "stopkeep").
Lair(full, parts) == [kind |-> "lair", full |-> full, parts |-> parts, name |-> NONE, id |-> NONE]
Stop(n, i) == [kind |-> "stop", full |-> FALSE, parts |-> {}, name |-> n, id |-> i]
\* StopReplica(deletePartition = false): the replica stops, its log stays.
StopKeep(n, i) == [Stop(n, i) EXCEPT !.kind = "stopkeep"]

\* The topic id n has while it is live (NONE otherwise).
LiveId(n) == IF ctrl[n].state = "live" THEN ctrl[n].id ELSE NONE

\* The partition state of n a LeaderAndIsr carries for the current incarnation.
PartState(n, c) == [name |-> n, id |-> c[n].id, leader |-> c[n].leader, epoch |-> c[n].epoch]

Live(c, n) == c[n].state = "live"

\* Send request r to every broker in S that is alive (to the others it is lost).
SendAll(ch, S, r) == [b \in Brokers |-> IF b \in S /\ alive[b] THEN Append(ch[b], r) ELSE ch[b]]

\* Does a request for (name n, topic id i) match b's log of n?  Without topic
\* ids the broker can only compare names.  A log on a failed dir matches nothing.
IdMatches(b, n, i) == logs[b][n] # NONE /\ n \notin offline[b] /\ (UseTopicIds => logs[b][n] = i)

-----------------------------------------------------------------------------

Init ==
    /\ ctrl = [n \in Names |-> NoTopic]
    /\ usedIds = {}
    /\ chan = [b \in Brokers |-> <<>>]
    /\ alive = [b \in Brokers |-> TRUE]
    /\ image = [b \in Brokers |-> [n \in Names |-> NoPart]]
    /\ logs = [b \in Brokers |-> [n \in Names |-> NONE]]
    /\ offline = [b \in Brokers |-> {}]
    /\ client = [n \in Names |-> NONE]
    /\ staleReads = FALSE
    /\ fullDone = [b \in Brokers |-> FALSE]
    /\ crashesLeft = MaxCrashes

\* CreateTopics: "A random UUID will be generated on topic creation"; the
\* controller sends LeaderAndIsr (with the topic id) to the replicas.  The
\* name must be free: no live topic and (with WaitForAllReplicasOnDelete) no
\* deletion in progress.
CreateTopic(n, i, R, l) ==
    /\ ctrl[n].state = "none"
    /\ i \notin usedIds
    /\ Cardinality(R) = ReplicationFactor
    /\ IF \E b \in R : alive[b] THEN l \in R /\ alive[l] ELSE l = NONE
    /\ LET c == [ctrl EXCEPT ![n] = [state |-> "live", id |-> i, replicas |-> R, leader |-> l,
                                     epoch |-> 0, awaiting |-> {}, adding |-> {}, removing |-> {}, reassigns |-> 0]]
       IN /\ ctrl' = c
          /\ chan' = SendAll(chan, R, Lair(FALSE, {PartState(n, c)}))
    /\ usedIds' = usedIds \cup {i}
    /\ UNCHANGED <<brokerVars, client, staleReads, fullDone, crashesLeft>>

\* DeleteTopics ("Topic Deletion"): the controller deletes the topic znode and
\* "immediately repl[ies] ... a topic with the same name can be created", then
\* sends StopReplica(delete) to the replicas; a broker that is down misses it.
\* WaitForAllReplicasOnDelete: the name stays taken until every replica acked.
DeleteTopic(n) ==
    /\ Live(ctrl, n)
    /\ ctrl' = [ctrl EXCEPT ![n] = IF WaitForAllReplicasOnDelete
                                   THEN [@ EXCEPT !.state = "deleting", !.leader = NONE,
                                                  !.awaiting = ctrl[n].replicas]
                                   ELSE NoTopic]
    /\ chan' = SendAll(chan, ctrl[n].replicas, Stop(n, ctrl[n].id))
    /\ UNCHANGED <<usedIds, brokerVars, client, staleReads, fullDone, crashesLeft>>

\* Broker b handles a LeaderAndIsr.  For each partition: no local log -> create
\* one with the request's topic id (partition.metadata); a local log with
\* another topic id is stale ("Stale state": close it, move it to the
\* deleting dir) and replaced -- unless BugKeepStrayLog, which keeps it and
\* skips the partition.  A FULL request also stages for deletion every local
\* log whose name the request does not contain (BugIgnoreFullType: it does not;
\* BugFullKeepsLiveTopicLog: not a log whose topic id is still live -- the
\* broker's metadata cache, the controller's view here -- such as the log of a
\* partition reassigned away while the broker was down).
\* A log on a failed dir is out of reach: its partition is left as it is
\* (KAFKA_STORAGE_ERROR), whatever the request says.
HandleLair(b, r) ==
    LET inReq == {p.name : p \in r.parts}
        part(n) == CHOOSE p \in r.parts : p.name = n
        skip == {n \in inReq : BugKeepStrayLog /\ logs[b][n] \notin {NONE, part(n).id}}
                \cup offline[b]
        reconcile(n) == r.full /\ ~BugIgnoreFullType /\ n \notin offline[b] /\ ~(BugFullKeepsLiveTopicLog /\ logs[b][n] = LiveId(n))
    IN /\ logs' = [logs EXCEPT ![b] =
                     [n \in Names |-> IF n \in inReq \ skip THEN part(n).id
                                      ELSE IF n \notin inReq /\ reconcile(n) THEN NONE
                                      ELSE logs[b][n]]]
       /\ image' = [image EXCEPT ![b] =
                      [n \in Names |-> IF n \in inReq \ skip
                                       THEN [id |-> part(n).id, leader |-> part(n).leader,
                                             epoch |-> part(n).epoch]
                                       ELSE IF n \notin inReq /\ reconcile(n) THEN NoPart
                                       ELSE image[b][n]]]
       /\ fullDone' = [fullDone EXCEPT ![b] = @ \/ r.full]
       /\ UNCHANGED <<ctrl>>

\* Broker b handles StopReplica(delete): the log goes if it is the one the
\* request names (without topic ids: any log of that name).  The response
\* reaches the controller, which completes a deletion once all replicas acked.
\* A log on a failed dir cannot be deleted: the response is an error.
\* StopReplica(deletePartition = false) ("stopkeep") stops the replica only.
HandleStop(b, r) ==
    LET n == r.name
        del == IdMatches(b, n, r.id)
    IN /\ logs' = [logs EXCEPT ![b][n] = IF del /\ r.kind = "stop" THEN NONE ELSE @]
       /\ image' = [image EXCEPT ![b][n] = IF del THEN NoPart ELSE @]
       /\ ctrl' = IF ctrl[n].state = "deleting" /\ ctrl[n].id = r.id /\ n \notin offline[b]
                  THEN [ctrl EXCEPT ![n] = IF @.awaiting = {b} THEN NoTopic
                                           ELSE [@ EXCEPT !.awaiting = @ \ {b}]]
                  ELSE ctrl
       /\ UNCHANGED fullDone

HandleRequest(b) ==
    /\ alive[b] /\ chan[b] # <<>>
    /\ LET r == Head(chan[b])
       IN IF r.kind = "lair" THEN HandleLair(b, r) ELSE HandleStop(b, r)
    /\ chan' = [chan EXCEPT ![b] = Tail(@)]
    /\ UNCHANGED <<usedIds, alive, offline, client, staleReads, crashesLeft>>

\* A broker crashes: its in-memory state and the requests on their way to it
\* are lost, its logs stay on disk.  The controller moves leadership of the
\* partitions it led to another alive replica (epoch + 1) and tells the
\* other alive replicas.
Crash(b) ==
    /\ alive[b] /\ crashesLeft > 0
    /\ LET led == {n \in Names : Live(ctrl, n) /\ ctrl[n].leader = b}
           others(n) == {x \in ctrl[n].replicas \ {b} : alive[x]}
           newLeader(n) == IF others(n) = {} THEN NONE ELSE CHOOSE x \in others(n) : TRUE
           c == [n \in Names |-> IF n \in led
                                 THEN [ctrl[n] EXCEPT !.leader = newLeader(n), !.epoch = @ + 1]
                                 ELSE ctrl[n]]
       IN /\ ctrl' = c
          /\ chan' = [x \in Brokers |->
                        LET ps == {PartState(n, c) : n \in {m \in led : x \in others(m)}}
                        IN IF x = b THEN <<>>
                           ELSE IF ps = {} THEN chan[x] ELSE Append(chan[x], Lair(FALSE, ps))]
    /\ alive' = [alive EXCEPT ![b] = FALSE]
    /\ image' = [image EXCEPT ![b] = [n \in Names |-> NoPart]]
    /\ fullDone' = [fullDone EXCEPT ![b] = FALSE]
    /\ crashesLeft' = crashesLeft - 1
    /\ UNCHANGED <<usedIds, logs, offline, client, staleReads>>

\* The log dir holding b's log of n fails (an IOException); b keeps running on
\* its other dirs.  The partition is offline on b until a restart repairs it.
DirFail(b, n) ==
    /\ EnableDirFailures
    /\ alive[b] /\ logs[b][n] # NONE /\ n \notin offline[b]
    /\ offline' = [offline EXCEPT ![b] = @ \cup {n}]
    /\ UNCHANGED <<ctrl, usedIds, chan, alive, image, logs, client, staleReads, fullDone,
                   crashesLeft>>

\* The broker restarts and registers.  "the first LeaderAndIsrRequest sent to a
\* broker by a controller contains all TopicPartitions that a broker is a
\* replica for": type FULL.  A leaderless partition of b gets b as leader.
\* With WaitForAllReplicasOnDelete the controller also retries the StopReplica
\* of deletions b has not acked.
Restart(b) ==
    /\ ~alive[b]
    /\ LET mine == {n \in Names : Live(ctrl, n) /\ b \in ctrl[n].replicas}
           c == [n \in Names |-> IF n \in mine /\ ctrl[n].leader = NONE
                                 THEN [ctrl[n] EXCEPT !.leader = b, !.epoch = @ + 1]
                                 ELSE ctrl[n]]
           stops == {n \in Names : ctrl[n].state = "deleting" /\ b \in ctrl[n].awaiting}
           \* at most one name is awaiting in the shipped configurations; more
           \* would need an order for the retried requests
           retry == IF stops = {} THEN <<>>
                    ELSE LET n == CHOOSE m \in stops : TRUE IN <<Stop(n, ctrl[n].id)>>
       IN /\ ctrl' = c
          /\ chan' = [chan EXCEPT ![b] = <<Lair(TRUE, {PartState(n, c) : n \in mine})>> \o retry]
    /\ alive' = [alive EXCEPT ![b] = TRUE]
    /\ offline' \in {[offline EXCEPT ![b] = {}], offline}
    /\ UNCHANGED <<usedIds, image, logs, client, staleReads, fullDone, crashesLeft>>

\* Follower b fetches n from the leader its image names, with the leader
\* epoch and (UseTopicIds) the topic id of its own replica.  The leader serves
\* it if it leads n at that epoch and holds a log of n with that topic id.
\* "the leader epoch is not sufficient ... as the partition leader epoch is
\* reset when a topic is deleted and recreated."
ReplicaFetch(b, n) ==
    LET v == image[b][n]
        l == v.leader
    IN /\ alive[b] /\ v.id # NONE /\ l # NONE /\ l # b /\ logs[b][n] = v.id
       /\ n \notin offline[b]
       /\ alive[l] /\ image[l][n].leader = l /\ image[l][n].epoch = v.epoch
       /\ IdMatches(l, n, v.id)
       /\ staleReads' = (staleReads \/ logs[l][n] # v.id)
       /\ UNCHANGED <<ctrl, usedIds, chan, brokerVars, client, fullDone, crashesLeft>>

\* The consumer refreshes its metadata (name -> topic id, leader, epoch).
ClientRefresh(n) ==
    /\ EnableConsumer
    /\ client' = [client EXCEPT ![n] = IF Live(ctrl, n) /\ ctrl[n].leader # NONE
                                       THEN [id |-> ctrl[n].id, leader |-> ctrl[n].leader,
                                             epoch |-> ctrl[n].epoch]
                                       ELSE NONE]
    /\ UNCHANGED <<ctrl, usedIds, chan, brokerVars, staleReads, fullDone, crashesLeft>>

\* The consumer reads n (Fetch / ListOffsets) from the leader it resolved.
ClientRead(n) ==
    LET v == client[n]
    IN /\ EnableConsumer /\ v # NONE
       /\ alive[v.leader] /\ image[v.leader][n].leader = v.leader
       /\ image[v.leader][n].epoch = v.epoch
       /\ IdMatches(v.leader, n, v.id)
       /\ staleReads' = (staleReads \/ logs[v.leader][n] # v.id)
       /\ UNCHANGED <<ctrl, usedIds, chan, brokerVars, client, fullDone, crashesLeft>>

-----------------------------------------------------------------------------
(* Inter-broker reassignment (EnableReassign), as the ZooKeeper controller   *)
(* runs it (KafkaController.onPartitionReassignment).  The topic id is what   *)
(* KIP-516 adds: the LeaderAndIsr an adding replica gets carries it (the new   *)
(* log's partition.metadata), and so does the StopReplica of a removed or     *)
(* cancelled replica.  A topic may be deleted (and its name re-created) while *)
(* it is being reassigned: DeleteTopic sends StopReplica to every replica in  *)
(* RS and forgets the reassignment.                                           *)

Reassigning(n) == ctrl[n].adding # {} \/ ctrl[n].removing # {}

\* A broker among S that is alive, to lead n (NONE if there is none).
AnyAlive(S) == IF \E x \in S : alive[x] THEN CHOOSE x \in S : alive[x] ELSE NONE

\* Start: RS = ORS + TRS is written with a new leader epoch and sent in
\* LeaderAndIsr (with the topic id) to every replica in RS; the adding ones
\* create their log.  A broker that is down gets it in its FULL request.
ReassignStart(n, T) ==
    /\ EnableReassign
    /\ Live(ctrl, n) /\ ~Reassigning(n) /\ ctrl[n].reassigns < MaxReassigns
    /\ Cardinality(T) = ReplicationFactor /\ T # ctrl[n].replicas
    /\ LET c == [ctrl EXCEPT ![n] = [@ EXCEPT !.replicas = @ \cup T, !.adding = T \ ctrl[n].replicas,
                                             !.removing = ctrl[n].replicas \ T, !.epoch = @ + 1,
                                             !.reassigns = @ + 1]]
       IN /\ ctrl' = c
          /\ chan' = SendAll(chan, c[n].replicas, Lair(FALSE, {PartState(n, c)}))
    /\ UNCHANGED <<usedIds, brokerVars, client, staleReads, fullDone, crashesLeft>>

\* Completion, once every adding replica has caught up (its running broker
\* holds the current topic id's log: "in the ISR"): the replicas become TRS, a
\* leader in RR hands over to an alive one of TRS, the epoch is bumped and
\* sent to TRS; the removed replicas get StopReplica(delete, topic id)
\* (BugRemovedReplicaKeepsLog: deletePartition = false).  A removed broker that
\* is down loses it: the FULL LeaderAndIsr of its restart no longer names n.
ReassignComplete(n) ==
    /\ EnableReassign
    /\ Live(ctrl, n) /\ Reassigning(n)
    /\ \A x \in IF BugCompleteWaitsForRemoved THEN ctrl[n].replicas ELSE ctrl[n].adding :
          alive[x] /\ logs[x][n] = ctrl[n].id /\ n \notin offline[x]
    /\ LET T == ctrl[n].replicas \ ctrl[n].removing
           RR == ctrl[n].removing
           l == IF ctrl[n].leader \in T THEN ctrl[n].leader ELSE AnyAlive(T)
           c == [ctrl EXCEPT ![n] = [@ EXCEPT !.replicas = T, !.adding = {}, !.removing = {},
                                             !.leader = l, !.epoch = @ + 1]]
           stop == IF BugRemovedReplicaKeepsLog THEN StopKeep(n, ctrl[n].id) ELSE Stop(n, ctrl[n].id)
       IN /\ ctrl' = c
          /\ chan' = [x \in Brokers |->
                        IF ~alive[x] THEN chan[x]
                        ELSE IF x \in T THEN Append(chan[x], Lair(FALSE, {PartState(n, c)}))
                        ELSE IF x \in RR THEN Append(chan[x], stop)
                        ELSE chan[x]]
    /\ UNCHANGED <<usedIds, brokerVars, client, staleReads, fullDone, crashesLeft>>

\* Cancellation (AlterPartitionReassignments with no target): the replicas go
\* back to ORS with a new epoch (a leader among the adding replicas hands
\* over), and the adding replicas get StopReplica(delete, topic id).
ReassignCancel(n) ==
    /\ EnableReassign
    /\ Live(ctrl, n) /\ Reassigning(n)
    /\ LET O == ctrl[n].replicas \ ctrl[n].adding
           AR == ctrl[n].adding
           l == IF ctrl[n].leader \in O THEN ctrl[n].leader ELSE AnyAlive(O)
           c == [ctrl EXCEPT ![n] = [@ EXCEPT !.replicas = O, !.adding = {}, !.removing = {},
                                             !.leader = l, !.epoch = @ + 1]]
       IN /\ ctrl' = c
          /\ chan' = [x \in Brokers |->
                        IF ~alive[x] THEN chan[x]
                        ELSE IF x \in O THEN Append(chan[x], Lair(FALSE, {PartState(n, c)}))
                        ELSE IF x \in AR THEN Append(chan[x], Stop(n, ctrl[n].id))
                        ELSE chan[x]]
    /\ UNCHANGED <<usedIds, brokerVars, client, staleReads, fullDone, crashesLeft>>

Next ==
    \/ \E n \in Names, i \in Ids, R \in SUBSET Brokers, l \in Brokers \cup {NONE} :
          CreateTopic(n, i, R, l)
    \/ \E n \in Names : DeleteTopic(n) \/ ClientRefresh(n) \/ ClientRead(n)
    \/ \E n \in Names : ReassignComplete(n) \/ ReassignCancel(n)
    \/ \E n \in Names, T \in SUBSET Brokers : ReassignStart(n, T)
    \/ \E b \in Brokers : HandleRequest(b) \/ Crash(b) \/ Restart(b)
    \/ \E b \in Brokers, n \in Names : ReplicaFetch(b, n) \/ DirFail(b, n)

Spec == Init /\ [][Next]_vars

\* Weak fairness on brokers handling their requests; none on creating,
\* deleting, crashing, restarting, fetching or reading.
LiveSpec == Spec /\ \A b \in Brokers : WF_vars(HandleRequest(b))

\* ... and on the controller completing a reassignment it can complete (it
\* checks on every ISR change of the partition); cancelling stays an operator's
\* choice.
LiveReassignSpec == LiveSpec /\ \A n \in Names : WF_vars(ReassignComplete(n))
=============================================================================
