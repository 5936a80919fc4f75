"""Checkpoints and recovery, and the frontier that spills to disk.

A search interrupted (SIGINT, as Ctrl-C sends) after a few levels writes a snapshot; resumed
with `recover`, it must end exactly as an uninterrupted run: verdict, distinct, generated,
depth, counterexample length, coverage. The frontier must give the same answers whether it
stays in memory or spills to disk after a handful of states.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from checker import verdicts as V
from checker.api import check
from checker.engine import checkpoint as C
from checker.engine.frontier import Frontier, Spool

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "tests" / "specs"

GRID = """---- MODULE Grid ----
EXTENDS Naturals
CONSTANT N
VARIABLES x, y
Init == x = 0 /\\ y = 0
Wrap == \\/ x' = (x + 1) % N /\\ y' = y
        \\/ y' = (y + 1) % N /\\ x' = x
Stop == \\/ x < N - 1 /\\ x' = x + 1 /\\ y' = y
        \\/ y < N - 1 /\\ y' = y + 1 /\\ x' = x
Small == x + y < N + 20
====
"""
# name -> (.cfg text, verdict)
CONFIGS = {
    "ok": ("CONSTANT N = 70\nINIT Init\nNEXT Wrap\n", V.OK),
    "invariant": ("CONSTANT N = 70\nINIT Init\nNEXT Wrap\nINVARIANT Small\n", V.INVARIANT),
    "deadlock": ("CONSTANT N = 70\nINIT Init\nNEXT Stop\n", V.DEADLOCK),
}


def grid(tmp_path: Path, name: str) -> tuple[Path, Path]:
    spec = tmp_path / "Grid.tla"
    spec.write_text(GRID)
    cfg = tmp_path / f"{name}.cfg"
    cfg.write_text(CONFIGS[name][0])
    return spec, cfg


def figures(o) -> dict:
    return {"verdict": o.verdict, "property": o.property, "distinct": o.distinct_states,
            "generated": o.states_generated, "depth": o.depth, "trace": o.trace_length,
            "coverage": o.coverage}


class Interrupter:
    """A progress callback that sends this process SIGINT once `after` distinct states exist."""

    def __init__(self, after: int):
        self.after, self.sent = after, False

    def __call__(self, distinct, generated, queue, depth) -> None:
        if distinct >= self.after and not self.sent:
            self.sent = True
            os.kill(os.getpid(), signal.SIGINT)


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("name", list(CONFIGS))
def test_a_recovered_search_ends_as_an_uninterrupted_one(tmp_path, name, workers):
    spec, cfg = grid(tmp_path, name)
    whole = check(spec, cfg, workers=workers)
    assert whole.verdict == CONFIGS[name][1]
    where = tmp_path / "ckpt"
    first = check(spec, cfg, workers=workers, checkpoint=str(where),
                  progress=Interrupter(1500), frontier_states=40)
    assert first.verdict == V.INTERRUPTED
    assert 0 < first.distinct_states < whole.distinct_states
    assert first.checkpoint is not None and Path(first.checkpoint).parent == where
    manifest = json.loads((Path(first.checkpoint) / "manifest.json").read_text())
    assert manifest["format"] == "kipcheck-checkpoint" and manifest["distinct"] > 0
    assert manifest["backend"] == ("workers" if workers > 1 else "local")
    resumed = check(spec, cfg, workers=workers, recover=str(where), frontier_states=40)
    assert figures(resumed) == figures(whole)


@pytest.mark.parametrize("name", list(CONFIGS))
@pytest.mark.parametrize("wrote,resumed", [(2, [1, 3]), (1, [2, 3]), (3, [2])])
def test_a_checkpoint_resumes_with_another_worker_count(tmp_path, name, wrote, resumed):
    """The snapshot's visited fingerprints, parent links and queue are handed out again by
    owner; one process's snapshot (taken within a level) resumes as workers and back."""
    spec, cfg = grid(tmp_path, name)
    whole = check(spec, cfg)
    where = tmp_path / "ckpt"
    first = check(spec, cfg, workers=wrote, checkpoint=str(where),
                  progress=Interrupter(1500), frontier_states=40)
    assert first.verdict == V.INTERRUPTED and first.checkpoint is not None
    for workers in resumed:
        again = check(spec, cfg, workers=workers, recover=str(where), frontier_states=40)
        got, want = figures(again), figures(whole)
        if whole.verdict != V.OK:  # counts at a violation depend on the backend's order
            for key in ("distinct", "generated", "coverage"):
                got.pop(key), want.pop(key)
        assert got == want, workers


