"""Checkpoints: a snapshot of a search that a later run resumes (`--checkpoint`, `--recover`).

A checkpoint is a directory; every backend writes the same layout:

    DIR/checkpoint-000004/      one complete snapshot (the highest number is the newest)
        manifest.json           format, version, the model's identity, backend, counters
        visited-P.npy           uint64: the fingerprints part P owns (one part per process)
        parents-P.bin           int64 records (fingerprint, parent fingerprint, action index)
        levels-P.npy            int64: where each level starts in parents-P.bin
        frontier-P-NNNNN.pkl    pickled batches of the states still to expand, in order
        ranks-P.npy             (workers) each of part P's states' place in its level
        carry-P-NNNNN.pkl       (workers resuming one process's snapshot) states of the next
        carry-ranks-P.npy       level found already, and their places in it

A snapshot is written into `.checkpoint-N.tmp` and renamed when complete, then older snapshots
are removed: a run killed while writing leaves the previous snapshot usable. The manifest's
`identity` is a digest of the spec's modules, the .cfg, the constants and the options that change
what is explored, so a checkpoint of another model is refused instead of resumed into nonsense.

Any backend resumes any snapshot: the visited fingerprints and parent links are read back by
owner (`owned_visited`, `load_links`), and the queue in the one-process order (`queue_of`). The
one process writes between two states (its queue ends the level in progress and begins the next),
the workers between two levels (each part of the level with the states' ranks in it).
"""
from __future__ import annotations

import hashlib
import heapq
import json
import os
import pickle
import re
import shutil
import signal
import threading
import time
from dataclasses import dataclass, field
from itertools import islice
from operator import itemgetter
from pathlib import Path

import numpy as np

from ..frontend.errors import KipcheckError
from ..verdicts import CHECKPOINT_ERROR, EXIT_USAGE

FORMAT = "kipcheck-checkpoint"
VERSION = 1
DEFAULT_MINUTES = 30.0  # as TLC
FRONTIER_BATCH = 50_000  # states per frontier file of a snapshot
_NAME = re.compile(r"^checkpoint-(\d{6,})$")
_SLICE = 1 << 20  # fingerprints or links read back at a time


class CheckpointError(KipcheckError):
    """A checkpoint that cannot be written or resumed: another model, damage."""

    exit_code = EXIT_USAGE
    verdict = CHECKPOINT_ERROR


@dataclass
class Plan:
    """What a search does about checkpoints (see Search.checkpoint)."""

    directory: str | None = None  # write snapshots here
    minutes: float = DEFAULT_MINUTES  # every this many minutes, and when interrupted
    recover: Snapshot | None = None  # resume from this snapshot
    identity: str = ""  # the model's identity (see identity())
    written: list[str] = field(default_factory=list)  # snapshots written by this run
    started: float = field(default_factory=time.perf_counter)  # when this run started
    earlier: float = 0.0  # seconds the runs before a recovery took

    def seconds(self) -> float:
        """Seconds of the whole search so far: the runs before a recovery and this one."""
        return self.earlier + time.perf_counter() - self.started


@dataclass
class Snapshot:
    """A snapshot read back: its directory and its manifest."""

    path: Path
    manifest: dict

    def file(self, name: str) -> str:
        return str(self.path / name)


def identity(sources: dict[str, str], config_text: str, constants: dict, options: dict,
             probe: int) -> str:
    """A digest of everything that decides the state space and its fingerprints: the modules'
    texts (by module name, not path, so a moved checkout still matches), the .cfg, the
    constants, the options, and a sample fingerprint (a changed fingerprint function makes
    another visited set)."""
    doc = {"modules": sorted(sources.items()), "config": config_text,
           "constants": sorted(constants.items()), "options": sorted(options.items()),
           "probe": probe, "version": VERSION}
    return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()


def newest(directory: str | os.PathLike) -> Path | None:
    """The newest complete snapshot in `directory`, or None."""
    root = Path(directory)
    if not root.is_dir():
        return None
    found = sorted((int(m.group(1)), p) for p in root.iterdir()
                   if (m := _NAME.match(p.name)) and (p / "manifest.json").is_file())
    return found[-1][1] if found else None


