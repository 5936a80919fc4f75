"""Inputs on which kipcheck once gave a silent wrong answer or a traceback, each pinned to what
TLC 2.18 reports for the same spec and configuration (exit code and the key part of its
message)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from checker.api import check

ROOT = Path(__file__).resolve().parent.parent


def write_spec(tmp_path, body: str, cfg: str = "INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n",
               name: str = "M", extends: str = "Naturals"):
    spec = tmp_path / f"{name}.tla"
    head = f"EXTENDS {extends}\n" if extends else ""
    spec.write_text(f"---- MODULE {name} ----\n{head}{body}\n====\n")
    (tmp_path / f"{name}.cfg").write_text(cfg)
    return spec


def cli(*args, env=None):
    """Run the CLI in a fresh process: (exit code, stdout + stderr)."""
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    p = subprocess.run([sys.executable, "-m", "checker.cli", *args], cwd=ROOT, env=full_env,
                       capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


# -- ASSUMEs of EXTENDed modules ----------------------------------------------------------------

def test_false_assume_of_extended_kip858_module_exits_10():
    rc, out = cli("check", "invariants/KIP858Properties.tla", "-c",
                  "invariants/KIP858_a_small_assign.cfg", "--lib", "spec", "-D", 'Revision="z"')
    assert rc == 10, out
    assert "Assumption line 84, col 8 to line 96, col 62 of module KIP858 is false." in out


def test_false_assume_of_extended_kip516_module_exits_10():
    rc, out = cli("check", "invariants/KIP516Properties.tla", "-c",
                  "invariants/KIP516_small.cfg", "--lib", "spec", "-D", "ReplicationFactor=5")
    assert rc == 10, out
    assert "of module KIP516 is false." in out


def test_assumes_of_extended_modules_first_and_not_of_instances(tmp_path):
    (tmp_path / "E.tla").write_text("---- MODULE E ----\nCONSTANT K\nASSUME K \\in {1,2}\n====\n")
    (tmp_path / "I.tla").write_text("---- MODULE I ----\nCONSTANT J\nASSUME J = 7\n====\n")
    body = ("VARIABLE x\nASSUME K = 9\nInst == INSTANCE I WITH J <- 3\n"
            "Init == x = 0\nNext == x < 3 /\\ x' = x + 1")
    cfg = "CONSTANT K = {}\nINIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n"
    spec = write_spec(tmp_path, body, cfg.format(5), extends="E, Naturals")
    o = check(spec)
    assert o.exit_code == 10
    assert o.message == "Assumption line 3, col 8 to line 3, col 18 of module E is false."
    (tmp_path / "M.cfg").write_text(cfg.format(1))
    o = check(spec)
    assert o.exit_code == 10
    assert o.message == "Assumption line 4, col 8 to line 4, col 12 of module M is false."
    spec.write_text(spec.read_text().replace("ASSUME K = 9\n", ""))
    (tmp_path / "M.cfg").write_text(cfg.format(1))
    o = check(spec)  # I's ASSUME (J = 7 with J <- 3) is not checked, as in TLC
    assert (o.verdict, o.distinct_states) == ("ok", 4)
