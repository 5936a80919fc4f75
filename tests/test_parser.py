"""The parser: every construct of the TLA+ kipcheck reads, compared against exact AST trees."""

from __future__ import annotations

import pytest
from frontend_helpers import (
    FALSE,
    FILE,
    TRUE,
    And,
    Bnd,
    Def,
    I,
    N,
    Op,
    Or,
    P,
    expr,
    mk,
    module,
    parse,
    unit,
    units,
)

from checker.frontend import ast
from checker.frontend.errors import Span, SpecError
from checker.frontend.parser import parse_module

# ---------------------------------------------------------------------------------------------
# Modules and units


def test_module_name_extends_units_and_file():
    m = parse_module("---- MODULE Foo ----\nEXTENDS Naturals, Sequences\nA == 1\n====\n",
                     "Foo.tla")
    assert m == mk(ast.Module, "Foo", ("Naturals", "Sequences"), (Def("A", N(1)),),
                   file="Foo.tla")
    assert m.extends_spans == (Span("Foo.tla", 2, 9, 2, 17), Span("Foo.tla", 2, 19, 2, 28))
    assert m.span == Span("Foo.tla", 1, 1, 1, 21)


def test_module_without_extends_and_empty_module():
    m = parse_module("---- MODULE E ----\n====", "E.tla")
    assert (m.name, m.extends, m.units) == ("E", (), ())


def test_text_before_header_and_after_end_is_ignored():
    text = ("This is a header ) ( [ with junk \\foo \"\n"
            "  and more junk ====\n"
            "------------------------------ MODULE M ------------------------------\n"
            "A == 1\n"
            "=============================================================================\n"
            "\\* Modification History\n"
            "Last modified ( [ \\foo \" by someone ====\n"
            "B == garbage ((\n")
    m = parse_module(text, FILE)
    assert m.units == (Def("A", N(1)),)
    assert m.units[0].span == Span(FILE, 4, 1, 4, 7)


def test_separator_lines_inside_a_module_are_ignored():
    assert units("A == 1\n----------------\nB == 2\n-----") == (Def("A", N(1)), Def("B", N(2)))


def test_constants_with_operator_declarations():
    assert units("CONSTANTS N, F(_, _), _ + _, -. _, _ ^+\nCONSTANT C", extends=None) == (
        mk(ast.Constants, (P("N"), P("F", 2), P("+", 2), P("-.", 1), P("^+", 1))),
        mk(ast.Constants, (P("C"),)),
    )


def test_infix_constant_uses_the_canonical_name():
    assert unit("CONSTANT _ \\prec _, _ (+) _", extends=None) == mk(
        ast.Constants, (P("\\prec", 2), P("\\oplus", 2)))


def test_variables():
    assert units("VARIABLES x, y\nVARIABLE z", extends=None) == (
        mk(ast.Variables, ("x", "y")), mk(ast.Variables, ("z",)))


def test_assume_named_and_unnamed():
    assert units("ASSUME N > 0\nASSUME Pos == N > 0\nAXIOM TRUE\nASSUMPTION FALSE") == (
        mk(ast.Assume, None, Op(">", I("N"), N(0))),
        mk(ast.Assume, "Pos", Op(">", I("N"), N(0))),
        mk(ast.Assume, None, TRUE),
        mk(ast.Assume, None, FALSE),
    )


def test_operator_definitions_with_parameters():
    assert units("Zero == 0\nAdd(a, b) == a + b") == (
        Def("Zero", N(0)),
        Def("Add", Op("+", I("a"), I("b")), "a", "b"),
    )


def test_higher_order_parameters():
    assert unit("F(G(_), H(_, _), x, _ + _) == G(H(x, x))") == Def(
        "F", Op("G", Op("H", I("x"), I("x"))), P("G", 1), P("H", 2), P("x"), P("+", 2))


def test_prefix_infix_postfix_operator_definitions():
    assert units("-. a == 0 - a\na \\prec b == a < b\na ^+ == a\nx (+) y == x") == (
        Def("-.", Op("-", N(0), I("a")), "a"),
        Def("\\prec", Op("<", I("a"), I("b")), "a", "b"),
        Def("^+", I("a"), "a"),
        Def("\\oplus", I("x"), "x", "y"),
    )


def test_user_defined_operators_are_applied_with_canonical_names():
    assert expr("a \\prec b") == Op("\\prec", I("a"), I("b"))
    assert expr("a ^+") == Op("^+", I("a"))
    assert expr("a ^* ^#") == Op("^#", Op("^*", I("a")))
    assert expr("a (+) b") == Op("\\oplus", I("a"), I("b"))


def test_function_definition():
    assert unit("f[x \\in S] == IF x = 0 THEN 1 ELSE x * f[x - 1]") == mk(
        ast.FuncDef, "f", (Bnd("x", I("S")),),
        mk(ast.If, Op("=", I("x"), N(0)), N(1),
           Op("*", I("x"), mk(ast.FuncApp, I("f"), (Op("-", I("x"), N(1)),)))))


