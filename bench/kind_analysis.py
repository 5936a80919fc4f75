#!/usr/bin/env python3
"""Check the static kind analysis (checker/semantics/kinds.py) against real searches.

    python bench/kind_analysis.py --manifest --size small        # the shipped models
    python bench/kind_analysis.py --examples MIRROR [--only NAME ...] [--timeout 120]
    python bench/kind_analysis.py --one SPEC CFG [--lib DIR] [--no-deadlock]

The analysis says which variables can never hold two values that Python's == confuses; the
fingerprint tables skip the kind check for those. Here every search runs with the checks on for
every variable (so a value of other kinds than a remembered one is never taken for it) and every
value a variable takes that the tables have not met is tested against the variable's inferred
type: a value outside it is a hole in the analysis, reported with the variable and the value.
One line per model (variables, how many the analysis left checked), then a summary; a model
stopped by --timeout had the states met until then tested (PART). Exit status 0 only if no
value fell outside its type.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def verify_one(spec: str, cfg: str, lib: list[str], deadlock: bool) -> dict:
    """Run one search with every value's type tested; the findings as a dict."""
    from checker import api
    from checker.engine import fingerprints
    from checker.semantics import kinds

    seen: dict = {}
    holes: list = []
    real = kinds.checked_variables

    def capture(comp, variables, init, nxt):
        types = kinds.variable_types(comp, variables, init, nxt)
        seen["names"] = list(variables)
        seen["types"] = [types[v] for v in variables]
        seen["checked"] = real(comp, variables, init, nxt)
        return tuple(True for _ in variables)  # every hit checked kind for kind

    new_mixed = fingerprints._new_mixed

    def tested(i, v):
        t = seen["types"][i]
        if not seen["checked"][i] and not kinds.conforms(v, t) and len(holes) < 5:
            holes.append(f"{seen['names'][i]}: {str(v)[:200]} is not {t}")
            print(json.dumps({"hole": holes[-1]}), flush=True)  # kept if the run times out
        return new_mixed(i, v)

    kinds.checked_variables = capture
    fingerprints._new_mixed = tested
    try:
        out = api.check(spec, cfg, lib=tuple(lib), deadlock=deadlock)
    finally:
        kinds.checked_variables = real
        fingerprints._new_mixed = new_mixed
    checked = seen.get("checked", ())
    return {"variables": len(checked), "checked": sum(checked), "holes": holes,
            "distinct": getattr(out.result, "distinct", None) if hasattr(out, "result") else None}


def run_sub(args: list[str], cwd: Path, timeout: int) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--one", *args]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd,
                           env=env)
    except subprocess.TimeoutExpired as stop:  # the states met so far were tested all the same
        out = stop.stdout.decode() if isinstance(stop.stdout, bytes) else (stop.stdout or "")
        holes = [json.loads(ln)["hole"] for ln in out.splitlines() if ln.startswith('{"hole"')]
        return {"error": f"timeout after {timeout}s", "holes": holes}
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{") and '"hole"' not in ln]
    if not lines:
        return {"error": (p.stdout + p.stderr).strip().replace("\n", " | ")[-300:]}
    return json.loads(lines[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--one", nargs=2, metavar=("SPEC", "CFG"))
    ap.add_argument("--lib", action="append", default=[])
    ap.add_argument("--no-deadlock", action="store_true")
    ap.add_argument("--manifest", action="store_true")
    ap.add_argument("--size", default="small")
    ap.add_argument("--examples", type=Path)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--timeout", type=int, default=120)
    a = ap.parse_args()
    if a.one:
        print(json.dumps(verify_one(a.one[0], a.one[1], a.lib,
                                    False if a.no_deadlock else None)))
        return 0
    jobs = []  # (name, args, cwd, cleanup)
    if a.manifest:
        from checker.manifest import load
        for e in load(ROOT / "invariants" / "manifest.json").entries:
            if e.size == a.size and (not a.only or any(o in e.name for o in a.only)):
                libs = [x for d in e.lib for x in ("--lib", d)]
                jobs.append((e.name, [e.spec, e.config, *libs], ROOT, None))
    if a.examples:
        import examples
        for m in examples.small_models(a.examples):
            if a.only and not any(o in m.name for o in a.only):
                continue
            d = Path(tempfile.mkdtemp(prefix="kinds-"))
            examples.extract(a.examples, m.folder, d)
            try:
                flags = ["--no-deadlock"] if examples.kipcheck_flags(m.entry) else []
            except ValueError:
                continue
            jobs.append((m.name, [str(d / m.spec), str(d / m.cfg), *flags], d, d))
    bad = errors = total = checked = 0
    for name, args, cwd, cleanup in jobs:
        got = run_sub(args, cwd, a.timeout)
        if cleanup is not None:
            shutil.rmtree(cleanup, ignore_errors=True)
        if "error" in got:
            if got.get("holes"):
                bad += 1
            else:
                errors += 1
            print(f"{'HOLE' if got.get('holes') else 'PART'} {name}: {got['error']} (the states "
                  "met until then were tested)" + "".join(f"\n     {h}" for h in
                                                         got.get("holes", ())), flush=True)
            continue
        total += got["variables"]
        checked += got["checked"]
        status = "HOLE" if got["holes"] else "ok  "
        bad += bool(got["holes"])
        print(f"{status} {name}: {got['variables']} variables, {got['checked']} checked"
              + "".join(f"\n     {h}" for h in got["holes"]), flush=True)
    print(f"{len(jobs) - errors - bad} sound, {bad} with holes, {errors} stopped early; "
          f"{checked} of {total} variables checked")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
