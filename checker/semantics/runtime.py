"""The operations generated code calls: function application, EXCEPT, sets, the standard
modules' operators. Each raises EvalError with TLC's wording when TLC would report an error.

Kept small and branch-light: these run once per use in every explored state.
"""
from __future__ import annotations

import itertools
import time

from .values import (
    ABSENCE_CHECK,
    BOOLEAN,
    INT,
    KIND_CHECK,
    NAT,
    REAL,
    SMALL_INTERVALS,
    STRING,
    TYPED_MODEL_VALUES,
    UNKNOWN,
    Difference,
    EvalError,
    Fn,
    FuncSet,
    Intersection,
    Interval,
    LazySet,
    ModelValue,
    PowerSet,
    Product,
    RecordSet,
    SeqSet,
    Union,
    UnknownUsed,
    as_set,
    fn_from_ordered,
    gained,
    has,
    infinite,
    interval_of,
    is_set,
    kind_name,
    known_size,
    least,  # noqa: F401 - used by generated code
    make_fn,
    no_membership,
    ordered,
    ordered_tuple,
    remember_interval,
    same_kinds,
    show,
    tlc_key,
    typed_clash,
    unmistakable,
)

__all__ = [
    "app", "app_n", "field", "except_", "domain", "in_domain", "setenum", "cup", "cap", "diff",
    "subseteq", "card", "is_finite_set",
    "big_union", "interval", "idiv", "imod", "ipow", "seq_len", "append", "head", "tail",
    "subseq", "selectseq", "concat", "fn_single", "fn_merge", "permutations", "sortseq",
    "to_string", "tlc_print", "tlc_assert", "choose", "unbounded", "truth",
    "boolean", "enum", "tlc_product",
    "add", "sub", "mul", "ineg", "lt", "le", "gt", "ge", "member", "not_member",
    "member_k", "member_written", "not_member_written", "member_since", "added_since",
    "not_member_k", "setmap", "map_domain",
    "setfilter", "sfilter", "funcons", "each", "eq", "BOOLEAN", "INT", "NAT", "REAL", "STRING",
    "EvalError", "Fn",
    "FuncSet", "LazySet", "ModelValue", "PowerSet", "Product", "RecordSet", "SeqSet", "as_set",
    "make_fn", "fn_from_ordered", "ordered", "show", "tlc_key", "least", "AssertFailure",
    "TLC_REGISTERS", "java_time",
]


class AssertFailure(Exception):
    """TLC's Assert(FALSE, msg): its own verdict (exit 14)."""

    def __init__(self, message: str, span=None):
        super().__init__(message)
        self.message = message
        self.span = span


def app(f, x):
    """f[x]."""
    t = type(f)
    if t is tuple:
        if type(x) is int and 0 < x <= len(f):
            return f[x - 1]
        raise EvalError(f"Attempted to apply tuple\n{show(f)}\nto {show(x)}, which is out of "
                        f"domain.")
    if t is Fn:
        keys, vals = f
        if len(keys) > _MANY_KEYS:
            i = key_position(keys, x)
        else:
            try:
                i = keys.index(x)
            except ValueError:
                i = None
        if i is not None:
            if type(keys[i]) is type(x):
                return vals[i]
            _bool_int_key(keys, keys[i], x)  # Python found TRUE at key 1 (or 1 at key TRUE)
        raise EvalError(f"Attempted to apply function:\n{show(f)}\nto argument {show(x)}, which "
                        f"is not in the domain of the function.")
    apply = getattr(f, "apply", None)  # a recursive function definition, built lazily
    if apply is not None:
        return apply(x)
    if f is UNKNOWN:
        raise UnknownUsed
    raise EvalError(f"Attempted to apply a non-function\n{show(f)}\nto argument {show(x)}.")


# Functions of many keys are looked up through an index of their key tuple. Functions built
# over one domain share that tuple (fn_from_ordered, EXCEPT), so the index is built the second
# time a tuple is looked up in and serves every later function over it.
_KEY_POSITIONS: dict = {}  # id(keys) -> (keys, {key: position} or None until seen twice)
_MANY_KEYS = 8


def key_position(keys: tuple, x) -> int | None:
    """The position of the first key equal (by Python's ==) to x, or None: keys.index, in
    constant time once the tuple has been looked up in before (app and except_ search up to
    _MANY_KEYS keys inline instead)."""
    e = _KEY_POSITIONS.get(id(keys))
    if e is None or e[0] is not keys:
        if len(_KEY_POSITIONS) >= 4096:
            _KEY_POSITIONS.clear()
        _KEY_POSITIONS[id(keys)] = (keys, None)
    elif e[1] is not None:
        return e[1].get(x)
    else:
        index = {}
        for i, k in enumerate(keys):
            index.setdefault(k, i)
        if len(index) == len(keys):  # no two keys Python equates (1 and TRUE): exact
            _KEY_POSITIONS[id(keys)] = (keys, index)
            return index.get(x)
    try:
        return keys.index(x)
    except ValueError:
        return None


def _bool_int_key(keys: tuple, k, x) -> None:
    """TLC's error for a Boolean argument of a function over integers, or the reverse."""
    if type(x) is bool and all(type(j) is int for j in keys) and (
            keys[-1] - keys[0] == len(keys) - 1):
        raise EvalError(f"Attempted to check if the value:\n{show(x)}\nis in the integer "
                        f"interval {keys[0]}..{keys[-1]}")
    kind = kind_name(x)
    raise EvalError(f"Attempted to compare {kind} {show(x)} with non-{kind}:\n{show(k)}")


def app_n(f, args: tuple):
    """f[a, b] is f applied to the tuple <<a, b>>."""
    return app(f, args)


def field(r, name: str):
    """r.name."""
    if type(r) is Fn:
        keys, vals = r
        try:
            return vals[keys.index(name)]
        except ValueError:
            pass
    if r is UNKNOWN:
        raise UnknownUsed
    raise EvalError(f'Attempted to select nonexistent field "{name}" from the record\n{show(r)}')


