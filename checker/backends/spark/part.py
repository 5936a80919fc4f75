"""One partition's share of the Spark search: expand its states, decide which successors are new.

The same code runs in Spark's Python workers and, for small levels, in the driver. A partition
owns the fingerprints f with (f >> 32) mod P equal to its index: it keeps their visited store (a
sorted uint64 array, never shuffled), the parent links of the states it won, and the states of
the current level it owns.

Order. The one-process search meets the states of a level in the order of their parents, then of
the successors of one parent. Each state carries a key that says so: the key of its parent
followed by its successor index, in an order-preserving prefix code, so comparing two keys as
bytes compares their places in the one-process order. A successor claimed by several parents is
won by the least key, which is the parent the one-process search records; of the violations a
level reveals, the one with the least key is the one it reports.
"""
from __future__ import annotations

from operator import itemgetter

import numpy as np

from ...engine.explore import action_failure, last_action
from ...engine.fingerprints import Parent, successor_keys
from ...interface import EVAL_ERRORS, error_message
from ...semantics.values import NotAssigned
from .codec import Keys, Packed, packable

_OWNER_SHIFT = np.uint64(32)


def owner(fp: int, parts: int) -> int:
    return (fp >> 32) % parts


def code(i: int) -> bytes:
    """The successor index i as bytes whose order is the order of the numbers, and which no
    other code starts with (so concatenated codes compare as the sequences of numbers)."""
    if i < 0x80:
        return _SMALL[i]
    if i < 0x4000:
        return bytes((0x80 | i >> 8, i & 0xFF))
    if i < 0x20000000:
        return bytes((0xC0 | i >> 24, i >> 16 & 0xFF, i >> 8 & 0xFF, i & 0xFF))
    return b"\xe0" + i.to_bytes(8, "big")


_SMALL = [bytes((i,)) for i in range(0x80)]
_CODES = [code(i) for i in range(0x4000)]
# Appended to a state's key: after the keys of all its successors (no code starts with 0xFF),
# before the next state's. An error expanding the state is ordered there.
AFTER_SUCCESSORS = b"\xff"


def last_index(key: bytes) -> int:
    """The last number coded in `key` (a successor's index under its parent)."""
    at, value = 0, 0
    while at < len(key):
        b = key[at]
        width = 1 if b < 0x80 else 2 if b < 0xC0 else 4 if b < 0xE0 else 9
        chunk = key[at:at + width]
        value = int.from_bytes(chunk[1:], "big") if width == 9 else \
            int.from_bytes(chunk, "big") & ((1 << (8 * width - width + 1)) - 1 if width > 1
                                             else 0x7F)
        at += width
    return value


def _code(i: int) -> bytes:
    return _CODES[i] if i < 0x4000 else code(i)


class Part:
    """A partition between two levels. Its states travel packed (see codec.py) and are rebuilt
    on first use of `frontier`, so a stage that needs only the visited store does not rebuild
    them."""

    def __init__(self, index: int, actions: int):
        self.index = index
        self.level = 1  # the level of the states in `frontier`
        self.visited = np.empty(0, dtype=np.uint64)
        self._frontier: list | None = []  # [(key, state, fingerprint)] in key order
        self._packed: tuple | None = None  # (keys, states, fingerprints) while not rebuilt
        self.links: list = []  # per level: (level, fingerprints, parents, action indices)
        self.coverage = [[0, 0] for _ in range(actions)]  # per action: [new, generated]
        self.pending: dict = {}  # source part -> (frontier indices, new successors) to report
        self.report: dict = {}  # the last level's figures, for the driver
        self.counts = np.empty(0, dtype=np.int64)  # the last level: successors per state

    @property
    def frontier(self) -> list:
        if self._frontier is None:
            keys, states, fps = self._packed
            states = states.all() if isinstance(states, Packed) else states
            self._frontier = list(zip(keys.all(), states, fps.tolist(), strict=True))
            self._packed = None
        return self._frontier

    def __getstate__(self):
        state = dict(self.__dict__)
        if self._frontier is not None:
            state["_packed"] = pack_states(self._frontier)
            state["_frontier"] = None
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)

    def find(self, level: int, fp: int):
        """(parent fingerprint, action index) of state `fp` of `level`, if this part owns it."""
        for lv, fps, parents, actions in self.links:
            if lv == level:
                i = int(np.searchsorted(fps, np.uint64(fp)))
                if i < len(fps) and int(fps[i]) == fp:
                    return int(parents[i]), int(actions[i])
        return None

    def add_links(self, level: int, fps, parents, actions) -> None:
        """Record a level's parent links, sorted by fingerprint for `find`."""
        order = np.argsort(fps, kind="stable")
        self.links.append((level, fps[order], parents[order], actions[order]))