def read(directory: str | os.PathLike, want_identity: str, backend: str = "local",
         parts: int | None = None) -> Snapshot:
    """The newest snapshot of `directory`, checked against the model of this run; CheckpointError
    says why it cannot be resumed. One process and workers resume each other's snapshots with any
    worker count; a Spark snapshot resumes on Spark with its own number of parts."""
    path = newest(directory)
    if path is None:
        raise CheckpointError(f"--recover {directory}: no checkpoint there (a directory that "
                              f"--checkpoint wrote holds checkpoint-NNNNNN/manifest.json)")
    try:
        manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise CheckpointError(f"--recover {directory}: cannot read {path / 'manifest.json'}: "
                              f"{e}") from None
    if manifest.get("format") != FORMAT or manifest.get("version") != VERSION:
        raise CheckpointError(f"--recover {directory}: {path.name} is not a kipcheck checkpoint "
                              f"of version {VERSION}")
    if manifest.get("identity") != want_identity:
        raise CheckpointError(
            f"--recover {directory}: the checkpoint is of another model (its spec, .cfg, "
            f"constants or options such as --max-depth and --no-deadlock differ, or it was made "
            f"by another kipcheck version); it cannot be resumed with this one")
    made = manifest.get("backend")
    if made not in ("local", "workers", "spark"):
        raise CheckpointError(f"--recover {directory}: {path.name} was made by an unknown "
                              f"backend {made!r}")
    if backend == "spark" and parts is None:  # Spark without --partitions: the snapshot's count
        parts = manifest.get("parts")
    spark = made == "spark" or backend == "spark"
    if spark and (made, manifest.get("parts")) != (backend, parts):
        this = _describe(backend, parts) if backend == "spark" else "the local backend"
        raise CheckpointError(f"--recover {directory}: the checkpoint was made by "
                              f"{_describe(made, manifest.get('parts'))}; resume it the same way "
                              f"(this run uses {this})")
    missing = [name for name in _files(manifest) if not (path / name).is_file()]
    if missing:
        raise CheckpointError(f"--recover {directory}: {path.name} is damaged: "
                              f"{', '.join(missing[:3])} missing")
    return Snapshot(path, manifest)


def _files(manifest: dict) -> list[str]:
    """The files a snapshot's manifest says it has."""
    parts = manifest.get("parts") or 1
    names = [f"{kind}-{p}.{ext}" for p in range(parts)
             for kind, ext in (("visited", "npy"), ("parents", "bin"), ("levels", "npy"))]
    frontier = manifest.get("frontier") or []
    if manifest.get("backend") == "workers":
        names += [f"ranks-{p}.npy" for p in range(parts)] + ["init-keys.pkl"]
        names += [name for files in frontier for name, _ in files]
        carry = manifest.get("carry") or []
        names += [f"carry-ranks-{p}.npy" for p, files in enumerate(carry) if files]
        names += [name for files in carry for name, _ in files]
    elif manifest.get("backend") == "spark":
        names += [f"extra-{p}.pkl" for p in range(parts)]
        names += [name for files in frontier for name, _ in files]
    else:
        names += [name for name, _ in frontier]
    return names


def _describe(backend, parts) -> str:
    if backend == "local":
        return "one process (no --workers)"
    if backend == "spark":
        return f"--backend spark --partitions {parts}"
    return f"--workers {parts}"


class Writer:
    """Writes one snapshot: open it, put the parts, commit (atomic rename, older ones removed)."""

    def __init__(self, directory: str, number: int):
        self.root = Path(directory)
        self.root.mkdir(parents=True, exist_ok=True)
        self.final = self.root / f"checkpoint-{number:06d}"
        self.tmp = self.root / f".checkpoint-{number:06d}.tmp"
        if self.tmp.exists():
            shutil.rmtree(self.tmp)
        self.tmp.mkdir()

    def path(self, name: str) -> str:
        return str(self.tmp / name)

    def visited(self, part: int, fps: np.ndarray) -> None:
        write_visited(str(self.tmp), part, fps)

    def parents(self, part: int, links) -> None:
        write_parents(str(self.tmp), part, links)

    def commit(self, manifest: dict) -> Path:
        manifest = {"format": FORMAT, "version": VERSION, "written": time.strftime(
            "%Y-%m-%dT%H:%M:%SZ", time.gmtime()), **manifest}
        with open(self.path("manifest.json"), "w", encoding="utf-8") as f:
            json.dump(manifest, f, indent=1)
        _sync_dir(self.tmp)
        os.rename(self.tmp, self.final)
        _sync_dir(self.root)
        for p in self.root.iterdir():  # the older snapshots, and leftovers of killed writers
            if p != self.final and (_NAME.match(p.name) or p.name.startswith(".checkpoint-")):
                shutil.rmtree(p, ignore_errors=True)
        return self.final

    def abandon(self) -> None:
        shutil.rmtree(self.tmp, ignore_errors=True)


