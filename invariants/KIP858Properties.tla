--------------------------- MODULE KIP858Properties ---------------------------
(***************************************************************************)
(* Properties of the KIP-858 model (spec/KIP858.tla).                       *)
(* From the repository root:                                              *)
(*   kipcheck check invariants/KIP858Properties.tla --lib spec              *)
(*            --config invariants/KIP858_a_small_assign.cfg                 *)
(* TLC needs the spec directory on its library path and absolute paths     *)
(* (see invariants/EXPECTED.md).                                           *)
(* Expected results: invariants/EXPECTED.md.                               *)
(***************************************************************************)
EXTENDS KIP858

DirValues == DirIds \cup Reserved
\* Dir ids are typed as UUIDs (DirValues): a reserved id on a disk is a
\* NoReservedDirIds violation, not a type error.
LogRecords == [cur: SUBSET DirValues, fut: DirValues \cup {NONE},
               phase: {"none", "copying", "caught", "acked", "stopped"}]
PartitionRecords == [state: {"none", "live", "deleted"}, replicas: SUBSET Brokers,
                     dir: [Brokers -> DirValues], leader: Brokers \cup {NONE},
                     isr: SUBSET Brokers, lepoch: Nat,
                     adding: SUBSET Brokers, removing: SUBSET Brokers,
                     elr: SUBSET Brokers, lastKnownElr: SUBSET Brokers]
QueueEntries == DirIds \cup {LOST, NONE}

TypeOK ==
    /\ dirsOf \in [Brokers -> SUBSET DirValues]
    /\ alive \in [Brokers -> BOOLEAN]
    /\ zk \in [Brokers -> BOOLEAN]
    /\ \A b \in Brokers : online[b] \subseteq dirsOf[b]
    /\ \A b \in Brokers : knownFailed[b] \subseteq dirsOf[b] \ online[b]
    /\ logs \in [Brokers -> [Partitions -> LogRecords]]
    /\ dirty \in [Brokers -> SUBSET Partitions]
    /\ seen \in [Brokers -> SUBSET Partitions]
    /\ queue \in [Brokers -> [Partitions -> QueueEntries]]
    /\ \A b \in Brokers :
          \/ inflight[b] = NONE
          \/ inflight[b] \in [asg: [Partitions -> QueueEntries],
                              res: [Partitions -> {"none", "ok", "err", "unknown", "notReplica"}]]
    /\ \A b \in Brokers : hbPending[b] \subseteq knownFailed[b]
    /\ \A b \in Brokers : hbResp[b] = NONE \/ hbResp[b] \subseteq dirsOf[b]
    /\ reg \in [Brokers -> [dirs: SUBSET DirValues, fenced: BOOLEAN, epoch: 1..MaxEpoch,
                            zk: BOOLEAN, multi: BOOLEAN]]
    /\ part \in [Partitions -> PartitionRecords]
    /\ movesLeft \in 0..MaxMoves
    /\ rejected \in [Brokers -> SUBSET Partitions]
    /\ unfencedWith \in [Brokers -> SUBSET Partitions]
    /\ reassignsLeft \in 0..MaxReassigns
    /\ mvJbod \in BOOLEAN
    /\ stale \in [Brokers -> [Partitions -> SUBSET DirValues]]
    /\ pausesLeft \in 0..MaxPauses
    /\ recreatesLeft \in 0..MaxRecreates