def check_invariants(model, state):
    """None, or (verdict, property, message, error_at) for the first invariant that fails."""
    for name, pred in model.invariants:
        try:
            ok = pred(state)
        except EVAL_ERRORS as e:
            return ("error", name, error_message(e), ("invariant", name))
        if ok is not True:
            if ok is not False:
                return ("error", name, f"The invariant {name} is not a boolean",
                        ("invariant", name))
            return ("invariant", name, None, None)
    return None


# An event is a violation a partition met: (order key, verdict, property, message, error_at,
# (parent level, parent fingerprint, action index or None, fingerprint or None), successors of
# the parent the one-process search generated up to it). Its order key is (key, 0) for the
# state with that key (a deadlock, an error in its actions, an invariant), (key, 1) for an
# action property of the step to it.

def expand(part: Part, env, parts: int) -> list:
    """Expand the part's states in key order: [(destination part, record)]. Records:
    ("c", ...) the new-looking successors a part owns, deduplicated here (the least key kept);
    ("s", ...) this part's counts and first violation, to itself;
    ("d", ...) how many new successors the previous level's winners give their parents' parts."""
    model, key_of, incremental = env.model, env.key_of, env.incremental
    level = part.level
    if model.set_level:
        model.set_level(level)
    expand_fn = model.expand or (lambda s, out: None)
    acts = model.actions
    plain = not model.constraints and not model.action_constraints
    action_props = model.action_properties
    fast = incremental and plain and not action_props
    generated_by = [0] * len(acts)
    seen: set = set()
    c_fps: list = []
    c_keys: list = []
    c_states: list = []
    c_parents: list = []
    c_actions: list = []
    c_js: list = []
    generated = 0
    event = None
    buf: list = []
    emit = buf.append
    frontier = part.frontier
    counts: list = []  # successors generated per expanded state
    mid_states = model.mid_states
    if mid_states is not None:
        mid_states[0] = 0
    mid = 0
    j = -1
    for j, (key, state, pfp) in enumerate(frontier):
        buf.clear()
        failed = None
        try:
            expand_fn(state, emit)
        except EVAL_ERRORS as e:
            failed = e  # the successors met before it first, as in the one-process search
        if mid_states is not None:  # A \cdot B's intermediate states count as generated
            mid, mid_states[0] = mid_states[0], 0
            generated += mid
        if fast:  # the default: fingerprints of the whole expansion at once
            succs, fps, ais, count = successor_keys(len(state))(state, pfp, buf, generated_by)
            generated += count
            counts.append(count + mid)
            for idx, fp in enumerate(fps):
                if fp not in seen:
                    seen.add(fp)
                    c_fps.append(fp)
                    c_keys.append(key + _code(idx))
                    c_states.append(succs[idx])
                    c_parents.append(pfp)
                    c_actions.append(ais[idx])
                    c_js.append(j)
            if failed is not None:
                made = count + isinstance(failed, NotAssigned)  # and the incomplete one
                generated += made - count
                counts[-1] += made - count
                event = _failed_action(failed, buf, acts, key, (level, pfp, None, None), made)
                break
            if not count and not mid and model.check_deadlock:
                event = ((key, 0), "deadlock", None, None, None, (level, pfp, None, None), 0)
                break
            continue
        succ_key = Parent(state, pfp).successor if incremental else key_of
        ai, idx = -1, 0
        for succ in buf:
            if type(succ) is int:
                ai = succ
                continue
            generated += 1
            generated_by[ai] += 1
            skey = key + _code(idx)
            idx += 1
            if plain or model.successor_in_model(state, succ):
                fp = succ_key(succ)
                if fp not in seen:
                    seen.add(fp)
                    c_fps.append(fp)
                    c_keys.append(skey)
                    c_states.append(succ)
                    c_parents.append(pfp)
                    c_actions.append(ai)
                    c_js.append(j)
            else:
                bad = check_invariants(model, succ)
                if bad is not None:
                    event = ((skey, 0), *bad, (level, pfp, ai, succ_key(succ)), idx)
                    break
            for name, pred in action_props:
                if pred(state, succ) is not True:
                    event = ((skey, 1), "property", name, None, None,
                             (level, pfp, ai, succ_key(succ)), idx)
                    break
            if event is not None:
                break
        if event is None and failed is not None:
            made = idx + isinstance(failed, NotAssigned)  # and the incomplete one
            generated += made - idx
            counts.append(made + mid)
            event = _failed_action(failed, buf, acts, key, (level, pfp, None, None), made)
            break
        counts.append(idx + mid)
        if event is not None:
            break
        if idx == 0 and not mid and model.check_deadlock:
            event = ((key, 0), "deadlock", None, None, None, (level, pfp, None, None), 0)
            break
    expanded = j + 1
    out = [(part.index, ("s", generated, event, generated_by, expanded,
                         np.array(counts, dtype=np.int64)))]
    for src, (js, counts) in part.pending.items():
        out.append((src, ("d", js, counts)))
    if c_fps:
        fps = np.array(c_fps, dtype=np.uint64)
        owners = ((fps >> _OWNER_SHIFT) % np.uint64(parts)).astype(np.int64)
        parents = np.array(c_parents, dtype=np.uint64)
        actions = np.array(c_actions, dtype=np.int32)
        js = np.array(c_js, dtype=np.int64)
        order = np.argsort(owners, kind="stable")
        bounds = np.searchsorted(owners[order], np.arange(parts + 1))
        for o in range(parts):
            idx = order[bounds[o]:bounds[o + 1]]
            if not len(idx):
                continue
            pick = idx.tolist()
            out.append((o, ("c", part.index, fps[idx], [c_keys[i] for i in pick],
                            [c_states[i] for i in pick], parents[idx], actions[idx], js[idx])))
    return out


