"""[x \\in S |-> e] over a constant S is built from S's keys put in TLC's order once: the values,
sequences for 1..n, the order the body is evaluated in, and TLC's errors stay those of the general
construction (each case was checked against it)."""
from __future__ import annotations

import pytest

from checker.api import check
from checker.frontend import load_spec
from checker.semantics.model import build
from checker.semantics.values import ModelValue, make_fn


def _value(tmp_path, expr: str):
    (tmp_path / "F.tla").write_text(
        "---- MODULE F ----\nEXTENDS Naturals\nCONSTANTS m1, m2\nVARIABLE y\n"
        f"Init == y = {expr}\nNext == UNCHANGED y\n====\n")
    (tmp_path / "F.cfg").write_text("CONSTANTS m1 = m1 m2 = m2\nINIT Init\nNEXT Next\n")
    return check(tmp_path / "F.tla", tmp_path / "F.cfg")


@pytest.mark.parametrize("expr, value", [
    ("[x \\in {3, 1, 2} |-> x * 2]", (2, 4, 6)),
    ("[x \\in {\"b\", \"a\"} |-> x]", make_fn([("a", "a"), ("b", "b")])),
    ("[x \\in {m1, m2} |-> x]",
     make_fn([(ModelValue("m1"), ModelValue("m1")), (ModelValue("m2"), ModelValue("m2"))])),
    ("[x \\in {<<1>>, <<0>>} |-> 1]", make_fn([((0,), 1), ((1,), 1)])),
])
def test_a_function_over_a_constant_domain(tmp_path, expr, value):
    o = _value(tmp_path, expr)
    assert o.verdict == "ok" and o.distinct_states == 1
    built = build(load_spec(tmp_path / "F.tla", tmp_path / "F.cfg"))
    (state,) = built.model.init()
    assert state[0] == value and type(state[0]) is type(value)


@pytest.mark.parametrize("expr, message", [
    ("[x \\in {1, \"a\"} |-> 0]", "Attempted to compare string \"a\" with non-string"),
    ("[x \\in {1, 2} |-> 10 \\div (x - 1)]", "The second argument of \\div is 0."),
])
def test_errors_in_a_function_over_a_constant_domain(tmp_path, expr, message):
    o = _value(tmp_path, expr)
    assert o.verdict == "error" and o.message.startswith(message)
