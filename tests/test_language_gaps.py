"""TLA+ constructs that the tlaplus/Examples specs use: positional subexpression names,
recursive and mutually recursive LET definitions, INSTANCE inside temporal formulas, TLCGet's
statistics, how intervals print. Every expected figure or value is what TLC 2.18 gave for the
same small spec.
"""
from __future__ import annotations

import pytest

from checker.api import check
from checker.frontend.errors import KipcheckError


def write(tmp_path, body: str, cfg: str = "INIT Init\nNEXT Next\n", name: str = "M"):
    spec = tmp_path / f"{name}.tla"
    spec.write_text(f"---- MODULE {name} ----\n{body}\n====\n")
    (tmp_path / f"{name}.cfg").write_text(cfg)
    return spec


def assume(tmp_path, expr: str, want: str, defs: str = "", extends: str = "Naturals"):
    """Check a spec whose only content is ASSUME (expr) = (want), after defs."""
    return check(write(tmp_path, f"EXTENDS {extends}\nVARIABLE x\n{defs}\nInit == x = 0\n"
                                 f"Next == UNCHANGED x\nASSUME ({expr}) = ({want})"))


# -- subexpression names -----------------------------------------------------------------------

SUB_DEFS = ("D == 1 + 2 = 3\n"
            "E(a, b) == IF a > b THEN <<a, {b}>> ELSE [f |-> a]\n"
            "F == \\E i \\in {1, 2} : i = 2\n"
            "G == CASE FALSE -> 1 [] TRUE -> 2\n"
            "H == /\\ x = 0\n     /\\ Len(<<1>>) = 1\n")


@pytest.mark.parametrize("expr, want", [
    ("<<D!1, D!<<, D!>>, D!1!1, D!1!2, D!2, D!1!<<, D!: >>", "<<3, 3, 3, 1, 2, 3, 1, TRUE>>"),
    ("<<E(3, 1)!1, E(3, 1)!2, E(3, 1)!2!2, E(0, 1)!3!1, E(1, 2)!3, F!1>>",
     "<<TRUE, <<3, {1}>>, {1}, 0, [f |-> 1], {1, 2}>>"),
    ("<<G!2!2, H!2!1!1>>", "<<2, <<1>>>>"),
])
def test_positional_subexpression_names_select_tlcs_operand(tmp_path, expr, want):
    out = assume(tmp_path, expr, want, SUB_DEFS, "Naturals, Sequences")
    assert out.verdict == "ok", out.message


def test_a_nonexistent_operand_is_an_error_with_its_span(tmp_path):
    """SANY rejects `D!3` when D has two operands, with this message."""
    with pytest.raises(KipcheckError) as err:
        assume(tmp_path, "D!3", "1", SUB_DEFS, "Naturals, Sequences")
    assert err.value.message == "Nonexistent operand specified by `argument selector 3'"
    assert (err.value.span.line, err.value.span.col) == (13, 9)


def test_parts_of_init_and_next_are_expanded_as_actions(tmp_path):
    """`Init!1` assigns x as Init itself would; `Next!1!2` is the second disjunct of the
    first conjunct. TLC: deadlock after 6 distinct states, 6 generated, depth 3."""
    spec = write(tmp_path, "EXTENDS Naturals\nVARIABLES x, y\n"
                 "Init == /\\ x = 0\n        /\\ y \\in {1, 2}\n"
                 "MyInit == Init!1 /\\ Init!2 /\\ Init!2!<< # 5 /\\ Init!2!>> # {7}\n"
                 "A == x' = x + 1\nB == x' = x + 2\n"
                 "Next == (\\/ A /\\ x < 3\n         \\/ B /\\ x < 3) /\\ UNCHANGED y\n"
                 "MyNext == Next!1!2 /\\ y' = y",
                 "INIT MyInit\nNEXT MyNext\n")
    out = check(spec)
    assert (out.verdict, out.distinct_states, out.states_generated, out.depth,
            len(out.trace)) == ("deadlock", 6, 6, 3, 3)


# -- constant definitions that read a file -----------------------------------------------------

