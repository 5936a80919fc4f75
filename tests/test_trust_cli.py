"""A checker a CI gate can trust: exact exit codes, no silent passes, no tracebacks, outputs that
are always valid and carry no absolute paths.

Counts at a violation are TLC 2.18's for the same spec (-workers 1).
"""
from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from checker import verdicts as V
from checker.api import check
from checker.cli import main

ROOT = Path(__file__).resolve().parent.parent
KIP858 = ["invariants/KIP858Properties.tla", "-c", "invariants/KIP858_a_small_assign.cfg",
          "--lib", "spec"]


def write(tmp_path: Path, name: str, body: str, cfg: str) -> Path:
    spec = tmp_path / f"{name}.tla"
    spec.write_text(f"---- MODULE {name} ----\nEXTENDS Naturals, Sequences, TLC\n{body}====\n")
    (tmp_path / f"{name}.cfg").write_text(cfg)
    return spec


def run(*args, cwd: Path | None = None):
    old = Path.cwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        return CliRunner().invoke(main, [str(a) for a in args])
    finally:
        os.chdir(old)


COUNTER = """VARIABLE x
Init == x = 0
Next == x < 3 /\\ x' = x + 1
"""
INIT_NEXT = "INIT Init\nNEXT Next\n"


# -- the catalogue ----------------------------------------------------------------------------

def test_the_catalogue_has_tlcs_codes_and_kipchecks_own():
    assert {v: V.exit_code(v) for v in V.EXIT_CODES} == {
        "ok": 0, "incomplete": 3, "assumption": 10, "postcondition": 10, "deadlock": 11,
        "invariant": 12,
        "property": 13, "assert": 14, "error": 75, "spec-error": 150, "config-error": 151,
        "interrupted": 130, "checkpoint-error": 2, "witness": 5}
    assert sorted(V.MEANINGS) == [0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 75, 76, 130, 150,
                                  151]


def test_the_readme_table_lists_every_exit_code():
    readme = (ROOT / "README.md").read_text()
    table = [line for line in readme.splitlines() if line.startswith("| ")]
    listed = {int(line.split("|")[1]) for line in table if line.split("|")[1].strip().isdigit()}
    assert listed == set(V.MEANINGS)


# -- -D for a name that is not a constant --------------------------------------------------------

def test_define_of_an_unknown_name_is_a_config_error_naming_the_closest_constant(tmp_path):
    report = tmp_path / "r.json"
    r = run("check", *KIP858, "-D", 'Revison="a"', "--report-json", report, cwd=ROOT)
    assert r.exit_code == 151
    assert r.stderr.startswith("error: -D Revison: 'Revison' is not a constant of module "
                               "KIP858Properties; did you mean Revision? (its constants: "
                               "Brokers, BugAckUnsent,")
    assert "Revision, UNASSIGNED)" in r.stderr
    assert r.stdout == ""
    doc = json.loads(report.read_text())
    assert (doc["verdict"], doc["exit_code"]) == ("config-error", 151)
    assert doc["spec"] == "invariants/KIP858Properties.tla"


def test_define_of_a_constant_still_works(tmp_path):
    spec = write(tmp_path, "D", "CONSTANT N\n" + COUNTER.replace("3", "N"),
                 "CONSTANT N = 3\n" + INIT_NEXT + "CHECK_DEADLOCK FALSE\n")
    assert check(spec, constants={"N": 5}).distinct_states == 6
    r = run("check", spec, "-D", "NN=2")
    assert r.exit_code == 151
    assert "'NN' is not a constant of module D; did you mean N? (its constants: N)" in r.stderr
    r = run("check", spec, "-D", "N=2", "-D", "N=5")  # the later one used to win silently
    assert r.exit_code == 151
    assert "-D N is given twice; give each constant once" in r.stderr


# -- --max-depth ------------------------------------------------------------------------------

