"""A process that checks specs many times (the tests, sweeps, mutation testing) parses each text
once and rewrites and compiles each generated function once. What is remembered must depend on
everything the result depends on: the text and file for a parse, the values (kind for kind) of the
constants a function mentions for a rewrite."""
from __future__ import annotations

from pathlib import Path

from checker.api import check
from checker.frontend.parser import parse_module
from checker.semantics.share import share_within

SRC = "def f(s, t):\n    return eq(app(s[0], _k1), 0) and eq(app(s[0], _k2), 0)\n"
SHARED = "def f(s, t):\n    return (_d1 := eq(app(s[0], _k1), 0)) and _d1\n"


def test_a_rewrite_is_remembered_by_the_constants_values_kind_for_kind():
    # equal constants under two names are one expression; 1 and TRUE are not equal TLA+ values
    assert share_within(SRC, {"_k1": 1, "_k2": 1}) == SHARED
    assert share_within(SRC, {"_k1": 1, "_k2": 2}) == SRC
    assert share_within(SRC, {"_k1": 1, "_k2": True}) == SRC
    assert share_within(SRC, {"_k1": True, "_k2": True}) == SHARED


def test_a_parse_is_remembered_by_text_and_file():
    text = "---- MODULE M ----\nVARIABLE x\n====\n"
    a, b = parse_module(text, "a.tla"), parse_module(text, "b.tla")
    assert parse_module(text, "a.tla") is a
    assert a.span.file == "a.tla" and b.span.file == "b.tla"


SPEC = """---- MODULE Memo ----
EXTENDS Naturals
CONSTANT A, B
VARIABLE f
Init == f = [k \\in {A, B} |-> 0]
Next == \\E k \\in {A, B} : f[k] < 2 /\\ f' = [f EXCEPT ![k] = f[k] + 1]
Both == f[A] = 0 => f[B] = 0
====
"""


def test_the_same_spec_under_two_configurations_checks_each_as_its_own(tmp_path: Path):
    """One text, two configurations checked in turn: each gets its own answer, first time and
    from what was remembered. With A = B the spec has 3 states and Both holds; with A # B Both
    fails (f[B] grows alone)."""
    spec = tmp_path / "Memo.tla"
    spec.write_text(SPEC)
    same, apart = tmp_path / "Same.cfg", tmp_path / "Apart.cfg"
    rest = "INIT Init\nNEXT Next\nINVARIANT Both\nCHECK_DEADLOCK FALSE\n"
    same.write_text("CONSTANTS A = a B = a\n" + rest)
    apart.write_text("CONSTANTS A = a B = b\n" + rest)
    for _ in range(2):  # twice each, alternating: every second check finds its work remembered
        o = check(spec, same)
        assert (o.verdict, o.distinct_states) == ("ok", 3)
        o = check(spec, apart)
        assert (o.verdict, o.property, o.trace_length) == ("invariant", "Both", 2)


def test_a_worker_handed_its_parents_record_builds_the_model_without_compiling(tmp_path: Path,
                                                                            monkeypatch):
    """What the parent's build parsed and compiled travels to the worker processes
    (remembered.export, install): their build of the same model parses nothing and compiles
    nothing, and the model they build finds the parent's answer."""
    from checker.frontend import load_spec, remembered
    from checker.frontend import parser as parser_module
    from checker.semantics import compiler as compiler_module
    from checker.semantics import model as model_builder

    spec = tmp_path / "Memo.tla"
    spec.write_text(SPEC)
    cfg = tmp_path / "Apart.cfg"
    cfg.write_text("CONSTANTS A = a B = b\nINIT Init\nNEXT Next\nINVARIANT Both\n")
    with remembered.record() as used:
        model_builder.build(load_spec(spec, cfg), None, None)
    blob = remembered.export(used)
    for memo in remembered._ALL.values():  # a fresh process
        memo.items.clear()
    remembered.install(blob)

    def refuse(*args):
        raise AssertionError("compiled or parsed again")
    monkeypatch.setattr(compiler_module, "compile", refuse, raising=False)
    monkeypatch.setattr(parser_module, "_parse_text", refuse)
    built = model_builder.build(load_spec(spec, cfg), None, None)
    assert [name for name, _ in built.model.invariants] == ["Both"]
    o = check(spec, cfg, workers=2)
    assert (o.verdict, o.property, o.trace_length) == ("invariant", "Both", 2)
