"""Invariants on a successor: a conjunct that reads only variables the step left unchanged held
on the parent and is not evaluated again (compile_step_predicate). Every conjunct that reads
a changed variable, directly or through an operator, a definition, a LET, a recursive
function or an INSTANCE substitution, must still be evaluated. Expected figures are TLC
2.18's: x counts 0, 1, 2, 3 and Inv breaks at x = 3 (4 generated, 4 distinct, trace of 4).
"""
from __future__ import annotations

import pytest

from checker.api import check
from checker.frontend import load_spec
from checker.semantics.model import build

INNER = ("---- MODULE Inner ----\nEXTENDS Naturals\nCONSTANT c\nVARIABLE v\nSmall == v < 3\n"
         "Both == /\\ v < 3\n        /\\ c = 0\nTwice == Small /\\ Both\n====\n")


def _spec(tmp_path, conjunct: str, init: str = "x = 0 /\\ y = 0"):
    (tmp_path / "Inner.tla").write_text(INNER)
    (tmp_path / "M.tla").write_text(
        "---- MODULE M ----\nEXTENDS Naturals, TLC\nVARIABLES x, y\n"
        "I == INSTANCE Inner WITH v <- x, c <- 0\nJ == INSTANCE Inner WITH v <- y, c <- 0\n"
        "K == INSTANCE Inner WITH v <- 0, c <- x\nP(n) == INSTANCE Inner WITH v <- n, c <- 0\n"
        "Le(n) == x < n\nDx == x\nf[n \\in 0..5] == IF n = 0 THEN x ELSE f[n - 1]\n"
        f"Init == {init}\nNext == x' = x + 1 /\\ UNCHANGED y\n"
        f"Inv == /\\ y = 0\n       /\\ {conjunct}\n====\n")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
    return tmp_path / "M.tla"


@pytest.mark.parametrize("conjunct", [
    "x < 3", "Le(3)", "Dx < 3", "LET z == x IN z < 3", "LET L(n) == Dx < n IN L(3)",
    "I!Small", "f[5] < 3", "\\A i \\in {1} : x < 3", "(y = 0 /\\ x < 3)",
    "(y = 0 /\\ (TRUE /\\ Le(3)))", "I!Both", "I!Twice", "J!Small /\\ I!Small",
    "K!Both \\/ x < 3", "P(x)!Small", "P(Dx)!Both",
])
def test_a_conjunct_reading_a_changed_variable_is_evaluated_again(tmp_path, conjunct):
    o = check(_spec(tmp_path, conjunct))
    assert (o.verdict, o.property, o.distinct_states, o.states_generated) == (
        "invariant", "Inv", 4, 4)
    assert [s.state[0] for s in o.trace] == [0, 1, 2, 3]


def test_conjuncts_of_unchanged_variables_are_skipped_and_others_are_not(tmp_path):
    built = build(load_spec(_spec(tmp_path, "Le(3)"), tmp_path / "M.cfg"))
    (name, inv), = built.model.invariants
    (step_name, step), = built.model.step_invariants
    assert step_name == name == "Inv"
    assert inv((5, 0)) is False
    # Given a parent that shares x's value (the very object), Le(3) is taken as held: the
    # contract is that the parent satisfied the invariant.
    assert step((5, 0), (5, 0)) is True
    assert step((3, 0), (2, 0)) is False  # x changed: evaluated
    assert step((1, 0), (0, 0)) is True


def test_an_impure_or_parameterised_instance_conjunct_is_always_evaluated(tmp_path):
    for conjunct in ("P(y)!Small", "RandomElement({y}) = 0"):
        built = build(load_spec(_spec(tmp_path, conjunct + " /\\ x < 9"), tmp_path / "M.cfg"))
        (_, step), = built.model.step_invariants
        # Evaluated even when y is unchanged (here to FALSE, y = 7, on a parent given as
        # holding): a parameterised instance's arguments are not followed.
        assert step((1, 7), (0, 7)) is False