def pack_states(items: list) -> tuple:
    """(keys, states, fingerprints) of [(key, state, fingerprint)], packed to travel."""
    keys = Keys([k for k, _, _ in items])
    states = [s for _, s, _ in items]
    fps = np.array([f for _, _, f in items], dtype=np.uint64)
    return keys, Packed(states) if packable(states) else states, fps


def packed(record: tuple) -> tuple:
    """An `expand` record with its candidates' keys and states packed to travel."""
    if record[0] != "c":
        return record
    kind, src, fps, keys, states, *rest = record
    return (kind, src, fps, Keys(keys), Packed(states) if packable(states) else states, *rest)


def _pick(keys, indices) -> list:
    return keys.pick(indices) if isinstance(keys, Keys) else [keys[i] for i in indices]


_first = itemgetter(0)


def merge(part: Part, records, env) -> Part:
    """The part after a level: the new states it owns (each won by its least key), its visited
    store, parent links, counts, and the first violation among its new states."""
    model = env.model
    stats = None
    batches = []
    deg_js, deg_counts = [], []
    for kind, *rest in records:
        if kind == "c":
            batches.append(rest)
        elif kind == "s":
            stats = rest
        else:
            deg_js.append(rest[0])
            deg_counts.append(rest[1])
    generated, event, generated_by, expanded, counts = stats
    new = Part(part.index, len(part.coverage))
    new.counts = counts
    new.level = part.level + 1
    new.links = part.links
    new.coverage = [[n, g + more] for (n, g), more in zip(part.coverage, generated_by,
                                                          strict=True)]
    hist = _histogram(deg_js, deg_counts)
    visited = part.visited
    frontier: list = []
    merge_event = None
    if batches:
        sizes = [len(b[1]) for b in batches]
        starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        srcs = np.repeat(np.array([b[0] for b in batches], dtype=np.int64), sizes)
        fps = np.concatenate([b[1] for b in batches])
        parents = np.concatenate([b[4] for b in batches])
        actions = np.concatenate([b[5] for b in batches])
        js = np.concatenate([b[6] for b in batches])
        if len(visited):  # only candidates not yet visited compete (all copies of each)
            at = np.minimum(np.searchsorted(visited, fps), len(visited) - 1)
            fresh = np.flatnonzero(visited[at] != fps)
        else:
            fresh = np.arange(len(fps), dtype=np.int64)
        bounds = np.searchsorted(fresh, starts).tolist()
        keys = [k for bi, b in enumerate(batches)
                for k in _pick(b[2], (fresh[bounds[bi]:bounds[bi + 1]] - starts[bi]).tolist())]
        order = np.array(sorted(range(len(keys)), key=keys.__getitem__), dtype=np.int64)
        unique, first = np.unique(fps[fresh[order]], return_index=True)  # first: least key
        picked = order[np.sort(first)]  # winners, as positions in `fresh`, in key order
        won = fresh[picked]  # candidate indices, in key order
        if len(won):
            visited = np.concatenate([visited, unique])
            visited.sort(kind="stable")  # two sorted runs: a linear merge
            w_fps, w_parents, w_actions = fps[won], parents[won], actions[won]
            new.add_links(new.level, w_fps, w_parents, w_actions.astype(np.int64))
            for a, n in enumerate(np.bincount(w_actions, minlength=len(new.coverage)).tolist()):
                new.coverage[a][0] += n
            checks = bool(model.invariants)
            in_batch = (np.searchsorted(starts, won, side="right") - 1).tolist()
            for i, p, bi in zip(won.tolist(), picked.tolist(), in_batch, strict=True):
                succ = batches[bi][3][i - int(starts[bi])]
                key = keys[p]
                frontier.append((key, succ, int(fps[i])))
                if checks and merge_event is None:
                    bad = check_invariants(model, succ)
                    if bad is not None:
                        merge_event = ((key, 0), *bad,
                                       (part.level, int(parents[i]), int(actions[i]),
                                        int(fps[i])), last_index(key) + 1)
            w_srcs, w_js = srcs[won], js[won]
            for src in np.unique(w_srcs).tolist():
                u, c = np.unique(w_js[w_srcs == src], return_counts=True)
                new.pending[src] = (u, c)
    new.visited = visited
    new._frontier = frontier
    events = [e for e in (event, merge_event) if e is not None]
    new.report = {"new": len(frontier), "generated": generated, "expanded": expanded,
                  "event": min(events, key=_first) if events else None,
                  "hist": hist, "visited": len(visited), "bytes": int(visited.nbytes)}
    return new


