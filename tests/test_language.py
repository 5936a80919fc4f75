"""The TLA+ that real specs use: how actions are enumerated, membership in sets too large to
list, recursive LET operators, action composition, and the grammar's precedence. Every expected
figure is what TLC 2.18 printed for the same spec.
"""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from checker.api import check
from checker.cli import main


def _model(tmp_path, body: str, cfg: str = "INIT Init\nNEXT Next\nCHECK_DEADLOCK FALSE\n",
           extends: str = "Naturals"):
    (tmp_path / "M.tla").write_text(
        f"---- MODULE M ----\nEXTENDS {extends}\n{body}\n====\n")
    (tmp_path / "M.cfg").write_text(cfg)
    return check(tmp_path / "M.tla")


@pytest.mark.parametrize("action, distinct, generated", [
    # Once every variable is assigned, the conjuncts left are Booleans: no branching.
    ("x' = x + 1 /\\ (TRUE \\/ TRUE) /\\ y' = y", 3, 5),
    ("x' = x + 1 /\\ y' = y /\\ (x' = 1 \\/ x' >= 1)", 3, 3),
    ("x' = x + 1 /\\ y' = y /\\ A /\\ (\\E i \\in {1, 2} : TRUE)", 3, 3),
    ("x' = x + 1 /\\ UNCHANGED y /\\ (IF x = 0 THEN TRUE \\/ TRUE ELSE FALSE)", 2, 2),
    ("(TRUE \\/ TRUE) /\\ x' = x + 1 /\\ UNCHANGED y", 3, 5),
    ("x' = x + 1 /\\ UNCHANGED y /\\ (TRUE => (TRUE \\/ TRUE))", 3, 3),
    ("x' = x + 1 /\\ UNCHANGED y /\\ [i \\in {1} |-> TRUE \\/ TRUE][1]", 3, 3),
    ("x' = x + 1 /\\ UNCHANGED y /\\ (\\A i \\in {1, 2} : TRUE \\/ TRUE)", 3, 3),
    ("UNCHANGED <<y>> /\\ x' = x + 1 /\\ UNCHANGED y /\\ (TRUE \\/ TRUE)", 3, 3),
    ("x' = x + 1 /\\ UNCHANGED y /\\ CASE x = 0 -> (TRUE \\/ TRUE) [] OTHER -> TRUE", 3, 3),
    ("x' = x + 1 /\\ UNCHANGED y /\\ LET B == TRUE \\/ TRUE IN B", 3, 3),
])
def test_an_action_stops_branching_once_every_variable_is_assigned(tmp_path, action, distinct,
                                                                    generated):
    out = _model(tmp_path, "VARIABLES x, y\nInit == x = 0 /\\ y = 0\nA == y = y \\/ y = y\n"
                           f"Next == x < 2 /\\ {action}")
    assert (out.verdict, out.distinct_states, out.states_generated) == ("ok", distinct,
                                                                        generated)


def test_a_disjunction_after_the_last_assignment_is_one_successor(tmp_path):
    out = _model(tmp_path, "VARIABLE x\nInit == x = 0\n"
                           "Next == x < 2 /\\ x' = x + 1 /\\ (TRUE \\/ TRUE)")
    assert (out.distinct_states, out.states_generated, out.depth) == (3, 3, 3)


MEMBERSHIPS = [
    # Each holds in TLC 2.18 (as an ASSUME) without enumerating the infinite set.
    '[a |-> 1, b |-> 2] \\in [{"a", "b"} -> {n \\in Nat : n > 0}]',
    "3 \\in Nat /\\ -1 \\notin Nat /\\ -1 \\in Int",
    "2 \\in Nat \\cup {-1} /\\ -1 \\in Nat \\cup {-1} /\\ -2 \\notin Nat \\cup {-1}",
    "<<1, 2>> \\in Seq(Nat) /\\ <<1, -2>> \\notin Seq(Nat)",
    "[a |-> <<1>>] \\in [a : Seq(Nat)]",
    "<<1, 2>> \\in UNION {[1..2 -> Int]}",
    "{1, 2} \\in SUBSET Nat /\\ {-1} \\notin SUBSET Nat",
    '"abc" \\in STRING',
    "5 \\in Nat \\cap Int /\\ -5 \\notin Nat \\cap Int /\\ {3} = Nat \\cap {-1, 3}",
    '<<1, "a">> \\in Nat \\X STRING',
    "4 \\in {n \\in Nat : n % 2 = 0} /\\ 3 \\notin {n \\in Nat : n % 2 = 0}",
    "<<2, 3>> \\in {<<a, b>> \\in Nat \\X Nat : a < b}",
    "[i \\in 0..2 |-> i] \\in [0..2 -> Int]",
]