LIVE = """VARIABLE x
Init == x = 0
Next == x < 10 /\\ x' = x + 1
Spec == Init /\\ [][Next]_x
Reach == <>(x = 100)
Inv == x >= 0
"""
LIVE_CFG = "SPECIFICATION Spec\nPROPERTY Reach\nINVARIANT Inv\nCHECK_DEADLOCK FALSE\n"


def test_a_cut_search_leaves_liveness_undecided_and_never_says_no_error(tmp_path):
    spec = write(tmp_path, "Live", LIVE, LIVE_CFG)
    report, junit = tmp_path / "r.json", tmp_path / "j.xml"
    r = run("check", spec, "--max-depth", 5, "--report-json", report, "--junit-xml", junit)
    assert r.exit_code == V.EXIT_INCOMPLETE == 3
    assert "No error has been found" not in r.stdout
    assert r.stdout.splitlines()[:4] == [
        "The search was cut at depth 5 (--max-depth), so these temporal properties could not "
        "be decided: Reach.",
        "No violation found within depth 5; the search was cut, so this is not a complete "
        "check.",
        "5 states generated, 5 distinct states found, 0 states left on queue.",
        "The search was cut at depth 5."]
    doc = json.loads(report.read_text())
    assert (doc["verdict"], doc["exit_code"], doc["complete"], doc["cut_depth"],
            doc["undecided"]) == ("incomplete", 3, False, 5, ["Reach"])
    cases = {c.get("name"): c for c in ET.parse(junit).getroot().iter("testcase")}
    assert cases["property Reach"].find("skipped") is not None
    assert "cut at depth 5" in cases["property Reach"].find("skipped").get("message")
    assert list(cases["invariant Inv"]) == []  # held within the depth


def test_a_depth_the_search_never_reaches_is_a_complete_check(tmp_path):
    spec = write(tmp_path, "Live", LIVE, LIVE_CFG)
    r = run("check", spec, "--max-depth", 50)
    assert r.exit_code == 13
    assert r.stdout.startswith("Error: Temporal properties were violated.")


def test_a_cut_safety_check_passes_but_says_it_is_bounded(tmp_path):
    spec = write(tmp_path, "C", COUNTER, INIT_NEXT + "CHECK_DEADLOCK FALSE\n")
    report = tmp_path / "r.json"
    r = run("check", spec, "--max-depth", 2, "--report-json", report)
    assert r.exit_code == 0
    assert "No error has been found" not in r.stdout
    assert r.stdout.startswith("No violation found within depth 2; the search was cut, so this "
                               "is not a complete check.\n")
    doc = json.loads(report.read_text())
    assert (doc["verdict"], doc["complete"], doc["cut_depth"], doc["undecided"]) == (
        "ok", False, 2, [])


# -- Assert and evaluation errors during the search ---------------------------------------------

def test_assert_failing_in_an_action_has_tlcs_counts_and_trace(tmp_path):
    spec = write(tmp_path, "A", """VARIABLE x
Init == x = 0
Next == x' = x + 1 /\\ Assert(x < 3, "too big")
""", INIT_NEXT)
    o = check(spec)
    # TLC 2.18: exit 14, "4 states generated, 4 distinct states found, 0 states left on queue",
    # the behaviour up to the state whose successors could not be computed (x = 3).
    assert (o.verdict, o.exit_code, o.states_generated, o.distinct_states, o.states_left) == (
        "assert", 14, 4, 4, 0)
    assert [s.state for s in o.trace] == [(0,), (1,), (2,), (3,)]
    r = run("check", spec)
    assert r.exit_code == 14
    assert r.stdout.startswith('Error: The first argument of Assert evaluated to FALSE; the '
                               'second argument was:\n"too big"\nThe error occurred in action '
                               'Next.\n')
    assert "State 4: <Next>" in r.stdout


