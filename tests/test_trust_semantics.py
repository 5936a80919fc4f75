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
    # TLC names the ASSUME by its span: from its first conjunct to the end of its last line
    lines = (ROOT / "spec" / "KIP858.tla").read_text().splitlines()
    first = next(i for i, x in enumerate(lines) if x.startswith("ASSUME "))
    last = lines.index("", first) - 1
    assert (f"Assumption line {first + 1}, col 8 to line {last + 1}, col {len(lines[last])} of "
            f"module KIP858 is false.") in out


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


# -- values used as Booleans must be Booleans --------------------------------------------------

def test_integer_conjunct_in_next_is_an_evaluation_error(tmp_path):
    spec = write_spec(tmp_path, "VARIABLE x\nInit == x = 0\nNext == x < 3 /\\ 7 /\\ x' = x + 1")
    o = check(spec)
    assert o.exit_code == 75
    assert o.message.startswith("The next state relation is not a boolean expression.\n7")
    assert (o.span.line, o.span.col) == (5, 18)


@pytest.mark.parametrize("init", ["3", "x = 0 /\\ 3"])
def test_init_that_is_not_a_boolean(tmp_path, init):
    spec = write_spec(tmp_path, f"VARIABLE x\nInit == {init}\nNext == x' = x")
    o = check(spec)
    assert o.exit_code == 75
    assert o.message == ("In computing initial states, TLC expected a boolean expression,\n"
                         "but instead found 3.")


# (invariant body, TLC's message)
NOT_BOOLEAN = [
    ("3", "TLC expected a boolean value, but did not find one. 3"),
    ("IF 3 THEN TRUE ELSE FALSE",
     "A non-boolean expression (an integer) was used as the condition of an IF."),
    ("CASE 3 -> TRUE [] OTHER -> FALSE",
     "A non-boolean expression (an integer) was used as a condition of a CASE. 3"),
    ("\\A y \\in {1} : 3", "TLC expected a boolean value, but did not find one. 3"),
    ("\\E y \\in {1} : 3", "TLC expected a boolean value, but did not find one. 3"),
    ("CHOOSE y \\in {1} : 3", "TLC expected a boolean value, but did not find one. 3"),
    ("{y \\in {1} : 3} = {}",
     "Attempted to evaluate an expression of form {x \\in S : P(x)} when P was an integer.\n3"),
    ("~ 3", "Attempted to apply the operator ~ to a non-boolean\n(an integer)"),
    ("3 => TRUE", "Attempted to evaluate an expression of form P => Q when P was\nan integer."),
    ("(3 <=> TRUE)",
     "Attempted to evaluate an expression of form P <=> Q when P or Q was not a boolean."),
    ("(TRUE /\\ 3)",
     "Attempted to evaluate an expression of form P /\\ Q when Q was\nan integer."),
    ("(FALSE \\/ \"a\")",
     "Attempted to evaluate an expression of form P \\/ Q when Q was\na string."),
    ("x < 1 /\\ x", "Attempted to evaluate an expression of form P /\\ Q when Q was\nan integer."),
]


@pytest.mark.parametrize("inv,message", NOT_BOOLEAN)
def test_non_boolean_in_an_invariant_is_tlcs_error(tmp_path, inv, message):
    spec = write_spec(tmp_path, f"VARIABLE x\nInit == x = 0\nNext == x' = x\nInv == {inv}",
                      "INIT Init\nNEXT Next\nINVARIANT Inv\n")
    o = check(spec)
    assert (o.verdict, o.exit_code, o.message) == ("error", 75, message)


def test_non_boolean_constraint_is_an_error_not_a_filter(tmp_path):
    spec = write_spec(tmp_path, "VARIABLE x\nInit == x = 0\nNext == x' = x + 1\nCon == 3",
                      "INIT Init\nNEXT Next\nCONSTRAINT Con\n")
    o = check(spec)
    assert (o.exit_code, o.message) == (75, "TLC expected a boolean value, but did not find "
                                            "one. 3\nThe error occurred while evaluating a "
                                            "CONSTRAINT or ACTION_CONSTRAINT.")


def test_short_circuit_operands_are_not_evaluated(tmp_path):
    spec = write_spec(tmp_path, "VARIABLE x\nInit == x = 0\nNext == x' = x\n"
                      "Inv == (TRUE \\/ 3) /\\ ~(FALSE /\\ 3) /\\ (FALSE => 3)",
                      "INIT Init\nNEXT Next\nINVARIANT Inv\n")
    o = check(spec)
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 1, 2)


def test_non_boolean_assumption_exits_10(tmp_path):
    spec = write_spec(tmp_path, "VARIABLE x\nASSUME 3\nInit == x = 0\nNext == x' = x")
    o = check(spec)
    assert o.exit_code == 10
    assert o.message.endswith("failed.\nTLC expected a boolean value, but did not find one. 3")


# -- integer operators on other values -------------------------------------------------------

@pytest.mark.parametrize("expr,message", [
    ('"a" < "b"', 'The first argument of < should be an integer, but instead it is:\n"a"'),
    ('x >= "b"', 'The second argument of >= should be an integer, but instead it is:\n"b"'),
    ("{1} <= {1, 2}", "The first argument of <= should be an integer, but instead it is:\n{1}"),
    ("<<1>> + <<2>> = <<1, 2>>",
     "The first argument of + should be an integer, but instead it is:\n<<1>>"),
    ("{1, 2} - {1} = {2}",
     "The first argument of - should be an integer, but instead it is:\n{1, 2}"),
])
def test_integer_operators_refuse_other_values(tmp_path, expr, message):
    spec = write_spec(tmp_path, f"VARIABLE x\nInit == x = 0\nNext == {expr} /\\ x' = x")
    o = check(spec)
    assert o.exit_code == 75
    assert o.message.startswith(message)


def test_model_value_in_arithmetic_stops_at_once(tmp_path):
    spec = write_spec(tmp_path, "CONSTANT m\nVARIABLE x\nInit == x = m\nNext == x' = x + 1",
                      "CONSTANT m = m\nINIT Init\nNEXT Next\n")
    o = check(spec)
    assert (o.verdict, o.exit_code, o.distinct_states) == ("error", 75, 1)
    assert o.message.startswith("Attempted to use the model value m as an integer")
    for expr in ("1 + m", "m < 2", "2 > m", "-m", "m * 2", "m \\div 2", "2 ^ m"):
        (tmp_path / "M.tla").write_text(spec.read_text().replace("x' = x + 1",
                                                                  f"x' = ({expr})"))
        assert check(spec).exit_code == 75, expr


def test_integers_beyond_4300_digits_print(tmp_path):
    spec = write_spec(tmp_path, "VARIABLE x\nInit == x = 2^20000\nNext == x' = x\nInv == x < 5",
                      "INIT Init\nNEXT Next\nINVARIANT Inv\n")
    rc, out = cli("check", str(spec))
    assert rc == 12, out
    assert str(2 ** 20000) in out


# -- comparing values of different kinds inside sets ----------------------------------------

@pytest.mark.parametrize("inv,message", [
    ("[a |-> 1] \\notin {-1}",
     "Attempted to check equality of integer -1 with non-integer:\n[a |-> 1]"),
    ("x \\in {\"a\"}", 'Attempted to check equality of string "a" with non-string:\n0'),
    ("{1, 2} \\subseteq {\"a\"}", 'Attempted to check equality of string "a" with '
                                "non-string:\n1"),
    ("{1} = {\"a\"}", 'Attempted to check equality of integer 1 with non-integer:\n"a"'),
])
def test_membership_across_kinds_is_tlcs_error(tmp_path, inv, message):
    spec = write_spec(tmp_path, f"VARIABLE x\nInit == x = 0\nNext == x' = x\nInv == {inv}",
                      "INIT Init\nNEXT Next\nINVARIANT Inv\n", extends="Integers")
    o = check(spec)
    assert (o.exit_code, o.message) == (75, message)


def test_model_values_compare_unequal_to_everything_without_error(tmp_path):
    spec = write_spec(tmp_path, "CONSTANT m\nVARIABLE x\nInit == x = 0\nNext == x' = x\n"
                      "Inv == m \\notin {1, 2} /\\ m # 1 /\\ {m} # {1} /\\ ~({m} \\subseteq {1})"
                      " /\\ 1 \\notin {m}",
                      "CONSTANT m = m\nINIT Init\nNEXT Next\nINVARIANT Inv\n")
    o = check(spec)
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 1, 2)


# -- .cfg overrides of definitions -----------------------------------------------------------

def test_override_of_a_definition_the_cfg_names_directly(tmp_path):
    spec = write_spec(tmp_path, "VARIABLE x\nInit == x = 0\nNext == x < 3 /\\ x' = x + 1\n"
                      "Inv == TRUE\nMCInv == x < 2",
                      "CONSTANT Inv <- MCInv\nINIT Init\nNEXT Next\nINVARIANT Inv\n"
                      "CHECK_DEADLOCK FALSE\n")
    o = check(spec)  # TLC: Inv violated, 3 distinct, 3 generated, trace of 3
    assert (o.verdict, o.property, o.distinct_states, o.states_generated, len(o.trace)) == (
        "invariant", "Inv", 3, 3, 3)


