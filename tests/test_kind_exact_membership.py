"""x \\in S compares kinds as TLC does. Python's == equates TRUE with 1 and FALSE with 0 (and
a function with the pair of its keys and values), so kipcheck once answered "No error has
been found" where TLC fails: a Boolean variable set to 1 passed `x \\in BOOLEAN`, the
typical TypeOK. Each case is pinned to TLC 2.18: the invariant's evaluation fails (exit 76, on a
state after the initial one) with TLC's message, or there is no error."""
from __future__ import annotations

import pytest

from checker.api import check

SPEC = """\
---- MODULE K ----
EXTENDS Naturals, Sequences
VARIABLE x
Init == x = 0
Next == x < 2 /\\ x' = x + 1
Inv == x = 2 => ({expr})
====
"""

ONE_VS_TRUE = "Attempted to compare integer 1 with non-integer:\nTRUE"

FAILS = [
    ("1 \\in BOOLEAN", ONE_VS_TRUE),
    ("1 \\notin BOOLEAN", ONE_VS_TRUE),
    ("2 \\in BOOLEAN", "Attempted to compare integer 2 with non-integer:\nTRUE"),
    ('"a" \\in BOOLEAN', 'Attempted to compare string "a" with non-string:\nTRUE'),
    ("<<1>> \\in BOOLEAN", "Attempted to compare the function <<1>> with the value:\nTRUE"),
    ("TRUE \\in {0, 1}", "Attempted to check equality of integer 0 with non-integer:\nTRUE"),
    ("TRUE \\in 0..1", "Attempted to check if the value:\nTRUE\nis in the integer interval 0..1"),
    ('"a" \\in 0..1', 'Attempted to check if the value:\n"a"\nis in the integer interval 0..1'),
    ("{1} \\subseteq BOOLEAN", ONE_VS_TRUE),
    ('[a |-> 1] \\in [{"a"} -> BOOLEAN]', ONE_VS_TRUE),
    ("[a |-> 1] \\in [a : BOOLEAN]", ONE_VS_TRUE),
    ("<<1, TRUE>> \\in BOOLEAN \\X BOOLEAN", ONE_VS_TRUE),
    ("<<1>> \\in Seq(BOOLEAN)", ONE_VS_TRUE),
    ("{1} \\in SUBSET BOOLEAN", ONE_VS_TRUE),
    ("<<1>> \\in {<<TRUE>>}",
     "Attempted to compare equality of boolean TRUE with non-boolean:\n1"),
    ("[b \\in BOOLEAN |-> 0] \\in [{0, 1} -> Nat]",
     "Attempted to check equality of integer 0 with non-integer:\nFALSE"),
    # Python merges the two elements; TLC cannot order them (before: {<<1>>}, no error)
    ("{<<1>>, <<TRUE>>} = {}", "Attempted to check equality of integer 1 with non-integer:\nTRUE"),
]

EQUALITY_FAILS = [
    "<<1>> = <<TRUE>>",
    "{1} = {TRUE}",
    "[a |-> 1] = [a |-> TRUE]",
]


@pytest.mark.parametrize("expr", EQUALITY_FAILS)
def test_equal_looking_values_of_other_kinds_are_an_error(tmp_path, expr):
    o = _check(tmp_path, expr)
    assert (o.verdict, o.exit_code) == ("error", 76)
    assert "Attempted to check equality of integer 1 with non-integer:\nTRUE" in o.message


HOLDS = [
    "<<1, 2>> = <<1, 2>>",
    "{<<1, TRUE>>} = {<<1, TRUE>>}",
    "TRUE \\in BOOLEAN",
    "<<TRUE>> \\in [{1} -> BOOLEAN]",
    "<<1, 2>> \\in {<<1, 2>>, <<3, 4>>}",
    "[a |-> TRUE] \\in [a : BOOLEAN]",
    "{0, 1} \\subseteq 0..3",
]


def _check(tmp_path, expr):
    (tmp_path / "K.tla").write_text(SPEC.replace("{expr}", expr))
    (tmp_path / "K.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
    return check(tmp_path / "K.tla", tmp_path / "K.cfg", deadlock=False)


@pytest.mark.parametrize("expr, message", FAILS)
def test_a_value_of_another_kind_is_no_member_but_an_error(tmp_path, expr, message):
    o = _check(tmp_path, expr)
    assert (o.verdict, o.exit_code, len(o.trace)) == ("error", 76, 3)
    assert message in o.message


@pytest.mark.parametrize("expr", HOLDS)
def test_members_of_their_own_kind_still_are(tmp_path, expr):
    o = _check(tmp_path, expr)
    assert (o.verdict, o.distinct_states) == ("ok", 3)


def test_a_boolean_variable_set_to_1_fails_typeok(tmp_path):
    (tmp_path / "B.tla").write_text(
        "---- MODULE B ----\nEXTENDS Naturals\nVARIABLES x, y\n"
        "Init == x = TRUE /\\ y = 0\n"
        "Next == y < 2 /\\ y' = y + 1 /\\ x' = IF y = 1 THEN 1 ELSE x\n"
        "TypeOK == x \\in BOOLEAN\n====\n")
    (tmp_path / "B.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT TypeOK\n")
    o = check(tmp_path / "B.tla", tmp_path / "B.cfg", deadlock=False)
    assert (o.verdict, o.exit_code, o.distinct_states, len(o.trace)) == ("error", 76, 3, 3)


# Known limitation, kept visible: the visited store's by-value tables take Python's == for
# TLA+ equality, so two states that differ only in TRUE against 1 at the same place (or in a
# record against the pair of its keys and values) are taken for one. TLC 2.18 counts them
# apart. Telling them apart costs 30-80 % of the search time with today's representation of
# values (measured); this test flips when the store becomes kind-exact.
def test_states_that_differ_only_in_kind_are_counted_apart(tmp_path):
    (tmp_path / "K.tla").write_text(
        "---- MODULE K ----\nEXTENDS Naturals\nVARIABLE x, y\nInit == x = 0 /\\ y = 0\n"
        "Next == /\\ y < 2\n        /\\ y' = y + 1\n"
        "        /\\ \\/ x' = 1\n           \\/ x' = TRUE\n"
        "           \\/ x' = << <<\"a\">>, <<1>> >>\n           \\/ x' = [a |-> 1]\n====\n")
    (tmp_path / "K.cfg").write_text("INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n")
    o = check(tmp_path / "K.tla", tmp_path / "K.cfg")
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 9, 21)


