"""The standard module Bags as TLC evaluates it: natively, with TLC's checks.

The module's TLA+ definitions accept any function; TLC's own implementation checks that a
bag's counts are positive integers where an operator needs a bag (BagCardinality, (+)), reads
the count of a found element as it is (BagIn is FALSE for a count of 0, CopiesIn returns it)
and is an error for a count that is no integer. A spec that builds a function with a count of
0 and calls it a bag thus stops under TLC; these functions make kipcheck stop there too,
instead of computing an answer from the textbook definitions.
"""
from __future__ import annotations

import itertools

from .runtime import app, eq, in_domain
from .values import (
    EvalError,
    Fn,
    as_set,
    fn_from_ordered,
    is_set,
    make_fn,
    ordered,
    same_kinds,
    show,
)

__all__ = ["is_a_bag", "bag_cardinality", "bag_in", "copies_in", "bag_cup", "bag_diff",
           "bag_union", "bag_sqsubseteq", "bag_of_all", "bag_to_set", "set_to_bag", "sub_bag"]


def _pairs(f) -> list | None:
    """The (key, count) pairs of a function value, in its order; None for any other value."""
    if type(f) is tuple:
        return list(enumerate(f, 1))
    if type(f) is Fn:
        return list(zip(f[0], f[1], strict=True))
    return None


def _counts_positive(pairs) -> bool:
    return all(type(n) is int and n > 0 for _, n in pairs)


def _wrong_value(op: str, what: str, v) -> EvalError:
    return EvalError(f"Applying {op} to the following value, which is not {what}:\n{show(v)}")


def _wrong_argument(nth: str, op: str, v) -> EvalError:
    return EvalError(f"The {nth} argument of {op} should be a bag, but instead it is:\n"
                     f"{show(v)}")


def _count_of(e, b):
    """(found, count) of e in the function b, its keys compared as TLC compares them."""
    if in_domain(e, b):
        return True, app(b, e)
    return False, 0


def _merge(parts) -> object:
    """The bag whose counts are the sums of the parts' counts. A key is looked up by value;
    one of a type no earlier key has is first compared with them all, as TLC does (the
    error where kinds clash)."""
    keys: list = []
    counts: list = []
    index: dict = {}
    types: set = set()
    for pairs in parts:
        for k, n in pairs:
            i = index.get(k)
            if i is not None and (keys[i] is k or same_kinds(keys[i], k)):
                counts[i] += n
                continue
            if types and type(k) not in types:
                for known in keys:
                    eq(k, known)
            types.add(type(k))
            index[k] = len(keys)
            keys.append(k)
            counts.append(n)
    return make_fn(zip(keys, counts, strict=True))


def is_a_bag(b) -> bool:
    pairs = _pairs(b)
    return pairs is not None and _counts_positive(pairs)


def bag_cardinality(b) -> int:
    pairs = _pairs(b)
    if pairs is None:
        raise _wrong_value("BagCardinality", "a function with a finite domain", b)
    if not _counts_positive(pairs):
        raise _wrong_value("BagCardinality", "a bag", b)
    return sum(n for _, n in pairs)


def bag_in(e, b) -> bool:
    if type(b) is not tuple and type(b) is not Fn:
        raise _wrong_argument("second", "BagIn", b)
    found, n = _count_of(e, b)
    if not found:
        return False
    if type(n) is not int:
        raise _wrong_argument("second", "BagIn", b)
    return n > 0


def copies_in(e, b) -> int:
    if type(b) is not tuple and type(b) is not Fn:
        raise _wrong_argument("second", "CopiesIn", b)
    found, n = _count_of(e, b)
    if found and type(n) is not int:
        raise _wrong_argument("second", "CopiesIn", b)
    return n


def bag_cup(b1, b2):
    """B1 (+) B2: both must be bags."""
    p1, p2 = _pairs(b1), _pairs(b2)
    if p1 is None or not _counts_positive(p1):
        raise _wrong_argument("first", "(+)", b1)
    if p2 is None or not _counts_positive(p2):
        raise _wrong_argument("second", "(+)", b2)
    return _merge((p1, p2))


def bag_diff(b1, b2):
    """B1 (-) B2: B1's elements whose count stays positive once B2's copies are taken out."""
    p1, p2 = _pairs(b1), _pairs(b2)
    if p1 is None:
        raise _wrong_argument("first", "(-)", b1)
    if p2 is None:
        raise _wrong_argument("second", "(-)", b2)
    keys, counts = [], []
    for k, n in p1:
        if type(n) is not int:  # TLC reads every count of B1 as an integer
            raise _wrong_argument("first", "(-)", b1)
        found, m = _count_of(k, b2)
        if found and type(m) is not int:
            raise _wrong_argument("second", "(-)", b2)
        left = n - m if found else n
        if left > 0:
            keys.append(k)
            counts.append(left)
    return make_fn(zip(keys, counts, strict=True))


def bag_union(s):
    """BagUnion(S): the sum of the bags of the finite set S (one bag: itself, as it is)."""
    if not is_set(s):
        raise _wrong_value("BagUnion", "a finite enumerable set", s)
    bags = ordered(as_set(s))
    if not bags:
        return ()  # the empty function
    if len(bags) == 1:
        return bags[0]
    parts = [_pairs(b) for b in bags]
    if any(p is None for p in parts):
        raise EvalError(f"Attempted to apply BagUnion to the following set, whose elements "
                        f"are not all bags:\n{show(s)}")
    return _merge(parts)


def bag_sqsubseteq(b1, b2) -> bool:
    p1, p2 = _pairs(b1), _pairs(b2)
    if p1 is None:
        raise _wrong_value("\\sqsubseteq", "a function with a finite domain", b1)
    if p2 is None:
        raise _wrong_value("\\sqsubseteq", "a function with a finite domain", b2)
    for k, n in p1:
        found, m = _count_of(k, b2)
        if (n - m if found else n) > 0:
            return False
    return True


def bag_of_all(f, b):
    """BagOfAll(F, B): the bag of the F(x), each x counted as often as it is in B."""
    pairs = _pairs(b)
    if pairs is None:
        raise EvalError(f"The second argument of BagOfAll should be a function with a finite "
                        f"domain, but instead it is:\n{show(b)}")
    return _merge([[(f(k), n)] for k, n in pairs])


def bag_to_set(b):
    pairs = _pairs(b)
    if pairs is None:
        raise _wrong_value("BagToSet", "a function with a finite domain", b)
    return frozenset(k for k, _ in pairs)


def set_to_bag(s):
    if not is_set(s):
        raise _wrong_value("SetToBag", "a set", s)
    elems = ordered(as_set(s))
    return fn_from_ordered(tuple(elems), (1,) * len(elems))


def sub_bag(b):
    """SubBag(B): every bag with at most B's copies of each element. TLC evaluates its module's
    definition, a recursive function whose domain holds only bags: B with a count that is no
    positive integer is outside it, TLC's error."""
    pairs = _pairs(b)
    if pairs is None or not _counts_positive(pairs):
        raise EvalError(f"Attempted to apply the function RSB of SubBag to\n{show(b)}\nwhich is "
                        "not in its domain (SubBag of a value that is no bag).")
    keys = [k for k, _ in pairs]
    return frozenset(make_fn((k, c) for k, c in zip(keys, counts, strict=True) if c)
                     for counts in itertools.product(*(range(n + 1) for _, n in pairs)))
