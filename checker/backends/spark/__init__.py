"""The Spark backend: the level-synchronous search of `workers`, one Spark job per level.

`search.py` drives the levels, `part.py` is what each partition does (in executors and, for small
levels, in the driver), `session.py` starts Spark and ships kipcheck and the spec to the
executors, `snapshot.py` writes and reads checkpoints.
"""
from __future__ import annotations

from ...frontend.errors import KipcheckError
from ...interface import Model, Result
from ...verdicts import EXIT_USAGE


class SparkRefused(KipcheckError):
    """What the Spark backend does not check (the local backend does)."""

    exit_code = EXIT_USAGE


def unsupported(model: Model, search) -> str | None:
    """Why `model` cannot be checked on Spark with `search`, or None."""
    if model.liveness and search.max_depth is None:
        return ("liveness properties are checked by the local backend only (as in TLC's "
                "distributed mode); run without --backend spark")
    if search.on_edge is not None:
        return "--dump-graph needs the local backend; run without --backend spark"
    if search.exact_states:
        return "--exact-states needs the local backend; run without --backend spark"
    if model.recipe is None:
        return "this model cannot be rebuilt on Spark executors; use the local backend"
    return None


def run(model: Model, search, notes: list | None = None) -> Result:
    from . import session
    from .search import SparkSearch

    why = unsupported(model, search)
    if why is not None:
        raise SparkRefused(why)
    session.require()
    return SparkSearch(model, search, search.spark or {}, notes if notes is not None else []).run()