@pytest.mark.parametrize("fact", MEMBERSHIPS)
def test_membership_in_an_infinite_set_is_decided_without_listing_it(tmp_path, fact):
    out = _model(tmp_path, "VARIABLE x\nInit == x = 0\nNext == x' = (x + 1) % 3\n"
                           f"ASSUME {fact}\n"
                           "Inv == x \\in Nat /\\ x \\in {n \\in Nat : n < 3}"
                           " /\\ <<x>> \\in Seq(Int) /\\ x \\in Nat \\cup {-1}",
                 cfg="INIT Init\nNEXT Next\nINVARIANT Inv\n", extends="Integers, Sequences")
    assert (out.verdict, out.distinct_states, out.states_generated) == ("ok", 3, 4)


def test_listing_an_infinite_set_filter_is_tlcs_error(tmp_path):
    out = _model(tmp_path, "VARIABLE x\nInit == x \\in {n \\in Nat : n < 3}\nNext == UNCHANGED x")
    assert out.verdict == "error"
    assert out.exit_code == 75
    assert ("Attempted to enumerate { x \\in S : p(x) } when S:\nNat\nis not enumerable"
            in out.message)


def test_membership_in_a_filter_of_a_finite_lazy_set_tests_one_element(tmp_path):
    # As TLC 2.18 (2 generated, 1 distinct, no error): x \\in {y \\in S : P} is x \\in S /\\ P(x);
    # listing SUBSET SUBSET (1..8) would never end, and P fails on the other elements.
    out = _model(tmp_path, "VARIABLE x\nInit == x = {{1}, {2, 3}}\nNext == UNCHANGED x\n"
                           "Inv == /\\ x \\in {D \\in SUBSET SUBSET (1..8) :"
                           " \\A S \\in D : (CHOOSE y \\in S : TRUE) > 0}\n"
                           "  /\\ x \\in {D \\in SUBSET SUBSET (1..Cardinality(x) + 6) :"
                           " \\A S \\in D : (CHOOSE y \\in S : TRUE) > 0}\n"
                           "  /\\ {1} \\in {S \\in SUBSET {1, 2} : (CHOOSE y \\in S : TRUE) = 1}\n"
                           "  /\\ Cardinality({S \\in SUBSET {1, 2, 3} : Cardinality(S) = 2}) = 3\n"
                           "  /\\ {S \\in SUBSET {1, 2} : 1 \\in S} = {{1}, {1, 2}}",
                 cfg="INIT Init\nNEXT Next\nINVARIANT Inv\n", extends="Naturals, FiniteSets")
    assert (out.verdict, out.distinct_states, out.states_generated) == ("ok", 1, 2)


def test_a_constant_definition_draws_its_random_element_once(tmp_path):
    # TLC 2.18 evaluates a constant definition once: E = E holds (6 distinct, 6 generated),
    # while each call of an operator with arguments draws again.
    out = _model(tmp_path, "VARIABLE x\nE == RandomElement(1..1000)\n"
                           "F(n) == RandomElement(1..1000) + n\n"
                           "Init == x = 0\nNext == x < 5 /\\ x' = x + 1\n"
                           "Inv == E = E /\\ E \\in 1..1000 /\\ \\E i \\in 1..40 : F(i) # F(i)",
                 cfg="INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n",
                 extends="Naturals, TLC")
    assert (out.verdict, out.distinct_states, out.states_generated) == ("ok", 6, 6)


def test_a_cfg_override_replaces_the_definition_inside_instances_too(tmp_path):
    """`Seq <- BoundedSeq` reaches the Seq an INSTANCEd module uses (the same definition);
    `B <- [Inner] MB` replaces Inner's B only, not the root's own B (TLC 2.18: 3 / 6)."""
    (tmp_path / "Inner.tla").write_text(
        "---- MODULE Inner ----\nEXTENDS Naturals, Sequences\nVARIABLE x\nB == Nat\n"
        "IInit == x \\in Seq({1})\nOk == \\E b \\in B : b = Len(x)\n====\n")
    out = _model(tmp_path, "VARIABLE x\nBoundedSeq(S) == UNION {[1..n -> S] : n \\in 0..2}\n"
                           "MB == 0..5\nB == 7\nI == INSTANCE Inner\nInit == I!IInit\n"
                           "Next == UNCHANGED x\nInv == I!Ok /\\ B = 7",
                 cfg="CONSTANT Seq <- BoundedSeq\nB <- [Inner] MB\nINIT Init\nNEXT Next\n"
                     "INVARIANT Inv\n", extends="Naturals, Sequences")
    assert (out.verdict, out.distinct_states, out.states_generated, out.depth) == ("ok", 3, 6, 1)