def except_(f, key, value):
    """[f EXCEPT ![key] = value]; TLC leaves f unchanged if key is outside its domain."""
    t = type(f)
    if t is tuple:
        if type(key) is int and 0 < key <= len(f):
            lst = list(f)
            lst[key - 1] = value
            return tuple(lst)
        return f
    if t is Fn:
        keys, vals = f
        if len(keys) > _MANY_KEYS:
            i = key_position(keys, key)
        else:
            try:
                i = keys.index(key)
            except ValueError:
                return f
        if i is None:
            return f
        lst = list(vals)
        lst[i] = value
        return Fn((keys, tuple(lst)))
    if f is UNKNOWN:
        raise UnknownUsed
    raise EvalError(f"Attempted to apply EXCEPT to a non-function\n{show(f)}")


def in_domain(x, f) -> bool:
    """x \\in DOMAIN f, without building the domain where the answer is plain: an integer
    against a sequence, or a key of x's own kinds found among a function's keys.
    Anything else is the general test, with TLC's errors."""
    t = type(f)
    if t is tuple and type(x) is int:
        return 0 < x <= len(f)
    if t is Fn:
        keys = tuple.__getitem__(f, 0)
        if x in keys:
            if unmistakable(x):
                return True
            k = keys[keys.index(x)]  # found by Python: a key of x's own kinds?
            if k is x or same_kinds(k, x):
                return True
    return member(x, domain(f))


_DOMAINS: dict = {}  # id(function) -> (it, its domain): one set object per function value


def domain(f):
    t = type(f)
    if t is tuple:
        return frozenset(range(1, len(f) + 1))
    if t is Fn:
        # The same set for the same function, so that what membership remembers about a set
        # by identity (its elements' kinds, see member) serves every test on that domain.
        e = _DOMAINS.get(id(f))
        if e is not None and e[0] is f:
            return e[1]
        if len(_DOMAINS) >= 20_000:
            _DOMAINS.clear()
        d = frozenset(tuple.__getitem__(f, 0))
        _DOMAINS[id(f)] = (f, d)
        return d
    if f is UNKNOWN:
        raise UnknownUsed
    raise EvalError(f"Attempted to compute the domain of a non-function\n{show(f)}")


def _set(v):
    return v if type(v) is frozenset else as_set(v)


def setenum(elems: tuple) -> frozenset:
    """{a, b, ...}: TLC sorts the elements, an error if two are of different kinds (and
    Python would merge TRUE and 1)."""
    s = frozenset(elems)  # first: an unknown value (in ENABLED) raises here
    t = type(elems[0])
    for x in elems:
        if type(x) is not t:
            _mixed_kinds(elems)
            break
    if len(s) < len(elems):  # Python merged equal elements: of the same kinds, as TLC has it?
        first: dict = {}
        for x in elems:
            y = first.setdefault(x, x)
            if y is not x and not same_kinds(x, y):
                eq(y, x)  # TLC's error: <<1>> and <<TRUE>> cannot be compared
    return s


def _mixed_kinds(elems: tuple) -> None:
    kinds = [kind_name(x) for x in elems]
    first = next((i for i, k in enumerate(kinds) if k != "model value"), None)
    if first is None:
        return
    for x, k in zip(elems[first + 1:], kinds[first + 1:], strict=True):
        if k != kinds[first] and k != "model value":
            raise EvalError(f"Attempted to compare {k} {show(x)} with non-{k}:\n"
                            f"{show(elems[first])}")


def cup(a, b):
    if (type(a) is not frozenset or type(b) is not frozenset) and (infinite(a) or infinite(b)):
        return Union((a, b), f"{show(a)} \\cup {show(b)}")
    a, b = _set(a), _set(b)
    if a and b:
        x, y = next(iter(a)), next(iter(b))
        if type(x) is not type(y):  # TLC compares the elements of one with the other's
            x, y = ordered(a)[0], ordered(b)[0]
            if type(x) is not ModelValue and type(y) is not ModelValue:
                eq(x, y)
    return a | b


def cap(a, b):
    if type(a) is not frozenset and infinite(a):
        if infinite(b):
            return Intersection(a, b)
        a, b = b, a
    if type(b) is not frozenset and isinstance(b, LazySet):
        return frozenset(x for x in _set(a) if x in b)
    return _set(a) & _set(b)


def diff(a, b):
    if type(a) is not frozenset and isinstance(a, LazySet) and not a.finite:
        return Difference(a, b)
    if type(b) is not frozenset and isinstance(b, LazySet):
        return frozenset(x for x in _set(a) if x not in b)
    return _set(a) - _set(b)


def subseteq(a, b):
    if type(b) is frozenset and type(a) is frozenset:
        if a <= b:
            if not a:
                return True
            # Python's <= equates TRUE with 1 (see values.has): the kinds must agree too,
            # which they do when a holds only model values and strings (an element equal to
            # one of them is one of them).
            kinds = _element_types(a)
            if kinds <= _PLAIN_KINDS or kinds <= _element_types(b) and not _mistakable(b):
                return True
            return _shape(a)[1] <= _shape(b)[1] or all(member(x, b) for x in a)
        for x in a - b:  # TLC compares each element with b's: kinds must agree
            member(x, b)
        return False
    return all(member(x, b) for x in _set(a))


def is_finite_set(v) -> bool:
    """IsFiniteSet(v) as TLC answers it: a set's own finiteness; a tuple, record or function
    is finite (TLC's isFinite of such values is TRUE); a filter of an infinite set, a
    recursively defined function and a value of another kind are TLC's errors."""
    if type(v) is frozenset:
        return True
    if type(v) is tuple or type(v) is Fn:
        return True
    if isinstance(v, FilterSet) and not v.finite:
        raise EvalError("Attempted to check if expression of form {x \\in S : p(x)} is a "
                        f"finite set, but cannot check if S:\n{show(v.base)}\nis finite.")
    if is_set(v):
        return v.finite
    if isinstance(v, LazySet):  # a recursively defined function
        raise EvalError(f"Attempted to check if the function:\n{show(v)}\nis a finite set.")
    raise EvalError(f"Attempted to check if the {kind_name(v)} {show(v)} is a finite set.")


