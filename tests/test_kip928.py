"""The KIP-928 model: every variant is caught with the property, counts and trace length TLC
reports (invariants/EXPECTED.md), the KIP's behaviour holds, and (once kipcheck checks liveness)
today's behaviour never frees a deleted topic's space on a full dir.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from checker.api import check

ROOT = Path(__file__).resolve().parent.parent
PROPS = ROOT / "invariants" / "KIP928Properties.tla"
LIB = (str(ROOT / "spec"),)
NO_LIVENESS = importlib.util.find_spec("checker.engine.liveness") is None


def run(cfg: str):
    return check(PROPS, ROOT / "invariants" / f"{cfg}.cfg", lib=LIB)


# cfg -> (property, distinct, generated, trace length), as TLC 2.18 reports them.
VARIANTS = {
    "KIP928_bug_today_full_goes_offline": ("SaturatedIsNotOffline", 5, 5, 4),
    "KIP928_bug_append_when_saturated": ("NoAppendToSaturatedDir", 5, 5, 4),
    "KIP928_bug_no_reserved_file": ("RetentionRunsOnSaturatedDirs", 14, 16, 4),
    "KIP928_bug_keep_saturated_leader": ("LeaderOffImpairedDirs", 6, 6, 4),
}


@pytest.mark.parametrize("cfg", sorted(VARIANTS))
def test_each_variant_violates_its_property(cfg):
    prop, distinct, generated, trace = VARIANTS[cfg]
    o = run(cfg)
    assert (o.verdict, o.property, o.exit_code) == ("invariant", prop, 12)
    assert (o.distinct_states, o.states_generated) == (distinct, generated)
    assert o.trace_length == trace


@pytest.mark.parametrize("cfg,distinct,generated,depth", [
    ("KIP928_kip_small", 701, 1545, 13),
    ("KIP928_kip_small_restart", 11787, 36967, 22),
])
def test_the_kip_holds_every_invariant(cfg, distinct, generated, depth):
    o = run(cfg)
    assert (o.verdict, o.exit_code) == ("ok", 0)
    assert (o.distinct_states, o.states_generated, o.depth) == (distinct, generated, depth)


# Liveness (LiveSpec): cfg -> (verdict, property, distinct states), as TLC 2.18 reports them.
# Lasso lengths are not pinned: TLC's are not the shortest.
LIVENESS = {
    "KIP928_kip_live": ("ok", None, 443),
    "KIP928_bug_today_delete_live": ("property", "DeleteFreesSaturatedDir", 41),
    "KIP928_bug_keep_saturated_leader_live": ("property", "SaturatedLeaderMoves", 7),
}


@pytest.mark.skipif(NO_LIVENESS, reason="kipcheck does not check liveness yet")
@pytest.mark.parametrize("cfg", sorted(LIVENESS))
def test_liveness(cfg):
    verdict, prop, distinct = LIVENESS[cfg]
    o = run(cfg)
    assert (o.verdict, o.property) == (verdict, prop)
    assert o.exit_code == (0 if verdict == "ok" else 13)
    assert o.distinct_states == distinct
