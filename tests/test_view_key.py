"""A VIEW that is a tuple of variables is keyed as the state over those variables (not as a
fresh tuple fingerprinted whole): the figures stay TLC's. TLC 2.18 (`-workers 1`) on this
spec: with Inv, "Invariant Inv is violated", 26 generated, 12 distinct, 1 left, depth 6, a
trace of 6 states; without it, 30 generated, 12 distinct, depth 6."""
from __future__ import annotations

import pytest

from checker.api import check
from checker.frontend import load_spec
from checker.semantics.model import build

SPEC = """---- MODULE V ----
EXTENDS Naturals
VARIABLES x, y, z
Init == x = 0 /\\ y = 0 /\\ z = {}
Next == \\/ x < 3 /\\ x' = x + 1 /\\ UNCHANGED <<y, z>>
        \\/ y < 2 /\\ y' = y + 1 /\\ UNCHANGED <<x, z>>
        \\/ z = {} /\\ z' = {x} /\\ UNCHANGED <<x, y>>
Pair == <<y, x, y>>
View == Pair
Sum == x + y
Inv == x + y < 5
====
"""


def _write(tmp_path, view: str, inv: bool):
    (tmp_path / "V.tla").write_text(SPEC)
    (tmp_path / "V.cfg").write_text(f"INIT Init\nNEXT Next\nVIEW {view}\n"
                                    + ("INVARIANT Inv\n" if inv else ""))
    return tmp_path / "V.tla", tmp_path / "V.cfg"


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("inv, figures", [
    (True, ("invariant", 26, 12, 6, 6)), (False, ("ok", 30, 12, 6, None))])
def test_tlc_figures(tmp_path, inv, figures, workers):
    spec, _ = _write(tmp_path, "View", inv)
    o = check(spec, workers=workers)
    got = (o.verdict, o.states_generated, o.distinct_states, o.depth,
           len(o.trace) if o.trace else None)
    if workers == 1:
        assert got == figures
    else:
        assert (got[0], got[2], got[4]) == (figures[0], figures[2], figures[4])


@pytest.mark.parametrize("view, projection", [
    ("View", (0, 1)), ("Pair", (0, 1)), ("Sum", None)])
def test_which_views_are_projections(tmp_path, view, projection):
    spec, cfg = _write(tmp_path, view, False)
    model = build(load_spec(spec, cfg)).model
    assert getattr(model.fingerprint, "projection", None) == projection


def test_liveness_under_a_view_reads_each_successor_itself(tmp_path):
    """TLC 2.18: no error, 2 distinct states. B from (1, 0) reaches (0, 1), stored as (0, 0)
    (the same view x = 0); <>(t = 1) holds there. kipcheck evaluated t = 1 on the stored state
    and reported a lasso that no behaviour has."""
    (tmp_path / "V.tla").write_text(
        "---- MODULE V ----\nEXTENDS Naturals\nVARIABLE x, t\nvars == <<x, t>>\nInit == x = 0 /\\ t = 0\n"
        "A == x' = 1 - x /\\ t' = t\nB == t = 0 /\\ t' = 1 /\\ x' = 1 - x\nNext == A \\/ B\n"
        "Spec == Init /\\ [][Next]_vars /\\ WF_vars(B)\nP == <>(t = 1)\nV == x\n====\n")
    (tmp_path / "V.cfg").write_text("SPECIFICATION Spec\nPROPERTY P\nVIEW V\n")
    o = check(tmp_path / "V.tla")
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 2, 5), o.message
