"""Temporal formulas of TLA+ as the engine's LTL: negated, in negation normal form, over
compiled atoms; and the fairness conjuncts of a SPECIFICATION as WF/SF conditions.

`[]`, `<>`, `~>`, WF/SF, `\\A`/`\\E` over constant sets, IF with temporal branches, boolean
connectives and definitions whose bodies are temporal are translated structurally; every
maximal non-temporal subformula becomes one atom: a state predicate, or an action (it has
primes) evaluated on a step. `[A]_v` and `<<A>>_v` are actions.
"""
from __future__ import annotations

import itertools
from pathlib import Path

from .. import interface as ltl
from ..frontend import ast
from .analysis import mentions_prime, subscripted_action
from .codegen_runtime import UNDECIDED_ENABLED
from .compiler import Compiler
from .runtime import enum
from .scope import CompileError, Env, NotConstant
from .values import EvalError, UnknownUsed

_TEMPORAL_OPS = ("[]", "<>", "~>", "-+->")


class Translator:
    def __init__(self, compiler: Compiler):
        self.c = compiler
        self.atoms: list[ltl.Atom] = []
        self._temporal_memo: dict = {}

    # -- is a formula temporal? ----------------------------------------------------------
    def is_temporal(self, e, env: Env) -> bool:
        if isinstance(e, ast.Fairness):
            return True
        if isinstance(e, ast.Quant) and e.kind in ("AA", "EE"):
            return True
        if isinstance(e, ast.OpApp) and e.op in _TEMPORAL_OPS and e.op not in env.locals:
            return True
        if isinstance(e, (ast.BoxAction, ast.AngleAction)):
            return False
        target = self._definition(e, env)
        if target is not None:
            d, denv, args = target
            key = (id(d), denv.frame.ident)
            if key not in self._temporal_memo:
                self._temporal_memo[key] = False  # recursion guard
                self._temporal_memo[key] = self.is_temporal(d.body, denv)
            if self._temporal_memo[key]:
                return True
            return any(self.is_temporal(a, env) for a in args if isinstance(a, ast.Node))
        if isinstance(e, ast.Let):
            try:
                return self.is_temporal(e.body, self.let_env(e, env))
            except CompileError:
                return self.is_temporal(e.body, env)
        if isinstance(e, ast.Node):
            for f in e.__dataclass_fields__:
                if f == "span":
                    continue
                x = getattr(e, f)
                if isinstance(x, ast.Node) and self.is_temporal(x, env):
                    return True
                if isinstance(x, tuple) and any(
                        self._tuple_temporal(y, env) for y in x):
                    return True
        return False

    def _tuple_temporal(self, y, env) -> bool:
        if isinstance(y, ast.Node):
            return self.is_temporal(y, env)
        if isinstance(y, tuple):
            return any(self._tuple_temporal(z, env) for z in y)
        return False

    def _definition(self, e, env: Env):
        if isinstance(e, ast.InstanceRef):
            if e.path[0][0] in env.locals:
                return None
            found = self.c.instance_def(e, env)
            if found is None or not isinstance(found[0], ast.OpDef):
                return None
            return found
        target = self.c.user_def(e, env)
        if target is None or not isinstance(target[0], ast.OpDef):
            return None
        return target

    # -- translation ---------------------------------------------------------------------
    def formula(self, e, env: Env, positive: bool = True):
        """LTL for e (or for ~e when not positive), in negation normal form."""
        if not self.is_temporal(e, env):
            return self._atom(e, env, positive)
        if isinstance(e, ast.Junction):
            op = "and" if e.kind == "and" else "or"
            return self._fold(op, [self.formula(x, env, positive) for x in e.items], positive)
        if isinstance(e, ast.OpApp) and e.op not in env.locals:
            a = e.args
            if e.op == "\\land":
                return self._fold("and", [self.formula(x, env, positive) for x in a], positive)
            if e.op == "\\lor":
                return self._fold("or", [self.formula(x, env, positive) for x in a], positive)
            if e.op == "\\lnot":
                return self.formula(a[0], env, not positive)
            if e.op == "=>":
                parts = [self.formula(a[0], env, not positive), self.formula(a[1], env, positive)]
                return self._fold("or", parts, positive)
            if e.op in ("\\equiv", "<=>"):
                both = self._fold("and", [self.formula(a[0], env), self.formula(a[1], env)], True)
                neither = self._fold("and", [self.formula(a[0], env, False),
                                             self.formula(a[1], env, False)], True)
                if positive:
                    return ltl.disj(both, neither)
                return ltl.conj(self._fold("or", [self.formula(a[0], env, False),
                                                  self.formula(a[1], env, False)], True),
                                self._fold("or", [self.formula(a[0], env),
                                                  self.formula(a[1], env)], True))
            if e.op == "[]":
                inner = self.formula(a[0], env, positive)
                return ltl.always(inner) if positive else ltl.eventually(inner)
            if e.op == "<>":
                inner = self.formula(a[0], env, positive)
                return ltl.eventually(inner) if positive else ltl.always(inner)
            if e.op == "~>":  # [](P => <>Q)
                if positive:
                    return ltl.always(ltl.disj(self.formula(a[0], env, False),
                                               ltl.eventually(self.formula(a[1], env))))
                return ltl.eventually(ltl.conj(self.formula(a[0], env),
                                               ltl.always(self.formula(a[1], env, False))))
        if isinstance(e, ast.Fairness):
            return self._fairness_formula(e, env, positive)
        if isinstance(e, ast.Let):
            return self.formula(e.body, self.let_env(e, env), positive)
        if isinstance(e, ast.Quant) and e.kind in ("A", "E"):
            op = "and" if (e.kind == "A") == positive else "or"
            parts = [self.formula(e.body, benv, positive) for benv in self.bindings(e, env)]
            return self._fold(op, parts, True)
        if isinstance(e, ast.If):
            c_pos, c_neg = self._atom(e.cond, env, True), self._atom(e.cond, env, False)
            then, other = self.formula(e.then, env, positive), self.formula(e.else_, env,
                                                                             positive)
            if positive:
                return ltl.disj(ltl.conj(c_pos, then), ltl.conj(c_neg, other))
            return ltl.conj(ltl.disj(c_neg, then), ltl.disj(c_pos, other))
        target = self._definition(e, env)
        if target is not None:
            return self.formula(*_body_of(target, env), positive)
        raise CompileError("kipcheck cannot check this temporal formula (supported: [], <>, ~>, "
                           "WF, SF, boolean connectives, \\A and \\E over constant sets)",
                           getattr(e, "span", None))

    def let_env(self, e: ast.Let, env: Env) -> Env:
        """The env of a LET's body over a temporal formula: each definition is expanded
        where an atom uses it (a LET's value is the same wherever it is evaluated in a state),
        `G == INSTANCE M` names the instance for G!Op."""
        inner = env
        for d in e.defs:
            if isinstance(d, ast.OpDef) and not d.params:
                inner = inner.bind({d.name: ("expr", d.body, inner)})
            elif isinstance(d, ast.OpDef) and not any(p.arity for p in d.params):
                inner = inner.bind({d.name: ("def", d, inner)})
            elif isinstance(d, ast.InstanceDef):
                inner = inner.bind({d.name: ("instance", d, inner)})
            else:
                raise CompileError("kipcheck cannot check a temporal formula under this kind "
                                   "of LET definition (recursive, a function or an operator "
                                   "taking operators)", d.span)
        return inner

    def _fold(self, op: str, parts: list, positive: bool):
        """Conjunction/disjunction of parts; under negation the connective flips."""
        if not positive:
            op = "or" if op == "and" else "and"
        out = ltl.TRUE if op == "and" else ltl.FALSE
        for p in parts:
            out = ltl.conj(out, p) if op == "and" else ltl.disj(out, p)
        return out

    def bindings(self, e: ast.Quant, env: Env):
        """One environment per element of the quantifier's (constant) domains."""
        envs = [env]
        for b in e.bounds:
            if b.domain is None:
                raise CompileError("a temporal quantifier needs a bounded domain", b.span)
            try:
                dom = self.c.const_value(b.domain, env)
            except NotConstant:
                raise CompileError("the domain of a quantifier over a temporal formula must be "
                                   "constant", b.domain.span) from None
            try:
                values = list(enum(dom))
            except EvalError as err:
                raise CompileError(f"a quantifier over a temporal formula needs a finite domain "
                                   f"({err.message})", b.domain.span) from None
            names = b.names
            if b.tuple:  # <<x, y>> \in S: each element is a tuple of values
                combos = [tuple(v) for v in values]
            else:  # x, y \in S: every combination of values
                combos = list(itertools.product(values, repeat=len(names)))
            envs = [benv.bind({n: ("val", self.c.const_name(x))
                               for n, x in zip(names, combo, strict=True)})
                    for benv in envs for combo in combos]
        return envs

    def _atom(self, e, env: Env, positive: bool):
        if isinstance(e, ast.Bool):
            return ltl.TRUE if e.value == positive else ltl.FALSE
        if isinstance(e, (ast.BoxAction, ast.AngleAction)):
            e = subscripted_action(e)
        action = mentions_prime(e, self.c, env, set())
        n = len(self.atoms)
        name = f"live_atom_{n}"
        if action:
            fn = self.c.compile_action_predicate(e, env, name)
        else:
            fn = self.c.compile_predicate(e, env, name)
        self.atoms.append(ltl.Atom("action" if action else "state", fn))
        return ("lit", n, positive)

    def _fairness_formula(self, e: ast.Fairness, env: Env, positive: bool):
        """WF_v(A) == []<>~ENABLED <<A>>_v \\/ []<><<A>>_v;
        SF_v(A) == <>[]~ENABLED <<A>>_v \\/ []<><<A>>_v."""
        fair = self.fairness(e, env)
        n = len(self.atoms)
        self.atoms.append(ltl.Atom("state", fair.enabled))
        self.atoms.append(ltl.Atom("action", fair.taken))
        en, taken = ("lit", n, True), ("lit", n + 1, True)
        not_en, not_taken = ("lit", n, False), ("lit", n + 1, False)
        if positive:
            left = (ltl.always(ltl.eventually(not_en)) if e.kind == "WF"
                    else ltl.eventually(ltl.always(not_en)))
            return ltl.disj(left, ltl.always(ltl.eventually(taken)))
        left = (ltl.eventually(ltl.always(en)) if e.kind == "WF"
                else ltl.always(ltl.eventually(en)))
        return ltl.conj(left, ltl.eventually(ltl.always(not_taken)))

    def fairness(self, e: ast.Fairness, env: Env) -> ltl.Fairness:
        """WF_v(A) / SF_v(A) as predicates: ENABLED <<A>>_v on a state, <<A>>_v on a step."""
        sub = self.c.compile_predicate(e.sub, env, "fair_sub")
        step = self.c.compile_action_predicate(e.action, env, "fair_step")
        gen = self.c.compile_enabled(ast.AngleAction(e.action, e.sub, span=e.span), env,
                                     "fair_enabled")

        def enabled(s) -> bool:
            try:
                gen(s, _found)
            except _Found:
                return True
            except UnknownUsed:
                raise _undecided(e) from None
            return False

        def taken(s, t) -> bool:
            return sub(s) != sub(t) and step(s, t) is True

        return ltl.Fairness(e.kind, enabled, taken)

    # -- the SPECIFICATION's fairness ----------------------------------------------------
    def spec_fairness(self, parts: list) -> tuple[list[ltl.Fairness], tuple]:
        """Fairness conjuncts -> WF/SF conditions; any other temporal conjunct stays a formula
        that behaviours must satisfy (returned as LTL, TRUE if none)."""
        out: list[ltl.Fairness] = []
        extra = ltl.TRUE
        work = list(parts)
        while work:
            e, env = work.pop(0)
            if isinstance(e, ast.Fairness):
                out.append(self.fairness(e, env))
            elif isinstance(e, ast.Junction) and e.kind == "and":
                work[:0] = [(x, env) for x in e.items]
            elif isinstance(e, ast.OpApp) and e.op == "\\land" and e.op not in env.locals:
                work[:0] = [(x, env) for x in e.args]
            elif isinstance(e, ast.Quant) and e.kind == "A":
                work[:0] = [(e.body, benv) for benv in self.bindings(e, env)]
            elif (target := self._definition(e, env)) is not None:
                work.insert(0, _body_of(target, env))
            else:
                extra = ltl.conj(extra, self.formula(e, env, True))
        return out, extra


class _Found(Exception):
    pass


def _found(_t):
    raise _Found


def _undecided(e: ast.Fairness) -> EvalError:
    """ENABLED <<A>>_v needed the next value of a variable before A assigned it."""
    sp = e.span
    where = (f"line {sp.line}, col {sp.col} to line {sp.end_line}, col {sp.end_col - 1} of "
             f"module {Path(sp.file).stem}")
    return EvalError(f"{UNDECIDED_ENABLED}\nIt is the ENABLED <<A>>_v of {e.kind}_v(A) at "
                     f"{where}.", sp)


def _body_of(target, env: Env):
    """A call of a definition as its body, the arguments substituted by name (as TLC does)."""
    d, denv, args = target
    binds = {p.name: ("expr", a, env) for p, a in zip(d.params, args, strict=True)}
    return d.body, denv.bind(binds) if binds else denv
