"""Generated models aimed at kipcheck's own ways of computing (tests/specgen_opt.py): the
search with whole states and the fingerprint store give TLC's verdict and the same figures and
counterexample; two worker processes the same verdict and counterexample (and figures, where
the model holds). bench/fuzz_tlc.py --family opt compares many more seeds with TLC (of 360,
none differed but by TLC's generic exit 255 for an error in an action)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from specgen_opt import generate_opt  # noqa: E402

from checker.api import check  # noqa: E402

# TLC 2.18 on these seeds (bench/fuzz_tlc.py --family opt --tlc): the verdict, and the distinct
# states of a model that holds.
SEEDS = {0: ("invariant", None), 1: ("deadlock", None), 2: ("ok", 10), 3: ("ok", 12),
         5: ("ok", 54), 8: ("invariant", None), 13: ("property", None), 14: ("error", None),
         19: ("ok", 45)}


def _outcome(o, counts: bool = True) -> tuple:
    return (o.verdict, o.property, len(o.trace), o.exit_code, [s.state for s in o.trace],
            (o.distinct_states, o.states_generated) if counts else None)


@pytest.mark.parametrize("seed", list(SEEDS))
def test_every_store_and_backend_agrees_on_a_generated_model(tmp_path, seed):
    spec, cfg = generate_opt(seed).write(tmp_path)
    one = check(spec, cfg, exact_states=True)
    verdict, distinct = SEEDS[seed]
    assert one.verdict == verdict
    if distinct is not None:
        assert one.distinct_states == distinct
    assert _outcome(check(spec, cfg)) == _outcome(one)
    # two workers stop at a violation with other figures, but with the same counterexample
    whole = verdict == "ok"
    assert _outcome(check(spec, cfg, workers=2), whole) == _outcome(one, whole)
