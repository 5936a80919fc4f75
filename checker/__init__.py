"""kipcheck: an explicit-state model checker for TLA+ specs.

`checker.check(spec, config)` model-checks a spec and returns an `Outcome`;
`checker.simulate(spec, config, seed=S)` runs random behaviours and returns a `SimOutcome`. The
`kipcheck` command line is a thin layer over both.
"""
from .api import Outcome, SimOutcome, check, simulate

__all__ = ["check", "simulate", "Outcome", "SimOutcome"]
