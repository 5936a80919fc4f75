"""Breadth-first exploration with TLC's counting rules and shortest counterexamples.

The engine knows nothing of TLA+ syntax: it gets a `Model` of Python callables. With one worker
it explores exactly in TLC's order (initial states, then each dequeued state's successors,
action by action), so counts at a violation come out as TLC's too:
- every initial state and every successor counts as generated, duplicates and states outside
  the CONSTRAINTs included;
- a state outside the constraints is checked against the invariants each time it is generated,
  never stored or expanded; a state inside is stored and checked once, when first generated;
- a state with no successor at all (a step back to itself counts) is a deadlock.
"""
from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from ..semantics.runtime import AssertFailure
from ..semantics.values import EvalError
from ..verdicts import ASSERT, DEADLOCK, ERROR, INVARIANT, OK, PROPERTY

# What evaluating generated code can raise besides EvalError: a spec applying an operator to
# values of the wrong kind (1 + "a") surfaces as a Python TypeError and the like.
EVAL_ERRORS = (EvalError, TypeError, ValueError, IndexError, KeyError, AttributeError,
               ZeroDivisionError, RecursionError)


# What stops the search while evaluating: an evaluation error, or an Assert that failed.
FAILURES = (AssertFailure, *EVAL_ERRORS)


def error_message(e: BaseException) -> str:
    """TLC-style wording for an evaluation error."""
    if isinstance(e, (EvalError, AssertFailure)):
        return e.message
    if isinstance(e, RecursionError):
        return "The evaluation recursed too deeply (an infinite recursion in the spec?)."
    return f"Attempted to evaluate an expression on values of the wrong kind ({e})."


@dataclass
class Model:
    """What the engine explores. States are tuples of values, in `variables` order."""

    variables: list[str]
    init: Callable  # () -> iterator of states
    actions: list  # objects with .label, .name and .gen(state, emit): emit(s) per successor
    invariants: list[tuple[str, Callable]] = field(default_factory=list)  # (name, pred(s))
    action_properties: list[tuple[str, Callable]] = field(default_factory=list)  # pred(s, t)
    constraints: list[Callable] = field(default_factory=list)  # pred(s)
    action_constraints: list[Callable] = field(default_factory=list)  # pred(s, t)
    fingerprint: Callable | None = None  # state -> key for the seen set (VIEW, SYMMETRY)
    check_deadlock: bool = True
    set_level: Callable | None = None  # tell the evaluator TLCGet("level")
    expand: Callable | None = None  # all actions at once: emit(i) then action i's successors
    init_properties: list[tuple[str, Callable]] = field(default_factory=list)  # pred(s) on Init
    liveness: list = field(default_factory=list)  # liveness.LivenessCheck, one per PROPERTY
    fairness: list = field(default_factory=list)  # liveness.Fairness of the SPECIFICATION


@dataclass
class Step:
    """One state of a counterexample and the action instance that reached it."""

    action: str | None  # the label, e.g. "Send(b1, p1)"; None for an initial state
    state: tuple
    name: str | None = None  # the action's name ("Send"); None for an initial state
    params: tuple = ()  # ((parameter name, value), ...) of the action instance


def step_of(action, state) -> Step:
    """The Step for `state` reached by `action` (an engine action, or None for Init)."""
    if action is None:
        return Step(None, state)
    return Step(action.label, state, action.name, tuple(action.params))


@dataclass
class Result:
    verdict: str  # a verdict of checker.verdicts
    property: str | None
    distinct: int
    generated: int
    depth: int
    left: int
    trace: list[Step]
    coverage: dict[str, list[int]]
    seconds: float
    message: str | None = None
    error_at: object = None  # what was being evaluated when an error happened
    outdegree: tuple = (0, 0, 0, 0)
    exc: BaseException | None = None  # the evaluation error itself (its traceback locates it)
    loop: int | None = None  # a lasso: the last state steps back to trace[loop]
    loop_step: Step | None = None  # ... by this action (None: it stutters forever)


def _failure(e: BaseException, trace: list, where: str | None, error_at, prop=None) -> _Stop:
    """The stop for an evaluation error or a failed Assert (its own verdict, as in TLC), with
    the behaviour that led to the state being evaluated."""
    message = error_message(e) if where is None else f"{error_message(e)}\n{where}"
    verdict = ASSERT if isinstance(e, AssertFailure) else ERROR
    return _Stop(verdict, prop, trace, message, error_at, e)