def test_overrides_inside_the_specification_of_an_extended_module(tmp_path):
    (tmp_path / "B.tla").write_text(
        "---- MODULE B ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = 0\n"
        "Next == x < 3 /\\ x' = x + 1\nSpec == Init /\\ [][Next]_x\n====\n")
    spec = write_spec(tmp_path, "MCInit == x \\in {1, 2}\nMCNext == x < 5 /\\ x' = x + 2\n"
                      "Inv == x < 4",
                      "CONSTANT Init <- MCInit\nNext <- MCNext\nSPECIFICATION Spec\n"
                      "INVARIANT Inv\nCHECK_DEADLOCK FALSE\n", name="MC", extends="B")
    o = check(spec)  # TLC: Inv violated, 4 distinct, 4 generated, 1 left, trace x = 2, 4
    assert (o.verdict, o.distinct_states, o.states_generated, o.states_left) == (
        "invariant", 4, 4, 1)
    assert [s.state for s in o.trace] == [(2,), (4,)]
    (tmp_path / "MC.cfg").write_text("CONSTANT Init <- MCInit\nINIT Init\nNEXT Next\n"
                                     "CHECK_DEADLOCK FALSE\n")
    o = check(spec)  # TLC: 3 distinct, 4 generated
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 3, 4)


# -- SYMMETRY --------------------------------------------------------------------------------

SYM_VIEW = ("EXTENDS TLC\nCONSTANTS m1, m2\nVARIABLES a, b\n"
            "Init == a \\in {m1, m2} /\\ b \\in {m1, m2}\nNext == UNCHANGED <<a, b>>\n"
            "Sym == Permutations({m1, m2})\nV == b\nSymV == Permutations({a, b})")


def test_symmetry_with_view_takes_the_view_of_tlcs_representative(tmp_path):
    spec = write_spec(tmp_path, SYM_VIEW, "CONSTANTS m1 = m1 m2 = m2\nINIT Init\nNEXT Next\n"
                      "SYMMETRY Sym\nVIEW V\n", extends=None)
    o = check(spec)  # TLC: 2 distinct, 6 generated
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 2, 6)


def test_symmetry_reading_a_variable_is_a_config_error(tmp_path):
    spec = write_spec(tmp_path, SYM_VIEW, "CONSTANTS m1 = m1 m2 = m2\nINIT Init\nNEXT Next\n"
                      "SYMMETRY SymV\n", extends=None)
    rc, out = cli("check", str(spec))
    assert rc == 151, out  # TLC: exit 151
    assert "In evaluation, the identifier a is either undefined or not an operator" in out
    assert "M.tla:9:23" in out and "Traceback" not in out


KEYS_SCRIPT = """
import sys
from checker.engine.fingerprints import fingerprint
from checker.frontend import load_spec
from checker.semantics import model
built = model.build(load_spec(sys.argv[1], sys.argv[2]))
states = list(built.model.init())
print(sorted(fingerprint(built.model.fingerprint(s)) for s in states))
"""


def test_symmetry_representative_is_the_same_in_every_process(tmp_path):
    spec = write_spec(tmp_path, "EXTENDS TLC\nCONSTANTS m1, m2, m3\nVARIABLES b, a\n"
                      "Init == a \\in {m1, m2, m3} /\\ b \\in [{m1, m2, m3} -> {\"x\", \"y\"}]\n"
                      "Next == UNCHANGED <<a, b>>\nSym == Permutations({m1, m2, m3})",
                      "CONSTANTS m1 = m1 m2 = m2 m3 = m3\nINIT Init\nNEXT Next\n"
                      "SYMMETRY Sym\n", extends=None)
    outs = set()
    for seed in ("1", "2", "3"):
        p = subprocess.run([sys.executable, "-c", KEYS_SCRIPT, str(spec), str(spec)[:-4] + ".cfg"],
                           env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": seed},
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stderr
        outs.add(p.stdout)
    assert len(outs) == 1


# -- evaluation without tracebacks or unbounded work ------------------------------------------

def test_recursive_function_definition_used_in_init(tmp_path):
    spec = write_spec(tmp_path, "VARIABLE x\n"
                      "fact[n \\in 0..5] == IF n = 0 THEN 1 ELSE n * fact[n-1]\n"
                      "Init == x = fact[5]\nNext == x' = x\nInv == x = 120")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
    o = check(spec)
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 1, 2)


def test_recursive_function_over_nat_is_applied_point_wise(tmp_path):
    spec = write_spec(tmp_path, "VARIABLE x\nf[n \\in Nat] == IF n = 0 THEN 1 ELSE n * f[n-1]\n"
                      "Init == x = f[5]\nNext == x < 200 /\\ x' = x + f[3]")
    o = check(spec)  # TLC: 15 distinct, 15 generated
    assert (o.verdict, o.distinct_states, o.states_generated, o.depth) == ("ok", 15, 15, 15)


def test_huge_intervals_stay_lazy(tmp_path):
    spec = write_spec(tmp_path, "VARIABLE x\nInit == x = 0\nNext == x < 3 /\\ x' = x + 1\n"
                      "Inv == x \\in 0..10^9 /\\ Cardinality(1..10^9) = 10^9 /\\ "
                      "x + 10^9 \\notin 0..10^9 - 1 /\\ Cardinality(1..(x + 10^9)) = x + 10^9",
                      "INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n",
                      extends="Naturals, FiniteSets")
    o = check(spec)
    assert (o.verdict, o.distinct_states) == ("ok", 4)


# -- Booleans are no integers ------------------------------------------------------------------

@pytest.mark.parametrize("expr,message", [
    ("TRUE + 1 = 2", "The first argument of + should be an integer, but instead it is:\nTRUE"),
    ("TRUE < 2", "The first argument of < should be an integer, but instead it is:\nTRUE"),
    ("2 * FALSE = 0", "The second argument of * should be an integer, but instead it is:\nFALSE"),
    ("-TRUE = -1", "The argument of - should be an integer, but instead it is:\nTRUE"),
    ("TRUE \\div 1 = 1",
     "The first argument of \\div should be an integer, but instead it is:\nTRUE"),
    ("3 % TRUE = 0", "The second argument of % should be an integer, but instead it is:\nTRUE"),
    ("TRUE ^ 2 = 1", "The first argument of ^ should be an integer, but instead it is:\nTRUE"),
    ("SubSeq(<<1, 2>>, TRUE, 2) = <<1, 2>>",
     "The arguments of SubSeq must be integers, found TRUE and 2"),
    ("1..TRUE = {}", "The operands of .. must be integers, found 1 and TRUE"),
])
def test_arithmetic_on_booleans_is_an_error(tmp_path, expr, message):
    spec = write_spec(tmp_path, f"VARIABLE x\nInit == x = 0\nNext == x' = x\nInv == {expr}",
                      "INIT Init\nNEXT Next\nINVARIANT Inv\n", extends="Integers, Sequences")
    o = check(spec)  # TLC: exit 75 (its message for + names Java's failed cast)
    assert (o.verdict, o.exit_code, o.message) == ("error", 75, message)


# -- values of different kinds nested inside values --------------------------------------------

@pytest.mark.parametrize("inv,message", [
    ('{{1}} = {{"a"}}', 'Attempted to check equality of integer 1 with non-integer:\n"a"'),
    ('<<1>> = <<"a">>', 'Attempted to check equality of integer 1 with non-integer:\n"a"'),
    ('[a |-> 1] = [a |-> "x"]', 'Attempted to check equality of integer 1 with non-integer:\n"x"'),
    ('<<{1}>> # <<{"a"}>>', 'Attempted to check equality of integer 1 with non-integer:\n"a"'),
    ('{<<1>>} # {<<"a">>}', 'Attempted to check equality of integer 1 with non-integer:\n"a"'),
    ('<<1>> \\in {<<"a">>}', 'Attempted to check equality of string "a" with non-string:\n1'),
    ('[a |-> {1}] \\in {[a |-> {"a"}]}',
     'Attempted to check equality of string "a" with non-string:\n1'),
])
def test_nested_values_of_different_kinds_are_tlcs_error(tmp_path, inv, message):
    spec = write_spec(tmp_path, f"VARIABLE x\nInit == x = 0\nNext == x' = x\nInv == {inv}",
                      "INIT Init\nNEXT Next\nINVARIANT Inv\n")
    o = check(spec)
    assert (o.verdict, o.exit_code, o.message) == ("error", 75, message)


@pytest.mark.parametrize("inv", [
    '<<1, "a">> # <<2, 3>>', '<<1, 2>> # <<"a">>', '[a |-> 1] # [b |-> "x"]',
    '{<<1>>} # {<<"a">>, <<"b">>}', '[a |-> 1, b |-> 2] # [a |-> 3, b |-> "x"]',
    '{{1}} # {{"a"}, {"b"}}', 'x = 0 /\\ {1} # {"a", "b"}',
])
def test_values_tlc_finds_unequal_before_comparing_other_kinds(tmp_path, inv):
    spec = write_spec(tmp_path, f"VARIABLE x\nInit == x = 0\nNext == x' = x\nInv == {inv}",
                      "INIT Init\nNEXT Next\nINVARIANT Inv\n")
    o = check(spec)  # TLC: no error (sizes, lengths or domains differ, or a first part differs)
    assert (o.verdict, o.distinct_states) == ("ok", 1)