def test_assert_failing_in_an_invariant_is_an_evaluation_error_naming_it(tmp_path):
    spec = write(tmp_path, "AI", COUNTER + 'Inv == Assert(x < 2, "x too big")\n',
                 INIT_NEXT + "INVARIANT Inv\n")
    o = check(spec)
    # TLC 2.18: "Evaluating invariant Inv failed." and the assertion, after 3 states, exit 76:
    # an evaluation error (not an Assert verdict, which TLC gives only in actions).
    assert (o.verdict, o.property, len(o.trace)) == ("error", "Inv", 3)
    junit = tmp_path / "j.xml"
    r = run("check", spec, "--junit-xml", junit)
    assert r.exit_code == 76
    cases = {c.get("name"): c for c in ET.parse(junit).getroot().iter("testcase")}
    assert cases["invariant Inv"].find("error").get("type") == "error"
    assert cases["deadlock"].find("skipped") is not None


def test_an_evaluation_error_in_a_constraint_is_exit_75_with_span_and_trace(tmp_path):
    spec = write(tmp_path, "B", """VARIABLE x
Init == x = 0
Next == x' = x + 1
C == IF x > 2 THEN Head(<<>>) = 1 ELSE TRUE
""", INIT_NEXT + "CONSTRAINT C\n")
    r = run("check", spec)
    assert r.exit_code == 75
    # TLC 2.18: 4 states generated, 3 distinct states found, 0 states left on queue.
    assert r.stdout.startswith(
        "Error: Attempted to apply Head to the empty sequence.\n"
        "The error occurred while evaluating a CONSTRAINT or ACTION_CONSTRAINT.\n"
        f"{spec}:6:6: error: the error occurred while evaluating this expression\n")
    assert "State 4: <Next>\n*/\\ x = 3" in r.stdout
    assert "4 states generated, 3 distinct states found, 0 states left on queue." in r.stdout


# -- cfg keywords that kipcheck does not apply ---------------------------------------------------

def test_a_false_postcondition_exits_10_with_tlcs_message(tmp_path):
    spec = write(tmp_path, "P", COUNTER + "Post == TLCGet(\"distinct\") = 0\n",
                 INIT_NEXT + "POSTCONDITION Post\nCHECK_DEADLOCK FALSE\n")
    r = run("check", spec)
    assert r.exit_code == 10
    assert "Error: Postcondition Post at line " in r.stdout and "of module P is false." in r.stdout


def test_an_alias_that_cannot_be_evaluated_is_a_warning_not_silence(tmp_path):
    """TLC falls back to the variables when the ALIAS fails; kipcheck does too, and says so."""
    spec = write(tmp_path, "Al", COUNTER + "Inv == x < 2\nAl == [y |-> <<>>[x]]\n",
                 INIT_NEXT + "INVARIANT Inv\nALIAS Al\n")
    r = run("check", spec)
    assert r.exit_code == 12
    assert r.stdout.startswith(f"Warning: ALIAS Al ({tmp_path / 'Al.cfg'}:4:7) could not be "
                               f"evaluated on state 1, so the trace shows the variables: ")
    assert "State 3: <Next>\n*/\\ x = 2" in r.stdout


# -- deep expressions ---------------------------------------------------------------------------

@pytest.mark.parametrize("body", [
    " ".join(["/\\ x >= 0"] * 200),
    "~(" + " ".join(["\\/ x < 0"] * 200) + ")",
    " \\/ ".join(["x < 0"] * 400) + " \\/ x >= 0",
    "(" * 200 + "x >= 0" + ")" * 200,
    "\n".join(["  /\\ x >= 0"] * 300),
])
def test_hundreds_of_conjuncts_check_as_in_tlc(tmp_path, body):
    spec = write(tmp_path, "Deep", COUNTER + f"Inv ==\n{body}\n",
                 INIT_NEXT + "INVARIANT Inv\nCHECK_DEADLOCK FALSE\n")
    o = check(spec)
    assert (o.verdict, o.distinct_states, o.states_generated) == ("ok", 4, 4)


def test_a_long_disjunction_of_actions_keeps_the_order_of_its_actions(tmp_path):
    acts = " \\/ ".join(f"(x = {i} /\\ x' = {i + 1})" for i in range(300))
    spec = write(tmp_path, "Acts", f"VARIABLE x\nInit == x = 0\nNext == {acts}\n",
                 INIT_NEXT + "CHECK_DEADLOCK FALSE\n")
    o = check(spec)
    assert (o.verdict, o.distinct_states, o.depth) == ("ok", 301, 301)


