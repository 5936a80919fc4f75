"""Liveness: every verdict here is TLC 2.18's on the same spec and .cfg (run with -workers 1).

tests/specs/Live.tla has two processes competing for one critical section under no fairness,
weak fairness per process, and strong fairness on entering: weak fairness lets a process starve
(entering is disabled each time the other one holds the section) and strong fairness does not.
The lasso shapes asserted are kipcheck's own (TLC's liveness traces are not shortest).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from checker.api import check
from checker.semantics.values import show

SPECS = Path(__file__).parent / "specs"

PROPERTIES = ["SomeoneEnters", "FreeInfinitelyOften", "EventuallyAlwaysFree", "NoStarvation",
              "Mutex", "XFlips", "Both", "EnterDisabledWhenBusy", "EventuallyBusyForever",
              "BusyOftenOrFreeForever", "FromInitSomeoneBusy", "BusyThenFreeForever"]

# TLC's verdicts: the properties TLC reports violated under each specification.
VIOLATED = {
    "NoFairness": {"SomeoneEnters", "FreeInfinitelyOften", "EventuallyAlwaysFree",
                   "NoStarvation", "Both", "EventuallyBusyForever", "FromInitSomeoneBusy",
                   "BusyThenFreeForever"},
    "WeakSpec": {"EventuallyAlwaysFree", "NoStarvation", "Both", "EventuallyBusyForever",
                 "BusyThenFreeForever"},
    "StrongSpec": {"EventuallyAlwaysFree", "EventuallyBusyForever", "BusyThenFreeForever"},
}


def live(tmp_path, spec: str, prop: str, extra: str = ""):
    cfg = tmp_path / "Live.cfg"
    cfg.write_text(f"CONSTANT Procs = {{p1, p2}}\nSPECIFICATION {spec}\nPROPERTY {prop}\n{extra}")
    return check(SPECS / "Live.tla", cfg)


@pytest.mark.parametrize("spec", sorted(VIOLATED))
@pytest.mark.parametrize("prop", PROPERTIES)
def test_verdicts_match_tlc(tmp_path, spec, prop):
    o = live(tmp_path, spec, prop)
    assert (o.distinct_states, o.states_generated) == (8, 15)  # TLC's figures
    if prop in VIOLATED[spec]:
        assert (o.verdict, o.property, o.exit_code) == ("property", prop, 13)
        assert o.loop is not None and 0 <= o.loop < len(o.trace)
    else:
        assert (o.verdict, o.exit_code) == ("ok", 0)


def test_weak_fairness_lets_a_process_starve_in_a_cycle_through_several_states(tmp_path):
    o = live(tmp_path, "WeakSpec", "NoStarvation")
    assert [s.action for s in o.trace] == [None, "Try(p1)", "Try(p2)", "Enter(p2)"]
    # p1 waits at state 2 while p2 loops try -> enter -> leave: a three-state cycle.
    assert o.loop == 1
    assert o.loop_step.action == "Leave(p2)"
    assert len(o.trace) - o.loop == 3
    pcs = [{show(k): v for k, v in zip(*s.state[0], strict=True)} for s in o.trace[1:]]
    assert [pc["p1"] for pc in pcs] == ["waiting"] * 3


def test_strong_fairness_prevents_that_starvation(tmp_path):
    assert live(tmp_path, "StrongSpec", "NoStarvation").verdict == "ok"


def test_stuttering_lasso_without_fairness(tmp_path):
    o = live(tmp_path, "NoFairness", "SomeoneEnters")
    # The initial state stutters forever: a one-state lasso closed by no action.
    assert len(o.trace) == 1 and o.loop == 0 and o.loop_step is None
    o = live(tmp_path, "NoFairness", "NoStarvation")
    assert [s.action for s in o.trace] == [None, "Try(p1)"]
    assert (o.loop, o.loop_step) == (1, None)


def test_cycle_back_to_the_initial_state(tmp_path):
    o = live(tmp_path, "NoFairness", "EventuallyAlwaysFree")
    assert [s.action for s in o.trace] == [None, "Try(p1)", "Enter(p1)"]
    assert (o.loop, o.loop_step.action) == (0, "Leave(p1)")


def test_lasso_under_strong_fairness_visits_every_process(tmp_path):
    o = live(tmp_path, "StrongSpec", "EventuallyAlwaysFree")
    assert len(o.trace) == 6 and o.loop == 0 and o.loop_step.action == "Leave(p2)"
    assert {s.name for s in o.trace[1:]} | {o.loop_step.name} == {"Try", "Enter", "Leave"}


def test_safety_parts_of_a_property_are_checked_during_exploration(tmp_path):
    # []P and [][A]_v properties are checked state by state: no lasso.
    o = live(tmp_path, "NoFairness", "Mutex")
    assert o.verdict == "ok" and o.loop is None


def test_symmetry_with_liveness_warns_as_tlc_does(tmp_path):
    (tmp_path / "Sym.tla").write_text(
        "---- MODULE Sym ----\nEXTENDS Live, TLC\nPerms == Permutations(Procs)\n====\n")
    (tmp_path / "Live.tla").write_text((SPECS / "Live.tla").read_text())
    cfg = tmp_path / "Sym.cfg"
    cfg.write_text("CONSTANT Procs = {p1, p2}\nSPECIFICATION WeakSpec\nPROPERTY NoStarvation\n"
                   "SYMMETRY Perms\n")
    o = check(tmp_path / "Sym.tla", cfg)
    assert o.verdict == "property" and o.property == "NoStarvation"
    assert any("symmetry" in w and "liveness" in w for w in o.warnings)


@pytest.mark.parametrize("spec, verdict, generated", [("Spec", "ok", 7),
                                                     ("BackSpec", "property", 8)])
def test_refinement_with_fairness_of_the_refined_spec(tmp_path, spec, verdict, generated):
    """`PROPERTY A!Spec` for `A == INSTANCE LiveAbs WITH hr <- c \\div 2`: the abstract WF
    holds on the counter; with a step back from 1 to 0 the abstract clock can stay at 0
    forever while its tick stays enabled (TLC: same verdicts and counts)."""
    cfg = tmp_path / "R.cfg"
    cfg.write_text(f"SPECIFICATION {spec}\nPROPERTY Refines\n")
    o = check(SPECS / "LiveRefines.tla", cfg)
    assert (o.verdict, o.distinct_states, o.states_generated) == (verdict, 6, generated)
    if verdict == "property":
        assert [s.action for s in o.trace] == [None, "Inc"]
        assert (o.loop, o.loop_step.action) == (0, "Back")


def test_enabled_in_expressions(tmp_path):
    (tmp_path / "En.tla").write_text("""---- MODULE En ----