def test_a_recursive_let_operator_is_evaluated_outside_actions(tmp_path):
    """In an ASSUME and an invariant (TLC 2.18: 5 distinct, 5 generated, depth 5)."""
    out = _model(tmp_path, "VARIABLE x\n"
                           "Sum(sq) == LET RECURSIVE S(_, _)\n"
                           "               S(q, i) ==\n"
                           "                 IF i > Len(q) THEN 0 ELSE q[i] + S(q, i + 1)\n"
                           "           IN S(sq, 1)\n"
                           "Fact(n) == LET k == 1\n"
                           "               RECURSIVE F(_)\n"
                           "               F(m) == IF m = 0 THEN k ELSE m * F(m - 1)\n"
                           "           IN F(n)\n"
                           "ASSUME Sum(<<1, 2, 3>>) = 6 /\\ Fact(5) = 120\n"
                           "Init == x = 0\nNext == x < 4 /\\ x' = x + 1\n"
                           "Inv == Sum(<<x, x>>) = 2 * x /\\ Fact(x) >= 1",
                 cfg="INIT Init\nNEXT Next\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n",
                 extends="Naturals, Sequences")
    assert (out.verdict, out.distinct_states, out.states_generated, out.depth) == ("ok", 5, 5, 5)


PROOF_NAMES = """P(Succ) == INSTANCE Inner
ASSUME PaxosAssume == 1 + 1 = 2
THEOREM T1 == \\A x \\in 0..3 : x >= 0
ASSUME T1 /\\ PaxosAssume
ASSUME \\A S \\in {{1}, {2, 3}} : P(S)!Thm /\\ P(S)!Reach(0)
THEOREM T2 == 1 = 2
"""


@pytest.mark.parametrize("last, verdict, exit_code", [
    ("ASSUME T1", "ok", 0),
    ("ASSUME T2", "assumption", 10),  # TLC 2.18: the assumption on the last line is false
])
def test_an_assume_names_theorems_assumptions_and_parametrized_instances(tmp_path, last,
                                                                         verdict, exit_code):
    """A named THEOREM or ASSUME means its statement; a parametrized INSTANCE's definitions
    read its argument, here a bound name of the caller."""
    (tmp_path / "Inner.tla").write_text(
        "---- MODULE Inner ----\nEXTENDS Naturals\nCONSTANT Succ\n"
        "Reach(n) == n \\in Succ \\/ n = 0\nLem == \\A n \\in Succ : Reach(n)\n"
        "THEOREM Thm == Lem\n====\n")
    out = _model(tmp_path, PROOF_NAMES + last, cfg="\n")
    assert (out.verdict, out.exit_code) == (verdict, exit_code)
    if verdict == "assumption":
        assert "Assumption line 9, col 8 to line 9, col 9 of module M is false." in out.message


def test_action_composition_steps_through_an_intermediate_state(tmp_path):
    """Inc \\cdot Dbl: every successor of Inc, then Dbl from it. TLC 2.18 refuses \\cdot; the
    reachable states are the composition's by hand: (0,0) (1,0) (2,1) (2,0) (4,1) (3,1) (6,2)
    (3,0) (6,1). (TLC 2.19's count of generated states also adds each intermediate state.)"""
    out = _model(tmp_path, "VARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
                           "Inc == x' = x + 1 /\\ y' = y\n"
                           "Dbl == \\/ x' = 2 * x /\\ y' = y + 1\n"
                           "       \\/ x' = x /\\ y' = y\n"
                           "Next == x < 3 /\\ (Inc \\cdot Dbl)")
    assert (out.verdict, out.distinct_states, out.depth) == ("ok", 9, 4)


