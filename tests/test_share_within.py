"""share_within: a pure call an expression repeats is evaluated once where its first evaluation
surely happened before (A and B reads in B what A evaluated), per element inside a quantifier,
never across a short-circuit that may have skipped it, and never from a lambda that may run
after the element it belongs to has changed."""
from __future__ import annotations

from checker.semantics.share import share_within


def _run(body: str, namespace: dict, *args):
    """Compile `def f(s, t, v1_x): return body` through share_within and call it; return
    (result, the rewritten source)."""
    src = share_within(f"def f(s, t, v1_x):\n    return {body}  # @span:0\n", namespace)
    exec(compile(src, "<test>", "exec"), namespace)  # noqa: S102
    return namespace["f"](*args), src


def _counting():
    calls = []

    def app(f, x):
        calls.append((f, x))
        return f[x]

    return calls, {"app": app, "eq": lambda a, b: a == b}


def test_a_call_repeated_after_and_is_evaluated_once():
    calls, ns = _counting()
    result, src = _run("eq(app(s[0], v1_x), 1) and eq(app(s[0], v1_x), 1)", ns,
                       ({"a": 1},), None, "a")
    assert result is True and len(calls) == 1 and ":=" in src


def test_a_call_after_a_short_circuit_may_have_skipped_it_is_evaluated_again():
    calls, ns = _counting()
    result, src = _run("(eq(v1_x, 'b') or eq(app(s[0], v1_x), 1)) and eq(app(s[0], v1_x), 1)",
                       ns, ({"a": 1},), None, "a")
    assert result is True and len(calls) == 2
    calls.clear()  # x = "b": the first look-up was skipped, the second one must happen
    assert ns["f"](({"b": 1},), None, "b") is True and len(calls) == 1


def test_a_quantifier_body_reuses_per_element_values():
    calls, ns = _counting()
    ns["_k1"] = ("a", "b", "c")
    body = "all((eq(app(s[0], v2_y), 1) or eq(app(s[0], v2_y), 2)) for v2_y in _k1)"
    result, _ = _run(body, ns, ({"a": 1, "b": 2, "c": 3},), None, "a")
    assert result is False and [x for _, x in calls] == ["a", "b", "c"]
    body = "all(eq(app(s[0], v2_y), app(s[0], v2_y)) for v2_y in _k1)"
    calls.clear()
    result, _ = _run(body, ns, ({"a": 1, "b": 2, "c": 3},), None, "a")
    assert result is True and len(calls) == 3


def test_a_lambda_never_reads_a_value_of_one_element():
    calls, ns = _counting()
    ns["_k1"] = ("a", "b")
    ns["keep"] = lambda g: g  # a lambda may run after the element it was made for
    body = "[(eq(app(s[0], v2_y), 1), keep(lambda: app(s[0], v2_y))) for v2_y in _k1]"
    _, src = _run(body, ns, ({"a": 1, "b": 2},), None, "a")
    assert "keep(lambda: app(s[0], v2_y))" in src
    # a value of the whole call may be read anywhere
    body = "eq(app(s[0], v1_x), 1) and keep(lambda: app(s[0], v1_x))"
    calls.clear()
    result, src = _run(body, ns, ({"a": 1},), None, "a")
    assert result() == 1 and len(calls) == 1


def test_an_error_happens_at_the_first_evaluation_as_before():
    calls, ns = _counting()
    try:
        _run("eq(app(s[0], v1_x), 1) and eq(app(s[0], v1_x), 1)", ns, ({},), None, "a")
    except KeyError as e:
        assert e.args == ("a",) and len(calls) == 1
    else:
        raise AssertionError("no error")


def test_nothing_changes_without_a_dominated_repeat():
    src = ("def f(s, t):\n    return (eq(v1_x, 2) or eq(app(s[0], 1), 3)) and eq(app(s[0], 1), 4)"
           "\n")
    assert share_within(src, {}) == src
    # the left operand of `or` always runs: the right one may read what it evaluated
    src = "def f(s, t):\n    return eq(app(s[0], 1), 2) or eq(app(s[0], 1), 3)\n"
    assert "or eq(_d0, 3)" in share_within(src, {})


def test_a_lambda_with_a_state_of_its_own_reads_nothing_from_outside():
    src = ("def f(s, t):\n    return eq(app(s[2], 1), 0) and "
           "(lambda s, t, v1_x: app(s[2], 1))(s, t, 3)\n")
    assert share_within(src, {}) == src
