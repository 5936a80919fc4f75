"""64-bit state fingerprints that are the same in every process, computed once per value.

Python's hash() of a str changes with PYTHONHASHSEED, so it cannot be shared between worker
processes or Spark executors. A fingerprint here is xxHash3-64 over a canonical encoding: a
kind tag, then the fingerprints of the parts (a set's sorted, a function's ordered by its keys'
fingerprints), so equal values always fingerprint alike, whatever order a process happened to
build them in, and no two kinds collide by construction.

Values are immutable and a successor shares most of its values with its parent, so each
compound value's fingerprint is remembered twice: by object identity (with the object, so the
identity cannot be reused), the cheapest look-up, and by value, for the equal values that
generated code builds afresh (a record rebuilt unchanged). A state's fingerprint thus costs a
look-up per variable, at C speed, and Python work only for values never seen before. Python's
== is not TLA+'s (1 == TRUE, a record equals the pair of its key and value tuples), so a
by-value table keeps the value it was computed for and a hit counts only when it is that value,
kind for kind (`same_kinds`, which stops at shared parts): TLC fingerprints <<1>> and <<TRUE>>
apart. The check is skipped for the variables the static kind analysis (semantics/kinds.py)
shows can never hold two such values. A search starts with empty tables, so no value of another
model stands in for its own.
0 is never a fingerprint (the visited table's empty slot).
"""
from __future__ import annotations

import struct

from xxhash import xxh3_64_intdigest as _mix
from xxhash import xxh3_64_intdigest as _xxh

from ..semantics.values import Fn, LazySet, ModelValue, as_set, same_kinds

_MASK = (1 << 64) - 1
_CACHE_LIMIT = 200_000  # entries per table before it starts afresh (they hold values alive)
_cache: dict = {}  # id(compound value) -> (value, fingerprint)
_by_value: dict = {}  # compound value -> (that value, its fingerprint)
_ints: dict = {}  # int -> fingerprint
_strs: dict = {}  # str -> fingerprint
_positions: list[dict] = []  # per variable: value -> (that value, its mixed fingerprint there)
_checked: list[bool] = []  # per variable: does a by-value hit need the kind check? (kinds.py)
_mvs: dict = {}  # model value -> fingerprint (not in _ints: a model value equals an int)
_packers: dict = {}  # number of words -> struct packer
_TRUE = _xxh(b"T")
_FALSE = _xxh(b"F")
_SEQ, _FN, _SET = 1, 2, 3  # kind tags of compound values


def _packer(n: int):
    p = _packers.get(n)
    if p is None:
        p = _packers[n] = struct.Struct(f"<{n}Q").pack
    return p


def fingerprint(value) -> int:
    """The 64-bit fingerprint of a value (a state is a tuple of values)."""
    return _fp(value) or 1


def state_fingerprint(state: tuple) -> int:
    """A state's fingerprint: the XOR over its variables of each value's fingerprint mixed
    with the variable's position. XOR lets a successor's fingerprint be derived from its
    parent's by the variables that changed (see `Parent`); the position mix keeps states with
    values swapped between variables apart."""
    return _raw(state) or 1


def _mixed(i: int, v) -> int:
    """The fingerprint of value v as variable number i, remembered per variable by value:
    variables take few distinct values compared with states, so this is mostly one look-up."""
    while len(_positions) <= i:
        _positions.append({})
    while len(_checked) <= i:
        _checked.append(True)
    known = _positions[i]
    e = known.get(v)
    if e is not None and (e[0] is v or not _checked[i] or same_kinds(e[0], v)):
        return e[1]
    return _new_mixed(i, v)


def _new_mixed(i: int, v) -> int:
    """Compute and remember v's fingerprint as variable number i, once a look-up missed."""
    known = _positions[i]
    if len(known) >= _CACHE_LIMIT:
        known.clear()
    m = _mix(_pair(i, _fp(v)))
    known[v] = (v, m)  # a Python-equal value of other kinds is forgotten: rare
    return m


