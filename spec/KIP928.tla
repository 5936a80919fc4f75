------------------------------- MODULE KIP928 -------------------------------
(***************************************************************************)
(* KIP-928: making a broker resilient to log directories becoming full.    *)
(*                                                                         *)
(* Behaviour only; properties and TLC configurations are in                *)
(* invariants/KIP928Properties.tla and invariants/KIP928_*.cfg.            *)
(*                                                                         *)
(* Behaviour = "today" is the "Current state" section: an IOException of  *)
(* any kind takes the log dir offline (and a broker left without a usable *)
(* dir halts); the controller does not send topic deletions to offline     *)
(* replicas; retention stops.  Behaviour = "kip" is the "Goal state": a   *)
(* "No space left on device" takes the dir to a new state, saturated:     *)
(* appends and fetchers stop, retention and topic deletion keep working,  *)
(* the reserved file written at startup is deleted to give those admin    *)
(* operations room, and leadership moves off the saturated replicas as it *)
(* does off offline ones.  Any other IOException still takes the dir      *)
(* offline.                                                                *)
(*                                                                         *)
(* Abstractions:                                                           *)
(*  - space is counted in units: a log segment is one unit, the reserved   *)
(*    file ReservedSize units; each append adds one segment (so retention *)
(*    can always delete whole segments);                                  *)
(*  - a dir leaves the saturated state only through a restart (the KIP    *)
(*    gives no other way back);                                            *)
(*  - every broker hosts a replica of every partition (RF = #brokers), the *)
(*    replica of partition p on broker b lives in dir <<b, 1 + (p-1) % n>> *)
(*    (n = DirsPerBroker); partitions are 1..NumPartitions;                 *)
(*  - the controller learns of dir events through a notification the       *)
(*    broker queues (the ZooKeeper /log_dir_event_notification znode, or a *)
(*    KIP-858 heartbeat) and handles it in one step; a broker that halts   *)
(*    reports all its dirs (session expiry has the same effect);           *)
(*  - a deleted topic is never re-created.                                 *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets

CONSTANTS
    Brokers,            \* broker ids (model values)
    NONE,               \* no leader (model value)
    NumPartitions,      \* partitions 1..NumPartitions, each replicated on every broker
    DirsPerBroker,      \* log.dirs entries per broker
    Capacity,           \* space of each log dir, in units
    ReservedSize,       \* size of the reserved file, in units
    MaxOffset,          \* bound on the number of records produced to a partition
    Behaviour,          \* "today" or "kip"
    \* feature switches
    EnableIoErrors,     \* IOExceptions that are not "No space left on device"
    EnableDeletion,     \* topic deletion
    EnableRetention,    \* time/size retention deleting old segments
    EnableRestart,      \* broker restart (at most MaxRestarts in all)
    MaxRestarts,
    \* variants (all FALSE in the correct configurations)
    BugAppendWhenSaturated,  \* appends continue on a saturated dir while it has room
    NoReservedFile,          \* the KIP's alternative without a space-of-last-resort
    BugKeepSaturatedLeader,  \* the controller moves leadership off offline dirs only
    BugImpairWholeBroker     \* a dir event is handled as the loss of every dir of the broker

Partitions == 1..NumPartitions
Dirs == Brokers \X (1..DirsPerBroker)
DirOf(b, p) == <<b, 1 + ((p - 1) % DirsPerBroker)>>
DirsOfBroker(b) == {b} \X (1..DirsPerBroker)

ASSUME /\ Behaviour \in {"today", "kip"}
       /\ NumPartitions \in Nat \ {0} /\ DirsPerBroker \in Nat \ {0}
       /\ Capacity \in Nat /\ ReservedSize \in Nat /\ ReservedSize < Capacity
       /\ MaxOffset \in Nat /\ MaxRestarts \in Nat
       /\ NONE \notin Brokers
       /\ \A flag \in {EnableIoErrors, EnableDeletion, EnableRetention, EnableRestart,
                       BugAppendWhenSaturated, NoReservedFile, BugKeepSaturatedLeader,
                       BugImpairWholeBroker} :
              flag \in BOOLEAN

VARIABLES
    \* ---- broker side ----
    alive,        \* alive[b]: the broker process runs
    status,       \* status[d]: "online" | "saturated" | "offline"
    reserved,     \* reserved[d]: the reserved file is on disk
    logs,         \* logs[b][p] = [on: a log exists, size: segments on disk, end: log end offset]
    pending,      \* pending[b]: dir events not yet handled by the controller
    \* ---- controller ----
    impaired,     \* impaired[b]: dirs of b the controller has handled an event for
    leader,       \* leader[p]: broker or NONE
    isr,          \* isr[p]
    topic,        \* topic[p]: "live" | "deleting"
    \* ---- history and bounds ----
    ioError,      \* ioError[d]: a non-space IOException happened on d
    diskFull,     \* diskFull[d]: d ran out of space ("No space left on device")
    satAppends,   \* dirs that took an append while saturated
    restartsLeft

brokerVars == <<alive, status, reserved, logs, pending>>
ctrlVars   == <<impaired, leader, isr, topic>>
histVars   == <<ioError, diskFull, satAppends, restartsLeft>>
vars       == <<brokerVars, ctrlVars, histVars>>

-----------------------------------------------------------------------------
(* Helpers                                                                  *)

RECURSIVE SumOver(_, _)
\* The sum of f[x] for x in S (f a function whose domain includes S).
SumOver(f, S) == IF S = {} THEN 0
                 ELSE LET x == CHOOSE y \in S : TRUE IN f[x] + SumOver(f, S \ {x})

Used(d) ==
    LET b == d[1]
        here == {p \in Partitions : DirOf(b, p) = d}
    IN (IF reserved[d] THEN ReservedSize ELSE 0)
       + SumOver([p \in Partitions |-> logs[b][p].size], here)

Free(d) == Capacity - Used(d)

\* Can dir d take appends?  (BugAppendWhenSaturated: a saturated one too.)
Writable(d) == status[d] = "online" \/ (BugAppendWhenSaturated /\ status[d] = "saturated")

\* Do retention and deletion still run on dir d?  Today only on online dirs;
\* the KIP keeps them running on saturated ones.
Maintained(d) == status[d] = "online" \/ (Behaviour = "kip" /\ status[d] = "saturated")

\* Some dir of b still serves its logs (online, or saturated under the KIP);
\* a broker without one halts.
Usable(b, st) == \E d \in DirsOfBroker(b) : st[d] # "offline"

\* The controller's view, given the dirs imp of c it has handled events for:
\* the replica of p on c is healthy.  (BugKeepSaturatedLeader: only a dir
\* that is offline counts.)
HealthyWith(c, p, imp) ==
    LET d == DirOf(c, p)
    IN IF BugKeepSaturatedLeader THEN ~(d \in imp /\ status[d] = "offline")
                                 ELSE d \notin imp

HealthyInCtrl(c, p) == HealthyWith(c, p, impaired[c])

NoLog == [on |-> FALSE, size |-> 0, end |-> 0]

\* The effect on dir d of an IOException; `full` says it is "No space left on
\* device" (the broker checks the free space, not the message).  Today both
\* take the dir offline; with the KIP a full dir becomes saturated and its
\* reserved file is deleted.  The broker reports the event to the controller
\* and halts if no dir is left to serve.
DirError(d, full) ==
    LET b == d[1]
        st == [status EXCEPT ![d] = IF full /\ Behaviour = "kip" THEN "saturated" ELSE "offline"]
    IN /\ status' = st
       /\ reserved' = IF full /\ Behaviour = "kip" THEN [reserved EXCEPT ![d] = FALSE]
                      ELSE reserved
       /\ alive' = [alive EXCEPT ![b] = Usable(b, st)]
       /\ pending' = [pending EXCEPT ![b] = IF Usable(b, st) THEN @ \cup {d}
                                            ELSE DirsOfBroker(b)]
       /\ ioError' = [ioError EXCEPT ![d] = @ \/ ~full]
       /\ diskFull' = [diskFull EXCEPT ![d] = @ \/ full]

\* Append one segment to the log of p on b, or hit a full disk.
AppendOrFail(b, p, newEnd) ==
    LET d == DirOf(b, p)
    IN IF Free(d) >= 1
       THEN /\ logs' = [logs EXCEPT ![b][p] = [@ EXCEPT !.size = @ + 1, !.end = newEnd]]
            /\ satAppends' = IF status[d] = "saturated" THEN satAppends \cup {d} ELSE satAppends
            /\ UNCHANGED <<alive, status, reserved, pending, ioError, diskFull>>
       ELSE /\ DirError(d, TRUE)
            /\ UNCHANGED <<logs, satAppends>>

-----------------------------------------------------------------------------

Init ==
    /\ alive = [b \in Brokers |-> TRUE]
    /\ status = [d \in Dirs |-> "online"]
    \* "upon Kafka server startup we will write and flush to disk a 40MB file"
    /\ reserved = [d \in Dirs |-> Behaviour = "kip" /\ ~NoReservedFile]
    /\ logs = [b \in Brokers |-> [p \in Partitions |-> [on |-> TRUE, size |-> 0, end |-> 0]]]
    /\ pending = [b \in Brokers |-> {}]
    /\ impaired = [b \in Brokers |-> {}]
    /\ leader = [p \in Partitions |-> CHOOSE b \in Brokers : TRUE]
    /\ isr = [p \in Partitions |-> Brokers]
    /\ topic = [p \in Partitions |-> "live"]
    /\ ioError = [d \in Dirs |-> FALSE]
    /\ diskFull = [d \in Dirs |-> FALSE]
    /\ satAppends = {}
    /\ restartsLeft = IF EnableRestart THEN MaxRestarts ELSE 0

\* A producer appends to the leader of p ("appends consume space").  With no
\* room left the append fails with "No space left on device" ("Current state"
\* / "Goal state").
Produce(p) ==
    LET l == leader[p]
    IN /\ topic[p] = "live"
       /\ l # NONE /\ alive[l]
       /\ Writable(DirOf(l, p))
       /\ logs[l][p].end < MaxOffset
       /\ AppendOrFail(l, p, logs[l][p].end + 1)
       /\ UNCHANGED <<ctrlVars, restartsLeft>>

\* A follower's fetcher copies the next record from the leader.  A saturated
\* or offline dir has its fetchers removed ("remove all fetchers").
ReplicaFetch(b, p) ==
    LET l == leader[p]
    IN /\ topic[p] = "live"
       /\ l # NONE /\ l # b /\ alive[l] /\ alive[b]
       /\ status[DirOf(l, p)] # "offline"
       /\ Writable(DirOf(b, p))
       /\ logs[b][p].end < logs[l][p].end
       /\ AppendOrFail(b, p, logs[b][p].end + 1)
       /\ UNCHANGED <<ctrlVars, restartsLeft>>

\* The leader adds a caught-up follower to the ISR (AlterPartition).
IsrExpand(p, b) ==
    LET l == leader[p]
    IN /\ topic[p] = "live"
       /\ l # NONE /\ alive[l] /\ alive[b] /\ b \notin isr[p]
       /\ status[DirOf(b, p)] = "online" /\ HealthyInCtrl(b, p)
       /\ logs[b][p].end = logs[l][p].end
       /\ isr' = [isr EXCEPT ![p] = @ \cup {b}]
       /\ UNCHANGED <<brokerVars, impaired, leader, topic, histVars>>

\* Any other IOException: "will continue to be treated the same way ... and
\* will result in a log directory going offline".
IoError(d) ==
    /\ EnableIoErrors
    /\ alive[d[1]] /\ status[d] # "offline"
    /\ DirError(d, FALSE)
    /\ UNCHANGED <<logs, satAppends, ctrlVars, restartsLeft>>

\* The controller handles b's dir events: it asks the broker which replicas
\* are impaired (offline, or saturated under the KIP), elects new leaders for
\* the partitions led from them and shrinks their ISRs.  (BugKeepSaturatedLeader:
\* only offline replicas count as impaired.  BugImpairWholeBroker: the event is
\* handled like a broker failure, every replica of the broker counts as
\* impaired, also those on its dirs that still have room.)
HandleDirEvent(b) ==
    /\ pending[b] # {}
    /\ LET imp == impaired[b] \cup (IF BugImpairWholeBroker THEN DirsOfBroker(b) ELSE pending[b])
           healthy(c, p) == IF c = b THEN HealthyWith(b, p, imp) ELSE HealthyInCtrl(c, p)
           gone(p) == topic[p] = "live" /\ ~healthy(b, p)
           others(p) == {c \in isr[p] \ {b} : healthy(c, p)}
       IN /\ impaired' = [impaired EXCEPT ![b] = imp]
          /\ leader' = [p \in Partitions |->
                          IF gone(p) /\ leader[p] = b
                          THEN IF others(p) = {} THEN NONE ELSE CHOOSE c \in others(p) : TRUE
                          ELSE leader[p]]
          /\ isr' = [p \in Partitions |->
                       IF gone(p) /\ isr[p] # {b} THEN isr[p] \ {b} ELSE isr[p]]
    /\ pending' = [pending EXCEPT ![b] = {}]
    /\ UNCHANGED <<alive, status, reserved, logs, topic, histVars>>

\* The controller elects a leader for a leaderless partition from its ISR.
ElectLeader(p, b) ==
    /\ topic[p] = "live" /\ leader[p] = NONE
    /\ b \in isr[p] /\ alive[b] /\ HealthyInCtrl(b, p)
    /\ leader' = [leader EXCEPT ![p] = b]
    /\ UNCHANGED <<brokerVars, impaired, isr, topic, histVars>>

\* Retention deletes the oldest segment of an expired log.  If only the active
\* segment is left, Kafka first rolls a new segment, which needs room: the
\* space the reserved file gave back ("Kafka rolls a new segment before
\* deleting any old ones").  "Retention will continue to be respected" on a
\* saturated dir under the KIP; today an offline dir has no retention.
CanRetain(b, p) ==
    /\ alive[b] /\ logs[b][p].on /\ logs[b][p].size > 0
    /\ Maintained(DirOf(b, p))
    /\ logs[b][p].size = 1 => Free(DirOf(b, p)) >= 1

Retain(b, p) ==
    /\ EnableRetention
    /\ CanRetain(b, p)
    /\ logs' = [logs EXCEPT ![b][p].size = @ - 1]
    /\ UNCHANGED <<alive, status, reserved, pending, ctrlVars, histVars>>

\* An administrator deletes the topic.
DeleteTopic(p) ==
    /\ EnableDeletion
    /\ topic[p] = "live"
    /\ topic' = [topic EXCEPT ![p] = "deleting"]
    /\ leader' = [leader EXCEPT ![p] = NONE]
    /\ UNCHANGED <<brokerVars, impaired, isr, histVars>>

\* StopReplica(delete) reaches the replica and its log is deleted, freeing
\* its space.  Today the controller "does not forward delete topic requests"
\* to replicas it knows are offline and such a request would fail; with the KIP
\* it sends them to all replicas and those on saturated dirs succeed.
DeleteReplica(b, p) ==
    /\ topic[p] = "deleting"
    /\ alive[b] /\ logs[b][p].on
    /\ Maintained(DirOf(b, p))
    /\ Behaviour = "today" => DirOf(b, p) \notin impaired[b]
    /\ logs' = [logs EXCEPT ![b][p] = NoLog]
    /\ UNCHANGED <<alive, status, reserved, pending, ctrlVars, histVars>>

\* A broker (halted or not) restarts.  A dir with a hardware fault stays
\* offline; the others come back, and the new registration tells the
\* controller which dirs are offline.  With the KIP the reserved file is
\* written first, and if it does not fit "Kafka will shut down" (the
\* controller then sees the broker go away, as for a halt).
Restart(b) ==
    /\ EnableRestart /\ restartsLeft > 0
    /\ LET back(d) == ~ioError[d]
           withReserved == Behaviour = "kip" /\ ~NoReservedFile
           dataOnly(d) == Used(d) - (IF reserved[d] THEN ReservedSize ELSE 0)
           ok == withReserved =>
                    \A d \in DirsOfBroker(b) : back(d) => dataOnly(d) + ReservedSize <= Capacity
           st == [d \in Dirs |-> IF d \in DirsOfBroker(b)
                                 THEN IF back(d) THEN "online" ELSE "offline"
                                 ELSE status[d]]
       IN IF ok
          THEN /\ status' = st
               /\ reserved' = [d \in Dirs |-> IF d \in DirsOfBroker(b) /\ back(d)
                                              THEN withReserved ELSE reserved[d]]
               /\ alive' = [alive EXCEPT ![b] = Usable(b, st)]
               \* dirs back online are healthy again; the offline ones are
               \* reported (all of them if the broker could not start)
               /\ impaired' = [impaired EXCEPT ![b] = {d \in @ : st[d] = "offline"}]
               /\ pending' = [pending EXCEPT ![b] =
                                IF Usable(b, st) THEN {d \in DirsOfBroker(b) : st[d] = "offline"}
                                ELSE DirsOfBroker(b)]
          ELSE /\ alive' = [alive EXCEPT ![b] = FALSE]
               /\ pending' = [pending EXCEPT ![b] = DirsOfBroker(b)]
               /\ UNCHANGED <<status, reserved, impaired>>
    /\ restartsLeft' = restartsLeft - 1
    /\ UNCHANGED <<logs, leader, isr, topic, ioError, diskFull, satAppends>>

Next ==
    \/ \E p \in Partitions : Produce(p) \/ DeleteTopic(p)
    \/ \E b \in Brokers, p \in Partitions :
          ReplicaFetch(b, p) \/ IsrExpand(p, b) \/ ElectLeader(p, b)
          \/ Retain(b, p) \/ DeleteReplica(b, p)
    \/ \E d \in Dirs : IoError(d)
    \/ \E b \in Brokers : HandleDirEvent(b) \/ Restart(b)

Spec == Init /\ [][Next]_vars

\* Weak fairness on what the system does by itself: the controller handling
\* dir events and electing leaders, StopReplica(delete) reaching replicas.
\* None on producing, retention, failures, deletion requests or restarts.
LiveSpec ==
    /\ Spec
    /\ \A b \in Brokers : WF_vars(HandleDirEvent(b))
    /\ \A b \in Brokers, p \in Partitions : WF_vars(DeleteReplica(b, p))
    /\ \A b \in Brokers, p \in Partitions : WF_vars(ElectLeader(p, b))
=============================================================================
