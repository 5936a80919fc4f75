"""The helpers that generated code calls besides the value operators of runtime.py: lazy LET
values and recursive functions, nested EXCEPT paths, TLC's TLCGet/TLCSet/RandomElement/PrintT,
ENABLED's stop at the first successor, and the run's settings that TLCGet reports. The
compiler puts them into the namespace of the code it generates, under the names that code uses."""
from __future__ import annotations

from pathlib import Path

from . import runtime
from .values import EvalError, UnknownUsed, make_fn, show


class _Unset:
    """A Lazy's value before it is first computed (any TLA+ value, even None, may follow)."""

    __slots__ = ()

    def __repr__(self):
        return "<unset>"


UNSET = _Unset()


class Lazy:
    """A LET definition's value: computed on first use, then remembered."""

    __slots__ = ("make", "value")

    def __init__(self, make):
        self.make = make
        self.value = UNSET

    def get(self):
        if self.value is UNSET:
            self.value = self.make()
        return self.value


class SelfStep:
    """A step predicate A(s, t) evaluated on the stuttering step s -> s, remembered for the
    last state: an action property checks every successor of a state one after another, and
    where a successor keeps every variable A reads primed, A's value is this one."""

    __slots__ = ("fn", "state", "value")

    def __init__(self, fn):
        self.fn = fn
        self.state = None
        self.value = None

    def __call__(self, s):
        if s is not self.state:
            self.value = self.fn(s, s)
            self.state = s  # kept alive, so no other state can take its identity
        return self.value


class SuccessorMemo:
    """The successors of the action instances that read only some variables, remembered per
    objects of those variables: a state whose read variables hold the very objects of a state
    expanded before has the same successors but for the variables the action leaves alone.
    The remembered values are shared by equality per variable (one object per value), so that
    states reached along different paths hold the same objects and the look-up by identity
    finds them; only variables whose values cannot be equal in Python but not in TLA+ (see
    kinds.py) are shared. At most LIMIT states' worth are kept; then everything is dropped."""

    LIMIT = 300_000  # about 150 MB
    # A group whose look-ups miss more often than this over WINDOW expansions (the first
    # window aside: everything misses at first) is switched off: remembering costs more than
    # it saves where the read variables differ from state to state.
    MISS_RATE = 0.5
    WINDOW = 1 << 14

    def __init__(self, shareable: tuple, namespace: dict):
        self.shared = [({} if ok else None) for ok in shareable]  # per variable: value -> it
        self.caches: list[dict] = []
        self.misses: list[int] = []  # per group, in its current window
        self.window: list[int] = []  # per group, `expanded` when its window began
        self.warm: list[bool] = []
        self.namespace = namespace  # the generated code's, where each group's switch is
        self.switches: list[str] = []
        self.expanded = 0  # states expanded (the generated code counts them)
        self.size = 0

    def new_cache(self, switch: str) -> dict:
        """One group's (the actions that read the same variables): (ids of the read objects)
        -> [each action's successors or None, ..., the read objects]. `switch`: the name of
        the group's on/off flag in the generated code."""
        cache: dict = {}
        self.caches.append(cache)
        self.misses.append(0)
        self.window.append(0)
        self.warm.append(False)  # past its first window
        self.switches.append(switch)
        return cache

    def slots(self, group: int, cache: dict, key, s: tuple, reads: tuple, n: int) -> list:
        """A new entry for state s: n empty slots, then the read objects, which the entry
        keeps alive, so that no other object can take their identities."""
        entry = [None] * n
        entry.append(tuple([s[j] for j in reads]))
        missed = self.misses[group] = self.misses[group] + 1
        began = self.window[group]
        if self.expanded - began >= self.WINDOW:
            self.window[group] = self.expanded
            self.misses[group] = 0
            warm, self.warm[group] = self.warm[group], True
            if warm and missed > self.MISS_RATE * (self.expanded - began):
                self.namespace[self.switches[group]] = False  # this state's entry is the last
                cache.clear()
                return entry
        if self.size >= self.LIMIT:  # start afresh: every group misses again for a while
            for c in self.caches:
                c.clear()
            for table in self.shared:
                if table is not None:
                    table.clear()
            self.size = 0
            self.window = [self.expanded] * len(self.window)
            self.misses = [0] * len(self.misses)
            self.warm = [False] * len(self.warm)
        cache[key] = entry
        self.size += 1
        return entry

    def keep(self, found: list) -> tuple:
        """The successors `found` ([(successor, variables it sets)]) as remembered:
        ((variables set, their values), ...), values shared by equality where allowed."""
        if not found:
            return ()
        shared = self.shared
        out = []
        for t, sets in found:
            vals = []
            for j in sets:
                v = t[j]
                table = shared[j]
                if table is not None:
                    w = table.setdefault(v, v)
                    if type(w) is type(v):  # a second guard against kinds Python equates
                        v = w
                vals.append(v)
            out.append((sets, tuple(vals)))
        return tuple(out)