def test_a_constant_definition_reading_a_log_is_computed_once(tmp_path, monkeypatch):
    """TLC evaluates a definition without parameters that reads no variable once, before the
    search, even when it reads a file and filters it with a LAMBDA (a trace spec's log); an
    expression reading a file is still not evaluated ahead of time."""
    from checker.semantics import community

    calls = []
    real = community.nd_json_deserialize
    monkeypatch.setattr(community, "nd_json_deserialize",
                        lambda name: calls.append(name) or real(name))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "log.ndjson").write_text('{"a": 1}\n{"a": 0}\n{"a": 2}\n')
    spec = write(tmp_path, "EXTENDS Naturals, Sequences, Json\nVARIABLE x\n"
                 "Log == SelectSeq(ndJsonDeserialize(\"log.ndjson\"), LAMBDA r : r.a > 0)\n"
                 "Init == x = 1\nNext == x < Len(Log) + 5 /\\ x' = x + Log[1].a\n",
                 "INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n")
    out = check(spec)
    assert (out.verdict, out.distinct_states) == ("ok", 7)
    assert calls == ["log.ndjson"]


# -- recursive LET definitions -----------------------------------------------------------------

MUTUAL = ("LET RECURSIVE IsEven(_), IsOdd(_)\n"
          "    IsEven(n) == IF n = 0 THEN TRUE ELSE IsOdd(n - 1)\n"
          "    IsOdd(n) == IF n = 0 THEN FALSE ELSE IsEven(n - 1)\n")


def test_mutually_recursive_let_operators_in_a_constant_expression(tmp_path):
    out = assume(tmp_path, MUTUAL + "IN <<IsEven(4), IsOdd(4), IsOdd(7), IsEven(7)>>",
                 "<<TRUE, FALSE, TRUE, FALSE>>")
    assert out.verdict == "ok", out.message


def test_mutually_recursive_let_operators_in_state_expressions_and_actions(tmp_path):
    """TLC: 4 distinct states, 4 generated, depth 4, no error."""
    spec = write(tmp_path, "EXTENDS Naturals\nVARIABLE x\n"
                 f"Vals == {MUTUAL}        IN <<IsEven(x), IsOdd(x)>>\n"
                 "Init == x = 0\n"
                 "Next == x < 3 /\\ x' = x + 1 /\\ Vals # <<TRUE, TRUE>>\n"
                 "      /\\ LET RECURSIVE Sum(_), Sum2(_)\n"
                 "             Sum(n) == IF n = 0 THEN 0 ELSE n + Sum2(n - 1)\n"
                 "             Sum2(n) == IF n = 0 THEN 0 ELSE Sum(n - 1)\n"
                 "         IN Sum(x') > 0\n"
                 "Inv == Vals[1] = (x % 2 = 0)",
                 "INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n")
    out = check(spec)
    assert (out.verdict, out.distinct_states, out.states_generated, out.depth) == (
        "ok", 4, 4, 4)


# -- LET over a temporal formula ---------------------------------------------------------------

COUNTER = ("EXTENDS Naturals\nVARIABLE x\nInit == x = 0\nNext == x' = (x + 1) % 4\n"
           "Spec == Init /\\ [][Next]_x /\\ WF_x(Next)\n")


@pytest.mark.parametrize("prop, verdict", [
    # TLC: no error, 4 distinct states, 5 generated
    ("LET M == INSTANCE Cnt WITH K <- 3, c <- x\n      Lo(n) == x < n\n"
     "  IN [](M!Big => <>Lo(1))", "ok"),
    # TLC: temporal properties violated, the lasso 0, 1, 2, 3 and back to 0
    ("LET M == INSTANCE Cnt WITH K <- 3, c <- x\n      Lo(n) == x < n\n      Two == 2\n"
     "  IN /\\ []<>M!Big\n     /\\ [](Lo(4))\n     /\\ <>[](x # Two)", "property"),
])
def test_let_with_an_instance_over_a_temporal_formula(tmp_path, prop, verdict):
    (tmp_path / "Cnt.tla").write_text("---- MODULE Cnt ----\nEXTENDS Naturals\nCONSTANT K\n"
                                      "VARIABLE c\nBig == c >= K\n====\n")
    out = check(write(tmp_path, f"{COUNTER}Prop == {prop}",
                      "SPECIFICATION Spec\nPROPERTY Prop\n"))
    assert (out.verdict, out.distinct_states, out.states_generated) == (verdict, 4, 5)
    if verdict == "property":
        assert [s.state[0] for s in out.trace] == [0, 1, 2, 3]


# -- ENABLED of a refined spec's action through a refinement mapping ---------------------------