def test_function_definition_with_several_bounds():
    assert unit("g[x, y \\in S, <<a, b>> \\in T] == 1") == mk(
        ast.FuncDef, "g", (Bnd("x y", I("S")), Bnd("a b", I("T"), tup=True)), N(1))


def test_recursive_declaration():
    assert units("RECURSIVE R(_), Q\nR(n) == R(n)\nQ == 1") == (
        mk(ast.Recursive, (P("R", 1), P("Q"))),
        Def("R", Op("R", I("n")), "n"),
        Def("Q", N(1)),
    )


def test_local_definitions_and_local_instance():
    assert units("LOCAL A == 1\nLOCAL f[x \\in S] == x\nLOCAL INSTANCE Naturals\n"
                 "LOCAL I == INSTANCE Naturals") == (
        Def("A", N(1), local=True),
        mk(ast.FuncDef, "f", (Bnd("x", I("S")),), I("x"), local=True),
        mk(ast.Instance, "Naturals", (), local=True),
        mk(ast.InstanceDef, "I", (), mk(ast.Instance, "Naturals", (), local=True), local=True),
    )


def test_unnamed_instance_with_substitutions():
    assert unit("INSTANCE Foo WITH a <- b, c <- 1, + <- Plus") == mk(
        ast.Instance, "Foo", (mk(ast.Substitution, "a", I("b")),
                              mk(ast.Substitution, "c", N(1)),
                              mk(ast.Substitution, "+", I("Plus"))))


def test_named_and_parameterised_instances():
    assert units("M == INSTANCE X WITH a <- b\nR(x) == INSTANCE X") == (
        mk(ast.InstanceDef, "M", (), mk(ast.Instance, "X", (mk(ast.Substitution, "a", I("b")),))),
        mk(ast.InstanceDef, "R", (P("x"),), mk(ast.Instance, "X", ())),
    )


@pytest.mark.parametrize("text, tree", [
    ("M!Op", mk(ast.InstanceRef, (("M", ()),), "Op", ())),
    ("M!Op(1, 2)", mk(ast.InstanceRef, (("M", ()),), "Op", (N(1), N(2)))),
    ("M(x)!Op(y)", mk(ast.InstanceRef, (("M", (I("x"),)),), "Op", (I("y"),))),
    ("M!N(1)!Op", mk(ast.InstanceRef, (("M", ()), ("N", (N(1),))), "Op", ())),
    ("M!+(1, 2)", mk(ast.InstanceRef, (("M", ()),), "+", (N(1), N(2)))),
    ("Inv!2", mk(ast.InstanceRef, (("Inv", ()),), "2", ())),
    ("Inv!:", mk(ast.InstanceRef, (("Inv", ()),), ":", ())),
])
def test_instance_references(text, tree):
    assert expr(text) == tree


def test_instance_reference_spans_cover_the_whole_reference():
    # Regression: the span used to start at the operator name (or even at the closing paren).
    m = parse("A == M(1)!Op(2) + M!N!X")
    plus = m.units[0].body
    left, right = plus.args
    assert (left.span.line, left.span.col, left.span.end_col) == (3, 6, 16)
    assert (right.span.line, right.span.col, right.span.end_col) == (3, 19, 24)
    assert (plus.span.col, plus.span.end_col) == (6, 24)


def test_definition_spans_start_at_the_defined_name():
    # Regression: the span of an operator definition used to start at `==` (or at a param).
    m = parse("Foo == 1\nBar(x, y) == 2\n  a \\prec b == 3\nI(p) == INSTANCE Naturals")
    spans = [(u.span.line, u.span.col, u.span.end_line, u.span.end_col) for u in m.units]
    assert spans == [(3, 1, 3, 9), (4, 1, 4, 15), (5, 3, 5, 17), (6, 1, 6, 26)]
    assert all(u.span.file == FILE for u in m.units)


def test_spans_of_nested_nodes_carry_the_file_name():
    body = parse("A == [x \\in S |-> x + 1]").units[0].body
    assert body.span == Span(FILE, 3, 6, 3, 25)
    assert body.bounds[0].domain.span == Span(FILE, 3, 13, 3, 14)
    assert body.body.span == Span(FILE, 3, 19, 3, 24)


# ---------------------------------------------------------------------------------------------
# Theorems, proofs, comments


