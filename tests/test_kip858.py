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
    # the reassignment configurations check two properties more
    reassign = checked_properties("KIP858_a_small_reassign.cfg") - checked
    live = set(re.findall(r"^(\w+Live) ==", PROPS, re.M))
    assert len(checked) == 14 and len(live) == 7
    assert reassign == {"IsrWithinReplicas", "MovedAwayAssignmentDropped"}
    violated = {e.property for e in ENTRIES if e.verdict != "ok"}
    assert (checked | reassign) - {"TypeOK"} <= violated
    assert live <= violated


def test_correct_configurations_switch_no_bug_on_and_variants_exactly_one():
    for e in ENTRIES:
        assert len(bugs_on(e)) == (0 if e.verdict == "ok" else 1), e.name


def specification(entry: manifest.Entry) -> str:
    return re.search(r"^SPECIFICATION (\w+)$", entry.config_path.read_text(), re.M).group(1)


def test_liveness_variants_are_the_correct_liveness_configuration_plus_their_bug():
    # a variant with failing requests (EnableRpcErrors) extends live_rpc, the others live, of
    # revision b, or of revision c for a bug of Kafka's code
    by_name = {e.name: e for e in ENTRIES}
    variants = [e for e in ENTRIES if e.name.startswith("KIP858_live_bug_")]
    assert len(variants) == 8
    for e in variants:
        (bug,) = bugs_on(e)
        rev = constants(e)["Revision"].strip('"')
        ok = by_name[f"KIP858_{rev}_live" + ("_rpc" if constants(e)["EnableRpcErrors"] == "TRUE"
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
])
def test_new_liveness_variants_end_in_a_stuttering_lasso_of_known_length(name, prop, length):
    entry = next(e for e in ENTRIES if e.name == name)
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code, o.trace_length) == ("property", prop, 13, length)


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
    assert len(pairs) == 32
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
                                               "LeaderHostsLog")}


def test_small_correct_configurations_run_without_symmetry():
    # kipcheck's SYMMETRY costs ~48 permutations per state; PinLayout gives the dir-id
    # reduction by construction, so the small configurations stay at a few seconds.
    for e in ENTRIES:
        if e.verdict == "ok":
            text = e.config_path.read_text()
            assert "\nSYMMETRY" not in text and "PinLayout = TRUE" in text, e.name


REASSIGN_SWITCHES = ("EnableReassign", "BugRetryMovedReplica", "BugKeepRemovedInIsr",
                     "BugNoStrayCheckOnStartup")


def test_reassignment_is_off_in_every_configuration_that_does_not_name_it():
    # the configurations older than the reassignment keep their figures: the switch is off
    for e in ENTRIES:
        c = constants(e)
        on = {k for k in REASSIGN_SWITCHES if c[k] == "TRUE"}
        if "reassign" in e.name or e.name in REASSIGN_VARIANTS:
            assert "EnableReassign" in on and int(c["MaxReassigns"]) >= 1, e.name
        else:
            assert on == set() and c["MaxReassigns"] == "0", e.name


REASSIGN_VARIANTS = {
    # name: (bug switch, violated property, TLC's trace length)
    "KIP858_bug_keep_removed_in_isr": ("BugKeepRemovedInIsr", "IsrWithinReplicas", 8),
    "KIP858_bug_retry_moved_replica": ("BugRetryMovedReplica", "MovedAwayAssignmentDropped", 7),
    "KIP858_bug_no_stray_check_on_startup": ("BugNoStrayCheckOnStartup", "NoStrayLogsWhenQuiet", 8),
}


@pytest.mark.parametrize("name", sorted(REASSIGN_VARIANTS))
def test_each_reassignment_bug_is_found_by_its_property(name):
    bug, prop, length = REASSIGN_VARIANTS[name]
    entry = next(e for e in ENTRIES if e.name == name)
    assert bugs_on(entry) == {bug} and constants(entry)["Revision"] == '"b"'
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code, o.trace_length) == ("invariant", prop, 12, length)

