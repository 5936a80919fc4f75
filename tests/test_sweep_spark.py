"""`kipcheck sweep --backend spark`: each size is a Spark task, and the rows are the local
sweep's (verdict, property, counts, depth; time and memory are the executor's); --out also
writes sweep.parquet with the CSV's columns, typed. One local[2] SparkContext serves the file
(the sweeps use the context that is already running)."""
from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from checker.cli import main

ROOT = Path(__file__).resolve().parent.parent

try:
    import pyspark  # noqa: F401

    _why = None if (shutil.which("java") or os.environ.get("JAVA_HOME")) else "no Java"
except ImportError:
    _why = "pyspark is not installed (pip install 'kipcheck[spark]')"
needs_spark = pytest.mark.skipif(_why is not None, reason=f"Spark sweep: {_why}")

# What a Spark sweep must give exactly as the local one does.
SAME = ("size", "verdict", "property", "distinct_states", "states_generated", "depth",
        "message")

# A chain of N * 10,000,000 states: N = 1 violates Small at depth 4, N >= 2 runs for minutes.
CHAIN = ("---- MODULE Chain ----\nEXTENDS Naturals\nCONSTANT N\nVARIABLE x\nInit == x = 0\n"
         "Next == x' = (x + 1) % (N * 10000000)\nSmall == N > 1 \\/ x < 3\n====\n")


@pytest.fixture(scope="module")
def spark_context():
    from pyspark import SparkConf, SparkContext

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    conf = (SparkConf().setMaster("local[2]").setAppName("kipcheck-sweep-tests")
            .set("spark.ui.enabled", "false").set("spark.ui.showConsoleProgress", "false"))
    sc = SparkContext.getOrCreate(conf)
    sc.setLogLevel("OFF")  # the cancelled tasks' killed Python workers
    yield sc
    sc.stop()


@pytest.fixture(scope="module")
def chain(tmp_path_factory):
    d = tmp_path_factory.mktemp("chain")
    (d / "Chain.tla").write_text(CHAIN)
    (d / "Chain.cfg").write_text("CONSTANT N = 1\nINIT Init\nNEXT Next\nINVARIANT Small\n")
    (d / "Chain.sizes.json").write_text(json.dumps({
        "knobs": {"n": {"min": 1, "max": 9, "default": "N"}}, "constants": {"N": "n"}}))
    return str(d / "Chain.tla")


def sweep(out: Path, *args):
    result = CliRunner().invoke(main, ["sweep", *args, "--out", str(out)])
    rows = list(csv.DictReader((out / "sweep.csv").open()))
    return result, rows


@needs_spark
@pytest.mark.parametrize("name, varies, code", [
    ("KIP858_bug_keep_leader_on_reregister", ["dirs=1..2", "epochs=1..2"], 12),
    ("KIP36_bug_naive_placement", ["brokers=2..4", "racks=2"], 12),
    ("KIP858_a_small_replace", ["dirs=1..2", "partitions=1"], 0),
])
def test_a_spark_sweep_gives_the_local_rows_and_a_typed_parquet(spark_context, tmp_path,
                                                                 name, varies, code):
    from pyspark.sql import SparkSession

    args = [name]
    for v in varies:
        args += ["--vary", v]
    local, local_rows = sweep(tmp_path / "local", *args)
    result, rows = sweep(tmp_path / "spark", *args, "--backend", "spark")
    assert (local.exit_code, result.exit_code) == (code, code), result.output
    assert [[r[c] for c in SAME] for r in rows] == [[r[c] for c in SAME] for r in local_rows]
    assert all(float(r["seconds"]) > 0 and float(r["peak_rss_mib"]) > 0 for r in rows)
    assert result.output.splitlines()[0] == local.output.splitlines()[0]  # the table header
    doc = json.loads((tmp_path / "spark" / "sweep.json").read_text())
    assert doc["verdict"] == json.loads((tmp_path / "local" / "sweep.json").read_text())[
        "verdict"]
    assert f"Wrote {tmp_path / 'spark' / 'sweep.parquet'}" in result.output

    knobs = [v.split("=")[0] for v in varies]
    frame = SparkSession(spark_context).read.parquet(str(tmp_path / "spark" / "sweep.parquet"))
    assert frame.dtypes == [("size", "string"), *[(k, "bigint") for k in knobs],
                            ("verdict", "string"), ("property", "string"),
                            ("distinct_states", "bigint"), ("states_generated", "bigint"),
                            ("depth", "bigint"), ("seconds", "double"),
                            ("states_per_second", "bigint"), ("peak_rss_mib", "double"),
                            ("message", "string")]
    back = sorted(frame.collect(), key=lambda r: [r[k] for k in knobs])
    assert [r["size"] for r in back] == [r["size"] for r in rows]
    for got, row in zip(back, rows, strict=True):
        assert [got[k] for k in knobs] == [int(row[k]) for k in knobs]
        assert (got["verdict"], got["property"] or "", got["distinct_states"],
                got["states_generated"], got["depth"]) == (
            row["verdict"], row["property"], int(row["distinct_states"]),
            int(row["states_generated"]), int(row["depth"]))
        assert got["seconds"] == float(row["seconds"])