def card(s):
    if type(s) is frozenset:
        return len(s)
    if isinstance(s, LazySet) and s.finite:
        return len(s)
    if isinstance(s, LazySet):
        raise EvalError(f"Attempted to compute the cardinality of the infinite set {show(s)}")
    raise EvalError(f"Attempted to compute cardinality of the value\n{show(s)}")


def big_union(s):
    s = _set(s)
    if any(infinite(x) for x in s):
        return Union(tuple(s), f"UNION {show(s)}")
    out = set()
    for x in s:
        out.update(_set(x))
    return frozenset(out)


def interval(a, b):
    if type(a) is not int or type(b) is not int:
        raise EvalError(f"The operands of .. must be integers, found {show(a)} and {show(b)}")
    key = (a, b)
    s = SMALL_INTERVALS.get(key)
    if s is not None:
        return s
    if b - a >= _LAZY_INTERVAL:
        return Interval(a, b)
    s = frozenset(range(a, b + 1))
    if s:
        remember_interval(s, a, b)
        if b - a < 64:  # `1..Len(q)` in every state: one set per bounds, not one per call
            if len(SMALL_INTERVALS) >= 4096:
                SMALL_INTERVALS.clear()
            SMALL_INTERVALS[key] = s
    return s


_LAZY_INTERVAL = 100_000  # longer intervals stay lazy (membership, cardinality, iteration)


def idiv(a, b):
    if type(a) is not int or type(b) is not int:
        _not_int("\\div", a, b)
    if b == 0:
        raise EvalError("The second argument of \\div is 0.")
    return a // b


def imod(a, b):
    if type(a) is not int or type(b) is not int:
        _not_int("%", a, b)
    if b <= 0:
        raise EvalError(f"The second argument of % should be a positive number, but instead it "
                        f"is:\n{show(b)}")
    return a % b


def ipow(a, b):
    if type(a) is not int or type(b) is not int:
        _not_int("^", a, b)
    if b < 0:
        raise EvalError(f"The second argument of ^ must be non-negative, found {b}")
    if b == 0 and a == 0:
        raise EvalError("0^0 is undefined.")  # TLC's error (TLA+ leaves it unspecified)
    return a ** b


def _seq(s, op):
    if type(s) is tuple:
        return s
    raise EvalError(f"The argument of {op} should be a sequence, but instead it is:\n{show(s)}")


def seq_len(s):
    if type(s) is str:  # TLC's Len also counts a string's characters
        return len(s)
    return len(_seq(s, "Len"))


def append(s, e):
    if type(s) is str:  # TLC's sequence operators take strings too (as sequences of letters)
        if type(e) is not str:
            raise EvalError(f"Attempted to Append a non-string to the string {show(s)}:\n"
                            f"{show(e)}")
        return s + e
    return _seq(s, "Append") + (e,)


def head(s):
    if type(s) is not str:  # (a string is a sequence of letters to TLC's Head and Tail)
        _seq(s, "Head")
    if not s:
        raise EvalError("Attempted to apply Head to the empty sequence.")
    return s[0]


def tail(s):
    if type(s) is not str:
        _seq(s, "Tail")
    if not s:
        raise EvalError("Attempted to apply Tail to the empty sequence.")
    return s[1:]


def subseq(s, m, n):
    if type(s) is not str:
        _seq(s, "SubSeq")
    if type(m) is not int or type(n) is not int:
        if m is UNKNOWN or n is UNKNOWN:
            raise UnknownUsed
        raise EvalError(f"The arguments of SubSeq must be integers, found {show(m)} and "
                        f"{show(n)}")
    if m > n:
        return "" if type(s) is str else ()
    if not 1 <= m <= len(s):
        raise EvalError(f"The second argument of SubSeq must be in the domain of its first "
                        f"argument:\n{show(s)}\n, but instead it is\n{m}")
    if not 1 <= n <= len(s):
        raise EvalError(f"The third argument of SubSeq must be in the domain of its first "
                        f"argument:\n{show(s)}\n, but instead it is\n{n}")
    return s[m - 1:n]


def selectseq(s, test):
    return tuple(e for e in (s if type(s) is str else _seq(s, "SelectSeq"))
                 if truth(test(e)))


def concat(a, b):
    if type(a) is str and type(b) is str:  # TLC concatenates strings too
        return a + b
    if type(a) is tuple and type(b) is str:  # a sequence, then a string's letters (TLC)
        return a + tuple(b)
    return _seq(a, "\\o") + _seq(b, "\\o")


def fn_single(k, v):
    """k :> v."""
    return make_fn([(k, v)])


def fn_merge(f, g):
    """f @@ g: f where both are defined. TLC compares each key of g with f's keys, so keys of
    different kinds (2 and "a") are its error, where a dict would just merge them."""
    pf, pg = _pairs(f), _pairs(g)
    types = {type(k) for k, _ in pf}
    for k, _ in pg:
        if type(k) not in types and type(k) is not ModelValue:  # only then can kinds differ
            kind = kind_name(k)
            other = next((x for x, _ in pf
                          if type(x) is not ModelValue and kind_name(x) != kind), None)
            if other is not None:
                raise EvalError(_unequal_kinds(k, kind, other))
    pairs = dict(pg)
    pairs.update(pf)
    return make_fn(pairs.items())


def _pairs(f):
    if type(f) is tuple:
        return list(enumerate(f, 1))
    if type(f) is Fn:
        return list(zip(f[0], f[1], strict=True))
    raise EvalError(f"expected a function, found {show(f)}")


def permutations(s):
    elems = ordered(_set(s))
    return frozenset(make_fn(zip(elems, p, strict=True)) for p in itertools.permutations(elems))


def sortseq(s, less):
    import functools

    def cmp(a, b):
        if truth(less(a, b)):
            return -1
        if truth(less(b, a)):
            return 1
        return 0

    return tuple(sorted(_seq(s, "SortSeq"), key=functools.cmp_to_key(cmp)))


