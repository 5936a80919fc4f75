"""The Python API: `check(spec, config)` runs a model and returns an Outcome.

The CLI is a thin layer over this module.
"""
from __future__ import annotations

import builtins
import difflib
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import backends
from . import verdicts as V
from .engine.explore import cut_at
from .frontend import KipcheckError, LoadedSpec, default_config, load_spec
from .frontend.cfg import parse_config
from .frontend.errors import ConfigError, Span
from .interface import EVAL_ERRORS, Recipe, Result, Step, error_message
from .paths import shown_path
from .semantics import model as model_builder
from .semantics.compiler import CompileError
from .semantics.runtime import AssertFailure
from .semantics.values import show

# The --report-json document's format and version: a reader checks both.
REPORT_FORMAT = "kipcheck-report"
REPORT_VERSION = 1


@dataclass
class Outcome:
    verdict: str  # a verdict of checker.verdicts (interrupted: the counts are those so far)
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
    # --max-depth: the depth at which the search was cut (None: it was complete), and the
    # properties it could therefore not decide (liveness needs the whole graph).
    cut_depth: int | None = None
    undecided: list[str] = field(default_factory=list)
    collision: float | None = None  # fingerprint collision estimate (None: whole states)
    store_bytes: int = 0  # memory of the visited store in fingerprint mode

    @builtins.property
    def exit_code(self) -> int:
        return V.exit_code(self.verdict)

    @builtins.property
    def trace_length(self) -> int:
        return len(self.trace)

    def report(self, spec=None, config=None) -> dict:
        """The `--report-json` document."""
        doc = _report_head(self.verdict, spec, config)
        doc.update({
            "property": self.property,
            "complete": self.cut_depth is None,  # false: --max-depth cut the search
            "cut_depth": self.cut_depth,
            "undecided": list(self.undecided),  # properties a cut search could not decide
            "distinct_states": self.distinct_states, "states_generated": self.states_generated,
            "depth": self.depth, "trace_length": self.trace_length,
            "loop": self.loop,  # a lasso's cycle starts at this state index (0-based), or null
            "seconds": round(self.seconds, 3),
            "coverage": {k: list(v) for k, v in self.coverage.items()},
            "visited_store_bytes": self.store_bytes,  # fingerprint table(s); 0: whole states
            "message": self.message,
            "location": _location(self.span),
            "warnings": list(self.warnings),
        })
        return doc


def error_report(error: KipcheckError, spec=None, config=None) -> dict:
    """The `--report-json` document of a check that could not start (a spec or .cfg error)."""
    return stop_report(error.verdict, error.message, spec, config, error.span)


def stop_report(verdict: str, message: str, spec=None, config=None,
                span: Span | None = None) -> dict:
    """The `--report-json` document of a run that ended without an Outcome."""
    doc = _report_head(verdict, spec, config)
    doc.update({"message": message, "location": _location(span)})
    return doc


def _report_head(verdict: str, spec, config) -> dict:
    return {"format": REPORT_FORMAT, "version": REPORT_VERSION, "verdict": verdict,
            "exit_code": V.exit_code(verdict), "spec": shown_path(spec),
            "config": shown_path(config)}


def _location(span: Span | None) -> dict | None:
    if span is None or span.line <= 0:
        return None
    return {"file": shown_path(span.file), "line": span.line, "column": span.col}


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


def check_overrides(constants: dict, loaded: LoadedSpec) -> None:
    """Every `-D NAME` must be a constant (or a definition the .cfg could override) of the spec:
    an unknown name would otherwise be ignored and another model checked than the one meant."""
    scope = loaded.scope
    for name in constants:
        sym = scope.symbols.get(name)
        if sym is not None and (sym.kind == "constant" or (
                sym.kind in ("operator", "function") and not sym.arity)):
            continue
        known = sorted(scope.constants)
        close = difflib.get_close_matches(name, known, n=1)
        hint = f"; did you mean {close[0]}?" if close else ""
        raise ConfigError(f"-D {name}: {name!r} is not a constant of module {scope.name}{hint} "
                          f"(its constants: {', '.join(known) or 'none'})")


