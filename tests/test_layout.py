"""TLA+'s layout rule for bulleted /\\ and \\/ lists: lists nest and end by column.

Each case is written as `E == <text>`, so `E == ` puts the first bullet in column 6.
"""

from __future__ import annotations

import pytest
from frontend_helpers import TRUE, And, Bnd, Def, I, N, Op, Or, expr, mk, unit, units

from checker.frontend import ast
from checker.frontend.errors import SpecError


def body(*lines: str):
    """The body of the definition written as `lines` (raw strings, so columns line up)."""
    return unit("\n".join(lines)).body


def test_a_single_list():
    assert expr("/\\ a\n     /\\ b\n     /\\ c") == And(I("a"), I("b"), I("c"), col=6)


def test_a_single_item_list():
    assert expr("\\/ a") == Or(I("a"), col=6)


def test_nested_and_inside_or():
    text = ("\\/ /\\ a\n"
            "        /\\ b\n"
            "     \\/ c")
    assert expr(text) == Or(And(I("a"), I("b"), col=9), I("c"), col=6)


def test_nested_or_inside_and_three_levels():
    text = ("/\\ a\n"
            "     /\\ \\/ b\n"
            "        \\/ /\\ c\n"
            "           /\\ d\n"
            "     /\\ e")
    assert expr(text) == And(
        I("a"), Or(I("b"), And(I("c"), I("d"), col=12), col=9), I("e"), col=6)


def test_a_bullet_at_a_smaller_column_closes_inner_lists():
    text = ("/\\ \\/ a\n"
            "        \\/ b\n"
            "     /\\ c")
    assert expr(text) == And(Or(I("a"), I("b"), col=9), I("c"), col=6)


def test_a_bullet_left_of_every_list_closes_them_all_and_is_infix():
    text = ("/\\ \\/ a\n"
            "        \\/ b\n"
            "   \\/ c")
    assert expr(text) == Op("\\lor", And(Or(I("a"), I("b"), col=9), col=6), I("c"))


def test_misaligned_bullet_is_infix_inside_the_outer_item():
    # The second /\ is left of the inner list (col 9) but right of the outer one (col 6):
    # it closes the inner list and conjoins inside the outer item.
    text = ("\\/ /\\ a\n"
            "       /\\ b\n"
            "    \\/ c")
    assert expr(text) == Op("\\lor", Or(Op("\\land", And(I("a"), col=9), I("b")), col=6),
                            I("c"))


def test_or_at_the_column_of_an_and_list_ends_it_and_is_infix():
    assert expr("/\\ a\n     /\\ b\n     \\/ c") == Op(
        "\\lor", And(I("a"), I("b"), col=6), I("c"))


def test_and_at_the_column_of_an_or_list_ends_it_and_is_infix():
    assert expr("\\/ a\n     /\\ b") == Op("\\land", Or(I("a"), col=6), I("b"))


def test_a_bullet_right_of_the_column_is_part_of_the_item():
    assert expr("/\\ a\n      /\\ b") == And(Op("\\land", I("a"), I("b")), col=6)


def test_an_item_continues_over_several_lines():
    text = ("/\\ x' = a +\n"
            "          b +\n"
            "        c\n"
            "     /\\ y")
    assert expr(text) == And(
        Op("=", Op("'", I("x")), Op("+", Op("+", I("a"), I("b")), I("c"))), I("y"), col=6)


def test_a_non_bullet_token_at_the_column_ends_the_list():
    assert expr("/\\ a\n     = b") == Op("=", And(I("a"), col=6), I("b"))
    assert expr("/\\ a\n     + b") == Op("+", And(I("a"), col=6), I("b"))


def test_the_next_definition_in_column_one_ends_the_list():
    assert units("A ==\n  /\\ a\n  /\\ b\nB == 2") == (
        Def("A", And(I("a"), I("b"), col=3)), Def("B", N(2)))