# -- an invariant that reads no variable ------------------------------------------------------

def test_constant_invariant_that_is_false_stops_before_the_search(tmp_path):
    spec = write_spec(tmp_path, "CONSTANT N\nVARIABLE x\nInit == x = 0\nNext == x' = x\n"
                      "Inv == 1 = 2\nBig == N > 5\nTypeOK == x \\in Nat",
                      "CONSTANT N = 3\nINIT Init\nNEXT Next\nINVARIANT TypeOK\nINVARIANT Big\n")
    rc, out = cli("check", str(spec))
    assert rc == 151, out  # TLC: exit 151, before computing the initial states
    assert "The invariant of Big is equal to FALSE" in out and "M.cfg:5:11" in out
    (tmp_path / "M.cfg").write_text("CONSTANT N = 7\nINIT Init\nNEXT Next\nINVARIANT Big\n")
    o = check(spec)
    assert (o.verdict, o.distinct_states) == ("ok", 1)


@pytest.mark.parametrize("line, message", [
    ("CONSTRAINT F", "The constraint of F is equal to FALSE"),
    ("CONSTRAINT G", "The constraint of G is equal to FALSE"),
    ("ACTION_CONSTRAINT F", "The action constraint of F is equal to FALSE"),
    ("PROPERTY F", "The property of F is equal to FALSE"),
])
def test_a_constraint_or_property_that_is_constant_false_is_refused(tmp_path, line, message):
    # TLC 2.18 exits 151 with these words; kipcheck once explored the initial states only and
    # answered "No error has been found" for the constraints (13 for the property).
    spec = write_spec(tmp_path, "VARIABLE x\nInit == x = 0\nNext == x' = 1 - x\nF == FALSE\n"
                      "G == 1 = 2\nBoxTrue == []TRUE\nSpec == Init /\\ [][Next]_x",
                      f"SPECIFICATION Spec\n{line}\nPROPERTY BoxTrue\n")
    rc, out = cli("check", str(spec))
    assert rc == 151, out
    assert message in out and f"M.cfg:2:{line.index(line.split()[-1]) + 1}" in out


# Each pinned to TLC 2.18 (an invariant on the initial state: it holds, or TLC exits 75 with
# this message). kipcheck once said FALSE for the memberships (a silent pass under `~` or
# `\\notin`), TRUE for 0^0, and refused the string operators.
STRINGS_AND_KINDS = [
    ('Head("abc") = "a"', None),
    ('Tail("abc") = "bc"', None),
    ('Append("ab", "cd") = "abcd"', None),
    ('SubSeq("abcd", 2, 3) = "bc" /\\ SubSeq("abc", 3, 2) = ""', None),
    ('SelectSeq("abc", LAMBDA c : c # "b") = <<"a", "c">>', None),
    ('"abc" \\in Seq({"a", "b", "c"}) /\\ "" \\in Seq({1}) /\\ "abc" \\notin Seq({"ab"})',
     None),
    ('Head("") = "a"', "Attempted to apply Head to the empty sequence."),
    # a sequence then a string: the string's letters (TLC 2.18)
    ('<<>> \\o "ab" = <<"a", "b">> /\\ <<1>> \\o "ab" = <<1, "a", "b">>', None),
    ('<<"c">> \\o "" = <<"c">>', None),
    ('"a" \\in Nat', 'Attempted to check if the value:\n"a"\nis an element of Nat.'),
    ('"a" \\notin Int', 'Attempted to check if the value:\n"a"\nis an element of Int.'),
    ("<<1>> \\in Seq(STRING)", "Attempted to check if the value:\n1\nis an element of STRING."),
    ('"a" \\in Nat \\cup STRING', 'Attempted to check if the value:\n"a"\nis an element of Nat.'),
    ("TRUE \\in Nat", "Attempted to check if the value:\nTRUE\nis an element of Nat."),
    ("0^0 = 1", "0^0 is undefined."),
    # membership in sets of functions, records, tuples, sequences and subsets: TLC tests the
    # value's parts in order, so a part of another kind is an error (these were FALSE: a
    # silent pass under \notin), and a value of the wrong kind altogether too
    ('(1 :> "a" @@ 2 :> 0) \\notin [{1, 2} -> {1}]',
     'Attempted to check equality of integer 1 with non-integer:\n"a"'),
    ('(1 :> 0 @@ 2 :> "a") \\notin [{1, 2} -> {1}]', None),  # 0 fails first: FALSE
    ('("a" :> 1) \\notin [{1} -> {1}]', "Attempted to check equality of integer 1"),
    ("1 \\notin [{1} -> {1}]", "Attempted to check if\n1\nwhich is not a TLC function value"),
    # a string is no function value in a set of functions (it was FALSE), but the tuple of
    # its characters in a set of tuples (TLC 2.18: "ab" \in STRING \X STRING is TRUE)
    ('"ab" \\notin [1..2 -> STRING]',
     'Attempted to check if\n"ab"\nwhich is not a TLC function value'),
    ('"ab" \\in STRING \\X STRING /\\ "ab" \\notin STRING \\X {"a"}', None),
    ("<<1>> \\notin [a : {1}]", "Attempted to check if non-record\n<<1>>"),
    ('[a |-> <<1>>] \\notin [a : Seq({"x"})]', 'Attempted to check equality of string "x"'),
    ("(2 :> 1) \\notin Seq({1})", "Attempted to check if the value:\n(2 :> 1)\nis an element"),
    ('"ab" \\notin Seq({1})', "Attempted to check equality of integer 1 with non-integer"),
    ("<<1>> \\notin SUBSET {1}", "Attempted to check if the non-enumerable value\n<<1>>"),
    ('[a |-> {1}] \\notin [a : SUBSET {"x"}]', 'Attempted to check equality of string "x"'),
    ("1 \\notin {1} \\X {2}", "Attempted to check if non-tuple\n1"),
    ('<<"a", 1>> \\notin {1} \\X {"b"}', "Attempted to check equality of integer 1"),
    ('<<3, "a">> \\notin {1} \\X {2} /\\ <<1>> \\notin {1} \\X {2} /\\ <<>> \\notin [a : {1}]',
     None),
    ('<<>> \\in [{} -> {1}] /\\ [a |-> 1] \\in [{"a"} -> {1}] /\\ (2 :> 1) \\notin [{1} -> {1}]',
     None),
    # a value that is no set where a set is needed: TLC's words (was a Python message)
    ("3 \\X {1} = {}", "Attempted to compute the number of elements in the integer 3."),
    ("[a : 3] = {}", "Attempted to compute the number of elements in the integer 3."),
    ('SUBSET "s" = {}', 'Attempted to compute the number of elements in the string "s".'),
    ("1 \\in 3", "Attempted to check if the value:\n1\nis an element of the integer 3"),
    ("Cardinality(3) = 1", "Attempted to compute cardinality of the value\n3"),
    ("\\A y \\in 3 : TRUE", "TLC encountered a non-enumerable quantifier bound\n3."),
]


@pytest.mark.parametrize("inv, error", STRINGS_AND_KINDS)
def test_strings_as_sequences_and_memberships_of_another_kind_as_in_tlc(tmp_path, inv, error):
    spec = write_spec(tmp_path, f"VARIABLE x\nInit == x = 0\nNext == x' = x\nInv == {inv}",
                      "INIT Init\nNEXT Next\nINVARIANT Inv\n",
                      extends="Naturals, Integers, Sequences, FiniteSets, TLC")
    o = check(spec)
    if error is None:
        assert (o.verdict, o.distinct_states) == ("ok", 1)
    else:
        assert (o.verdict, o.exit_code) == ("error", 75)
        assert o.message.startswith(error), o.message


def test_a_model_value_is_in_no_infinite_set_of_values_without_an_error(tmp_path):
    # TLC 2.18: FALSE each (tlaplus/Examples' Disruptor: NULL \\in Int \\cup {NULL})
    spec = write_spec(tmp_path, "CONSTANT m\nVARIABLE x\nInit == x = 0\nNext == x' = x\n"
                      "Inv == m \\notin Nat /\\ m \\notin STRING /\\ m \\in Int \\cup {m}"
                      " /\\ <<m>> \\notin Seq(Nat)",
                      "CONSTANT m = m\nINIT Init\nNEXT Next\nINVARIANT Inv\n",
                      extends="Naturals, Integers, Sequences")
    assert (check(spec).verdict, check(spec).distinct_states) == ("ok", 1)


# -- sets of elements of different kinds -------------------------------------------------------

@pytest.mark.parametrize("inv,message", [
    ('{"a", 1, 2} # {}', 'Attempted to compare integer 1 with non-integer:\n"a"'),
    ('{1, "a"} # {}', 'Attempted to compare string "a" with non-string:\n1'),
    ("{TRUE, 1} # {}", "Attempted to compare integer 1 with non-integer:\nTRUE"),
    ("{x + 1, TRUE} # {}", "Attempted to compare boolean TRUE with non-boolean:\n1"),
    ('({"a"} \\cup {1}) # {}', 'Attempted to check equality of string "a" with non-string:\n1'),
    ('({1, 2} \\cup {"a"}) # {}',
     'Attempted to check equality of integer 1 with non-integer:\n"a"'),
])
def test_set_of_elements_of_different_kinds_is_tlcs_error(tmp_path, inv, message):
    spec = write_spec(tmp_path, f"VARIABLE x\nInit == x = 0\nNext == x' = x\nInv == {inv}",
                      "INIT Init\nNEXT Next\nINVARIANT Inv\n")
    o = check(spec)
    assert (o.verdict, o.exit_code, o.message) == ("error", 75, message)


