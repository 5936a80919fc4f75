"""Operators that the tlaplus/Examples specs use beyond the standard modules: the
CommunityModules that kipcheck ships (Folds, FiniteSetsExt, Functions, SequencesExt) and `\\o`
on strings. Every expected value is what TLC 2.18 printed for the same expression, with the
CommunityModules' own .tla files on its path. Where the order of elements matters, the cases use
numbers, except in the tests of the order of strings at the end.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from checker.api import check
from checker.cli import main
from checker.frontend.errors import ConfigError

F = '[i \\in {"a", "b", "c"} |-> IF i = "a" THEN 3 ELSE 5]'

# (expression, the value TLC gives it)
CASES = [
    # Folds, FiniteSetsExt
    ("FoldSet(LAMBDA a, b : <<a>> \\o b, <<>>, {3, 1, 2})", "<<1, 2, 3>>"),
    ("ReduceSet(LAMBDA a, b : a - b, {1, 5}, 10)", "6"),
    ("MapThenFoldSet(LAMBDA a, b : <<a>> \\o b, <<>>, LAMBDA e : e * 10, "
     "LAMBDA s : CHOOSE e \\in s : \\A y \\in s : e >= y, {1, 2, 3})", "<<30, 20, 10>>"),
    ("<<Max({3, 7, 1}), Min({3, 7, 1}), SumSet({3, 7, 1}), ProductSet({2, 3})>>",
     "<<7, 1, 11, 6>>"),
    ("MapThenSumSet(LAMBDA e : e * 2, {1, 2})", "6"),
    ("Quantify(1 .. 10, LAMBDA n : n % 3 = 0)", "3"),
    ("kSubset(2, {1, 2, 3})", "{{1, 2}, {1, 3}, {2, 3}}"),
    ("<<SymDiff({1, 2}, {2, 3}), FlattenSet({{1}, {2, 3}})>>", "<<{1, 3}, {1, 2, 3}>>"),
    ("ChooseUnique({1, 2, 3}, LAMBDA n : n > 2)", "3"),
    ("Choices({{1, 2}, {3}})", "{{1, 3}, {2, 3}}"),
    ("Choices({{1, 2}, {2}})", "{{2}, {1, 2}}"),
    ("<<Choices({}), Choices({{}, {1}})>>", "<<{{}}, {}>>"),
    # Functions
    (f"Range({F})", "{3, 5}"),
    (f"<<Restrict({F}, {{\"a\"}}), RestrictDomain({F}, LAMBDA k : k # \"b\"), "
     f"RestrictValues({F}, LAMBDA v : v > 4)>>",
     "<<[a |-> 3], [a |-> 3, c |-> 5], [b |-> 5, c |-> 5]>>"),
    (f"<<IsRestriction(Restrict({F}, {{\"a\"}}), {F}), IsInjective({F})>>", "<<TRUE, FALSE>>"),
    ("Pointwise(<<1, 2>>, <<10, 20>>, LAMBDA a, b : a + b)", "<<11, 22>>"),
    (f"<<SumFunction({F}), SumFunctionOnSet({F}, {{\"a\"}})>>", "<<13, 3>>"),
    ("AntiFunction(<<\"x\", \"y\">>)", "[x |-> 1, y |-> 2]"),
    ("Inverse(<<3, 5, 5>>, 1 .. 3, {3, 5, 9})", "(3 :> 1 @@ 5 :> 2 @@ 9 :> 1)"),
    ("<<Cardinality(Injection(1 .. 2, 1 .. 3)), Cardinality(Surjection(1 .. 3, 1 .. 2)), "
     "Cardinality(Bijection(1 .. 3, 1 .. 3))>>", "<<6, 6, 6>>"),
    ("<<ExistsInjection(1 .. 3, 1 .. 2), ExistsSurjection(1 .. 3, 1 .. 2), "
     "ExistsBijection(1 .. 2, 1 .. 2)>>", "<<FALSE, TRUE, TRUE>>"),
    ("FoldFunction(LAMBDA a, b : <<a>> \\o b, <<>>, (2 :> 3 @@ 4 :> 5 @@ 6 :> 5))",
     "<<3, 5, 5>>"),
    (f"FoldFunctionOnSet(LAMBDA a, b : a + b, 0, {F}, {{\"a\", \"b\"}})", "8"),
    ("FoldFunction(LAMBDA a, b : <<a>> \\o b, <<>>, <<7, 8, 9>>)", "<<7, 8, 9>>"),
    # SequencesExt
    ("SetToSeq({3, 1, 2})", "<<1, 2, 3>>"),
    ("<<ToSet(<<1, 1, 2>>), Cons(0, <<1>>), Contains(<<1, 2>>, 2), Reverse(<<1, 2, 3>>)>>",
     "<<{1, 2}, <<0, 1>>, TRUE, <<3, 2, 1>>>>"),
    ("<<Remove(<<1, 2, 1>>, 1), InsertAt(<<1, 3>>, 2, 2), RemoveAt(<<1, 2, 3>>, 2), "
     "ReplaceAt(<<1, 2>>, 1, 9), Last(<<1, 2>>), Front(<<1, 2>>)>>",
     "<<<<2>>, <<1, 2, 3>>, <<1, 3>>, <<9, 2>>, 2, <<1>>>>"),
    ("<<IsPrefix(<<1>>, <<1, 2>>), IsStrictPrefix(<<1, 2>>, <<1, 2>>), "
     "IsSuffix(<<2>>, <<1, 2>>), IsStrictSuffix(<<2>>, <<1, 2>>)>>",
     "<<TRUE, FALSE, TRUE, TRUE>>"),
    ("<<Cardinality(BoundedSeq({1, 2}, 2)), Cardinality(SeqOf({1, 2}, 2)), TupleOf({1}, 2)>>",
     "<<7, 7, {<<1, 1>>}>>"),
    ("<<FoldLeft(LAMBDA a, b : a - b, 10, <<1, 2, 3>>), "
     "FoldRight(LAMBDA a, b : a - b, <<1, 2, 3>>, 10), FoldSeq(LAMBDA a, b : a + b, 0, <<1, 2>>)>>",
     "<<4, -8, 3>>"),
    ("<<Prefixes(<<1, 2>>), Suffixes(<<1, 2>>)>>",
     "<<{<<>>, <<1>>, <<1, 2>>}, {<<>>, <<2>>, <<1, 2>>}>>"),
    ("<<CommonPrefixes({<<1, 2>>, <<1, 3>>}), LongestCommonPrefix({<<1, 2>>, <<1, 2, 3>>})>>",
     "<<{<<>>, <<1>>}, <<1, 2>>>>"),
    # \o on strings (SequencesExt extends Sequences, as TLC's does)
    ("<<\"ab\" \\o \"cd\", \"a\" \\o \"\">>", "<<\"abcd\", \"a\">>"),
]


def _check_assume(tmp_path: Path, expr: str, want: str, extends: str):
    (tmp_path / "M.tla").write_text(
        f"---- MODULE M ----\nEXTENDS {extends}\nVARIABLE x\nInit == x = 0\n"
        f"Next == UNCHANGED x\nASSUME ({expr}) = ({want})\n====\n")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\n")
    return check(tmp_path / "M.tla")


@pytest.mark.parametrize("expr, want", CASES, ids=[c[0][:40] for c in CASES])
def test_community_module_operator_gives_tlcs_value(tmp_path, expr, want):
    """Each operator, reached through EXTENDS of its module, has the value TLC gives it."""
    out = _check_assume(tmp_path, expr, want,
                        "Naturals, Integers, FiniteSets, Folds, FiniteSetsExt, Functions, "
                        "SequencesExt")
    assert out.verdict == "ok", out.message
    assert (out.distinct_states, out.states_generated) == (1, 2)


def test_sequencesext_extends_sequences_and_the_others(tmp_path):
    """As in TLC, EXTENDS SequencesExt alone makes Len, \\o, Cardinality, SumSet, Range and
    the TLC operators visible."""
    out = _check_assume(tmp_path, "<<Len(<<1>> \\o <<2>>), Cardinality({1}), SumSet({1, 2}), "
                        "Range(<<4>>), 1 :> 2>>", "<<2, 1, 3, {4}, <<2>>>>", "SequencesExt")
    assert out.verdict == "ok", out.message


def test_a_false_community_operator_assumption_is_reported(tmp_path):
    """The native operators give values, not just truth: a wrong expectation is a false ASSUME."""
    out = _check_assume(tmp_path, "SumSet({1, 2})", "4", "FiniteSetsExt")
    assert (out.verdict, out.exit_code) == ("assumption", 10)


def test_max_of_the_empty_set_is_tlcs_choose_error(tmp_path):
    out = _check_assume(tmp_path, "Max({})", "0", "FiniteSetsExt")
    assert (out.verdict, out.exit_code) == ("assumption", 10)  # an ASSUME that fails: TLC's 10
    assert "CHOOSE x \\in S: P, but no element of S satisfied P." in out.message


def test_a_specs_own_copy_of_a_module_is_read(tmp_path):
    """A spec that ships its own Functions.tla gets that module's definitions; the operators
    kipcheck evaluates natively stay native, as TLC's overrides apply by module and name."""
    (tmp_path / "Functions.tla").write_text(
        "---- MODULE Functions ----\nRange(f) == {f[x] : x \\in DOMAIN f}\nExtra == 7\n====\n")
    out = _check_assume(tmp_path, "<<Range(<<1>>), Extra>>", "<<{1}, 7>>", "Functions")
    assert out.verdict == "ok", out.message


