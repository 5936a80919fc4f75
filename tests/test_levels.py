"""Level checking: each case pinned to SANY as TLC 2.18 runs it (a level error, exit 150, or
accepted). kipcheck once accepted every rejected one, and checked some: `PROPERTY <>(x' = 1)`
and `PROPERTY (x' = 1) ~> (x = 0)` answered "No error has been found" where TLC refuses the
spec, and `(x')' = x` was evaluated."""
from __future__ import annotations

import pytest
from frontend_helpers import load

from checker.api import check
from checker.frontend.errors import KipcheckError, SpecError
from checker.frontend.levels import check_levels
from checker.frontend.resolve import resolve

HEAD = "VARIABLE x\nT == [](x = 1)\nA == x' = x\n"

REJECTED = {
    "prime_of_action": "F == (x')' = 1",
    "prime_of_temporal": "F == ([](x = 1))'",
    "unchanged_of_action": "F == UNCHANGED A",
    "unchanged_of_temporal": "F == UNCHANGED [](x = 1)",
    "enabled_of_temporal": "F == ENABLED T",
    "box_of_action": "F == [](x' = x)",
    "box_of_defined_box_action": "N == [A]_x\nF == []N",
    "diamond_of_action": "F == <>(x' = x)",
    "leadsto_action": "F == (x' = 1) ~> (x = 2)",
    "plusarrow_action": "F == A -+-> T",
    "box_subscript_primed": "F == [][x = 1]_(x')",
    "box_action_temporal": "F == [][T]_x",
    "angle_action_temporal": "F == <><<T>>_x",
    "wf_subscript_action": "F == WF_A(A)",
    "wf_action_temporal": "F == WF_x(T)",
    "and_action_temporal": "F == A /\\ T",
    "or_action_temporal": "F == A \\/ T",
    "implies_action_temporal": "F == A => T",
    "equiv_action_temporal": "F == A <=> T",
    "bulleted_action_temporal": "F == /\\ A\n     /\\ T",
    "quantified_action_temporal": "F == \\E i \\in {1} : A /\\ T",
    "equal_temporal": "F == T = FALSE",
    "unequal_temporal": "F == T # FALSE",
    "member_temporal": "F == T \\in {TRUE}",
    "set_of_temporal": "F == {T}",
    "tuple_of_temporal": "F == <<T>>",
    "filter_temporal": "F == {i \\in {1} : T}",
    "map_temporal": "F == {T : i \\in {1}}",
    "domain_temporal": "F == \\E i \\in {T} : TRUE",
    "choose_temporal": "F == CHOOSE i \\in {1} : T",
    "apply_temporal": "F == [i \\in {1} |-> i][T]",
    "except_temporal": "F == [[i \\in {1} |-> 1] EXCEPT ![1] = T]",
    "subset_temporal": "F == SUBSET T",
    "DOMAIN_temporal": "F == DOMAIN T",
    "plus_temporal": "F == T + 1",
    "cdot_temporal": "F == A \\cdot T",
    "argument_level": "G(a) == a'\nF == G(x')",
    "assume_variable": "ASSUME x = 1",
}

ACCEPTED = {
    "prime_of_enabled": "F == (ENABLED A)'",
    "enabled_of_action": "F == ENABLED A",
    "box_action": "F == [][A]_x",
    "angle_action": "F == <><<A>>_x",
    "action_defined_as_box": "F == [A]_x /\\ x = 1",
    "state_and_temporal": "F == (x = 1) /\\ T",
    "leadsto_temporal": "F == T ~> T",
    "if_temporal": "F == IF A THEN T ELSE TRUE",
    "case_temporal": "F == CASE T -> 1 [] OTHER -> 2",
    "record_of_temporal": "F == [a |-> T]",
    "function_of_temporal": "F == [i \\in {1} |-> T]",
    "let_temporal": "F == LET y == T IN y",
    "not_temporal": "F == ~T",
    "quantified_temporal": "F == \\A i \\in {1} : <>(x = i)",
    "temporal_quantifier": "F == \\EE y : A",
    "choose_action": "F == CHOOSE i \\in {1} : A",
    "cdot_actions": "F == A \\cdot A",
    "argument_state": "G(a) == a'\nF == G(x + 1)",
    "plus_action": "F == x' + 1 = 2",
    "recursive": "RECURSIVE R(_)\nR(a) == IF a = 0 THEN x ELSE R(a - 1)\nF == R(1)'",
}


def _levels(body: str):
    mods = load(HEAD + body, extends="Naturals")
    check_levels(mods, resolve(mods))


@pytest.mark.parametrize("case", list(REJECTED))
def test_sany_rejects_it_and_so_does_kipcheck(case):
    with pytest.raises(KipcheckError) as info:
        _levels(REJECTED[case])
    err = info.value
    assert type(err) is SpecError and err.exit_code == 150
    assert err.message.startswith("level error: ")
    assert err.span.line >= 4  # in the case's own text, not in HEAD


@pytest.mark.parametrize("case", list(ACCEPTED))
def test_sany_accepts_it_and_so_does_kipcheck(case):
    _levels(ACCEPTED[case])


def test_a_property_eventually_an_action_is_refused_not_passed(tmp_path):
    (tmp_path / "L.tla").write_text(
        "---- MODULE L ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = 0\n"
        "Next == x' = 1 - x\nSpec == Init /\\ [][Next]_x /\\ WF_x(Next)\n"
        "P == <>(x' = 1 - x)\n====\n")
    (tmp_path / "L.cfg").write_text("SPECIFICATION Spec\nPROPERTY P\n")
    with pytest.raises(SpecError) as info:
        check(tmp_path / "L.tla", tmp_path / "L.cfg")
    err = info.value
    assert err.exit_code == 150
    assert err.message.startswith("level error: <> applies to a state or temporal formula")
    assert (err.span.line, err.span.col) == (7, 9)
