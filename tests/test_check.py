"""The core checker against figures TLC 2.18 printed for the same specs (run with -workers 1).

Each spec under tests/specs pins one rule of TLA-SEMANTICS.md; the counts at a violation also
pin TLC's exploration order (they depend on which state is met first).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from checker.api import check
from checker.cli import main

SPECS = Path(__file__).parent / "specs"


def run(spec: str, cfg: str, **kw):
    return check(SPECS / f"{spec}.tla", SPECS / f"{cfg}.cfg", **kw)


def write_spec(tmp_path, name: str, body: str, cfg: str = "INIT Init\nNEXT Next\n"):
    """A one-off module `name` with `body` (between header and ====) and its .cfg."""
    spec = tmp_path / f"{name}.tla"
    spec.write_text(f"---- MODULE {name} ----\n{body}====\n")
    (tmp_path / f"{name}.cfg").write_text(cfg)
    return spec


# (spec, cfg) -> (verdict, property, distinct, generated, depth, left, trace length, exit)
TLC_FIGURES = {
    ("Counter", "Counter"): ("invariant", "Small", 15, 38, 4, 5, 4, 12),
    ("Counter", "CounterC"): ("ok", None, 15, 62, 5, 0, 0, 0),
    ("Stop", "Stop"): ("deadlock", None, 4, 4, 4, 0, 4, 11),
    ("Stop", "StopNoDeadlock"): ("ok", None, 4, 4, 4, 0, 0, 0),
    ("Sym", "Sym"): ("ok", None, 3, 10, 3, 0, 0, 0),
    ("Sym", "SymNone"): ("ok", None, 9, 28, 4, 0, 0, 0),
    ("Sym", "SymView"): ("ok", None, 3, 10, 3, 0, 0, 0),
    ("Vals", "Vals"): ("ok", None, 1, 2, 1, 0, 0, 0),
    ("Records", "Records"): ("invariant", "NotAllDone", 9, 12, 5, 1, 5, 12),
    ("Records", "Records3"): ("invariant", "TypeOK", 14, 18, 4, 7, 4, 12),
    ("ActionProp", "ActionProp"): ("property", "Monotone", 4, 5, 4, 0, 5, 13),
}


@pytest.mark.parametrize("spec,cfg", sorted(TLC_FIGURES))
def test_counts_verdicts_and_traces_match_tlc(spec, cfg):
    verdict, prop, distinct, generated, depth, left, trace, code = TLC_FIGURES[spec, cfg]
    o = run(spec, cfg)
    assert (o.verdict, o.property) == (verdict, prop)
    assert (o.distinct_states, o.states_generated, o.depth, o.states_left) == (
        distinct, generated, depth, left)
    assert o.trace_length == trace
    assert o.exit_code == code


def test_counterexample_follows_tlc_order_and_names_actions_with_parameters():
    o = run("Records", "Records")
    assert [s.action for s in o.trace] == [None, "Send(a)", "Recv(a)", "Send(b)", "Recv(b)"]


def test_deadlock_off_from_the_command_line():
    o = run("Stop", "Stop", deadlock=False)
    assert o.verdict == "ok" and o.distinct_states == 4


def test_a_step_back_to_the_same_state_is_not_a_deadlock(tmp_path):
    spec = write_spec(tmp_path, "Loop", "VARIABLE x\nInit == x = 0\nNext == x' = x\n")
    o = check(spec)
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 1, 2)


def test_constraint_prunes_but_still_checks_invariants():
    o = run("Counter", "CounterC")
    # x <= 4 is the constraint: states with x = 5 or 6 are generated, checked, not stored.
    assert o.coverage["Next"][1] > o.coverage["Next"][0]


def test_max_depth_bounds_the_search():
    o = run("Counter", "CounterC", max_depth=2)
    assert o.depth == 2


def test_evaluation_error_exits_75_with_the_trace_and_no_traceback():
    result = CliRunner().invoke(main, ["check", str(SPECS / "Errors.tla")])
    assert result.exit_code == 75
    assert "Attempted to apply Head to the empty sequence." in result.output
    assert "Errors.tla:5:25: error: the error occurred while evaluating this expression" in (
        result.output)
    assert "                        ^~~~~~~~~~~~" in result.output.splitlines()
    assert "State 1: <Initial predicate>" in result.output
    assert "Traceback" not in result.output


def test_false_assumption_exits_10(tmp_path):
    spec = write_spec(tmp_path, "A", "EXTENDS Naturals\nVARIABLE x\nASSUME 1 + 1 = 3\n"
                    "Init == x = 0\nNext == x' = x\n")
    o = check(spec)
    assert o.verdict == "assumption" and o.exit_code == 10
    assert "line 4, col 8" in o.message


def test_failed_assert_exits_14(tmp_path):
    spec = write_spec(tmp_path, "B", "EXTENDS Naturals, TLC\nVARIABLE x\nInit == x = 0\n"
                    "Next == x < 2 /\\ x' = x + 1 /\\ Assert(x' < 2, \"too big\")\n",
                      "INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n")
    o = check(spec)
    assert o.verdict == "assert" and o.exit_code == 14
    assert '"too big"' in o.message


def test_unassigned_variable_is_an_error_naming_it(tmp_path):
    spec = write_spec(tmp_path, "U", "VARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
                    "Next == x' = 1\n")
    o = check(spec)
    assert o.verdict == "error" and o.exit_code == 75
    # TLC's words; they name the action only when Next has several (test_partial_successor)
    assert o.message == ("Successor state is not completely specified by the next-state "
                         "action. The following variable is not assigned: y.")


def test_text_trace_marks_changed_variables():
    result = CliRunner().invoke(main, ["check", str(SPECS / "Counter.tla")])
    assert result.exit_code == 12
    lines = result.output.splitlines()
    assert lines[0] == "Error: Invariant Small is violated."
    assert lines[1] == "Error: The behavior up to this point is:"
    assert lines[2] == "State 1: <Initial predicate>"
    assert lines[3:5] == [" /\\ x = 0", " /\\ y = 0"]
    assert lines[6] == "State 2: <Next(2)>"
    assert lines[7:9] == ["*/\\ x = 2", " /\\ y = 0"]
    assert "38 states generated, 15 distinct states found, 5 states left on queue." in lines


@pytest.mark.parametrize("variables,shown", [
    ("x", ["x = 2"]),  # TLC 2.18: one variable, no bullet
    ("x, y", ["/\\ x = 2", "/\\ y = 0"])])
def test_an_initial_state_that_violates_an_invariant_is_named_as_tlc_names_it(tmp_path,
                                                                              variables, shown):
    # TLC: "violated by the initial state:" and the state, no behaviour (exit 12 as any invariant)
    y = " /\\ y = 0" if "y" in variables else ""
    y_next = " /\\ y' = y" if "y" in variables else ""
    spec = write_spec(tmp_path, "InitBad",
                      f"EXTENDS Naturals\nVARIABLES {variables}\nInit == x \\in {{1, 2, 3}}{y}\n"
                      f"Next == x' = x + 1{y_next}\nInv == x # 2\n",
                      "INIT Init\nNEXT Next\nINVARIANT Inv\n")
    result = CliRunner().invoke(main, ["check", str(spec)])
    assert result.exit_code == 12
    lines = result.output.splitlines()
    assert lines[:len(shown) + 2] == [
        "Error: Invariant Inv is violated by the initial state:", *shown, ""]
    assert "Error: The behavior up to this point is:" not in lines


def test_report_json_and_constant_override(tmp_path):
    report = tmp_path / "r.json"
    result = CliRunner().invoke(main, ["check", str(SPECS / "Records.tla"), "--config",
                                       str(SPECS / "Records3.cfg"), "-D", "Procs={a, b}",
                                       "--report-json", str(report)])
    assert result.exit_code == 0, result.output
    data = json.loads(report.read_text())
    assert data["verdict"] == "ok"
    assert (data["distinct_states"], data["states_generated"], data["depth"]) == (9, 13, 5)
    assert data["trace_length"] == 0 and data["property"] is None
    assert data["coverage"]["Send"] == [4, 6]  # TLC -coverage: Send 4:6, Recv 4:6
    assert data["coverage"]["Recv"] == [4, 6]


def test_spec_errors_keep_their_exit_codes_under_check(tmp_path):
    spec = tmp_path / "P.tla"
    spec.write_text("---- MODULE P ----\nVARIABLE x\nInit == x = \nNext == x' = x\n====\n")
    result = CliRunner().invoke(main, ["check", str(spec)])
    assert result.exit_code == 150
    assert "P.tla:4:6: error: unexpected '=='" in result.output


def test_error_inside_an_operator_points_into_its_body(tmp_path):
    spec = write_spec(tmp_path, "Op", "EXTENDS Naturals\nVARIABLE f\nInit == f = <<1, 2>>\n"
                    "Pick(i) == f[i]\nNext == f' = f /\\ Pick(3) = 1\n")
    o = check(spec)
    assert o.verdict == "error"
    assert (o.span.line, o.span.col) == (5, 12)
    assert "out of domain" in o.message


@pytest.mark.parametrize("spec,cfg", [("Records", "Records"), ("Stop", "Stop"),
                                      ("Sym", "Sym"), ("Counter", "CounterC")])
def test_fingerprint_mode_gives_the_same_counts_and_traces(spec, cfg):
    full = run(spec, cfg, exact_states=True)
    fp = run(spec, cfg)
    assert (fp.verdict, fp.property, fp.distinct_states, fp.states_generated, fp.depth) == (
        full.verdict, full.property, full.distinct_states, full.states_generated, full.depth)
    assert [(s.action, s.state) for s in fp.trace] == [(s.action, s.state) for s in full.trace]


def test_fingerprints_do_not_depend_on_the_process_hash_seed():
    import os
    import subprocess
    import sys

    code = ("from checker.engine.fingerprints import fingerprint\n"
            "from checker.semantics.values import ModelValue, make_fn\n"
            "v = (1, 'a', frozenset({'x', 'y', 'z'}), make_fn([('k', -1), ('j', -2)]),\n"
            "     ModelValue('p1'), frozenset({(1, 2), (3,)}))\n"
            "print(fingerprint(v))\n")
    outs = set()
    for seed in ("1", "2", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        outs.add(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                                text=True, check=True).stdout)
    assert len(outs) == 1


def test_fingerprints_tell_apart_values_python_hash_confuses():
    from checker.engine.fingerprints import fingerprint
    from checker.semantics.values import ModelValue

    assert hash(-1) == hash(-2)  # why the seen set never relies on hash() alone
    assert fingerprint((-1,)) != fingerprint((-2,))
    assert fingerprint(("1",)) != fingerprint((1,))
    assert fingerprint((ModelValue("a"),)) != fingerprint(("a",))


def test_wrongly_typed_arithmetic_is_an_evaluation_error_not_a_crash(tmp_path):
    spec = write_spec(tmp_path, "Bad", "EXTENDS Naturals\nVARIABLE x\nInit == x = 0\n"
                    "Next == x' = x + \"a\"\n")
    result = CliRunner().invoke(main, ["check", str(spec)])
    assert result.exit_code == 75
    assert ('The second argument of + should be an integer, but instead it is:\n"a"'
            in result.output)
    assert "Bad.tla:5:9: error:" in result.output
    assert "Traceback" not in result.output


def test_the_package_exposes_check():
    import checker

    o = checker.check(SPECS / "Stop.tla", SPECS / "StopNoDeadlock.cfg")
    assert isinstance(o, checker.Outcome) and o.distinct_states == 4


@pytest.mark.parametrize("expr,message", [
    ('1 = "a"', 'Attempted to check equality of integer 1 with non-integer:\n"a"'),
    ("TRUE = 1", "Attempted to compare equality of boolean TRUE with non-boolean:\n1"),
    ("<<>> = {}", "Attempted to check equality of the function << >> with the value:\n{}"),
])
def test_comparing_values_of_different_kinds_is_an_error_as_in_tlc(tmp_path, expr, message):
    spec = write_spec(tmp_path, "Cmp", f"VARIABLE x\nInit == x = 0\nNext == x' = x /\\ "
                    f"({expr})\n")
    o = check(spec)
    assert (o.verdict, o.message) == ("error", f"{message}\nThe error occurred in action Next.")


@pytest.mark.parametrize("guard", ["[a |-> 1] \\in msgs", "[a |-> 1] \\notin msgs",
                                   "x = 0 /\\ [a |-> 1] \\in msgs"])
def test_an_error_names_the_action_that_failed_after_others_emitted_or_not(tmp_path, guard):
    # A emits a successor, B none, C fails comparing a constant record with msgs' element
    # (its kind check uses the shape computed when the spec was compiled), D is never run.
    spec = write_spec(tmp_path, "Act", "VARIABLES x, msgs\n"
                      "Init == x = 0 /\\ msgs = {[a |-> \"s\"]}\n"
                      "A == x = 0 /\\ x' = 1 /\\ UNCHANGED msgs\n"
                      "B == x = 7 /\\ x' = 2 /\\ UNCHANGED msgs\n"
                      f"C == {guard} /\\ x' = 3 /\\ UNCHANGED msgs\n"
                      "D == x' = 4 /\\ UNCHANGED msgs\nNext == A \\/ B \\/ C \\/ D\n",
                      "INIT Init\nNEXT Next\n")
    o = check(spec)
    assert (o.verdict, o.exit_code, o.states_generated) == ("error", 75, 2)
    assert o.message == ('Attempted to check equality of string "s" with non-string:\n1\n'
                         "The error occurred in action C.")


def test_a_model_value_is_unequal_to_anything_else_without_error():
    o = run("Sym", "Sym", constants=None)
    assert o.verdict == "ok"
    from checker.semantics.runtime import eq
    from checker.semantics.values import ModelValue

    assert eq(ModelValue("p1"), 1) is False and eq("p1", ModelValue("p1")) is False


def test_a_variable_passed_to_an_operator_can_be_primed_inside_it(tmp_path):
    """`Lose(q) == ... q' = ...` called as Lose(a) assigns a' (TLC: 4 distinct, 5 generated)."""
    spec = write_spec(tmp_path, "Lose", """EXTENDS Naturals, Sequences
VARIABLES a, b
Lose(q) == /\\ q # << >>
           /\\ \\E i \\in 1..Len(q) : q' = [j \\in 1..(Len(q)-1) |-> IF j < i THEN q[j] ELSE q[j+1]]
           /\\ UNCHANGED b
Init == a = <<1, 2>> /\\ b = 0
Next == Lose(a)
""", "INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n")
    o = check(spec)
    assert (o.verdict, o.distinct_states, o.states_generated, o.depth) == ("ok", 4, 5, 3)


