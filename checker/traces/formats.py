"""Every counterexample format by name, and writing them all at once (`--trace-out DIR`)."""
from __future__ import annotations

from pathlib import Path

from . import graph, itf, tlcjson
from .counterexample import Counterexample
from .html import render_html
from .text import format_counterexample

# name -> file extension
EXTENSIONS = {"itf": ".itf.json", "tlc-json": ".tlc.json", "text": ".txt", "dot": ".dot",
              "graphml": ".graphml", "html": ".html"}


def render(cx: Counterexample, fmt: str, lanes: dict | None = None) -> str:
    """`cx` in format `fmt` (a key of EXTENSIONS); `lanes` for the HTML sequence diagram."""
    if fmt == "itf":
        return itf.dumps(cx)
    if fmt == "tlc-json":
        return tlcjson.dumps(cx)
    if fmt == "text":
        return format_counterexample(cx) + "\n"
    if fmt == "dot":
        return graph.to_dot(graph.trace_graph(cx))
    if fmt == "graphml":
        return graph.to_graphml(graph.trace_graph(cx))
    if fmt == "html":
        return render_html(cx, lanes)
    raise ValueError(f"unknown trace format {fmt!r}")


def write_all(cx: Counterexample, directory: str | Path, stem: str,
              lanes: dict | None = None) -> list[Path]:
    """Write `cx` in every format as DIRECTORY/STEM.<ext>; returns the files written."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for fmt, ext in EXTENSIONS.items():
        path = out / f"{stem}{ext}"
        path.write_text(render(cx, fmt, lanes), encoding="utf-8")
        written.append(path)
    return written
