"""Witnesses (`kipcheck check --witness W`): state predicates some reachable state must
satisfy. W is reached exactly when TLC reports the invariant `~W` violated, at the length of
TLC's counterexample; a witness not reached exits 5."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from checker import verdicts as V
from checker.api import check
from checker.cli import main
from checker.manifest import load as load_manifest

ROOT = Path(__file__).resolve().parent.parent

BODY = """EXTENDS Naturals
VARIABLE x
Init == x = 0
Next == x < 3 /\\ x' = x + 1
Small == x <= 3
Tiny == x <= 1
Two == x = 2
Five == x = 5
Half == x \\div 0 = 1
Num == x
At(n) == x = n
Step == x' = x + 1
NotTwo == ~Two
"""


def model(tmp_path, invariants="Small"):
    spec = tmp_path / "W.tla"
    spec.write_text(f"---- MODULE W ----\n{BODY}====\n")
    cfg = tmp_path / "W.cfg"
    cfg.write_text(f"INIT Init\nNEXT Next\nINVARIANT {invariants}\nCHECK_DEADLOCK FALSE\n")
    return str(spec), str(cfg)


def run(*args):
    return CliRunner().invoke(main, ["check", *args])


def test_a_reached_witness_has_the_depth_of_tlc_s_counterexample_to_its_negation(tmp_path):
    spec, cfg = model(tmp_path)
    # TLC 2.18 with INVARIANT NotTwo: "Invariant NotTwo is violated", 3 states in the trace.
    o = check(spec, cfg, witnesses=("Two",))
    assert (o.verdict, o.exit_code) == (V.OK, 0)
    assert (o.distinct_states, o.states_generated, o.depth) == (4, 4, 4)  # as without it
    (w,) = o.witnesses
    assert (w["name"], w["reached"], w["depth"]) == ("Two", True, 3)
    assert [s.state for s in w["trace"]] == [(0,), (1,), (2,)]
    r = run(spec, "-c", cfg, "--witness", "Two", "--witness-trace")
    assert r.exit_code == 0, r.output
    assert "Model checking completed. No error has been found." in r.output
    assert "Witness Two reached at depth 3.\nState 1: <Initial predicate>\n /\\ x = 0" in r.output
    assert "State 3: <Next>\n*/\\ x = 2" in r.output


def test_a_witness_not_reached_exits_5_and_the_report_says_which(tmp_path):
    spec, cfg = model(tmp_path)
    out = tmp_path / "r.json"
    r = run(spec, "-c", cfg, "--witness", "Five", "--witness", "Two",
            "--report-json", str(out), "--junit-xml", str(tmp_path / "j.xml"))
    assert r.exit_code == V.EXIT_WITNESS == 5, r.output
    assert "Traceback" not in r.output
    assert "Error: No reachable state satisfies the witness Five." in r.output
    assert "Witness Five NOT reached: no reachable state satisfies it." in r.output
    assert "Witness Two reached at depth 3." in r.output
    assert "4 states generated, 4 distinct states found" in r.output
    doc = json.loads(out.read_text())
    assert (doc["verdict"], doc["exit_code"], doc["property"]) == ("witness", 5, "Five")
    assert doc["witnesses"] == [{"name": "Five", "reached": False, "depth": None},
                                {"name": "Two", "reached": True, "depth": 3}]
    junit = (tmp_path / "j.xml").read_text()
    assert 'tests="3" failures="1" errors="0"' in junit
    assert '<testcase classname="kipcheck.W" name="witness Five" time="0">\n      <failure ' \
           'message="No reachable state satisfies the witness Five." type="witness">' in junit
    assert V.MEANINGS[5].startswith("a witness (`--witness`) was not reached")


def test_a_violation_first_keeps_its_verdict_and_leaves_the_witness_undecided(tmp_path):
    spec, cfg = model(tmp_path, "Tiny")
    r = run(spec, "-c", cfg, "--witness", "Five", "--witness", "Two")
    assert r.exit_code == V.EXIT_SAFETY, r.output
    assert "Error: Invariant Tiny is violated." in r.output
    assert "Witness Five not reached before the search stopped." in r.output
    assert "Witness Two not reached before the search stopped." in r.output


def test_bad_witness_names_are_clear_errors_without_a_traceback(tmp_path):
    spec, cfg = model(tmp_path)
    for name, message in [
            ("Tow", "error: --witness Tow: no operator 'Tow' in module W; did you mean Two?"),
            ("At", "W.tla:12:1: error: --witness At: At takes 1 parameter(s); a witness is a "
                   "state predicate without parameters"),
            ("Step", "W.tla:13:1: error: --witness Step: Step is not a state predicate")]:
        r = run(spec, "-c", cfg, "--witness", name)
        assert r.exit_code == V.EXIT_CONFIG_ERROR, (name, r.output)
        assert message in r.output, r.output
        assert "Traceback" not in r.output


def test_a_witness_that_fails_to_evaluate_or_is_not_boolean_is_an_evaluation_error(tmp_path):
    spec, cfg = model(tmp_path)
    o = check(spec, cfg, witnesses=("Half",))
    assert (o.verdict, o.exit_code, o.property) == (V.ERROR, 75, "Half")
    o = check(spec, cfg, witnesses=("Num",))
    assert (o.verdict, o.property) == (V.ERROR, "Num")
    assert o.message == "TLC expected a boolean value, but did not find one. 0"  # TLC's, for ~Num


def test_workers_check_witnesses_in_one_process_and_say_so(tmp_path):
    spec, cfg = model(tmp_path)
    r = run(spec, "-c", cfg, "--witness", "Two", "--workers", "2")
    assert r.exit_code == 0, r.output
    assert "--workers 2 ignored: witnesses (--witness) are checked by the local backend only" \
        in r.output
    assert "Witness Two reached at depth 3." in r.output
    r = run(spec, "-c", cfg, "--witness", "Two", "--checkpoint", str(tmp_path / "ck"))
    assert r.exit_code == V.EXIT_USAGE
    assert "witnesses (--witness) are tracked in memory" in r.output


def test_kip858_witnesses_reach_where_tlc_violates_their_negation():
    """TLC 2.18, -workers 1, on KIP858_a_small_moves_restart with the .cfg's properties
    replaced by `INVARIANT NotW` (NotW == ~W): MoveStarted, MoveAccepted, MoveEnded and
    ReplicaDirAssigned violated with traces of 5, 8, 9 and 5 states; SomeTopicDeleted,
    ReplacedDiskOnline and ReassignmentStarted hold (11,936 generated, 3,193 distinct)."""
    e = {x.name: x for x in load_manifest(ROOT / "invariants" / "manifest.json").entries}[
        "KIP858_a_small_moves_restart"]
    names = ("MoveStarted", "MoveAccepted", "MoveEnded", "ReplicaDirAssigned",
             "SomeTopicDeleted", "ReplacedDiskOnline", "ReassignmentStarted")
    o = check(e.spec_path, e.config_path, lib=e.lib_paths, witnesses=names)
    assert (o.verdict, o.distinct_states, o.states_generated) == (V.WITNESS, 3193, 11936)
    assert {w["name"]: w["depth"] for w in o.witnesses} == {
        "MoveStarted": 5, "MoveAccepted": 8, "MoveEnded": 9, "ReplicaDirAssigned": 5,
        "SomeTopicDeleted": None, "ReplacedDiskOnline": None, "ReassignmentStarted": None}
    assert o.property == "SomeTopicDeleted"


def test_every_listed_kip858_witness_is_an_operator_of_the_properties():
    from checker import mutate as M

    listed = M.load_witnesses(ROOT / "invariants" / "KIP858Properties.witnesses.txt")
    text = (ROOT / "invariants" / "KIP858Properties.tla").read_text()
    assert len(listed) >= 15
    for name in listed:
        assert f"\n{name} ==" in text, name