def _examples_runner():
    path = Path(__file__).resolve().parent.parent / "bench" / "examples.py"
    spec = importlib.util.spec_from_file_location("examples_runner", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # its dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("result, report, diffs", [
    ("success", {"verdict": "ok", "distinct_states": 5, "states_generated": 9, "depth": 3}, []),
    ("success", {"verdict": "ok", "distinct_states": 4, "states_generated": 9, "depth": 3},
     ["distinct_states 4 != 5"]),
    ("safety failure", {"verdict": "invariant", "distinct_states": 1}, []),
    ("safety failure", {"verdict": "property"}, []),
    ("liveness failure", {"verdict": "invariant"}, ["verdict invariant != property"]),
    ("success", {"verdict": "spec-error", "message": "unknown module 'X'\nmore",
                 "location": {"file": "/t/A.tla", "line": 3, "column": 9}},
     ["verdict spec-error != ok: unknown module 'X' | more at A.tla:3:9"]),
])
def test_examples_runner_compares_as_the_corpus_runner(result, report, diffs):
    """Counts are compared for a model TLC passed; only the verdict at a violation."""
    ex = _examples_runner()
    entry = {"result": result, "distinctStates": 5, "totalStates": 9, "stateDepth": 3}
    model = ex.Model("X/M.cfg", "specifications/X", "specifications/X/M.tla",
                     "specifications/X/M.cfg", entry)
    assert ex.compare(model, report) == diffs


