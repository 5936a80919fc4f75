"""TLA+ values as canonical, immutable, hashable Python objects.

One Python form per mathematical value, so that equal values are `==` and hash alike:

    BOOLEAN         bool
    integers        int
    strings         str
    model values    ModelValue (interned; equal only to themselves)
    finite sets     frozenset (enumerated in TLC's order by `ordered`)
    sequences       tuple: every function whose domain is 1..n, including the empty function
    other functions Fn: a (keys, values) pair, keys in TLC's order; records are Fns whose keys
                    are strings, so [a |-> 1] equals [x \\in {"a"} |-> 1]
    infinite sets   Nat, Int, STRING, Seq(S), SUBSET S, [S -> T], ... as lazy objects that
                    answer membership and, where finite, enumerate on demand

TLC orders values (for CHOOSE, for enumerating sets, for printing) by kind and then: integers
numerically, strings and model values by the order TLC first interned their text, sets by size
then element-wise, functions by domain size, then domain, then values. `tlc_key` gives a Python
sort key with exactly that order.
"""
from __future__ import annotations

import itertools
import operator
import sys

# Integers are unbounded; printing one must not stop at Python's 4,300-digit guard.
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)


class EvalError(Exception):
    """A TLA+ evaluation error (TLC's exit 75); the compiler attaches the expression's span."""

    def __init__(self, message: str, span=None):
        super().__init__(message)
        self.message = message
        self.span = span


# ---------------------------------------------------------------------------------------------
# Interning order of strings and model values (TLC compares both by intern order)

_INTERN: dict[str, int] = {}


def reset_interning() -> None:
    """Start a new model's intern order (TLC's order is per run, not per process)."""
    _INTERN.clear()
    _SET_KEYS.clear()
    _FN_KEYS.clear()
    _ORDERED.clear()


def interning() -> dict[str, int]:
    """A copy of the intern order, to be put back with `restore_interning`."""
    return dict(_INTERN)


def restore_interning(order: dict[str, int]) -> None:
    """Put back a model's intern order (a process that switches between models, a Spark
    executor, must order each model's strings and model values by that model's order); the
    cached ordering keys were computed under the other order."""
    _INTERN.clear()
    _INTERN.update(order)
    _SET_KEYS.clear()
    _FN_KEYS.clear()
    _ORDERED.clear()


def intern_names(names) -> None:
    """Record names in the order TLC would intern them; already-known names keep their place."""
    for n in names:
        if n not in _INTERN:
            _INTERN[n] = len(_INTERN)


def intern_index(name: str) -> int:
    i = _INTERN.get(name)
    if i is None:
        i = _INTERN[name] = len(_INTERN)
    return i


_MV_BASE = 1 << 62  # model values are ints far beyond anything a spec computes
# Does the model hold a typed model value (see ModelValue.typed)? Only then do comparisons
# look for one, so models without any pay nothing. model.build sets it from the .cfg's values;
# a typed model value made later (TLCModelValue) sets it too.
TYPED_MODEL_VALUES = [False]


def typed_name(name: str) -> bool:
    return len(name) > 2 and name[1] == "_"


def typed_clash(a, b) -> EvalError | None:
    """TLC's error for comparing a with b when one is a typed model value that cannot be
    compared with the other (a value that is no model value, or one of another type)."""
    ta = a.typed if type(a) is ModelValue else None
    tb = b.typed if type(b) is ModelValue else None
    if ta is None and tb is None:
        return None
    if ta is not None and tb is not None:
        if ta and tb and ta != tb:
            return EvalError(f"Attempted to check equality of the differently-typed model "
                             f"values {a.name} and {b.name}")
        return None
    if ta:
        return EvalError(f"Attempted to check equality of typed model value {a.name} and "
                         f"non-model value\n{show(b)}")
    if tb:
        return EvalError(f"Attempted to check equality of the typed model value {b.name} and "
                         f"the non-model value\n{show(a)}")
    return None


