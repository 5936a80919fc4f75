"""Pure operators remember their results (checker/semantics/memo.py): each distinct
argument is evaluated once, and only the same TLA+ value, kind for kind, gets the
remembered result."""
from __future__ import annotations

import pytest

from checker.api import check
from checker.semantics import runtime
from checker.semantics.memo import _TRIAL, memoised
from checker.semantics.values import Fn, LazySet, same_kinds

# Each operator sees its argument only through ToString, so its value depends on the
# argument's kind: TRUE and 1, {TRUE} and {1}, a record and the pair of its keys and values
# are different TLA+ values that Python compares equal. TLC 2.18: no error, 4 states.
KINDS = """\
---- MODULE Kinds ----
EXTENDS Naturals, TLC
VARIABLE x
Shown(v, text) == \\E k \\in {1} : ToString(v) = text
Even == x % 2 = 0
Has(S, e) == \\E y \\in {e} : y \\in S
Init == x = 0
Next == x < 3 /\\ x' = x + 1
InvTuple == Shown(IF Even THEN <<TRUE>> ELSE <<1>>, "<<TRUE>>") = Even
InvSet == Shown(IF Even THEN {TRUE} ELSE {1}, "{TRUE}") = Even
InvRecord == Shown(IF Even THEN [a |-> 1, b |-> 2] ELSE <<<<"a", "b">>, <<1, 2>>>>,
                   "[a |-> 1, b |-> 2]") = Even
InvScalar == Shown(IF Even THEN TRUE ELSE 1, "TRUE") = Even
InvLazy == Has(SUBSET (1..40), {x + 1})
====
"""


@pytest.mark.parametrize("inv", ["InvTuple", "InvSet", "InvRecord", "InvScalar", "InvLazy"])
def test_a_remembered_result_is_given_only_to_the_same_value_kind_for_kind(tmp_path, inv):
    (tmp_path / "Kinds.tla").write_text(KINDS)
    (tmp_path / "Kinds.cfg").write_text(f"INIT Init\nNEXT Next\nINVARIANT {inv}\n")
    o = check(tmp_path / "Kinds.tla", tmp_path / "Kinds.cfg", deadlock=False)
    assert (o.verdict, o.distinct_states, o.states_generated, o.depth) == ("ok", 4, 4, 4)


RANK = """\
---- MODULE Rank ----
EXTENDS Naturals, FiniteSets
VARIABLES f, n
Rank(g, b) == Cardinality({c \\in DOMAIN g : g[c] < g[b]})
Init == f = [i \\in 1..3 |-> i % 2] /\\ n = 0
Next == n < 5 /\\ n' = n + 1 /\\ UNCHANGED f
Inv == \\A b \\in DOMAIN f : Rank(f, b) <= n + 3
====
"""


def test_a_pure_operator_is_evaluated_once_per_distinct_argument(tmp_path, monkeypatch):
    calls = []
    real = runtime.card
    monkeypatch.setattr(runtime, "card", lambda s: calls.append(s) or real(s))
    (tmp_path / "Rank.tla").write_text(RANK)
    (tmp_path / "Rank.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
    o = check(tmp_path / "Rank.tla", tmp_path / "Rank.cfg", deadlock=False)
    assert (o.verdict, o.distinct_states) == ("ok", 6)
    # Rank(f, 1), Rank(f, 2), Rank(f, 3): once each, not once per state (18 calls).
    assert len(calls) == 3


def _namespace(fn):
    g = {}
    g["op"] = memoised(fn, "op", g)
    return g


def test_an_evaluation_error_is_not_remembered():
    seen = []

    def fails(s, t, x):
        seen.append(x)
        raise runtime.EvalError("boom")

    g = _namespace(fails)
    for _ in range(2):
        with pytest.raises(runtime.EvalError):
            g["op"](None, None, 7)
    assert seen == [7, 7]


def test_an_operator_whose_calls_do_not_repeat_stops_being_remembered():
    def double(s, t, x):
        return 2 * x

    g = _namespace(double)
    for i in range(_TRIAL):
        assert g["op"](None, None, i) == 2 * i
    assert g["op"] is double


def test_an_operator_whose_calls_repeat_stays_remembered():
    g = _namespace(lambda s, t, x: 2 * x)
    wrapper = g["op"]
    for i in range(_TRIAL):
        g["op"](None, None, i % 10)
    assert g["op"] is wrapper


def test_a_lazy_set_argument_is_never_hashed():
    class Unhashable(LazySet):
        finite = True

        def __contains__(self, x):
            return x == 1

        def __hash__(self):
            raise AssertionError("hashed")

    g = _namespace(lambda s, t, S, x: x in S)
    assert g["op"](None, None, Unhashable(), 1) is True


@pytest.mark.parametrize("a, b, same", [
    ((1, 2), (1, 2), True),
    ((True,), (1,), False),
    (frozenset({True}), frozenset({1}), False),
    (Fn((("a", "b"), (1, 2))), (("a", "b"), (1, 2)), False),
    (frozenset({(1, True)}), frozenset({(1, 1)}), False),
    (frozenset({(1, 2), (3,)}), frozenset({(3,), (1, 2)}), True),
])
def test_strict_equality_tells_kinds_apart(a, b, same):
    assert a == b
    assert same_kinds(a, b) is same


# Pending(p) reads the state: remembered for the latest state only, kind for kind.
MAILBOX = """\
---- MODULE Mailbox ----
EXTENDS Naturals, FiniteSets, TLC
VARIABLES msgs, n
Pending(p) == {m \\in msgs : m.dst = p}
Tag(v) == ToString(<<v, {m \\in msgs : m.id > 0}>>)
Init == msgs = {} /\\ n = 0
Next == /\\ n < 4
        /\\ \\E p \\in {1, 2} : msgs' = msgs \\cup {[dst |-> p, id |-> n]}
        /\\ n' = n + 1
Inv == /\\ Cardinality(Pending(1)) + Cardinality(Pending(2)) = n
       /\\ \\A p \\in {1, 2} : Pending(p) = {m \\in msgs : m.dst = p}
       /\\ Tag(TRUE) # Tag(1)
====
"""


def test_a_state_reading_operator_answers_for_the_state_it_is_called_in(tmp_path, monkeypatch):
    made = []

    def recording(fn, name, g, per_state=False):
        if per_state:
            made.append(name)
        return memoised(fn, name, g, per_state)

    monkeypatch.setattr("checker.semantics.compile_defs.memoised", recording)
    (tmp_path / "Mailbox.tla").write_text(MAILBOX)
    (tmp_path / "Mailbox.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
    o = check(tmp_path / "Mailbox.tla", tmp_path / "Mailbox.cfg", deadlock=False)
    # TLC 2.18: 31 distinct states, 31 generated, depth 5
    assert (o.verdict, o.distinct_states, o.states_generated, o.depth) == ("ok", 31, 31, 5)
    assert any("Pending" in name for name in made)


def test_a_state_memo_starts_afresh_for_another_state_and_tells_kinds_apart():
    g = {}
    g["op"] = memoised(lambda s, t, x: (s[0], repr(x)), "op", g, per_state=True)
    s1, s2 = (1,), (2,)
    assert g["op"](s1, None, 1) == (1, "1")
    assert g["op"](s1, None, True) == (1, "True")
    assert g["op"](s2, None, 1) == (2, "1")
    assert g["op"](s1, None, 1) == (1, "1")
