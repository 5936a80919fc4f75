"""The Python API: `check(spec, config)` runs a model and returns an Outcome.

The CLI is a thin layer over this module.
"""
from __future__ import annotations

import builtins
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import backends
from .frontend import KipcheckError, default_config, load_spec
from .frontend.cfg import parse_config
from .frontend.errors import ConfigError, Span
from .interface import EVAL_ERRORS, Recipe, Result, Step, error_message
from .semantics import model as model_builder
from .semantics.compiler import CompileError
from .semantics.runtime import AssertFailure
from .semantics.values import EvalError

EXIT = {"ok": 0, "assumption": 10, "deadlock": 11, "invariant": 12, "property": 13,
        "assert": 14, "error": 75, "interrupted": 130}


@dataclass
class Outcome:
    verdict: str  # ok | invariant | property | deadlock | assumption | assert | error |
    # interrupted (Ctrl-C or SIGTERM: the counts are those so far)
    property: str | None = None
    distinct_states: int = 0
    states_generated: int = 0
    depth: int = 0
    states_left: int = 0
    trace: list[Step] = field(default_factory=list)
    variables: list[str] = field(default_factory=list)
    coverage: dict = field(default_factory=dict)
    seconds: float = 0.0
    message: str | None = None
    span: Span | None = None
    warnings: list[str] = field(default_factory=list)
    outdegree: tuple = (0, 0, 0, 0)
    # A liveness counterexample is a lasso: the trace's last state steps back to trace[loop].
    loop: int | None = None
    loop_step: Step | None = None  # the step from the last state back to trace[loop]; None:
    # the last state stutters forever
    collision: float | None = None  # fingerprint collision estimate (None: whole states)
    store_bytes: int = 0  # memory of the visited store in fingerprint mode

    @builtins.property
    def exit_code(self) -> int:
        return EXIT[self.verdict]

    @builtins.property
    def trace_length(self) -> int:
        return len(self.trace)

    def report(self) -> dict:
        """The `--report-json` document."""
        return {
            "verdict": self.verdict, "property": self.property,
            "distinct_states": self.distinct_states, "states_generated": self.states_generated,
            "depth": self.depth, "trace_length": self.trace_length,
            "loop": self.loop,  # a lasso's cycle starts at this state index (0-based), or null
            "seconds": round(self.seconds, 3),
            "coverage": {k: list(v) for k, v in self.coverage.items()},
            "visited_store_bytes": self.store_bytes,  # fingerprint table(s); 0: whole states
        }


def parse_constant_overrides(items: list[str]) -> dict:
    """`-D N=3 -D Procs={p1,p2}`: values in .cfg syntax."""
    out = {}
    for item in items:
        if "=" not in item:
            raise ConfigError(f"-D expects NAME=VALUE, got {item!r}")
        name, text = item.split("=", 1)
        cfg = parse_config(f"CONSTANT {name.strip()} = {text}", "<-D>")
        (c,) = cfg.constants
        out[c.name] = model_builder.cfg_value(c.value)
    return out


def check(spec: str | Path, config: str | Path | None = None, constants: dict | None = None,
          lib: tuple[str, ...] = (), deadlock: bool | None = None, max_depth: int | None = None,
          progress=None, fingerprints: bool = True, on_edge=None,
          exact_states: bool = False, workers: int = 1) -> Outcome:
    """Model-check `spec` with `config`; bad input raises KipcheckError (spec/config errors).

    The seen set holds 64-bit fingerprints unless `exact_states` (or `fingerprints=False`)
    asks for whole states. `on_edge` sees every stored state and transition (see
    engine.explore): `--dump-graph`. `workers` > 1 explores in that many processes (see
    checker.backends)."""
    started = time.perf_counter()
    if config is None:
        config = default_config(spec)
    loaded = load_spec(spec, config, lib)
    try:
        built = model_builder.build(loaded, constants, deadlock)
    except CompileError as e:
        raise KipcheckError(e.message, e.span) from None
    except EvalError as e:
        return Outcome("error", message=e.message, span=e.span,
                       seconds=time.perf_counter() - started)
    variables = built.model.variables
    # ASSUME
    for span, fn in built.assumptions:
        try:
            ok = fn(None)
        except EVAL_ERRORS as e:
            return Outcome("error", message=f"Evaluating assumption {_loc(span)} failed.\n"
                           f"{error_message(e)}", span=built.compiler.span_of(e) or span,
                           variables=variables, seconds=time.perf_counter() - started)
        except AssertFailure as e:
            return Outcome("assert", message=e.message, span=span, variables=variables,
                           seconds=time.perf_counter() - started)
        if ok is not True:
            return Outcome("assumption", message=f"Assumption {_loc(span)} is false.",
                           span=span, variables=variables,
                           seconds=time.perf_counter() - started)
    try:
        built.model.recipe = Recipe(str(spec), None if config is None else str(config),
                                    tuple((constants or {}).items()), tuple(lib), deadlock)
        search = backends.Search(max_depth, progress, exact_states or not fingerprints,
                                 on_edge, workers)
        result: Result = backends.run(built.model, search, built.warnings)
    except AssertFailure as e:
        return Outcome("assert", message=e.message, variables=variables,
                       seconds=time.perf_counter() - started, warnings=built.warnings)
    if max_depth is not None and built.model.liveness:
        built.warnings.append("liveness properties were not checked: --max-depth cuts the "
                              "behaviour graph, and its cut ends would look like states that "
                              "stutter forever")
    span = built.compiler.span_of(result.exc) if result.exc is not None else None
    return Outcome(result.verdict, result.property, result.distinct, result.generated,
                   result.depth, result.left, result.trace, variables, result.coverage,
                   time.perf_counter() - started, result.message, span, built.warnings,
                   result.outdegree, result.loop, result.loop_step, result.collision,
                   result.store_bytes)


def _loc(span: Span) -> str:
    return (f"line {span.line}, col {span.col} to line {span.end_line}, col {span.end_col} of "
            f"module {Path(span.file).stem}")