class ModelValue(int):
    """A model value from the .cfg: equal only to itself, unequal to every other value.

    An int subclass with a unique huge value, so hashing and equality run at C speed (states
    full of model values hash fast); `type(v) is int` stays false for it everywhere.
    """

    __slots__ = ()
    _table: dict[str, ModelValue] = {}
    _names: dict[int, str] = {}

    def __new__(cls, name: str) -> ModelValue:
        mv = cls._table.get(name)
        if mv is None:
            mv = cls._table[name] = int.__new__(cls, _MV_BASE + len(cls._table))
            cls._names[int(mv)] = name
            intern_index(name)
            if typed_name(name):
                TYPED_MODEL_VALUES[0] = True
        return mv

    @property
    def name(self) -> str:
        return ModelValue._names[int(self)]

    @property
    def typed(self) -> str:
        """TLC's type of a model value named "x_rest" (any character x, a longer name): x;
        "" for an untyped one. A typed model value may be compared only with model values of
        its type or untyped ones; anything else is TLC's error."""
        name = self.name
        return name[0] if typed_name(name) else ""

    @property
    def order(self) -> int:
        return intern_index(self.name)

    def __repr__(self) -> str:
        return self.name

    __str__ = __repr__

    def __reduce__(self):
        return (ModelValue, (self.name,))

    # A model value is no number: arithmetic and ordering on it are TLC's errors. (Python
    # tries these first, before int's, even with the model value on the right.)
    def _not_a_number(self, *other):
        raise EvalError(f"Attempted to use the model value {self.name} as an integer, in an "
                        f"arithmetic operator or an ordering comparison.")

    __add__ = __sub__ = __mul__ = __floordiv__ = __mod__ = __pow__ = _not_a_number
    __radd__ = __rsub__ = __rmul__ = __rfloordiv__ = __rmod__ = __rpow__ = _not_a_number
    __neg__ = _not_a_number
    # No ordering methods: defining any rich comparison in Python makes every `==` on a model
    # value go through Python (tuple.index over model-value keys ran 4x slower). Ordering is
    # never applied to values directly: lt/le/gt/ge and sorting by tlc_key check kinds first.


class Fn(tuple):
    """A function that is not a sequence: (keys, values), keys sorted in TLC's order.

    A tuple subclass so that hashing and equality run at C speed. Build with `make_fn`.
    """

    __slots__ = ()

    @property
    def keys(self) -> tuple:
        return tuple.__getitem__(self, 0)

    @property
    def vals(self) -> tuple:
        return tuple.__getitem__(self, 1)

    def __repr__(self) -> str:
        return show(self)


def make_fn(pairs) -> tuple | Fn:
    """The canonical function with the given (key, value) pairs (keys distinct)."""
    pairs = list(pairs)
    n = len(pairs)
    if n == 0:
        return ()
    keys = [k for k, _ in pairs]
    order = _order_key(keys)
    if order is None:  # integer keys
        pairs.sort(key=_first)
        if pairs[0][0] == 1 and pairs[-1][0] == n:
            return tuple([v for _, v in pairs])
    else:
        pairs.sort(key=lambda kv: order(kv[0]))
    return Fn((tuple([k for k, _ in pairs]), tuple([v for _, v in pairs])))


def fn_from_ordered(keys: tuple, vals: tuple) -> tuple | Fn:
    """The function with keys already in TLC's order (and distinct)."""
    n = len(keys)
    if n == 0:
        return ()
    if type(keys[0]) is int and keys[0] == 1 and keys[-1] == n and all(
            type(k) is int for k in keys):
        return tuple(vals)
    return Fn((keys, tuple(vals)))


def _first(kv):
    return kv[0]


# ---------------------------------------------------------------------------------------------
# Lazy (possibly infinite) sets


# Python finds 1 in {TRUE, FALSE}, TRUE in {0, 1} and <<1>> in {<<TRUE>>}: its == holds between
# a Boolean and 0 or 1, and between a function and the pair of its keys and values. TLC
# compares kinds, so x \in S must be kind-exact. Runtime (which knows TLC's errors for kinds
# that cannot be compared) installs the check of a found x here.
KIND_CHECK: list = [None]  # [f(x, s)]: x, found in the frozenset s, has an element's kind
# [f(s, x)]: False, or TLC's error where its test of x \in s fails instead of answering FALSE
# (x not of the kind of s's elements, a part of x of another kind than the set it is tested
# in): what the lazy sets of functions, records, tuples, sequences and subsets answer for a
# value they do not hold. Set by runtime, which knows TLC's comparisons. Only a membership
# test from outside calls it (`in`, contains_since): the sets test their parts with the plain
# tests (_test, _since), and f walks the parts itself.
ABSENCE_CHECK: list = [lambda s, x: False]


def unmistakable(x) -> bool:
    """Is x equal (in Python) only to values of its own kind: a string, a model value, or an
    integer other than 0 and 1?"""
    t = type(x)
    return t is str or t is ModelValue or (t is int and not 0 <= x <= 1)


def same_kinds(a, b) -> bool:
    """For Python-equal a and b: are they the same TLA+ value, kind for kind? Python has
    TRUE == 1 (and a function equals the pair of its key and value tuples). The walk stops at
    parts that are the same object, the common case; it runs on every by-value cache hit, so
    it calls itself only for compound parts that differ."""
    if a is b:
        return True
    t = type(a)
    if t is not type(b):
        return False
    if t is Fn:
        ka, va = a
        kb, vb = b
        return (ka is kb or _same_parts(ka, kb)) and (va is vb or _same_parts(va, vb))
    if t is tuple:
        return _same_parts(a, b)
    if t is frozenset:
        if not a:
            return True
        mine = {e: e for e in b}
        return all([same_kinds(e, mine[e]) for e in a])
    return True


