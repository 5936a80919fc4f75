"""What a name compiles to: a bound name, a constant from the .cfg or an instance's
substitution, a state variable (current, next, or being assigned), a primed expression, a
native operator of a standard module, or a call of a definition; and operators passed as
arguments (LAMBDA, a definition's name) as Python callables."""
from __future__ import annotations

from ..frontend import ast
from ..frontend.resolve import Symbol
from .analysis import lambda_arity
from .closures import closure
from .natives import HIGHER_ORDER, IMPURE_OPS, INT_OPS, INT_VALUED, NATIVE, READ_OPS
from .scope import IMPURE, LOCAL, NEXT, READS, STATE, CompileError, Env, union_flags


class NamesMixin:
    """Compiler part: identifiers, operator applications and operator arguments."""

    def _ident(self, e: ast.Ident, env: Env):
        name = e.name
        b = env.locals.get(name)
        if b is not None:
            return self._use_binding(b, e, ())
        sym = env.scope.symbols.get(name)
        if sym is None:
            raise CompileError(f"undefined identifier {name!r}", e.span)
        return self._symbol(sym, env, (), e)

    def _use_binding(self, b, e, args):
        kind = b[0]
        if kind == "expr":  # an argument substituted by name
            return self.expr(b[1], b[2])
        if kind == "def":  # a LET operator of a temporal formula, expanded where it is used
            d, denv = b[1], b[2]
            binds = {p.name: ("val", a) for p, a in zip(d.params, args, strict=True)}
            return self.expr(d.body, denv.bind(binds))
        if kind in ("val", "lazy") and len(b) == 4:
            made = self._binding_modes.get(id(b))
            if made is not None and made[0] is b and made[1] != self.mode:
                # A LET definition is a definition: under a prime it was not compiled under
                # (LET v == x IN v'), its body is compiled again, primed.
                return self.expr(b[2], b[3])
        self._note_uses(b[1])
        if kind == "val":
            if args:
                raise CompileError(f"{getattr(e, 'name', '?')!r} is not an operator", e.span)
            return b[1], LOCAL
        if kind == "lazy":
            return f"{b[1]}.get()", LOCAL
        if kind == "fndef":
            return (b[1] if self._raw_fn else f"{b[1]}.full()"), LOCAL
        if kind == "op":
            if not args:
                return b[1], LOCAL
            return f"{b[1]}(s, t, {', '.join(args)})", LOCAL | STATE
        raise CompileError("internal: bad binding", getattr(e, "span", None))

    def _symbol(self, sym: Symbol, env: Env, args: tuple, e) -> tuple[str, int]:
        """Code for a module-level name applied to already-compiled args."""
        direct, self._direct = self._direct, None
        if (sym.module, sym.name) in self.module_values and not args:
            return self.const_name(self.module_values[sym.module, sym.name]), 0
        if sym.kind == "variable":
            return self._variable(sym.name, env, e)
        if sym.kind == "constant":
            if env.frame is self.root_frame:
                if sym.name in self.overrides:
                    return self._override(self.overrides[sym.name], args, e)
                if sym.name not in self.constants:
                    raise CompileError(f"the constant {sym.name!r} has no value in the "
                                       f"configuration", e.span)
                # `CONSTANT F(_)` with `F = 6`: F(x) is 6 (as TLC has it)
                return self.const_name(self.constants[sym.name]), 0
            sub = env.frame.subst.get(sym.name)
            if sub is None:
                raise CompileError(f"no substitution for {sym.name!r}", e.span)
            sexpr, senv = sub
            if isinstance(sexpr, tuple) and sexpr and sexpr[0] == "op":
                return self._use_binding(sexpr, e, args)
            if sym.arity:  # an operator constant: substituted by an operator
                op = self._op_arg(sexpr, senv, sym.arity)
                if not args:
                    return op[1], LOCAL
                return f"{op[1]}(s, t, {', '.join(args)})", STATE
            code, flags = self.expr(sexpr, senv)
            if args:
                return f"{code}(s, t, {', '.join(args)})", flags | STATE
            return code, flags
        target = self.replacement(sym) if sym is not direct else None
        if target is not None:
            return self._override(target, args, e)
        if env.frame is self.root_frame and sym.name in self.constants and sym.kind in (
                "operator", "function"):
            # a definition the .cfg gives a value: that value, whatever the arguments (as
            # TLC: `F = 6` for F(a) == ... makes F(x) 6)
            return self.const_name(self.constants[sym.name]), 0
        if sym.kind in ("operator", "function"):
            native = NATIVE.get((sym.module, sym.name))
            if native is not None:
                key = (sym.module, sym.name)
                flags = IMPURE if key in IMPURE_OPS else READS if key in READ_OPS else 0
                int_op = INT_OPS.get(key)
                if int_op is not None and not all(self._is_int_code(a) for a in args):
                    code = f"{int_op[1]}({args[0]}, {args[1]})"
                elif key == ("Integers", "-.") and self._is_int_code(args[0]):
                    code = f"(-{args[0]})"
                else:
                    code = native.format(*args)
                if key in INT_VALUED:
                    self._int_codes.add(code)
                return code, flags
            return self._call_def(sym, env, args, e)
        raise CompileError(f"{sym.name!r} cannot be used as a value", e.span)

    def _override(self, target: str, args, e):
        sym = self.root.symbols.get(target)
        if sym is None:
            raise CompileError(f"the replacement {target!r} is not defined", e.span)
        return self._symbol(sym, self.root_env(), args, e)

    def _variable(self, name: str, env: Env, e):
        if env.frame is self.enabled_frame and self.mode == "init":  # in a primed expression
            return self._bound_next(self._inner_var(name, env), name + "'", NEXT)
        if env.frame is not self.root_frame:
            sub = env.frame.subst.get(name)
            if sub is None:
                raise CompileError(f"no substitution for variable {name!r}", e.span)
            return self.expr(sub[0], sub[1])
        i = self.var_index[name]
        if self.mode == "primed":
            return f"t[{i}]", NEXT
        if self.mode == "init":
            return self._bound_next(name, name, STATE)
        return f"s[{i}]", STATE

    def _bound_next(self, var: str, shown: str, flag: int):
        """The local holding var's value being built (an error to read before it is bound)."""
        local = self.primes.get(var)
        if local is None:
            if self.partial:
                return "_UNKNOWN", flag
            return f"_unassigned({shown!r})", flag
        return local, flag

    def _primed(self, e, env: Env):
        """e' : e evaluated in the next state."""
        if isinstance(e, ast.Ident) and e.name not in env.locals:
            sym = env.scope.symbols.get(e.name)
            if sym is not None and sym.kind == "variable":
                var = self.var_of(e.name, env)
                if var is None and env.frame is not self.root_frame:
                    sub = env.frame.subst.get(e.name)
                    return self._primed(sub[0], sub[1])
                if self.mode == "action":
                    return self._bound_next(var, var + "'", NEXT)
                if var not in self.var_index:  # an instance variable ENABLED binds
                    if self.primes is None:
                        raise CompileError("kipcheck cannot decide ENABLED here: a primed "
                                           "variable of the instantiated module outside the "
                                           "action", e.span)
                    return self._bound_next(var, e.name + "'", NEXT)
                return f"t[{self.var_index[var]}]", NEXT
        # Prime a compound expression: compile it with variables read from the next state.
        saved = self._prime_swap()
        try:
            code, flags = self._expr(e, env)
        finally:
            self._prime_unswap(saved)
        return code, flags | NEXT

    def _prime_swap(self):
        saved = (self.mode, self.primes)
        if self.mode == "action":
            self.mode = "init"  # reads of unprimed variables now mean the bound next values
        else:
            self.mode = "primed"
        return saved

    def _prime_unswap(self, saved):
        self.mode, self.primes = saved

    def _opapp(self, e: ast.OpApp, env: Env):
        op = e.op
        b = env.locals.get(op)
        if b is not None:
            args = [self.expr(a, env) for a in e.args]
            code, f = self._use_binding(b, e, tuple(c for c, _ in args))
            return code, f | union_flags(args)
        sym = env.scope.symbols.get(op)
        if sym is None:
            return self._builtin(e, env)
        # Higher-order parameters of native operators take Python callables.
        ho = HIGHER_ORDER.get((sym.module, sym.name), ())
        args, flags = [], 0
        for i, a in enumerate(e.args):
            if i in ho:
                code, f = self._op_value(a, env)
            else:
                code, f = self._arg(a, env, self._param_arity(sym, i))
            args.append(code)
            flags |= f
        code, f = self._symbol(sym, env, tuple(args), e)
        return code, flags | f

    def _arg(self, a, env: Env, arity: int):
        """An argument of a call: for a parameter that is an operator, a Python callable
        (see _op_arg); else its value."""
        if arity:
            return self._op_arg(a, env, arity)[1], LOCAL
        return self.expr(a, env)

    def _param_arity(self, sym: Symbol, i: int) -> int:
        d = sym.node
        if isinstance(d, ast.OpDef) and i < len(d.params):
            return d.params[i].arity
        return 0

    def _op_arg(self, a, env: Env, arity: int, flags_out: list | None = None):
        """An operator passed as an argument: a Python callable (s, t, *args). `flags_out`
        receives the dependency flags of its body."""
        if isinstance(a, ast.Lambda):
            params = {p: ("val", self._local(p)) for p in a.params}
            self._note_binds([b[1] for b in params.values()])
            body, f = self.expr(a.body, env.bind(params))
            if flags_out is not None:
                flags_out.append(f)
            plist = ", ".join(b[1] for b in params.values())
            # With its definition and env: an action applying it evaluates it in place,
            # as TLC does (`Do(LAMBDA v : x' = v)`), like an operator a LET defines.
            # an operator may keep it (in a lazy set it returns): bind the outer locals now
            return ("op", f"({closure(f's, t, {plist}', body)})", arity, self.lambda_def(a),
                    [env])
        if isinstance(a, ast.Ident):
            b = env.locals.get(a.name)
            if b is not None and b[0] == "op":
                return b
            names = [self._local(f"a{i}") for i in range(arity)]
            self._note_binds(names)
            fake = ast.OpApp(a.name, tuple(ast.Ident(n, span=a.span) for n in names),
                             span=a.span)
            binds = {n: ("val", n) for n in names}
            body, f = self.expr(fake, env.bind(binds))
            if flags_out is not None:
                flags_out.append(f)
            plist = ", ".join(names)
            code = f"({closure(f's, t, {plist}', body)})"
            target = self.user_def(a, env)
            if target is not None and isinstance(target[0], ast.OpDef):
                return ("op", code, arity, target[0], [target[1]])
            return ("op", code, arity)
        raise CompileError("expected an operator as this argument", a.span)

    def _op_value(self, a, env: Env):
        """An operator argument for a native operator: a callable of plain values. It
        depends on the state or on bound names only if its body does (a LAMBDA that reads
        neither leaves a constant definition such as a trace spec's log constant)."""
        self._uses.append(set())
        self._binds.append(set())
        flags: list = []
        try:
            b = self._op_arg(a, env, lambda_arity(a, env), flags)
        finally:
            used, bound = self._uses.pop(), self._binds.pop()
        free = used - bound
        if self._uses:
            self._uses[-1] |= free
        n = b[2]
        names = [f"_x{i}" for i in range(n)]
        code = f"(lambda {', '.join(names)}: {b[1]}(s, t, {', '.join(names)}))"
        if not flags:
            return code, LOCAL | STATE
        return code, (flags[0] & ~LOCAL) | (LOCAL if free else 0)