def patch_state(s: tuple, sets: tuple, vals: tuple) -> tuple:
    """s with the variables at positions `sets` given `vals`."""
    t = list(s)
    for j, v in zip(sets, vals):  # noqa: B905 - equal lengths
        t[j] = v
    return tuple(t)


class LazyFn(runtime.LazySet):
    """f[x \\in S] == body: applied point-wise (so recursion terminates), built on demand."""

    finite = True
    function = True

    def __init__(self, domain, body):
        self.domain = domain
        self.body = body
        self.cache = {}
        self._full = None

    def __call__(self, x):
        return self.apply(x)

    def apply(self, x):
        if x in self.cache:
            return self.cache[x]
        if x not in self.domain:
            raise EvalError(f"Attempted to apply the recursively defined function to {show(x)}, "
                            f"which is not in its domain.")
        v = self.body(self, x)
        self.cache[x] = v
        return v

    def full(self):
        if self._full is None:
            cache, body = self.cache, self.body
            keys = _domain_keys(self.domain)
            vals = []
            for k in keys:  # every key is in the domain: no membership test
                v = cache[k] if k in cache else cache.setdefault(k, body(self, k))
                vals.append(v)
            self._full = runtime.fn_from_ordered(keys, tuple(vals))
        return self._full

    def __eq__(self, other):
        return self.full() == (other.full() if isinstance(other, LazyFn) else other)

    def __hash__(self):
        return hash(self.full())

    def __repr__(self):
        return show(self.full())


_DOMAIN_KEYS: dict = {}  # id(domain) -> (domain, its elements in TLC's order)


def _domain_keys(domain) -> tuple:
    """A recursive function's domain in TLC's order, listed once per domain object (the
    definition's domain is usually a constant, and a new LazyFn is made per state)."""
    e = _DOMAIN_KEYS.get(id(domain))
    if e is not None and e[0] is domain:
        return e[1]
    keys = tuple(runtime.ordered(runtime.as_set(domain)))
    if len(_DOMAIN_KEYS) >= 1024:
        _DOMAIN_KEYS.clear()
    _DOMAIN_KEYS[id(domain)] = (domain, keys)
    return keys


def fix(make):
    """A recursive LET operator outside an action: make(self) builds the operator's lambda
    from a stand-in that calls the finished operator."""
    cell = []
    op = make(lambda *args: cell[0](*args))
    cell.append(op)
    return op


def fcall(f, x):
    """f[x] where f may be a recursive function definition (applied point-wise)."""
    return f.apply(x) if isinstance(f, LazyFn) else runtime.app(f, x)


def except_path(f, keys, fun, value=None):
    """[f EXCEPT ![k1][k2]... = v]; `fun`, if given, computes v from the old value (`@`)."""
    k = keys[0]
    if len(keys) == 1:
        return runtime.except_(f, k, value) if fun is None else except_at(f, k, fun)
    if len(keys) == 2:
        return except2(f, k, keys[1], fun, value)
    try:
        inner = runtime.app(f, k)
    except EvalError:
        return f
    return runtime.except_(f, k, except_path(inner, keys[1:], fun, value))


def except2(f, k1, k2, fun, value=None):
    """[f EXCEPT ![k1][k2] = v]: except_path for two keys, unrolled (nested updates are most
    of a network's or a per-broker table's); `fun`, if given, computes v from `@`."""
    try:
        inner = runtime.app(f, k1)
    except EvalError:
        return f
    if fun is None:
        return runtime.except_(f, k1, runtime.except_(inner, k2, value))
    try:
        old = runtime.app(inner, k2)
    except EvalError:
        return runtime.except_(f, k1, inner)
    return runtime.except_(f, k1, runtime.except_(inner, k2, fun(old)))


def except_at(f, k, fun):
    """[f EXCEPT ![k] = fun(@)]: except_path for one key, unrolled."""
    try:
        old = runtime.app(f, k)
    except EvalError:
        return f
    return runtime.except_(f, k, fun(old))


