"""Name resolution: every identifier defined before use, with the right number of arguments.

TLA+ is define-before-use: a module sees what it EXTENDS, what it INSTANCEs without a name,
and its own definitions above the current one (RECURSIVE declares ahead). This pass builds
each module's scope in that order and reports, with spans, undefined names, operators applied
to the wrong number of arguments, names defined twice, `@` outside EXCEPT, and instances whose
constants and variables are neither substituted nor in scope. Nothing is evaluated here.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import ast
from .errors import Span, SpecError
from .modules import STANDARD_MODULES, ModuleSet

# Operators built into TLA+ itself (no module needed), with their arity.
BUILTIN_OPS = {
    "=": 2, "#": 2, "\\in": 2, "\\notin": 2, "\\land": 2, "\\lor": 2, "\\lnot": 1, "=>": 2,
    "\\equiv": 2, "'": 1, "UNCHANGED": 1, "ENABLED": 1, "SUBSET": 1, "UNION": 1, "DOMAIN": 1,
    "[]": 1, "<>": 1, "~>": 2, "-+->": 2, "\\cup": 2, "\\cap": 2, "\\": 2, "\\subseteq": 2,
    "\\cdot": 2,
}


@dataclass(frozen=True)
class Symbol:
    """A name visible in some scope. `module` is where it was defined (its identity)."""

    name: str
    kind: str  # constant | variable | operator | function | instance | bound | param
    arity: int
    module: str
    node: object = field(default=None, compare=False, repr=False)
    local: bool = field(default=False, compare=False)
    target: str | None = None  # for kind == "instance": the instantiated module

    @property
    def span(self) -> Span | None:
        return getattr(self.node, "span", None)


@dataclass
class ModuleScope:
    """What a module defines and sees, after resolution."""

    name: str
    module: ast.Module
    symbols: dict[str, Symbol] = field(default_factory=dict)  # visible at the module's end
    constants: dict[str, Symbol] = field(default_factory=dict)  # declared here or extended
    variables: dict[str, Symbol] = field(default_factory=dict)

    @property
    def exports(self) -> dict[str, Symbol]:
        return {n: s for n, s in self.symbols.items() if not s.local}


def resolve(mods: ModuleSet) -> dict[str, ModuleScope]:
    """Check every module reachable from the root; return each module's scope by name."""
    try:
        return _Resolver(mods).run()
    except RecursionError:
        root = mods.root
        raise SpecError("expression nested too deeply to check", root.span,
                        source=mods.sources.get(root.span.file)) from None


