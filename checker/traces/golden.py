"""The golden counterexamples under traces/: regenerated from invariants/manifest.json.

Every manifest entry with a `trace` path gets that ITF file and the HTML page beside it (same
stem, `.html`), made by checking the model again. `check=True` compares instead of writing, so
a test (and CI) notices when a change to the checker, a model or a writer alters a saved trace.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .. import manifest
from ..api import check as run_check
from . import itf
from .counterexample import from_outcome
from .html import render_html
from .lanes import find_lanes, load_lanes

MANIFEST = Path("invariants") / "manifest.json"


def html_path(trace: Path) -> Path:
    name = trace.name
    stem = name[: -len(".itf.json")] if name.endswith(".itf.json") else trace.stem
    return trace.with_name(stem + ".html")


def entries(root: str | Path, only: str | None = None) -> list[manifest.Entry]:
    """The manifest's models that have a golden trace (only the one named `only`, if given)."""
    models = manifest.load(Path(root) / MANIFEST).entries
    chosen = [m for m in models if m.trace]
    if only is not None:
        chosen = [m for m in chosen if m.name == only]
        if not chosen:
            names = ", ".join(m.name for m in models if m.trace)
            raise ValueError(f"no model named {only!r} with a trace in {MANIFEST} "
                             f"(there are: {names})")
    return chosen


def render_entry(m: manifest.Entry) -> tuple[str, str]:
    """(ITF text, HTML text) of one manifest entry, by checking its model."""
    o = run_check(m.spec_path, m.config_path, lib=m.lib_paths)
    if (o.verdict, o.property) != (m.verdict, m.property) or not o.trace:
        raise ValueError(f"{m.name}: the manifest expects {m.verdict} {m.property}, "
                         f"the check found {o.verdict} {o.property}")
    found = find_lanes(m.spec_path, m.config_path)
    lanes = load_lanes(found) if found else None
    cx = from_outcome(o, spec=m.spec, model=m.config, lanes=lanes)
    return itf.dumps(cx), render_html(cx)


def regenerate(root: str | Path = ".", only: str | None = None, check: bool = False,
               echo: Callable[[str], None] = print) -> int:
    """Write (or with `check`, compare) every golden trace; returns how many differ."""
    root = Path(root)
    problems = 0
    for m in entries(root, only):
        target = m.trace_path
        try:
            texts = render_entry(m)
        except ValueError as e:
            echo(f"error: {e}")
            problems += 1
            continue
        for path, text in zip((target, html_path(target)), texts, strict=True):
            rel = path.relative_to(m.root)
            old = path.read_text(encoding="utf-8") if path.is_file() else None
            if old == text:
                echo(f"unchanged {rel}")
            elif check:
                echo(f"{'differs' if old is not None else 'missing'} {rel}")
                problems += 1
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
                echo(f"wrote {rel}")
    return problems
