"""Definitions: a call of a user operator (compiled once per frame into a Python function
`(s, t, *args)`, computed once when it is constant, expanded in place when it is action-level),
recursive function definitions, the .cfg's `Name <- Other` replacements, and LET."""
from __future__ import annotations

import re

from ..frontend import ast
from ..frontend.resolve import Symbol
from . import runtime
from .analysis import mentions_prime
from .closures import closure
from .constant_fold import trivial
from .memo import memoised
from .natives import STANDARD
from .scope import LOCAL, READS, STATE, CompileError, Env, pyname
from .values import EvalError

# Code that loops (comprehensions, quantifiers, CHOOSE) or calls another definition.
_LOOPS_RE = re.compile(r"\bfor\b|\blambda\b|\bchoose\(|\bop\d+_")


class DefsMixin:
    """Compiler part: user definitions, replacements and LET."""

    def user_def(self, e, env: Env):
        """If e calls a user definition (not a bound name), return (def, its env, args)."""
        if isinstance(e, ast.Ident):
            name, args = e.name, ()
        elif isinstance(e, ast.OpApp) and e.op[:1].isalpha():
            name, args = e.op, e.args
        else:
            return None
        if name in env.locals:
            return None
        sym = env.scope.symbols.get(name)
        if sym is not None and env.frame is self.root_frame and name in self.constants:
            return None  # the .cfg gives it a value: no definition to expand
        if sym is not None and sym.kind == "constant" and sym.arity:
            return self._substituted_def(sym, env, args)
        if sym is None or sym.kind != "operator" or not isinstance(sym.node, ast.OpDef):
            return None
        target = self.replacement(sym)
        if target is not None:
            # `Name <- Other` in the .cfg: Other's definition, wherever Name is used.
            sym = self.root.symbols.get(target)
            if sym is None or not isinstance(sym.node, ast.OpDef):
                return None
            env = self.root_env()
        if sym.module in STANDARD:
            return None
        denv = self.def_env(sym, env)
        return sym.node, denv, args

    def replacement(self, sym: Symbol) -> str | None:
        """The root definition a .cfg `Name <- Other` (or `Name <- [Mod] Other`) puts in
        place of the operator sym names. As in TLC, it replaces that definition wherever it is
        used, inside instances too (`Seq <- BoundedSeq` reaches an INSTANCEd module's Seq);
        another module's definition of the same name needs `<- [Mod]`."""
        if self._replaced is None:
            self._replaced = {}
            named = [(self.root, n, t) for n, t in self.overrides.items()]
            named += [(self.scopes.get(m), n, t) for (m, n), t in self.module_overrides.items()]
            for scope, name, target in named:
                d = scope.symbols.get(name) if scope is not None else None
                if d is not None and d.kind in ("operator", "function"):
                    self._replaced[id(d.node)] = target
        return self._replaced.get(id(sym.node)) if sym.kind in ("operator", "function") else None

    def lambda_def(self, lam: ast.Lambda) -> ast.OpDef:
        """A LAMBDA as the definition an action expands in place (one per LAMBDA, so that
        what is remembered by a definition's identity stays its own)."""
        d = self._lambda_defs.get(id(lam))
        if d is None or d[0] is not lam:
            d = self._lambda_defs[id(lam)] = (lam, ast.OpDef(
                name="LAMBDA", params=tuple(ast.Param(name=p, span=lam.span)
                                            for p in lam.params), body=lam.body,
                span=lam.span))
        return d[1]

    def _substituted_def(self, sym: Symbol, env: Env, args):
        """An operator constant that an INSTANCE ... WITH or a .cfg `<-` replaces by a
        definition: that definition, so actions expand it in place as TLC does."""
        if env.frame is self.root_frame:
            target = self.overrides.get(sym.name)
            if target is None:
                return None
            tsym = self.root.symbols.get(target)
            if tsym is None or not isinstance(tsym.node, ast.OpDef):
                return None
            return tsym.node, self.def_env(tsym, self.root_env()), args
        sub = env.frame.subst.get(sym.name)
        if sub is not None and isinstance(sub[0], ast.Lambda):  # WITH Op <- LAMBDA ...
            return self.lambda_def(sub[0]), sub[1], args
        if sub is None or not isinstance(sub[0], ast.Ident):
            return None
        return self.user_def(ast.OpApp(sub[0].name, args, span=sub[0].span), sub[1])

    def _call_def(self, sym: Symbol, env: Env, args, e):
        d = sym.node
        denv = self.def_env(sym, env)
        key = (denv.frame.ident, sym.module, sym.name, self.mode == "primed")
        if isinstance(d, ast.FuncDef):
            raw, self._raw_fn = self._raw_fn, False  # its body's own applications decide
            try:
                fname, flags = self._compiled_funcdef(sym, d, denv, key)
            finally:
                self._raw_fn = raw
            if args:
                raise CompileError(f"{sym.name!r} is a function: write {sym.name}[...]", e.span)
            if raw:
                return fname, flags  # a _LazyFn, which FuncApp applies point-wise
            return f"{fname}.full()", flags
        if isinstance(d, ast.Param):  # a RECURSIVE declaration: the definition follows
            real = self.scopes[sym.module].symbols.get(sym.name)
            if real is not None and isinstance(real.node, ast.OpDef):
                d = real.node
            else:
                raise CompileError(f"no definition for RECURSIVE {sym.name!r}", e.span)
        if isinstance(d, (ast.Theorem, ast.Assume)) and d.expr is not None and not args:
            return self.expr(d.expr, denv)  # a named THEOREM or ASSUME means its statement
        if isinstance(d, ast.Theorem) and d.expr is None:  # SANY rejects it too
            raise CompileError(f"{sym.name!r} is an ASSUME ... PROVE theorem, which is not an "
                               f"expression", e.span)
        if not isinstance(d, ast.OpDef):
            raise CompileError(f"kipcheck cannot evaluate {sym.name!r} (a "
                               f"{type(d).__name__})", e.span)
        what = "var" if self.mode in ("init", "primed") else "prime"
        if self.mode in ("action", "init", "primed") and mentions_prime(d.body, self, denv,
                                                                           set(), what):
            # Action-level definitions are expanded where they are used.
            binds = {}
            for p, a in zip(d.params, args, strict=True):
                binds[p.name] = ("val", a) if not p.arity else ("op", a, p.arity)
            code, flags = self.expr(d.body, denv.bind(binds))
            return code, flags | STATE
        if (self.mode == "expr" and d.params and isinstance(e, ast.OpApp)
                and len(e.args) == len(d.params) and not any(p.arity for p in d.params)
                and id(d) not in self._inlining and self._primes_inside(d, denv)):
            # A prime in the body applies to the arguments as written (F(a) == a' makes
            # F(x) mean x'): the call is expanded with its arguments substituted by name.
            binds = {p.name: ("expr", a, env) for p, a in zip(d.params, e.args, strict=True)}
            self._inlining.add(id(d))
            try:
                return self.expr(d.body, denv.bind(binds))
            finally:
                self._inlining.discard(id(d))
        if not denv.frame.cacheable and id(d) not in self._inlining:
            # A definition of a parametrized INSTANCE (P(Succ)!Op) reads the instance's
            # arguments, which may be the caller's bound names: compiled in place.
            binds = {}
            for p, a in zip(d.params, args, strict=True):
                binds[p.name] = ("val", a) if not p.arity else ("op", a, p.arity)
            self._inlining.add(id(d))
            try:
                return self.expr(d.body, denv.bind(binds))
            finally:
                self._inlining.discard(id(d))
        fname, flags = self._compiled_def(d, denv, key)
        if not d.params:
            if flags == 0:
                return fname, 0
            return f"{fname}(s, t)", flags
        return f"{fname}(s, t, {', '.join(args)})", flags

    def _primes_inside(self, d: ast.OpDef, denv: Env) -> bool:
        """Does d's body (through what it calls) prime something? Asked at every call site of
        an operator with parameters: remembered per definition and frame."""
        key = (id(d), denv.frame.ident)
        known = self._primed_bodies.get(key)
        if known is None or known[0] is not d:
            known = self._primed_bodies[key] = (d, mentions_prime(d.body, self, denv, set(),
                                                                  "prime"))
        return known[1]

    def _compiled_def(self, d: ast.OpDef, denv: Env, key):
        hit = self._defs.get(key) if denv.frame.cacheable else None
        if hit is not None:
            return hit
        fname = pyname("op", d.name, next(self._counter))
        params = {}
        for p in d.params:
            local = self._local(p.name)
            params[p.name] = ("op", local, p.arity) if p.arity else ("val", local)
        # Register first so recursive calls find it; forgotten if the body does not compile
        # (a caller that catches the error must not find a name that was never defined).
        self._defs[key] = (fname, STATE)
        keep = self.mode == "primed"  # a definition primed as a whole reads the next state
        try:
            with self._mode("primed" if keep else "expr", self.primes if keep else None):
                body, flags = self.expr(d.body, denv.bind(params))
                fold = None if keep else self.fold_source(d, denv.bind(params), params, body)
        except BaseException:
            self._defs.pop(key, None)
            raise
        flags &= ~LOCAL
        plist = ", ".join(b[1] for b in params.values())
        self._define(fold or f"def {{name}}(s, t{', ' if plist else ''}{plist}):\n"
                     f"    return {body}{self._tag(d.body.span)}\n", fname)
        if not d.params and flags & ~READS == 0:
            # A constant definition: compute it once (one that reads a file only if the file
            # can be read now; else each time it is used, as before). TLC too draws its
            # RandomElement once.
            try:
                value = self.g[fname](None, None)
            except (EvalError, runtime.AssertFailure, RecursionError):
                self._defs[key] = (fname, flags or STATE)
                return fname, flags or STATE
            const = self.const_name(value)
            self._defs[key] = (const, 0)
            return const, 0
        # With parameters, a definition that reads no state is a pure function of its
        # arguments: a call with constant arguments is itself constant (and computed once),
        # and one that loops or calls others remembers what it returned (see memo.py).
        if (flags == 0 and d.params and not any(p.arity for p in d.params)
                and _LOOPS_RE.search(body)):
            self.g[fname] = memoised(self.g[fname], fname, self.g)
        elif (flags == STATE and not keep and not any(p.arity for p in d.params)
              and _LOOPS_RE.search(body)):
            # reads the current state only: remembered for the latest state (see memo.py)
            self.g[fname] = memoised(self.g[fname], fname, self.g, per_state=True)
        result = (fname, flags)
        self._defs[key] = result
        return result

    def _compiled_funcdef(self, sym: Symbol, d: ast.FuncDef, denv: Env, key):
        hit = self._defs.get(key)
        if hit is not None:
            return hit
        fname = pyname("fn", d.name, next(self._counter))
        with self._mode("expr", None):
            value_code, flags = self._funcdef_value(d, denv)
        if flags == 0:
            # Depends on no state: one function for the whole run, filled in as it is applied.
            const = self.const_name(eval(value_code, self.g))  # noqa: S307
            self._defs[key] = (const, 0)
            return const, 0
        # The function's value depends on the state: keep the one for the latest state.
        self._define(f"def {{name}}(s, t, _last=[None, None, None]):\n"
                     f"    if _last[2] is None or _last[0] is not s or _last[1] is not t:\n"
                     f"        _last[0], _last[1], _last[2] = s, t, None\n"
                     f"        _last[2] = {value_code}\n"
                     f"    return _last[2]\n", fname)
        result = (f"{fname}(s, t)", STATE)
        self._defs[key] = result
        return result

    def _funcdef_value(self, d: ast.FuncDef, env: Env,
                       exclude: frozenset | set = frozenset()) -> tuple[str, int]:
        """A recursive function definition's value: a _LazyFn applied point-wise, whose body
        receives the function itself as its first argument (so it may call itself). Returns
        the code and its dependency flags (LOCAL only for names bound outside it). `exclude`:
        locals the body's closure need not bind (a LET's own definitions)."""
        me = self._local(d.name)
        self._uses.append(set())
        self._binds.append(set())
        self._note_binds([me])
        body_env, comp, dom_flags = self._comprehension(d.bounds,
                                                        env.bind({d.name: ("fndef", me)}))
        val, body_flags = self.expr(d.body, body_env)
        used, bound = self._uses.pop(), self._binds.pop()
        free = used - bound
        if self._uses:
            self._uses[-1] |= free
        flags = ((dom_flags | body_flags) & ~LOCAL) | (LOCAL if free else 0)
        # The function is applied later, point-wise: its body binds the outer locals now.
        if len(comp) == 1 and not comp[0][0].startswith("("):
            v, dom = comp[0]
            return f"_LazyFn({dom}, {closure(f'{me}, {v}', val, exclude)})", flags
        if len(comp) == 1:
            v, dom = comp[0]
            body = closure(f"{me}, _k", f"(lambda {v[1:-2]}: {val})(*_k)", exclude)
            return f"_LazyFn({dom}, {body})", flags
        names = ", ".join(v for v, _ in comp)
        doms = ", ".join(dm for _, dm in comp)
        body = closure(f"{me}, _k", f"(lambda {names}: {val})(*_k)", exclude)
        return f"_LazyFn(Product(({doms},)), {body})", flags

    def _let_bindings(self, e: ast.Let, env: Env):
        """Compile LET definitions in order: [(name, binding, python name, init code)].

        Values are lazy (TLC evaluates a LET definition only when used, and at most once):
        `_Lazy(lambda: value)`, read with `.get()`. Constant values are computed now instead.
        Operators become lambdas `(s, t, *args)`; recursive functions `_LazyFn`s."""
        out = []
        inner = env
        self._let_flags = 0
        declared: dict[str, str] = {}  # RECURSIVE names -> their Python names
        for d in e.defs:
            # the LET's own definitions: never rebound (reached through IIFE parameters and
            # cells), so a closure made here need not bind them
            own = {o[2] for o in out} | set(declared.values())
            if isinstance(d, ast.OpDef) and not d.params and mentions_prime(
                    d.body, self, inner, set()):
                # `LET y == x' IN x' = 1 /\ y = 1`: TLC evaluates y where it is used, after
                # x' is assigned; compiled there, not here (where x' has no value yet), and
                # `LET S == x' = x IN ENABLED S` is a state predicate: S counts under ENABLED
                inner = inner.bind({d.name: ("expr", d.body, inner)})
                continue
            if isinstance(d, ast.OpDef) and not d.params:
                code, flags = self.expr(d.body, inner)
                self._let_flags |= flags
                # The definition's body and scope ride along: an action that uses it as a
                # conjunct expands it in place, as TLC does (its \/ and \E branch).
                if flags == 0 or trivial(code):
                    b = ("val", code, d.body, inner)
                    self._binding_modes[id(b)] = (b, self.mode)
                    inner = inner.bind({d.name: b})
                    continue
                local = self._local(d.name)
                self._note_binds([local])
                b = ("lazy", local, d.body, inner)
                self._binding_modes[id(b)] = (b, self.mode)
                # read when first used, maybe after a loop moved on: bind the outer locals now
                out.append((d.name, b, local, f"_Lazy({closure('', code, own)})"))
                inner = inner.bind({d.name: b})
            elif isinstance(d, ast.OpDef):
                local = declared.pop(d.name, None) or self._local(d.name)
                # Its definition and scope ride along, as for a definition without
                # parameters: an action that calls it expands it in place (`inc(1)` where
                # inc(n) == x' = x + n), as TLC does.
                scope_of_def: list = []
                b = ("op", local, len(d.params), d, scope_of_def)
                inner = inner.bind({d.name: b})  # visible in its own body (RECURSIVE)
                scope_of_def.append(inner)
                params = {p.name: ("val", self._local(p.name)) if not p.arity
                          else ("op", self._local(p.name), p.arity) for p in d.params}
                self._note_binds([local] + [pb[1] for pb in params.values()])
                body, f = self.expr(d.body, inner.bind(params))
                self._let_flags |= f
                args = ", ".join(pb[1] for pb in params.values())
                out.append((d.name, b, local,
                            f"({closure(f's, t, {args}', body, own | {local})})"))
            elif isinstance(d, ast.FuncDef):
                local = self._local(d.name)
                self._note_binds([local])
                scope_of_body: list = []  # the env its body sees, for an action to expand it
                b = ("fndef", local, d, scope_of_body)
                inner = inner.bind({d.name: b})
                scope_of_body.append(inner)
                code, f = self._funcdef_value(d, inner, own | {local})
                out.append((d.name, b, local, code))
                self._let_flags |= f
            elif isinstance(d, ast.Recursive):
                # Declared operators are visible to the definitions before their own, which
                # may call them (mutual recursion).
                for p in d.decls:
                    local = declared[p.name] = self._local(p.name)
                    self._note_binds([local])
                    inner = inner.bind({p.name: ("op", local, p.arity)})
            elif isinstance(d, ast.InstanceDef):  # LET M == INSTANCE Mod ...: M!Op in the body
                inner = inner.bind({d.name: ("instance", d, inner)})
            else:
                raise CompileError("this kind of LET definition is not supported yet", d.span)
        return inner, out
