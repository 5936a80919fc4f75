"""The TLA+ that real specs use: how actions are enumerated, membership in sets too large to
list, recursive LET operators, action composition, and the grammar's precedence. Every expected
figure is what TLC 2.18 printed for the same spec.
"""
from __future__ import annotations

import pytest

from checker.api import check


def _model(tmp_path, body: str, cfg: str = "INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n",
           extends: str = "Naturals"):
    (tmp_path / "M.tla").write_text(
        f"---- MODULE M ----\nEXTENDS {extends}\n{body}\n====\n")
    (tmp_path / "M.cfg").write_text(cfg)
    return check(tmp_path / "M.tla")


@pytest.mark.parametrize("action, distinct, generated", [
    # Once every variable is assigned, the conjuncts left are Booleans: no branching.
    ("x' = x + 1 /\\ (TRUE \\/ TRUE) /\\ y' = y", 3, 5),
    ("x' = x + 1 /\\ y' = y /\\ (x' = 1 \\/ x' >= 1)", 3, 3),
    ("x' = x + 1 /\\ y' = y /\\ A /\\ (\\E i \\in {1, 2} : TRUE)", 3, 3),
    ("x' = x + 1 /\\ UNCHANGED y /\\ (IF x = 0 THEN TRUE \\/ TRUE ELSE FALSE)", 2, 2),
    ("(TRUE \\/ TRUE) /\\ x' = x + 1 /\\ UNCHANGED y", 3, 5),
    ("x' = x + 1 /\\ UNCHANGED y /\\ (TRUE => (TRUE \\/ TRUE))", 3, 3),
    ("x' = x + 1 /\\ UNCHANGED y /\\ [i \\in {1} |-> TRUE \\/ TRUE][1]", 3, 3),
    ("x' = x + 1 /\\ UNCHANGED y /\\ (\\A i \\in {1, 2} : TRUE \\/ TRUE)", 3, 3),
    ("UNCHANGED <<y>> /\\ x' = x + 1 /\\ UNCHANGED y /\\ (TRUE \\/ TRUE)", 3, 3),
    ("x' = x + 1 /\\ UNCHANGED y /\\ CASE x = 0 -> (TRUE \\/ TRUE) [] OTHER -> TRUE", 3, 3),
    ("x' = x + 1 /\\ UNCHANGED y /\\ LET B == TRUE \\/ TRUE IN B", 3, 3),
])
def test_an_action_stops_branching_once_every_variable_is_assigned(tmp_path, action, distinct,
                                                                    generated):
    out = _model(tmp_path, "VARIABLES x, y\nInit == x = 0 /\\ y = 0\nA == y = y \\/ y = y\n"
                           f"Next == x < 2 /\\ {action}")
    assert (out.verdict, out.distinct_states, out.states_generated) == ("ok", distinct,
                                                                        generated)


def test_a_disjunction_after_the_last_assignment_is_one_successor(tmp_path):
    out = _model(tmp_path, "VARIABLE x\nInit == x = 0\n"
                           "Next == x < 2 /\\ x' = x + 1 /\\ (TRUE \\/ TRUE)")
    assert (out.distinct_states, out.states_generated, out.depth) == (3, 3, 3)
