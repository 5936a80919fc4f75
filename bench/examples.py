#!/usr/bin/env python3
"""Check the small models of a tlaplus/Examples mirror and compare with TLC's recorded results.

    python bench/examples.py --examples MIRROR                 # every small exhaustive model
    python bench/examples.py --examples MIRROR --only DieHard --timeout 60 --jobs 2
    python bench/examples.py --examples MIRROR --out results.txt

MIRROR is the git directory of a local mirror of tlaplus/Examples. Its `manifest.json` files list
each spec's models with what TLC reported: `mode`, `runtime`, `result` and, for most, the counts
`distinctStates`, `totalStates` and `stateDepth`. Every model checked by "exhaustive search" in at
most a minute is run here: its spec's folder is extracted at HEAD into a scratch directory (the
specs never enter the repository) and this repository's kipcheck runs on it as
`python -m checker.cli check SPEC --config CFG --report-json R`. A model passes when the verdict
matches TLC's result and, for a model TLC passed, the recorded distinct and generated counts
match. At a violation TLC stops at the first bad state its own order meets, so only the verdict is
compared there. The recorded depth is shown when it differs but not compared, as the Examples
repository's own CI does not compare it: where a manifest records another depth, TLC 2.18 run
here on the same model (with one worker, and with four on EWD840 and kvstore) reports
kipcheck's depth, on 13 of the 17 such models (the other four need more than plain TLC 2.18).
One line per model, then `N passed, M failed`; exit status 0 only if all match.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_RUNTIME = 60  # seconds: the models TLC checks in at most a minute

# The manifest's `result` words -> the kipcheck --report-json verdicts that agree with them.
# TLC's "safety failure" is a violated invariant or action property.
RESULTS = {
    "success": ("ok",),
    "safety failure": ("invariant", "property"),
    "liveness failure": ("property",),
    "deadlock failure": ("deadlock",),
    "assumption failure": ("assumption",),
}

# The manifest's counts -> the report's.
COUNTS = (("distinctStates", "distinct_states"), ("totalStates", "states_generated"))
DEPTH = ("stateDepth", "depth")  # shown when it differs, not compared (see the docstring)


@dataclass
class Model:
    name: str  # the .cfg path with the leading "specifications/" dropped
    folder: str  # the spec's folder in the mirror (the manifest's directory)
    spec: str  # mirror paths of the .tla and .cfg
    cfg: str
    entry: dict  # the manifest's model entry


def git(git_dir: Path, *args: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(git_dir), *args], capture_output=True,
                          check=True).stdout


def seconds(runtime: str) -> int | None:
    """"HH:MM:SS" -> seconds; None for "unknown"."""
    try:
        h, m, s = (int(x) for x in runtime.split(":"))
    except ValueError:
        return None
    return h * 3600 + m * 60 + s


def small_models(git_dir: Path) -> list[Model]:
    """Every model of every manifest checked by exhaustive search in at most MAX_RUNTIME."""
    names = git(git_dir, "ls-tree", "-r", "HEAD", "--name-only").decode().split()
    models = []
    for manifest in sorted(n for n in names if n.endswith("manifest.json")):
        doc = json.loads(git(git_dir, "show", f"HEAD:{manifest}"))
        folder = str(Path(manifest).parent)
        for module in doc.get("modules", []):
            for m in module.get("models", []):
                if m.get("mode") != "exhaustive search":
                    continue
                secs = seconds(m.get("runtime", "unknown"))
                if secs is None or secs > MAX_RUNTIME:
                    continue
                name = m["path"].removeprefix("specifications/")
                models.append(Model(name, folder, module["path"], m["path"], m))
    return models


def extract(git_dir: Path, folder: str, dest: Path) -> None:
    """Write the mirror's `folder` at HEAD under dest."""
    tar = git(git_dir, "archive", "HEAD", folder)
    with tarfile.open(fileobj=io.BytesIO(tar)) as tf:
        tf.extractall(dest, filter="data")


def kipcheck_flags(entry: dict) -> list[str]:
    """TLC's command-line flags recorded for a model, as kipcheck options."""
    flags = []
    for f in entry.get("tlcFlags") or entry.get("extra_tlc_flags") or []:
        if f == "-deadlock":
            flags.append("--no-deadlock")
        else:
            raise ValueError(f"no kipcheck equivalent known for TLC flag {f}")
    return flags