def to_string(v):
    return show(v)


def tlc_print(out, val):
    print(f"{show(out)}  {show(val)}", flush=True)
    return True


def tlc_assert(cond, msg, span=None):
    """TLC's Assert: anything but TRUE fails the assertion (a number too, as TLC has it)."""
    if cond is not True:
        if cond is UNKNOWN:  # in ENABLED: undecided here
            raise UnknownUsed
        raise AssertFailure(f"The first argument of Assert evaluated to FALSE; the second "
                            f"argument was:\n{show(msg)}", span)
    return True


def java_time():
    return int(time.time())


TLC_REGISTERS: dict = {}
# TLCSet("exit", TRUE) was evaluated: the search stops after the state it is expanding, with
# no error (as TLC does; the local engine's breadth-first search looks at it)
EXIT_REQUESTED = [False]


def eq(a, b):
    """a = b, with TLC's error for values of different kinds, also inside sequences, records,
    functions and sets (a model value is unequal to everything else, without error)."""
    t = type(a)
    if t is type(b):
        if a == b:
            if (a is b or (t is not tuple and t is not Fn and t is not frozenset)
                    or same_kinds(a, b)):
                return True
            return _tlc_equals(a, b)  # <<1>> and <<TRUE>>: TLC's error at the first clash
        # Unequal: TLC compares the parts in order, so kinds may clash inside. Sequences and
        # sets of different sizes, functions of different domains are unequal at once.
        if t is tuple:
            if len(a) == len(b):
                return _tlc_equals(a, b)
        elif t is Fn:
            return _tlc_equals(a, b) if a[0] == b[0] else _fn_equals(a, b)
        elif t is frozenset and len(a) == len(b) and _shape(a) != _shape(b):
            return _tlc_equals(a, b)
        elif t is ModelValue and TYPED_MODEL_VALUES[0]:
            clash = typed_clash(a, b)
            if clash is not None:
                raise clash
        return False
    if a is UNKNOWN or b is UNKNOWN:
        raise UnknownUsed
    if (t is tuple or t is Fn) and (type(b) is tuple or type(b) is Fn):
        return _fn_equals(a, b)
    ka, kb = kind_name(a), kind_name(b)
    if ka == kb or ka == "model value" or kb == "model value":
        if TYPED_MODEL_VALUES[0]:
            clash = typed_clash(a, b)
            if clash is not None:
                raise clash
        return a == b
    raise EvalError(_unequal_kinds(a, ka, b))


def _is_record(f) -> bool:
    return type(f) is Fn and all(type(k) is str for k in f[0])


def _fn_equals(a, b) -> bool:
    """a = b for two functions of different domains (or a sequence and another function), as
    TLC decides it with a as the left side: a record equals only a record (anything else but
    the empty sequence is an error); a sequence is unequal to a function of another domain, but
    comparing it with a record of its length is an error (TLC compares the domain 1..n with the
    field names); any other function compares its domain with the other's element by element."""
    if not a or not b:
        return False
    if _is_record(a):
        if not _is_record(b):
            raise EvalError(f"Attempted to check equality of record:\n{show(a)}\n"
                            f"with non-record\n{show(b)}")
        return a[0] == b[0] and _tlc_equals(a, b)
    if type(a) is tuple:
        if _is_record(b) and len(b[0]) == len(a):
            raise EvalError(f"Attempted to compare an integer with non-integer:\n"
                            f"{show(b[0][0])}.")
        return type(b) is tuple and _tlc_equals(a, b)
    keys = b[0] if type(b) is Fn else range(1, len(b) + 1)
    if len(a[0]) != len(keys):
        return False
    for x, y in zip(a[0], keys):  # noqa: B905 - same length
        if not eq(x, y):
            return False
    vals = b[1] if type(b) is Fn else b
    for x, y in zip(a[1], vals):  # noqa: B905 - same length
        if not eq(x, y):
            return False
    return True


def _unequal_kinds(a, ka: str, b) -> str:
    """TLC's message for a = b with b of another kind than a."""
    if ka == "boolean":
        return f"Attempted to compare equality of boolean {show(a)} with non-boolean:\n{show(b)}"
    if type(a) is Fn and all(type(k) is str for k in a[0]):
        return f"Attempted to check equality of record:\n{show(a)}\nwith non-record\n{show(b)}"
    if ka == "function":  # TLC prints the empty sequence as << >> here
        return (f"Attempted to check equality of the function {show(a) if a != () else '<< >>'}"
                f" with the value:\n{show(b)}")
    if ka == "set":
        return f"Attempted to check equality of the set {show(a)} with the value:\n{show(b)}"
    return f"Attempted to check equality of {ka} {show(a)} with non-{ka}:\n{show(b)}"


def _tlc_equals(a, b) -> bool:
    """TLC's equality of two values of one kind, walked as TLC walks it: sequences and sets
    of different sizes and functions of different domains are unequal without a look inside;
    otherwise parts are compared in order until the first unequal pair (an error if their
    kinds differ)."""
    t = type(a)
    if t is not type(b):
        return eq(a, b)
    if t is tuple:
        if len(a) != len(b):
            return False
        pairs = zip(a, b)  # noqa: B905 - same length
    elif t is Fn:
        if a[0] != b[0]:
            return _fn_equals(a, b)
        pairs = zip(a[1], b[1])  # noqa: B905 - same length
    elif t is frozenset:
        if len(a) != len(b):
            return False
        pairs = zip(ordered(a), ordered(b))  # noqa: B905 - same length
    else:
        return a == b
    for x, y in pairs:
        if not eq(x, y):
            return False
    return True


def shape_of(v):
    """The shape of a value (see _shape) for the compiler, or None for a model value (it
    compares with everything)."""
    return None if type(v) is ModelValue else _shape(v)


