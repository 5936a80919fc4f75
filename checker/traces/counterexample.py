"""The one counterexample object every trace writer reads and the ITF reader rebuilds.

A counterexample is the behaviour that leads to a violation: the variables, and for each state
the action instance that reached it (label "Send(b1)", name "Send", parameters
(("p", b1),)), None for the initial state. A liveness counterexample is a lasso: `loop` is the
index of the state the last state steps back to, and `back` is that closing step (its state is
`steps[loop].state`; its action may be unknown). Values are kipcheck's runtime values; `order`
records the strings and model values in TLC's order of the run that found it (see order.py).
"""
from __future__ import annotations

import builtins
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

from ..paths import shown_path
from ..semantics.values import intern_index
from .order import Printer, names_in


class Step(NamedTuple):
    """One state and the action instance that reached it (label None: an initial state)."""

    label: str | None
    name: str | None
    params: tuple  # ((parameter name, value), ...)
    state: tuple


@dataclass
class Counterexample:
    variables: tuple[str, ...]
    steps: list[Step]
    loop: int | None = None
    back: Step | None = None  # the lasso's closing step, into steps[loop].state
    verdict: str = "invariant"  # as Outcome.verdict: invariant | property | deadlock | ...
    property: str | None = None
    spec: str | None = None  # the spec file or module name
    model: str | None = None  # the .cfg file or model name
    message: str | None = None  # the error message of an evaluation error
    order: tuple[str, ...] = ()
    lanes: dict | None = None  # how to draw it as a sequence diagram (lanes.py)
    extra: dict = field(default_factory=dict)  # more #meta of an ITF file, kept for writing

    @cached_property
    def printer(self) -> Printer:
        return Printer(self.order)

    def show(self, value) -> str:
        return self.printer.show(value)

    def changed(self, i: int) -> list[str]:
        """The variables step i changed (none for the first state)."""
        if i == 0:
            return []
        before, after = self.steps[i - 1].state, self.steps[i].state
        return [n for n, a, b in zip(self.variables, before, after, strict=True) if a != b]

    def back_changed(self) -> list[str]:
        """The variables the lasso's closing step changes."""
        if self.loop is None:
            return []
        before, after = self.steps[-1].state, self.steps[self.loop].state
        return [n for n, a, b in zip(self.variables, before, after, strict=True) if a != b]

    @builtins.property
    def is_lasso(self) -> bool:
        return self.loop is not None


def from_outcome(outcome, spec: str | None = None, model: str | None = None,
                 lanes: dict | None = None) -> Counterexample:
    """The counterexample of a checker.api.Outcome. Build it right after the check: the order
    of strings and model values is read from the checker's interning, which the next check
    resets."""
    steps = [_step(s) for s in outcome.trace]
    loop = getattr(outcome, "loop", None)
    back = None
    if loop is not None:
        # The engine's Step from the last state back to trace[loop] (None: it stutters).
        back = _closing_step(getattr(outcome, "loop_step", None), steps[loop].state)
    return Counterexample(
        variables=tuple(outcome.variables), steps=steps, loop=loop, back=back,
        verdict=outcome.verdict, property=outcome.property, spec=shown_path(spec),
        model=shown_path(model),
        message=getattr(outcome, "message", None), order=_order_of(steps, back), lanes=lanes)


def _step(s) -> Step:
    return Step(s.action, s.name, tuple(s.params), s.state)


def _closing_step(closing, state) -> Step:
    """The lasso's closing step from whatever the engine gives: an engine Step, a label."""
    if closing is None:
        return Step(None, None, (), state)
    if isinstance(closing, str):
        return Step(closing, closing.split("(", 1)[0], (), state)
    label = getattr(closing, "action", None) or getattr(closing, "label", None)
    return Step(label, getattr(closing, "name", None), tuple(getattr(closing, "params", ())),
                state)


def _order_of(steps: list[Step], back: Step | None) -> tuple[str, ...]:
    names: list[str] = []
    for s in steps + ([back] if back is not None else []):
        for _, v in s.params:
            names_in(v, names)
        for v in s.state:
            names_in(v, names)
    # Names the checker never ordered get an index here: in text order, whatever the hash seed.
    unique = sorted(set(names))
    ranks = {n: intern_index(n) for n in unique}
    return tuple(sorted(unique, key=ranks.__getitem__))
