"""`kipcheck sweep`: every size's counts are `check`'s at that size; the table, CSV and JSON
carry the documented columns; the budget stops a size and says so; the exit code is the
worst verdict."""
from __future__ import annotations

import csv
import json

import pytest
from click.testing import CliRunner

from checker import api
from checker import sweep as S
from checker.cli import main
from checker.manifest import load as load_manifest

MANIFEST = load_manifest()
CSV_COLUMNS = ["size", "verdict", "property", "distinct_states", "states_generated", "depth",
               "seconds", "states_per_second", "peak_rss_mib", "message"]


def check_at(name: str, knobs: dict):
    e = MANIFEST.get(name)
    return api.check(e.spec_path, e.config_path,
                     S.constants_of(e.spec_path, e.config_path, knobs, {}), e.lib_paths)


def sweep(tmp_path, *args):
    result = CliRunner().invoke(main, ["sweep", *args, "--out", str(tmp_path)])
    rows = list(csv.DictReader((tmp_path / "sweep.csv").open()))
    doc = json.loads((tmp_path / "sweep.json").read_text())
    return result, rows, doc


@pytest.mark.parametrize("name, varies, expected", [
    ("KIP858_bug_keep_leader_on_reregister", ["dirs=1..2", "epochs=1..2"],
     [("dirs=1,epochs=1", "ok"), ("dirs=1,epochs=2", "invariant"),
      ("dirs=2,epochs=1", "ok"), ("dirs=2,epochs=2", "invariant")]),
    ("KIP36_bug_naive_placement", ["brokers=2..3", "racks=1,2"],
     [("brokers=2,racks=1", "ok"), ("brokers=2,racks=2", "ok"),
      ("brokers=3,racks=1", "ok"), ("brokers=3,racks=2", "invariant")]),
])
def test_sweep_counts_equal_check_at_each_size(tmp_path, name, varies, expected):
    args = [name]
    for v in varies:
        args += ["--vary", v]
    result, rows, doc = sweep(tmp_path, *args)
    assert result.exit_code == 12, result.output  # the worst verdict: an invariant
    assert [(r["size"], r["verdict"]) for r in rows] == expected
    knobs = [v.split("=")[0] for v in varies]
    assert list(rows[0]) == ["size", *knobs, *CSV_COLUMNS[1:]]
    assert doc["format"] == "kipcheck-sweep" and doc["version"] == 1
    assert (doc["model"], doc["knobs"], doc["verdict"], doc["exit_code"]) == (
        name, knobs, "invariant", 12)
    for row, rec in zip(rows, doc["sizes"], strict=True):
        outcome = check_at(name, rec["knobs"])
        assert (rec["verdict"], rec["property"], rec["distinct_states"],
                rec["states_generated"], rec["depth"]) == (
            outcome.verdict, outcome.property, outcome.distinct_states,
            outcome.states_generated, outcome.depth)
        assert (row["distinct_states"], row["states_generated"], row["depth"]) == (
            str(outcome.distinct_states), str(outcome.states_generated), str(outcome.depth))
        assert set(rec) == {"knobs", *CSV_COLUMNS}
        assert rec["peak_rss_mib"] > 0 and rec["seconds"] > 0
    lines = result.output.splitlines()
    assert lines[0].split() == ["size", "verdict", "property", "distinct", "generated",
                                "depth", "seconds", "states/s", "peak", "MiB"]
    first = rows[0]
    assert lines[1].split()[:6] == [expected[0][0], "ok", "-",
                                    f"{int(first['distinct_states']):,}",
                                    f"{int(first['states_generated']):,}", first["depth"]]
    assert "Sweep verdict: invariant (4 size(s))" in result.output
    page = (tmp_path / "sweep.html").read_text()
    assert page.count('<circle class="point"') == 2 * len(rows)  # states and seconds plots