def test_list_in_parentheses_closed_by_paren_on_the_same_line():
    text = ("(/\\ a\n"
            "      /\\ b) \\/ c")
    assert expr(text) == Op("\\lor", And(I("a"), I("b"), col=7), I("c"))


def test_nested_lists_in_parentheses_all_closed_by_one_paren():
    text = ("(/\\ \\/ a\n"
            "         \\/ b) /\\ c")
    assert expr(text) == Op("\\land", And(Or(I("a"), I("b"), col=10), col=7), I("c"))


def test_list_in_if_condition_closed_by_then():
    text = ("IF /\\ a\n"
            "        /\\ b THEN 1 ELSE 2")
    assert expr(text) == mk(ast.If, And(I("a"), I("b"), col=9), N(1), N(2))


def test_lists_in_then_and_else_branches():
    text = ("IF c THEN /\\ a\n"
            "               /\\ b\n"
            "          ELSE \\/ a\n"
            "               \\/ b")
    assert expr(text) == mk(ast.If, I("c"), And(I("a"), I("b"), col=16),
                            Or(I("a"), I("b"), col=16))


def test_if_inside_a_list_item():
    text = ("/\\ IF a\n"
            "        THEN 1\n"
            "        ELSE 2\n"
            "     /\\ c")
    assert expr(text) == And(mk(ast.If, I("a"), N(1), N(2)), I("c"), col=6)


def test_lists_in_case_arms_closed_by_arrow_and_box():
    text = ("CASE /\\ a\n"
            "          /\\ b -> 1\n"
            "       [] \\/ c\n"
            "          \\/ d -> 2")
    assert expr(text) == mk(ast.Case, ((And(I("a"), I("b"), col=11), N(1)),
                                       (Or(I("c"), I("d"), col=11), N(2))), None)


def test_list_in_case_value_closed_by_box_on_the_same_line():
    assert body(r"E == CASE x -> /\ a",
                r"               /\ b [] y -> 2") == mk(
        ast.Case, ((I("x"), And(I("a"), I("b"), col=16)), (I("y"), N(2))), None)


def test_list_in_case_value_closed_by_box_on_the_next_line():
    assert body(r"E == CASE x -> /\ a",
                r"               /\ b",
                r"       [] OTHER -> 2") == mk(
        ast.Case, ((I("x"), And(I("a"), I("b"), col=16)),), N(2))


def test_case_inside_a_list_item():
    text = ("/\\ x = 1\n"
            "     /\\ CASE a -> 1\n"
            "          [] b -> 2\n"
            "     /\\ y = 2")
    assert expr(text) == And(
        Op("=", I("x"), N(1)),
        mk(ast.Case, ((I("a"), N(1)), (I("b"), N(2))), None),
        Op("=", I("y"), N(2)), col=6)


def test_list_in_let_definition_closed_by_in():
    text = ("LET B == /\\ a\n"
            "              /\\ b IN B")
    assert expr(text) == mk(ast.Let, (Def("B", And(I("a"), I("b"), col=15)),), I("B"))


def test_lists_in_two_let_definitions():
    assert body(r"E == LET B == /\ a",
                r"              /\ b",
                r"         C == \/ a",
                r"              \/ b",
                r"     IN B /\ C") == mk(
        ast.Let, (Def("B", And(I("a"), I("b"), col=15)), Def("C", Or(I("a"), I("b"), col=15))),
        Op("\\land", I("B"), I("C")))


@pytest.mark.parametrize("lines, col, build", [
    ((r"E == F(/\ a",
      r"       /\ b, c)"), 8, lambda j: Op("F", j, I("c"))),
    ((r"E == {/\ a",
      r"      /\ b, c}"), 7, lambda j: mk(ast.SetEnum, (j, I("c")))),
    ((r"E == << /\ a",
      r"        /\ b, c >>"), 9, lambda j: mk(ast.Tuple, (j, I("c")))),
    ((r"E == f[/\ a",
      r"       /\ b, c]"), 8, lambda j: mk(ast.FuncApp, I("f"), (j, I("c")))),
    ((r"E == [x \in S |-> /\ a",
      r"                  /\ b]"), 19, lambda j: mk(ast.FuncCons, (Bnd("x", I("S")),), j)),
    ((r"E == [r EXCEPT !.f = /\ a",
      r"                     /\ b, !.g = c]"), 22,
     lambda j: mk(ast.Except, I("r"), (mk(ast.ExceptUpdate, (("field", "f"),), j),
                                       mk(ast.ExceptUpdate, (("field", "g"),), I("c"))))),
])
def test_lists_in_arguments_closed_by_comma_or_bracket(lines, col, build):
    assert body(*lines) == build(And(I("a"), I("b"), col=col))


