"""`=` and `#` with a model value compile to Python's == and != (comparing anything with a model
value is never an error in TLC, and it equals only itself). TLC 2.18 (`-workers 1`) on this
spec: with Same, no error, 12 generated, 6 distinct, depth 1; with NotNone as well, NotNone is
violated by the initial state x = NONE."""
from __future__ import annotations

import subprocess
import sys

import pytest

from checker.api import check

SPEC = """---- MODULE MV ----
CONSTANT NONE
VARIABLE x
Init == \\/ x = 1 \\/ x = <<1>> \\/ x = {1} \\/ x = "s" \\/ x = [a |-> 1] \\/ x = NONE
Next == x' = IF x = NONE THEN 1 ELSE x
Same == IF x = NONE THEN x = NONE ELSE (x # NONE) = (NONE # x)
NotNone == x # NONE
====
"""


def _write(tmp_path, invariants):
    (tmp_path / "MV.tla").write_text(SPEC)
    (tmp_path / "MV.cfg").write_text("CONSTANT NONE = NONE\nINIT Init\nNEXT Next\n" + "".join(
        f"INVARIANT {i}\n" for i in invariants))
    return tmp_path / "MV.tla"


@pytest.mark.parametrize("workers", [1, 2])
def test_comparisons_with_a_model_value_keep_tlcs_answers(tmp_path, workers):
    o = check(_write(tmp_path, ["Same"]), workers=workers)
    assert (o.verdict, o.states_generated, o.distinct_states, o.depth) == ("ok", 12, 6, 1)
    o = check(_write(tmp_path, ["Same", "NotNone"]), workers=workers)
    assert (o.verdict, o.property, o.trace_length) == ("invariant", "NotNone", 1)


def test_they_compile_to_pythons_comparison(tmp_path):
    spec = _write(tmp_path, ["Same"])
    r = subprocess.run([sys.executable, "-m", "checker.cli", "compile", str(spec)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    same = [line for line in r.stdout.splitlines() if line.endswith("# MV.tla:6:9")]
    # x = NONE, x # NONE and NONE # x: Python's comparisons; the = of two Booleans stays eq
    assert same and all(line.count(" == (_k") == 2 and line.count(" != (_k") == 1
                        and line.count(") != (s[0])") == 1 and line.count("eq(") == 1
                        for line in same)


# Typed model values (a name "x_rest": type x). TLC 2.18 on each invariant below with
# `CONSTANTS a = n_a  b = n_b  S = {p_1, p_2}`: exit 75 (TLC's error) or 0.
TYPED = [
    ("x # 1", "Attempted to check equality of typed model value n_a and non-model value\n1"),
    ('"s" # x',
     'Attempted to check equality of the typed model value n_a and the non-model value\n"s"'),
    ("<<x>> # <<1>>", "Attempted to check equality of typed model value n_a"),
    ("{x} # {1}", "Attempted to check equality of typed model value n_a"),
    ("[f |-> x] # [f |-> 1]", "Attempted to check equality of typed model value n_a"),
    ("x # S0", "Attempted to check equality of the differently-typed model values n_a and p_1"),
    ("x \\notin {1, 2}", "Attempted to check equality of typed model value n_a"),
    ("1 \\notin {x}", "Attempted to check equality of the typed model value n_a"),
    ("x \\notin Nat", "Attempted to check if the typed model value n_a is an element of\nNat"),
    ("x \\notin 1..2", "typed model value n_a"),
]


@pytest.mark.parametrize("inv, message", TYPED)
def test_a_typed_model_value_compared_with_another_kind_is_an_error(tmp_path, inv, message):
    """Was a silent pass: a typed model value compared like an untyped one, unequal to all."""
    (tmp_path / "T.tla").write_text(
        "---- MODULE T ----\nEXTENDS Naturals\nCONSTANTS a, b, S\nVARIABLE x\n"
        f"S0 == CHOOSE s \\in S : TRUE\nInit == x = a\nNext == UNCHANGED x\nInv == {inv}\n====\n")
    (tmp_path / "T.cfg").write_text("CONSTANTS a = n_a\n b = n_b\n S = {p_1, p_2}\n"
                                    "INIT Init\nNEXT Next\nINVARIANT Inv\n")
    o = check(tmp_path / "T.tla")
    assert (o.verdict, o.distinct_states) == ("error", 1)
    assert message in o.message


def test_typed_model_values_of_one_type_or_untyped_ones_compare_as_before(tmp_path):
    # TLC 2.18: no error, 2 distinct states; a set of the .cfg is searched without comparing
    # (`1 \notin S`, `x \notin S`), as is `x \notin DOMAIN f`; `{x, 1}` is built without one
    (tmp_path / "T.tla").write_text(
        "---- MODULE T ----\nEXTENDS Naturals\nCONSTANTS a, b, S, none\nVARIABLE x\n"
        "Init == x \\in {a, b}\nNext == UNCHANGED x\n"
        "Inv == /\\ (x # b \\/ x = b) /\\ x # none /\\ 1 \\notin S /\\ x \\notin S\n"
        "       /\\ x \\notin DOMAIN [i \\in {1} |-> 0] /\\ Cardinality({x, 1}) = 2\n====\n")
    (tmp_path / "T.cfg").write_text("CONSTANTS a = n_a\n b = n_b\n S = {p_1, p_2}\n"
                                    " none = none\nINIT Init\nNEXT Next\nINVARIANT Inv\n")
    (tmp_path / "T.tla").write_text((tmp_path / "T.tla").read_text().replace(
        "EXTENDS Naturals", "EXTENDS Naturals, FiniteSets"))
    o = check(tmp_path / "T.tla")
    assert (o.verdict, o.distinct_states) == ("ok", 2)
