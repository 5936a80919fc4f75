"""Pure, costly steps of building a model (parsing a text, rewriting and compiling a generated
function), remembered by everything their result depends on.

A process that checks one spec many times (the tests, a sweep, mutation testing) does each step
once; a worker process that builds the model again is handed what its parent's build used
(`record`, `export`, `install`), so it does not parse and compile the spec a second time.
"""
from __future__ import annotations

import pickle
from contextlib import contextmanager

_ALL: dict[str, Remembered] = {}
_recording: list[dict] = []  # the builds being recorded: (memo name, key) -> value


class Remembered:
    """A bounded memo (the oldest entry goes first). `encode`/`decode` turn a value into
    something pickle can carry to another process (code objects: marshal)."""

    def __init__(self, name: str, kept: int, encode=None, decode=None):
        self.name, self.kept, self.encode, self.decode = name, kept, encode, decode
        self.items: dict = {}
        _ALL[name] = self

    def value(self, key, compute):
        """The value remembered for key, else compute() remembered."""
        value = self.get(key)
        if value is None:
            value = compute()
            self.put(key, value)
        return value

    def get(self, key):
        value = self.items.get(key)
        if value is not None and _recording:
            _recording[-1][(self.name, key)] = value
        return value

    def put(self, key, value) -> None:
        if len(self.items) >= self.kept:
            del self.items[next(iter(self.items))]
        self.items[key] = value
        if _recording:
            _recording[-1][(self.name, key)] = value


@contextmanager
def record():
    """Collect every entry the steps inside use or add (a dict the caller exports)."""
    used: dict = {}
    _recording.append(used)
    try:
        yield used
    finally:
        _recording.pop()


def export(used: dict | None) -> bytes | None:
    """What `record` collected, for `install` in another process (None: nothing)."""
    if not used:
        return None
    out = []
    for (name, key), value in used.items():
        memo = _ALL[name]
        out.append((name, key, memo.encode(value) if memo.encode else value))
    return pickle.dumps(out, protocol=pickle.HIGHEST_PROTOCOL)


def install(blob: bytes | None) -> None:
    """Add what `export` wrote to this process's memos."""
    if not blob:
        return
    for name, key, value in pickle.loads(blob):  # noqa: S301 - written by our own parent
        memo = _ALL[name]
        memo.put(key, memo.decode(value) if memo.decode else value)
