"""The frontier: the FIFO queue of states still to expand, which spills to disk past a limit.

Whole states are what a breadth-first search keeps most of in memory (the visited store takes
16 bytes a state). Past `limit` states in memory, the newest states go to files of pickled
batches and come back, oldest first, when the states before them have been expanded, so the
order is exactly a plain FIFO's (TLC's order). The queue is, in order: `head` (a deque the
search pops from), the batch files (`segments`), and `tail` (a list the search appends to).
The search pops and pushes with the deque's and list's own bound methods (no Python call per
state); it calls `refill` when `head` runs empty and `check` now and then to spill.
Without a limit, `tail` is `head` and nothing ever goes to disk.
"""
from __future__ import annotations

import os
import pickle
import shutil
import tempfile
from collections import deque
from itertools import chain

# Default number of states kept in memory before the newest go to disk (--frontier-states).
DEFAULT_LIMIT = 1_000_000


class Frontier:
    def __init__(self, limit: int | None = None, directory: str | None = None):
        self.head: deque = deque()
        self.limit = limit
        self.tail = self.head if limit is None else []
        self.batch = max(1, (limit or 1) // 2)  # states per batch file
        self.segments: deque = deque()  # (path, number of states), oldest first
        self.spilled = 0  # states in the batch files
        self._parent = directory
        self._dir: str | None = None
        self._serial = 0
        self.files_written = 0

    def __len__(self) -> int:
        n = len(self.head) + self.spilled
        return n if self.tail is self.head else n + len(self.tail)

    def check(self) -> None:
        """Spill the tail if more than `limit` states are in memory."""
        if (self.limit is not None and self.tail
                and len(self.head) + len(self.tail) > self.limit):
            self._spill()

    def refill(self) -> bool:
        """`head` is empty: bring the next states into it; False if none are left."""
        if self.tail is self.head:
            return False
        self.check()
        if self.segments:
            path, _ = self.segments.popleft()
            items = _read(path)
            os.unlink(path)
            self.spilled -= len(items)
            self.head.extend(items)
            return True
        if self.tail:
            self.head.extend(self.tail)
            self.tail.clear()
            return True
        return False

    def _spill(self) -> None:
        tail = self.tail
        done = 0
        try:
            for start in range(0, len(tail), self.batch):
                part = tail[start:start + self.batch]
                path = self._next_path()
                _write(path, part)
                self.segments.append((path, len(part)))
                self.spilled += len(part)
                done = start + len(part)
        except (pickle.PicklingError, TypeError, AttributeError):
            # A value that cannot be pickled: what was written stays on disk, in order; the
            # rest, and every later state, stays in memory.
            self.limit = None
        del tail[:done]

    def _next_path(self) -> str:
        if self._dir is None:
            self._dir = tempfile.mkdtemp(prefix="kipcheck-frontier-", dir=self._parent)
        self._serial += 1
        self.files_written += 1
        return os.path.join(self._dir, f"batch-{self._serial:09d}.pkl")

    def save(self, directory: str, prefix: str, batch: int) -> list[list]:
        """Write the whole queue, in order, into `directory` as batch files named
        prefix-NNNNN.pkl (batch files on disk are linked or copied, not read); the files and
        their sizes as [[name, count], ...]."""
        out: list[list] = []

        def name() -> str:
            return f"{prefix}-{len(out):05d}.pkl"

        def put(items) -> None:
            for start in range(0, len(items), batch):
                part = items[start:start + batch]
                n = name()
                _write(os.path.join(directory, n), part)
                out.append([n, len(part)])

        put(list(self.head))
        for path, count in self.segments:
            n = name()
            _link_or_copy(path, os.path.join(directory, n))
            out.append([n, count])
        if self.tail is not self.head:
            put(self.tail)
        return out

    def load(self, directory: str, files: list[list]) -> None:
        """Append the batch files `save` wrote: into memory up to the limit, the rest (linked
        or copied) as batch files of this queue."""
        for name, count in files:
            path = os.path.join(directory, name)
            if self.limit is not None and len(self.head) + len(self.tail) + count > self.limit:
                if self.tail:
                    self._spill()
                mine = self._next_path()
                _link_or_copy(path, mine)
                self.segments.append((mine, count))
                self.spilled += count
            else:  # the tail comes last in the queue, after any batch file
                self.tail.extend(_read(path))

    def close(self) -> None:
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None


def _write(path: str, items) -> None:
    with open(path, "wb") as f:
        pickle.dump(items, f, protocol=pickle.HIGHEST_PROTOCOL)


def _read(path: str) -> list:
    with open(path, "rb") as f:
        return pickle.load(f)


def _link_or_copy(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:  # another file system, or no hard links there
        shutil.copyfile(src, dst)


class Spool:
    """A sequence written once, in order, then read in order any number of times (a level of
    the workers backend: its states, or its candidate successors): past `limit` items in
    memory, the newest chunks go to files of pickled batches. The writer appends to `items`,
    a plain list (no Python call per item), and calls `roll` now and then, which closes a full
    chunk and gives the list to append to next. Without a limit, `items` is the whole
    sequence and nothing ever goes to disk."""

    def __init__(self, limit: int | None = None, directory: str | None = None):
        self.limit = limit
        # `items` is closed into a chunk at this length (never without a limit)
        self.chunk = max(1, limit // 2) if limit is not None else 1 << 62
        self.items: list = []
        self.chunks: list = []  # (list, or path of a batch file, number of items)
        self.count = 0  # items in the closed chunks
        self.in_memory = 0  # items in the closed chunks kept in memory
        self._parent = directory
        self._dir: str | None = None
        self.files_written = 0

    def __len__(self) -> int:
        return self.count + len(self.items)

    def roll(self) -> list:
        """Close `items` into a chunk if it is full; the list to append to next."""
        if len(self.items) >= self.chunk:
            self._close()
        return self.items

    def extend(self, items) -> None:
        """Append many items, chunk by chunk."""
        for item in items:
            self.items.append(item)
            if len(self.items) >= self.chunk:
                self._close()

    def _close(self) -> None:
        items = self.items
        if not items:
            return
        self.items = []
        if self.limit is not None and self.in_memory + len(items) > self.limit:
            try:
                path = self._next_path()
                _write(path, items)
                self.chunks.append((path, len(items)))
                self.count += len(items)
                return
            except (pickle.PicklingError, TypeError, AttributeError):
                self.limit, self.chunk = None, 1 << 62  # see Frontier._spill
        self.chunks.append((items, len(items)))
        self.count += len(items)
        self.in_memory += len(items)

    def lists(self):
        """The items, a list at a time (a chunk on disk is read back when its turn comes)."""
        for part, _ in self.chunks:
            yield part if type(part) is list else _read(part)
        yield self.items

    def __iter__(self):
        return chain.from_iterable(self.lists())

    @property
    def on_disk(self) -> bool:
        """Whether some chunk went to a batch file."""
        return any(type(part) is not list for part, _ in self.chunks)

    def flat(self) -> list:
        """All the items as one list, for reading in any order: only while none is on disk."""
        if not self.chunks:
            return self.items
        return list(self)

    def pick(self, indices: list[int]):
        """The items at `indices` (ascending), in that order."""
        if not self.chunks:
            return map(self.items.__getitem__, indices)
        return self._pick(indices)

    def _pick(self, indices):
        it = iter(indices)
        i = next(it, None)
        start = 0
        for part, n in [*self.chunks, (self.items, len(self.items))]:
            end = start + n
            if i is not None and i < end:  # a chunk none is picked from is not read
                if type(part) is not list:
                    part = _read(part)
                while i is not None and i < end:
                    yield part[i - start]
                    i = next(it, None)
            if i is None:
                return
            start = end

    def _next_path(self) -> str:
        if self._dir is None:
            self._dir = tempfile.mkdtemp(prefix="kipcheck-frontier-", dir=self._parent)
        self.files_written += 1
        return os.path.join(self._dir, f"batch-{self.files_written:09d}.pkl")

    def close(self) -> None:
        """Forget the items and remove the batch files."""
        self.items, self.chunks = [], []
        self.count = self.in_memory = 0
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None
