"""With SYMMETRY, a successor is stored as the first state of its class that was seen, but TLC
checks the actions of a temporal property on the successor itself. Here the refinement's step
u' = u fails on the third state, (b, a, 0), which is stored as (a, b, 0): TLC 2.18 reports the
violation (exit 13); checked on the stored state the step would look like stuttering."""
from __future__ import annotations

from checker.api import check

SPEC = """---- MODULE Sy ----
EXTENDS Naturals, TLC
CONSTANTS a, b
VARIABLES x, y, n
vars == <<x, y, n>>
Init == x = a /\\ y = b /\\ n = 0
Next == IF n = 0 THEN x' = y /\\ y' = x /\\ n' = 1 ELSE UNCHANGED <<x, y>> /\\ n' = 0
Spec == Init /\\ [][Next]_vars
A == INSTANCE Abs WITH u <- IF n = 1 THEN x ELSE {map}
Prop == A!ASpec
Sym == Permutations({{a, b}})
====
"""
ABS = ("---- MODULE Abs ----\nCONSTANTS a, b\nVARIABLE u\n"
       "ASpec == u \\in {a, b} /\\ [][u' = u]_u\n====\n")


def _check(tmp_path, mapping: str):
    (tmp_path / "Sy.tla").write_text(SPEC.replace("{map}", mapping).replace("{{", "{").replace(
        "}}", "}"))
    (tmp_path / "Abs.tla").write_text(ABS)
    (tmp_path / "Sy.cfg").write_text("SPECIFICATION Spec\nCONSTANTS a = a\n b = b\n"
                                     "SYMMETRY Sym\nPROPERTY Prop\n")
    return check(tmp_path / "Sy.tla")


def test_a_refinement_step_is_checked_on_the_successor_not_its_stored_class(tmp_path):
    out = _check(tmp_path, "y")
    assert (out.verdict, out.exit_code) == ("property", 13)
    assert (out.distinct_states, out.states_generated) == (2, 3)


def test_and_holds_where_it_holds_on_the_successors(tmp_path):
    out = _check(tmp_path, "IF x = a THEN y ELSE x")  # u: b, b, b (TLC: no error)
    assert out.verdict == "ok", out.message
