"""Counterexamples and explored state spaces as networkx graphs, written as DOT and GraphML.

Nodes are states, edges are labelled actions. The graphs carry what they mean as plain
attributes (`initial`, `bad`, `in_loop`, `path`, `back`, and the state's text), which GraphML
keeps as data and the DOT writer turns into colours: the violating path in red, the bad state
filled red, a lasso's closing edge dashed.
"""
from __future__ import annotations

from pathlib import Path

import networkx as nx

from .. import verdicts as V
from ..semantics.values import intern_index
from .counterexample import Counterexample
from .order import Printer, names_in
from .xmlsafe import xml_safe

SAFETY = (V.INVARIANT, V.PROPERTY, V.DEADLOCK, V.ERROR, V.ASSERT)  # the last state is the bad one


def state_text(variables, state, printer: Printer) -> str:
    """A state as TLC prints one: `/\\ var = value` lines."""
    return "\n".join(f"/\\ {n} = {printer.show(v)}"
                     for n, v in zip(variables, state, strict=True))


def trace_graph(cx: Counterexample) -> nx.MultiDiGraph:
    """The counterexample as a graph: state i is node i, step i the edge i-1 -> i."""
    source = cx.model or cx.spec
    g = nx.MultiDiGraph(name=Path(source).stem if source else "counterexample",
                        property=cx.property or "", verdict=cx.verdict)
    last = len(cx.steps) - 1
    for i, step in enumerate(cx.steps):
        g.add_node(i, label=f"State {i + 1}", index=i + 1, initial=i == 0,
                   bad=i == last and cx.loop is None and cx.verdict in SAFETY,
                   in_loop=cx.loop is not None and i >= cx.loop,
                   changed=", ".join(cx.changed(i)),
                   state=state_text(cx.variables, step.state, cx.printer))
        if i > 0:
            g.add_edge(i - 1, i, label=step.label or "", action=step.name or "", path=True,
                       back=False)
    if cx.loop is not None:
        back = cx.back
        g.add_edge(last, cx.loop, label=(back.label if back else None) or "",
                   action=(back.name if back else None) or "", path=True, back=True)
    return g


class StateGraph:
    """Records the explored state graph through the engine's `on_edge` hook (`--dump-graph`).

    Meant for small models: it keeps every state and every distinct (state, action, state)."""

    def __init__(self):
        self.ids: dict = {}  # the engine's state key -> node number
        self.states: list[tuple] = []
        self.initial: set[int] = set()
        self.edges: dict[tuple, None] = {}  # (src, dst, label), in the order first seen

    def __call__(self, src_key, action, dst_key, dst_state) -> None:
        dst = self.ids.get(dst_key)
        if dst is None:
            dst = self.ids[dst_key] = len(self.states)
            self.states.append(dst_state)
        if src_key is None:
            self.initial.add(dst)
        else:
            self.edges.setdefault((self.ids[src_key], dst, action.label), None)

    def graph(self, variables, cx: Counterexample | None = None,
              name: str = "state graph") -> nx.MultiDiGraph:
        """The graph, with the counterexample's path (if any) marked. Call it right after the
        check: states print in the order of the checker's interning."""
        printer = cx.printer if cx is not None else _printer(self.states)
        node_of = {s: i for i, s in enumerate(self.states)}
        on_path: set[tuple] = set()
        bad = loop_nodes = None
        if cx is not None and all(s.state in node_of for s in cx.steps):
            ids = [node_of[s.state] for s in cx.steps]
            on_path = {(ids[i - 1], ids[i], cx.steps[i].label) for i in range(1, len(ids))}
            if cx.loop is not None:
                on_path.add((ids[-1], ids[cx.loop], cx.back.label if cx.back else None))
                loop_nodes = set(ids[cx.loop:])
            elif cx.verdict in SAFETY:
                bad = ids[-1]
        g = nx.MultiDiGraph(name=name)
        for i, state in enumerate(self.states):
            g.add_node(i, label=f"{i + 1}", index=i + 1, initial=i in self.initial,
                       bad=i == bad, in_loop=bool(loop_nodes and i in loop_nodes),
                       state=state_text(variables, state, printer))
        for src, dst, label in self.edges:
            g.add_edge(src, dst, label=label, path=(src, dst, label) in on_path, back=False)
        return g


def _printer(states) -> Printer:
    names: list[str] = []
    for s in states:
        for v in s:
            names_in(v, names)
    return Printer(sorted(dict.fromkeys(names), key=intern_index))


# ---------------------------------------------------------------------------------------------
# Writers

RED, GREY, GREEN, BLUE = "#d62728", "#555555", "#2ca02c", "#1f77b4"


def _quote(text) -> str:
    """A DOT string: backslashes and quotes escaped, newlines as Graphviz's \\n."""
    s = str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{s}"'


def _attrs(pairs: dict) -> str:
    return "[" + ", ".join(f"{k}={_quote(v)}" for k, v in pairs.items()) + "]"


def to_dot(g: nx.MultiDiGraph) -> str:
    """DOT text for a graph made by this module (accepted by `dot -Tsvg`)."""
    title = g.graph.get("name", "")
    prop = g.graph.get("property")
    if prop:
        title = f"{title}: {prop} violated"
    out = [f"digraph {_quote(g.graph.get('name', 'trace'))} {{",
           f"  graph {_attrs({'label': title, 'labelloc': 't', 'fontname': 'Helvetica'})};",
           '  node [shape="box", style="rounded,filled", fillcolor="white", '
           'fontname="Helvetica"];',
           '  edge [fontname="Helvetica", fontsize="10"];']
    for n, d in g.nodes(data=True):
        a = {"label": d.get("label", n), "tooltip": d.get("state", "")}
        if d.get("bad"):
            a.update(fillcolor="#ffdddd", color=RED, penwidth="2")
        elif d.get("in_loop"):
            a.update(fillcolor="#ffe9c7", color="#ff7f0e")
        elif d.get("initial"):
            a.update(fillcolor="#e3f4e3", color=GREEN)
        out.append(f"  {_quote(f's{n}')} {_attrs(a)};")
    for u, v, d in g.edges(data=True):
        a = {"label": d.get("label", "")}
        if d.get("path"):
            a.update(color=RED, fontcolor=RED, penwidth="2")
        else:
            a.update(color=GREY)
        if d.get("back"):
            a.update(style="dashed", constraint="false")
        out.append(f"  {_quote(f's{u}')} -> {_quote(f's{v}')} {_attrs(a)};")
    out.append("}")
    return "\n".join(out) + "\n"


def to_graphml(g: nx.MultiDiGraph) -> str:
    """GraphML text (networkx's writer: every attribute becomes a typed data key). Strings
    are made XML-safe first; the text is written whole (generate_graphml would split it at
    every character str.splitlines breaks on, form feeds in a state included)."""
    import io

    safe = g.copy()
    for attrs in [safe.graph, *(d for _, d in safe.nodes(data=True)),
                  *(d for _, _, d in safe.edges(data=True))]:
        for k, v in attrs.items():
            if isinstance(v, str):
                attrs[k] = xml_safe(v)
    out = io.BytesIO()
    nx.write_graphml(safe, out, encoding="utf-8")
    return out.getvalue().decode("utf-8").rstrip("\n") + "\n"
