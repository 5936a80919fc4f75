"""`kipcheck parse`: summaries, compiler-style errors, TLC's exit codes, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from frontend_helpers import module

from checker.api import check
from checker.cli import main

SPEC = r"""---- MODULE Counter ----
EXTENDS Naturals
CONSTANT Max
VARIABLES x, y
Init == x = 0 /\ y = 0
Inc == /\ x < Max
       /\ x' = x + 1
       /\ UNCHANGED y
Next == Inc \/ UNCHANGED <<x, y>>
Spec == Init /\ [][Next]_<<x, y>>
TypeOK == x \in 0..Max
====
"""


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """Run in a fresh directory so the CLI prints short relative file names."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("KIPCHECK_PATH", raising=False)
    return tmp_path


def run(*args: str):
    result = CliRunner().invoke(main, ["parse", *args])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    return result


def write(name: str, text: str) -> str:
    Path(name).write_text(text, encoding="utf-8")
    return name


def test_summary_of_a_good_spec_and_config(workdir):
    write("Counter.tla", SPEC)
    write("Counter.cfg", "CONSTANT Max = 3\nSPECIFICATION Spec\nINVARIANT TypeOK\n")
    result = run("Counter.tla")  # the config defaults to Counter.cfg
    assert result.exit_code == 0
    assert result.stderr == ""
    assert result.stdout == (
        "module Counter (Counter.tla)\n"
        "  extends:     Naturals\n"
        "  modules:     Counter, Naturals\n"
        "  constants:   Max\n"
        "  variables:   x, y\n"
        "  definitions: 5 (Init, Inc, Next, Spec, TypeOK)\n"
        "config Counter.cfg: SPECIFICATION Spec; INVARIANTS TypeOK\n")


def test_summary_without_a_config(workdir):
    write("Counter.tla", SPEC)
    result = run("Counter.tla")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1] == (
        "  definitions: 5 (Init, Inc, Next, Spec, TypeOK)")


def test_explicit_config_and_init_next(workdir):
    write("Counter.tla", SPEC)
    write("other.cfg", "INIT Init NEXT Next\nCONSTANTS Max = 2\nINVARIANTS TypeOK")
    result = run("Counter.tla", "--config", "other.cfg")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1] == (
        "config other.cfg: INIT Init; NEXT Next; INVARIANTS TypeOK")


def error_lines(result) -> list[str]:
    assert result.stdout == ""
    return result.stderr.splitlines()


@pytest.mark.parametrize("body, expected", [
    ("Foo == (1 + ",
     ["M.tla:4:1: error: unexpected '===='",
      "====",
      "^~~~"]),
    ("Foo == x",
     ["M.tla:3:8: error: undefined identifier 'x'",
      "Foo == x",
      "       ^"]),
    ("F(a, b) == a\nFoo == F(1)",
     ["M.tla:4:8: error: 'F' takes 2 arguments, given 1",
      "Foo == F(1)",
      "       ^~~~"]),
    ("F(a) == a\nFoo ==   F",
     ["M.tla:4:10: error: 'F' takes 1 argument but is used without any",
      "Foo ==   F",
      "         ^"]),
    ("VARIABLE v\nFoo == 1 + v(1)",
     ["M.tla:4:12: error: 'v' is not an operator; to apply a function write v[...]",
      "Foo == 1 + v(1)",
      "           ^~~~"]),
    ("A == 1\nA == 2",
     ["M.tla:4:1: error: multiply defined: 'A' (already defined at M.tla:3:1)",
      "A == 2",
      "^~~~~~"]),
    ("VARIABLE f\nA == f /\\ @",
     ["M.tla:4:11: error: `@` may only appear in the new value of an EXCEPT update",
      "A == f /\\ @",
      "          ^"]),
    ("A == 1 \\foo 2",
     ["M.tla:3:8: error: unknown operator \\foo",
      "A == 1 \\foo 2",
      "       ^~~~"]),
    ("A == 1 (* never\n closed",
     ["M.tla:3:8: error: unterminated comment: `(*` is never closed by `*)`",
      "A == 1 (* never",
      "       ^~"]),
    ("A == \\E x \\in {1}:\n\tx = @",
     ["M.tla:4:6: error: `@` may only appear in the new value of an EXCEPT update",
      " x = @",  # a tab counts as one column, and prints as one space
      "     ^"]),
])
def test_spec_errors(workdir, body, expected):
    write("M.tla", module(body))
    result = run("M.tla")
    assert result.exit_code == 150
    assert error_lines(result) == expected


