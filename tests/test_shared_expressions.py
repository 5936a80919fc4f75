"""Repeated state expressions in the expand function are evaluated once per state
(checker/semantics/share.py), with the same results and the same errors at the same place."""
from __future__ import annotations

import textwrap

from checker.api import check
from checker.frontend import load_spec
from checker.semantics import model as model_builder
from checker.semantics.share import share_repeated

SPEC = """\
---- MODULE Sh ----
EXTENDS Naturals
CONSTANT RM
VARIABLES st, rm, msgs
Init == st = "init" /\\ rm = [r \\in RM |-> "working"] /\\ msgs = {}
Commit == st = "init" /\\ st' = "done" /\\ UNCHANGED <<rm, msgs>>
Abort == st = "init" /\\ st' = "aborted" /\\ UNCHANGED <<rm, msgs>>
Prepare(r) == rm[r] = "working" /\\ rm' = [rm EXCEPT ![r] = "prepared"] /\\ msgs' = msgs \\cup {r}
              /\\ UNCHANGED st
Quit(r) == rm[r] = "working" /\\ rm' = [rm EXCEPT ![r] = "quit"] /\\ UNCHANGED <<st, msgs>>
Next == Commit \\/ Abort \\/ \\E r \\in RM : Prepare(r) \\/ Quit(r)
====
"""


def build(tmp_path, text: str, cfg: str):
    (tmp_path / "M.tla").write_text(text.replace("MODULE Sh", "MODULE M").replace(
        "MODULE Bad", "MODULE M"))
    (tmp_path / "M.cfg").write_text(cfg)
    loaded = load_spec(str(tmp_path / "M.tla"), str(tmp_path / "M.cfg"), ())
    return model_builder.build(loaded, None, False).model


def test_a_guard_shared_by_actions_is_evaluated_once_per_state(tmp_path):
    model = build(tmp_path, SPEC, "CONSTANT RM = {r1, r2}\nINIT Init\nNEXT Next\n")
    g = model.expand.__globals__
    calls: list = []
    real_eq, real_app = g["eq"], g["app"]
    g["eq"] = lambda a, b: calls.append(("eq", a, b)) or real_eq(a, b)
    g["app"] = lambda f, x: calls.append(("app", x)) or real_app(f, x)
    try:
        out: list = []
        (init,) = model.init()
        model.expand(init, out.append)
    finally:
        g["eq"], g["app"] = real_eq, real_app
    # st = "init" once for Commit and Abort; rm[r] once per r for Prepare(r) and Quit(r).
    assert sorted(str(c[1]) for c in calls if c[0] == "eq" and c[2] == "init") == ["init"]
    assert sorted(str(c[1]) for c in calls if c[0] == "app") == ["r1", "r2"]
    assert len([x for x in out if type(x) is not int]) == 6


def test_sharing_keeps_the_state_counts(tmp_path):
    (tmp_path / "Sh.tla").write_text(SPEC)
    (tmp_path / "Sh.cfg").write_text("CONSTANT RM = {r1, r2, r3}\nINIT Init\nNEXT Next\n")
    o = check(tmp_path / "Sh.tla", tmp_path / "Sh.cfg", deadlock=False)
    assert (o.verdict, o.distinct_states, o.states_generated, o.depth) == ("ok", 81, 217, 5)


def test_an_error_in_a_shared_guard_is_reported_in_the_first_action_that_evaluates_it(tmp_path):
    spec = textwrap.dedent("""\
        ---- MODULE Bad ----
        EXTENDS Naturals
        VARIABLE x
        Init == x = 0
        A == x[1] = 0 /\\ x' = 1
        B == x[1] = 0 /\\ x' = 2
        Next == B \\/ A
        ====
        """)
    (tmp_path / "Bad.tla").write_text(spec)
    (tmp_path / "Bad.cfg").write_text("INIT Init\nNEXT Next\n")
    o = check(tmp_path / "Bad.tla", tmp_path / "Bad.cfg")
    assert o.verdict == "error"
    assert o.message.endswith("The error occurred in action B.")
    assert (o.span.line, o.span.col) == (6, 6)


def test_only_pure_expressions_of_the_state_outside_nested_scopes_are_shared():
    src = textwrap.dedent("""\
        def _expand_(s, _out):
            t = None
            if eq(s[1], _k1):  # @span:0
                _out(0)
            if eq(s[1], _k2):  # @span:1
                _out(1)
            if op3_User(s, t) and op3_User(s, t):
                _out(2)
            v = [app(s[0], x) for x in each(_k1)] + [app(s[0], x) for x in each(_k1)]
            w = _Lazy(lambda: app(s[0], _k1)) or _Lazy(lambda: app(s[0], _k1))
            if eq(s[1], _k3) or eq(s[1], _k3):
                _out(3)
        """)
    out = share_repeated(src, {"_k1": "a", "_k2": "a", "_k3": 1})
    lines = out.split("\n")
    assert lines[1] == "    _c0 = _c1 = None"
    # _k1 and _k2 hold equal values: one expression.
    assert lines[3] == "    if (_c0 if _c0 is not None else (_c0 := eq(s[1], _k1))):  # @span:0"
    assert lines[5] == "    if (_c0 if _c0 is not None else (_c0 := eq(s[1], _k2))):  # @span:1"
    assert "op3_User(s, t) and op3_User(s, t)" in out  # a user operator may read TLCGet
    assert "[app(s[0], x) for x in each(_k1)]" in out
    assert "_Lazy(lambda: app(s[0], _k1)) or _Lazy(lambda: app(s[0], _k1))" in out
    assert "(_c1 := eq(s[1], _k3))" in out


def test_equal_python_values_of_other_tla_kinds_are_not_merged():
    src = textwrap.dedent("""\
        def _expand_(s, _out):
            t = None
            if eq(s[1], _k1):
                _out(0)
            if eq(s[1], _k2):
                _out(1)
        """)
    assert share_repeated(src, {"_k1": 1, "_k2": True}) == src