def test_sets_of_model_values_and_one_kind_build_without_error(tmp_path):
    spec = write_spec(tmp_path, "CONSTANT m\nVARIABLE x\nInit == x = 0\nNext == x' = x\n"
                      "Inv == {m, 1, 2} # {} /\\ ({m} \\cup {1}) # {}"
                      " /\\ {x, x + 1} = {0, 1}",
                      "CONSTANT m = m\nINIT Init\nNEXT Next\nINVARIANT Inv\n")
    o = check(spec)
    assert (o.verdict, o.distinct_states) == ("ok", 1)


@pytest.mark.parametrize("inv,message", [
    ("<<1>> # 0", "Attempted to check equality of the function <<1>> with the value:\n0"),
    ("{1} # 0", "Attempted to check equality of the set {1} with the value:\n0"),
    ("[a |-> 1] # 0", "Attempted to check equality of record:\n[a |-> 1]\nwith non-record\n0"),
    ("x \\in {<<1>>, <<2>>}",
     "Attempted to check equality of the function <<1>> with the value:\n0"),
])
def test_sequence_set_or_record_compared_with_another_kind(tmp_path, inv, message):
    spec = write_spec(tmp_path, f"VARIABLE x\nInit == x = 0\nNext == x' = x\nInv == {inv}",
                      "INIT Init\nNEXT Next\nINVARIANT Inv\n")
    o = check(spec)  # TLC 2.18's wording
    assert (o.verdict, o.exit_code, o.message) == ("error", 75, message)


R_VS_T = "Attempted to check equality of record:\n[a |-> 1]\nwith non-record\n<<1>>"
T_VS_R = 'Attempted to compare an integer with non-integer:\n"a".'


@pytest.mark.parametrize("inv,message", [
    ("<<1>> \\in {[a |-> 1], <<2, 3>>}", R_VS_T),
    ("<<1>> \\in {<<2, 3>>, [a |-> 1]}", R_VS_T),
    ("[a |-> 1] = <<1>>", R_VS_T),
    ("<<1>> = [a |-> 1]", T_VS_R),
    ("[a |-> 1] \\notin {<<2>>, <<3, 4>>}", T_VS_R),
    ("{<<1>>} = {[a |-> 1]}", T_VS_R),
    ("[a |-> 1] = [i \\in {2} |-> 1]",
     "Attempted to check equality of record:\n[a |-> 1]\nwith non-record\n(2 :> 1)"),
    ("[i \\in {2} |-> 1] = [a |-> 1]",
     'Attempted to check equality of integer 2 with non-integer:\n"a"'),
    ("<<[a |-> 1]>> = <<<<2>>>>",
     "Attempted to check equality of record:\n[a |-> 1]\nwith non-record\n<<2>>"),
])
def test_record_compared_with_a_sequence_or_function_is_tlcs_error(tmp_path, inv, message):
    """TLC 2.18: a record equals only a record; a sequence meets a record of its length by
    comparing 1..n with the field names; other functions compare their domains."""
    spec = write_spec(tmp_path, f"VARIABLE x\nInit == x = 0\nNext == x' = x\n"
                      f"Inv == x = 0 /\\ ({inv})", "INIT Init\nNEXT Next\nINVARIANT Inv\n")
    o = check(spec)
    assert (o.verdict, o.exit_code, o.message) == ("error", 75, message)


def test_functions_of_other_domains_are_unequal_without_error(tmp_path):
    inv = ("<<1>> # [i \\in {2} |-> 1] /\\ [i \\in {2} |-> 1] # <<1>> /\\ [a |-> 1] # [b |-> 1]"
           " /\\ <<>> # [a |-> 1] /\\ [a |-> 1] # <<>> /\\ <<1, 2>> # [a |-> 1]"
           " /\\ <<1, 2>> # [i \\in {1, 3} |-> 1] /\\ [a |-> 1] \\notin {[b |-> 2], <<>>}")
    spec = write_spec(tmp_path, f"VARIABLE x\nInit == x = 0\nNext == x' = x\n"
                      f"Inv == x = 0 /\\ {inv}", "INIT Init\nNEXT Next\nINVARIANT Inv\n")
    o = check(spec)  # each one FALSE in TLC 2.18
    assert (o.verdict, o.distinct_states) == ("ok", 1)


@pytest.mark.parametrize("inv,message", [
    ("[i \\in 0..1 |-> i][TRUE] = 1",
     "Attempted to check if the value:\nTRUE\nis in the integer interval 0..1"),
    ("[b \\in BOOLEAN |-> 5][1] = 5", "Attempted to compare integer 1 with non-integer:\nTRUE"),
])
def test_function_applied_to_a_boolean_for_an_integer_is_an_error(tmp_path, inv, message):
    spec = write_spec(tmp_path, f"VARIABLE x\nInit == x = 0\nNext == x' = x\nInv == {inv}",
                      "INIT Init\nNEXT Next\nINVARIANT Inv\n")
    o = check(spec)  # Python's TRUE == 1 would find the value
    assert (o.verdict, o.exit_code, o.message) == ("error", 75, message)


def test_an_assumption_that_cannot_be_evaluated_exits_10_as_in_tlc(tmp_path):
    """TLC 2.18: "Evaluating assumption ... failed." and exit 10, not an evaluation error's 75."""
    spec = write_spec(tmp_path, "VARIABLE x\nASSUME Head(<<>>) = 1\nInit == x = 0\n"
                      "Next == x' = x", name="A", extends="Sequences")
    o = check(spec)
    assert (o.verdict, o.exit_code) == ("assumption", 10)
    assert o.message == ("Evaluating assumption line 4, col 8 to line 4, col 21 of module A "
                         "failed.\nAttempted to apply Head to the empty sequence.")


@pytest.mark.parametrize("where, verdict, code", [
    ("assume", "assumption", 10), ("init", "error", 75), ("inv", "error", 76),
    ("con", "assert", 14), ("con_init", "error", 75), ("next", "assert", 14),
    ("prop", "assert", 14)])
def test_a_failed_assert_has_tlcs_verdict_for_where_it_failed(tmp_path, where, verdict, code):
    """TLC 2.18 exits 14 for an Assert only in an action, a CONSTRAINT on a successor or a
    property; in an ASSUME the assumption failed (10), in Init, a CONSTRAINT on an initial state
    or an invariant it is an evaluation error (TLC: 75, 76)."""
    boom = 'Assert(x < 1, "boom")'
    parts = {"assume": "TRUE", "init": "x = 0", "next": "x < 2 /\\ x' = x + 1", "inv": "TRUE",
             "con": "TRUE", "prop": "TRUE"}
    parts[where.replace("con_init", "con")] = {
        "assume": 'Assert(FALSE, "boom")', "init": 'x = 0 /\\ Assert(FALSE, "boom")',
        "next": f"x < 2 /\\ {boom} /\\ x' = x + 1",
        "con_init": 'Assert(x > 5, "boom")'}.get(where, boom)
    spec = write_spec(tmp_path, f"VARIABLE x\nASSUME {parts['assume']}\nInit == {parts['init']}\n"
                      f"Next == {parts['next']}\nInv == {parts['inv']}\nCon == {parts['con']}\n"
                      f"AP == [][{parts['prop']}]_x",
                      "INIT Init\nNEXT Next\nINVARIANT Inv\nCONSTRAINT Con\nPROPERTY AP\n"
                      "CHECK_DEADLOCK FALSE\n", name="A", extends="Naturals, TLC")
    for workers in (1, 2):
        o = check(spec, workers=workers)
        assert (o.verdict, o.exit_code) == (verdict, code)
        assert 'The first argument of Assert evaluated to FALSE; the second argument was:\n"boom"' \
            in o.message


# -- a state that cannot be stored -----------------------------------------------------------

@pytest.mark.parametrize("options", [["--workers", "1"], ["--workers", "2"], ["--exact-states"],
                                     ["--exact-states", "--max-depth", "3"]])
def test_a_state_holding_an_infinite_set_is_an_evaluation_error(tmp_path, options):
    """TLC: "TLC has found a state in which the value of a variable contains Nat". Storing such
    a state used to escape as a Python traceback (exit 1); with whole states as keys
    (--exact-states) it was stored silently and the run passed."""
    spec = write_spec(tmp_path, "VARIABLE s\nInit == s = {}\n"
                                "Next == s' = IF s = {} THEN {0} ELSE Nat")
    rc, out = cli("check", str(spec), *options)
    assert rc == 75, out
    assert "Traceback" not in out
    assert ("TLC has found a state in which the value of a variable cannot be stored.\n"
            "TLC cannot enumerate the infinite set Nat") in out


# -- ENABLED through a refinement mapping --------------------------------------------------------
# TLC computes ENABLED with the substitutions of the module the ENABLED (or the WF/SF) is
# written in left outside: that module's variables are what a step binds (`f' = e` assigns f
# even where f <- <<g.c>>), and reading one before it is bound is an error. Each expectation
# below is what TLC 2.18 reports for the same spec.