# -- reports when writing fails, and on input errors ---------------------------------------------

@pytest.mark.parametrize("option", ["--report-json", "--junit-xml", "--dump-graph"])
def test_an_unwritable_output_keeps_the_verdict_and_fails_a_passing_check(tmp_path, option):
    spec = write(tmp_path, "C", COUNTER, INIT_NEXT + "CHECK_DEADLOCK FALSE\n")
    target = tmp_path / "missing" / ("out.graphml" if option == "--dump-graph" else "out")
    r = run("check", spec, option, target)
    assert r.exit_code == V.EXIT_USAGE == 2
    assert "Model checking completed. No error has been found." in r.stdout
    assert f"to {target}: No such file or directory" in r.stderr
    assert "Traceback" not in r.output


def test_an_unwritable_output_keeps_a_violations_exit_code(tmp_path):
    spec = write(tmp_path, "C", COUNTER, INIT_NEXT)
    (tmp_path / "file.txt").write_text("")
    r = run("check", spec, "--report-json", tmp_path / "no" / "r.json", "--junit-xml",
            tmp_path / "no" / "j.xml", "--trace-out", tmp_path / "file.txt" / "sub")
    assert r.exit_code == 11
    assert "Error: Deadlock reached." in r.stdout
    assert r.stderr.count("error: cannot write") == 3
    assert f"error: cannot write the counterexample to {tmp_path / 'file.txt' / 'sub'}: " \
        in r.stderr


def test_the_json_report_of_a_spec_error_has_the_location(tmp_path):
    spec = tmp_path / "S.tla"
    spec.write_text("---- MODULE S ----\nVARIABLE x\nInit == x = \n====\n")
    (tmp_path / "S.cfg").write_text(INIT_NEXT)
    r = run("check", "S.tla", "--report-json", "r.json", "--junit-xml", "j.xml", cwd=tmp_path)
    assert r.exit_code == 150
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc == {"format": "kipcheck-report", "version": 1, "verdict": "spec-error",
                   "exit_code": 150, "spec": "S.tla", "config": "S.cfg",
                   "message": doc["message"], "location": {"file": "S.tla", "line": 4,
                                                           "column": 1}}
    ET.parse(tmp_path / "j.xml")


def test_non_utf8_cfg_with_junit_is_a_config_error_with_position(tmp_path):
    write(tmp_path, "U", COUNTER, "")
    (tmp_path / "U.cfg").write_bytes(b"INIT Init\nNEXT N\xe9xt\n")
    r = run("check", "U.tla", "--junit-xml", "j.xml", "--report-json", "r.json", cwd=tmp_path)
    assert r.exit_code == 151
    assert r.stderr.startswith("U.cfg:2:7: error: the file is not UTF-8 text here")
    assert ET.parse(tmp_path / "j.xml").getroot().get("errors") == "1"
    assert json.loads((tmp_path / "r.json").read_text())["location"] == {
        "file": "U.cfg", "line": 2, "column": 7}


def test_non_utf8_comment_in_a_cfg_is_read_as_tlc_reads_it(tmp_path):
    write(tmp_path, "U", COUNTER, "")
    (tmp_path / "U.cfg").write_bytes(b"INIT Init\n\\* caf\xe9\nNEXT Next\nCHECK_DEADLOCK FALSE\n")
    r = run("check", "U.tla", "--junit-xml", "j.xml", cwd=tmp_path)
    assert r.exit_code == 0, r.output
    assert ET.parse(tmp_path / "j.xml").getroot().get("tests") == "0"