def _same_parts(a: tuple, b: tuple) -> bool:
    for x, y in zip(a, b, strict=True):
        if x is not y:
            t = type(x)
            if t is not type(y):
                return False
            if (t is Fn or t is tuple or t is frozenset) and not same_kinds(x, y):
                return False
    return True


def has(s, x) -> bool:
    """x \\in s, kind for kind (see KIND_CHECK): a string, a model value or an integer other
    than 0 and 1 equals only values of its own kind, so only the others are checked."""
    if x in s:
        if type(s) is not frozenset:
            return True  # a lazy set's own test compares kinds
        t = type(x)  # unmistakable(x), inline: this runs for every membership test
        if t is str or t is ModelValue or (t is int and not 0 <= x <= 1):
            return True
        return KIND_CHECK[0](x, s)
    return False


def member_test(s):
    """The fastest kind-exact test `x \\in s` for a set that does not change (a part of
    [S -> T], [a : S], S \\X T, Seq(S), SUBSET S): a lazy set's own test, or Python's `in`
    when no element of s can equal a value of another kind, else `has`."""
    if type(s) is not frozenset:
        return getattr(s, "_test", s.__contains__)  # (see ABSENCE_CHECK)
    kinds = frozenset(map(type, s))
    if all(map(unmistakable, s)):
        return s.__contains__  # an equal string, model value or other integer is one
    if kinds == _INTS or kinds == _BOOLS:
        return _OfKind(s, next(iter(kinds)))
    return _KindExact(s)


_BUILTIN = type(frozenset().__contains__)  # a set's own `in` (see member_test)


def gained(x: frozenset, old: frozenset) -> list:
    """The elements of x that are not elements of old, by identity (`old \\cup {e}` and
    `old \\ {e}` keep old's element objects): what a check that held on old must look at."""
    before = set(map(id, old))
    return [v for v in x if id(v) not in before]


_INTS = frozenset((int,))
_BOOLS = frozenset((bool,))


class _OfKind:
    """`has` for a set of integers only or of Booleans only: an equal value of that kind
    is a member; one of another kind (TRUE found in {0, 1}) goes the slow way."""

    __slots__ = ("s", "kind")

    def __init__(self, s, kind):
        self.s, self.kind = s, kind

    def __call__(self, x) -> bool:
        if x in self.s:
            return type(x) is self.kind or has(self.s, x)
        return False


class _KindExact:
    """`has` bound to one set (a class, not a lambda, so that the lazy sets that keep it can
    be pickled: they travel to worker processes inside states)."""

    __slots__ = ("s",)

    def __init__(self, s):
        self.s = s

    def __call__(self, x) -> bool:
        return has(self.s, x)


class LazySet:
    """A set known by its membership test; `finite` ones also enumerate in TLC's order."""

    finite = False
    function = False  # a recursively defined function is lazy like a set (see is_set)

    def __contains__(self, x) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError

    def __iter__(self):
        raise EvalError(self.not_enumerable())

    def not_enumerable(self) -> str:
        return f"TLC cannot enumerate the infinite set {self!r}"

    def __len__(self):
        return sum(1 for _ in self)

    def materialise(self) -> frozenset:
        # Kept: a lazy set stored in a state is hashed for every state that holds it.
        whole = getattr(self, "_whole", None)
        if whole is None:
            whole = frozenset(iter(self))
            try:
                self._whole = whole
            except AttributeError:  # a subclass with __slots__
                pass
        return whole

    def __eq__(self, other):
        if isinstance(other, (frozenset, LazySet)):
            return self.materialise() == as_set(other)
        return False

    def __hash__(self):
        if not self.finite:  # in a set literal ({[S -> Nat]}) that UNION only tests
            return hash(repr(self))
        return hash(self.materialise())


def infinite(v) -> bool:
    """Is v a set TLC can only test for membership (Nat, [S -> Int], Seq(S), ...)?"""
    return isinstance(v, LazySet) and not v.finite


class Union(LazySet):
    """S \\cup T, or UNION of a finite set of sets, when a part is infinite: membership only,
    as TLC's (x is in the union when some part has it)."""

    def __init__(self, parts, shown: str):
        self.parts, self.shown = tuple(parts), shown

    def __contains__(self, x) -> bool:
        return any(has(p, x) for p in self.parts)

    def __repr__(self) -> str:
        return self.shown


class Intersection(LazySet):
    """S \\cap T of two infinite sets: membership only."""

    def __init__(self, left, right):
        self.left, self.right = left, right

    def __contains__(self, x) -> bool:
        return has(self.left, x) and has(self.right, x)

    def __repr__(self) -> str:
        return f"{show(self.left)} \\cap {show(self.right)}"


class _Named(LazySet):
    def __init__(self, name, test):
        self.name, self.test = name, test

    def __contains__(self, x) -> bool:
        return self.test(x)

    def __repr__(self) -> str:
        return self.name

    def __eq__(self, other):
        return self is other

    def __hash__(self):
        return hash(self.name)