INNER_FAIR = """---- MODULE Inner ----
EXTENDS Naturals
VARIABLE f
Next == {next}
Spec == f[1] \\in 0..2 /\\ [][Next]_f /\\ WF_f(Next)
SSpec == f[1] \\in 0..2 /\\ [][Next]_f /\\ SF_f(Next)
CanStep == ENABLED Next
====
"""
STEP = "f[1] < 2 /\\ f' = [f EXCEPT ![1] = f[1] + 1]"


def refined(tmp_path, next_: str = STEP, prop: str = "R!Spec", mapping: str = "<<g.c>>",
            init: str = "[c |-> 1, d |-> 0]", inv: bool = False):
    """Inner's spec seen through `f <- mapping`, from g stuck at c = 1 (no fairness)."""
    (tmp_path / "Inner.tla").write_text(INNER_FAIR.format(next=next_))
    what = "INVARIANT" if inv else "PROPERTY"
    return write_spec(tmp_path, f"VARIABLE g\nInit == g = {init}\n"
                                f"Next == g.c < 1 /\\ g' = [c |-> g.c + 1, d |-> g.d]\n"
                                f"R == INSTANCE Inner WITH f <- {mapping}\nP == {prop}",
                      cfg=f"INIT Init\nNEXT Next\n{what} P\nCHECK_DEADLOCK FALSE\n")


def test_enabled_through_a_refinement_binds_the_instance_variable(tmp_path):
    """ENABLED R!Next where f' is <<g'.c>>: f' = <<2>> is a step of Inner from f = <<1>>,
    though no reachable state has g.c = 2. WF is violated by stuttering (TLC 2.18: 13, the
    initial state then stuttering). kipcheck once took the action as disabled (exit 0)."""
    rc, out = cli("check", str(refined(tmp_path)))
    assert rc == 13, out
    assert "Temporal properties were violated." in out
    assert "State 1: <Initial predicate>" in out and "State 2: Stuttering" in out


@pytest.mark.parametrize("next_, mapping, code", [
    (STEP, "<<g.c>>", 13),  # f <- a tuple of a record field
    (STEP + " /\\ f'[1] > 100", "<<g.c>>", 0),  # bound, then a guard on it fails
    ("f[1] < 0 /\\ f' = [f EXCEPT ![1] = f[1] + 1]", "<<g.c>>", 0),  # unprimed guard fails
    ("f' = <<5>>", "<<g.c>>", 13),
    ("f[1] < 2 /\\ f' = <<7>> /\\ f'[1] > 100", "<<g.c>>", 0),
    ("f' = <<5>>", "<<g.c % 2>>", 13),  # no g' maps to <<5>>: TLC still counts f' = <<5>>
    (STEP, "[i \\in {1} |-> g.c]", 13),  # a function built from the record
    ("\\E v \\in 0..3 : v > f[1] /\\ f' = <<v>>", "<<g.c>>", 13),  # \E over the value
    ("\\E v \\in 0..1 : v > f[1] /\\ f' = <<v>>", "<<g.c>>", 0)])
def test_wf_of_a_refined_spec_as_tlc_decides_it(tmp_path, next_, mapping, code):
    o = check(refined(tmp_path, next_, mapping=mapping))
    assert o.exit_code == code, o.message
    if code == 13:
        assert (o.property, len(o.trace), o.loop, o.loop_step) == ("P", 1, 0, None)


def test_sf_of_a_refined_spec(tmp_path):
    o = check(refined(tmp_path, prop="R!SSpec"))
    assert (o.exit_code, o.property, len(o.trace)) == (13, "P", 1)


@pytest.mark.parametrize("prop", ["R!Spec", "WF_g(R!Next)"])
def test_enabled_that_reads_a_primed_value_before_binding_it_is_an_error(tmp_path, prop):
    """Inner reads f'[1] before binding f (R!Spec), or the WF is written outside the instance
    so <<g'.c>> is evaluated and g' is unknown (WF_g(R!Next)). TLC 2.18 stops with "the
    identifier f (g) is either undefined or not an operator"; kipcheck says it cannot decide."""
    next_ = "f[1] < 2 /\\ f'[1] > 100" if prop == "R!Spec" else STEP
    rc, out = cli("check", str(refined(tmp_path, next_, prop=prop)))
    assert rc == 75, out
    assert "kipcheck cannot decide ENABLED" in out
    assert "of WF_v(A) at line " in out
    assert "Traceback" not in out


def test_enabled_written_in_the_instance_is_an_invariant_tlc_decides(tmp_path):
    """`CanStep == ENABLED Next` in Inner: true at g.c = 1 (f' = <<2>>), false from g.c = 2
    (TLC 2.18: invariant violated after 3 states)."""
    spec = refined(tmp_path, prop="R!CanStep", init="[c |-> 0, d |-> 0]", inv=True)
    spec.write_text(spec.read_text().replace("g.c < 1", "g.c < 3"))
    o = check(spec)
    assert (o.exit_code, o.property, len(o.trace)) == (12, "P", 3)


def test_enabled_of_an_instance_action_written_outside_is_an_error(tmp_path):
    """`ENABLED R!Next` in the refining module evaluates <<g'.c>>: TLC 2.18 exits 75 (the
    identifier g is undefined); kipcheck used to take the unknown as enabled (exit 0)."""
    rc, out = cli("check", str(refined(tmp_path, prop="ENABLED R!Next", inv=True)))
    assert rc == 75, out
    assert "kipcheck cannot decide ENABLED" in out


INNER_TWO = """---- MODULE Inner ----
EXTENDS Naturals
VARIABLES a, b
Next == \\E v \\in 0..3 : v > a /\\ a' = v /\\ b' = b
Spec == a \\in 0..9 /\\ [][Next]_<<a, b>> /\\ WF_<<a, b>>(Next)
====
"""


@pytest.mark.parametrize("bound, code, states", [(2, 13, 3), (3, 0, 4)])
def test_a_refinement_of_two_variables_by_expressions(tmp_path, bound, code, states):
    """a <- x + y, b <- y; the refining spec is fair and stops at x + y = bound. Inner can
    still step from a = 2 (to 3): violated after 3 states, then stuttering; from a = 3 it
    cannot (TLC 2.18: 13 with 3 states / no error with 4 distinct states)."""
    (tmp_path / "Inner.tla").write_text(INNER_TWO)
    spec = write_spec(tmp_path, f"VARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
                                f"Next == x + y < {bound} /\\ x' = x + 1 /\\ y' = y\n"
                                f"R == INSTANCE Inner WITH a <- x + y, b <- y\n"
                                f"Spec == Init /\\ [][Next]_<<x, y>> /\\ WF_<<x, y>>(Next)\n"
                                f"RSpec == R!Spec",
                      cfg="SPECIFICATION Spec\nPROPERTY RSpec\nCHECK_DEADLOCK FALSE\n")
    o = check(spec)
    assert o.exit_code == code, o.message
    if code == 13:
        assert (o.property, len(o.trace), o.loop, o.loop_step) == ("RSpec", 3, 2, None)
    else:
        assert (o.distinct_states, o.states_generated) == (states, states)


def test_wf_of_a_refinement_through_two_instances(tmp_path):
    """M instantiates Mid (a <- g.c), Mid instantiates Inner (f <- <<a>>); Inner's WF action
    binds f through a definition and a LET, then reads f'[1]: enabled at g.c = 1 (TLC 2.18:
    13, the initial state then stuttering)."""
    (tmp_path / "Inner.tla").write_text(
        "---- MODULE Inner ----\nEXTENDS Naturals\nVARIABLE f\nStep(v) == f' = <<v>>\n"
        "Next == f[1] < 2 /\\ LET n == f[1] + 1 IN Step(n) /\\ f'[1] < 5\n"
        "Spec == f[1] \\in 0..2 /\\ [][Next]_f /\\ WF_f(Next)\n====\n")
    (tmp_path / "Mid.tla").write_text(
        "---- MODULE Mid ----\nEXTENDS Naturals\nVARIABLE a\nI == INSTANCE Inner WITH f <- <<a>>\n"
        "MSpec == I!Spec\n====\n")
    spec = write_spec(tmp_path, "VARIABLE g\nInit == g = [c |-> 1, d |-> 0]\n"
                                "Next == g.c < 1 /\\ g' = [c |-> g.c + 1, d |-> g.d]\n"
                                "R == INSTANCE Mid WITH a <- g.c\nP == R!MSpec",
                      cfg="INIT Init\nNEXT Next\nPROPERTY P\nCHECK_DEADLOCK FALSE\n")
    o = check(spec)
    assert (o.exit_code, o.property, len(o.trace), o.loop) == (13, "P", 1, 0)


