#!/usr/bin/env python3
"""Benchmark kipcheck: distinct states, seconds, states/s and peak memory per model.

    python bench/run.py                         # the manifest's medium KIP models
    python bench/run.py --size small            # ... or its small ones
    python bench/run.py --size large            # ... or its large ones, with --workers 2
    python bench/run.py --examples MIRROR       # also public specs from a tlaplus/Examples mirror
    python bench/run.py --only TwoPhase
    python bench/run.py --name KIP858_a_medium --name KIP36_medium   # exact names
    python bench/run.py --only KIP858_a_medium --modes exact,fp,w1,w2
    python bench/run.py --examples MIRROR --only TwoPhase --backend spark   # on local[2]
    python bench/run.py --examples MIRROR --only TwoPhase --tlc tla2tools.jar  # TLC right after

Each model runs in its own process (so peak RSS is its own) once per mode: `exact` (whole states,
--exact-states), `fp` (fingerprints, the default), `wN` (--workers N). CPU s is user + system
time of the process and its workers: on a shared machine it varies less than seconds (wall
clock), so compare modes by it. Peak RSS sums the process
and its workers (sampled every 0.2 s); B/state is the visited store's size over the distinct
states. Public specs are extracted from the mirror into a scratch directory, never into the
repository. With `--backend spark` every mode runs on Spark (`--spark-master`, default local[2]);
peak RSS and CPU s then include the JVM and Spark's Python workers (CPU sampled per process).
Levels is the search's depth; s/level the seconds per level. With `--tlc JAR` (or TLC_JAR set),
TLC (`-workers 1`, ParallelGC) checks the same spec and configuration right after kipcheck's
modes, and a `tlc` row gives its seconds and the ratio of kipcheck's first mode to it, so the
comparison is made in one run on one machine. The jar stays outside the repository.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import re
import resource
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent



def shipped(size: str) -> dict:
    """The manifest's models of one size: name -> (spec, cfg, extra args), paths relative to
    the repository root."""
    sys.path.insert(0, str(ROOT))
    from checker.manifest import load

    out = {}
    for e in load(ROOT / "invariants" / "manifest.json").entries:
        if e.size == size:
            extra = [arg for d in e.lib for arg in ("--lib", d)]
            out[e.name] = (e.spec, e.config, extra)
    return out


# name -> (directory in tlaplus/Examples, spec file, cfg text or cfg file name, extra args)
PUBLIC_COMMIT = "32a32c7"
PUBLIC = {
    # The acceptance benchmark: Lamport's TwoPhase with 8 resource managers (TLC 2.18, 1 worker,
    # quiet 2-core machine: 27 s; 1,745,408 distinct, 18,507,778 generated, depth 26).
    "TwoPhase-8RM": ("specifications/transaction_commit", "TwoPhase.tla",
                     "CONSTANT RM = {r1, r2, r3, r4, r5, r6, r7, r8}\nINIT TPInit\n"
                     "NEXT TPNext\nINVARIANT TPTypeOK\n", ["--no-deadlock"]),
    "SlushSmall": ("specifications/SlushProtocol", "Slush.tla", "SlushSmall.cfg", []),
    "MCLamportMutex": ("specifications/lamport_mutex", "MCLamportMutex.tla",
                       "MCLamportMutex.cfg", []),
    # with the two above, the corpus's five slowest models (../shared/corpus/public.json)
    "MultiPaxos_MC_small": ("specifications/MultiPaxos-SMR", "MultiPaxos_MC.tla",
                            "MultiPaxos_MC_small.cfg", []),
    "MCNanoMedium": ("specifications/NanoBlockchain", "MCNano.tla", "MCNanoMedium.cfg", []),
    "GameOfLife": ("specifications/GameOfLife", "GameOfLife.tla", "GameOfLife.cfg", []),
}


def _selected(name: str, args) -> bool:
    return name in args.name or any(o in name for o in args.only)


def extract(mirror: Path, subdir: str, dest: Path) -> None:
    tar = subprocess.run(["git", "--git-dir", str(mirror), "archive", PUBLIC_COMMIT, subdir],
                         capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as tf:
        tf.extractall(dest, filter="data")


MODES = {"exact": ["--exact-states"], "fp": [], "w1": ["--workers", "1"],
         "w2": ["--workers", "2"], "w4": ["--workers", "4"],
         # the frontier (queue) all in memory, or spilling to disk past 10,000 states
         "mem": ["--frontier-states", "1000000000"], "spill": ["--frontier-states", "10000"],
         "w2spill": ["--workers", "2", "--frontier-states", "10000"]}

# Synthetic models (--synthetic): a wide level of big states, where the queue dominates memory.
SYNTHETIC = {
    "WideLevel": ("""---- MODULE WideLevel ----
