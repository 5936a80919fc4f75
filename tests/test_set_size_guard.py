"""TLC's bound on the sets a set map or filter builds (-maxSetSize, 1,000,000): a bigger one is
an evaluation error (exit 75) at once, not a run that never ends; `--max-set-size` moves it.
Verdicts and counts below are TLC 2.18's on the same specs."""
from __future__ import annotations

import subprocess
import sys

import pytest

from checker.api import check

MESSAGE = "Attempted to construct a set with too many elements (>{}).".strip()


def spec(tmp_path, init: str, nxt: str = "UNCHANGED x"):
    (tmp_path / "M.tla").write_text(
        "---- MODULE M ----\nEXTENDS Naturals, FiniteSets\nVARIABLE x\n"
        f"Init == {init}\nNext == {nxt}\n====\n")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\n")
    return tmp_path / "M.tla", tmp_path / "M.cfg"


@pytest.mark.parametrize("init", [
    "x = {1 : y \\in 1..1000001}",  # a map counts its bindings, duplicates included
    "x = {f[1] : f \\in [1..20 -> 1..20]}",  # 20^20 bindings: stopped before listing any
    "x = {<<a, b>> : a \\in 1..1001, b \\in 1..1000}",
    "x = Cardinality({y \\in 1..1000001 : TRUE})",  # a filter counts what it keeps
])
def test_a_set_of_more_than_a_million_elements_is_tlcs_error(tmp_path, init):
    o = check(*spec(tmp_path, init))
    assert (o.verdict, o.message) == ("error", MESSAGE.format(1_000_000))
    assert (o.distinct_states, o.states_generated) == (0, 0)
    assert o.span is not None and o.span.line == 4


def test_a_filter_over_subset_counts_what_it_keeps(tmp_path):
    """Not the size of SUBSET S: 2^12 subsets, 2^11 of them kept (at the default bound the same
    case, SUBSET (1..21), takes minutes to enumerate)."""
    init = "x = Cardinality({s \\in SUBSET (1..12) : 1 \\in s})"
    assert check(*spec(tmp_path, init), max_set_size=2048).verdict == "ok"
    o = check(*spec(tmp_path, init), max_set_size=2047)
    assert (o.verdict, o.message) == ("error", MESSAGE.format(2047))
    assert (o.distinct_states, o.states_generated) == (0, 0)
    assert o.span is not None and o.span.line == 4


@pytest.mark.parametrize("init", ["x = {1 : y \\in 1..1000000}",
                                  "x = {y \\in 1..1000001 : y < 3}"])
def test_sets_within_the_bound_are_built(tmp_path, init):
    o = check(*spec(tmp_path, init))
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 1, 2)


def test_max_set_size_moves_the_bound_also_for_worker_processes(tmp_path):
    files = spec(tmp_path, "x = 0",
                 "x < 3 /\\ x' = x + Cardinality({y % 2 : y \\in 1..(9 + x)})")
    assert check(*files, max_set_size=11, deadlock=False).verdict == "ok"
    for workers in (1, 2):
        o = check(*files, max_set_size=10, workers=workers, deadlock=False)
        assert (o.verdict, o.message.split("\n")[0]) == ("error", MESSAGE.format(10))
        assert o.trace_length == 2  # x = 0, then x = 2, whose step maps 11 values


def test_the_cli_option_and_exit_code(tmp_path):
    tla, cfg = spec(tmp_path, "x = {y % 2 : y \\in 1..11}")
    run = [sys.executable, "-m", "checker.cli", "check", str(tla), "--config", str(cfg)]
    bad = subprocess.run(run + ["--max-set-size", "10"], capture_output=True, text=True)
    assert bad.returncode == 75
    assert MESSAGE.format(10) in bad.stdout
    assert "Traceback" not in bad.stdout + bad.stderr
    good = subprocess.run(run + ["--max-set-size", "11"], capture_output=True, text=True)
    assert good.returncode == 0, good.stdout + good.stderr