class Parent:
    """A state about to be expanded, ready to fingerprint its successors: a successor shares
    most values with its parent (by identity), so only the changed variables cost work, and
    the parent's own mixed values are looked up only where a successor changed them."""

    __slots__ = ("state", "mixed", "raw")

    def __init__(self, state: tuple, fp: int):
        self.state = state
        self.mixed = [None] * len(state)
        # fp is state_fingerprint(state); only a raw 0 was stored as 1.
        self.raw = fp if fp != 1 else _raw(state)

    def successor(self, succ: tuple) -> int:
        """state_fingerprint(succ), for a successor of this state."""
        h = self.raw
        mixed = self.mixed
        state = self.state
        positions = _positions
        checked = _checked
        for i in range(len(state)):  # plainer than itertools here, and faster
            v = succ[i]
            if v is not state[i]:
                old = mixed[i]
                if old is None:
                    old = mixed[i] = _mixed(i, state[i])
                e = positions[i].get(v)
                if e is not None and (e[0] is v or not checked[i] or same_kinds(e[0], v)):
                    h ^= old ^ e[1]
                else:
                    h ^= old ^ _new_mixed(i, v)
        return h or 1


def successor_keys(n: int, skip: bool = False):
    """keys(state, fp, buf, counts) -> (successors, their fingerprints, their action indices,
    how many successors) for states of n variables, from the buffer of an expansion (an int
    announces the action whose successors follow); counts[i] += successors of action i. With
    `skip`, keys(state, fp, buf, counts, a, b) leaves out the successors whose fingerprint is
    in set a or set b (known duplicates), and only counts them.
    Code made for n: a loop over the variables costs more than the rest of the work, unrolled
    it is a tuple unpack."""
    checked = tuple(_checked[:n]) + (True,) * (n - len(_checked))
    f = _keyers.get((n, skip, checked))
    if f is None:
        f = _keyers[n, skip, checked] = _make_keyer(n, skip, checked)
    return f


_keyers: dict = {}


def _make_keyer(n: int, skip: bool, checked: tuple):
    ps = "".join(f"p{i}, " for i in range(n))
    vs = "".join(f"v{i}, " for i in range(n))
    ds = "".join(f"d{i}, " for i in range(n))
    lines = [
        f"def keys(state, fp, buf, counts{', a_, b_' if skip else ''}):",
        "    h0 = fp if fp != 1 else _raw(state)",
        "    while len(_positions) < n:",
        "        _positions.append({})",
        "    while len(_checked) < n:",
        "        _checked.append(True)",
    ]
    if n:
        lines += [f"    {ps}= state", f"    {ds}= _positions[:n]",
                  "    " + " = ".join(f"m{i}" for i in range(n)) + " = None"]
    lines += [
        "    succs, fps, ais = [], [], []",
        "    a = -1",
        "    total = 0",
        "    for succ in buf:",
        "        if type(succ) is int:",
        "            a = succ",
        "            continue",
        "        counts[a] += 1",
        "        total += 1",
    ]
    if n:
        lines.append(f"        {vs}= succ")
    lines.append("        h = h0")
    for i in range(n):
        hit = f"(x[0] is v{i} or _same(x[0], v{i}))" if checked[i] else "True"
        lines += [
            f"        if v{i} is not p{i}:",
            f"            if m{i} is None:",
            f"                m{i} = _mixed({i}, p{i})",
            f"            x = d{i}.get(v{i})",
            f"            if x is not None and {hit}:",
            f"                h ^= m{i} ^ x[1]",
            "            else:",
            f"                h ^= m{i} ^ _new_mixed({i}, v{i})",
        ]
    lines.append("        h = h or 1")
    if skip:
        lines += ["        if h in a_ or h in b_:", "            continue"]
    lines += ["        succs.append(succ)", "        ais.append(a)", "        fps.append(h)",
              "    return succs, fps, ais, total"]
    env = {"_raw": _raw, "_positions": _positions, "_mixed": _mixed, "_new_mixed": _new_mixed,
           "_same": same_kinds, "n": n, "_checked": _checked}
    exec("\n".join(lines) + "\n", env)  # noqa: S102 - code built here from n alone
    return env["keys"]