IN_CONSTRAINT = "The error occurred while evaluating a CONSTRAINT or ACTION_CONSTRAINT."


def _in_property(name: str) -> str:
    return f"The error occurred while evaluating property {name}."


class _Stop(Exception):
    def __init__(self, verdict, prop, trace, message=None, error_at=None, exc=None, loop=None,
                 loop_step=None):
        self.verdict, self.prop, self.trace = verdict, prop, trace
        self.message, self.error_at, self.exc = message, error_at, exc
        self.loop, self.loop_step = loop, loop_step


def explore(model: Model, max_depth: int | None = None, progress: Callable | None = None,
            fingerprints: bool = False, on_edge: Callable | None = None) -> Result:
    """Explore `model` breadth-first; stop at the first violation.

    The seen set maps each state's key to its parent's key and the action that reached it.
    By default the key is the state itself (no collisions; memory grows with state size);
    with `fingerprints` it is a 64-bit fingerprint, equal across processes, as in TLC: far
    less memory, and counterexamples are rebuilt by replaying actions from the initial states.

    `on_edge(src_key, action, dst_key, dst_state)`, if given, sees every stored initial state
    (src_key and action None) and every transition between stored states, duplicates included:
    what `--dump-graph` draws. It costs nothing when absent.
    """
    started = time.perf_counter()
    base_key = model.fingerprint or (lambda s: s)
    if fingerprints:
        from .fingerprints import fingerprint

        def key_of(s):
            return fingerprint(base_key(s))
    else:
        key_of = base_key
    parents: dict = {}  # key -> (parent key or None, action or None, state)
    queue: deque = deque()
    stats = {"generated": 0, "depth": 0}
    coverage: dict[str, list[int]] = {}
    invariants = model.invariants
    constraints = model.constraints
    action_constraints = model.action_constraints
    action_props = model.action_properties
    outdeg: list[int] = []
    recorder = None
    if model.liveness:
        recorder = _GraphRecorder(model.actions)
        on_edge = recorder if on_edge is None else _both(on_edge, recorder)

    def trace_to(key, last: Step | None = None) -> list[Step]:
        chain = []
        while key is not None:
            parent, action, state = parents[key]
            chain.append((key, action, state))
            key = parent
        chain.reverse()
        if chain and chain[0][2] is None:
            steps = _replay(model, key_of, chain)
        else:
            steps = [step_of(action, state) for _, action, state in chain]
        if last is not None:
            steps.append(last)
        return steps


    def check_invariants(state, trace_fn):
        for name, pred in invariants:
            try:
                ok = pred(state)
            except FAILURES as e:
                raise _failure(e, trace_fn(), None, ("invariant", name), name) from None
            if ok is not True:
                if ok is not False:
                    raise _Stop(ERROR, name, trace_fn(),
                                f"The invariant {name} is not a boolean", ("invariant", name))
                raise _Stop(INVARIANT, name, trace_fn())

    def keep(state):
        return None if fingerprints else state

    try:
        # Initial states.
        if model.set_level:
            model.set_level(0)
        cov = coverage.setdefault("<Init>", [0, 0])
        try:
            inits = list(model.init())
        except FAILURES as e:
            raise _failure(e, [], None, ("init", None)) from None
        for state in inits:
            stats["generated"] += 1
            cov[1] += 1
            try:
                in_model = all(c(state) for c in constraints)
            except FAILURES as e:
                raise _failure(e, [Step(None, state)], IN_CONSTRAINT, ("constraint", None)) \
                    from None
            key = key_of(state) if in_model else None
            new = in_model and key not in parents
            if new:
                parents[key] = (None, None, None if fingerprints else state)
                cov[0] += 1
                stats["depth"] = 1
            if in_model and on_edge is not None:
                on_edge(None, None, key, state)
            if new or not in_model:
                check_invariants(state, lambda s=state: [Step(None, s)])
            if new:
                for name, pred in model.init_properties:
                    try:
                        holds = pred(state)
                    except FAILURES as e:
                        raise _failure(e, [Step(None, state)], _in_property(name),
                                       ("property", name), name) from None
                    if holds is not True:
                        raise _Stop(PROPERTY, name, [Step(None, state)])
                queue.append((state, key, 1))
        stats["depth"] = 1  # TLC's depth counts the initial level even when it keeps no state
        # Breadth-first. The loop body runs once per generated state: keep it lean. All
        # actions run in one call (model.expand); ints in the buffer say which action follows.
        plain = (not constraints and not action_constraints and not action_props
                 and on_edge is None)
        keyed = model.fingerprint is not None or fingerprints
        popleft, push = queue.popleft, queue.append
        expanded = 0
        acts = [(a, coverage.setdefault(a.name, [0, 0])) for a in model.actions]
        buf: list = []
        emit = buf.append
        expand = model.expand or (lambda s, out: None)

        def constrained_step(state, succ, key, action, nxt, acov) -> bool:
            """TLC's order for a successor when constraints or action properties exist:
            in-model test, store if new, invariants (if new or outside the model), action
            properties (always), enqueue if new. True if it was a new state."""
            try:
                in_model = all(c(succ) for c in constraints) and all(
                    c(state, succ) for c in action_constraints)
            except FAILURES as e:
                raise _failure(e, trace_to(key, step_of(action, succ)), IN_CONSTRAINT,
                               ("constraint", None)) from None
            new = False
            skey = None
            if in_model:
                skey = key_of(succ) if keyed else succ
                if on_edge is not None:
                    on_edge(key, action, skey, succ)
                if skey not in parents:
                    parents[skey] = (key, action, keep(succ))
                    acov[0] += 1
                    new = True
                    if nxt > stats["depth"]:
                        stats["depth"] = nxt
            if new or not in_model:
                check_invariants(succ, _TraceTo(trace_to, key, action, succ))
            for name, pred in action_props:
                try:
                    holds = pred(state, succ)
                except FAILURES as e:
                    raise _failure(e, trace_to(key, step_of(action, succ)), _in_property(name),
                                   ("property", name), name) from None
                if holds is not True:
                    raise _Stop(PROPERTY, name, trace_to(key, step_of(action, succ)))
            if new:
                push((succ, skey, nxt))
            return new
        while queue:
            state, key, level = popleft()
            if max_depth is not None and level >= max_depth:
                continue
            if model.set_level:
                model.set_level(level)
            before = stats["generated"]
            fresh = 0
            nxt = level + 1
            buf.clear()
            try:
                expand(state, emit)
            except FAILURES as e:
                cur = max((x for x in buf if type(x) is int), default=0)
                where = acts[cur][0].label
                stats["generated"] += sum(1 for x in buf if type(x) is not int)
                raise _failure(e, trace_to(key), f"The error occurred in action {where}.",
                               ("action", where)) from None
            action, acov = None, None
            for succ in buf:
                if type(succ) is int:
                    action, acov = acts[succ]
                    continue
                stats["generated"] += 1
                acov[1] += 1
                if not plain:
                    if constrained_step(state, succ, key, action, nxt, acov):
                        fresh += 1
                    continue
                skey = key_of(succ) if keyed else succ
                if skey in parents:
                    continue
                parents[skey] = (key, action, keep(succ))
                acov[0] += 1
                fresh += 1
                if nxt > stats["depth"]:
                    stats["depth"] = nxt
                if invariants:
                    check_invariants(succ, _TraceTo(trace_to, key, action, succ))
                push((succ, skey, nxt))
            outdeg.append(fresh if fresh < 31 else 31)
            if progress is not None:
                expanded += 1
                if expanded & 1023 == 0:
                    progress(len(parents), stats["generated"], len(queue), level)
            if model.check_deadlock and stats["generated"] == before:
                raise _Stop(DEADLOCK, None, trace_to(key))
        # A cut graph (--max-depth) has false dead ends: liveness stays undecided.
        if recorder is not None and not cut_at(max_depth, stats["depth"]):
            _check_liveness(model, recorder.finish())
        verdict, prop, trace, message, error_at, exc = OK, None, [], None, None, None
        loop = loop_step = None
    except _Stop as stop:
        verdict, prop, trace = stop.verdict, stop.prop, stop.trace
        message, error_at, exc = stop.message, stop.error_at, stop.exc
        loop, loop_step = stop.loop, stop.loop_step
    return Result(verdict, prop, len(parents), stats["generated"], stats["depth"], len(queue),
                  trace, coverage, time.perf_counter() - started, message, error_at,
                  _outdegree(outdeg), exc, loop, loop_step)


