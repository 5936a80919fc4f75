"""The workers backend's own work per level: what a worker sends to the fingerprints' owners
and what it evaluates again on the states it keeps. The parity suite (test_backends.py) holds
the figures; these tests hold the work that the figures do not show."""
from __future__ import annotations

import numpy as np

from checker.backends.workers import _Worker
from checker.engine.fingerprints import state_fingerprint
from checker.frontend import load_spec
from checker.semantics import model as model_builder

SPEC = """---- MODULE M ----
EXTENDS Naturals
VARIABLES x, y
Init == x = 0 /\\ y = 0
Stay == UNCHANGED <<x, y>>
Up == x < 3 /\\ x' = x + 1 /\\ UNCHANGED y
Next == Stay \\/ Up
Inv == x <= 3 /\\ y = 0
====
"""


def worker(tmp_path, text=SPEC) -> _Worker:
    (tmp_path / "M.tla").write_text(text)
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
    loaded = load_spec(tmp_path / "M.tla", tmp_path / "M.cfg")
    return _Worker(model_builder.build(loaded, {}, None).model, 0, 1)


def level(w: _Worker):
    """Expand, decide and commit one level in one worker: (claims, what commit returned)."""
    generated, event, claims = w.expand()
    assert event is None
    (fps, keys), = claims
    committed = w.commit([w.decide(fps, keys)])
    w.settle(np.arange(len(committed[0])), [])
    return generated, [int(f) for f in fps], committed


def test_a_step_back_to_the_state_expanded_is_counted_but_never_claimed(tmp_path):
    w = worker(tmp_path)
    assert w.init() == 1
    w.settle(np.arange(1), [])
    generated, claims, _ = level(w)
    assert generated == 2  # Stay and Up
    assert claims == [state_fingerprint((1, 0))]  # (0, 0) is the state expanded


def test_a_kept_state_is_checked_for_what_it_changed_only(tmp_path):
    w = worker(tmp_path)
    seen = []

    def step_inv(state, parent):
        seen.append((state, parent))
        return True

    w.model.step_invariants = [("Inv", step_inv)]
    w.init()
    w.settle(np.arange(1), [])
    level(w)
    level(w)
    assert seen == [((1, 0), (0, 0)), ((2, 0), (1, 0))]


def test_a_worker_forgets_its_candidates_past_its_bound_and_the_owner_dedupes(tmp_path):
    """With at most 4 states in memory (chunks of 2), the set of candidates already claimed
    starts afresh every few states: five parents of one successor send it up to five times,
    and one state is kept."""
    text = SPEC.replace("Next == Stay \\/ Up",
                        "Next == y' = 0 /\\ IF x = 0 THEN x' \\in 1..5 ELSE x' = 9")
    text = text.replace("Inv == x <= 3 /\\ y = 0", "Inv == y = 0")
    (tmp_path / "M.tla").write_text(text)
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
    loaded = load_spec(tmp_path / "M.tla", tmp_path / "M.cfg")
    w = _Worker(model_builder.build(loaded, {}, None).model, 0, 1, limit=4,
                spill=str(tmp_path))
    w.init()
    w.settle(np.arange(1), [])
    assert len(level(w)[2][0]) == 5
    generated, claims, (kept, event, _) = level(w)
    assert generated == 5 and event is None
    assert len(claims) > 1 and set(claims) == {state_fingerprint((9, 0))}
    assert len(kept) == 1
    w.close()