def test_non_utf8_spec_is_a_spec_error_with_position(tmp_path):
    (tmp_path / "U.tla").write_bytes(b"---- MODULE U ----\nVARIABLE x \\* caf\xe9\n====\n")
    r = run("check", "U.tla", "--junit-xml", "j.xml", "--report-json", "r.json", cwd=tmp_path)
    assert r.exit_code == 150
    assert r.stderr.startswith("U.tla:2:18: error: the file is not UTF-8 text: byte 0xe9")
    ET.parse(tmp_path / "j.xml")
    assert json.loads((tmp_path / "r.json").read_text())["verdict"] == "spec-error"


# -- outputs always valid, without absolute paths ------------------------------------------------

def test_control_characters_in_states_still_make_valid_xml(tmp_path):
    write(tmp_path, "X", 'VARIABLE x\nInit == x = "a\\fb"\nNext == x\' = x\nInv == x # "a\\fb"\n',
          INIT_NEXT + "INVARIANT Inv\n")
    r = run("check", "X.tla", "--junit-xml", "j.xml", "--trace-out", "out", "--dump-graph",
            "g.graphml", cwd=tmp_path)
    assert r.exit_code == 12
    for name in ("j.xml", "out/X.graphml", "g.graphml"):  # the value as TLC writes it
        text = ET.tostring(ET.parse(tmp_path / name).getroot(), encoding="unicode")
        assert '"a\\fb"' in text, name


def test_outputs_name_files_relative_to_the_working_directory(tmp_path):
    write(tmp_path, "C", COUNTER, INIT_NEXT)
    r = run("check", tmp_path / "C.tla", "--trace-out", "out", "--report-json", "r.json",
            cwd=tmp_path)
    assert r.exit_code == 11
    for name in ("r.json", "out/C.itf.json", "out/C.html"):
        text = (tmp_path / name).read_text()
        assert str(tmp_path) not in text, name
    doc = json.loads((tmp_path / "r.json").read_text())
    assert (doc["spec"], doc["config"]) == ("C.tla", "C.cfg")
    meta = json.loads((tmp_path / "out/C.itf.json").read_text())["#meta"]
    assert (meta["source"], meta["model"]) == ("C.tla", "C.cfg")


def test_a_file_outside_the_working_directory_is_named_by_its_file_name(tmp_path):
    from checker.paths import shown_path

    assert shown_path("/somewhere/else/M.tla") == "M.tla"
    assert shown_path(Path.cwd() / "a" / "M.tla") == "a/M.tla"
    assert shown_path(None) is None


# -- the README's examples ----------------------------------------------------------------------

def readme_commands() -> list[str]:
    """Every `kipcheck ...` command of the README's ```sh blocks (continuation lines joined):
    the blocks a reader pastes into bash. Synopses with [options] are ```text blocks."""
    import re

    readme = (ROOT / "README.md").read_text()
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", readme, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            for part in line.split("&&"):
                part = part.strip()
                if part.startswith("kipcheck "):
                    commands.append(part)
    return commands


def bash_words(command: str) -> list[str]:
    """The arguments bash makes of `command` (quotes, brace expansion, comments and all)."""
    import subprocess

    out = subprocess.run(["bash", "-c", "set -- " + command + "\nprintf '%s\\0' \"$@\""],
                         capture_output=True, text=True, check=True, cwd=ROOT).stdout
    return out.split("\0")[:-1]


def test_the_readme_has_examples_to_check():
    assert len(readme_commands()) >= 5


@pytest.mark.parametrize("command", readme_commands())
def test_every_readme_example_parses_as_bash_gives_it(command):
    words = bash_words(command)
    assert words[0] == "kipcheck"
    ctx = main.make_context("kipcheck", words[1:])
    args = [*ctx._protected_args, *ctx.args] if hasattr(ctx, "_protected_args") else ctx.args
    name, cmd, rest = main.resolve_command(ctx, args)
    while hasattr(cmd, "resolve_command"):  # a group: `kipcheck trace render ...`
        sub = cmd.make_context(name, rest, parent=ctx)
        sub_args = [*getattr(sub, "_protected_args", []), *sub.args]
        name, cmd, rest = cmd.resolve_command(sub, sub_args)
        ctx = sub
    cmd.make_context(name, rest, parent=ctx)  # raises on an unknown option or a bad value
    for w in words:  # every spec, cfg and lib the example names is shipped
        if w.endswith((".tla", ".cfg")):
            assert (ROOT / w).is_file(), w
    defines = [words[i + 1] for i, w in enumerate(words) if w == "-D"]
    assert all("=" in d for d in defines), defines