def unassigned(name: str):
    """Reading a primed variable (or, in Init, a variable) before a conjunct assigns it."""
    raise EvalError(f"The variable {name} was used before it was assigned a value.")


def case_fail(span):
    """A CASE without OTHER whose conditions are all false: TLC's error."""
    raise EvalError("Attempted to evaluate a CASE with no conditions true.",
                    span[1] if isinstance(span, tuple) else span)


def print_t(v):
    """TLC's PrintT: print v, be TRUE."""
    print(show(v), flush=True)
    return True


# What TLCGet("config") and TLCGet("stats") report: the run's settings (set when the model is
# built and the search starts) and, once the search is over, its statistics.
RUN: dict = {"deadlock": True, "workers": 1, "stats": None, "live": None}
_STATS = ("queue", "distinct", "generated", "diameter", "duration")


def _run_config():
    """TLC's record for a breadth-first model check; kipcheck's search is deterministic (seed
    0) and fingerprints states with xxHash3-64."""
    return make_fn([("mode", "bfs"), ("deadlock", bool(RUN["deadlock"])),
                    ("worker", RUN["workers"]), ("seed", "0"), ("fingerprint", "xxh3-64"),
                    ("install", str(Path(__file__).resolve().parent.parent))])


# TLCGet("-Dprop"): the Java system properties of TLC's that kipcheck's behaviour matches.
_TLC_PROPERTIES = {"-Dtlc2.tool.impl.Tool.cdot": "true"}  # action composition A \cdot B


def tlc_get(key):
    """TLC's TLCGet: a register, the level, the run's configuration or statistics."""
    if key in _TLC_PROPERTIES:
        return _TLC_PROPERTIES[key]
    if key == "level":
        return LEVEL[0]
    if key == "config":
        return _run_config()
    stats = RUN["stats"]
    if stats is None and RUN["live"] is not None:  # during the search: its counts so far
        stats = RUN["live"]()
    if stats is not None and (key == "stats" or key in _STATS):
        return make_fn(stats.items()) if key == "stats" else stats[key]
    if key in runtime.TLC_REGISTERS:
        return runtime.TLC_REGISTERS[key]
    if key == "stats" or key in _STATS:
        raise EvalError(f"TLCGet({show(key)}) is only supported after the search, in a "
                        f"POSTCONDITION")
    raise EvalError(f"TLCGet({show(key)}) is not supported")


def tlc_set(key, value):
    """TLC's TLCSet: set a register (a nonnegative integer; "exit" and "pause" are TLC's
    commands), be TRUE. Any other key is TLC's error, not a register of its own."""
    if not (type(key) is int and key >= 0 or key == "exit" or key == "pause"):
        raise EvalError("The first argument of TLCSet should be a nonnegative integer, but "
                        f"instead it is:\n{show(key)}")
    if key == "exit" and value is True:
        live = RUN["live"]  # a search spread over processes gives backends.CountsRefused
        refused = live() if live is not None else None
        if hasattr(refused, "how"):
            raise EvalError(f'TLCSet("exit", TRUE) is not supported during a search '
                            f'{refused.how}: where it stops would depend on how '
                            f'{refused.why} interleave; check this model with {refused.instead}')
        runtime.EXIT_REQUESTED[0] = True
    runtime.TLC_REGISTERS[key] = value
    return True


def random_element(s):
    """TLC's RandomElement: an element of s, drawn from Python's global random generator
    (seeded by a simulation)."""
    import random

    elems = runtime.ordered(runtime.as_set(s))
    if not elems:
        raise EvalError("RandomElement of the empty set")
    return random.choice(elems)


class AnySet(runtime.LazySet):
    """TLC's Any: the set that contains every value."""

    def __contains__(self, x):
        return True

    def __repr__(self):
        return "Any"


ANY = AnySet()
LEVEL = [0]  # what TLCGet("level") reports; model.py sets it


UNDECIDED_ENABLED = ("kipcheck cannot decide ENABLED here: the action reads the next value of a "
                     "variable before it assigns it (TLC stops too: the variable is undefined in "
                     "the next state ENABLED builds).")


class _Enabled(Exception):
    """Raised by ENABLED's generator at its first successor."""


def _stop_enabled(_t):
    raise _Enabled


def run_enabled(fn, s, *args) -> bool:
    """ENABLED A in state s: does A's generator fn reach a successor? Bound names the
    enclosing expression passes to A are args."""
    try:
        fn(s, _stop_enabled, *args)
    except _Enabled:
        return True
    except UnknownUsed:
        raise EvalError(UNDECIDED_ENABLED) from None
    return False