def compare(model: Model, got: dict) -> list[str]:
    """What differs between kipcheck's report and TLC's recorded result (empty: a match)."""
    want = RESULTS.get(model.entry["result"])
    if want is None:
        return [f"unknown manifest result {model.entry['result']!r}"]
    verdict = got.get("verdict")
    if verdict not in want:
        why = f"verdict {verdict} != {'/'.join(want)}"
        if got.get("message"):
            where = got.get("location") or {}
            at = (f" at {Path(where['file']).name}:{where['line']}:{where['column']}"
                  if where else "")
            why += f": {' | '.join(got['message'].strip().splitlines())}{at}"
        return [why]
    diffs = []
    if want == ("ok",):
        for tlc_key, key in COUNTS:
            if tlc_key in model.entry and got.get(key) != model.entry[tlc_key]:
                diffs.append(f"{key} {got.get(key)} != {model.entry[tlc_key]}")
    return diffs


def depth_note(model: Model, got: dict) -> str:
    """" (depth D, recorded R)" when a passing model's depth differs from the recorded one."""
    tlc_key, key = DEPTH
    if (model.entry["result"] == "success" and tlc_key in model.entry
            and got.get(key) != model.entry[tlc_key]):
        return f" (depth {got.get(key)}, recorded {model.entry[tlc_key]}: not compared)"
    return ""


def run_one(model: Model, git_dir: Path, work: Path, timeout: int,
            workers: int = 1) -> tuple[bool, str]:
    d = Path(tempfile.mkdtemp(prefix="m-", dir=work))
    try:
        extract(git_dir, model.folder, d)
        spec, cfg = d / model.spec, d / model.cfg
        report = d / "report.json"
        cmd = [sys.executable, "-m", "checker.cli", "check", str(spec), "--config", str(cfg),
               "--report-json", str(report), *kipcheck_flags(model.entry)]
        if workers > 1:  # the worker backend, held to the same recorded figures
            cmd += ["--workers", str(workers)]
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        t0 = time.time()
        try:
            # From the root of the extracted tree, as the Examples' CI runs TLC: specs name
            # their data files relative to it (specifications/ewd998/...ndjson).
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                               cwd=d, env=env)
        except subprocess.TimeoutExpired:
            return False, f"timeout after {timeout}s (TLC took {model.entry['runtime']})"
        speed = f"[{time.time() - t0:.1f}s vs TLC {model.entry['runtime']}]"
        if not report.exists():
            tail = (p.stdout + p.stderr).strip().replace("\n", " | ")[-300:]
            return False, f"no report (exit {p.returncode}): {tail} {speed}"
        got = json.loads(report.read_text())
        diffs = compare(model, got)
        if diffs:
            return False, "; ".join(diffs) + f" {speed}"
        return True, f"match{depth_note(model, got)} {speed}"
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--examples", required=True, type=Path,
                    help="git dir of a local tlaplus/Examples mirror")
    ap.add_argument("--only", action="append", default=[],
                    help="substring of a model's name (repeatable)")
    ap.add_argument("--timeout", type=int, default=60, help="seconds per model")
    ap.add_argument("--jobs", type=int, default=1, help="models checked at once")
    ap.add_argument("--out", type=Path, help="also write the lines to this file")
    ap.add_argument("--workers", type=int, default=1,
                    help="kipcheck's --workers for every model (default: one process)")
    args = ap.parse_args()
    models = small_models(args.examples)
    if args.only:
        models = [m for m in models if any(s in m.name for s in args.only)]
    out = args.out.open("w") if args.out else None
    work = Path(tempfile.mkdtemp(prefix="kipcheck-examples-"))

    def check(model: Model) -> tuple[Model, bool, str]:
        try:
            ok, msg = run_one(model, args.examples, work, args.timeout, args.workers)
        except Exception as exc:  # one broken model must not hide the others
            ok, msg = False, f"runner error: {exc}"
        return model, ok, msg

    passed = failed = 0
    try:
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for model, ok, msg in pool.map(check, models):
                passed += ok
                failed += not ok
                line = f"{model.name} {'PASS' if ok else 'FAIL'} {msg}"
                print(line, flush=True)
                if out:
                    print(line, file=out, flush=True)
        total = f"{passed} passed, {failed} failed"
        print(total)
        if out:
            print(total, file=out)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if out:
            out.close()
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
