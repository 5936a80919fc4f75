"""SYMMETRY's cache of a value's images is shared by every variable and found by value: a value
of one variable must not stand for a Python-equal value of another kind in another (1 and TRUE).
TLC 2.18 (`-workers 1`) on this spec: 25 states generated, 4 distinct states found."""
from __future__ import annotations

import pytest

from checker.api import check

SPEC = """---- MODULE SK ----
EXTENDS Naturals, TLC
CONSTANT P
VARIABLES x, y, who
Init == x = 1 /\\ y = FALSE /\\ who = CHOOSE q \\in P : TRUE
Next == \\/ x' = 1 - x /\\ UNCHANGED <<y, who>>
        \\/ y' = ~y /\\ UNCHANGED <<x, who>>
        \\/ \\E q \\in P : who' = q /\\ UNCHANGED <<x, y>>
        \\/ x' = (IF y THEN 1 ELSE 0) /\\ y' = (x = 0) /\\ UNCHANGED who
Sym == Permutations(P)
====
"""


@pytest.mark.parametrize("exact", [False, True], ids=["fingerprints", "exact-states"])
def test_an_int_and_a_boolean_in_two_variables_stay_apart(tmp_path, exact):
    (tmp_path / "SK.tla").write_text(SPEC)
    (tmp_path / "SK.cfg").write_text("CONSTANT P = {a, b, c}\nINIT Init\nNEXT Next\n"
                                     "SYMMETRY Sym\n")
    o = check(tmp_path / "SK.tla", exact_states=exact)
    assert (o.verdict, o.states_generated, o.distinct_states) == ("ok", 25, 4)