def test_theorems_and_lemmas_with_proofs_skipped():
    text = """THEOREM Foo == TRUE
PROOF OBVIOUS
LEMMA x = 1
<1>1. TRUE
  BY DEF A, B
<1>2. /\\ x = 1
      /\\ y = 2
  <2>1. QED
    BY <1>1 DEF Foo
<1> QED
  BY <1>1, <1>2
COROLLARY C1 == FALSE
  OMITTED
PROPOSITION TRUE BY DEF A
A == 1
USE DEF A
HIDE DEF A
B == 2"""
    assert units(text) == (
        mk(ast.Theorem, "Foo", TRUE),
        mk(ast.Theorem, None, Op("=", I("x"), N(1))),
        mk(ast.Theorem, "C1", FALSE),
        mk(ast.Theorem, None, TRUE),
        Def("A", N(1)),
        Def("B", N(2)),
    )


def test_theorem_with_assume_prove_keeps_no_expression():
    text = """THEOREM T == ASSUME NEW x \\in S, NEW CONSTANT c, x > 0
             PROVE x + 1 > 0
  <1>1. QED BY DEF A
A == 1"""
    assert units(text) == (mk(ast.Theorem, "T", None), Def("A", N(1)))


def test_proof_running_into_the_end_of_the_module():
    assert units("THEOREM TRUE\n<1>1. TRUE\n  OBVIOUS\n<1> QED") == (mk(ast.Theorem, None, TRUE),)


def test_comments_nested_and_line_comments():
    text = """(* outer (* inner *) still a comment A == *)
A == 1 \\* a line comment: B == 2
(*****************************************************)
(* Box comment (* with nesting *) and \\* inside     *)
(*****************************************************)
B == (* inline *) 2 (* two
   lines *) + 3
\\* C == 4"""
    assert units(text) == (Def("A", N(1)), Def("B", Op("+", N(2), N(3))))


def test_comments_keep_columns_for_the_layout_rule():
    text = "A == (* c *) /\\ a\n             /\\ b"
    assert unit(text).body == And(I("a"), I("b"), col=14)


def test_pluscal_inside_a_comment_is_ignored():
    text = """(* --algorithm Counter
variables x = 0, y \\in {1, 2};
begin
  L1: while x < 3 do
        x := x + 1;  \\* a comment (* nested *) in a comment
      end while;
end algorithm; *)
\\* BEGIN TRANSLATION
VARIABLES x, pc
Init == x = 0 /\\ pc = "L1"
\\* END TRANSLATION"""
    assert units(text) == (
        mk(ast.Variables, ("x", "pc")),
        Def("Init", Op("\\land", Op("=", I("x"), N(0)),
                       Op("=", I("pc"), mk(ast.Str, "L1")))),
    )


def test_comment_markers_inside_strings_are_text():
    assert expr('"(* not a comment" \\o "\\\\* nor this"') == Op(
        "\\o", mk(ast.Str, "(* not a comment"), mk(ast.Str, "\\* nor this"))


# ---------------------------------------------------------------------------------------------
# Literals


@pytest.mark.parametrize("text, value", [
    ('"abc"', "abc"),
    ('""', ""),
    ('"a\\"b"', 'a"b'),
    ('"back\\\\slash"', "back\\slash"),
    ('"tab\\tnew\\nline\\rret\\ffeed"', "tab\tnew\nline\rret\ffeed"),
    ('"ünïcødé ∧"', "ünïcødé ∧"),
])
def test_strings_with_escapes(text, value):
    assert expr(text) == mk(ast.Str, value)


def test_numbers_and_decimals():
    assert expr("0") == N(0)
    assert expr("123456789012345678901234567890") == N(123456789012345678901234567890)
    assert expr("3.14") == mk(ast.Decimal, "3.14")


@pytest.mark.parametrize("text, value", [  # SANY's literals in other bases (TLC 2.18: 316)
    ("\\b101", 5), ("\\B11", 3), ("\\o17", 15), ("\\O7", 7), ("\\h1F", 31), ("\\HFF", 255)])
def test_numbers_in_other_bases(text, value):
    assert expr(text) == N(value)
    assert expr(f"{text} + 1") == mk(ast.OpApp, "+", (N(value), N(1)))


def test_concatenation_is_not_an_octal_number():
    assert expr("s \\o t") == mk(ast.OpApp, "\\o", (mk(ast.Ident, "s"), mk(ast.Ident, "t")))


def test_booleans_and_builtin_sets():
    assert expr("<<TRUE, FALSE, BOOLEAN, STRING>>") == mk(ast.Tuple, (
        TRUE, FALSE, mk(ast.BuiltinSet, "BOOLEAN"), mk(ast.BuiltinSet, "STRING")))


# ---------------------------------------------------------------------------------------------
# Operator precedence and associativity