@needs_spark
def test_max_states_stops_a_spark_size_as_the_local_sweep_does(spark_context, tmp_path, chain):
    local, local_rows = sweep(tmp_path / "local", chain, "--vary", "n=1..2",
                              "--max-states", "3000")
    result, rows = sweep(tmp_path / "spark", chain, "--vary", "n=1..2", "--max-states",
                         "3000", "--backend", "spark")
    assert result.exit_code == local.exit_code == 12, result.output  # the worst: invariant
    assert [[r[c] for c in SAME] for r in rows] == [[r[c] for c in SAME] for r in local_rows]
    assert [(r["size"], r["verdict"], r["property"]) for r in rows] == [
        ("n=1", "invariant", "Small"), ("n=2", "budget", "")]
    assert rows[1]["message"] == "stopped at --max-states 3,000; the counts are partial"
    assert "Budget: n=2 stopped before the end (partial counts)." in result.output


@needs_spark
def test_stop_on_violation_on_spark_ends_the_report_at_the_first_failing_size(
        spark_context, tmp_path, chain):
    """The sizes after the first failing one (here: minutes long) are cancelled, not
    awaited, and left out: the report is the local sweep's."""
    args = [chain, "--vary", "n=1..3", "--budget", "120s", "--stop-on-violation"]
    local, local_rows = sweep(tmp_path / "local", *args)
    started = time.monotonic()
    result, rows = sweep(tmp_path / "spark", *args, "--backend", "spark")
    assert time.monotonic() - started < 60
    assert result.exit_code == local.exit_code == 12, result.output
    assert [[r[c] for c in SAME] for r in rows] == [[r[c] for c in SAME] for r in local_rows]
    assert [(r["size"], r["verdict"]) for r in rows] == [("n=1", "invariant")]
    assert "Stopped at the first failing size (2 size(s) not checked)." in result.output
    tracker = spark_context.statusTracker()
    deadline = time.monotonic() + 20
    while tracker.getActiveJobsIds() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert tracker.getActiveJobsIds() == []


@needs_spark
def test_workers_are_refused_with_spark(tmp_path):
    result = CliRunner().invoke(main, ["sweep", "KIP36_small", "--vary", "brokers=2..3",
                                       "--backend", "spark", "--workers", "2"])
    assert result.exit_code == 2
    assert "error: --workers is for --backend local: on Spark each size is one task of one " \
           "process" in result.output
    assert not result.output.startswith("size ")


