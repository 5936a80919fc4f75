"""Remembering what a pure operator returned for its arguments.

An operator whose body reads no variable and calls nothing impure is a function of its
arguments, so a call with arguments seen before can return the value computed then. Specs
call such operators over and over with the same arguments (a rank recomputed for every
candidate of a CHOOSE, a list rebuilt in every state that shares it); TLC evaluates each
call again, kipcheck does it once.

What makes it exact:
- a hit must be the same TLA+ value, not just Python-equal: Python has TRUE == 1 and a
  function equal to the pair of its keys and values, so the arguments kept with a result are
  compared kind by kind (at once when they are the same objects, the common case);
- an evaluation error is never remembered: the call is evaluated again, and fails again at
  the same place;
- a lazy set (Nat, SUBSET S, [S -> T]) is never hashed: hashing would enumerate it.
Memory stays bounded: a table that reaches its limit starts afresh. An operator whose calls
rarely repeat stops being remembered after a trial, so it costs nothing more than a call.

An operator that reads the current state (and not the next one) is a function of the state
and its arguments. Within one state's expansion the same call recurs (a guard, the `\\E` over
the same set, then a count over it again, in each of a process's actions), so its table holds
the calls made on the latest state only, started afresh when another state comes (states
are immutable tuples: the same object is the same state).
"""
from __future__ import annotations

from .values import LazySet, same_kinds

_LIMIT = 1 << 16  # remembered calls per operator before its table starts afresh
_TRIAL = 4096  # calls after which an operator whose calls rarely repeat is no longer memoised


def memoised(fn, name: str, namespace: dict, per_state: bool = False):
    """A function that answers fn(s, t, *args) from a table, for an operator that reads no
    state (s and t are ignored by it), or with `per_state` one that reads the current state s
    (never the next one, t): then the table holds the calls on the latest s only.
    `namespace[name]` is where generated code finds the operator; after the trial it is pointed
    back at fn if calls rarely repeat."""
    table: dict = {}
    counts = [0, 0]  # calls, hits (during the trial)
    last = [None]  # per_state: the state the table is for (kept alive: its id is not reused)

    def call(s, t, *args):
        if per_state:
            if type(s) is not tuple:
                return fn(s, t, *args)
            if s is not last[0]:
                last[0] = s
                table.clear()
        for a in args:
            if isinstance(a, LazySet):
                return fn(s, t, *args)
        counts[0] += 1
        if counts[0] == _TRIAL:
            _judge()
        hit = table.get(args)
        if hit is not None and _same(hit[0], args):
            counts[1] += 1
            return hit[1]
        value = fn(s, t, *args)
        if len(table) >= _LIMIT:
            table.clear()
        table[args] = (args, value)
        return value

    def _judge():
        if counts[1] * 8 < counts[0] and namespace.get(name) is call:
            namespace[name] = fn
            table.clear()
            last[0] = None

    call.__wrapped__ = fn
    return call


def _same(seen: tuple, args: tuple) -> bool:
    """Are Python-equal argument tuples the same TLA+ values?"""
    for a, b in zip(seen, args, strict=True):
        if a is not b and not same_kinds(a, b):
            return False
    return True