class _Resolver:
    def __init__(self, mods: ModuleSet):
        self.mods = mods
        self.scopes: dict[str, ModuleScope] = {}
        self._std_hint: dict[str, str] | None = None

    def run(self) -> dict[str, ModuleScope]:
        self.scope_of(self.mods.root.name)
        return self.scopes

    def error(self, msg: str, span: Span | None) -> SpecError:
        source = self.mods.sources.get(span.file) if span else None
        return SpecError(msg, span, source=source)

    # -- modules ------------------------------------------------------------------------------
    def scope_of(self, name: str, outer: dict[str, Symbol] | None = None) -> ModuleScope:
        if name in self.scopes:
            return self.scopes[name]
        module = self.mods.modules[name]
        scope = ModuleScope(name, module)
        if outer:
            scope.symbols.update(outer)
        self.scopes[name] = scope
        for ext, span in zip(module.extends, module.extends_spans, strict=True):
            ext_scope = self.scope_of(ext)
            for sym in ext_scope.exports.values():
                self.add(scope, sym, span)
            scope.constants.update(ext_scope.constants)
            scope.variables.update(ext_scope.variables)
        recursive: set[str] = set()
        for unit in module.units:
            self.unit(scope, unit, recursive)
        for name in recursive:  # declared RECURSIVE, never defined: SANY refuses the module
            raise self.error(f"{name!r} is declared RECURSIVE but never defined",
                             scope.symbols[name].span)
        return scope

    def add(self, scope: ModuleScope, sym: Symbol, span: Span | None,
            recursive: set[str] | None = None) -> None:
        old = scope.symbols.get(sym.name)
        # The same declaration reached twice (EXTENDS diamonds, EXTENDS plus LOCAL INSTANCE) is
        # no clash; symbols compare equal without their nodes, so test the node's identity.
        if old is not None and not (old.module == sym.module and old.node is sym.node):
            if recursive is not None and sym.name in recursive and old.module == sym.module:
                recursive.discard(sym.name)
            elif _same_definition(old.node, sym.node):
                return  # SANY tolerates a repeated definition whose text is identical
            else:
                where = _already(old, old.module != scope.name)
                raise self.error(f"multiply defined: {sym.name!r}{where}", span or sym.span)
        scope.symbols[sym.name] = sym

    def unit(self, scope: ModuleScope, unit, recursive: set[str]) -> None:
        name = scope.name
        env = _Env(scope.symbols)
        if isinstance(unit, ast.Variables):
            for i, v in enumerate(unit.names):
                if v in unit.names[:i]:  # both would be one symbol with one node: check here
                    raise self.error(f"multiply defined: {v!r}", unit.span)
                sym = Symbol(v, "variable", 0, name, unit)
                self.add(scope, sym, unit.span)
                scope.variables[v] = sym
        elif isinstance(unit, ast.Constants):
            for p in unit.decls:
                sym = Symbol(p.name, "constant", p.arity, name, p)
                self.add(scope, sym, p.span)
                scope.constants[p.name] = sym
        elif isinstance(unit, ast.Recursive):
            for p in unit.decls:
                self.add(scope, Symbol(p.name, "operator", p.arity, name, p), p.span)
                recursive.add(p.name)
        elif isinstance(unit, ast.OpDef):
            self.check_opdef(unit, env)
            self.add(scope, Symbol(unit.name, "operator", len(unit.params), name, unit,
                                   unit.local), unit.span, recursive)
        elif isinstance(unit, ast.FuncDef):
            self.check_funcdef(unit, env)
            self.add(scope, Symbol(unit.name, "function", 0, name, unit, unit.local), unit.span)
        elif isinstance(unit, ast.Instance):
            target = self.check_instance(unit, env, ())
            for sym in target.exports.values():
                if sym.kind not in ("constant", "variable"):
                    self.add(scope, _localised(sym, unit.local), unit.span)
        elif isinstance(unit, ast.InstanceDef):
            self.check_instance(unit.instance, env, unit.params)
            self.add(scope, Symbol(unit.name, "instance", len(unit.params), name, unit,
                                   unit.local, unit.instance.module), unit.span)
        elif isinstance(unit, (ast.Assume, ast.Theorem)):
            if unit.expr is not None:
                self.expr(unit.expr, env)
            if unit.name is not None:
                self.add(scope, Symbol(unit.name, "operator", 0, name, unit), unit.span)
        elif isinstance(unit, ast.Module):
            self.scope_of(unit.name, dict(scope.symbols))

    def fresh(self, name: str, env: _Env, span: Span | None) -> None:
        """A parameter, bound name or LET definition may not reuse a name already visible
        (SANY's "Multiply-defined symbol"): TLC rejects the spec, so kipcheck does too."""
        old = env.lookup(name)
        if old is not None:
            where = _already(old, old.module in STANDARD_MODULES)
            raise self.error(f"multiply defined: {name!r}{where}", span)

    def check_opdef(self, d: ast.OpDef, env: _Env) -> None:
        self.check_params(d.params)
        for p in d.params:
            self.fresh(p.name, env, p.span)
        inner = env.child({p.name: Symbol(p.name, "param", p.arity, "", p) for p in d.params})
        self.expr(d.body, inner)

    def check_params(self, params) -> None:
        seen = set()
        for p in params:
            if p.name in seen:
                raise self.error(f"parameter {p.name!r} appears twice", p.span)
            seen.add(p.name)

    def check_funcdef(self, d: ast.FuncDef, env: _Env) -> None:
        names = self.bounds(d.bounds, env)
        names[d.name] = Symbol(d.name, "function", 0, "", d)
        self.expr(d.body, env.child(names))

    def check_instance(self, inst: ast.Instance, env: _Env, params) -> ModuleScope:
        if inst.module not in self.mods.modules:
            raise self.error(f"unknown module {inst.module!r}", inst.span)
        target = self.scope_of(inst.module)
        self.check_params(params)
        for p in params:
            self.fresh(p.name, env, p.span)
        penv = env.child({p.name: Symbol(p.name, "param", p.arity, "", p) for p in params})
        declared = {**target.constants, **target.variables}
        substituted = set()
        for s in inst.substs:
            if s.name not in declared:
                raise self.error(f"module {inst.module} has no constant or variable {s.name!r} "
                                 f"to substitute", s.span)
            substituted.add(s.name)
            self.expr(s.expr, penv, op_arg=True)
        for missing in declared:
            if missing not in substituted and penv.lookup(missing) is None:
                raise self.error(f"INSTANCE {inst.module}: {missing!r} is neither substituted "
                                 f"(WITH {missing} <- ...) nor defined here", inst.span)
        return target

    # -- expressions --------------------------------------------------------------------------
    def bounds(self, bounds, env: _Env, in_except: bool = False) -> dict[str, Symbol]:
        names: dict[str, Symbol] = {}
        for b in bounds:
            if b.domain is not None:
                self.expr(b.domain, env, in_except=in_except)
            for n in b.names:
                if n in names:
                    raise self.error(f"{n!r} is bound twice", b.span)
                self.fresh(n, env, b.span)
                names[n] = Symbol(n, "bound", 0, "", b)
        return names

    def expr(self, e, env: _Env, op_arg: bool = False, in_except: bool = False) -> None:
        """Check one expression. `op_arg`: e is an operator argument, so a bare operator name
        of any arity may stand there (a higher-order argument)."""
        t = type(e)
        if t is ast.Ident:
            sym = env.lookup(e.name)
            if sym is None:
                if e.name in BUILTIN_OPS and op_arg:
                    return
                raise self.undefined(e.name, e.span, False)
            if sym.arity and not op_arg:
                raise self.error(f"{e.name!r} takes {_args(sym.arity)} but is used without any",
                                 e.span)
            if sym.kind == "instance":
                raise self.error(f"{e.name!r} is an instance: use {e.name}!Name", e.span)
            return
        if t is ast.OpApp:
            self.apply(e, env, in_except)
            return
        if t is ast.InstanceRef:
            self.instance_ref(e, env, in_except)
            return
        if t in (ast.Num, ast.Decimal, ast.Str, ast.Bool, ast.BuiltinSet):
            return
        if t is ast.At:
            if not in_except:
                raise self.error("`@` may only appear in the new value of an EXCEPT update",
                                 e.span)
            return
        binder = _BINDERS.get(t)
        if binder is not None:
            bounds_of, body_of = binder
            names = self.bounds(bounds_of(e), env, in_except)
            self.expr(body_of(e), env.child(names), in_except=in_except)
        elif t is ast.Except:
            self.expr(e.func, env, in_except=in_except)
            for u in e.updates:
                for kind, val in u.path:
                    if kind == "index":
                        for a in val:
                            self.expr(a, env, in_except=in_except)
                self.expr(u.value, env, in_except=True)
        elif t is ast.Let:
            self.let(e, env, in_except)
        elif t is ast.Lambda:
            if not op_arg:
                raise self.error("LAMBDA may only be an argument of an operator", e.span)
            for p in e.params:
                self.fresh(p, env, e.span)
            self.expr(e.body, env.child({p: Symbol(p, "param", 0, "", e) for p in e.params}))
        elif t is ast.Case:
            for cond, val in e.arms:
                self.expr(cond, env, in_except=in_except)
                self.expr(val, env, in_except=in_except)
            if e.other is not None:
                self.expr(e.other, env, in_except=in_except)
        elif t in (ast.Record, ast.RecordSet):
            names = [f for f, _ in e.fields]
            dup = {n for n in names if names.count(n) > 1}
            if dup:
                raise self.error(f"field {sorted(dup)[0]!r} appears twice", e.span)
            for _, v in e.fields:
                self.expr(v, env, in_except=in_except)
        else:
            for f in e.__dataclass_fields__:
                if f == "span":
                    continue
                v = getattr(e, f)
                if isinstance(v, ast.Node):
                    self.expr(v, env, in_except=in_except)
                elif isinstance(v, tuple):
                    for x in v:
                        if isinstance(x, ast.Node):
                            self.expr(x, env, in_except=in_except)

    def let(self, e: ast.Let, env: _Env, in_except: bool) -> None:
        local: dict[str, Symbol] = {}
        inner = env.child(local)
        for d in e.defs:
            name = getattr(d, "name", None)  # None for RECURSIVE and unnamed INSTANCE
            if name in local and not (isinstance(d, ast.OpDef)
                                      and isinstance(local[name].node, ast.Param)):
                # (an OpDef may follow its RECURSIVE declaration, whose node is a Param)
                raise self.error(f"multiply defined: {name!r} (already defined in this LET at "
                                 f"{local[name].span})", d.span)
            for n in [p.name for p in d.decls] if isinstance(d, ast.Recursive) else [name]:
                if n is not None:
                    self.fresh(n, env, d.span)
            if isinstance(d, ast.OpDef):
                self.check_opdef(d, inner)
                local[d.name] = Symbol(d.name, "operator", len(d.params), "", d)
            elif isinstance(d, ast.FuncDef):
                self.check_funcdef(d, inner)
                local[d.name] = Symbol(d.name, "function", 0, "", d)
            elif isinstance(d, ast.Recursive):
                for p in d.decls:
                    local[p.name] = Symbol(p.name, "operator", p.arity, "", p)
            elif isinstance(d, ast.InstanceDef):
                self.check_instance(d.instance, inner, d.params)
                local[d.name] = Symbol(d.name, "instance", len(d.params), "", d,
                                       target=d.instance.module)
            elif isinstance(d, ast.Instance):
                target = self.check_instance(d, inner, ())
                for sym in target.exports.values():
                    if sym.kind not in ("constant", "variable"):
                        local[sym.name] = sym
        for name, sym in local.items():
            if isinstance(sym.node, ast.Param) and sym.kind == "operator":
                raise self.error(f"{name!r} is declared RECURSIVE but never defined", sym.span)
        self.expr(e.body, inner, in_except=in_except)

    def apply(self, e: ast.OpApp, env: _Env, in_except: bool) -> None:
        sym = env.lookup(e.op)
        if sym is None:
            if e.op in BUILTIN_OPS:
                arity = BUILTIN_OPS[e.op]
            else:
                raise self.undefined(e.op, e.span, True)
        else:
            if sym.kind in ("variable", "bound", "function") or (
                    sym.kind in ("constant", "param") and sym.arity == 0):
                raise self.error(f"{e.op!r} is not an operator; to apply a function write "
                                 f"{e.op}[...]", e.span)
            if sym.kind == "instance":
                raise self.error(f"{e.op!r} is an instance: use {e.op}!Name", e.span)
            arity = sym.arity
        if arity != len(e.args):
            raise self.error(f"{_opname(e.op)} takes {_args(arity)}, given {len(e.args)}",
                             e.span)
        # An argument is an operator only where the definition declares an operator
        # parameter `G(_)`; anywhere else it is an ordinary value (so `Inc + 1` is an error).
        node = sym.node if sym is not None else None
        wants = [p.arity for p in node.params] if isinstance(node, ast.OpDef) else ()
        # Called before its definition (RECURSIVE Op(_, _) declares no parameter's arity): an
        # operator or a LAMBDA may be passed, as SANY allows (`Iter(F, n - 1)` in Iter's body).
        ahead = sym is not None and sym.kind == "operator" and isinstance(node, ast.Param)
        for i, a in enumerate(e.args):
            want = wants[i] if i < len(wants) else 0
            if ahead and (isinstance(a, ast.Lambda) or isinstance(a, ast.Ident) and (
                    getattr(env.lookup(a.name), "arity", 0) or a.name in BUILTIN_OPS)):
                self.expr(a, env, op_arg=True, in_except=in_except)
            elif want:
                self.operator_argument(a, want, env, in_except)
            else:
                self.expr(a, env, in_except=in_except)

    def operator_argument(self, a, want: int, env: _Env, in_except: bool) -> None:
        """`a` is passed for a parameter `G(_, ...)`: it must be an operator of `want` args."""
        self.expr(a, env, op_arg=True, in_except=in_except)
        if isinstance(a, ast.Lambda):
            have, what = len(a.params), "the LAMBDA"
        elif isinstance(a, ast.Ident):
            sym = env.lookup(a.name)
            have = sym.arity if sym is not None else BUILTIN_OPS.get(a.name, 0)
            what = _opname(a.name)
        elif isinstance(a, ast.InstanceRef) and not a.args:
            return  # `M!Op`: instance_ref has checked that it exists
        else:
            have, what = 0, "this expression"
        if have != want:
            raise self.error(f"expected an operator taking {_args(want)} here, but {what} "
                             f"takes {_args(have)}", a.span)

    def instance_ref(self, e: ast.InstanceRef, env: _Env, in_except: bool) -> None:
        first, first_args = e.path[0]
        sym = env.lookup(first)
        if sym is None:
            raise self.undefined(first, e.span, False)
        for a in first_args:
            self.expr(a, env, op_arg=True, in_except=in_except)
        for a in e.args:
            self.expr(a, env, op_arg=True, in_except=in_except)
        if sym.kind != "instance":
            # `Op!2`, `Op!:`: a subexpression of a definition, named by position or label.
            if sym.kind not in ("operator", "function"):
                raise self.error(f"{first!r} is not an instance or a definition", e.span)
            return
        if sym.arity != len(first_args):
            raise self.error(f"instance {first!r} takes {_args(sym.arity)}, given "
                             f"{len(first_args)}", e.span)
        target = self.scopes[sym.target] if sym.target in self.scopes else self.scope_of(
            sym.target)
        for name, args in e.path[1:]:
            inner = target.exports.get(name)
            if inner is None or inner.kind != "instance":
                raise self.error(f"module {target.name} has no instance {name!r}", e.span)
            for a in args:
                self.expr(a, env, op_arg=True, in_except=in_except)
            target = self.scope_of(inner.target)
        if e.name.isdigit() or e.name == ":":
            return
        op = target.exports.get(e.name)
        if op is None:
            raise self.error(f"module {target.name} (instance {first}) defines no {e.name!r}",
                             e.span)
        if op.arity != len(e.args):
            raise self.error(f"{first}!{e.name} takes {_args(op.arity)}, given {len(e.args)}",
                             e.span)

    def undefined(self, name: str, span: Span, applied: bool) -> SpecError:
        hint = self.std_hint().get(name)
        what = "operator" if applied or not name[:1].isalnum() else "identifier"
        msg = f"undefined {what} {_opname(name) if what == 'operator' else repr(name)}"
        if hint:
            msg += f" (it is defined in the standard module {hint}: add it to EXTENDS)"
        return self.error(msg, span)

    def std_hint(self) -> dict[str, str]:
        """Which standard module defines each name, for 'add it to EXTENDS' hints."""
        if self._std_hint is None:
            from .modules import Loader

            hint: dict[str, str] = {}
            for mod in reversed(STANDARD_MODULES):
                if mod == "TLAPS":
                    continue
                loaded = Loader().load_text(f"---- MODULE _Hint ----\nEXTENDS {mod}\n====",
                                            "<hint>")
                for n, s in _Resolver(loaded).run()["_Hint"].symbols.items():
                    hint.setdefault(n, s.module)
            self._std_hint = hint
        return self._std_hint