@pytest.mark.parametrize("conjunct", ["J!Small", "J!Both", "J!Twice"])
def test_an_instance_conjunct_is_followed_through_its_substitutions(tmp_path, conjunct):
    built = build(load_spec(_spec(tmp_path, conjunct + " /\\ x < 9"), tmp_path / "M.cfg"))
    (_, step), = built.model.step_invariants
    assert step((1, 7), (0, 7)) is True  # J reads y (v <- y), which the step kept
    assert step((1, 7), (0, 6)) is False  # y changed: evaluated


def _reads(tmp_path, text: str):
    """state_reads of the definition E == text in a module extending M."""
    from checker.semantics.compiler import Compiler

    _spec(tmp_path, "TRUE")
    (tmp_path / "E.tla").write_text(f"---- MODULE E ----\nEXTENDS M\nE == {text}\n====\n")
    loaded = load_spec(tmp_path / "E.tla")
    comp = Compiler(loaded.scopes, loaded.root.name, list(loaded.scope.variables), {}, {})
    sym = loaded.scope.symbols["E"]
    return comp.state_reads(sym.node.body, comp.root_env())


@pytest.mark.parametrize("text, reads", [
    ("y = 0", {1}), ("Le(3) /\\ y = 1", {0, 1}), ("LET z == y IN z", {1}), ("f[2]", {0}),
    ("1 + 2", set()), ("\\E i \\in {y} : i > Dx", {0, 1}),
    ("I!Small", {0}), ("J!Both", {1}), ("K!Both", {0}), ("I!Small /\\ J!Twice", {0, 1}),
    ("P(y)!Small", None), ("P(1)!Small", None),
    ("RandomElement({y, 1})", None), ("TLCGet(\"level\")", None),
])
def test_what_an_expression_reads(tmp_path, text, reads):
    assert _reads(tmp_path, text) == reads


# Successor checks that use the parent: constraints skip what the step left unchanged (the
# parent was inside them), `v \in [S -> T]` (records, Seq(S)) tests only what v's value does not
# share with the parent's, and an action property [A]_v evaluates A once per state where the
# step keeps every variable A reads primed. Figures are TLC 2.18's.
_SUCCESSOR_CHECKS = {
    "AP": ("EXTENDS Naturals\nVARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
           "Next == \\/ x < 3 /\\ x' = x + 1 /\\ UNCHANGED y\n"
           "        \\/ y' = 1 - y /\\ UNCHANGED x\n"
           "Prop == [][y' = 1 => x < 2]_<<x, y>>\n",
           "INIT Init\nNEXT Next\nPROPERTY Prop\n", ("property", "Prop", 7, 9, 4)),
    "TY": ("EXTENDS Naturals, Sequences\nVARIABLES f, q\n"
           "Init == f = [i \\in {1, 2} |-> [j \\in {1, 2} |-> 0]] /\\ q = <<>>\n"
           "Next == \\/ f[1][2] < 3 /\\ f' = [f EXCEPT ![1][2] = @ + 1] /\\ UNCHANGED q\n"
           "        \\/ Len(q) < 3 /\\ q' = Append(q, Len(q)) /\\ UNCHANGED f\n"
           "        \\/ q # <<>> /\\ q' = Tail(q) /\\ UNCHANGED f\n"
           "TypeOK == /\\ f \\in [{1, 2} -> [{1, 2} -> 0..2]]\n"
           "          /\\ q \\in Seq(0..2)\n",
           "INIT Init\nNEXT Next\nINVARIANT TypeOK\n", ("invariant", "TypeOK", 7, 9, 4)),
    "TQ": ("EXTENDS Naturals, Sequences\nVARIABLES f, q\n"
           "Init == f = [i \\in {1, 2} |-> [j \\in {1, 2} |-> 0]] /\\ q = <<>>\n"
           "Next == \\/ f[1][2] < 2 /\\ f' = [f EXCEPT ![1][2] = @ + 1] /\\ UNCHANGED q\n"
           "        \\/ Len(q) < 4 /\\ q' = Append(q, Len(q)) /\\ UNCHANGED f\n"
           "        \\/ q # <<>> /\\ q' = Tail(q) /\\ UNCHANGED f\n"
           "TypeOK == /\\ f \\in [{1, 2} -> [{1, 2} -> 0..2]]\n"
           "          /\\ q \\in Seq(0..2)\n",
           "INIT Init\nNEXT Next\nINVARIANT TypeOK\n", ("invariant", "TypeOK", 14, 22, 5)),
    "CS": ("EXTENDS Naturals, TLC\nVARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
           "Next == \\/ x' = x + 1 /\\ UNCHANGED y\n        \\/ y' = y + 1 /\\ UNCHANGED x\n"
           "Small == x < 3 /\\ y < 2\nShallow == TLCGet(\"level\") < 4\nInv == x + y < 10\n",
           "INIT Init\nNEXT Next\nINVARIANT Inv\nCONSTRAINT Small Shallow\n",
           ("ok", None, 6, 13, None)),
}


