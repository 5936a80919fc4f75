"""The visited store of fingerprint mode: a compact set of 64-bit fingerprints, and parent links.

`FingerprintTable` is an open-addressing hash table (linear probing) of uint64 in one numpy
array: 8 bytes a slot, grown by 1.5x when three quarters full, so it holds 10.7 to 16 bytes per
stored fingerprint. Single look-ups go through a memoryview of the array (Python ints, no numpy
scalar per probe); a batch of fingerprints (a worker's level, a regrowth) is placed with numpy.

`ParentLinks` records, per stored state in storage order, (fingerprint, parent fingerprint,
action index): what a counterexample is rebuilt from by replay. Records collect in small arrays
and spill to a temporary file, one chunk at a time, so they cost no memory per state; each level's
first storage index is kept, so walking a trace back reads one level's records per step. The
table and the records are what a checkpoint keeps (engine/checkpoint.py).
"""
from __future__ import annotations

import os
import tempfile
from array import array

import numpy as np

_EMPTY = 0  # never a fingerprint (fingerprints.py maps 0 to 1)
_GROW_AT = 0.75
_GROWTH = 1.5
_REHASH_SLICE = 1 << 20  # old slots re-placed at a time when the table grows


class FingerprintTable:
    """A set of nonzero 64-bit ints."""

    def __init__(self, capacity: int = 1 << 16):
        self._alloc(max(capacity, 16))
        self.count = 0

    def _alloc(self, size: int) -> None:
        self.size = size
        self.table = np.zeros(size, dtype=np.uint64)
        self.view = memoryview(self.table)  # format "Q": indexing gives Python ints
        self.limit = int(size * _GROW_AT)

    def __len__(self) -> int:
        return self.count

    @property
    def nbytes(self) -> int:
        return self.table.nbytes

    def add(self, fp: int) -> bool:
        """Insert fp; True if it was not there."""
        view = self.view
        size = self.size
        i = fp % size
        while True:
            x = view[i]
            if x == fp:
                return False
            if x == _EMPTY:
                view[i] = fp
                self.count += 1
                if self.count > self.limit:
                    self._grow()
                return True
            i += 1
            if i == size:
                i = 0

    def put(self, i: int, fp: int) -> None:
        """Store fp in the empty slot i, which a probe for fp ended at (a caller that probes
        inline, as the search loop does); the table may grow, with a new `view` and `size`."""
        self.view[i] = fp
        self.count += 1
        if self.count > self.limit:
            self._grow()

    def __contains__(self, fp: int) -> bool:
        view = self.view
        size = self.size
        i = fp % size
        while True:
            x = view[i]
            if x == fp:
                return True
            if x == _EMPTY:
                return False
            i += 1
            if i == size:
                i = 0

    def keys(self) -> np.ndarray:
        """Every stored fingerprint (in slot order): what a checkpoint keeps."""
        return self.table[self.table != _EMPTY]

    @classmethod
    def of(cls, fps: np.ndarray) -> FingerprintTable:
        """A table holding the distinct fingerprints `fps`, sized for them in one go."""
        table = cls(int(len(fps) / _GROW_AT * _GROWTH) + 16)
        table.add_batch(fps)
        return table

    def add_batch(self, fps: np.ndarray) -> np.ndarray:
        """Insert distinct fingerprints at once; a boolean mask of those that were new."""
        fps = np.asarray(fps, dtype=np.uint64)
        while self.count + len(fps) > self.limit:
            self._grow()
        new = self._place(self.table, fps)
        self.count += int(new.sum())
        return new

    @staticmethod
    def _place(table: np.ndarray, fps: np.ndarray) -> np.ndarray:
        """Linear probing for many keys at once: each round, every pending key looks at its
        slot; a key found there is old, one key per empty slot takes it, the others move on."""
        size = np.uint64(len(table))
        new = np.zeros(len(fps), dtype=bool)
        pending = np.arange(len(fps))
        slots = fps % size
        while len(pending):
            keys = fps[pending]
            cur = table[slots]
            found = cur == keys
            empty = cur == _EMPTY
            if empty.any():
                idx = np.flatnonzero(empty)
                _, first = np.unique(slots[idx], return_index=True)
                won = idx[first]
                table[slots[won]] = keys[won]
                new[pending[won]] = True
                found[won] = True
            # Losers of an empty slot look at it again (now taken) and then move on.
            moved = ~found & ~empty
            stay = ~found
            slots = np.where(moved, slots + np.uint64(1), slots)[stay]
            slots[slots == size] = 0
            pending = pending[stay]
        return new

    def _grow(self) -> None:
        old = self.table
        self._alloc(int(self.size * _GROWTH) + 1)
        for start in range(0, len(old), _REHASH_SLICE):  # slices bound the temporary arrays
            part = old[start:start + _REHASH_SLICE]
            self._place(self.table, part[part != _EMPTY])