PRECEDENCE = [
    ("a + b * c", Op("+", I("a"), Op("*", I("b"), I("c")))),
    ("a * b + c", Op("+", Op("*", I("a"), I("b")), I("c"))),
    ("a - b - c", Op("-", Op("-", I("a"), I("b")), I("c"))),
    ("a + b + c", Op("+", Op("+", I("a"), I("b")), I("c"))),
    ("a = b /\\ c", Op("\\land", Op("=", I("a"), I("b")), I("c"))),
    ("~ a = b", Op("\\lnot", Op("=", I("a"), I("b")))),
    ("~a /\\ b", Op("\\land", Op("\\lnot", I("a")), I("b"))),
    ("a = ~b", Op("=", I("a"), Op("\\lnot", I("b")))),
    ("a = ~b /\\ c", Op("\\land", Op("=", I("a"), Op("\\lnot", I("b"))), I("c"))),
    ("x \\in SUBSET S", Op("\\in", I("x"), Op("SUBSET", I("S")))),
    ("S \\X UNION T", mk(ast.CartProd, (I("S"), Op("UNION", I("T"))))),
    ("S \\X T \\X SUBSET U", mk(ast.CartProd, (I("S"), I("T"), Op("SUBSET", I("U"))))),
    ("S \\X -a", mk(ast.CartProd, (I("S"), Op("-.", I("a"))))),
    ("x \\in SUBSET S /\\ y", Op("\\land", Op("\\in", I("x"), Op("SUBSET", I("S"))), I("y"))),
    ("x \\notin S \\cup T", Op("\\notin", I("x"), Op("\\cup", I("S"), I("T")))),
    ("(a => b) => c", Op("=>", Op("=>", I("a"), I("b")), I("c"))),
    ("a /\\ b => c", Op("=>", Op("\\land", I("a"), I("b")), I("c"))),
    ("a <=> b", Op("\\equiv", I("a"), I("b"))),
    ("a \\equiv b => c", Op("=>", Op("\\equiv", I("a"), I("b")), I("c"))),
    ("a => b \\equiv c", Op("=>", I("a"), Op("\\equiv", I("b"), I("c")))),
    ("-a + b", Op("+", Op("-.", I("a")), I("b"))),
    ("-a * b", Op("-.", Op("*", I("a"), I("b")))),
    ("a * ~b", Op("*", I("a"), Op("\\lnot", I("b")))),
    ("a + -b", Op("+", I("a"), Op("-.", I("b")))),
    ("- - a", Op("-.", Op("-.", I("a")))),
    ("a .. b + 1", Op("..", I("a"), Op("+", I("b"), N(1)))),
    ("1 .. N - 1", Op("..", N(1), Op("-", I("N"), N(1)))),
    ("a ^ b * c", Op("*", Op("^", I("a"), I("b")), I("c"))),
    ("a % b * c", Op("%", I("a"), Op("*", I("b"), I("c")))),
    ("a \\div b", Op("\\div", I("a"), I("b"))),
    ("a < b", Op("<", I("a"), I("b"))),
    ("a <= b /\\ a >= b", Op("\\land", Op("<=", I("a"), I("b")), Op(">=", I("a"), I("b")))),
    ("a =< b", Op("<=", I("a"), I("b"))),
    ("a /= b", Op("#", I("a"), I("b"))),
    ("a # b", Op("#", I("a"), I("b"))),
    ("S \\X T \\X U", mk(ast.CartProd, (I("S"), I("T"), I("U")))),
    ("S \\X (T \\X U)", mk(ast.CartProd, (I("S"), mk(ast.CartProd, (I("T"), I("U")))))),
    ("S \\times T", mk(ast.CartProd, (I("S"), I("T")))),
    ("S \\cup T \\X U", Op("\\cup", I("S"), mk(ast.CartProd, (I("T"), I("U"))))),
    ("S \\cup T \\cup U", Op("\\cup", Op("\\cup", I("S"), I("T")), I("U"))),
    ("S \\ T", Op("\\", I("S"), I("T"))),
    ("s \\o t \\o u", Op("\\o", Op("\\o", I("s"), I("t")), I("u"))),
    ("f @@ g :> h", Op("@@", I("f"), Op(":>", I("g"), I("h")))),
    ("DOMAIN f \\cup S", Op("\\cup", Op("DOMAIN", I("f")), I("S"))),
    ("x' = x + 1", Op("=", Op("'", I("x")), Op("+", I("x"), N(1)))),
    ("(a + b)'", Op("'", Op("+", I("a"), I("b")))),
    ("ENABLED A /\\ B", Op("\\land", Op("ENABLED", I("A")), I("B"))),
    ("UNCHANGED x /\\ y", Op("\\land", Op("UNCHANGED", I("x")), I("y"))),
    ("P ~> Q", Op("~>", I("P"), I("Q"))),
    ("P -+-> Q", Op("-+->", I("P"), I("Q"))),
    ("[]P => <>Q", Op("=>", Op("[]", I("P")), Op("<>", I("Q")))),
    ("[]<>P", Op("[]", Op("<>", I("P")))),
    ("(a)", I("a")),
]