def _failed_action(e, buf: list, acts, key: bytes, where: tuple, made: int) -> tuple:
    """The event of an error expanding the state of `key`, after the successors it had
    before the error (`made` of them generated); `buf` ends with the failed action."""
    stop = action_failure(e, [], acts[last_action(buf)], len(acts) > 1)
    return ((key + AFTER_SUCCESSORS, 0), "error", None, stop.message, stop.error_at, where, made)


def before(old: Part, new: Part, parent_key: bytes, bound: bytes) -> tuple[int, int]:
    """What the one-process search had met of this part's level when it stopped at a
    violation: (successors generated by the states before `parent_key`, new states with a key
    up to `bound`)."""
    from bisect import bisect_left, bisect_right

    keys = [k for k, _, _ in old.frontier]
    generated = int(new.counts[:bisect_left(keys, parent_key)].sum())
    return generated, bisect_right([k for k, _, _ in new.frontier], bound)


def flush(part: Part) -> list:
    """The records of the parent counts still pending (after the last level)."""
    return [(src, ("d", js, counts)) for src, (js, counts) in part.pending.items()]


def histogram(records) -> np.ndarray:
    """The out-degree histogram (parents with at least one new successor) of "d" records."""
    return _histogram([r[1] for r in records], [r[2] for r in records])


def _histogram(js: list, counts: list) -> np.ndarray:
    """Parents' new successors, summed per parent (js: indices in their part's level), as 32
    counts (31: 31 or more)."""
    hist = np.zeros(32, dtype=np.int64)
    if js:
        totals = np.bincount(np.concatenate(js), weights=np.concatenate(counts))
        fresh = totals[totals > 0].astype(np.int64)
        hist += np.bincount(np.minimum(fresh, 31), minlength=32)
    return hist
