"""The KIP-858 model's rules that the manifest test (tests/test_manifest.py, which checks every
small configuration against TLC's figures) does not cover: every property has a variant that
violates it, variants differ from a correct configuration by one switch, both revisions are
checked on the same configurations.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from checker import manifest
from checker.api import check

ROOT = Path(__file__).resolve().parent.parent
ENTRIES = [e for e in manifest.load(ROOT / "invariants" / "manifest.json").entries
           if e.name.startswith("KIP858_")]
PROPS = (ROOT / "invariants" / "KIP858Properties.tla").read_text()
SWITCHES = ("Bug", "LiteralMultiDirRule")


def constants(entry: manifest.Entry) -> dict[str, str]:
    text = entry.config_path.read_text()
    return dict(re.findall(r"^\s+(\w+) = (.+)$", text, re.M))


def bugs_on(entry: manifest.Entry) -> set[str]:
    return {k for k, v in constants(entry).items() if k.startswith(SWITCHES) and v == "TRUE"}


def checked_properties(cfg: str) -> set[str]:
    return set(re.findall(r"^    (\w+)$", (ROOT / "invariants" / cfg).read_text(), re.M))


def test_every_property_has_a_variant_that_violates_it():
    checked = checked_properties("KIP858_a_small_assign.cfg")
    # the reassignment configurations check three properties more, the metadata.version and
    # the re-creation ones two each
    reassign = checked_properties("KIP858_a_small_reassign.cfg") - checked
    mv = checked_properties("KIP858_a_small_mv_rf2_failures.cfg") - checked
    recreate = checked_properties("KIP858_a_small_recreate_failures.cfg") - checked
    # the eligible leader replica ones four more, and they do not check IsrNeverEmpty
    elr = checked_properties("KIP858_a_small_elr_failures.cfg") - checked
    live = set(re.findall(r"^(\w+Live) ==", PROPS, re.M))
    assert len(checked) == 24 and len(live) == 18
    assert reassign == {"IsrWithinReplicas", "MovedAwayAssignmentDropped",
                        "NoReassignmentWithoutPartition"}
    assert mv == {"NoDirIdBelowJbodVersion", "ReplicasOnlineUntilReRegistered"}
    assert recreate == {"OldIncarnationNeverLoaded", "NoStaleLogsWhenQuiet"}
    assert elr == {"IsrElrDisjoint", "ElrMembersCaughtUp", "ElrNeverSilentlyDropped",
                   "ElectionFromIsrOrElr"}
    assert checked - checked_properties("KIP858_a_small_elr_failures.cfg") == {"IsrNeverEmpty"}
    violated = {e.property for e in ENTRIES if e.verdict != "ok" and e.name not in FINDINGS}
    assert (checked | reassign | mv | recreate | elr) - {"TypeOK"} <= violated
    assert live <= violated


# correct configurations on which a property fails: what the model found in the KIP text
FINDINGS = {"KIP858_finding_mv_preselected_dir": "LeaderHostsLog",
            "KIP858_finding_elr_reassign_removed_replica": "ElrWithinReplicas",
            "KIP858_finding_reassign_twice_promote": "PromoteOnlyAfterAck"}


def test_correct_configurations_switch_no_bug_on_and_variants_exactly_one():
    for e in ENTRIES:
        correct = e.verdict == "ok" or e.name in FINDINGS
        assert len(bugs_on(e)) == (0 if correct else 1), e.name


def specification(entry: manifest.Entry) -> str:
    return re.search(r"^SPECIFICATION (\w+)$", entry.config_path.read_text(), re.M).group(1)


def test_liveness_variants_are_the_correct_liveness_configuration_plus_their_bug():
    # a variant with failing requests (EnableRpcErrors) extends live_rpc, one of the upgrade
    # (EnableMetadataVersion) live_mv, one with restarts live_restart, one with re-creation
    # live_recreate, one of reassignment live_reassign, the others live, of revision b, or of
    # revision c for a bug of Kafka's code
    by_name = {e.name: e for e in ENTRIES}
    variants = [e for e in ENTRIES if e.name.startswith("KIP858_live_bug_")]
    assert len(variants) == 19
    for e in variants:
        (bug,) = bugs_on(e)
        c = constants(e)
        rev = c["Revision"].strip('"')
        ok = by_name[f"KIP858_{rev}_live" + ("_elr" if c["EnableElr"] == "TRUE"
                                             else "_rpc" if c["EnableRpcErrors"] == "TRUE"
                                             else "_mv" if c["EnableMetadataVersion"] == "TRUE"
                                             else "_restart" if c["EnableRestart"] == "TRUE"
                                             else "_recreate" if c["EnableRecreate"] == "TRUE"
                                             else "_reassign" if c["EnableReassign"] == "TRUE"
                                             else "")]
        assert constants(e) == dict(constants(ok), **{bug: "TRUE"}), e.name
        assert specification(e) == specification(ok), e.name
        assert e.liveness and e.verdict == "property" and e.property.endswith("Live")


@pytest.mark.parametrize("name, prop, length", [
    # kipcheck's lassos (TLC's, 8, 10 and 11 states, are longer: it does not look for the shortest)
    ("KIP858_live_bug_drop_failed_assignment", "AssignmentAcceptedLive", 7),
    ("KIP858_live_bug_ack_unsent", "FailedDirReplicasOfflineLive", 9),
    ("KIP858_live_bug_keep_future_on_delete", "StrayLogDeletedLive", 8),
    ("KIP858_live_bug_code_ignore_future_dir", "MetadataDirMatchesDiskLive", 14),
    ("KIP858_live_bug_wait_for_assigned_dir", "ReplicaCreatedLive", 5),
    ("KIP858_live_bug_no_elect_sole_isr_member", "LeaderElectedLive", 10),
    ("KIP858_live_bug_keep_session_on_reregister", "UnfencedLive", 3),
    ("KIP858_live_bug_leader_ignores_added_replica", "IsrExpandsLive", 15),
    ("KIP858_live_bug_complete_only_on_start", "ReassignmentEndsLive", 16),
    ("KIP858_live_bug_ignore_heartbeat_ack", "FailedDirAcknowledgedLive", 4),
    ("KIP858_live_bug_expired_broker_unfenced", "StoppedBrokerFencedLive", 3),
    ("KIP858_live_bug_no_registration_refresh", "RegistrationListsDirsLive", 4),
])
def test_new_liveness_variants_end_in_a_stuttering_lasso_of_known_length(name, prop, length):
    entry = next(e for e in ENTRIES if e.name == name)
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code, o.trace_length) == ("property", prop, 13, length)


def test_live_configurations_check_every_liveness_property():
    # `live` and `live_rpc` are where every liveness property is known to hold (but the two of
    # the metadata.version upgrade, checked by `live_mv`: they need EnableMetadataVersion, and
    # the one of eligible leader replicas, checked by `live_elr`: it needs EnableElr)
    live = [p for p in re.findall(r"^(\w+Live) ==", PROPS, re.M)
            if p not in ("MigratingDirResolvedLive", "ElrLeaderElectedLive",
                         "RegistrationListsDirsLive")]
    for e in ENTRIES:
        if re.fullmatch(r"KIP858_[abc]_live(_rpc)?", e.name):
            listed = re.findall(r"^    (\w+Live)$", e.config_path.read_text(), re.M)
            assert listed == live, e.name


def test_a_replica_the_broker_waits_to_see_placed_is_never_created():
    # the controller waits for the broker's assignment, the broker for the controller's dir:
    # the partition is created, applied (nothing done), and the broker idles for ever
    entry = next(e for e in ENTRIES if e.name == "KIP858_live_bug_wait_for_assigned_dir")
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code) == ("property", "ReplicaCreatedLive", 13)
    assert [s.name for s in o.trace] == [None, "Heartbeat", "CreatePartition", "BrokerApplyDelta",
                                         "HeartbeatResponse"]
    assert (o.loop, o.loop_step) == (4, None)  # the last state stutters for ever


def test_a_partition_whose_sole_isr_member_returns_is_never_led_again():
    # b1 leads p1, crashes and restarts: its registration fences it and p1 loses its leader; b1
    # is unfenced again, the only member of p1's ISR, and the controller refuses to elect it
    entry = next(e for e in ENTRIES if e.name == "KIP858_live_bug_no_elect_sole_isr_member")
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code) == ("property", "LeaderElectedLive", 13)
    assert [s.name for s in o.trace][5:] == ["Crash", "Restart", "BrokerApplyDelta", "Heartbeat",
                                             "HeartbeatResponse"]
    assert (o.loop, o.loop_step) == (9, None)


def test_a_broker_that_registers_again_is_never_unfenced_when_the_old_session_stays():
    # b1 starts fenced and crashes before its first heartbeat; the new incarnation's requests
    # to be unfenced are answered from the previous session: fenced for good with every dir
    # online, though nothing is queued and no replica is UNASSIGNED (there is none)
    entry = next(e for e in ENTRIES if e.name == "KIP858_live_bug_keep_session_on_reregister")
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code) == ("property", "UnfencedLive", 13)
    assert [s.name for s in o.trace] == [None, "Crash", "Restart"]
    assert (o.loop, o.loop_step) == (2, None)  # the last state stutters for ever
    # the same restart without the bug: the broker is unfenced again, the property holds
    ok = next(e for e in ENTRIES if e.name == "KIP858_b_live_restart")
    assert "    UnfencedLive\n" in ok.config_path.read_text()
    assert check(ok.spec_path, ok.config_path, lib=ok.lib_paths).verdict == "ok"


def test_a_fenced_follower_admitted_to_the_isr_is_a_member_no_election_may_pick():
    # b1 is unfenced, p1 is created on {b1, b2} while b2 is still fenced (ISR {b1}); both place
    # their logs and the controller lets the fenced b2 join the ISR
    entry = next(e for e in ENTRIES if e.name == "KIP858_bug_isr_join_fenced")
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code) == ("invariant", "IsrMembersEligible", 12)
    assert [s.action for s in o.trace][1:] == ["Heartbeat(b1)", "CreatePartition(p1)",
                                               "BrokerApplyDelta(b1, p1)",
                                               "BrokerApplyDelta(b2, p1)", "IsrExpand(p1, b2)"]


def test_a_follower_whose_dir_failed_unseen_is_added_to_the_isr_by_a_stale_leader_state():
    # b1 is unfenced, p1 is created on {b1, b2} while b2 is fenced (ISR {b1}); both place their
    # logs, b2's assignment is accepted and b2 unfenced; b2's dir d3, holding p1, fails and
    # before b2 reports it the leader proposes b2, which never fetched, as caught up
    entry = next(e for e in ENTRIES if e.name == "KIP858_bug_isr_join_without_fetch")
    assert bugs_on(entry) == {"BugIsrJoinWithoutFetch"}
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code) == ("property", "IsrJoinsCaughtUp", 13)
    assert [s.action for s in o.trace][1:] == [
        "Heartbeat(b1)", "CreatePartition(p1)", "BrokerApplyDelta(b1, p1)",
        "BrokerApplyDelta(b2, p1)", "AssignSend(b2)", "AssignResponse(b2)", "Heartbeat(b2)",
        "DirFail(b2, d3)", "IsrExpand(p1, b2)"]
    assert (o.distinct_states, o.trace_length) == (7843, 10)


def test_an_isr_emptied_of_its_last_member_is_an_invariant_violation():
    # b1's dir d1 fails and is reported (b1 unfenced with it); p1 is created on b1 alone;
    # d2, b1's last dir, fails: b1 halts; its session expires and the controller, fencing b1,
    # writes an empty ISR instead of keeping b1 as its last member
    entry = next(e for e in ENTRIES if e.name == "KIP858_bug_write_empty_isr")
    assert bugs_on(entry) == {"BugWriteEmptyIsr"}
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code) == ("invariant", "IsrNeverEmpty", 12)
    assert [s.action for s in o.trace][1:] == [
        "DirFail(b1, d1)", "Heartbeat(b1)", "CreatePartition(p1)", "DirFail(b1, d2)",
        "SessionExpire(b1)"]
    assert (o.distinct_states, o.trace_length) == (320, 6)
    # the partition is still there, offline, with no member left to elect
    assert ('p1 :> [state |-> "live", replicas |-> {b1}, dir |-> (b1 :> UNASSIGNED @@ b2 :> '
            'UNASSIGNED), leader |-> NONE, isr |-> {}') in repr(o.trace[-1].state)


def test_a_deletion_of_a_topic_never_created_is_found_by_its_property():
    # the first step deletes p1, which was never created: the controller has no record of it
    # and should answer UNKNOWN_TOPIC_OR_PARTITION; the name can then never be created
    entry = next(e for e in ENTRIES if e.name == "KIP858_bug_delete_missing_topic")
    assert bugs_on(entry) == {"BugDeleteMissingTopic"} and constants(entry)["Revision"] == '"b"'
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code) == ("invariant", "NoDeletionWithoutPartition", 12)
    assert [s.action for s in o.trace][1:] == ["DeletePartition(p1)"]
    assert (o.distinct_states, o.states_generated, o.trace_length) == (2, 2, 2)


def test_both_revisions_are_checked_on_the_same_configurations():
    by_name = {e.name: e for e in ENTRIES}
    pairs = [(e, by_name[e.name.replace("KIP858_a_", "KIP858_b_")])
             for e in ENTRIES if e.name.startswith("KIP858_a_")]
    assert len(pairs) >= 10
    for a, b in pairs:
        assert constants(a) == dict(constants(b), Revision='"a"'), a.name
        assert (a.verdict, a.size, a.liveness) == (b.verdict, b.size, b.liveness)


def test_kafkas_code_is_checked_on_every_configuration_of_revision_a():
    # revision c is rev-a changed where Kafka's code differs from the KIP text, with the two
    # proposed fixes; each of the code's two rules as it stands is a bug variant of rev-c
    by_name = {e.name: e for e in ENTRIES}
    pairs = [(by_name[e.name.replace("KIP858_a_", "KIP858_c_")], e)
             for e in ENTRIES if e.name.startswith("KIP858_a_")]
    assert len(pairs) == 53
    for c, a in pairs:
        assert constants(c) == dict(constants(a), Revision='"c"'), c.name
        assert (c.verdict, c.size, c.liveness) == (a.verdict, a.size, a.liveness)
    code = {e.name: (constants(e)["Revision"], bugs_on(e), e.property) for e in ENTRIES
            if "_code_" in e.name}
    assert code == {
        "KIP858_bug_code_ignore_future_dir": ('"c"', {"BugIgnoreFutureDir"}, "PromoteOnlyAfterAck"),
        "KIP858_bug_code_ignore_future_dir_leader": ('"c"', {"BugIgnoreFutureDir"},
                                                     "LeaderHostsLog"),
        "KIP858_live_bug_code_ignore_future_dir": ('"c"', {"BugIgnoreFutureDir"},
                                                   "MetadataDirMatchesDiskLive"),
        "KIP858_bug_code_preselect_degraded": ('"c"', {"BugPreselectOnDegradedBroker"},
                                               "LeaderHostsLog"),
        "KIP858_bug_code_recreate_unassigned": ('"c"', {"BugRecreateUnassigned"},
                                                "NoReplicaRecreatedElsewhere"),
        "KIP858_bug_code_shutdown_without_leadership": (
            '"c"', {"BugShutdownWithoutLeadership"}, "ShutdownOnlyAsTheKipSays")}


def test_an_unassigned_replica_on_a_failed_dir_is_recreated_by_kafkas_code():
    # p1 is placed in d1, its assignment still queued when d1 fails and log.dir.failure.timeout
    # halts b1; b1 restarts without d1 and, the partition being new to the process, creates p1
    # again in d2: two logs of p1 (the controller never knew d1)
    entry = next(e for e in ENTRIES if e.name == "KIP858_bug_code_recreate_unassigned")
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code) == ("invariant", "NoReplicaRecreatedElsewhere", 12)
    assert [s.name for s in o.trace][4:] == ["DirFail", "DirFailureTimeout", "Restart",
                                             "BrokerApplyDelta"]


def test_reporting_such_a_replica_offline_lets_the_controller_learn_it():
    # the proposed fix is rev-c with ReportOfflineUnassigned: the configurations that check it
    # are rev-c ones plus the switch, and the liveness one adds the property that fails without
    by_name = {e.name: e for e in ENTRIES}
    for fix, base in (("KIP858_fix_report_offline_unassigned", "KIP858_c_small_restart"),
                      ("KIP858_fix_report_offline_unassigned_live", "KIP858_c_live_restart")):
        assert constants(by_name[fix]) == dict(constants(by_name[base]),
                                               ReportOfflineUnassigned="TRUE")
        assert by_name[fix].verdict == "ok"
    live = by_name["KIP858_fix_report_offline_unassigned_live"].config_path.read_text()
    assert "    FailedDirReplicasOfflineLive\n" in live
    assert "    FailedDirReplicasOfflineLive\n" not in by_name["KIP858_c_live_restart"] \
        .config_path.read_text()


def test_small_correct_configurations_run_without_symmetry():
    # kipcheck's SYMMETRY costs ~48 permutations per state; PinLayout gives the dir-id
    # reduction by construction, so the small configurations stay at a few seconds.
    for e in ENTRIES:
        if e.verdict == "ok":
            text = e.config_path.read_text()
            assert "\nSYMMETRY" not in text and "PinLayout = TRUE" in text, e.name


REASSIGN_SWITCHES = ("EnableReassign", "BugRetryMovedReplica", "BugKeepRemovedInIsr",
                     "BugNoStrayCheckOnStartup", "BugReassignMissingPartition",
                     "BugLeaderIgnoresAddedReplica", "BugCompleteOnlyOnStart")
# liveness variants of reassignment (`live_reassign` plus the bug)
REASSIGN_LIVE_VARIANTS = {"KIP858_live_bug_leader_ignores_added_replica",
                          "KIP858_live_bug_complete_only_on_start"}


def test_reassignment_is_off_in_every_configuration_that_does_not_name_it():
    # the configurations older than the reassignment keep their figures: the switch is off
    for e in ENTRIES:
        c = constants(e)
        on = {k for k in REASSIGN_SWITCHES if c[k] == "TRUE"}
        if "reassign" in e.name or e.name in set(REASSIGN_VARIANTS) | REASSIGN_LIVE_VARIANTS:
            assert "EnableReassign" in on and int(c["MaxReassigns"]) >= 1, e.name
        else:
            assert on == set() and c["MaxReassigns"] == "0", e.name


REASSIGN_VARIANTS = {
    # name: (bug switch, violated property, TLC's trace length)
    "KIP858_bug_keep_removed_in_isr": ("BugKeepRemovedInIsr", "IsrWithinReplicas", 8),
    "KIP858_bug_retry_moved_replica": ("BugRetryMovedReplica", "MovedAwayAssignmentDropped", 7),
    "KIP858_bug_no_stray_check_on_startup": ("BugNoStrayCheckOnStartup", "NoStrayLogsWhenQuiet", 8),
    # the first step: a reassignment of p1, which is not created yet
    "KIP858_bug_reassign_missing_partition": ("BugReassignMissingPartition",
                                              "NoReassignmentWithoutPartition", 2),
}


@pytest.mark.parametrize("name", sorted(REASSIGN_VARIANTS))
def test_each_reassignment_bug_is_found_by_its_property(name):
    bug, prop, length = REASSIGN_VARIANTS[name]
    entry = next(e for e in ENTRIES if e.name == name)
    assert bugs_on(entry) == {bug} and constants(entry)["Revision"] == '"b"'
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code, o.trace_length) == ("invariant", prop, 12, length)



MV_SWITCHES = ("EnableMetadataVersion", "BugAssignBelowJbodVersion", "BugEmptyDirListOffline",
               "BugKeepMigratingDir", "BugMultiDirBelowJbodVersion")

MV_VARIANTS = {
    # name: (bug switch, violated property, TLC's trace length)
    "KIP858_bug_assign_below_jbod_version": ("BugAssignBelowJbodVersion",
                                             "NoDirIdBelowJbodVersion", 5),
    "KIP858_bug_empty_dir_list_offline": ("BugEmptyDirListOffline",
                                          "ReplicasOnlineUntilReRegistered", 6),
    "KIP858_bug_multi_dir_below_jbod_version": ("BugMultiDirBelowJbodVersion",
                                                "MetadataDirMatchesDisk", 7),
}


def test_metadata_version_is_off_in_every_configuration_that_does_not_name_it():
    # the configurations older than the upgrade keep their figures: the cluster starts at the
    # JBOD-capable version and none of the upgrade's actions is enabled
    for e in ENTRIES:
        on = {k for k in MV_SWITCHES if constants(e)[k] == "TRUE"}
        if ("_mv" in e.name or e.name in MV_VARIANTS
                or e.name in ("KIP858_live_bug_keep_migrating_dir",
                              "KIP858_live_bug_no_registration_refresh")):
            assert "EnableMetadataVersion" in on and constants(e)["DirCounts"] == "{1}", e.name
        else:
            assert on == set(), e.name


@pytest.mark.parametrize("name", sorted(MV_VARIANTS))
def test_each_metadata_version_bug_is_found_by_its_property(name):
    bug, prop, length = MV_VARIANTS[name]
    entry = next(e for e in ENTRIES if e.name == name)
    assert bugs_on(entry) == {bug}
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code, o.trace_length) == ("invariant", prop, 12, length)


def test_a_registration_without_dirs_takes_the_assigned_replica_offline_after_the_upgrade():
    # KAFKA-16162: p1 is created below the version (MIGRATING_DIR); after the upgrade b1, whose
    # registration still lists no dir, reports p1's dir and the controller finds it offline
    entry = next(e for e in ENTRIES if e.name == "KIP858_bug_empty_dir_list_offline")
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert [s.action for s in o.trace][1:] == ["Heartbeat(b1)", "CreatePartition(p1)",
                                               "UpgradeMetadataVersion",
                                               "BrokerApplyDelta(b1, p1)", "AssignSend(b1)"]


def test_a_preselected_replica_is_led_without_its_log_once_its_broker_has_two_dirs():
    # rev-a: p1's dir is pre-selected on the single-dir b1, which stops before creating it, gets a
    # second log dir, restarts, loses that dir, is unfenced and elected: the KIP's isNew rule
    # keeps it from creating p1 (a finding: the same correct configuration holds under rev-b)
    entry = next(e for e in ENTRIES if e.name == "KIP858_finding_mv_preselected_dir")
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code, o.trace_length) == (
        "invariant", "LeaderHostsLog", 12, 13)
    assert [s.name for s in o.trace][3:9] == ["RefreshRegistration", "CreatePartition", "DirFail",
                                              "AddLogDir", "Restart", "DirFail"]
    by_name = {e.name: e for e in ENTRIES}
    assert constants(entry) == dict(constants(by_name["KIP858_b_small_mv_upgrade"]),
                                    Revision='"a"')


def test_a_broker_that_keeps_migrating_dirs_never_reports_them():
    entry = next(e for e in ENTRIES if e.name == "KIP858_live_bug_keep_migrating_dir")
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code) == ("property", "MigratingDirResolvedLive", 13)
    assert [s.name for s in o.trace][5:9] == ["UpgradeMetadataVersion", "AddLogDir", "Restart",
                                              "BrokerApplyDelta"]


RECREATE_SWITCHES = ("EnableRecreate", "BugOfflinePartitionByName", "BugLoadLogByName",
                     "BugStrayCheckOnlyAtStartup")

RECREATE_VARIANTS = {
    # name: (bug switch, violated property, TLC's trace length)
    "KIP858_bug_load_log_by_name": ("BugLoadLogByName", "OldIncarnationNeverLoaded", 8),
    "KIP858_bug_stray_check_only_at_startup": ("BugStrayCheckOnlyAtStartup",
                                               "NoStaleLogsWhenQuiet", 7),
}


def test_recreation_is_off_in_every_configuration_that_does_not_name_it():
    # the configurations older than the re-creation keep their figures: no topic comes back
    for e in ENTRIES:
        c = constants(e)
        on = {k for k in RECREATE_SWITCHES if c[k] == "TRUE"}
        if (re.fullmatch(r"KIP858_[abc]_((small|medium)_recreate_\w+|live_recreate)", e.name)
                or e.name in RECREATE_VARIANTS
                or e.name == "KIP858_live_bug_offline_partition_by_name"):
            assert "EnableRecreate" in on and c["MaxRecreates"] == "1", e.name
            assert c["EnableDeletion"] == "TRUE", e.name
        else:
            assert on == set() and c["MaxRecreates"] == "0", e.name


@pytest.mark.parametrize("name", sorted(RECREATE_VARIANTS))
def test_each_recreation_bug_is_found_by_its_property(name):
    bug, prop, length = RECREATE_VARIANTS[name]
    entry = next(e for e in ENTRIES if e.name == name)
    assert bugs_on(entry) == {bug}
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code, o.trace_length) == ("invariant", prop, 12, length)


def test_a_broker_down_through_a_recreation_loads_the_old_log_when_matching_by_name():
    # b1 places p1 in d1; p1 is deleted and created again (new topic id) before b1 applies the
    # deletion; b1 crashes and restarts, and its startup takes d1's log, whose topic id is the
    # old one, for the new incarnation's: b1 is its leader
    entry = next(e for e in ENTRIES if e.name == "KIP858_bug_load_log_by_name")
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert [s.name for s in o.trace][3:] == ["BrokerApplyDelta", "DeletePartition",
                                             "RecreatePartition", "Crash", "Restart"]
    assert (o.distinct_states, o.states_generated) == (653, 1289)  # TLC's figures


def test_the_old_log_of_a_lagging_broker_stays_when_strays_are_checked_only_at_startup():
    # b1 places p1 in d1 and applies the deletion and the re-creation in one delta: the fix
    # deletes the old log first (by topic id); the variant keeps it on the online d1
    entry = next(e for e in ENTRIES if e.name == "KIP858_bug_stray_check_only_at_startup")
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert [s.action for s in o.trace][3:] == ["BrokerApplyDelta(b1, p1)", "DeletePartition(p1)",
                                               "RecreatePartition(p1)",
                                               "BrokerApplyDelta(b1, p1)"]
    ok = next(e for e in ENTRIES if e.name == "KIP858_b_small_recreate_failures")
    assert constants(entry) == dict(constants(ok), BugStrayCheckOnlyAtStartup="TRUE")


def test_a_recreated_topic_is_never_hosted_where_the_old_one_went_offline_by_name():
    # KAFKA-16157: p1's log is in d1; p1 is deleted and created again, d1 fails before b1
    # applies the change, and b1, finding a partition of that name offline, never creates the
    # new incarnation's replica in d2
    entry = next(e for e in ENTRIES if e.name == "KIP858_live_bug_offline_partition_by_name")
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code) == ("property", "NewReplicaCreatedLive", 13)
    assert [s.name for s in o.trace][4:8] == ["DeletePartition", "RecreatePartition", "DirFail",
                                              "BrokerApplyDelta"]
    # kipcheck's lasso: 11 states, the last stuttering for ever (TLC's has 11 too)
    assert (o.trace_length, o.loop, o.loop_step) == (11, 10, None)



ELR_SWITCHES = ("EnableElr", "BugElrDroppedOnAssign", "BugElrKeptOnUncleanShutdown",
                "BugElectLastKnownLeaderEarly", "BugElrKeptOnIsrRejoin", "BugElrElectOfflineDir",
                "BugElectIgnoresElr")

ELR_VARIANTS = {
    # name: (bug switch, violated property, verdict, the correct configuration it extends,
    #        TLC's trace length)
    "KIP858_bug_elr_dropped_on_assign": ("BugElrDroppedOnAssign", "ElrNeverSilentlyDropped",
                                         "property", "KIP858_a_small_elr_failures", 9),
    "KIP858_bug_elr_kept_on_unclean_shutdown": ("BugElrKeptOnUncleanShutdown",
                                                "ElrMembersCaughtUp", "property",
                                                "KIP858_a_small_elr_restart", 5),
    "KIP858_bug_elect_last_known_leader_early": ("BugElectLastKnownLeaderEarly",
                                                 "ElectionFromIsrOrElr", "property",
                                                 "KIP858_a_small_elr_restart", 12),
    "KIP858_bug_elr_kept_on_isr_rejoin": ("BugElrKeptOnIsrRejoin", "IsrElrDisjoint", "invariant",
                                          "KIP858_a_small_elr_pause", 12),
    "KIP858_bug_elr_elect_offline_dir": ("BugElrElectOfflineDir", "NoLeaderOnOfflineDir",
                                         "invariant", "KIP858_a_small_elr_failures", 9),
}


def test_eligible_leader_replicas_are_off_in_every_configuration_that_does_not_name_them():
    # the configurations older than ELR keep their figures: no ELR, no running broker's session
    # expires, min.insync.replicas is 1; the ELR ones have min.insync.replicas 2 (with RF 2)
    for e in ENTRIES:
        c = constants(e)
        on = {k for k in ELR_SWITCHES if c[k] == "TRUE"}
        if "elr" in e.name or e.name in ELR_VARIANTS:
            assert "EnableElr" in on and c["MinIsr"] == "2" == c["ReplicationFactor"], e.name
        else:
            assert on == set() and (c["MinIsr"], c["MaxPauses"]) == ("1", "0"), e.name


def test_the_constants_of_eligible_leader_replicas_follow_the_last_older_constant():
    # one block, in the same place in every configuration (merges stay line-local)
    block = ["EnableElr", "MinIsr", "MaxPauses", "BugElrDroppedOnAssign",
             "BugElrKeptOnUncleanShutdown", "BugElectLastKnownLeaderEarly",
             "BugElrKeptOnIsrRejoin", "BugElrElectOfflineDir", "BugElectIgnoresElr"]
    for e in ENTRIES:
        names = list(constants(e))
        i = names.index("EnableElr")
        assert names[i:i + len(block)] == block, e.name
        assert names[i + len(block):] == [
            "BugDeleteMissingTopic", "BugRetryReplacesNewer", "BugPersistAssignments",
            "BugIgnoreHeartbeatAck", "BugExpiredBrokerUnfenced", "BugNoRegistrationRefresh",
            "BugShutdownWithoutLeadership", "BugIgnoreLeaderChange",
            "BugReelectCurrentLeader"], e.name


@pytest.mark.parametrize("name", sorted(ELR_VARIANTS))
def test_each_eligible_leader_replica_bug_is_found_by_its_property(name):
    bug, prop, verdict, base, length = ELR_VARIANTS[name]
    entry = next(e for e in ENTRIES if e.name == name)
    by_name = {e.name: e for e in ENTRIES}
    assert constants(entry) == dict(constants(by_name[base]), **{bug: "TRUE"})
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code, o.trace_length) == (
        verdict, prop, 12 if verdict == "invariant" else 13, length)


def test_a_broker_back_from_an_unclean_shutdown_stays_an_elr_member_with_the_bug():
    # p1 is created on {b1, b2} while b2 is fenced (ISR {b1}); b1 crashes and registers again:
    # its new incarnation leaves the ISR (now empty) and, with the bug, enters the ELR
    entry = next(e for e in ENTRIES if e.name == "KIP858_bug_elr_kept_on_unclean_shutdown")
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert [s.action for s in o.trace][1:] == ["Heartbeat(b1)", "CreatePartition(p1)",
                                               "Crash(b1)", "Restart(b1)"]
    assert "isr |-> {}, lepoch |-> 1, adding |-> {}, removing |-> {}, elr |-> {b1}" in repr(
        o.trace[-1].state)


def test_the_last_known_leader_is_elected_over_an_elr_member_with_the_bug():
    # b1 (fenced, crashed) leaves the ISR for the ELR; b2, the leader, crashes and registers
    # again: the ISR empties, b2 is the last known leader; unfenced, it is elected although b1,
    # which holds every committed record, is in the ELR
    entry = next(e for e in ENTRIES if e.name == "KIP858_bug_elect_last_known_leader_early")
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert [s.name for s in o.trace][6:] == ["SessionExpire", "AssignSend", "Crash", "Restart",
                                             "Heartbeat", "ElectLeader"]
    assert o.trace[-1].action == "ElectLeader(p1, b2)"


def test_a_partition_whose_isr_emptied_into_the_elr_stays_offline_when_the_election_ignores_it():
    entry = next(e for e in ENTRIES if e.name == "KIP858_live_bug_elect_ignores_elr")
    assert bugs_on(entry) == {"BugElectIgnoresElr"}
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code) == ("property", "ElrLeaderElectedLive", 13)
    assert "SessionPause" in [s.name for s in o.trace]
    # the same configuration without the bug: the ELR member is elected
    ok = next(e for e in ENTRIES if e.name == "KIP858_a_live_elr")
    assert constants(entry) == dict(constants(ok), BugElectIgnoresElr="TRUE")


def test_a_reassignment_below_min_isr_leaves_the_removed_replica_in_the_elr():
    # a finding of Kafka's code (KIP-966 says nothing of reassignments): removing one of two
    # replicas leaves an ISR of one, below min.insync.replicas 2 as worked out from the record
    # before the change, and the replica removed goes into the ELR
    entry = next(e for e in ENTRIES if e.name == "KIP858_finding_elr_reassign_removed_replica")
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code, o.trace_length) == (
        "invariant", "ElrWithinReplicas", 12, 5)
    assert [s.name for s in o.trace][-2:] == ["CreatePartition", "ReassignStart"]
    by_name = {e.name: e for e in ENTRIES}
    assert constants(entry) == constants(by_name["KIP858_a_small_elr_reassign"])


def test_a_failed_assignment_put_back_over_a_newer_one_leaves_the_metadata_on_a_failed_dir():
    # b1 moves p1 from d1 to d2; the request carrying p1->d2 fails as a whole while d2 fails and
    # the broker queues the revert p1->d1; the failed p1->d2 is put back over the revert (`put`
    # where AssignmentsManager has `putIfAbsent`), sent and accepted: the quiet broker's metadata
    # names d2 while p1's only log is in d1. The correct manager keeps the newer assignment.
    entry = next(e for e in ENTRIES if e.name == "KIP858_bug_retry_replaces_newer")
    assert bugs_on(entry) == {"BugRetryReplacesNewer"}
    base = next(e for e in ENTRIES if e.name == "KIP858_a_small_moves_rpc_restart")
    assert constants(entry) == dict(constants(base), BugRetryReplacesNewer="TRUE")
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code) == ("invariant", "MetadataDirMatchesDisk", 12)
    assert [s.name for s in o.trace][4:] == ["MoveStart", "MoveCaughtUp", "AssignSend", "DirFail",
                                             "AssignResponse", "AssignSend", "BrokerApplyDelta",
                                             "AssignResponse"]
    assert (o.distinct_states, o.states_generated) == (2017, 5860)  # TLC's figures


def _variant(name: str, base: str, bug: str) -> manifest.Entry:
    entry = next(e for e in ENTRIES if e.name == name)
    ok = next(e for e in ENTRIES if e.name == base)
    assert bugs_on(entry) == {bug} and constants(entry) == dict(constants(ok), **{bug: "TRUE"})
    return entry


def test_assignments_kept_across_a_restart_break_the_broker_memory_properties(tmp_path):
    # b1 queues the assignment of its new replica p1 and crashes: the stopped broker still holds
    # the queue, and its next incarnation registers with it (TLC's figures)
    entry = _variant("KIP858_bug_persist_assignments", "KIP858_b_small_moves_restart",
                     "BugPersistAssignments")
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code) == ("invariant", "StoppedBrokerForgets", 12)
    assert [s.action for s in o.trace][1:] == ["Heartbeat(b1)", "CreatePartition(p1)",
                                               "BrokerApplyDelta(b1, p1)", "Crash(b1)"]
    assert (o.distinct_states, o.states_generated) == (65, 97)
    restart = _variant("KIP858_bug_persist_assignments_restart", "KIP858_b_small_moves_restart",
                       "BugPersistAssignments")
    o = check(restart.spec_path, restart.config_path, lib=restart.lib_paths)
    assert (o.verdict, o.property, o.exit_code) == ("property", "RestartForgets", 13)
    assert o.trace[-1].action == "Restart(b1)" and (o.distinct_states, o.trace_length) == (129, 6)
    # the harm without the two properties: the move's assignment p1->d2, queued before the
    # crash, is sent by the new incarnation, which restarted without the move; d2 fails and
    # the quiet broker's metadata names d2 while p1's log is in d1 (TLC: 2,037 distinct states)
    text = entry.config_path.read_text()
    cfg = tmp_path / "harm.cfg"
    cfg.write_text(text.replace("    StoppedBrokerForgets\n", "").replace(
        "    RestartForgets\n", ""))
    o = check(entry.spec_path, cfg, lib=entry.lib_paths)
    assert (o.verdict, o.property) == ("invariant", "MetadataDirMatchesDisk")
    assert [s.name for s in o.trace][4:] == ["MoveStart", "MoveCaughtUp", "Crash", "Restart",
                                             "AssignSend", "AssignResponse", "DirFail",
                                             "BrokerApplyDelta"]
    assert (o.distinct_states, o.states_generated, o.trace_length) == (2037, 5230, 12)


def test_the_code_shuts_a_broker_down_that_leads_nothing_from_its_failed_dir():
    # Kafka's OfflineDirBrokerFailureEvent checks only that the dir is unacknowledged: b1's d1
    # fails (p1 is not even created) and the timeout shuts b1 down; the KIP asks for leadership
    entry = _variant("KIP858_bug_code_shutdown_without_leadership", "KIP858_c_small_failures",
                     "BugShutdownWithoutLeadership")
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code) == ("property", "ShutdownOnlyAsTheKipSays", 13)
    assert [s.action for s in o.trace][1:] == ["DirFail(b1, d1)", "DirFailureTimeout(b1)"]
    assert (o.distinct_states, o.states_generated) == (12, 13)


def test_a_broker_that_ignores_a_new_leader_alone_breaks_metadata_propagation():
    # b1 leads p1 (RF 2, b2 in the ISR); b1's d1 fails, log.dir.failure.timeout shuts b1 down and
    # its session expires: the controller elects b2, changing p1's leader and ISR only; b2, which
    # acts on a record only when its replicas or dirs changed, never learns it leads (TLC's
    # figures)
    entry = _variant("KIP858_bug_ignore_leader_change", "KIP858_a_small_rf2_failures",
                     "BugIgnoreLeaderChange")
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code) == ("property", "RecordsReachRunningBrokers", 13)
    assert [s.name for s in o.trace][5:] == ["DirFail", "DirFailureTimeout", "SessionExpire"]
    assert (o.distinct_states, o.states_generated, o.trace_length) == (2049, 6156, 8)


def test_an_election_that_writes_the_current_leader_again_bumps_its_epoch():
    # b1 is unfenced and leads p1 (b2, fenced, is out of the ISR); an election finds b1 again and,
    # with the bug, writes it: a new leader epoch for the same leader (TLC's figures)
    entry = _variant("KIP858_bug_reelect_current_leader", "KIP858_a_small_rf2_failures",
                     "BugReelectCurrentLeader")
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code) == ("property", "LeaderEpochFollowsLeader", 13)
    assert [s.action for s in o.trace][1:] == ["Heartbeat(b1)", "CreatePartition(p1)",
                                               "ReelectLeader(p1)"]
    assert (o.distinct_states, o.states_generated, o.trace_length) == (45, 98, 4)


def test_an_expired_session_that_does_not_fence_the_broker_drops_an_acceptable_leader():
    # the safety form of live_bug_expired_broker_unfenced: b1 leads p1 and crashes; its session
    # expires and the controller moves leadership off it without fencing it, so the partition
    # loses a leader the controller still takes as acceptable (TLC's figures)
    entry = _variant("KIP858_bug_expired_broker_unfenced", "KIP858_a_small_restart",
                     "BugExpiredBrokerUnfenced")
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code) == (
        "property", "LeaderLostOnlyWhenUnacceptable", 13)
    assert [s.action for s in o.trace][1:] == ["Heartbeat(b1)", "CreatePartition(p1)",
                                               "Crash(b1)", "SessionExpire(b1)"]
    assert (o.distinct_states, o.states_generated, o.trace_length) == (99, 162, 5)


def test_a_response_for_a_replica_removed_and_added_again_lets_its_future_log_be_promoted():
    # a finding of the model with two reassignments (no bug): b2, added to p1, moves it from d3
    # to d4 and its assignment p1->d4 is accepted; the reassignment is cancelled (b2's dir back
    # to UNASSIGNED) and started again before b2 applies either record; the old response then
    # acknowledges the move and b2 promotes d4 while the controller's dir is UNASSIGNED
    entry = next(e for e in ENTRIES if e.name == "KIP858_finding_reassign_twice_promote")
    base = next(e for e in ENTRIES if e.name == "KIP858_a_small_reassign_moves")
    assert bugs_on(entry) == set()
    assert constants(entry) == dict(constants(base), MaxReassigns="2")
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code) == ("property", "PromoteOnlyAfterAck", 13)
    assert [s.name for s in o.trace][3:] == [
        "ReassignStart", "BrokerApplyDelta", "MoveStart", "MoveCaughtUp", "AssignSend",
        "ReassignCancel", "ReassignStart", "AssignResponse", "MovePromote"]
    assert (o.distinct_states, o.states_generated, o.trace_length) == (18594, 68946, 12)
