"""The Python API: `check(spec, config)` runs a model and returns an Outcome.

The CLI is a thin layer over this module.
"""
from __future__ import annotations

import builtins
import difflib
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import backends
from . import verdicts as V
from .engine import checkpoint as checkpoints
from .engine.checkpoint import DEFAULT_MINUTES, CheckpointError, Plan
from .engine.explore import cut_at
from .engine.fingerprints import state_fingerprint
from .engine.frontier import DEFAULT_LIMIT as DEFAULT_FRONTIER
from .engine.witnesses import Witnesses
from .frontend import KipcheckError, LoadedSpec, default_config, load_spec, remembered
from .frontend.cfg import parse_config
from .frontend.errors import ConfigError, Span
from .interface import EVAL_ERRORS, Recipe, Result, Step, error_message
from .paths import shown_path
from .semantics import model as model_builder
from .semantics.codegen_runtime import RUN as compiler_run
from .semantics.runtime import DEFAULT_MAX_SET_SIZE as MAX_SET_SIZE
from .semantics.runtime import AssertFailure, set_max_set_size
from .semantics.scope import CompileError
from .semantics.values import show

# The --report-json document's format and version: a reader checks both.
REPORT_FORMAT = "kipcheck-report"
REPORT_VERSION = 1
# TLC's words for a next-state relation that splits into no action
NO_ACTIONS = "No next state actions defined to generate successor states from."


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
    checkpoint: str | None = None  # the newest snapshot this run wrote (--checkpoint)
    seconds_before: float = 0.0  # of `seconds`, what the runs before a --recover took
    # The .cfg's ALIAS on each state of the trace: (field names, values); None without one.
    # The printed trace shows it instead of the variables, as TLC's does.
    alias: list | None = None
    # --witness: per witness, in the order given, {"name", "reached", "depth", "trace"}.
    witnesses: list = field(default_factory=list)
    # Where an evaluation error happened when that has an exit code of its own (V.IN_INVARIANT)
    error_in: str | None = None

    @builtins.property
    def exit_code(self) -> int:
        return V.exit_code(self.verdict, self.error_in)

    @builtins.property
    def trace_length(self) -> int:
        return len(self.trace)

    def report(self, spec=None, config=None) -> dict:
        """The `--report-json` document."""
        doc = _report_head(self.verdict, spec, config, self.exit_code)
        doc.update({
            "property": self.property,
            "complete": self.cut_depth is None,  # false: --max-depth cut the search
            "cut_depth": self.cut_depth,
            "undecided": list(self.undecided),  # properties a cut search could not decide
            "distinct_states": self.distinct_states, "states_generated": self.states_generated,
            "depth": self.depth, "trace_length": self.trace_length,
            "loop": self.loop,  # a lasso's cycle starts at this state index (0-based), or null
            "seconds": round(self.seconds, 3),
            "seconds_before_recovery": round(self.seconds_before, 3),
            "coverage": {k: list(v) for k, v in self.coverage.items()},
            "visited_store_bytes": self.store_bytes,  # fingerprint table(s); 0: whole states
            "checkpoint": self.checkpoint,  # the newest snapshot written (--checkpoint), or null
            "message": self.message,
            "location": _location(self.span),
            "warnings": list(self.warnings),
            # reached: depth is the length of the shortest trace to a state satisfying it
            "witnesses": [{k: w[k] for k in ("name", "reached", "depth")}
                          for w in self.witnesses],
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


def _report_head(verdict: str, spec, config, code: int | None = None) -> dict:
    return {"format": REPORT_FORMAT, "version": REPORT_VERSION, "verdict": verdict,
            "exit_code": V.exit_code(verdict) if code is None else code,
            "spec": shown_path(spec),
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
        if c.name in out:  # the later would silently win over the earlier
            raise ConfigError(f"-D {c.name} is given twice; give each constant once")
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
          exact_states: bool = False, workers: int = 1, checkpoint: str | None = None,
          checkpoint_minutes: float = DEFAULT_MINUTES, recover: str | None = None,
          frontier_states: int | None = DEFAULT_FRONTIER,
          texts: dict | None = None, backend: str = "local",
          spark: dict | None = None, max_set_size: int = MAX_SET_SIZE,
          witnesses: tuple[str, ...] = ()) -> Outcome:
    """Model-check `spec` with `config`; bad input raises KipcheckError (spec/config errors).

    The seen set holds 64-bit fingerprints unless `exact_states` (or `fingerprints=False`)
    asks for whole states. `on_edge` sees every stored state and transition (see
    engine.explore): `--dump-graph`. `workers` > 1 explores in that many processes (see
    checker.backends). `checkpoint` names a directory to write a snapshot of the search into
    every `checkpoint_minutes` and when interrupted; `recover` resumes the newest snapshot of a
    directory (and keeps writing there unless `checkpoint` names another); a snapshot of
    another model raises CheckpointError. `frontier_states` bounds the queued states kept in
    memory (the rest wait on disk; None: no bound). `texts` replaces the text of .tla files by
    path (see load_spec). `backend="spark"` runs the search on Spark with the settings of
    `spark` (master, partitions, conf: see checker.backends.spark). A set map or filter that
    builds more than `max_set_size` elements is an evaluation error, as in TLC. `witnesses`
    names state predicates some reachable state must satisfy (see engine.witnesses): one that
    no state satisfies makes the verdict WITNESS when nothing else failed."""
    started = time.perf_counter()
    set_max_set_size(max_set_size)
    if config is None:
        config = default_config(spec)
    compiler_run_settings(workers)  # (TLCGet("config") in an ASSUME reads it)
    loaded, built, failed = _prepared(spec, config, lib, constants, deadlock, started, texts,
                                      tuple(witnesses))
    if failed is not None:
        return failed
    variables = built.model.variables
    found = None
    if built.witnesses:
        found = built.model.witnesses = Witnesses(built.witnesses)
        found.install(built.model.invariants, built.model.step_invariants)
    try:
        built.model.recipe = Recipe(str(spec), None if config is None else str(config),
                                    tuple((constants or {}).items()), tuple(lib), deadlock,
                                    tuple((texts or {}).items()), max_set_size)
        plan = None
        if checkpoint or recover:
            plan = _checkpoint_plan(built.model, loaded, constants, deadlock, max_depth,
                                    exact_states or not fingerprints, on_edge, workers,
                                    checkpoint, checkpoint_minutes, recover, backend, spark)
            plan.started = started
        if built.model.no_actions:  # the initial states only, then TLC's error
            search = backends.Search(1, progress, exact_states or not fingerprints, on_edge)
        else:
            search = backends.Search(max_depth, progress, exact_states or not fingerprints,
                                     on_edge, workers, plan, frontier_states, backend, spark)
        result: Result = backends.run(built.model, search, built.warnings)
    except AssertFailure as e:  # an Assert outside the engine's own checks
        return Outcome(V.ASSERT, message=e.message, variables=variables,
                       seconds=time.perf_counter() - started, warnings=built.warnings)
    span = built.compiler.span_of(result.exc) if result.exc is not None else None
    verdict, cut_depth, undecided = result.verdict, None, []
    prop, message = result.property, result.message
    if verdict == V.OK and built.model.no_actions:
        verdict, message = V.ERROR, NO_ACTIONS
    if verdict == V.OK and cut_at(max_depth, result.depth):
        # A bounded check: what holds within the depth is decided; liveness is not.
        cut_depth = max_depth
        undecided = list(dict.fromkeys(c.name for c in built.model.liveness))
        if undecided:
            verdict = V.INCOMPLETE
    if verdict == V.OK and built.postcondition is not None:
        model_builder.set_run_statistics(result.distinct, result.generated, result.left,
                                         result.depth, time.perf_counter() - started)
        failed = _postcondition(*built.postcondition)
        if failed is not None:
            verdict, prop, message, span = V.POSTCONDITION, built.postcondition[0], *failed
    reached = found.results() if found is not None else []
    if verdict == V.OK and any(not w["reached"] for w in reached):
        missing = [w["name"] for w in reached if not w["reached"]]
        verdict, prop = V.WITNESS, missing[0]
        within = f" within depth {cut_depth or max_depth}" if cut_at(max_depth, result.depth) \
            else ""
        message = (f"No reachable state{within} satisfies the witness"
                   f"{'es' if len(missing) > 1 else ''} {', '.join(missing)}.")
    where, message = error_in(verdict, result.error_at, result.trace, message, prop)
    earlier = plan.earlier if plan is not None else 0.0  # a resumed search's earlier runs
    alias = None
    if built.alias is not None and result.trace:  # how the trace prints, never a verdict
        alias = model_builder.alias_trace(built.alias, [s.state for s in result.trace],
                                          result.loop, built.warnings, variables)
    return Outcome(verdict, prop, result.distinct, result.generated,
                   result.depth, result.left, result.trace, variables, result.coverage,
                   earlier + time.perf_counter() - started, message, span, built.warnings,
                   result.outdegree, result.loop, result.loop_step, cut_depth, undecided,
                   result.collision, result.store_bytes, checkpoint=result.checkpoint,
                   seconds_before=earlier, alias=alias, witnesses=reached, error_in=where)


def error_in(verdict: str, error_at, trace: list, message, prop) -> tuple:
    """(V.IN_INVARIANT, the message naming the invariant) for an evaluation error in an
    invariant on a state after the initial ones (TLC's exit 76), whatever backend met it;
    (None, message) otherwise."""
    if verdict == V.ERROR and error_at and error_at[0] == "invariant" and len(trace) > 1:
        return V.IN_INVARIANT, f"{message}\nThe error occurred while evaluating invariant {prop}."
    return None, message


def _checkpoint_plan(model, loaded: LoadedSpec, constants, deadlock, max_depth, exact, on_edge,
                     workers, directory, minutes, recover, backend="local", spark=None) -> Plan:
    """What the search does about checkpoints; CheckpointError if it cannot."""
    why = None
    if exact:
        why = "--exact-states keeps whole states, which checkpoints do not hold"
    elif model.liveness:
        why = ("liveness properties need the whole behaviour graph in memory, which checkpoints "
               "do not hold")
    elif on_edge is not None:
        why = "--dump-graph needs the whole state graph in memory"
    elif model.witnesses is not None:
        why = "witnesses (--witness) are tracked in memory, which checkpoints do not hold"
    if why is not None:
        flag = "--checkpoint" if directory else "--recover"
        raise CheckpointError(f"{flag} is not supported here: {why}")
    if not minutes > 0:
        raise CheckpointError(f"--checkpoint-minutes must be positive, got {minutes}")
    config_text = ""
    if loaded.config is not None:
        try:
            config_text = Path(loaded.config.file).read_text(encoding="utf-8")
        except OSError:
            config_text = loaded.config.file
    ident = checkpoints.identity(
        {Path(k).name: v for k, v in loaded.modules.sources.items()}, config_text,
        {k: show(v) for k, v in (constants or {}).items()},
        {"deadlock": deadlock, "max_depth": max_depth},
        state_fingerprint((0, 1, True, False)))
    plan = Plan(directory or recover, minutes, None, ident)
    if recover:  # one process and workers resume each other's, whatever the worker count
        parts = (spark or {}).get("partitions") if backend == "spark" else None
        plan.recover = checkpoints.read(recover, ident, backend, parts)
        plan.earlier = plan.recover.manifest.get("seconds", 0.0)
    return plan


def preflight(spec: str | Path, config: str | Path, lib: tuple[str, ...] = ()) -> Outcome | None:
    """Everything `check` refuses before it searches (the model's build: a .cfg entry that
    is no predicate, a constant INIT, a constant expression that fails; the ASSUMEs), without
    searching: the Outcome of the first failure, or None. KipcheckError propagates."""
    return _prepared(spec, config, lib, None, None, time.perf_counter())[2]


def _prepared(spec, config, lib, constants, deadlock, started: float, texts=None,
              witnesses=()) -> tuple:
    """(loaded, built, None) for a model ready to search, or (None, None, the Outcome) when
    it fails before any search: a constant expression that cannot be evaluated (a CONSTANT,
    an action's domain), or an ASSUME. Bad input raises KipcheckError."""
    try:
        loaded, built = _load_and_build(spec, config, lib, constants, deadlock, texts,
                                        witnesses)
    except EVAL_ERRORS as e:
        return None, None, Outcome(V.ERROR, message=error_message(e),
                                   span=getattr(e, "span", None),
                                   seconds=time.perf_counter() - started)
    return loaded, built, _assumptions(built, built.model.variables, started)


def _assumptions(built, variables, started: float) -> Outcome | None:
    """The Outcome of the first ASSUME that fails (exit 10), or None when all hold."""
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
    return None


def _postcondition(name: str, span: Span, fn) -> tuple[str, Span] | None:
    """TLC's check of the POSTCONDITION after the search: None if it holds, else the message
    (TLC's) and where."""
    try:
        ok = fn(model_builder.NoState())
    except (*EVAL_ERRORS, AssertFailure) as e:
        return (f"Evaluating postcondition {name} at {_loc(span)} failed.\n"
                f"{getattr(e, 'message', None) or error_message(e)}", span)
    if ok is not True:
        detail = "" if ok is False else f" (TLC expected a boolean value, not {show(ok)})"
        return f"Postcondition {name} at {_loc(span)} is false.{detail}", span
    return None


def generated_code(spec: str | Path, config: str | Path | None = None,
                   constants: dict | None = None, lib: tuple[str, ...] = (),
                   actions: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """The Python kipcheck generates for a model, as [(function name, source)] in the order it
    was generated: Init, each action instance, the operators they call, the invariants and
    properties, and `expand` (all actions of a state in one call). `actions` keeps only the
    functions of those actions (their instances, and `expand`); an unknown name raises
    ValueError. A line's trailing comment names the spec's line it came from."""
    if config is None:
        config = default_config(spec)
    _, built = _load_and_build(spec, config, lib, constants, None)
    spans = built.compiler.spans

    def where(m: re.Match) -> str:
        span = spans[int(m.group(1))]
        return f"# {Path(span.file).name}:{span.line}:{span.col}"

    sources = [(n, re.sub(r"# @span:(\d+)", where, src))
               for n, src in built.compiler.sources.items()]
    if not actions:
        return sources
    names = sorted({a.name for a in built.model.actions})
    unknown = [a for a in actions if a not in names]
    if unknown:
        raise ValueError(f"no action named {', '.join(unknown)} in the next-state relation; "
                         f"its actions are: {', '.join(names)}")
    wanted = re.compile(r"(?:^|_)(?:" + "|".join(map(re.escape, actions)) + r")$")
    return [(n, src) for n, src in sources if wanted.search(n) or n == "expand"]


def _load_and_build(spec, config, lib, constants, deadlock, texts=None, witnesses=()):
    """(loaded, built) for a spec and config with `-D` overrides; a compile error is bad input
    (KipcheckError); an evaluation error of a constant expression propagates. What the build
    parsed and compiled is kept on the model (model.remembered) for worker processes."""
    with remembered.record() as used:
        loaded = load_spec(spec, config, lib, texts)
        if constants:
            check_overrides(constants, loaded)
        try:
            built = model_builder.build(loaded, constants, deadlock, witnesses)
        except CompileError as e:
            raise KipcheckError(e.message, e.span) from None
    built.model.remembered = used
    return loaded, built


def compiler_run_settings(workers: int) -> None:
    """What TLCGet("config") reports of this run beyond the model: its worker count."""
    compiler_run["workers"] = max(1, workers)


def _loc(span: Span) -> str:
    # TLC's end column is the last character's; a Span's end is exclusive.
    return (f"line {span.line}, col {span.col} to line {span.end_line}, col {span.end_col - 1} of "
            f"module {Path(span.file).stem}")


# -- simulation -------------------------------------------------------------------------------
NOT_CHECKED = ("not checked: simulation checks invariants and action properties on each "
               "step, not temporal properties (run `kipcheck check` for them)")


@dataclass
class SimOutcome(Outcome):
    """The Outcome of `simulate`: the check's fields (a counterexample, coverage, ...) and the
    simulation's own figures."""

    seed: int = 0
    max_steps: int = 0  # --depth: steps per behaviour at most
    traces: int | None = None  # --traces asked for (None: until the budget)
    budget: float | None = None  # --budget in seconds
    workers: int = 1
    behaviours: int = 0
    states: int = 0  # states of the behaviours, initial ones included
    lengths: dict = field(default_factory=dict)  # states per behaviour -> behaviours
    ends: dict = field(default_factory=dict)  # how behaviours ended -> behaviours
    stopped_by: str = "traces"  # traces | budget | violation | interrupted | exit
    behaviour: int | None = None  # the index of the violating behaviour
    found_length: int = 0  # its length before shrinking
    shrunk: bool = False  # the trace is the shortest the shrink found
    replays: int = 0
    # Temporal properties the simulation did not check (JUnit: skipped with this reason).
    undecided_reason: str | None = None

    @builtins.property
    def states_per_second(self) -> int:
        return round(self.states_generated / self.seconds) if self.seconds > 0 else 0

    def length_figures(self) -> tuple[int, int, int]:
        from collections import Counter

        from .engine.simulation import length_figures

        return length_figures(Counter(self.lengths))

    def report(self, spec=None, config=None) -> dict:
        """The `--report-json` document of a simulation."""
        doc = _report_head(self.verdict, spec, config, self.exit_code)
        low, median, high = self.length_figures()
        doc.update({
            "mode": "simulate",
            "property": self.property,
            "seed": self.seed, "depth": self.max_steps, "traces": self.traces,
            "budget_seconds": self.budget, "workers": self.workers,
            "stopped_by": self.stopped_by,
            "behaviours": self.behaviours, "states": self.states,
            "states_generated": self.states_generated,
            "states_per_second": self.states_per_second,
            "behaviour_lengths": {"min": low, "median": median, "max": high,
                                  "histogram": {str(k): v for k, v in
                                                sorted(self.lengths.items())}},
            "behaviour_ends": dict(sorted(self.ends.items())),
            "coverage": {k: {"steps": v[0], "generated": v[1]}
                         for k, v in self.coverage.items()},
            "violating_behaviour": self.behaviour,
            "found_length": self.found_length if self.trace else None,
            "trace_length": self.trace_length,
            "shortest_known": self.shrunk,  # shrunk: the shortest found, not proven shortest
            "replays": self.replays,
            "not_checked": list(self.undecided),
            "seconds": round(self.seconds, 3),
            "message": self.message,
            "location": _location(self.span),
            "warnings": list(self.warnings),
        })
        return doc


def simulate(spec: str | Path, config: str | Path | None = None, constants: dict | None = None,
             lib: tuple[str, ...] = (), deadlock: bool | None = None, depth: int = 100,
             traces: int | None = None, budget: float | None = None, seed: int = 0,
             workers: int = 1, shrink: bool = True, progress=None) -> SimOutcome:
    """Random simulation of `spec` (TLC's -simulate): behaviours of at most `depth` steps until
    `traces` of them ran or `budget` seconds passed, or one violated a property; its
    counterexample is then shrunk. Bad input raises KipcheckError, as `check` does."""
    from .engine.simulation import simulate as run_simulation

    started = time.perf_counter()
    set_max_set_size(MAX_SET_SIZE)
    if config is None:
        config = default_config(spec)
    base = {"seed": seed, "max_steps": depth, "traces": traces, "budget": budget,
            "workers": workers}
    _, built, failed = _prepared(spec, config, lib, constants, deadlock, started)
    if failed is not None:
        return SimOutcome(**{k: getattr(failed, k) for k in Outcome.__dataclass_fields__},
                          **base)
    model = built.model
    variables = model.variables
    model.recipe = Recipe(str(spec), None if config is None else str(config),
                          tuple((constants or {}).items()), tuple(lib), deadlock)
    live = list(dict.fromkeys(c.name for c in model.liveness))
    warnings = list(built.warnings)
    if live:
        warnings.append(f"temporal properties are not checked in simulation: "
                        f"{', '.join(live)} (run `kipcheck check` for them)")
    try:
        if model.no_actions:  # the initial states only, then TLC's error
            sim = run_simulation(model, seed, 0, 1, budget, 1, shrink, progress)
            if sim.verdict == V.OK:
                sim.verdict, sim.message = V.ERROR, NO_ACTIONS
        else:
            sim = run_simulation(model, seed, depth, traces, budget, workers, shrink, progress)
    except AssertFailure as e:
        return SimOutcome(V.ASSERT, message=e.message, variables=variables, warnings=warnings,
                          seconds=time.perf_counter() - started, **base)
    t = sim.tally
    span = built.compiler.span_of(sim.exc) if sim.exc is not None else None
    where, sim.message = error_in(sim.verdict, sim.error_at, sim.trace, sim.message,
                                  sim.property)
    return SimOutcome(
        sim.verdict, sim.property, 0, t.generated, max(t.lengths, default=0), 0, sim.trace,
        variables, sim.coverage, time.perf_counter() - started, sim.message, span, warnings,
        undecided=live, behaviours=t.behaviours, states=t.states, lengths=dict(t.lengths),
        ends=dict(t.ends), stopped_by=sim.stopped_by, behaviour=sim.behaviour,
        found_length=sim.found_length, shrunk=sim.replays > 0, replays=sim.replays,
        undecided_reason=NOT_CHECKED if live else None,
        error_in=where, **base)