class Difference(LazySet):
    """S \\ T for an infinite S (`Nat \\ {0}`): membership only."""

    def __init__(self, left, right):
        self.left, self.right = left, right

    def __contains__(self, x) -> bool:
        return has(self.left, x) and not has(self.right, x)

    def __repr__(self) -> str:
        return f"{self.left!r} \\ {self.right!r}"


class UnknownUsed(EvalError):
    """A value nobody knows was needed (see UNKNOWN)."""

    def __init__(self):
        super().__init__("ENABLED needed the value of a variable its action leaves free")


class _Unknown:
    """The primed value of a variable an action leaves unassigned, in ENABLED: any value
    would do, so any use of it raises UnknownUsed and the caller decides another way."""

    def _fail(self, *args):
        raise UnknownUsed

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __hash__ = __len__ = _fail
    __iter__ = __getitem__ = __contains__ = __bool__ = __add__ = __sub__ = __mul__ = _fail
    __floordiv__ = __mod__ = __neg__ = __radd__ = __rsub__ = __rmul__ = __index__ = _fail
    __int__ = _fail

    def __repr__(self) -> str:
        return "<unknown>"


UNKNOWN = _Unknown()


class _Null:
    """The value TLC shows (`null`) for a variable a successor state leaves unassigned: such
    a state ends the counterexample of a "not completely specified" error, nowhere else."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "null"

    def __reduce__(self):  # still the one NULL after a trip through pickle
        return "NULL"


NULL = _Null()


class NotAssigned(EvalError):
    """A successor state in which an action left variables unassigned. It carries that
    state (`NULL` in each unassigned variable) so the counterexample can end with it, as
    TLC's does; the engine words the message, which names the action when Next has several."""

    def __init__(self, state: tuple, missing, span=None, initial: bool = False):
        self.state, self.missing = state, tuple(sorted(missing))
        self.initial = initial  # left so by Init (TLC: "current state is not a legal state")
        self.action = None  # the engine's action that made it, set by whoever knows it
        super().__init__(self.worded(None), span)

    def worded(self, action: str | None) -> str:
        """TLC's message; `action` only when Next was split into several actions. For Init,
        TLC's "current state is not a legal state" says less than this, which names the
        variables the same way."""
        by = ("the next-state action" if action is None
              else f"action {action} of the next-state relation")
        which = "variables are" if len(self.missing) > 1 else "variable is"
        what = ("Initial state is not completely specified by the initial predicate"
                if self.initial else f"Successor state is not completely specified by {by}")
        return f"{what}. The following {which} not assigned: {', '.join(self.missing)}."


def _of_kind(name: str, kind: type, test=None):
    """The membership test of Nat, Int or STRING: a value of another kind is TLC's error
    (`"a" \\in Nat` is not FALSE: TLC cannot compare a string with integers), but for a model
    value, which TLC finds in none of them (`NULL \\in Int \\cup {NULL}`)."""
    def member(x) -> bool:
        if type(x) is kind:
            return test is None or test(x)
        if type(x) is ModelValue:  # a model value is unequal to every other value, no error
            return False
        if x is UNKNOWN:
            raise UnknownUsed
        raise EvalError(f"Attempted to check if the value:\n{show(x)}\nis an element of "
                        f"{name}.")
    return member


NAT = _Named("Nat", _of_kind("Nat", int, lambda x: x >= 0))
INT = _Named("Int", _of_kind("Int", int))
STRING = _Named("STRING", _of_kind("STRING", str))
REAL = _Named("Real", lambda x: type(x) is int)
BOOLEAN = frozenset((False, True))


# TLC's integers are 32-bit, so no set it enumerates or counts has more elements than this.
ENUMERATION_LIMIT = 2**31 - 1


class Interval(LazySet):
    """a..b when it is too large to list: membership and cardinality without building it
    (TLC answers `x \\in 0..10^9` and `Cardinality(1..10^9)` at once); enumerates in order."""

    finite = True

    def __init__(self, lo: int, hi: int):
        self.lo, self.hi = lo, hi

    def __contains__(self, x) -> bool:
        return type(x) is int and self.lo <= x <= self.hi

    def __len__(self):
        n = max(0, self.hi - self.lo + 1)
        if n > ENUMERATION_LIMIT:  # len() could not even return it (a Python OverflowError)
            raise EvalError(f"The set {self!r} has {n} elements, more than TLC can handle "
                            f"({ENUMERATION_LIMIT}).")
        return n

    def __iter__(self):
        len(self)  # refuse a set too large to list before starting to list it
        return iter(range(self.lo, self.hi + 1))

    def __repr__(self) -> str:
        return f"{self.lo}..{self.hi}"