def test_a_resumed_workers_snapshot_of_one_process_can_be_snapshotted_again(tmp_path,
                                                                            monkeypatch):
    """One process stops within a level; workers resume it, carrying the next level's states
    found already: the snapshot they write at once has the carried states too."""
    import shutil

    spec, cfg = grid(tmp_path, "ok")
    whole = check(spec, cfg)
    where = tmp_path / "ckpt"
    check(spec, cfg, checkpoint=str(where), progress=Interrupter(1500))
    assert json.loads((C.newest(where) / "manifest.json").read_text())["backend"] == "local"
    kept = tmp_path / "kept"
    commit = C.Writer.commit

    def keep_the_first(writer, manifest):  # the snapshot at the first resumed level
        path = commit(writer, manifest)
        if not kept.exists():
            shutil.copytree(path, kept / path.name)
        return path

    monkeypatch.setattr(C.Writer, "commit", keep_the_first)
    second = check(spec, cfg, workers=2, recover=str(where), checkpoint_minutes=1e-9)
    assert figures(second) == figures(whole)
    manifest = json.loads((C.newest(kept) / "manifest.json").read_text())
    assert manifest["backend"] == "workers" and all(manifest["carry"])
    assert figures(check(spec, cfg, recover=str(kept))) == figures(whole)
    assert figures(check(spec, cfg, workers=3, recover=str(kept))) == figures(whole)


def test_a_resumed_run_reports_the_seconds_of_the_whole_search(tmp_path):
    spec, cfg = grid(tmp_path, "ok")
    where = tmp_path / "ckpt"
    first = check(spec, cfg, checkpoint=str(where), progress=Interrupter(1500))
    before = json.loads((C.newest(where) / "manifest.json").read_text())["seconds"]
    assert 0 < before <= first.seconds
    resumed = check(spec, cfg, recover=str(where))
    assert resumed.seconds_before == before and resumed.seconds > before
    assert resumed.report()["seconds_before_recovery"] == before
    proc = _cli("check", spec, "--config", cfg, "--recover", where)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"Finished in ([\d.]+)s \(the whole search: ([\d.]+)s before the recovery "
                     r"from a checkpoint and ([\d.]+)s in this run\)", proc.stdout), proc.stdout


def test_an_interruption_in_the_middle_of_a_workers_level_resumes_that_level(tmp_path):
    """The workers abandon the level in progress; the snapshot is the level's start."""
    import threading

    spec = tmp_path / "Wide.tla"
    spec.write_text("---- MODULE Wide ----\nEXTENDS Naturals\nVARIABLES x, y\n"
                    "Init == x \\in 0..19999 /\\ y = 0\n"
                    "Next == y < 7 /\\ y' = y + 1 /\\ x' = x\n====\n")
    cfg = tmp_path / "Wide.cfg"
    cfg.write_text("INIT Init\nNEXT Next\n")
    whole = check(spec, cfg, workers=2)
    assert whole.verdict == V.DEADLOCK

    def progress(distinct, generated, queue, depth):
        if depth == 4:  # early in level 4's expansion
            threading.Timer(0.005, os.kill, (os.getpid(), signal.SIGINT)).start()

    where = tmp_path / "ckpt"
    first = check(spec, cfg, workers=2, checkpoint=str(where), progress=progress)
    assert first.verdict == V.INTERRUPTED and first.checkpoint is not None
    resumed = check(spec, cfg, workers=2, recover=str(where))
    assert figures(resumed) == figures(whole)


