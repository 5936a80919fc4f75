#!/usr/bin/env python3
"""Differential fuzzing: random small models (tests/specgen.py) checked by kipcheck and TLC.

    python bench/fuzz_tlc.py --tlc tla2tools.jar [--cases N] [--seed S] [--jobs J] [--out DIR]
    python bench/fuzz_tlc.py --no-tlc --cases 10000      # kipcheck alone: tracebacks, exit codes

For every case kipcheck runs in a worker process (in-process CLI, with --report-json) and TLC
runs as `java ... tlc2.TLC -workers 1`; a case fails when kipcheck ends with a traceback, an
exit code outside its catalogue, an invalid report, or a timeout, or (with TLC) when the two
disagree on the exit code, on the distinct/generated counts and depth of a model that holds, or
on the violated invariant and the counterexample's length. Each failing case is saved into
DIR/SEED/ with both outputs. The last line is `N passed, M failed`.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from specgen import generate, run_kipcheck  # noqa: E402
from specgen_opt import generate_opt  # noqa: E402

EVAL_CODES = {75, 76, 255}
MEMORY_LIMIT = 3 << 30  # per worker: a runaway case dies of MemoryError, not the machine


def tlc(folder: Path, jar: str, timeout: float) -> dict:
    """Run TLC on folder/Fz.tla and read its verdict, counts and trace length from its text."""
    # its own tmpdir: TLC unpacks the standard modules there, and parallel runs would race
    cmd = ["java", "-Xmx1g", "-XX:+UseParallelGC", f"-Djava.io.tmpdir={folder}", "-cp", jar,
           "tlc2.TLC", "-workers", "1", "-metadir", str(folder / "tlc-meta"),
           "-config", "Fz.cfg", "Fz"]
    try:
        p = subprocess.run(cmd, cwd=folder, capture_output=True, timeout=timeout,
                           encoding="utf-8", errors="replace",
                           preexec_fn=_unlimit_memory)
    except subprocess.TimeoutExpired:
        return {"exit_code": None, "output": "", "timed_out": True}
    shutil.rmtree(folder / "tlc-meta", ignore_errors=True)
    return parse_tlc(p.stdout + p.stderr, p.returncode)


def parse_tlc(text: str, code: int) -> dict:
    out = {"exit_code": code, "output": text, "timed_out": False}
    m = re.findall(r"^(\d+) states generated, (\d+) distinct states found", text, re.M)
    if m:
        out["states_generated"], out["distinct_states"] = map(int, m[-1])
    m = re.search(r"The depth of the complete state graph search is (\d+)", text)
    out["depth"] = int(m.group(1)) if m else None
    m = re.search(r"Error: (?:Invariant|Action property|Property) (\S+) is violated", text)
    out["property"] = m.group(1) if m else None
    if re.search(r"is violated by the initial state", text):
        out["trace_length"] = 1
        return out
    states = [ln for ln in text.splitlines() if re.match(r"^State \d+: ", ln)]
    out["trace_length"] = sum(1 for ln in states
                              if "Stuttering" not in ln and "Back to state" not in ln)
    return out


def compare(k, t: dict) -> list[str]:
    """Disagreements between a kipcheck Run and TLC's parsed output."""
    if t.get("timed_out"):
        return ["TLC timed out"]
    if k.exit_code != t["exit_code"]:
        # TLC ends an evaluation error with 75 (initial states), 76 (invariant) or 255 (next
        # state, constraint): a differing code there is a lesser disagreement than a verdict
        tag = "eval exit code" if {k.exit_code, t["exit_code"]} <= EVAL_CODES else "exit code"
        if "Overflow" in t["output"]:  # TLC's integers are 32-bit, kipcheck's exact
            tag = "TLC integer overflow"
        return [f"{tag}: kipcheck {k.exit_code}, TLC {t['exit_code']}"]
    rep = k.report or {}
    diffs = []
    if k.exit_code == 0:
        for key in ("distinct_states", "states_generated", "depth"):
            if t.get(key) is not None and rep.get(key) != t.get(key):
                diffs.append(f"{key}: kipcheck {rep.get(key)}, TLC {t.get(key)}")
    elif k.exit_code in (11, 12, 13):
        # (TLC names a []P property violated by an initial state by its formula, not its name)
        if (k.exit_code == 12 and rep.get("property") != t.get("property")
                and "by the initial state" not in t["output"]):
            diffs.append(f"violated: kipcheck {rep.get('property')}, TLC {t.get('property')}")
        lasso = rep.get("loop") is not None
        mine, theirs = rep.get("trace_length"), t.get("trace_length")
        # A liveness counterexample is any lasso that breaks the property, and TLC's is not
        # always the shortest: a shorter one from kipcheck agrees, a longer one does not.
        if mine != theirs and not (lasso and mine is not None and theirs is not None
                                   and mine < theirs):
            tag = "liveness trace length" if lasso else "trace length"
            diffs.append(f"{tag}: kipcheck {mine}, TLC {theirs}")
    return diffs