def test_subscripted_actions_inside_next_and_infinite_set_differences(tmp_path):
    """`[A]_v` is an action anywhere (A \\/ UNCHANGED v), and `Nat \\ {0}` a set to test
    membership in (TLC: 6 distinct, 14 generated)."""
    spec = write_spec(tmp_path, "Box", """EXTENDS Naturals
CONSTANT N
ASSUME N \\in Nat \\ {0}
VARIABLES x, y
Init == x = 0 /\\ y = 0
Next == /\\ [x < N /\\ x' = x + 1]_x
        /\\ <<y' = x>>_y \\/ UNCHANGED y
""", "CONSTANT N = 2\nINIT Init\nNEXT Next\n")
    o = check(spec)
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 6, 14)


def test_a_let_definition_used_in_an_action_branches_on_its_disjunction(tmp_path):
    """TLC expands `LET g == A \\/ B IN g` in place: each true disjunct generates the successor
    again (TLC: 5 generated, 3 distinct)."""
    spec = write_spec(tmp_path, "LetOr", """EXTENDS Naturals
VARIABLE x
Init == x = 0
Next == /\\ x < 2
        /\\ LET g == x >= 0 \\/ x < 5 IN g
        /\\ x' = x + 1
""", "INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n")
    o = check(spec)
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 3, 5)