def test_two_instance_variables_mapped_to_one_variable_are_bound_apart(tmp_path):
    """p <- g, q <- g: Inner's step p' = p + 1 /\\ q' = q changes <<p, q>>, so its WF is
    enabled while g stays 0 (TLC 2.18: 13). Binding both to g' would make it disabled."""
    (tmp_path / "Inner.tla").write_text(
        "---- MODULE Inner ----\nEXTENDS Naturals\nVARIABLES p, q\n"
        "Next == p' = p + 1 /\\ q' = q\nSpec == [][Next]_<<p, q>> /\\ WF_<<p, q>>(Next)\n====\n")
    spec = write_spec(tmp_path, "VARIABLE g\nInit == g = 0\nNext == g < 0 /\\ g' = g\n"
                                "R == INSTANCE Inner WITH p <- g, q <- g\nP == R!Spec",
                      cfg="INIT Init\nNEXT Next\nPROPERTY P\nCHECK_DEADLOCK FALSE\n")
    o = check(spec)
    assert (o.exit_code, o.property, len(o.trace), o.loop) == (13, "P", 1, 0)


# -- an invariant or constraint with primes ----------------------------------------------------

@pytest.mark.parametrize("kind,word", [("INVARIANT", "invariant"), ("CONSTRAINT", "constraint")])
def test_a_primed_invariant_or_constraint_is_refused_before_the_search(tmp_path, kind, word):
    """TLC: "The invariant Grows is not a state predicate (one with no primes or temporal
    operators)." kipcheck used to fail on the first state with a Python message ('NoneType'
    object is not subscriptable)."""
    spec = write_spec(tmp_path, "VARIABLE x\nInit == x = 0\nNext == x < 2 /\\ x' = x + 1\n"
                                "Grows == x' >= x",
                      cfg=f"INIT Init\nNEXT Next\n{kind} Grows\nCHECK_DEADLOCK FALSE\n")
    rc, out = cli("check", str(spec))
    assert rc == 151, out
    assert (f"M.cfg:3:{len(kind) + 2}: error: The {word} Grows is not a state predicate (one "
            "with no primes or temporal operators).") in out
    assert "NoneType" not in out


def test_enabled_in_an_invariant_is_a_state_predicate(tmp_path):
    spec = write_spec(tmp_path, "VARIABLE x\nInit == x = 0\nNext == x < 2 /\\ x' = x + 1\n"
                                "Live == ENABLED Next \\/ x = 2",
                      cfg="INIT Init\nNEXT Next\nINVARIANT Live\nCHECK_DEADLOCK FALSE\n")
    o = check(spec)
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 3, 3)


def test_a_cfg_value_for_no_constant_or_definition_is_reported(tmp_path):
    """TLC ignores `MaxMove = 2` when the module says MaxMoves (a misspelt override of a
    definition keeps the definition, silently); kipcheck keeps TLC's verdict and warns. `r1 = r1`
    (a model value named for use in other values) is the usual idiom and is not reported."""
    spec = write_spec(tmp_path, "VARIABLE x\nMaxMoves == 1\nInit == x = 0\n"
                                "Next == x < MaxMoves /\\ x' = x + 1",
                      cfg="CONSTANTS\n  MaxMove = 2\n  r1 = r1\nINIT Init\nNEXT Next\n"
                          "CHECK_DEADLOCK FALSE\n")
    o = check(spec)
    assert (o.verdict, o.distinct_states) == ("ok", 2)
    assert o.warnings == [f"{tmp_path / 'M.cfg'}:2:3: MaxMove is neither a constant nor a "
                          "definition of module M; the configuration's value for it is not used "
                          "(TLC ignores it too)."]


@pytest.mark.parametrize("cfg, code, message", [
    # TLC 2.18 computes the initial states, then stops: 75 (kipcheck said 151)
    ("SPECIFICATION Init\n", 75, "No next state actions defined to generate successor "
                                 "states from."),
    ("SPECIFICATION Spec\n", 75, "No next state actions defined"),
    ("INIT Init\nCONSTRAINT Small\n", 75, "No next state actions defined"),
    # ... unless there is an invariant or property to check: 151
    ("SPECIFICATION Spec\nINVARIANT Small\n", 151, "W.cfg:1:15: error: The configuration "
     "file did not specify the next state predicate: SPECIFICATION Spec has no [][Next]_vars"),
    ("INIT Init\nPROPERTY Always\n", 151, "The configuration file did not specify the next "
                                           "state predicate"),
    # two next-state relations: TLC refuses (151); kipcheck used the last one and passed
    # behaviours the first forbids (a silent pass, or a false violation)
    ("SPECIFICATION Two\n", 151, "W.tla:8:45: error: The specification contains more than "
                                  "one conjunct of the form [][Next]_v"),
])
def test_a_specification_without_one_next_state_relation(tmp_path, cfg, code, message):
    spec = write_spec(tmp_path, "VARIABLE x\nInit == x = 0\nSpec == Init\nSmall == x < 3\n"
                                "Always == []Small\nTwo == Init /\\ [][x < 2 /\\ x' = x + 1]_x "
                                "/\\ [][x' = (x + 1) % 4]_x", cfg, name="W")
    rc, out = cli("check", str(spec))
    assert rc == code, out
    assert message in out
    if code == 75:
        assert "1 states generated, 1 distinct states found" in out


@pytest.mark.parametrize("inv, message", [
    # Python's `in` searched a tuple's items, a string's letters, a record's pair of key and
    # value tuples: TRUE or FALSE, a silent pass under \in or \notin; TLC 2.18 stops (75)
    ("x \\in <<0>>", "Attempted to check set membership in a tuple value."),
    ("2 \\notin <<1>>", "Attempted to check set membership in a tuple value."),
    ("x \\notin [a |-> 1]", "Attempted to check if element:\n0\nis in the record:\n[a |-> 1]"),
    ("<<1>> \\notin [i \\in {2} |-> 0]",
     "Attempted to check if the value:\n<<1>>\nis an element of the function (2 :> 0)"),
    ('"a" \\in "abc"', 'Attempted to check if the value:\n"a"\nis an element of the string'),
    ("{0} \\subseteq <<0>>", "Attempted to check set membership in a tuple value."),
])
def test_membership_in_a_value_that_is_no_set_is_an_error(tmp_path, inv, message):
    spec = write_spec(tmp_path, f"VARIABLE x\nInit == x = 0\nNext == UNCHANGED x\nInv == {inv}",
                      "INIT Init\nNEXT Next\nINVARIANT Inv\n")
    o = check(spec)
    assert (o.verdict, o.distinct_states) == ("error", 1)
    assert message in o.message


def test_a_quantifier_of_next_over_no_set_fails_after_the_initial_states(tmp_path):
    """TLC 2.18 computes the initial states, then stops on `\\E i \\in <<1, 2>>` in Next with
    the initial state as the behaviour (exit 75, 1 distinct state); kipcheck stopped while
    splitting Next into actions, before any state (0 distinct, no trace)."""
    spec = write_spec(tmp_path, "VARIABLE x\nInit == x = 0\nNext == \\E i \\in <<1, 2>> : x' = i")
    rc, out = cli("check", str(spec))
    assert rc == 75, out
    assert "TLC encountered a non-enumerable quantifier bound\n<<1, 2>>." in out
    assert "State 1: <Initial predicate>" in out
    assert "1 states generated, 1 distinct states found" in out


@pytest.mark.parametrize("inv, message", [
    # IsFiniteSet answered TRUE for any value that is no lazy set: TLC 2.18 stops (75)
    ("IsFiniteSet(x)", "Attempted to check if the integer 0 is a finite set."),
    ('IsFiniteSet("ab")', 'Attempted to check if the string "ab" is a finite set.'),
    # ... and FALSE for a filter of an infinite set, which TLC cannot decide
    ("~IsFiniteSet({n \\in Nat : n < x})",
     "Attempted to check if expression of form {x \\in S : p(x)} is a finite set, but cannot "
     "check if S:\nNat\nis finite."),
    # a key of f @@ g of another kind than f's keys: TLC compares them (a dict merged them)
    ('DOMAIN (("a" :> 1) @@ (2 :> 3)) # {}',
     'Attempted to check equality of integer 2 with non-integer:\n"a"'),
])
def test_library_operators_on_values_tlc_refuses(tmp_path, inv, message):
    spec = write_spec(tmp_path, f"VARIABLE x\nInit == x = 0\nNext == UNCHANGED x\nInv == {inv}",
                      "INIT Init\nNEXT Next\nINVARIANT Inv\n",
                      extends="Naturals, FiniteSets, TLC")
    o = check(spec)
    assert (o.verdict, o.distinct_states) == ("error", 1)
    assert message in o.message


def test_library_operators_tlc_answers_still_answer(tmp_path):
    # TLC: IsFiniteSet of a tuple, record or function is TRUE; of Nat \cup {1} FALSE
    spec = write_spec(tmp_path, "VARIABLE x\nInit == x = 0\nNext == UNCHANGED x\n"
                                "Inv == /\\ IsFiniteSet(<<1>>) /\\ IsFiniteSet([a |-> 1])\n"
                                "       /\\ ~IsFiniteSet(Nat \\cup {1}) /\\ IsFiniteSet(1..3)\n"
                                "       /\\ IsFiniteSet({n \\in 1..5 : n < 3})\n"
                                '       /\\ (1 :> 2) @@ (2 :> 3) = <<2, 3>>\n'
                                '       /\\ [a |-> 1] @@ [b |-> 2] = [a |-> 1, b |-> 2]',
                      "INIT Init\nNEXT Next\nINVARIANT Inv\n",
                      extends="Naturals, FiniteSets, TLC")
    o = check(spec)
    assert (o.verdict, o.distinct_states) == ("ok", 1)


