"""The workers backend: a breadth-first search in N processes, one level at a time.

Each worker rebuilds the model from its picklable `Recipe` (a model's callables are made by exec
and cannot be pickled). A state stays in the process that generated it: pickling a state costs
more than generating it. Every fingerprint has an owner process, which keeps that part of the
visited table. Per level:

1. expand: each worker expands its share of the level in rank order (a state's rank is its
   place in the one-process search order), counts, checks constraints, states outside them and
   action properties, and sends the fingerprints of its in-model successors, with their
   position (parent rank, successor index), to their owners; a successor that is a state of
   the level (a step back to its parent, most often) is only counted;
2. decide: per fingerprint not seen before, the owner links the claim with the least position
   (the one the one-process search meets first: its parent link, coverage and outdegree), and
   chooses which of the workers that claimed it keeps the state, evening out the next level's
   shares (a state moved to another worker later costs a pickling);
3. commit: each worker records the links it was given, keeps its new states in rank order,
   checks the invariants on them, and reports their positions; the coordinator ranks all.

So the search visits exactly the states of the one-process search, level by level, and of the
violations a level reveals it reports the one the one-process search meets first: the same
kind and the same counterexample length. The counterexample is rebuilt by walking the workers'
parent links back and replaying the actions in the coordinator.
"""
from __future__ import annotations

import gc
import multiprocessing as mp
import os
import pickle
import shutil
import signal
import tempfile
import time
import traceback
from operator import itemgetter
from pathlib import Path

import numpy as np

from ..engine.checkpoint import LevelPauses
from ..engine.explore import (
    _OUTSIDE_LIMIT,
    _RECENT,
    FAILURES,
    IN_CONSTRAINT,
    STORE_FAILED,
    _failure,
    _in_property,
    _outdegree,
    _replay,
    _Stop,
    action_failure,
    check_invariants,
    collision_estimate,
    expand_again,
    last_action,
)
from ..engine.fingerprints import Parent, key_function, successor_keys
from ..engine.frontier import Spool
from ..engine.store import FingerprintTable, ParentLinks
from ..frontend import remembered
from ..interface import EVAL_ERRORS, Model, Result, Step, step_of
from ..semantics.values import NotAssigned
from ..verdicts import ERROR
from . import CountsRefused

_IDX_BITS = 32  # a position is parent rank << 32 | successor index
_AFTER_SUCCESSORS = (1 << _IDX_BITS) - 1  # a state's error: after the successors met before it
# Automatic garbage collection is off in the workers, as in the local search (engine.explore).
# The odd cycle generated code makes is collected between two levels once the objects made and
# not freed since the last collection pass this many: collecting at every level would walk every
# state of the new level (all alive then), about 5% of the run time.
_YOUNG = 1 << 20
_NONE: frozenset = frozenset()
_ABANDONED = "abandoned"  # expand's event when an interruption abandoned the level


def run(model: Model, search) -> Result:
    """Explore `model` with `search.workers` processes."""
    return _Coordinator(model, search).run()


# -- helpers shared by both sides ------------------------------------------------------------
_first, _second = itemgetter(0), itemgetter(1)


def _owner(fp: int, n: int) -> int:
    return (fp >> 32) % n


def _check_invariants(model: Model, state, parent=None):
    """None, or (verdict, property, message, error_at, exception) for the first invariant
    that fails on `state`: the one process's check (engine.explore.check_invariants). With
    `parent` (a stored state, which satisfied them), only what `state` changed is checked."""
    try:
        if parent is None or not model.step_invariants:
            check_invariants(model.invariants, state, list)
        else:
            check_invariants(model.step_invariants, state, list, parent)
    except _Stop as stop:
        return stop.verdict, stop.prop, stop.message, stop.error_at, stop.exc
    return None


def _event(order, stop: _Stop, where) -> tuple:
    """A violation a worker reports: (order, verdict, property, message, error_at, where);
    the exception stays behind (the coordinator evaluates again to locate it)."""
    return (order, stop.verdict, stop.prop, stop.message, stop.error_at, where)


def _no_counts() -> CountsRefused:
    return CountsRefused("with --workers", "the workers", "--workers 1")


def _claims(cands: list):
    """(fingerprints, positions) of candidate successors, as arrays."""
    return (np.fromiter(map(_first, cands), dtype=np.uint64, count=len(cands)),
            np.fromiter(map(_second, cands), dtype=np.int64, count=len(cands)))


def _initial(model: Model, key_of):
    """The initial states in order: (state, fingerprint or None if outside the constraints)
    for every generated one."""
    if model.set_level:
        model.set_level(0)
    out = []
    for s in model.init():
        try:
            in_model = all(c(s) for c in model.constraints)
        except FAILURES:  # the coordinator meets it too, and reports it (see _search)
            break
        out.append((s, key_of(s) if in_model else None))
    return out


