"""`kipcheck mutate`: the mutants of a small spec whose every mutant's fate is known."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from checker import mutate as M
from checker import verdicts as V
from checker.cli import main
from checker.frontend import load_spec
from checker.manifest import load as load_manifest

HERE = Path(__file__).parent / "specs" / "mutate"
SPEC, CFG = str(HERE / "Counter.tla"), str(HERE / "Counter.cfg")

# (id, fate, killing property, counterexample length) of every mutant of Counter.tla.
EXPECTED = [
    ("Inc:drop@1:11", "killed", "Bounded", 4),
    ("Inc:negate@1:11", "killed", "Bounded", 4),
    ("Inc:unchanged@2:11", "killed", "Sum", 2),
    ("Inc:unchanged@3:11", "killed", "Sum", 2),
    ("Toggle:drop@2:14", "equivalent", None, None),
    ("Toggle:negate@2:14", "survived", None, None),
    ("Toggle:unchanged@3:14", "survived", None, None),
    ("Push:drop@1:12", "killed", "QBound", 3),
    ("Push:negate@1:12", "killed", "QBound", 3),
    ("Push:unchanged@2:12", "survived", None, None),
    ("Pop:drop@1:11", "invalid", None, 1),
    ("Pop:negate@1:11", "invalid", None, 1),
    ("Pop:unchanged@2:11", "survived", None, None),
]


def run(*args):
    return CliRunner().invoke(main, list(args))


def fates(report) -> list[tuple]:
    return [(m["id"], m["fate"], m.get("property"), m.get("trace_length"))
            for m in report.mutants]


def counter_report(**kw):
    equivalents = M.load_equivalents(M.equivalents_file(CFG))
    return M.run(SPEC, CFG, equivalents=equivalents, **kw)


def test_every_mutant_of_the_counter_has_its_known_fate():
    report = counter_report()
    assert fates(report) == EXPECTED
    assert report.totals == {"mutants": 13, "checked": 12, "killed": 6, "survived": 4,
                             "invalid": 2, "undecided": 0, "equivalent": 1,
                             "killed_by_witness": 0}
    assert report.original == {"verdict": "ok", "distinct_states": 18, "states_generated": 47,
                               "depth": 5}
    by_id = {m["id"]: m for m in report.mutants}
    # what changed, where, and the line before and after
    drop = by_id["Inc:drop@1:11"]
    assert (drop["action"], drop["kind"], drop["line"], drop["column"]) == ("Inc", "drop", 12, 11)
    assert drop["change"] == "drop guard `x < 2`"
    assert (drop["before"], drop["after"]) == ("Inc == /\\ x < 2", "Inc == /\\ TRUE")
    negate = by_id["Toggle:negate@2:14"]
    assert negate["change"] == "`y \\in {0, 1}` -> `y \\notin {0, 1}`"
    assert negate["after"] == "          /\\ y \\notin {0, 1}"
    assert by_id["Inc:unchanged@2:11"]["change"] == "`x' = x + 1` -> `UNCHANGED x`"
    # a survivor's states next to the original's; an invalid mutant's error
    assert by_id["Toggle:negate@2:14"]["distinct_states"] == 9
    assert by_id["Pop:unchanged@2:11"]["distinct_states"] == 18
    pop = by_id["Pop:drop@1:11"]
    assert (pop["verdict"], pop["exit_code"]) == ("error", 75)
    assert pop["message"] == ("Attempted to apply Tail to the empty sequence.\n"
                              "The error occurred in action Pop.")
    assert by_id["Toggle:drop@2:14"]["reason"].startswith("y is 0 or 1")
    # a guard that mentions no variable (a configuration switch) is not mutated
    assert not any("AllowToggle" in m["change"] for m in report.mutants)


def test_the_cli_prints_the_table_writes_json_and_html_and_exits_4(tmp_path):
    r = run("mutate", SPEC, "-c", CFG, "--report-json", str(tmp_path / "m.json"),
            "--html", str(tmp_path / "m.html"))
    assert r.exit_code == V.EXIT_MUTANT_SURVIVED == 4
    assert "Traceback" not in r.output
    assert "Mutants: 13: 6 killed, 4 survived, 2 invalid, 0 undecided, 1 equivalent." in r.output
    assert "Toggle:negate@2:14     survived    9 distinct (original 18)" in r.output
    doc = json.loads((tmp_path / "m.json").read_text())
    assert (doc["format"], doc["version"], doc["exit_code"]) == ("kipcheck-mutants", 2, 4)
    assert doc["totals"]["killed"] == 6 and doc["totals"]["survived"] == 4
    assert [(m["id"], m["fate"]) for m in doc["mutants"]] == [e[:2] for e in EXPECTED]
    page = (tmp_path / "m.html").read_text()
    assert "<pre class='before'>Inc == /\\ x &lt; 2</pre>" in page
    assert "<pre class='after'>Inc == /\\ TRUE</pre>" in page
    assert "http" not in page.replace("http-equiv", "")  # self-contained


def test_a_witness_kills_the_mutants_that_only_take_behaviours_away():
    # No property needs Toggle (y is never read) nor Push's effect: the mutants that never
    # toggle or never push survive every invariant, vacuously. The witnesses Toggled (y = 1) and
    # Pushed (q # <<>>), both reached by the original at depth 2, kill them; Beyond (x = 3) is
    # reached by no state of the original, so it is not used.
    report = counter_report(witnesses=("Toggled",), listed=("Pushed", "Beyond"))
    by_witness = {"Toggle:negate@2:14": ("Toggled", 9), "Toggle:unchanged@3:14": ("Toggled", 9),
                  "Push:unchanged@2:12": ("Pushed", 6)}
    for m in report.mutants:
        if m["id"] in by_witness:
            assert (m["fate"], m["property"], m["by_witness"], m["verdict"]) == (
                "killed", by_witness[m["id"]][0], True, "witness")
            assert m["distinct_states"] == by_witness[m["id"]][1]
        else:  # every other fate as without witnesses
            assert (m["id"], m["fate"], m.get("property"), m.get("trace_length")) in EXPECTED
            assert not m.get("by_witness")
    assert report.totals == {"mutants": 13, "checked": 12, "killed": 9, "survived": 1,
                             "invalid": 2, "undecided": 0, "equivalent": 1,
                             "killed_by_witness": 3}
    assert (report.witnesses, report.unreached) == ({"Toggled": 2, "Pushed": 2}, ["Beyond"])


def test_the_witnesses_files_are_read_by_default_and_reported(tmp_path):
    for f in ("Counter.tla", "Counter.cfg", "Counter.equivalent.txt"):
        shutil.copy(HERE / f, tmp_path / f)
    spec, cfg = str(tmp_path / "Counter.tla"), str(tmp_path / "Counter.cfg")
    (tmp_path / "Counter.witnesses.txt").write_text(
        "# states Counter.tla must reach\nToggled  y becomes 1\nBeyond\n")
    assert M.default_witnesses(cfg, spec) == ["Toggled", "Beyond"]
    r = run("mutate", spec, "-c", cfg, "--report-json", str(tmp_path / "m.json"),
            "--html", str(tmp_path / "m.html"))
    assert r.exit_code == V.EXIT_MUTANT_SURVIVED, r.output
    assert "Toggle:negate@2:14     killed      witness Toggled not reached (9 distinct " \
           "states)" in r.output
    assert "Witnesses: Toggled (depth 2); not reached by the original, not used: Beyond." \
        in r.output
    assert "Mutants: 13: 8 killed (2 by a witness), 2 survived, 2 invalid, 0 undecided, " \
           "1 equivalent." in r.output
    doc = json.loads((tmp_path / "m.json").read_text())
    assert doc["totals"] == {"mutants": 13, "checked": 12, "killed": 8, "survived": 2,
                             "invalid": 2, "undecided": 0, "equivalent": 1,
                             "killed_by_witness": 2}
    assert (doc["witnesses"], doc["witnesses_not_reached_by_original"]) == (
        {"Toggled": 2}, ["Beyond"])
    assert "8 killed (2 by a witness)" in (tmp_path / "m.html").read_text()
    r = run("mutate", spec, "-c", cfg, "--no-witnesses")
    assert "Mutants: 13: 6 killed, 4 survived" in r.output


def test_a_witness_the_original_does_not_reach_stops_mutate_with_exit_5():
    r = run("mutate", SPEC, "-c", CFG, "--witness", "Beyond")
    assert r.exit_code == V.EXIT_WITNESS, r.output
    assert "the spec does not pass its own checks (witness: Beyond)" in r.output
    r = run("mutate", SPEC, "-c", CFG, "--witness", "Nope")
    assert r.exit_code == V.EXIT_CONFIG_ERROR, r.output
    assert "--witness Nope: no operator 'Nope' in module Counter" in r.output
    assert "Traceback" not in r.output


def test_no_survivor_exits_0_and_action_filters():
    r = run("mutate", SPEC, "-c", CFG, "--action", "Inc")
    assert r.exit_code == 0, r.output
    assert "Mutants: 4: 4 killed, 0 survived" in r.output
    r = run("mutate", SPEC, "-c", CFG, "--action", "Inc", "--action", "Push")
    assert r.exit_code == V.EXIT_MUTANT_SURVIVED
    assert "Mutants: 7: 6 killed, 1 survived" in r.output
    assert "Toggle" not in r.output and "Pop:" not in r.output


def test_an_action_a_switch_of_the_cfg_turns_off_is_not_mutated(tmp_path):
    r = run("mutate", SPEC, "-c", CFG, "-D", "AllowToggle=FALSE",
            "--report-json", str(tmp_path / "m.json"))
    assert "Not mutated, switched off by the .cfg: Toggle (AllowToggle = FALSE)." in r.output
    doc = json.loads((tmp_path / "m.json").read_text())
    assert doc["disabled"] == {"Toggle": "AllowToggle = FALSE"}
    assert doc["totals"]["mutants"] == 10
    assert not any(m["action"] == "Toggle" for m in doc["mutants"])


def test_an_unknown_action_is_a_usage_error():
    r = run("mutate", SPEC, "-c", CFG, "--action", "Nope")
    assert r.exit_code == V.EXIT_USAGE
    assert "--action Nope: no such action with mutants (the actions: Inc, Pop, Push, " \
           "Toggle)" in r.output
    assert "Traceback" not in r.output


def test_two_workers_give_the_same_report():
    assert counter_report(workers=2).document() == counter_report().document()
    assert counter_report(workers=2, witnesses=("Toggled",)).document() == \
        counter_report(witnesses=("Toggled",)).document()


def test_ids_do_not_move_when_other_parts_of_the_file_change(tmp_path):
    text = Path(SPEC).read_text().replace("vars ==", "\\* a comment\n\n\nvars ==")
    (tmp_path / "Counter.tla").write_text(text)
    shutil.copy(CFG, tmp_path / "Counter.cfg")
    moved = M.run(str(tmp_path / "Counter.tla"), str(tmp_path / "Counter.cfg"))
    assert [m["id"] for m in moved.mutants] == [e[0] for e in EXPECTED]
    assert moved.mutants[0]["line"] == 15


def test_a_search_past_max_states_is_undecided():
    report = M.run(SPEC, str(HERE / "NoQueueBound.cfg"), actions=("Push",), max_states=50)
    assert fates(report)[0] == ("Push:drop@1:12", "undecided", None, None)
    assert report.mutants[0]["message"] == "stopped at --max-states 50"
    assert report.exit_code == V.EXIT_MUTANT_SURVIVED


def test_max_mutants_spreads_the_selection():
    report = counter_report(max_mutants=3)
    assert [m["id"] for m in report.mutants] == ["Inc:drop@1:11", "Toggle:drop@2:14",
                                                 "Push:negate@1:12"]
    assert report.totals["mutants"] == 13


def test_a_mutant_that_does_not_parse_is_invalid_not_a_traceback():
    broken = Path(SPEC).read_text().replace("x < 2", "x < <")
    result = M._check_one((SPEC, CFG, (), (), None, {SPEC: broken}, None))
    assert (result["verdict"], result["exit_code"]) == ("spec-error", 150)
    assert result["location"].endswith("Counter.tla:12:15")
    assert M._fate(result) == ("invalid", None)


def test_a_failing_original_stops_with_its_own_exit_code(tmp_path):
    (tmp_path / "Bad.cfg").write_text("SPECIFICATION Spec\nCONSTANT AllowToggle = TRUE\n"
                                      "INVARIANT Tight\n")
    text = Path(SPEC).read_text().replace("====", "Tight == x < 1\n====")
    (tmp_path / "Counter.tla").write_text(text)
    r = run("mutate", str(tmp_path / "Counter.tla"), "-c", str(tmp_path / "Bad.cfg"))
    assert r.exit_code == V.EXIT_SAFETY
    assert "the spec does not pass its own checks (invariant: Tight)" in r.output


def test_the_spec_s_equivalents_file_applies_to_every_cfg_and_the_cfg_s_reason_wins(tmp_path):
    shutil.copy(SPEC, tmp_path / "Counter.tla")
    shutil.copy(CFG, tmp_path / "Other.cfg")
    shutil.copy(CFG, tmp_path / "Third.cfg")
    spec = str(tmp_path / "Counter.tla")
    (tmp_path / "Counter.equivalent.txt").write_text(
        "# every configuration of Counter.tla\n"
        "Toggle:drop@2:14  said by the spec's file\n"
        "Pop:unchanged@2:11  a forgotten pop only grows the queue up to its bound\n")
    (tmp_path / "Third.equivalent.txt").write_text("Toggle:drop@2:14  said by the .cfg's file\n")
    assert M.spec_equivalents_file(spec) == tmp_path / "Counter.equivalent.txt"
    assert M.default_equivalents(str(tmp_path / "Other.cfg"), spec) == {
        "Toggle:drop@2:14": "said by the spec's file",
        "Pop:unchanged@2:11": "a forgotten pop only grows the queue up to its bound"}
    assert M.default_equivalents(str(tmp_path / "Third.cfg"), spec)["Toggle:drop@2:14"] == \
        "said by the .cfg's file"
    r = run("mutate", spec, "-c", str(tmp_path / "Other.cfg"), "--action", "Pop",
            "--action", "Toggle")
    assert "Mutants: 6: 0 killed, 2 survived, 2 invalid, 0 undecided, 2 equivalent." in r.output
    assert "warning" not in r.output


def test_an_equivalence_without_a_reason_is_reported_with_its_line(tmp_path):
    bad = tmp_path / "eq.txt"
    bad.write_text("# comment\nInc:drop@1:11\n")
    r = run("mutate", SPEC, "-c", CFG, "--equivalent", str(bad))
    assert r.exit_code == V.EXIT_USAGE
    assert f"{bad}:2:1: error: an equivalent mutant needs a reason" in r.output


def test_the_kip858_actions_are_found_through_extends():
    entry = load_manifest().get("KIP858_a_small_moves")
    loaded = load_spec(entry.spec_path, entry.config_path, entry.lib_paths)
    promote = [(m.id, m.change) for m in M.derive(loaded)[0]
               if m.action == "MovePromote"]
    assert [x for x in promote if ":widen@" not in x[0]][:3] == [
        ("MovePromote:drop@2:8", "drop guard `alive[b]`"),
        ("MovePromote:drop@3:8", 'drop guard `logs[b][p].phase = "acked"`'),
        ("MovePromote:negate@3:8",
         '`logs[b][p].phase = "acked"` -> `logs[b][p].phase # "acked"`')]
    # the widening "promote in phase caught too", among the others of the phase's type set
    assert [c for i, c in promote if ":widen@" in i] == [
        f'`logs[b][p].phase = "acked"` -> `logs[b][p].phase \\in {{"acked", "{o}"}}`'
        for o in ("none", "copying", "caught", "stopped")]
    assert len(promote) == 11


def test_parentheses_the_span_leaves_out_are_part_of_the_edit(tmp_path):
    # the next-state relation is found inside the operator FairSpec names
    (tmp_path / "Paren.tla").write_text(
        "---- MODULE Paren ----\nEXTENDS Naturals\nVARIABLE x\n"
        "Init == x = 0\n"
        "Step == /\\ (x) < 3\n        /\\ x' = x - (0 - 1)\n"
        "Spec == Init /\\ [][Step]_x\n"
        "FairSpec == Spec /\\ WF_x(Step)\n====\n")
    (tmp_path / "Paren.cfg").write_text("SPECIFICATION FairSpec\nCHECK_DEADLOCK FALSE\n")
    loaded = load_spec(tmp_path / "Paren.tla", tmp_path / "Paren.cfg")
    mutants = M.derive(loaded)[0]
    assert [(m.id, m.change, m.after) for m in mutants] == [
        ("Step:drop@1:12", "drop guard `(x) < 3`", "Step == /\\ TRUE"),
        ("Step:negate@1:12", "`(x) < 3` -> `(x) <= 3`", "Step == /\\ (x) <= 3"),
        ("Step:unchanged@2:12", "`x' = x - (0 - 1)` -> `UNCHANGED x`",
         "        /\\ UNCHANGED x")]
    report = M.run(str(tmp_path / "Paren.tla"), str(tmp_path / "Paren.cfg"))
    assert [m["fate"] for m in report.mutants] == ["undecided", "survived", "survived"]


# (id, fate, killing property, counterexample length) of the widening mutants of Phases.tla.
WIDENED = [
    ("Start:widen@1:13", "survived", None, None),
    ("Start:widen@1:13/2", "survived", None, None),
    ("Start:widen@2:13", "killed", "NeverOff", 2),
    ("Finish:widen@1:14", "killed", "CountsFinishes", 2),
    ("Finish:widen@1:14/2", "survived", None, None),
    ("Finish:widen@3:14", "killed", "NeverOff", 3),
    ("Finish:widen@4:14", "survived", None, None),
]


def test_widening_admits_one_more_value_of_the_type_set():
    spec, cfg = str(HERE / "Phases.tla"), str(HERE / "Phases.cfg")
    report = M.run(spec, cfg)
    assert [f for f in fates(report) if ":widen@" in f[0]] == WIDENED
    assert report.totals == {"mutants": 16, "checked": 16, "killed": 7, "survived": 9,
                             "invalid": 0, "undecided": 0, "equivalent": 0,
                             "killed_by_witness": 0}
    by_id = {m["id"]: m for m in report.mutants}
    # a guard `x = c`: the other values of the set TypeOK gives x
    assert by_id["Finish:widen@1:14"]["change"] == \
        '`phase = "busy"` -> `phase \\in {"busy", "idle"}`'
    assert by_id["Finish:widen@1:14"]["after"] == 'Finish == /\\ phase \\in {"busy", "idle"}'
    # an effect `v' = e`: the whole type set of v, when it is written out
    assert by_id["Start:widen@2:13"]["change"] == \
        '`phase\' = "busy"` -> `phase\' \\in {"idle", "busy", "off"}`'
    assert by_id["Finish:widen@4:14"]["change"] == "`k' = k + 1` -> `k' \\in 0..2`"
    # a survivor that reaches the original's states only
    assert by_id["Finish:widen@4:14"]["distinct_states"] == report.original["distinct_states"]


def test_promotion_widened_to_phase_caught_is_killed_on_kip858():
    # "promote in phase caught too" (before the controller's ack) used to survive every property
    entry = load_manifest().get("KIP858_a_small_moves")
    loaded = load_spec(entry.spec_path, entry.config_path, entry.lib_paths)
    target = "MovePromote:widen@3:8/3"
    others = {m.id: "checked elsewhere" for m in M.derive(loaded)[0]
              if m.action == "MovePromote" and m.id != target}
    report = M.run(str(entry.spec_path), str(entry.config_path),
                   tuple(str(p) for p in entry.lib_paths), actions=("MovePromote",),
                   equivalents=others)
    (m,) = [m for m in report.mutants if m["id"] == target]
    assert m["change"] == ('`logs[b][p].phase = "acked"` -> '
                           '`logs[b][p].phase \\in {"acked", "caught"}`')
    assert (m["fate"], m["property"], m["verdict"], m["trace_length"]) == (
        "killed", "PromoteOnlyAfterAck", "property", 7)
    assert report.totals["checked"] == 1


def test_every_equivalent_kip858_mutant_exists_and_has_its_reason():
    # invariants/KIP858Properties.equivalent.txt names mutants by id; an edit of the spec that
    # moves or removes one must update the file (ids are the same in every revision)
    entries = [e for e in load_manifest().entries if e.name.startswith("KIP858_a_")
               and e.size == "small" and e.verdict == "ok"]
    derived = set()
    for e in entries:
        derived |= {m.id for m in M.derive(load_spec(e.spec_path, e.config_path,
                                                     e.lib_paths))[0]}
    listed = M.load_equivalents(M.spec_equivalents_file(entries[0].spec_path))
    assert len(listed) >= 35
    assert sorted(set(listed) - derived) == []
    assert all(len(reason) > 40 for reason in listed.values())


def test_the_kip36_small_configuration_s_mutants_have_their_known_fates():
    entry = load_manifest().get("KIP36_small")
    report = M.run(str(entry.spec_path), str(entry.config_path),
                   tuple(str(p) for p in entry.lib_paths),
                   equivalents=M.default_equivalents(entry.config_path, entry.spec_path))
    assert report.totals == {"mutants": 4, "checked": 4, "killed": 3, "survived": 1,
                             "invalid": 0, "undecided": 0, "equivalent": 0,
                             "killed_by_witness": 0}
    assert [(m["id"], m["fate"], m["property"], m["trace_length"]) for m in report.mutants] == [
        # `p < MaxPartitions` tests a LET-bound name: a guard on a variable all the same
        ("AssignPartition:drop@4:11", "killed", "TypeOK", 10),
        ("AssignPartition:negate@4:11", "killed", "TypeOK", 10),
        ("AssignPartition:unchanged@5:11", "killed", "LoopMatchesCall", 5),
        ("AssignPartition:unchanged@6:11", "survived", None, None)]
    assert report.disabled == {"NewAddPartitionsCall": "FreshStartOnAdd = FALSE"}


def test_a_switch_under_a_let_turns_its_action_off():
    # ClientRead(n) == LET v == client[n] IN /\ EnableConsumer /\ ...
    entry = load_manifest().get("KIP516_live")
    mutants, disabled = M.derive(load_spec(entry.spec_path, entry.config_path, entry.lib_paths))
    assert disabled["ClientRead"] == "EnableConsumer = FALSE"
    assert not any(m.action == "ClientRead" for m in mutants)


def test_the_suite_fate_of_bench_mutants_prefers_a_property_kill_to_a_witness_kill():
    import importlib.util

    where = Path(__file__).resolve().parent.parent / "bench" / "mutants.py"
    spec = importlib.util.spec_from_file_location("bench_mutants", where)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    ok = {"verdict": "ok"}
    witness = {"verdict": "witness", "property": "SomeTopicDeleted"}
    killed = {"verdict": "invariant", "property": "TypeOK"}
    budget = {"verdict": "budget"}
    # a witness kill, then a property kill further on: killed by the property
    assert bench.suite_fate([("s1", witness), ("s2", ok), ("s3", killed)]) == (
        "killed", "TypeOK", "s3", False)
    # no property kill: killed by the first witness, even past an undecided check
    assert bench.suite_fate([("s1", ok), ("s2", witness), ("s3", budget)]) == (
        "killed", "SomeTopicDeleted", "s2", True)
    assert bench.suite_fate([("s1", ok), ("s2", budget)]) == ("undecided", None, None, False)
    assert bench.suite_fate([("s1", ok)]) == ("survived", None, None, False)


# The facts invariants/KIP858Properties.equivalent.txt states as "(pending)" and "(unfenced)",
# checked as invariants on configurations with dir failures, moves and restarts.
FACTS = r"""---- MODULE EquivalenceFacts ----
EXTENDS KIP858Properties
Pending == \A b \in Brokers :
    (alive[b] /\ ~zk[b] /\ \E p \in Partitions :
         part[p].leader = b /\ logs[b][p].cur \cap knownFailed[b] # {})
      => \/ hbPending[b] # {}
         \/ \E p \in Partitions : PendingAssign(b, p) \cap (knownFailed[b] \cup {LOST}) # {}
Unfenced == \A b \in Brokers : unfencedWith[b] = {}
====
"""


def test_the_facts_behind_the_kip858_equivalents_hold(tmp_path):
    (tmp_path / "EquivalenceFacts.tla").write_text(FACTS)
    for name, distinct in (("KIP858_a_small_failures", 6137),
                           ("KIP858_b_small_moves_restart", 3651)):
        entry = load_manifest().get(name)
        cfg = tmp_path / f"{name}.cfg"
        cfg.write_text(entry.config_path.read_text() + "\nINVARIANT Pending Unfenced\n")
        libs = [a for d in entry.lib_paths for a in ("--lib", d)]
        r = run("check", str(tmp_path / "EquivalenceFacts.tla"), "--config", str(cfg),
                "--lib", str(entry.spec_path.parent), *libs)
        assert r.exit_code == 0, r.output
        assert f" {distinct} distinct states found" in r.output