def test_the_collision_estimate_is_printed_only_when_fingerprints_were_compared(tmp_path):
    spec = write_spec(tmp_path, "Tick", "EXTENDS Naturals\nVARIABLE x\nInit == x = 0\n"
                      "Next == x' = (x + 1) % 5\n")
    fp = CliRunner().invoke(main, ["check", str(spec)])
    exact = CliRunner().invoke(main, ["check", str(spec), "--exact-states"])
    assert fp.exit_code == exact.exit_code == 0
    assert ("the probability that kipcheck did not check all reachable states\n"
            "  because two distinct states had the same fingerprint:\n"
            "  calculated (optimistic):  val = 2.7E-19\n") in fp.output
    assert "fingerprint" not in exact.output and "TLC" not in exact.output
    assert "6 states generated, 5 distinct states found" in exact.output


def test_a_successor_fingerprint_equals_the_whole_state_fingerprint():
    from checker.engine.fingerprints import Parent, state_fingerprint
    from checker.semantics.values import make_fn

    s = (1, frozenset({"a", "b"}), make_fn([("k", 1)]), (2, 3))
    t = (1, frozenset({"a"}), s[2], (3, 2))
    u = (s[1], s[0], s[2], s[3])  # values swapped between variables
    assert Parent(s, state_fingerprint(s)).successor(t) == state_fingerprint(t)
    assert state_fingerprint(u) != state_fingerprint(s)


