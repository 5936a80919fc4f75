"""Name resolution and module loading: every error with its exact message, span and exit code."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest
from frontend_helpers import FILE, check, module, spec_error

from checker.frontend import ast, load_spec
from checker.frontend.errors import KipcheckError, Span, SpecError
from checker.frontend.modules import Loader, ModuleSet
from checker.frontend.parser import parse_module
from checker.frontend.resolve import resolve


def where(err: KipcheckError) -> tuple[int, int, int, int]:
    s = err.span
    return (s.line, s.col, s.end_line, s.end_col)


# ---------------------------------------------------------------------------------------------
# Syntax errors (through the whole pipeline: parse, then resolve)


@pytest.mark.parametrize("body, message, span", [
    ("Foo == (1 + ", "unexpected '===='", (4, 1, 4, 5)),
    ("Foo == 1 +\nBar == 2", "unexpected '=='", (4, 5, 4, 7)),
    ("Foo == IF a THEN b", "unexpected '===='; expected 'ELSE'", (4, 1, 4, 5)),
    ("Foo == [x \\in S |-> ]", "unexpected ']'", (3, 21, 3, 22)),
    ("Foo = 1", "unexpected '='", (3, 5, 3, 6)),
    ("VARIABLE", "unexpected '===='; expected an identifier", (4, 1, 4, 5)),
    ("Foo == CASE a -> 1 [] OTHER -> 2 [] b -> 3", "unexpected '[]'", (3, 34, 3, 36)),
    ("Foo == 1 \\foo 2", "unknown operator \\foo", (3, 10, 3, 14)),
    ('Foo == "abc', "unexpected character '\"'", (3, 8, 3, 9)),
    ("Foo == 1 ? 2", "unexpected character '?'", (3, 10, 3, 11)),
    ("Foo == (* never closed", "unterminated comment: `(*` is never closed by `*)`",
     (3, 8, 3, 10)),
    ("Foo == (* (* nested *) but not closed", "unterminated comment: `(*` is never closed by "
     "`*)`", (3, 8, 3, 10)),
])
def test_syntax_errors(body, message, span):
    err = spec_error(body)
    assert err.message == message
    assert where(err) == span
    assert err.span.file == FILE


def test_missing_end_of_module():
    text = "---- MODULE M ----\nEXTENDS Naturals\nA == 1\n"
    with pytest.raises(SpecError) as info:
        parse_module(text, FILE)
    err = info.value
    assert err.message == "unexpected end of file: the module must end with a line of `====`"
    assert err.span == Span(FILE, 3, 7)
    assert err.format() == (f"{FILE}:3:7: error: unexpected end of file: the module must end "
                            "with a line of `====`\nA == 1\n      ^")


def test_missing_module_header():
    with pytest.raises(SpecError) as info:
        parse_module("A == 1\n====\n", FILE)
    assert info.value.message == ("no module header: a TLA+ file starts with "
                                  "`---- MODULE Name ----`")
    assert info.value.span == Span(FILE, 1, 1)


def test_comment_after_the_end_of_the_module_may_stay_open():
    assert check("A == 1\n====\n(* an unclosed comment after the module").name == "M"


def test_syntax_error_format_shows_line_and_caret():
    err = spec_error("Foo == 1 \\foo 2")
    assert err.format() == (f"{FILE}:3:10: error: unknown operator \\foo\n"
                            "Foo == 1 \\foo 2\n"
                            "         ^~~~")


@pytest.fixture
def recursion_limit_1000():
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)  # Python's default, whatever else the process has set
    yield
    sys.setrecursionlimit(old)


@pytest.mark.usefixtures("recursion_limit_1000")
def test_deep_nesting_is_a_spec_error_not_a_crash():
    # Regression: a RecursionError used to escape from building and resolving deep trees.
    for body in ("A == " + " + ".join(["1"] * 3000),
                 "A == " + "{" * 2000 + "}" * 2000,
                 "A == " + "~" * 3000 + "TRUE",
                 "A == " + "TRUE => (" * 3000 + "TRUE" + ")" * 3000):
        err = spec_error(body)
        assert err.message.startswith("expression nested too deeply to ")
        assert err.span.file == FILE


@pytest.mark.usefixtures("recursion_limit_1000")
def test_resolving_a_too_deep_tree_is_a_spec_error():
    # Trees that deep cannot come out of the parser at this limit; build one directly.
    mods = Loader().load_text(module("A == 1"), FILE)
    one = ast.Num(1, span=Span(FILE, 3, 6, 3, 7))
    deep = one
    for _ in range(3000):
        deep = ast.OpApp("+", (deep, one), span=one.span)
    root = dataclasses.replace(mods.root, units=(ast.OpDef("A", (), deep, span=Span(FILE, 3, 1)),))
    mods.modules["M"] = root
    with pytest.raises(SpecError) as info:
        resolve(ModuleSet(root, mods.modules, mods.sources))
    assert info.value.message == "expression nested too deeply to check"
    assert info.value.span == root.span


def test_moderately_deep_nesting_is_fine():
    check("A == " + " + ".join(["1"] * 100) + "\nB == " + "{" * 60 + "}" * 60)


# ---------------------------------------------------------------------------------------------
# Name errors


@pytest.mark.parametrize("body, message, span", [
    ("Foo == x", "undefined identifier 'x'", (3, 8, 3, 9)),
    ("Foo == F(1)", "undefined operator 'F'", (3, 8, 3, 12)),
    ("Foo == x \\prec y", "undefined operator `\\prec`", (3, 8, 3, 17)),
    ("Foo == Len(<<1>>)", "undefined operator 'Len' (it is defined in the standard module "
     "Sequences: add it to EXTENDS)", (3, 8, 3, 18)),
    ("Foo == B\nB == 1", "undefined identifier 'B'", (3, 8, 3, 9)),
    ("Foo == \\A x \\in S : TRUE\nS == 1", "undefined identifier 'S'", (3, 17, 3, 18)),
    ("Foo == M!Op", "undefined identifier 'M'", (3, 8, 3, 12)),
    ("Foo == (\\E x \\in {} : TRUE) /\\ x", "undefined identifier 'x'", (3, 32, 3, 33)),
    ("Foo == LET B == 1 IN B\nBar == B", "undefined identifier 'B'", (4, 8, 4, 9)),
])
def test_undefined_names(body, message, span):
    err = spec_error(body)
    assert err.message == message
    assert where(err) == span


def test_undefined_plus_without_naturals_hints_at_extends():
    err = spec_error("VARIABLE x\nNext == x' = x + 1", extends=None)
    assert err.message == ("undefined operator `+` (it is defined in the standard module "
                           "Naturals: add it to EXTENDS)")
    assert where(err) == (3, 14, 3, 19)


@pytest.mark.parametrize("body, message, span", [
    ("F(a, b) == a\nFoo == F(1)", "'F' takes 2 arguments, given 1", (4, 8, 4, 12)),
    ("F(a) == a\nFoo == F(1, 2)", "'F' takes 1 argument, given 2", (4, 8, 4, 15)),
    ("F(a) == a\nFoo == F", "'F' takes 1 argument but is used without any", (4, 8, 4, 9)),
    ("F(a) == a\nFoo == {F}", "'F' takes 1 argument but is used without any", (4, 9, 4, 10)),
    ("VARIABLE v\nFoo == v(1)", "'v' is not an operator; to apply a function write v[...]",
     (4, 8, 4, 12)),
    ("CONSTANT N\nFoo == N(1)", "'N' is not an operator; to apply a function write N[...]",
     (4, 8, 4, 12)),
    ("f[x \\in Nat] == x\nFoo == f(1)",
     "'f' is not an operator; to apply a function write f[...]", (4, 8, 4, 12)),
    ("Foo == \\E x \\in {} : x(1)",
     "'x' is not an operator; to apply a function write x[...]", (3, 22, 3, 26)),
    ("CONSTANT F(_, _)\nFoo == F(1)", "'F' takes 2 arguments, given 1", (4, 8, 4, 12)),
    ("Foo == 1 + 2 + Nat(3)", "'Nat' takes 0 arguments, given 1", (3, 16, 3, 22)),
    ("I == INSTANCE Naturals\nFoo == I", "'I' is an instance: use I!Name", (4, 8, 4, 9)),
    ("I == INSTANCE Naturals\nFoo == I!Nat(1)", "I!Nat takes 0 arguments, given 1",
     (4, 8, 4, 16)),
    ("I(x) == INSTANCE Naturals\nFoo == I!Nat", "instance 'I' takes 1 argument, given 0",
     (4, 8, 4, 13)),
    ("I == INSTANCE Naturals\nFoo == I!Foo", "module Naturals (instance I) defines no 'Foo'",
     (4, 8, 4, 13)),
    ("Foo == LAMBDA x : x", "LAMBDA may only be an argument of an operator", (3, 8, 3, 20)),
])
def test_arity_errors(body, message, span):
    err = spec_error(body)
    assert err.message == message
    assert where(err) == span


@pytest.mark.parametrize("body, message, span", [
    # Regression: an operator with arguments was accepted without them as the operand of any
    # operator (`Inc + 1`), and higher-order arguments were not checked at all.
    ("Inc(x) == x + 1\nFoo == Inc + 1", "'Inc' takes 1 argument but is used without any",
     (4, 8, 4, 11)),
    ("Inc(x) == x + 1\nFoo == Inc = 1", "'Inc' takes 1 argument but is used without any",
     (4, 8, 4, 11)),
    ("Inc(x) == x + 1\nId(x) == x\nFoo == Id(Inc)",
     "'Inc' takes 1 argument but is used without any", (5, 11, 5, 14)),
    ("F(G(_), x) == G(x)\nFoo == F(+, 1)",
     "expected an operator taking 1 argument here, but `+` takes 2 arguments", (4, 10, 4, 11)),
    ("F(G(_), x) == G(x)\nFoo == F(LAMBDA a, b : a, 1)",
     "expected an operator taking 1 argument here, but the LAMBDA takes 2 arguments",
     (4, 10, 4, 25)),
    ("F(G(_), x) == G(x)\nFoo == F(1, 1)",
     "expected an operator taking 1 argument here, but this expression takes 0 arguments",
     (4, 10, 4, 11)),
    ("F(G(_), x) == G(x)\nFoo == \\E y \\in {} : F(y, 1)",
     "expected an operator taking 1 argument here, but 'y' takes 0 arguments", (4, 24, 4, 25)),
    ("Id(x) == x\nFoo == Id(LAMBDA x : x)", "LAMBDA may only be an argument of an operator",
     (4, 11, 4, 23)),
])
def test_operator_arguments_must_match_the_parameter(body, message, span):
    err = spec_error(body)
    assert err.message == message
    assert where(err) == span


def test_higher_order_arguments_that_fit():
    check("""Apply(Op(_, _), a, b) == Op(a, b)