def test_stop_on_violation_stops_at_the_first_failing_size(tmp_path):
    result, rows, doc = sweep(tmp_path, "KIP858_bug_keep_leader_on_reregister",
                              "--vary", "dirs=1..2", "--vary", "epochs=1..2",
                              "--stop-on-violation")
    assert result.exit_code == 12
    assert [(r["size"], r["verdict"], r["property"]) for r in rows] == [
        ("dirs=1,epochs=1", "ok", ""), ("dirs=1,epochs=2", "invariant", "LeaderUnfenced")]
    assert "Stopped at the first failing size (2 size(s) not checked)." in result.output


def test_max_states_stops_a_size_as_budget_with_partial_counts(tmp_path):
    result, rows, doc = sweep(tmp_path, "KIP858_a_small_replace", "--vary", "dirs=1..2",
                              "--vary", "partitions=1..2", "--max-states", "5000")
    assert result.exit_code == 3, result.output  # budget: not everything was checked
    assert [(r["size"], r["verdict"]) for r in rows] == [
        ("dirs=1,partitions=1", "ok"), ("dirs=1,partitions=2", "ok"),
        ("dirs=2,partitions=1", "ok"), ("dirs=2,partitions=2", "budget")]
    assert [r["distinct_states"] for r in rows[:3]] == ["156", "1290", "2684"]
    assert 5000 <= int(rows[3]["distinct_states"]) < 44930
    assert rows[3]["message"] == "stopped at --max-states 5,000; the counts are partial"
    assert doc["verdict"] == "budget" and doc["exit_code"] == 3
    assert "Budget: dirs=2,partitions=2 stopped before the end (partial counts)." in \
        result.output


def test_the_time_budget_stops_a_size_and_says_so(tmp_path):
    result, rows, doc = sweep(tmp_path, "KIP858_a_small_replace", "--vary", "dirs=2",
                              "--vary", "partitions=2", "--budget", "2s")
    assert result.exit_code == 3, result.output
    (row,) = rows
    assert (row["size"], row["verdict"]) == ("dirs=2,partitions=2", "budget")
    assert row["message"] == "stopped at the budget of 2s; the counts are partial"
    assert 2 <= float(row["seconds"]) < 10
    # partial: on a loaded machine (parallel tests) compiling may take the whole budget
    assert 0 <= int(row["distinct_states"]) < 44930


@pytest.mark.parametrize("args, code, message", [
    (["--vary", "nodes=1..2"], 151, "--vary nodes: no such knob"),
    (["--vary", "brokers=1..9"], 151, "--vary brokers=6: out of range 1..5"),
    (["--vary", "brokers=3..1"], 151, "--vary brokers=3..1: the range is empty"),
    (["--vary", "brokers"], 151, "--vary expects KNOB=LO..HI or KNOB=N,N,..., got 'brokers'"),
    (["--vary", "brokers=1..2", "--budget", "soon"], 2,
     "--budget expects a duration such as 90s, 10m or 1h, got 'soon'"),
])
def test_bad_sweeps_are_errors_before_anything_runs(args, code, message):
    result = CliRunner().invoke(main, ["sweep", "KIP858_a_medium", *args])
    assert result.exit_code == code, result.output
    assert message in result.output
    assert not result.output.startswith("size ")  # no table started
    assert "Traceback" not in result.output