@pytest.mark.parametrize("name", sorted(_SUCCESSOR_CHECKS))
def test_successor_checks_that_use_the_parent_agree_with_tlc(tmp_path, name):
    body, cfg, (verdict, prop, distinct, generated, length) = _SUCCESSOR_CHECKS[name]
    (tmp_path / f"{name}.tla").write_text(f"---- MODULE {name} ----\n{body}====\n")
    (tmp_path / f"{name}.cfg").write_text(cfg)
    o = check(tmp_path / f"{name}.tla")
    assert (o.verdict, o.property, o.distinct_states, o.states_generated) == (
        verdict, prop, distinct, generated)
    assert (len(o.trace) if o.trace else None) == length


def test_the_step_forms_are_used(tmp_path):
    """The figures above come from the step forms, not from a fallback."""
    from checker.api import generated_code

    for name in ("AP", "TY", "CS"):
        body, cfg, _ = _SUCCESSOR_CHECKS[name]
        (tmp_path / f"{name}.tla").write_text(f"---- MODULE {name} ----\n{body}====\n")
        (tmp_path / f"{name}.cfg").write_text(cfg)
    def code(name):
        return "".join(src for _, src in generated_code(tmp_path / f"{name}.tla"))

    assert "member_since(s[0], p[0]" in code("TY") and "member_since(s[1], p[1]" in code("TY")
    assert "if t[1] is s[1] else" in code("AP")  # A reads y' only
    code = code("CS")
    assert "def cstep_Small(s, p, t=None):" in code
    assert "s[0] is p[0] or" in code


def test_member_since_tests_what_changed():
    from checker.semantics.runtime import member_since
    from checker.semantics.values import FuncSet, Interval, SeqSet, make_fn

    inner = FuncSet(frozenset({1, 2}), Interval(0, 2))
    outer = FuncSet(frozenset({1, 2}), inner)
    ok = make_fn([(1, (0, 0)), (2, (0, 0))])
    assert member_since(ok, ok, outer)
    bad = make_fn([(1, (0, 3)), (2, (0, 0))])
    assert not member_since(bad, ok, outer)
    assert member_since(make_fn([(1, (0, 2)), (2, (0, 0))]), ok, outer)
    seqs = SeqSet(Interval(0, 2))
    q = (0, 1, 2)
    assert member_since(q + (2,), q, seqs) and not member_since(q + (3,), q, seqs)
    assert member_since(q[1:], q, seqs)
    assert not member_since((5, 1, 2), q, seqs)  # same length, the head changed