Twice(F(_), x) == F(F(x))
Inc(x) == x + 1
A == Apply(+, 1, 2) + Apply(LAMBDA x, y : x * y, 3, 4) + Apply(-, 5, 6)
B == Twice(Inc, 1) + Twice(LAMBDA x : x * 2, 1)
C == Apply(\\cup, {1}, {2})
Rel(R(_, _)) == R(1, 2)
D == Rel(<) /\\ Rel(\\subseteq)""")


def test_higher_order_standard_operators():
    check("""Test(x) == x > 1
A == SelectSeq(<<1, 2>>, LAMBDA x : x > 1)
B == SelectSeq(<<1, 2>>, Test)
C == SortSeq(<<2, 1>>, <)""", extends="Naturals, Sequences, TLC")


@pytest.mark.parametrize("body, message, span", [
    ("A == 1\nA == 2", "multiply defined: 'A' (already defined at M.tla:3:1)", (4, 1, 4, 7)),
    ("A(x) == 1\nA == 2", "multiply defined: 'A' (already defined at M.tla:3:1)",
     (4, 1, 4, 7)),
    ("CONSTANT c\nCONSTANT c", "multiply defined: 'c' (already defined at M.tla:3:10)",
     (4, 10, 4, 11)),
    ("VARIABLE c\nCONSTANT c", "multiply defined: 'c' (already defined at M.tla:3:1)",
     (4, 10, 4, 11)),
    ("VARIABLES v, w, v", "multiply defined: 'v'", (3, 1, 3, 18)),
    ("CONSTANT c\nc == 1", "multiply defined: 'c' (already defined at M.tla:3:10)",
     (4, 1, 4, 7)),
    ("Nat == 1", "multiply defined: 'Nat' (already defined in module Naturals)", (3, 1, 3, 9)),
    ("RECURSIVE R(_)\nR(x) == 1\nR(x) == 2",
     "multiply defined: 'R' (already defined at M.tla:4:1)", (5, 1, 5, 10)),
    ("A == LET B == 1\n         B == 2 IN B",
     "multiply defined: 'B' (already defined in this LET at M.tla:3:10)", (4, 10, 4, 16)),
    ("f[x \\in {}] == 1\nf == 2", "multiply defined: 'f' (already defined at M.tla:3:1)",
     (4, 1, 4, 7)),
    ("A(x, x) == x", "parameter 'x' appears twice", (3, 6, 3, 7)),
    ("A == \\E x, x \\in {} : TRUE", "'x' is bound twice", (3, 9, 3, 20)),
    ("A == [a |-> 1, a |-> 2]", "field 'a' appears twice", (3, 6, 3, 24)),
])
def test_duplicate_definitions(body, message, span):
    # Regression: two different definitions of one name at module level or in one LET used to
    # be accepted silently (the later one won).
    err = spec_error(body)
    assert err.message == message
    assert where(err) == span


# Every case checked with SANY (TLC 2.18): "Multiply-defined symbol", exit 150. kipcheck once
# accepted them all (the inner name won), answering for a spec TLC refuses to run.
SHADOWS = {
    "funvar": "f[x \\in 0..2] == x",
    "exists_var": "P == \\E x \\in 0..2 : x > 0",
    "forall_var": "P == \\A x \\in 0..2 : x > 0",
    "filter_var": "P == {x \\in 0..2 : x > 0}",
    "map_var": "P == [x \\in 0..2 |-> x]",
    "choose_var": "P == CHOOSE x \\in 0..2 : TRUE",
    "tuple_var": "P == \\E <<a, x>> \\in (0..1) \\X (0..1) : a > 0",
    "param_var": "Q(x) == x",
    "param_const": "Q(C) == C",
    "let_var": "P == LET x == 1 IN x",
    "let_const": "P == LET C == 1 IN C",
    "let_operator": "P == LET Op(b) == b IN Op(1)",
    "let_param_var": "P == LET F(x) == x IN F(1)",
    "let_in_let": "P == LET a == 1 IN LET a == 2 IN a",
    "let_in_bound": "P == \\E a \\in 0..2 : LET a == 1 IN a",
    "lambda_var": "P == LET F(G(_)) == G(1) IN F(LAMBDA x : x)",
    "bound_const": "P == \\E C \\in 0..2 : C > 0",
    "bound_operator": "P == \\E Op \\in 0..2 : Op > 0",
    "bound_standard": "P == \\E Len \\in 0..2 : Len > 0",
    "nested": "P == \\E a \\in 0..2 : \\E a \\in 0..2 : a > 0",
    "nested_filter": "P == \\E a \\in 0..2 : {a \\in 0..2 : a > 0} = {}",
    "bound_param": "Q(a) == \\E a \\in 0..2 : a > 0",
    "bound_function_bound": "f[a \\in 0..2] == \\E a \\in 0..1 : a > 0",
    "bound_function_name": "f[a \\in 0..2] == \\E f \\in 0..1 : f > 0",
}


@pytest.mark.parametrize("case", list(SHADOWS))
def test_a_name_already_visible_cannot_be_bound_again(case):
    err = spec_error("CONSTANT C\nVARIABLE x\nOp(a) == a + 1\n" + SHADOWS[case],
                     extends="Naturals, Sequences")
    assert err.message.startswith("multiply defined: ")
    assert where(err)[0] == 6


def test_an_operator_may_bind_its_own_name():
    # SANY accepts it: a definition that is not RECURSIVE is not visible in its own body.
    check("P == \\E P \\in 0..1 : P > 0\nQ == LET R == 1 IN \\E R2 \\in {R} : R2 > 0")


@pytest.mark.parametrize("body, span", [
    ("RECURSIVE R(_)\nF == 1", (3, 11)),
    ("F == LET RECURSIVE R(_)\n         G == 1 IN G", (3, 20)),
])
def test_a_recursive_declaration_needs_its_definition(body, span):
    # SANY: "Symbol R declared in RECURSIVE statement but not defined" (TLC exit 150)
    err = spec_error(body)
    assert err.message == "'R' is declared RECURSIVE but never defined"
    assert where(err)[:2] == span


@pytest.mark.parametrize("escape", ["\\q", "\\b", "\\0", "\\'", "\\N"])
def test_a_string_escape_tla_does_not_have_is_an_error(escape):
    # SANY: "Lexical error ... Encountered" (TLC exit 150); kipcheck once kept the character
    err = spec_error(f'F == "a{escape}b"')
    assert err.message == (f"invalid escape `{escape.replace(chr(92) * 2, chr(92))}` in a "
                           "string (TLA+ has \\n \\t \\r \\f \\\\ and \\\")")
    assert where(err)[:2] == (3, 8)


def test_the_escapes_tla_has_are_read():
    scope = check('F == "\\n\\t\\r\\f\\\\\\"x"')
    assert scope.symbols["F"].node.body.value == '\n\t\r\f\\"x'


def test_identical_repeated_definition_is_accepted():
    assert "A" in check("A == 1 + 1\nA == 1 + 1").symbols


def test_the_same_module_reached_twice_is_no_duplicate():
    scope = check("LOCAL INSTANCE Naturals\nINSTANCE Naturals\nA == 1",
                  extends="Naturals, Integers, Sequences")
    assert scope.symbols["+"].module == "Naturals"
    assert scope.symbols["Int"].module == "Integers"


def test_recursive_declarations():
    scope = check("RECURSIVE Fact(_), Even(_), Odd(_)\n"
                  "Fact(n) == IF n = 0 THEN 1 ELSE n * Fact(n - 1)\n"
                  "Even(n) == IF n = 0 THEN TRUE ELSE Odd(n - 1)\n"
                  "Odd(n) == IF n = 0 THEN FALSE ELSE Even(n - 1)\n"
                  "A == LET RECURSIVE L(_)\n"
                  "         L(n) == IF n = 0 THEN 0 ELSE L(n - 1)\n"
                  "     IN L(3)")
    assert {n: scope.symbols[n].arity for n in ("Fact", "Even", "Odd")} == {
        "Fact": 1, "Even": 1, "Odd": 1}


@pytest.mark.parametrize("body, span", [
    ("A == @ + 1", (3, 6, 3, 7)),
    ("VARIABLE x\nA == [x EXCEPT ![@] = 1]", (4, 18, 4, 19)),
    ("A == [x \\in {1} |-> @]", (3, 21, 3, 22)),
    ("VARIABLE x\nA == [x EXCEPT ![1] = 2] + @", (4, 28, 4, 29)),
])
def test_at_outside_except(body, span):
    err = spec_error(body)
    assert err.message == "`@` may only appear in the new value of an EXCEPT update"
    assert where(err) == span


def test_at_inside_except_values_is_fine():
    check("VARIABLE f\nA == [f EXCEPT ![1] = @ + 1, ![2].x = {y \\in @ : y > 0}]")


def test_scopes_list_constants_variables_and_definitions():
    scope = check("CONSTANTS N, F(_)\nVARIABLES x, y\nInit == x = N /\\ y = F(N)\n"
                  "LOCAL Hidden == 1\nf[i \\in 1..N] == i")
    assert list(scope.constants) == ["N", "F"]
    assert list(scope.variables) == ["x", "y"]
    assert (scope.symbols["F"].kind, scope.symbols["F"].arity) == ("constant", 1)
    assert scope.symbols["Init"].kind == "operator"
    assert scope.symbols["f"].kind == "function"
    assert "Hidden" in scope.symbols and "Hidden" not in scope.exports
    assert "+" in scope.exports and scope.exports["+"].module == "Naturals"


def test_bound_names_may_reuse_names_not_visible_there():
    check("A == \\E x \\in {1} : x = 1\nB(y) == \\A y2 \\in {y} : y2 = y\n"
          "C == \\E x \\in {2} : \\E y \\in {x} : y = x\nVARIABLE x2")


def test_positional_subexpression_names():
    check("Inv == 1 /\\ 2\nA == Inv!1\nB == Inv!:")


def test_labels_and_temporal_forms_resolve():
    check("VARIABLE x\nNext == x' = x + 1\nvars == <<x>>\n"
          "Spec == x = 0 /\\ [][Next]_vars /\\ WF_vars(Next) /\\ SF_<<x>>(lbl:: Next)\n"
          "Live == []<>(x > 3) /\\ (x = 1 ~> x = 2) /\\ ENABLED Next /\\ (TRUE -+-> TRUE)\n"
          "Hide == \\EE y : y = x")


# ---------------------------------------------------------------------------------------------
# Module resolution


def write(path: Path, name: str, body: str, extends: str | None = None) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    f = path / f"{name}.tla"
    f.write_text(module(body, extends=extends, name=name), encoding="utf-8")
    return f


def test_extends_a_sibling_file(tmp_path):
    write(tmp_path, "Base", "CONSTANT N\nDouble(x) == x + x", extends="Naturals")
    root = write(tmp_path, "Main", "A == Double(N)", extends="Base")
    loaded = load_spec(root)
    assert list(loaded.modules.modules) == ["Main", "Base", "Naturals"]
    assert loaded.scope.symbols["Double"].module == "Base"
    assert list(loaded.scope.constants) == ["N"]
    assert loaded.modules.modules["Base"].file == str(tmp_path / "Base.tla")


def test_a_module_found_via_lib(tmp_path):
    write(tmp_path / "lib", "Util", "Twice(x) == 2 * x", extends="Naturals")
    root = write(tmp_path / "spec", "Main", "A == Twice(1)", extends="Util")
    with pytest.raises(SpecError) as info:
        load_spec(root)
    assert info.value.message.startswith("unknown module 'Util': no Util.tla in ")
    loaded = load_spec(root, lib=[str(tmp_path / "lib")])
    assert loaded.scope.symbols["Twice"].module == "Util"


def test_a_module_found_via_kipcheck_path(tmp_path, monkeypatch):
    write(tmp_path / "a", "Other", "X == 1")
    write(tmp_path / "b", "Util", "Twice(x) == 2 * x", extends="Naturals")
    root = write(tmp_path / "spec", "Main", "A == Twice(X)", extends="Util, Other")
    monkeypatch.setenv("KIPCHECK_PATH", f"{tmp_path / 'a'}:{tmp_path / 'b'}")
    loaded = load_spec(root)
    assert loaded.scope.symbols["Twice"].module == "Util"
    assert loaded.scope.symbols["X"].module == "Other"


def test_lib_comes_before_kipcheck_path(tmp_path, monkeypatch):
    write(tmp_path / "lib", "Util", "Which == 1")
    write(tmp_path / "env", "Util", "Which == 2")
    root = write(tmp_path / "spec", "Main", "A == Which", extends="Util")
    monkeypatch.setenv("KIPCHECK_PATH", str(tmp_path / "env"))
    loaded = load_spec(root, lib=[str(tmp_path / "lib")])
    assert loaded.modules.modules["Util"].file == str(tmp_path / "lib" / "Util.tla")


def test_a_sibling_file_shadows_a_standard_module(tmp_path):
    write(tmp_path, "TLC", "MyPrint == 1")
    root = write(tmp_path, "Main", "A == MyPrint", extends="TLC")
    assert load_spec(root).scope.symbols["MyPrint"].module == "TLC"


def test_standard_modules():
    scope = check("A == Len(<<1>>) + Cardinality({1}) + Int\nB == Print(1, TRUE)\n"
                  "C == SetToBag({1})\nD == 1.5 + Infinity\nE == RandomElement({1})",
                  extends="Naturals, Integers, Reals, Sequences, FiniteSets, Bags, TLC, "
                          "TLAPS, Randomization")
    assert scope.symbols["Len"].module == "Sequences"
    assert scope.symbols["Cardinality"].module == "FiniteSets"
    assert scope.symbols["Print"].module == "TLC"


def test_nested_modules():
    scope = check("""CONSTANT N
