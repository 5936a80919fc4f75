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

import gc
import time
from collections.abc import Callable
from contextlib import contextmanager

from ..interface import (  # noqa: F401  (Model, Step, Result: re-exported for callers)
    EVAL_ERRORS,
    Model,
    Result,
    Step,
    error_message,
    step_of,
)
from ..semantics.runtime import EXIT_REQUESTED, AssertFailure
from ..semantics.values import NotAssigned, same_kinds
from ..verdicts import ASSERT, DEADLOCK, ERROR, INTERRUPTED, INVARIANT, OK, PROPERTY
from .frontier import Frontier
from .witnesses import REACHED

# What stops the search while evaluating: an evaluation error, or an Assert that failed.
FAILURES = (AssertFailure, *EVAL_ERRORS)


def _failure(e: BaseException, trace: list, where: str | None, error_at, prop=None) -> _Stop:
    """The stop for an evaluation error or a failed Assert, with the behaviour that led to the
    state being evaluated. As in TLC, an Assert is its own verdict (exit 14) in an action, a
    constraint on a successor or a property, and an evaluation error in the initial states
    (their constraints included) or an invariant."""
    if isinstance(e, NotAssigned) and e.initial:  # the trace is that incomplete state
        trace = [step_of(None, e.state)]
    message = error_message(e) if where is None else f"{error_message(e)}\n{where}"
    initial = error_at[0] == "constraint" and len(trace) == 1 and trace[0].action is None
    own = isinstance(e, AssertFailure) and error_at[0] not in ("init", "invariant") \
        and not initial
    verdict = ASSERT if own else ERROR
    return _Stop(verdict, prop, trace, message, error_at, e)


def action_failure(e: BaseException, trace: list, action, several: bool) -> _Stop:
    """The stop for an error met running `action` on the last state of `trace`. A successor
    the action left incomplete is TLC's own error: its message names the action when Next has
    `several`, and the trace ends with that successor (the caller counts it as generated)."""
    where = action.label
    if isinstance(e, NotAssigned):
        e.action, e.message = action, e.worded(action.name if several else None)
        return _Stop(ERROR, None, trace + [step_of(action, e.state)], e.message,
                     ("action", where), e)
    return _failure(e, trace, f"The error occurred in action {where}.", ("action", where))


def last_action(buf: list) -> int:
    """The index of the action an expansion was running when it stopped: the last one its
    buffer announces (actions run, and announce themselves, in order)."""
    return max((x for x in buf if type(x) is int), default=0)


def expand_again(model: Model, state) -> None:
    """Expand `state` once more, to raise the error a search met there (the processes that
    rebuild a trace do this); an incomplete successor learns which action made it."""
    buf: list = []
    try:
        model.expand(state, buf.append)
    except NotAssigned as e:
        e.action = model.actions[last_action(buf)]
        raise


_RECENT = 1 << 20  # fingerprints per recent level kept in a set (about 70 bytes each)

IN_CONSTRAINT = "The error occurred while evaluating a CONSTRAINT or ACTION_CONSTRAINT."
# TLC's words when a state holds a value it cannot fingerprint (e.g. Nat).
STORE_FAILED = "TLC has found a state in which the value of a variable cannot be stored."


def _in_property(name: str) -> str:
    return f"The error occurred while evaluating property {name}."


class _Stop(Exception):
    def __init__(self, verdict, prop, trace, message=None, error_at=None, exc=None, loop=None,
                 loop_step=None):
        self.verdict, self.prop, self.trace = verdict, prop, trace
        self.message, self.error_at, self.exc = message, error_at, exc
        self.loop, self.loop_step = loop, loop_step


def check_invariants(invariants, state, trace_fn, parent=None) -> None:
    """Raise the stop for the first invariant that fails on `state` (an evaluation error, a
    non-Boolean value, or FALSE); trace_fn() gives the behaviour to it. With `parent` (a
    state that satisfied them), `invariants` are the model's step_invariants."""
    for name, pred in invariants:
        try:
            ok = pred(state) if parent is None else pred(state, parent)
        except FAILURES as e:
            name = getattr(pred, "failed", None) or name  # a witness's own name
            raise _failure(e, trace_fn(), None, ("invariant", name), name) from None
        if ok is not True:
            if ok is REACHED:  # a witness holds: not a violation (engine/witnesses.py)
                pred.reached(trace_fn)
                continue
            if ok is not False:
                raise _Stop(ERROR, name, trace_fn(),
                            f"The invariant {name} is not a boolean", ("invariant", name))
            raise _Stop(INVARIANT, name, trace_fn())