def _shape(v):
    """The kinds of a value and of all its parts: two sets of one shape compare without error,
    so their exact walk (_tlc_equals, a sort) runs only when shapes differ. A set's shape is
    remembered (sets are shared between states; the table stays small)."""
    t = type(v)
    if t is tuple:  # a scalar part's shape is its kind: no call for it
        kinds = tuple(map(type, v))
        shape = _FLAT_SEQS.get(kinds)  # a tuple of scalars: its shape is its parts' types'
        if shape is None:
            shape = ("seq", *[_SCALAR_KIND.get(type(x)) or _shape(x) for x in v])
            if len(_FLAT_SEQS) < 4096 and all(map(_SCALAR_KIND.__contains__, kinds)):
                _FLAT_SEQS[kinds] = shape
        return shape
    if t is Fn:
        return ("fn", v[0], *[_SCALAR_KIND.get(type(x)) or _shape(x) for x in v[1]])
    if t is not frozenset:
        return _KIND_OF.get(t) or kind_name(v)
    last = _LAST_SET
    if last[0] is v:  # the same set object as last time (a state's variable tested again)
        return last[1]
    hit = _SHAPES.get(id(v))
    if hit is not None and hit[0] is v:
        shape = hit[1]
    else:
        if len(_SHAPES) > 20_000:
            _trim(_SHAPES)
        shape = ("set", frozenset([_shape(x) for x in v]))
        _SHAPES[id(v)] = (v, shape)
    last[0], last[1] = v, shape
    return shape


def _trim(table: dict) -> None:
    """Empty a full id-keyed table of (set, ...) entries, but keep what large sets cost: they
    are few (constants such as a type's set of functions, tested in every state) and walking
    one again costs thousands of times more than a small one."""
    big = {k: e for k, e in table.items() if len(e[0]) >= 256}
    table.clear()
    if len(big) <= 1_000:
        table.update(big)


# id(set) -> (the set, its shape): by identity, since by value {1} would find {TRUE}'s.
_SHAPES: dict = {}
_LAST_SET: list = [None, None]  # the set whose shape was asked last, and its shape


def _typed_member(x, s) -> None:
    """x \\in s found x absent, in a model with typed model values: TLC's error for a
    typed x tested against a set of numbers, strings, functions... (Nat, 1..3, [S -> T]).
    Not for a finite set of values: TLC compares x with its elements when the set was just
    built ({1, 2}) but not once it is normalised (a set from the .cfg, a variable's value,
    DOMAIN f), which kipcheck cannot tell apart; it does not report either."""
    if type(x) is ModelValue and x.typed and (
            s is NAT or s is INT or s is STRING
            or isinstance(s, (Interval, FuncSet, RecordSet, SeqSet, PowerSet, Product))):
        raise EvalError(f"Attempted to check if the typed model value {x.name} is an "
                        f"element of\n{show(s)}")


def member_written(x, s) -> bool:
    """x \\in s for a set written in place ({1, 2}, 1..3), in a model with typed model
    values: TLC searches such a set element by element, so a typed model value and a value
    it cannot be compared with meet (either way round), which is TLC's error."""
    if member(x, s):
        return True
    if type(s) is frozenset:
        for e in s:
            clash = typed_clash(x, e)
            if clash is not None:
                raise clash
    else:
        _typed_member(x, s)
    return False


def not_member_written(x, s) -> bool:
    return not member_written(x, s)


def member(x, s) -> bool:
    """x \\in s. TLC compares x with the elements, so an x of another kind than an element
    is an error (a model value excepted); looked at when x is not found, and when Python
    found it but may have equated kinds (1 in BOOLEAN: see values.has)."""
    if type(s) is not frozenset and not is_set(s):
        raise no_membership(x, s)
    if has(s, x):
        return True
    if TYPED_MODEL_VALUES[0]:
        _typed_member(x, s)
    if type(s) is frozenset and s and type(x) is not ModelValue:
        _check_kinds(x, s)
    return False


def member_since(x, old, s) -> bool:
    """x \\in s for a variable's value x in a successor whose parent's value old was in s (a
    constant [S -> T], record set or Seq(S), see compile_step_predicate): only the parts x
    does not share with old are tested."""
    if x is old:
        return True
    since = getattr(s, "contains_since", None)
    return since(x, old) if since is not None else x in s


def added_since(x, old):
    """The elements of set x that are not elements of old (the same objects: `old \\cup
    {e}` keeps them), for `\\A e \\in v : P(e)` on a successor whose parent's v was old
    and held P (see compile_incremental). Anything but two sets: x itself, evaluated whole."""
    if type(x) is not frozenset or type(old) is not frozenset:
        return x
    return frozenset(gained(x, old))


def member_k(x, s, shape) -> bool:
    """x \\in s for a constant x whose shape (see _shape) the compiler computed once."""
    if type(s) is not frozenset and not is_set(s):
        raise no_membership(x, s)
    if x in s:
        return type(s) is not frozenset or unmistakable(x) or _found_same_kind(x, s, shape)
    if TYPED_MODEL_VALUES[0]:
        _typed_member(x, s)
    if type(s) is frozenset and s:
        _check_kinds(x, s, shape)
    return False


def not_member_k(x, s, shape) -> bool:
    """x \\notin s for a constant x (see member_k)."""
    return not member_k(x, s, shape)


def not_member(x, s) -> bool:
    """x \\notin s (see member)."""
    return not member(x, s)


def _found_same_kind(x, s: frozenset, shape=None) -> bool:
    """x, which Python found in s, is an element of s in TLC's sense: an element has x's
    shape (given for a constant x). Else TLC's error when x cannot be compared with the
    elements, or not a member."""
    t = type(x)
    if t is int or t is bool:  # found an int or a Boolean: which one did Python find?
        kinds = _element_types(s)
        if t in kinds and len(kinds) == 1:
            return True
        shape = _KIND_OF[t]
    else:
        if shape is not None and not _numeric(shape):
            if t in set(map(type, s)):  # a constant's shape tells at once (see _numeric)
                return True
        elif t in _element_types(s) and not _mistakable(s):
            return True
        if shape is None:
            shape = _shape(x)
    if shape in _shape(s)[1]:
        return True
    _check_kinds(x, s, shape, exact=True)
    return False