def _raw(state: tuple) -> int:
    h = 0
    for i, v in enumerate(state):
        h ^= _mixed(i, v)
    return h


_pair = struct.Struct("<QQ").pack


def _fp(v) -> int:
    t = type(v)
    if t is int:
        f = _ints.get(v)
        if f is None:
            if len(_ints) >= _CACHE_LIMIT:
                _ints.clear()
            f = _ints[v] = _xxh(b"i" + str(v).encode())
        return f
    if t is str:
        f = _strs.get(v)
        if f is None:
            if len(_strs) >= _CACHE_LIMIT:
                _strs.clear()
            f = _strs[v] = _xxh(b"s" + v.encode("utf-8"))
        return f
    if t is bool:
        return _TRUE if v else _FALSE
    if t is ModelValue:
        f = _mvs.get(v)
        if f is None:
            f = _mvs[v] = _xxh(b"m" + v.name.encode("utf-8"))
        return f
    e = _cache.get(id(v))
    if e is not None and e[0] is v:
        return e[1]
    e = _by_value.get(v)
    if e is not None and (e[0] is v or same_kinds(e[0], v)):
        f = e[1]
        if len(_cache) >= _CACHE_LIMIT:
            _cache.clear()
        _cache[id(v)] = (v, f)
        return f
    if t is tuple:
        n = len(v)
        f = _xxh(_packer(n + 2)(_SEQ, n, *[_fp(x) for x in v]))
    elif t is Fn:
        keys, vals = v
        n = len(keys)
        pairs = sorted(zip([_fp(k) for k in keys], [_fp(x) for x in vals], strict=True))
        f = _xxh(_packer(2 * n + 2)(_FN, n, *[x for p in pairs for x in p]))
    elif t is frozenset:
        n = len(v)
        f = _xxh(_packer(n + 2)(_SET, n, *sorted([_fp(x) for x in v])))
    elif isinstance(v, LazySet):
        return _fp(as_set(v))
    else:
        raise TypeError(f"cannot fingerprint {v!r}")
    if len(_cache) >= _CACHE_LIMIT:
        _cache.clear()
    _cache[id(v)] = (v, f)
    if len(_by_value) >= _CACHE_LIMIT:
        _by_value.clear()
    _by_value[v] = (v, f)
    return f


def key_function(view=None, checked=None):
    """The visited key of a search's states, starting from empty tables (see `clear`): the
    state's fingerprint, or, with SYMMETRY or VIEW (`view`), that of the state's view (with
    SYMMETRY alone, a state: fingerprinted as one, variable by variable).
    `checked` (per variable, see Model.kind_checked; None: all) says which variables' hits
    need the kind check."""
    clear()
    if checked is not None:
        _checked.extend(checked)
    if view is None:
        return state_fingerprint
    if getattr(view, "view_fn", True) is None:  # SYMMETRY alone: the key is a state
        return lambda s: state_fingerprint(view(s))
    projection = getattr(view, "projection", None)
    if projection is not None:  # VIEW <<x, y>>: the state's key over those variables only
        return _projection_key(projection)
    return lambda s: fingerprint(view(s))


def _projection_key(indices: tuple):
    """The key of a VIEW that is a tuple of variables: state_fingerprint over just those
    (distinct) variables, each remembered per variable as for whole states, instead of the
    fingerprint of a fresh tuple of them (hashed whole, kinds compared whole, every time).
    Equal views give equal keys: the view determines exactly those variables' values."""
    terms = " ^ ".join(f"_mixed({i}, s[{i}])" for i in indices) or "0"
    env = {"_mixed": _mixed}
    exec(f"def key(s):\n    return ({terms}) or 1\n", env)  # noqa: S102 - from ints alone
    return env["key"]


def clear() -> None:
    """Forget remembered fingerprints (they hold their values alive)."""
    _cache.clear()
    _by_value.clear()
    _ints.clear()
    _strs.clear()
    _mvs.clear()
    _positions.clear()
    _checked.clear()