def explore(model: Model, max_depth: int | None = None, progress: Callable | None = None,
            fingerprints: bool = True, on_edge: Callable | None = None,
            checkpoint=None, frontier_states: int | None = None) -> Result:
    """`checkpoint` (a checkpoint.Plan, fingerprint mode only) writes snapshots and resumes
    from one; `frontier_states` keeps at most about that many queued states in memory."""
    with _young_gc_only():
        return _explore(model, max_depth, progress, fingerprints, on_edge, checkpoint,
                        frontier_states)


@contextmanager
def _young_gc_only():
    """No automatic cyclic GC during a search: states are immutable tuples that never form
    cycles, yet the collector would walk every live value again and again (with states short
    lived, as in fingerprint mode, that doubled the run time). The search collects only young
    objects now and then, for the odd cycle generated code makes."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


_OUTSIDE_LIMIT = 1 << 20  # states outside the constraints remembered as checked, at most


class YoungCollector:
    """Collects young cyclic garbage now and then. A collection walks every object made since
    the last one, and most specs make no cycles at all: a collection that finds nothing
    doubles the gap to the next one; one that finds garbage brings it back to the start."""

    FIRST_GAP = 1 << 16  # expansions
    LONGEST_GAP = 1 << 24

    def __init__(self):
        self.gap = self.due = self.FIRST_GAP

    def tick(self, expanded: int) -> None:
        if expanded >= self.due:
            found = gc.collect(1)  # young cycles only (see _young_gc_only)
            self.gap = self.FIRST_GAP if found else min(self.gap * 2, self.LONGEST_GAP)
            self.due = expanded + self.gap


def _explore(model: Model, max_depth: int | None, progress: Callable | None,
             fingerprints: bool, on_edge: Callable | None, plan, frontier_states) -> Result:
    """Explore `model` breadth-first; stop at the first violation.

    With `fingerprints` (the default, as in TLC) the seen set is a table of 64-bit fingerprints,
    equal across processes, with parent links (fingerprint, action) spilled to disk; a
    counterexample is rebuilt by replaying its actions from the initial states. Without, the
    seen set maps each whole state to its parent and action: no collisions, much more memory.

    `on_edge(src_key, action, dst_key, dst_state)`, if given, sees every stored initial state
    (src_key and action None) and every transition between stored states, duplicates included:
    what `--dump-graph` draws. It costs nothing when absent.
    """
    started = time.perf_counter()
    base_key = model.fingerprint
    if fingerprints:
        from .fingerprints import Parent, key_function
        from .store import FingerprintTable, ParentLinks

        key_of = key_function(base_key, model.kind_checked)
        seen = FingerprintTable()
        links = ParentLinks()
        add_seen, add_link = seen.add, links.add
        parents = None
    else:
        key_of = _exact_key(base_key)
        parents: dict = {}  # key -> (parent key, action, state)
        seen = parents
    action_ids = {id(a): i for i, a in enumerate(model.actions)}

    # remember(key, parent, action, state, level): store `key` if new (True), with the parent
    # link that says how `state` was reached. The store decides which one, once.
    def remember_fingerprint(key, parent, action, state, level) -> bool:
        if not add_seen(key):
            return False
        add_link(level, key, parent or 0, -1 if action is None else action_ids[id(action)])
        return True

    def remember_state(key, parent, action, state, level) -> bool:
        if key in parents:
            return False
        parents[key] = (parent, action, state)
        return True

    remember = remember_fingerprint if fingerprints else remember_state
    # Whole states kept anyway (the seen set of --exact-states, the behaviour graph of liveness,
    # a drawn graph): spilling their queue would only copy them.
    keeps_states = not fingerprints or model.liveness or on_edge is not None
    queue = Frontier(None if keeps_states else frontier_states)
    acts: list = []
    generated_by: list = []
    stats = {"generated": 0, "depth": 0}
    coverage: dict[str, list[int]] = {}
    expanded = 0
    collector = YoungCollector()
    invariants = model.invariants
    # A successor's invariants: only what its changed variables may have broken.
    succ_invariants = model.step_invariants or invariants
    stepwise = bool(model.step_invariants)
    constraints = model.constraints
    action_constraints = model.action_constraints
    action_props = model.action_properties
    outdeg: list[int] = []
    resumed = plan is not None and plan.recover is not None
    if resumed:  # the search as a snapshot left it (engine/checkpoint.py)
        seen, links, stats, coverage, outdeg, expanded = _resume(plan.recover, queue)
        add_seen, add_link = seen.add, links.add
    # halt[0]: stop before the next state to write a checkpoint (and, if interrupted[0], stop)
    halt, interrupted = [False], [False]
    exit_requested = EXIT_REQUESTED
    exit_requested[0] = False
    saver = None
    if plan is not None and plan.directory is not None:
        saver = _Saver(plan, seen, links, queue, stats, coverage, outdeg, halt, interrupted)
    recorder = None
    if model.liveness:
        recorder = _GraphRecorder(model.actions, views=base_key is not None)
        on_edge = recorder if on_edge is None else _both(on_edge, recorder)

    def trace_to(key, level, last: Step | None = None) -> list[Step]:
        """The shortest trace to the stored state `key` of `level` (then `last`)."""
        if parents is None:
            chain = [(k, None if a < 0 else model.actions[a])
                     for k, a in links.chain(level, key)]
            steps = _replay(model, key_of, chain)
        else:
            rev = []
            while key is not None:
                parent, action, state = parents[key]
                rev.append(step_of(action, state))
                key = parent
            steps = rev[::-1]
        if last is not None:
            steps.append(last)
        return steps

    try:
        # Initial states.
        if model.set_level:
            model.set_level(0)
        mid_states = model.mid_states
        if mid_states is not None:
            mid_states[0] = 0
        if model.watch_search:  # TLCGet("distinct"), ("queue"), ... read the counts so far
            model.watch_search(lambda: {
                "queue": len(queue), "distinct": len(seen), "generated": stats["generated"],
                "diameter": max(stats["depth"], 1),
                "duration": int(time.perf_counter() - started)})
        cov = coverage.setdefault("<Init>", [0, 0])
        try:
            inits = [] if resumed else list(model.init())
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
            new = in_model and remember(key, None, None, state, 1)
            if new:
                cov[0] += 1
                stats["depth"] = 1
            if in_model and on_edge is not None:
                on_edge(None, None, key, state)
            if new or not in_model:
                check_invariants(invariants, state, lambda s=state: [Step(None, s)])
            if new:
                for name, pred in model.init_properties:
                    try:
                        holds = pred(state)
                    except FAILURES as e:
                        raise _failure(e, [Step(None, state)], _in_property(name),
                                       ("property", name), name) from None
                    if holds is not True:
                        raise _Stop(PROPERTY, name, [Step(None, state)])
                queue.tail.append((state, key, 1))
        # TLC's depth counts the initial level even when it keeps no state
        stats["depth"] = max(stats["depth"], 1)
        inits = None  # the queue holds them now, and may spill them
        queue.check()
        # Breadth-first. The loop body runs once per generated state: keep it lean. All
        # actions run in one call (model.expand); ints in the buffer say which action follows.
        plain = (not constraints and not action_constraints and not action_props
                 and on_edge is None)
        # Plain fingerprints: a successor's follows from its parent's by the changed values.
        incremental = parents is None and base_key is None
        fast = plain and incremental
        # Constraints or action properties, plain fingerprints: the successors' fingerprints
        # are still computed at once (as in the fast loop), then each goes through
        # constrained_step.
        batched = incremental and not plain and on_edge is None
        # The fast loop remembers the fingerprints of the states of the level it stores and
        # of the level before (at most _RECENT each) in Python sets: a successor is most often
        # one of those, and a set answers at C speed where the table's probe is Python code.
        recent_level, cur, prev = 0, set(), set()
        if fast or batched:
            from .fingerprints import successor_keys
        succ_key = key_of
        head, tail = queue.head, queue.tail
        popleft, push = head.popleft, tail.append
        spill_at = queue.limit if queue.limit is not None else float("inf")
        acts = [(a, coverage.setdefault(a.name, [0, 0])) for a in model.actions]
        generated_by = [0] * len(acts)  # the fast loop's successors per action
        buf: list = []
        emit = buf.append
        expand = model.expand or (lambda s, out: None)

        constrained = bool(constraints or action_constraints)
        successor_in_model = model.successor_in_model
        # States outside the constraints that satisfied the invariants: generated again, they
        # need no second check when the invariants read nothing but the state (and the key is
        # the whole state's, not a VIEW's or a symmetry class's).
        outside_ok: set = set()
        remember_outside = constrained and model.invariants_pure and base_key is None

        def constrained_step(state, succ, key, action, level, acov, skey=None) -> bool:
            """TLC's order for a successor when constraints or action properties exist:
            in-model test, store if new, invariants (if new or outside the model), action
            properties (always), enqueue if new. True if it was a new state. `skey`: the
            successor's key when already computed."""
            in_model = True
            if constrained:
                try:
                    in_model = successor_in_model(state, succ)
                except FAILURES as e:
                    raise _failure(e, trace_to(key, level, step_of(action, succ)),
                                   IN_CONSTRAINT, ("constraint", None)) from None
            new = False
            if in_model:
                if skey is None:
                    skey = succ_key(succ)
                if on_edge is not None:
                    on_edge(key, action, skey, succ)
                if remember(skey, key, action, succ, level + 1):
                    acov[0] += 1
                    new = True
                    if level + 1 > stats["depth"]:
                        stats["depth"] = level + 1
            if new:
                check_invariants(succ_invariants, succ,
                                 _TraceTo(trace_to, key, level, action, succ),
                                 state if stepwise else None)
            elif not in_model:  # TLC checks it each time it is generated
                okey = None
                if remember_outside:
                    okey = skey if skey is not None else succ_key(succ)
                if okey is None or okey not in outside_ok:
                    check_invariants(succ_invariants, succ,
                                     _TraceTo(trace_to, key, level, action, succ),
                                     state if stepwise else None)
                    if okey is not None:
                        if len(outside_ok) >= _OUTSIDE_LIMIT:
                            outside_ok.clear()
                        outside_ok.add(okey)
            if action_props:
                check_step(state, succ, key, action, level)
            if new:
                push((succ, skey, level + 1))
            return new

        def check_step(state, succ, key, action, level) -> None:
            """The action properties on the step state -> succ (TLC: every transition)."""
            for name, pred in action_props:
                try:
                    holds = pred(state, succ)
                except FAILURES as e:
                    raise _failure(e, trace_to(key, level, step_of(action, succ)),
                                   _in_property(name), ("property", name), name) from None
                if holds is not True:
                    raise _Stop(PROPERTY, name, trace_to(key, level, step_of(action, succ)))
        # A successor whose fingerprint is a recent stored state's is inside the state
        # constraints (it was tested when stored, and the key is the whole state's) and not
        # new; one in outside_ok is outside them and satisfied the invariants: only the action
        # properties remain. Not with action constraints, which depend on the step.
        skip_recent = batched and not action_constraints
        while head or queue.refill():
            if halt[0]:  # between two states: everything is consistent
                _fold_counts(acts, generated_by)  # the snapshot holds them
                expanded = saver.pause(expanded)
            state, key, level = popleft()
            if max_depth is not None and level >= max_depth:
                continue
            if model.set_level:
                model.set_level(level)
            before = stats["generated"]
            fresh = 0
            nxt = level + 1
            if incremental and not fast:
                succ_key = Parent(state, key).successor
            buf.clear()
            failed = None
            try:
                expand(state, emit)
            except FAILURES as e:
                # As TLC: the successors met before the error are handled first (stored,
                # checked), then the error stops the search.
                failed = e
            if mid_states is not None:  # A \cdot B's intermediate states count as generated
                stats["generated"] += mid_states[0]
                mid_states[0] = 0
            action, acov, ai = None, None, -1
            if (fast or skip_recent) and nxt != recent_level:
                # a new level: the last one's states stay recent
                prev = cur if nxt == recent_level + 1 else set()
                cur, recent_level = set(), nxt
            if fast:  # the default: fingerprints, no constraints; the table probed inline
                # Most duplicates are recent states: left out at C speed, only counted.
                succs, skeys, ais, count = successor_keys(len(state), True)(
                    state, key, buf, generated_by, cur, prev)
                stats["generated"] += count
                view, size = seen.view, seen.size
                for k, skey in enumerate(skeys):
                    i = skey % size
                    x = view[i]
                    while x and x != skey:
                        i += 1
                        if i == size:
                            i = 0
                        x = view[i]
                    if x:  # seen before
                        continue
                    seen.put(i, skey)
                    view, size = seen.view, seen.size  # the table may have grown
                    if len(cur) < _RECENT:
                        cur.add(skey)
                    ai = ais[k]
                    add_link(nxt, skey, key, ai)
                    action, acov = acts[ai]
                    acov[0] += 1
                    fresh += 1
                    if nxt > stats["depth"]:
                        stats["depth"] = nxt
                    succ = succs[k]
                    if invariants:
                        try:
                            check_invariants(succ_invariants, succ,
                                             _TraceTo(trace_to, key, level, action, succ),
                                             state if stepwise else None)
                        except _Stop:  # count only what was generated up to succ
                            _uncount(buf, succ, generated_by, stats)
                            raise
                    push((succ, skey, nxt))
            done = fast
            if batched:
                try:
                    succs, skeys, ais, count = successor_keys(len(state))(
                        state, key, buf, generated_by)
                except FAILURES:  # a successor that cannot be fingerprinted: one by one below,
                    _count_back(state, key, buf, generated_by)  # so what comes first is met first
                else:
                    done = True
                    stats["generated"] += count
                    k = 0
                    try:
                        for k, succ in enumerate(succs):
                            action, acov = acts[ais[k]]
                            skey = skeys[k]
                            if skip_recent and (skey in cur or skey in prev
                                                or skey in outside_ok):
                                # a recent stored state, or one outside the constraints whose
                                # invariants held: nothing to store, nothing to check again
                                if action_props:
                                    check_step(state, succ, key, action, level)
                                continue
                            if constrained_step(state, succ, key, action, level, acov, skey):
                                fresh += 1
                                if skip_recent and len(cur) < _RECENT:
                                    cur.add(skey)
                    except _Stop:  # count only what was generated up to succ
                        _uncount(buf, succs[k], generated_by, stats)
                        raise
            for succ in () if done else buf:  # the other modes
                if type(succ) is int:
                    action, acov = acts[succ]
                    ai = succ
                    continue
                stats["generated"] += 1
                acov[1] += 1
                if not plain:
                    if constrained_step(state, succ, key, action, level, acov):
                        fresh += 1
                    continue
                if parents is None:  # the default: inline what remember() does
                    skey = succ_key(succ)
                    if not add_seen(skey):
                        continue
                    add_link(nxt, skey, key, ai)
                else:
                    skey = key_of(succ)
                    if skey in parents:
                        continue
                    parents[skey] = (key, action, succ)
                acov[0] += 1
                fresh += 1
                if nxt > stats["depth"]:
                    stats["depth"] = nxt
                if invariants:
                    check_invariants(succ_invariants, succ,
                                     _TraceTo(trace_to, key, level, action, succ),
                                     state if stepwise else None)
                push((succ, skey, nxt))
            if failed is not None:
                stats["generated"] += isinstance(failed, NotAssigned)  # the incomplete one
                raise action_failure(failed, trace_to(key, level), acts[last_action(buf)][0],
                                     len(acts) > 1)
            outdeg.append(fresh if fresh < 31 else 31)
            expanded += 1
            if len(tail) > spill_at:
                queue.check()
            if expanded & 1023 == 0:
                if saver is not None and saver.due():
                    halt[0] = True
                if progress is not None:
                    progress(len(seen), stats["generated"], len(queue), level)
                collector.tick(expanded)
            if model.check_deadlock and stats["generated"] == before:
                raise _Stop(DEADLOCK, None, trace_to(key, level))
            if exit_requested[0]:  # TLCSet("exit", TRUE): TLC ends here, without an error
                break
        # A cut graph (--max-depth, TLCSet("exit")) has false dead ends: liveness stays
        # undecided.
        if recorder is not None and not cut_at(max_depth, stats["depth"]) \
                and not exit_requested[0]:
            _check_liveness(model, recorder.finish())
        verdict, prop, trace, message, error_at, exc = OK, None, [], None, None, None
        loop = loop_step = None
    except _Stop as stop:
        verdict, prop, trace = stop.verdict, stop.prop, stop.trace
        message, error_at, exc = stop.message, stop.error_at, stop.exc
        loop, loop_step = stop.loop, stop.loop_step
    except FAILURES as e:  # storing a state failed: a variable holds e.g. an infinite set
        verdict, prop, trace, exc, loop, loop_step = ERROR, None, [], e, None, None
        message, error_at = f"{STORE_FAILED}\n{error_message(e)}", None
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM (the CLI turns it into this): stop here
        verdict, prop, trace, exc, loop, loop_step = INTERRUPTED, None, [], None, None, None
        message, error_at = "The search was interrupted.", None
    finally:
        if saver is not None:
            saver.close()
        queue.close()
    _fold_counts(acts, generated_by)
    distinct, generated = len(seen), stats["generated"]
    collision = store_bytes = None
    if parents is None:
        collision = collision_estimate(distinct, generated)
        store_bytes = seen.nbytes
        links.close()
    return Result(verdict, prop, distinct, generated, stats["depth"], len(queue),
                  trace, coverage, time.perf_counter() - started, message, error_at,
                  _outdegree(outdeg), exc, loop, loop_step, collision, store_bytes or 0,
                  plan.written[-1] if plan is not None and plan.written else None)