# SANY rejects these (the two operators' precedence ranges overlap, or the operator does not
# associate): so does kipcheck, saying so, or (relations) at the second operator.
AMBIGUOUS = ["a /\\ b \\/ c", "a => b => c", "a + b % c", "a % b % c", "a = b = c",
             "a \\in S = TRUE", "a .. b .. c", "a \\cdot b + c", "a <=> b <=> c", "S \\ T \\ U",
             "a ^ b ^ c", "a / b / c", "f :> g :> h",
             # SANY 2.18 too: a minus after * or ^, a loose prefix or product around \X
             "a * -b", "a ^ -1", "2 * - 3 + 1", "SUBSET S \\X T", "DOMAIN f \\X DOMAIN g",
             "UNION T \\X S", "-a \\X S", "S \\X -a \\X S", "S \\X SUBSET T \\X U",
             "a * b \\X S", "S \\X a * b"]


@pytest.mark.parametrize("text", AMBIGUOUS)
def test_overlapping_precedence_needs_parentheses(text):
    with pytest.raises(SpecError, match="add parentheses|unexpected") as err:
        parse_module(f"---- MODULE M ----\nA == {text}\n====\n", "M.tla")
    assert err.value.span.line == 2


@pytest.mark.parametrize("text, tree", PRECEDENCE, ids=[t for t, _ in PRECEDENCE])
def test_precedence(text, tree):
    assert expr(text) == tree


def test_prefix_operators_reach_as_far_as_their_precedence():
    # ~ binds looser than =, so `~ a = b` negates the equation; [] also sits at level 4.
    assert expr("[]x = 1") == Op("[]", Op("=", I("x"), N(1)))
    assert expr("x = 1 /\\ []y = 2") == Op("\\land", Op("=", I("x"), N(1)),
                                           Op("[]", Op("=", I("y"), N(2))))


# ---------------------------------------------------------------------------------------------
# Binders and set/function forms

BINDERS = [
    ("\\A x \\in S : P", mk(ast.Quant, "A", (Bnd("x", I("S")),), I("P"))),
    ("\\A x, y \\in S, z \\in T : P",
     mk(ast.Quant, "A", (Bnd("x y", I("S")), Bnd("z", I("T"))), I("P"))),
    ("\\E <<x, y>> \\in S : P", mk(ast.Quant, "E", (Bnd("x y", I("S"), tup=True),), I("P"))),
    ("\\E x \\in S, <<a, b>> \\in T : P",
     mk(ast.Quant, "E", (Bnd("x", I("S")), Bnd("a b", I("T"), tup=True)), I("P"))),
    ("\\A x, y : P", mk(ast.Quant, "A", (Bnd("x y"),), I("P"))),
    ("\\E x : P", mk(ast.Quant, "E", (Bnd("x"),), I("P"))),
    ("\\forall x \\in S : \\exists y \\in S : x = y",
     mk(ast.Quant, "A", (Bnd("x", I("S")),),
        mk(ast.Quant, "E", (Bnd("y", I("S")),), Op("=", I("x"), I("y"))))),
    ("\\A x \\in S : P /\\ Q", mk(ast.Quant, "A", (Bnd("x", I("S")),),
                                 Op("\\land", I("P"), I("Q")))),
    ("\\AA x : P", mk(ast.Quant, "AA", (Bnd("x"),), I("P"))),
    ("\\EE x, y : P", mk(ast.Quant, "EE", (Bnd("x y"),), I("P"))),
    ("CHOOSE x \\in S : x > 0", mk(ast.Choose, Bnd("x", I("S")), Op(">", I("x"), N(0)))),
    ("CHOOSE x : TRUE", mk(ast.Choose, Bnd("x"), TRUE)),
    ("CHOOSE <<x, y>> \\in S : x", mk(ast.Choose, Bnd("x y", I("S"), tup=True), I("x"))),
    ("CHOOSE <<x, y>> : x", mk(ast.Choose, Bnd("x y", tup=True), I("x"))),
]


@pytest.mark.parametrize("text, tree", BINDERS, ids=[t for t, _ in BINDERS])
def test_quantifiers_and_choose(text, tree):
    assert expr(text) == tree