class ParentLinks:
    """(fingerprint, parent fingerprint, action index) per stored state, spilled to disk."""

    CHUNK = 1 << 18  # records kept in memory before they go to the file

    def __init__(self, directory: str | None = None):
        self.fps, self.parents, self.actions = array("Q"), array("Q"), array("l")
        self.count = 0
        self.level_starts: list[int] = []  # storage index of each level's first state
        self._dir = directory
        self._file = None  # created on the first spill
        self._spilled = 0

    def add(self, level: int, fp: int, parent: int, action: int) -> None:
        """Record a state of `level` (1 for initial states); levels come in order."""
        while len(self.level_starts) < level:
            self.level_starts.append(self.count)
        self.fps.append(fp)
        self.parents.append(parent)
        self.actions.append(action)
        self.count += 1
        if len(self.fps) >= self.CHUNK:
            self._spill()

    def add_records(self, level: int, rec: np.ndarray) -> None:
        """Record many states of `level` at once: an (n, 3) int64 array as `_records` gives."""
        while len(self.level_starts) < level:
            self.level_starts.append(self.count)
        if not len(rec):
            return
        if len(self.fps):
            self._spill()
        if self._file is None:
            self._file = tempfile.TemporaryFile(prefix="kipcheck-parents-", dir=self._dir)
        self._file.seek(0, os.SEEK_END)
        self._file.write(np.ascontiguousarray(rec, dtype=np.int64).tobytes())
        self._spilled += len(rec)
        self.count += len(rec)

    def _spill(self) -> None:
        if self._file is None:
            self._file = tempfile.TemporaryFile(prefix="kipcheck-parents-", dir=self._dir)
        n = len(self.fps)
        rec = np.empty((n, 3), dtype=np.int64)
        rec[:, 0] = np.frombuffer(self.fps, dtype=np.uint64).view(np.int64)
        rec[:, 1] = np.frombuffer(self.parents, dtype=np.uint64).view(np.int64)
        rec[:, 2] = np.frombuffer(self.actions, dtype=np.int64)
        self._file.seek(0, os.SEEK_END)
        self._file.write(rec.tobytes())
        self._spilled += n
        self.fps, self.parents, self.actions = array("Q"), array("Q"), array("l")

    def _records(self, start: int, stop: int) -> np.ndarray:
        """Records start..stop-1 as an (n, 3) int64 array (fingerprints as bit patterns)."""
        parts = []
        if start < self._spilled:
            end = min(stop, self._spilled)
            self._file.seek(start * 24)
            data = self._file.read((end - start) * 24)
            parts.append(np.frombuffer(data, dtype=np.int64).reshape(-1, 3))
        if stop > self._spilled:
            lo = max(start, self._spilled) - self._spilled
            hi = stop - self._spilled
            rec = np.empty((hi - lo, 3), dtype=np.int64)
            rec[:, 0] = np.frombuffer(self.fps, dtype=np.uint64)[lo:hi].view(np.int64)
            rec[:, 1] = np.frombuffer(self.parents, dtype=np.uint64)[lo:hi].view(np.int64)
            rec[:, 2] = np.frombuffer(self.actions, dtype=np.int64)[lo:hi]
            parts.append(rec)
        return np.concatenate(parts) if len(parts) > 1 else parts[0]

    def find(self, level: int, fp: int) -> tuple[int, int] | None:
        """(parent fingerprint, action index) of the state `fp` stored at `level`, or None."""
        if level < 1 or level > len(self.level_starts):
            return None
        start = self.level_starts[level - 1]
        stop = self.level_starts[level] if level < len(self.level_starts) else self.count
        if stop <= start:
            return None
        rec = self._records(start, stop)
        hit = np.flatnonzero(rec[:, 0] == np.uint64(fp).view(np.int64))
        if not len(hit):
            return None
        r = rec[hit[0]]
        return int(np.int64(r[1]).view(np.uint64)), int(r[2])

    def chain(self, level: int, fp: int) -> list[tuple[int, int]]:
        """[(fingerprint, action index)] from an initial state to the state `fp` of `level`."""
        out = []
        while level >= 1:
            found = self.find(level, fp)
            if found is None:
                raise LookupError(f"no parent link for fingerprint {fp:#x} at level {level}")
            out.append((fp, found[1]))
            fp = found[0]
            level -= 1
        out.reverse()
        return out

    def write_to(self, out) -> None:
        """Write every record, in storage order, to the binary file `out` (a checkpoint)."""
        if self._file is not None:
            self._file.flush()
            self._file.seek(0)
            left = self._spilled * 24
            while left:
                data = self._file.read(min(left, 1 << 24))
                out.write(data)
                left -= len(data)
        if len(self.fps):
            out.write(self._records(self._spilled, self.count).tobytes())

    def read_from(self, src, level_starts: list[int]) -> None:
        """Take the records `write_to` wrote (into an empty store)."""
        assert self.count == 0
        self._file = tempfile.TemporaryFile(prefix="kipcheck-parents-", dir=self._dir)
        while data := src.read(1 << 24):
            self._file.write(data)
            self._spilled += len(data) // 24
        self.count = self._spilled
        self.level_starts = list(level_starts)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