def _resume(snapshot, queue: Frontier):
    """The visited store, parent links, counters and queue of a snapshot of any backend."""
    from .checkpoint import expanded, load_links, owned_visited, queue_of, samples
    from .store import FingerprintTable, ParentLinks

    m = snapshot.manifest
    seen = FingerprintTable.of(owned_visited(snapshot))
    links = ParentLinks()
    load_links(snapshot, links)
    if m["backend"] == "local":  # its batch files are this queue's own
        queue.load(str(snapshot.path), m["frontier"])
    else:
        for item in queue_of(snapshot):
            queue.tail.append(item)
            if queue.limit is not None and len(queue.tail) > queue.limit:
                queue.check()
    stats = {"generated": m["generated"], "depth": m["depth"]}
    return seen, links, stats, m["coverage"], samples(m["outdegree"]), expanded(m)


class _Saver:
    """Writes the local search's snapshots: every `plan.minutes`, and when interrupted (the
    signal handlers only ask the search to stop before its next state, where the visited
    store, the links, the queue and the counters agree; a second Ctrl-C stops at once)."""

    def __init__(self, plan, seen, links, queue, stats, coverage, outdeg, halt, interrupted):
        from .checkpoint import catch_stop_signals

        self.plan, self.seen, self.links, self.queue = plan, seen, links, queue
        self.stats, self.coverage, self.outdeg = stats, coverage, outdeg
        self.halt, self.interrupted = halt, interrupted
        self.every = plan.minutes * 60.0
        self.last = time.monotonic()
        self.old = catch_stop_signals(self._signal)

    def _signal(self, signum, frame):
        if self.interrupted[0]:
            raise KeyboardInterrupt
        self.interrupted[0] = self.halt[0] = True

    def due(self) -> bool:
        return time.monotonic() - self.last >= self.every

    def pause(self, expanded: int) -> int:
        """Write a snapshot; then stop (KeyboardInterrupt) if the search was interrupted."""
        import pickle

        from .checkpoint import FRONTIER_BATCH, CheckpointError, Writer, histogram, next_number

        self.halt[0] = False
        plan = self.plan
        writer = None
        try:
            writer = Writer(plan.directory, next_number(plan.directory))
            writer.visited(0, self.seen.keys())
            writer.parents(0, self.links)
            files = self.queue.save(str(writer.tmp), "frontier-0", FRONTIER_BATCH)
            path = writer.commit({
                "identity": plan.identity, "backend": "local", "parts": 1,
                "distinct": len(self.seen), "generated": self.stats["generated"],
                "depth": self.stats["depth"], "queue": len(self.queue), "expanded": expanded,
                "seconds": round(plan.seconds(), 3),
                "coverage": self.coverage, "outdegree": histogram(self.outdeg),
                "frontier": files})
        except BaseException as e:
            if writer is not None:
                writer.abandon()
            if isinstance(e, OSError):
                raise CheckpointError(f"cannot write a checkpoint into {plan.directory}: "
                                      f"{e.strerror or e}") from None
            if isinstance(e, (pickle.PicklingError, TypeError, AttributeError)):
                raise CheckpointError(f"cannot write a checkpoint into {plan.directory}: a "
                                      f"state holds a value that cannot be saved ({e})") from None
            raise
        plan.written.append(str(path))
        self.last = time.monotonic()
        if self.interrupted[0]:
            raise KeyboardInterrupt
        return expanded

    def close(self) -> None:
        from .checkpoint import restore_signals

        restore_signals(self.old)