def cut_at(max_depth: int | None, depth: int) -> bool:
    """Whether a search that reached `depth` left states unexpanded because of `max_depth`."""
    return max_depth is not None and depth >= max_depth


class _GraphRecorder:
    """Builds the behaviour graph for liveness from the engine's on_edge calls, which come
    in breadth-first order: a source's edges together, sources in the order they were
    stored, so node ids are storage order and the edges fill CSR arrays directly."""

    def __init__(self, actions):
        from .liveness import Graph

        self.graph = Graph()
        self.ids: dict = {}
        self.action_index = {id(a): i for i, a in enumerate(actions)}

    def __call__(self, src_key, action, dst_key, dst_state) -> None:
        g = self.graph
        ids = self.ids
        dst = ids.get(dst_key)
        if dst is None:
            dst = ids[dst_key] = len(g.states)
            g.states.append(dst_state)
        if src_key is None:  # initial states come first: new ones take the next ids
            if dst == len(g.inits):
                g.inits.append(dst)
            return
        src = ids[src_key]
        offsets = g.offsets
        while len(offsets) <= src + 1:  # close the sources before, which had no edges
            offsets.append(len(g.targets))
        g.targets.append(dst)
        g.actions.append(self.action_index[id(action)])
        offsets[src + 1] = len(g.targets)

    def finish(self):
        g = self.graph
        while len(g.offsets) <= len(g.states):
            g.offsets.append(len(g.targets))
        return g


