"""The golden counterexamples under traces/ are what `kipcheck traces regenerate` makes now:
one ITF JSON and one HTML page for every manifest model with a trace, byte for byte."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from checker.cli import main
from checker.traces import itf
from checker.traces.golden import entries, html_path, regenerate

ROOT = Path(__file__).resolve().parent.parent


def test_every_manifest_trace_is_saved_with_its_page():
    models = entries(ROOT)
    assert models, "the manifest names no trace"
    for m in models:
        trace = m.trace_path
        assert trace.is_file() and html_path(trace).is_file(), m.name
        cx = itf.loads(trace.read_text())
        assert (cx.verdict, cx.property) == (m.verdict, m.property)
        if m.trace_length is not None:
            assert len(cx.steps) == m.trace_length, m.name


@pytest.mark.parametrize("name", [m.name for m in entries(ROOT)])
def test_regenerated_traces_equal_the_saved_files(name):
    """One model per test, so that parallel test runs share the checks out."""
    notes: list[str] = []
    differ = regenerate(ROOT, only=name, check=True, echo=notes.append)
    assert differ == 0, ("run `kipcheck traces regenerate` and review the diff:\n"
                         + "\n".join(n for n in notes if not n.startswith("unchanged")))
    assert len(notes) == 2


def test_regenerate_writes_into_a_copy_and_check_mode_reports_differences(tmp_path):
    for d in ("spec", "invariants"):
        for f in (ROOT / d).iterdir():
            (tmp_path / d).mkdir(exist_ok=True)
            if f.is_file():
                (tmp_path / d / f.name).write_bytes(f.read_bytes())
    name = "KIP858_bug_ack_unsent"
    (m,) = [m for m in json.loads((ROOT / "invariants" / "manifest.json").read_text())["models"]
            if m["name"] == name]
    runner = CliRunner()
    r = runner.invoke(main, ["traces", "regenerate", "--only", name, "--check", "--root",
                             str(tmp_path)])
    assert r.exit_code == 1 and f"missing {m['trace']}" in r.output
    r = runner.invoke(main, ["traces", "regenerate", "--only", name, "--root", str(tmp_path)])
    assert r.exit_code == 0 and f"wrote {m['trace']}" in r.output
    assert (tmp_path / m["trace"]).read_text() == (ROOT / m["trace"]).read_text()
    r = runner.invoke(main, ["traces", "regenerate", "--only", "NoSuchModel", "--root",
                             str(tmp_path)])
    assert r.exit_code == 2 and "no model named 'NoSuchModel'" in r.output