def _keepers(claimants, first, n: int):
    """The worker to keep each new state: `claimants` has bit w set for each worker w that
    claimed it, `first` is the worker of its first claim, which keeps it unless that worker
    has more than an even share: then some of its states claimed by a worker short of an even
    share too go to that worker, as many as even the shares out."""
    out = first.copy()
    load = np.bincount(first, minlength=n)
    share = -(-len(first) // n)
    shared = np.flatnonzero((claimants & (claimants - np.uint64(1))) != 0)
    for d in np.flatnonzero(load > share).tolist():
        mine = shared[out[shared] == d]
        bits = claimants[mine]
        for w in np.argsort(load, kind="stable").tolist():
            moved = min(int(load[d]) - share, share - int(load[w]))
            if moved <= 0:
                continue
            can = mine[((bits >> np.uint64(w)) & np.uint64(1)).astype(bool)]
            can = can[out[can] == d][:moved]
            out[can] = w
            load[d] -= len(can)
            load[w] += len(can)
    return out


# -- the worker process ----------------------------------------------------------------------
def _rebuild(recipe) -> Model:
    from ..frontend import load_spec
    from ..semantics import model as model_builder
    from ..semantics.runtime import set_max_set_size

    set_max_set_size(recipe.max_set_size)
    loaded = load_spec(recipe.spec, recipe.config, recipe.lib, dict(recipe.texts))
    return model_builder.build(loaded, dict(recipe.constants), recipe.deadlock).model


def _worker_main(conn, recipe, me: int, n: int, stop=None, limit=None, spill=None,
                 warm=None) -> None:
    gc.disable()  # as in the local search: states never form cycles (see engine.explore)
    if stop is not None:  # checkpoints: the coordinator decides when to stop (see LevelPauses)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    worker = None
    try:
        remembered.install(warm)  # the parent's parses and compiled code: no second compile
        worker = _Worker(_rebuild(recipe), me, n, limit, spill)
        worker.stop = stop
        conn.send(("ready", None))
        while True:
            command, arg = conn.recv()
            if command == "stop":
                break
            conn.send(("ok", getattr(worker, command)(*arg)))
            if command == "commit" and gc.get_count()[0] > _YOUNG:
                gc.collect(1)  # young cycles only (see _YOUNG)
    except (EOFError, KeyboardInterrupt, BrokenPipeError):
        pass
    except BaseException as e:  # noqa: BLE001 - reported to the coordinator, which re-raises
        try:
            conn.send(("crash", (type(e).__name__, str(e), traceback.format_exc(),
                                 getattr(e, "message", None))))
        except Exception:  # noqa: BLE001
            pass
    finally:
        if worker is not None:
            worker.close()


class _Worker:
    def __init__(self, model: Model, me: int, n: int, limit: int | None = None,
                 spill: str | None = None):
        self.model, self.me, self.n = model, me, n
        self.key_of = key_function(model.fingerprint, model.kind_checked)
        self.incremental = model.fingerprint is None
        if model.watch_search:
            model.watch_search(_no_counts)
        self.table = FingerprintTable()
        self.links = ParentLinks()
        # This worker's share of the level and its candidate successors each keep at most
        # `limit` states in memory; the rest wait in batch files under `spill`.
        self.limit, self.spill = limit, spill
        self.frontier = self._spool()  # (state, fingerprint), in rank order
        self.ranks = np.zeros(0, dtype=np.int64)
        self.cands = None
        # States of the next level already found (a resumed one-process snapshot), and ranks
        self.carry: Spool | None = None
        self.carry_ranks = None
        self.level = 1
        self.acts = list(model.actions)
        self.coverage = [[0, 0] for _ in self.acts]
        self.stop = None  # an Event set when the level in progress is to be abandoned
        self.generated_by = [0] * len(self.acts)  # the fast loop's part of coverage[i][1]

    def _spool(self) -> Spool:
        return Spool(self.limit, self.spill)

    def _replace_frontier(self, frontier: Spool) -> None:
        self.frontier.close()
        self.frontier = frontier

    def close(self) -> None:
        for spool in (self.frontier, self.cands, self.carry):
            if spool is not None:
                spool.close()

    def init(self) -> int:
        """Take this worker's share of the new initial states; return how many it took."""
        seen = set()
        rank = 0
        mine = []
        for s, fp in _initial(self.model, self.key_of):
            if fp is None or fp in seen:
                continue
            seen.add(fp)
            if _owner(fp, self.n) == self.me:
                self.table.add(fp)
            if rank % self.n == self.me:
                mine.append((s, fp))
                self.links.add(1, fp, 0, -1)
            rank += 1
        frontier = self._spool()
        frontier.extend(mine)
        self._replace_frontier(frontier)
        return len(frontier)

    def settle(self, ranks, gives):
        """Take the new level's global ranks; hand `count` states to each (worker, count) in
        `gives` (evenly spread over this worker's share, pickled) to even out the workers'
        loads."""
        self.ranks = ranks
        out = []
        if gives:
            total = sum(c for _, c in gives)
            n = len(self.frontier)
            picked = np.unique(np.linspace(0, n - 1, total).round().astype(np.int64))
            keep = np.ones(n, dtype=bool)
            keep[picked] = False
            to = np.full(n, -1, dtype=np.int64)  # the receiver of each state, -1: kept
            at = 0
            for k, (dst, count) in enumerate(gives):
                idx = picked[at:at + count]
                at += count
                to[idx] = k
                out.append((dst, [], ranks[idx]))
            kept = self._spool()
            kept.extend(self._split(to, [states for _, states, _ in out]))
            self._replace_frontier(kept)
            self.ranks = ranks[keep]
            # Pickled here once: the coordinator hands the bytes on as they are.
            out = [(dst, pickle.dumps(states, pickle.HIGHEST_PROTOCOL), r)
                   for dst, states, r in out]
        return out

    def _split(self, to, given):
        """The frontier's states kept; those given away go into their receiver's list."""
        for item, k in zip(self.frontier, to.tolist(), strict=True):
            if k < 0:
                yield item
            else:
                given[k].append(item)

    def take(self, batches) -> None:
        """Receive states handed over by other workers; keep the share in rank order."""
        if not batches:
            return
        mine = len(self.frontier)
        theirs: list = []
        ranks = [self.ranks]
        for states, r in batches:
            theirs += pickle.loads(states)
            ranks.append(r)
        ranks = np.concatenate(ranks)
        order = np.argsort(ranks, kind="stable")
        own = iter(self.frontier)  # in rank order already: its states come in turn
        merged = self._spool()
        merged.extend(next(own) if i < mine else theirs[i - mine] for i in order.tolist())
        self._replace_frontier(merged)
        self.ranks = ranks[order]

    def expand(self):
        """Phase 1: expand this worker's share of the level, in rank order. With checkpoints,
        an interruption abandons the level (see `rollback`)."""
        self._fold_counts()
        self.coverage_before = [c[:] for c in self.coverage]
        stop = self.stop
        ranks = self.ranks.tolist()
        model, level = self.model, self.level
        if model.set_level:
            model.set_level(level)
        expand = model.expand or (lambda s, out: None)
        coverage = self.coverage
        plain = not model.constraints and not model.action_constraints
        action_props = model.action_properties
        # (fingerprint, position, state, parent fp, action index, j), spilled past the limit
        self.cands = spool = self._spool()
        cands, chunk = spool.items, spool.chunk
        index: list = []  # (fingerprints, positions) of each closed chunk of candidates
        # Fingerprints of this level's candidates and of the states expanded so far: a
        # successor that is one of those (a step back to its parent, most often) is counted
        # and left out at once, as the one-process search does with its recent levels.
        # At most a chunk's worth (or _RECENT) of them: past that the set starts afresh, and
        # the owners dedupe what it no longer holds.
        local: set = set()
        remember = local.add
        bound = min(chunk, _RECENT)
        generated = 0
        event = None
        buf: list = []
        emit = buf.append
        fast = self.incremental and plain and not action_props
        # States outside the constraints are checked each time they are generated (as TLC
        # does), against their parent, which satisfied the invariants; those that passed are
        # remembered by fingerprint when the invariants read nothing but the state (see
        # engine.explore). At most _OUTSIDE_LIMIT of them, then afresh.
        outside_ok: set = set()
        remember_outside = not plain and model.invariants_pure and self.incremental
        generated_by = self.generated_by
        mid_states = model.mid_states
        if mid_states is not None:
            mid_states[0] = 0
        j = -1
        for j, (state, pfp) in enumerate(self.frontier):
            if stop is not None and j & 1023 == 1023 and stop.is_set():
                spool.close()
                self.cands = None
                return generated, _ABANDONED, None, True
            if len(cands) >= chunk:
                index.append(_claims(cands))
                cands = spool.roll()
            r = ranks[j] << _IDX_BITS
            if len(local) > bound:
                local.clear()
            remember(pfp)
            if not fast:
                key_of = Parent(state, pfp).successor if self.incremental else self.key_of
            buf.clear()
            failed = None
            try:
                expand(state, emit)
            except FAILURES as e:
                failed = e  # the successors met before it first, as in the one-process search
            mid = 0
            if mid_states is not None:  # A \cdot B's intermediate states count as generated
                mid, mid_states[0] = mid_states[0], 0
                generated += mid
            if fast:  # the default: fingerprints of the whole expansion at once
                # Successors claimed here already are left out early, only counted; the
                # positions of the others keep their order, which is all a position is for.
                succs, fps, ais, count = successor_keys(len(state), True)(
                    state, pfp, buf, generated_by, local, _NONE)
                generated += count
                for idx, fp in enumerate(fps):
                    if fp not in local:
                        remember(fp)
                        cands.append((fp, r | idx, succs[idx], pfp, ais[idx], j))
                if failed is not None:
                    generated += isinstance(failed, NotAssigned)  # the incomplete successor
                    event = self._failed_action(failed, buf, r, level, pfp)
                    break
                if not count and not mid and model.check_deadlock:
                    event = ((r - 1, 0), "deadlock", None, None, None, (level, pfp, None, None))
                    break
                continue
            ai, idx = -1, 0
            for succ in buf:
                if type(succ) is int:
                    ai = succ
                    continue
                generated += 1
                coverage[ai][1] += 1
                pos = r | idx
                idx += 1
                try:
                    in_model = plain or model.successor_in_model(state, succ)
                except FAILURES as e:
                    event = _event((pos, 0), _failure(e, [], IN_CONSTRAINT,
                                                      ("constraint", None)),
                                   (level, pfp, ai, key_of(succ)))
                    break
                if in_model:
                    fp = key_of(succ)
                    if fp not in local:
                        remember(fp)
                        cands.append((fp, pos, succ, pfp, ai, j))
                else:
                    okey = None
                    if remember_outside:
                        try:
                            okey = key_of(succ)
                        except FAILURES:  # reported where the check needs it, if at all
                            okey = None
                    if okey is None or okey not in outside_ok:
                        bad = _check_invariants(model, succ, state)
                        if bad is not None:
                            event = ((pos, 0), bad[0], bad[1], bad[2], bad[3],
                                     (level, pfp, ai, key_of(succ)))
                            break
                        if okey is not None:
                            if len(outside_ok) >= _OUTSIDE_LIMIT:
                                outside_ok.clear()
                            outside_ok.add(okey)
                for name, pred in action_props:
                    try:
                        holds = pred(state, succ)
                    except FAILURES as e:
                        holds = _failure(e, [], _in_property(name), ("property", name), name)
                    if holds is not True:
                        why = holds if type(holds) is _Stop else _Stop("property", name, [])
                        event = _event((pos, 1), why, (level, pfp, ai, key_of(succ)))
                        break
                if event is not None:
                    break
            if event is not None:
                break
            if failed is not None:
                generated += isinstance(failed, NotAssigned)  # the incomplete successor
                event = self._failed_action(failed, buf, r, level, pfp)
                break
            if idx == 0 and not mid and model.check_deadlock:
                event = ((r - 1, 0), "deadlock", None, None, None, (level, pfp, None, None))
                break
        self.expanded = j + 1
        self.frontier_size = len(self.frontier)
        index.append(_claims(cands))
        fps = np.concatenate([f for f, _ in index])
        keys = np.concatenate([k for _, k in index])
        self.cand_keys = keys
        owners = (fps >> np.uint64(32)) % np.uint64(self.n)
        self.claim_index = [np.flatnonzero(owners == o) for o in range(self.n)]
        return (generated, event, [(fps[i], keys[i]) for i in self.claim_index],
                not self.cands.on_disk)

    def _failed_action(self, e, buf, r, level, pfp) -> tuple:
        """The event of an error expanding the state of rank position `r`: ordered after
        the successors it had before the error, which `buf` holds (then the failed action)."""
        stop = action_failure(e, [], self.acts[last_action(buf)], len(self.acts) > 1)
        return _event((r | _AFTER_SUCCESSORS, 0), stop, (level, pfp, None, None))

    def decide(self, fps, keys, counts, balance: bool):
        """Phase 2 (as an owner): of the claims of each fingerprint never seen before, the one
        with the least position records how the state was reached (its parent link and
        action), and one claim, of the worker that keeps and expands the state, is kept. With
        `balance`, the keepers even out the workers' shares of the next level among the
        fingerprints claimed by several (otherwise the first claim keeps too).
        `counts`: how many of the claims each worker sent, in worker order. Returns, per claim,
        (link?, keep?) and the least position of each kept claim's fingerprint, in claim
        order."""
        link = np.zeros(len(fps), dtype=bool)
        keep = np.zeros(len(fps), dtype=bool)
        if not len(fps):
            return link, keep, np.zeros(0, dtype=np.int64)
        who = np.repeat(np.arange(self.n, dtype=np.int64), counts)
        order = np.lexsort((keys, who, fps))  # by fingerprint, then worker, then position
        sfps, swho, skeys = fps[order], who[order], keys[order]
        first = np.ones(len(order), dtype=bool)
        first[1:] = sfps[1:] != sfps[:-1]
        starts = np.flatnonzero(first)
        sizes = np.diff(np.append(starts, len(order)))
        least = np.minimum.reduceat(skeys, starts)
        new = self.table.add_batch(sfps[starts])
        fresh = np.repeat(new, sizes)
        is_least = (skeys == np.repeat(least, sizes)) & fresh
        link[order[is_least]] = True
        keeper = swho[is_least]  # the first claim's worker, per new fingerprint
        if balance and 1 < self.n <= 64:
            claimants = np.bitwise_or.reduceat(np.left_shift(np.uint64(1),
                                                             swho.astype(np.uint64)), starts)
            keeper = _keepers(claimants[new], keeper, self.n)
        # The kept claim: the keeper's first (least position) claim of the fingerprint.
        keepers = np.full(len(starts), -1, dtype=np.int64)
        keepers[new] = keeper
        mine = np.ones(len(order), dtype=bool)
        mine[1:] = first[1:] | (swho[1:] != swho[:-1])
        is_kept = mine & (swho == np.repeat(keepers, sizes))
        keep[order[is_kept]] = True
        positions = np.zeros(len(fps), dtype=np.int64)
        positions[order[is_kept]] = np.repeat(least, sizes)[is_kept]
        return link, keep, positions[keep]

    def commit(self, answers):
        """Phase 3: record how the new states this worker reached first were reached; keep
        the new states it was given, in rank order, and check the invariants on them.
        `answers`: (link?, keep?, least positions of the kept) per owner, as decide gives."""
        index = self.claim_index
        linked = np.sort(np.concatenate([i[a[0]] for i, a in zip(index, answers,
                                                                  strict=True)]))
        kept = np.concatenate([i[a[1]] for i, a in zip(index, answers, strict=True)])
        keys = np.concatenate([a[2] for a in answers])
        ranked = np.argsort(keys, kind="stable")
        kept, keys = kept[ranked], keys[ranked]
        model = self.model
        nxt = self.level + 1
        coverage, add_link = self.coverage, self.links.add
        parents = []  # the frontier index of each linked successor's parent
        # Mostly a state is kept where it was reached first: one pass does both then.
        flags = np.zeros(len(self.cand_keys), dtype=np.int8)
        flags[kept] = 1
        only_linked = linked[flags[linked] == 0]
        flags[linked] = 2
        linked_too = (flags[kept] == 2).tolist()
        for fp, _, _, pfp, ai, j in self.cands.pick(only_linked.tolist()):
            parents.append(j)
            coverage[ai][0] += 1
            add_link(nxt, fp, pfp, ai)
        frontier = self._spool() if self.carry is None else self.carry
        self.carry = self.carry_ranks = None
        items, chunk = frontier.items, frontier.chunk
        event = None
        checks = bool(model.invariants)
        # A successor's parent satisfied the invariants: with the level in memory, only what
        # the successor changed is checked again (engine.explore does the same).
        level = self.frontier.items if model.step_invariants and not self.frontier.chunks \
            else None
        keep = items.append
        # Kept claims come in rank order, which is claim order unless a claim was kept
        # for a fingerprint another worker reached first (never with candidates on disk).
        cands = self.cands.pick(kept.tolist()) if self.cands.on_disk else \
            map(self.cands.flat().__getitem__, kept.tolist())
        for (fp, _, succ, pfp, ai, j), pos, both in zip(cands, keys.tolist(), linked_too,
                                                        strict=True):
            if len(items) >= chunk:
                items = frontier.roll()
                keep = items.append
            if both:
                parents.append(j)
                coverage[ai][0] += 1
                add_link(nxt, fp, pfp, ai)
            keep((succ, fp))
            if checks and event is None:
                bad = _check_invariants(model, succ, None if level is None else level[j][0])
                if bad is not None:  # the trace goes to fp through its parent link
                    event = ((pos, 0), bad[0], bad[1], bad[2], bad[3],
                             (self.level, None, None, fp))
        self.cands.close()
        self.cands = self.cand_keys = None
        self._replace_frontier(frontier)
        self.level = nxt
        fresh = np.bincount(np.asarray(parents, dtype=np.int64), minlength=self.expanded)
        return keys, event, np.minimum(fresh, 31)

    def rollback(self) -> None:
        """Forget an abandoned level's expansion: the worker is as at the level's start."""
        self.coverage = self.coverage_before
        self.generated_by = [0] * len(self.acts)
        if self.cands is not None:
            self.cands.close()
        self.cands = None

    def _fold_counts(self) -> None:
        """Move the fast loop's successors per action into the coverage (snapshots hold it)."""
        for c, more in zip(self.coverage, self.generated_by, strict=True):
            c[1] += more
        self.generated_by = [0] * len(self.acts)

    def save(self, directory: str):
        """Write this worker's part of a snapshot (taken between two levels)."""
        from ..engine import checkpoint

        self._fold_counts()
        return checkpoint.save_part(directory, self.me, self.table, self.links,
                                    self.frontier, self.ranks, self.coverage, self.carry,
                                    self.carry_ranks)

    def restore(self, directory: str, manifest: dict, coverage):
        """Take this worker's part of a snapshot of any backend and worker count: the visited
        fingerprints and parent links it owns, and every n-th state of the queue by rank.
        A snapshot of one process can end a level and begin the next: the next level's states
        are carried aside, ahead of what this level adds (see commit). Returns (ranks, ranks of
        the carried states, the level, [states of the level, states carried])."""
        from ..engine import checkpoint as C

        snapshot = C.Snapshot(Path(directory), manifest)
        n, me = np.uint64(self.n), np.uint64(self.me)

        def mine(fps):
            return (fps >> np.uint64(32)) % n == me

        self.table = FingerprintTable.of(C.owned_visited(snapshot, mine))
        self.links.close()
        self.links = ParentLinks()
        C.load_links(snapshot, self.links, mine)
        shares = (self._spool(), self._spool())
        ranks: tuple = ([], [])
        counts = [0, 0]
        first = None
        for state, fp, level in C.queue_of(snapshot):
            if first is None:
                first = level
            k = level - first  # 0: the level, 1: the next
            if counts[k] % self.n == self.me:
                shares[k].items.append((state, fp))
                shares[k].roll()
                ranks[k].append(counts[k])
            counts[k] += 1
        self._replace_frontier(shares[0])
        self.ranks = np.asarray(ranks[0], dtype=np.int64)
        if counts[1]:
            self.carry, self.carry_ranks = shares[1], np.asarray(ranks[1], dtype=np.int64)
        self.coverage, self.level = coverage, first
        return self.ranks, self.carry_ranks, first, counts

    def find(self, level: int, fp: int):
        return self.links.find(level, fp)

    def init_keys(self) -> list:
        """The fingerprint of every initial state, in order (None: outside the constraints)."""
        return [fp for _, fp in _initial(self.model, self.key_of)]

    def replay(self, chain) -> list:
        """The states of a chain [(fingerprint, action index)], rebuilt by replay here, where
        fingerprints are computed as in every worker."""
        acts = self.model.actions
        steps = _replay(self.model, self.key_of,
                        [(fp, None if ai < 0 else acts[ai]) for fp, ai in chain])
        return [s.state for s in steps]

    def stats(self):
        coverage = [[new, gen + more] for (new, gen), more in zip(self.coverage,
                                                                 self.generated_by, strict=True)]
        return coverage, self.table.nbytes


# -- the coordinator -------------------------------------------------------------------------
_EVAL_ERROR_NAMES = {cls.__name__ for cls in EVAL_ERRORS}


class _WorkerEvalError(Exception):
    """A worker met an evaluation error where no check routes it: storing a state."""


class _Crash(Exception):
    pass


class _Coordinator:
    def __init__(self, model: Model, search):
        self.model, self.search = model, search
        self.n = search.workers
        self.init_keys = None
        self.distinct = self.generated = self.depth = self.left = 0  # so far, if interrupted
        self.carried, self.carry_ranks = 0, None  # see _Worker.restore

    def run(self) -> Result:
        started = time.perf_counter()
        ctx = mp.get_context("spawn")
        self.conns, self.procs = [], []
        plan = self.search.checkpoint
        self.pauses, stop = None, None
        if plan is not None and plan.directory is not None:
            # An interruption makes the workers abandon the level in progress (see LevelPauses).
            stop = ctx.Event()
            self.pauses = LevelPauses(plan, stop.set)
        # Each worker keeps its part of the queued states within the one --frontier-states
        # bound; what is over waits in a directory this process removes, whatever happens.
        limit = self.search.frontier_states
        spill = None
        if limit is not None:
            limit = max(1, -(-limit // self.n))
            spill = tempfile.mkdtemp(prefix="kipcheck-workers-")
        # Nothing a worker computes depends on hash(): each has its own hash seed.
        warm = remembered.export(self.model.remembered)
        try:
            for w in range(self.n):
                mine, theirs = ctx.Pipe()
                p = ctx.Process(target=_worker_main, daemon=True,
                                args=(theirs, self.model.recipe, w, self.n,
                                      stop, limit, spill, warm))
                p.start()
                theirs.close()
                self.conns.append(mine)
                self.procs.append(p)
            try:
                result = self._search()
            except _WorkerEvalError as e:  # outside the checks the workers report themselves
                result = Result(ERROR, None, self.distinct, self.generated, self.depth,
                                self.left, [], {}, 0.0, f"{STORE_FAILED}\n{e}")
            except KeyboardInterrupt:  # Ctrl-C reaches the workers too; they just stop
                result = Result("interrupted", None, self.distinct, self.generated, self.depth,
                                self.left, [], {}, 0.0, "The search was interrupted.")
            if plan is not None and plan.written:
                result.checkpoint = plan.written[-1]
        finally:
            if self.model.watch_search:
                self.model.watch_search(None)
            if self.pauses is not None:
                self.pauses.close()
            for c in self.conns:
                try:
                    c.send(("stop", ()))
                except OSError:
                    pass
            for p in self.procs:
                p.join(timeout=5)
                if p.is_alive():
                    p.terminate()
            if spill is not None:
                shutil.rmtree(spill, ignore_errors=True)
        result.seconds = time.perf_counter() - started
        return result

    def _receive(self, conn):
        try:
            tag, value = conn.recv()
        except EOFError:
            raise _Crash("a worker process ended unexpectedly") from None
        if tag == "crash":
            name, text, tb, message = value
            if name == "AssertFailure":
                from ..semantics.runtime import AssertFailure

                raise AssertFailure(message or text)
            if name in _EVAL_ERROR_NAMES:  # e.g. a state holding Nat cannot be fingerprinted
                raise _WorkerEvalError(text)
            raise _Crash(f"a worker process failed: {name}: {text}\n{tb}")
        return value

    def _ask(self, w: int, command, *args):
        self.conns[w].send((command, args))
        return self._receive(self.conns[w])

    def _all(self, command, args_per_worker):
        for c, args in zip(self.conns, args_per_worker, strict=True):
            c.send((command, args))
        return [self._receive(c) for c in self.conns]

    def _search(self) -> Result:
        model = self.model
        if model.watch_search:  # the initial states are evaluated here
            model.watch_search(_no_counts)
        for c in self.conns:
            self._receive(c)  # "ready": the model was rebuilt
        plan = self.search.checkpoint
        if plan is not None and plan.recover is not None:
            return self._levels(*self._restore(plan.recover))
        coverage = {"<Init>": [0, 0]}
        generated = distinct = depth = 0
        # Level 1: the initial states, checked here in order as the local search does (their
        # fingerprints as the workers compute them).
        seen = set()
        if model.set_level:
            model.set_level(0)
        try:
            inits = list(model.init())
        except FAILURES as e:
            return self._stopped(_failure(e, [], None, ("init", None)), 0, 0, 0)
        keys = self._ask(0, "init_keys")  # up to a state whose constraint fails
        self.init_keys = keys + [None] * (len(inits) - len(keys))
        for s, fp in zip(inits, self.init_keys, strict=True):
            generated += 1
            coverage["<Init>"][1] += 1
            try:
                in_model = all(c(s) for c in model.constraints)
            except FAILURES as e:
                return self._stopped(_failure(e, [Step(None, s)], IN_CONSTRAINT,
                                              ("constraint", None)), generated, distinct, depth)
            new = in_model and fp not in seen
            if new:
                seen.add(fp)
                distinct += 1
                coverage["<Init>"][0] += 1
                depth = 1
            if new or not in_model:
                bad = _check_invariants(model, s)
                if bad is not None:
                    return self._result(bad[0], bad[1], [Step(None, s)], generated, distinct,
                                        depth, bad[2], bad[3], bad[4])
            if new:
                for name, pred in model.init_properties:
                    try:
                        holds = pred(s)
                    except FAILURES as e:
                        return self._stopped(_failure(e, [Step(None, s)], _in_property(name),
                                                      ("property", name), name),
                                             generated, distinct, depth)
                    if holds is not True:
                        return self._result("property", name, [Step(None, s)], generated,
                                            distinct, depth)
        sizes = self._all("init", [()] * self.n)
        assert sum(sizes) == distinct
        ranks = [np.arange(w, distinct, self.n) for w in range(self.n)]
        self._all("settle", [(r, []) for r in ranks])
        return self._levels(generated, distinct, depth, 1, ranks, np.zeros(32, dtype=np.int64))

    def _levels(self, generated, distinct, depth, level, ranks, outdeg) -> Result:
        """The search, level by level, from `level` (its states in the workers' frontiers)."""
        search, pauses = self.search, self.pauses
        self.distinct, self.generated, self.depth = distinct, generated, depth
        while sum(len(r) for r in ranks) and (search.max_depth is None
                                              or level < search.max_depth):
            self.left = sum(len(r) for r in ranks)
            if pauses is not None and pauses.due():
                self._snapshot(generated, distinct, depth, level, outdeg)
            expanded = self._all("expand", [()] * self.n)
            if any(e == _ABANDONED for _, e, _, _ in expanded):
                self._all("rollback", [()] * self.n)  # back to the level's start
                self._snapshot(generated, distinct, depth, level, outdeg)
            events = [e for _, e, _, _ in expanded if e is not None]
            generated += sum(g for g, _, _, _ in expanded)
            # Route the claims to their owners, and the owners' answers back. Keepers are
            # chosen to even out the next level unless candidates went to disk.
            balance = all(in_memory for _, _, _, in_memory in expanded)
            answers = self._all("decide", [
                (np.concatenate([claims[o][0] for _, _, claims, _ in expanded]),
                 np.concatenate([claims[o][1] for _, _, claims, _ in expanded]),
                 [len(claims[o][0]) for _, _, claims, _ in expanded], balance)
                for o in range(self.n)])
            parts = [[None] * self.n for _ in range(self.n)]  # [worker][owner]
            for o, (link, keep, positions) in enumerate(answers):
                at = kat = 0
                for w, (_, _, claims, _) in enumerate(expanded):
                    k = len(claims[o][0])
                    mask = keep[at:at + k]
                    nk = int(np.count_nonzero(mask))
                    parts[w][o] = (link[at:at + k], mask, positions[kat:kat + nk])
                    at += k
                    kat += nk
            committed = self._all("commit", [(p,) for p in parts])
            keys = [k for k, _, _ in committed]
            events += [e for _, e, _ in committed if e is not None]
            for _, _, fresh in committed:
                outdeg += np.bincount(fresh, minlength=32)
            new = sum(len(k) for k in keys)
            distinct += new
            if new:
                depth = level + 1
            self.distinct, self.generated, self.depth = distinct, generated, depth
            if events:
                return self._violation(min(events, key=lambda e: e[0]), generated, distinct,
                                       depth, outdeg)
            everything = np.sort(np.concatenate(keys))
            ranks = [np.searchsorted(everything, k) for k in keys]
            if self.carry_ranks is not None:  # the states carried come first (see restore)
                ranks = [np.concatenate([c, r + self.carried])
                         for c, r in zip(self.carry_ranks, ranks, strict=True)]
                self.carry_ranks = None
            self._balance(ranks)
            level += 1
            if search.progress is not None:
                search.progress(distinct, generated, new, level)
        result = self._result("ok", None, [], generated, distinct, depth)
        result.outdegree = _histogram_outdegree(outdeg)
        result.left = sum(len(r) for r in ranks) if search.max_depth is not None else 0
        return result

    def _snapshot(self, generated, distinct, depth, level, outdeg) -> None:
        """Write a snapshot of the search at the start of `level`; then stop
        (KeyboardInterrupt) if it was interrupted."""
        from ..engine import checkpoint as C

        plan = self.search.checkpoint
        writer = None
        try:
            writer = C.Writer(plan.directory, C.next_number(plan.directory))
            parts = self._all("save", [(str(writer.tmp),)] * self.n)
            with open(writer.path("init-keys.pkl"), "wb") as f:
                pickle.dump(self.init_keys, f, protocol=pickle.HIGHEST_PROTOCOL)
            path = writer.commit({
                "identity": plan.identity, "backend": "workers", "parts": self.n,
                "distinct": distinct, "generated": generated, "depth": depth, "level": level,
                "queue": sum(n for files, _, carry in parts for _, n in files + carry),
                "coverage": self._coverage([(cov, 0) for _, cov, _ in parts]),
                "outdegree": [int(x) for x in outdeg], "frontier": [f for f, _, _ in parts],
                "carry": [c for _, _, c in parts], "part_coverage": [cov for _, cov, _ in parts],
                "seconds": round(plan.seconds(), 3)})
        except OSError as e:
            if writer is not None:
                writer.abandon()
            raise C.CheckpointError(f"cannot write a checkpoint into {plan.directory}: "
                                    f"{e.strerror or e}") from None
        plan.written.append(str(path))
        self.pauses.last = time.monotonic()
        if self.pauses.interrupted:
            raise KeyboardInterrupt

    def _restore(self, snapshot):
        """The coordinator's counters at the start of a snapshot's level; the workers take
        their parts."""
        from ..engine import checkpoint as C

        m = snapshot.manifest
        if os.path.exists(snapshot.file("init-keys.pkl")):
            with open(snapshot.file("init-keys.pkl"), "rb") as f:
                self.init_keys = pickle.load(f)
        else:
            self.init_keys = self._ask(0, "init_keys")
        total = C.coverage_by_action(snapshot, [a.name for a in self.model.actions])
        none = [[0, 0] for _ in total]
        answers = self._all("restore", [(str(snapshot.path), m, total if w == 0 else none)
                                        for w in range(self.n)])
        ranks = [a[0] for a in answers]
        _, _, level, (_, self.carried) = answers[0]
        if self.carried:
            self.carry_ranks = [a[1] for a in answers]
        return (m["generated"], m["distinct"], m["depth"], level, ranks,
                np.array(m["outdegree"], dtype=np.int64))

    def _balance(self, ranks) -> None:
        """Even out the next level's shares: a worker keeps the states it won, which can all
        fall to one worker (a single initial state); the surplus moves, pickled, to the
        workers short of the mean. Moving a state costs more than generating it, so only a
        share more than 1/16 over the mean gives states away."""
        sizes = [len(r) for r in ranks]
        total = sum(sizes)
        target = [total // self.n + (1 if w < total % self.n else 0) for w in range(self.n)]
        slack = max(1, total // (16 * self.n))
        surplus = {w: sizes[w] - target[w] for w in range(self.n) if sizes[w] - target[w] > slack}
        short = {w: target[w] - sizes[w] for w in range(self.n) if sizes[w] < target[w]}
        gives: list = [[] for _ in range(self.n)]
        if surplus:
            for src, extra in surplus.items():
                for dst in list(short):
                    if extra == 0:
                        break
                    k = min(extra, short[dst])
                    gives[src].append((dst, k))
                    extra -= k
                    short[dst] -= k
                    if short[dst] == 0:
                        del short[dst]
        handed = self._all("settle", [(r, g) for r, g in zip(ranks, gives, strict=True)])
        inbox: list = [[] for _ in range(self.n)]
        for batches in handed:
            for dst, states, r in batches:
                inbox[dst].append((states, r))
        if any(inbox):
            self._all("take", [(b,) for b in inbox])

    def _chain(self, level: int, fp: int) -> list:
        """[(fingerprint, action index)] from an initial state to state `fp` of `level`."""
        out = []
        while level >= 1:
            found = [f for f in self._all("find", [(level, fp)] * self.n) if f is not None]
            if not found:
                raise _Crash(f"no parent link for fingerprint {fp:#x} at level {level}")
            parent, ai = found[0]
            out.append((fp, ai))
            fp, level = parent, level - 1
        out.reverse()
        return out

    def _violation(self, event, generated, distinct, depth, outdeg) -> Result:
        _, verdict, prop, message, error_at, (level, pfp, ai, fp) = event
        model = self.model
        # Without a parent: a new state of the next level, reached as its parent link says.
        chain = self._chain(level, pfp) if pfp is not None else self._chain(level + 1, fp)
        exc = None
        if ai is not None:
            chain.append((fp, ai))
        states = self._ask(0, "replay", chain)
        trace = [step_of(None if a < 0 else model.actions[a], s)
                 for (_, a), s in zip(chain, states, strict=True)]
        if error_at is not None:
            exc = self._reproduce(trace, error_at, level)
        if isinstance(exc, NotAssigned):  # the incomplete successor ends it, as in TLC's
            trace.append(step_of(exc.action, exc.state))
        result = self._result(verdict, prop, trace, generated, distinct, depth, message,
                              error_at, exc)
        result.outdegree = _histogram_outdegree(outdeg)
        return result

    def _reproduce(self, trace, error_at, level):
        """Evaluate again, here, what failed at the trace's last state: the exception locates
        the expression."""
        model = self.model
        kind, name = error_at
        last = trace[-1].state
        prev = trace[-2].state if len(trace) > 1 else None
        if model.set_level:
            model.set_level(level)
        try:
            if kind == "invariant":
                dict(model.invariants)[name](last)
            elif kind == "action" and model.expand:
                expand_again(model, last)
            elif kind == "constraint":
                all(c(last) for c in model.constraints) and prev is not None and all(
                    c(prev, last) for c in model.action_constraints)
            elif kind == "property" and prev is not None:
                dict(model.action_properties)[name](prev, last)
        except FAILURES as e:
            return e
        return None

    def _stopped(self, stop: _Stop, generated, distinct, depth) -> Result:
        """The result of a stop met in the initial states."""
        return self._result(stop.verdict, stop.prop, stop.trace, generated, distinct, depth,
                            stop.message, stop.error_at, stop.exc)

    def _result(self, verdict, prop, trace, generated, distinct, depth, message=None,
                error_at=None, exc=None) -> Result:
        stats = self._all("stats", [()] * self.n) if self.conns else []
        store = sum(b for _, b in stats)
        coverage = self._coverage(stats)
        return Result(verdict, prop, distinct, generated, depth, 0, trace, coverage, 0.0,
                      message, error_at, (0, 0, 0, 0), exc, None, None,
                      collision_estimate(distinct, generated), store)

    def _coverage(self, stats) -> dict:
        out: dict = {}
        init = [0, 0]
        seen = set()
        for fp in self.init_keys or ():
            init[1] += 1
            if fp is not None and fp not in seen:
                seen.add(fp)
                init[0] += 1
        out["<Init>"] = init
        for i, a in enumerate(self.model.actions):
            cov = out.setdefault(a.name, [0, 0])
            for per_worker, _ in stats:
                cov[0] += per_worker[i][0]
                cov[1] += per_worker[i][1]
        return out


def _histogram_outdegree(hist) -> tuple:
    samples = [i for i, c in enumerate(hist.tolist()) for _ in range(c)]
    return _outdegree(samples)