def _both(first, second):
    def call(*args):
        first(*args)
        second(*args)
    return call


def _check_liveness(model: Model, graph) -> None:
    """After a complete exploration: raise _Stop with a lasso if a liveness property fails."""
    from . import liveness

    try:
        found = liveness.check(graph, model.liveness, model.fairness)
    except FAILURES as e:
        raise _failure(e, [], "The error occurred while checking temporal properties.",
                       ("liveness", None)) from None
    if found is None:
        return
    name, lasso = found
    acts = model.actions
    trace = [step_of(None if a is None else acts[a], graph.states[i])
             for i, a in zip(lasso.states, lasso.actions, strict=True)]
    closing = None
    if lasso.loop_action is not None:
        closing = step_of(acts[lasso.loop_action], graph.states[lasso.states[lasso.loop]])
    raise _Stop(PROPERTY, name, trace, loop=lasso.loop, loop_step=closing)


def _replay(model: Model, key_of, chain) -> list[Step]:
    """Rebuild the states of a fingerprint chain: from the initial state with the first key,
    follow, step by step, the recorded action to the successor with the next key."""
    if model.set_level:
        model.set_level(0)
    first_key = chain[0][0]
    state = next(s for s in model.init() if key_of(s) == first_key)
    steps = [Step(None, state)]
    for level, (key, action, _) in enumerate(chain[1:], 1):
        if model.set_level:
            model.set_level(level)
        out: list = []
        action.gen(state, out.append)
        state = next(t for t in out if key_of(t) == key)
        steps.append(step_of(action, state))
    return steps


class _TraceTo:
    """The counterexample to a new state, built only if an invariant fails on it."""

    __slots__ = ("build", "key", "action", "state")

    def __init__(self, build, key, action, state):
        self.build, self.key, self.action, self.state = build, key, action, state

    def __call__(self):
        return self.build(self.key, step_of(self.action, self.state))


def _outdegree(samples: list[int]) -> tuple:
    """(min, mean, 95th percentile, max) of new successors per expanded state, as TLC prints."""
    if not samples:
        return (0, 0, 0, 0)
    counts = [0] * 32
    for x in samples:
        counts[x] += 1
    n = len(samples)
    mean = int(sum(samples) / n + 0.5)
    threshold = int(n * 0.95)
    cum, p95 = 0, 0
    for i, c in enumerate(counts):
        cum += c
        if cum > threshold:
            p95 = i
            break
    return (min(samples), mean, p95, max(samples))
