#!/usr/bin/env python3
"""Check kipcheck's model of TLC's intern order against a TLC jar.

    python bench/tlc_intern_order.py --tlc tla2tools.jar

TLC orders strings by when it first met them (checker/semantics/intern_order.py). For each
standard module of `TLC_MODULES`, and for a few EXTENDS lists, this writes a spec that prints
one set holding every identifier the table names plus strings no module has (the initial state
of a violated invariant), runs TLC and kipcheck on it, and compares the two orders. One line per
spec, then `N agree, M differ`; exit status 0 only if all agree. The jar stays outside the
repository.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from checker.semantics.intern_order import TLC_MODULES  # noqa: E402

EXTRA = ("zz", "c", "qq", "h")  # strings no standard module has: they come last, in this order
# kipcheck has no RealTime and no Toolbox (an error names the missing module): they are
# in the table for the modules that refer to them, not probed here.
LISTS = [(m,) for m in TLC_MODULES if m not in ("RealTime", "Toolbox")] + [
    ("Naturals", "Sequences", "FiniteSets", "TLC"), ("FiniteSets", "TLC", "Naturals"),
    ("Bags", "Integers"), ("Randomization", "Sequences", "Reals")]


def probe(extends: tuple[str, ...]) -> str:
    names = sorted({n for m in TLC_MODULES.values() for n in m[1]} | set(EXTRA))
    body = ", ".join(f'"{n}"' for n in names)
    return (f"---- MODULE Probe ----\nEXTENDS {', '.join(extends)}\nVARIABLE x\n"
            f"Init == x = {{{body}}}\nNext == UNCHANGED x\nInv == x = {{}}\n====\n")


def printed(output: str) -> list[str]:
    m = re.search(r"x = \{\s*(\"[^}]*)\}", output)
    return re.findall(r'"([^"]*)"', m.group(1)) if m else []


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tlc", required=True, help="path of tla2tools.jar")
    args = ap.parse_args()
    agree = differ = 0
    with tempfile.TemporaryDirectory(prefix="kipcheck-intern-") as tmp:
        d = Path(tmp)
        (d / "Probe.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
        for extends in LISTS:
            (d / "Probe.tla").write_text(probe(extends))
            tlc = subprocess.run(["java", "-cp", args.tlc, "tlc2.TLC", "-workers", "1",
                                  "Probe.tla"], cwd=d, capture_output=True, text=True)
            mine = subprocess.run([sys.executable, "-m", "checker.cli", "check", "Probe.tla"],
                                  cwd=d, capture_output=True, text=True,
                                  env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
            theirs, ours = printed(tlc.stdout), printed(mine.stdout)
            same = bool(theirs) and theirs == ours
            agree += same
            differ += not same
            print(f"EXTENDS {', '.join(extends)}: {'agree' if same else 'DIFFER'}")
            if not same:
                print(f"  TLC:      {theirs}\n  kipcheck: {ours}")
    print(f"{agree} agree, {differ} differ")
    return 0 if differ == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
