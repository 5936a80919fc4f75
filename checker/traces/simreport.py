"""What `kipcheck simulate` prints: the verdict (and counterexample) as `check` prints it, then
the simulation's figures: behaviours, states/s, lengths of the behaviours, coverage."""
from __future__ import annotations

from .. import verdicts as V
from .counterexample import from_outcome
from .text import BEHAVIOUR, format_counterexample, format_trace

SHORTEST_KNOWN = ("This is a shortest-known counterexample, not a proven shortest one "
                  "(`kipcheck check` finds a shortest one).")
ENDS = {"depth": "reached the depth", "constraint": "left the constraints",
        "stuck": "with no successor", "budget": "cut by the budget",
        "violation": "with a violation", "exit": 'ended by TLCSet("exit", TRUE)'}
BAR = 30  # characters of the longest histogram bar


def format_simulation(o) -> str:
    """The report of a SimOutcome `o`."""
    lines = [f"Warning: {w}" for w in o.warnings]
    if o.verdict in (V.INVARIANT, V.PROPERTY, V.DEADLOCK):
        lines.append(format_counterexample(from_outcome(o)))
        lines.append(_found(o))
    elif o.verdict in (V.ASSUMPTION, V.ASSERT, V.ERROR):
        lines.append(f"Error: {o.message}")
        if o.verdict != V.ASSUMPTION and o.span is not None:
            from ..frontend.errors import KipcheckError

            where = KipcheckError("the error occurred while evaluating this expression", o.span)
            lines.append(where.format())
        if o.trace:
            lines.append(BEHAVIOUR)
            lines.append(format_trace(from_outcome(o)))
    elif o.verdict == V.INTERRUPTED:
        lines.append(f"Interrupted: {o.message} The figures so far:")
    elif o.message:  # nothing to simulate
        lines.append(o.message)
    else:
        why = {"budget": "the budget ran out", "traces": "all behaviours ran",
               "exit": 'the spec ended it with TLCSet("exit", TRUE)'}[o.stopped_by]
        lines.append(f"No violation found in {_count(o.behaviours, 'random behaviour')} ({why}). "
                     f"A simulation is not an exhaustive check.")
    if o.verdict != V.ASSUMPTION:
        lines += figures(o)
    lines.append(f"Finished in {o.seconds:.2f}s")
    return "\n".join(lines)


def _found(o) -> str:
    found = (f"Found in behaviour {o.behaviour} (counting from 0) after "
             f"{o.found_length - 1} steps ({o.found_length} states).")
    if not o.shrunk:
        return found
    return (f"{found} Shrunk to {o.trace_length} states ({o.replays} replays).\n"
            f"{SHORTEST_KNOWN}")


def figures(o) -> list[str]:
    """Behaviours, rate, seed; lengths of the behaviours; how they ended; coverage."""
    lines = [f"{_count(o.behaviours, 'behaviour')} of at most {o.max_steps} steps, "
             f"{_count(o.states, 'state')}, "
             f"{_count(o.states_generated, 'state')} generated ({o.states_per_second:,} states/s); "
             f"seed {o.seed}."]
    if o.behaviours:
        low, median, high = o.length_figures()
        lines.append(f"Behaviour lengths (states): min {low}, median {median}, max {high}")
        lines += ["  " + row for row in histogram(o.lengths)]
        failed = "with the error" if o.verdict in (V.ASSERT, V.ERROR) else None
        ends = [f"{n:,} {failed if k == 'violation' and failed else ENDS.get(k, k)}"
                for k, n in sorted(o.ends.items())]
        if ends:
            lines.append("How they ended: " + ", ".join(ends) + ".")
    lines.append("Coverage (steps taken, successors generated; <Init>: behaviours, initial "
                 "states):")
    width = max((len(k) for k in o.coverage), default=0)
    never = []
    for name, (taken, generated) in o.coverage.items():
        lines.append(f"  {name:<{width}}  {taken:>10,}  {generated:>10,}")
        if not taken and name != "<Init>":
            never.append(name)
    if never:
        lines.append(f"Never taken: {', '.join(never)}.")
    return lines


def histogram(lengths: dict, bins: int = 8) -> list[str]:
    """Rows `lo-hi  ####  count` of the behaviour lengths in at most `bins` equal ranges."""
    if not lengths:
        return []
    low, high = min(lengths), max(lengths)
    width = max(1, -(-(high - low + 1) // bins))
    counts: dict = {}
    for length, n in lengths.items():
        start = low + (length - low) // width * width
        counts[start] = counts.get(start, 0) + n
    most = max(counts.values())
    label = len(f"{high}-{high}")
    rows = []
    for start in range(low, high + 1, width):
        n = counts.get(start, 0)
        end = min(start + width - 1, high)
        span = f"{start}" if end == start else f"{start}-{end}"
        bar = "#" * max(1 if n else 0, round(BAR * n / most))
        rows.append(f"{span:>{label}}  {bar:<{BAR}}  {n:,}")
    return rows


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}" + ("" if n == 1 else "s")