EXTENDS Naturals
VARIABLES x, y
Inc(k) == x < 3 /\\ x' = x + k /\\ UNCHANGED y
Next == (\\E k \\in 1..2 : Inc(k)) \\/ (y = 0 /\\ ~ENABLED Inc(1) /\\ y' = 1 /\\ UNCHANGED x)
Init == x = 0 /\\ y = 0
Inv == (\\A k \\in 1..2 : ENABLED Inc(k)) = (x < 3)
====
""")
    (tmp_path / "En.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n")
    o = check(tmp_path / "En.tla", tmp_path / "En.cfg")
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 7, 9)  # TLC's


def test_report_json_gives_the_lasso_loop(tmp_path):
    o = live(tmp_path, "WeakSpec", "NoStarvation")
    r = o.report()
    assert (r["verdict"], r["property"], r["trace_length"], r["loop"]) == (
        "property", "NoStarvation", 4, 1)
    assert live(tmp_path, "WeakSpec", "Mutex").report()["loop"] is None


def test_max_depth_leaves_liveness_undecided(tmp_path):
    cfg = tmp_path / "Live.cfg"
    cfg.write_text("CONSTANT Procs = {p1, p2}\nSPECIFICATION WeakSpec\nPROPERTY NoStarvation\n")
    o = check(SPECS / "Live.tla", cfg, max_depth=2)
    assert (o.verdict, o.exit_code, o.loop) == ("incomplete", 3, None)
    assert (o.cut_depth, o.undecided) == (2, ["NoStarvation"])
    # A depth the search never reaches cuts nothing: liveness is decided as without it.
    deep = check(SPECS / "Live.tla", cfg, max_depth=1000)
    full = check(SPECS / "Live.tla", cfg)
    assert (deep.verdict, deep.cut_depth, deep.undecided) == (full.verdict, None, [])


def test_a_property_that_is_an_action_is_a_configuration_error_as_in_tlc(tmp_path):
    # TLC 2.18: "The property P3 is not correctly defined." and exit 151
    from checker.frontend import KipcheckError

    (tmp_path / "Bad.tla").write_text("---- MODULE Bad ----\nEXTENDS Naturals\nVARIABLE x\n"
                                      "Init == x = 0\nNext == x' = (x + 1) % 3\n"
                                      "Spec == Init /\\ [][Next]_x\nP3 == x' = x\n====\n")
    (tmp_path / "Bad.cfg").write_text("SPECIFICATION Spec\nPROPERTY P3\n")
    with pytest.raises(KipcheckError, match="The property P3 is not correctly defined") as err:
        check(tmp_path / "Bad.tla", tmp_path / "Bad.cfg")
    assert err.value.exit_code == 151 and (err.value.span.line, err.value.span.col) == (2, 10)


@pytest.mark.parametrize("prop, message, line", [
    ("P1", "needs a finite domain", 7),
    ("P2", "cannot check this temporal formula", 8),
])
def test_properties_kipcheck_cannot_check_are_spec_errors_with_a_location(tmp_path, prop,
                                                                           message, line):
    from checker.frontend import KipcheckError

    (tmp_path / "Bad.tla").write_text("""---- MODULE Bad ----
EXTENDS Naturals
VARIABLE x
Init == x = 0
Next == x' = (x + 1) % 3
Spec == Init /\\ [][Next]_x /\\ WF_x(Next)
P1 == \\E n \\in Nat : <>(x = n)
P2 == \\EE y : <>(x = 1)
P3 == x' = x
====
""")
    (tmp_path / "Bad.cfg").write_text(f"SPECIFICATION Spec\nPROPERTY {prop}\n")
    with pytest.raises(KipcheckError, match=message) as err:
        check(tmp_path / "Bad.tla", tmp_path / "Bad.cfg")
    assert err.value.exit_code == 150 and err.value.span.line == line