def test_examples_runner_maps_tlc_flags():
    ex = _examples_runner()
    assert ex.kipcheck_flags({"tlcFlags": ["-deadlock"]}) == ["--no-deadlock"]
    assert ex.seconds("00:01:00") == 60 and ex.seconds("unknown") is None


def test_a_proof_library_module_is_accepted(tmp_path):
    """Specs extend TLAPS proof library modules for their proofs' sake; the model still checks."""
    (tmp_path / "M.tla").write_text(
        "---- MODULE M ----\nEXTENDS Naturals, FiniteSets, FiniteSetTheorems, NaturalsInduction, "
        "FunctionTheorems, SequenceTheorems, WellFoundedInduction, SequencesExtTheorems, TLAPS\n"
        "VARIABLE x\nInit == x = 0\nNext == x < 2 /\\ x' = x + 1\n"
        "THEOREM Cardinality({x}) = 1 BY FS_Singleton\n====\n")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n")
    out = check(tmp_path / "M.tla")
    assert (out.verdict, out.distinct_states, out.states_generated) == ("ok", 3, 3), out.message


def test_a_named_theorem_is_usable_as_its_statement(tmp_path):
    """`Thm!:` is the statement of THEOREM Thm == ... (specs check their theorems as
    invariants); TLC: Inv violated after 3 states, trace of 3."""
    (tmp_path / "M.tla").write_text(
        "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = 0\n"
        "Next == x < 3 /\\ x' = x + 1\nTHEOREM Small == x < 2\nInv == Small!:\n====\n")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
    out = check(tmp_path / "M.tla")
    assert (out.verdict, out.property, out.states_generated, out.distinct_states,
            out.trace_length) == ("invariant", "Inv", 3, 3, 3)


