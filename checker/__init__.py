"""kipcheck: an explicit-state model checker for TLA+ specs.

`checker.check(spec, config)` model-checks a spec and returns an `Outcome`; the `kipcheck`
command line is a thin layer over it.
"""
from .api import Outcome, check

__all__ = ["check", "Outcome"]