SETS = [
    ("{}", mk(ast.SetEnum, ())),
    ("{1, 2, 3}", mk(ast.SetEnum, (N(1), N(2), N(3)))),
    ("{x \\in S : x > 0}", mk(ast.SetFilter, Bnd("x", I("S")), Op(">", I("x"), N(0)))),
    # A filter whose predicate is itself a membership test, not a map over two bounds.
    ("{x \\in S : y \\in T}",
     mk(ast.SetFilter, Bnd("x", I("S")), Op("\\in", I("y"), I("T")))),
    ("{<<x, y>> \\in S : x = y}",
     mk(ast.SetFilter, Bnd("x y", I("S"), tup=True), Op("=", I("x"), I("y")))),
    ("{x + 1 : x \\in S}", mk(ast.SetMap, Op("+", I("x"), N(1)), (Bnd("x", I("S")),))),
    ("{<<x, y>> : x, y \\in S, z \\in T}",
     mk(ast.SetMap, mk(ast.Tuple, (I("x"), I("y"))), (Bnd("x y", I("S")), Bnd("z", I("T"))))),
    ("{x : <<x, y>> \\in S}", mk(ast.SetMap, I("x"), (Bnd("x y", I("S"), tup=True),))),
    ("{x : x \\in S, y \\in T}", mk(ast.SetMap, I("x"), (Bnd("x", I("S")), Bnd("y", I("T"))))),
    ("{x \\in S : x \\in T, y \\in U}",
     mk(ast.SetMap, Op("\\in", I("x"), I("S")), (Bnd("x", I("T")), Bnd("y", I("U"))))),
    ("SUBSET S", Op("SUBSET", I("S"))),
    ("UNION {S, T}", Op("UNION", mk(ast.SetEnum, (I("S"), I("T"))))),
    ("DOMAIN f", Op("DOMAIN", I("f"))),
]


@pytest.mark.parametrize("text, tree", SETS, ids=[t for t, _ in SETS])
def test_sets(text, tree):
    assert expr(text) == tree


FUNCTIONS = [
    ("[x \\in S |-> x + 1]", mk(ast.FuncCons, (Bnd("x", I("S")),), Op("+", I("x"), N(1)))),
    ("[x, y \\in S, z \\in T |-> x]",
     mk(ast.FuncCons, (Bnd("x y", I("S")), Bnd("z", I("T"))), I("x"))),
    ("[<<x, y>> \\in S |-> x]", mk(ast.FuncCons, (Bnd("x y", I("S"), tup=True),), I("x"))),
    ("[a |-> 1, b |-> TRUE]", mk(ast.Record, (("a", N(1)), ("b", TRUE)))),
    ("[a : S, b : BOOLEAN]",
     mk(ast.RecordSet, (("a", I("S")), ("b", mk(ast.BuiltinSet, "BOOLEAN"))))),
    ("[S -> T]", mk(ast.FuncSet, I("S"), I("T"))),
    ("[S -> [T -> U]]", mk(ast.FuncSet, I("S"), mk(ast.FuncSet, I("T"), I("U")))),
    ("<<>>", mk(ast.Tuple, ())),
    ("<<1>>", mk(ast.Tuple, (N(1),))),
    ("<<1, <<>>, {}>>", mk(ast.Tuple, (N(1), mk(ast.Tuple, ()), mk(ast.SetEnum, ())))),
    ("f[a]", mk(ast.FuncApp, I("f"), (I("a"),))),
    ("f[a, b]", mk(ast.FuncApp, I("f"), (I("a"), I("b")))),
    ("f[a][b]", mk(ast.FuncApp, mk(ast.FuncApp, I("f"), (I("a"),)), (I("b"),))),
    ("r.a.b", mk(ast.FieldAccess, mk(ast.FieldAccess, I("r"), "a"), "b")),
    ("r.f[a, b]'",
     Op("'", mk(ast.FuncApp, mk(ast.FieldAccess, I("r"), "f"), (I("a"), I("b"))))),
    ("f[x].next' + 1",
     Op("+", Op("'", mk(ast.FieldAccess, mk(ast.FuncApp, I("f"), (I("x"),)), "next")), N(1))),
]


@pytest.mark.parametrize("text, tree", FUNCTIONS, ids=[t for t, _ in FUNCTIONS])
def test_functions_records_tuples(text, tree):
    assert expr(text) == tree


def upd(path, value):
    return mk(ast.ExceptUpdate, tuple(path), value)


def test_except_with_nested_paths_and_at():
    assert expr("[f EXCEPT ![a][b].c = @ + 1]") == mk(ast.Except, I("f"), (
        upd([("index", (I("a"),)), ("index", (I("b"),)), ("field", "c")],
            Op("+", mk(ast.At), N(1))),))


def test_except_with_multiple_updates_and_tuple_index():
    assert expr("[r EXCEPT !.x = 1, ![i, j] = @, !.y.z[k] = {@}]") == mk(ast.Except, I("r"), (
        upd([("field", "x")], N(1)),
        upd([("index", (I("i"), I("j")))], mk(ast.At)),
        upd([("field", "y"), ("field", "z"), ("index", (I("k"),))],
            mk(ast.SetEnum, (mk(ast.At),))),
    ))


def test_if_then_else_and_its_reach():
    assert expr("IF a THEN b ELSE c + 1") == mk(ast.If, I("a"), I("b"), Op("+", I("c"), N(1)))
    assert expr("(IF a THEN b ELSE c) + 1") == Op("+", mk(ast.If, I("a"), I("b"), I("c")), N(1))
    assert expr("IF a THEN IF b THEN 1 ELSE 2 ELSE 3") == mk(
        ast.If, I("a"), mk(ast.If, I("b"), N(1), N(2)), N(3))