EXTENDS Naturals, Sequences
VARIABLES x, y, log
Init == x \\in 1..500 /\\ y = 0 /\\ log = <<>>
Next == \\/ y = 0 /\\ y' \\in 1..600 /\\ x' = x
           /\\ log' = <<[from |-> x, to |-> y', id |-> x * 1000 + y']>>
        \\/ y > 0 /\\ Len(log) < 3 /\\ x' = x /\\ y' = y
           /\\ log' = Append(log, [from |-> x, to |-> y, id |-> (x * 1000 + y) * 10 + Len(log)])
====
""", "INIT Init\nNEXT Next\n", ["--no-deadlock"]),
}


def children(pid: int) -> list[int]:
    """The child processes of pid, started by any of its threads (a JVM starts Spark's Python
    workers from a thread other than its main one)."""
    out = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                out += [int(c) for c in f.read().split()]
        except OSError:
            continue
    return out


def tree_rss(pid: int) -> int:
    """RSS in KiB of a process and all its descendants (0 if it is gone)."""
    total = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
                        break
            todo += children(p)
        except (OSError, ValueError):
            continue
    return total


def tree_cpu(pid: int, seen: dict) -> None:
    """Record the CPU seconds (user + system) of pid and its descendants in `seen` (pid ->
    seconds): processes the benchmarked one never waits for (a JVM) count too."""
    todo = [pid]
    tick = os.sysconf("SC_CLK_TCK")
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            seen[p] = max(seen.get(p, 0.0), (int(fields[11]) + int(fields[12])) / tick)
            todo += children(p)
        except (OSError, ValueError, IndexError):
            continue


def measure(cmd: list[str], cwd: Path) -> tuple[dict | None, float, float, int, int]:
    """Run cmd; return (report, seconds, CPU seconds (user + system, workers included), peak
    RSS in KiB of it and its workers, exit code)."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        started = time.perf_counter()
        proc = subprocess.Popen(cmd + ["--report-json", str(report)], cwd=cwd,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        peak = [0]
        cpus: dict = {}
        done = threading.Event()

        def sample():
            while not done.wait(0.2):
                peak[0] = max(peak[0], tree_rss(proc.pid))
                tree_cpu(proc.pid, cpus)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        done.set()
        sampler.join()
        seconds = time.perf_counter() - started
        code = os.waitstatus_to_exitcode(status)
        data = json.loads(report.read_text()) if report.exists() else None
        cpu = usage.ru_utime + usage.ru_stime  # workers included: they were waited for
        cpu = max(cpu, sum(cpus.values()))  # with processes it did not wait for
        return data, seconds, cpu, max(peak[0], usage.ru_maxrss), code


def run_tlc(jar: str, cmd: list[str], cwd: Path) -> tuple[int | None, float, float, int]:
    """TLC on the spec and configuration of a kipcheck command line: (distinct states or None,
    seconds, CPU seconds, exit code). Its metadata goes to a scratch directory."""
    spec = next(a for a in cmd[4:] if a.endswith(".tla"))
    config = cmd[cmd.index("--config") + 1]
    libs = [cmd[i + 1] for i, a in enumerate(cmd) if a == "--lib"]
    with tempfile.TemporaryDirectory() as meta:
        java = ["java", "-XX:+UseParallelGC"]
        if libs:
            java.append("-DTLA-Library=" + os.pathsep.join(str((cwd / d).resolve())
                                                              for d in libs))
        tlc = [*java, "-cp", jar, "tlc2.TLC", "-workers", "1", "-metadir", meta,
               "-config", str((cwd / config).resolve())]
        if "--no-deadlock" in cmd:
            tlc.append("-deadlock")
        spec_path = (cwd / spec).resolve()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        proc = subprocess.run([*tlc, spec_path.stem], cwd=spec_path.parent, text=True,
                              capture_output=True)
        seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    found = re.findall(r"([\d,]+) distinct states found", proc.stdout)
    distinct = int(found[-1].replace(",", "")) if found else None
    return distinct, seconds, cpu, proc.returncode


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--examples", type=Path, help="git dir of a tlaplus/Examples mirror")
    ap.add_argument("--only", action="append", default=[], help="substring of a model name")
    ap.add_argument("--name", action="append", default=[],
                    help="a model's exact name (repeatable; with --only, either selects)")
    ap.add_argument("--size", default="medium", choices=("small", "medium", "large"),
                    help="which of the manifest's models to run (default: medium)")
    ap.add_argument("--modes", default=None,
                    help="comma-separated: exact, fp, w1, w2, w4, mem, spill, w2spill (default: "
                         "fp; w2 with --size large, whose models are meant for two workers)")
    ap.add_argument("--synthetic", action="store_true",
                    help="also the synthetic models (WideLevel: a level of 300,000 big states)")
    ap.add_argument("--backend", default="local", choices=("local", "spark"),
                    help="run every mode on this backend (default: local)")
    ap.add_argument("--spark-master", default="local[2]",
                    help="the Spark master with --backend spark (default: local[2])")
    ap.add_argument("--tlc", metavar="JAR", default=os.environ.get("TLC_JAR"),
                    help="also run TLC (one worker) from this tla2tools.jar after each model "
                         "and print kipcheck's time over TLC's (default: $TLC_JAR)")
    args = ap.parse_args()
    modes = (args.modes or ("w2" if args.size == "large" else "fp")).split(",")
    if unknown := [m for m in modes if m not in MODES]:
        ap.error(f"unknown mode(s) {', '.join(unknown)}; choose from {', '.join(MODES)}")
    kipcheck = [sys.executable, "-m", "checker.cli", "check"]
    backend = []
    if args.backend == "spark":
        backend = ["--backend", "spark", "--spark-master", args.spark_master]
    rows = []
    jobs = [(n, ROOT, [*kipcheck, s, "--config", c, *x])
            for n, (s, c, x) in shipped(args.size).items()]
    scratch = None
    if args.examples:
        scratch = Path(tempfile.mkdtemp(prefix="kipcheck-bench-"))
        for name, (subdir, spec, cfg, extra) in PUBLIC.items():
            if (args.only or args.name) and not _selected(name, args):
                continue
            extract(args.examples, subdir, scratch)
            where = scratch / subdir
            if "\n" in cfg:
                (where / f"{name}.cfg").write_text(cfg)
                cfg = f"{name}.cfg"
            jobs.append((name, where, [*kipcheck, spec, "--config", cfg, *extra]))
    if args.synthetic:
        scratch = scratch or Path(tempfile.mkdtemp(prefix="kipcheck-bench-"))
        for name, (tla, cfg, extra) in SYNTHETIC.items():
            (scratch / f"{name}.tla").write_text(tla)
            (scratch / f"{name}.cfg").write_text(cfg)
            jobs.append((name, scratch, [*kipcheck, f"{name}.tla", *extra]))
    if args.only or args.name:
        jobs = [j for j in jobs if _selected(j[0], args)]
    print(f"{'model':34} {'mode':5} {'verdict':10} {'distinct':>10} {'generated':>11} "
          f"{'seconds':>8} {'CPU s':>8} {'gen/s':>9} {'distinct/s':>10} {'peak MiB':>9} "
          f"{'B/state':>8} {'levels':>6} {'s/level':>7}")
    for name, cwd, cmd in jobs:
        first = None
        for mode in modes:
            data, secs, cpu, rss, code = measure(cmd + MODES[mode] + backend, cwd)
            if data is None:
                print(f"{name:34} {mode:5} failed (exit {code})")
                continue
            gen, dist = data["states_generated"], data["distinct_states"]
            store = data.get("visited_store_bytes") or 0
            per_state = f"{store / dist:8.1f}" if store and dist else f"{'-':>8}"
            levels = max(1, data.get("depth") or 1)
            rows.append((name, mode, data, secs, rss))
            if first is None:
                first = (mode, secs, cpu, dist)
            print(f"{name:34} {mode:5} {data['verdict']:10} {dist:>10,} {gen:>11,} "
                  f"{secs:>8.1f} {cpu:>8.1f} {gen / secs:>9,.0f} {dist / secs:>10,.0f} "
                  f"{rss / 1024:>9,.0f} {per_state} {levels:>6} {secs / levels:>7.2f}",
                  flush=True)
        if args.tlc and first is not None:
            dist, secs, cpu, code = run_tlc(args.tlc, cmd, cwd)
            same = "" if dist == first[3] else f"  (TLC's distinct: {dist}: differs!)"
            print(f"{name:34} {'tlc':5} {'exit ' + str(code):10} {dist or 0:>10,} {'':>11} "
                  f"{secs:>8.1f} {cpu:>8.1f}   kipcheck {first[0]} / TLC: seconds "
                  f"{first[1] / secs:.2f}x, CPU {first[2] / max(cpu, 1e-9):.2f}x{same}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