def test_periodic_snapshots_replace_each_other_and_a_resumed_run_can_be_resumed_again(tmp_path):
    spec, cfg = grid(tmp_path, "ok")
    whole = check(spec, cfg)
    where = tmp_path / "ckpt"
    first = check(spec, cfg, checkpoint=str(where), checkpoint_minutes=1e-9,
                  progress=Interrupter(1200))
    numbers = [p.name for p in where.iterdir()]
    assert numbers == [Path(first.checkpoint).name]  # only the newest is kept
    assert int(numbers[0].split("-")[1]) >= 2  # periodic ones came before the interruption
    second = check(spec, cfg, recover=str(where), progress=Interrupter(3000))
    assert second.verdict == V.INTERRUPTED and second.distinct_states > first.distinct_states
    third = check(spec, cfg, recover=str(where))
    assert figures(third) == figures(whole)


def test_an_unfinished_snapshot_is_ignored_and_the_previous_one_resumed(tmp_path):
    spec, cfg = grid(tmp_path, "ok")
    where = tmp_path / "ckpt"
    first = check(spec, cfg, checkpoint=str(where), progress=Interrupter(1500))
    # What a run killed while writing the next snapshot leaves: a temporary directory.
    (where / ".checkpoint-000099.tmp").mkdir()
    (where / ".checkpoint-000099.tmp" / "visited-0.npy").write_bytes(b"partial")
    resumed = check(spec, cfg, recover=str(where))
    assert figures(resumed) == figures(check(spec, cfg))
    assert first.checkpoint is not None


def test_a_checkpoint_of_another_model_is_refused_with_exit_2(tmp_path):
    spec, cfg = grid(tmp_path, "ok")
    where = tmp_path / "ckpt"
    check(spec, cfg, checkpoint=str(where), progress=Interrupter(1500))
    other = tmp_path / "other.cfg"
    other.write_text("CONSTANT N = 71\nINIT Init\nNEXT Wrap\n")
    report = tmp_path / "r.json"
    proc = _cli("check", spec, "--config", other, "--recover", where, "--report-json", report)
    assert proc.returncode == V.EXIT_USAGE == 2
    assert proc.stderr.startswith(f"error: --recover {where}: the checkpoint is of another "
                                  f"model (its spec, .cfg, constants or options")
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    doc = json.loads(report.read_text())
    assert (doc["verdict"], doc["exit_code"]) == ("checkpoint-error", 2)
    # A -D override and --max-depth change the model too.
    for extra in (["-D", "N=71"], ["--max-depth", "50"], ["--no-deadlock"]):
        proc = _cli("check", spec, "--config", cfg, "--recover", where, *extra)
        assert proc.returncode == 2 and "is of another model" in proc.stderr, extra
    proc = _cli("check", spec, "--config", cfg, "--recover", tmp_path / "none")
    assert proc.returncode == 2 and "no checkpoint there" in proc.stderr
    snapshot = C.newest(where)
    (snapshot / "visited-0.npy").unlink()
    proc = _cli("check", spec, "--config", cfg, "--recover", where)
    assert proc.returncode == 2
    assert proc.stderr.strip() == (f"error: --recover {where}: {snapshot.name} is damaged: "
                                   f"visited-0.npy missing")


def test_checkpoints_say_clearly_where_they_are_not_supported(tmp_path):
    spec, cfg = grid(tmp_path, "ok")
    proc = _cli("check", spec, "--config", cfg, "--checkpoint", tmp_path / "c", "--exact-states")
    assert proc.returncode == 2
    assert proc.stderr.strip() == ("error: --checkpoint is not supported here: --exact-states "
                                   "keeps whole states, which checkpoints do not hold")


