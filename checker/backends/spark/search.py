"""The driver of the Spark search: one Spark job per breadth-first level.

Level 1 (the initial states) is checked here, in order, as the one-process search does. Then,
per level, every partition expands the states it owns (part.expand), the candidates go to their
owners (a shuffle keyed by owner), and each owner merges them with its visited store in a
partitioner-aware union with the previous level's parts (part.merge), so the visited stores never
move. Only counts, the first violation and a degree histogram reach the driver. Levels whose
states are few run here, with the same code on P parts in memory, until a level exceeds
`driver_states`; from then on the parts live in Spark. Every few levels the parts' lineage is cut
(Spark checkpoint, or a local checkpoint when no checkpoint directory is set).

As in the local search, the cyclic garbage collector stays off while states are expanded and
merged (states never form cycles; walking millions of them again and again costs more than the
search). A counterexample is rebuilt as the workers backend does: the parent links are walked
back one level at a time (a small job per level), then the actions are replayed here.
"""
from __future__ import annotations

import gc
import pickle
import sys
import threading
import time

import numpy as np

from ...engine.checkpoint import LevelPauses
from ...engine.explore import (
    FAILURES,
    IN_CONSTRAINT,
    _failure,
    _replay,
    _young_gc_only,
    collision_estimate,
    expand_again,
)
from ...interface import EVAL_ERRORS, Result, Step, step_of
from ...semantics.values import NotAssigned
from ...verdicts import ERROR
from ..workers import _histogram_outdegree
from . import part as P_
from . import session

LINEAGE_LEVELS = 8  # levels between two cuts of the parts' lineage


def _ident(k: int) -> int:
    return k


def _values(it):
    for _, v in it:
        yield v


class _Reports:
    """An accumulator's parameter: the merge tasks' reports by (level, partition). A task run
    again (a retry, a recomputed part) gives the same report under the same key."""

    def zero(self, value):
        return {}

    def addInPlace(self, a, b):
        a.update(b)
        return a


def _worker_gc() -> None:
    """A Spark worker runs without automatic cyclic GC, as the local search does (see
    _young_gc_only): re-enabled between tasks, the collector walked the previous task's
    millions of young objects and the worker's value tables again and again, more CPU than
    expanding the states. The worker collects the young generations at the start of each
    task instead, for the odd cycle."""
    gc.disable()
    gc.collect(1)


def _as_batches_of(shuffled, like):
    """`shuffled` read as `like`'s batches when both hold pickled lists of records in the
    same way (PySpark's shuffle output and its default serializer differ only in how they
    write batches): otherwise `union` would unpickle and pickle every record once more."""
    from pyspark.serializers import BatchedSerializer

    a, b = shuffled._jrdd_deserializer, like._jrdd_deserializer
    if isinstance(a, BatchedSerializer) and isinstance(b, BatchedSerializer) \
            and type(a).load_stream is type(b).load_stream and a.serializer == b.serializer:
        shuffled._jrdd_deserializer = b
    return shuffled


def _before(parts, parent_key, bound):
    old, new = sorted(parts, key=lambda p: p.level)
    return P_.before(old, new, parent_key, bound)


def _coverage_of(p):
    return p.coverage, int(p.visited.nbytes)


def _fail_first_attempt(hook, stage: str, index: int) -> None:
    """A test hook: fail the first attempt of partition 0's task of `stage` (the hook names
    stages, separated by commas); Spark retries it if the master allows a second attempt
    (e.g. local[2,2])."""
    if hook and stage in hook.split(",") and index == 0:
        from pyspark import TaskContext

        ctx = TaskContext.get()
        if ctx is not None and ctx.attemptNumber() == 0:
            raise RuntimeError(f"kipcheck test hook: first attempt of the {stage} task fails")