def next_number(directory: str) -> int:
    path = newest(directory)
    return 1 if path is None else int(_NAME.match(path.name).group(1)) + 1


def _sync_dir(path: Path) -> None:
    """Flush a directory's files and entries to disk, so a crash cannot leave a renamed but
    empty snapshot."""
    for p in path.iterdir() if path.name.endswith(".tmp") else ():
        fd = os.open(p, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_visited(directory: str, part: int, fps: np.ndarray) -> None:
    np.save(os.path.join(directory, f"visited-{part}.npy"), np.asarray(fps, dtype=np.uint64))


def write_parents(directory: str, part: int, links) -> None:
    """A ParentLinks' records and level starts."""
    with open(os.path.join(directory, f"parents-{part}.bin"), "wb") as f:
        links.write_to(f)
    np.save(os.path.join(directory, f"levels-{part}.npy"),
            np.asarray(links.level_starts, dtype=np.int64))


def write_batches(directory: str, prefix: str, items) -> list[list]:
    """`items` (any iterable) as pickled batch files prefix-NNNNN.pkl; [[name, count], ...]."""
    out = []
    it = iter(items)
    while part := list(islice(it, FRONTIER_BATCH)):
        name = f"{prefix}-{len(out):05d}.pkl"
        with open(os.path.join(directory, name), "wb") as f:
            pickle.dump(part, f, protocol=pickle.HIGHEST_PROTOCOL)
        out.append([name, len(part)])
    return out


def read_batches(directory: str, files: list[list]):
    """The items of the batch files `write_batches` wrote, in order, a file at a time."""
    for name, _ in files:
        with open(os.path.join(directory, name), "rb") as f:
            yield from pickle.load(f)


def save_part(directory: str, part: int, table, links, frontier, ranks, coverage,
              carry=None, carry_ranks=None):
    """One process's part of a level-boundary snapshot (the workers backend): its visited
    fingerprints, parent links, share of the level and those states' ranks, and the states of
    the next level it carries (see queue_of). Returns the batch files of the frontier, the
    coverage and the batch files of the carried states, for the manifest."""
    write_visited(directory, part, table.keys())
    write_parents(directory, part, links)
    np.save(os.path.join(directory, f"ranks-{part}.npy"), np.asarray(ranks, dtype=np.int64))
    carried = []
    if carry is not None:
        np.save(os.path.join(directory, f"carry-ranks-{part}.npy"),
                np.asarray(carry_ranks, dtype=np.int64))
        carried = write_batches(directory, f"carry-{part}", carry)
    return write_batches(directory, f"frontier-{part}", frontier), coverage, carried


def _parts(snapshot: Snapshot) -> int:
    return snapshot.manifest.get("parts") or 1


def owned_visited(snapshot: Snapshot, owner=None) -> np.ndarray:
    """The visited fingerprints of every part; with `owner(fps) -> mask`, only those it keeps."""
    out = []
    for p in range(_parts(snapshot)):
        fps = np.load(snapshot.file(f"visited-{p}.npy"), mmap_mode="r")
        for start in range(0, len(fps), _SLICE):
            part = np.array(fps[start:start + _SLICE])
            out.append(part if owner is None else part[owner(part)])
    return np.concatenate(out) if out else np.zeros(0, dtype=np.uint64)


def load_links(snapshot: Snapshot, links, owner=None) -> None:
    """Fill an empty ParentLinks with the records of every part, level by level; with
    `owner(fps) -> mask`, only the records of the states it keeps."""
    parts = []
    for p in range(_parts(snapshot)):
        starts = np.load(snapshot.file(f"levels-{p}.npy")).tolist()
        path = snapshot.file(f"parents-{p}.bin")
        count = os.path.getsize(path) // 24
        records = (np.memmap(path, dtype=np.int64, mode="r", shape=(count, 3)) if count
                   else np.zeros((0, 3), dtype=np.int64))
        parts.append((starts, records))
    levels = max((len(starts) for starts, _ in parts), default=0)
    for level in range(1, levels + 1):
        for starts, records in parts:
            if level > len(starts):
                continue
            stop = starts[level] if level < len(starts) else len(records)
            for lo in range(starts[level - 1], stop, _SLICE):
                rec = np.array(records[lo:min(stop, lo + _SLICE)])
                if owner is not None:
                    rec = rec[owner(rec[:, 0].view(np.uint64))]
                links.add_records(level, rec)
        links.add_records(level, np.zeros((0, 3), dtype=np.int64))  # the level exists


def queue_of(snapshot: Snapshot):
    """The queued states of a snapshot, (state, fingerprint, level), in the one-process order:
    the workers' parts of the level merged by rank."""
    m = snapshot.manifest
    directory = str(snapshot.path)
    if m["backend"] == "local":
        yield from read_batches(directory, m["frontier"])
        return
    level = m["level"]
    carry = m.get("carry") or []
    for kind, files_of, at in (("ranks", m["frontier"], level), ("carry-ranks", carry, level + 1)):
        streams = [zip(np.load(snapshot.file(f"{kind}-{p}.npy")).tolist(),
                       read_batches(directory, files), strict=True)
                   for p, files in enumerate(files_of) if files]
        for _, (state, fp) in heapq.merge(*streams, key=itemgetter(0)):
            yield state, fp, at


def coverage_by_action(snapshot: Snapshot, names: list[str]) -> list[list[int]]:
    """The snapshot's coverage per action index ([new, generated]); an action name shared by
    several actions gets its total on the first of them (coverage is reported by name)."""
    m = snapshot.manifest
    out = [[0, 0] for _ in names]
    if m["backend"] == "workers":
        for part in m["part_coverage"]:
            for i, (new, gen) in enumerate(part):
                out[i][0] += new
                out[i][1] += gen
        return out
    first: dict = {}
    for i, name in enumerate(names):
        first.setdefault(name, i)
    for name, (new, gen) in m["coverage"].items():
        if name in first:
            out[first[name]] = [new, gen]
    return out


def expanded(manifest: dict) -> int:
    """States expanded so far (one out-degree sample each)."""
    return manifest.get("expanded", sum(manifest["outdegree"]))


def histogram(samples) -> list[int]:
    """Out-degree samples (0..31) as 32 counts, as a manifest keeps them."""
    return np.bincount(np.asarray(samples, dtype=np.int64), minlength=32).tolist()


def samples(hist) -> list[int]:
    return [i for i, c in enumerate(hist) for _ in range(c)]


def catch_stop_signals(handler) -> dict:
    """Send SIGINT and SIGTERM to `handler`, so that a search with checkpoints stops where its
    state is consistent (only the main thread may install handlers); the old handlers, for
    `restore_signals`."""
    old = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            old[sig] = signal.signal(sig, handler)
    return old


def restore_signals(old: dict) -> None:
    for sig, handler in old.items():
        signal.signal(sig, handler)


class LevelPauses:
    """When a level-synchronous search (workers, Spark) writes a snapshot: every `plan.minutes`
    and when interrupted (never without a plan). Ctrl-C and SIGTERM only note the interruption
    and call `on_interrupt`, which makes the level in progress stop where the search can be
    snapshotted as it was at the level's start; a second one stops at once."""

    def __init__(self, plan, on_interrupt):
        self.plan, self.on_interrupt = plan, on_interrupt
        self.interrupted = False
        self.last = time.monotonic()
        self.old = catch_stop_signals(self._signal)

    def _signal(self, signum, frame):
        if self.interrupted:
            raise KeyboardInterrupt
        self.interrupted = True
        self.on_interrupt()

    def due(self) -> bool:
        if self.plan is None:
            return False
        return self.interrupted or time.monotonic() - self.last >= self.plan.minutes * 60.0

    def close(self) -> None:
        restore_signals(self.old)
