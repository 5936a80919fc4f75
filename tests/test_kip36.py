"""The KIP-36 model: the ASSUMEs reproduce the KIP's worked assignment tables and the naive
placement's counterexample tells its story. Every configuration's verdict and TLC's figures are
checked by test_manifest.py.
"""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from checker.api import check
from checker.cli import main

ROOT = Path(__file__).resolve().parent.parent
PROPS = ROOT / "invariants" / "KIP36Properties.tla"
LIB = (str(ROOT / "spec"),)

def test_naive_placement_puts_both_replicas_in_one_rack():
    result = CliRunner().invoke(main, ["check", str(PROPS), "--lib", LIB[0], "--config",
                                       str(ROOT / "invariants" / "KIP36_bug_naive_placement.cfg")])
    assert result.exit_code == 12
    report = result.output
    assert "/\\ rack = (0 :> 1 @@ 1 :> 1 @@ 2 :> 2)" in report
    assert "*/\\ asg = <<<<0, 1>>>>" in report


def _with_assumption(tmp_path, assumption: str):
    """KIP36Properties plus one more ASSUME, run with the small configuration."""
    spec = tmp_path / "KIP36Extra.tla"
    spec.write_text("---- MODULE KIP36Extra ----\nEXTENDS KIP36Properties\n"
                    f"ASSUME {assumption}\n====\n")
    cfg = tmp_path / "KIP36Extra.cfg"
    cfg.write_text((ROOT / "invariants" / "KIP36_small.cfg").read_text())
    return check(spec, cfg, lib=LIB + (str(ROOT / "invariants"),), max_depth=1)


def test_the_kip_tables_are_reproduced_entry_by_entry(tmp_path):
    # The KIP's tables, spelled out again here: partition 6 is (0,4,2), not a repeat of (0,3,1).
    o = _with_assumption(
        tmp_path,
        "/\\ Assignment(Example1Racks, 12, 3, 0, 0)[7] = <<0, 4, 2>>\n"
        "       /\\ Assignment(Example1Racks, 6, 3, 0, 0) = "
        "<< <<0,3,1>>, <<3,1,5>>, <<1,5,4>>, <<5,4,2>>, <<4,2,0>>, <<2,0,3>> >>\n"
        "       /\\ Assignment(Example2Racks, 3, 2, 0, 0)[2] = <<1, 0>>")
    assert o.verdict != "assumption", o.message


def test_a_table_the_algorithm_does_not_produce_fails_the_assumption(tmp_path):
    # Without the skip, partition 1 of the uneven example would be (1, 2): both on rack2.
    o = _with_assumption(tmp_path, "Assignment(Example2Racks, 3, 2, 0, 0)[2] = <<1, 2>>")
    assert (o.verdict, o.exit_code) == ("assumption", 10)
