"""--junit-xml: one test case per checked property, in the shape CI systems read (the common
JUnit schema: testsuites > testsuite > testcase, at most one failure, error or skipped each)."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from click.testing import CliRunner

from checker.cli import main

SPECS = Path(__file__).resolve().parent / "specs"
INT_ATTRS = ("tests", "failures", "errors", "skipped")


def assert_junit_shape(root: ET.Element) -> None:
    """The rules of the common JUnit XML schema that CI systems rely on."""
    assert root.tag == "testsuites"
    for suite in root:
        assert suite.tag == "testsuite"
        assert suite.get("name")
        for a in INT_ATTRS:
            assert suite.get(a).isdigit(), a
        float(suite.get("time"))
        cases = list(suite)
        assert all(c.tag == "testcase" for c in cases)
        assert int(suite.get("tests")) == len(cases)
        for kind, attr in (("failure", "failures"), ("error", "errors"),
                           ("skipped", "skipped")):
            assert int(suite.get(attr)) == sum(1 for c in cases if c.find(kind) is not None)
        for c in cases:
            assert c.get("name") and c.get("classname")
            float(c.get("time"))
            outcome = [e for e in c if e.tag in ("failure", "error", "skipped")]
            assert len(outcome) <= 1 and len(list(c)) == len(outcome)
            for e in outcome:
                assert "message" in e.attrib
    for a in INT_ATTRS:
        assert int(root.get(a)) == sum(int(s.get(a)) for s in root)


def run(tmp_path, *args) -> tuple[int, ET.Element]:
    out = tmp_path / "junit.xml"
    r = CliRunner().invoke(main, ["check", *args, "--junit-xml", str(out)])
    root = ET.parse(out).getroot()
    assert_junit_shape(root)
    return r.exit_code, root


def cases(root):
    return {c.get("name"): c for c in root.iter("testcase")}


def test_a_violated_invariant_is_a_failing_case_with_the_trace(tmp_path):
    code, root = run(tmp_path, str(SPECS / "Records.tla"), "--config",
                     str(SPECS / "Records.cfg"))
    assert code == 12
    cs = cases(root)
    assert list(cs) == ["invariant TypeOK", "invariant NotAllDone", "deadlock"]
    fail = cs["invariant NotAllDone"].find("failure")
    assert fail.get("message") == "Error: Invariant NotAllDone is violated."
    assert "State 5: <Recv(b)>" in fail.text
    assert cs["invariant TypeOK"].find("skipped").get("message").endswith(
        "stopped at the violation of NotAllDone")
    suite = root.find("testsuite")
    assert (suite.get("name"), suite.get("tests"), suite.get("failures")) == (
        "Records", "3", "1")


def test_a_model_without_errors_passes_every_case(tmp_path):
    code, root = run(tmp_path, str(SPECS / "Counter.tla"), "--config",
                     str(SPECS / "CounterC.cfg"))
    assert code == 0
    assert all(len(list(c)) == 0 for c in root.iter("testcase"))
    assert root.get("failures") == "0" and root.get("errors") == "0"


def test_deadlock_and_action_properties_are_cases_too(tmp_path):
    code, root = run(tmp_path, str(SPECS / "Stop.tla"), "--config", str(SPECS / "Stop.cfg"))
    assert code == 11
    assert cases(root)["deadlock"].find("failure").get("message") == "Error: Deadlock reached."
    code, root = run(tmp_path, str(SPECS / "Stop.tla"), "--config", str(SPECS / "Stop.cfg"),
                     "--no-deadlock")
    assert code == 0 and "deadlock" not in cases(root)
    code, root = run(tmp_path, str(SPECS / "ActionProp.tla"), "--config",
                     str(SPECS / "ActionProp.cfg"))
    assert code == 13
    assert cases(root)["property Monotone"].find("failure") is not None


def test_a_postcondition_is_a_case_that_fails_with_tlcs_message(tmp_path):
    spec = tmp_path / "Post.tla"
    spec.write_text("---- MODULE Post ----\nEXTENDS Naturals, TLC\nVARIABLE x\nInit == x = 0\n"
                    "Next == x < 2 /\\ x' = x + 1\nP == TLCGet(\"distinct\") = 2\n====\n")
    (tmp_path / "Post.cfg").write_text("INIT Init\nNEXT Next\nPOSTCONDITION P\n"
                                       "CHECK_DEADLOCK FALSE\n")
    code, root = run(tmp_path, str(spec))
    assert code == 10
    fail = cases(root)["postcondition P"].find("failure")
    assert fail.get("message") == ("Postcondition P at line 6, col 6 to line 6, col 27 of module "
                                   "Post is false.")
    assert fail.get("type") == "postcondition"


def test_an_evaluation_error_is_an_errored_case(tmp_path):
    spec = tmp_path / "Err.tla"
    spec.write_text("---- MODULE Err ----\nEXTENDS Naturals, Sequences\nVARIABLE x\n"
                    "Init == x = 0\nNext == x' = x + 1\nInv == Head(<<>>) = x\n====\n")
    (tmp_path / "Err.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
    code, root = run(tmp_path, str(spec))
    assert code == 75
    err = cases(root)["invariant Inv"].find("error")
    assert err is not None and err.get("type") == "error"


def test_a_spec_that_does_not_load_still_leaves_a_report(tmp_path):
    spec = tmp_path / "Bad.tla"
    spec.write_text("---- MODULE Bad ----\nVARIABLE x\nInit == x = y\n====\n")
    (tmp_path / "Bad.cfg").write_text("INIT Init\nNEXT Init\n")
    code, root = run(tmp_path, str(spec))
    assert code == 150
    (case,) = root.iter("testcase")
    assert "undefined" in case.find("error").get("message")
