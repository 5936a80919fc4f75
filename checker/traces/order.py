"""TLC's order and printing of values, under an order of names recorded with the trace.

TLC orders strings and model values by when it first interned their text, so how a set or a
record prints depends on the run that produced it. A counterexample records that order (the
names it holds, in TLC's order) and every writer prints through a `Printer` made from it: a
trace renders the same in the process that found it, after another model was checked, and in
a fresh process that read it back from a file.
"""
from __future__ import annotations

from ..semantics.values import Fn, ModelValue, show


class Opaque:
    """A value read back from a file that kipcheck cannot rebuild (an infinite set, say):
    kept as the text it printed as."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __eq__(self, other):
        return type(other) is Opaque and other.text == self.text

    def __hash__(self):
        return hash(("Opaque", self.text))

    def __repr__(self) -> str:
        return self.text


def names_in(value, out: list[str]) -> None:
    """Append the strings and model-value names inside `value` (depth first)."""
    t = type(value)
    if t is str:
        out.append(value)
    elif t is ModelValue:
        out.append(value.name)
    elif t is frozenset or t is tuple:
        for e in value:
            names_in(e, out)
    elif t is Fn:
        for k in value.keys:
            names_in(k, out)
        for v in value.vals:
            names_in(v, out)


class Printer:
    """`key`, `elements`, `items` and `show` as in checker.semantics.values, but with strings
    and model values ranked by the recorded `order` instead of this process's interning."""

    def __init__(self, order=()):
        self.order = tuple(order)
        self._rank = {name: (i, "") for i, name in enumerate(self.order)}
        self._unknown = len(self.order)

    def _name(self, name: str) -> tuple:
        r = self._rank.get(name)
        return r if r is not None else (self._unknown, name)

    def key(self, v):
        """A sort key giving TLC's order (model values, booleans, integers, strings, sets,
        functions)."""
        t = type(v)
        if t is bool:
            return (1, v)
        if t is int:
            return (2, v)
        if t is str:
            return (3, self._name(v))
        if t is ModelValue:
            return (0, self._name(v.name))
        if t is frozenset:
            return (4, len(v), tuple(sorted(self.key(e) for e in v)))
        if t is tuple:
            n = len(v)
            return (5, n, tuple((2, i) for i in range(1, n + 1)),
                    tuple(self.key(x) for x in v))
        if t is Fn:
            pairs = self.items(v)
            return (5, len(pairs), tuple(self.key(k) for k, _ in pairs),
                    tuple(self.key(x) for _, x in pairs))
        return (6, repr(v))

    def elements(self, s) -> list:
        """The elements of a finite set in TLC's order."""
        return sorted(s, key=self.key)

    def items(self, f: Fn) -> list[tuple]:
        """The (key, value) pairs of a function in TLC's order of its keys."""
        return sorted(zip(f.keys, f.vals, strict=True), key=lambda kv: self.key(kv[0]))

    def show(self, v) -> str:
        """`v` in TLA+ syntax, exactly as TLC prints it, in the recorded order."""
        return show(v, self.elements, self.items)

    def pretty(self, v, width: int = 80, indent: int = 0) -> str:
        """`show(v)` broken over lines, one element or field a line, when it is wider than
        `width` (columns counted from `indent`, where the value starts). Still TLA+."""
        flat = self.show(v)
        t = type(v)
        if indent + len(flat) <= width or t not in (frozenset, tuple, Fn):
            return flat
        if t is frozenset:
            parts = [self.pretty(e, width, indent + 1) for e in self.elements(v)]
            return "{" + (",\n" + " " * (indent + 1)).join(parts) + "}"
        if t is tuple:
            parts = [self.pretty(e, width, indent + 2) for e in v]
            return "<<" + (",\n" + " " * (indent + 2)).join(parts) + ">>"
        pairs = self.items(v)
        if all(type(k) is str for k, _ in pairs):
            parts = [f"{k} |-> " + self.pretty(x, width, indent + len(k) + 6) for k, x in pairs]
            return "[" + (",\n" + " " * (indent + 1)).join(parts) + "]"
        parts = []
        for k, x in pairs:
            key = self.show(k)
            parts.append(f"{key} :> " + self.pretty(x, width, indent + len(key) + 5))
        return "(" + (" @@\n" + " " * (indent + 1)).join(parts) + ")"
