"""Native evaluation of the CommunityModules operators that kipcheck ships (Folds,
FiniteSetsExt, Functions, SequencesExt), as TLC's Java overrides evaluate them.

The modules' .tla text (checker/frontend/stdlib) gives every operator a definition; the ones
listed in NATIVE here are evaluated by these functions instead, because their definitions
recurse over SUBSET S or CHOOSE from sets of functions and would be far too slow.
"""
from __future__ import annotations

import itertools

from .runtime import EvalError, _set, app, domain, ordered, show

__all__ = ["map_then_fold_set", "fold_set", "fold_function", "set_max", "set_min", "set_sum",
           "fn_range", "set_to_seq", "choices"]


def map_then_fold_set(op, base, f, choose, s):
    """op(f(x1), op(f(x2), ... op(f(xn), base))), with x1 = choose(S), x2 = choose(S \\ {x1})."""
    rest = _set(s)
    picked = []
    while rest:
        x = choose(rest)
        picked.append(x)
        rest = rest - {x}
    acc = base
    for x in reversed(picked):
        acc = op(f(x), acc)
    return acc


def fold_set(op, base, s):
    """MapThenFoldSet(op, base, identity, CHOOSE-any, S): the elements in TLC's order."""
    acc = base
    for x in reversed(ordered(_set(s))):
        acc = op(x, acc)
    return acc


def fold_function(op, base, fun, indices=None):
    """FoldFunctionOnSet(op, base, fun, indices); FoldFunction when indices is DOMAIN fun."""
    keys = domain(fun) if indices is None else _set(indices)
    acc = base
    for k in reversed(ordered(keys)):
        acc = op(app(fun, k), acc)
    return acc


def _numbers(s, op: str) -> list:
    elems = ordered(_set(s))
    for x in elems:
        if type(x) is not int:
            raise EvalError(f"The argument of {op} should be a set of integers, but it contains "
                            f"{show(x)}")
    return elems


_NO_CHOICE = ("Attempted to compute the value of an expression of form\nCHOOSE x \\in S: P, "
              "but no element of S satisfied P.")


def set_max(s):
    elems = _numbers(s, "Max")
    if not elems:
        raise EvalError(_NO_CHOICE)
    return max(elems)


def set_min(s):
    elems = _numbers(s, "Min")
    if not elems:
        raise EvalError(_NO_CHOICE)
    return min(elems)


def set_sum(s):
    return sum(_numbers(s, "SumSet"))


def fn_range(f):
    """{f[x] : x \\in DOMAIN f}."""
    t = type(f)
    if t is tuple:
        return frozenset(f)
    return frozenset(app(f, k) for k in domain(f))


def choices(sets):
    """Choices(Sets) as TLC's override computes it: for each way of picking one element of
    every set of Sets, the set of the picked elements."""
    members = [ordered(_set(t)) for t in ordered(_set(sets))]
    return frozenset(frozenset(pick) for pick in itertools.product(*members))


def set_to_seq(s):
    """The elements of S in TLC's order."""
    return tuple(ordered(_set(s)))


# (module, name) -> code template, `{0}`... the compiled arguments (as compiler.NATIVE).
NATIVE = {
    ("Folds", "MapThenFoldSet"): "map_then_fold_set({0}, {1}, {2}, {3}, {4})",
    ("FiniteSetsExt", "FoldSet"): "fold_set({0}, {1}, {2})",
    ("FiniteSetsExt", "ReduceSet"): "fold_set({0}, {2}, {1})",
    ("FiniteSetsExt", "Max"): "set_max({0})",
    ("FiniteSetsExt", "Min"): "set_min({0})",
    ("FiniteSetsExt", "SumSet"): "set_sum({0})",
    ("FiniteSetsExt", "Choices"): "choices({0})",
    ("Functions", "Range"): "fn_range({0})",
    ("Functions", "FoldFunction"): "fold_function({0}, {1}, {2})",
    ("Functions", "FoldFunctionOnSet"): "fold_function({0}, {1}, {2}, {3})",
    ("SequencesExt", "SetToSeq"): "set_to_seq({0})",
}
# Native operators whose arguments at these positions are operators (Python callables).
HIGHER_ORDER = {
    ("Folds", "MapThenFoldSet"): (0, 2, 3),
    ("FiniteSetsExt", "FoldSet"): (0,),
    ("FiniteSetsExt", "ReduceSet"): (0,),
    ("Functions", "FoldFunction"): (0,),
    ("Functions", "FoldFunctionOnSet"): (0,),
}
MODULES = ("Folds", "FiniteSetsExt", "Functions", "SequencesExt")