@pytest.mark.parametrize("assumption, verdict, code", [
    ("N + 1 = 4", "ok", 0),  # TLC 2.18: 0 states generated, 0 distinct, depth 1
    ("N + 1 = 5", "assumption", 10),
])
def test_a_model_with_constants_and_no_behaviour_checks_its_assumptions(
        tmp_path, assumption, verdict, code):
    """A spec with no variables and a .cfg with neither INIT/NEXT nor SPECIFICATION (specs
    that test their operators): TLC evaluates the ASSUMEs and explores no state."""
    (tmp_path / "M.tla").write_text(
        f"---- MODULE M ----\nEXTENDS Naturals\nCONSTANT N\nASSUME {assumption}\n====\n")
    (tmp_path / "M.cfg").write_text("CONSTANT N = 3\n")
    out = check(tmp_path / "M.tla")
    assert (out.verdict, out.exit_code) == (verdict, code), out.message
    if verdict == "ok":
        assert (out.states_generated, out.distinct_states, out.depth) == (0, 0, 1)


def test_variables_without_an_initial_predicate_are_still_refused(tmp_path):
    """TLC: "The configuration file did not specify the initial state predicate."."""
    (tmp_path / "M.tla").write_text("---- MODULE M ----\nVARIABLE x\n====\n")
    (tmp_path / "M.cfg").write_text("\n")
    with pytest.raises(ConfigError, match="The configuration file did not specify the "
                                          "initial state predicate"):
        check(tmp_path / "M.tla")
    # an INIT without NEXT: TLC 2.18 computes the initial states, then stops (75)
    (tmp_path / "M.cfg").write_text("INIT I\n")
    (tmp_path / "M.tla").write_text("---- MODULE M ----\nVARIABLE x\nI == x = 0\n====\n")
    out = check(tmp_path / "M.tla")
    assert (out.verdict, out.distinct_states) == ("error", 1)
    assert out.message == "No next state actions defined to generate successor states from."


@pytest.mark.parametrize("guard, generated", [
    # TLC 2.18: 3 distinct states each time; the generated counts are TLC's.
    ("x >= 0 => \\E q \\in {1, 2, 3} : q > x", 6),
    ("~(x < 0) => (x = 0 \\/ x >= 0)", 4),
    ("x = 1 => (x = 0 \\/ x >= 0)", 3),
    ("\\A r \\in {1, 2} : x >= 0 => \\E q \\in {1, 2, 3} : q > x", 14),
])
def test_an_implication_in_an_action_enumerates_its_consequent(tmp_path, guard, generated):
    """TLC evaluates P => Q in an action as: P, then Q as an action when P holds, so each way
    through an \\E or \\/ in Q makes a successor (Paxos' Voting: ShowsSafeAt's
    `(c # -1) => \\E a \\in Q : VotedFor(a, c, v)`, 451 generated, not 406)."""
    (tmp_path / "M.tla").write_text(
        "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = 0\n"
        f"A == ({guard}) /\\ x' = x + 1\nNext == x < 2 /\\ A\n====\n")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n")
    out = check(tmp_path / "M.tla")
    assert (out.verdict, out.distinct_states, out.states_generated, out.depth) == (
        "ok", 3, generated, 3), out.message


