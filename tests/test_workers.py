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
    generated, event, claims, _ = w.expand()
    assert event is None
    (fps, keys), = claims
    committed = w.commit([w.decide(fps, keys, [len(fps)], True)])
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


def check_text(tmp_path, body: str, cfg: str, workers: int):
    from checker.api import check

    (tmp_path / "M.tla").write_text(f"---- MODULE M ----\n{body}\n====\n")
    (tmp_path / "M.cfg").write_text(cfg)
    return check(tmp_path / "M.tla", tmp_path / "M.cfg", workers=workers)


CDOT = ("EXTENDS Naturals\nVARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
        "A == x < 3 /\\ x' \\in {x + 1, x + 2} /\\ y' = y\n"
        "B == x = 2 /\\ x' = x + 10 /\\ y' = y\nC == y' = y + 1 /\\ x' = x\n")


def test_workers_count_the_states_action_composition_passes_through(tmp_path):
    """A \\cdot B's intermediate states count as generated (as TLC 2.20 counts them), and a
    state whose composition passed through some is no deadlock, in every backend."""
    body = CDOT + ("Next == (A \\cdot B) \\/ (x < 3 /\\ x' = x + 1 /\\ y' = y)"
                   " \\/ (A \\cdot B \\cdot C)")
    figures = []
    for workers in (1, 2):
        o = check_text(tmp_path, body, "INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n", workers)
        figures.append((o.verdict, o.distinct_states, o.states_generated, o.depth))
    assert figures == [("ok", 6, 16, 4)] * 2
    stuck = "EXTENDS Naturals\nVARIABLE x\nInit == x = 0\nA == x' = x + 1\nB == x > 5 /\\ x' = x\n"
    for workers in (1, 2):
        o = check_text(tmp_path, stuck + "Next == A \\cdot B", "INIT Init\nNEXT Next\n", workers)
        assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 1, 2)


def test_tlcget_of_the_search_counts_is_refused_with_workers_but_level_and_registers_work(
        tmp_path):
    body = ("EXTENDS Naturals, TLC\nVARIABLE x\nInit == x = 0 /\\ TLCSet(1, 5)\n"
            "Next == x < 3 /\\ x' = x + 1 /\\ TLCGet(1) = 5 /\\ TLCGet(\"level\") = x + 1\n"
            "    /\\ (x = 2 => TLCGet(\"distinct\") > 0)")
    cfg = "INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n"
    one = check_text(tmp_path, body, cfg, 1)
    assert (one.verdict, one.distinct_states) == ("ok", 4)
    two = check_text(tmp_path, body, cfg, 2)
    assert two.verdict == "error" and two.trace_length == 3
    assert two.message.startswith('TLCGet("distinct") is not supported during a search with '
                                  '--workers: its value would depend on how the workers '
                                  'interleave; check this model with --workers 1')
    assert two.span is not None and two.span.line == 6
    inv = check_text(tmp_path, body.replace("/\\ (x = 2 => TLCGet(\"distinct\") > 0)", "")
                     + "\nInv == TLCGet(\"queue\") >= 0", cfg + "INVARIANT Inv\n", 2)
    assert inv.verdict == "error" and inv.trace_length == 1
    assert inv.message.startswith('TLCGet("queue") is not supported during a search')


def test_an_owner_links_each_new_state_to_its_first_claim_and_evens_out_the_keepers(tmp_path):
    """Both workers reached the same four new states, worker 0 first: worker 0 records how
    each was reached (the one-process search's parent), and two of them are kept (and
    expanded next) by worker 1, with the least position as their rank; a state seen before
    is neither linked nor kept."""
    w = worker(tmp_path)
    w.n = 2
    w.table.add(99)
    fps = np.array([11, 12, 13, 14, 99, 14, 13, 12, 11, 99], dtype=np.uint64)
    keys = np.array([0, 1, 2, 3, 4, 10, 11, 12, 13, 14], dtype=np.int64)
    link, keep, positions = w.decide(fps, keys, [5, 5], False)
    assert link.tolist() == [True] * 4 + [False] * 6
    assert keep.tolist() == link.tolist() and positions.tolist() == [0, 1, 2, 3]
    w.table = type(w.table)()
    w.table.add(99)
    link, keep, positions = w.decide(fps, keys, [5, 5], True)
    assert link.tolist() == [True] * 4 + [False] * 6
    assert keep[:5].sum() == 2 and keep[5:].sum() == 2 and not keep[4] and not keep[9]
    assert sorted(positions.tolist()) == [0, 1, 2, 3]
    kept = {int(f): int(p) for f, p in zip(fps[keep], positions, strict=True)}
    assert kept == {11: 0, 12: 1, 13: 2, 14: 3}


def test_keepers_move_only_what_evens_the_shares_out():
    from checker.backends.workers import _keepers

    both, only0, only1 = np.uint64(3), np.uint64(1), np.uint64(2)
    claimants = np.array([both, both, both, only0, only0, both, only1], dtype=np.uint64)
    first = np.array([0, 0, 0, 0, 0, 1, 1], dtype=np.int64)
    out = _keepers(claimants, first, 2)
    assert np.bincount(out, minlength=2).tolist() == [4, 3]
    assert out[3:].tolist() == [0, 0, 1, 1]  # a state only one worker reached stays there
    assert out[:3].tolist().count(1) == 1 and out[5] == 1


def test_a_violation_found_by_two_workers_has_the_one_process_counterexample(tmp_path):
    """A grid reached along many paths: most states are reached by both workers, and many are
    kept by the one that reached them second; the counterexample is still the one process's,
    state by state."""
    body = ("EXTENDS Naturals\nVARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
            "Next == \\/ x < 9 /\\ x' = x + 1 /\\ y' = y\n"
            "        \\/ y < 9 /\\ y' = y + 1 /\\ x' = x\n"
            "        \\/ x < 9 /\\ y < 9 /\\ x' = x + 1 /\\ y' = y + 1\n"
            "Inv == x + 2 * y # 20")
    cfg = "INIT Init\nNEXT Next\nINVARIANT Inv\n"
    one, two = (check_text(tmp_path, body, cfg, w) for w in (1, 2))
    assert (two.verdict, two.property) == ("invariant", "Inv")
    assert [(s.action, s.state) for s in two.trace] == [(s.action, s.state) for s in one.trace]
    whole = check_text(tmp_path, body.replace("# 20", "# 99"), cfg + "CHECK_DEADLOCK FALSE\n", 2)
    assert (whole.verdict, whole.distinct_states, whole.states_generated, whole.depth) == (
        "ok", 100, 262, 10)