# -- lanes of every shipped model -----------------------------------------------------------------

@pytest.mark.parametrize("kip", ["KIP858", "KIP516", "KIP36", "KIP928"])
def test_every_kip_model_ships_a_valid_lanes_file(kip):
    from checker.traces.lanes import load_lanes

    lanes = load_lanes(ROOT / "invariants" / f"{kip}Properties.lanes.json")
    assert lanes["lanes"][0] == "controller"


def test_every_golden_trace_draws_lanes():
    from checker.traces import golden, itf
    from checker.traces.lanes import diagram

    for m in golden.entries(ROOT):
        cx = itf.loads(m.trace_path.read_text(encoding="utf-8"))
        assert cx.lanes is not None, m.name
        lanes = diagram(cx, cx.lanes).lanes
        assert lanes[0] == "controller", (m.name, lanes)


def test_a_lane_can_be_a_component_of_a_tuple_parameter(tmp_path):
    write(tmp_path, "T", """CONSTANT Brokers
VARIABLE failed
Init == failed = [b \\in Brokers |-> {}]
Fail(d) == d[2] \\notin failed[d[1]] /\\ failed' = [failed EXCEPT ![d[1]] = @ \\cup {d[2]}]
Next == \\E d \\in Brokers \\X {1, 2} : Fail(d)
Inv == \\A b \\in Brokers : 2 \\notin failed[b]
""", "CONSTANT Brokers = {b1, b2}\n" + INIT_NEXT + "INVARIANT Inv\n")
    (tmp_path / "T.lanes.json").write_text(json.dumps(
        {"lanes": [{"domainOf": "failed"}], "actions": {"Fail": {"lane": "$d[1]"}}}))
    r = run("check", "T.tla", "--trace-out", "out", cwd=tmp_path)
    assert r.exit_code == 12
    from checker.traces import itf
    from checker.traces.lanes import diagram

    cx = itf.loads((tmp_path / "out" / "T.itf.json").read_text())
    d = diagram(cx, cx.lanes)
    assert d.lanes == ["b1", "b2"]
    assert [e.lane for e in d.events] == ["b1"]


