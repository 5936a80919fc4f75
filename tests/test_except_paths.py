"""EXCEPT with one and two keys compiles to unrolled helpers (except_at, except2): the same
values as the general path, a key outside the domain leaving the function unchanged. TLC 2.18:
every ASSUME holds, 81 distinct states, 217 generated."""
from __future__ import annotations

from checker.api import check, generated_code

E2 = """\
---- MODULE E2 ----
EXTENDS Naturals, Sequences
VARIABLE x
f == [a |-> [b |-> 1], d |-> <<1, 2>>]
ASSUME [f EXCEPT !.a.b = 2] = [a |-> [b |-> 2], d |-> <<1, 2>>]
ASSUME [f EXCEPT !.c.b = 2] = f
ASSUME [f EXCEPT !.a.c = 2] = f
ASSUME [f EXCEPT !.a.b = @ + 1].a.b = 2
ASSUME [f EXCEPT !.z = @ + 1] = f
ASSUME [f EXCEPT !.d[2] = 7].d = <<1, 7>>
ASSUME [f EXCEPT !.d[5] = 7] = f
ASSUME [f EXCEPT !.d[1] = @ * 10, !.a.b = 0] = [a |-> [b |-> 0], d |-> <<10, 2>>]
Inv == /\\ [x EXCEPT ![1][2] = 5][1][2] = 5
       /\\ [x EXCEPT ![3][1] = 5] = x /\\ [x EXCEPT ![1][9] = 5] = x
       /\\ [x EXCEPT ![2][1] = @ + 3][2][1] = x[2][1] + 3 /\\ [x EXCEPT ![2][7] = @ + 3] = x
       /\\ [x[1] EXCEPT ![2] = @ + 1][2] = x[1][2] + 1 /\\ [x[1] EXCEPT ![7] = @ + 1] = x[1]
Init == x = [i \\in 1..2 |-> [j \\in 1..2 |-> 0]]
Next == \\E i, j \\in 1..2 : x[i][j] < 2 /\\ x' = [x EXCEPT ![i][j] = @ + 1]
====
"""


def test_one_and_two_key_updates_agree_with_tlc(tmp_path):
    (tmp_path / "E2.tla").write_text(E2)
    (tmp_path / "E2.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n"
                                      "CHECK_DEADLOCK FALSE\n")
    o = check(tmp_path / "E2.tla")
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 81, 217)
    code = "".join(src for _, src in generated_code(tmp_path / "E2.tla"))
    assert "except2(" in code and "except_at(" in code
