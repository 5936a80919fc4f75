"""Backends: one breadth-first search, several ways to run it, identical answers.

Every backend explores a `checker.interface.Model` under the same `Search` options and answers
with a `checker.interface.Result`: verdict, TLC's counts, a shortest counterexample.

- `local` (`local.py`): one process, in exactly TLC's order (engine/explore.py), so even the
  counts at a violation are TLC's. The only backend that checks liveness and draws graphs.
- `workers` (`workers.py`): N processes, level by level; each state's fingerprint has an owner
  process that decides whether it is new. Counts of a complete search and counterexample
  lengths equal `local`'s.
- `spark` (`spark/`): the same level-synchronous search as `workers` on a Spark cluster, one
  Spark job per level; liveness and --dump-graph are refused there (a clear error).

`run` picks the backend and says (in `notes`) when it had to fall back to `local`.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from ..interface import EvalError, Model, Result


@dataclass
class Search:
    """How to search: what every backend accepts."""

    max_depth: int | None = None
    progress: Callable | None = None  # progress(distinct, generated, queue, depth)
    exact_states: bool = False  # whole states in the seen set instead of fingerprints
    on_edge: Callable | None = None  # sees every stored state and transition (local only)
    workers: int = 1
    checkpoint: object = None  # a checkpoint.Plan: write snapshots, resume from one
    frontier_states: int | None = None  # queued states kept in memory (local); None: all
    backend: str = "local"  # "spark": on Spark (see spark/), else local or workers
    spark: dict | None = None  # master, partitions, conf, driver_states (see spark/search.py)


class CountsRefused:
    """The search's counts as TLCGet reads them during a search spread over several processes:
    a read is refused, since the values would depend on how the processes interleave (TLC's
    do, with several workers). TLCGet("level") and TLCGet of a register are not affected.
    `how`: the search, as the user asked for it; `instead`: the option that gives one process."""

    def __init__(self, how: str, why: str, instead: str):
        self.how, self.why, self.instead = how, why, instead

    def __getitem__(self, key):
        raise EvalError(f"TLCGet(\"{key}\") is not supported during a search {self.how}: "
                        f"its value would depend on how {self.why} interleave; check this "
                        f"model with {self.instead}")

    def items(self):
        self["stats"]


def cores() -> int:
    """The number of cores this process may use (`--workers auto`)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def run(model: Model, search: Search, notes: list[str] | None = None) -> Result:
    """Explore `model` with the backend `search` asks for; `notes` collects fallbacks."""
    notes = notes if notes is not None else []
    if search.backend == "spark":
        from . import spark

        return spark.run(model, search, notes)
    if search.workers > 1:
        why = local_only(model, search, "in another process")
        if why is None:
            from . import workers

            return workers.run(model, search)
        notes.append(f"--workers {search.workers} ignored: {why}; checked in one process")
    from . import local

    return local.run(model, search)


def local_only(model: Model, search: Search, where: str) -> str | None:
    """Why only the local backend can check `model` with `search` (the workers and Spark
    backends keep neither the behaviour graph nor whole states, and rebuild the model `where`),
    or None."""
    if model.liveness and search.max_depth is None:
        return "liveness properties are checked by the local backend only"
    if search.on_edge is not None:
        return "--dump-graph needs the local backend"
    if model.witnesses is not None:
        return "witnesses (--witness) are checked by the local backend only"
    if search.exact_states:
        return "--exact-states needs the local backend"
    if model.recipe is None:
        return f"this model cannot be rebuilt {where}"
    return None