# Python-equal values of different kinds, at the top of a variable and inside sequences,
# records and sets, with model values under SYMMETRY and VIEW: every store keeps them apart,
# as TLC 2.18 does (before, each mode counted 25/261, 13/141 and 13/141).
KINDS_SPEC = """\
---- MODULE S ----
EXTENDS Naturals, TLC
CONSTANTS a, b
VARIABLE x, y, n
vars == <<x, y, n>>
Init == x = 0 /\\ y = a /\\ n = 0
Next == /\\ n < 2
        /\\ n' = n + 1
        /\\ y' \\in {a, b}
        /\\ \\/ x' = 0
           \\/ x' = FALSE
           \\/ x' = <<1>>
           \\/ x' = <<TRUE>>
           \\/ x' = [k |-> 1]
           \\/ x' = << <<"k">>, <<1>> >>
           \\/ x' = {<<0>>}
           \\/ x' = {<<FALSE>>}
           \\/ x' = <<a, 0>>
           \\/ x' = <<b, FALSE>>
V == <<x, n>>
Perms == Permutations({a, b})
====
"""


@pytest.mark.parametrize("extra, figures", [
    ("INIT Init\nNEXT Next\n", (41, 421)),
    ("INIT Init\nNEXT Next\nSYMMETRY Perms\n", (25, 261)),
    ("INIT Init\nNEXT Next\nVIEW V\n", (21, 221)),
])
@pytest.mark.parametrize("mode", [{}, {"exact_states": True}, {"workers": 2}])
def test_every_store_counts_kinds_apart(tmp_path, extra, figures, mode):
    (tmp_path / "S.tla").write_text(KINDS_SPEC)
    (tmp_path / "S.cfg").write_text(
        "CONSTANTS a = a b = b\nCHECK_DEADLOCK FALSE\n" + extra)
    o = check(tmp_path / "S.tla", tmp_path / "S.cfg", **mode)
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", *figures)


def test_unchanged_compares_kinds_as_tlc_does(tmp_path):
    """UNCHANGED x is TLC's x = x': 0 then FALSE is an error, not a stuttering x (before, the
    property held and the check passed)."""
    (tmp_path / "U.tla").write_text(
        "---- MODULE U ----\nEXTENDS Naturals\nVARIABLE x, n\nInit == x = 0 /\\ n = 0\n"
        "Next == n < 1 /\\ n' = n + 1 /\\ x' = FALSE\nSpec == Init /\\ [][Next]_<<x, n>>\n"
        "Prop == [][UNCHANGED x => n' = n]_n\n====\n")
    (tmp_path / "U.cfg").write_text("SPECIFICATION Spec\nPROPERTY Prop\n")
    o = check(tmp_path / "U.tla", tmp_path / "U.cfg")
    assert o.verdict == "error"
    assert "Attempted to check equality of integer 0 with non-integer:\nFALSE" in o.message
    assert len(o.trace) == 2


# x \in DOMAIN f is tested on f without building its domain; the answers and TLC's errors
# stay those of the general test (each checked against the code before the change).
@pytest.mark.parametrize("expr, verdict, message", [
    ("2 \\in DOMAIN <<5, 6>>", "ok", None),
    ("3 \\notin DOMAIN <<5, 6>>", "ok", None),
    ("\"a\" \\in DOMAIN [a |-> 1]", "ok", None),
    ("TRUE \\in DOMAIN <<1, 2>>", "error",
     "Attempted to check equality of integer 1 with non-integer"),
    ("\"a\" \\in DOMAIN [i \\in 1..2 |-> 0]", "error",
     "Attempted to check equality of integer 1 with non-integer"),
    ("1 \\in DOMAIN [b \\in BOOLEAN |-> 0]", "error",
     "Attempted to compare equality of boolean FALSE with non-boolean"),
])
def test_membership_in_a_domain(tmp_path, expr, verdict, message):
    (tmp_path / "D.tla").write_text(
        "---- MODULE D ----\nEXTENDS Naturals, Sequences\nVARIABLE x\nInit == x = 0\n"
        f"Next == UNCHANGED x /\\ {expr}\n====\n")
    (tmp_path / "D.cfg").write_text("INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n")
    o = check(tmp_path / "D.tla", tmp_path / "D.cfg")
    assert o.verdict == verdict
    if message:
        assert o.message.startswith(message)
