"""Counterexamples and summaries as TLC prints them, with changed variables marked."""
from __future__ import annotations

from .. import verdicts as V
from .counterexample import Counterexample, from_outcome

HEADERS = {
    V.INVARIANT: "Error: Invariant {prop} is violated.",
    V.PROPERTY: "Error: Action property {prop} is violated.",
    V.DEADLOCK: "Error: Deadlock reached.",
}
TEMPORAL = "Error: Temporal properties were violated."  # a lasso: a liveness violation
BEHAVIOUR = "Error: The behavior up to this point is:"
LASSO = "Error: The following behavior constitutes a counter-example:"


def format_trace(cx: Counterexample) -> str:
    """`State N: <action>` and the variables, `*` before those that changed since N-1; a lasso
    ends as TLC ends it: `Back to state M: <action>`, or `State N: Stuttering`."""
    out = []
    show = cx.show
    for i, step in enumerate(cx.steps):
        label = "Initial predicate" if step.label is None else step.label
        out.append(f"State {i + 1}: <{label}>")
        changed = set(cx.changed(i))
        for name, value in zip(cx.variables, step.state, strict=True):
            mark = "*" if name in changed else " "
            out.append(f"{mark}/\\ {name} = {show(value)}")
        out.append("")
    if cx.loop is not None:
        back = cx.back
        label = back.label if back is not None else None
        if label is None and cx.loop == len(cx.steps) - 1:
            out.append(f"State {len(cx.steps) + 1}: Stuttering")
        elif label is None:
            out.append(f"Back to state {cx.loop + 1}")
        else:
            out.append(f"Back to state {cx.loop + 1}: <{label}>")
        out.append("")
    return "\n".join(out)


def format_counterexample(cx: Counterexample) -> str:
    """The error lines and the behaviour, as TLC prints a violation."""
    lines = []
    if cx.verdict in (V.INVARIANT, V.PROPERTY) and cx.loop is None and len(cx.steps) == 1:
        # TLC names the initial state alone, not a behaviour: `x = 1` for one variable, a
        # `/\ x = 1` line each for more; a PROPERTY false there is a state predicate, which
        # TLC calls a property (not an action property)
        kind = "Invariant" if cx.verdict == V.INVARIANT else "Property"
        lines.append(f"Error: {kind} {cx.property} is violated by the initial state:")
        state = cx.steps[0].state
        bullet = "" if len(cx.variables) == 1 else "/\\ "
        lines += [f"{bullet}{name} = {cx.show(value)}"
                  for name, value in zip(cx.variables, state, strict=True)]
        lines.append("")
        return "\n".join(lines)
    if cx.loop is not None:
        lines.append(TEMPORAL)
    elif cx.verdict in HEADERS:
        lines.append(HEADERS[cx.verdict].format(prop=cx.property))
    elif cx.message:
        lines.append(f"Error: {cx.message}")
    if cx.steps:
        lines.append(LASSO if cx.loop is not None else BEHAVIOUR)
        lines.append(format_trace(cx))
    return "\n".join(lines)


def format_outcome(o, witness_traces: bool = False) -> str:
    """The check's report as TLC prints it, then each witness: reached at which depth (with
    its trace if `witness_traces`) or not."""
    lines = []
    for w in o.warnings:
        lines.append(f"Warning: {w}")
    if o.verdict == V.WITNESS:
        lines.append("Model checking completed. No property is violated.")
        lines.append(f"Error: {o.message}")
    elif o.verdict in HEADERS:
        lines.append(format_counterexample(_printed(o)))
    elif o.verdict == V.INTERRUPTED:
        lines.append(f"Interrupted: {o.message} The statistics so far:")
    elif o.verdict in (V.ASSUMPTION, V.POSTCONDITION, V.ASSERT, V.ERROR):
        lines.append(f"Error: {o.message}")
        if o.verdict not in (V.ASSUMPTION, V.POSTCONDITION) and o.span is not None:
            from ..frontend.errors import KipcheckError

            where = KipcheckError("the error occurred while evaluating this expression", o.span)
            lines.append(where.format())
        if o.trace:
            lines.append(BEHAVIOUR)
            lines.append(format_trace(_printed(o)))
    elif o.cut_depth is not None:  # --max-depth cut the search: never "No error has been found"
        if o.undecided:
            lines.append(f"The search was cut at depth {o.cut_depth} (--max-depth), so these "
                         f"temporal properties could not be decided: {', '.join(o.undecided)}.")
        lines.append(f"No violation found within depth {o.cut_depth}; the search was cut, so "
                     f"this is not a complete check.")
    else:
        lines.append("Model checking completed. No error has been found.")
        if getattr(o, "collision", None) is not None:  # whole states compared: no estimate
            lines.append("  Estimates of the probability that kipcheck did not check all "
                         "reachable states")
            lines.append("  because two distinct states had the same fingerprint:")
            lines.append(f"  calculated (optimistic):  val = {collision_estimate(o)}")
    if o.verdict != V.ASSUMPTION:
        lines.append(f"{o.states_generated} states generated, {o.distinct_states} distinct states "
                     f"found, {o.states_left} states left on queue.")
        if o.cut_depth is not None:
            lines.append(f"The search was cut at depth {o.cut_depth}.")
        else:
            lines.append(f"The depth of the complete state graph search is {o.depth}.")
    lines += _witness_lines(o, witness_traces)
    before = getattr(o, "seconds_before", 0.0)
    lines.append(f"Finished in {o.seconds:.2f}s" + (
        f" (the whole search: {before:.2f}s before the recovery from a checkpoint and "
        f"{o.seconds - before:.2f}s in this run)" if before else ""))
    where = getattr(o, "checkpoint", None)
    if where and o.verdict == V.INTERRUPTED:
        from pathlib import Path

        lines.append(f"Checkpoint: {where} (resume with --recover {Path(where).parent})")
    return "\n".join(lines)


def _witness_lines(o, traces: bool) -> list[str]:
    from dataclasses import replace

    lines = []
    stopped = o.verdict not in (V.OK, V.WITNESS, V.INCOMPLETE)
    for w in getattr(o, "witnesses", ()):
        if w["reached"]:
            lines.append(f"Witness {w['name']} reached at depth {w['depth']}.")
            if traces:
                cx = from_outcome(replace(o, trace=w["trace"], loop=None, loop_step=None))
                lines.append(format_trace(cx))
        elif stopped:
            lines.append(f"Witness {w['name']} not reached before the search stopped.")
        else:
            lines.append(f"Witness {w['name']} NOT reached: no reachable state satisfies it.")
    return lines


def _printed(o) -> Counterexample:
    """The counterexample as it is printed: through the .cfg's ALIAS where there is one."""
    cx = from_outcome(o)
    alias = getattr(o, "alias", None)
    if alias:
        cx.variables = alias[0][0]
        cx.steps = [s._replace(state=vals) for s, (_, vals) in zip(cx.steps, alias, strict=True)]
        if cx.back is not None:
            cx.back = cx.back._replace(state=cx.steps[cx.loop].state)
    return cx


def collision_estimate(o) -> str:
    n, g = o.distinct_states, o.states_generated
    val = n * (g - n) / 2.0 ** 64
    if val == 0:
        return "0.0"
    return f"{val:.1E}"