def _numeric(shape) -> bool:
    """Does a shape hold an integer or a Boolean anywhere? Only then can a Python-equal value
    differ from it in kind inside (strings and model values equal only their own kind).
    Remembered per shape: a program has few."""
    known = _NUMERIC.get(shape)
    if known is None:
        if len(_NUMERIC) > 20_000:
            _NUMERIC.clear()
        known = _NUMERIC[shape] = _has_number_or_boolean(shape)
    return known


_NUMERIC: dict = {}  # shape -> _numeric


def _loose_shapes(s: frozenset) -> frozenset:
    """The shapes of s's elements, also remembered by value: sets equal to one seen before
    (a message set rebuilt in every state) cost a look-up. By value {1} finds {TRUE}'s
    shapes, so this serves only to rule kinds safe: anything else ends in the exact walk."""
    last = _LAST_SET
    if last[0] is s:
        return last[1][1]
    hit = _SHAPES.get(id(s))
    if hit is not None and hit[0] is s:
        return hit[1][1]
    if len(s) >= 256:  # comparing it with an equal set costs more than its shape, once
        return _shape(s)[1]
    shapes = _LOOSE.get(s)
    if shapes is None:
        shapes = _shape(s)[1]
        if len(_LOOSE) > 20_000:
            _LOOSE.clear()  # large sets are never kept here (above)
        _LOOSE[s] = shapes
    return shapes


_LOOSE: dict = {}  # set -> the shapes of its elements (by value: see _loose_shapes)


def _mistakable(s: frozenset) -> bool:
    """Could a value equal (in Python) to an element of s differ from it in kind inside? Only
    where s holds an integer or a Boolean somewhere (see _numeric), so a set Python-equal to
    s answers the same (a value of another kind at the top, a tuple for a function, is told
    by its type)."""
    return any(map(_numeric, _loose_shapes(s)))


def _has_number_or_boolean(shape) -> bool:
    if shape == "integer" or shape == "boolean":
        return True
    if type(shape) is tuple:
        return any(_has_number_or_boolean(x) for x in shape[1:])
    if type(shape) is frozenset:
        return any(_has_number_or_boolean(x) for x in shape)
    return False


def _element_types(s: frozenset) -> frozenset:
    """The types of s's elements (remembered by identity, as shapes are)."""
    hit = _TYPES.get(id(s))
    if hit is not None and hit[0] is s:
        return hit[1]
    if len(_TYPES) > 20_000:
        _trim(_TYPES)
    kinds = frozenset(map(type, s))
    _TYPES[id(s)] = (s, kinds)
    return kinds


_TYPES: dict = {}  # id(set) -> (the set, the types of its elements)
# Element types whose Python equality is TLC's equality: a model value equals only itself (an
# int far beyond a spec's), a string only an equal string.
_PLAIN_KINDS = frozenset({ModelValue, str})


KIND_CHECK[0] = _found_same_kind


def _absent(s, x) -> bool:
    """False for x, not an element of the lazy set s, or TLC's error where its membership
    test would fail instead: x is not of the kind of s's elements (an integer in a set of
    functions), or a part of x, tested in order as TLC tests them, is compared with elements
    of another kind (a function with string values in [S -> Nat]). A model value is in none
    of them, without an error."""
    tx = type(x)
    if tx is ModelValue:
        return False
    t = type(s)
    if t is FuncSet:
        if tx is tuple:
            keys, vals = range(1, len(x) + 1), x
        elif tx is Fn:
            keys, vals = x
        else:  # a string too (TLC 2.18: "ab" is no function value here)
            raise EvalError(f"Attempted to check if\n{show(x)}\nwhich is not a TLC function "
                            f"value, is in the set of functions:\n{show(s)}")
        if not eq(s.domain, frozenset(keys)):  # in TLC's order (its message)
            return False
        parts = zip(vals, itertools.repeat(s.codomain))
    elif t is RecordSet:
        if tx is not Fn or not all(type(k) is str for k in x[0]):
            if x == ():
                return False
            raise EvalError(f"Attempted to check if non-record\n{show(x)}\nis in the set of "
                            f"records:\n{show(s)}")
        if x[0] != s._names:
            return False
        parts = zip(x[1], (s.fields[n] for n in s._names), strict=True)
    elif t is SeqSet:
        if tx is not tuple and tx is not str:
            raise EvalError(f"Attempted to check if the value:\n{show(x)}\nis an element of "
                            f"{show(s)}.")
        parts = zip(x, itertools.repeat(s.base))
    elif t is PowerSet:
        if tx is not frozenset and not isinstance(x, LazySet):
            raise EvalError(f"Attempted to check if the non-enumerable value\n{show(x)}\nis "
                            f"element of\n{show(s)}")
        parts = zip(ordered(as_set(x)), itertools.repeat(s.base))
    elif t is Product:
        if tx is not tuple:
            if tx is str:  # TLC takes a string as the tuple of its characters here
                return tuple(x) in s
            raise EvalError(f"Attempted to check if non-tuple\n{show(x)}\nis in the set of "
                            f"tuples:\n{show(s)}")
        if len(x) != len(s.factors):
            return False
        parts = zip(x, s.factors, strict=True)
    else:
        return False
    for v, within in parts:
        if not member(v, within):  # raises where v cannot be compared with within's elements
            return False
    return False


ABSENCE_CHECK[0] = _absent