def test_sizes_run_smallest_first():
    e = MANIFEST.get("KIP858_a_medium")
    plan = S.plan(e.spec_path, e.config_path, [("brokers", [1, 2, 3]), ("dirs", [1, 2])], {})
    assert [tuple(c.values()) for c in plan] == [(1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (3, 2)]


def test_a_user_spec_sweeps_by_its_own_knobs_with_d_on_top(tmp_path):
    (tmp_path / "Ring.tla").write_text(
        "---- MODULE Ring ----\nEXTENDS Naturals\nCONSTANT Nodes, Max\nVARIABLE x, n\n"
        "Init == x \\in Nodes /\\ n = 0\n"
        "Next == n < Max /\\ \\E y \\in Nodes : x' = y /\\ n' = n + 1\n====\n")
    (tmp_path / "Ring.cfg").write_text("CONSTANT Nodes = {n1, n2}\nCONSTANT Max = 1\n"
                                       "INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n")
    (tmp_path / "Ring.sizes.json").write_text(json.dumps({
        "knobs": {"nodes": {"min": 1, "max": 6, "default": "card(Nodes)"}},
        "constants": {"Nodes": {"model_values": "n", "count": "nodes"}}}))
    result = CliRunner().invoke(main, ["sweep", str(tmp_path / "Ring.tla"), "--vary",
                                       "nodes=1,3", "-D", "Max=2", "--out",
                                       str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    doc = json.loads((tmp_path / "out" / "sweep.json").read_text())
    # a state is (x, n): nodes x (Max + 1) with Max = 2 from -D (the .cfg says 1)
    assert [(r["size"], r["distinct_states"]) for r in doc["sizes"]] == [
        ("nodes=1", 3), ("nodes=3", 9)]
    assert doc["spec"].endswith("Ring.tla")


def test_ctrl_c_stops_the_sweep_with_130_and_keeps_the_finished_sizes(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    proc = subprocess.Popen(
        [sys.executable, "-m", "checker.cli", "sweep", "KIP858_a_small_replace", "--vary",
         "dirs=1..2", "--vary", "partitions=1..2", "--out", str(tmp_path)],
        env={**os.environ, "PYTHONPATH": str(root)}, cwd=tmp_path, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.time() + 60
    while time.time() < deadline:  # wait for the last (big) size to start
        time.sleep(0.5)
        if proc.poll() is not None:
            break
        if _sizes_done(proc) >= 3:
            break
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out, err)
    assert "Interrupted: the sweep was stopped before it finished." in err
    assert "Traceback" not in err
    rows = list(csv.DictReader((tmp_path / "sweep.csv").open()))
    assert [r["size"] for r in rows] == ["dirs=1,partitions=1", "dirs=1,partitions=2",
                                         "dirs=2,partitions=1"]


_SEEN: dict = {}


def _sizes_done(proc) -> int:
    """Rows printed so far (read without blocking from the table on stdout)."""
    import os
    import select

    buf = _SEEN.setdefault(proc.pid, [""])
    while select.select([proc.stdout], [], [], 0)[0]:
        chunk = os.read(proc.stdout.fileno(), 4096).decode()
        if not chunk:
            break
        buf[0] += chunk
    return sum(1 for line in buf[0].splitlines() if line.startswith("dirs="))


def test_workers_pass_through_to_each_size(tmp_path):
    """--workers N checks each size in N processes: a complete size counts as in one."""
    args = ["KIP858_bug_keep_leader_on_reregister", "--vary", "dirs=1..2", "--vary", "epochs=1"]
    _, one, _ = sweep(tmp_path / "one", *args)
    result, two, doc = sweep(tmp_path / "two", *args, "--workers", "2")
    assert result.exit_code == 0, result.output
    figures = [(r["size"], r["verdict"], r["distinct_states"], r["states_generated"],
                r["depth"]) for r in two]
    assert figures == [(r["size"], r["verdict"], r["distinct_states"], r["states_generated"],
                        r["depth"]) for r in one]
    assert figures == [("dirs=1,epochs=1", "ok", "13", "21", "6"),
                       ("dirs=2,epochs=1", "ok", "37", "72", "8")]


def test_the_budget_stops_a_size_checked_by_workers(tmp_path):
    result, rows, _ = sweep(tmp_path, "KIP858_a_small_replace", "--vary", "dirs=2",
                            "--vary", "partitions=2", "--budget", "3s", "--workers", "2")
    assert result.exit_code == 3, result.output
    (row,) = rows
    assert row["verdict"] == "budget" and 3 <= float(row["seconds"]) < 15
    assert "Traceback" not in result.output