def test_missing_pyspark_or_java_is_one_line_and_exit_2_before_the_table(tmp_path):
    args = [sys.executable, "-m", "checker.cli", "sweep", "KIP36_small", "--vary",
            "brokers=2..3", "--backend", "spark"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PATH": str(tmp_path), "JAVA_HOME": ""}
    fake = tmp_path / "withspark"  # pyspark importable whether installed or not
    fake.mkdir()
    (fake / "pyspark.py").write_text("")
    env["PYTHONPATH"] = f"{fake}{os.pathsep}{ROOT}"
    p = subprocess.run(args, capture_output=True, text=True, env=env, cwd=tmp_path)
    assert p.returncode == 2, p.stderr
    assert p.stderr.strip() == ("error: --backend spark needs Java 17 or later: install a JDK "
                                "or JRE (e.g. apt-get install openjdk-17-jre-headless) or set "
                                "JAVA_HOME")
    assert p.stdout == ""
    (fake / "pyspark.py").write_text("raise ImportError('no pyspark here')\n")
    env = {**os.environ, "PYTHONPATH": f"{fake}{os.pathsep}{ROOT}"}
    p = subprocess.run(args, capture_output=True, text=True, env=env, cwd=tmp_path)
    assert p.returncode == 2, p.stderr
    assert p.stderr.strip() == "error: --backend spark needs pyspark: pip install " \
                               "'kipcheck[spark]'"
    assert p.stdout == ""


def test_a_size_s_process_dies_with_the_process_that_started_it(tmp_path, chain):
    """A cancelled Spark task's Python worker is killed (SIGKILL): the child process checking
    its size must stop too, not run on for nobody."""
    script = tmp_path / "middle.py"
    script.write_text(
        "import multiprocessing, sys, threading, time\n"
        "from checker import sweep as S\n"
        "from checker.api import parse_constant_overrides\n"
        "def tell():\n"
        "    while not multiprocessing.active_children():\n"
        "        time.sleep(0.05)\n"
        "    print(multiprocessing.active_children()[0].pid, flush=True)\n"
        "threading.Thread(target=tell, daemon=True).start()\n"
        f"S.run_size({chain!r}, {chain[:-4] + '.cfg'!r}, (), "
        "parse_constant_overrides(['N=2']), {'n': 2}, budget=120)\n")
    middle = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    child = int(middle.stdout.readline())
    try:
        assert _alive(child)
        middle.send_signal(signal.SIGKILL)
        middle.wait(timeout=10)
        deadline = time.monotonic() + 15
        while _alive(child) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(child)
    finally:
        if _alive(child):
            os.kill(child, signal.SIGKILL)


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for its reaper counts as gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return "\nState:\tZ" not in status


class _FakeSpark:
    """Just what the sweep asks of a SparkContext: each size's job takes its own time and
    answers a prepared row (the order in which rows come back, without Spark)."""

    def __init__(self, verdicts: list[str], seconds: list[float]):
        from checker import sweep as S

        self.rows = [S.Row({"n": i}, v) for i, v in enumerate(verdicts)]
        self.seconds = seconds
        self.groups: dict = {}  # thread -> its job group
        self.submitted: list[str] = []
        self.cancelled: list[str] = []
        self.lock = threading.Lock()

    def parallelize(self, data, slices):
        assert slices == len(data) == len(self.rows)
        return data

    def statusTracker(self):
        return self

    def getJobIdsForGroup(self, group):
        return [self.submitted.index(group)] if group in self.submitted else []

    def setJobGroup(self, group, description, interruptOnCancel=False):
        self.groups[threading.get_ident()] = group

    def runJob(self, rdd, func, partitions):
        (i,) = partitions
        group = self.groups[threading.get_ident()]
        with self.lock:
            self.submitted.append(group)
        deadline = time.monotonic() + self.seconds[i]
        while time.monotonic() < deadline:
            if group in self.cancelled:
                raise RuntimeError("Job cancelled")
            time.sleep(0.01)
        return [self.rows[i]]

    def cancelJobGroup(self, group):
        self.cancelled.append(group)

    def setLogLevel(self, level):
        pass


@pytest.mark.parametrize("stop, shown, left", [(False, [0, 1, 2, 3], 0), (True, [0, 1], 2)])
def test_rows_come_in_size_order_and_stop_at_the_first_failing_size_in_that_order(
        stop, shown, left):
    """Size 1 fails after sizes 2 and 3 (a failure too) are done: the report still ends at
    size 1 with --stop-on-violation; without it, every row comes in size order."""
    from checker import sweep_spark

    sc = _FakeSpark(["ok", "invariant", "ok", "deadlock"], [0.6, 0.4, 0.05, 0.1])
    job = sweep_spark._Job(None, None, None)
    seen = []
    rows, not_shown = sweep_spark._run_sizes(sc, job, [{"n": i} for i in range(4)],
                                             [[]] * 4, seen.append, stop)
    assert [r.knobs["n"] for r in seen] == [r.knobs["n"] for r in rows] == shown
    assert not_shown == left
    assert sc.submitted == [job.group(i) for i in range(4)]  # jobs go in size order
    if stop:  # size 3 fails first (nothing after it), then size 1: sizes 2 and 3 go
        assert set(sc.cancelled) == {job.group(2), job.group(3)}
