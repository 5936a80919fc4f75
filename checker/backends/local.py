"""The local backend: one process, TLC's exact order (the engine's explore loop)."""
from __future__ import annotations

from ..engine.explore import explore
from ..interface import Model, Result


def run(model: Model, search) -> Result:
    return explore(model, max_depth=search.max_depth, progress=search.progress,
                   fingerprints=not search.exact_states, on_edge=search.on_edge,
                   checkpoint=search.checkpoint, frontier_states=search.frontier_states)