@pytest.mark.parametrize("text, reads", [
    ("x' = 1 /\\ UNCHANGED y", set()), ("x' = y /\\ UNCHANGED y", {1}),
    ("UNCHANGED x /\\ x' = 2", {0}), ("\\/ x' = 1 \\/ UNCHANGED <<x, y>>", {0}),
    ("x' = x + 1 /\\ UNCHANGED y", {0}), ("LET z == x IN z' = 1", None),
])
def test_what_an_action_depends_on(tmp_path, text, reads):
    """action_reads: UNCHANGED v is a copy unless v is primed elsewhere in the action."""
    from checker.semantics.compiler import Compiler

    _spec(tmp_path, "TRUE")
    (tmp_path / "E.tla").write_text(f"---- MODULE E ----\nEXTENDS M\nE == {text}\n====\n")
    loaded = load_spec(tmp_path / "E.tla")
    comp = Compiler(loaded.scopes, loaded.root.name, list(loaded.scope.variables), {}, {})
    sym = loaded.scope.symbols["E"]
    assert comp.action_reads(sym.node.body, comp.root_env()) == reads


@pytest.mark.parametrize("text, primed", [
    ("x' = x + 1", {0}), ("UNCHANGED y", {1}), ("x' = y /\\ UNCHANGED <<y>>", {0, 1}),
    ("(x + y)' > 1", {0, 1}), ("x = 1", set()), ("LET z == x IN z' = 1", None),
    ("ENABLED (x' = 1)", None), ("I!Small'", None),
])
def test_what_an_action_reads_primed(tmp_path, text, primed):
    from checker.semantics.compiler import Compiler

    _spec(tmp_path, "TRUE")
    (tmp_path / "E.tla").write_text(f"---- MODULE E ----\nEXTENDS M\nE == {text}\n====\n")
    loaded = load_spec(tmp_path / "E.tla")
    comp = Compiler(loaded.scopes, loaded.root.name, list(loaded.scope.variables), {}, {})
    sym = loaded.scope.symbols["E"]
    assert comp.primed_reads(sym.node.body, comp.root_env()) == primed


def test_member_since_of_subsets_and_rebuilt_functions():
    """SUBSET S tests only the elements x does not share with old (by identity); a function
    rebuilt with equal keys (a fresh [n \\in S |-> ...]) is still compared value by value."""
    from checker.semantics.runtime import member_since
    from checker.semantics.values import EvalError, FuncSet, PowerSet, RecordSet, make_fn

    recs = RecordSet({"a": frozenset({1, 2})})
    subsets = PowerSet(recs)
    one, two, bad = (make_fn([("a", v)]) for v in (1, 2, 3))
    old = frozenset({one})
    assert member_since(old | {two}, old, subsets)
    assert not member_since(old | {bad}, old, subsets)
    assert not member_since(frozenset({bad}), frozenset(), subsets)
    with pytest.raises(EvalError, match="non-record"):  # TLC: 1 is no record to compare
        member_since(frozenset({1}), old, subsets)
    per_node = FuncSet(frozenset({"n1", "n2"}), subsets)
    f = make_fn([("n1", old), ("n2", old)])
    assert member_since(make_fn([("n1", old), ("n2", old | {two})]), f, per_node)
    assert not member_since(make_fn([("n1", old), ("n2", old | {bad})]), f, per_node)
    assert not member_since(make_fn([("n1", old), ("n3", old)]), f, per_node)


