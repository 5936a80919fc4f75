"""The model manifest (invariants/manifest.json) holds, for every shipped configuration, what TLC
reports; every small model must check the same way in kipcheck: verdict, violated property,
distinct and generated states, depth and counterexample length. Also: the manifest's own rules,
and the commands built on it (`kipcheck check NAME`, `kipcheck models`).
"""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from checker import manifest
from checker.api import check
from checker.cli import main

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = manifest.load(ROOT / "invariants" / "manifest.json")
HAS_LIVENESS = importlib.util.find_spec("checker.engine.liveness") is not None
EXIT = {"ok": 0, "deadlock": 11, "invariant": 12, "property": 13}

# Where kipcheck's figure legitimately differs from TLC's (invariants/EXPECTED.md says why):
# model -> {field: kipcheck's value}.
KIPCHECK_DIFFERS: dict[str, dict] = {}  # entry name -> figures where kipcheck differs from TLC

SMALL = [e for e in MANIFEST.entries if e.size == "small"]


def expected_figures(e: manifest.Entry) -> dict:
    figures = {"distinct_states": e.distinct_states, "states_generated": e.states_generated,
               "depth": e.depth, "trace_length": e.trace_length}
    figures.update(KIPCHECK_DIFFERS.get(e.name, {}))
    return {k: v for k, v in figures.items() if v is not None}


@pytest.mark.parametrize("entry", SMALL, ids=lambda e: e.name)
def test_small_model_checks_as_tlc_does(entry):
    if entry.liveness and not HAS_LIVENESS:
        pytest.skip("needs the liveness checker (checker.engine.liveness)")
    o = check(entry.spec_path, entry.config_path, lib=entry.lib_paths)
    assert (o.verdict, o.property, o.exit_code) == (entry.verdict, entry.property,
                                                     EXIT[entry.verdict]), o.message
    if entry.liveness and entry.verdict != "ok":
        return  # TLC's counts at a liveness violation depend on when it ran the check
    got = {"distinct_states": o.distinct_states, "states_generated": o.states_generated,
           "depth": o.depth, "trace_length": o.trace_length if entry.verdict != "ok" else None}
    want = expected_figures(entry)
    assert {k: got[k] for k in want} == want


def test_every_shipped_configuration_has_one_entry_and_its_files_exist():
    cfgs = {p.relative_to(ROOT).as_posix() for p in (ROOT / "invariants").glob("*.cfg")}
    assert sorted(e.config for e in MANIFEST.entries) == sorted(cfgs)
    for e in MANIFEST.entries:
        assert e.name == Path(e.config).stem
        assert e.spec_path.is_file() and all(Path(d).is_dir() for d in e.lib_paths), e.name


def test_every_counterexample_has_a_saved_trace_and_correct_models_have_none():
    for e in MANIFEST.entries:
        assert (e.trace is None) == (e.verdict == "ok"), e.name
        if e.trace is not None:
            assert e.trace == f"traces/{e.name}.itf.json"


def test_manifest_errors_name_the_file_and_line(tmp_path):
    bad_json = tmp_path / "invariants" / "manifest.json"
    bad_json.parent.mkdir()
    bad_json.write_text('{"models": [\n  {"name": "x",}\n]}\n')
    with pytest.raises(manifest.ManifestError) as e:
        manifest.load(bad_json)
    assert e.value.span.line == 2 and "invalid JSON" in e.value.format()

    entry = {"name": "M", "spec": "invariants/M.tla", "config": "invariants/M.cfg", "lib": [],
             "size": "small", "verdict": "invariant", "property": None, "distinct_states": 1,
             "states_generated": 1, "depth": 1, "trace_length": 1, "trace": None}
    bad_json.write_text(json.dumps({"models": [entry]}, indent=2))
    with pytest.raises(manifest.ManifestError) as e:
        manifest.load(bad_json)
    assert e.value.message == "model 'M': verdict 'invariant' needs the violated 'property'"
    assert e.value.format().startswith(f"{bad_json}:4:15: error: model 'M'")

    ok = dict(entry, property="Inv")
    bad_json.write_text(json.dumps({"models": [ok, ok]}, indent=2))
    with pytest.raises(manifest.ManifestError, match="listed twice") as e:
        manifest.load(bad_json)
    second = [i for i, line in enumerate(bad_json.read_text().splitlines(), 1) if '"M"' in line]
    assert e.value.span.line == second[1]


def test_kipcheck_check_takes_a_manifest_name():
    r = CliRunner().invoke(main, ["check", "KIP858_bug_ack_unsent"])
    assert r.exit_code == 12, r.output
    assert "Invariant AckOnlyWhatWasSent is violated." in r.output


def test_kipcheck_check_unknown_name_is_an_error():
    r = CliRunner().invoke(main, ["check", "NoSuchModel"])
    assert r.exit_code == 150
    assert "NoSuchModel: no such spec file or manifest model" in r.output


def test_kipcheck_models_lists_name_size_and_verdict():
    r = CliRunner().invoke(main, ["models"])
    assert r.exit_code == 0
    rows = [line.split(None, 2) for line in r.output.splitlines()]
    assert [row[0] for row in rows] == MANIFEST.names()
    row = dict((row[0], row[1:]) for row in rows)["KIP858_bug_ack_unsent"]
    assert row == ["small", "invariant AckOnlyWhatWasSent"]
    r = CliRunner().invoke(main, ["models", "--size", "medium"])
    assert {line.split()[0] for line in r.output.splitlines()} == {
        e.name for e in MANIFEST.entries if e.size == "medium"}


def test_large_models_are_listed_and_benchmarked_with_two_workers():
    large = {e.name for e in MANIFEST.entries if e.size == "large"}
    assert {"KIP858_a_large_rf2_moves_restart", "KIP858_c_large_rf2_moves_restart"} <= large
    r = CliRunner().invoke(main, ["models", "--size", "large"])
    assert r.exit_code == 0, r.output
    assert {line.split()[0] for line in r.output.splitlines()} == large
    assert all(line.split()[1] == "large" for line in r.output.splitlines())
    spec = importlib.util.spec_from_file_location("bench_run", ROOT / "bench" / "run.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert set(bench.shipped("large")) == large
    assert bench.MODES["w2"] == ["--workers", "2"]
