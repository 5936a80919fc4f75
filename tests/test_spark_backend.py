"""The Spark backend against the local engine, on Spark's local[2] master.

Every search gives the local engine's verdict, property, distinct, generated, depth and
counterexample, state for state (at a violation: the counts where the one-process search stops);
a complete one also its coverage and out-degree figures. One SparkContext serves the whole file
(the JVM starts once); it allows a second attempt per task (local[2,2]) for the fault test.
Tiny levels run in the driver, as in a real run; each model's threshold here sends its last few
levels to Spark (once a level outgrows it, every later level runs on Spark).
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from checker import manifest
from checker.api import check

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "tests" / "specs"
ENTRIES = {e.name: e for e in manifest.load(ROOT / "invariants" / "manifest.json").entries}

try:
    import pyspark  # noqa: F401

    _why = None if (shutil.which("java") or os.environ.get("JAVA_HOME")) else "no Java"
except ImportError:
    _why = "pyspark is not installed (pip install 'kipcheck[spark]')"
pytestmark = pytest.mark.skipif(_why is not None, reason=f"Spark backend: {_why}")

# Small models of every KIP: violations (with CONSTRAINT and SYMMETRY among them), complete
# searches with and without CONSTRAINT.
# name -> levels of at most this many states run in the driver
MODELS = {"KIP858_a_small_migration_restart": 100, "KIP858_bug_recreate_elsewhere": 40,
          "KIP858_bug_ack_unsent": 5, "KIP516_small_rf1": 600, "KIP516_bug_no_topic_ids": 50,
          "KIP36_small": 300, "KIP36_bug_grouped_list": 10, "KIP928_kip_small": 118,
          "KIP928_bug_no_reserved_file": 3}
# Specs under tests/specs: an action property, an evaluation error, deadlocks, VIEW, SYMMETRY.
SPEC_CASES = [("ActionProp", "ActionProp"), ("Errors", "Errors"), ("Stop", "Stop"),
              ("Stop", "StopNoDeadlock"), ("Sym", "SymView"), ("Sym", "Sym"),
              ("Records", "Records")]


def figures(o) -> dict:
    out = {"verdict": o.verdict, "property": o.property, "trace_length": o.trace_length,
           "trace": [s.state for s in o.trace], "message": o.message,
           "distinct": o.distinct_states, "generated": o.states_generated, "depth": o.depth}
    if o.verdict == "ok":
        out.update(coverage=o.coverage, outdegree=o.outdegree)
    return out


def run_entry(name: str, **kw):
    e = ENTRIES[name]
    return check(e.spec_path, e.config_path, lib=e.lib_paths, **kw)


@pytest.mark.parametrize("name", MODELS)
def test_spark_answers_as_the_local_engine_on_the_manifest_models(spark_context, name):
    local = run_entry(name)
    spark = run_entry(name, backend="spark",
                      spark={"partitions": 3, "driver_states": MODELS[name]})
    assert local.verdict == ENTRIES[name].verdict
    assert figures(spark) == figures(local)


@pytest.mark.parametrize("spec,cfg", SPEC_CASES)
def test_spark_answers_as_the_local_engine_on_the_test_specs(spark_context, spec, cfg):
    local = check(SPECS / f"{spec}.tla", SPECS / f"{cfg}.cfg")
    spark = check(SPECS / f"{spec}.tla", SPECS / f"{cfg}.cfg", backend="spark",
                  spark={"partitions": 2, "driver_states": 1})
    assert figures(spark) == figures(local)


def test_a_complete_search_counts_as_the_local_engine_whatever_the_partitions(spark_context):
    local = run_entry("KIP36_small")
    for parts in (1, 5):
        spark = run_entry("KIP36_small", backend="spark",
                          spark={"partitions": parts, "driver_states": 10**9})
        assert figures(spark) == figures(local)
        assert spark.distinct_states == 3105


def test_a_saved_itf_trace_from_spark_equals_the_local_one(spark_context, tmp_path):
    from checker.traces.outputs import CheckOutputs

    e = ENTRIES["KIP858_bug_recreate_elsewhere"]
    texts = {}
    for backend in ("local", "spark"):
        out = tmp_path / backend
        o = run_entry(e.name, backend=backend, spark={"partitions": 3, "driver_states": 40})
        CheckOutputs(str(e.spec_path), str(e.config_path), str(out), None, None, None,
                     False).write(o)
        (itf,) = out.glob("*.itf.json")
        texts[backend] = json.loads(itf.read_text())
    assert texts["spark"]["states"] == texts["local"]["states"]
    assert len(texts["spark"]["states"]) == 7


def test_a_task_that_fails_once_is_retried_and_changes_nothing(spark_context):
    local = run_entry("KIP928_kip_small")
    spark = run_entry("KIP928_kip_small", backend="spark",
                      spark={"partitions": 3, "driver_states": 118,
                             "fail_first_attempt": "expand,merge"})
    assert figures(spark) == figures(local)
    assert spark.distinct_states == 701


def test_liveness_and_dump_graph_name_the_local_backend(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    e = ENTRIES["KIP928_kip_live"]
    p = subprocess.run([sys.executable, "-m", "checker.cli", "check", e.name, "--backend",
                        "spark"], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert p.returncode == 2, p.stderr
    assert "liveness properties are checked by the local backend only" in p.stderr
    assert "Traceback" not in p.stderr
    p = subprocess.run([sys.executable, "-m", "checker.cli", "check", "KIP928_kip_small",
                        "--backend", "spark", "--dump-graph", str(tmp_path / "g.dot")],
                       capture_output=True, text=True, env=env, cwd=tmp_path)
    assert p.returncode == 2 and "--dump-graph needs the local backend" in p.stderr


def test_missing_pyspark_or_java_is_one_line_that_says_what_to_install(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PATH": str(tmp_path), "JAVA_HOME": ""}
    p = subprocess.run([sys.executable, "-m", "checker.cli", "check", "KIP928_kip_small",
                        "--backend", "spark"], capture_output=True, text=True, env=env,
                       cwd=tmp_path)
    assert p.returncode == 2
    assert p.stderr.strip().endswith("--backend spark needs Java 17 or later: install a JDK "
                                     "or JRE (e.g. apt-get install openjdk-17-jre-headless) "
                                     "or set JAVA_HOME")
    assert "Traceback" not in p.stderr
    fake = tmp_path / "nospark"
    fake.mkdir()
    (fake / "pyspark.py").write_text("raise ImportError('no pyspark here')\n")
    env = {**os.environ, "PYTHONPATH": f"{fake}{os.pathsep}{ROOT}"}
    p = subprocess.run([sys.executable, "-m", "checker.cli", "check", "KIP928_kip_small",
                        "--backend", "spark"], capture_output=True, text=True, env=env,
                       cwd=tmp_path)
    assert p.returncode == 2
    assert "--backend spark needs pyspark: pip install 'kipcheck[spark]'" in p.stderr
    assert "Traceback" not in p.stderr


def test_a_killed_driver_resumes_from_its_checkpoint_with_the_same_counts(tmp_path):
    """The driver is killed (SIGKILL: no chance to clean up) after some levels; --recover
    finishes with the counts of an uninterrupted run."""
    local = run_entry("KIP516_small_rf1")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cp = tmp_path / "cp"
    args = [sys.executable, "-m", "checker.cli", "check", "KIP516_small_rf1", "--backend",
            "spark", "--spark-master", "local[2]", "--partitions", "3",
            "--spark-conf", "spark.ui.enabled=false", "--driver-states", "200"]
    proc = subprocess.Popen(args + ["--checkpoint", str(cp), "--checkpoint-minutes", "0.0001"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=tmp_path)
    deadline = time.monotonic() + 240
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if line.startswith("level 8:"):
            break
        assert time.monotonic() < deadline, "".join(seen)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    manifest_file = sorted(cp.glob("checkpoint-*/manifest.json"))[-1]
    level = json.loads(manifest_file.read_text())["level"]
    assert level >= 5
    p = subprocess.run(args + ["--recover", str(cp)], capture_output=True, text=True,
                       env=env, cwd=tmp_path, timeout=300)
    assert p.returncode == 0, p.stderr
    assert f"{local.states_generated} states generated, {local.distinct_states} distinct " \
           f"states found, 0 states left on queue." in p.stdout
    assert f"The depth of the complete state graph search is {local.depth}." in p.stdout
    resumed = [ln for ln in p.stderr.splitlines() if ln.startswith("level ")]
    assert resumed[0].startswith(f"level {level + 1}:")


def test_state_keys_compare_as_their_places_in_the_one_process_order():
    import random

    from checker.backends.spark.part import code, last_index

    rng = random.Random(5)
    picks = [0, 1, 127, 128, 300, 16383, 16384, 2**29 - 1, 2**29, 2**40]
    paths = [tuple(rng.choice(picks) for _ in range(rng.randint(1, 4))) for _ in range(3000)]
    keys = {p: b"".join(code(i) for i in p) for p in paths}
    assert sorted(paths) == sorted(paths, key=keys.__getitem__)
    assert all(last_index(keys[p]) == p[-1] for p in paths)


def test_sigterm_during_a_spark_level_prints_the_statistics_so_far_and_exits_130(tmp_path):
    """The running Spark job is cancelled; no py4j traceback."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "checker.cli", "check", "KIP516_small",
                             "--backend", "spark", "--spark-master", "local[2]",
                             "--driver-states", "0", "--spark-conf", "spark.ui.enabled=false"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            cwd=tmp_path)
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if line.startswith("level 4:"):
            break
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, "".join(seen) + err
    assert "Interrupted: The search was interrupted. The statistics so far:" in out
    assert "Traceback" not in err