def check(spec: str | Path, config: str | Path | None = None, constants: dict | None = None,
          lib: tuple[str, ...] = (), deadlock: bool | None = None, max_depth: int | None = None,
          progress=None, fingerprints: bool = True, on_edge=None,
          exact_states: bool = False, workers: int = 1,
          texts: dict | None = None) -> Outcome:
    """Model-check `spec` with `config`; bad input raises KipcheckError (spec/config errors).

    The seen set holds 64-bit fingerprints unless `exact_states` (or `fingerprints=False`)
    asks for whole states. `on_edge` sees every stored state and transition (see
    engine.explore): `--dump-graph`. `workers` > 1 explores in that many processes (see
    checker.backends). `texts` replaces the text of .tla files by path (see load_spec)."""
    started = time.perf_counter()
    if config is None:
        config = default_config(spec)
    loaded = load_spec(spec, config, lib, texts)
    if constants:
        check_overrides(constants, loaded)
    try:
        built = model_builder.build(loaded, constants, deadlock)
    except CompileError as e:
        raise KipcheckError(e.message, e.span) from None
    except EVAL_ERRORS as e:  # a constant expression (a CONSTANT, an action's domain) failed
        return Outcome(V.ERROR, message=error_message(e), span=getattr(e, "span", None),
                       seconds=time.perf_counter() - started)
    variables = built.model.variables
    alias = loaded.config.alias if loaded.config is not None else None
    if alias is not None:  # it changes how a trace looks, never a verdict or a count
        built.warnings.append(f"ALIAS {alias.name} ({alias.span}) is not supported yet: "
                              f"counterexamples show the variables, not the alias")
    # ASSUME
    for span, fn in built.assumptions:
        try:
            ok = fn(None)
        except EVAL_ERRORS as e:  # TLC's verdict too: the assumption failed (exit 10)
            return Outcome(V.ASSUMPTION, message=f"Evaluating assumption {_loc(span)} failed.\n"
                           f"{error_message(e)}", span=built.compiler.span_of(e) or span,
                           variables=variables, seconds=time.perf_counter() - started)
        except AssertFailure as e:  # TLC: the assumption failed (exit 10), not an Assert (14)
            return Outcome(V.ASSUMPTION, message=f"Evaluating assumption {_loc(span)} failed.\n"
                           f"{e.message}", span=span, variables=variables,
                           seconds=time.perf_counter() - started)
        if ok is not True:
            message = (f"Assumption {_loc(span)} is false." if ok is False else
                       f"Evaluating assumption {_loc(span)} failed.\nTLC expected a boolean "
                       f"value, but did not find one. {show(ok)}")
            return Outcome(V.ASSUMPTION, message=message,
                           span=span, variables=variables,
                           seconds=time.perf_counter() - started)
    try:
        built.model.recipe = Recipe(str(spec), None if config is None else str(config),
                                    tuple((constants or {}).items()), tuple(lib), deadlock,
                                    tuple((texts or {}).items()))
        search = backends.Search(max_depth, progress, exact_states or not fingerprints,
                                 on_edge, workers)
        result: Result = backends.run(built.model, search, built.warnings)
    except AssertFailure as e:  # an Assert outside the engine's own checks
        return Outcome(V.ASSERT, message=e.message, variables=variables,
                       seconds=time.perf_counter() - started, warnings=built.warnings)
    span = built.compiler.span_of(result.exc) if result.exc is not None else None
    verdict, cut_depth, undecided = result.verdict, None, []
    if verdict == V.OK and cut_at(max_depth, result.depth):
        # A bounded check: what holds within the depth is decided; liveness is not.
        cut_depth = max_depth
        undecided = list(dict.fromkeys(c.name for c in built.model.liveness))
        if undecided:
            verdict = V.INCOMPLETE
    return Outcome(verdict, result.property, result.distinct, result.generated,
                   result.depth, result.left, result.trace, variables, result.coverage,
                   time.perf_counter() - started, result.message, span, built.warnings,
                   result.outdegree, result.loop, result.loop_step, cut_depth, undecided,
                   result.collision, result.store_bytes)


def _loc(span: Span) -> str:
    # TLC's end column is the last character's; a Span's end is exclusive.
    return (f"line {span.line}, col {span.col} to line {span.end_line}, col {span.end_col - 1} of "
            f"module {Path(span.file).stem}")