def test_missing_end_of_module(workdir):
    write("M.tla", "---- MODULE M ----\nA == 1\n")
    result = run("M.tla")
    assert result.exit_code == 150
    assert error_lines(result) == [
        "M.tla:2:7: error: unexpected end of file: the module must end with a line of `====`",
        "A == 1",
        "      ^"]


def test_unknown_module_points_at_the_extends_name(workdir):
    write("M.tla", module("A == 1", extends="Naturals, Nowhere"))
    result = run("M.tla")
    assert result.exit_code == 150
    lines = error_lines(result)
    assert lines[0] == ("M.tla:2:19: error: unknown module 'Nowhere': no Nowhere.tla in ., "
                        "and it is not a standard module")
    assert lines[1:] == ["EXTENDS Naturals, Nowhere", "                  ^~~~~~~"]


def test_error_in_an_extended_module_names_that_file(workdir):
    Path("lib").mkdir()
    write("lib/Util.tla", module("Helper == 1 +", extends=None, name="Util"))
    write("M.tla", module("A == Helper", extends="Util"))
    result = run("M.tla", "--lib", "lib")
    assert result.exit_code == 150
    assert error_lines(result) == [
        "lib/Util.tla:3:1: error: unexpected '===='", "====", "^~~~"]


def test_lib_option_is_repeatable(workdir):
    for d, name in (("a", "A1"), ("b", "B1")):
        Path(d).mkdir()
        write(f"{d}/{name}.tla", module(f"{name}Op == 1", extends=None, name=name))
    write("M.tla", module("X == A1Op + B1Op", extends="Naturals, A1, B1"))
    result = run("M.tla", "--lib", "a", "--lib", "b")
    assert result.exit_code == 0, result.stderr
    assert "  modules:     M, Naturals, A1, B1" in result.stdout.splitlines()


def test_missing_spec_file(workdir):
    result = run("Nope.tla")
    assert result.exit_code == 150
    assert error_lines(result) == ["error: cannot read Nope.tla: no such file"]


def test_bad_cfg_keyword(workdir):
    write("Counter.tla", SPEC)
    write("Counter.cfg", "CONSTANT Max = 3\nSPECIFICATION Spec\nINVARIANTZ TypeOK\n")
    result = run("Counter.tla")
    assert result.exit_code == 151
    lines = error_lines(result)
    assert lines[0].startswith("Counter.cfg:3:1: error: unknown keyword 'INVARIANTZ'; expected "
                               "one of CONSTANT, CONSTANTS, INIT, NEXT, SPECIFICATION, ")
    assert lines[1:] == ["INVARIANTZ TypeOK", "^~~~~~~~~~"]


def test_cfg_naming_an_undefined_invariant(workdir):
    write("Counter.tla", SPEC)
    write("Counter.cfg", "CONSTANT Max = 3\nSPECIFICATION Spec\nINVARIANTS TypeOK NoSuchInv\n")
    result = run("Counter.tla")
    assert result.exit_code == 151
    assert error_lines(result) == [
        "Counter.cfg:3:19: error: 'NoSuchInv' is not defined in module Counter",
        "INVARIANTS TypeOK NoSuchInv",
        "                  ^~~~~~~~~"]


def test_cfg_naming_an_operator_with_arguments(workdir):
    write("M.tla", module("VARIABLE x\nInit == x = 0\nNext == x' = x\nInv(y) == y"))
    write("M.cfg", "INIT Init\nNEXT Next\nINVARIANT Inv\n")
    result = run("M.tla")
    assert result.exit_code == 151
    assert error_lines(result)[0] == ("M.cfg:3:11: error: 'Inv' takes 1 argument(s); the "
                                      "configuration can only name operators without arguments")