class SeqSet(LazySet):
    def __init__(self, base):
        self.base = a_set(base)
        self._has = member_test(base)

    def __contains__(self, x) -> bool:
        return self._test(x) or ABSENCE_CHECK[0](self, x)

    def _test(self, x) -> bool:
        # a string is a sequence of one-letter strings to TLC ("ab" \\in Seq(STRING))
        return type(x) in (tuple, str) and all(map(self._has, x))

    def contains_since(self, x, old) -> bool:
        """x \\in Seq(S), knowing old \\in Seq(S): an element x shares with old at its
        position (Append, EXCEPT) was tested already."""
        return self._since(x, old) or ABSENCE_CHECK[0](self, x)

    def _since(self, x, old) -> bool:
        if type(x) is not tuple or type(old) is not tuple:
            return self._test(x)
        n, m = len(old), len(x)
        if m >= n and all(map(operator.is_, x[:n], old)):  # old with elements appended
            return all(map(self._has, x[n:]))
        if m < n and all(map(operator.is_, x, old[n - m:])):  # old without its head (Tail)
            return True
        has = self._has
        return all(i < n and v is old[i] or has(v) for i, v in enumerate(x))

    def __repr__(self) -> str:
        return f"Seq({show(self.base)})"


class PowerSet(LazySet):
    """SUBSET S: membership without building 2^|S| sets; enumerates by size, then elements."""

    def __init__(self, base):
        self.base = a_set(base)  # kept lazy: membership never needs it enumerated
        self.finite = not infinite(base)
        self._has = member_test(base)

    def __contains__(self, x) -> bool:
        return self._test(x) or ABSENCE_CHECK[0](self, x)

    def _test(self, x) -> bool:
        return type(x) is frozenset and all(map(self._has, x))

    def contains_since(self, x, old) -> bool:
        """x \\in SUBSET S, knowing old is: an element of x that is an element of old (the
        same object: `old \\cup {e}`, `old \\ {e}` keep them) was tested already. Where S's
        test is Python's own `in` (atoms), testing them all at C speed is cheaper."""
        return self._since(x, old) or ABSENCE_CHECK[0](self, x)

    def _since(self, x, old) -> bool:
        if type(x) is not frozenset or type(old) is not frozenset or not old \
                or type(self._has) is _BUILTIN:
            return self._test(x)
        return all(map(self._has, gained(x, old)))

    def __len__(self):
        return 2 ** len(as_set(self.base))

    def __iter__(self):
        elems = ordered(as_set(self.base))
        for k in range(len(elems) + 1):
            for combo in itertools.combinations(elems, k):
                yield frozenset(combo)

    def __repr__(self) -> str:
        return f"SUBSET {show(self.base)}"


class FuncSet(LazySet):
    """[S -> T]."""

    def __init__(self, domain, codomain):
        self.domain = as_set(domain)  # a function space's domain is always finite in TLC
        self.codomain = a_set(codomain)
        self.finite = not isinstance(codomain, LazySet) or codomain.finite
        self._keys = tuple(ordered(self.domain))  # the keys of every Fn in this set
        n = len(self._keys)  # a domain 1..n: its functions are the n-tuples
        self._seq_len = n if n and self._keys == tuple(range(1, n + 1)) and all(
            type(k) is int for k in self._keys) else None
        self._has = member_test(codomain)
        # Keys that Python equates with keys of another kind (FALSE and 0, TRUE and 1).
        self._kinds = tuple(map(type, self._keys)) if any(
            type(k) is bool or type(k) is int and 0 <= k <= 1 for k in self._keys) else None

    def __contains__(self, f) -> bool:
        return self._test(f) or ABSENCE_CHECK[0](self, f)

    def _test(self, f) -> bool:
        if type(f) is Fn:
            keys = tuple.__getitem__(f, 0)
            if keys != self._keys:
                return False
            if self._kinds is not None and tuple(map(type, keys)) != self._kinds:
                for k in keys:  # TLC's error where a key's kind differs from the domain's
                    has(self.domain, k)
                return False
            return all(map(self._has, tuple.__getitem__(f, 1)))
        if type(f) is tuple:
            if len(f) == self._seq_len:
                return all(map(self._has, f))
            keys, vals = range(1, len(f) + 1), f
            if len(self.domain) != len(f) or not all(has(self.domain, k) for k in keys):
                return False
        elif type(f) is Fn:
            keys, vals = f
            if len(keys) != len(self.domain) or not all(has(self.domain, k) for k in keys):
                return False
        else:
            return False
        return all(map(self._has, vals))

    def contains_since(self, f, old) -> bool:
        """f \\in [S -> T], knowing old \\in [S -> T]: where f has old's keys (the same
        tuple, as EXCEPT keeps it), only the values f does not share with old are tested."""
        return self._since(f, old) or ABSENCE_CHECK[0](self, f)

    def _since(self, f, old) -> bool:
        t = type(f)
        if t is Fn and type(old) is Fn and (
                tuple.__getitem__(f, 0) is tuple.__getitem__(old, 0) or self._kinds is None
                and tuple.__getitem__(f, 0) == tuple.__getitem__(old, 0) == self._keys):
            vals, before = tuple.__getitem__(f, 1), tuple.__getitem__(old, 1)
        elif t is tuple and type(old) is tuple and len(f) == len(old) == self._seq_len:
            vals, before = f, old
        else:
            return self._test(f)
        since = getattr(self.codomain, "_since", None)
        if since is None:
            has = self._has
            if type(has) is _BUILTIN:  # atoms: testing all at C speed beats skipping
                return all(map(has, vals))
            return all(v is w or has(v) for v, w in zip(vals, before))  # noqa: B905
        for v, w in zip(vals, before):  # noqa: B905 - equal lengths
            if v is not w and not since(v, w):
                return False
        return True

    def __len__(self):
        return len(as_set(self.codomain)) ** len(self.domain)

    def __iter__(self):
        keys = tuple(ordered(self.domain))
        vals = ordered(self.codomain)
        # TLC varies the last domain element fastest.
        for combo in itertools.product(vals, repeat=len(keys)):
            yield fn_from_ordered(keys, combo)

    def __repr__(self) -> str:
        return f"[{show(self.domain)} -> {show(self.codomain)}]"


