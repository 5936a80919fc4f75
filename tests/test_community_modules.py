"""The CommunityModules (and TLC's TLCExt) that kipcheck ships beyond Folds, FiniteSetsExt,
Functions and SequencesExt: each operator's value. Where TLC 2.18 can evaluate the module's own
definitions (Bitwise, DyadicRationals, BagsExt's bag operators) the expected values are what it
printed with the modules' .tla files on its path; where TLC relies on its Java overrides (the
graph operators, FoldBag, IOUtils, Json, SVG, TLCExt) they are what those overrides compute.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from checker.api import check

MODULES = ("TLC, Naturals, Sequences, Bags, Bitwise, DyadicRationals, Graphs, BagsExt, IOUtils, "
           "Json, SVG, TLCExt")
PATH3 = "[node |-> 1 .. 3, edge |-> {{1, 2}, {2, 3}}]"
DPATH3 = "[node |-> 1 .. 3, edge |-> {<<1, 2>>, <<2, 3>>}]"

# (expression, the value TLC gives it)
CASES = [
    # Bitwise
    ("<<6 & 3, 6 | 3, 6 ^^ 3, Not(5), shiftR(13, 2)>>", "<<2, 7, 5, 2, 3>>"),
    ("<<0 & 5, Not(0), 12 ^^ 12, 1 | 0>>", "<<0, 0, 0, 1>>"),
    # DyadicRationals
    ("<<Half(One), Add(Half(One), Half(Half(One))), Add(Half(One), Half(One))>>",
     "<<[num |-> 1, den |-> 2], [num |-> 3, den |-> 4], [num |-> 1, den |-> 1]>>"),
    ("<<PrettyPrint(Half(One)), PrettyPrint(Zero), IsDyadicRational([num |-> 1, den |-> 3]), "
     "Add(Zero, One)>>", "<<\"1/2\", \"0\", FALSE, [num |-> 1, den |-> 1]>>"),
    # Graphs (directed)
    (f"SimplePath({DPATH3})", "{<<1>>, <<2>>, <<3>>, <<1, 2>>, <<2, 3>>, <<1, 2, 3>>}"),
    (f"<<AreConnectedIn(1, 3, {DPATH3}), AreConnectedIn(3, 1, {DPATH3}), "
     f"AreConnectedIn(4, 4, {DPATH3}), IsStronglyConnected({DPATH3})>>",
     "<<TRUE, FALSE, FALSE, FALSE>>"),
    ("IsStronglyConnected([node |-> {1, 2}, edge |-> {<<1, 2>>, <<2, 1>>}])", "TRUE"),
    (f"<<Successors({DPATH3}, 2), Predecessors({DPATH3}, 2), Roots({DPATH3}), "
     f"Leaves({DPATH3}), Transpose({DPATH3}).edge>>",
     "<<{3}, {1}, {1}, {3}, {<<2, 1>>, <<3, 2>>}>>"),
    (f"<<IsDag({DPATH3}), Ancestors({DPATH3}, 3), Descendants({DPATH3}, 1), "
     f"IsTreeWithRoot({DPATH3}, 3)>>", "<<TRUE, {1, 2}, {2, 3}, TRUE>>"),
    # Bags: SubBag enumerated (TLC's Java override; the textbook definition ranges over Nat)
    ("SubBag((1 :> 2 @@ 2 :> 1))", "{<<>>, <<1>>, <<2>>, (2 :> 1), <<1, 1>>, <<2, 1>>}"),
    ("<<SubBag(<<>>), SetToBag({1}) \\in SubBag(SetToBag({1, 2})), (1 :> 3) \\in SubBag(1 :> 2)>>",
     "<<{<<>>}, TRUE, FALSE>>"),
    # BagsExt
    ("<<BagAdd(SetToBag({1}), 1), BagRemove(SetToBag({1, 2}), 1), "
     "BagRemoveAll((1 :> 2 @@ 5 :> 1), 1), SumBag((1 :> 2 @@ 5 :> 1))>>",
     "<<<<2>>, (2 :> 1), (5 :> 1), 7>>"),
    ("FoldBag(LAMBDA a, b : <<a, b>>, 0, (1 :> 2 @@ 5 :> 1))", "<<<<<<0, 1>>, 1>>, 5>>"),
    ("ProductBag((2 :> 3 @@ 3 :> 1))", "24"),
    # IOUtils
    ("<<atoi(\"-17\"), atoi(\"+5\"), zeroPadN(7, 3), zeroPadN(1234, 2)>>",
     "<<-17, 5, \"007\", \"1234\">>"),
    ("IOEnv.KIPCHECK_TEST_VAR", "\"forty-two\""),
    # Json
    ("ToJson([a |-> <<1, \"x\">>, b |-> {TRUE}])",
     "\"{\\\"a\\\":[1,\\\"x\\\"],\\\"b\\\":[true]}\""),
    ("<<ToJsonArray(<<1, 2>>), ToJsonObject(<<7>>), ToJson((2 :> 3))>>",
     "<<\"[1,2]\", \"{\\\"0\\\":7}\", \"{\\\"2\\\":3}\">>"),
    # SVG
    ("SVGElemToString(Group(<<SVGElem(\"circle\", [r |-> \"3\"], <<>>, \"\")>>, "
     "[stroke_width |-> \"2\"]))", "\"<g stroke-width='2'><circle r='3'></circle></g>\""),
    ("Circle(1, 2, 3, [fill |-> \"red\"]).attrs", "[cx |-> \"1\", cy |-> \"2\", r |-> \"3\", "
     "fill |-> \"red\"]"),
    ("SVGElemToString(SVGElem(\"text\", <<>>, <<>>, \"<<1>>\"))",
     "\"<text>&lt;&lt;1&gt;&gt;</text>\""),
    ("PointOnLine([x |-> 0, y |-> 0], [x |-> 10, y |-> 20], 2)", "[x |-> 5, y |-> 10]"),
    # TLCExt
    ("<<AssertEq(1, 1), TLCNoOp(3), TLCCache(4, {}), TLCDefer(TRUE), PickSuccessor(TRUE)>>",
     "<<TRUE, 3, 4, TRUE, TRUE>>"),
    ("<<AssertError(\"Attempted to apply tuple\\n<<1>>\\nto 2, which is out of domain.\", "
     "<<1>>[2]), AssertError(\"x\", 1), AssertError(\"y\", <<1>>[2])>>", "<<TRUE, FALSE, FALSE>>"),
    ("<<TLCModelValue(\"mv\") = TLCModelValue(\"mv\"), "
     "TLCModelValue(\"a\") # TLCModelValue(\"b\")>>",
     "<<TRUE, TRUE>>"),
    ("<<TLCGetOrDefault(\"nothing\", 5), TLCGetAndSet(7, LAMBDA a, b : a + b, 2, 10), "
     "TLCGet(7)>>", "<<5, 10, 12>>"),
]


def _spec(tmp_path: Path, body: str, extends: str = MODULES) -> Path:
    (tmp_path / "M.tla").write_text(
        f"---- MODULE M ----\nEXTENDS {extends}\nVARIABLE x\nInit == x = 0\n"
        f"Next == UNCHANGED x\n{body}\n====\n")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\n")
    return tmp_path / "M.tla"


@pytest.mark.parametrize("expr, want", CASES, ids=[c[0][:40] for c in CASES])
def test_community_operator_gives_tlcs_value(tmp_path, monkeypatch, expr, want):
    monkeypatch.setenv("KIPCHECK_TEST_VAR", "forty-two")
    out = check(_spec(tmp_path, f"ASSUME ({expr}) = ({want})"))
    assert out.verdict == "ok", out.message
    assert (out.distinct_states, out.states_generated) == (1, 2)


def test_undirected_graphs(tmp_path):
    """UndirectedGraphs, on its own (its operators share names with Graphs')."""
    g = "[node |-> 1 .. 4, edge |-> {{1, 2}, {3}}]"
    cases = [
        (f"ConnectedComponents({g})", "{{3}, {4}, {1, 2}}"),
        (f"<<IsUndirectedGraph({g}), IsLoopFreeUndirectedGraph({g}), IsStronglyConnected({g})>>",
         "<<TRUE, FALSE, FALSE>>"),
        (f"IsStronglyConnected({PATH3})", "TRUE"),
        (f"SimplePath({PATH3})", "{<<1>>, <<2>>, <<3>>, <<1, 2>>, <<2, 1>>, <<2, 3>>, <<3, 2>>, "
                                 "<<1, 2, 3>>, <<3, 2, 1>>}"),
        (f"<<AreConnectedIn(3, 1, {PATH3}), AreConnectedIn(1, 4, {g})>>", "<<TRUE, FALSE>>"),
        ("Cardinality(UndirectedGraphs({1, 2}))", "8"),
    ]
    body = "\n".join(f"ASSUME ({e}) = ({w})" for e, w in cases)
    out = check(_spec(tmp_path, body, "TLC, Naturals, FiniteSets, UndirectedGraphs"))
    assert out.verdict == "ok", out.message


def test_a_false_bitwise_expectation_is_reported(tmp_path):
    out = check(_spec(tmp_path, "ASSUME 6 & 3 = 3"))
    assert (out.verdict, out.exit_code) == ("assumption", 10)


@pytest.mark.parametrize("expr, op", [("IOExec(<<\"ls\">>)", "IOExec"), ("Trace", "Trace"),
                                      ("IODeserialize(\"f\", FALSE)", "IODeserialize"),
                                      ("PickSuccessor(FALSE)", "PickSuccessor")])
def test_unsupported_operators_stop_with_a_clear_error(tmp_path, expr, op):
    """Running processes, Java serialization, the current trace: an error naming the operator
    and where it was met, never a made-up value."""
    spec = _spec(tmp_path, f"Inv == x = 0 /\\ {expr} = {expr}")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
    out = check(spec)
    assert (out.verdict, out.exit_code) == ("error", 75)
    assert f"{op}" in out.message and "not supported by kipcheck" in out.message
    assert out.span is not None and out.span.line == 6


def test_files_are_written_and_read_relative_to_the_working_directory(tmp_path, monkeypatch):
    """As in TLC, a relative name is the working directory's; a file to read that is not
    there is also looked for beside the root spec."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    (tmp_path / "in.ndjson").write_text('{"a": 1, "b": [true, "s"]}\n\n{"a": 2, "b": []}\n')
    (tmp_path / "in.json").write_text('{"n": [1, {"m": "x"}]}')
    body = ("ASSUME JsonSerialize(\"out/v.json\", [k |-> <<1, 2>>, s |-> {\"a\"}])\n"
            "ASSUME ndJsonSerialize(\"v.ndjson\", <<1, [a |-> FALSE]>>)\n"
            "ASSUME ndJsonDeserialize(\"in.ndjson\") = "
            "<<[a |-> 1, b |-> <<TRUE, \"s\">>], [a |-> 2, b |-> <<>>]>>\n"
            "ASSUME JsonDeserialize(\"in.json\") = [n |-> <<1, [m |-> \"x\"]>>]\n"
            "ASSUME Serialize(\"hello\", \"t.txt\", [format |-> \"TXT\", charset |-> \"UTF-8\", "
            "openOptions |-> <<\"WRITE\", \"CREATE\">>]).exitValue = 0\n"
            "ASSUME Deserialize(\"t.txt\", [format |-> \"TXT\", charset |-> \"UTF-8\"]).stdout "
            "= \"hello\"\n"
            "ASSUME Deserialize(\"none.txt\", [format |-> \"TXT\", charset |-> \"UTF-8\"])"
            ".exitValue = 1")
    out = check(_spec(tmp_path, body))
    assert out.verdict == "ok", out.message
    assert json.loads((work / "out" / "v.json").read_text()) == {"k": [1, 2], "s": ["a"]}
    assert (work / "v.ndjson").read_text() == '1\n{"a":false}\n'
    assert (work / "t.txt").read_text() == "hello"


def test_a_missing_json_file_is_an_evaluation_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = check(_spec(tmp_path, "ASSUME Len(ndJsonDeserialize(\"missing.ndjson\")) = 0"))
    assert out.verdict == "assumption"
    assert "ndJsonDeserialize cannot read missing.ndjson" in out.message


def test_causal_order_sorts_a_log_by_its_vector_clocks(tmp_path):
    """VectorClocks!CausalOrder as TLC's override: each node's entries by its own time, an
    entry after those its clock has seen; IsCausalOrder (the module's definition) agrees."""
    e1 = '[node |-> "a", vc |-> [a |-> 1]]'
    e2 = '[node |-> "b", vc |-> [a |-> 1, b |-> 1]]'
    e3 = '[node |-> "a", vc |-> [a |-> 2]]'
    body = (f"Log == <<{e2}, {e3}, {e1}>>\n"
            f"Sorted == CausalOrder(Log, LAMBDA l : l.vc, LAMBDA l : l.node, LAMBDA c : DOMAIN c)\n"
            f"ASSUME Sorted = <<{e1}, {e2}, {e3}>>\n"
            f"ASSUME IsCausalOrder(Sorted, LAMBDA l : l.vc)\n"
            f"ASSUME ~IsCausalOrder(Log, LAMBDA l : l.vc)")
    out = check(_spec(tmp_path, body, "TLC, Naturals, Sequences, VectorClocks"))
    assert out.verdict == "ok", out.message
