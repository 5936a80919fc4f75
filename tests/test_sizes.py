"""Size knobs: the shipped models' knobs re-express their .cfgs exactly, and bad knobs are
config errors (exit 151) that list the knobs."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from checker import api, sizes
from checker.cli import main
from checker.manifest import load as load_manifest

MANIFEST = load_manifest()
SIZED = [e for e in MANIFEST.entries if e.name.startswith(("KIP858", "KIP516", "KIP36", "KIP928"))]


def all_knobs(entry) -> dict:
    """Every knob of the entry's model, at the value its .cfg has."""
    sz = sizes.for_model(entry.spec_path, entry.config_path)
    return sizes.defaults(sz, sizes.cfg_constants(entry.config_path))


@pytest.mark.parametrize("entry", SIZED, ids=lambda e: e.name)
def test_knobs_at_the_cfg_values_give_the_cfg_constants(entry):
    """Every shipped .cfg is its knobs: giving all of them at their defaults overrides each
    sized constant with the value the .cfg already has (DirCounts = {1, 2} of the singledir
    models is a shape, not a size: the `dirs` knob sets {dirs})."""
    sz = sizes.for_model(entry.spec_path, entry.config_path)
    cfg = sizes.cfg_constants(entry.config_path)
    texts = sizes.overrides(sz, all_knobs(entry), cfg)
    assert [t.split("=", 1)[0] for t in texts] == list(sz.constants)
    for name, value in api.parse_constant_overrides(texts).items():
        if name == "DirCounts" and "singledir" in entry.name:
            assert value == frozenset({2}) and cfg[name] == frozenset({1, 2})
            continue
        assert value == cfg[name], name


SMALL = ["KIP858_a_small_assign", "KIP858_b_small_replace", "KIP516_small_rf1",
         "KIP36_bug_naive_placement", "KIP928_kip_small"]


@pytest.mark.parametrize("name", SMALL)
def test_knobs_at_the_cfg_values_give_the_cfg_counts(name):
    entry = MANIFEST.get(name)
    texts = sizes.overrides(sizes.for_model(entry.spec_path, entry.config_path),
                            all_knobs(entry), sizes.cfg_constants(entry.config_path))
    outcome = api.check(entry.spec_path, entry.config_path,
                        api.parse_constant_overrides(texts), entry.lib_paths)
    assert (outcome.verdict, outcome.property, outcome.distinct_states,
            outcome.states_generated, outcome.depth) == (
        entry.verdict, entry.property, entry.distinct_states, entry.states_generated,
        entry.depth)


def test_brokers_grow_the_dir_id_pool_and_keep_dir_counts():
    entry = MANIFEST.get("KIP858_a_small_singledir")
    sz = sizes.for_model(entry.spec_path, entry.config_path)
    texts = sizes.overrides(sz, {"brokers": 3}, sizes.cfg_constants(entry.config_path))
    assert texts == ["Brokers={b1, b2, b3}", "DirIds={d1, d2, d3, d4, d5, d6}"]
    sz516 = sizes.for_model(MANIFEST.get("KIP516_small").spec_path, None)
    texts = sizes.overrides(sz516, {"topics": 2, "incarnations": 2},
                            sizes.cfg_constants(MANIFEST.get("KIP516_small").config_path))
    assert texts == ["Names={A, B}", "Ids={id0, id1, id2, id3}"]


def test_check_with_size_equals_check_with_the_overrides():
    runner = CliRunner()
    sized = runner.invoke(main, ["check", "KIP858_bug_keep_leader_on_reregister", "--size",
                                 "dirs=1,epochs=3"])
    by_hand = runner.invoke(main, ["check", "KIP858_bug_keep_leader_on_reregister", "-D",
                                   "DirCounts={1}", "-D", "DirIds={d1}", "-D", "MaxEpoch=3"])
    assert sized.exit_code == by_hand.exit_code == 12
    assert sized.output.splitlines()[-3:-1] == by_hand.output.splitlines()[-3:-1]
    assert sized.output.splitlines()[0] == "Error: Invariant LeaderUnfenced is violated."