class RecordSet(LazySet):
    """[a : S, b : T]."""

    def __init__(self, fields: dict):
        for v in fields.values():
            a_set(v)
        self.fields = fields
        self.finite = all(not isinstance(s, LazySet) or s.finite for s in fields.values())
        # A record's keys are in TLC's order (see Fn): a member has exactly these.
        self._names = tuple(sorted(fields, key=tlc_key))
        self._tests = tuple(member_test(fields[n]) for n in self._names)

    def __contains__(self, r) -> bool:
        return self._test(r) or ABSENCE_CHECK[0](self, r)

    def _test(self, r) -> bool:
        if type(r) is not Fn or tuple.__getitem__(r, 0) != self._names:
            return False
        for v, test in zip(tuple.__getitem__(r, 1), self._tests):  # noqa: B905 - equal lengths
            if not test(v):
                return False
        return True

    def contains_since(self, r, old) -> bool:
        """r \\in [a : S, ...], knowing old is: only the fields r does not share with old
        are tested."""
        return self._since(r, old) or ABSENCE_CHECK[0](self, r)

    def _since(self, r, old) -> bool:
        if type(r) is not Fn or type(old) is not Fn or (
                tuple.__getitem__(r, 0) is not tuple.__getitem__(old, 0)
                and not tuple.__getitem__(r, 0) == tuple.__getitem__(old, 0) == self._names):
            return self._test(r)  # (field names are strings: `==` is TLA+'s equality there)
        for v, w, test in zip(tuple.__getitem__(r, 1), tuple.__getitem__(old, 1),  # noqa: B905
                              self._tests):
            if v is not w and not test(v):
                return False
        return True

    def __iter__(self):
        names = self._names
        domains = [ordered(self.fields[n]) for n in names]
        for combo in itertools.product(*domains):
            yield Fn((names, combo))

    def __repr__(self) -> str:
        return "[" + ", ".join(f"{k} : {show(v)}" for k, v in self.fields.items()) + "]"


def known_size(s) -> int | None:
    """The number of elements of a finite set when it is known without listing them (a set
    value, an interval, SUBSET, [S -> T], [a : S], S \\X T over such sets); else None."""
    t = type(s)
    if t is frozenset or t is Interval:
        return len(s)
    if t is PowerSet:
        n = known_size(s.base)
        return None if n is None else 2 ** n
    if t is FuncSet:
        n = known_size(s.codomain)
        return None if n is None else n ** len(s.domain)
    if t is RecordSet or t is Product:
        total = 1
        for part in (s.fields.values() if t is RecordSet else s.factors):
            n = known_size(part)
            if n is None:
                return None
            total *= n
        return total
    return None


_FEW_TUPLES = 4096  # a product with at most this many tuples keeps them once listed
_MANY = 1 << 62


class Product(LazySet):
    """S \\X T \\X ..."""

    def __init__(self, factors):
        for v in factors:
            a_set(v)
        self.factors = factors
        self.finite = all(not isinstance(s, LazySet) or s.finite for s in factors)
        self._items = None  # its tuples in order, kept when there are few
        self._tests = tuple(member_test(s) for s in factors)

    def __contains__(self, x) -> bool:
        return self._test(x) or ABSENCE_CHECK[0](self, x)

    def _test(self, x) -> bool:
        return (type(x) is tuple and len(x) == len(self.factors)
                and all(test(e) for e, test in zip(x, self._tests, strict=True)))

    def __iter__(self):
        if self._items is not None:
            return iter(self._items)
        tuples = itertools.product(*[ordered(s) for s in self.factors])
        if (known_size(self) or _MANY) > _FEW_TUPLES:
            return tuples
        self._items = list(tuples)
        return iter(self._items)

    def __repr__(self) -> str:
        return " \\X ".join(show(s) for s in self.factors)