def test_a_constant_isfinite_of_a_number_is_an_error_not_a_traceback(tmp_path):
    """`IsFiniteSet(3)` was generated as `3.finite`, a Python syntax error (a traceback)."""
    spec = write_spec(tmp_path, "VARIABLE x\nInit == x = IsFiniteSet(3)\nNext == UNCHANGED x",
                      extends="Naturals, FiniteSets")
    rc, out = cli("check", str(spec))
    assert rc == 75, out
    assert "Attempted to check if the integer 3 is a finite set." in out
    assert "Traceback" not in out


@pytest.mark.parametrize("key", ['"foo"', "-1"])
def test_tlcset_of_a_key_tlc_refuses_is_an_error(tmp_path, key):
    """TLC 2.18: "The first argument of TLCSet should be a nonnegative integer" (75, 0 states);
    kipcheck kept the value in a register of its own and passed."""
    spec = write_spec(tmp_path, f"VARIABLE x\nInit == x = 0 /\\ TLCSet({key}, 1)\n"
                                "Next == UNCHANGED x", extends="Integers, TLC")
    rc, out = cli("check", str(spec))
    assert rc == 75, out
    assert "The first argument of TLCSet should be a nonnegative integer, but instead it is:" in out
    assert "0 distinct states found" in out


def test_an_action_property_reached_through_an_instance_is_checked_at_each_step(tmp_path):
    """`P == I!P` with `P == [][v < 2]_v` in the instanced module: TLC 2.18 checks it as an
    action property during the search ("Action property I!P is violated", 4 states, a trace of
    4; with deadlock checking on, still exit 13). kipcheck did not see the [][A]_v through the
    instance: a liveness check after the whole search (11 states, a trace of 5 ending in
    stuttering), and a deadlock first where deadlock checking was on."""
    (tmp_path / "Inner.tla").write_text("---- MODULE Inner ----\nEXTENDS Naturals\nVARIABLE v\n"
                                        "P == [][v < 2]_v\n====\n")
    spec = write_spec(tmp_path, "VARIABLE x\nI == INSTANCE Inner WITH v <- x\nInit == x = 0\n"
                                "Next == x < 10 /\\ x' = x + 1\nP == I!P",
                      "INIT Init\nNEXT Next\nPROPERTY P\n")
    o = check(spec)
    assert (o.verdict, o.property, o.distinct_states, o.trace_length) == ("property", "P", 4, 4)


def test_tlcset_exit_ends_the_search_as_tlc_does(tmp_path):
    """TLC 2.18: "Model checking completed. No error has been found." with 4 generated,
    4 distinct, 1 left on the queue (the search stops after the state whose expansion
    evaluated TLCSet("exit", TRUE)); kipcheck ignored the request: 6 states, and an invariant
    beyond the stop was reported violated."""
    spec = write_spec(tmp_path, "VARIABLE x\nInit == x = 0\n"
                                "Next == x < 5 /\\ x' = x + 1\n"
                                "        /\\ (x = 2 => TLCSet(\"exit\", TRUE))\n"
                                "Inv == x < 4",
                      "INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n",
                      extends="Naturals, TLC")
    o = check(spec)
    assert (o.verdict, o.states_generated, o.distinct_states, o.states_left) == ("ok", 4, 4, 1)
    # where the workers would stop depends on how they interleave: refused there
    o = check(spec, workers=2)
    assert o.verdict == "error"
    assert o.message.startswith('TLCSet("exit", TRUE) is not supported during a search with '
                                "--workers")


@pytest.mark.parametrize("body, rc, message", [
    # an unbounded CHOOSE or quantifier is TLC's error where it is evaluated, and only there:
    # kipcheck refused the spec (150) even in a branch never taken, and a definition holding
    # one, used in Init, ended in a Python NameError (its name was registered, never defined)
    ("NoVal == CHOOSE v : v \\notin {1, 2}\nInit == x = NoVal\nNext == UNCHANGED x", 75,
     "TLC attempted to evaluate an unbounded CHOOSE."),
    ("Op == \\E v : v = 1\nInit == x = Op\nNext == UNCHANGED x", 75,
     "TLC attempted to evaluate an unbounded \\E.\nMake sure that the expression is of form "
     "\\E x \\in S: P(x)."),
    ("Init == x = 0\nNext == IF x > 3 THEN \\E v : x' = v ELSE UNCHANGED x", 0, None),
    ("Init == x = 0\nNext == IF x > 3 THEN x' = CHOOSE v : v = 7 ELSE UNCHANGED x", 0, None),
    ("NoVal == CHOOSE v : v \\notin {1, 2}\nInit == x = 0\nNext == UNCHANGED x", 0, None),
    # Assert fails on anything but TRUE (TLC 2.18: exit 14, not an error about the kind)
    ('Init == x = 0\nNext == Assert(1, "m") /\\ x\' = x', 14,
     'The first argument of Assert evaluated to FALSE; the second argument was:\n"m"'),
])
def test_errors_tlc_reports_only_when_it_evaluates_them(tmp_path, body, rc, message):
    spec = write_spec(tmp_path, f"VARIABLE x\n{body}", extends="Naturals, TLC")
    code, out = cli("check", str(spec))
    assert code == rc, out
    assert "Traceback" not in out
    if message is not None:
        assert message in out


@pytest.mark.parametrize("defn", ["Act == x' = x + 1", "Act(n) == x' = n + 1"])
def test_an_action_the_cfg_gives_a_value_is_that_value(tmp_path, defn):
    """`Act = TRUE` in the .cfg for an action: TLC 2.18 evaluates Next with Act as TRUE, so x'
    is never assigned (75, after 1 state); kipcheck expanded Act's own body and passed."""
    call = "Act" if "(" not in defn else "Act(x)"
    spec = write_spec(tmp_path, f"VARIABLE x\n{defn}\nInit == x = 0\nNext == x < 3 /\\ {call}",
                      "CONSTANT Act = TRUE\nINIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n")
    code, out = cli("check", str(spec))
    assert code == 75, out
    assert "1 distinct states found" in out


INNER_PARAM = ("---- MODULE Inner ----\nEXTENDS Naturals\nCONSTANT K\nVARIABLE v\n"
               "INext == v' = v + 1\nSmall == v < 3\nStay == UNCHANGED v\nOk == K = 3\n====\n")


@pytest.mark.parametrize("body, cfg_extra, verdict, distinct", [
    # a state variable passed to a parametrized instance is substituted by name: I(x)!INext
    # primes and assigns x (TLC 2.18: Inv violated, 3 states, a trace of 3; kipcheck: no
    # successor, "No error has been found" with 1 state, or a false deadlock)
    ("Next == x < 5 /\\ I(x, 0)!INext /\\ UNCHANGED y\nInv == x < 2", "INVARIANT Inv\n",
     "invariant", 3),
    ("Next == x < 4 /\\ x' = x + 1 /\\ y' = y\nInv == I(x, 0)!Small", "INVARIANT Inv\n",
     "invariant", 4),
    ("Next == x < 3 /\\ x' = x + 1 /\\ I(y, 0)!Stay", "", "ok", 4),
    ("Next == x < 5 /\\ I(x, 0)!INext /\\ y' = y\nInv == ENABLED I(x, 0)!INext /\\ x < 2",
     "INVARIANT Inv\n", "invariant", 3),
    # an operator's parameter passed on (it was "undefined identifier 'n'", 150)
    ("Next == x < 3 /\\ x' = x + 1 /\\ y' = y\nCheck(n) == I(x, n)!Ok\nInv == Check(3)",
     "INVARIANT Inv\n", "ok", 4),
])
def test_arguments_of_a_parametrized_instance_are_substituted_by_name(
        tmp_path, body, cfg_extra, verdict, distinct):
    (tmp_path / "Inner.tla").write_text(INNER_PARAM)
    spec = write_spec(tmp_path, "VARIABLES x, y\nI(w, k) == INSTANCE Inner WITH v <- w, K <- k\n"
                                f"Init == x = 0 /\\ y = 0\n{body}",
                      f"INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n{cfg_extra}")
    o = check(spec)
    assert (o.verdict, o.distinct_states) == (verdict, distinct), o.message


@pytest.mark.parametrize("expr, ok, message", [
    # TLC's Bags checks a bag's counts where an operator needs a bag; the module's TLA+
    # definitions, which kipcheck evaluated, accept any function (silent answers)
    ("BagCardinality(1 :> 0) = 0", False,
     "Applying BagCardinality to the following value, which is not a bag:\n<<0>>"),
    ("((1 :> 0) (+) (2 :> 1)) = (2 :> 1)", False,
     "The first argument of (+) should be a bag, but instead it is:\n<<0>>"),
    ('BagIn(1, 1 :> "a")', False, "The second argument of BagIn should be a bag"),
    # a count of 0 is read as it is: BagIn FALSE (kipcheck said TRUE), CopiesIn 0
    ("~BagIn(1, 1 :> 0) /\\ CopiesIn(1, 1 :> 0) = 0 /\\ ~IsABag(0) /\\ ~IsABag(1 :> 0)", True,
     None),
    # Bags extends TLC, as TLC's own module does: :> comes with it
    ("BagToSet((1 :> 2) (+) (2 :> 1)) = {1, 2} /\\ BagCardinality(SetToBag({1, 2})) = 2",
     True, None),
])
def test_bags_check_their_counts_as_tlc_does(tmp_path, expr, ok, message):
    spec = write_spec(tmp_path, f"VARIABLE x\nInit == x = 0\nNext == UNCHANGED x\nInv == {expr}",
                      "INIT Init\nNEXT Next\nINVARIANT Inv\n", extends="Naturals, Bags")
    o = check(spec)
    assert o.verdict == ("ok" if ok else "error"), o.message
    if message is not None:
        assert message in o.message