# `\A e \in v : P(e)` over a variable v: on a successor only the elements v gained need P,
# unless P reads another variable. TLC 2.18's figures: "FA" breaks when 3 joins S (4
# generated, 4 distinct, 2 left, a trace of 2, S = {0, 3}); "FB" when y = 2 makes the old
# element 1 fail (3 generated, 3 distinct, a trace of 3).
_FORALL = {
    "FA": ("EXTENDS Naturals\nCONSTANT Lim\nVARIABLES S, y\nLimDef == 3\n"
           "Init == S = {0} /\\ y = 0\n"
           "Next == \\/ /\\ \\E n \\in 1..4 : n \\notin S /\\ S' = S \\cup {n}\n"
           "           /\\ UNCHANGED y\n"
           "        \\/ y < 1 /\\ y' = y + 1 /\\ UNCHANGED S\n"
           "Inv == /\\ \\A e \\in S : e < Lim\n"
           "       /\\ \\A e \\in S : e \\in Nat /\\ e < 5 - y\n",
           "CONSTANT Lim <- LimDef\nINIT Init\nNEXT Next\nINVARIANT Inv\n",
           (4, 4, 2, frozenset({0, 3}))),
    "FB": ("EXTENDS Naturals\nVARIABLES S, y\nInit == S = {0, 1} /\\ y = 0\n"
           "Next == y < 5 /\\ y' = y + 1 /\\ UNCHANGED S\nInv == \\A e \\in S : e + y < 3\n",
           "INIT Init\nNEXT Next\nINVARIANT Inv\n", (3, 3, 3, frozenset({0, 1}))),
    # `\A p, q \in S` ranges over pairs: 2 joining {1} makes the pair 1, 2 fail, which no
    # pair of gained elements shows (TLC: 4 generated, 4 distinct, a trace of 3)
    "FC": ("EXTENDS Naturals\nVARIABLE S\nInit == S = {}\n"
           "Next == \\E p \\in {1, 2} : p \\notin S /\\ S' = S \\cup {p}\n"
           "Inv == \\A p, q \\in S : p = q\n",
           "INIT Init\nNEXT Next\nINVARIANT Inv\n", (4, 4, 3, frozenset({1, 2}))),
    # a tuple pattern binds one element: checked on what S gained (TLC: 4, 4, a trace of 2)
    "FD": ("EXTENDS Naturals\nVARIABLE S\nInit == S = {<<0, 1>>}\n"
           "Next == \\E n \\in 1..3 : <<n, 4 - n>> \\notin S /\\ S' = S \\cup {<<n, 4 - n>>}\n"
           "Inv == \\A <<a, b>> \\in S : a < 3\n",
           "INIT Init\nNEXT Next\nINVARIANT Inv\n", (4, 4, 2, frozenset({(0, 1), (3, 1)}))),
}


@pytest.mark.parametrize("name", sorted(_FORALL))
def test_forall_over_a_set_variable_checks_what_it_gained(tmp_path, name):
    from checker.api import generated_code

    body, cfg, (generated, distinct, length, last_s) = _FORALL[name]
    (tmp_path / f"{name}.tla").write_text(f"---- MODULE {name} ----\n{body}====\n")
    (tmp_path / f"{name}.cfg").write_text(cfg)
    o = check(tmp_path / f"{name}.tla")
    assert (o.verdict, o.property, o.states_generated, o.distinct_states, len(o.trace)) == (
        "invariant", "Inv", generated, distinct, length)
    assert o.trace[-1].state[0] == last_s
    code = "".join(src for _, src in generated_code(tmp_path / f"{name}.tla"))
    incremental = name in ("FA", "FD")
    assert code.count("added_since(s[0], p[0])") == (1 if incremental else 0)


def test_a_constant_substituted_by_a_non_constant_definition_is_a_config_error(tmp_path):
    """TLC: "The configuration file substitutes constant Lim with non-constant LimDef -
    specifically: In evaluation, the identifier y is either undefined or not an operator."."""
    body, cfg, _ = _FORALL["FA"]
    (tmp_path / "FA.tla").write_text("---- MODULE FA ----\n"
                                     + body.replace("LimDef == 3", "LimDef == 3 + y") + "====\n")
    (tmp_path / "FA.cfg").write_text(cfg)
    from checker.frontend.errors import KipcheckError

    with pytest.raises(KipcheckError, match="substitutes constant Lim with non-constant "
                       "LimDef - specifically: In evaluation, the identifier y is"):
        check(tmp_path / "FA.tla")