class SparkSearch:
    def __init__(self, model, search, options: dict, notes: list):
        self.model, self.search, self.notes = model, search, notes
        self.options = options
        self.master = options.get("master") or "local[*]"
        self.conf = dict(options.get("conf") or {})
        self.driver_states = int(options.get("driver_states", 20_000))
        self.hook = options.get("fail_first_attempt")
        self.log = options.get("log") or _stderr
        self.sc = None
        self.rdd = None
        self.parts: list | None = None
        self.prev = None  # the parts of the level before (to count where a violation stops)
        self.reports = None  # the accumulator of the merge tasks' reports
        self.distinct = self.generated = self.depth = self.left = 0

    # -- the run -----------------------------------------------------------------------------
    def run(self) -> Result:
        started = time.perf_counter()
        self.bundle = session.bundle(self.model.recipe)
        self.env = session.Env(self.model)
        session._CURRENT[0] = None
        self.created = False
        plan = self.search.checkpoint
        self.n = self.options.get("partitions")
        if not self.n and plan is not None and plan.recover is not None:
            self.n = plan.recover.manifest["parts"]
        if not self.n:
            self.n = session.local_cores(self.master)
            if self.n is None:  # a cluster: ask it
                self.n = self._spark().defaultParallelism
            self.n *= 2
        self.pauses = LevelPauses(plan if plan is not None and plan.directory else None,
                                  lambda: _cancel_running_job(self))
        try:
            try:
                result = self._search()
            except KeyboardInterrupt:
                result = Result("interrupted", None, self.distinct, self.generated, self.depth,
                                self.left, [], {}, 0.0, "The search was interrupted.")
            except EVAL_ERRORS as e:  # storing a state failed (a value without fingerprint)
                from ...engine.explore import STORE_FAILED
                from ...interface import error_message

                result = Result(ERROR, None, self.distinct, self.generated, self.depth,
                                self.left, [], {}, 0.0, f"{STORE_FAILED}\n{error_message(e)}")
            if plan is not None and plan.written:
                result.checkpoint = plan.written[-1]
        finally:
            if self.model.watch_search:
                self.model.watch_search(None)
            self.pauses.close()
            self._release()
        result.seconds = time.perf_counter() - started
        return result

    def _release(self) -> None:
        """Free the cached parts, and stop Spark if this search started it. After an
        interruption the gateway may be gone: nothing is left to free then."""
        try:
            for rdd in (self.rdd, self.prev if self.rdd is not None else None):
                if rdd is not None:
                    rdd.unpersist()
            if self.created and not self.options.get("keep_context"):
                self.sc.stop()
        except Exception:  # noqa: BLE001 - py4j errors of a JVM already stopping
            pass

    def _spark(self):
        """The SparkContext, started on first use: a search whose levels all stay small
        never starts Spark."""
        if self.sc is None:
            self.sc, self.created = session.context(self.master, self.conf, self.notes)
        return self.sc

    def _search(self) -> Result:
        plan = self.search.checkpoint
        if plan is not None and plan.recover is not None:
            return self._levels(*self._restore(plan.recover))
        model, key_of = self.model, self.env.key_of
        self.init_cov = [0, 0]
        generated = distinct = 0
        if model.set_level:
            model.set_level(0)
        parts = [P_.Part(i, len(model.actions)) for i in range(self.n)]
        firsts: list = [[] for _ in range(self.n)]
        seen: set = set()
        try:
            inits = list(model.init())
        except FAILURES as e:  # as the other searches say it (e.g. Init left y unassigned)
            stop = _failure(e, [], None, ("init", None))
            return self._result(stop.verdict, None, stop.trace, 0, 0, 0, stop.message,
                                stop.error_at, e)
        for s in inits:
            generated += 1
            self.init_cov[1] += 1
            try:
                in_model = all(c(s) for c in model.constraints)
            except FAILURES as e:  # as the other searches say it
                stop = _failure(e, [Step(None, s)], IN_CONSTRAINT, ("constraint", None))
                return self._result(stop.verdict, None, stop.trace, generated, distinct,
                                    1 if distinct else 0, stop.message, stop.error_at, e)
            fp = key_of(s) if in_model else None
            new = in_model and fp not in seen
            if new:
                seen.add(fp)
                self.init_cov[0] += 1
            if new or not in_model:
                bad = P_.check_invariants(model, s)
                if bad is not None:
                    return self._result(bad[0], bad[1], [Step(None, s)], generated, distinct,
                                        1, bad[2], bad[3], self._reproduce(bad[3], [Step(None, s)],
                                                                           0))
            if new:
                for name, pred in model.init_properties:
                    if pred(s) is not True:
                        return self._result("property", name, [Step(None, s)], generated,
                                            distinct + 1, 1)
                firsts[P_.owner(fp, self.n)].append((P_.code(distinct), s, fp))
                distinct += 1
        for p, items in zip(parts, firsts, strict=True):
            fps = np.array([fp for _, _, fp in items], dtype=np.uint64)
            p.visited = np.sort(fps)
            p._frontier = items
            p.add_links(1, fps, np.zeros(len(fps), dtype=np.uint64),
                        np.full(len(fps), -1, dtype=np.int64))
        self.parts = parts
        return self._levels(generated, distinct, 1, 1, distinct, np.zeros(32, dtype=np.int64), 0)

    def _levels(self, generated, distinct, depth, level, size, hist, expanded_total) -> Result:
        """The search from `level`, whose `size` states are in the parts."""
        search = self.search
        pending = False
        while size and (search.max_depth is None or level < search.max_depth):
            self.distinct, self.generated, self.depth, self.left = distinct, generated, depth, size
            counters = (generated, distinct, depth, level, size, hist, expanded_total)
            if self.pauses.due():
                self._snapshot(*counters)  # stops here if interrupted
            if self.pauses.interrupted:
                raise KeyboardInterrupt
            t0 = time.perf_counter()
            where = "driver"
            if self.rdd is None and size > self.driver_states:
                self._to_spark()
            try:
                if self.rdd is None:
                    reports = self._driver_step()
                else:
                    where = "spark"
                    reports = self._spark_step(level)
            except Exception:
                if not self.pauses.interrupted:
                    raise
                # Interrupted: the level's job was cancelled; the parts are as at its start.
                if self.pauses.plan is not None:
                    self._snapshot(*counters)
                raise KeyboardInterrupt from None
            new = sum(r["new"] for r in reports)
            before = (generated, distinct, depth)
            generated += sum(r["generated"] for r in reports)
            expanded_total += sum(r["expanded"] for r in reports)
            hist = hist + sum(r["hist"] for r in reports)
            distinct += new
            if new:
                depth = level + 1
            self.distinct, self.generated, self.depth = distinct, generated, depth
            seconds = time.perf_counter() - t0
            self.log(f"level {level + 1}: frontier {new:,}, distinct {distinct:,}, generated "
                     f"{generated:,}, {seconds:.2f} s, {new / max(seconds, 1e-9):,.0f} states/s "
                     f"({where})")
            if search.progress is not None:
                search.progress(distinct, generated, new, level + 1)
            events = [r["event"] for r in reports if r["event"] is not None]
            pending = bool(new)
            size = new
            level += 1
            if events:
                self.level = level
                event = min(events, key=lambda e: e[0])
                return self._violation(event, *self._stopped_at(event, *before), hist,
                                       expanded_total, pending)
        self.level = level
        result = self._result("ok", None, [], generated, distinct, depth)
        result.outdegree = self._outdegree(hist, expanded_total, pending)
        result.left = size if search.max_depth is not None else 0
        return result

    # -- one level ---------------------------------------------------------------------------
    def _driver_step(self) -> list:
        n, env = self.n, self.env
        inbox: list = [[] for _ in range(n)]
        with _young_gc_only():
            for p in self.parts:
                for dest, rec in P_.expand(p, env, n):
                    inbox[dest].append(rec)
            self.prev = self.parts
            self.parts = [P_.merge(p, inbox[i], env) for i, p in enumerate(self.parts)]
        return [p.report for p in self.parts]

    def _stopped_at(self, event, generated, distinct, depth):
        """(generated, distinct, depth) where the one-process search stops at `event` of the
        level just searched, from the counts before that level: it had expanded the states
        ordered before the violating one, and stored the new states ordered up to it."""
        (bound, _), parent_key = event[0], event[0][0]
        if event[5][2] is not None:  # a step: its parent's key is the bound's prefix
            parent_key = bound[:len(bound) - len(P_.code(P_.last_index(bound)))]
        elif event[4] is not None and event[4][0] == "action":  # after the state's successors
            parent_key = bound[:-len(P_.AFTER_SUCCESSORS)]
        if self.rdd is None:
            found = [P_.before(o, n, parent_key, bound)
                     for o, n in zip(self.prev, self.parts, strict=True)]
        else:
            found = (self.prev.union(self.rdd)
                     .mapPartitions(lambda it, k=parent_key, b=bound: [_before(list(it), k, b)])
                     .collect())
        made = sum(g for g, _ in found) + event[6]
        stored = sum(s for _, s in found)
        return generated + made, distinct + stored, depth + 1 if stored else depth

    def _to_spark(self) -> None:
        """Move the parts from the driver into Spark (once, while they are still small)."""
        from pyspark import StorageLevel

        rdd = self._spark().parallelize(list(enumerate(self.parts)), self.n)
        rdd = rdd.partitionBy(self.n, _ident).mapPartitions(_values, preservesPartitioning=True)
        rdd.persist(StorageLevel.MEMORY_AND_DISK)
        self.rdd, self.parts, self.prev = rdd, None, None
        self.spark_levels = 0

    def _spark_step(self, level: int) -> list:
        from pyspark import StorageLevel

        b, n = self.bundle, self.n
        hook = self.hook if self.spark_levels == 0 else None  # the first Spark level only
        if self.reports is None:
            self.reports = self.sc.accumulator({}, _Reports())
        reports = self.reports

        def do_expand(index, items):
            e = session.env(b)
            _fail_first_attempt(hook, "expand", index)
            _worker_gc()
            for p in items:
                for dest, rec in P_.expand(p, e, n):
                    yield dest, pickle.dumps(P_.packed(rec), protocol=pickle.HIGHEST_PROTOCOL)

        def do_merge(index, items):
            e = session.env(b)
            _fail_first_attempt(hook, "merge", index)
            _worker_gc()
            old, records = None, []
            for x in items:
                if isinstance(x, P_.Part):
                    old = x
                else:
                    records.append(pickle.loads(x[1]))
            new = P_.merge(old, records, e)
            reports.add({(new.level, index): new.report})
            yield new

        old = self.rdd
        shuffled = _as_batches_of(old.mapPartitionsWithIndex(do_expand).partitionBy(n, _ident),
                                  old)
        merged = old.union(shuffled).mapPartitionsWithIndex(do_merge, preservesPartitioning=True)
        merged.persist(StorageLevel.MEMORY_AND_DISK)
        self.spark_levels += 1
        if self.spark_levels % LINEAGE_LEVELS == 0:
            if self.sc.getCheckpointDir():
                merged.checkpoint()
            else:
                merged.localCheckpoint()
        merged._jrdd.count()  # runs the level; the parts stay in the JVM, unread by Python
        done = reports.value
        got = [done.pop((level + 1, i)) for i in range(n)]
        if self.prev is not None:
            self.prev.unpersist()  # the level before: no longer needed
        self.prev, self.rdd = old, merged
        return got

    def _outdegree(self, hist, expanded_total, pending):
        """TLC's out-degree figures: the parents' counts of the last level still pending are
        gathered first."""
        if pending:
            if self.rdd is None:
                hist = hist + P_.histogram([rec for p in self.parts for _, rec in P_.flush(p)])
            else:
                n = self.n
                per_part = (self.rdd.flatMap(P_.flush).partitionBy(n, _ident)
                            .mapPartitions(lambda it: [P_.histogram([r for _, r in it])])
                            .collect())
                hist = hist + sum(per_part)
        hist = hist.copy()
        hist[0] += expanded_total - int(hist.sum())
        return _histogram_outdegree(hist)

    # -- the counterexample ------------------------------------------------------------------
    def _find(self, level: int, fp: int):
        if self.rdd is None:
            found = [p.find(level, fp) for p in self.parts]
        else:
            found = self.rdd.map(lambda p, lv=level, f=fp: p.find(lv, f)).collect()
        found = [f for f in found if f is not None]
        if not found:
            raise RuntimeError(f"no parent link for fingerprint {fp:#x} at level {level}")
        return found[0]

    def _violation(self, event, generated, distinct, depth, hist, expanded_total,
                   pending) -> Result:
        _, verdict, prop, message, error_at, (level, pfp, ai, fp), _ = event
        model = self.model
        chain = []
        key, lv = pfp, level
        while lv >= 1:
            parent, a = self._find(lv, key)
            chain.append((key, a))
            key, lv = parent, lv - 1
        chain.reverse()
        if ai is not None:
            chain.append((fp, ai))
        acts = model.actions
        trace = _replay(model, self.env.key_of,
                        [(k, None if a < 0 else acts[a]) for k, a in chain])
        exc = self._reproduce(error_at, trace, level) if verdict == "error" else None
        if isinstance(exc, NotAssigned):  # the incomplete successor ends it, as in TLC's
            trace.append(step_of(exc.action, exc.state))
        result = self._result(verdict, prop, trace, generated, distinct, depth, message,
                              error_at, exc)
        result.outdegree = self._outdegree(hist, expanded_total, pending)
        return result

    def _reproduce(self, error_at, trace, level):
        """The evaluation error again, here: its exception locates the expression."""
        model = self.model
        try:
            if error_at and error_at[0] == "invariant":
                dict(model.invariants)[error_at[1]](trace[-1].state)
            elif error_at and error_at[0] == "action" and model.expand:
                if model.set_level:
                    model.set_level(level)
                expand_again(model, trace[-1].state)
        except EVAL_ERRORS as e:
            return e
        return None

    def _result(self, verdict, prop, trace, generated, distinct, depth, message=None,
                error_at=None, exc=None) -> Result:
        if self.parts is None and self.rdd is None:
            covs, store = [], 0
        elif self.rdd is None:
            covs = [p.coverage for p in self.parts]
            store = sum(int(p.visited.nbytes) for p in self.parts)
        else:
            pairs = self.rdd.map(_coverage_of).collect()
            covs = [c for c, _ in pairs]
            store = sum(b for _, b in pairs)
        coverage = {"<Init>": list(self.init_cov)}
        for i, a in enumerate(self.model.actions):
            cov = coverage.setdefault(a.name, [0, 0])
            for c in covs:
                cov[0] += c[i][0]
                cov[1] += c[i][1]
        return Result(verdict, prop, distinct, generated, depth, 0, trace, coverage, 0.0,
                      message, error_at, (0, 0, 0, 0), exc, None, None,
                      collision_estimate(distinct, generated), store)

    # -- checkpoints -------------------------------------------------------------------------
    def _snapshot(self, generated, distinct, depth, level, size, hist, expanded_total) -> None:
        from . import snapshot

        plan = self.search.checkpoint
        snapshot.write(self, plan, {
            "distinct": distinct, "generated": generated, "depth": depth, "level": level,
            "queue": size, "init_coverage": self.init_cov, "outdegree": [int(x) for x in hist],
            "expanded": expanded_total})
        self.pauses.last = time.monotonic()
        if self.pauses.interrupted:
            raise KeyboardInterrupt

    def _restore(self, snap):
        from . import snapshot

        m = snap.manifest
        snapshot.load(self, snap)
        self.init_cov = list(m["init_coverage"])
        return (m["generated"], m["distinct"], m["depth"], m["level"], m["queue"],
                np.array(m["outdegree"], dtype=np.int64), m["expanded"])


def _cancel(sc) -> None:
    try:
        sc.cancelAllJobs()
    except Exception:  # noqa: BLE001 - the JVM may be stopping already
        pass


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _cancel_running_job(search) -> None:
    """An interruption cancels the running Spark job from another thread (raising inside a
    py4j call would leave the gateway broken and print its traceback); the search then stops
    between two levels (see LevelPauses)."""
    sc = search.sc
    if sc is not None:
        threading.Thread(target=_cancel, args=(sc,), daemon=True).start()