def as_set(v) -> frozenset:
    """A finite set as a frozenset (materialising lazy finite sets)."""
    if type(v) is frozenset:
        return v
    if isinstance(v, LazySet):
        if not v.finite:
            raise EvalError(v.not_enumerable())
        return v.materialise()
    raise not_a_set(v)


def a_set(v):
    """v, when it is a set (finite or not); anything else is TLC's error."""
    if is_set(v):
        return v
    raise not_a_set(v)


def not_a_set(v) -> EvalError:
    """TLC's words for a value used where a set is needed ([S -> T], S \\X T, SUBSET S...)."""
    return EvalError(f"Attempted to compute the number of elements in the {kind_name(v)} "
                     f"{show(v)}.")


def is_set(v) -> bool:
    """Is v a set (finite or not)? A recursively defined function is lazy like a set but
    is a function (LazySet.function)."""
    return type(v) is frozenset or isinstance(v, LazySet) and not v.function


def no_membership(x, s) -> EvalError:
    """TLC's error for x \\in s where s is no set (a tuple, record, function, string...):
    Python's `in` would answer, searching a tuple's items or a string's letters."""
    if type(s) is tuple:
        return EvalError("Attempted to check set membership in a tuple value.")
    if type(s) is Fn and s[0] and all(type(k) is str for k in s[0]):
        return EvalError(f"Attempted to check if element:\n{show(x)}\nis in the record:\n"
                         f"{show(s)}")
    return EvalError(f"Attempted to check if the value:\n{show(x)}\nis an element of the "
                     f"{kind_name(s)} {show(s)}")


def kind_name(v) -> str:
    """The kind of a value as TLC's messages name it."""
    t = type(v)
    if t is bool:
        return "boolean"
    if t is int:
        return "integer"
    if t is str:
        return "string"
    if t is ModelValue:
        return "model value"
    if is_set(v):
        return "set"
    return "function"


# ---------------------------------------------------------------------------------------------
# TLC's order


def tlc_key(v):
    """A sort key giving TLC's order: model values first, then by kind as TLC compares them."""
    t = type(v)
    if t is int:
        return (2, v)
    if t is str:
        return (3, intern_index(v))
    if t is bool:
        return (1, v)
    if t is ModelValue:
        return (0, v.order)
    if t is frozenset:
        k = _SET_KEYS.get(v)
        if k is None:
            if len(_SET_KEYS) > 200_000:
                _SET_KEYS.clear()
            k = _SET_KEYS[v] = (4, len(v), tuple(sorted(tlc_key(e) for e in v)))
        return k
    if t is tuple or t is Fn:
        # Values are immutable and shared between states: remember keys by object identity.
        e = _FN_KEYS.get(id(v))
        if e is not None and e[0] is v:
            return e[1]
        if t is tuple:
            n = len(v)
            k = (5, n, _seq_domain_key(n), tuple([tlc_key(x) for x in v]))
        else:
            keys, vals = v
            k = (5, len(keys), tuple([tlc_key(x) for x in keys]),
                 tuple([tlc_key(x) for x in vals]))
        if len(_FN_KEYS) > 500_000:
            _FN_KEYS.clear()
        _FN_KEYS[id(v)] = (v, k)
        return k
    if isinstance(v, LazySet):
        return tlc_key(as_set(v))
    raise EvalError(f"cannot order the value {v!r}")


_FN_KEYS: dict = {}
_SEQ_DOMAINS: dict = {}


def _seq_domain_key(n: int) -> tuple:
    k = _SEQ_DOMAINS.get(n)
    if k is None:
        k = _SEQ_DOMAINS[n] = tuple((2, i) for i in range(1, n + 1))
    return k


def _int_tuple_key(t):
    return (len(t), t)


def _order_key(s):
    """A sort key equivalent to tlc_key on these values, cheaper for common homogeneous ones
    (None means: plain integers, compare them directly)."""
    kinds = set(map(type, s))  # map and set run at C speed; this runs for every CHOOSE
    if len(kinds) == 1:
        kind = kinds.pop()
        if kind is int:
            return None
        if kind is str:
            return intern_index
        if kind is ModelValue:
            return _mv_order
        if kind is tuple and set(map(type, itertools.chain.from_iterable(s))) <= _INT_ONLY:
            # Tuples of integers of one length: Python's order is TLC's.
            return None if len(set(map(len, s))) == 1 else _int_tuple_key
    return tlc_key


_INT_ONLY = frozenset((int,))


def _mv_order(v):
    return intern_index(ModelValue._names[int(v)])


def least(s):
    """The first element of a finite set in TLC's order (what CHOOSE x \\in S : TRUE gives)."""
    if type(s) is frozenset:
        if not s:
            raise EvalError("Attempted to compute the value of an expression of form\nCHOOSE x "
                            "\\in S: P, but no element of S satisfied P.")
        return min(s, key=_order_key(s)) if len(s) > 1 else next(iter(s))
    return ordered(s)[0]