(* Each directory id belongs to at most one broker ("If there are any two log *)
(* directories with the same UUID, the Broker will fail at startup"), on     *)
(* disk and in the registrations (a registration may still list the id of a  *)
(* disk replaced since: it is stale, not shared).                            *)
UniqueDirIds ==
    \A b1, b2 \in Brokers :
        b1 # b2 => (dirsOf[b1] \cup reg[b1].dirs) \cap (dirsOf[b2] \cup reg[b2].dirs) = {}

(* Reserved UUIDs are never used as a real directory id. *)
NoReservedDirIds ==
    \A b \in Brokers :
        /\ dirsOf[b] \cap Reserved = {}
        /\ reg[b].dirs \cap Reserved = {}
        /\ \A p \in Partitions : /\ logs[b][p].cur \cap Reserved = {}
                                 /\ logs[b][p].fut \notin Reserved

LeaderInIsr ==
    \A p \in Partitions :
        part[p].state = "live" /\ part[p].leader # NONE => part[p].leader \in part[p].isr

LeaderUnfenced ==
    \A p \in Partitions :
        part[p].state = "live" /\ part[p].leader # NONE => ~reg[part[p].leader].fenced

(* The ISR holds only replicas the controller may elect, but for its last     *)
(* member: fencing a broker and a replica going offline (a failed dir          *)
(* reported, an assignment into an offline dir) remove it from the ISR unless  *)
(* it is the last member (ReplicationControlManager.generateLeaderAndIsrUpdates),*)
(* and AlterPartition refuses a fenced follower (INELIGIBLE_REPLICA, KIP-841),  *)
(* so that an election from the ISR always finds an eligible member unless a    *)
(* single one is left.                                                         *)
IsrMembersEligible ==
    \A p \in Partitions :
        part[p].state = "live" /\ Cardinality(part[p].isr) > 1
            => \A b \in part[p].isr : Eligible(p, b)

(* "Broker registration": a multi-dir broker is only unfenced once the         *)
(* controller knows the directory of every replica it hosts.  State form of   *)
(* the transition property: when the controller last unfenced b, b had no     *)
(* replica at UNASSIGNED or MIGRATING (partitions created while b is unfenced *)
(* start UNASSIGNED and are not a violation).                                 *)
FencedUntilAssigned == \A b \in Brokers : unfencedWith[b] = {}

(* KAFKA-16234: a broker never creates a replica in another dir while the     *)
(* replica's log sits on an offline dir.  State form: no broker ever holds     *)
(* two current logs of a partition (Kafka refuses to start with duplicates).   *)
NoReplicaRecreatedElsewhere ==
    \A b \in Brokers, p \in Partitions : Cardinality(logs[b][p].cur) <= 1

(* Once the controller has processed a failure (a heartbeat's OfflineLogDirs, *)
(* or an assignment into an offline dir / LOST_DIR), no partition has its     *)
(* leader on that broker's failed dir.  Safety form: the leader's directory   *)
(* in the metadata is neither LOST_DIR nor one of the leader's own dirs that  *)
(* its registration no longer lists as online.  (Stated on the broker's real  *)
(* dirs, not through the controller's "Metadata caching" rule.)               *)
(* A registration listing no dirs (made below IBP_3_7_IV2) says nothing of   *)
(* them: DirectoryId.isOnline takes every dir of such a broker as online.    *)
KnownOffline(b, d) == d = LOST \/ (d \in dirsOf[b] \ reg[b].dirs /\ reg[b].dirs # {})

NoLeaderOnOfflineDir ==
    \A p \in Partitions :
        LET l == part[p].leader
        IN part[p].state = "live" /\ l # NONE => ~KnownOffline(l, part[p].dir[l])

(* Broker b has nothing left to tell the controller about directories.        *)
Quiet(b) ==
    /\ alive[b]
    /\ queue[b] = EmptyQ
    /\ inflight[b] = NONE
    /\ dirty[b] = {}

(* The controller's directory for replica (b, p) is the online dir holding    *)
(* its current log, unless a move is under way (a stopped move's future log  *)
(* does not count).                                                          *)
DirMatches(b, p) ==
    LiveReplicaOf(p, b) /\ ~MoveUnderWay(logs[b][p])
        => \A c \in logs[b][p].cur \cap online[b] : part[p].dir[b] = c

(* KAFKA-16297.  Safety form: whenever a running multi-dir broker has applied *)
(* all metadata and has no assignment queued or in flight, the controller's   *)
(* directory of each of its replicas equals the online dir holding the log.   *)
MetadataDirMatchesDisk ==
    \A b \in Brokers :
        Quiet(b) /\ IsMulti(b) => \A p \in Partitions : DirMatches(b, p)

(* KAFKA-17190.  Safety approximation: once the controller has answered      *)
(* UNKNOWN_TOPIC_ID for a partition and the broker's image shows it deleted,  *)
(* the broker no longer queues an assignment for it (the buggy manager kept   *)
(* retrying it forever).  The liveness form is AssignmentQueueDrainsLive.     *)
AssignmentQueueDrains ==
    \A b \in Brokers, p \in Partitions :
        p \in rejected[b] /\ ImageDeleted(b, p) => queue[b][p] = NONE

(* A heartbeat response acknowledges only the dirs that heartbeat carried:    *)
(* every failed dir the broker no longer reports is known offline to the      *)
(* controller.                                                                 *)
AckOnlyWhatWasSent ==
    \A b \in Brokers :
        alive[b] => \A d \in knownFailed[b] \ hbPending[b] : d \notin reg[b].dirs

(* The leader hosts the log: a partition's leader has its current log in an    *)
(* online dir, once its broker has applied the partition's metadata and has   *)
(* nothing left to tell the controller (no failed dir unacknowledged, no       *)
(* assignment queued or in flight): otherwise the partition is offline while  *)
(* the metadata shows a leader.  KRaft-mode leaders only: a ZK-mode broker    *)
(* reports offline replicas to the ZK controller, which the model leaves out   *)
(* (a ZK-mode broker restarted with a dir still failed may be elected here).   *)
Told(b) == Quiet(b) /\ ~zk[b] /\ hbPending[b] = {} /\ hbResp[b] = NONE

LeaderHostsLog ==
    \A p \in Partitions :
        LET l == part[p].leader
        IN part[p].state = "live" /\ l # NONE /\ Told(l)
               => logs[l][p].cur \cap online[l] # {}

(* No stray logs once quiet: a running broker with every dir online, every    *)
(* metadata change applied and no move under way keeps no log (current or     *)
(* future) of a partition it does not host -- a deleted topic's included.     *)
NoStrayLogsWhenQuiet ==
    \A b \in Brokers :
        Quiet(b) /\ online[b] = dirsOf[b] /\ (\A p \in Partitions : ~MoveUnderWay(logs[b][p]))
            => \A p \in Partitions :
                   ~LiveReplicaOf(p, b) => logs[b][p].cur = {} /\ logs[b][p].fut = NONE

(* Promotion only after the acknowledgement (an action property): a move's     *)
(* future log replaces the current one only when the controller's directory   *)
(* for the replica is already the future log's dir ("Intra-broker replica     *)
(* movement": the broker waits for AssignReplicasToDirs to succeed).  A       *)
(* replica the partition moved away from has no dir in the metadata: out of   *)
(* scope (its log goes when the broker applies the move).                     *)
Promoted(b, p) ==
    /\ logs[b][p].fut # NONE
    /\ logs'[b][p].fut = NONE
    /\ logs'[b][p].cur = {logs[b][p].fut}

PromoteOnlyAfterAck ==
    [][\A b \in Brokers, p \in Partitions :
          Promoted(b, p) /\ b \in part[p].replicas => part[p].dir[b] = logs[b][p].fut]_vars

(* A follower joins the ISR only once it has caught up from the leader (an    *)
(* action property): the leader, which proposes the new ISR (AlterPartition), *)
(* runs with its log online, and the follower fetches into a log of its own   *)
(* in an online dir -- a replica a reassignment adds, only once its broker has *)
(* applied the record that added it (before, its fetches carry an older      *)
(* leader epoch and are fenced).  Without data, a log the follower fetches    *)
(* into is what "caught up" can mean here.  An empty ISR is joined only by an *)
(* election (from the ELR, or of the last known leader: ElectionFromIsrOrElr).  *)
IsrJoinsCaughtUp ==
    [][\A p \in Partitions, b \in Brokers :
          part[p].state = "live" /\ b \notin part[p].isr /\ b \in part'[p].isr /\ part[p].isr # {}
              => LET l == part[p].leader
                 IN /\ l # NONE /\ alive[l] /\ logs[l][p].cur \cap online[l] # {}
                    /\ alive[b] /\ logs[b][p].cur \cap online[b] # {}
                    /\ ~(b \in part[p].adding /\ p \in dirty[b])]_vars

(* Inter-broker reassignment.  The ISR, the adding and the removing replicas  *)
(* are replicas of the partition (PartitionRegistration), before, during and *)
(* after a reassignment: a replica that left the replicas is in no list and   *)
(* cannot be elected.                                                         *)
IsrWithinReplicas ==
    \A p \in Partitions :
        part[p].state = "live" =>
            /\ part[p].isr \cup part[p].adding \cup part[p].removing \subseteq part[p].replicas
            /\ part[p].adding \cap part[p].removing = {}

(* A partition's ISR is never empty, whether or not it has a leader: when its *)
(* last in-sync replica goes (its broker fenced, its dir offline) the          *)
(* controller keeps it in the ISR and sets the leader to none                  *)
(* (PartitionChangeBuilder.build writes an empty ISR only with eligible leader *)
(* replicas, KIP-966, which the model leaves out), so that the partition comes *)
(* back with that replica, which holds every committed record, without an      *)
(* unclean election.  "Live" is the model's "the controller has the record":   *)
(* created and not deleted, online (a leader) or offline (none).               *)
IsrNeverEmpty ==
    \A p \in Partitions : part[p].state = "live" => part[p].isr # {}

(* Eligible leader replicas (KIP-966; EnableElr, whose configurations do not   *)
(* check IsrNeverEmpty: with ELR the ISR may empty).  A replica is in the ISR  *)
(* or in the ELR, never both (ReplicationControlManager.updatePartitionInfo    *)
(* logs "overlapping ISR and ELR" as an error).                                *)
IsrElrDisjoint ==
    \A p \in Partitions : part[p].state = "live" => part[p].isr \cap part[p].elr = {}

(* ELR members are safe leaders (an action property): a broker enters the ELR *)
(* only from the ISR -- where it holds every committed record, as far as the   *)
(* model knows records (IsrJoinsCaughtUp) -- and stays there only while the    *)
(* incarnation that left the ISR is registered: a new registration follows an  *)
(* unclean shutdown, which may have lost records it had acknowledged.          *)
ElrMembersCaughtUp ==
    [][\A p \in Partitions, b \in Brokers :
          part'[p].state = "live" /\ b \in part'[p].elr
              => /\ b \in part[p].isr \cup part[p].elr
                 /\ reg'[b].epoch = reg[b].epoch]_vars

(* An ELR member is never silently dropped (an action property): it leaves    *)
(* the ELR only by joining the ISR (elected, or caught up again), by leaving   *)
(* the replicas, because the ISR meets min ISR again (the ELR is then cleared), *)
(* by registering after an unclean shutdown, or with its partition -- or when *)
(* a leader from outside the ISR and the ELR is elected, an unclean election,   *)
(* which clears the ELR (maybeUpdateRecordElr; ElectionFromIsrOrElr says when). *)
UncleanElection(p) ==
    part'[p].leader \notin {NONE, part[p].leader} \cup part[p].isr \cup part[p].elr

ElrNeverSilentlyDropped ==
    [][\A p \in Partitions, b \in Brokers :
          part[p].state = "live" /\ part'[p].state = "live"
          /\ b \in part[p].elr /\ b \notin part'[p].elr
              => \/ b \in part'[p].isr
                 \/ b \notin part'[p].replicas
                 \/ Cardinality(part'[p].isr) >= EffMinIsr(part[p])
                 \/ reg'[b].epoch # reg[b].epoch
                 \/ UncleanElection(p)]_vars

(* The ELR lists replicas of the partition only: a replica that leaves the    *)
(* replicas leaves the ELR with them.  Kafka's code does not keep it: a        *)
(* reassignment that leaves fewer replicas than min.insync.replicas puts the   *)
(* ones it removes into the ELR (a finding, checked by                        *)
(* KIP858_finding_elr_reassign_removed_replica only).                          *)
ElrWithinReplicas ==
    \A p \in Partitions : part[p].state = "live" => part[p].elr \subseteq part[p].replicas

(* A clean election (an action property): a leaderless partition gets a     *)
(* leader from its ISR; from its ELR only when the ISR is empty; and the last  *)
(* known leader (KIP-966's recovery when no replica is known to hold every     *)
(* committed record) only when both are empty.  Without ELR: from the ISR.    *)
ElectionFromIsrOrElr ==
    [][\A p \in Partitions :
          part[p].state = "live" /\ part[p].leader = NONE /\ part'[p].leader # NONE
              => LET l == part'[p].leader
                     pr == part[p]
                 IN \/ l \in pr.isr
                    \/ pr.isr = {} /\ l \in pr.elr
                    \/ pr.isr \cup pr.elr = {} /\ pr.lastKnownElr = {l}]_vars

(* A reassignment is in progress only in a partition record the controller    *)
(* has: a partition not created yet or deleted has none                        *)
(* (alterPartitionReassignment answers UNKNOWN_TOPIC_OR_PARTITION; deleting a  *)
(* topic removes its records with their adding and removing replicas).  An     *)
(* offline partition may be reassigned: nothing asks for a leader.             *)
NoReassignmentWithoutPartition ==
    \A p \in Partitions :
        part[p].state # "live" => part[p].adding = {} /\ part[p].removing = {}

(* Only a topic the controller has is deleted (DeleteTopics of an unknown     *)
(* topic answers UNKNOWN_TOPIC_OR_PARTITION): a deleted partition was created *)
(* and keeps the replicas it had.                                           *)
NoDeletionWithoutPartition ==
    \A p \in Partitions : part[p].state = "deleted" => part[p].replicas # {}

(* A broker that has applied the move of a partition away from it keeps no    *)
(* assignment of it queued (AssignmentsManager: Assignment.valid, "Check if    *)
(* this broker is still a replica"), so a stale directory of the replica that *)
(* left is never sent -- and never accepted into the partition record should  *)
(* the partition move back to the broker.                                     *)
MovedAwayAssignmentDropped ==
    \A b \in Brokers, p \in Partitions :
        part[p].state = "live" /\ b \notin part[p].replicas /\ p \notin dirty[b]
            => queue[b][p] = NONE

(* metadata.version.  Below IBP_3_7_IV2 no directory id is written: every     *)
(* replica is at MIGRATING_DIR and no registration lists dirs (the records of *)
(* that version have no field for them: PartitionRegistration.toRecord and    *)
(* BrokerRegistration.toRecord drop them, "handleLoss"), so that a snapshot   *)
(* or a controller failover loses nothing the brokers relied on.              *)
NoDirIdBelowJbodVersion ==
    ~mvJbod =>
        /\ \A b \in Brokers : reg[b].dirs = {}
        /\ \A p \in Partitions, b \in Brokers : LiveReplicaOf(p, b) => part[p].dir[b] = MIGRATING

(* After the upgrade, until a broker registered below IBP_3_7_IV2 has sent its *)
(* registration again with its dirs, the controller takes none of its        *)
(* replicas offline: it cannot tell which of its dirs are online ("Replica    *)
(* management": a broker without a known dir list has a single dir and stops *)
(* when it fails), so every replica of such a broker counts as online.        *)
ReplicasOnlineUntilReRegistered ==
    \A b \in Brokers, p \in Partitions :
        LiveReplicaOf(p, b) /\ reg[b].dirs = {} => ~CtrlOffline(b, part[p].dir[b])

(* Topic ids.  A log of an old incarnation of a topic (deleted, then created   *)
(* again under the same name with a new topic id) is never taken for the new  *)
(* one's: no broker holds it as the partition's current or future log -- so    *)
(* the partition's leader never leads, and no follower fetches, from the old   *)
(* incarnation's records (LogManager.getOrCreateLog and isStrayKraftReplica    *)
(* compare the topic id in partition.metadata with the image's).               *)
OldIncarnationNeverLoaded ==
    \A b \in Brokers, p \in Partitions : stale[b][p] \cap LogDirs(logs[b][p]) = {}

(* No stray log of a deleted incarnation survives on an online dir once its    *)
(* broker is quiet: the broker deletes it when it applies the deletion (or the *)
(* re-creation) with the dir online, or, when the dir was offline or the       *)
(* broker down, at the next startup that loads the dir (a failed dir comes     *)
(* back only with a restart).                                                  *)
NoStaleLogsWhenQuiet ==
    \A b \in Brokers : Quiet(b) => \A p \in Partitions : stale[b][p] \cap online[b] = {}

(* A broker's memory does not outlive its process: a stopped broker has        *)
(* nothing queued or in flight to the controller (AssignmentsManager), no      *)
(* heartbeat under way and no failed dir it still reports (BrokerLifecycle-    *)
(* Manager), and no image of its own (ReplicaManager): all in memory, started  *)
(* anew by the next incarnation.  Otherwise what the old incarnation decided   *)
(* would be sent by a broker that no longer stands behind it.                  *)
StoppedBrokerForgets ==
    \A b \in Brokers : ~alive[b] =>
        /\ queue[b] = EmptyQ /\ inflight[b] = NONE
        /\ hbPending[b] = {} /\ hbResp[b] = NONE
        /\ knownFailed[b] = {} /\ dirty[b] = {} /\ seen[b] = {}

(* A new registration is a new incarnation (a restart, or a ZooKeeper-mode     *)
(* broker restarted into KRaft, running or not): it starts with nothing queued *)
(* or in flight and no heartbeat under way (an action property: the step that  *)
(* registers).                                                                 *)
RestartForgets ==
    [][\A b \in Brokers :
          reg'[b].epoch # reg[b].epoch =>
              /\ queue'[b] = EmptyQ /\ inflight'[b] = NONE
              /\ hbPending'[b] = {} /\ hbResp'[b] = NONE /\ knownFailed'[b] = {}]_vars

(* Every change to a partition's record reaches each running broker that       *)
(* hosts or hosted a replica of it (an action property): in KRaft every broker *)
(* replays the whole metadata log, and ReplicaManager.applyDelta acts on each  *)
(* local change -- a new leader or ISR as much as new replicas or a new dir    *)
(* (TopicsDelta.localChanges).  The step that changes the record marks it     *)
(* unapplied at that broker, unless the broker stops or registers anew in the *)
(* same step (it then loads the whole image at its start).                    *)
RecordsReachRunningBrokers ==
    [][\A p \in Partitions, x \in Brokers :
          (/\ part'[p] # part[p]
           /\ alive[x] /\ alive'[x] /\ reg'[x].epoch = reg[x].epoch
           /\ x \in part[p].replicas \cup part'[p].replicas)
              => p \in dirty'[x]]_vars

(* The leader epoch moves with the leader (an action property): a live         *)
(* partition's leader epoch is bumped, by one, exactly when its leader changes *)
(* (to another replica or to none) or replicas leave it (a reassignment that   *)
(* completes or is cancelled), and stays otherwise.  PartitionRegistration.    *)
(* merge bumps it when a PartitionChangeRecord sets the leader;                *)
(* PartitionChangeBuilder sets the leader only for a new one (tryElection: an  *)
(* election that finds the current leader writes nothing -- ElectLeaders       *)
(* answers ELECTION_NOT_NEEDED) or when the new replicas leave some out        *)
(* (triggerLeaderEpochBumpForReplicaReassignmentIfNeeded).  An ISR that only    *)
(* shrinks bumped it before metadata.version 3.6 (KAFKA-15021), which the      *)
(* model leaves out.  Followers fetch with the leader epoch: a bump without a   *)
(* new leader fences every fetch until the record is applied.                  *)
LeaderEpochFollowsLeader ==
    [][\A p \in Partitions :
          part[p].state = "live" /\ part'[p].state = "live"
              => part'[p].lepoch =
                    IF \/ part'[p].leader # part[p].leader
                       \/ ~(part[p].replicas \subseteq part'[p].replicas)
                    THEN part[p].lepoch + 1 ELSE part[p].lepoch]_vars

(* A partition loses its leader only when the leader is no longer acceptable   *)
(* (an action property): a live partition's leader becomes none only when its  *)
(* broker is fenced or registers anew (a restart: an unclean shutdown), the    *)
(* controller takes its replica's dir offline, or it leaves the replicas (a    *)
(* reassignment).  PartitionChangeBuilder.electAnyLeader keeps a leader that   *)
(* is still valid and writes NO_LEADER only when no replica is; a leader is     *)
(* valid while in the ISR and acceptable (ReplicationControlManager.           *)
(* LeaderAcceptor: its broker active -- unfenced, not in controlled shutdown,   *)
(* which the model leaves out -- and its replica's dir online), and the ISR     *)
(* always keeps its leader (alterPartition refuses an ISR without it).         *)
LeaderLostOnlyWhenUnacceptable ==
    [][\A p \in Partitions, l \in Brokers :
          part[p].state = "live" /\ part'[p].state = "live"
          /\ part[p].leader = l /\ part'[p].leader = NONE
              => \/ l \notin part'[p].replicas
                 \/ reg'[l].epoch # reg[l].epoch
                 \/ ~Eligible(p, l)']_vars

(* A broker shuts down only where the KIP says it does ("Brokers / Handling   *)
(* log directory failures"): a dir failure it cannot survive (its only log    *)
(* dir, its last online dir, or any dir in ZooKeeper mode during the          *)
(* migration), or log.dir.failure.timeout.ms: "if the broker is unable to      *)
(* successfully communicate to the controller that some log directory has      *)
(* failed [or a replica assignment into a failed directory] ... and there's at *)
(* least one partition with leadership on that directory".  Where crashes are  *)
(* modelled (EnableRestart) a halt may have any cause.                         *)
FailureUncommunicated(b) ==
    \/ hbPending[b] # {}
    \/ \E p \in Partitions : PendingAssign(b, p) \cap (knownFailed[b] \cup {LOST}) # {}

LeadsFromFailedDir(b) ==
    \E p \in Partitions : part[p].leader = b /\ logs[b][p].cur \cap knownFailed[b] # {}

FatalDirFailure(b) ==
    online'[b] # online[b] /\ (~IsMulti(b) \/ zk[b] \/ online'[b] = {})

ShutdownOnlyAsTheKipSays ==
    [][\A b \in Brokers :
          alive[b] /\ ~alive'[b] =>
              \/ EnableRestart
              \/ FatalDirFailure(b)
              \/ FailureUncommunicated(b) /\ LeadsFromFailedDir(b)]_vars

Symmetry == Permutations(DirIds) \cup Permutations(Brokers)
SymmetryWithPartitions == Symmetry \cup Permutations(Partitions)

-----------------------------------------------------------------------------
(* Liveness forms, checked under LiveSpec (KIP858_*_live*.cfg, no SYMMETRY:  *)
(* symmetry is unsound for liveness).                                       *)

(* After a log dir fails, every replica on it loses leadership and ISR        *)
(* membership (so every partition led from it gets a new leader, or none      *)
(* when it was the last ISR member), or its broker shuts down, or the         *)
(* partition goes away.                                                       *)
NoLeaderOnOfflineDirLive ==
    \A b \in Brokers, p \in Partitions :
        (alive[b] /\ LiveReplicaOf(p, b) /\ logs[b][p].cur \cap knownFailed[b] # {})
            ~> (\/ ~alive[b]
                \/ ~LiveReplicaOf(p, b)
                \/ part[p].leader # b /\ (b \notin part[p].isr \/ part[p].isr = {b}))

(* KAFKA-16297.  Eventually for good, the controller's directory of every     *)
(* replica on a running multi-dir broker is the online dir holding its log    *)
(* (once no move is under way).                                               *)
MetadataDirMatchesDiskLive ==
    <>[](\A b \in Brokers : alive[b] /\ IsMulti(b) => \A p \in Partitions : DirMatches(b, p))

(* KAFKA-17190.  With no further topology change (failures, moves, creation   *)
(* and deletion are finite here) every broker's assignment queue empties and  *)
(* stays empty.  Needs EnableRpcErrors off: weak fairness does not stop a     *)
(* request from failing forever.                                              *)
AssignmentQueueDrainsLive ==
    \A b \in Brokers : <>[](alive[b] => queue[b] = EmptyQ /\ inflight[b] = NONE)

(* Every started move ends: under the fairness of LiveSpec, a move under way   *)
(* on a running broker is eventually promoted, or stopped by a dir failure     *)
(* (and then reverted: MetadataDirMatchesDiskLive), or its partition is        *)
(* deleted, or the broker stops.                                               *)
MoveEndsLive ==
    \A b \in Brokers, p \in Partitions :
        (alive[b] /\ MoveUnderWay(logs[b][p])) ~> (~alive[b] \/ ~MoveUnderWay(logs[b][p]))

(* An assignment the broker queued is eventually accepted by the controller    *)
(* (its directory for the replica becomes the queued one), or superseded by a  *)
(* newer assignment, or the replica goes away, or the broker stops: the         *)
(* AssignmentsManager retries until the controller has answered                *)
(* ("Intra-broker replica movement", "Brokers / Replica management": the        *)
(* assignment is queued and sent; a failed request is retried).               *)
AssignmentAcceptedLive ==
    \A b \in Brokers, p \in Partitions, d \in DirIds \cup {LOST} :
        (alive[b] /\ queue[b][p] = d)
            ~> (\/ ~alive[b]
                \/ ~LiveReplicaOf(p, b)
                \/ part[p].dir[b] = d
                \/ queue[b][p] \notin {d, NONE})

(* After a log dir fails under a running broker, every replica whose log was  *)
(* on it is eventually offline in the metadata: the controller's directory for *)
(* it is LOST_DIR or a dir the registration no longer lists ("Brokers /         *)
(* Handling log directory failures": the failed dir is reported in every        *)
(* heartbeat until acknowledged), or the broker stops, or the replica goes     *)
(* away.  The liveness form of AckOnlyWhatWasSent.                             *)
FailedDirReplicasOfflineLive ==
    \A b \in Brokers, p \in Partitions :
        (alive[b] /\ LiveReplicaOf(p, b)
                  /\ logs[b][p].cur # {} /\ logs[b][p].cur \subseteq knownFailed[b])
            ~> (~alive[b] \/ ~LiveReplicaOf(p, b) \/ KnownOffline(b, part[p].dir[b]))

(* A stray log is eventually deleted: a running broker holding a log (current  *)
(* or future) in an online dir of a partition it does not host eventually     *)
(* holds none there, or stops, or hosts the partition again.  The liveness     *)
(* form of NoStrayLogsWhenQuiet.                                               *)
LogOnline(b, p) == logs[b][p].cur \cap online[b] # {} \/ logs[b][p].fut \in online[b]

StrayLogDeletedLive ==
    \A b \in Brokers, p \in Partitions :
        (alive[b] /\ ~LiveReplicaOf(p, b) /\ LogOnline(b, p))
            ~> (~alive[b] \/ LiveReplicaOf(p, b) \/ ~LogOnline(b, p))

(* A replica is created: a running broker with every dir online eventually    *)
(* holds a log of each partition it hosts ("Brokers / Replica management":     *)
(* the broker selects a dir for a new replica, creates its log there and       *)
(* tells the controller), or a dir fails, or the broker stops, or the replica  *)
(* goes away.                                                                  *)
ReplicaCreatedLive ==
    \A b \in Brokers, p \in Partitions :
        (alive[b] /\ online[b] = dirsOf[b] /\ LiveReplicaOf(p, b) /\ logs[b][p].cur = {})
            ~> (\/ ~alive[b]
                \/ online[b] # dirsOf[b]
                \/ ~LiveReplicaOf(p, b)
                \/ logs[b][p].cur # {})

(* A leader is elected: a live partition without a leader but with an ISR     *)
(* member the controller may elect (unfenced, its dir not known offline)       *)
(* eventually has a leader, or loses every such member, or goes away.          *)
HasEligibleIsrMember(p) == \E b \in part[p].isr : Eligible(p, b)

LeaderElectedLive ==
    \A p \in Partitions :
        (part[p].state = "live" /\ part[p].leader = NONE /\ HasEligibleIsrMember(p))
            ~> (part[p].state # "live" \/ part[p].leader # NONE \/ ~HasEligibleIsrMember(p))

(* A leader is elected from the ELR: a live partition with an empty ISR and   *)
(* an ELR member the controller may elect eventually has a leader, or loses    *)
(* every such member, or goes away (KIP-966: the ELR is where the controller    *)
(* looks when the ISR is empty).                                               *)
HasEligibleElrMember(p) == part[p].isr = {} /\ \E b \in part[p].elr : Eligible(p, b)

ElrLeaderElectedLive ==
    \A p \in Partitions :
        (part[p].state = "live" /\ part[p].leader = NONE /\ HasEligibleElrMember(p))
            ~> (part[p].state # "live" \/ part[p].leader # NONE \/ ~HasEligibleElrMember(p))

(* "Migrating a cluster in KRaft without JBOD": a broker given several log    *)
(* dirs after the upgrade uses AssignReplicasToDirs to put the dir of every    *)
(* replica still at MIGRATING_DIR into the metadata: such a replica of a       *)
(* running multi-dir broker with every dir online eventually has a real dir,  *)
(* or a dir fails, or the broker stops, or the replica goes away.             *)
MigratingDirResolvedLive ==
    \A b \in Brokers, p \in Partitions :
        (alive[b] /\ IsMulti(b) /\ online[b] = dirsOf[b]
                  /\ LiveReplicaOf(p, b) /\ part[p].dir[b] = MIGRATING)
            ~> (\/ ~alive[b]
                \/ online[b] # dirsOf[b]
                \/ ~LiveReplicaOf(p, b)
                \/ part[p].dir[b] # MIGRATING)

(* A broker is unfenced: a running KRaft-mode broker that is fenced with every *)
(* dir online is eventually unfenced, or stops, or a dir fails ("Broker        *)
(* registration", "Broker lifecycle management": once its assignments are    *)
(* known the broker asks to be unfenced, and the controller grants it).  A      *)
(* dir that stays failed may keep it fenced for good (a replica UNASSIGNED on  *)
(* it: invariants/EXPECTED.md), hence the failure as an exit.                  *)
UnfencedLive ==
    \A b \in Brokers :
        (alive[b] /\ ~zk[b] /\ reg[b].fenced /\ online[b] = dirsOf[b])
            ~> (~alive[b] \/ ~reg[b].fenced \/ online[b] # dirsOf[b])

(* A new replica is created: a replica given to a running broker after it     *)
(* started (the partition is new to its process: created, re-created under a  *)
(* new topic id) eventually has a log, even with a dir offline -- the isNew    *)
(* rule lets LogManager create it in an online dir ("Rejected alternatives") -- *)
(* or the broker stops, or the replica goes away.  Also when a log of the old  *)
(* incarnation sits on a dir that failed (KAFKA-16157).                        *)
NewReplicaCreatedLive ==
    \A b \in Brokers, p \in Partitions :
        (alive[b] /\ LiveReplicaOf(p, b) /\ p \notin seen[b] /\ logs[b][p].cur = {})
            ~> (~alive[b] \/ ~LiveReplicaOf(p, b) \/ logs[b][p].cur # {})

(* A caught-up follower joins the ISR: a replica outside the ISR whose broker  *)
(* runs unfenced with its log in an online dir (not known offline to the       *)
(* controller; a replica a reassignment adds, once its broker applied the      *)
(* record that added it), of a partition whose leader runs with its log online,*)
(* is eventually in the ISR, or stops being such a follower (the leader's     *)
(* AlterPartition adds it: Partition.maybeExpandIsr).                          *)
CaughtUpOutsideIsr(p, b) ==
    LET l == part[p].leader
    IN /\ part[p].state = "live" /\ b \in part[p].replicas \ part[p].isr
       /\ alive[b] /\ Eligible(p, b) /\ logs[b][p].cur \cap online[b] # {}
       /\ ~(b \in part[p].adding /\ p \in dirty[b])
       /\ l # NONE /\ alive[l] /\ logs[l][p].cur \cap online[l] # {}

IsrExpandsLive ==
    \A p \in Partitions, b \in Brokers :
        CaughtUpOutsideIsr(p, b) ~> (b \in part[p].isr \/ ~CaughtUpOutsideIsr(p, b))

(* A reassignment ends: on a cluster whose brokers keep running with every    *)
(* dir online, a reassignment in progress eventually completes (every target   *)
(* replica joined the ISR: PartitionReassignmentReplicas.                      *)
(* maybeCompleteReassignment) or is cancelled, or its topic is deleted.  A     *)
(* broker that stops or a dir that fails may hold it up for good (its replica *)
(* cannot join), hence the exit.                                               *)
ReassignmentEndsLive ==
    \A p \in Partitions :
        (part[p].state = "live" /\ Reassigning(part[p]))
            ~> (\/ part[p].state # "live"
                \/ ~Reassigning(part[p])
                \/ \E b \in Brokers : ~alive[b] \/ online[b] # dirsOf[b])

(* A failed dir's report is acknowledged: a running broker with failed dirs   *)
(* the controller has not acknowledged eventually has none, or stops           *)
(* ("Brokers / Handling log directory failures": failed dirs are sent in every *)
(* heartbeat until the controller acknowledges them; log.dir.failure.timeout.ms *)
(* shuts down a broker whose report was never acknowledged).                   *)
FailedDirAcknowledgedLive ==
    \A b \in Brokers : (alive[b] /\ hbPending[b] # {}) ~> (~alive[b] \/ hbPending[b] = {})

(* A stopped broker is fenced: once its process is gone, the controller        *)
(* eventually fences it (its heartbeats stop, broker.session.timeout.ms runs   *)
(* out), or it runs again.  Until then it is eligible to lead.                 *)
StoppedBrokerFencedLive ==
    \A b \in Brokers : (~alive[b] /\ ~reg[b].fenced) ~> (alive[b] \/ reg[b].fenced)

(* After the upgrade to IBP_3_7_IV2, a running KRaft-mode broker registered    *)
(* without dirs eventually lists its dirs in its registration, or stops        *)
(* (KAFKA-16162: without it the controller places new replicas on a broker     *)
(* whose dirs it does not know, and they stay offline until a restart).        *)
RegistrationListsDirsLive ==
    \A b \in Brokers :
        (alive[b] /\ ~zk[b] /\ mvJbod /\ reg[b].dirs = {}) ~> (~alive[b] \/ reg[b].dirs # {})

\* Weak fairness on everything the system does by itself (the dir failure timer
\* included); none on failures, crashes, restarts, moves being started, topic
\* creation/deletion.  AssignSend includes its failing branch, so with
\* EnableRpcErrors a request may fail forever under this fairness.
-----------------------------------------------------------------------------
(* Witnesses: scenarios a configuration that enables them must reach.  A    *)
(* model that never reaches one satisfies every safety property above       *)
(* vacuously for that part of Kafka.  kipcheck: `check --witness W`; mutate   *)
(* and bench/mutants.py read KIP858Properties.witnesses.txt.  TLC: the        *)
(* invariant ~W, expected to be violated.                                    *)

\* A topic is deleted ...
SomeTopicDeleted == \E p \in Partitions : part[p].state = "deleted"
\* ... and every broker, running, has applied the deletion and removed its log.
DeletedTopicCleanedUp ==
    \E p \in Partitions :
        /\ part[p].state = "deleted"
        /\ \A b \in Brokers : alive[b] /\ p \notin dirty[b] /\ logs[b][p] = NoLog
\* A topic deleted earlier exists again (a new incarnation, another topic id).
TopicRecreated == recreatesLeft < MaxRecreates /\ \E p \in Partitions : part[p].state = "live"
\* The old incarnation's log stays on a disk, kept aside (another topic id),
\* until the broker that holds it deletes it.
StaleLogOnDisk == \E b \in Brokers, p \in Partitions : stale[b][p] # {}
\* AlterReplicaLogDirs started a future log ...
MoveStarted == \E b \in Brokers, p \in Partitions : logs[b][p].fut # NONE
\* ... the controller accepted its dir: the broker may promote it ...
MoveAccepted == \E b \in Brokers, p \in Partitions : logs[b][p].phase = "acked"
\* ... and it is over (promoted, or reverted) with the broker told and its
\* replicas' dirs in the metadata matching its disk.
MoveEnded ==
    /\ movesLeft < MaxMoves
    /\ \A b \in Brokers : Told(b) /\ alive[b] /\ \A p \in Partitions :
          /\ logs[b][p].fut = NONE
          /\ LiveReplicaOf(p, b) => DirMatches(b, p)
\* The controller assigned a replica to a real dir (AssignReplicasToDirs, or a
\* pre-selected single dir).
ReplicaDirAssigned ==
    \E p \in Partitions, b \in Brokers : LiveReplicaOf(p, b) /\ part[p].dir[b] \in DirIds
\* A failed disk was replaced (a dir id of no initial layout) and its broker
\* runs again with every dir online.
ReplacedDiskOnline ==
    \E b \in Brokers : alive[b] /\ online[b] = dirsOf[b] /\ \A f \in Layouts : f[b] # dirsOf[b]
\* A broker restarted (a new registration epoch) and the controller unfenced it.
BrokerRestartedUnfenced ==
    \E b \in Brokers : alive[b] /\ ~zk[b] /\ reg[b].epoch > 1 /\ ~reg[b].fenced
\* metadata.version reached IBP_3_7_IV2 and every broker registered its dirs.
JbodVersionDirsRegistered ==
    /\ mvJbod
    /\ \A b \in Brokers : alive[b] /\ ~reg[b].fenced /\ reg[b].dirs = dirsOf[b] /\ reg[b].dirs # {}
\* A failed dir was reported to the controller, which took the replicas on it
\* offline (no leadership there).
FailedDirReplicasOffline ==
    \E b \in Brokers, p \in Partitions :
        LET d == part[p].dir[b]
        IN /\ LiveReplicaOf(p, b) /\ alive[b]
           /\ d \in dirsOf[b] \ online[b]
           /\ CtrlOffline(b, d)
           /\ part[p].leader # b
\* A partition's leadership moved (a new leader epoch).
LeaderChanged == \E p \in Partitions : part[p].state = "live" /\ part[p].lepoch > 0
\* An ISR of two replicas.
IsrOfTwo == \E p \in Partitions : Cardinality(part[p].isr) > 1
\* A reassignment is under way ...
ReassignmentStarted == \E p \in Partitions : Reassigning(part[p])
\* ... and it ended (completed or cancelled), the partition live.
ReassignmentEnded ==
    /\ reassignsLeft < MaxReassigns
    /\ \A p \in Partitions : part[p].state = "live" /\ ~Reassigning(part[p])
\* A reassignment that moved the partition to other brokers completed: every
\* replica is one the partition did not have when the reassignment started
\* (so no replica is both added and kept), all in the ISR.
ReassignmentMovedReplicas ==
    /\ reassignsLeft < MaxReassigns
    /\ \E p \in Partitions :
          /\ part[p].state = "live" /\ ~Reassigning(part[p])
          /\ part[p].isr = part[p].replicas
          /\ \A b \in part[p].replicas : p \notin seen[b]
\* The ZooKeeper migration finished: every broker runs in KRaft mode, unfenced,
\* and no replica is left at MIGRATING_DIR.
MigrationFinished ==
    /\ EnableMigration
    /\ \A b \in Brokers : alive[b] /\ ~zk[b] /\ ~reg[b].fenced
    /\ \A p \in Partitions, b \in Brokers : LiveReplicaOf(p, b) => part[p].dir[b] # MIGRATING

LiveSpec ==
    /\ Spec
    /\ \A b \in Brokers :
          /\ WF_vars(AssignSend(b))
          /\ WF_vars(AssignResponse(b))
          /\ WF_vars(Heartbeat(b))
          /\ WF_vars(HeartbeatResponse(b))
          /\ WF_vars(DirFailureTimeout(b))
          /\ WF_vars(SessionExpire(b))
          /\ \A p \in Partitions : /\ WF_vars(BrokerApplyDelta(b, p))
                                   /\ WF_vars(MoveCaughtUp(b, p))
                                   /\ WF_vars(MovePromote(b, p))
                                   /\ WF_vars(ElectLeader(p, b))
                                   /\ WF_vars(IsrExpand(p, b))

\* LiveSpec with the broker's registration refreshed after the upgrade (none of
\* the actions it adds is enabled without EnableMetadataVersion); the upgrade
\* itself and the reconfiguration with more log dirs are the operator's.
LiveSpecMv == LiveSpec /\ \A b \in Brokers : WF_vars(RefreshRegistration(b))

\* An AssignReplicasToDirs request the controller handles (it did not fail as a
\* whole).
AssignHandled(b) == AssignSend(b) /\ \A p \in Partitions : inflight'[b].res[p] # "err"

\* LiveSpec for EnableRpcErrors: a request sent again and again eventually gets
\* through (strong fairness on the handled request: the retries make it enabled
\* infinitely often, not continuously).
LiveSpecRpc == LiveSpec /\ \A b \in Brokers : SF_vars(AssignHandled(b))
=============================================================================
