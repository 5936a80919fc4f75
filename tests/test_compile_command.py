"""`kipcheck compile` prints the Python a spec compiles to, each line tied to the spec's line."""
from __future__ import annotations

import subprocess
import sys

SPEC = """\
---- MODULE Sh ----
EXTENDS Naturals
CONSTANT RM
VARIABLES st, rm
Init == st = "init" /\\ rm = [r \\in RM |-> "working"]
Commit == st = "init" /\\ st' = "done" /\\ UNCHANGED rm
Prepare(r) == rm[r] = "working" /\\ rm' = [rm EXCEPT ![r] = "prepared"] /\\ UNCHANGED st
Next == Commit \\/ \\E r \\in RM : Prepare(r)
====
"""


def run(tmp_path, *args):
    (tmp_path / "Sh.tla").write_text(SPEC)
    (tmp_path / "Sh.cfg").write_text("CONSTANT RM = {r1, r2}\nINIT Init\nNEXT Next\n")
    return subprocess.run([sys.executable, "-m", "checker.cli", "compile",
                           str(tmp_path / "Sh.tla"), *args], capture_output=True, text=True)


def test_an_actions_functions_and_the_expand_function_with_spec_lines(tmp_path):
    r = run(tmp_path, "--action", "Prepare")
    assert r.returncode == 0, r.stderr
    headers = [line for line in r.stdout.splitlines() if line.startswith("# ---- ")]
    assert len(headers) == 3  # Prepare's instances for r1 and r2, expand
    assert headers[-1] == "# ---- expand"
    assert "Commit" not in "".join(headers)
    assert "except_(s[1], " in r.stdout
    assert "  # Sh.tla:7:15" in r.stdout  # rm[r] = "working", Prepare's first conjunct


def test_every_function_without_action(tmp_path):
    r = run(tmp_path)
    assert r.returncode == 0, r.stderr
    assert "# ---- init" in r.stdout and "Commit" in r.stdout and "# ---- expand" in r.stdout


def test_an_unknown_action_is_a_usage_error_that_lists_the_actions(tmp_path):
    r = run(tmp_path, "--action", "Abort")
    assert r.returncode == 2
    assert r.stderr.strip() == ("error: no action named Abort in the next-state relation; its "
                                "actions are: Commit, Prepare")


def test_a_bad_spec_is_reported_with_its_place(tmp_path):
    (tmp_path / "Bad.tla").write_text("---- MODULE Bad ----\nVARIABLE x\nInit == x = \n====\n")
    (tmp_path / "Bad.cfg").write_text("INIT Init\nNEXT Init\n")
    r = subprocess.run([sys.executable, "-m", "checker.cli", "compile", str(tmp_path / "Bad.tla")],
                       capture_output=True, text=True)
    assert r.returncode == 150
    assert "Bad.tla:4:1" in r.stderr and "Traceback" not in r.stderr


def test_community_operators_compile_to_their_native_implementation(tmp_path):
    from checker.api import generated_code

    (tmp_path / "F.tla").write_text("---- MODULE F ----\nEXTENDS Naturals, Functions, "
                                    "FiniteSetsExt\nVARIABLE f\nInit == f = [i \\in 1..2 |-> i]\n"
                                    "Next == f' = [f EXCEPT ![1] = 2]\n"
                                    "Inv == Max(Range(f)) <= 2\n====\n")
    (tmp_path / "F.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
    sources = dict(generated_code(tmp_path / "F.tla", tmp_path / "F.cfg"))
    assert "le(set_max(fn_range(s[0])), 2)" in sources["inv_Inv"]
    assert not [name for name in sources if "Range" in name or "Max" in name]