def test_ctrl_c_exits_130_and_still_writes_the_report(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    write(tmp_path, "Long", "VARIABLE x\nInit == x = 0\nNext == x < 100000000 /\\ x' = x + 1\n",
          INIT_NEXT)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "checker.cli", "check", "Long.tla",
                             "--report-json", "r.json"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(8)  # past start-up (imports) even on a loaded machine: the search is long
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == V.EXIT_INTERRUPTED == 130
    # The engine stops at once and prints the statistics so far.
    assert "Interrupted: The search was interrupted. The statistics so far:" in out
    assert "distinct states found" in out
    assert "Traceback" not in err
    assert json.loads((tmp_path / "r.json").read_text())["verdict"] == "interrupted"


def test_check_help_lists_the_exit_codes():
    r = run("check", "--help")
    assert r.exit_code == 0
    tail = r.stdout[r.stdout.index("Exit codes:"):].splitlines()[1:]
    assert [int(line.split()[0]) for line in tail] == sorted(V.MEANINGS)
    assert ("      3  --max-depth cut the search and a property (liveness) was left "
            "undecided") in tail


def test_every_readme_example_runs_in_a_fresh_directory(tmp_path):
    """Pasted in order into bash in a directory that holds the models (as a clone does)."""
    for d in ("spec", "invariants"):
        (tmp_path / d).symlink_to(ROOT / d)
    codes = []
    for command in readme_commands():
        r = run(*bash_words(command)[1:], cwd=tmp_path)
        assert "Traceback" not in r.output, command
        codes.append(r.exit_code)
    # the KIP-858 check, the -D one, ack_unsent's counterexample, its rendering, the size
    # knobs, a KIP-858 check by knobs, a sweep of KIP-36, KIP-516's bug
    assert codes == [0, 0, 12, 0, 0, 0, 0, 12]
    assert (tmp_path / "trace.html").is_file()
    assert (tmp_path / "sweep-kip36" / "sweep.html").is_file()


# TLC 2.18's answers (-workers 1; with -deadlock the same): none of these may pass.
CONSTANT_INIT_NEXT = [
    # an INIT or NEXT that reads no variable, whatever its value (FALSE passed with 0 states)
    ("Init == FALSE\nNext == x' = x\n", "INIT Init\nNEXT Next\n", 151,
     "The initial predicate Init cannot be a constant."),
    ("Init == TRUE\nNext == x' = x\n", "INIT Init\nNEXT Next\n", 151,
     "The initial predicate Init cannot be a constant."),
    ("CONSTANT N\nInit == N > 3\nNext == x' = x\n", "CONSTANT N = 2\nINIT Init\nNEXT Next\n",
     151, "The initial predicate Init cannot be a constant."),
    ("CONSTANT N\nInit == x = 0\nNext == N > 3\n", "CONSTANT N = 2\nINIT Init\nNEXT Next\n",
     151, "The next state action Next cannot be a constant."),
    # a SPECIFICATION's constant conjunct that is FALSE
    ("Init == FALSE\nSpec == Init /\\ [][x' = x]_x\n", "SPECIFICATION Spec\n", 151,
     "The spec is trivially false because Init is false."),
    ("Spec == 1 > 2 /\\ [][x' = x]_x\n", "SPECIFICATION Spec\n", 151,
     "The spec is trivially false because 1 > 2 is false."),
    # a next-state relation that splits into no action: after the initial states (1 state)
    ("CONSTANT P\nInit == x = 0\nNext == \\E p \\in P : x' = p\n",
     "CONSTANT P = {}\nINIT Init\nNEXT Next\n", 75,
     "No next state actions defined to generate successor states from."),
    ("Init == x = 0\nSpec == Init /\\ [][\\E i \\in {} : x' = i]_x /\\ WF_x(x' = 1)\n"
     "Live == <>(x = 1)\n", "SPECIFICATION Spec\nPROPERTY Live\n", 75,
     "No next state actions defined to generate successor states from."),
]


@pytest.mark.parametrize("body, cfg, code, line", CONSTANT_INIT_NEXT)
@pytest.mark.parametrize("command", [["check"], ["check", "--no-deadlock"],
                                     ["simulate", "--traces", "5"]])
def test_a_spec_with_nothing_to_check_is_refused_as_tlc_refuses_it(tmp_path, body, cfg, code,
                                                                    line, command):
    spec = write(tmp_path, "Trivial", f"VARIABLE x\n{body}", cfg)
    result = run(command[0], spec, *command[1:])
    assert result.exit_code == code, result.output
    if code == 151:  # a configuration error, at its .cfg entry
        assert "Trivial.cfg:" in result.output and f"error: {line}\n" in result.output
    else:
        assert f"Error: {line}" in result.output.splitlines()
    if code == 75 and command[0] == "check":
        assert "1 distinct states found" in result.output


def test_no_actions_comes_after_the_initial_states_checks(tmp_path):
    # TLC: an initial state violating an invariant is reported first (exit 12)
    spec = write(tmp_path, "NoActions", "VARIABLE x\nInit == x = 0\nNext == \\E i \\in {} : "
                 "x' = i\nInv == x = 1\n", "INIT Init\nNEXT Next\nINVARIANT Inv\n")
    assert run("check", spec).exit_code == 12


def test_xml_safe_writes_control_characters_as_visible_escapes():
    # TLA+ escapes (\f, \t) reach the outputs as written; a control character from elsewhere
    # (a file a community module read) still must not break the XML
    from checker.traces.xmlsafe import xml_safe

    assert xml_safe("a\x0cb\x01c\td") == "a\\u000cb\\u0001c\td"
