"""A prime applies to the expression as written, through definitions: a LET definition primed
where it is used (LET v == x IN v'), an operator's parameter primed in its body (F(a) == a'
makes F(x) mean x'), a LET inside such an operator. kipcheck primed the value computed before
the prime and reported P1-P5 violated; TLC 2.18: P1-P5 and P7 hold, P6 is violated after 2
states (2 generated)."""
from __future__ import annotations

import pytest

from checker.api import check

LQ = """\
---- MODULE LQ ----
EXTENDS Naturals
VARIABLE x
Init == x = 0
Next == x < 3 /\\ x' = x + 1
F(a) == a'
G(a) == (a + 0)'
H(a) == LET w == a + 1 IN w'
P1 == [][LET v == x IN v' = x']_x
P2 == [][F(x) = x']_x
P3 == [][G(x) = x']_x
P4 == [][H(x) = x' + 1]_x
P5 == [][LET v == x + 1 IN LET u == v * 2 IN u' = (x' + 1) * 2]_x
P6 == [][LET v == x IN v' = v]_x
P7 == [][H(x) = x + 2]_x
====
"""


@pytest.mark.parametrize("prop, verdict, generated", [
    ("P1", "ok", 4), ("P2", "ok", 4), ("P3", "ok", 4), ("P4", "ok", 4), ("P5", "ok", 4),
    ("P6", "property", 2), ("P7", "ok", 4)])
def test_a_prime_reaches_through_definitions(tmp_path, prop, verdict, generated):
    (tmp_path / "LQ.tla").write_text(LQ)
    (tmp_path / "LQ.cfg").write_text(f"INIT Init\nNEXT Next\nPROPERTY {prop}\n"
                                      "CHECK_DEADLOCK FALSE\n")
    o = check(tmp_path / "LQ.tla")
    assert (o.verdict, o.states_generated) == (verdict, generated)
    if verdict != "ok":
        assert o.property == prop