def test_a_let_action_under_enabled_is_a_state_predicate(tmp_path):
    """TLC 2.18 checks `Inv == LET S == x' = x IN ENABLED S` as an invariant (3 states); kipcheck
    refused it as "not a state predicate" (151): the LET definition's prime counted although
    only ENABLED uses it."""
    spec = write_spec(tmp_path, "VARIABLE x\nInit == x = 0\nNext == x < 2 /\\ x' = x + 1\n"
                                "Inv == LET S == x' = x IN ENABLED S",
                      "INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n")
    o = check(spec)
    assert (o.verdict, o.distinct_states) == ("ok", 3)


def test_an_operator_argument_of_an_instance_operator(tmp_path):
    """`I!Apply(LAMBDA a : a + 1)` in Next and `I!Map(LAMBDA a : a + 1)` in an invariant, with
    Apply(Op(_)) == v' = Op(v): TLC 2.18 checks 3 states; kipcheck refused the LAMBDA (150)."""
    (tmp_path / "Inner.tla").write_text("---- MODULE Inner ----\nEXTENDS Naturals\nVARIABLE v\n"
                                        "Apply(Op(_)) == v' = Op(v)\nMap(Op(_)) == Op(v)\n====\n")
    spec = write_spec(tmp_path, "VARIABLE x\nI == INSTANCE Inner WITH v <- x\nInit == x = 1\n"
                                "Next == x < 3 /\\ I!Apply(LAMBDA a : a + 1)\n"
                                "Inv == I!Map(LAMBDA a : a + 1) > 1",
                      "INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n")
    o = check(spec)
    assert (o.verdict, o.distinct_states) == ("ok", 3)


def test_a_string_in_a_trace_keeps_its_escapes(tmp_path):
    """TLC prints "a\\tb" as written; kipcheck printed the tab itself (and dropped \\r, \\f)."""
    spec = write_spec(tmp_path, 'VARIABLE x\nInit == x = <<"a\\tb", "c\\rd", "e\\fg">>\n'
                                "Next == UNCHANGED x\nInv == x # x",
                      "INIT Init\nNEXT Next\nINVARIANT Inv\n")
    code, out = cli("check", str(spec))
    assert code == 12, out
    assert 'x = <<"a\\tb", "c\\rd", "e\\fg">>' in out


def test_a_symmetry_that_is_no_set_is_refused_in_tlcs_words(tmp_path):
    spec = write_spec(tmp_path, "CONSTANT P\nVARIABLE x\nInit == x = 0\nNext == UNCHANGED x\n"
                                "Sym == 3", "CONSTANT P = {p1, p2}\nINIT Init\nNEXT Next\n"
                                            "SYMMETRY Sym\n")
    code, out = cli("check", str(spec))
    assert code == 151, out
    assert "The symmetry operator must specify a set of functions (SYMMETRY Sym is 3)." in out


def test_subbag_enumerates_a_bag_and_refuses_what_is_no_bag(tmp_path):
    """TLC 2.18 evaluates its module's SubBag (a recursive function over bags): the 6 subbags
    of (1 :> 2 @@ 2 :> 1), and an error for a count of 0 (kipcheck gave 2 subbags)."""
    spec = write_spec(tmp_path, "VARIABLE x\nInit == x \\in SubBag((1 :> 2) @@ (2 :> 1))\n"
                                "Next == UNCHANGED x", extends="Naturals, Bags")
    o = check(spec)
    assert (o.verdict, o.distinct_states) == ("ok", 6)
    spec = write_spec(tmp_path, "VARIABLE x\nInit == x \\in SubBag((1 :> 0) @@ (2 :> 1))\n"
                                "Next == UNCHANGED x", extends="Naturals, Bags")
    o = check(spec)
    assert o.verdict == "error" and "SubBag of a value that is no bag" in o.message


PD = ("---- MODULE PD ----\nEXTENDS Integers\nVARIABLE c\n"
      "En == ENABLED (c < 2 /\\ c' = c + 1)\n====\n")


@pytest.mark.parametrize("inv, verdict, distinct", [
    # TLC 2.18: 9 states, Inv violated in the state <<2, 2>> (trace of 5); kipcheck stopped
    # with a Python NameError: the ENABLED did not get the caller's bound k
    ("\\E k \\in 1..2 : I(k)!En", "invariant", 9),
    ("\\A k \\in 1..2 : I(k)!En \\/ f[k] = 2", "ok", 9),
    ("Q(1) \\/ Q(2) \\/ f = <<2, 2>>", "ok", 9),
])
def test_enabled_in_an_instance_reads_the_callers_bound_names(tmp_path, inv, verdict, distinct):
    (tmp_path / "PD.tla").write_text(PD)
    spec = write_spec(tmp_path, "VARIABLES f\nI(k) == INSTANCE PD WITH c <- f[k]\n"
                                "Init == f = <<0, 0>>\n"
                                "Next == \\E k \\in 1..2 : f[k] < 2\n"
                                "          /\\ f' = [f EXCEPT ![k] = @ + 1]\n"
                                f"Q(k) == I(k)!En\nInv == {inv}",
                      "INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n",
                      extends="Integers")
    o = check(spec)
    assert (o.verdict, o.distinct_states) == (verdict, distinct), o.message
    if verdict == "invariant":
        assert o.trace_length == 5


@pytest.mark.parametrize("defs, init", [
    # TLC 2.18 accepts an operator passed on in a RECURSIVE operator's own body (1 state);
    # kipcheck refused it (150: "'F' takes 1 argument but is used without any")
    ("RECURSIVE Iter(_, _)\nIter(F(_), n) == IF n = 0 THEN 0 ELSE Iter(F, n - 1)",
     "Iter(LAMBDA v : v, 2)"),
    ("Add(a, b) == a + b\nRECURSIVE Fold(_, _, _)\n"
     "Fold(F(_, _), n, v) == IF n = 0 THEN v ELSE Fold(F, n - 1, F(v, n))", "Fold(Add, 2, 0) - 3"),
    ("RECURSIVE Iter(_, _)\nIter(F(_), n) == IF n = 0 THEN 0 ELSE Iter(LAMBDA v : F(v), n - 1)",
     "Iter(LAMBDA v : v, 2)"),
])
def test_a_recursive_operator_passes_an_operator_on(tmp_path, defs, init):
    spec = write_spec(tmp_path, f"VARIABLE x\n{defs}\nInit == x = {init}\nNext == UNCHANGED x\n"
                                "Inv == x = 0", "INIT Init\nNEXT Next\nINVARIANT Inv\n")
    o = check(spec)
    assert (o.verdict, o.distinct_states) == ("ok", 1), o.message


@pytest.mark.parametrize("nxt, last, generated", [
    # TLC enumerates `\E p, v \in S` and `\E p \in S, v \in T` with the FIRST name varying
    # fastest (TLC 2.18: the violation is <<2, 1>>); kipcheck nested the first outermost
    ("\\E p, v \\in 1..2 : x' = <<p, v>>", "<<2, 1>>", 3),
    ("\\E p \\in 1..2, v \\in 1..2 : Set(p, v)", "<<2, 1>>", 3),
    ("\\E <<p, v>> \\in {<<1, 2>>, <<2, 1>>} : Set(p, v)", "<<1, 2>>", 2),
])
def test_several_bound_names_vary_the_first_fastest(tmp_path, nxt, last, generated):
    spec = write_spec(tmp_path, "VARIABLES x\nInit == x = <<0, 0>>\nSet(p, v) == x' = <<p, v>>\n"
                                f"Next == {nxt}\nInv == x \\notin {{<<2, 1>>, <<1, 2>>}}",
                      "INIT Init\nNEXT Next\nINVARIANT Inv\n", extends="Integers")
    o = check(spec)
    assert o.verdict == "invariant"
    assert o.states_generated == generated
    assert o.trace[-1].state == ((2, 1) if last == "<<2, 1>>" else (1, 2),)


def test_counts_at_a_violation_follow_tlcs_order(tmp_path):
    """TLC 2.18: 4 states generated, 4 distinct, when Inv fails (kipcheck: 3 and 3)."""
    spec = write_spec(tmp_path, "VARIABLES x\nInit == x = <<0, 0>>\n"
                                "Next == \\E p, v \\in 1..2 : x' = <<x[1] + p, x[2] + 2 * v>>\n"
                                "Inv == x[1] + x[2] < 5",
                      "INIT Init\nNEXT Next\nINVARIANT Inv\n", extends="Integers")
    o = check(spec)
    assert (o.verdict, o.states_generated, o.distinct_states) == ("invariant", 4, 4)