# Expressions that bind names: how to get their bounds and the expression the names scope over.
_BINDERS = {
    ast.Quant: (lambda e: e.bounds, lambda e: e.body),
    ast.Choose: (lambda e: (e.bound,), lambda e: e.body),
    ast.SetFilter: (lambda e: (e.bound,), lambda e: e.pred),
    ast.SetMap: (lambda e: e.bounds, lambda e: e.expr),
    ast.FuncCons: (lambda e: e.bounds, lambda e: e.body),
}


class _Env:
    """A chain of scopes: the module's symbols, then bound names innermost last."""

    __slots__ = ("frames",)

    def __init__(self, module_symbols: dict[str, Symbol], frames: tuple = ()):
        self.frames = frames or (module_symbols,)

    def child(self, names: dict[str, Symbol]) -> _Env:
        return _Env({}, self.frames + (names,))

    def lookup(self, name: str) -> Symbol | None:
        for frame in reversed(self.frames):
            sym = frame.get(name)
            if sym is not None:
                return sym
        return None


def _already(old: Symbol, other_module: bool) -> str:
    """Where the name a clash repeats was defined, for the message."""
    if other_module:
        return f" (already defined in module {old.module})"
    return f" (already defined at {old.span})" if old.span and old.span.line else ""


def _same_definition(a, b) -> bool:
    if not isinstance(a, (ast.OpDef, ast.FuncDef)) or type(a) is not type(b):
        return False
    return (a.name, getattr(a, "params", None), getattr(a, "bounds", None), a.body) == (
        b.name, getattr(b, "params", None), getattr(b, "bounds", None), b.body)


def _localised(sym: Symbol, local: bool) -> Symbol:
    if local and not sym.local:
        return Symbol(sym.name, sym.kind, sym.arity, sym.module, sym.node, True, sym.target)
    return sym


def _args(n: int) -> str:
    return "1 argument" if n == 1 else f"{n} arguments"


def _opname(op: str) -> str:
    return f"{op!r}" if op[:1].isalnum() else f"`{op}`"
