"""The KIP-516 model: every variant is caught with the property, counts and trace length TLC
reports (invariants/EXPECTED.md), the KIP's own "stale reads" story is the counterexample without
topic ids, and (once kipcheck checks liveness) the liveness variants are caught.
"""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from checker.api import check
from checker.cli import main

ROOT = Path(__file__).resolve().parent.parent
PROPS = ROOT / "invariants" / "KIP516Properties.tla"
LIB = (str(ROOT / "spec"),)
NO_LIVENESS = importlib.util.find_spec("checker.engine.liveness") is None


def run(cfg: str):
    return check(PROPS, ROOT / "invariants" / f"{cfg}.cfg", lib=LIB)


# cfg -> (property, distinct, generated, trace length), as TLC 2.18 reports them.
VARIANTS = {
    "KIP516_bug_no_topic_ids": ("NoStaleTopicIdReads", 238, 508, 9),
    "KIP516_bug_ignore_full_type": ("NoStrayAfterFullLeaderAndIsr", 641, 1021, 7),
    "KIP516_bug_keep_stray_log": ("NoStrayAfterFullLeaderAndIsr", 1161, 2016, 8),
}


@pytest.mark.parametrize("cfg", sorted(VARIANTS))
def test_each_variant_violates_its_property(cfg):
    prop, distinct, generated, trace = VARIANTS[cfg]
    o = run(cfg)
    assert (o.verdict, o.property, o.exit_code) == ("invariant", prop, 12)
    assert (o.distinct_states, o.states_generated) == (distinct, generated)
    assert o.trace_length == trace


def test_without_topic_ids_a_follower_fetches_the_recreated_topic_at_the_same_epoch():
    # The KIP's "Stale reads": b2 applies the LeaderAndIsr of id0 after b1 already leads id1;
    # both are at leader epoch 0, so only the topic id could have told them apart.
    result = CliRunner().invoke(main, ["check", str(PROPS), "--lib", LIB[0], "--config",
                                       str(ROOT / "invariants" / "KIP516_bug_no_topic_ids.cfg")])
    assert result.exit_code == 12
    actions = re.findall(r"^State \d+: <(.*)>$", result.output, re.M)
    assert actions == ["Initial predicate", "CreateTopic(A, id0, {b1, b2}, b1)", "DeleteTopic(A)",
                       "CreateTopic(A, id1, {b1, b2}, b1)", "HandleRequest(b1)",
                       "HandleRequest(b1)", "HandleRequest(b1)", "HandleRequest(b2)",
                       "ReplicaFetch(b2, A)"]
    last = result.output[result.output.rindex("State 9:"):]
    assert "/\\ logs = (b1 :> (A :> id1) @@ b2 :> (A :> id0))" in last
    assert ("/\\ image = (b1 :> (A :> [id |-> id1, leader |-> b1, epoch |-> 0]) @@ "
            "b2 :> (A :> [id |-> id0, leader |-> b1, epoch |-> 0]))") in last
    assert "*/\\ staleReads = TRUE" in last


@pytest.mark.parametrize("cfg,distinct,generated,depth", [
    ("KIP516_small", 12172, 43113, 16),
    ("KIP516_small_rf1", 3280, 8861, 13),
])
def test_the_kip_holds_every_invariant(cfg, distinct, generated, depth):
    o = run(cfg)
    assert (o.verdict, o.exit_code) == ("ok", 0)
    assert (o.distinct_states, o.states_generated, o.depth) == (distinct, generated, depth)


# Liveness (LiveSpec): cfg -> (verdict, property, distinct states), as TLC 2.18 reports them.
# Lasso lengths are not pinned: TLC's are not the shortest.
LIVENESS = {
    "KIP516_live": ("ok", None, 3464),
    "KIP516_bug_keep_stray_log_live": ("property", "RecreatedTopicGetsReplicas", 3664),
    "KIP516_bug_wait_for_all_replicas_live": ("property", "DeletionCompletes", 1172),
}


@pytest.mark.skipif(NO_LIVENESS, reason="kipcheck does not check liveness yet")
@pytest.mark.parametrize("cfg", sorted(LIVENESS))
def test_liveness(cfg):
    verdict, prop, distinct = LIVENESS[cfg]
    o = run(cfg)
    assert (o.verdict, o.property) == (verdict, prop)
    assert o.exit_code == (0 if verdict == "ok" else 13)
    assert o.distinct_states == distinct