def test_fingerprints_of_a_whole_expansion_equal_the_whole_state_fingerprints():
    from checker.engine.fingerprints import state_fingerprint, successor_keys
    from checker.semantics.values import make_fn

    s = (1, frozenset({"a", "b"}), make_fn([("k", 1)]), (2, 3))
    t = (1, frozenset({"a"}), s[2], (3, 2))
    u = (2, s[1], make_fn([("k", 2)]), s[3])
    counts = [0, 0, 0]
    succs, fps, actions, n = successor_keys(4)(s, state_fingerprint(s), [0, t, s, 1, 2, u],
                                               counts)
    assert succs == [t, s, u] and actions == [0, 0, 2] and counts == [2, 0, 1] and n == 3
    assert fps == [state_fingerprint(x) for x in succs]
    assert successor_keys(0)((), state_fingerprint(()), [0, ()], [0])[1] == [
        state_fingerprint(())]
    # Known duplicates are only counted.
    left = successor_keys(4, True)(s, state_fingerprint(s), [0, t, s, 1, 2, u], counts,
                                   {state_fingerprint(t)}, {state_fingerprint(u)})
    assert left == ([s], [state_fingerprint(s)], [0], 3) and counts == [4, 0, 2]


def test_counts_and_coverage_at_a_violation_are_equal_with_and_without_fingerprints(tmp_path):
    # The invariant fails on the first successor of a state with three: the coverage counts
    # what was generated up to it, in either store.
    spec = write_spec(tmp_path, "Fan", "EXTENDS Naturals\nVARIABLE x\nInit == x = 0\n"
                      "A == x' = x + 1\nB == x' = x + 2\nC == x' = x + 3\n"
                      "Next == C \\/ B \\/ A\nSmall == x < 4\n",
                      "INIT Init\nNEXT Next\nINVARIANT Small\n")
    fp, exact = check(spec), check(spec, exact_states=True)
    assert fp.verdict == exact.verdict == "invariant"
    assert (fp.distinct_states, fp.states_generated) == (exact.distinct_states,
                                                          exact.states_generated)
    assert fp.coverage == exact.coverage
    assert len(fp.trace) == len(exact.trace) == 3


