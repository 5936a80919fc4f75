"""Level checking, as SANY does it before TLC runs anything.

Every TLA+ expression has a level: constant (0), state (1: it reads variables), action (2: it
reads primed variables) or temporal (3: [], <>, ~>, WF, ...). Some operators only make sense at
some levels: a prime applies to a state expression (`(x')'` means nothing), `<>` and `[]` to a
state or temporal formula but not to an action (`<>(x' = 1)` is not `<><<x' = 1>>_x`), the
subscript of `[][A]_v` is a state expression, an action and a temporal formula cannot be joined
by `/\\`, a value (an element of a set, an argument of `=`, ...) is not temporal, an ASSUME is
constant. TLC refuses such a spec (exit 150) even where the expression is never used; kipcheck
once checked it anyway, with a meaning TLC does not give it (`PROPERTY <>(x' = 1)` passed).

The level of a call of a user-defined operator is that of its body with each parameter at its
argument's level (SANY reports a body that fails then "in applying operator" at the call). What
this pass cannot know (an INSTANCE's substitutions, an operator passed as an argument, a
recursive call) has no level (None), and no rule fires on it: the pass never refuses a spec
SANY accepts for want of information.
"""
from __future__ import annotations

from . import ast
from .errors import Span, SpecError
from .modules import STANDARD_MODULES, ModuleSet
from .resolve import ModuleScope

CONSTANT, STATE, ACTION, TEMPORAL = 0, 1, 2, 3
_NAMES = {CONSTANT: "a constant", STATE: "a state", ACTION: "an action",
          TEMPORAL: "a temporal"}
_BOOLEAN = frozenset({"\\land", "\\lor", "\\lnot", "=>", "\\equiv", "<=>", "/\\", "\\/", "~"})
# Standard modules whose operators take values only (SANY: an argument is not temporal).
_VALUE_MODULES = frozenset({"Naturals", "Integers", "Reals", "Sequences", "FiniteSets", "Bags"})


def check_levels(mods: ModuleSet, scopes: dict[str, ModuleScope]) -> None:
    """Raise SpecError at the first expression whose level SANY rejects."""
    _Levels(mods, scopes).run()


def _max(levels) -> int | None:
    out = CONSTANT
    for lv in levels:
        if lv is None:
            return None
        out = max(out, lv)
    return out


