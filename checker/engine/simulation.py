"""Random simulation (TLC's -simulate, Quint's run): random behaviours instead of every state.

A behaviour starts at an initial state picked uniformly at random and, for at most `depth`
steps, moves to a successor picked uniformly among all the successors every action generates,
as TLC's simulator does. Every generated successor is checked, as TLC checks it: the
invariants (also outside the constraints), the action properties on the step; a state with no
successor is a deadlock when deadlock checking is on. A chosen successor outside the CONSTRAINTs
ends the behaviour. Liveness is not checked.

Behaviour k draws its random numbers from a generator seeded with (seed, k) alone, so the same
seed gives the same behaviours whatever PYTHONHASHSEED or the number of worker processes; of
the behaviours that violate a property, the one with the least k is reported (the workers run
on until none of them can find an earlier one), so a run bounded by a number of behaviours
gives the same verdict, counterexample and figures with any number of workers.

A counterexample found this way is long and wandering; `shrink` makes it short: it deletes
cycles and chunks of steps and replays the remaining sequence of action names from the initial
states, following any successor each action generates (a bounded set of them), until a
replay no longer violates the same property. The result is the shortest counterexample found,
not a proven shortest one (breadth-first `check` finds that).
"""
from __future__ import annotations

import bisect
import hashlib
import multiprocessing as mp
import queue
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from ..frontend import remembered
from ..interface import Model, Step, step_of
from ..semantics.runtime import EXIT_REQUESTED
from ..verdicts import DEADLOCK, INTERRUPTED, INVARIANT, OK, PROPERTY
from .explore import (
    FAILURES,
    IN_CONSTRAINT,
    _failure,
    _in_property,
    _Stop,
    check_invariants,
    last_action,
)

CHECKED_STATES = 200_000  # states remembered as checked against the invariants
DEFAULT_DEPTH = 100  # TLC's -depth: steps per behaviour (a behaviour has up to depth + 1 states)
FRONTIER = 64  # states a replay follows per step while shrinking
SUBSEQUENCE_STATES = 2000  # states the last, all-subsequences pass of a shrink keeps
MAX_REPLAYS = 400  # replays a shrink may try (a count, not a time: the same run, the same result)

# How a behaviour ended without a violation.
END_DEPTH = "depth"  # it reached --depth steps
END_CONSTRAINT = "constraint"  # its last state is outside the CONSTRAINTs
END_STUCK = "stuck"  # no successor, and deadlock checking is off
END_BUDGET = "budget"  # the time ran out (--budget)
END_VIOLATION = "violation"  # it violated a property (the one reported)
END_EXIT = "exit"  # the spec evaluated TLCSet("exit", TRUE): the simulation ends with it