# Sorting by TLC's order is the costly part of enumerating sets of sets; states share set
# objects, so a set's key is remembered (frozensets cache their hash, so look-ups are cheap).
_SET_KEYS: dict = {}
# The sets ordered lately, by identity (kept alive here): expanding a state enumerates the same
# set in many actions (`\E m \in msgs` per process and action), between constant sets.
_ORDERED: dict = {}  # id(set) -> (that set, its elements in order)
_ORDERED_LIMIT = 64


def ordered(s) -> list:
    """The elements of a finite set in TLC's normalised order."""
    if type(s) is frozenset:
        return list(ordered_tuple(s)) if len(s) > 1 else list(s)
    if isinstance(s, LazySet):
        return list(s)
    raise not_a_set(s)


def ordered_tuple(s: frozenset) -> tuple:
    """The elements of a frozenset of two or more elements in TLC's order, remembered."""
    e = _ORDERED.get(id(s))
    if e is not None and e[0] is s:
        return e[1]
    out = tuple(sorted(s, key=_order_key(s)))
    if len(_ORDERED) >= _ORDERED_LIMIT:
        _ORDERED.clear()
    _ORDERED[id(s)] = (s, out)
    return out


# ---------------------------------------------------------------------------------------------
# Printing in TLA+ syntax (as TLC prints values)


_ENUM_BOUND = 2_000_000  # TLC prints a finite set of fewer elements enumerated (-Dtlc2...enumBound)


def _show_lazy(v: LazySet, elements, items) -> str:
    """A set of functions, records, tuples or subsets prints enumerated, as TLC prints it when
    it is finite and small enough; an infinite one (Nat, Seq(S)) by its name."""
    if type(v) in (PowerSet, FuncSet, RecordSet, Product) and v.finite:
        try:
            if len(v) < _ENUM_BOUND:
                return show(v.materialise(), elements, items)
        except EvalError:
            pass
    return repr(v)


# TLC keeps `a..b` as an interval value and prints it so (`x = 1..3` in a trace), while a set
# built any other way prints enumerated. kipcheck's sets are all frozensets, so the sets built
# by `..` are remembered by identity (a value flows through states unchanged, so the one an
# action built is the one a trace prints), a bounded table like the sort-key caches.
_INTERVALS: dict = {}  # id(frozenset) -> (the frozenset, a, b)


SMALL_INTERVALS: dict = {}  # (a, b) -> the set a..b, for short intervals: built once


def remember_interval(s: frozenset, a: int, b: int) -> None:
    if len(_INTERVALS) > 50_000:
        _INTERVALS.clear()
        for (lo, hi), kept in SMALL_INTERVALS.items():
            _INTERVALS[id(kept)] = (kept, lo, hi)
    _INTERVALS[id(s)] = (s, a, b)


def interval_of(s: frozenset):
    """(s, a, b) when the set s was built as a..b, else None."""
    hit = _INTERVALS.get(id(s))
    return hit if hit is not None and hit[0] is s else None


# How TLC writes a string's characters back as TLA+ escapes.
_ESCAPES = str.maketrans({"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t",
                          "\r": "\\r", "\f": "\\f"})


def show(v, elements=None, items=None) -> str:
    """v in TLA+ syntax, as TLC prints it. `elements(set)` and `items(function)` give the
    printing order (default: this run's order); trace writers pass a recorded one.
    An unknown value (in ENABLED) that an error message would show was needed after all."""
    t = type(v)
    if t is _Unknown:
        raise UnknownUsed
    if t is bool:
        return "TRUE" if v else "FALSE"
    if t is int:
        return str(v)
    if t is str:
        return '"' + v.translate(_ESCAPES) + '"'
    if t is ModelValue:
        return v.name
    if t is frozenset:
        iv = interval_of(v)
        if iv is not None:
            return f"{iv[1]}..{iv[2]}"
        return "{" + ", ".join(show(e, elements, items)
                               for e in (elements or ordered)(v)) + "}"
    if t is tuple:
        return "<<" + ", ".join(show(e, elements, items) for e in v) + ">>"
    if t is Fn:
        pairs = items(v) if items else list(zip(v[0], v[1], strict=True))
        if all(type(k) is str for k, _ in pairs):
            return "[" + ", ".join(f"{k} |-> {show(x, elements, items)}" for k, x in pairs) + "]"
        return "(" + " @@ ".join(f"{show(k, elements, items)} :> {show(x, elements, items)}"
                                 for k, x in pairs) + ")"
    if isinstance(v, LazySet):
        return _show_lazy(v, elements, items)
    if callable(v):
        return "<operator>"
    return repr(v)
    if callable(v):
        return "<operator>"
    return repr(v)
