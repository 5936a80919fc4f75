"""Counterexample formats: ITF JSON round trips exactly and has ADR-015's shape; TLC text with
lassos; TLC's -dumpTrace json shape; DOT, GraphML; declared lanes; the trace commands."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import networkx as nx
import pytest
from click.testing import CliRunner

from checker.api import check
from checker.cli import main
from checker.semantics.values import NAT, ModelValue, make_fn
from checker.traces import graph, itf, tlcjson
from checker.traces.counterexample import Counterexample, Step, from_outcome
from checker.traces.formats import EXTENSIONS, render
from checker.traces.lanes import LanesError, diagram, load_lanes, validate
from checker.traces.text import format_counterexample, format_trace

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "tests" / "specs"
GOLDEN = ROOT / "traces" / "KIP858_bug_no_revert_on_abort.itf.json"


def lasso() -> Counterexample:
    """A hand-built liveness counterexample with every kind of value: 3 states, the last
    stepping back to the second by C(b)."""
    a, b = ModelValue("a"), ModelValue("b")
    big = 2 ** 60
    rec = make_fn([("from", a), ("kind", "req")])
    s1 = (0, frozenset(), (), make_fn([(a, "idle"), (b, "idle")]), NAT)
    s2 = (1, frozenset({rec}), ('q"uote\\', True), make_fn([(a, "sent"), (b, "idle")]), NAT)
    s3 = (-big, frozenset({rec, make_fn([("from", b), ("kind", "req")])}),
          ('q"uote\\', False), make_fn([((1, 2), frozenset({a, b})), ((3, 4), frozenset())]),
          NAT)
    steps = [Step(None, None, (), s1), Step("A(a)", "A", (("p", a),), s2),
             Step("B", "B", (), s3)]
    return Counterexample(
        variables=("x", "msgs", "log", "pc", "lazy"), steps=steps, loop=1,
        back=Step("C(b)", "C", (("p", b),), s2), verdict="property", property="Live",
        spec="Lasso.tla", model="Lasso.cfg",
        # TLC's order of names in the run that found it: b before a, "kind" before "from".
        order=("b", "a", "kind", "from", "req", "idle", "sent", 'q"uote\\'))


# A JSON schema of ADR-015's trace shape.
ITF_SCHEMA = {
    "$defs": {
        "value": {"anyOf": [
            {"type": "boolean"}, {"type": "string"},
            {"type": "integer", "minimum": -(2 ** 53 - 1), "maximum": 2 ** 53 - 1},
            {"type": "array", "items": {"$ref": "#/$defs/value"}},
            {"type": "object", "required": ["#bigint"], "additionalProperties": False,
             "properties": {"#bigint": {"type": "string", "pattern": "^-?[0-9]+$"}}},
            {"type": "object", "required": ["#set"], "additionalProperties": False,
             "properties": {"#set": {"type": "array", "items": {"$ref": "#/$defs/value"}}}},
            {"type": "object", "required": ["#tup"], "additionalProperties": False,
             "properties": {"#tup": {"type": "array", "items": {"$ref": "#/$defs/value"}}}},
            {"type": "object", "required": ["#map"], "additionalProperties": False,
             "properties": {"#map": {"type": "array", "items": {
                 "type": "array", "minItems": 2, "maxItems": 2,
                 "items": {"$ref": "#/$defs/value"}}}}},
            {"type": "object", "required": ["#unserializable"], "additionalProperties": False,
             "properties": {"#unserializable": {"type": "string"}}},
            {"type": "object", "propertyNames": {"pattern": "^[^#]"},
             "additionalProperties": {"$ref": "#/$defs/value"}},
        ]},
    },
    "type": "object",
    "required": ["vars", "states"],
    "additionalProperties": False,
    "properties": {
        "#meta": {"type": "object"},
        "params": {"type": "array", "items": {"type": "string"}},
        "vars": {"type": "array", "items": {"type": "string"}},
        "states": {"type": "array", "items": {
            "type": "object",
            "properties": {"#meta": {"type": "object"}},
            "additionalProperties": {"$ref": "#/$defs/value"}}},
        "loop": {"type": "integer", "minimum": 0},
    },
}


def assert_itf_shape(doc: dict) -> None:
    jsonschema.validate(doc, ITF_SCHEMA)
    for i, state in enumerate(doc["states"]):
        assert set(state) - {"#meta"} == set(doc["vars"])
        assert state["#meta"]["index"] == i
    if "loop" in doc:
        assert doc["loop"] < len(doc["states"])


def records_outcome():
    return check(SPECS / "Records.tla", SPECS / "Records.cfg")


# ---------------------------------------------------------------------------------------------
# ITF


def test_itf_round_trip_of_a_checked_trace_renders_identically():
    o = records_outcome()
    cx = from_outcome(o, spec="Records.tla", model="Records.cfg")
    text = itf.dumps(cx)
    back = itf.loads(text)
    assert format_trace(back) == format_trace(cx) == format_trace(from_outcome(o))
    assert itf.dumps(back) == text
    assert back.steps == cx.steps
    assert [s.label for s in back.steps] == [None, "Send(a)", "Recv(a)", "Send(b)", "Recv(b)"]
    assert (back.verdict, back.property) == ("invariant", "NotAllDone")
    assert_itf_shape(json.loads(text))


def test_itf_round_trip_of_a_lasso_with_every_kind_of_value():
    cx = lasso()
    text = itf.dumps(cx)
    doc = json.loads(text)
    assert_itf_shape(doc)
    assert doc["loop"] == 1
    assert doc["#meta"]["loopAction"] == {"action": "C(b)", "actionName": "C",
                                          "params": {"p": {"#unserializable": "b"}}}
    assert doc["states"][2]["x"] == {"#bigint": str(-2 ** 60)}
    assert doc["states"][0]["lazy"] == {"#unserializable": "Nat"}
    assert doc["states"][2]["pc"]["#map"][0][0] == [1, 2]  # a tuple key is a sequence
    # Sets and records in TLC's order of the run: b before a, kind before from.
    assert doc["states"][2]["msgs"]["#set"][0] == {"kind": "req",
                                                    "from": {"#unserializable": "b"}}
    back = itf.loads(text)
    assert format_trace(back) == format_trace(cx)
    assert itf.dumps(back) == text
    assert back.loop == 1 and back.back.label == "C(b)" and back.back.state == back.steps[1].state


def test_lasso_text_ends_as_tlc_ends_it():
    text = format_counterexample(lasso())
    assert text.splitlines()[:3] == [
        "Error: Temporal properties were violated.",
        "Error: The following behavior constitutes a counter-example:",
        "State 1: <Initial predicate>"]
    assert text.endswith("\nBack to state 2: <C(b)>\n")
    assert '*/\\ msgs = {[kind |-> "req", from |-> b], [kind |-> "req", from |-> a]}' in text
    assert "*/\\ pc = (<<1, 2>> :> {b, a} @@ <<3, 4>> :> {})" in text
    assert " /\\ lazy = Nat" in text


def test_stuttering_and_unknown_closing_actions():
    cx = lasso()
    cx.back = None
    assert format_trace(cx).endswith("\nBack to state 2\n")
    cx.loop = 2
    assert format_trace(cx).endswith("\nState 4: Stuttering\n")
    assert itf.loads(itf.dumps(cx)).loop == 2


def live_cfg(tmp_path, spec: str, prop: str) -> Path:
    cfg = tmp_path / "Live.cfg"
    cfg.write_text(f"CONSTANT Procs = {{p1, p2}}\nSPECIFICATION {spec}\nPROPERTY {prop}\n")
    return cfg


def test_a_liveness_violation_is_written_as_a_lasso_in_every_format(tmp_path):
    cfg = live_cfg(tmp_path, "WeakSpec", "NoStarvation")
    r = CliRunner().invoke(main, ["check", str(SPECS / "Live.tla"), "--config", str(cfg),
                                  "--trace-out", str(tmp_path / "out")])
    assert r.exit_code == 13
    assert "Error: Temporal properties were violated.\n" \
           "Error: The following behavior constitutes a counter-example:\n" in r.output
    assert "\nState 4: <Enter(p2)>\n" in r.output
    assert "\nBack to state 2: <Leave(p2)>\n" in r.output
    doc = json.loads((tmp_path / "out" / "Live.itf.json").read_text())
    assert_itf_shape(doc)
    assert doc["loop"] == 1 and doc["#meta"]["loopAction"]["action"] == "Leave(p2)"
    cx = itf.from_itf(doc)
    assert (tmp_path / "out" / "Live.txt").read_text() == render(cx, "text")
    assert render(cx, "text").endswith("Back to state 2: <Leave(p2)>\n\n")
    tlc = json.loads((tmp_path / "out" / "Live.tlc.json").read_text())
    assert [e[1]["name"] for e in tlc["action"]] == ["Try", "Try", "Enter", "Leave"]
    assert [e[2][0] for e in tlc["action"]] == [2, 3, 4, 2]
    assert "Temporal property NoStarvation is violated" in (
        tmp_path / "out" / "Live.html").read_text()


def test_a_stuttering_lasso_ends_with_a_stuttering_state(tmp_path):
    cfg = live_cfg(tmp_path, "NoFairness", "SomeoneEnters")
    r = CliRunner().invoke(main, ["check", str(SPECS / "Live.tla"), "--config", str(cfg),
                                  "--trace-out", str(tmp_path / "out")])
    assert r.exit_code == 13
    assert "State 1: <Initial predicate>" in r.output and "\nState 2: Stuttering\n" in r.output
    cx = itf.loads((tmp_path / "out" / "Live.itf.json").read_text())
    assert (cx.loop, len(cx.steps), cx.back.label) == (0, 1, None)


def test_a_trace_renders_the_same_in_a_fresh_process(tmp_path):
    cx = lasso()
    path = tmp_path / "lasso.itf.json"
    path.write_text(itf.dumps(cx))
    for fmt in ("text", "tlc-json", "dot", "itf"):
        out = subprocess.run([sys.executable, "-m", "checker.cli", "trace", "render", str(path),
                              "--format", fmt], capture_output=True, text=True, cwd=ROOT,
                             check=True).stdout
        assert out == render(cx, fmt), fmt


def test_golden_kip858_trace_reads_back_and_validates():
    doc = json.loads(GOLDEN.read_text())
    assert_itf_shape(doc)
    cx = itf.from_itf(doc)
    assert len(cx.steps) == 10
    assert cx.property == "MetadataDirMatchesDisk"
    assert itf.dumps(cx) == GOLDEN.read_text()


@pytest.mark.parametrize("text,message", [
    ("{", "invalid JSON"),
    ('{"vars": ["x"], "states": [{"y": 1}]}', "variable 'x' has no value"),
    ('{"vars": ["x"], "states": [{"x": {"#set": 3}}]}', "#set needs an array"),
    ('{"vars": ["x"], "states": [{"x": 1.5}]}', "a float is not an ITF value"),
    ('{"vars": ["x"], "states": [{"x": 1}], "loop": 4}', "loop must be a state index"),
])
def test_bad_itf_files_get_a_clear_error_and_no_traceback(tmp_path, text, message):
    path = tmp_path / "bad.itf.json"
    path.write_text(text)
    r = CliRunner().invoke(main, ["trace", "render", str(path)])
    assert r.exit_code == 2
    assert message in r.output and f"{path}: error:" in r.output
    assert "Traceback" not in r.output


def test_itf_from_another_tool_reads_with_its_own_conventions():
    doc = {"#meta": {"source": "MC.tla"}, "vars": ["bank", "who"],
           "states": [{"#meta": {"index": 0}, "bank": "E",
                       "who": {"#map": [["E", {"#set": ["c1", "m1"]}], ["W", {"#set": []}]]}},
                      {"#meta": {"index": 1}, "bank": "W",
                       "who": {"#map": [["E", {"#set": ["c1"]}], ["W", {"#set": ["m1"]}]]}}]}
    cx = itf.from_itf(doc)
    assert cx.changed(1) == ["bank", "who"]
    assert format_trace(cx).splitlines()[:3] == [
        "State 1: <Initial predicate>", ' /\\ bank = "E"',
        ' /\\ who = [E |-> {"c1", "m1"}, W |-> {}]']  # a function of strings is a record


# ---------------------------------------------------------------------------------------------
# TLC's -dumpTrace json


def test_tlc_json_has_the_shape_of_tlcs_counterexample_record():
    cx = from_outcome(records_outcome())
    doc = json.loads(tlcjson.dumps(cx))
    assert list(doc) == ["action", "state"]
    assert [s[0] for s in doc["state"]] == [1, 2, 3, 4, 5]
    assert doc["state"][1][1] == {"pc": {"a": "sent", "b": "idle"},
                                  "msgs": [{"from": "a", "kind": "req"}]}
    first = doc["action"][0]
    assert first[0] == doc["state"][0] and first[2] == doc["state"][1]
    assert first[1] == {"name": "Send", "context": {"p": "a"}, "parameters": ["p"]}
    lasso_doc = tlcjson.to_tlc_json(lasso())
    assert len(lasso_doc["action"]) == 3
    assert lasso_doc["action"][-1][0][0] == 3 and lasso_doc["action"][-1][2][0] == 2
    assert lasso_doc["action"][-1][1]["name"] == "C"


# ---------------------------------------------------------------------------------------------
# Graphs


def test_trace_graph_marks_the_path_the_bad_state_and_the_lasso():
    g = graph.trace_graph(from_outcome(records_outcome()))
    assert g.number_of_nodes() == 5 and g.number_of_edges() == 4
    assert [n for n, d in g.nodes(data=True) if d["bad"]] == [4]
    assert all(d["path"] for _, _, d in g.edges(data=True))
    lg = graph.trace_graph(lasso())
    backs = [(u, v, d["label"]) for u, v, d in lg.edges(data=True) if d["back"]]
    assert backs == [(2, 1, "C(b)")]
    assert not any(d["bad"] for _, d in lg.nodes(data=True))
    assert [n for n, d in lg.nodes(data=True) if d["in_loop"]] == [1, 2]


def test_graphml_reads_back_with_networkx(tmp_path):
    path = tmp_path / "t.graphml"
    path.write_text(graph.to_graphml(graph.trace_graph(lasso())))
    g = nx.read_graphml(path)
    assert g.number_of_nodes() == 3 and g.number_of_edges() == 3
    assert g.nodes["2"]["label"] == "State 3" and g.nodes["2"]["in_loop"] is True


@pytest.mark.skipif(shutil.which("dot") is None,
                    reason="Graphviz's dot is not installed (Debian package graphviz)")
@pytest.mark.parametrize("which", ["records", "lasso"])
def test_dot_is_accepted_by_graphviz(which):
    cx = from_outcome(records_outcome()) if which == "records" else lasso()
    svg = subprocess.run(["dot", "-Tsvg"], input=graph.to_dot(graph.trace_graph(cx)),
                         capture_output=True, text=True, check=True)
    assert svg.stderr == ""
    root = ET.fromstring(svg.stdout)
    nodes = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "node"]
    assert len(nodes) == len(cx.steps)


def test_dump_graph_records_the_whole_state_graph(tmp_path):
    out = tmp_path / "g.graphml"
    r = CliRunner().invoke(main, ["check", str(SPECS / "Records.tla"), "--config",
                                  str(SPECS / "Records.cfg"), "--dump-graph", str(out)])
    assert r.exit_code == 12
    g = nx.read_graphml(out)
    assert g.number_of_nodes() == 9  # every distinct state, the bad one included
    assert sum(1 for _, d in g.nodes(data=True) if d["initial"]) == 1
    assert [d["label"] for _, d in g.nodes(data=True) if d["bad"]] == ["9"]
    path = [d["label"] for _, _, d in g.edges(data=True) if d["path"]]
    assert sorted(path) == ["Recv(a)", "Recv(b)", "Send(a)", "Send(b)"]
    bad = CliRunner().invoke(main, ["check", str(SPECS / "Records.tla"), "--dump-graph",
                                    str(tmp_path / "g.png")])
    assert bad.exit_code == 2 and "must end in .dot" in bad.output


# ---------------------------------------------------------------------------------------------
# Lanes


def test_kip858_lanes_one_for_the_controller_and_one_per_broker():
    cx = itf.loads(GOLDEN.read_text())
    d = diagram(cx, load_lanes(ROOT / "invariants" / "KIP858Properties.lanes.json"))
    assert d.lanes == ["controller", "b1", "b2"]
    by_step = {e.step: e for e in d.events}
    assert len(by_step) == 9
    hb = by_step[1]
    assert (hb.label, hb.lane) == ("Heartbeat(b1)", "controller")
    assert [(m.source, m.target, m.label) for m in hb.messages] == [
        ("b1", "controller", "BrokerHeartbeat")]
    resp = by_step[9]
    assert (resp.label, resp.lane) == ("AssignResponse(b1)", "b1")
    assert [(m.source, m.target) for m in resp.messages] == [("controller", "b1")]


def test_without_lanes_each_action_gets_its_own_lane():
    d = diagram(from_outcome(records_outcome()))
    assert d.lanes == ["Send", "Recv"]
    assert [e.lane for e in d.events] == ["Send", "Recv", "Send", "Recv"]


@pytest.mark.parametrize("doc,message", [
    ([], "a lanes file is a JSON object"),
    ({"lane": []}, "unknown key 'lane'"),
    ({"lanes": [3]}, "lanes[0]"),
    ({"actions": {"A": {"lane": 1}}}, "actions.A.lane"),
    ({"actions": {"A": {"lane": "x", "messages": [{"form": "y"}]}}}, "actions.A.messages[0]"),
])
def test_bad_lanes_files_are_reported(doc, message):
    with pytest.raises(LanesError) as info:
        validate(doc)
    assert message in info.value.message


def test_check_with_a_bad_lanes_file_exits_cleanly(tmp_path):
    lanes = tmp_path / "x.lanes.json"
    lanes.write_text('{"lanes": [1]}')
    r = CliRunner().invoke(main, ["check", str(SPECS / "Records.tla"), "--trace-out",
                                  str(tmp_path), "--lanes", str(lanes)])
    assert r.exit_code == 2
    assert f"{lanes}: error: lanes[0]" in r.output and "Traceback" not in r.output


# ---------------------------------------------------------------------------------------------
# --trace-out and trace render


def test_trace_out_writes_every_format(tmp_path):
    r = CliRunner().invoke(main, ["check", str(SPECS / "Records.tla"), "--config",
                                  str(SPECS / "Records.cfg"), "--trace-out", str(tmp_path)])
    assert r.exit_code == 12
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(f"Records{ext}" for ext in EXTENSIONS.values())
    cx = itf.loads((tmp_path / "Records.itf.json").read_text())
    assert (tmp_path / "Records.txt").read_text() == render(cx, "text")
    assert "Error: Invariant NotAllDone is violated." in (tmp_path / "Records.txt").read_text()
    assert (tmp_path / "Records.html").read_text() == render(cx, "html")
    rendered = tmp_path / "again.html"
    r2 = CliRunner().invoke(main, ["trace", "render", str(tmp_path / "Records.itf.json"),
                                   "--format", "html", "-o", str(rendered)])
    assert r2.exit_code == 0
    assert rendered.read_text() == (tmp_path / "Records.html").read_text()


def test_trace_out_with_no_counterexample_writes_nothing(tmp_path):
    r = CliRunner().invoke(main, ["check", str(SPECS / "Counter.tla"), "--config",
                                  str(SPECS / "CounterC.cfg"), "--trace-out", str(tmp_path)])
    assert r.exit_code == 0
    assert list(tmp_path.iterdir()) == []
    assert "No counterexample" in r.output


def test_html_is_self_contained():
    page = render(lasso(), "html")
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in page and "<link" not in page and "src=" not in page
    assert page.count('class="node') == 3


def test_itf_writes_a_finite_set_kept_lazily_as_a_set(tmp_path):
    """`{b} \\X 1..2` in a state is kept as a lazy product; ITF used to write it as
    #unserializable text, which no ITF reader can compare with an enumerated set."""
    (tmp_path / "P.tla").write_text(
        "---- MODULE P ----\nEXTENDS Naturals\nCONSTANT b\nVARIABLE s\nInit == s = {}\n"
        "Next == s' = {b} \\X (1..2)\nInv == s = {}\n====\n")
    (tmp_path / "P.cfg").write_text("CONSTANT b = b\nINIT Init\nNEXT Next\nINVARIANT Inv\n")
    o = check(tmp_path / "P.tla")
    doc = json.loads(itf.dumps(from_outcome(o)))
    assert doc["states"][1]["s"] == {"#set": [[{"#unserializable": "b"}, 1],
                                              [{"#unserializable": "b"}, 2]]}
    assert_itf_shape(doc)