def _fold_counts(acts: list, generated_by: list) -> None:
    """Add the fast loop's successors per action to the coverage, and start them afresh."""
    for i, (_, acov) in enumerate(acts):
        acov[1] += generated_by[i]
        generated_by[i] = 0


def _count_back(state: tuple, key: int, buf: list, generated_by: list) -> None:
    """Take back the per-action counts successor_keys made before a successor failed to
    fingerprint (it counts each successor, the failing one included, before hashing it)."""
    from .fingerprints import Parent

    successor = Parent(state, key).successor
    action = -1
    for x in buf:
        if type(x) is int:
            action = x
            continue
        generated_by[action] -= 1
        try:
            successor(x)
        except FAILURES:
            return


def _uncount(buf: list, succ: tuple, generated_by: list, stats: dict) -> None:
    """Take back the counts of the successors in `buf` after `succ` (the search stops at it)."""
    action, after = -1, False
    for x in buf:
        if type(x) is int:
            action = x
        elif after:
            generated_by[action] -= 1
            stats["generated"] -= 1
        elif x is succ:
            after = True


def collision_estimate(distinct: int, generated: int) -> float:
    """TLC's optimistic estimate of a fingerprint collision: n * (generated - n) / 2^64."""
    return distinct * (generated - distinct) / 2.0 ** 64