def test_case_with_and_without_other():
    assert expr("CASE a -> 1 [] b -> 2") == mk(ast.Case, ((I("a"), N(1)), (I("b"), N(2))), None)
    assert expr("CASE a -> 1 [] b -> 2 [] OTHER -> 3") == mk(
        ast.Case, ((I("a"), N(1)), (I("b"), N(2))), N(3))
    assert expr("CASE x = 1 -> a + 1") == mk(ast.Case, ((Op("=", I("x"), N(1)),
                                                         Op("+", I("a"), N(1))),), None)


def test_nested_case_takes_the_following_arms():
    # TLA+ binds a `[]` after a nested CASE to the inner CASE.
    assert expr("CASE a -> CASE b -> 1 [] c -> 2 [] OTHER -> 3") == mk(
        ast.Case, ((I("a"), mk(ast.Case, ((I("b"), N(1)), (I("c"), N(2))), N(3))),), None)
    assert expr("CASE a -> (CASE b -> 1) [] c -> 2") == mk(
        ast.Case, ((I("a"), mk(ast.Case, ((I("b"), N(1)),), None)), (I("c"), N(2))), None)


def test_let_with_several_definitions():
    assert expr("LET A == 1\n         F(x) == x + A\n         g[y \\in S] == y\n"
                "     IN F(g[A])") == mk(ast.Let, (
                    Def("A", N(1)),
                    Def("F", Op("+", I("x"), I("A")), "x"),
                    mk(ast.FuncDef, "g", (Bnd("y", I("S")),), I("y")),
                ), Op("F", mk(ast.FuncApp, I("g"), (I("A"),))))


def test_let_with_recursive_and_instance():
    assert expr("LET RECURSIVE R(_)\n        R(n) == R(n)\n        M == INSTANCE X\n"
                "    IN R(1)") == mk(ast.Let, (
                    mk(ast.Recursive, (P("R", 1),)),
                    Def("R", Op("R", I("n")), "n"),
                    mk(ast.InstanceDef, "M", (), mk(ast.Instance, "X", ())),
                ), Op("R", N(1)))


def test_lambda_and_operators_as_arguments():
    assert expr("F(LAMBDA x, y : x + y, +, \\cup, G)") == Op(
        "F", mk(ast.Lambda, ("x", "y"), Op("+", I("x"), I("y"))), I("+"), I("\\cup"), I("G"))
    assert expr("F(-, \\o, <)") == Op("F", I("-"), I("\\o"), I("<"))


# ---------------------------------------------------------------------------------------------
# Actions and temporal operators


def test_actions_and_temporal_forms():
    assert expr("[][Next]_vars") == Op("[]", mk(ast.BoxAction, I("Next"), I("vars")))
    assert expr("[A]_<<x, y>>") == mk(ast.BoxAction, I("A"), mk(ast.Tuple, (I("x"), I("y"))))
    assert expr("<><<A>>_v") == Op("<>", mk(ast.AngleAction, I("A"), I("v")))
    assert expr("<<A /\\ B>>_(x)") == mk(ast.AngleAction, Op("\\land", I("A"), I("B")), I("x"))
    assert expr("[A]_M!v") == mk(ast.BoxAction, I("A"), mk(ast.InstanceRef, (("M", ()),), "v", ()))


def test_fairness():
    assert expr("WF_vars(A)") == mk(ast.Fairness, "WF", I("vars"), I("A"))
    assert expr("SF_<<x,y>>(A /\\ B)") == mk(
        ast.Fairness, "SF", mk(ast.Tuple, (I("x"), I("y"))), Op("\\land", I("A"), I("B")))
    assert expr("Init /\\ [][Next]_v /\\ WF_v(Next)") == Op(
        "\\land", Op("\\land", I("Init"), Op("[]", mk(ast.BoxAction, I("Next"), I("v")))),
        mk(ast.Fairness, "WF", I("v"), I("Next")))


def test_primes_unchanged_enabled():
    assert expr("x' = x") == Op("=", Op("'", I("x")), I("x"))
    assert expr("x''") == Op("'", Op("'", I("x")))
    assert expr("UNCHANGED <<x, y>>") == Op("UNCHANGED", mk(ast.Tuple, (I("x"), I("y"))))
    assert expr("ENABLED (x' = 1)") == Op("ENABLED", Op("=", Op("'", I("x")), N(1)))


def test_labels_name_subexpressions_without_changing_them():
    assert expr("P0:: x = 1") == Op("=", I("x"), N(1))
    assert expr("a /\\ lbl :: b") == Op("\\land", I("a"), I("b"))


# ---------------------------------------------------------------------------------------------
# Unicode