def test_ctrl_c_writes_a_checkpoint_says_where_and_the_cli_resumes_it(tmp_path):
    spec, cfg = grid(tmp_path, "ok")
    cfg.write_text("CONSTANT N = 600\nINIT Init\nNEXT Wrap\n")
    where = tmp_path / "ckpt"
    proc = subprocess.Popen([sys.executable, "-m", "checker.cli", "check", str(spec),
                             "--config", str(cfg), "--checkpoint", str(where),
                             "--checkpoint-minutes", "0.001"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_env())
    deadline = time.monotonic() + 60
    while C.newest(where) is None and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Interrupted: The search was interrupted. The statistics so far:" in out
    newest = C.newest(where)
    assert f"Checkpoint: {newest} (resume with --recover {where})" in out
    resumed = _cli("check", spec, "--config", cfg, "--recover", where)
    assert resumed.returncode == 0, resumed.stderr
    assert "720001 states generated, 360000 distinct states found, 0 states left on queue." \
        in resumed.stdout
    assert "The depth of the complete state graph search is 1199." in resumed.stdout


def test_ctrl_c_in_a_terminal_stops_the_workers_at_a_checkpoint_and_they_resume(tmp_path):
    """A terminal's Ctrl-C reaches every process of the group: the workers must let the
    coordinator write the snapshot."""
    spec, cfg = grid(tmp_path, "ok")
    cfg.write_text("CONSTANT N = 250\nINIT Init\nNEXT Wrap\n")
    where = tmp_path / "ckpt"
    proc = subprocess.Popen([sys.executable, "-m", "checker.cli", "check", str(spec),
                             "--config", str(cfg), "--workers", "2", "--checkpoint", str(where),
                             "--checkpoint-minutes", "0.001"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_env(),
                            start_new_session=True)
    deadline = time.monotonic() + 60
    while C.newest(where) is None and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    stopped = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert time.monotonic() - stopped < 5
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert f"Checkpoint: {C.newest(where)} (resume with --recover {where})" in out
    resumed = _cli("check", spec, "--config", cfg, "--recover", where, "--workers", "2")
    assert resumed.returncode == 0, resumed.stderr
    assert "125001 states generated, 62500 distinct states found, 0 states left on queue." \
        in resumed.stdout
    assert "The depth of the complete state graph search is 499." in resumed.stdout


@pytest.mark.parametrize("name", list(CONFIGS))
def test_a_spilling_frontier_gives_the_same_answers(tmp_path, name):
    spec, cfg = grid(tmp_path, name)
    assert figures(check(spec, cfg, frontier_states=3)) == figures(
        check(spec, cfg, frontier_states=None))


@pytest.mark.parametrize("spec,cfg", [("Stop", "Stop"), ("ActionProp", "ActionProp"),
                                      ("Records", "Records"), ("Sym", "Sym")])
def test_a_spilling_frontier_gives_the_same_answers_on_the_test_specs(spec, cfg):
    def run(limit):
        return check(SPECS / f"{spec}.tla", SPECS / f"{cfg}.cfg", frontier_states=limit)
    assert figures(run(1)) == figures(run(None))


@pytest.mark.parametrize("name", list(CONFIGS))
def test_workers_spill_their_share_of_the_frontier_and_count_the_same(tmp_path, name,
                                                                      monkeypatch):
    spec, cfg = grid(tmp_path, name)
    whole = figures(check(spec, cfg, workers=2, frontier_states=None))
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    seen: list[int] = []

    def progress(distinct, generated, queue, depth):  # between two levels
        seen.append(len(list(scratch.glob("kipcheck-workers-*/kipcheck-frontier-*/*.pkl"))))

    spilled = check(spec, cfg, workers=2, frontier_states=7, progress=progress)
    assert figures(spilled) == whole
    assert whole["verdict"] == CONFIGS[name][1]
    assert max(seen) > 2  # batch files were there during the search
    assert list(scratch.iterdir()) == []  # and are gone after it


def test_a_spool_reads_back_in_order_and_picks_by_index(tmp_path):
    s = Spool(limit=6, directory=str(tmp_path))
    items = s.items
    for i in range(50):
        items.append(i)
        items = s.roll()
    s.extend(range(50, 53))
    assert len(s) == 53 and list(s) == list(range(53)) and list(s) == list(range(53))
    assert s.files_written > 5 and s.in_memory <= 6
    assert list(s.pick([0, 3, 4, 17, 40, 52])) == [0, 3, 4, 17, 40, 52]
    assert list(s.pick([])) == []
    s.close()
    assert list(tmp_path.iterdir()) == [] and list(s) == []
    plain = Spool()
    plain.extend(range(5))
    assert plain.chunks == [] and list(plain.pick([1, 4])) == [1, 4]


def test_the_frontier_is_first_in_first_out_through_spills_snapshots_and_reloads(tmp_path):
    import random

    rng = random.Random(5)
    q = Frontier(limit=7)
    expected: list[int] = []
    got: list[int] = []
    n = 0
    for _ in range(400):
        for _ in range(rng.randrange(0, 6)):
            q.tail.append(n)
            expected.append(n)
            n += 1
        q.check()
        for _ in range(rng.randrange(0, 5)):
            if q.head or q.refill():
                got.append(q.head.popleft())
        assert len(q) == len(expected) - len(got)
    assert q.files_written > 10
    (tmp_path / "snap").mkdir()
    files = q.save(str(tmp_path / "snap"), "frontier-0", 4)
    rest = Frontier(limit=5)
    rest.load(str(tmp_path / "snap"), files)
    while q.head or q.refill():
        got.append(q.head.popleft())
    assert got == expected
    again: list[int] = []
    while rest.head or rest.refill():
        again.append(rest.head.popleft())
    assert again == got[len(got) - len(again):] and len(again) == len(rest) + len(again)
    q.close()
    rest.close()


def test_states_that_cannot_be_pickled_stay_in_memory_in_order():
    q = Frontier(limit=2)
    items = [(i, (lambda: 5) if i == 5 else i) for i in range(12)]
    for item in items:
        q.tail.append(item)
        q.check()
    assert q.limit is None and q.spilled == 5  # the states before the lambda went to disk
    got = []
    while q.head or q.refill():
        got.append(q.head.popleft())
    assert got == items
    q.close()


def test_workers_with_different_hash_seeds_agree_with_one_process(tmp_path, monkeypatch):
    """Workers start with their own hash seeds: nothing they compute may depend on hash()."""
    monkeypatch.setenv("PYTHONHASHSEED", "random")
    spec = tmp_path / "Perm.tla"
    spec.write_text("---- MODULE Perm ----\nEXTENDS Naturals, TLC\nCONSTANT Procs\n"
                    "VARIABLES level, done\n"
                    "Init == level = [p \\in Procs |-> 0] /\\ done = {}\n"
                    "Next == \\E p \\in Procs : /\\ level' = [level EXCEPT ![p] = (@ + 1) % 3]\n"
                    "                         /\\ done' = IF level[p] = 2 THEN done \\cup {p} "
                    "ELSE done \\ {p}\n"
                    "Sym == Permutations(Procs)\n====\n")
    cfg = tmp_path / "Perm.cfg"
    cfg.write_text("CONSTANT Procs = {p1, p2, p3, p4}\nINIT Init\nNEXT Next\nSYMMETRY Sym\n")
    one = check(spec, cfg)
    two = check(spec, cfg, workers=2)
    assert one.verdict == V.OK and one.distinct_states < 3 ** 4 * 2 ** 4 / 4
    assert figures(two) == figures(one)


def _env() -> dict:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "checker.cli", *map(str, args)],
                          capture_output=True, text=True, env=_env(), timeout=120)