def test_an_executor_returning_to_a_model_orders_its_values_as_that_model_does(tmp_path):
    """A Python worker serves several models in turn (one SparkContext, many checks): coming
    back to a model it built before, CHOOSE must pick by that model's intern order, not by the
    order of the model built last (the driver replays the executors' steps by fingerprint)."""
    from checker.backends.spark import session
    from checker.interface import Recipe

    body = ("CONSTANT S\nVARIABLES x, y\n"
            "Init == y \\in {0} /\\ x = CHOOSE v \\in S : y = 0\n"
            "Next == UNCHANGED <<x, y>>\n====\n")
    recipes = {}
    for name, values in (("First", "{a, b}"), ("Second", "{b, a}")):
        (tmp_path / f"{name}.tla").write_text(f"---- MODULE {name} ----\n{body}")
        (tmp_path / f"{name}.cfg").write_text(f"CONSTANT S = {values}\nINIT Init\nNEXT Next\n")
        recipes[name] = Recipe(str(tmp_path / f"{name}.tla"), str(tmp_path / f"{name}.cfg"))

    def init(name):
        e = session.env(session.bundle(recipes[name]))
        return [str(s[0]) for s in e.model.init()]

    assert init("First") == ["a"]
    assert init("Second") == ["b"]
    assert init("First") == ["a"]