@pytest.mark.parametrize("expr,message", [
    ('[a |-> 1] \\in {[a |-> "x"], [b |-> 1]}',
     'Attempted to check equality of string "x" with non-string:\n1'),
    ('<<1, 2>> \\in {<<"a", 2>>, <<3, 4>>}',
     'Attempted to check equality of string "a" with non-string:\n1'),
    ('{1} \\in {{2}, {"a"}}', 'Attempted to check equality of string "a" with non-string:\n1'),
    ('[type |-> "P", rm |-> 1] \\in {[type |-> "C"], [type |-> "P", rm |-> 2]}', None),
    ('<<1, 2>> \\in {<<"a">>, <<3, 4>>}', None),
    ('{} \\in {{2}, {"a", "b"}}', None),
])
def test_membership_in_a_set_of_mixed_shapes_fails_only_where_tlc_compares_kinds(tmp_path, expr,
                                                                                 message):
    # TLC compares x with the elements: other domains or lengths are unequal at once, parts
    # of one shape are compared (figures from TLC 2.18).
    spec = write_spec(tmp_path, "Mem", f"VARIABLE x\nInit == x = ({expr})\n"
                      "Next == UNCHANGED x\n")
    o = check(spec)
    if message is None:
        assert (o.verdict, o.distinct_states) == ("ok", 1)
    else:
        assert o.verdict == "error" and o.message.startswith(message)


def test_a_violation_followed_by_successors_of_the_same_action_counts_as_tlc(tmp_path):
    # TLC 2.18: 3 states generated, 3 distinct, a trace of 2 states.
    spec = write_spec(tmp_path, "Fan2", "EXTENDS Naturals\nVARIABLE x\nInit == x = 0\n"
                      "Next == \\/ x' \\in {x + 3, x + 4, x + 5}\n        \\/ x' = x + 1\n"
                      "Small == x # 4\n", "INIT Init\nNEXT Next\nINVARIANT Small\n")
    for exact in (False, True):
        o = check(spec, exact_states=exact)
        assert (o.verdict, o.distinct_states, o.states_generated, len(o.trace)) == (
            "invariant", 3, 3, 2)
        assert o.coverage["Next"] == [2, 2]


def test_a_property_false_on_an_initial_state_is_named_as_tlc_names_it(tmp_path):
    # TLC 2.18, PROPERTY P with P == x > 0 (a state predicate: the initial states only):
    # "Error: Property P is violated by the initial state:", exit 13; not "Action property"
    spec = write_spec(tmp_path, "InitProp",
                      "EXTENDS Naturals\nVARIABLE x\nSpec == x \\in 0..2 /\\ [][x' = x]_x\n"
                      "P == x > 0\n", "SPECIFICATION Spec\nPROPERTY P\n")
    result = CliRunner().invoke(main, ["check", str(spec)])
    assert result.exit_code == 13
    assert result.output.splitlines()[:3] == [
        "Error: Property P is violated by the initial state:", "x = 0", ""]