def test_enabled_through_a_mapping_that_needs_a_free_primed_value(tmp_path):
    """ENABLED <<ANext>>_S under S <- SeqToSet(q) applies Len to q', which the action leaves
    free: the value is needed, so the liveness check decides another way instead of failing
    with "The argument of Len should be a sequence". TLC: no error, 3 states."""
    (tmp_path / "Abs.tla").write_text(
        "---- MODULE Abs ----\nEXTENDS Naturals\nVARIABLE S\nAInit == S = {0, 1, 2}\n"
        "ANext == /\\ S # {}\n         /\\ \\E e \\in S : S' = S \\ {e} /\\ e > 0\n"
        "ASpec == AInit /\\ [][ANext]_S /\\ WF_S(ANext)\n====\n")
    spec = write(tmp_path, "EXTENDS Naturals, Sequences\nVARIABLE q\nInit == q = <<2, 1, 0>>\n"
                 "Next == Len(q) > 1 /\\ q' = Tail(q)\nSpec == Init /\\ [][Next]_q /\\ WF_q(Next)\n"
                 "SeqToSet(seq) == {seq[i] : i \\in 1..Len(seq)}\n"
                 "A == INSTANCE Abs WITH S <- SeqToSet(q)\nRefinement == A!ASpec",
                 "SPECIFICATION Spec\nPROPERTY Refinement\nCHECK_DEADLOCK FALSE\n")
    out = check(spec)
    assert (out.verdict, out.distinct_states, out.states_generated) == ("ok", 3, 3), out.message


# -- TLCGet's statistics during the search -----------------------------------------------------

def test_tlcget_counts_during_the_search_are_tlcs(tmp_path):
    """What TLC 2.18 gives while expanding each state: the diameter so far, the distinct
    states found, the states left in the queue, the level of the state being expanded; in an
    invariant, the distinct states including the one checked."""
    spec = write(tmp_path, "EXTENDS Naturals, TLC\nVARIABLE x\nInit == x \\in {0, 1}\n"
                 "Next == x < 4 /\\ x' \\in {x + 1, x + 2}\n"
                 "   /\\ Assert(<<x, TLCGet(\"diameter\"), TLCGet(\"distinct\"), "
                 "TLCGet(\"queue\"), TLCGet(\"level\")>> \\in\n"
                 "        {<<0, 1, 2, 1, 1>>, <<1, 2, 3, 1, 1>>, <<2, 2, 4, 1, 2>>, "
                 "<<3, 3, 5, 1, 2>>}, \"next\")\n"
                 "Inv == <<x, TLCGet(\"distinct\"), TLCGet(\"level\")>> \\in {<<0, 1, 0>>, "
                 "<<1, 2, 0>>, <<2, 3, 1>>, <<3, 4, 1>>, <<4, 5, 2>>, <<5, 6, 2>>}",
                 "INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n")
    out = check(spec)
    assert (out.verdict, out.distinct_states, out.states_generated, out.depth) == (
        "ok", 6, 10, 3), out.message


def test_tlcget_stats_during_the_search_is_a_record_of_the_counts(tmp_path):
    """As in newer TLCs: TLCGet("stats") is a record holding the same counts."""
    spec = write(tmp_path, "EXTENDS Naturals, TLC\nVARIABLE x\nInit == x = 0\n"
                 "Next == x < 2 /\\ x' = x + 1 /\\ TLCGet(\"stats\").distinct = x + 1\n"
                 "   /\\ TLCGet(\"stats\").generated = x + 1 /\\ TLCGet(\"generated\") = x + 1",
                 "INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n")
    out = check(spec)
    assert (out.verdict, out.distinct_states, out.states_generated) == ("ok", 3, 3), out.message


# -- A \cdot B: the states it passes through are counted ---------------------------------------

CDOT = ("EXTENDS Naturals\nVARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
        "A == x < 3 /\\ x' \\in {x + 1, x + 2} /\\ y' = y\n"
        "B == x = 2 /\\ x' = x + 10 /\\ y' = y\nC == y' = y + 1 /\\ x' = x\n"
        "B2 == x' \\in {x, x + 10} /\\ x < 12 /\\ y' = y\n")


@pytest.mark.parametrize("nxt, distinct, generated", [
    ("(A \\cdot B2) \\/ (x < 3 /\\ x' = x + 1 /\\ y' = y)", 9, 22),
    ("(A \\cdot B) \\/ (x < 3 /\\ x' = x + 1 /\\ y' = y) \\/ (A \\cdot B \\cdot C)", 6, 16),
    ("(A \\cdot (B \\cdot C)) \\/ (\\E i \\in {1, 2} : (A \\cdot B))", 3, 10),
])
def test_action_composition_counts_the_states_of_its_first_action(tmp_path, nxt, distinct,
                                                                  generated):
    """TLC 2.20 (-Dtlc2.tool.impl.Tool.cdot=true, as the Examples' manifests were recorded)
    counts each successor of the first action of an outermost A \\cdot B as a generated state,
    but not those of a composition nested in it."""
    out = check(write(tmp_path, f"{CDOT}Next == {nxt}",
                      "INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n"))
    assert (out.verdict, out.distinct_states, out.states_generated) == (
        "ok", distinct, generated)