@pytest.mark.parametrize("defs, guard, generated", [
    # TLC 2.18: 4 distinct states each time; the generated counts are TLC's.
    ("SafeAt(b) == LET SA[bb \\in 0..5] == bb >= 0 \\/ bb = 0 IN SA[b]", "SafeAt(x)", 5),
    ("SafeAt(b) == LET SA[bb \\in 0..5] == bb = 0 \\/ \\E c \\in 0..(bb-1) : SA[c] IN SA[b]",
     "SafeAt(x)", 5),
    ("", "LET g == [bb \\in 0..5 |-> bb >= 0 \\/ bb = 0] IN g[x] /\\ g[x]", 7),
    ("", "[bb \\in 0..5 |-> bb >= 0 \\/ bb = 0][x]", 5),
    ("g == [bb \\in 0..5 |-> bb >= x \\/ bb = 0]", "g[x]", 5),
    ("g == [a \\in 0..5, b \\in 0..x+1 |-> a >= 0 \\/ b = 1]", "g[x, 1]", 7),
    ("SA[bb \\in 0..5] == bb >= x \\/ bb = 0", "SA[x]", 5),
    # constant definitions of the module are computed once, at the start: a plain value
    ("SA[bb \\in 0..5] == bb >= 0 \\/ bb = 0", "SA[x]", 4),
    ("f == [bb \\in 0..5 |-> bb >= 0 \\/ bb = 0]", "f[x]", 4),
])
def test_a_function_applied_in_an_action_enumerates_its_body(tmp_path, defs, guard, generated):
    """TLC applies a function it has not computed yet (a [x \\in S |-> e], a LET or
    state-dependent definition, a recursive one) by evaluating its body in the action, so an
    \\E or \\/ in it branches (byzpaxos VoteProof's SafeAt: 318877 generated, not 27727)."""
    (tmp_path / "M.tla").write_text(
        f"---- MODULE M ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = 0\n{defs}\n"
        f"A == ({guard}) /\\ x' = x + 1\nNext == x < 3 /\\ A\n====\n")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n")
    out = check(tmp_path / "M.tla")
    assert (out.verdict, out.distinct_states, out.states_generated, out.depth) == (
        "ok", 4, generated, 4), out.message


def test_a_lazy_function_applied_outside_its_domain_in_an_action_is_tlcs_error(tmp_path):
    (tmp_path / "M.tla").write_text(
        "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = 0\n"
        "A == ([bb \\in 0..1 |-> bb >= 0 \\/ bb = 0][x]) /\\ x' = x + 1\n"
        "Next == x < 3 /\\ A\n====\n")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n")
    out = check(tmp_path / "M.tla")
    assert (out.verdict, out.exit_code, out.states_generated, out.distinct_states,
            out.trace_length) == ("error", 75, 4, 3, 3)
    assert "the first argument is:\n2\nwhich is not in its domain." in out.message


STRING_ORDER = """---- MODULE T ----
EXTENDS Naturals, Sequences, TLC
CONSTANT K
VARIABLE x
Init == x = CHOOSE s \\in {"c", "b", "a"} : TRUE
Next == \\E s \\in {"yy", "Op9", "d", "c", "b"} : x' = s
Inv == x # "d"
Sets == <<{"zeta", "x", "alpha"}, {"q", "Len", "Append"}, {"m", "TRUE", "Nat", "l", "Seq"},
          {"later", "Init", "Inv"}, {"j", "cfgval"}, {"sum", "Nat", "n", "a"}>>
Op9 == 1
====
"""


