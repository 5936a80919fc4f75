"""An action that leaves a variable unassigned: TLC's "Successor state is not completely
specified" error. TLC counts the incomplete successor as generated, ends the trace with it (the
unassigned variables printed as `null`), and handles the successors met before it first. The
figures in the comments are TLC 2.18's (`tlc2.TLC -workers 1`) on the same specs."""
from __future__ import annotations

import json

import pytest
from test_traces_formats import assert_itf_shape

from checker.api import check
from checker.semantics.values import NULL
from checker.traces import itf, tlcjson
from checker.traces.counterexample import from_outcome
from checker.traces.graph import to_dot, to_graphml, trace_graph
from checker.traces.html import render_html
from checker.traces.text import format_trace

NOT_SPECIFIED = "Successor state is not completely specified by "

# name -> (module body, verdict, message, generated, distinct, depth, left, the trace's
# action labels, its last state). States are in the order of the VARIABLES line.
CASES = {
    # The ELSE swallows `/\ UNCHANGED y`. TLC: "2 states generated, 1 distinct states found,
    # 0 states left on queue", depth 1; State 2: x = 1, y = null.
    "one": ("VARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
            "Next == x' = IF x < 2 THEN x + 1 ELSE x /\\ UNCHANGED y\n",
            "error", NOT_SPECIFIED + "the next-state action. "
            "The following variable is not assigned: y.",
            2, 1, 1, 0, [None, "Next"], (1, NULL)),
    # TLC: "... The following variables are not assigned: y, z."; 2 generated, 1 distinct.
    "two": ("VARIABLES x, y, z\nInit == x = 0 /\\ y = 0 /\\ z = 0\n"
            "Next == x' = IF x < 2 THEN x + 1 ELSE x /\\ UNCHANGED <<y, z>>\n",
            "error", NOT_SPECIFIED + "the next-state action. "
            "The following variables are not assigned: y, z.",
            2, 1, 1, 0, [None, "Next"], (1, NULL, NULL)),
    # TLC names them sorted, whatever the declaration order: "Bq, alpha, beta, zeta".
    "sorted": ("VARIABLES zeta, alpha, mid, beta, Bq\n"
               "Init == zeta = 0 /\\ alpha = 0 /\\ mid = 0 /\\ beta = 0 /\\ Bq = 0\n"
               "Next == mid' = 1\n",
               "error", NOT_SPECIFIED + "the next-state action. "
               "The following variables are not assigned: Bq, alpha, beta, zeta.",
               2, 1, 1, 0, [None, "Next"], (NULL, NULL, 1, NULL, NULL)),
    # In the second of two actions: TLC names it ("by action B of the next-state relation"),
    # after storing A's successor: 3 generated, 2 distinct, 1 left on queue, depth 2;
    # State 2 <B>: x = null, y = 1.
    "second_action": ("VARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
                      "A == x' = x + 1 /\\ y' = y\nB == y' = y + 1\nNext == A \\/ B\n",
                      "error", NOT_SPECIFIED + "action B of the next-state relation. "
                      "The following variable is not assigned: x.",
                      3, 2, 2, 1, [None, "B"], (NULL, 1)),
    # A later level: 7 generated, 6 distinct, 1 left on queue, depth 3; four states, the last
    # x = 2, y = null.
    "later_level": ("VARIABLES x, y\nInit == x \\in {0, 10} /\\ y = 0\n"
                    "Next == IF x # 2 THEN x' = x + 1 /\\ y' = y ELSE x' = x\n",
                    "error", NOT_SPECIFIED + "the next-state action. "
                    "The following variable is not assigned: y.",
                    7, 6, 3, 1, [None, "Next", "Next", "Next"], (2, NULL)),
    # Init leaving variables unassigned: TLC says "current state is not a legal state / While
    # working on the initial state: x = 0, y = null, z = null" (no counts; exit 255); kipcheck
    # names the variables as in the successor's message and ends the trace with that state.
    "init": ("VARIABLES x, y, z\nInit == x \\in 0..1 /\\ (x = 1 => y = 2)\n"
             "Next == UNCHANGED <<x, y, z>>\n",
             "error", "Initial state is not completely specified by the initial predicate. "
             "The following variables are not assigned: y, z.",
             0, 0, 0, 0, [None], (0, NULL, NULL)),
    # Next split by \E: TLC says "action Next of the next-state relation" (several actions,
    # one name). Its first successor is stored, its second is incomplete: 3 generated,
    # 2 distinct, 1 left on queue, depth 2; State 2: x = 2, y = null.
    "among_successors": ("VARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
                         "Next == \\/ \\E i \\in 1..3 : x' = i /\\ "
                         "(IF i # 2 THEN y' = i ELSE TRUE)\n"
                         "        \\/ x' = 7 /\\ y' = 7\n",
                         "error", NOT_SPECIFIED + "action Next of the next-state relation. "
                         "The following variable is not assigned: y.",
                         3, 2, 2, 1, [None, "Next(2)"], (2, NULL)),
    # A successor met before the incomplete one violates the invariant: TLC reports that.
    # "Invariant Inv is violated."; 2 generated, 2 distinct, 0 left, depth 2.
    "invariant_first": ("VARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
                        "Next == \\E i \\in 1..3 : x' = i /\\ (IF i # 2 THEN y' = i ELSE TRUE)\n"
                        "Inv == x # 1\n",
                        "invariant", None, 2, 2, 2, 0, [None, "Next(1)"], (1, 1)),
    # The same for any evaluation error in a later action (here 1 \div 0 in Next(2)).
    "invariant_before_error": ("VARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
                               "Next == \\E i \\in 1..3 : x' = i /\\ y' = 1 \\div (2 - i)\n"
                               "Inv == x # 1\n",
                               "invariant", None, 2, 2, 2, 0, [None, "Next(1)"], (1, 1)),
}


