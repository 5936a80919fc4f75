"""Recursive set folds compile to loops (checker/semantics/compile_folds.py) with the recursion's
values and first error, and functions of many keys are looked up through an index of their
keys (runtime.key_position). Figures and messages checked against TLC 2.18."""
from __future__ import annotations

from checker.api import check, generated_code
from checker.semantics.runtime import key_position

FOLDS = """\
---- MODULE Folds ----
EXTENDS Naturals, Sequences
VARIABLE x
RECURSIVE Sum(_, _), SeqOf(_), Rev(_), Back(_, _), AllTrue(_)
Sum(f, S) == IF S = {} THEN 0 ELSE LET y == CHOOSE y \\in S : TRUE IN f[y] + Sum(f, S \\ {y})
Back(f, S) == IF {} = S THEN 0 ELSE LET y == CHOOSE y \\in S : TRUE IN Back(f, S \\ {y}) + f[y]
SeqOf(S) == IF S = {} THEN <<>> ELSE LET e == CHOOSE e \\in S : TRUE IN <<e>> \\o SeqOf(S \\ {e})
Rev(S) == IF S = {} THEN <<>> ELSE LET e == CHOOSE e \\in S : TRUE IN Rev(S \\ {e}) \\o <<e>>
AllTrue(S) == IF S = {} THEN TRUE ELSE LET e == CHOOSE e \\in S : TRUE IN e /\\ AllTrue(S \\ {e})
Sq == [i \\in 1..100 |-> i]
Init == x = 0
Next == x < 3 /\\ x' = x + 1
Inv == /\\ Sum([i \\in 1..4 |-> i * x], {3, 1, 4, 2}) = 10 * x
       /\\ Sum([i \\in 1..4 |-> i * x], 1..4) = 10 * x
       /\\ Back([i \\in 1..4 |-> i + x], {2, 4}) = 6 + 2 * x
       /\\ SeqOf({3, x + 5, 1}) = <<1, 3, x + 5>>
       /\\ Rev({3, x + 5, 1}) = <<x + 5, 3, 1>>
       /\\ Sum(Sq, {i : i \\in 1..100}) = 5050
       /\\ Sum([i \\in 1..4 |-> i], {}) = 0
       /\\ AllTrue({x < 5, TRUE})
BadForward == Sum([i \\in {1, 2} |-> i], {4, x + 3, 1}) > 0
BadBack == Back([i \\in {1, 2} |-> i], {4, x + 3, 1}) > 0
BadKind == Sum([i \\in 1..3 |-> IF i = 2 THEN TRUE ELSE i], {3, 1, 2}) > 0
====
"""


def _check(tmp_path, inv: str):
    (tmp_path / "Folds.tla").write_text(FOLDS)
    (tmp_path / "Folds.cfg").write_text(f"INIT Init\nNEXT Next\nINVARIANT {inv}\n"
                                         "CHECK_DEADLOCK FALSE\n")
    return check(tmp_path / "Folds.tla", tmp_path / "Folds.cfg")


def test_folds_give_the_recursions_values_in_tlcs_order(tmp_path):
    o = _check(tmp_path, "Inv")
    assert (o.verdict, o.distinct_states, o.states_generated, o.depth) == ("ok", 4, 4, 4)


def test_the_idiom_compiles_to_a_loop_and_other_recursions_stay_calls(tmp_path):
    _check(tmp_path, "Inv")
    code = dict(generated_code(tmp_path / "Folds.tla", tmp_path / "Folds.cfg"))
    sources = {name.split("_", 1)[1]: src for name, src in code.items() if name.startswith("op")}
    for name in ("Sum", "Back", "SeqOf", "Rev"):
        assert "ordered(" in sources[name] and "for " in sources[name], name
    # /\ does not evaluate its right operand after FALSE: not a fold
    assert "ordered(" not in sources["AllTrue"]


def test_the_first_error_is_the_recursions(tmp_path):
    # TLC reports f[3] going forward (part before the call) and f[4] going back (the call
    # first, so the greatest element's part is evaluated first).
    o = _check(tmp_path, "BadForward")
    assert (o.exit_code, o.message.splitlines()[:3]) == (
        75, ["Attempted to apply tuple", "<<1, 2>>", "to 3, which is out of domain."])
    assert (o.span.line, o.span.col) == (5, 70)
    o = _check(tmp_path, "BadBack")
    assert o.message.splitlines()[2] == "to 4, which is out of domain."
    assert (o.span.line, o.span.col) == (6, 90)
    # a part that is not an integer: the sum is not taken in any order, the recursion's
    # order meets TRUE when it adds f[2] to f[3] + 0 (TLC: an evaluation error too)
    o = _check(tmp_path, "BadKind")
    assert (o.exit_code, o.message.splitlines()[:2]) == (
        75, ["The first argument of + should be an integer, but instead it is:", "TRUE"])


GRID = """\
---- MODULE Grid ----
EXTENDS Naturals
VARIABLE g
Pos == (1..3) \\X (1..3)
Init == g = [p \\in Pos |-> p[1] * 10 + p[2]]
Next == \\E p \\in Pos : g[p] < 30 /\\ g' = [g EXCEPT ![p] = @ + 25]
Inv == /\\ \\A p \\in Pos : g[p] % 5 = (p[1] * 10 + p[2]) % 5
       /\\ g[<<3, 3>>] = 33
====
"""


def test_functions_of_many_keys_are_applied_and_updated_by_key(tmp_path):
    (tmp_path / "Grid.tla").write_text(GRID)
    (tmp_path / "Grid.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n"
                                        "CHECK_DEADLOCK FALSE\n")
    o = check(tmp_path / "Grid.tla", tmp_path / "Grid.cfg")
    # TLC 2.18: 64 distinct states, 193 generated, depth 7
    assert (o.verdict, o.distinct_states, o.states_generated, o.depth) == ("ok", 64, 193, 7)


def test_key_position_finds_the_first_equal_key_and_never_merges_kinds():
    keys = tuple(range(20))
    assert [key_position(keys, k) for k in (0, 7, 19, 20)] * 3 == [0, 7, 19, None] * 3
    mixed = (True,) + tuple(range(1, 20))  # TRUE and 1 are equal in Python: no index
    for _ in range(3):
        assert key_position(mixed, 1) == 0 and key_position(mixed, 5) == 5
