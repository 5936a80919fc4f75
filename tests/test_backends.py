"""One parity suite for every backend and store: fingerprint mode against whole states, and
--workers 2 against one worker, on the small manifest models and the specs under tests/specs.

A complete search must give the same counts (distinct, generated, depth) everywhere; a violation
the same verdict, property and counterexample length (its counts may differ between processes,
whose order differs from TLC's). On the manifest models the other store and the workers are held
to the manifest's TLC figures, which test_manifest holds the default (fingerprints, one process)
to: running the default once more here would only double the suite's time. Covered: the small
manifest models of at most 3,000 distinct states (115 of 207) with whole states, those without
liveness of at most 1,200 (54, 42 of them violations) with two workers; every spec under
tests/specs in both, against the default run directly. `bench/run.py --modes exact,fp,w1,w2`
prints every mode's figures for the larger ones.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from checker import manifest
from checker.api import check

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "tests" / "specs"
SMALL = [e for e in manifest.load(ROOT / "invariants" / "manifest.json").entries
         if e.size == "small"]
# (spec, cfg) under tests/specs with a checkable configuration.
LOCAL_SPECS = [("ActionProp", "ActionProp"), ("Counter", "Counter"), ("Counter", "CounterC"),
               ("Errors", "Errors"), ("Records", "Records"), ("Records", "Records3"),
               ("Stop", "Stop"), ("Stop", "StopNoDeadlock"), ("Sym", "Sym"),
               ("Sym", "SymNone"), ("Sym", "SymView"), ("Vals", "Vals")]


def manifest_figures(entry) -> dict:
    """What TLC reports for `entry`, in figures()'s shape (counts only where they are TLC's
    whatever the order: a complete search, or a safety violation found in TLC's order)."""
    out = {"verdict": entry.verdict, "property": entry.property,
           "trace_length": entry.trace_length}
    if entry.verdict == "ok" or not entry.liveness:
        out.update(distinct=entry.distinct_states, generated=entry.states_generated,
                   depth=entry.depth)
    # a figure the manifest does not record (a liveness lasso's length) is not compared
    return {k: v for k, v in out.items() if v is not None or k in ("verdict", "property")}


def figures(o, complete_counts: bool = True) -> dict:
    out = {"verdict": o.verdict, "property": o.property,
           "trace_length": o.trace_length if o.verdict != "ok" else None}
    if o.verdict == "ok" or complete_counts:
        out.update(distinct=o.distinct_states, generated=o.states_generated, depth=o.depth)
    return out


def run_entry(entry, **kw):
    return check(entry.spec_path, entry.config_path, lib=entry.lib_paths, **kw)


def run_spec(spec, cfg, **kw):
    return check(SPECS / f"{spec}.tla", SPECS / f"{cfg}.cfg", **kw)


FP_MODELS = [e for e in SMALL if (e.distinct_states or 0) <= 3000]


@pytest.mark.parametrize("entry", FP_MODELS, ids=lambda e: e.name)
def test_whole_states_count_as_tlc_on_the_manifest_models(entry):
    want = manifest_figures(entry)
    exact = run_entry(entry, exact_states=True)
    assert {k: v for k, v in figures(exact).items() if k in want} == want


@pytest.mark.parametrize("spec,cfg", LOCAL_SPECS)
def test_fingerprints_count_as_whole_states_on_the_test_specs(spec, cfg):
    exact = run_spec(spec, cfg, exact_states=True)
    fp = run_spec(spec, cfg)
    assert figures(fp) == figures(exact)
    assert [s.state for s in fp.trace] == [s.state for s in exact.trace]


WORKER_MODELS = [e for e in SMALL if not e.liveness and (e.distinct_states or 0) <= 1200]


@pytest.mark.parametrize("entry", WORKER_MODELS, ids=lambda e: e.name)
def test_two_workers_count_as_tlc_on_the_manifest_models(entry):
    want = manifest_figures(entry)
    if entry.verdict != "ok":  # counts at a violation depend on the processes' order
        want = {k: want[k] for k in ("verdict", "property", "trace_length")}
    two = run_entry(entry, workers=2)
    assert {k: v for k, v in figures(two, complete_counts=False).items() if k in want} == want


@pytest.mark.parametrize("spec,cfg", LOCAL_SPECS)
def test_two_workers_count_as_one_on_the_test_specs(spec, cfg):
    one = run_spec(spec, cfg)
    two = run_spec(spec, cfg, workers=2)
    assert figures(two, complete_counts=False) == figures(one, complete_counts=False)
    assert two.message == one.message


