"""Recursive set folds. TLA+ specs sum or join over a set with this idiom:

    F(p, S) == IF S = {} THEN base
               ELSE LET x == CHOOSE x \\in S : TRUE IN  part(x) op F(p, S \\ {x})

Compiled as written, a set of n elements costs n nested calls, each choosing the least element
again and building S \\ {x}. The successive choices are S in TLC's order, so the operator
compiles to a loop over that order that evaluates the same parts, the base and the `op`s in the
same order as the recursion does: the same value and the same first error (and no recursion
limit); a sum of integers, the same in any order, is taken in the set's own order. Only a
strict built-in `op` qualifies (both operands are always evaluated), and only when neither the
part nor the base reads S or calls F; a set not yet listed (an interval, `SUBSET`) takes the
recursion as written."""
from __future__ import annotations

from dataclasses import dataclass

from ..frontend import ast
from .analysis import names_in
from .natives import STANDARD
from .scope import IMPURE, READS, Env

# Built-in infix operators that evaluate both operands (no short-circuit, no laziness).
_STRICT = frozenset({"+", "-", "*", "\\cup", "\\union", "\\cap", "\\intersect", "\\o",
                     "\\circ"})
_PART, _ACC = "%part", "%acc"  # names no TLA+ text can use: the loop's bound values


@dataclass(frozen=True)
class SetFold:
    """An operator recognised as a fold over its parameter `set_param`."""

    set_param: str
    elem: str  # the LET name of the chosen element
    base: ast.Node
    part: ast.Node
    combine: ast.OpApp  # the `part op F(...)` (or `F(...) op part`) node
    part_first: bool


def set_fold(d: ast.OpDef) -> SetFold | None:
    """d's fold shape, or None when d is not written as the idiom (see the module's text)."""
    params = [p.name for p in d.params]
    if not params or any(p.arity for p in d.params) or not isinstance(d.body, ast.If):
        return None
    cond, els = d.body.cond, d.body.else_
    if not (isinstance(cond, ast.OpApp) and cond.op == "=" and len(cond.args) == 2):
        return None
    sides = [a for a in cond.args if isinstance(a, ast.Ident) and a.name in params]
    empty = [a for a in cond.args if isinstance(a, ast.SetEnum) and not a.elems]
    if len(sides) != 1 or len(empty) != 1:
        return None
    s = sides[0].name
    if not (isinstance(els, ast.Let) and len(els.defs) == 1):
        return None
    x = els.defs[0]
    if not (isinstance(x, ast.OpDef) and not x.params and x.name not in params
            and isinstance(x.body, ast.Choose) and isinstance(x.body.body, ast.Bool)
            and x.body.body.value is True and not x.body.bound.tuple
            and len(x.body.bound.names) == 1
            and isinstance(x.body.bound.domain, ast.Ident) and x.body.bound.domain.name == s):
        return None
    comb = els.body
    if not (isinstance(comb, ast.OpApp) and comb.op in _STRICT and len(comb.args) == 2):
        return None
    calls = [i for i, a in enumerate(comb.args) if _is_step(a, d, params, s, x.name)]
    if len(calls) != 1:
        return None
    part = comb.args[1 - calls[0]]
    base = d.body.then
    if {s, d.name} & names_in(part) or {s, d.name, x.name} & names_in(base):
        return None
    return SetFold(s, x.name, base, part, comb, part_first=calls[0] == 1)


def _is_step(e, d: ast.OpDef, params: list, s: str, x: str) -> bool:
    """Is e the recursive call F(p, S \\ {x}), every other parameter passed on unchanged?"""
    if not (isinstance(e, ast.OpApp) and e.op == d.name and len(e.args) == len(params)):
        return False
    for p, a in zip(params, e.args, strict=True):
        if p == s:
            if not (isinstance(a, ast.OpApp) and a.op == "\\" and len(a.args) == 2
                    and isinstance(a.args[0], ast.Ident) and a.args[0].name == s
                    and isinstance(a.args[1], ast.SetEnum) and len(a.args[1].elems) == 1
                    and isinstance(a.args[1].elems[0], ast.Ident)
                    and a.args[1].elems[0].name == x):
                return False
        elif not (isinstance(a, ast.Ident) and a.name == p):
            return False
    return True


class FoldsMixin:
    """Compiler part: the loop a recursive set fold compiles to."""

    def fold_source(self, d: ast.OpDef, penv: Env, params: dict, body: str) -> str | None:
        """The Python function (with `{name}` for its name) of d compiled as a loop, falling
        back on `body` (d's recursion as compiled) for a set not listed yet; None when d is
        not a fold or its operator or name mean something else here."""
        fold = set_fold(d)
        if fold is None or not self._builtin_op(fold.combine.op, penv):
            return None
        sym = penv.scope.symbols.get(d.name)
        if sym is None or sym.node is not d or d.name in penv.locals:
            return None
        elem = self._local(fold.elem)
        part, part_flags = self.expr(fold.part, penv.bind({fold.elem: ("val", elem)}))
        base, _ = self.expr(fold.base, penv)
        val, acc = self._local("part"), self._local("acc")
        span = fold.combine.span
        pv, av = ast.Ident(_PART, span=span), ast.Ident(_ACC, span=span)
        node = ast.OpApp(fold.combine.op, (pv, av) if fold.part_first else (av, pv), span=span)
        comb, _ = self.expr(node, penv.bind({_PART: ("val", val), _ACC: ("val", acc)}))
        s = params[fold.set_param][1]
        plist = ", ".join(b[1] for b in params.values())
        head = f"def {{name}}(s, t, {plist}):\n    if type({s}) is frozenset:\n"
        if fold.combine.op == "+" and not part_flags & (IMPURE | READS):
            self.g.setdefault("_INT_ONLY", frozenset((int,)))
            # A sum of integers is the same in any order: the parts are computed in the set's
            # own order, and only when one fails or is not an integer are they computed again
            # in TLC's (they are pure), for the recursion's value or first error.
            head += (f"        try:\n"
                     f"            _parts = [{part} for {elem} in {s}]\n"
                     f"        except Exception:\n"
                     f"            _parts = None\n"
                     f"        if _parts is not None and set(map(type, _parts)) <= _INT_ONLY:\n"
                     f"            {acc} = {base}{self._tag(fold.base.span)}\n"
                     f"            if type({acc}) is int:\n"
                     f"                return {acc} + sum(_parts)\n")
        if fold.part_first:  # parts from the least element on, then the base, combined back
            loop = (f"        _parts = [{part} for {elem} in ordered({s})]"
                    f"{self._tag(fold.part.span)}\n"
                    f"        {acc} = {base}{self._tag(fold.base.span)}\n"
                    f"        for {val} in reversed(_parts):\n"
                    f"            {acc} = {comb}{self._tag(fold.combine.span)}\n")
        else:  # the base first, then each part from the greatest element down, combined
            loop = (f"        {acc} = {base}{self._tag(fold.base.span)}\n"
                    f"        for {elem} in reversed(ordered({s})):\n"
                    f"            {val} = {part}{self._tag(fold.part.span)}\n"
                    f"            {acc} = {comb}{self._tag(fold.combine.span)}\n")
        return (head + loop + f"        return {acc}\n"
                f"    return {body}{self._tag(d.body.span)}\n")

    def _builtin_op(self, op: str, env: Env) -> bool:
        """Does the infix `op` mean the standard modules' operator here?"""
        sym = env.scope.symbols.get(op)
        if sym is None:
            return True
        return sym.module in STANDARD and self.replacement(sym) is None