def test_list_in_except_index_closed_by_bracket():
    text = ("[f EXCEPT ![/\\ a\n"
            "                 /\\ b] = 1]")
    assert expr(text) == mk(ast.Except, I("f"), (mk(ast.ExceptUpdate, (
        ("index", (And(I("a"), I("b"), col=18),)),), N(1)),))


def test_quantifier_bound_list_inside_a_list_item():
    # The comma between the bound names must not close the list.
    text = ("/\\ \\A a, b \\in S : a = b\n"
            "     /\\ \\E x, y \\in S, z \\in T : x\n"
            "     /\\ c")
    assert expr(text) == And(
        mk(ast.Quant, "A", (Bnd("a b", I("S")),), Op("=", I("a"), I("b"))),
        mk(ast.Quant, "E", (Bnd("x y", I("S")), Bnd("z", I("T"))), I("x")),
        I("c"), col=6)


def test_choose_and_set_forms_inside_list_items():
    text = ("/\\ x = CHOOSE v \\in S : v > 0\n"
            "     /\\ y = {v \\in S : v > 0}\n"
            "     /\\ z = [v \\in S, w \\in T |-> v]")
    assert expr(text) == And(
        Op("=", I("x"), mk(ast.Choose, Bnd("v", I("S")), Op(">", I("v"), N(0)))),
        Op("=", I("y"), mk(ast.SetFilter, Bnd("v", I("S")), Op(">", I("v"), N(0)))),
        Op("=", I("z"), mk(ast.FuncCons, (Bnd("v", I("S")), Bnd("w", I("T"))), I("v"))),
        col=6)


def test_quantifier_body_list_nested_in_an_item():
    text = ("/\\ a\n"
            "     /\\ \\E x \\in S :\n"
            "          /\\ x\n"
            "          /\\ b\n"
            "     /\\ c")
    assert expr(text) == And(
        I("a"),
        mk(ast.Quant, "E", (Bnd("x", I("S")),), And(I("x"), I("b"), col=11)),
        I("c"), col=6)


def test_infix_conjunction_after_an_expression_is_not_a_bullet():
    assert expr("a /\\ b") == Op("\\land", I("a"), I("b"))
    assert expr("a /\\ \\/ b") == Op("\\land", I("a"), Or(I("b"), col=11))


def test_bullet_list_as_operator_argument_over_lines():
    text = ("F(\n"
            "     /\\ a\n"
            "     /\\ b\n"
            "   )")
    assert expr(text) == Op("F", And(I("a"), I("b"), col=6))


def test_lists_end_before_a_theorem_and_its_proof():
    text = ("A == /\\ TRUE\n"
            "     /\\ TRUE\n"
            "THEOREM A\n"
            "  <1>1. /\\ TRUE\n"
            "        /\\ TRUE\n"
            "  <1> QED\n"
            "B == /\\ TRUE")
    assert units(text) == (Def("A", And(TRUE, TRUE, col=6)), mk(ast.Theorem, None, I("A")),
                           Def("B", And(TRUE, col=6)))


def test_a_token_left_of_the_column_inside_parentheses_is_an_error():
    with pytest.raises(SpecError) as info:
        expr("/\\ (a\n   + b)")
    err = info.value
    assert err.message == "unexpected 'end of a bulleted list'; expected ')'"
    assert (err.span.line, err.span.col) == (4, 4)
