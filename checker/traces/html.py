"""A counterexample as one self-contained HTML page: inline SVG, CSS and JS, no network.

Two views of the trace, a sequence diagram (one lane per process, as the lanes declaration
says; messages as arrows between lanes) and the state graph (one node per state, the lasso's
closing edge dashed), above a table of the steps. Clicking a step, an action or a state shows
the whole state, with the variables that step changed highlighted and their values before.
The page is a pure function of the counterexample: no timestamps, stable order.
"""
from __future__ import annotations

import json
from html import escape
from pathlib import Path

from .. import verdicts as V
from .counterexample import Counterexample
from .graph import trace_graph
from .lanes import diagram

LANE_W, LEFT, TOP, ROW_H = 240, 80, 56, 54


def render_html(cx: Counterexample, lanes: dict | None = None) -> str:
    """The page. `lanes` overrides the declaration the counterexample carries."""
    lanes = lanes if lanes is not None else cx.lanes
    d = diagram(cx, lanes)
    lane_of = {e.step: e.lane for e in d.events}
    title = _title(cx)
    rows = []
    for i, step in enumerate(cx.steps):
        label = step.label or "Initial predicate"
        changed = ", ".join(cx.changed(i))
        rows.append(f'<tr class="step" data-step="{i}" tabindex="0"><td>{i + 1}</td>'
                    f'<td>{escape(label)}</td><td>{escape(lane_of.get(i, ""))}</td>'
                    f'<td class="vars">{escape(changed)}</td></tr>')
    if cx.loop is not None:
        back = cx.back.label if cx.back is not None and cx.back.label else "(stuttering)"
        rows.append(f'<tr class="back" data-step="{cx.loop}"><td>&#8617;</td>'
                    f'<td>{escape(back)}</td>'
                    f'<td>{escape(lane_of.get(len(cx.steps), ""))}</td>'
                    f'<td>{_loop_text(cx)}</td></tr>')
    lanes_note = ("lanes as declared" if lanes else
                  "one lane per action (declare lanes with a .lanes.json file: see README)")
    facts = [("spec", cx.spec), ("model", cx.model), ("verdict", cx.verdict),
             ("states", str(len(cx.steps))), ("sequence diagram", lanes_note)]
    facts_html = "".join(f"<span><b>{escape(k)}</b> {escape(v)}</span>"
                         for k, v in facts if v)
    data = _data(cx)
    return PAGE.format(
        title=escape(title), facts=facts_html, sequence=sequence_svg(cx, d),
        graph=graph_svg(cx), rows="\n".join(rows), css=CSS, js=JS,
        data=json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c"))


def _title(cx: Counterexample) -> str:
    what = {V.INVARIANT: "Invariant {} is violated", V.PROPERTY: "Property {} is violated",
            "liveness": "Temporal property {} is violated", V.DEADLOCK: "Deadlock reached"}
    verdict = "liveness" if cx.loop is not None else cx.verdict
    text = what.get(verdict, "Error: {}").format(cx.property or cx.message or cx.verdict)
    name = Path(cx.model).stem if cx.model else (Path(cx.spec).stem if cx.spec else "")
    return f"{name}: {text}" if name else text


def _data(cx: Counterexample) -> dict:
    """What the script shows for each state: every variable's value, pretty-printed."""
    states = []
    for i, step in enumerate(cx.steps):
        values = [cx.printer.pretty(v, 72) for v in step.state]
        states.append({"label": step.label or "Initial predicate", "values": values,
                       "changed": cx.changed(i)})
    return {"variables": list(cx.variables), "states": states, "loop": cx.loop}


# ---------------------------------------------------------------------------------------------
# Sequence diagram


def _box_width(text: str) -> float:
    return min(LANE_W - 14, 7.2 * len(text) + 18)


def sequence_svg(cx: Counterexample, d) -> str:
    lanes = d.lanes or ["(no actions)"]
    x_of = {lane: LEFT + LANE_W * k + LANE_W / 2 for k, lane in enumerate(lanes)}
    rows = len(cx.steps) + (1 if any(e.step == len(cx.steps) for e in d.events) else 0)
    width = LEFT + LANE_W * len(lanes) + (190 if cx.loop is not None else 30)
    height = TOP + 20 + ROW_H * rows + 20

    def y_of(row: int) -> float:
        return TOP + 20 + ROW_H * row + ROW_H / 2

    out = [f'<svg id="sequence" xmlns="http://www.w3.org/2000/svg" width="{width}" '
           f'height="{height}" viewBox="0 0 {width} {height}">', _markers("seq")]
    for lane in lanes:
        x = x_of[lane]
        out.append(f'<g class="lane" data-lane="{escape(lane)}">'
                   f'<line x1="{x}" y1="{TOP}" x2="{x}" y2="{height - 10}"/>'
                   f'<rect x="{x - LANE_W / 2 + 10}" y="10" width="{LANE_W - 20}" height="32" '
                   f'rx="6"/><text x="{x}" y="31">{escape(lane)}</text></g>')
    # Row labels (state numbers) and the initial state.
    for i in range(len(cx.steps)):
        out.append(f'<text class="rowlabel" data-step="{i}" x="12" y="{y_of(i) + 4}">'
                   f'State {i + 1}</text>')
    x0, x1 = x_of[lanes[0]] - LANE_W / 2 + 8, x_of[lanes[-1]] + LANE_W / 2 - 8
    out.append(f'<g class="event init" data-step="0"><rect x="{x0}" y="{y_of(0) - 14}" '
               f'width="{x1 - x0}" height="28" rx="6"/><text x="{(x0 + x1) / 2}" '
               f'y="{y_of(0) + 4}">Initial state</text></g>')
    last = len(cx.steps) - 1
    for e in d.events:
        y, x = y_of(e.step), x_of[e.lane]
        w = _box_width(e.label)
        bad = e.step == last and cx.loop is None
        cls = "event bad" if bad else ("event back" if e.step > last else "event")
        step = e.step if e.step <= last else cx.loop  # the closing step leads to the loop
        parts = []
        for m in e.messages:
            sx, tx = x_of[m.source], x_of[m.target]
            if sx == tx:
                continue
            direction = 1 if tx > sx else -1
            if m.source == e.lane:
                sx += direction * w / 2
            if m.target == e.lane:
                tx -= direction * w / 2
            parts.append(f'<g class="message"><line x1="{sx}" y1="{y}" x2="{tx}" y2="{y}" '
                         f'marker-end="url(#seq-arrow)"/><text x="{(sx + tx) / 2}" y="{y - 18}">'
                         f'{escape(m.label)}</text></g>')
        parts.append(f'<rect x="{x - w / 2}" y="{y - 14}" width="{w}" height="28" rx="6"/>'
                     f'<text x="{x}" y="{y + 4}">{escape(_fit(e.label, w))}</text>'
                     f'<title>{escape(e.label)}</title>')
        out.append(f'<g class="{cls}" data-step="{step}" data-lane="{escape(e.lane)}">'
                   + "".join(parts) + "</g>")
    if cx.loop is not None:
        xr = LEFT + LANE_W * len(lanes) + 20
        y_from, y_to = y_of(rows - 1), y_of(cx.loop)
        out.append(f'<g class="loop"><path d="{_arc(xr - 12, y_from, y_to, 52)}" '
                   f'marker-end="url(#seq-arrow-loop)"/><text x="{xr + 48}" '
                   f'y="{(y_from + y_to) / 2 + 4}">{_loop_text(cx)}</text></g>')
    out.append("</svg>")
    return "\n".join(out)


def _loop_text(cx: Counterexample) -> str:
    """How the lasso closes, in TLC's words."""
    if (cx.back is None or cx.back.label is None) and cx.loop == len(cx.steps) - 1:
        return "stutters forever"
    return f"back to state {cx.loop + 1}"


def _arc(x: float, y1: float, y2: float, reach: float) -> str:
    """An SVG path bulging right from (x, y1) to (x, y2); a small loop when y1 == y2."""
    if y1 == y2:
        return (f"M {x} {y1 + 6} C {x + reach} {y1 + 34}, {x + reach} {y1 - 34}, "
                f"{x + 2} {y1 - 6}")
    return f"M {x} {y1} C {x + reach} {y1}, {x + reach} {y2}, {x + 2} {y2}"


def _fit(text: str, width: float) -> str:
    most = int((width - 14) / 7.2)
    return text if len(text) <= most else text[: max(1, most - 1)] + "\u2026"


# ---------------------------------------------------------------------------------------------
# State graph

NODE_W, NODE_H, GAP = 120, 34, 74


def graph_svg(cx: Counterexample) -> str:
    g = trace_graph(cx)
    cx_ = 120
    n = g.number_of_nodes()
    width, height = 560, 30 + GAP * n

    def y_of(i: int) -> float:
        return 20 + GAP * i + NODE_H / 2

    out = [f'<svg id="graph" xmlns="http://www.w3.org/2000/svg" width="{width}" '
           f'height="{height}" viewBox="0 0 {width} {height}">', _markers("graph")]
    for u, v, data in g.edges(data=True):
        cls = "edge" + (" path" if data.get("path") else "") + (" back" if data.get("back")
                                                                  else "")
        label = escape(data.get("label", ""))
        if data.get("back"):
            y1, y2 = y_of(u), y_of(v)
            x = cx_ + NODE_W / 2
            reach = 170 if y1 != y2 else 60
            out.append(f'<g class="{cls}" data-step="{v}"><path d="{_arc(x, y1, y2, reach)}" '
                       f'marker-end="url(#graph-arrow-loop)"/><text x="{x + reach * 0.8}" '
                       f'y="{(y1 + y2) / 2 + 4}">{label or escape(_loop_text(cx))}</text></g>')
        else:
            y1, y2 = y_of(u) + NODE_H / 2, y_of(v) - NODE_H / 2 - 2
            out.append(f'<g class="{cls}" data-step="{v}"><line x1="{cx_}" y1="{y1}" '
                       f'x2="{cx_}" y2="{y2}" marker-end="url(#graph-arrow)"/><text x="{cx_ + 10}" '
                       f'y="{(y1 + y2) / 2 + 4}">{label}</text></g>')
    for i, data in g.nodes(data=True):
        cls = "node" + "".join(f" {k.replace('_', '-')}" for k in ("initial", "bad", "in_loop")
                               if data.get(k))
        y = y_of(i)
        out.append(f'<g class="{cls}" data-step="{i}"><rect x="{cx_ - NODE_W / 2}" '
                   f'y="{y - NODE_H / 2}" width="{NODE_W}" height="{NODE_H}" rx="8"/>'
                   f'<text x="{cx_}" y="{y + 5}">{escape(data["label"])}</text>'
                   f'<title>{escape(data["state"])}</title></g>')
    out.append("</svg>")
    return "\n".join(out)


def _markers(prefix: str) -> str:
    """Arrowheads; ids unique per SVG (a marker inside a hidden view would not draw)."""
    return "<defs>" + "".join(
        f'<marker id="{prefix}-{name}" class="{name}" viewBox="0 0 10 10" refX="9" refY="5" '
        f'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
        f'<path d="M 0 0 L 10 5 L 0 10 z"/></marker>' for name in ("arrow", "arrow-loop")
    ) + "</defs>"

# ---------------------------------------------------------------------------------------------
# The page

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{css}</style>
</head>
<body>
<header>
<h1>{title}</h1>
<p class="facts">{facts}</p>
</header>
<nav>
<button class="tab active" data-view="view-sequence">Sequence diagram</button>
<button class="tab" data-view="view-graph">State graph</button>
</nav>
<section class="views">
<div id="view-sequence" class="view">
{sequence}
</div>
<div id="view-graph" class="view" hidden>
{graph}
</div>
</section>
<section class="details">
<div class="steps">
<h2>Steps</h2>
<table id="steps">
<thead><tr><th>#</th><th>action</th><th>lane</th><th>changed</th></tr></thead>
<tbody>
{rows}
</tbody>
</table>
</div>
<div class="state">
<h2 id="state-title">State</h2>
<table id="state"><tbody></tbody></table>
</div>
</section>
<script type="application/json" id="trace-data">{data}</script>
<script>{js}</script>
</body>
</html>
"""

CSS = """
:root { --bad: #d62728; --path: #d62728; --loop: #ff7f0e; --msg: #1f77b4; --sel: #fff3b0;
        --line: #bbb; --ink: #222; --muted: #666; }
* { box-sizing: border-box; }
body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
       color: var(--ink); margin: 0; padding: 0 20px 40px; }
header h1 { font-size: 20px; margin: 16px 0 4px; }
.facts span { margin-right: 18px; color: var(--muted); }
.facts b { color: var(--ink); font-weight: 600; }
nav { margin: 12px 0 8px; }
.tab { border: 1px solid var(--line); background: #f6f6f6; padding: 6px 14px;
       border-radius: 6px 6px 0 0; cursor: pointer; font: inherit; }
.tab.active { background: #fff; border-bottom-color: #fff; font-weight: 600; }
.views { border: 1px solid var(--line); overflow: auto; max-height: 70vh; background: #fff; }
svg text { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
           text-anchor: middle; fill: var(--ink); }
.lane line { stroke: var(--line); stroke-dasharray: 4 4; }
.lane rect { fill: #eef3fb; stroke: #8aa4cc; }
.lane text { font-weight: 700; }
.rowlabel { text-anchor: start; fill: var(--muted); cursor: pointer; }
.event { cursor: pointer; }
.event text, .node text { pointer-events: none; }
.event rect { fill: #fff; stroke: #444; }
.event.init rect { fill: #e3f4e3; stroke: #2ca02c; }
.event.bad rect { fill: #fdd; stroke: var(--bad); stroke-width: 2; }
.event.back rect { fill: #ffe9c7; stroke: var(--loop); }
.message line { stroke: var(--msg); stroke-width: 1.5; }
.message text { fill: var(--msg); font-size: 11px; }
marker path { fill: #444; }
marker.arrow-loop path { fill: var(--loop); }
.loop path { fill: none; stroke: var(--loop); stroke-width: 2; stroke-dasharray: 6 4; }
.loop text { fill: var(--loop); text-anchor: start; }
.node { cursor: pointer; }
.node rect { fill: #fff; stroke: #444; }
.node.initial rect { fill: #e3f4e3; stroke: #2ca02c; }
.node.in-loop rect { fill: #ffe9c7; stroke: var(--loop); }
.node.bad rect { fill: #fdd; stroke: var(--bad); stroke-width: 2; }
.edge line, .edge path { stroke: #888; fill: none; }
.edge.path line, .edge.path path { stroke: var(--path); stroke-width: 2; }
.edge.back path { stroke-dasharray: 6 4; }
.edge text { text-anchor: start; fill: var(--path); }
.selected rect { stroke-width: 3; stroke: #000; filter: drop-shadow(0 0 3px #f0c000); }
.details { display: flex; gap: 24px; align-items: flex-start; margin-top: 16px; }
.steps { flex: 0 0 auto; max-width: 45%; }
.state { flex: 1 1 auto; min-width: 0; }
h2 { font-size: 16px; margin: 8px 0; }
table { border-collapse: collapse; }
td, th { border-bottom: 1px solid #eee; padding: 3px 8px; text-align: left;
         vertical-align: top; }
#steps tr.step { cursor: pointer; }
#steps tr.step:hover { background: #f5f5f5; }
#steps tr.step.selected { background: var(--sel); font-weight: 600; }
#steps tr.back { color: var(--loop); }
#steps td.vars { color: var(--muted); }
#state th { font-weight: 600; white-space: nowrap; }
#state pre { margin: 0; font: 12px/1.35 ui-monospace, SFMono-Regular, Menlo, Consolas,
             monospace; white-space: pre-wrap; word-break: break-word; }
#state tr.changed { background: var(--sel); }
#state tr.changed th::before { content: "* "; color: var(--bad); }
#state .before { color: var(--muted); margin-top: 4px; }
"""

JS = """
(function () {
  var data = JSON.parse(document.getElementById('trace-data').textContent);
  var current = -1;
  function cell(tag, text) { var e = document.createElement(tag); e.textContent = text;
                             return e; }
  function select(i) {
    if (i < 0 || i >= data.states.length) return;
    current = i;
    document.querySelectorAll('.selected').forEach(function (e) {
      e.classList.remove('selected'); });
    document.querySelectorAll('[data-step="' + i + '"]').forEach(function (e) {
      if (!['edge', 'rowlabel', 'back'].some(function (c) { return e.classList.contains(c); }))
        e.classList.add('selected'); });
    var s = data.states[i];
    document.getElementById('state-title').textContent =
      'State ' + (i + 1) + ': <' + s.label + '>';
    var body = document.querySelector('#state tbody');
    body.textContent = '';
    data.variables.forEach(function (name, k) {
      var tr = document.createElement('tr');
      tr.dataset.var = name;
      var changed = s.changed.indexOf(name) >= 0;
      if (changed) tr.className = 'changed';
      tr.appendChild(cell('th', name));
      var td = document.createElement('td');
      td.appendChild(cell('pre', s.values[k]));
      if (changed) {
        var before = cell('div', 'before: ');
        before.className = 'before';
        before.appendChild(cell('pre', data.states[i - 1].values[k]));
        td.appendChild(before);
      }
      tr.appendChild(td);
      body.appendChild(tr);
    });
    try { history.replaceState(null, '', '#state-' + (i + 1)); } catch (e) { /* file: */ }
  }
  document.querySelectorAll('[data-step]').forEach(function (e) {
    e.addEventListener('click', function () { select(+e.dataset.step); });
  });
  document.querySelectorAll('.tab').forEach(function (t) {
    t.addEventListener('click', function () {
      document.querySelectorAll('.tab').forEach(function (u) {
        u.classList.toggle('active', u === t); });
      document.querySelectorAll('.view').forEach(function (v) {
        v.hidden = v.id !== t.dataset.view; });
    });
  });
  document.addEventListener('keydown', function (ev) {
    if (ev.key === 'ArrowDown' || ev.key === 'j') { select(current + 1); ev.preventDefault(); }
    if (ev.key === 'ArrowUp' || ev.key === 'k') { select(current - 1); ev.preventDefault(); }
  });
  var m = /^#state-(\\d+)$/.exec(location.hash);
  select(m ? +m[1] - 1 : data.states.length - 1);
})();
"""
