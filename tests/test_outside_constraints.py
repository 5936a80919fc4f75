"""States outside the CONSTRAINTs: TLC checks their invariants each time they are generated
(they are never stored). kipcheck remembers such a state once it satisfied the invariants, but
only when the invariants' verdict depends on the state alone. Figures are TLC 2.18's."""
from __future__ import annotations

import pytest

from checker.api import check
from checker.engine.explore import explore
from checker.frontend import load_spec
from checker.semantics.model import build

# x = 2 is generated twice outside the constraint: from x = 0 (level 1) and from x = 1 (level 2).
SPEC = """---- MODULE M ----
EXTENDS Naturals, TLC
VARIABLE x
Init == x = 0
Next == x' \\in {{x + 1, x + 2}}
Inv == {inv}
InModel == x < 2
====
"""
CFG = "INIT Init\nNEXT Next\nINVARIANT Inv\nCONSTRAINT InModel\n"


def _spec(tmp_path, inv: str):
    (tmp_path / "M.tla").write_text(SPEC.format(inv=inv))
    (tmp_path / "M.cfg").write_text(CFG)
    return tmp_path / "M.tla"


def test_an_invariant_reading_the_level_is_checked_each_time(tmp_path):
    # TLC: Inv violated at x = 2 reached through x = 1, 4 generated, 2 distinct.
    o = check(_spec(tmp_path, 'x = 2 => TLCGet("level") < 2'))
    assert (o.verdict, o.property, o.distinct_states, o.states_generated) == (
        "invariant", "Inv", 2, 4)
    assert [s.state[0] for s in o.trace] == [0, 1, 2]


def test_a_state_outside_the_constraints_is_still_checked(tmp_path):
    # TLC: Inv violated at x = 3, only generated outside the model, from x = 1.
    o = check(_spec(tmp_path, "x # 3"))
    assert (o.verdict, o.property, o.distinct_states, o.states_generated) == (
        "invariant", "Inv", 2, 5)
    assert [s.state[0] for s in o.trace] == [0, 1, 3]


def test_pure_invariants_pass_as_tlc(tmp_path):
    o = check(_spec(tmp_path, "x < 4"))
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 2, 5)


@pytest.mark.parametrize("inv, pure", [
    ("x < 4", True),
    ("LET y == x IN y < 4", True),
    ('TLCGet("level") < 9', False),
    ('x = 2 => TLCGet("level") < 2', False),
    ("PrintT(x)", False),
    ("RandomElement({TRUE})", False),
])
def test_which_invariants_are_remembered(tmp_path, inv, pure):
    built = build(load_spec(_spec(tmp_path, inv), tmp_path / "M.cfg"))
    assert built.model.invariants_pure is pure


def test_a_remembered_state_is_not_checked_again(tmp_path):
    built = build(load_spec(_spec(tmp_path, "x < 4"), tmp_path / "M.cfg"))
    calls = []
    model = built.model
    name, pred = model.step_invariants[0]
    model.step_invariants = [(name, lambda s, p, t=None: calls.append(s[0]) or pred(s, p))]
    explore(model)
    # x = 1 (stored), x = 2 (outside: checked once, then remembered), x = 3 (outside)
    assert sorted(calls) == [1, 2, 3]


@pytest.mark.parametrize("inv, trace", [
    ('x = 2 => TLCGet("level") < 2', [0, 1, 2]),  # impure: x = 2 checked again from x = 1
    ("x # 3", [0, 1, 3]),  # met outside the model only
])
def test_two_workers_check_states_outside_the_constraints_as_one_process(tmp_path, inv, trace):
    o = check(_spec(tmp_path, inv), workers=2)
    assert (o.verdict, o.property) == ("invariant", "Inv")
    assert [s.state[0] for s in o.trace] == trace


def test_two_workers_pass_pure_invariants_with_tlcs_counts(tmp_path):
    o = check(_spec(tmp_path, "x < 4"), workers=2)
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 2, 5)
