"""The sweep's HTML report: one self-contained page (inline SVG and CSS, no script, nothing
fetched), with distinct states and seconds per size on a log scale, the growth factor of each
knob, and an extrapolated cost of the next size.

Growth and extrapolation use only the sizes checked to the end with no error (`ok`): a
violation or a budget stop cuts the search, so its counts say little about the size.
"""
from __future__ import annotations

import math
from html import escape

from . import verdicts as V

_W, _H = 760, 320  # the plot's size in pixels
_PAD_L, _PAD_R, _PAD_T, _PAD_B = 70, 20, 24, 50
_COLOURS = {V.OK: "#2b8a3e", "budget": "#e67700"}
_BAD = "#c92a2a"
# In each <svg>, so a plot cut out of the page still draws the same.
_PLOT_CSS = (".grid { stroke: #e5e5e5; } .line { fill: none; stroke: #868e96; } "
             ".tick, .label { font: 11px sans-serif; fill: #555; } "
             ".title { font: 600 13px sans-serif; }")


def growth(rows, knobs: list[str]) -> dict[str, dict]:
    """Per knob: the geometric mean of distinct(k+1) / distinct(k) and of seconds(k+1) /
    seconds(k) over pairs of `ok` sizes that differ by one step of that knob alone."""
    done = {tuple(r.knobs[k] for k in knobs): r for r in rows if r.verdict == V.OK}
    out = {}
    for i, knob in enumerate(knobs):
        states, times = [], []
        values = sorted({key[i] for key in done})
        for key, row in done.items():
            at = values.index(key[i])
            if at + 1 >= len(values):
                continue
            nxt = done.get(key[:i] + (values[at + 1],) + key[i + 1:])
            if nxt is None or not row.distinct_states:
                continue
            states.append(nxt.distinct_states / row.distinct_states)
            if row.seconds > 0 and nxt.seconds > 0:
                times.append(nxt.seconds / row.seconds)
        out[knob] = {"states": _geomean(states), "seconds": _geomean(times),
                     "pairs": len(states)}
    return out


def next_sizes(rows, knobs: list[str], factors: dict) -> list[dict]:
    """For each knob with a growth factor: the largest `ok` size with that knob one step up,
    and its extrapolated distinct states and seconds."""
    done = [r for r in rows if r.verdict == V.OK]
    if not done:
        return []
    biggest = max(done, key=lambda r: (r.distinct_states, r.seconds))
    out = []
    for knob in knobs:
        f = factors[knob]
        if f["states"] is None:
            continue
        step = _step(rows, knob)
        size = dict(biggest.knobs)
        size[knob] = size[knob] + step
        out.append({"size": ",".join(f"{k}={v}" for k, v in size.items()), "knob": knob,
                    "distinct_states": round(biggest.distinct_states * f["states"]),
                    "seconds": (biggest.seconds * f["seconds"]) if f["seconds"] else None})
    return out


def _step(rows, knob: str) -> int:
    values = sorted({r.knobs[knob] for r in rows})
    steps = [b - a for a, b in zip(values, values[1:], strict=False)]
    return min(steps) if steps else 1