# -- how an interval prints ----------------------------------------------------------------------

def test_an_interval_prints_as_an_interval_as_in_tlc(tmp_path):
    """TLC keeps a..b as an interval and prints it so; a set built otherwise, and an empty
    interval, print enumerated (TLC 2.18's ToString of the same tuple)."""
    out = assume(tmp_path, "ToString(<<1..3, {1, 2, 3}, 2..1, [i \\in 1..2 |-> 1..i], "
                           "(1..2) \\cup {}, {1..2}, SUBSET (1..2)>>)",
                 "\"<<1..3, {1, 2, 3}, {}, <<1..1, 1..2>>, {1, 2}, {1..2}, "
                 "{{}, {1}, {2}, {1, 2}}>>\"", extends="Naturals, TLC")
    assert out.verdict == "ok", out.message


def test_a_state_holding_an_interval_prints_it_in_the_trace(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    spec = write(tmp_path, "EXTENDS Naturals\nVARIABLE x\nInit == x = 1..3\n"
                 "Next == x' = 1..2\nInv == x # 1..2", "INIT Init\nNEXT Next\nINVARIANT Inv\n")
    root = Path(__file__).resolve().parent.parent
    p = subprocess.run([sys.executable, "-m", "checker.cli", "check", str(spec)], cwd=root,
                       capture_output=True, text=True, env={"PYTHONPATH": str(root)})
    assert p.returncode == 12
    assert "x = 1..3" in p.stdout and "x = 1..2" in p.stdout, p.stdout


def test_a_constant_definition_with_a_random_choice_is_one_value_for_the_run(tmp_path):
    """TLC computes R once before the search, so every use sees the same random value (a
    random graph stays one graph); inside an action RandomElement is evaluated each time."""
    spec = write(tmp_path, "EXTENDS Naturals, TLC\nVARIABLES x, y\n"
                 "R == RandomElement(1..100000)\nInit == x = 0 /\\ y = R\n"
                 "Next == x < 5 /\\ x' = x + 1 /\\ y' = R\nInv == y = R",
                 "INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n")
    out = check(spec)
    assert (out.verdict, out.distinct_states) == ("ok", 6), out.message


# -- \A in an action ----------------------------------------------------------------------------

FORALL_ACTIONS = [
    # (Next's last conjunct, TLC 2.18's distinct states; CHECK_DEADLOCK FALSE)
    # a tuple binder in a \A whose body can branch (was "unsupported \A form in an action")
    ("x' = x + 1 /\\ y' = y /\\ \\A <<a, b>> \\in {1, 2} \\X {3} : (a < b \\/ a > 5)", 4),
    ("x' = x + 1 /\\ y' = y /\\ \\A <<a, b>> \\in {<<1, 2>>, <<3, 1>>} : (a < b \\/ a = 2)", 1),
    # a \A over a constant set that assigns a primed variable: TLC evaluates the conjunction
    # P(1) /\ P(2), the first assigns y', the second tests it (was "y' used before assigned")
    ("x' = x + 1 /\\ \\A c \\in {1, 2} : y' \\in {y, c}", 4),
    ("x' = x + 1 /\\ \\A c \\in {1} : y' \\in {y, 1}", 7),
    ("x' = x + 1 /\\ \\A <<a, b>> \\in {1, 2} \\X {3}, c \\in {0, 1} : "
     "(a + c < b + 3 \\/ y' = 7) /\\ y' \\in {y, 1}", 7),
    # ... and over a set known only with the state: the first element assigns, the rest test
    ("x' = x + 1 /\\ \\A c \\in {x} : (c < 3 \\/ y' = 7) /\\ y' \\in {y, 1}", 7),
    ("x' = x + 1 /\\ \\A c \\in {x, x + 1} : y' \\in {c, x + 1}", 4),
    ("x' = x + 1 /\\ \\A c \\in {x} : (y' = 1 \\/ y' = 2)", 7),
    ("x' = x + 1 /\\ \\A <<a, b>> \\in {x} \\X {1, 2} : y' \\in {a + 1, b + 1}", 4),
]


@pytest.mark.parametrize("last, distinct", FORALL_ACTIONS)
def test_forall_in_an_action_as_tlc_evaluates_it(tmp_path, last, distinct):
    spec = write(tmp_path, "EXTENDS Naturals\nVARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
                           f"Next == x < 3 /\\ {last}",
                 "INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n")
    o = check(spec)
    assert (o.verdict, o.distinct_states) == ("ok", distinct), o.message