def test_a_let_instance_names_the_modules_own_definition_past_an_override(tmp_path):
    """LET B == INSTANCE Base IN B!Ok(n): Base's own Ok, though the .cfg replaces Ok by
    Loose (which calls B!Ok: no endless recursion). TLC 2.18: 5 / 5, depth 5."""
    (tmp_path / "Base.tla").write_text(
        "---- MODULE Base ----\nEXTENDS Naturals\nVARIABLE x\nOk(n) == n < 3\n"
        "Step == Ok(x) /\\ x' = x + 1\n====\n")
    out = _model(tmp_path, "Loose(n) == LET B == INSTANCE Base IN B!Ok(n) \\/ n = 3\n"
                           "Init == x = 0\nNext == Step\nInv == x <= 4",
                 cfg="CONSTANT Ok <- Loose\nINIT Init\nNEXT Next\nINVARIANT Inv\n"
                     "CHECK_DEADLOCK FALSE\n", extends="Base")
    assert (out.verdict, out.distinct_states, out.states_generated, out.depth) == ("ok", 5, 5, 5)


def test_an_action_passed_to_another_modules_operator_assigns_its_variables(tmp_path):
    """NoStutter(A) of an INSTANCEd module expands the action A in place, and its
    `UNCHANGED vars`, a VARIABLE of that module replaced by a tuple of variables, binds
    them (TLC 2.18: 5 distinct, 6 generated, depth 4)."""
    (tmp_path / "Stut.tla").write_text(
        "---- MODULE Stut ----\nVARIABLES s, vars\nNoStutter(A) == s = 0 /\\ A /\\ s' = s\n"
        "Pause == s = 1 /\\ UNCHANGED vars /\\ s' = 0\n====\n")
    out = _model(tmp_path, "VARIABLES x, y, s\nvars == <<x, y>>\nINSTANCE Stut\n"
                           "Inc == x < 2 /\\ x' = x + 1 /\\ y' = y\n"
                           "Init == x = 0 /\\ y = 0 /\\ s = 0\n"
                           "Next == \\/ NoStutter(Inc \\/ (x = 1 /\\ x' = 5 /\\ UNCHANGED y))\n"
                           "        \\/ s = 0 /\\ x = 2 /\\ s' = 1 /\\ UNCHANGED vars\n"
                           "        \\/ Pause")
    assert (out.verdict, out.distinct_states, out.states_generated, out.depth) == ("ok", 5, 6, 4)


INNER_COUNTER = """---- MODULE Inner ----
EXTENDS Naturals
VARIABLE f
Next == f[1] < 2 /\\ f' = [f EXCEPT ![1] = f[1] + 1]
Spec == f = <<0>> /\\ [][Next]_f /\\ WF_f(Next)
====
"""


def test_a_refinement_whose_fairness_applies_an_unknown_primed_value(tmp_path):
    """R!Spec's WF needs ENABLED R!Next, where f' is <<g'.c>>: g' is unknown there, so
    selecting its field asks the liveness search to decide (TLC 2.18: no error, 3 / 3)."""
    (tmp_path / "Inner.tla").write_text(INNER_COUNTER)
    out = _model(tmp_path, "VARIABLE g\nInit == g = [c |-> 0, d |-> {}]\n"
                           "Next == g.c < 2 /\\ g' = [c |-> g.c + 1, d |-> DOMAIN <<1>>]\n"
                           "Spec == Init /\\ [][Next]_g /\\ WF_g(Next)\n"
                           "fBar == <<g.c>>\nR == INSTANCE Inner WITH f <- fBar\n"
                           "Refines == R!Spec",
                 cfg="SPECIFICATION Spec\nPROPERTY Refines\nCHECK_DEADLOCK FALSE\n")
    assert (out.verdict, out.distinct_states, out.states_generated, out.depth) == ("ok", 3, 3, 3)


def test_an_assume_prove_theorem_is_no_expression(tmp_path):
    """SANY 2.18 rejects `ASSUME Thm` for such a theorem: a spec error, not a limitation."""
    (tmp_path / "M.tla").write_text(
        "---- MODULE M ----\nEXTENDS Naturals\n"
        "THEOREM Thm == ASSUME NEW x \\in Nat PROVE x >= 0\nASSUME Thm\n====\n")
    (tmp_path / "M.cfg").write_text("\n")
    result = CliRunner().invoke(main, ["check", str(tmp_path / "M.tla")])
    assert result.exit_code == 150
    assert "M.tla:4:8: error: 'Thm' is an ASSUME ... PROVE theorem" in result.output
