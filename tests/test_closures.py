"""A closure made in one iteration of a loop and run after the loop moved on sees the values of
its own iteration (checker/semantics/closures.py). Before, the lazy set filter kept in each
successor of `\\E x \\in ...` tested the last x: states were lost (LF: 3 distinct instead of
TLC's 5) and a constant invariant came out FALSE. Figures from TLC 2.18."""
from __future__ import annotations

import pytest

from checker.api import check
from checker.semantics.closures import closure

_HEAD = "---- MODULE {name} ----\nEXTENDS Naturals\n"
CASES = {
    # a lazy filter (over SUBSET) in each successor, made in the loop over x
    "LF": ("VARIABLES y, n\nInit == y = {} /\\ n = 0\n"
           "Next == /\\ n < 2\n        /\\ n' = n + 1\n"
           "        /\\ \\E x \\in {n + 1, n + 2} : y' = {z \\in SUBSET {1, 2, 3} : x \\in z}\n"
           "Inv == \\A z \\in y : z # {}\n",
           "INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n", ("ok", 5, 7)),
    # ... through an operator argument, a LET value and a LET operator
    "LG": ("VARIABLES y, n\nAbove(P(_)) == {z \\in SUBSET {1, 2, 3} : P(z)}\n"
           "Init == y = {} /\\ n = 0\n"
           "Next == /\\ n < 2\n        /\\ n' = n + 1\n"
           "        /\\ \\E x \\in {n + 1, n + 2} :\n"
           "              \\/ y' = Above(LAMBDA z : x \\in z)\n"
           "              \\/ y' = LET m == x + 1 IN {z \\in SUBSET {1, 2, 3, 4} : m \\in z}\n"
           "              \\/ y' = LET F(k) == k + x\n"
           "                     IN {z \\in SUBSET {1, 2, 3, 4} : F(1) \\in z}\n",
           "INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n", ("ok", 9, 31)),
    # function values and a recursive set fold whose parts are lazy sets
    "LC": ("VARIABLE v\nRECURSIVE U(_)\n"
           "U(S) == IF S = {} THEN {} ELSE LET x == CHOOSE x \\in S : TRUE IN\n"
           "          {y \\in Nat : y > x} \\cup U(S \\ {x})\n"
           "Init == v = 0\nNext == UNCHANGED v\n"
           "F == [x \\in {1, 5} |-> {y \\in Nat : y > x}]\n"
           "Inv == /\\ v = 0 /\\ 3 \\in F[1] /\\ ~(3 \\in F[5])\n"
           "       /\\ 3 \\in U({5, 1}) /\\ ~(0 \\in U({5, 1}))\n",
           "INIT Init\nNEXT Next\nINVARIANT Inv\n", ("ok", 1, 2)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_closure_sees_the_iteration_it_was_made_in(tmp_path, name):
    body, cfg, (verdict, distinct, generated) = CASES[name]
    (tmp_path / f"{name}.tla").write_text(_HEAD.format(name=name) + body + "====\n")
    (tmp_path / f"{name}.cfg").write_text(cfg)
    o = check(tmp_path / f"{name}.tla")
    assert (o.verdict, o.distinct_states, o.states_generated) == (verdict, distinct, generated)


def test_closure_binds_the_outer_locals_it_reads_and_nothing_bound_inside():
    code = closure("v7_z", "member(v4_x, v7_z) and all(v9_w > _d0 for v9_w in v7_z)")
    assert code == ("lambda v7_z, _d0=_d0, v4_x=v4_x: member(v4_x, v7_z) and "
                    "all(v9_w > _d0 for v9_w in v7_z)")
    assert closure("", "v3_a + 1", exclude={"v3_a"}) == "lambda: v3_a + 1"
    assert closure("", "s[0]") == "lambda: s[0]"