def cut_at(max_depth: int | None, depth: int) -> bool:
    """Whether a search that reached `depth` left states unexpanded because of `max_depth`."""
    return max_depth is not None and depth >= max_depth


class _GraphRecorder:
    """Builds the behaviour graph for liveness from the engine's on_edge calls, which come
    in breadth-first order: a source's edges together, sources in the order they were
    stored, so node ids are storage order and the edges fill CSR arrays directly."""

    def __init__(self, actions, views: bool):
        from .liveness import Graph

        self.views = views  # SYMMETRY or VIEW: a successor may differ from its stored state
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
        if self.views:
            stored = g.states[dst]
            if dst_state is not stored and not (dst_state == stored
                                                and same_kinds(dst_state, stored)):
                # another state of its class
                g.succs[len(g.targets) - 1] = dst_state

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


def _exact_key(view):
    """The whole-state store's key of a state (or of its VIEW or symmetry class): the value
    with its fingerprint. Python's == is not TLA+'s (1 == TRUE, a record equals the pair of
    its key and value tuples); the fingerprint tells such values apart at C speed, and the
    value keeps the store free of collisions. TLC stores every state by its fingerprint, so a
    state it cannot fingerprint (a variable holding Nat) stops the search here too."""
    from .fingerprints import fingerprint

    if view is None:
        return lambda s: (s, fingerprint(s))

    def key(s):
        v = view(s)
        return v, fingerprint(v)
    return key


def _replay(model: Model, key_of, chain) -> list[Step]:
    """Rebuild the states of a fingerprint chain [(key, action)]: from the initial state with
    the first key, follow, step by step, the recorded action to the successor with the next key."""
    if model.set_level:
        model.set_level(0)
    first_key = chain[0][0]
    state = next(s for s in model.init() if key_of(s) == first_key)
    steps = [Step(None, state)]
    for level, (key, action) in enumerate(chain[1:], 1):
        if model.set_level:
            model.set_level(level)
        out: list = []
        action.gen(state, out.append)
        state = next(t for t in out if key_of(t) == key)
        steps.append(step_of(action, state))
    return steps


class _TraceTo:
    """The counterexample to a new state, built only if an invariant fails on it."""

    __slots__ = ("build", "key", "level", "action", "state")

    def __init__(self, build, key, level, action, state):
        self.build, self.key, self.level = build, key, level
        self.action, self.state = action, state

    def __call__(self):
        return self.build(self.key, self.level, step_of(self.action, self.state))


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
