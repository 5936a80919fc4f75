"""Batches of states and keys in a form that pickles fast, for what crosses between Spark tasks.

Pickling states one by one costs a few microseconds each (every fresh value of every state is
written out), and unpickling more. A batch's states share most of their values: a `Packed`
batch keeps each variable's distinct values once and the states as rows of indices into them
(a numpy matrix, pickled as one buffer). Distinct means unequal by ==, as the fingerprint
tables and the exact seen set identify values (see engine/fingerprints.py). Only the states a
reader asks for are rebuilt, and equal values come back as one object, which the fingerprint
tables then find by identity.
"""
from __future__ import annotations

import numpy as np


class Packed:
    """A batch of states (tuples of one length); `packed[i]` rebuilds state i."""

    __slots__ = ("values", "rows", "_rows")

    def __init__(self, states: list):
        width = len(states[0]) if states else 0
        tables = [{} for _ in range(width)]
        rows = [[t.setdefault(v, len(t)) for t, v in zip(tables, s, strict=True)]
                for s in states]
        self.values = [list(t) for t in tables]
        self.rows = np.array(rows, dtype=np.int32).reshape(len(states), width)
        self._rows = None

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i: int) -> tuple:
        if self._rows is None:
            self._rows = self.rows.tolist()
        return tuple([vals[j] for vals, j in zip(self.values, self._rows[i], strict=True)])

    def all(self) -> list:
        values = self.values
        return [tuple([vals[j] for vals, j in zip(values, row, strict=True)])
                for row in self.rows.tolist()]

    def __getstate__(self):
        return self.values, self.rows

    def __setstate__(self, state):
        self.values, self.rows = state
        self._rows = None


def packable(states: list) -> bool:
    """Whether every state is a tuple of the first one's length (a Packed batch's shape)."""
    if not states:
        return True
    width = len(states[0])
    return all(type(s) is tuple and len(s) == width for s in states)


class Keys:
    """A batch of byte strings as one buffer and their ends; `keys[i]` is string i."""

    __slots__ = ("blob", "ends")

    def __init__(self, keys: list):
        self.blob = b"".join(keys)
        self.ends = np.cumsum([len(k) for k in keys], dtype=np.int64)

    def __len__(self) -> int:
        return len(self.ends)

    def __getitem__(self, i: int) -> bytes:
        end = int(self.ends[i])
        return self.blob[int(self.ends[i - 1]) if i else 0:end]

    def pick(self, indices) -> list:
        """The strings at `indices` (any order), as a list."""
        blob, ends = self.blob, self.ends.tolist()
        return [blob[ends[i - 1] if i else 0:ends[i]] for i in indices]

    def all(self) -> list:
        return self.pick(range(len(self.ends)))

    def __getstate__(self):
        return self.blob, self.ends

    def __setstate__(self, state):
        self.blob, self.ends = state