def _check_kinds(x, s: frozenset, shape=None, exact: bool = False) -> None:
    """TLC's error if x cannot be compared with some element of s (TLC compares x with the
    elements in order). `shape` is x's, when known; `exact`: s's shapes by identity (x was
    found in s by Python, so s may be the very set whose loose shapes would mislead)."""
    shapes = _shape(s)[1] if exact else _loose_shapes(s)
    if shape is None:
        shape = _shape(x)
    if len(shapes) == 1 and shape in shapes:
        return
    ok = _SAFE.get((shape, shapes))
    if ok is None:
        if len(_SAFE) > 20_000:
            _SAFE.clear()
        ok = _SAFE[shape, shapes] = all(_comparable(shape, e) for e in shapes)
    if ok:
        return
    interval = interval_of(s)
    if interval is not None and type(x) is not int and type(x) is not ModelValue:
        raise EvalError(f"Attempted to check if the value:\n{show(x)}\nis in the integer "
                        f"interval {interval[1]}..{interval[2]}")
    if s is BOOLEAN and type(x) is not bool:  # TLC's BOOLEAN compares x with TRUE
        t = type(x)
        kind = "integer" if t is int else "string" if t is str else None
        if kind is not None:
            raise EvalError(f"Attempted to compare {kind} {show(x)} with non-{kind}:\nTRUE")
        if t is tuple or t is Fn:
            raise EvalError(f"Attempted to compare the function {show(x)} with the value:\nTRUE")
    for e in ordered(s):
        _tlc_equals(e, x)  # raises on the first element that cannot be compared with x


_SAFE: dict = {}  # (shape of x, shapes of a set's elements) -> x compares with them all


def _comparable(a, b) -> bool:
    """Whether eq() of two values of shapes a and b is sure not to raise: it looks inside only
    where the shapes agree (sequences of one length, functions of one domain, sets). False
    when unsure: the caller then walks the values as TLC does."""
    if a == b or a == "model value" or b == "model value":
        return True
    if type(a) is not tuple or type(b) is not tuple:
        return False  # scalars of different kinds, or a lazy set or function: walk them
    ka, kb = a[0], b[0]
    if ka == "set" or kb == "set":
        return ka == kb and all(_comparable(x, y) for x in a[1] for y in b[1])
    if ka != kb:  # a sequence and another function: safe unless records or odd keys are met
        seq, fn = (a, b) if ka == "seq" else (b, a)
        return len(seq) == 1 or all(type(k) is int for k in fn[1])
    if ka == "fn":
        if a[1] != b[1]:  # other domains: unequal, once the domains compare without error
            keys = a[1] + b[1]
            return (len(a[1]) != len(b[1]) or all(type(k) is str for k in keys)
                    or all(type(k) is int for k in keys))
        return all(_comparable(x, y) for x, y in zip(a[2:], b[2:]))  # noqa: B905
    if len(a) != len(b):  # sequences of other lengths
        return True
    return all(_comparable(x, y) for x, y in zip(a[1:], b[1:]))  # noqa: B905


_KIND_OF = {bool: "boolean", int: "integer", str: "string", ModelValue: "model value",
            frozenset: "set", tuple: "function", Fn: "function"}


_SCALAR_KIND = {bool: "boolean", int: "integer", str: "string", ModelValue: "model value"}
_FLAT_SEQS: dict = {}  # the types of a tuple's scalar parts -> the tuple's shape


def unbounded(op: str):
    """TLC's error for an unbounded CHOOSE, \\E or \\A where (and only if) it is evaluated."""
    raise EvalError(f"TLC attempted to evaluate an unbounded {op}.\nMake sure that the "
                    f"expression is of form {op} x \\in S: P(x).")


def choose(s, pred):
    for x in ordered(_set(s)):
        if truth(pred(x)):
            return x
    raise EvalError("Attempted to compute the value of an expression of form\nCHOOSE x \\in S: "
                    "P, but no element of S satisfied P.")


def truth(v):
    """A value used as a condition must be a Boolean (TLC's error otherwise)."""
    if v is True or v is False:
        return v
    raise EvalError(_NOT_BOOLEAN[0](v))


def boolean(v, why: int):
    """v, which the compiler could not prove Boolean, used where TLC needs a Boolean; `why`
    picks TLC's wording for the place (an index into _NOT_BOOLEAN)."""
    if v is True or v is False:
        return v
    if v is UNKNOWN:
        raise UnknownUsed
    raise EvalError(_NOT_BOOLEAN[why](v))


def a_kind(v) -> str:
    """The kind of a value with its article, as TLC names it in messages."""
    t = type(v)
    if t is Fn:
        return "a record" if all(type(k) is str for k in v[0]) else "a function"
    if t is tuple:
        return "a tuple"
    k = kind_name(v)
    return ("an " if k[0] in "aeiou" else "a ") + k


_NOT_BOOLEAN = (
    lambda v: f"TLC expected a boolean value, but did not find one. {show(v)}",
    lambda v: f"Attempted to evaluate an expression of form P /\\ Q when P was\n{a_kind(v)}.",
    lambda v: f"Attempted to evaluate an expression of form P /\\ Q when Q was\n{a_kind(v)}.",
    lambda v: f"Attempted to evaluate an expression of form P \\/ Q when P was\n{a_kind(v)}.",
    lambda v: f"Attempted to evaluate an expression of form P \\/ Q when Q was\n{a_kind(v)}.",
    lambda v: f"Attempted to evaluate an expression of form P => Q when P was\n{a_kind(v)}.",
    lambda v: f"Attempted to evaluate an expression of form P => Q when Q was\n{a_kind(v)}.",
    lambda v: f"Attempted to apply the operator ~ to a non-boolean\n({a_kind(v)})",
    lambda v: "Attempted to evaluate an expression of form P <=> Q when P or Q was not a "
              "boolean.",
    lambda v: f"A non-boolean expression ({a_kind(v)}) was used as the condition of an IF.",
    lambda v: f"A non-boolean expression ({a_kind(v)}) was used as a condition of a CASE. "
              f"{show(v)}",
    lambda v: f"Attempted to evaluate an expression of form {{x \\in S : P(x)}} when P was "
              f"{a_kind(v)}.\n{show(v)}",
    lambda v: f"In computing initial states, TLC expected a boolean expression,\nbut instead "
              f"found {show(v)}.",
    lambda v: f"The next state relation is not a boolean expression.\n{show(v)}",
)
# Indices into _NOT_BOOLEAN, named for the compiler.
(B_VALUE, B_AND_P, B_AND_Q, B_OR_P, B_OR_Q, B_IMPLIES_P, B_IMPLIES_Q, B_NOT, B_EQUIV, B_IF,
 B_CASE, B_FILTER, B_INIT, B_NEXT) = range(14)