---- MODULE Inner ----
VARIABLE x
X == x + N
====
I == INSTANCE Inner WITH x <- N
A == I!X""")
    assert scope.symbols["I"].target == "Inner"
    err = spec_error("""---- MODULE Inner ----
X == 1
====
A == X""")
    assert err.message == "undefined identifier 'X'"
    assert where(err) == (6, 6, 6, 7)


def test_a_nested_module_can_be_extended_by_a_later_one():
    check("""---- MODULE A ----
X == 1
====
---- MODULE B ----
EXTENDS A
Y == X + 1
====
INSTANCE B
Z == Y + X""")


def test_unknown_module_span_is_on_the_extends_name(tmp_path):
    root = write(tmp_path, "Main", "A == 1", extends="Naturals, Nope")
    with pytest.raises(SpecError) as info:
        load_spec(root)
    err = info.value
    assert err.message == (f"unknown module 'Nope': no Nope.tla in {tmp_path}, and it is not "
                           "a standard module")
    assert err.span == Span(str(root), 2, 19, 2, 23)
    assert err.format().splitlines()[1:] == ["EXTENDS Naturals, Nope",
                                             "                  ^~~~"]


def test_unknown_instanced_module():
    err = spec_error("I == INSTANCE Nope")
    assert err.message.startswith("unknown module 'Nope': no Nope.tla in ")
    assert where(err) == (3, 6, 3, 19)


def test_circular_extends(tmp_path):
    write(tmp_path, "B", "Y == 1", extends="A")
    root = write(tmp_path, "A", "X == 1", extends="B")
    with pytest.raises(SpecError) as info:
        load_spec(root)
    err = info.value
    assert err.message == "circular module dependency: A -> B -> A"
    assert err.span == Span(str(tmp_path / "B.tla"), 2, 9, 2, 10)


def test_a_module_extending_itself(tmp_path):
    root = write(tmp_path, "A", "X == 1", extends="A")
    with pytest.raises(SpecError) as info:
        load_spec(root)
    assert info.value.message == "circular module dependency: A -> A"
    assert info.value.span == Span(str(root), 2, 9, 2, 10)


def test_circular_instance(tmp_path):
    write(tmp_path, "B", "I == INSTANCE A")
    root = write(tmp_path, "A", "J == INSTANCE B")
    with pytest.raises(SpecError) as info:
        load_spec(root)
    assert info.value.message == "circular module dependency: A -> B -> A"
    assert info.value.span == Span(str(tmp_path / "B.tla"), 2, 6, 2, 16)


def test_module_name_must_match_the_file_name(tmp_path):
    f = tmp_path / "Main.tla"
    f.write_text(module("A == 1", name="Other"), encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_spec(f)
    assert info.value.message == "module name 'Other' does not match the file name 'Main.tla'"
    assert info.value.span.line == 1


def test_an_imported_file_holding_another_module(tmp_path):
    (tmp_path / "Util.tla").write_text(module("X == 1", name="Wrong"), encoding="utf-8")
    root = write(tmp_path, "Main", "A == X", extends="Util")
    with pytest.raises(SpecError) as info:
        load_spec(root)
    assert info.value.message == f"{tmp_path / 'Util.tla'} holds module 'Wrong', not 'Util'"


def test_errors_in_an_imported_module_name_that_file(tmp_path):
    write(tmp_path, "Util", "X == (1 +")
    root = write(tmp_path, "Main", "A == X", extends="Util")
    with pytest.raises(SpecError) as info:
        load_spec(root)
    assert info.value.span.file == str(tmp_path / "Util.tla")
    assert (info.value.span.line, info.value.span.col) == (3, 1)


def test_an_unreadable_imported_module_is_a_spec_error(tmp_path):
    # Regression: invalid UTF-8 in an EXTENDed file escaped as a UnicodeDecodeError.
    (tmp_path / "Util.tla").write_bytes(b"---- MODULE Util ----\n\xff\xfe\n====\n")
    root = write(tmp_path, "Main", "A == 1", extends="Util")
    with pytest.raises(SpecError) as info:
        load_spec(root)
    assert info.value.message.startswith("the file is not UTF-8 text: byte 0xff")
    assert info.value.span == Span(str(tmp_path / "Util.tla"), 2, 1, 2, 2)


def test_unreadable_root_spec(tmp_path):
    (tmp_path / "Main.tla").write_bytes(b"---- MODULE Main ----\n\xff\n====\n")
    with pytest.raises(SpecError) as info:
        load_spec(tmp_path / "Main.tla")
    assert info.value.message.startswith("the file is not UTF-8 text: byte 0xff")
    assert info.value.span == Span(str(tmp_path / "Main.tla"), 2, 1, 2, 2)
    with pytest.raises(SpecError) as info:
        load_spec(tmp_path / "Missing.tla")
    assert info.value.message == f"cannot read {tmp_path / 'Missing.tla'}: no such file"
    assert info.value.span is None


# ---------------------------------------------------------------------------------------------
# INSTANCE substitutions


def test_instance_substitutes_constants_and_variables_in_scope_implicitly(tmp_path):
    write(tmp_path, "Chan", "CONSTANT Data\nVARIABLE chan\nSend(d) == chan' = d",
          extends="Naturals")
    root = write(tmp_path, "Main", "CONSTANT Data\nVARIABLE chan, q\n"
                 "C == INSTANCE Chan\nD == INSTANCE Chan WITH chan <- q\n"
                 "A == C!Send(1) /\\ D!Send(2)", extends="Naturals")
    loaded = load_spec(root)
    assert loaded.scope.symbols["C"].target == "Chan"


def test_instance_requires_substitution_of_constants_not_in_scope(tmp_path):
    write(tmp_path, "Chan", "CONSTANT Data, Max\nVARIABLE chan\nOp == chan")
    root = write(tmp_path, "Main", "VARIABLE chan\nCONSTANT Data\nC == INSTANCE Chan")
    with pytest.raises(SpecError) as info:
        load_spec(root)
    err = info.value
    assert err.message == ("INSTANCE Chan: 'Max' is neither substituted (WITH Max <- ...) nor "
                           "defined here")
    assert err.span == Span(str(root), 4, 6, 4, 19)
    root.write_text(module("VARIABLE chan\nCONSTANT Data\nC == INSTANCE Chan WITH Max <- 3",
                           extends=None, name="Main"), encoding="utf-8")
    assert load_spec(root).scope.symbols["C"].kind == "instance"


def test_instance_parameters_count_as_in_scope(tmp_path):
    write(tmp_path, "Chan", "CONSTANT Data\nOp == Data")
    root = write(tmp_path, "Main", "C(Data) == INSTANCE Chan\nA == C(1)!Op")
    load_spec(root)


def test_instance_cannot_substitute_what_the_module_does_not_declare(tmp_path):
    write(tmp_path, "Chan", "CONSTANT Data\nOp == Data")
    root = write(tmp_path, "Main", "C == INSTANCE Chan WITH Data <- 1, Nope <- 2")
    with pytest.raises(SpecError) as info:
        load_spec(root)
    assert info.value.message == "module Chan has no constant or variable 'Nope' to substitute"
    assert info.value.span == Span(str(root), 2, 36, 2, 45)


def test_unnamed_instance_brings_definitions_but_not_declarations(tmp_path):
    write(tmp_path, "Lib", "CONSTANT K\nHelper == K + 1", extends="Naturals")
    root = write(tmp_path, "Main", "INSTANCE Lib WITH K <- 3\nA == Helper\nB == K")
    with pytest.raises(SpecError) as info:
        load_spec(root)
    assert info.value.message == "undefined identifier 'K'"
    assert info.value.span == Span(str(root), 4, 6, 4, 7)


def test_local_definitions_are_not_exported(tmp_path):
    write(tmp_path, "Lib", "LOCAL Hidden == 1\nShown == Hidden")
    root = write(tmp_path, "Main", "A == Shown + Hidden", extends="Naturals, Lib")
    with pytest.raises(SpecError) as info:
        load_spec(root)
    assert info.value.message == "undefined identifier 'Hidden'"


def test_resolve_on_a_text_loader():
    mods = Loader().load_text(module("A == 1", extends="Naturals, Sequences"), "<t>")
    scopes = resolve(mods)
    assert set(scopes) == {"M", "Naturals", "Sequences"}
    assert scopes["M"].symbols["A"].arity == 0
