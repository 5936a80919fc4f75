"""INSTANCE: the frames that hold an instance's substitutions, the env a definition's body is
compiled in (its module's scope, the frame it is reached through), `M!Op` and subexpression
names (`Op!2!1`), and the root variable an instance's variable stands for."""
from __future__ import annotations

from ..frontend import ast
from ..frontend.resolve import Symbol
from .analysis import is_selector, operand
from .scope import CompileError, Env, Frame, union_flags


class InstancesMixin:
    """Compiler part: instances and the frames of definitions."""

    def def_env(self, sym: Symbol, env: Env) -> Env:
        """The env a definition's body is compiled in: its module's scope, the right frame."""
        scope = self.scopes.get(sym.module)
        if scope is None:  # a LET-local or parameter symbol: not module-level
            return env
        frame = self._frame_for(sym, env)
        return Env(scope, frame, {})

    def _frame_for(self, sym: Symbol, env: Env) -> Frame:
        """A definition reached through an unnamed INSTANCE gets that instance's frame."""
        key = (env.frame.ident, env.scope.name, sym.module, sym.name)
        hit = self._instance_frames.get(key)
        if hit is not None:
            return hit
        frame = env.frame
        inst = self._unnamed_instance_for(env.scope.module, sym, set())
        if inst is not None:
            frame = self._make_frame(inst, env)
        self._instance_frames[key] = frame
        return frame

    def _unnamed_instance_for(self, module: ast.Module, sym: Symbol, seen: set):
        if module.name in seen:
            return None
        seen.add(module.name)
        for unit in module.units:
            if isinstance(unit, ast.Instance):
                target = self.scopes[unit.module]
                if target.exports.get(sym.name) == sym:
                    return unit
        for ext in module.extends:
            if ext in self.scopes:
                found = self._unnamed_instance_for(self.scopes[ext].module, sym, seen)
                if found is not None:
                    return found
        return None

    def _make_frame(self, inst: ast.Instance, env: Env, params: dict | None = None) -> Frame:
        target = self.scopes[inst.module]
        penv = Env(env.scope, env.frame, dict(params or {}))
        subst = {}
        for s in inst.substs:
            subst[s.name] = (s.expr, penv)
        for name in list(target.constants) + list(target.variables):
            if name not in subst:
                subst[name] = (ast.Ident(name, span=inst.span), penv)
        return Frame(subst, next(self._counter), cacheable=not params)

    def var_of(self, name: str, env: Env) -> str | None:
        """The root variable `name` denotes in env (following instance substitutions and
        arguments passed by name)."""
        if name in env.locals:
            b = env.locals[name]
            if b[0] == "expr" and isinstance(b[1], ast.Ident):
                return self.var_of(b[1].name, b[2])
            return None
        sym = env.scope.symbols.get(name)
        if sym is None or sym.kind != "variable":
            return None
        if env.frame is self.root_frame:
            return name if name in self.var_index else None
        if env.frame is self.enabled_frame:
            return self._inner_var(name, env)
        sub = env.frame.subst.get(name)
        if sub is not None and isinstance(sub[0], ast.Ident):
            return self.var_of(sub[0].name, sub[1])
        return None

    def _instance_arg(self, p, a, env: Env):
        """The binding of an argument of a parametrized INSTANCE (I(w) == INSTANCE M WITH
        v <- w): substituted by name, as TLC does, so that I(x)!Next may prime and assign x
        and a caller's bound names (Check(n) == I(n)!Ok) are read where the call is compiled;
        an operator argument by its compiled value."""
        if p.arity:
            code, _ = self.expr(a, env)
            return ("val", code)
        return ("expr", a, env)

    def instance_def(self, e: ast.InstanceRef, env: Env):
        """Resolve M!Op(args): (definition, its env, arg expressions), or None."""
        sub = self._subexpression_def(e, env)
        if sub is not None:
            return sub
        first, first_args = e.path[0]
        local = env.locals.get(first)
        if local is not None and local[0] == "instance":  # a LET-defined instance
            idef, denv = local[1], local[2]
        else:
            sym = env.scope.symbols.get(first) if local is None else None
            if sym is None or sym.kind != "instance":
                return None
            idef = sym.node
            denv = self.def_env(sym, env) if sym.module in self.scopes else env
        params = {p.name: self._instance_arg(p, a, env)
                  for p, a in zip(idef.params, first_args, strict=True)}
        frame = self._make_frame(idef.instance, denv, params)
        scope = self.scopes[idef.instance.module]
        cur = Env(scope, frame, {})
        for name, args in e.path[1:]:
            inner = scope.exports.get(name)
            idef2 = inner.node
            ps = {p.name: self._instance_arg(p, a, env)
                  for p, a in zip(idef2.params, args, strict=True)}
            frame = self._make_frame(idef2.instance, cur, ps)
            scope = self.scopes[idef2.instance.module]
            cur = Env(scope, frame, {})
        op = scope.exports.get(e.name)
        if op is None:
            return None
        return op.node, Env(self.scopes.get(op.module, scope), cur.frame, {}), e.args

    def _instance_ref(self, e: ast.InstanceRef, env: Env):
        first = e.path[0][0]
        sub = self._subexpression_def(e, env)
        if sub is not None:
            return self.expr(sub[0].body, sub[1])
        resolved = self.instance_def(e, env)
        if resolved is None:
            raise CompileError(f"cannot resolve {first}!{e.name}", e.span)
        d, denv, args = resolved
        op_sym = denv.scope.symbols.get(e.name) or self._find_symbol(d, denv)
        compiled_args = [self._arg(a, env, self._param_arity(op_sym, i))
                         for i, a in enumerate(args)]  # I!Map(LAMBDA a : a + 1) too
        flags = union_flags(compiled_args)
        # M!Op names the instance's own copy of Op: a .cfg `Op <- Other` does not reach it.
        self._direct = op_sym
        code, f = self._symbol(op_sym, denv, tuple(c for c, _ in compiled_args), e)
        return code, flags | f

    def _find_symbol(self, d, denv: Env):
        for s in denv.scope.symbols.values():
            if s.node is d:
                return s
        raise CompileError("internal: instance definition not found", getattr(d, "span", None))

    def _subexpression_def(self, e: ast.InstanceRef, env: Env):
        """`Op!2!1`, `Op(a)!<<`, `Thm!:`: a part of a module-level definition named by
        position, as (a parameterless definition of it, its env, no args), or None when e
        names no such part. As in SANY, `!n` is the n-th operand of an expression (conjunct,
        argument, IF part, element, field value, a binder's set), `!<<` and `!>>` the first
        and second, `!:` the whole body; the definition's parameters take Op(a)'s arguments."""
        first, first_args = e.path[0]
        sels = tuple(n for n, _ in e.path[1:]) + (e.name,)
        if first in env.locals or not all(is_selector(n) for n in sels):
            return None
        sym = env.scope.symbols.get(first)
        if sym is None or not isinstance(sym.node, (ast.OpDef, ast.Theorem)):
            return None
        d = sym.node
        params = getattr(d, "params", ())
        if len(params) != len(first_args):
            raise CompileError(f"{first} takes {len(params)} argument(s), given "
                               f"{len(first_args)}", e.span)
        key = (id(d), sels)
        sub = self._subdefs.get(key)
        if sub is None:
            body = d.expr if isinstance(d, ast.Theorem) else d.body
            if body is None:
                raise CompileError(f"the theorem {first} has no expression to refer to", e.span)
            for n in sels:
                body = operand(body, n, e.span)
            sub = self._subdefs[key] = ast.OpDef(f"{first}!{'!'.join(sels)}", (), body,
                                                 span=body.span)
            self._subdef_ids.add(id(sub))
        denv = self.def_env(sym, env)
        if params:
            denv = denv.bind({p.name: ("expr", a, env) for p, a in zip(params, first_args,
                                                                         strict=True)})
        return sub, denv, ()