def _limit_memory() -> None:
    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, hard))


def _unlimit_memory() -> None:
    """The JVM reserves more address space than it uses: TLC runs without the soft limit."""
    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    resource.setrlimit(resource.RLIMIT_AS, (hard, hard))


def one_case(job: tuple) -> dict:
    seed, jar, timeout, scratch, family = job
    case = generate_opt(seed) if family == "opt" else generate(seed)
    folder = Path(tempfile.mkdtemp(prefix=f"{seed}-", dir=scratch))
    spec, cfg = case.write(folder)
    started = time.perf_counter()
    k = run_kipcheck(spec, cfg, timeout=timeout)
    seconds = time.perf_counter() - started
    problems = k.problems()
    t = None
    if jar and not k.timed_out:
        t = tlc(folder, jar, timeout)
        problems += compare(k, t)
    res = {"seed": seed, "kind": case.kind, "liveness": case.liveness, "problems": problems,
           "kipcheck_exit": k.exit_code, "tlc_exit": t and t["exit_code"],
           "seconds": round(seconds, 2)}
    if problems:
        (folder / "kipcheck.out").write_text(k.output + (k.traceback or ""), encoding="utf-8")
        if t is not None:
            (folder / "tlc.out").write_text(t["output"], encoding="utf-8")
        (folder / "summary.json").write_text(json.dumps(
            {**res, "kipcheck_report": k.report,
             "tlc": {key: v for key, v in (t or {}).items() if key != "output"}}, indent=2))
        res["folder"] = str(folder)
    else:
        shutil.rmtree(folder, ignore_errors=True)
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tlc", metavar="JAR", help="tla2tools.jar")
    ap.add_argument("--no-tlc", action="store_true", help="kipcheck alone (fast)")
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--family", choices=["mixed", "opt"], default="mixed",
                    help="mixed: tests/specgen.py (faults planted in a share); opt: "
                         "tests/specgen_opt.py (the shapes kipcheck computes its own way)")
    ap.add_argument("--seed", type=int, default=0, help="first seed")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per run")
    ap.add_argument("--out", default=str(Path(tempfile.gettempdir()) / "kipcheck-fuzz"),
                    help="where failing cases are saved (default: %(default)s)")
    args = ap.parse_args()
    if not args.no_tlc and not args.tlc:
        ap.error("give --tlc JAR, or --no-tlc")
    jar = None if args.no_tlc else str(Path(args.tlc).resolve())
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="fuzz-")
    jobs = [(s, jar, args.timeout, scratch, args.family)
            for s in range(args.seed, args.seed + args.cases)]
    passed, failed, kinds = 0, 0, Counter()
    started = time.time()
    with multiprocessing.Pool(args.jobs, initializer=_limit_memory,
                              maxtasksperchild=100) as pool:
        for res in pool.imap_unordered(one_case, jobs):
            kinds[(res["kind"].split(":")[0], res["kipcheck_exit"], res["tlc_exit"])] += 1
            if res["problems"]:
                failed += 1
                dest = out / str(res["seed"])
                shutil.rmtree(dest, ignore_errors=True)
                shutil.move(res["folder"], dest)
                print(f"FAIL seed {res['seed']} [{res['kind']}]: {'; '.join(res['problems'])}",
                      flush=True)
            else:
                passed += 1
    shutil.rmtree(scratch, ignore_errors=True)
    print(f"{args.cases} cases in {time.time() - started:.0f} s; "
          "(kind, kipcheck exit, TLC exit): count")
    for key, n in sorted(kinds.items(), key=lambda kv: (-kv[1], str(kv[0]))):
        print(f"  {key}: {n}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
