"""Checkpoints of the Spark search, in engine/checkpoint.py's layout: written between two levels
by each part (visited-P.npy, parents-P.bin, levels-P.npy, frontier-P-NNNNN.pkl, and extra-P.pkl
with its counts), the manifest by the driver. Parts in Spark write from their executors, so the
directory must be one the driver and every executor see (a shared or local file system)."""
from __future__ import annotations

import os
import pickle

import numpy as np

from ...engine import checkpoint as C
from . import part as P_


def save_part(directory: str, p: P_.Part) -> list:
    """Write one part; its frontier's batch files."""
    i = p.index
    C.write_visited(directory, i, p.visited)
    by_level = {lv: (f, q, a) for lv, f, q, a in p.links}
    starts, records = [], []
    count = 0
    for lv in range(1, p.level + 1):
        starts.append(count)
        if lv in by_level:
            f, q, a = by_level[lv]
            rec = np.empty((len(f), 3), dtype=np.int64)
            rec[:, 0] = f.view(np.int64)
            rec[:, 1] = q.view(np.int64)
            rec[:, 2] = a
            records.append(rec)
            count += len(f)
    with open(os.path.join(directory, f"parents-{i}.bin"), "wb") as out:
        for rec in records:
            out.write(rec.tobytes())
    np.save(os.path.join(directory, f"levels-{i}.npy"), np.asarray(starts, dtype=np.int64))
    with open(os.path.join(directory, f"extra-{i}.pkl"), "wb") as out:
        pickle.dump({"level": p.level, "coverage": p.coverage, "pending": p.pending}, out,
                    protocol=pickle.HIGHEST_PROTOCOL)
    return C.write_batches(directory, f"frontier-{i}", p.frontier)


def load_part(directory: str, i: int, files: list, actions: int) -> P_.Part:
    p = P_.Part(i, actions)
    with open(os.path.join(directory, f"extra-{i}.pkl"), "rb") as f:
        extra = pickle.load(f)
    p.level, p.coverage, p.pending = extra["level"], extra["coverage"], extra["pending"]
    p.visited = np.load(os.path.join(directory, f"visited-{i}.npy"))
    starts = np.load(os.path.join(directory, f"levels-{i}.npy")).tolist()
    with open(os.path.join(directory, f"parents-{i}.bin"), "rb") as f:
        rec = np.frombuffer(f.read(), dtype=np.int64).reshape(-1, 3)
    bounds = starts + [len(rec)]
    for lv in range(1, len(starts) + 1):
        chunk = rec[bounds[lv - 1]:bounds[lv]]
        if len(chunk):
            p.links.append((lv, chunk[:, 0].view(np.uint64).copy(),
                            chunk[:, 1].view(np.uint64).copy(), chunk[:, 2].copy()))
    p._frontier = list(C.read_batches(directory, files))  # a part travels pickled
    return p


def write(search, plan, counters: dict) -> None:
    """Write a snapshot of `search` between two levels into plan.directory."""
    writer = None
    try:
        writer = C.Writer(plan.directory, C.next_number(plan.directory))
        tmp = str(writer.tmp)
        if search.rdd is None:
            files = [save_part(tmp, p) for p in search.parts]
        else:
            files = search.rdd.map(lambda p, d=tmp: save_part(d, p)).collect()
        path = writer.commit({"identity": plan.identity, "backend": "spark",
                              "parts": search.n, "mode": "driver" if search.rdd is None
                              else "spark", "frontier": files, **counters})
    except OSError as e:
        if writer is not None:
            writer.abandon()
        raise C.CheckpointError(f"cannot write a checkpoint into {plan.directory}: "
                                f"{e.strerror or e}") from None
    plan.written.append(str(path))


def load(search, snap) -> None:
    """Put a snapshot's parts where they were: in the driver, or in Spark."""
    m = snap.manifest
    directory, n, files = str(snap.path), search.n, m["frontier"]
    actions = len(search.model.actions)
    if m.get("mode") == "driver":
        search.parts = [load_part(directory, i, files[i], actions) for i in range(n)]
        return
    from pyspark import StorageLevel

    from .search import _ident

    rdd = search._spark().parallelize([(i, i) for i in range(n)], n).partitionBy(n, _ident)
    rdd = rdd.mapPartitions(lambda it: [load_part(directory, i, files[i], actions)
                                        for i, _ in it], preservesPartitioning=True)
    rdd.persist(StorageLevel.MEMORY_AND_DISK)
    search.rdd, search.parts, search.spark_levels = rdd, None, 0