def test_workers_fall_back_to_one_process_for_liveness():
    entry = next(e for e in SMALL if e.liveness)
    o = run_entry(entry, workers=2)
    assert o.verdict == entry.verdict
    assert any("--workers 2 ignored: liveness properties are checked by the local backend only"
               in w for w in o.warnings)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_interrupted_search_prints_the_statistics_so_far_and_exits_130(tmp_path, workers):
    import os
    import signal
    import subprocess
    import sys
    import time

    spec = tmp_path / "Big.tla"
    spec.write_text("---- MODULE Big ----\nEXTENDS Naturals\nVARIABLES x, y\n"
                    "Init == x = 0 /\\ y = 0\n"
                    "Next == \\/ x' = (x + 1) % 100000 /\\ y' = y\n"
                    "        \\/ y' = (y + 1) % 100000 /\\ x' = x\n====\n")
    (tmp_path / "Big.cfg").write_text("INIT Init\nNEXT Next\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "checker.cli", "check", str(spec),
                             "--workers", workers], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    time.sleep(6)
    stopped = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    assert time.monotonic() - stopped < 5
    assert proc.returncode == 130, err
    assert "Interrupted: The search was interrupted. The statistics so far:" in out
    assert " states generated, " in out and "Traceback" not in err


def test_the_fingerprint_table_keeps_every_key_through_regrowth_and_batches():
    import numpy as np

    from checker.engine.store import FingerprintTable

    rng = np.random.default_rng(7)
    keys = np.unique(rng.integers(1, 2**63, size=60_000, dtype=np.int64)).astype(np.uint64)
    table = FingerprintTable(capacity=64)
    singles = [int(k) for k in keys[:20_000]]
    assert all(table.add(k) for k in singles) and not any(table.add(k) for k in singles[:500])
    new = table.add_batch(np.concatenate([keys[10_000:], keys[10_000:10_100]]))
    assert new.sum() == len(keys) - 20_000 and not new[:10_000].any()
    assert len(table) == len(keys) and all(int(k) in table for k in keys[::97])
    assert 10.6 <= table.nbytes / len(table) <= 16.0  # the visited store's bytes per state


# Where an evaluation fails -> the expression that fails there. Each stops the search at x = 1.
FAILING = {
    "init": ("x = 0 /\\ Assert(FALSE, \"boom\")", "TRUE", "TRUE", "TRUE", "x < 3 /\\ x' = x + 1"),
    "inv": ("x = 0", 'Assert(x < 1, "boom")', "TRUE", "TRUE", "x < 3 /\\ x' = x + 1"),
    "inv-init": ("x = 0", 'Assert(FALSE, "boom")', "TRUE", "TRUE", "x < 3 /\\ x' = x + 1"),
    "next": ("x = 0", "TRUE", "TRUE", "TRUE", "x < 3 /\\ Assert(x < 1, \"boom\") /\\ x' = x + 1"),
    "con": ("x = 0", "TRUE", 'Assert(x < 1, "boom")', "TRUE", "x < 3 /\\ x' = x + 1"),
    "con-init": ("x = 0", "TRUE", 'Assert(FALSE, "boom")', "TRUE", "x < 3 /\\ x' = x + 1"),
    "prop": ("x = 0", "TRUE", "TRUE", "[][Assert(x' < 1, \"boom\")]_x", "x < 3 /\\ x' = x + 1"),
    "prop-init": ("x = 0", "TRUE", "TRUE", 'Assert(FALSE, "boom")', "x < 3 /\\ x' = x + 1"),
    "inv-error": ("x = 0", "x < 1 \\/ Head(<<>>) = 1", "TRUE", "TRUE", "x < 3 /\\ x' = x + 1"),
    "con-error": ("x = 0", "TRUE", "x < 1 \\/ Head(<<>>) = 1", "TRUE", "x < 3 /\\ x' = x + 1"),
    "prop-error": ("x = 0", "TRUE", "TRUE", "[][x' < 1 \\/ Head(<<>>) = 1]_x",
                   "x < 3 /\\ x' = x + 1"),
}


@pytest.mark.parametrize("where", list(FAILING))
def test_a_failing_evaluation_has_one_verdict_message_and_trace_in_every_backend(tmp_path,
                                                                                 where):
    """An Assert or an evaluation error in the initial states, an invariant, an action, a
    constraint or a property: the workers route it as the one process does (an Assert in an
    invariant, Init or a constraint on an initial state is an evaluation error, exit 75, as in
    TLC, 76 in an invariant on a later state; elsewhere exit 14)."""
    init, inv, con, prop, nxt = FAILING[where]
    (tmp_path / "M.tla").write_text(
        "---- MODULE M ----\nEXTENDS Naturals, Sequences, TLC\nVARIABLE x\n"
        f"Init == {init}\nNext == {nxt}\nInv == {inv}\nCon == {con}\nProp == {prop}\n====\n")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\nCONSTRAINT Con\n"
                                    "PROPERTY Prop\nCHECK_DEADLOCK FALSE\n")

    def outcome(workers):
        o = check(tmp_path / "M.tla", workers=workers)
        return {"verdict": o.verdict, "exit": o.exit_code, "property": o.property,
                "message": o.message, "span": o.span, "trace": [s.state for s in o.trace]}

    one = outcome(1)
    assert one["exit"] == (76 if where in ("inv", "inv-error") else
                           75 if where in ("init", "inv-init", "con-init") or "error" in where
                           else 14), one
    assert "boom" in one["message"] or "Head" in one["message"]
    assert outcome(2) == one
