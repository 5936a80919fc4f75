------------------------------- MODULE KIP858 -------------------------------
(***************************************************************************)
(* KIP-858: Handle JBOD broker disk failure in KRaft.                       *)
(*                                                                         *)
(* Behaviour only; the properties and the TLC configurations live in       *)
(* invariants/KIP858Properties.tla and invariants/*.cfg.                   *)
(*                                                                         *)
(* Two revisions of the KIP are modelled, selected by the constant        *)
(* Revision ("a" or "b"), and Kafka's code as a third ("c"); a and b       *)
(* differ in                                                                *)
(*  - an intra-broker move interrupted by the failure of its SOURCE dir:   *)
(*    rev-a re-assigns the replica back to the original (now offline)      *)
(*    directory, rev-b assigns it to LOST_DIR;                             *)
(*  - single-dir brokers: rev-a has the controller pre-select the broker's *)
(*    only directory for new replicas and lets the broker correct any      *)
(*    other assignment; rev-b leaves new replicas UNASSIGNED and the       *)
(*    broker only ever corrects assignments to LOST_DIR.                   *)
(* Revision "c" is rev-a changed where Kafka's code (trunk, 2024-10)       *)
(* differs from both texts: the controller pre-selects the only dir of any *)
(* registration listing one (ClusterControlManager.defaultDir); the broker  *)
(* applying a partition's metadata compares the metadata's dir with its    *)
(* current log's dir only and sends that dir back when they differ          *)
(* (ReplicaManager.maybeUpdateTopicAssignment), whatever is queued or in   *)
(* flight (AssignmentsManager.onAssignment: the newest assignment of a      *)
(* partition replaces a queued one); a move is promoted only on the         *)
(* AssignReplicasToDirs callback, never because the metadata already names *)
(* the future log's dir.  The switches BugIgnoreFutureDir and              *)
(* BugPreselectOnDegradedBroker restore the code as it is; with them       *)
(* FALSE, rev-c has the two fixes                                          *)
(* invariants/EXPECTED.md proposes: the broker also leaves alone a metadata *)
(* dir equal to the future log's dir, and the controller pre-selects a dir  *)
(* only for a broker registered with a single log dir (as rev-a).           *)
(* BugRecreateUnassigned restores a third rule of the code (a replica at    *)
(* UNASSIGNED_DIR whose log is offline is created anew on the first delta  *)
(* a broker process applies); with it FALSE, rev-c keeps the KIP's isNew   *)
(* rule, and ReportOfflineUnassigned adds the fix EXPECTED.md proposes.     *)
(*                                                                         *)
(* Abstractions (see also invariants/EXPECTED.md):                         *)
(*  - each RPC request is handled by the controller in the step that sends *)
(*    it; the response travels back in a separate step.  Hence requests    *)
(*    never carry a stale broker epoch, and a heartbeat never fails with   *)
(*    LOG_DIR_NOT_FOUND (dirs already offline are simply ignored).         *)
(*  - heartbeats that would change nothing (no failed dir to report and no *)
(*    wish to be unfenced) are not modelled.                                *)
(*  - the broker's lagging metadata image is modelled by `dirty`: the set  *)
(*    of partitions whose metadata changed since the broker last applied   *)
(*    them.  When the broker applies a partition it reads the controller's *)
(*    latest record for it (deltas coalesce).                              *)
(*  - no data: "caught up" is an event, not an offset; ISR expansion needs *)
(*    only an online log on the follower and on the leader.                *)
(*  - a partition model value stands for its topic's name; the topic id is *)
(*    implicit: with EnableRecreate a deleted topic may be created again,   *)
(*    and the logs of its old incarnation (old topic id) are kept apart, in *)
(*    `stale`.  All old ids are alike to the model: none is the current.   *)
(*  - a restart either repairs every failed dir (data intact) or none; a   *)
(*    failed disk may instead be replaced by an empty one (new dir id); a   *)
(*    broker's log.dirs never change otherwise (no reconfiguration).       *)
(*  - ZK-mode brokers are registered unfenced (KIP-866) and send           *)
(*    assignments; the ZK controller is not modelled otherwise.            *)
(*                                                                         *)
(* LiteralMultiDirRule is not a Kafka bug but a reading of the KIP text    *)
(* under doubt ("Metadata caching"); it is FALSE in the correct configs.   *)
(*                                                                         *)
(* EnableElr adds KIP-966's eligible leader replicas to every partition    *)
(* change the controller builds, as Kafka's code (trunk, 2024-10) does:    *)
(* WithElr, Candidates, Elected; SessionPause lets a running broker be     *)
(* fenced and come back, the case the ELR is for.                          *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets, TLC

CONSTANTS
    Brokers,            \* broker ids (model values)
    Partitions,         \* topic-partitions; each one is also its own topic id (model values)
    DirIds,             \* pool of log directory UUIDs (model values)
    UNASSIGNED,         \* Uuid.UNASSIGNED_DIR  (reserved, model value)
    LOST,               \* Uuid.LOST_DIR        (reserved, model value)
    MIGRATING,          \* Uuid.MIGRATING_DIR   (reserved, model value)
    NONE,               \* "no leader", "no future replica", "nothing queued", ... (model value)
    DirCounts,          \* allowed numbers of log.dirs per broker, e.g. {2} or {1, 2}
    ReplicationFactor,
    Revision,           \* "a" or "b" (the KIP's), "c" (Kafka's code)
    \* feature switches
    EnableMoves,        \* intra-broker replica movement (AlterReplicaLogDirs)
    EnableMigration,    \* ZK -> KRaft migration (brokers start in ZK mode, replicas at MIGRATING)
    EnableFailures,     \* log dir failures and log.dir.failure.timeout.ms
    EnableRestart,      \* broker crash (incl. metadata.log.dir failure) and restart
    EnableDeletion,     \* topic deletion
    EnableRpcErrors,    \* AssignReplicasToDirs requests may fail as a whole (retriable)
    EnableDiskReplace,  \* a failed disk is replaced while its broker is down (new directory.id)
    PinLayout,          \* one initial layout of dir ids per shape (use without SYMMETRY)
    \* bounds
    MaxEpoch,           \* broker registrations (epochs) per broker
    MaxLeaderEpoch,     \* used by the state constraint EpochBound
    MaxMoves,           \* total number of intra-broker moves started
    \* bug variants (all FALSE in the correct configurations)
    BugIgnoreAssignIntoOfflineDir,
    BugRecreateElsewhere,       \* KAFKA-16234
    BugNoRevertOnAbort,         \* KAFKA-16297
    BugRetryDeletedTopic,       \* KAFKA-17190
    BugAckUnsent,               \* race found while implementing KAFKA-15649
    BugUnfenceWithUnassigned,
    BugForeignDirId,            \* a disk copied from another broker is loaded (node.id unchecked)
    BugReservedDirId,           \* directory.id generated without excluding MIGRATING_DIR
    BugElectOutsideIsr,         \* unclean leader election: any live replica may lead
    BugKeepLeaderOnReregister,  \* a re-registering broker is fenced but keeps leadership
    BugResumeAcceptedMove,      \* KAFKA-16082: an accepted move is resumed after a restart
    BugPromoteBeforeAck,        \* a move counts as accepted once its assignment is queued
    BugKeepMoveOnSourceFailure, \* a failed source dir does not stop the move's fetcher
    BugKeepFutureOnDelete,      \* deleting a partition leaves its future log on disk
    BugDropFailedAssignment,    \* a failed AssignReplicasToDirs request is not retried
    BugIgnoreFutureDir,         \* rev-c: a metadata dir naming the future log is "corrected"
    BugPreselectOnDegradedBroker, \* rev-c: the only online dir of a multi-dir broker is pre-selected
    BugWaitForAssignedDir,      \* a new replica is created only once the metadata names its dir
    BugNoElectSoleIsrMember,    \* an ISR of one member is never elected from
    BugIsrJoinFenced,           \* AlterPartition lets a fenced follower join the ISR (before KIP-841)
    BugRecreateUnassigned,      \* rev-c: an UNASSIGNED replica whose log is offline is created anew
    \* a proposed fix (FALSE in every configuration but the ones that check it)
    ReportOfflineUnassigned,    \* rev-c: such a replica is reported offline instead
    \* reading of the KIP text under doubt (FALSE in every correct configuration)
    LiteralMultiDirRule,        \* "Metadata caching" read literally: LogDirs.length > 1
    \* inter-broker partition reassignment (KIP-455, as the KRaft controller runs it)
    EnableReassign,     \* AlterPartitionReassignments: start, completion, cancellation
    MaxReassigns,       \* total number of reassignments started
    BugRetryMovedReplica,       \* an assignment of a replica that moved away is kept and retried
    BugKeepRemovedInIsr,        \* completion drops removed replicas from the replicas, not the ISR
    BugNoStrayCheckOnStartup,   \* a restarted broker keeps logs of partitions that moved away
    \* metadata.version ("Compatibility, Deprecation, and Migration Plan")
    EnableMetadataVersion, \* the cluster starts below IBP_3_7_IV2 and is upgraded to it
    BugAssignBelowJbodVersion,  \* AssignReplicasToDirs is not gated by metadata.version
    BugEmptyDirListOffline,     \* KAFKA-16162: a registration without dirs has none online
    BugKeepMigratingDir,        \* a multi-dir broker leaves MIGRATING_DIR replicas unreported
    BugMultiDirBelowJbodVersion, \* a broker runs with several log.dirs below IBP_3_7_IV2
    BugKeepSessionOnReregister, \* a re-registered broker's unfence requests meet the old session
    BugIsrJoinWithoutFetch,     \* the leader counts a follower that never fetched as caught up
    BugWriteEmptyIsr,           \* the controller writes an empty ISR (as with ELR) when the last member goes
    BugReassignMissingPartition, \* a reassignment of a partition the controller does not have is accepted
    BugLeaderIgnoresAddedReplica, \* the leader learns of a replica only with a new leader epoch
    BugCompleteOnlyOnStart,     \* a reassignment's completion is tried only when it is requested
    \* topic deletion and re-creation under the same name with a fresh topic id (KIP-516)
    EnableRecreate,     \* a deleted topic is created again (needs EnableDeletion)
    MaxRecreates,       \* total number of re-creations
    BugOfflinePartitionByName,  \* KAFKA-16157: an old incarnation offline blocks the new one
    BugLoadLogByName,           \* at startup a log is matched to its partition by name only
    BugStrayCheckOnlyAtStartup, \* a running broker keeps an old incarnation's log on a live dir
    \* eligible leader replicas (KIP-966) in the controller's partition changes
    EnableElr,          \* ELR and LastKnownELR kept in every partition record
    MinIsr,             \* min.insync.replicas of every topic
    MaxPauses,          \* session expiries of running brokers (SessionPause)
    BugElrDroppedOnAssign,      \* a directory-assignment change writes the record without its ELR
    BugElrKeptOnUncleanShutdown, \* a broker registering after an unclean shutdown stays in the ELR
    BugElectLastKnownLeaderEarly, \* the last known leader is elected while an ELR member is left
    BugElrKeptOnIsrRejoin,      \* the ELR is recomputed only while the ISR is below min ISR
    BugElrElectOfflineDir,      \* an ELR member is elected without checking its replica's dir
    BugElectIgnoresElr,         \* the election looks at the ISR only, though it may be empty
    BugDeleteMissingTopic,      \* a deletion of a topic the controller does not have is accepted
    BugRetryReplacesNewer,      \* a failed assignment is queued again over a newer one
    BugPersistAssignments,      \* queued assignments survive the broker's restart
    BugIgnoreHeartbeatAck,      \* the heartbeat response's acknowledgement is not applied
    BugExpiredBrokerUnfenced,   \* an expired session fences the partitions, not the broker
    BugNoRegistrationRefresh,   \* KAFKA-16162: no re-registration with dirs after the upgrade
    BugShutdownWithoutLeadership, \* Kafka's code: the timeout ignores leadership
    BugIgnoreLeaderChange,      \* a broker acts on a record only if replicas or dirs changed
    BugReelectCurrentLeader     \* an election that finds the current leader writes it again

Reserved == {UNASSIGNED, LOST, MIGRATING}

ASSUME /\ Revision \in {"a", "b", "c"}
       /\ DirCounts \subseteq (Nat \ {0})
       /\ ReplicationFactor \in 1..Cardinality(Brokers)
       /\ MaxEpoch \in Nat /\ MaxLeaderEpoch \in Nat /\ MaxMoves \in Nat
       /\ MaxReassigns \in Nat
       \* the code's two rules restored by these switches exist only in rev-c
       /\ BugIgnoreFutureDir \/ BugPreselectOnDegradedBroker \/ BugRecreateUnassigned
              \/ ReportOfflineUnassigned => Revision = "c"
       /\ Reserved \cap DirIds = {}
       /\ NONE \notin DirIds \cup Reserved \cup Brokers
       /\ \A flag \in {EnableMoves, EnableMigration, EnableFailures, EnableRestart,
                       EnableDeletion, EnableRpcErrors, EnableDiskReplace, PinLayout,
                       BugIgnoreAssignIntoOfflineDir, BugRecreateElsewhere,
                       BugNoRevertOnAbort, BugRetryDeletedTopic, BugAckUnsent,
                       BugUnfenceWithUnassigned, BugForeignDirId, BugReservedDirId,
                       BugElectOutsideIsr, BugKeepLeaderOnReregister,
                       BugResumeAcceptedMove, BugPromoteBeforeAck,
                       BugKeepMoveOnSourceFailure, BugKeepFutureOnDelete,
                       BugDropFailedAssignment, BugIgnoreFutureDir, BugPreselectOnDegradedBroker,
                       BugWaitForAssignedDir, BugNoElectSoleIsrMember, BugIsrJoinFenced,
                       BugRecreateUnassigned, ReportOfflineUnassigned,
                       LiteralMultiDirRule, EnableReassign, BugRetryMovedReplica,
                       BugKeepRemovedInIsr, BugNoStrayCheckOnStartup,
                       EnableMetadataVersion, BugAssignBelowJbodVersion, BugEmptyDirListOffline,
                       BugKeepMigratingDir, BugMultiDirBelowJbodVersion} : flag \in BOOLEAN
       \* below IBP_3_7_IV2 a KRaft broker has one log dir (KafkaConfig.validateWithMetadataVersion)
       \* and the ZK migration with JBOD needs the version from the start
       /\ EnableMetadataVersion => DirCounts = {1} /\ ~EnableMigration
       /\ BugKeepSessionOnReregister \in BOOLEAN
       /\ BugIsrJoinWithoutFetch \in BOOLEAN
       /\ BugWriteEmptyIsr \in BOOLEAN
       /\ BugReassignMissingPartition \in BOOLEAN
       /\ BugLeaderIgnoresAddedReplica \in BOOLEAN
       /\ BugCompleteOnlyOnStart \in BOOLEAN
       /\ \A flag \in {EnableRecreate, BugOfflinePartitionByName, BugLoadLogByName,
                       BugStrayCheckOnlyAtStartup} : flag \in BOOLEAN
       /\ EnableRecreate => EnableDeletion
       /\ MaxRecreates \in Nat
       /\ \A flag \in {EnableElr, BugElrDroppedOnAssign, BugElrKeptOnUncleanShutdown,
                       BugElectLastKnownLeaderEarly, BugElrKeptOnIsrRejoin, BugElrElectOfflineDir,
                       BugElectIgnoresElr} : flag \in BOOLEAN
       /\ MinIsr \in 1..ReplicationFactor
       /\ MaxPauses \in Nat
       /\ BugDeleteMissingTopic \in BOOLEAN
       /\ BugRetryReplacesNewer \in BOOLEAN
       /\ \A flag \in {BugPersistAssignments, BugIgnoreHeartbeatAck, BugExpiredBrokerUnfenced,
                       BugNoRegistrationRefresh, BugShutdownWithoutLeadership,
                       BugIgnoreLeaderChange, BugReelectCurrentLeader} : flag \in BOOLEAN

VARIABLES
    \* ---- broker side ----
    dirsOf,       \* dirsOf[b]: the directory ids in b's log.dirs (meta.properties directory.id)
    alive,        \* alive[b]: the broker process is running
    zk,           \* zk[b]: the broker runs in ZooKeeper mode (migration)
    online,       \* online[b]: the dirs of b that are physically online
    knownFailed,  \* knownFailed[b]: dirs that failed while this incarnation ran (ids known)
    logs,         \* logs[b][p] = [cur: dirs holding a current log on disk,
                  \*               fut: dir of the future replica or NONE,
                  \*               phase: "none" | "copying" | "caught" | "acked"
                  \*                      | "stopped" (source dir failed)]
    dirty,        \* dirty[b]: partitions with metadata changes b has not applied yet
    seen,         \* seen[b]: partitions present in the image when b started (not "new")
    \* ---- broker <-> controller ----
    queue,        \* queue[b][p]: latest assignment of p waiting to be sent, or NONE
    inflight,     \* inflight[b]: NONE or the AssignReplicasToDirs response on its way back
    hbPending,    \* hbPending[b]: failed dirs carried in every heartbeat until acknowledged
    hbResp,       \* hbResp[b]: NONE or the set of dirs the outstanding heartbeat carried
    \* ---- controller (cluster metadata) ----
    reg,          \* reg[b]: broker registration
    part,         \* part[p]: partition record
    \* ---- bounds and history ----
    movesLeft,    \* intra-broker moves that may still be started
    rejected,     \* rejected[b]: partitions for which b got UNKNOWN_TOPIC_ID (history)
    unfencedWith, \* unfencedWith[b]: UNASSIGNED/MIGRATING replicas b had when the
                  \*   controller last unfenced it (history; {} while fenced)
    reassignsLeft, \* reassignments that may still be started
    recreatesLeft, \* topic re-creations that may still happen
    pausesLeft,   \* session expiries of running brokers that may still happen
    \* ---- cluster feature level ----
    mvJbod,       \* metadata.version >= IBP_3_7_IV2 (directory assignment supported)
    \* ---- broker side, topic ids ----
    stale         \* stale[b][p]: dirs of b holding a log of p under an old topic id (an
                  \*   incarnation of the topic deleted since); never in logs[b][p]
                  \*   unless the broker mistook it for the current one

brokerVars == <<dirsOf, alive, zk, online, knownFailed, logs, dirty, seen, stale>>
msgVars    == <<queue, inflight, hbPending, hbResp>>
ctrlVars   == <<reg, part>>
histVars   == <<movesLeft, rejected, unfencedWith, reassignsLeft, mvJbod, recreatesLeft, pausesLeft>>
vars       == <<brokerVars, msgVars, ctrlVars, histVars>>

-----------------------------------------------------------------------------
(* Helpers                                                                  *)

\* The element of a singleton set (only ever applied to singletons, so it
\* does not depend on how TLC orders the set and is symmetry-safe).
TheDir(S) == CHOOSE x \in S : TRUE

NoLog == [cur |-> {}, fut |-> NONE, phase |-> "none"]
EmptyQ == [p \in Partitions |-> NONE]
NoPartition == [state |-> "none", replicas |-> {}, dir |-> [b \in Brokers |-> UNASSIGNED],
                leader |-> NONE, isr |-> {}, lepoch |-> 0, adding |-> {}, removing |-> {},
                elr |-> {}, lastKnownElr |-> {}]

\* Every way of giving each broker its own disjoint set of log dirs.
AllLayouts == {f \in [Brokers -> SUBSET DirIds] :
                  /\ \A b \in Brokers : Cardinality(f[b]) \in DirCounts
                  /\ \A b1, b2 \in Brokers : b1 # b2 => f[b1] \cap f[b2] = {}}

\* Layouts that differ only by a renaming of dir ids behave alike.  PinLayout
\* keeps one layout per shape (number of dirs of each broker): the same
\* reduction SYMMETRY gives over DirIds, for runs without SYMMETRY (which
\* liveness checking needs, and which is cheaper for small models).
Shape(f) == [b \in Brokers |-> Cardinality(f[b])]
Layouts == IF PinLayout
           THEN {CHOOSE f \in AllLayouts : Shape(f) = Shape(g) : g \in AllLayouts}
           ELSE AllLayouts

\* The broker is configured with several entries in log.dirs.
IsMulti(b) == Cardinality(dirsOf[b]) > 1
\* Some configured dir is offline (failed now or at startup).
HasOffline(b) == online[b] # dirsOf[b]

LiveReplicaOf(p, b) == part[p].state = "live" /\ b \in part[p].replicas

\* "Metadata caching": the controller (and every broker's image) considers a
\* replica offline if its directory is LOST_DIR, or is a directory missing from
\* the registration of a broker with multiple log directories.  We read
\* "multiple" as: the registration listed several online dirs or set the
\* offline-dirs flag (reg[b].multi, fixed at registration).  Read literally
\* ("brokerRegistration.LogDirs.length > 1", LiteralMultiDirRule), a broker left
\* with one online dir after a failure looks like a single-dir broker.
MultiDirRegistration(b) ==
    IF LiteralMultiDirRule THEN Cardinality(reg[b].dirs) > 1 ELSE reg[b].multi

\* BugEmptyDirListOffline (KAFKA-16162): DirectoryId.isOnline before its fix
\* found no dir in an empty list, so every dir of a broker registered below
\* IBP_3_7_IV2 (its registration lists none) was offline after the upgrade.
CtrlOffline(b, d) ==
    \/ d = LOST
    \/ d \in DirIds /\ d \notin reg[b].dirs /\ MultiDirRegistration(b)
    \/ BugEmptyDirListOffline /\ d \in DirIds /\ reg[b].dirs = {}

Eligible(p, b) == ~reg[b].fenced /\ ~CtrlOffline(b, part[p].dir[b])

\* The controller's election accepts b.  BugNoElectSoleIsrMember: it refuses the
\* only member of an ISR (as if an ISR below min.insync.replicas could not be
\* elected from, though that member holds every committed record), so a
\* partition whose ISR shrank to one replica stays offline until an unclean
\* election.  BugElrElectOfflineDir: an ELR member is accepted once its broker is
\* unfenced (ClusterControlManager.isActive), without LeaderAcceptor's check that
\* its replica's dir is online.
Electable(p, b) ==
    /\ IF BugElrElectOfflineDir /\ b \in part[p].elr THEN ~reg[b].fenced ELSE Eligible(p, b)
    /\ ~(BugNoElectSoleIsrMember /\ part[p].isr = {b})

\* The controller accepts b into the ISR (AlterPartition: a fenced or shutting
\* down broker is an INELIGIBLE_REPLICA, KIP-841).  BugIsrJoinFenced: the
\* controller before KIP-841 checked only that the follower's replica is not
\* offline, so a follower whose broker is fenced -- registered but not yet
\* unfenced, or restarted -- could join the ISR and be elected later.
Joinable(p, b) == IF BugIsrJoinFenced THEN ~CtrlOffline(b, part[p].dir[b]) ELSE Eligible(p, b)

\* Replicas of b the controller has no directory for.
UnassignedOf(b) == {p \in Partitions : LiveReplicaOf(p, b)
                                        /\ part[p].dir[b] \in {UNASSIGNED, MIGRATING}}

\* ---- eligible leader replicas (KIP-966, PartitionChangeBuilder) ----

\* ReplicationControlManager.getTopicEffectiveMinIsr: min.insync.replicas, at
\* most the number of replicas (of the record before the change).
EffMinIsr(pr) == IF MinIsr < Cardinality(pr.replicas) THEN MinIsr ELSE Cardinality(pr.replicas)

\* The ELR fields of the change old -> pr, whose ISR, leader and replicas are
\* set; U: brokers that registered after an unclean shutdown
\* (handleBrokerUncleanShutdown).  maybePopulateTargetElr: an ISR of at least
\* min ISR members clears the ELR; below it, the ELR is the old ELR plus the old
\* ISR, less the new ISR and U -- the replicas that left the ISR while it could
\* not meet min ISR, each holding every record committed until then.
\* maybeUpdateLastKnownLeader (useLastKnownLeaderInBalancedRecovery, on by
\* default): when the ISR empties, LastKnownELR records the leader the partition
\* had (the model elects in a step of its own, so the partition may already be
\* leaderless then: Kafka writes NO_LEADER, the model none); it is cleared once
\* the partition has a leader.  Without EnableElr the change is pr: the ISR
\* keeps its last member instead (DropReplica).  BugElrKeptOnUncleanShutdown:
\* U is not taken out.  BugElrKeptOnIsrRejoin: the ELR is only recomputed while
\* the ISR is below min ISR, so a member that rejoins it stays in the ELR.
WithElr(old, pr, U) ==
    IF ~EnableElr THEN pr
    ELSE LET gone == IF BugElrKeptOnUncleanShutdown THEN {} ELSE U
             elr == IF Cardinality(pr.isr) >= EffMinIsr(old)
                    THEN IF BugElrKeptOnIsrRejoin THEN pr.elr ELSE {}
                    ELSE (pr.elr \cup old.isr) \ (pr.isr \cup gone)
             lke == IF pr.isr = {} /\ old.isr # {}
                    THEN IF old.leader = NONE THEN {} ELSE {old.leader}
                    ELSE IF pr.leader # NONE THEN {} ELSE pr.lastKnownElr
         IN [pr EXCEPT !.elr = elr, !.lastKnownElr = lke]

\* Leader and ISR update when replica b of a partition goes offline (same as
\* when b is fenced): leave the ISR unless it is the last member; lose leadership.
\* PartitionChangeBuilder.build writes an empty target ISR only with eligible
\* leader replicas (KIP-966, EnableElr): then the last member leaves too, into
\* the ELR.  BugWriteEmptyIsr: it writes it without them.  U as for WithElr.
DropReplicaOf(pr, b, U) ==
    WithElr(pr,
        [pr EXCEPT !.isr = IF pr.isr = {b} /\ ~BugWriteEmptyIsr /\ ~EnableElr
                           THEN pr.isr ELSE pr.isr \ {b},
                   !.leader = IF pr.leader = b THEN NONE ELSE pr.leader,
                   !.lepoch = IF pr.leader = b THEN pr.lepoch + 1 ELSE pr.lepoch],
        U)

DropReplica(pr, b) == DropReplicaOf(pr, b, {})

\* ---- partition changes of a reassignment (PartitionChangeBuilder.build) ----

Reassigning(pr) == pr.adding # {} \/ pr.removing # {}

\* A replica the controller's election accepts (PartitionChangeBuilder.isValidNewLeader):
\* in the new ISR, on an unfenced broker, not on an offline dir.
ValidLeader(pr, x) == x \in pr.isr /\ ~reg[x].fenced /\ ~CtrlOffline(x, pr.dir[x])

\* The records the change old -> pr may end in, leader included
\* (PartitionChangeBuilder.electAnyLeader): the leader stays if it is still
\* valid, else any valid replica leads (Kafka takes the first in replica order,
\* the model any), else none; the leader epoch is bumped when the leader changes
\* or a replica leaves (triggerLeaderEpochBumpForReplicaReassignmentIfNeeded).
\* A partition without a leader keeps none here; ElectLeader elects it.
WithLeader(old, pr) ==
    LET valid == {x \in pr.replicas : ValidLeader(pr, x)}
        ls == IF old.leader = NONE \/ ValidLeader(pr, old.leader) THEN {old.leader}
              ELSE IF valid = {} THEN {NONE} ELSE valid
    IN {[pr EXCEPT !.leader = l,
                   !.lepoch = IF l # old.leader \/ ~(old.replicas \subseteq pr.replicas)
                              THEN old.lepoch + 1 ELSE old.lepoch] : l \in ls}

\* PartitionReassignmentReplicas.maybeCompleteReassignment: once every target
\* replica is in the ISR (and the ISR keeps a member besides the removing ones)
\* the removing replicas leave the replicas and the ISR; the directories are
\* kept for the remaining replicas only (the record's directories follow its
\* replicas).  BugKeepRemovedInIsr: they leave the replicas but not the ISR.
CanComplete(pr) ==
    /\ Reassigning(pr)
    /\ pr.isr \ pr.removing # {}
    /\ pr.replicas \ pr.removing \subseteq pr.isr

Completed(pr) ==
    LET target == pr.replicas \ pr.removing
    IN [pr EXCEPT !.replicas = target,
                  !.isr = IF BugKeepRemovedInIsr THEN pr.isr ELSE pr.isr \ pr.removing,
                  !.dir = [x \in Brokers |-> IF x \in target THEN pr.dir[x] ELSE UNASSIGNED],
                  !.adding = {}, !.removing = {}]

\* Every partition change the controller builds tries to complete a reassignment
\* in progress (PartitionChangeBuilder.completeReassignmentIfNeeded); the model
\* tries where the completion can become possible: when the ISR grows and when
\* the reassignment starts.  Without a reassignment the record is pr.
\* BugCompleteOnlyOnStart: only the change that starts the reassignment
\* (changePartitionReassignment) tries, not the AlterPartition that brings the
\* last target replica into the ISR (old is then already reassigning).
Settle(old, pr) ==
    IF CanComplete(pr) /\ ~(BugCompleteOnlyOnStart /\ Reassigning(old))
    THEN WithLeader(old, Completed(pr)) ELSE {pr}

\* Fencing (U = {}), or a new registration after an unclean shutdown (U = {b}):
\* every partition of which b is a replica, or an ELR member (the controller
\* goes through its ISR and ELR indexes, brokersToIsrs and brokersToElrs).
FencePartitionsOf(b, U) ==
    [p \in Partitions |-> IF LiveReplicaOf(p, b) \/ (part[p].state = "live" /\ b \in part[p].elr)
                          THEN DropReplicaOf(part[p], b, U) ELSE part[p]]

FencePartitions(b) == FencePartitionsOf(b, {})

\* A change of p's record that its brokers act on: any change.  BugIgnoreLeaderChange:
\* only a change of its state, replicas or dirs (a new leader or ISR alone is ignored,
\* so a broker elected leader never starts acting as one).
LocalChange(p) ==
    IF BugIgnoreLeaderChange
    THEN part'[p].state # part[p].state \/ part'[p].replicas # part[p].replicas
         \/ part'[p].dir # part[p].dir
    ELSE part'[p] # part[p]

\* Metadata propagation: every running broker hosting a partition whose record
\* changed in this step has a new delta to apply.  Only valid once part' is set.
DirtyAfter ==
    [x \in Brokers |->
        IF alive[x]
        THEN dirty[x] \cup {p \in Partitions : LocalChange(p)
                                               /\ x \in part'[p].replicas \cup part[p].replicas}
        ELSE dirty[x]]

\* The broker's image already shows that p was deleted.
ImageDeleted(b, p) == part[p].state = "deleted" /\ p \notin dirty[b]

\* The broker's image already shows that p was deleted or moved to other brokers.
ImageGone(b, p) ==
    /\ p \notin dirty[b]
    /\ \/ part[p].state = "deleted"
       \/ part[p].state = "live" /\ b \notin part[p].replicas

\* Assignments of p the broker still has to get through: queued or in flight.
PendingAssign(b, p) ==
    {queue[b][p]} \cup (IF inflight[b] = NONE THEN {} ELSE {inflight[b].asg[p]})

\* A move is under way: a future log whose copy has not stopped on a dir failure.
MoveUnderWay(L) == L.fut # NONE /\ L.phase # "stopped"

\* A broker that stops loses its in-memory state; logs stay on disk; a move's
\* future log survives and will be resumed (KIP-113).
Park(L) == IF L.fut = NONE THEN L ELSE [L EXCEPT !.phase = "copying"]

\* What a broker keeps in memory is lost when it stops.  BugPersistAssignments:
\* the AssignmentsManager's queue is kept across a restart (say, to resend what
\* a crash would lose) and the next incarnation sends it.
HaltVolatile(b) ==
    /\ alive' = [alive EXCEPT ![b] = FALSE]
    /\ knownFailed' = [knownFailed EXCEPT ![b] = {}]
    /\ seen' = [seen EXCEPT ![b] = {}]
    /\ dirty' = [dirty EXCEPT ![b] = {}]
    /\ queue' = [queue EXCEPT ![b] = IF BugPersistAssignments THEN @ ELSE EmptyQ]
    /\ inflight' = [inflight EXCEPT ![b] = NONE]
    /\ hbPending' = [hbPending EXCEPT ![b] = {}]
    /\ hbResp' = [hbResp EXCEPT ![b] = NONE]
    /\ logs' = [logs EXCEPT ![b] = [p \in Partitions |-> Park(logs[b][p])]]

-----------------------------------------------------------------------------
(* Initial state                                                            *)

\* Without migration the cluster is empty and every broker has just registered
\* (fenced).  With migration every partition already exists (created in ZK
\* mode): directories MIGRATING, one log per replica in one of its broker's dirs,
\* all brokers in ZK mode and registered with the KRaft controller (KIP-866).
MigratedPartitions ==
    {pf \in [Partitions -> [state: {"live"}, replicas: SUBSET Brokers,
                            dir: {[b \in Brokers |-> MIGRATING]},
                            leader: Brokers, isr: SUBSET Brokers, lepoch: {0},
                            adding: {{}}, removing: {{}}, elr: {{}}, lastKnownElr: {{}}]] :
        \A p \in Partitions : /\ Cardinality(pf[p].replicas) = ReplicationFactor
                              /\ pf[p].isr = pf[p].replicas
                              /\ pf[p].leader \in pf[p].replicas}

Init ==
    /\ dirsOf \in Layouts
    /\ alive = [b \in Brokers |-> TRUE]
    /\ zk = [b \in Brokers |-> EnableMigration]
    /\ online = dirsOf
    /\ knownFailed = [b \in Brokers |-> {}]
    /\ part \in (IF EnableMigration THEN MigratedPartitions
                 ELSE {[p \in Partitions |-> NoPartition]})
    /\ logs \in [Brokers -> [Partitions ->
                    {NoLog} \cup {[cur |-> {d}, fut |-> NONE, phase |-> "none"] : d \in DirIds}]]
    /\ \A b \in Brokers, p \in Partitions :
          /\ (b \in part[p].replicas) = (logs[b][p] # NoLog)
          /\ logs[b][p].cur \subseteq dirsOf[b]
    /\ dirty = [b \in Brokers |-> {p \in Partitions : b \in part[p].replicas}]
    /\ seen = [b \in Brokers |-> {p \in Partitions : part[p].state = "live"}]
    /\ queue = [b \in Brokers |-> EmptyQ]
    /\ inflight = [b \in Brokers |-> NONE]
    /\ hbPending = [b \in Brokers |-> {}]
    /\ hbResp = [b \in Brokers |-> NONE]
    /\ reg = [b \in Brokers |-> [dirs |-> IF EnableMetadataVersion THEN {} ELSE dirsOf[b],
                                 fenced |-> ~EnableMigration,
                                 epoch |-> 1, zk |-> EnableMigration,
                                 multi |-> ~EnableMetadataVersion /\ Cardinality(dirsOf[b]) > 1]]
    /\ movesLeft = MaxMoves
    /\ rejected = [b \in Brokers |-> {}]
    /\ unfencedWith = [b \in Brokers |-> {}]
    /\ reassignsLeft = MaxReassigns
    /\ recreatesLeft = MaxRecreates
    /\ pausesLeft = MaxPauses
    /\ mvJbod = ~EnableMetadataVersion
    /\ stale = [b \in Brokers |-> [p \in Partitions |-> {}]]

-----------------------------------------------------------------------------
(* Controller: partition lifecycle and leadership                          *)

\* "Controller / Replica placement": a new partition gets UNASSIGNED_DIR for
\* every replica -- except, in rev-a, on a single-dir broker, whose only dir the
\* controller pre-selects ("Replica management", last paragraph, rev-a).
\* Replicas are given explicitly (manual assignment): at least one must be
\* unfenced; the ISR is the unfenced replicas.  Rev-c as rev-a; today's code
\* (BugPreselectOnDegradedBroker) takes the only dir of any registration
\* listing one, also a multi-dir broker's whose other dirs are offline
\* (ClusterControlManager.defaultDir).
\* Below IBP_3_7_IV2 every replica gets MIGRATING_DIR
\* (KRaftClusterDescriber.defaultDir), and so does a replica on a broker whose
\* registration lists no dirs -- registered below that version and not yet
\* refreshed (ClusterControlManager.defaultDir).
InitialDir(b) ==
    IF ~mvJbod \/ reg[b].dirs = {} THEN MIGRATING
    ELSE IF \/ Revision # "b" /\ ~MultiDirRegistration(b) /\ Cardinality(reg[b].dirs) = 1
            \/ Revision = "c" /\ BugPreselectOnDegradedBroker /\ Cardinality(reg[b].dirs) = 1
    THEN TheDir(reg[b].dirs)
    ELSE UNASSIGNED

PlacePartition(p) ==
    \E R \in SUBSET Brokers, l \in Brokers :
         LET isr == {b \in R : ~reg[b].fenced}
         IN /\ Cardinality(R) = ReplicationFactor
            /\ l \in isr
            /\ part' = [part EXCEPT ![p] =
                          [state |-> "live", replicas |-> R,
                           dir |-> [b \in Brokers |-> IF b \in R THEN InitialDir(b) ELSE UNASSIGNED],
                           leader |-> l, isr |-> isr, lepoch |-> 0, adding |-> {}, removing |-> {},
                           elr |-> {}, lastKnownElr |-> {}]]

CreatePartition(p) ==
    /\ part[p].state = "none"
    /\ PlacePartition(p)
    /\ dirty' = DirtyAfter
    /\ UNCHANGED <<dirsOf, alive, zk, online, knownFailed, logs, seen, msgVars, reg, histVars, stale>>

\* Topic deletion (needed for KAFKA-17190).  The controller removes the
\* partition's record, a reassignment in progress with it
\* (ReplicationControlManager.replay(RemoveTopicRecord)); the model keeps the
\* replicas of a deleted partition, for the brokers that still hold its logs.
\* A topic the controller has no record of is refused (DeleteTopics answers
\* UNKNOWN_TOPIC_OR_PARTITION, ReplicationControlManager.deleteTopics);
\* BugDeleteMissingTopic: the check is lost, and the name is deleted before it
\* was ever created.
Deleted(pr) == [pr EXCEPT !.state = "deleted", !.leader = NONE, !.isr = {},
                          !.adding = {}, !.removing = {}, !.elr = {}, !.lastKnownElr = {}]

DeletePartition(p) ==
    /\ EnableDeletion
    /\ part[p].state = "live" \/ BugDeleteMissingTopic
    /\ part' = [part EXCEPT ![p] = Deleted(part[p])]
    /\ dirty' = DirtyAfter
    /\ UNCHANGED <<dirsOf, alive, zk, online, knownFailed, logs, seen, msgVars, reg, histVars, stale>>

\* The dirs holding a log of L: its current logs and its future log.
LogDirs(L) == L.cur \cup (IF L.fut = NONE THEN {} ELSE {L.fut})

\* CreateTopics for the name of a deleted topic: the controller gives it a
\* fresh topic id (ReplicationControlManager.createTopic) and places it as a
\* new partition, directories included (ClusterControlManager.defaultDir).
\* Logs carry their topic id (partition.metadata): every log of p still on a
\* disk -- on a dir that was offline when its broker applied the deletion, on
\* a broker that was down or had not applied it yet -- now belongs to an old
\* incarnation, which the model records by moving it to `stale`.  An
\* assignment of the old incarnation still queued carries the old id: the
\* controller would answer UNKNOWN_TOPIC_ID and the manager drop it (since
\* KAFKA-17190's fix): the model drops it here, and re-creates the topic only
\* while no request carrying p is in flight.  To every broker process the new
\* id is a new partition (absent from the image it started with): p leaves
\* every `seen`, so LogManager may create its log while a dir is offline.
RecreatePartition(p) ==
    /\ EnableRecreate
    /\ recreatesLeft > 0
    /\ part[p].state = "deleted"
    /\ \A x \in {y \in Brokers : inflight[y] # NONE} : inflight[x].asg[p] = NONE
    /\ PlacePartition(p)
    /\ stale' = [x \in Brokers |-> [stale[x] EXCEPT ![p] = @ \cup LogDirs(logs[x][p])]]
    /\ logs' = [x \in Brokers |-> [logs[x] EXCEPT ![p] = NoLog]]
    /\ queue' = [x \in Brokers |-> [queue[x] EXCEPT ![p] = NONE]]
    /\ seen' = [x \in Brokers |-> seen[x] \ {p}]
    /\ rejected' = [x \in Brokers |-> rejected[x] \ {p}]
    /\ recreatesLeft' = recreatesLeft - 1
    /\ dirty' = DirtyAfter
    /\ UNCHANGED <<dirsOf, alive, zk, online, knownFailed, inflight, hbPending, hbResp, reg,
                   movesLeft, unfencedWith, reassignsLeft, mvJbod, pausesLeft>>

\* Who may be elected (PartitionChangeBuilder.isValidNewLeader, electAnyLeader):
\* an ISR member; with ELR, when the ISR is empty, an ELR member that is a replica
\* (electAnyLeader goes through the replicas: a replica a reassignment removed may
\* stay in the ELR, see ElrWithinReplicas); when both are
\* empty, the last known leader (canElectLastKnownLeader: KIP-966's "balanced"
\* unclean recovery, which the code runs even with unclean leader election off;
\* the code elects it also when it is not an acceptable leader -- its check
\* only logs -- the model asks it to be, as of any leader).
\* BugElectLastKnownLeaderEarly: the last known leader is elected once the ISR
\* is empty, while ELR members are left (the check that the ELR is empty is
\* lost).  BugElectIgnoresElr: the election was not changed for ELR: it looks
\* at the ISR only, so an ISR emptied into the ELR is never elected from.
Candidates(pr) ==
    IF BugElectOutsideIsr THEN pr.replicas
    ELSE IF ~EnableElr \/ pr.isr # {} THEN pr.isr
    ELSE IF pr.elr = {} THEN pr.lastKnownElr
    ELSE IF BugElectIgnoresElr THEN {}
    ELSE (pr.elr \cap pr.replicas) \cup (IF BugElectLastKnownLeaderEarly THEN pr.lastKnownElr ELSE {})

\* The record once b is elected (PartitionChangeBuilder.tryElection): an ELR
\* member becomes the ISR and leaves the ELR; a leader from outside both (an
\* unclean election) is the ISR alone, the ELR fields cleared
\* (maybeUpdateRecordElr); a leader clears LastKnownELR.
Elected(pr, b) ==
    IF ~EnableElr THEN [pr EXCEPT !.leader = b, !.lepoch = @ + 1]
    ELSE IF b \in pr.isr THEN [pr EXCEPT !.leader = b, !.lepoch = @ + 1, !.lastKnownElr = {}]
    ELSE IF b \in pr.elr
    THEN [pr EXCEPT !.leader = b, !.lepoch = @ + 1, !.isr = {b}, !.elr = @ \ {b},
                    !.lastKnownElr = {}]
    ELSE [pr EXCEPT !.leader = b, !.lepoch = @ + 1, !.isr = {b}, !.elr = {}, !.lastKnownElr = {}]

\* Leader election from the ISR (no unclean election): the candidate must be
\* unfenced and its replica not offline ("Metadata caching").  BugElectOutsideIsr:
\* unclean leader election -- when the last ISR member is gone, any replica on
\* an online dir may lead, without the records it missed.
ElectLeader(p, b) ==
    /\ part[p].state = "live"
    /\ part[p].leader = NONE
    /\ b \in Candidates(part[p])
    /\ Electable(p, b)
    /\ part' = [part EXCEPT ![p] = WithElr(part[p], Elected(part[p], b), {})]
    /\ dirty' = DirtyAfter
    /\ UNCHANGED <<dirsOf, alive, zk, online, knownFailed, logs, seen, msgVars, reg, histVars, stale>>

\* BugReelectCurrentLeader: a leader election (ElectLeaders, say a preferred one run
\* for every partition) that finds the partition's current leader writes it again:
\* the check that the elected replica differs from the current leader
\* (PartitionChangeBuilder.tryElection; ElectLeaders answers ELECTION_NOT_NEEDED)
\* is lost, so the record sets the same leader and PartitionRegistration.merge bumps
\* the leader epoch: every follower's fetch with the old epoch is fenced
\* (FENCED_LEADER_EPOCH) until it applies the record, for no change of leader.
ReelectLeader(p) ==
    /\ BugReelectCurrentLeader
    /\ part[p].state = "live"
    /\ part[p].leader # NONE
    /\ part' = [part EXCEPT ![p] = WithElr(part[p], Elected(part[p], part[p].leader), {})]
    /\ dirty' = DirtyAfter
    /\ UNCHANGED <<dirsOf, alive, zk, online, knownFailed, logs, seen, msgVars, reg, histVars, stale>>

\* ISR expansion (AlterPartition from the leader): a follower with an online log
\* caught up.  Background KRaft behaviour, not from the KIP; needed so that a
\* replica can re-enter the ISR after a restart or a repaired dir.  A replica a
\* reassignment adds joins only once its broker has applied the record that
\* added it: before, it does not fetch as a follower of the current leader
\* epoch (ReplicaManager.applyLocalFollowersDelta; fetches with an older epoch
\* are fenced).  The model does not ask this of other followers.
\* Once every target replica is in the ISR the reassignment completes (Settle).
\* BugIsrJoinWithoutFetch: the leader's state of a follower that has not
\* fetched yet says it is caught up (its log end offset starts at 0, not
\* unknown, and an empty partition's high watermark is 0), so a follower
\* without a log -- not created yet, or on a dir that failed -- is proposed.
\* BugLeaderIgnoresAddedReplica: the leader refreshes its followers only on a
\* record with a new leader epoch (a reassignment that only adds replicas does
\* not bump it: triggerLeaderEpochBumpForReplicaReassignmentIfNeeded), so it
\* rejects the fetches of an added replica until a leader change; the model
\* keeps an added replica out of the ISR for the whole reassignment.
IsrExpand(p, b) ==
    /\ part[p].state = "live"
    /\ part[p].leader # NONE
    /\ b \in part[p].replicas \ part[p].isr
    /\ alive[b] /\ Joinable(p, b)
    /\ BugIsrJoinWithoutFetch \/ logs[b][p].cur \cap online[b] # {}
    /\ ~(b \in part[p].adding /\ (p \in dirty[b] \/ BugLeaderIgnoresAddedReplica))
    /\ LET l == part[p].leader
       IN alive[l] /\ logs[l][p].cur \cap online[l] # {}
    /\ \E r \in Settle(part[p], [part[p] EXCEPT !.isr = @ \cup {b}]) :
          part' = [part EXCEPT ![p] = WithElr(part[p], r, {})]
    /\ dirty' = DirtyAfter
    /\ UNCHANGED <<dirsOf, alive, zk, online, knownFailed, logs, seen, msgVars, reg, histVars, stale>>

\* "Motivation": in KRaft, membership is based on timely heartbeats.  The
\* controller fences a broker whose heartbeats stopped (session timeout) and
\* updates leader and ISR like for a shut-down broker -- the only way leadership
\* leaves a single-dir broker, a ZK-mode broker or a timed-out broker whose dir
\* failed.  BugExpiredBrokerUnfenced: the controller updates the partitions but
\* writes no fencing of the broker itself (no BrokerRegistrationChangeRecord).
SessionExpire(b) ==
    /\ ~alive[b]
    /\ ~reg[b].fenced
    /\ reg' = [reg EXCEPT ![b].fenced = ~BugExpiredBrokerUnfenced]
    /\ part' = FencePartitions(b)
    /\ dirty' = DirtyAfter
    /\ unfencedWith' = [unfencedWith EXCEPT ![b] = {}]
    /\ UNCHANGED <<dirsOf, alive, zk, online, knownFailed, logs, seen, msgVars,
                   movesLeft, rejected, reassignsLeft, mvJbod, stale, recreatesLeft, pausesLeft>>

\* A running broker's session expires too: a pause (GC, a stalled disk) or a
\* network partition longer than broker.session.timeout.ms -- KIP-966's case
\* for the ELR: the controller fences it as above (an ISR member leaves for the
\* ELR), and the broker, the same incarnation, heartbeats again and is unfenced
\* (BrokerLifecycleManager).  At most MaxPauses times; not fair.
SessionPause(b) ==
    /\ pausesLeft > 0
    /\ alive[b] /\ ~zk[b]
    /\ ~reg[b].fenced
    /\ reg' = [reg EXCEPT ![b].fenced = TRUE]
    /\ part' = FencePartitions(b)
    /\ dirty' = DirtyAfter
    /\ unfencedWith' = [unfencedWith EXCEPT ![b] = {}]
    /\ pausesLeft' = pausesLeft - 1
    /\ UNCHANGED <<dirsOf, alive, zk, online, knownFailed, logs, seen, msgVars,
                   movesLeft, rejected, reassignsLeft, mvJbod, stale, recreatesLeft>>

-----------------------------------------------------------------------------
(* Broker: replica management                                               *)

\* "Brokers / Replica management": what the broker does when it applies the
\* metadata of partition p.  Returns the possible outcomes as records
\* [log |-> new logs[b][p], q |-> new queue[b][p]].
Reconcile(b, p) ==
    LET pr == part[p]
        L == logs[b][p]
        md == pr.dir[b]
        on == L.cur \cap online[b]
        vis == L.cur \cap (online[b] \cup knownFailed[b])
        q0 == queue[b][p]
        Keep == {[log |-> L, q |-> q0]}
        \* latest assignment per partition wins; nothing to do if it is already
        \* queued or in flight (rev-c: queued again, AssignmentsManager.onAssignment)
        \* -- unless the record lists b among the replicas a reassignment adds: an
        \* assignment in flight may belong to an earlier incarnation of the replica
        \* (moved away and back while it was in flight) and be answered for it.
        Assign(c) == IF c \in PendingAssign(b, p) /\ Revision # "c" /\ b \notin pr.adding
                     THEN q0 ELSE c
        CreateAt(S, assign) ==
            {[log |-> [L EXCEPT !.cur = @ \cup {d}], q |-> IF assign THEN Assign(d) ELSE q0] :
                d \in S}
        \* LogManager refuses to create a log that is not new while a dir is
        \* offline ("Rejected alternatives": the isNew rule), so that replicas of
        \* an offline dir are not re-streamed into the online ones.
        mayCreate == p \notin seen[b] \/ ~HasOffline(b)
    IN
    IF BugStrayCheckOnlyAtStartup /\ stale[b][p] \cap online[b] # {}
    THEN \* a log of an old incarnation of p is on an online dir: the broker's
         \* image lagged through the deletion and the re-creation, which the
         \* delta it applies now shows at once.  ReplicaManager.applyDelta deletes
         \* first what TopicsDelta.localChanges lists in `deletes`, by topic id
         \* (the old id is among the deleted topic ids), then creates the new
         \* one.  BugStrayCheckOnlyAtStartup: deletes worked out by topic name
         \* miss a name that still exists, so the old log stays loaded under
         \* the partition's name (getOrCreatePartition then refuses the new id:
         \* "Topic ... exists, but its ID is ...") until the next startup's
         \* stray check (LogManager.isStrayKraftReplica) renames it.
         Keep
    ELSE IF pr.state # "live" \/ b \notin pr.replicas
    THEN \* deleted, or moved away to other brokers (TopicDelta.localChanges: a
         \* replica no longer in the replicas is in `deletes`): remove the logs it
         \* can reach, abort a move; since the fix of KAFKA-17190 the assignments
         \* manager also forgets the partition (the buggy one kept it; for a
         \* replica that moved away see BugRetryMovedReplica in AssignResponse).
         \* BugKeepFutureOnDelete: the move's fetcher is
         \* stopped but only the current log is deleted; the future log (kept
         \* apart, in LogManager's futureLogs) stays on disk, a stray.
         {[log |-> IF BugKeepFutureOnDelete /\ L.fut # NONE
                   THEN [cur |-> L.cur \ online[b], fut |-> L.fut, phase |-> "stopped"]
                   ELSE [cur |-> L.cur \ online[b], fut |-> NONE, phase |-> "none"],
           q |-> IF (IF pr.state = "live" THEN BugRetryMovedReplica ELSE BugRetryDeletedTopic)
                 THEN q0 ELSE NONE]}
    ELSE IF BugOfflinePartitionByName /\ stale[b][p] \cap knownFailed[b] # {}
    THEN \* KAFKA-16157: the broker process marked the old incarnation's
         \* partition offline when its dir failed (HostedPartition.Offline, which
         \* carried no topic id); getOrCreatePartition finds the name offline
         \* and refuses the new incarnation ("Unable to bring up new local
         \* leader ... because it resides in an offline log directory").  Since
         \* the fix it compares topic ids and creates the new partition.
         Keep
    ELSE IF ~IsMulti(b)
    THEN \* single log dir: the replica lives in it; dirs are not communicated,
         \* except for corrections (rev-a, rev-c: any; rev-b: LOST_DIR only)
         LET d0 == TheDir(dirsOf[b])
         IN {[log |-> [L EXCEPT !.cur = {d0}],
              q |-> IF \/ Revision # "b" /\ md # d0
                       \/ Revision = "b" /\ md = LOST
                    THEN Assign(d0) ELSE q0]}
    ELSE IF MoveUnderWay(L) /\ Revision = "c"
    THEN \* rev-c (ReplicaManager.maybeUpdateTopicAssignment): a metadata dir
         \* other than the current log's is answered with the current log's dir;
         \* the fix also leaves alone the future log's dir.  (Kafka compares on
         \* a change of the replica's dir only; the model on every change of the
         \* partition's record the broker applies.)
         IF md \in L.cur \/ (md = L.fut /\ ~BugIgnoreFutureDir) \/ on = {}
         THEN Keep
         ELSE {[log |-> L, q |-> Assign(c)] : c \in on}
    ELSE IF MoveUnderWay(L)
    THEN \* a move is under way (both dirs online).  The metadata already
         \* pointing at the future replica means it can be promoted once fully
         \* caught up; the metadata pointing at neither replica (e.g. UNASSIGNED
         \* after a restart) is corrected to the current replica's dir unless the
         \* move's own assignment is already on its way.
         IF md = L.fut /\ L.phase # "acked"
         THEN {[log |-> [L EXCEPT !.phase = "acked"], q |-> q0]}
         ELSE IF md \notin L.cur \cup {L.fut} /\ L.phase = "copying"
         THEN {[log |-> L, q |-> Assign(c)] : c \in on}
         ELSE Keep
    ELSE IF on # {}
    THEN \* the log exists in an online dir: correct any other assignment
         \* (UNASSIGNED, MIGRATING, LOST, another online dir, an unknown dir).
         \* An assignment to a dir that failed while the broker ran fits none of
         \* the KIP's cases: no action -- which is why an accepted move that is
         \* not reverted (KAFKA-16297) stays wrong until the broker restarts.
         \* Rev-c compares with the current log's dir only, so it corrects that
         \* case too.
         \* BugKeepMigratingDir: MIGRATING_DIR read as "lives in the broker's
         \* dir" (the KIP's assumption for single-dir brokers) on a multi-dir one.
         {[log |-> L, q |-> IF \/ md \in on
                               \/ md \in knownFailed[b] /\ Revision # "c"
                               \/ md = MIGRATING /\ BugKeepMigratingDir
                            THEN q0 ELSE Assign(c)] :
             c \in on}
    ELSE IF BugRecreateUnassigned /\ md = UNASSIGNED /\ PendingAssign(b, p) = {NONE}
    THEN \* rev-c, the code as it is: the first application of a partition by a
         \* broker process makes a new Partition object, hence isNew = true, and
         \* Partition.createLogInAssignedDirectoryId lets UNASSIGNED_DIR through
         \* to LogManager.getOrCreateLog, which creates the missing log in an
         \* online dir (KAFKA-16234 again, for a replica whose assignment never
         \* reached the controller).  Modelled as: no current log online and no
         \* assignment of p pending -- which, but after a lost request, means the
         \* process has not applied p since it started.
         CreateAt(online[b], TRUE)
    ELSE IF vis # {}
    THEN \* the log is on a dir that failed: the partition is offline here.
         \* KAFKA-16234: the broker re-created it in another dir.
         \* ReportOfflineUnassigned (proposed): a replica the controller has at
         \* UNASSIGNED_DIR is assigned to the failed dir, so that the controller
         \* marks it offline (and may unfence the broker).
         IF BugRecreateElsewhere THEN CreateAt(online[b], TRUE)
         ELSE IF ReportOfflineUnassigned /\ md = UNASSIGNED
         THEN {[log |-> L, q |-> Assign(TheDir(vis))]}
         ELSE Keep
    ELSE IF md \in {UNASSIGNED, MIGRATING}
    THEN \* not assigned: select a dir, create the log, tell the controller.
         \* BugWaitForAssignedDir: the broker reads UNASSIGNED_DIR as "not placed
         \* yet" and waits for the controller to name a dir, which waits for the
         \* broker's assignment: the replica is never created.
         \* ReportOfflineUnassigned (proposed): a replica it may not create (its
         \* log may be on a dir that did not load) is assigned to LOST_DIR.
         IF mayCreate /\ ~(BugWaitForAssignedDir /\ md = UNASSIGNED)
         THEN CreateAt(online[b], TRUE)
         ELSE IF ReportOfflineUnassigned /\ md = UNASSIGNED
         THEN {[log |-> L, q |-> Assign(LOST)]}
         ELSE Keep
    ELSE IF md \in online[b]
    THEN \* assigned to an online dir: create it there
         IF mayCreate THEN CreateAt({md}, FALSE) ELSE Keep
    ELSE IF md \in knownFailed[b]
    THEN \* assigned to a dir that failed: nothing can be done
         IF BugRecreateElsewhere THEN CreateAt(online[b], TRUE) ELSE Keep
    ELSE \* LOST_DIR or a dir unknown to the broker: only if no dir is offline
         IF ~HasOffline(b) THEN CreateAt(online[b], TRUE) ELSE Keep

\* The broker applies the metadata delta of partition p (its image catches up).
\* The logs of an old incarnation of p on its online dirs are deleted with the
\* old topic id (ReplicaManager.applyDelta: deletes first); those on an
\* offline dir stay on disk (the dir's logs left LogManager when it failed).
\* Below IBP_3_7_IV2 it sends no directory (ReplicaManager.applyDelta: "We only
\* want to update the directoryIds if DirectoryAssignment is supported"); the
\* model lets the broker read the controller's metadata.version (its image
\* lags by the feature-level record only).  BugAssignBelowJbodVersion: neither
\* the broker nor the controller (handleAssignReplicasToDirs) checks it.
DirAssignmentsOn == mvJbod \/ BugAssignBelowJbodVersion

BrokerApplyDelta(b, p) ==
    /\ alive[b]
    /\ p \in dirty[b]
    /\ \E r \in Reconcile(b, p) :
         /\ logs' = [logs EXCEPT ![b][p] = r.log]
         /\ queue' = [queue EXCEPT ![b][p] = IF DirAssignmentsOn THEN r.q ELSE queue[b][p]]
    /\ dirty' = [dirty EXCEPT ![b] = @ \ {p}]
    /\ stale' = [stale EXCEPT ![b][p] = IF BugStrayCheckOnlyAtStartup THEN @ ELSE @ \ online[b]]
    /\ UNCHANGED <<dirsOf, alive, zk, online, knownFailed, seen,
                   inflight, hbPending, hbResp, ctrlVars, histVars>>

-----------------------------------------------------------------------------
(* AssignReplicasToDirs                                                     *)

\* "Controller / Handling replica assignments": persist the assignment; if the
\* dir is not one of the broker's online dirs (or is LOST_DIR) the replica is
\* offline and leader and ISR are updated as for a failed dir.  Otherwise only
\* the directory changes (and the ELR fields are worked out again, as for every
\* change the controller builds: they stay).  BugElrDroppedOnAssign: the
\* record that changes only a directory has no ELR fields, and applying it
\* (PartitionRegistration.merge) takes an absent field for an empty one.
ApplyAssignment(p, b, d) ==
    LET pr == [part[p] EXCEPT !.dir[b] = d]
    IN IF CtrlOffline(b, d) /\ ~BugIgnoreAssignIntoOfflineDir
       THEN DropReplica(pr, b)
       ELSE IF BugElrDroppedOnAssign THEN [pr EXCEPT !.elr = {}, !.lastKnownElr = {}]
       ELSE WithElr(part[p], pr, {})

\* The broker sends every queued assignment in one request (one in flight at a
\* time; "queued and batched together") and the controller handles it.
\* Partitions that no longer exist get UNKNOWN_TOPIC_ID, a partition the broker
\* no longer hosts NOT_LEADER_OR_FOLLOWER ("notReplica").  With EnableRpcErrors
\* the request may fail as a whole (timeout, NOT_CONTROLLER): retriable.
AssignSend(b) ==
    /\ alive[b]
    /\ inflight[b] = NONE
    /\ queue[b] # EmptyQ
    /\ LET q == queue[b]
           batch == {p \in Partitions : q[p] # NONE}
       IN \/ /\ part' = [p \in Partitions |->
                            IF p \in batch /\ LiveReplicaOf(p, b)
                            THEN ApplyAssignment(p, b, q[p]) ELSE part[p]]
             /\ inflight' = [inflight EXCEPT ![b] =
                    [asg |-> q,
                     res |-> [p \in Partitions |->
                                IF p \notin batch THEN "none"
                                ELSE IF LiveReplicaOf(p, b) THEN "ok"
                                ELSE IF part[p].state = "live" THEN "notReplica" ELSE "unknown"]]]
             /\ dirty' = DirtyAfter
          \/ /\ EnableRpcErrors
             /\ inflight' = [inflight EXCEPT ![b] =
                    [asg |-> q,
                     res |-> [p \in Partitions |-> IF p \in batch THEN "err" ELSE "none"]]]
             /\ UNCHANGED <<part, dirty>>
    /\ queue' = [queue EXCEPT ![b] = EmptyQ]
    /\ UNCHANGED <<dirsOf, alive, zk, online, knownFailed, logs, seen,
                   hbPending, hbResp, reg, histVars, stale>>

\* The broker handles the response: a retriable error re-queues the assignment
\* unless a newer one for the partition was queued meanwhile; success of the
\* assignment to a future replica's dir lets the move proceed to promotion
\* ("Intra-broker replica movement").  KAFKA-17190: the buggy assignments
\* manager retried every failed assignment forever, even UNKNOWN_TOPIC_ID for a
\* deleted topic; the fix drops assignments of partitions that no longer exist
\* (per the controller's error or the broker's own image).
\* NOT_LEADER_OR_FOLLOWER is retried like any per-partition error
\* (AssignmentsManager.handleAssignmentResponse) until the broker's image shows
\* the replica gone (Assignment.valid, checked before each send: "Check if this
\* broker is still a replica"): the controller may have answered while the
\* replica was away, and the partition may be back on the broker since.
\* BugRetryMovedReplica: the validity check looks only at
\* whether the topic still exists, so the assignment of a replica that moved
\* away is kept and retried, and accepted should the partition move back.
\* BugDropFailedAssignment: on a request-level error (timeout, disconnection,
\* NOT_CONTROLLER) the manager logs "Retrying" but forgets the batch instead of
\* putting it back into its ready queue (AssignmentsManager.handleResponse).
\* A failed assignment goes back only if no newer one of its partition was
\* queued while it was in flight (`ready.putIfAbsent`): the newest assignment
\* wins.  BugRetryReplacesNewer: it is put back over the newer one (`put`).
RetryAfter(b, p, r) ==
    IF BugRetryDeletedTopic \/ (BugRetryMovedReplica /\ part[p].state = "live")
    THEN r.res[p] \in {"err", "unknown", "notReplica"}
    ELSE /\ r.res[p] \in {"err", "notReplica"}
         /\ ~ImageGone(b, p)
         /\ ~BugDropFailedAssignment

AssignResponse(b) ==
    /\ alive[b]
    /\ inflight[b] # NONE
    /\ LET r == inflight[b]
           retry(p) == \* the answer for p was an error the broker retries
                       RetryAfter(b, p, r)
       IN /\ queue' = [queue EXCEPT ![b] =
                 [p \in Partitions |-> IF retry(p) /\ (queue[b][p] = NONE \/ BugRetryReplacesNewer)
                                       THEN r.asg[p] ELSE queue[b][p]]]
          /\ logs' = [logs EXCEPT ![b] =
                 [p \in Partitions |->
                     IF r.res[p] = "ok" /\ logs[b][p].phase = "caught"
                        /\ logs[b][p].fut = r.asg[p]
                     THEN [logs[b][p] EXCEPT !.phase = "acked"]
                     ELSE logs[b][p]]]
          /\ rejected' = [rejected EXCEPT ![b] = @ \cup {p \in Partitions : r.res[p] = "unknown"}]
    /\ inflight' = [inflight EXCEPT ![b] = NONE]
    /\ UNCHANGED <<dirsOf, alive, zk, online, knownFailed, dirty, seen,
                   hbPending, hbResp, ctrlVars, movesLeft, unfencedWith, reassignsLeft, mvJbod, stale, recreatesLeft, pausesLeft>>

-----------------------------------------------------------------------------
(* Log directory failure, heartbeats, fencing                               *)

\* The failure of dir d concerns the move of L: d holds its future log or its
\* current log.  BugKeepMoveOnSourceFailure: only partitions whose future log
\* is on the failed dir lose their alter-log-dirs fetcher; a move whose source
\* failed goes on copying from an offline log and is never reverted.
MoveTouches(L, d) ==
    MoveUnderWay(L) /\ (L.fut = d \/ (d \in L.cur /\ ~BugKeepMoveOnSourceFailure))

\* What happens to a move when dir d fails ("Intra-broker replica movement"):
\* the move stops (ReplicaManager.handleLogDirFailure removes the alter-log-dirs
\* fetcher) but the future log stays on its disk, failed or not, where a
\* restart may find it (KAFKA-16082).
AbortMove(L, d) ==
    IF MoveTouches(L, d)
    THEN [L EXCEPT !.phase = "stopped"]
    ELSE L

\* The queue entry of p after dir d failed.  Destination failed: revert the
\* assignment to the current dir -- the queued assignment to the destination
\* is replaced ("cancelled locally if still queued"), and one the controller may
\* already have accepted is undone.  Source failed: if the controller may learn
\* or already knows the destination, tell it the replica is offline instead:
\* rev-a (and rev-c: ReplicaAlterLogDirsThread.removePartitions reverts to
\* the original dir) re-assigns it to the original (offline) dir, rev-b to
\* LOST_DIR.  KAFKA-16297: an accepted assignment was not reverted.
RevertEntry(b, p, d) ==
    LET L == logs[b][p]
        q0 == queue[b][p]
        sent == \/ L.phase = "acked"
                \/ inflight[b] # NONE /\ inflight[b].asg[p] = L.fut
    IN IF ~MoveTouches(L, d) THEN q0
       ELSE IF L.fut = d
       THEN IF q0 = d \/ (sent /\ ~BugNoRevertOnAbort) THEN TheDir(L.cur) ELSE q0
       ELSE IF q0 = L.fut \/ sent THEN (IF Revision = "b" THEN LOST ELSE d) ELSE q0

\* "Brokers / Handling log directory failures".  A broker with one log dir, a
\* broker whose last online dir fails, and a ZK-mode broker during the
\* migration ("shutdown if any directory fails") shut down.  Otherwise the dir
\* is queued for every heartbeat until acknowledged, and moves touching it abort.
DirFail(b, d) ==
    /\ EnableFailures
    /\ alive[b]
    /\ d \in online[b]
    /\ online' = [online EXCEPT ![b] = @ \ {d}]
    /\ IF ~IsMulti(b) \/ zk[b] \/ online[b] = {d}
       THEN /\ HaltVolatile(b)
            /\ UNCHANGED <<dirsOf, zk, ctrlVars, histVars, stale>>
       ELSE /\ knownFailed' = [knownFailed EXCEPT ![b] = @ \cup {d}]
            /\ hbPending' = [hbPending EXCEPT ![b] = @ \cup {d}]
            /\ queue' = [queue EXCEPT ![b] = [p \in Partitions |-> RevertEntry(b, p, d)]]
            /\ logs' = [logs EXCEPT ![b] = [p \in Partitions |-> AbortMove(logs[b][p], d)]]
            /\ UNCHANGED <<dirsOf, alive, zk, dirty, seen, inflight, hbResp, ctrlVars, histVars, stale>>

\* The controller may grant b's request to be unfenced.
\* BugKeepSessionOnReregister: a new incarnation's registration does not replace
\* the heartbeat session of the previous one (ClusterControlManager.registerBroker
\* removes it for that reason); the restarted broker's heartbeats are answered
\* from the stale session and its request to be unfenced is never granted.
GrantsUnfence(b) == ~(BugKeepSessionOnReregister /\ reg[b].epoch > 1)

\* BrokerHeartbeat, handled by the controller ("Controller / Handling log
\* directory failures" and "Broker registration").  OfflineLogDirs carries every
\* failed dir not yet acknowledged; the controller drops them from the
\* registration's online dirs and updates leader and ISR of the replicas on
\* them.  The broker asks to be unfenced when QueuedReplicaToDirAssignments is 0;
\* the controller keeps a multi-dir broker fenced while any of its replicas is
\* UNASSIGNED or MIGRATING.  Heartbeats that change nothing are not modelled.
Heartbeat(b) ==
    /\ alive[b]
    /\ ~zk[b]
    /\ hbResp[b] = NONE
    /\ LET carried == hbPending[b]
           wantUnfence == queue[b] = EmptyQ /\ inflight[b] = NONE
           newDirs == reg[b].dirs \ carried
           unfence == /\ reg[b].fenced /\ GrantsUnfence(b)
                      /\ wantUnfence
                      /\ \/ BugUnfenceWithUnassigned
                         \/ ~MultiDirRegistration(b)
                         \/ UnassignedOf(b) = {}
       IN /\ carried # {} \/ unfence
          /\ reg' = [reg EXCEPT ![b].dirs = newDirs,
                                ![b].fenced = IF unfence THEN FALSE ELSE @]
          /\ part' = [p \in Partitions |->
                         IF LiveReplicaOf(p, b) /\ part[p].dir[b] \in carried
                         THEN DropReplica(part[p], b) ELSE part[p]]
          /\ hbResp' = [hbResp EXCEPT ![b] = carried]
          /\ unfencedWith' = IF unfence /\ MultiDirRegistration(b)
                             THEN [unfencedWith EXCEPT ![b] = UnassignedOf(b)]
                             ELSE unfencedWith
    /\ dirty' = DirtyAfter
    /\ UNCHANGED <<dirsOf, alive, zk, online, knownFailed, logs, seen,
                   queue, inflight, hbPending, movesLeft, rejected, reassignsLeft, mvJbod, stale, recreatesLeft, pausesLeft>>

\* The heartbeat response acknowledges the dirs that heartbeat carried, which
\* stop being sent (KAFKA-15649).  The race: acknowledging every dir pending when
\* the response arrives, including one that failed after the request left.
\* BugIgnoreHeartbeatAck: the acknowledgement is not applied (the response's
\* handler keeps every dir pending), so the failure is reported for ever and
\* log.dir.failure.timeout.ms fires as if the controller had never heard of it.
StillPending(b) ==
    CASE BugAckUnsent -> {}
      [] BugIgnoreHeartbeatAck -> hbPending[b]
      [] OTHER -> hbPending[b] \ hbResp[b]

HeartbeatResponse(b) ==
    /\ alive[b]
    /\ hbResp[b] # NONE
    /\ hbPending' = [hbPending EXCEPT ![b] = StillPending(b)]
    /\ hbResp' = [hbResp EXCEPT ![b] = NONE]
    /\ UNCHANGED <<brokerVars, queue, inflight, ctrlVars, histVars>>

\* log.dir.failure.timeout.ms ("Configuration", "Brokers / Handling log
\* directory failures"): the broker has not managed to communicate a failed
\* dir, or an assignment into a failed dir, and still leads a replica whose log
\* is on a failed dir: it shuts down.
\* BugShutdownWithoutLeadership: what Kafka's code does (BrokerLifecycleManager's
\* OfflineDirBrokerFailureEvent checks only that the controller has not
\* acknowledged the dir): the broker shuts down whether or not it leads a
\* replica on the failed dir.
DirFailureTimeout(b) ==
    /\ EnableFailures
    /\ alive[b]
    /\ ~zk[b]
    /\ \/ hbPending[b] # {}
       \/ \E p \in Partitions : PendingAssign(b, p) \cap (knownFailed[b] \cup {LOST}) # {}
    /\ BugShutdownWithoutLeadership
       \/ \E p \in Partitions : part[p].leader = b /\ logs[b][p].cur \cap knownFailed[b] # {}
    /\ HaltVolatile(b)
    /\ UNCHANGED <<dirsOf, zk, online, ctrlVars, histVars, stale>>

-----------------------------------------------------------------------------
(* Broker lifecycle                                                         *)

\* The process dies: a crash, or a failure of metadata.log.dir, which the
\* broker cannot survive (footnote 1).
Crash(b) ==
    /\ EnableRestart
    /\ alive[b]
    /\ HaltVolatile(b)
    /\ UNCHANGED <<dirsOf, zk, online, ctrlVars, histVars, stale>>

\* On startup a move is resumed if both its logs are on online dirs.  A future
\* log on a dir that did not load is forgotten (should that disk come back
\* later, the move would resume: not modelled).
Resume(L, on) ==
    IF L.fut # NONE /\ L.fut \in on /\ L.cur # {} /\ L.cur \subseteq on
    THEN [L EXCEPT !.phase = "copying"]
    ELSE [L EXCEPT !.fut = NONE, !.phase = "none"]

\* KAFKA-16082 (LogManager.recoverAbandonedFutureLogs, run on the first
\* metadata image after startup): a future log on a dir the image already
\* assigns the replica to was acknowledged before the broker stopped; it is
\* promoted at once and the current log deleted.  A current log on a dir that
\* did not load stays on that disk; it is not modelled: should that disk come
\* back, Kafka refuses to start with two logs of the partition and asks the
\* operator to delete the one on the dir that failed (LogManager.loadLog), a
\* step outside the protocol.  BugResumeAcceptedMove: the broker before that
\* fix resumed such a move as if nothing had been acknowledged, or dropped the
\* future log when the current one was offline, while the metadata pointed at
\* the future log's dir.
AcceptedMove(b, p, L, on) ==
    /\ L.fut # NONE /\ L.fut \in on
    /\ part[p].state = "live" /\ b \in part[p].replicas /\ part[p].dir[b] = L.fut

\* A log of an old incarnation of p on a dir that loaded is a stray
\* (LogManager.loadLog: isStrayKraftReplica finds its topic id, read from
\* partition.metadata, absent from the image), renamed and not loaded.
\* BugLoadLogByName: the broker matches logs to partitions by name, as LogManager
\* keys them (TopicPartition), and skips the topic id check (as for a log
\* without partition.metadata, which getOrCreateLog gives the new id): a
\* partition of that name the image assigns to the broker takes the old log.
LoadByName(b, p, on) == BugLoadLogByName /\ LiveReplicaOf(p, b) /\ stale[b][p] \cap on # {}

StartLog(b, p, on) ==
    LET L == logs[b][p]
        S == IF ~BugResumeAcceptedMove /\ AcceptedMove(b, p, L, on)
             THEN [cur |-> {L.fut}, fut |-> NONE, phase |-> "none"]
             ELSE Resume(L, on)
    IN IF LoadByName(b, p, on) THEN [S EXCEPT !.cur = @ \cup (stale[b][p] \cap on)] ELSE S

\* On startup the broker also looks at every log on its disks whose partition
\* the image does not assign to it (LogManager.isStrayKraftReplica: "the current
\* replica assignment does not contain the local brokerId"); such a log is
\* renamed "-stray" and no longer loaded as the partition's log, which the
\* model counts as deleted.  BugNoStrayCheckOnStartup: the broker only looks
\* at the partitions the image assigns to it, as before KAFKA-14616's fix, so
\* the log of a partition that moved away while it was down stays loaded.
StrayCheck(b, p) ==
    /\ ~BugNoStrayCheckOnStartup
    /\ logs[b][p].cur # {} \/ logs[b][p].fut # NONE

\* Start and register ("Broker lifecycle management", "Broker registration"):
\* LogDirs = the dirs that loaded (a failed dir's id cannot be read); the
\* registration also records whether some dir is offline.  A KRaft broker
\* registers fenced; a new epoch fences the previous incarnation (leader and ISR
\* move off it).  The broker then compares the whole image with its disks
\* (footnote 4).  BugKeepLeaderOnReregister: the controller fences the new
\* incarnation but leaves the partitions alone, waiting for a session timeout
\* that never comes since the broker heartbeats again.
StartBroker(b, on, isZk) ==
    LET newPart == IF BugKeepLeaderOnReregister THEN part ELSE FencePartitionsOf(b, {b})
    IN
    /\ alive' = [alive EXCEPT ![b] = TRUE]
    /\ zk' = [zk EXCEPT ![b] = isZk]
    /\ online' = [online EXCEPT ![b] = on]
    /\ knownFailed' = [knownFailed EXCEPT ![b] = {}]
    /\ queue' = [queue EXCEPT ![b] = IF BugPersistAssignments THEN @ ELSE EmptyQ]
    /\ inflight' = [inflight EXCEPT ![b] = NONE]
    /\ hbPending' = [hbPending EXCEPT ![b] = {}]
    /\ hbResp' = [hbResp EXCEPT ![b] = NONE]
    /\ logs' = [logs EXCEPT ![b] = [p \in Partitions |-> StartLog(b, p, on)]]
    /\ reg' = [reg EXCEPT ![b] = [dirs |-> IF mvJbod THEN on ELSE {},
                                  fenced |-> ~isZk, epoch |-> reg[b].epoch + 1, zk |-> isZk,
                                  multi |-> mvJbod /\ (Cardinality(on) > 1 \/ on # dirsOf[b])]]
    /\ part' = newPart
    /\ seen' = [seen EXCEPT ![b] = {p \in Partitions : part[p].state = "live"}]
    /\ dirty' = [x \in Brokers |->
                    IF x = b
                    THEN {p \in Partitions : (b \in part[p].replicas /\ part[p].state # "none") \/ StrayCheck(b, p)}
                    ELSE IF alive[x]
                    THEN dirty[x] \cup {p \in Partitions : newPart[p] # part[p] /\ x \in part[p].replicas}
                    ELSE dirty[x]]
    /\ unfencedWith' = [unfencedWith EXCEPT ![b] = {}]
    /\ stale' = [stale EXCEPT ![b] = [p \in Partitions |->
                    IF LoadByName(b, p, on) THEN stale[b][p] ELSE stale[b][p] \ on]]
    /\ UNCHANGED <<dirsOf, movesLeft, rejected, reassignsLeft, mvJbod, recreatesLeft, pausesLeft>>

\* Failed dirs may have been repaired (data intact) or still be failed.
RestartDirs(b) == {o \in {online[b], dirsOf[b]} : o # {}}

\* Restart of a stopped broker, in the mode it ran in.
Restart(b) ==
    /\ EnableRestart
    /\ ~alive[b]
    /\ reg[b].epoch < MaxEpoch
    /\ \E on \in RestartDirs(b) : StartBroker(b, on, zk[b])

\* "Migrating a cluster in ZK mode running with JBOD": a ZK-mode broker is
\* restarted into KRaft mode (rolling restart if it is running).  It registers
\* fenced and stays fenced until its assignments are known.
RestartIntoKRaft(b) ==
    /\ EnableMigration
    /\ zk[b]
    /\ reg[b].epoch < MaxEpoch
    /\ \E on \in RestartDirs(b) : StartBroker(b, on, FALSE)

\* Ids that still mean something: on a disk, in a registration, in the
\* metadata or in a message.  A random UUID never collides with one of them.
IdsInUse ==
    UNION {dirsOf[x] \cup reg[x].dirs : x \in Brokers}
    \cup {part[p].dir[x] : p \in Partitions, x \in Brokers}
    \cup {queue[x][p] : x \in Brokers, p \in Partitions}
    \cup {inflight[x].asg[p] : x \in {y \in Brokers : inflight[y] # NONE}, p \in Partitions}

\* "meta.properties", "Reserved UUIDs": a dir whose meta.properties has no
\* directory.id gets a random id, never a reserved one.  BugReservedDirId: a
\* generator that only excludes UNASSIGNED_DIR and LOST_DIR -- Uuid(0,0) and
\* Uuid(0,1), the two ids Uuid.randomUuid() excludes -- may yield MIGRATING_DIR,
\* Uuid(0,2).  BugForeignDirId: the new disk is a copy of another broker's log
\* dir, meta.properties included; the broker should refuse to start (its
\* node.id does not match) but loads it, so two brokers have the same dir id.
NewDirIds(b) ==
    (DirIds \ IdsInUse)
    \cup (IF BugReservedDirId THEN {MIGRATING} ELSE {})
    \cup (IF BugForeignDirId THEN UNION {dirsOf[x] : x \in Brokers \ {b}} ELSE {})

\* The logs of a disk that is gone; a move whose future replica was on it is over.
Wipe(L, d) ==
    IF L.fut = d THEN [cur |-> L.cur \ {d}, fut |-> NONE, phase |-> "none"]
    ELSE [L EXCEPT !.cur = @ \ {d}]

\* A failed disk of a stopped broker is replaced by an empty one ("Broker
\* lifecycle management": a missing directory.id is generated at startup; the
\* id it will get is chosen here).  Its logs are lost; at the next registration
\* the dir is new, hence assumed empty ("Broker registration").
ReplaceDisk(b, d) ==
    /\ EnableDiskReplace
    /\ ~alive[b]
    /\ d \in dirsOf[b] \ online[b]
    /\ \E n \in NewDirIds(b) :
         /\ dirsOf' = [dirsOf EXCEPT ![b] = (@ \ {d}) \cup {n}]
         /\ online' = [online EXCEPT ![b] = @ \cup {n}]
    /\ logs' = [logs EXCEPT ![b] = [p \in Partitions |-> Wipe(logs[b][p], d)]]
    /\ stale' = [stale EXCEPT ![b] = [p \in Partitions |-> stale[b][p] \ {d}]]
    /\ UNCHANGED <<alive, zk, knownFailed, dirty, seen, msgVars, ctrlVars, histVars>>

-----------------------------------------------------------------------------
(* Intra-broker replica movement (KIP-113, as changed by KIP-858)           *)

\* "Intra-broker replica movement": AlterReplicaLogDirs starts a future replica
\* of p in dir d (ReplicaAlterLogDirsThread, unchanged from KIP-113).  A broker
\* still in ZooKeeper mode during the migration moves replicas too: KIP-113
\* predates KRaft, AlterReplicaLogDirs listens on "zkBroker" as on "broker"
\* (AlterReplicaLogDirsRequest.json) and ReplicaManager.alterReplicaLogDirs
\* does not look at the mode.  Like its new replicas' dirs, the move's is sent
\* with AssignReplicasToDirs ("Migrating a cluster in ZK mode running with
\* JBOD": while still in ZK mode brokers send assignments via the RPC).
MoveStart(b, p, d) ==
    /\ EnableMoves
    /\ movesLeft > 0
    /\ alive[b] /\ IsMulti(b)
    /\ LiveReplicaOf(p, b)
    /\ LET L == logs[b][p]
       IN /\ L.fut = NONE
          /\ Cardinality(L.cur) = 1
          /\ L.cur \subseteq online[b]
          /\ d \in online[b] \ L.cur
          /\ logs' = [logs EXCEPT ![b][p] = [L EXCEPT !.fut = d, !.phase = "copying"]]
    /\ movesLeft' = movesLeft - 1
    /\ UNCHANGED <<dirsOf, alive, zk, online, knownFailed, dirty, seen, msgVars,
                   ctrlVars, rejected, unfencedWith, reassignsLeft, mvJbod, stale, recreatesLeft, pausesLeft>>

\* The future replica first catches up: instead of promoting it, the broker
\* queues the assignment to its dir and keeps copying (ReplicaAlterLogDirsThread:
\* ReassignmentState.Queued; the controller's answer makes it Accepted).
\* BugPromoteBeforeAck: the state is set to Accepted when the assignment is
\* queued, not by the callback run on the controller's answer; the future log
\* is promoted while the metadata still names the old dir, whose log is gone.
MoveCaughtUp(b, p) ==
    /\ alive[b]
    /\ logs[b][p].phase = "copying"
    /\ logs[b][p].cur \subseteq online[b]
    /\ logs[b][p].fut \in online[b]
    /\ logs' = [logs EXCEPT ![b][p].phase = IF BugPromoteBeforeAck THEN "acked" ELSE "caught"]
    /\ queue' = [queue EXCEPT ![b][p] = logs[b][p].fut]
    /\ UNCHANGED <<dirsOf, alive, zk, online, knownFailed, dirty, seen,
                   inflight, hbPending, hbResp, ctrlVars, histVars, stale>>

\* After the controller confirmed the assignment: block appends, final catch-up,
\* promote the future replica and delete the old one.
MovePromote(b, p) ==
    /\ alive[b]
    /\ logs[b][p].phase = "acked"
    /\ logs[b][p].cur \subseteq online[b]
    /\ logs[b][p].fut \in online[b]
    /\ logs' = [logs EXCEPT ![b][p] = [cur |-> {logs[b][p].fut}, fut |-> NONE, phase |-> "none"]]
    /\ UNCHANGED <<dirsOf, alive, zk, online, knownFailed, dirty, seen, msgVars,
                   ctrlVars, histVars, stale>>

-----------------------------------------------------------------------------
(* Inter-broker partition reassignment (KIP-455, KRaft controller)          *)

\* AlterPartitionReassignments with target replicas T
\* (ReplicationControlManager.changePartitionReassignment,
\* PartitionReassignmentReplicas): the replicas become T plus the current ones,
\* adding = T minus the current, removing = the current minus T; the ISR and the
\* leader stay.  A new replica's directory is the controller's default
\* (ClusterControlManager.defaultDir: UNASSIGNED, or the only dir of a
\* single-dir broker, as for a new partition); the broker places it and sends
\* AssignReplicasToDirs.  To the broker it is a new partition (its
\* ReplicaManager has no Partition for it, so LogManager may create the log even
\* with a dir offline): the model takes p out of the added brokers' seen.  A
\* target already in the ISR (a replica only removed) completes at once.  The
\* model starts one reassignment at a time (Kafka lets a new target replace one
\* in progress) with any non-empty target (Kafka checks only that its brokers
\* are registered: the replication factor may change).  A partition the
\* controller has no record of (not created, or deleted) is refused with
\* UNKNOWN_TOPIC_OR_PARTITION (alterPartitionReassignment); an offline one (no
\* leader) is not.  BugReassignMissingPartition: the existence check is lost.
ReassignStart(p, T) ==
    /\ EnableReassign
    /\ reassignsLeft > 0
    /\ part[p].state = "live" \/ BugReassignMissingPartition
    /\ ~Reassigning(part[p])
    /\ T # {} /\ T # part[p].replicas
    /\ LET old == part[p]
           R == old.replicas
           pr == [old EXCEPT !.replicas = T \cup R, !.adding = T \ R, !.removing = R \ T,
                             !.dir = [x \in Brokers |-> IF x \in T \ R THEN InitialDir(x)
                                                       ELSE old.dir[x]]]
       IN \E r \in Settle(old, pr) : part' = [part EXCEPT ![p] = WithElr(old, r, {})]
    /\ seen' = [x \in Brokers |-> IF x \in T \ part[p].replicas THEN seen[x] \ {p} ELSE seen[x]]
    /\ reassignsLeft' = reassignsLeft - 1
    /\ dirty' = DirtyAfter
    /\ UNCHANGED <<dirsOf, alive, zk, online, knownFailed, logs, msgVars, reg,
                   movesLeft, rejected, unfencedWith, mvJbod, stale, recreatesLeft, pausesLeft>>

\* AlterPartitionReassignments with no target: cancel (PartitionReassignmentRevert,
\* ReplicationControlManager.cancelPartitionReassignment).  The adding replicas
\* leave the replicas and the ISR, the removing ones stay; the leader is
\* re-elected if it was an adding replica.  A cancellation that would leave
\* the ISR empty needs an unclean election and is refused (unclean leader
\* election is off).
ReassignCancel(p) ==
    /\ EnableReassign
    /\ part[p].state = "live"
    /\ Reassigning(part[p])
    /\ LET old == part[p]
           orig == old.replicas \ old.adding
           pr == [old EXCEPT !.replicas = orig, !.isr = old.isr \ old.adding,
                             !.dir = [x \in Brokers |-> IF x \in orig THEN old.dir[x] ELSE UNASSIGNED],
                             !.adding = {}, !.removing = {}]
       IN /\ pr.isr # {}
          /\ \E r \in WithLeader(old, pr) : part' = [part EXCEPT ![p] = WithElr(old, r, {})]
    /\ dirty' = DirtyAfter
    /\ UNCHANGED <<dirsOf, alive, zk, online, knownFailed, logs, seen, msgVars, reg, histVars, stale>>

-----------------------------------------------------------------------------
(* metadata.version ("Compatibility, Deprecation, and Migration Plan")      *)

\* Below IBP_3_7_IV2 (EnableMetadataVersion starts there) a KRaft broker has
\* one log dir, registers without dir ids (the RegisterBrokerRecord of that
\* version has no LogDirs), every replica is at MIGRATING_DIR, no
\* AssignReplicasToDirs is sent, and a dir failure stops the broker (its only
\* dir): the pre-KIP behaviour.  The operator upgrades with kafka-features.sh
\* (FeatureControlManager appends a FeatureLevelRecord); nothing else changes:
\* partition records keep MIGRATING_DIR, registrations list no dirs.
UpgradeMetadataVersion ==
    /\ EnableMetadataVersion
    /\ ~mvJbod
    /\ mvJbod' = TRUE
    /\ UNCHANGED <<brokerVars, msgVars, ctrlVars, movesLeft, rejected, unfencedWith, reassignsLeft, recreatesLeft, pausesLeft>>

\* BrokerRegistrationTracker (KAFKA-16162): a running broker whose image shows
\* IBP_3_7_IV2 while its registration lists no dirs sends its registration
\* again with the dirs it loaded at startup, under the same incarnation id: the
\* controller amends the registration (ClusterControlManager.registerBroker,
\* "Amending registration ... Broker epoch remains"), so the broker epoch and
\* the fenced state stay and no partition changes.  BugNoRegistrationRefresh:
\* Kafka 3.7.0, before the tracker: the registration lists no dirs until the
\* broker restarts.
RefreshRegistration(b) ==
    /\ mvJbod /\ ~BugNoRegistrationRefresh
    /\ alive[b] /\ ~zk[b]
    /\ reg[b].dirs = {}
    /\ LET loaded == online[b] \cup knownFailed[b]
       IN reg' = [reg EXCEPT ![b].dirs = loaded,
                             ![b].multi = Cardinality(loaded) > 1 \/ loaded # dirsOf[b]]
    /\ UNCHANGED <<brokerVars, msgVars, part, histVars>>

\* "Migrating a cluster in KRaft without JBOD": once the version is upgraded a
\* stopped broker is given another entry in log.dirs (a second one on a
\* single-dir broker; Kafka sets no upper bound: validateWithMetadataVersion
\* asks only for IBP_3_7_IV2 when there are several), an empty disk whose
\* directory.id is generated at startup.  Its next registration is a new
\* incarnation (new broker epoch, fenced) listing every dir; it stays fenced
\* until it has reported the dir of every replica still at MIGRATING_DIR.
\* Kafka refuses several log.dirs below IBP_3_7_IV2
\* (KafkaConfig.validateWithMetadataVersion); BugMultiDirBelowJbodVersion: the
\* broker runs with them.
AddLogDir(b) ==
    /\ EnableMetadataVersion
    /\ mvJbod \/ BugMultiDirBelowJbodVersion
    /\ ~alive[b]
    /\ \E n \in NewDirIds(b) :
         /\ dirsOf' = [dirsOf EXCEPT ![b] = @ \cup {n}]
         /\ online' = [online EXCEPT ![b] = @ \cup {n}]
    /\ UNCHANGED <<alive, zk, knownFailed, logs, dirty, seen, msgVars, ctrlVars, histVars, stale>>

-----------------------------------------------------------------------------

Next ==
    \/ \E p \in Partitions : CreatePartition(p) \/ DeletePartition(p) \/ ReassignCancel(p)
    \/ \E p \in Partitions : RecreatePartition(p)
    \/ \E p \in Partitions : ReelectLeader(p)
    \/ \E p \in Partitions, T \in SUBSET Brokers : ReassignStart(p, T)
    \/ \E p \in Partitions, b \in Brokers : ElectLeader(p, b) \/ IsrExpand(p, b)
    \/ \E b \in Brokers, p \in Partitions :
          \/ BrokerApplyDelta(b, p)
          \/ MoveCaughtUp(b, p)
          \/ MovePromote(b, p)
    \/ \E b \in Brokers, p \in Partitions, d \in DirIds : MoveStart(b, p, d)
    \/ \E b \in Brokers, d \in DirIds : DirFail(b, d) \/ ReplaceDisk(b, d)
    \/ \E b \in Brokers :
          \/ AssignSend(b)
          \/ AssignResponse(b)
          \/ Heartbeat(b)
          \/ HeartbeatResponse(b)
          \/ DirFailureTimeout(b)
          \/ SessionExpire(b)
          \/ SessionPause(b)
          \/ Crash(b)
          \/ Restart(b)
          \/ RestartIntoKRaft(b)
          \/ RefreshRegistration(b)
          \/ AddLogDir(b)
    \/ UpgradeMetadataVersion

Spec == Init /\ [][Next]_vars

\* State constraint for TLC: bounds leader epochs.
EpochBound == \A p \in Partitions : part[p].lepoch <= MaxLeaderEpoch

\* State constraint for the reassignment configurations: reassignments move
\* replicas but keep the replication factor (the target has ReplicationFactor
\* replicas), which Kafka does not require.
KeepReplicationFactor ==
    \A p \in Partitions :
        part[p].state = "live" => Cardinality(part[p].replicas \ part[p].removing) = ReplicationFactor

\* State constraint for the two-broker configurations: at most one log dir of
\* the cluster is down at a time (failed, or left out by a restart).
OneDirDown == Cardinality(UNION {{<<b, d>> : d \in dirsOf[b] \ online[b]} : b \in Brokers}) <= 1

=============================================================================