@pytest.mark.parametrize("args, message", [
    (["--size", "nodes=2"], "--size nodes: no such knob of KIP858Properties.sizes.json; the "
                            "knobs: brokers=2 (1..5), dirs=2 (1..4), spare_dirs=0 (0..4), "
                            "partitions=1 (1..5), rf=2 (1..brokers), epochs=2 (1..6)"),
    (["--size", "brokers=9"], "--size brokers=9: out of range 1..5 (brokers); the knobs:"),
    (["--size", "brokers=1"], "--size rf=2: out of range 1..1 (replication factor) (the "
                              ".cfg's value: give it with --size too)"),
    (["--size", "brokers"], "--size expects KNOB=NUMBER[,KNOB=NUMBER...], got 'brokers'"),
    # the later value used to win silently
    (["--size", "brokers=2", "--size", "brokers=3"], "--size brokers is given twice"),
    (["--size", "dirs=2,dirs=2"], "--size dirs is given twice"),
])
def test_bad_knobs_are_config_errors(args, message):
    result = CliRunner().invoke(main, ["check", "KIP858_a_small_assign", *args])
    assert result.exit_code == 151
    assert message in result.output
    assert "Traceback" not in result.output


def test_a_user_spec_declares_knobs_next_to_it(tmp_path):
    (tmp_path / "Ring.tla").write_text(
        "---- MODULE Ring ----\nEXTENDS Naturals\nCONSTANT Nodes, Max\nVARIABLE x\n"
        "Init == x \\in Nodes\nNext == \\E n \\in Nodes : x' = n\n====\n")
    (tmp_path / "Ring.cfg").write_text("CONSTANT Nodes = {n1, n2}\nCONSTANT Max = 3\n"
                                       "INIT Init\nNEXT Next\n")
    (tmp_path / "Ring.sizes.json").write_text(json.dumps({
        "knobs": {"nodes": {"help": "ring size", "min": 1, "max": 6,
                            "default": "card(Nodes)"}},
        "constants": {"Nodes": {"model_values": "n", "count": "nodes"}}}))
    result = CliRunner().invoke(main, ["check", str(tmp_path / "Ring.tla"), "--size",
                                       "nodes=5"])
    assert result.exit_code == 0, result.output
    assert "30 states generated, 5 distinct states found" in result.output


def test_a_spec_without_knobs_says_how_to_declare_them(tmp_path):
    (tmp_path / "M.tla").write_text("---- MODULE M ----\nVARIABLE x\nInit == x = 0\n"
                                    "Next == UNCHANGED x\n====\n")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\n")
    result = CliRunner().invoke(main, ["check", str(tmp_path / "M.tla"), "--size", "n=2"])
    assert result.exit_code == 151
    assert "M.tla declares no size knobs (write M.sizes.json next to it" in result.output


def test_models_sizes_lists_the_knobs_with_the_cfg_values():
    result = CliRunner().invoke(main, ["models", "--sizes"])
    assert result.exit_code == 0
    lines = {line.split()[0]: line for line in result.output.splitlines()}
    assert lines["KIP858_a_medium"].endswith(
        "brokers=1 (1..5), dirs=2 (1..4), spare_dirs=0 (0..4), partitions=2 (1..5), "
        "rf=1 (1..brokers), epochs=2 (1..6)")
    assert "brokers=2 (1..5), topics=1 (1..4), incarnations=3 (1..5)" in lines["KIP516_medium"]
    assert "brokers=5 (1..8), racks=3 (1..8), partitions=5 (0..16), rf=3 (1..8)" in \
        lines["KIP36_medium"]
    assert "brokers=2 (1..5), capacity=2 (1..8)" in lines["KIP928_kip_medium"]


def test_the_readme_example_of_a_sizes_file_is_valid(tmp_path):
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    (block,) = [b for b in re.findall(r"```json\n(.*?)```", readme, re.S) if '"knobs"' in b]
    path = tmp_path / "Ring.sizes.json"
    path.write_text(block)
    sz = sizes.load(path)
    cfg = {"Nodes": frozenset({"n1", "n2"}), "RF": 1}
    assert sizes.describe(sz, cfg) == "nodes=2 (1..6), rf=1 (1..nodes)"
    assert sizes.overrides(sz, {"nodes": 3, "rf": 2}, cfg) == [
        "Nodes={n1, n2, n3}", "Ids={id0, id1, id2, id3, id4, id5}", "Names={A, B, C}",
        "Sizes={2, 3}", "RF=2"]
