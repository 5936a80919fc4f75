"""The static kind analysis (checker/semantics/kinds.py) decides which variables skip the kind
check on a fingerprint-table hit. A variable it wrongly calls safe would merge <<1>> with
<<TRUE>>: TLC counts them apart. Each case below hides the mix behind another construct; the
counts must stay TLC's (7 distinct, 11 generated, as with `x' = <<1>> \\/ x' = <<TRUE>>`: TLC
2.18) and the analysis must keep x checked."""
from __future__ import annotations

import pytest

from checker.api import check
from checker.semantics import kinds

SPEC = """\
---- MODULE H ----
EXTENDS Naturals, Sequences
VARIABLE x, n
{defs}
Init == x = <<0>> /\\ n = 0
Next == n < 3 /\\ n' = n + 1 /\\ ({how})
====
"""

HIDDEN = {
    "plain": ("", "x' = <<1>> \\/ x' = <<TRUE>>"),
    "operator": ("Pick(v) == <<v>>", "x' = Pick(1) \\/ x' = Pick(TRUE)"),
    "let": ("", "LET t == TRUE IN (x' = <<1>> \\/ x' = <<t>>)"),
    "let operator": ("", "LET W(v) == <<v>> IN (x' = W(1) \\/ x' = W(TRUE))"),
    "recursion": ("RECURSIVE Wrap(_, _)\nWrap(v, k) == IF k = 0 THEN <<v>> ELSE Wrap(v, k - 1)",
                  "x' = Wrap(1, 2) \\/ x' = Wrap(TRUE, 2)"),
    "except": ("", "x' = [x EXCEPT ![1] = 1] \\/ x' = [x EXCEPT ![1] = TRUE]"),
    "choose": ("", "x' = <<1>> \\/ x' = <<CHOOSE v \\in {TRUE} : TRUE>>"),
    "function": ("", "x' = [i \\in {1} |-> 1] \\/ x' = [i \\in {1} |-> TRUE]"),
    "record field": ("", "x' = <<[f |-> 1].f>> \\/ x' = <<[f |-> TRUE].f>>"),
    "constant function": ("F == [v \\in {1, 2} |-> IF v = 1 THEN 1 ELSE TRUE]",
                          "x' = <<F[1]>> \\/ x' = <<F[2]>>"),
    "sequence ops": ("", "x' = Append(<<>>, 1) \\/ x' = Tail(<<0, TRUE>>)"),
    "set ops": ("", "x' \\in {<<1>>} \\cup {} \\/ x' \\in {} \\cup {<<TRUE>>}"),
    "parameter": ("Put(v, e) == v = e", "Put(x', <<1>>) \\/ Put(x', <<TRUE>>)"),
    "case": ("", "x' = (CASE n < 9 -> <<1>> [] OTHER -> <<0>>) \\/ x' = <<TRUE>>"),
}


def _write(tmp_path, defs, how):
    (tmp_path / "H.tla").write_text(SPEC.replace("{defs}", defs).replace("{how}", how))
    (tmp_path / "H.cfg").write_text("INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n")


def _checked(tmp_path, monkeypatch) -> dict:
    seen = {}
    real = kinds.checked_variables

    def spy(comp, variables, init, nxt):
        out = real(comp, variables, init, nxt)
        seen.update(zip(variables, out, strict=True))
        return out

    monkeypatch.setattr(kinds, "checked_variables", spy)
    return seen


@pytest.mark.parametrize("case", sorted(HIDDEN))
def test_a_variable_mixing_kinds_stays_checked(tmp_path, monkeypatch, case):
    defs, how = HIDDEN[case]
    _write(tmp_path, defs, how)
    seen = _checked(tmp_path, monkeypatch)
    o = check(tmp_path / "H.tla", tmp_path / "H.cfg")
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 7, 11)
    assert seen == {"x": True, "n": False}


def test_an_assignment_the_analysis_cannot_follow_leaves_every_variable_checked(
        tmp_path, monkeypatch):
    """An operator argument that assigns (TLC 2.18: 7 distinct, 11 generated)."""
    _write(tmp_path, "Do(A(_)) == A(0)", "x' = <<1>> \\/ Do(LAMBDA v : x' = <<TRUE>>)")
    seen = _checked(tmp_path, monkeypatch)
    o = check(tmp_path / "H.tla", tmp_path / "H.cfg")
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 7, 11)
    assert seen == {"x": True, "n": True}


def test_an_operator_constant_the_configuration_replaces_is_followed(tmp_path, monkeypatch):
    """`Send <- MCSend` where MCSend assigns through its parameter (as in Specifying Systems'
    MCInternalMemory)."""
    (tmp_path / "H.tla").write_text(SPEC.replace(
        "{defs}", "CONSTANT Send(_, _)\nMCSend(v, new) == new = <<v>>").replace(
        "{how}", "Send(1, x') \\/ Send(TRUE, x')"))
    (tmp_path / "H.cfg").write_text("CONSTANT Send <- MCSend\nINIT Init\nNEXT Next\n"
                                    "CHECK_DEADLOCK FALSE\n")
    seen = _checked(tmp_path, monkeypatch)
    o = check(tmp_path / "H.tla", tmp_path / "H.cfg")
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 7, 11)
    assert seen == {"x": True, "n": False}


