"""An operator a LET defines with parameters is expanded in place when an action calls it, as
TLC does: it may assign primed variables, and an \\E or a disjunction inside it enumerates, so
its successors count as TLC counts them (PaxosCommit's Decide: TLC's 16,959,159 generated).
Figures from TLC 2.18; before, kipcheck stopped with "x' was used before it was assigned" or
counted each call as one guard."""
from __future__ import annotations

import pytest

from checker.api import check

CASES = [
    # the LET operator assigns the primed variable
    ("Next == LET inc(n) == x' = x + n IN x < 3 /\\ inc(1)", "ok", 4, 4),
    # an \E inside it enumerates: each witness is a way through
    ("Next == /\\ x < 1\n"
     "        /\\ LET E(k) == \\E j \\in {1, 2} : k = k IN \\E i \\in {1, 2} : E(i)\n"
     "        /\\ x' = x + 1", "ok", 2, 5),
]


@pytest.mark.parametrize("next_, verdict, distinct, generated", CASES)
def test_a_let_operator_is_expanded_in_an_action(tmp_path, next_, verdict, distinct, generated):
    (tmp_path / "L.tla").write_text(
        f"---- MODULE L ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = 0\n{next_}\n====\n")
    (tmp_path / "L.cfg").write_text("INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n")
    o = check(tmp_path / "L.tla", tmp_path / "L.cfg")
    assert (o.verdict, o.distinct_states, o.states_generated) == (verdict, distinct, generated)


def test_let_operators_that_guard_and_assign(tmp_path):
    """PaxosCommit's Decide in small: a LET operator with an \\E called under \\A (a guard)
    and under \\E (every witness counts), and one that assigns two variables."""
    (tmp_path / "M.tla").write_text("""---- MODULE M ----
EXTENDS Naturals
VARIABLE x, y
Init == x = 0 /\\ y = 0
Next == LET Decided(k) == \\E b \\in {0, 1}, c \\in {1, 2} : b < c + k
            Set(v) == /\\ x' = v
                      /\\ y' = y + 1
        IN /\\ y < 2
           /\\ \\/ /\\ \\A k \\in {1} : Decided(k)
                 /\\ Set(1)
              \\/ /\\ \\E k \\in {1, 2} : Decided(k)
                 /\\ Set(2)
====
""")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n")
    o = check(tmp_path / "M.tla", tmp_path / "M.cfg")
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 5, 37)


def test_an_operator_argument_is_expanded_in_an_action(tmp_path):
    """A LAMBDA or an operator's name passed as an argument, applied in an action: evaluated
    in place, assigning through its parameters (TLC 2.18: 13 distinct, 37 generated; before,
    kipcheck stopped with "x' was used before it was assigned")."""
    (tmp_path / "D.tla").write_text("""---- MODULE D ----
EXTENDS Naturals, Sequences
VARIABLE x, n
Do(A(_)) == A(0)
Two(A(_, _), v) == A(v, x')
Put(v, new) == new = <<v>>
Init == x = <<0>> /\\ n = 0
Next == /\\ n < 3
        /\\ n' = n + 1
        /\\ \\/ x' = <<1>>
           \\/ Do(LAMBDA v : x' = <<TRUE>>)
           \\/ Two(Put, 2)
           \\/ Two(LAMBDA a, b : b = <<a, a>>, 3)
====
""")
    (tmp_path / "D.cfg").write_text("INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n")
    o = check(tmp_path / "D.tla", tmp_path / "D.cfg")
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 13, 37)


def test_an_instance_operator_constant_given_a_lambda_is_expanded(tmp_path):
    """INSTANCE Inner WITH Op <- LAMBDA old, new : new = ... (TLC 2.18: 7 distinct, 11
    generated)."""
    (tmp_path / "Inner.tla").write_text(
        "---- MODULE Inner ----\nCONSTANT Op(_, _)\nVARIABLE y\nStep == Op(y, y')\n====\n")
    (tmp_path / "L.tla").write_text("""---- MODULE L ----
EXTENDS Naturals, Sequences
VARIABLE x, n
I == INSTANCE Inner WITH y <- x, Op <- LAMBDA old, new : new = <<TRUE>>
Init == x = <<0>> /\\ n = 0
Next == n < 3 /\\ n' = n + 1 /\\ (x' = <<1>> \\/ I!Step)
====
""")
    (tmp_path / "L.cfg").write_text("INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n")
    o = check(tmp_path / "L.tla", tmp_path / "L.cfg")
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 7, 11)


def test_a_let_definition_reading_a_primed_variable_is_evaluated_where_it_is_used(tmp_path):
    """TLC 2.18 evaluates a LET definition where it is used: `LET y == x' IN x' = 1 /\\ y = 1`
    has 2 distinct states, and `LET y == x' IN y = 1 /\\ x' = 1` too (y = 1 assigns x'); the
    nested `LET w == y + 1` 4. kipcheck computed y at the LET, before x' had a value (75)."""
    from checker.api import check

    cases = [("LET y == x' IN x' = 1 /\\ y = 1", 2),
             ("LET y == x' IN y = 1 /\\ x' = 1", 2),
             ("LET y == x' IN LET w == y + 1 IN x' = (x + 1) % 4 /\\ w > 0", 4)]
    for nxt, distinct in cases:
        (tmp_path / "L.tla").write_text("---- MODULE L ----\nEXTENDS Naturals\nVARIABLE x\n"
                                        f"Init == x = 0\nNext == {nxt}\n====\n")
        (tmp_path / "L.cfg").write_text("INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n")
        o = check(tmp_path / "L.tla")
        assert (o.verdict, o.distinct_states) == ("ok", distinct), nxt


def test_a_recursive_operator_that_assigns_is_expanded_while_its_arguments_are_constant(
        tmp_path):
    """TLC 2.18 evaluates `Step(1)` with `Step(n) == IF n = 0 THEN x' = x + 1 ELSE Step(n-1)`
    in place: 4 distinct states (x < 3 as the guard), and with a disjunction in the base case
    10 (deadlock checking off). kipcheck stopped: "The evaluation recursed too deeply"."""
    from checker.api import check

    cases = [("IF n = 0 THEN x' = x + 1 ELSE Step(n - 1)", "x < 3 /\\ Step(1)", 4),
             ("IF n = 0 THEN x' = x + 1 \\/ x' = x + 2 ELSE Step(n - 1)",
              "x < 8 /\\ Step(2)", 10)]
    for body, nxt, distinct in cases:
        (tmp_path / "R.tla").write_text(
            "---- MODULE R ----\nEXTENDS Naturals\nVARIABLE x\nRECURSIVE Step(_)\n"
            f"Step(n) == {body}\nInit == x = 0\nNext == {nxt}\n====\n")
        (tmp_path / "R.cfg").write_text("INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n")
        o = check(tmp_path / "R.tla")
        assert (o.verdict, o.distinct_states) == ("ok", distinct), body
