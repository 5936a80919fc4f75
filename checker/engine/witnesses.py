"""Witnesses: state predicates some reachable state must satisfy.

A safety property holds vacuously on a spec that never does anything; TLC users guard against
that with an invariant `~W` they expect to fail. A witness W is that check made first-class: it
is *reached* when some reachable state satisfies W, exactly when TLC would report the invariant
`~W` violated, and its trace is the one TLC would print (the search is breadth-first).

The engine checks witnesses as one extra entry at the end of the model's invariant lists, so
its loops need no change: the entry answers True (nothing to report) until a witness holds,
then REACHED, which `check_invariants` hands back with the trace. Once every witness is
reached the entry leaves the lists, and a state costs nothing more.
"""
from __future__ import annotations

from ..semantics.values import EvalError

# What the witnesses' entry answers on a state where some witness holds for the first time.
REACHED = object()


class Witnesses:
    """The witnesses of one check: (name, predicate) each, evaluated on every new state until
    reached; `found` maps a reached witness to the trace of the first state satisfying it."""

    def __init__(self, predicates: list[tuple[str, object]]):
        self.names = [n for n, _ in predicates]
        self.todo = list(predicates)
        self.found: dict[str, list] = {}
        self.hits: list[str] = []
        self.failed: str | None = None  # the witness whose evaluation raised
        self.lists: list[list] = []

    def install(self, *lists) -> None:
        """Put the entry last in each of the model's invariant lists (None: left alone)."""
        for lst in lists:
            if lst is not None and self.todo:
                lst.append(("witness", self))
                self.lists.append(lst)

    def __call__(self, state, parent=None):
        hits = []
        for name, pred in self.todo:
            try:
                ok = pred(state)
            except Exception:
                self.failed = name
                raise
            if ok is True:
                hits.append(name)
            elif ok is not False:
                self.failed = name
                raise EvalError(f"The witness {name} is not a boolean")
        if not hits:
            return True
        self.hits = hits
        return REACHED

    def reached(self, trace_fn) -> None:
        """Record the witnesses that hold on the state just evaluated, with its trace; once
        all are reached, leave the invariant lists (this entry is the last of each)."""
        trace = trace_fn()
        for name in self.hits:
            self.found[name] = trace
        self.todo = [(n, p) for n, p in self.todo if n not in self.found]
        self.hits = []
        if not self.todo:
            for lst in self.lists:
                lst[:] = [x for x in lst if x[1] is not self]
            self.lists = []

    def results(self) -> list[dict]:
        """Each witness in the order given: reached or not, the depth and the trace."""
        return [{"name": n, "reached": n in self.found,
                 "depth": len(self.found[n]) if n in self.found else None,
                 "trace": self.found.get(n)} for n in self.names]