def _not_int(op: str, a, b):
    for v in (a, b):
        if type(v) is ModelValue:
            v._not_a_number()
        if v is UNKNOWN:
            raise UnknownUsed
    if type(a) is not int:
        raise EvalError(f"The first argument of {op} should be an integer, but instead it "
                        f"is:\n{show(a)}")
    raise EvalError(f"The second argument of {op} should be an integer, but instead it "
                    f"is:\n{show(b)}")


# Integer operators for operands the compiler cannot prove to be integers: Python would
# otherwise compare strings, concatenate sequences or take set differences without a word.
def add(a, b):
    if type(a) is int and type(b) is int:
        return a + b
    _not_int("+", a, b)


def sub(a, b):
    if type(a) is int and type(b) is int:
        return a - b
    _not_int("-", a, b)


def mul(a, b):
    if type(a) is int and type(b) is int:
        return a * b
    _not_int("*", a, b)


def lt(a, b):
    if type(a) is int and type(b) is int:
        return a < b
    _not_int("<", a, b)


def le(a, b):
    if type(a) is int and type(b) is int:
        return a <= b
    _not_int("<=", a, b)


def gt(a, b):
    if type(a) is int and type(b) is int:
        return a > b
    _not_int(">", a, b)


def ineg(a):
    """-a."""
    if type(a) is int:
        return -a
    if type(a) is ModelValue:
        a._not_a_number()
    if a is UNKNOWN:
        raise UnknownUsed
    raise EvalError(f"The argument of - should be an integer, but instead it is:\n{show(a)}")


def ge(a, b):
    if type(a) is int and type(b) is int:
        return a >= b
    _not_int(">=", a, b)


def enum(s):
    """Elements of a finite set in TLC's order, for \\E, \\A, x' \\in S and comprehensions."""
    if type(s) is frozenset:
        return ordered_tuple(s) if len(s) > 1 else s
    if isinstance(s, LazySet):
        if not s.finite:
            raise EvalError(s.not_enumerable())
        return iter(s)
    raise EvalError(f"TLC encountered a non-enumerable quantifier bound\n{show(s)}.")


def tlc_product(domains):
    """The combinations of the elements of `domains` (each listed in TLC's order) in the
    order TLC enumerates several bound names (its ContextEnumerator): the first name varies
    fastest."""
    return (c[::-1] for c in itertools.product(*domains[::-1]))


def each(s):
    r"""Elements of a finite set in any order: for \A, \E and comprehensions inside
    expressions, whose value does not depend on the order (TLC's order costs a sort)."""
    if type(s) is frozenset:
        return s
    if isinstance(s, LazySet):
        if not s.finite:
            raise EvalError(s.not_enumerable())
        return iter(s)
    raise EvalError(f"TLC encountered a non-enumerable quantifier bound\n{show(s)}.")


def setmap(f, s):
    return frozenset(f(x) for x in enum(map_domain(s)))


class FilterSet(LazySet):
    """{x \\in S : P} over a lazy S: membership tests x \\in S, then P, as TLC's, without
    enumerating S (x \\in {DP \\in SUBSET SUBSET S : ...} is one test, not 2^2^|S|). Over a
    finite S it is enumerated (once, by whole) only when something needs its elements."""

    def __init__(self, base, pred, whole=None):
        self.base, self.pred, self.whole = base, pred, whole
        self.finite = whole is not None
        self._elems = None

    def __contains__(self, x) -> bool:
        return x in self.base and self.pred(x)

    def materialise(self) -> frozenset:
        if self._elems is None:
            self._elems = _bounded(self.whole(each(self.base)))
        return self._elems

    def __iter__(self):
        if not self.finite:
            raise EvalError(self.not_enumerable())
        return iter(ordered(self.materialise()))

    def __len__(self):
        return len(self.materialise())

    def __repr__(self) -> str:
        if self.finite:
            return show(self.materialise())
        return f"{{x \\in {show(self.base)} : ...}}"

    def not_enumerable(self) -> str:
        return (f"Attempted to enumerate {{ x \\in S : p(x) }} when S:\n{show(self.base)}\n"
                "is not enumerable")


# TLC's bound on the elements a set map or filter may build (its -maxSetSize; --max-set-size).
DEFAULT_MAX_SET_SIZE = 1_000_000
MAX_SET_SIZE = [DEFAULT_MAX_SET_SIZE]



_Filter = FilterSet  # its former name: snapshots written before it was renamed pickled it


def set_max_set_size(n: int) -> None:
    MAX_SET_SIZE[0] = n


def too_many_elements() -> EvalError:
    return EvalError(f"Attempted to construct a set with too many elements "
                     f"(>{MAX_SET_SIZE[0]}).")


def map_domain(first, *others):
    """The first domain of a set map {e : x \\in S, y \\in T}, once the map is known to build
    at most MAX_SET_SIZE elements: TLC counts one per binding, duplicates included, and stops
    a bigger one at once rather than list it."""
    n = known_size(first)
    for d in others:
        m = known_size(d)
        n = None if n is None or m is None else n * m
    if n is not None and n > MAX_SET_SIZE[0]:
        raise too_many_elements()
    return first


def _bounded(s: frozenset) -> frozenset:
    if len(s) > MAX_SET_SIZE[0]:
        raise too_many_elements()
    return s


def sfilter(s, whole, pred):
    """{x \\in S : P}: whole(S) filters a frozenset S at once; a lazy S stays lazy. A filter
    keeping more than MAX_SET_SIZE elements is TLC's error."""
    if type(s) is frozenset:
        return _bounded(whole(s))
    if infinite(s):
        return FilterSet(s, pred)
    return FilterSet(s, pred, whole)


def setfilter(p, s):
    return _bounded(frozenset(x for x in enum(s) if truth(p(x))))


def funcons(keys, f):
    """[x \\in S |-> f(x)] over the finite set `keys`."""
    ks = ordered(_set(keys))
    return make_fn((k, f(k)) for k in ks)
