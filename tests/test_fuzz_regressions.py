"""Bugs found by the generated models of tests/specgen.py, each pinned by its reduced case."""
from __future__ import annotations

import pytest

from checker.api import check

SPEC = r"""---- MODULE M ----
EXTENDS Integers, Sequences
VARIABLE x
Init == x = 0
Next == x < 2 /\ x' = x + 1
Con == x = %s => (1 \div 0) = 1
AC == x' = %s => Head(<<>>) = 1
====
"""


@pytest.mark.parametrize("kind, at, generated, distinct, trace", [
    ("CONSTRAINT Con", 0, 1, 0, 1),  # on an initial state
    ("CONSTRAINT Con", 1, 2, 1, 2),  # on a successor
    ("ACTION_CONSTRAINT AC", 2, 3, 2, 3),
])
def test_evaluation_error_in_a_constraint(tmp_path, kind, at, generated, distinct, trace):
    """An evaluation error inside a CONSTRAINT or ACTION_CONSTRAINT is an evaluation error
    (exit 75) with the behaviour that led to it, not a Python traceback."""
    (tmp_path / "M.tla").write_text(SPEC % (at, at))
    (tmp_path / "M.cfg").write_text(f"INIT Init\nNEXT Next\n{kind}\nCHECK_DEADLOCK FALSE\n")
    out = check(tmp_path / "M.tla")
    assert (out.verdict, out.exit_code) == ("error", 75)
    assert "while evaluating a CONSTRAINT or ACTION_CONSTRAINT" in out.message
    assert ("is 0" if "CONSTRAINT Con" == kind else "Head") in out.message
    assert (out.states_generated, out.distinct_states, out.trace_length) == (
        generated, distinct, trace)


@pytest.mark.parametrize("init, constraint, generated", [
    ("x \\in {0, 1}", "x > 5", 2),  # every initial state is outside the CONSTRAINT
    ("x \\in {}", "TRUE", 0),  # no initial state at all
])
def test_depth_counts_the_initial_level_even_when_no_state_is_kept(tmp_path, init, constraint,
                                                                   generated):
    """TLC reports depth 1 once the initial states are computed, whether or not it kept one."""
    (tmp_path / "M.tla").write_text(
        "---- MODULE M ----\nEXTENDS Integers\nVARIABLE x\n"
        f"Init == {init}\nNext == x' = x + 1\nCon == {constraint}\n====\n")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\nCONSTRAINT Con\n")
    out = check(tmp_path / "M.tla")
    assert (out.verdict, out.states_generated, out.distinct_states, out.depth) == (
        "ok", generated, 0, 1)


@pytest.mark.parametrize("prop, generated, trace", [
    ("[][x' = 2 => Head(<<>>) = 1]_x", 3, 3),  # an action property, on a step
    ("x = 0 /\\ Head(<<>>) = 1", 1, 1),  # a property's initial-state part
])
def test_evaluation_error_in_a_property(tmp_path, prop, generated, trace):
    """An evaluation error inside a PROPERTY is an evaluation error with its trace (exit 75),
    not a Python traceback."""
    (tmp_path / "M.tla").write_text(
        "---- MODULE M ----\nEXTENDS Integers, Sequences\nVARIABLE x\nInit == x = 0\n"
        f"Next == x < 2 /\\ x' = x + 1\nProp == {prop}\n====\n")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\nPROPERTY Prop\nCHECK_DEADLOCK FALSE\n")
    out = check(tmp_path / "M.tla")
    assert (out.verdict, out.exit_code, out.property) == ("error", 75, "Prop")
    assert "Head" in out.message and "while evaluating property Prop" in out.message
    assert (out.states_generated, out.trace_length) == (generated, trace)


@pytest.mark.parametrize("expr", [
    "TRUE = ~~TRUE",
    "[[a |-> 1, b |-> TRUE] EXCEPT !.b = ~~FALSE] = [a |-> 1, b |-> FALSE]",
    "1 = - -1",
    "-1 = - - -1",
])
def test_prefix_operator_after_a_tight_prefix_operator(tmp_path, expr):
    """`a = ~~b`: the second prefix operator is as tight as the first (TLC reads it so)."""
    (tmp_path / "M.tla").write_text(
        "---- MODULE M ----\nEXTENDS Integers\nVARIABLE x\nInit == x = 0\n"
        f"Next == UNCHANGED x\nASSUME {expr}\n====\n")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\n")
    out = check(tmp_path / "M.tla")
    assert (out.verdict, out.distinct_states) == ("ok", 1)


@pytest.mark.parametrize("where", ["Next == \\E y \\in 0..(K-1) : x' = y",
                                   "Next == x' = Cardinality(0..(K-1))",
                                   "Next == x' \\in {y \\in 0..(K-1) : y > 3}"])
def test_a_set_too_large_to_list_is_an_evaluation_error(tmp_path, where):
    """0..(K-1) with K = 10^23 cannot be listed or counted (TLC's integers are 32-bit): an
    evaluation error, not an OverflowError or a MemoryError."""
    (tmp_path / "M.tla").write_text("---- MODULE M ----\nEXTENDS Integers, FiniteSets\n"
                                    f"CONSTANT K\nVARIABLE x\nInit == x = 0\n{where}\n====\n")
    (tmp_path / "M.cfg").write_text("CONSTANT K = 100000000000000000000000\nINIT Init\n"
                                    "NEXT Next\n")
    out = check(tmp_path / "M.tla")
    assert (out.verdict, out.exit_code) == ("error", 75)
    assert out.message.startswith("The set 0..99999999999999999999999 has "
                                  "100000000000000000000000 elements, more than TLC can handle "
                                  "(2147483647).")


def test_the_lasso_cycle_is_the_shortest_that_meets_every_need(tmp_path):
    """Seed 9034 of the mixed family, reduced: the cycle used to go greedily to the nearest
    step of Next (SF) and then to the nearest state with y = 1 (the property's promise): a lasso
    of 3 states where TLC's has 2 (init, then y = 1 with b TRUE, then back). The cycle is now
    the shortest through both."""
    (tmp_path / "M.tla").write_text(
        "---- MODULE M ----\nEXTENDS Integers\nVARIABLES b, y\n"
        "Next == \\E i \\in 0..1 : b' \\in BOOLEAN /\\ y' = i\n"
        "Spec == b = TRUE /\\ y = 0 /\\ [][Next]_<<b, y>> /\\ SF_<<b, y>>(Next)\n"
        "Live == <>[](y = 0)\n====\n")
    (tmp_path / "M.cfg").write_text("SPECIFICATION Spec\nPROPERTY Live\n")
    out = check(tmp_path / "M.tla")
    assert (out.verdict, out.property, out.distinct_states) == ("property", "Live", 4)
    assert (out.trace_length, out.loop) == (2, 0)
    assert [dict(zip(out.variables, s.state, strict=True))["y"] for s in out.trace] == [0, 1]