def behaviour_seed(seed: int, index: int) -> int:
    """The random seed of behaviour `index` of a run with `seed`: the same in every process."""
    digest = hashlib.sha256(f"kipcheck-simulate:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass
class Walk:
    """One behaviour: its states and actions (indices into model.actions), and its figures."""

    index: int
    states: list  # the states, the initial one first
    actions: list[int]  # the action of each step (one fewer than states)
    generated: int = 0  # successors generated on the way
    taken: Counter = field(default_factory=Counter)  # action index -> steps it made
    offered: Counter = field(default_factory=Counter)  # action index -> successors generated
    end: str = END_DEPTH
    stop: _Stop | None = None  # the violation (or evaluation error) that ended it

    @property
    def ends_run(self) -> bool:
        """Does this behaviour end the simulation (a violation, or TLCSet("exit", TRUE))?"""
        return self.stop is not None or self.end == END_EXIT

    def summary(self) -> tuple:
        """What a worker process sends for this behaviour (no states)."""
        return (self.index, len(self.states), self.generated, dict(self.taken),
                dict(self.offered), self.end, self.ends_run)


@dataclass
class Tally:
    """The figures of a run: behaviours, states, coverage, lengths of the behaviours."""

    behaviours: int = 0
    states: int = 0  # states of the behaviours (initial ones included)
    generated: int = 0  # successors generated (every one checked), initial states included
    taken: Counter = field(default_factory=Counter)
    offered: Counter = field(default_factory=Counter)
    lengths: Counter = field(default_factory=Counter)  # states per behaviour -> behaviours
    ends: Counter = field(default_factory=Counter)

    def add(self, length: int, generated: int, taken, offered, end: str) -> None:
        self.behaviours += 1
        self.states += length
        self.generated += generated
        self.taken.update(taken)
        self.offered.update(offered)
        self.lengths[length] += 1
        self.ends[end] += 1


@dataclass
class Simulation:
    """What a simulation answers: a verdict, the (shrunk) counterexample and the figures."""

    verdict: str
    property: str | None
    trace: list[Step]
    tally: Tally
    coverage: dict  # action name -> [steps taken, successors generated]
    seconds: float
    seed: int
    depth: int
    message: str | None = None
    error_at: object = None
    exc: BaseException | None = None
    behaviour: int | None = None  # the index of the behaviour that violated
    found_length: int = 0  # the counterexample's length as the random behaviour found it
    replays: int = 0  # replays the shrink tried
    stopped_by: str = "traces"  # traces | budget | violation | interrupted | exit
    initial_states: int = 0


class Walker:
    """Runs behaviours of one model; the initial states are computed (and checked) once."""

    def __init__(self, model: Model, depth: int):
        self.model, self.depth = model, depth
        self.expand = model.expand or (lambda s, out: None)
        self.inits: list = []  # the initial states inside the constraints
        self.init_generated = 0
        # States whose invariants held: behaviours meet the same states again and again, and
        # an invariant is a function of the state. Emptied when full.
        self.checked: set = set()

    def start(self) -> _Stop | None:
        """Compute and check the initial states, as the breadth-first search does. A
        violation or an evaluation error among them is returned."""
        model = self.model
        if model.set_level:
            model.set_level(0)
        try:
            inits = list(model.init())
        except FAILURES as e:
            return _failure(e, [], None, ("init", None))
        self.init_generated = len(inits)
        seen = set()
        for state in inits:
            trace = [Step(None, state)]
            try:
                in_model = all(c(state) for c in model.constraints)
            except FAILURES as e:
                return _failure(e, trace, IN_CONSTRAINT, ("constraint", None))
            stop = _check_state(model, state, lambda t=trace: t)
            if stop is not None:
                return stop
            if not in_model or state in seen:
                continue
            seen.add(state)
            self.inits.append(state)
            for name, pred in model.init_properties:  # on the states inside, as the search
                try:
                    holds = pred(state)
                except FAILURES as e:
                    return _failure(e, trace, _in_property(name), ("property", name), name)
                if holds is not True:
                    return _Stop(PROPERTY, name, trace)
        return None

    def walk(self, seed: int, index: int, deadline: float | None = None) -> Walk:
        """Behaviour `index` of the run with `seed` (the same every time)."""
        model = self.model
        rng = random.Random(behaviour_seed(seed, index))
        random.seed(rng.getrandbits(64))  # what RandomElement in the spec draws from
        state = self.inits[rng.randrange(len(self.inits))]
        walk = Walk(index, [state], [])
        acts = model.actions
        constraints, action_constraints = model.constraints, model.action_constraints
        action_props = model.action_properties
        expand, set_level = self.expand, model.set_level
        checked = self.checked
        buf: list = []
        emit = buf.append

        def trace_to(extra=None):
            """The behaviour so far (then `extra`, the step that violated): it ends here."""
            if extra is not None:
                walk.actions.append(extra[0])
                walk.states.append(extra[1])
            steps = [Step(None, walk.states[0])]
            steps += [step_of(acts[a], s) for a, s in zip(walk.actions, walk.states[1:],
                                                         strict=True)]
            return steps

        try:
            for _ in range(self.depth):
                if deadline is not None and time.monotonic() > deadline:
                    walk.end = END_BUDGET
                    break
                if set_level:
                    set_level(len(walk.states))
                buf.clear()
                try:
                    expand(state, emit)
                except FAILURES as e:
                    cur = last_action(buf)
                    walk.generated += sum(1 for x in buf if type(x) is not int)
                    raise _failure(e, trace_to(), f"The error occurred in action "
                                   f"{acts[cur].label}.", ("action", acts[cur].label)) from None
                choices: list = []  # (action index, successor, inside the constraints)
                ai = -1
                for succ in buf:
                    if type(succ) is int:
                        ai = succ
                        continue
                    walk.generated += 1
                    walk.offered[ai] += 1
                    try:
                        in_model = all(c(succ) for c in constraints) and all(
                            c(state, succ) for c in action_constraints)
                    except FAILURES as e:
                        raise _failure(e, trace_to((ai, succ)), IN_CONSTRAINT,
                                       ("constraint", None)) from None
                    if succ not in checked:
                        stop = _check_state(model, succ, lambda x=(ai, succ): trace_to(x))
                        if stop is not None:
                            raise stop
                        if len(checked) >= CHECKED_STATES:
                            checked.clear()
                        checked.add(succ)
                    for name, pred in action_props:
                        try:
                            holds = pred(state, succ)
                        except FAILURES as e:
                            raise _failure(e, trace_to((ai, succ)), _in_property(name),
                                           ("property", name), name) from None
                        if holds is not True:
                            raise _Stop(PROPERTY, name, trace_to((ai, succ)))
                    choices.append((ai, succ, in_model))
                if not choices:
                    if model.check_deadlock:
                        raise _Stop(DEADLOCK, None, trace_to())
                    walk.end = END_STUCK
                    break
                ai, state, in_model = choices[rng.randrange(len(choices))]
                walk.states.append(state)
                walk.actions.append(ai)
                walk.taken[ai] += 1
                if EXIT_REQUESTED[0]:  # as the search: the step being taken ends it
                    walk.end = END_EXIT
                    break
                if not in_model:
                    walk.end = END_CONSTRAINT
                    break
        except _Stop as stop:
            walk.stop = stop
            walk.end = END_VIOLATION
        return walk


def _check_state(model: Model, state, trace_fn) -> _Stop | None:
    try:
        check_invariants(model.invariants, state, trace_fn)
    except _Stop as stop:
        return stop
    return None


# -- running behaviours ---------------------------------------------------------------------
def simulate(model: Model, seed: int, depth: int = DEFAULT_DEPTH, traces: int | None = None,
             budget: float | None = None, workers: int = 1, shrink_it: bool = True,
             progress: Callable | None = None) -> Simulation:
    """Run behaviours 0, 1, ... until `traces` of them have run, `budget` seconds have passed
    or one violates a property (then shrink its counterexample). `workers` > 1 runs them in
    that many processes (the model is rebuilt there from `model.recipe`).
    `progress(behaviours, states, generated)` is called now and then."""
    started = time.perf_counter()
    deadline = None if budget is None else time.monotonic() + budget
    EXIT_REQUESTED[0] = False
    walker = Walker(model, depth)
    stop = walker.start()
    tally = Tally(generated=walker.init_generated)
    if stop is not None:
        return _result(model, walker, stop, tally, seed, depth, started, "violation")
    if not walker.inits:
        sim = _result(model, walker, None, tally, seed, depth, started, "traces")
        sim.message = ("The model has no initial state: nothing to simulate."
                       if not walker.init_generated else
                       "No initial state satisfies the constraints: nothing to simulate.")
        return sim
    violating: Walk | None = None
    try:
        if workers > 1 and model.recipe is not None:
            index, stopped_by = _run_workers(model.recipe, model.remembered, workers, seed,
                                             depth, traces, deadline, tally, progress)
            if index is not None:
                violating = walker.walk(seed, index)  # the same behaviour, in this process
                if violating.stop is None:  # it ended the simulation with TLCSet("exit")
                    violating, stopped_by = None, "exit"
        else:
            violating, stopped_by = _run_here(walker, seed, traces, deadline, tally, progress)
    except KeyboardInterrupt:
        sim = _result(model, walker, None, tally, seed, depth, started, "interrupted")
        sim.verdict, sim.message = INTERRUPTED, "The simulation was interrupted."
        return sim
    if violating is None:
        return _result(model, walker, None, tally, seed, depth, started, stopped_by)
    stop = violating.stop
    sim = _result(model, walker, stop, tally, seed, depth, started, "violation")
    sim.behaviour = violating.index
    if shrink_it and stop.verdict in (INVARIANT, PROPERTY, DEADLOCK):
        try:
            sim.trace, sim.replays = shrink(model, walker.inits, violating.states,
                                            violating.actions, (stop.verdict, stop.prop))
        except KeyboardInterrupt:  # Ctrl-C while shrinking: the counterexample as found
            pass
    sim.seconds = time.perf_counter() - started
    return sim


def _run_here(walker: Walker, seed: int, traces, deadline, tally: Tally, progress):
    """Behaviours 0, 1, ... in this process: (the violating Walk or None, why it stopped)."""
    k = 0
    while traces is None or k < traces:
        if deadline is not None and time.monotonic() > deadline:
            return None, "budget"
        walk = walker.walk(seed, k, deadline)
        tally.add(len(walk.states), walk.generated, walk.taken, walk.offered, walk.end)
        if walk.stop is not None:
            return walk, "violation"
        if walk.end == END_EXIT:
            return None, "exit"
        k += 1
        if progress is not None:
            progress(tally.behaviours, tally.states, tally.generated)
    return None, "traces"


def _result(model, walker, stop, tally, seed, depth, started, stopped_by) -> Simulation:
    # <Init>: behaviours started (each takes one initial state), initial states generated
    coverage: dict = {"<Init>": [tally.behaviours, walker.init_generated]}
    for i, a in enumerate(model.actions):
        cov = coverage.setdefault(a.name, [0, 0])
        cov[0] += tally.taken.get(i, 0)
        cov[1] += tally.offered.get(i, 0)
    sim = Simulation(OK, None, [], tally, coverage, time.perf_counter() - started, seed, depth,
                     stopped_by=stopped_by, initial_states=len(walker.inits))
    if stop is not None:
        sim.verdict, sim.property, sim.trace = stop.verdict, stop.prop, stop.trace
        sim.message, sim.error_at, sim.exc = stop.message, stop.error_at, stop.exc
        sim.found_length = len(stop.trace)
    return sim


# -- worker processes -----------------------------------------------------------------------
_NONE = 1 << 62  # "no limit" for the shared limit on behaviour indices
_FLUSH = 0.25  # seconds between a worker's reports


def _run_workers(recipe, model_remembered, n: int, seed: int, depth: int, traces, deadline,
                 tally: Tally, progress):
    """Behaviours in `n` processes, worker w running w, w + n, w + 2n, ...; a shared limit
    says which indices are still worth running: below --traces, and below the least index
    found to violate. Adds the figures of the behaviours up to the reported one to `tally`;
    returns (the least violating index or None, why the run stopped)."""
    ctx = mp.get_context("spawn")
    limit = ctx.Value("q", _NONE if traces is None else traces)
    results = ctx.Queue()
    warm = remembered.export(model_remembered)
    procs = [ctx.Process(target=_worker_main, daemon=True,
                         args=(recipe, w, n, seed, depth, deadline, limit, results, warm))
             for w in range(n)]
    for p in procs:
        p.start()
    summaries: list = []
    running, budget_hit = n, False
    states = generated = 0
    first = None
    try:
        while running:
            try:
                tag, payload = results.get(timeout=1.0)
            except queue.Empty:
                dead = [p for p in procs if not p.is_alive() and p.exitcode not in (0, None)]
                if dead:
                    raise RuntimeError(f"a simulation worker ended unexpectedly (exit code "
                                       f"{dead[0].exitcode})") from None
                continue
            if tag == "crash":
                raise RuntimeError(f"a simulation worker failed:\n{payload}")
            summaries += payload[0]
            if tag == "done":
                running -= 1
                budget_hit = budget_hit or payload[1]
            if progress is not None:
                states += sum(s[1] for s in payload[0])
                generated += sum(s[2] for s in payload[0])
                progress(len(summaries), states, generated)
        violating = [s[0] for s in summaries if s[6]]
        first = min(violating) if violating else None
    finally:  # interrupted too: the figures of the behaviours that ran
        for p in procs:
            p.join(timeout=5)
            if p.is_alive():
                p.terminate()
        for index, length, gen, taken, offered, end, _ in sorted(summaries,
                                                                key=lambda s: s[0]):
            if first is not None and index > first:
                break
            tally.add(length, gen, taken, offered, end)
    return first, ("violation" if first is not None else "budget" if budget_hit else "traces")


def _worker_main(recipe, me: int, n: int, seed: int, depth: int, deadline, limit,
                 results, warm=None) -> None:
    import traceback

    try:
        remembered.install(warm)  # the parent's parses and compiled code: no second compile
        walker = Walker(_rebuild(recipe), depth)
        walker.start()
        batch: list = []
        last = time.monotonic()
        k, budget_hit = me, False
        while k < limit.value:
            if deadline is not None and time.monotonic() > deadline:
                budget_hit = True
                break
            EXIT_REQUESTED[0] = False  # each behaviour on its own, as in one process
            walk = walker.walk(seed, k, deadline)
            batch.append(walk.summary())
            if walk.ends_run:
                with limit.get_lock():
                    limit.value = min(limit.value, k)
                break
            k += n
            if time.monotonic() - last > _FLUSH:
                results.put(("batch", (batch,)))
                batch, last = [], time.monotonic()
        results.put(("done", (batch, budget_hit)))
    except KeyboardInterrupt:
        results.put(("done", ([], False)))
    except BaseException:  # noqa: BLE001 - reported to the coordinator, which raises
        results.put(("crash", traceback.format_exc()))


def _rebuild(recipe) -> Model:
    from ..frontend import load_spec
    from ..semantics import model as model_builder

    loaded = load_spec(recipe.spec, recipe.config, recipe.lib)
    return model_builder.build(loaded, dict(recipe.constants), recipe.deadlock).model


# -- shrinking ------------------------------------------------------------------------------
def shrink(model: Model, inits: list, states: list, actions: list[int], target: tuple,
           max_replays: int = MAX_REPLAYS) -> tuple[list[Step], int]:
    """The shortest behaviour found that violates `target` ((verdict, property)) by replaying
    shorter subsequences of `actions`: cycles first, then chunks of steps, halving the chunk
    size, until no deletion helps. Returns (the trace, the replays tried); (the behaviour as
    found, 0) if it does not replay (a spec that draws RandomElement)."""
    random.seed(0)  # RandomElement in a replay: the same draws every time
    starts = [states[0]] + [s for s in inits if s != states[0]]
    best = _replay(model, starts, actions, target, states)
    replays = 1
    if best is None:  # a model that does not replay: keep what the walk found
        acts = model.actions
        return ([Step(None, states[0])] + [step_of(acts[a], s) for a, s in
                                          zip(actions, states[1:], strict=True)], 0)
    while True:
        improved = False
        cut = _without_cycles(best)
        if cut is not None and replays < max_replays:
            replays += 1
            found = _replay(model, starts, cut, target)
            if found is not None and len(found) < len(best):
                best, improved = found, True
        seq = [a for a, _ in best[1:]]
        chunk = max(len(seq) // 2, 1)
        while chunk >= 1 and seq and replays < max_replays:
            i = 0
            while i < len(seq) and replays < max_replays:
                candidate = seq[:i] + seq[i + chunk:]
                replays += 1
                found = _replay(model, starts, candidate, target)
                if found is not None and len(found) < len(best):
                    best, improved = found, True
                    seq = [a for a, _ in best[1:]]
                else:
                    i += chunk
            chunk //= 2
        if not improved or replays >= max_replays:
            break
    # Last, every subsequence of the walk's actions at once, bounded by the best length.
    found = _subsequence_search(model, starts, actions, target, len(best))
    if found is not None:
        best = found
    acts = model.actions
    return [Step(None, best[0][1])] + [step_of(acts[a], s) for a, s in best[1:]], replays + 1


def _subsequence_search(model: Model, starts: list, seq: list[int], target: tuple,
                        bound: int) -> list | None:
    """A violation of `target` shorter than `bound` states along any subsequence of the action
    names of `seq`: each step of `seq` is taken (by any instance of its name, any successor)
    or skipped, keeping for every state reached the shortest way to it (at most
    SUBSEQUENCE_STATES states, the shortest kept). The behaviour as [(action, state)], or
    None."""
    verdict, prop = target
    acts = model.actions
    by_name: dict = {}
    for i, a in enumerate(acts):
        by_name.setdefault(a.name, []).append(i)
    # state -> (length in states, action, previous node): a node is (state, that tuple)
    reached: dict = {s: (1, None, None) for s in starts}
    best = None

    def behaviour(state, node) -> list:
        out = []
        while node is not None:
            _, a, prev = node
            out.append((a, state))
            if prev is None:
                break
            state, node = prev
        return out[::-1]

    for want in seq:
        if bound <= 2:
            break
        new: dict = {}
        for s, node in sorted(reached.items(), key=lambda kv: kv[1][0]):
            length = node[0]
            if length + 1 >= bound:
                continue
            if model.set_level:
                model.set_level(length)
            for ai in by_name[acts[want].name]:
                out: list = []
                try:
                    acts[ai].gen(s, out.append)
                except FAILURES:
                    continue
                for t in out:
                    old = reached.get(t) or new.get(t)
                    if old is not None and old[0] <= length + 1:
                        continue
                    link = (length + 1, ai, (s, node))
                    if (verdict == INVARIANT and _violates(model, prop, t)) or (
                            verdict == PROPERTY and _step_violates(model, prop, s, t)):
                        best, bound = (t, link), length + 1
                        continue
                    if not _in_model(model, s, t):
                        continue
                    if verdict == DEADLOCK:
                        if model.set_level:
                            model.set_level(length + 1)
                        stuck = _stuck(model, t)
                        if model.set_level:
                            model.set_level(length)
                        if stuck:
                            best, bound = (t, link), length + 1
                            continue
                    new[t] = link
        reached.update(new)
        if len(reached) > SUBSEQUENCE_STATES:
            kept = sorted(reached.items(), key=lambda kv: kv[1][0])[:SUBSEQUENCE_STATES]
            reached = dict(kept)
    if best is None:
        return None
    return behaviour(*best)


def _without_cycles(best: list) -> list[int] | None:
    """The actions of `best` ([(action, state)]) with every stretch between two equal states
    cut out, or None if no state repeats."""
    states = [s for _, s in best]
    first: dict = {}
    keep: list = []  # indices of the states kept
    for j, s in enumerate(states):
        if s in first:
            i = first[s]
            while keep[-1] != i:
                first.pop(states[keep.pop()], None)
            continue
        first[s] = j
        keep.append(j)
    if len(keep) == len(states):
        return None
    return [best[j][0] for j in keep[1:]]


def _replay(model: Model, starts: list, seq: list[int], target: tuple,
            prefer: list | None = None) -> list | None:
    """Follow the action names of `seq` from the initial states `starts`, any successor of any
    instance of each name (at most FRONTIER states per step, those on the original behaviour
    `prefer` first); the first behaviour that violates `target` ((verdict, property)), as
    [(action index, state)] with None for the initial step, or None."""
    verdict, prop = target
    acts = model.actions
    by_name: dict = {}
    for i, a in enumerate(acts):
        by_name.setdefault(a.name, []).append(i)
    parents: list[dict] = []  # per level: state -> (previous state, action index)

    def behaviour(level: int, state) -> list:
        out = []
        while level > 0:
            prev, a = parents[level][state]
            out.append((a, state))
            state, level = prev, level - 1
        out.append((None, state))
        return out[::-1]

    if model.set_level:
        model.set_level(0)
    level0: dict = {}
    for s in starts:
        if verdict == INVARIANT and _violates(model, prop, s):
            return [(None, s)]
        if verdict == PROPERTY and _init_violates(model, prop, s):
            return [(None, s)]
        level0[s] = None
    parents.append(level0)
    frontier = list(level0)
    if verdict == DEADLOCK:
        for s in frontier:
            if _stuck(model, s):
                return [(None, s)]
    for level, want in enumerate(seq, 1):
        if model.set_level:
            model.set_level(level)
        nxt: dict = {}
        inside: list = []
        order = [want] + [i for i in by_name[acts[want].name] if i != want]
        if prefer is not None and level < len(prefer):
            frontier.sort(key=lambda s: s != prefer[level - 1])
        for s in frontier:
            for ai in order:
                out: list = []
                try:
                    acts[ai].gen(s, out.append)
                except FAILURES:
                    continue
                for t in out:
                    if t in nxt:
                        continue
                    nxt[t] = (s, ai)
                    if verdict == INVARIANT and _violates(model, prop, t):
                        parents.append(nxt)
                        return behaviour(level, t)
                    if verdict == PROPERTY and _step_violates(model, prop, s, t):
                        parents.append(nxt)
                        return behaviour(level, t)
                    if _in_model(model, s, t):
                        inside.append(t)
                if len(inside) >= FRONTIER:
                    break
            if len(inside) >= FRONTIER:
                break
        parents.append(nxt)
        if prefer is not None and level < len(prefer) and prefer[level] in nxt:
            inside.sort(key=lambda t: t != prefer[level])
        if verdict == DEADLOCK:
            if model.set_level:
                model.set_level(level + 1)
            for t in inside:
                if _stuck(model, t):
                    return behaviour(level, t)
        if not inside:
            return None
        frontier = inside
    return None


def _violates(model: Model, prop: str, state) -> bool:
    for name, pred in model.invariants:
        if name == prop:
            try:
                return pred(state) is False
            except FAILURES:
                return False
    return False


def _init_violates(model: Model, prop: str, state) -> bool:
    for name, pred in model.init_properties:
        if name == prop:
            try:
                return pred(state) is not True
            except FAILURES:
                return False
    return False


def _step_violates(model: Model, prop: str, s, t) -> bool:
    for name, pred in model.action_properties:
        if name == prop:
            try:
                return pred(s, t) is not True
            except FAILURES:
                return False
    return False


def _in_model(model: Model, s, t) -> bool:
    try:
        return all(c(t) for c in model.constraints) and all(
            c(s, t) for c in model.action_constraints)
    except FAILURES:
        return False


def _stuck(model: Model, state) -> bool:
    out: list = []
    try:
        (model.expand or (lambda s, o: None))(state, out.append)
    except FAILURES:
        return False
    return not any(type(x) is not int for x in out)


def length_figures(lengths: Counter) -> tuple[int, int, int]:
    """(min, median, max) of the behaviour lengths (a Counter length -> behaviours)."""
    if not lengths:
        return (0, 0, 0)
    keys = sorted(lengths)
    cumulative = []
    total = 0
    for k in keys:
        total += lengths[k]
        cumulative.append(total)
    median = keys[bisect.bisect_left(cumulative, (total + 1) // 2)]
    return (keys[0], median, keys[-1])
