"""Checkpoints: a snapshot of a search that a later run resumes (`--checkpoint`, `--recover`).

A checkpoint is a directory; every backend writes the same layout:

    DIR/checkpoint-000004/      one complete snapshot (the highest number is the newest)
        manifest.json           format, version, the model's identity, backend, counters
        visited-P.npy           uint64: the fingerprints part P owns (one part per process)
        parents-P.bin           int64 records (fingerprint, parent fingerprint, action index)
        levels-P.npy            int64: where each level starts in parents-P.bin
        frontier-P-NNNNN.pkl    pickled batches of the states still to expand, in order

A snapshot is written into `.checkpoint-N.tmp` and renamed when complete, then older snapshots
are removed: a run killed while writing leaves the previous snapshot usable. The manifest's
`identity` is a digest of the spec's modules, the .cfg, the constants and the options that change
what is explored, so a checkpoint of another model is refused instead of resumed into nonsense.
"""
from __future__ import annotations

import hashlib
import json
import os
import pickle
import re
import shutil
import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..frontend.errors import KipcheckError
from ..verdicts import CHECKPOINT_ERROR, EXIT_USAGE

FORMAT = "kipcheck-checkpoint"
VERSION = 1
DEFAULT_MINUTES = 30.0  # as TLC
FRONTIER_BATCH = 50_000  # states per frontier file of a snapshot
_NAME = re.compile(r"^checkpoint-(\d{6,})$")


class CheckpointError(KipcheckError):
    """A checkpoint that cannot be written or resumed: another model, another backend, damage."""

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


def read(directory: str | os.PathLike, want_identity: str, backend: str,
         parts: int | None) -> Snapshot:
    """The newest snapshot of `directory`, checked against the model and backend of this run;
    CheckpointError says why it cannot be resumed."""
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
    if parts is None:  # the Spark backend without --partitions: the snapshot's count
        parts = manifest.get("parts")
    if (manifest.get("backend"), manifest.get("parts")) != (backend, parts):
        made = _describe(manifest.get("backend"), manifest.get("parts"))
        raise CheckpointError(f"--recover {directory}: the checkpoint was made by {made}; "
                              f"resume it the same way (this run uses {_describe(backend, parts)})")
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


def write_batches(directory: str, prefix: str, items: list) -> list[list]:
    """`items` as pickled batch files prefix-NNNNN.pkl; [[name, count], ...]."""
    out = []
    for start in range(0, len(items), FRONTIER_BATCH):
        part = items[start:start + FRONTIER_BATCH]
        name = f"{prefix}-{len(out):05d}.pkl"
        with open(os.path.join(directory, name), "wb") as f:
            pickle.dump(part, f, protocol=pickle.HIGHEST_PROTOCOL)
        out.append([name, len(part)])
    return out


def read_batches(directory: str, files: list[list]) -> list:
    out: list = []
    for name, _ in files:
        with open(os.path.join(directory, name), "rb") as f:
            out.extend(pickle.load(f))
    return out


def save_part(directory: str, part: int, table, links, frontier: list, ranks, coverage):
    """One process's part of a level-boundary snapshot (the workers backend): its visited
    fingerprints, parent links, share of the level and those states' ranks. Returns the
    frontier's batch files and the coverage, for the manifest."""
    write_visited(directory, part, table.keys())
    write_parents(directory, part, links)
    np.save(os.path.join(directory, f"ranks-{part}.npy"), np.asarray(ranks, dtype=np.int64))
    return write_batches(directory, f"frontier-{part}", frontier), coverage


def load_part(directory: str, part: int, links, files):
    """(visited table, frontier, ranks) of one process's part; fills the empty `links`."""
    from .store import FingerprintTable

    snap = Snapshot(Path(directory), {})
    table = FingerprintTable.of(load_visited(snap, part))
    load_parents(snap, part, links)
    ranks = np.load(os.path.join(directory, f"ranks-{part}.npy"))
    return table, read_batches(directory, files), ranks


def load_visited(snapshot: Snapshot, part: int) -> np.ndarray:
    return np.load(snapshot.file(f"visited-{part}.npy"))


def load_parents(snapshot: Snapshot, part: int, links) -> None:
    """Fill an empty ParentLinks with a snapshot's records."""
    starts = np.load(snapshot.file(f"levels-{part}.npy")).tolist()
    with open(snapshot.file(f"parents-{part}.bin"), "rb") as f:
        links.read_from(f, starts)


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