@pytest.mark.parametrize("op", ["Put", "LAMBDA old, new : new = <<TRUE>>"])
def test_an_instance_operator_constant_is_followed(tmp_path, monkeypatch, op):
    """INSTANCE Inner WITH Op <- ...: the substituted (constant-level) operator assigns
    through its parameter, as MCTwoPhase's XAct does (TLC 2.18: 7 distinct, 11 generated)."""
    (tmp_path / "Inner.tla").write_text(
        "---- MODULE Inner ----\nCONSTANT Op(_, _)\nVARIABLE y\nStep == Op(y, y')\n====\n")
    _write(tmp_path, f"Put(old, new) == new = <<TRUE>>\n"
                     f"I == INSTANCE Inner WITH y <- x, Op <- {op}", "x' = <<1>> \\/ I!Step")
    seen = _checked(tmp_path, monkeypatch)
    o = check(tmp_path / "H.tla", tmp_path / "H.cfg")
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 7, 11)
    assert seen == {"x": True, "n": False}


def test_an_instance_variable_mixing_kinds_stays_checked(tmp_path, monkeypatch):
    (tmp_path / "Inner.tla").write_text(
        "---- MODULE Inner ----\nVARIABLE y\nStep == y' = <<TRUE>>\n====\n")
    _write(tmp_path, "I == INSTANCE Inner WITH y <- x", "x' = <<1>> \\/ I!Step")
    seen = _checked(tmp_path, monkeypatch)
    o = check(tmp_path / "H.tla", tmp_path / "H.cfg")
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 7, 11)
    assert seen == {"x": True, "n": False}


def _types(tmp_path, monkeypatch, text: str) -> dict:
    (tmp_path / "T.tla").write_text(text)
    (tmp_path / "T.cfg").write_text("CONSTANT B = {b1, b2}\nINIT Init\nNEXT Next\n"
                                    "CHECK_DEADLOCK FALSE\n")
    got = {}

    def spy(comp, variables, init, nxt):
        got.update(kinds.variable_types(comp, variables, init, nxt))
        return tuple(True for _ in variables)

    monkeypatch.setattr(kinds, "checked_variables", spy)
    check(tmp_path / "T.tla", tmp_path / "T.cfg", max_depth=1)
    return {v: repr(t) for v, t in got.items()}


def test_the_types_of_a_typical_model(tmp_path, monkeypatch):
    """Records whose fields hold Booleans and integers apart, functions of model values,
    queues of records: precise types, none needing a check."""
    got = _types(tmp_path, monkeypatch, """\
---- MODULE T ----
EXTENDS Naturals, Sequences
CONSTANT B
VARIABLE reg, q, up
NoReg == [epoch |-> 0, fenced |-> TRUE]
Init == reg = [b \\in B |-> NoReg] /\\ q = <<>> /\\ up = {}
Next == \\E b \\in B :
          /\\ reg' = [reg EXCEPT ![b].epoch = @ + 1, ![b].fenced = FALSE]
          /\\ q' = Append(q, [from |-> b, epoch |-> reg[b].epoch])
          /\\ up' = up \\cup {b}
====
""")
    assert got == {"reg": "Fn(mv -> [epoch: int, fenced: bool])",
                   "q": "Seq([epoch: int, from: mv])", "up": "Set(mv)"}
    for text in got.values():
        assert "TOP" not in text


@pytest.mark.parametrize("text, ambiguous", [
    ("Seq(int)", False),
    ("Seq(int | bool)", True),
    # [k |-> <<1>>] = << <<"k">>, << <<1>> >> >> in Python
    ("Fn(str -> Seq(int)) vs Seq(Seq(str) | Seq(Seq(int)))", True),
    ("Fn(int -> Seq(int)) vs Seq(Seq(str))", False),  # no string equals an integer key
    ("Set(bool) | Set(int)", True),
    ("[a: int, b: bool]", False),
])
def test_which_types_can_hold_python_equal_values_of_other_kinds(text, ambiguous):
    k = kinds
    types = {
        "Seq(int)": k.seq_of(k.INTEGER),
        "Seq(int | bool)": k.seq_of(k.join(k.INTEGER, k.BOOL)),
        "Fn(str -> Seq(int)) vs Seq(Seq(str) | Seq(Seq(int)))": k.join(
            k.Ty(fn=(k.STR, k.seq_of(k.INTEGER))),
            k.seq_of(k.join(k.seq_of(k.STR), k.seq_of(k.seq_of(k.INTEGER))))),
        "Fn(int -> Seq(int)) vs Seq(Seq(str))": k.join(
            k.Ty(fn=(k.INTEGER, k.seq_of(k.INTEGER))), k.seq_of(k.seq_of(k.STR))),
        "Set(bool) | Set(int)": k.join(k.set_of(k.BOOL), k.set_of(k.INTEGER)),
        "[a: int, b: bool]": k.Ty(rec=(("a", k.INTEGER), ("b", k.BOOL))),
    }
    assert k.ambiguous(types[text]) is ambiguous