class _Levels:
    def __init__(self, mods: ModuleSet, scopes: dict[str, ModuleScope]):
        self.mods, self.scopes = mods, scopes
        self.memo: dict = {}
        self.busy: set = set()

    def error(self, msg: str, span: Span | None) -> SpecError:
        source = self.mods.sources.get(span.file) if span else None
        return SpecError(f"level error: {msg}", span, source=source)

    def run(self) -> None:
        for name, scope in self.scopes.items():
            if name in STANDARD_MODULES:
                continue
            for unit in scope.module.units:
                if isinstance(unit, ast.OpDef):
                    env = {p.name: (None if p.arity else CONSTANT) for p in unit.params}
                    self.level(unit.body, env, scope)
                elif isinstance(unit, ast.FuncDef):
                    self.level(unit.body, self.bounds(unit.bounds, {}, scope), scope)
                elif isinstance(unit, ast.Assume) and unit.expr is not None:
                    lv = self.level(unit.expr, {}, scope)
                    if lv is not None and lv > CONSTANT:
                        raise self.error(f"an ASSUME must be a constant formula, this one is "
                                         f"{_NAMES[lv]}-level formula", unit.expr.span)

    # -- helpers ------------------------------------------------------------------------------
    def at_most(self, e, env, scope, most: int, what: str) -> int | None:
        lv = self.level(e, env, scope)
        if lv is not None and lv > most:
            raise self.error(f"{what} must be at most {_NAMES[most]}-level expression, "
                             f"this one is {_NAMES[lv]}-level", e.span)
        return lv

    def value(self, e, env, scope) -> int | None:
        """e is a value (an operand of =, an element of a set, ...): not temporal."""
        return self.at_most(e, env, scope, ACTION, "a value")

    def not_action(self, e, env, scope, op: str) -> None:
        if self.level(e, env, scope) == ACTION:
            form = "<><<A>>_v" if op == "<>" else "[][A]_v"
            raise self.error(f"{op} applies to a state or temporal formula, not to an action "
                             f"(for an action, write {form})", e.span)

    def bounds(self, bounds, env, scope) -> dict:
        inner = dict(env)
        for b in bounds:
            if b.domain is not None:
                self.value(b.domain, env, scope)
            for n in b.names:
                inner[n] = CONSTANT
        return inner

    # -- expressions --------------------------------------------------------------------------
    def level(self, e, env: dict, scope: ModuleScope) -> int | None:  # noqa: C901 - a dispatch
        t = type(e)
        if t in (ast.Num, ast.Decimal, ast.Str, ast.Bool, ast.BuiltinSet):
            return CONSTANT
        if t is ast.Ident:
            return self.name(e, (), env, scope)
        if t is ast.OpApp:
            return self.apply(e, env, scope)
        if t is ast.At:
            return env.get("@")
        if t is ast.InstanceRef:
            for _, args in e.path:
                for a in args:
                    self.level(a, env, scope)
            for a in e.args:
                self.level(a, env, scope)
            return None
        if t is ast.Junction:
            return self.boolean([self.level(x, env, scope) for x in e.items], e.span)
        if t is ast.Quant:
            inner = self.bounds(e.bounds, env, scope)
            body = self.level(e.body, inner, scope)
            return TEMPORAL if e.kind in ("AA", "EE") else _max([body] + [
                self.level(b.domain, env, scope) for b in e.bounds if b.domain is not None])
        if t is ast.Choose:
            inner = self.bounds((e.bound,), env, scope)
            return _max([self.value(e.body, inner, scope)] + (
                [self.level(e.bound.domain, env, scope)] if e.bound.domain is not None else []))
        if t in (ast.SetEnum, ast.Tuple):
            return _max([self.value(x, env, scope) for x in e.elems])
        if t is ast.SetFilter:
            inner = self.bounds((e.bound,), env, scope)
            return _max([self.value(e.pred, inner, scope),
                         self.level(e.bound.domain, env, scope)])
        if t is ast.SetMap:
            inner = self.bounds(e.bounds, env, scope)
            return _max([self.value(e.expr, inner, scope)]
                        + [self.level(b.domain, env, scope) for b in e.bounds])
        if t is ast.FuncCons:
            inner = self.bounds(e.bounds, env, scope)
            return _max([self.level(e.body, inner, scope)]
                        + [self.level(b.domain, env, scope) for b in e.bounds])
        if t is ast.FuncSet:
            return _max([self.level(e.domain, env, scope), self.level(e.codomain, env, scope)])
        if t is ast.CartProd:
            return _max([self.level(x, env, scope) for x in e.factors])
        if t in (ast.Record, ast.RecordSet):
            return _max([self.level(v, env, scope) for _, v in e.fields])
        if t is ast.FuncApp:
            return _max([self.level(e.func, env, scope)]
                        + [self.value(a, env, scope) for a in e.args])
        if t is ast.FieldAccess:
            return self.level(e.record, env, scope)
        if t is ast.Except:
            func = self.level(e.func, env, scope)
            inner = {**env, "@": func}
            parts = [func]
            for u in e.updates:
                for kind, val in u.path:
                    if kind == "index":
                        parts += [self.level(a, env, scope) for a in val]
                parts.append(self.value(u.value, inner, scope))
            return _max(parts)
        if t is ast.If:
            return _max([self.level(e.cond, env, scope), self.level(e.then, env, scope),
                         self.level(e.else_, env, scope)])
        if t is ast.Case:
            parts = []
            for cond, val in e.arms:
                parts += [self.level(cond, env, scope), self.level(val, env, scope)]
            if e.other is not None:
                parts.append(self.level(e.other, env, scope))
            return _max(parts)
        if t is ast.Let:
            inner = dict(env)
            for d in e.defs:
                if isinstance(d, ast.OpDef):
                    local = {**inner, **{p.name: (None if p.arity else CONSTANT)
                                         for p in d.params}}
                    self.level(d.body, local, scope)  # checked once, as SANY does
                    inner[d.name] = ("let", d, dict(inner))
                elif isinstance(d, ast.FuncDef):
                    inner[d.name] = self.level(d.body, self.bounds(d.bounds, inner, scope),
                                               scope)
                elif isinstance(d, ast.Recursive):
                    for p in d.decls:
                        inner[p.name] = None
                elif getattr(d, "name", None):
                    inner[d.name] = None
            return self.level(e.body, inner, scope)
        if t is ast.Lambda:
            return None
        if t in (ast.BoxAction, ast.AngleAction):
            self.at_most(e.action, env, scope, ACTION, "the action of [A]_v or <<A>>_v")
            self.at_most(e.sub, env, scope, STATE, "the subscript v of [A]_v or <<A>>_v")
            return ACTION  # [A]_v is A \/ UNCHANGED v; [] makes it temporal
        if t is ast.Fairness:
            self.at_most(e.action, env, scope, ACTION, f"the action of {e.kind}_v(A)")
            self.at_most(e.sub, env, scope, STATE, f"the subscript v of {e.kind}_v(A)")
            return TEMPORAL
        return None

    def boolean(self, levels: list, span) -> int | None:
        if ACTION in levels and TEMPORAL in levels:
            raise self.error("an action and a temporal formula cannot be combined (for an "
                             "action that must hold at every step, write [][A]_v)", span)
        return _max(levels)

    def apply(self, e: ast.OpApp, env, scope) -> int | None:
        op, args = e.op, e.args
        if op in env or scope.symbols.get(op) is not None:
            return self.name(e, args, env, scope)
        if op in ("'", "UNCHANGED"):
            self.at_most(args[0], env, scope, STATE, f"the argument of {op}")
            return ACTION
        if op == "ENABLED":
            self.at_most(args[0], env, scope, ACTION, "the argument of ENABLED")
            return STATE
        if op in ("[]", "<>"):
            # [][A]_v and <><<A>>_v: the one action each may apply to
            form = ast.BoxAction if op == "[]" else ast.AngleAction
            if type(args[0]) is form:
                self.level(args[0], env, scope)
            else:
                self.not_action(args[0], env, scope, op)
            return TEMPORAL
        if op in ("~>", "-+->"):
            for a in args:
                self.not_action(a, env, scope, op)
            return TEMPORAL
        if op in _BOOLEAN:
            return self.boolean([self.level(a, env, scope) for a in args], e.span)
        if op == "\\cdot":
            return _max([self.at_most(a, env, scope, ACTION, "an argument of \\cdot")
                         for a in args])
        return _max([self.value(a, env, scope) for a in args])

    def name(self, e, args, env, scope) -> int | None:
        """The level of a name, or of an operator applied to args."""
        name = e.name if isinstance(e, ast.Ident) else e.op
        if name in env:
            bound = env[name]
            if isinstance(bound, tuple):  # a LET definition: its body at the arguments' levels
                _, d, denv = bound
                levels = [self.level(a, env, scope) for a in args]
                inner = {**denv, **{p.name: (None if p.arity else lv)
                                    for p, lv in zip(d.params, levels, strict=False)}}
                return self.call(d, inner, scope, e)
            for a in args:
                self.level(a, env, scope)
            return bound if not args else None
        sym = scope.symbols.get(name)
        levels = [self.level(a, env, scope) for a in args]
        if sym is None:
            return None
        if sym.kind == "variable":
            return STATE
        if sym.kind == "constant":
            return _max(levels)
        if sym.kind not in ("operator", "function") or sym.module not in self.scopes:
            return None
        if sym.module != scope.name and sym.module not in self.extended(scope.name):
            return None  # from an INSTANCE: its substitutions may change the levels
        if sym.module in STANDARD_MODULES:
            if sym.module in _VALUE_MODULES:
                for a, lv in zip(args, levels, strict=True):
                    if lv == TEMPORAL:
                        raise self.error(f"{name} takes values: this argument is a temporal "
                                         f"formula", a.span)
            return _max(levels)
        d = sym.node
        home = self.scopes[sym.module]
        if isinstance(d, ast.FuncDef):
            return self.call(d, self.bounds_levels(d), home, e)
        if not isinstance(d, ast.OpDef):
            return None
        inner = {p.name: (None if p.arity else lv)
                 for p, lv in zip(d.params, levels, strict=False)}
        return self.call(d, inner, home, e)

    def extended(self, name: str) -> set:
        """The modules `name` EXTENDS, directly or not."""
        out, todo = set(), [name]
        while todo:
            scope = self.scopes.get(todo.pop())
            for ext in scope.module.extends if scope is not None else ():
                if ext not in out:
                    out.add(ext)
                    todo.append(ext)
        return out

    @staticmethod
    def bounds_levels(d: ast.FuncDef) -> dict:
        return {n: CONSTANT for b in d.bounds for n in b.names}

    def call(self, d, inner: dict, scope, at) -> int | None:
        """The level of d's body with its parameters at the levels `inner` gives; an error in
        it is reported at the call `at` (the body alone was checked where it is defined)."""
        key = (id(d), tuple(sorted((k, v) for k, v in inner.items()
                                   if not isinstance(v, tuple))))
        if key in self.memo:
            return self.memo[key]
        if key in self.busy:
            return None  # a recursive call: its level is not known yet
        self.busy.add(key)
        try:
            lv = self.level(d.body, inner, scope)
        except SpecError as err:
            if err.span == at.span:
                raise
            name = getattr(d, "name", "")
            raise self.error(f"in applying {name}: "
                             f"{err.message.removeprefix('level error: ')}", at.span) from None
        finally:
            self.busy.discard(key)
        self.memo[key] = lv
        return lv