def write(tmp_path, name: str):
    body = CASES[name][0]
    spec = tmp_path / "M.tla"
    spec.write_text(f"---- MODULE M ----\nEXTENDS Naturals\n{body}====\n")
    inv = "INVARIANT Inv\n" if "Inv ==" in body else ""
    (tmp_path / "M.cfg").write_text(f"INIT Init\nNEXT Next\n{inv}")
    return spec


def trace_of(o) -> tuple:
    return [s.action for s in o.trace], o.trace[-1].state


@pytest.mark.parametrize("exact", [False, True], ids=["fingerprints", "exact-states"])
@pytest.mark.parametrize("name", CASES)
def test_tlc_figures(tmp_path, name, exact):
    _, verdict, message, generated, distinct, depth, left, labels, last = CASES[name]
    o = check(write(tmp_path, name), exact_states=exact)
    assert o.verdict == verdict
    assert o.exit_code == (75 if verdict == "error" else 12)
    assert o.message == message
    assert (o.states_generated, o.distinct_states, o.depth, o.states_left) == \
        (generated, distinct, depth, left)
    assert o.trace_length == len(labels)
    assert trace_of(o) == (labels, last)


@pytest.mark.parametrize("name", ["one", "second_action", "later_level", "among_successors",
                                  "invariant_before_error", "init"])
def test_two_workers_give_the_verdict_message_and_trace_of_one(tmp_path, name):
    """The counts of two workers may differ (a level is expanded whole); nothing else."""
    spec = write(tmp_path, name)
    one, two = check(spec), check(spec, workers=2)
    assert (two.verdict, two.message, trace_of(two)) == (one.verdict, one.message, trace_of(one))


def test_the_text_output_shows_unassigned_variables_as_null(tmp_path):
    text = format_trace(from_outcome(check(write(tmp_path, "second_action"))))
    assert text.endswith("State 2: <B>\n*/\\ x = null\n*/\\ y = 1\n")


def test_every_trace_format_holds_the_incomplete_state(tmp_path):
    cx = from_outcome(check(write(tmp_path, "two")))
    doc = itf.to_itf(cx)
    assert_itf_shape(doc)  # ITF: null is unserializable, and #meta says which are unassigned
    last = doc["states"][-1]
    assert (last["y"], last["z"]) == ({"#unserializable": "null"},) * 2
    assert last["#meta"]["unassigned"] == ["y", "z"]
    back = itf.from_itf(json.loads(itf.dumps(cx)))
    assert back.steps[-1].state == (1, NULL, NULL)
    assert format_trace(back) == format_trace(cx)
    tlc = json.loads(tlcjson.dumps(cx))  # TLC JSON: JSON null
    assert tlc["state"][-1] == [2, {"x": 1, "y": None, "z": None}]
    graph = trace_graph(cx)  # DOT, GraphML and HTML: the TLA+ text TLC prints
    assert "/\\\\ y = null" in to_dot(graph)
    assert "/\\ y = null" in to_graphml(graph)
    assert '"null"' in render_html(cx)


def test_a_model_value_named_null_stays_a_model_value(tmp_path):
    spec = tmp_path / "M.tla"
    spec.write_text("---- MODULE M ----\nCONSTANT null\nVARIABLES x, y\n"
                    "Init == x = null /\\ y = 0\nNext == x' = x\n====\n")
    (tmp_path / "M.cfg").write_text("CONSTANT null = null\nINIT Init\nNEXT Next\n")
    cx = from_outcome(check(spec))
    back = itf.from_itf(json.loads(itf.dumps(cx)))
    assert back.steps[-1].state[0] == cx.steps[-1].state[0] != NULL
    assert back.steps[-1].state[1] is NULL


def test_spark_gives_the_figures_and_trace_of_one_process(spark_context, tmp_path):
    """In the driver and in Spark (levels past one state): the one-process figures, which are
    TLC's (test_tlc_figures)."""
    for name in ("second_action", "later_level", "among_successors", "invariant_before_error",
                 "init"):
        (tmp_path / name).mkdir()
        spec = write(tmp_path / name, name)
        local = check(spec)
        for driver_states in (1, 10**6):
            spark = check(spec, backend="spark",
                          spark={"partitions": 2, "driver_states": driver_states})
            assert (spark.verdict, spark.message, spark.states_generated,
                    spark.distinct_states, spark.depth, trace_of(spark)) == \
                (local.verdict, local.message, local.states_generated,
                 local.distinct_states, local.depth, trace_of(local)), (name, driver_states)