def _geomean(xs: list[float]) -> float | None:
    xs = [x for x in xs if x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def _plot(rows, key: str, title: str, unit: str, plot_id: str) -> str:
    """One log-scale plot: a point per size, in sweep order along x."""
    values = [max(getattr(r, key), 1e-3) for r in rows]
    lo = 10 ** math.floor(math.log10(min(values))) if values else 1
    hi = 10 ** math.ceil(math.log10(max(values))) if values else 10
    if hi <= lo:
        hi = lo * 10
    span_x = _W - _PAD_L - _PAD_R
    span_y = _H - _PAD_T - _PAD_B

    def x(i):
        return _PAD_L + (span_x * (i + 0.5) / max(len(rows), 1))

    def y(v):
        return _PAD_T + span_y * (1 - (math.log10(v) - math.log10(lo)) /
                                  (math.log10(hi) - math.log10(lo)))

    parts = [f'<svg id="{plot_id}" class="plot" width="{_W}" height="{_H}" '
             f'viewBox="0 0 {_W} {_H}" xmlns="http://www.w3.org/2000/svg" role="img" '
             f'aria-label="{escape(title)}">',
             f"<style>{_PLOT_CSS}</style>",
             f'<rect width="{_W}" height="{_H}" fill="#fff"/>',
             f'<text x="{_W / 2}" y="14" text-anchor="middle" class="title">'
             f'{escape(title)} (log scale)</text>']
    decade = lo
    while decade <= hi * 1.0001:
        yy = y(decade)
        parts.append(f'<line x1="{_PAD_L}" x2="{_W - _PAD_R}" y1="{yy:.1f}" y2="{yy:.1f}" '
                     f'class="grid"/><text x="{_PAD_L - 6}" y="{yy + 4:.1f}" '
                     f'text-anchor="end" class="tick">{_fmt(decade)}{unit}</text>')
        decade *= 10
    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    if len(values) > 1:
        parts.append(f'<polyline points="{line}" class="line"/>')
    for i, (row, v) in enumerate(zip(rows, values, strict=True)):
        colour = _COLOURS.get(row.verdict, _BAD)
        parts.append(f'<circle class="point" data-size="{escape(row.size)}" '
                     f'data-verdict="{escape(row.verdict)}" cx="{x(i):.1f}" cy="{y(v):.1f}" '
                     f'r="5" fill="{colour}"><title>{escape(row.size)}: {_fmt(v)}{unit} '
                     f'({escape(row.verdict)})</title></circle>')
        label = ",".join(str(v) for v in row.knobs.values())
        parts.append(f'<text class="label" x="{x(i):.1f}" y="{_H - _PAD_B + 16}" '
                     f'text-anchor="middle">{escape(label)}</text>')
    caption = ", ".join(rows[0].knobs) if rows else ""
    parts.append(f'<text class="tick" x="{_PAD_L + span_x / 2}" y="{_H - _PAD_B + 36}" '
                 f'text-anchor="middle">size ({escape(caption)})</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def _fmt(v: float) -> str:
    if v >= 1000:
        return f"{v:,.0f}"
    if v >= 1:
        return f"{v:g}"
    return f"{v:.3g}"


def render(rows, knobs: list[str], name: str, verdict: str) -> str:
    """The whole page."""
    factors = growth(rows, knobs)
    table = "\n".join(
        f"<tr class=\"{escape(r.verdict)}\"><td>{escape(r.size)}</td>"
        f"<td>{escape(r.verdict)}</td><td>{escape(r.property or '-')}</td>"
        f"<td>{r.distinct_states:,}</td><td>{r.states_generated:,}</td><td>{r.depth}</td>"
        f"<td>{r.seconds:.2f}</td><td>{r.states_per_second:,}</td>"
        f"<td>{r.peak_rss_mib:.1f}</td></tr>" for r in rows)
    growth_rows = "\n".join(
        f"<tr><td>{escape(k)}</td><td>{_factor(f['states'])}</td>"
        f"<td>{_factor(f['seconds'])}</td><td>{f['pairs']}</td></tr>"
        for k, f in factors.items())
    nxt = next_sizes(rows, knobs, factors)
    next_rows = "\n".join(
        f"<tr><td>{escape(n['size'])}</td><td>{escape(n['knob'])} +1 step</td>"
        f"<td>~{n['distinct_states']:,}</td><td>"
        f"{'~' + _fmt(round(n['seconds'], 1)) + ' s' if n['seconds'] else '-'}</td></tr>"
        for n in nxt) or '<tr><td colspan="4">no ok size to extrapolate from</td></tr>'
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>kipcheck sweep: {escape(name)}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 24px; color: #222; }}
table {{ border-collapse: collapse; margin: 8px 0 20px; }}
td, th {{ border: 1px solid #ccc; padding: 3px 8px; text-align: right; }}
td:first-child, th:first-child {{ text-align: left; }}
tr.ok td:nth-child(2) {{ color: #2b8a3e; }} tr.budget td:nth-child(2) {{ color: #e67700; }}
</style></head><body>
<h1>Sweep of {escape(name)}</h1>
<p id="verdict">Verdict: <b>{escape(verdict)}</b> over {len(rows)} size(s); knobs varied:
{escape(', '.join(knobs))}.</p>
{_plot(rows, "distinct_states", "Distinct states per size", "", "plot-states")}
{_plot(rows, "seconds", "Seconds per size", " s", "plot-seconds")}
<h2>Sizes</h2>
<table id="sizes"><tr><th>size</th><th>verdict</th><th>property</th><th>distinct</th>
<th>generated</th><th>depth</th><th>seconds</th><th>states/s</th><th>peak MiB</th></tr>
{table}
</table>
<h2>Growth per knob</h2>
<p>Geometric mean of the ratio between two <code>ok</code> sizes one step apart in that knob
alone.</p>
<table id="growth"><tr><th>knob</th><th>distinct states &times;</th><th>seconds &times;</th>
<th>pairs</th></tr>
{growth_rows}
</table>
<h2>Next size (extrapolated)</h2>
<p>The largest <code>ok</code> size with one knob a step up, times that knob's growth factor:
an estimate, not a measurement.</p>
<table id="next"><tr><th>size</th><th>step</th><th>distinct states</th><th>time</th></tr>
{next_rows}
</table>
</body></html>
"""


def _factor(f: float | None) -> str:
    return "-" if f is None else f"{f:.2f}"