def test_packed_batches_give_back_the_states_and_keys_they_were_given():
    """What crosses between Spark tasks: each variable's distinct values once, states as rows
    of indices; equal values come back as one object; keys as one buffer."""
    import pickle

    from checker.backends.spark.codec import Keys, Packed, packable
    from checker.semantics.values import Fn, ModelValue

    a, b = ModelValue("pa"), ModelValue("pb")
    states = [(Fn(((a, b), ("x", "y"))), frozenset({a}), (1, 2), "s"),
              (Fn(((a, b), ("x", "y"))), frozenset(), (1, 2), "t"),
              (Fn(((a, b), ("y", "y"))), frozenset({a, b}), (), "s")]
    packed = pickle.loads(pickle.dumps(Packed(states), protocol=pickle.HIGHEST_PROTOCOL))
    assert len(packed) == 3
    assert packed.all() == states
    assert [packed[i] for i in (2, 0)] == [states[2], states[0]]
    assert [type(v) for v in packed[0]] == [type(v) for v in states[0]]
    assert packed[0][0] is packed[1][0]
    assert [len(v) for v in packed.values] == [2, 3, 2, 2]
    assert packable(states) and packable([]) and not packable([(1,), (1, 2)])
    keys = [b"\x01", b"", b"\x80\x05\x07", b"\x02"]
    k = pickle.loads(pickle.dumps(Keys(keys)))
    assert len(k) == 4 and k.all() == keys and k.pick([3, 0]) == [b"\x02", b"\x01"]
    assert [k[i] for i in range(4)] == keys


def _check_text(tmp_path, body: str, cfg: str, **kw):
    (tmp_path / "M.tla").write_text(f"---- MODULE M ----\n{body}\n====\n")
    (tmp_path / "M.cfg").write_text(cfg)
    return check(tmp_path / "M.tla", tmp_path / "M.cfg", **kw)


SPARK_OPTS = {"backend": "spark", "spark": {"partitions": 2, "driver_states": 0}}


def test_spark_counts_the_states_action_composition_passes_through(spark_context, tmp_path):
    """A \\cdot B's intermediate states count as generated, and a state whose composition
    passed through some is no deadlock: the figures of the local engine (and TLC 2.20)."""
    body = ("EXTENDS Naturals\nVARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
            "A == x < 3 /\\ x' \\in {x + 1, x + 2} /\\ y' = y\n"
            "B == x = 2 /\\ x' = x + 10 /\\ y' = y\nC == y' = y + 1 /\\ x' = x\n"
            "Next == (A \\cdot B) \\/ (x < 3 /\\ x' = x + 1 /\\ y' = y) \\/ (A \\cdot B \\cdot C)")
    o = _check_text(tmp_path, body, "INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n", **SPARK_OPTS)
    assert (o.verdict, o.distinct_states, o.states_generated, o.depth) == ("ok", 6, 16, 4)
    stuck = ("EXTENDS Naturals\nVARIABLE x\nInit == x = 0\nA == x' = x + 1\n"
             "B == x > 5 /\\ x' = x\nNext == A \\cdot B")
    o = _check_text(tmp_path, stuck, "INIT Init\nNEXT Next\n", **SPARK_OPTS)
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 1, 2)


def test_tlcget_of_the_search_counts_is_refused_on_spark(spark_context, tmp_path):
    body = ("EXTENDS Naturals, TLC\nVARIABLE x\nInit == x = 0\n"
            "Next == x < 3 /\\ x' = x + 1 /\\ TLCGet(\"level\") = x + 1\n"
            "    /\\ (x = 2 => TLCGet(\"distinct\") > 0)")
    cfg = "INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n"
    assert _check_text(tmp_path, body, cfg).verdict == "ok"  # TLCGet("level") works there
    o = _check_text(tmp_path, body, cfg, **SPARK_OPTS)
    assert o.verdict == "error" and o.trace_length == 3
    assert o.message.startswith('TLCGet("distinct") is not supported during a search on Spark '
                                '(--backend spark): its value would depend on how the '
                                'partitions interleave; check this model with --backend local')
    assert o.span is not None and o.span.line == 6