def _string_order_spec(tmp_path, invariant):
    (tmp_path / "T.tla").write_text(STRING_ORDER)
    (tmp_path / "T.cfg").write_text(
        f'CONSTANT K = "cfgval"\nINIT Init\nNEXT Next\nINVARIANT {invariant}\n')
    return tmp_path / "T.tla"


def test_strings_are_ordered_as_tlc_interns_them(tmp_path):
    """TLC orders strings by when it first interned them: the .cfg's values, the root module's
    identifiers as read (Op9 is defined after its use as a string), the standard modules'
    names (Nat, Len, Append, a and b of Naturals' `a + b`), then the strings themselves, in the
    order the root module's text has them. CHOOSE takes the first: TLC 2.18 picks "a", then
    meets "d" third among the successors: 4 states generated, 4 distinct, 2 left, depth 2."""
    out = check(_string_order_spec(tmp_path, "Inv"))
    assert (out.verdict, out.states_generated, out.distinct_states, out.states_left,
            out.depth, out.trace_length) == ("invariant", 4, 4, 2, 2, 2)
    text = CliRunner().invoke(main, ["check", str(tmp_path / "T.tla")]).output
    assert 'x = "a"' in text and 'x = "d"' in text


def test_a_set_of_strings_prints_in_tlcs_order(tmp_path):
    """TLC 2.18 prints these sets in this order (PrintT of each)."""
    spec = _string_order_spec(tmp_path, "Inv")
    spec.write_text(STRING_ORDER.replace("Op9 == 1", "Op9 == 1\nASSUME PrintT(Sets)"))
    text = CliRunner().invoke(main, ["check", str(spec)]).output
    assert ('<<{"x", "zeta", "alpha"}, {"Len", "Append", "q"}, {"TRUE", "Nat", "Seq", "m", "l"}, '
            '{"Init", "Inv", "later"}, {"cfgval", "j"}, {"Nat", "a", "n", "sum"}>>') in text


@pytest.mark.parametrize("guard, generated", [
    # TLC 2.18, 2 distinct states each time: the initial predicate branches on an
    # implication's consequent but applies a function as a value.
    ("TRUE => (1 = 1 \\/ 2 = 2)", 6),
    ("[b \\in 0..2 |-> b = 1 \\/ b >= 1][1]", 4),
    ("LET g[b \\in 0..2] == b = 1 \\/ b >= 1 IN g[1]", 4),
])
def test_the_initial_predicate_branches_as_tlcs(tmp_path, guard, generated):
    (tmp_path / "M.tla").write_text(
        "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE x\n"
        f"Init == ({guard}) /\\ x \\in {{0, 1}}\nNext == UNCHANGED x\n====\n")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\n")
    out = check(tmp_path / "M.tla")
    assert (out.verdict, out.distinct_states, out.states_generated) == ("ok", 2, generated)


@pytest.mark.parametrize("init, generated", [
    # TLC 2.18, 2 distinct states each time. Once every variable has its value, TLC
    # evaluates the remaining conjuncts of the initial predicate as Booleans (Bakery's
    # ISpec, whose Init is TypeOK /\ IInv: 3403584 generated, as TLC).
    ("x \\in {0, 1} /\\ (TRUE => \\A j \\in {1} : (1 = 1 \\/ 2 = 2))", 4),
    ("x \\in {0, 1} /\\ (\\A j \\in {1} : (1 = 1 \\/ 2 = 2))", 4),
    ("(TRUE => (1 = 1 \\/ 2 = 2)) /\\ x \\in {0, 1}", 6),
])
def test_the_initial_predicate_stops_branching_once_every_variable_is_set(tmp_path, init,
                                                                          generated):
    (tmp_path / "M.tla").write_text(
        "---- MODULE M ----\nEXTENDS Naturals\nVARIABLE x\n"
        f"Init == {init}\nNext == UNCHANGED x\n====\n")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\n")
    out = check(tmp_path / "M.tla")
    assert (out.verdict, out.distinct_states, out.states_generated) == ("ok", 2, generated)
