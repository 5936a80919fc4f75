"""A check's verdict as JUnit XML (`--junit-xml`), so CI systems show violations natively.

One test case per checked property: each INVARIANT, each PROPERTY, and the deadlock check when
it is on. The violated one fails, with the counterexample as the failure's text; one whose
evaluation failed is an error; the others are skipped when the search stopped before it was
complete (kipcheck stops at the first violation), and pass when it completed. A temporal
property that a search cut by --max-depth could not decide is skipped, never passed.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from .. import verdicts as V
from .counterexample import from_outcome
from .text import format_counterexample, format_trace
from .xmlsafe import xml_safe

STOPPED = "not checked to the end: the search stopped at {what}"
UNDECIDED = ("not decided: the search was cut at depth {depth} (--max-depth), and a temporal "
             "property needs the whole state graph")


def cases_of(config) -> list[tuple[str, str]]:
    """(kind, name) of every property a parsed .cfg asks to check."""
    cases = [("invariant", n.name) for n in config.invariants]
    cases += [("property", n.name) for n in config.properties]
    if getattr(config, "postcondition", None) is not None:
        cases.append(("postcondition", config.postcondition.name))
    return cases


def junit_xml(outcome, cases: list[tuple[str, str]], deadlock: bool, suite: str) -> str:
    """The JUnit XML document for `outcome`; `cases` from cases_of, `suite` names the model."""
    cases = list(cases) + ([("deadlock", "deadlock")] if deadlock else [])
    verdict, prop = outcome.verdict, outcome.property
    if verdict == V.DEADLOCK:
        culprit = "deadlock"
    elif verdict in (V.INVARIANT, V.PROPERTY, V.POSTCONDITION, V.ERROR,
                     V.ASSERT) and prop is not None:
        culprit = prop
    else:
        culprit = None
    failed = verdict in (V.ERROR, V.ASSERT)  # evaluation failed: an error, not a failure
    trace = ""
    if outcome.trace:
        cx = from_outcome(outcome)
        trace = format_trace(cx) if failed else format_counterexample(cx)
    undecided = set(getattr(outcome, "undecided", ()))
    cut = getattr(outcome, "cut_depth", None)
    root = ET.Element("testsuites")
    ts = ET.SubElement(root, "testsuite", name=suite, time=f"{outcome.seconds:.3f}")
    counts = {"failures": 0, "errors": 0, "skipped": 0}
    for kind, name in cases:
        tc = ET.SubElement(ts, "testcase", classname=f"kipcheck.{suite}",
                           name=name if kind == "deadlock" else f"{kind} {name}", time="0")
        if verdict in (V.OK, V.INCOMPLETE, V.WITNESS):  # (a witness: its own case below)
            if kind == "property" and name in undecided:
                reason = getattr(outcome, "undecided_reason", None)  # a simulation's
                ET.SubElement(tc, "skipped", message=reason or UNDECIDED.format(depth=cut))
                counts["skipped"] += 1
        elif culprit is None:  # nothing could be checked: an assumption, Assert, evaluation
            err = ET.SubElement(tc, "error", message=_first_line(outcome.message or verdict),
                                type=verdict)
            err.text = "\n".join(x for x in (outcome.message, trace) if x)
            counts["errors"] += 1
        elif name == culprit and (kind == "deadlock") == (verdict == V.DEADLOCK):
            if failed:
                err = ET.SubElement(tc, "error", message=_first_line(outcome.message or ""),
                                    type=verdict)
                err.text = "\n".join(x for x in (outcome.message, trace) if x)
                counts["errors"] += 1
            else:
                text = trace or outcome.message or ""  # a postcondition has no trace
                fail = ET.SubElement(tc, "failure", message=_first_line(text), type=verdict)
                fail.text = text
                counts["failures"] += 1
        else:
            what = "the deadlock" if verdict == V.DEADLOCK else f"the violation of {culprit}"
            if failed:
                what = f"the evaluation error in {culprit}"
            ET.SubElement(tc, "skipped", message=STOPPED.format(what=what))
            counts["skipped"] += 1
    witnesses = getattr(outcome, "witnesses", ())
    for w in witnesses:  # reached, not reached, or not decided (the search stopped first)
        tc = ET.SubElement(ts, "testcase", classname=f"kipcheck.{suite}",
                           name=f"witness {w['name']}", time="0")
        if w["reached"]:
            continue
        if verdict == V.WITNESS:
            text = f"No reachable state satisfies the witness {w['name']}."
            fail = ET.SubElement(tc, "failure", message=text, type=V.WITNESS)
            fail.text = text
            counts["failures"] += 1
        elif verdict not in (V.OK, V.INCOMPLETE):
            ET.SubElement(tc, "skipped", message="not reached before the search stopped")
            counts["skipped"] += 1
    ts.set("tests", str(len(cases) + len(witnesses)))
    for k, v in counts.items():
        ts.set(k, str(v))
    for k in ("tests", "failures", "errors", "skipped", "time"):
        root.set(k, ts.get(k))
    ET.indent(root)
    return _document(root)


def junit_error(message: str, suite: str) -> str:
    """The JUnit XML of a check that could not run at all (an error in the spec or .cfg)."""
    root = ET.Element("testsuites", tests="1", failures="0", errors="1", skipped="0")
    ts = ET.SubElement(root, "testsuite", name=suite, tests="1", failures="0", errors="1",
                       skipped="0", time="0")
    tc = ET.SubElement(ts, "testcase", classname=f"kipcheck.{suite}", name="load", time="0")
    err = ET.SubElement(tc, "error", message=_first_line(message), type="input")
    err.text = message
    ET.indent(root)
    return _document(root)


def _document(root: ET.Element) -> str:
    """The XML text; characters XML 1.0 cannot hold (a TLA+ string may) made visible."""
    text = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + xml_safe(text) + "\n"


def suite_name(spec: str | Path, config: str | Path | None) -> str:
    return Path(config).stem if config else Path(spec).stem


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text and text.strip() else ""