UNICODE = [
    ("a ∧ (b ∨ ¬c)", "a /\\ (b \\/ ~c)"),
    ("x ∈ S ∧ y ∉ S", "x \\in S /\\ y \\notin S"),
    ("∀ x ∈ S : ∃ y ∈ S : x ≤ y", "\\A x \\in S : \\E y \\in S : x <= y"),
    ("⟨1, 2⟩", "<<1, 2>>"),
    ("[x ∈ S ↦ x]", "[x \\in S |-> x]"),
    ("[S → T]", "[S -> T]"),
    ("a ≠ b ∧ a ≥ b", "a /= b /\\ a >= b"),
    ("S ∪ (T ∩ U)", "S \\cup (T \\cap U)"),
    ("S ⊆ T × U", "S \\subseteq T \\X U"),
    ("□P ⇒ ◇Q", "[]P => <>Q"),
    ("P ≡ Q", "P <=> Q"),
    ("P ↝ Q", "P ~> Q"),
    ("⟨A⟩_v", "<<A>>_v"),
]


@pytest.mark.parametrize("uni, ascii_", UNICODE, ids=[u for u, _ in UNICODE])
def test_unicode_forms_mean_the_ascii_ones(uni, ascii_):
    assert expr(uni) == expr(ascii_)


def test_unicode_definition_symbol_and_tree():
    assert unit("A ≜ ⟨1, 2⟩ ∈ S × T") == Def(
        "A", Op("\\in", mk(ast.Tuple, (N(1), N(2))), mk(ast.CartProd, (I("S"), I("T")))))


def test_unicode_keeps_columns_for_the_layout_rule():
    assert expr("∧ a\n     ∧ ¬b") == And(I("a"), Op("\\lnot", I("b")), col=6)


# ---------------------------------------------------------------------------------------------
# Nested modules and whole specs


def test_nested_module_is_a_unit():
    text = """CONSTANT N
---- MODULE Inner ----
VARIABLE x
X == x
====
I == INSTANCE Inner WITH x <- N
B == 1"""
    us = units(text)
    assert us[0] == mk(ast.Constants, (P("N"),))
    inner = us[1]
    assert isinstance(inner, ast.Module)
    assert (inner.name, inner.extends) == ("Inner", ())
    assert inner.units == (mk(ast.Variables, ("x",)), Def("X", I("x")))
    assert us[2:] == (
        mk(ast.InstanceDef, "I", (), mk(ast.Instance, "Inner", (mk(ast.Substitution, "x",
                                                                    I("N")),))),
        Def("B", N(1)),
    )


def test_a_realistic_spec_parses_to_the_expected_shape():
    text = r"""
------------------------------- MODULE DieHard -------------------------------
EXTENDS Naturals
VARIABLES big,   \* The number of gallons of water in the 5 gallon jug.
          small  \* The number of gallons of water in the 3 gallon jug.

TypeOK == /\ small \in 0..3
          /\ big   \in 0..5

Init == /\ big = 0
        /\ small = 0

FillSmallJug  == /\ small' = 3
                 /\ big' = big

Min(m,n) == IF m < n THEN m ELSE n

SmallToBig == /\ big'   = Min(big + small, 5)
              /\ small' = small - (big' - big)

Next == \/ FillSmallJug
        \/ SmallToBig

Spec == Init /\ [][Next]_<<big, small>>
=============================================================================
"""
    m = parse_module(text, "DieHard.tla")
    names = [u.name for u in m.units[1:]]
    assert names == ["TypeOK", "Init", "FillSmallJug", "Min", "SmallToBig", "Next", "Spec"]
    defs = {u.name: u for u in m.units[1:]}
    assert defs["TypeOK"].body == And(
        Op("\\in", I("small"), Op("..", N(0), N(3))),
        Op("\\in", I("big"), Op("..", N(0), N(5))), col=11)
    assert defs["SmallToBig"].body == And(
        Op("=", Op("'", I("big")), Op("Min", Op("+", I("big"), I("small")), N(5))),
        Op("=", Op("'", I("small")),
           Op("-", I("small"), Op("-", Op("'", I("big")), I("big")))), col=15)
    assert defs["Next"].body == Or(I("FillSmallJug"), I("SmallToBig"), col=9)


def test_same_tree_whatever_the_layout():
    a = parse("A == [x \\in S |-> x + 1]\nB == {1, 2}")
    b = parse("A ==\n   [ x   \\in S\n     |-> x+1 ]\n\n\nB == { 1 ,\n 2 }")
    assert a == b
    assert a.units[0].span != b.units[0].span


def test_module_file_field_is_compared():
    assert parse_module(module("A == 1"), "a.tla") != parse_module(module("A == 1"), "b.tla")


def test_a_semantic_error_in_a_bound_list_is_a_spec_error():
    with pytest.raises(SpecError) as info:
        parse_module(module("A == [1 |-> 2]"), FILE)
    assert info.value.message == ("expected a bound such as `x \\in S` here, as in "
                                  "[x \\in S |-> e]")
    assert info.value.span == Span(FILE, 3, 7, 3, 8)
