"""Counterexamples and summaries as TLC prints them, with changed variables marked."""
from __future__ import annotations

from ..semantics.values import show

HEADERS = {
    "invariant": "Error: Invariant {prop} is violated.",
    "property": "Error: Action property {prop} is violated.",
    "deadlock": "Error: Deadlock reached.",
}


def format_trace(steps, variables: list[str]) -> str:
    """`State N: <action>` and the variables, `*` before those that changed since N-1."""
    out = []
    prev = None
    for i, step in enumerate(steps, 1):
        label = "Initial predicate" if step.action is None else step.action
        out.append(f"State {i}: <{label}>")
        for name, value in zip(variables, step.state, strict=True):
            changed = prev is not None and value != prev[variables.index(name)]
            mark = "*" if changed else " "
            out.append(f"{mark}/\\ {name} = {show(value)}")
        out.append("")
        prev = step.state
    return "\n".join(out)


def format_outcome(o) -> str:
    lines = []
    for w in o.warnings:
        lines.append(f"Warning: {w}")
    if o.verdict in HEADERS:
        lines.append(HEADERS[o.verdict].format(prop=o.property))
        lines.append("Error: The behavior up to this point is:")
        lines.append(format_trace(o.trace, o.variables))
    elif o.verdict in ("assumption", "assert", "error"):
        lines.append(f"Error: {o.message}")
        if o.verdict == "error" and o.span is not None:
            from ..frontend.errors import KipcheckError

            where = KipcheckError("the error occurred while evaluating this expression", o.span)
            lines.append(where.format())
        if o.trace:
            lines.append("Error: The behavior up to this point is:")
            lines.append(format_trace(o.trace, o.variables))
    else:
        lines.append("Model checking completed. No error has been found.")
        lines.append("  Estimates of the probability that TLC did not check all reachable states")
        lines.append("  because two distinct states had the same fingerprint:")
        lines.append(f"  calculated (optimistic):  val = {collision_estimate(o)}")
    if o.verdict not in ("assumption",):
        lines.append(f"{o.states_generated} states generated, {o.distinct_states} distinct states "
                     f"found, {o.states_left} states left on queue.")
        lines.append(f"The depth of the complete state graph search is {o.depth}.")
    lines.append(f"Finished in {o.seconds:.2f}s")
    return "\n".join(lines)


def collision_estimate(o) -> str:
    n, g = o.distinct_states, o.states_generated
    val = n * (g - n) / 2.0 ** 64
    if val == 0:
        return "0.0"
    return f"{val:.1E}"
