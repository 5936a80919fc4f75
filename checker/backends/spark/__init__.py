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
    from .. import local_only

    why = local_only(model, search, "on Spark executors")
    return None if why is None else f"{why}; run without --backend spark"


def run(model: Model, search, notes: list | None = None) -> Result:
    from . import session
    from .search import SparkSearch

    why = unsupported(model, search)
    if why is not None:
        raise SparkRefused(why)
    session.require()
    return SparkSearch(model, search, search.spark or {}, notes if notes is not None else []).run()
