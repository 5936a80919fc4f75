"""Invariants on a successor: a conjunct that reads only variables the step left unchanged held
on the parent and is not evaluated again (compile_step_predicate). Every conjunct that reads
a changed variable, directly or through an operator, a definition, a LET, a recursive
function or an INSTANCE substitution, must still be evaluated. Expected figures are TLC
2.18's: x counts 0, 1, 2, 3 and Inv breaks at x = 3 (4 generated, 4 distinct, trace of 4).
"""
from __future__ import annotations

import pytest

from checker.api import check
from checker.frontend import load_spec
from checker.semantics.model import build

INNER = "---- MODULE Inner ----\nEXTENDS Naturals\nVARIABLE v\nSmall == v < 3\n====\n"


def _spec(tmp_path, conjunct: str, init: str = "x = 0 /\\ y = 0"):
    (tmp_path / "Inner.tla").write_text(INNER)
    (tmp_path / "M.tla").write_text(
        "---- MODULE M ----\nEXTENDS Naturals, TLC\nVARIABLES x, y\n"
        "I == INSTANCE Inner WITH v <- x\nJ == INSTANCE Inner WITH v <- y\n"
        "Le(n) == x < n\nDx == x\nf[n \\in 0..5] == IF n = 0 THEN x ELSE f[n - 1]\n"
        f"Init == {init}\nNext == x' = x + 1 /\\ UNCHANGED y\n"
        f"Inv == /\\ y = 0\n       /\\ {conjunct}\n====\n")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
    return tmp_path / "M.tla"


@pytest.mark.parametrize("conjunct", [
    "x < 3", "Le(3)", "Dx < 3", "LET z == x IN z < 3", "LET L(n) == Dx < n IN L(3)",
    "I!Small", "f[5] < 3", "\\A i \\in {1} : x < 3", "(y = 0 /\\ x < 3)",
    "(y = 0 /\\ (TRUE /\\ Le(3)))",
])
def test_a_conjunct_reading_a_changed_variable_is_evaluated_again(tmp_path, conjunct):
    o = check(_spec(tmp_path, conjunct))
    assert (o.verdict, o.property, o.distinct_states, o.states_generated) == (
        "invariant", "Inv", 4, 4)
    assert [s.state[0] for s in o.trace] == [0, 1, 2, 3]


def test_conjuncts_of_unchanged_variables_are_skipped_and_others_are_not(tmp_path):
    built = build(load_spec(_spec(tmp_path, "Le(3)"), tmp_path / "M.cfg"))
    (name, inv), = built.model.invariants
    (step_name, step), = built.model.step_invariants
    assert step_name == name == "Inv"
    assert inv((5, 0)) is False
    # Given a parent that shares x's value (the very object), Le(3) is taken as held: the
    # contract is that the parent satisfied the invariant.
    assert step((5, 0), (5, 0)) is True
    assert step((3, 0), (2, 0)) is False  # x changed: evaluated
    assert step((1, 0), (0, 0)) is True


def test_an_instance_or_impure_conjunct_is_always_evaluated(tmp_path):
    for conjunct in ("J!Small", "RandomElement({y}) = 0"):
        built = build(load_spec(_spec(tmp_path, conjunct + " /\\ x < 9"), tmp_path / "M.cfg"))
        (_, step), = built.model.step_invariants
        # J reads y through INSTANCE ... WITH v <- y: not followed, so evaluated even when y is
        # unchanged (here to FALSE, y = 7, on a parent given as holding).
        assert step((1, 7), (0, 7)) is False


def _reads(tmp_path, text: str):
    """state_reads of the definition E == text in a module extending M."""
    from checker.semantics.compiler import Compiler

    _spec(tmp_path, "TRUE")
    (tmp_path / "E.tla").write_text(f"---- MODULE E ----\nEXTENDS M\nE == {text}\n====\n")
    loaded = load_spec(tmp_path / "E.tla")
    comp = Compiler(loaded.scopes, loaded.root.name, list(loaded.scope.variables), {}, {})
    sym = loaded.scope.symbols["E"]
    return comp.state_reads(sym.node.body, comp.root_env())


@pytest.mark.parametrize("text, reads", [
    ("y = 0", {1}), ("Le(3) /\\ y = 1", {0, 1}), ("LET z == y IN z", {1}), ("f[2]", {0}),
    ("1 + 2", set()), ("\\E i \\in {y} : i > Dx", {0, 1}),
    ("I!Small", None), ("RandomElement({y, 1})", None), ("TLCGet(\"level\")", None),
])
def test_what_an_expression_reads(tmp_path, text, reads):
    assert _reads(tmp_path, text) == reads
