"""The search makes no cyclic garbage of its own, and collects young cycles only as often as
it finds some (engine/explore.py's YoungCollector)."""
from __future__ import annotations

import gc

from checker.engine import explore
from checker.frontend import load_spec
from checker.semantics import model as model_builder

# An \A in an action whose body can branch compiles to a generator that calls itself.
SPEC = """\
---- MODULE M ----
EXTENDS Naturals
CONSTANT P
VARIABLES c, ok
Init == c = [p \\in P |-> 0] /\\ ok = TRUE
Tick == /\\ \\A p \\in P : c[p] < 3 \\/ c[p] = 0
        /\\ c' = [p \\in P |-> c[p] + 1]
        /\\ UNCHANGED ok
Next == Tick
====
"""


def test_expanding_a_state_leaves_no_reference_cycles(tmp_path):
    (tmp_path / "M.tla").write_text(SPEC)
    (tmp_path / "M.cfg").write_text("CONSTANT P = {p1, p2}\nINIT Init\nNEXT Next\n")
    model = model_builder.build(load_spec(str(tmp_path / "M.tla"), str(tmp_path / "M.cfg"), ()),
                                None, False).model
    (init,) = model.init()
    gc.collect()
    gc.disable()
    try:
        out: list = []
        for _ in range(50):
            model.expand(init, out.append)
        found = gc.collect()
    finally:
        gc.enable()
    # Both disjuncts hold for each p: 4 ways through, generated as TLC counts them.
    assert len([x for x in out if type(x) is not int]) == 200
    assert found == 0


def test_collections_back_off_while_they_find_nothing(monkeypatch):
    found = [0, 0, 5, 0]
    calls = []
    monkeypatch.setattr(explore.gc, "collect", lambda gen: calls.append(gen) or found.pop(0))
    c = explore.YoungCollector()
    first = c.FIRST_GAP
    for expanded in range(0, 8 * first + 1, 1024):
        c.tick(expanded)
    # At first, then 2 and 4 gaps later (nothing found), then back to one gap (garbage found).
    assert calls == [1, 1, 1, 1]
    assert c.gap == 2 * first
