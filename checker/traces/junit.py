"""A check's verdict as JUnit XML (`--junit-xml`), so CI systems show violations natively.

One test case per checked property: each INVARIANT, each PROPERTY, and the deadlock check when
it is on. The violated one fails, with the counterexample as the failure's text; one whose
evaluation failed is an error; the others are skipped when the search stopped before it was
complete (kipcheck stops at the first violation), and pass when it completed. A property
kipcheck could not check (it says so in a warning) is skipped with that warning.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from .counterexample import from_outcome
from .text import format_counterexample, format_trace

STOPPED = "not checked to the end: the search stopped at {what}"


def cases_of(config) -> list[tuple[str, str]]:
    """(kind, name) of every property a parsed .cfg asks to check."""
    cases = [("invariant", n.name) for n in config.invariants]
    cases += [("property", n.name) for n in config.properties]
    return cases


def junit_xml(outcome, cases: list[tuple[str, str]], deadlock: bool, suite: str) -> str:
    """The JUnit XML document for `outcome`; `cases` from cases_of, `suite` names the model."""
    cases = list(cases) + ([("deadlock", "deadlock")] if deadlock else [])
    verdict, prop = outcome.verdict, outcome.property
    if verdict == "deadlock":
        culprit = "deadlock"
    elif verdict in ("invariant", "property", "error") and prop is not None:
        culprit = prop
    else:
        culprit = None
    trace = ""
    if outcome.trace:
        cx = from_outcome(outcome)
        trace = format_counterexample(cx) if verdict not in ("error", "assert") \
            else format_trace(cx)
    root = ET.Element("testsuites")
    ts = ET.SubElement(root, "testsuite", name=suite, time=f"{outcome.seconds:.3f}")
    counts = {"failures": 0, "errors": 0, "skipped": 0}
    for kind, name in cases:
        tc = ET.SubElement(ts, "testcase", classname=f"kipcheck.{suite}",
                           name=name if kind == "deadlock" else f"{kind} {name}", time="0")
        unchecked = next((w for w in outcome.warnings if w.startswith(f"PROPERTY {name} ")),
                         None)
        if verdict == "ok":
            if unchecked:
                ET.SubElement(tc, "skipped", message=unchecked)
                counts["skipped"] += 1
        elif culprit is None:  # nothing could be checked: an assumption, Assert, evaluation
            err = ET.SubElement(tc, "error", message=_first_line(outcome.message or verdict),
                                type=verdict)
            err.text = "\n".join(x for x in (outcome.message, trace) if x)
            counts["errors"] += 1
        elif name == culprit and (kind == "deadlock") == (verdict == "deadlock"):
            if verdict == "error":
                err = ET.SubElement(tc, "error", message=_first_line(outcome.message or ""),
                                    type="error")
                err.text = "\n".join(x for x in (outcome.message, trace) if x)
                counts["errors"] += 1
            else:
                fail = ET.SubElement(tc, "failure", message=_first_line(trace), type=verdict)
                fail.text = trace
                counts["failures"] += 1
        else:
            what = "the deadlock" if verdict == "deadlock" else f"the violation of {culprit}"
            if verdict == "error":
                what = f"the evaluation error in {culprit}"
            ET.SubElement(tc, "skipped", message=unchecked or STOPPED.format(what=what))
            counts["skipped"] += 1
    ts.set("tests", str(len(cases)))
    for k, v in counts.items():
        ts.set(k, str(v))
    for k in ("tests", "failures", "errors", "skipped", "time"):
        root.set(k, ts.get(k))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") \
        + "\n"


def junit_error(message: str, suite: str) -> str:
    """The JUnit XML of a check that could not run at all (an error in the spec or .cfg)."""
    root = ET.Element("testsuites", tests="1", failures="0", errors="1", skipped="0")
    ts = ET.SubElement(root, "testsuite", name=suite, tests="1", failures="0", errors="1",
                       skipped="0", time="0")
    tc = ET.SubElement(ts, "testcase", classname=f"kipcheck.{suite}", name="load", time="0")
    err = ET.SubElement(tc, "error", message=_first_line(message), type="input")
    err.text = message
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") \
        + "\n"


def suite_name(spec: str | Path, config: str | Path | None) -> str:
    return Path(config).stem if config else Path(spec).stem


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text and text.strip() else ""