def test_cfg_leaving_a_constant_unassigned(workdir):
    write("Counter.tla", SPEC)
    write("Counter.cfg", "SPECIFICATION Spec\n")
    result = run("Counter.tla")
    assert result.exit_code == 151
    assert error_lines(result) == [
        "Counter.cfg:1:1: error: the configuration gives no value to the constant(s) Max of "
        "module Counter",
        "SPECIFICATION Spec",
        "^"]


def test_cfg_assigning_a_value_to_an_operator_constant(workdir):
    # TLC 2.18 takes `F = 3` for `CONSTANT F(_)` (or for a definition F(a) == ...): F(x) is 3
    # whatever x (kipcheck refused it, 151)
    write("M.tla", module("CONSTANT F(_)\nVARIABLE x\nInit == x = F(1)\nNext == x' = x\n"
                          "Inv == x = 3"))
    write("M.cfg", "INIT Init\nNEXT Next\nCONSTANT F = 3\nINVARIANT Inv\n")
    assert run("M.tla").exit_code == 0
    o = check("M.tla")
    assert (o.verdict, o.distinct_states) == ("ok", 1)


def test_missing_config_file(workdir):
    write("Counter.tla", SPEC)
    result = run("Counter.tla", "--config", "nope.cfg")
    assert result.exit_code == 151
    assert error_lines(result) == [
        "error: cannot read config file 'nope.cfg': No such file or directory"]


def test_spec_error_wins_over_config_error(workdir):
    write("M.tla", module("A == x"))
    write("M.cfg", "BOGUS\n")
    result = run("M.tla")
    assert result.exit_code == 150
    assert error_lines(result)[0] == "M.tla:3:6: error: undefined identifier 'x'"


_SCRIPT = Path(sys.executable).with_name("kipcheck")
KIPCHECK = [str(_SCRIPT)] if _SCRIPT.is_file() else [sys.executable, "-m", "checker.cli"]


def test_installed_kipcheck_command_prints_no_traceback(tmp_path):
    (tmp_path / "M.tla").write_bytes(b"---- MODULE M ----\nEXTENDS Naturals\nA == x +\n\xff\n")
    (tmp_path / "Bad.tla").write_text(module("A == 1", extends="Utf", name="Bad"), encoding="utf-8")
    (tmp_path / "Utf.tla").write_bytes(b"---- MODULE Utf ----\n\xff\n====\n")
    for spec, message in (("M.tla", "M.tla:4:1: error: the file is not UTF-8 text: byte 0xff"),
                          ("Bad.tla", "Utf.tla:2:1: error: the file is not UTF-8 text: byte 0xff")):
        proc = subprocess.run([*KIPCHECK, "parse", spec],
                              cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 150
        assert proc.stdout == ""
        assert "Traceback" not in proc.stderr
        assert proc.stderr.startswith(message), proc.stderr


@pytest.mark.parametrize("body, cfg, code, line", [
    # what `check` refuses before it searches: the same answer without a search
    ("VARIABLE x\nInit == FALSE\nNext == x' = x", "INIT Init\nNEXT Next\n", 151,
     "M.cfg:1:6: error: The initial predicate Init cannot be a constant."),
    ("VARIABLE x\nInit == x = 0\nNext == x' = x\nInv == 1 = 2",
     "INIT Init\nNEXT Next\nINVARIANT Inv\n", 151,
     "M.cfg:3:11: error: The invariant of Inv is equal to FALSE"),
    ("VARIABLE x\nASSUME 1 > 2\nInit == x = 0\nNext == x' = x", "INIT Init\nNEXT Next\n", 10,
     "Error: Assumption line 4, col 8 to line 4, col 12 of module M is false."),
])
def test_a_model_check_refuses_before_searching_is_refused_by_parse(workdir, body, cfg, code,
                                                                      line):
    write("M.tla", module(body))
    write("M.cfg", cfg)
    result = run("M.tla")
    assert result.exit_code == code
    assert line in result.output.splitlines()
