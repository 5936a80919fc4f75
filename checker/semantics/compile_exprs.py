"""Compile TLA+ expressions to Python expressions over the runtime's helpers, with their
dependency flags (see scope.py): literals, sets, functions, records, quantifiers, CHOOSE, LET,
EXCEPT and the built-in operators; Booleans where TLC needs them. Names and operator
applications are compile_names.py's job."""
from __future__ import annotations

import re

from ..frontend import ast
from . import runtime
from .analysis import mentions_at, subscripted_action
from .closures import closure
from .constant_fold import trivial
from .natives import BOOL_BUILTINS, BOOL_OPERANDS, BOOL_VALUED
from .runtime import B_AND_P, B_AND_Q, B_CASE, B_FILTER, B_IF, B_OR_P, B_OR_Q, B_VALUE
from .scope import LOCAL, LOCAL_RE, CompileError, Env, union_flags
from .values import TYPED_MODEL_VALUES, EvalError, ModelValue, ordered


class ExprsMixin:
    """Compiler part: expressions (`expr`, `cond`)."""

    def expr(self, e, env: Env) -> tuple[str, int]:
        """Compile an expression to Python source; also return its dependency flags.

        LOCAL is set only when the code reads a Python local bound outside e itself, so an
        expression with flags 0 is constant and is computed here, once."""
        self._uses.append(set())
        self._binds.append(set())
        try:
            code, flags = self._expr(e, env)
        finally:
            used = self._uses.pop()
            bound = self._binds.pop()
        free = used - bound
        if self._uses:
            self._uses[-1] |= free
        flags = (flags & ~LOCAL) | (LOCAL if free else 0)
        if flags == 0 and not trivial(code):
            return self._hoist(code), 0
        return code, flags

    def _note_uses(self, code: str) -> None:
        if self._uses:
            self._uses[-1].update(LOCAL_RE.findall(code))

    def _note_binds(self, names) -> None:
        if self._binds:
            self._binds[-1].update(names)

    def _expr(self, e, env: Env) -> tuple[str, int]:
        t = type(e)
        if t is ast.Num:
            return repr(e.value), 0
        if t is ast.Str:
            return repr(e.value), 0
        if t is ast.Bool:
            return repr(e.value), 0
        if t is ast.BuiltinSet:
            return e.name if e.name == "BOOLEAN" else "STRING", 0
        if t is ast.Ident:
            return self._ident(e, env)
        if t is ast.OpApp:
            return self._opapp(e, env)
        if t is ast.Junction:
            first, rest = (B_AND_P, B_AND_Q) if e.kind == "and" else (B_OR_P, B_OR_Q)
            parts = [self.cond(x, env, first if i == 0 else rest)
                     for i, x in enumerate(e.items)]
            op = " and " if e.kind == "and" else " or "
            return "(" + op.join(c for c, _ in parts) + ")", union_flags(parts)
        if t is ast.If:
            c, f1 = self.cond(e.cond, env, B_IF)
            a, f2 = self.expr(e.then, env)
            b, f3 = self.expr(e.else_, env)
            return f"({a} if {c} else {b})", f1 | f2 | f3
        if t is ast.Case:
            flags = 0
            code = (self.expr(e.other, env) if e.other is not None
                    else (f"_case_fail({self._span_const(e.span)})", 0))
            flags |= code[1]
            out = code[0]
            for cond, val in reversed(e.arms):
                c, f1 = self.cond(cond, env, B_CASE)
                v, f2 = self.expr(val, env)
                out = f"({v} if {c} else {out})"
                flags |= f1 | f2
            return out, flags
        if t is ast.Tuple:
            parts = [self.expr(x, env) for x in e.elems]
            if not parts:
                return "()", 0
            return "(" + ", ".join(c for c, _ in parts) + ",)", union_flags(parts)
        if t is ast.SetEnum:
            parts = [self.expr(x, env) for x in e.elems]
            if not parts:
                return "_EMPTY", 0
            elems = ", ".join(c for c, _ in parts)
            if len(parts) == 1 or len({type(x) for x in e.elems}) == 1 and type(
                    e.elems[0]) in (ast.Num, ast.Str):
                return f"frozenset(({elems},))", union_flags(parts)
            return f"setenum(({elems},))", union_flags(parts)  # kinds checked at run time
        if t is ast.Record:
            names = sorted((n for n, _ in e.fields), key=runtime.tlc_key)
            parts = dict((n, self.expr(x, env)) for n, x in e.fields)
            keys = self.const_name(tuple(names))
            vals = ", ".join(parts[n][0] for n in names)
            return f"Fn(({keys}, ({vals},)))", union_flags(parts.values())
        if t is ast.RecordSet:
            parts = [(n, self.expr(x, env)) for n, x in e.fields]
            inner = ", ".join(f"{n!r}: {c}" for n, (c, _) in parts)
            return f"RecordSet({{{inner}}})", union_flags(p for _, p in parts)
        if t is ast.FuncSet:
            d, f1 = self.expr(e.domain, env)
            r, f2 = self.expr(e.codomain, env)
            return f"FuncSet({d}, {r})", f1 | f2
        if t is ast.CartProd:
            parts = [self.expr(x, env) for x in e.factors]
            return "Product((" + ", ".join(c for c, _ in parts) + ",))", union_flags(parts)
        if t is ast.FuncApp:
            raw = self._is_recursive_fn(e.func, env)
            self._raw_fn = raw
            try:
                f, f1 = self.expr(e.func, env)
            finally:
                self._raw_fn = False
            if raw:
                args = [self.expr(a, env) for a in e.args]
                x = args[0][0] if len(args) == 1 else "(" + ", ".join(c for c, _ in args) + ",)"
                return f"_fcall({f}, {x})", f1 | union_flags(args)
            args = [self.expr(a, env) for a in e.args]
            if len(args) == 1:
                return f"app({f}, {args[0][0]})", f1 | args[0][1]
            return f"app({f}, ({', '.join(c for c, _ in args)},))", f1 | union_flags(args)
        if t is ast.FieldAccess:
            r, f1 = self.expr(e.record, env)
            return f"field({r}, {e.field!r})", f1
        if t is ast.Except:
            return self._except(e, env)
        if t is ast.At:
            b = env.locals.get("@")
            if b is None:
                raise CompileError("`@` outside an EXCEPT update", e.span)
            self._note_uses(b[1])
            return b[1], LOCAL
        if t is ast.Quant:
            return self._quant(e, env)
        if t is ast.Choose:
            if e.bound.domain is None:  # TLC's error when (and only if) it is evaluated
                return 'unbounded("CHOOSE")', 0
            body_env, comp, flags = self._comprehension((e.bound,), env)
            body, f2 = self.expr(e.body, body_env)
            dom, f3 = self.expr(e.bound.domain, env)
            var = comp[0][0]
            if body == "True":
                return f"least({dom})", f3
            if var.startswith("("):
                return (f"choose({dom}, lambda _v: (lambda {var[1:-2]}: {body})(*_v))",
                        f2 | f3)
            return f"choose({dom}, lambda {var}: {body})", f2 | f3
        if t is ast.SetFilter:
            body_env, comp, flags = self._comprehension((e.bound,), env)
            pred, f2 = self.cond(e.pred, body_env, B_FILTER)
            var, dom = comp[0]
            if (dom.isidentifier() and dom in self.g and type(self.g[dom]) is frozenset
                    or isinstance(e.bound.domain, ast.SetEnum) or dom.startswith("setenum(")
                    or self._is_variable(e.bound.domain, env)):
                return f"frozenset([{var} for {var} in each({dom}) if {pred}])", flags | f2
            # Over a lazy domain ({n \in Nat : n > 0}, SUBSET S) membership is decided without
            # listing the set, as TLC's.
            # The set is kept and tested later: its lambdas bind the outer locals now.
            test = (closure("_v", f"(lambda {var[1:-2]}: {pred})(*_v)") if var.startswith("(")
                    else closure(var, pred))
            whole = closure("_s", f"frozenset([{var} for {var} in _s if {pred}])")
            return f"sfilter({dom}, {whole}, {test})", flags | f2
        if t is ast.SetMap:
            body_env, comp, flags = self._comprehension(e.bounds, env)
            val, f2 = self.expr(e.expr, body_env)
            first = f"map_domain({', '.join(d for _, d in comp)})"
            loops = " ".join(f"for {v} in each({first if i == 0 else d})"
                             for i, (v, d) in enumerate(comp))
            return f"frozenset([{val} {loops}])", flags | f2
        if t is ast.FuncCons:
            body_env, comp, flags = self._comprehension(e.bounds, env)
            val, f2 = self.expr(e.body, body_env)
            loops = " ".join(f"for {v} in each({d})" for v, d in comp)
            if len(comp) == 1 and comp[0][0].isidentifier():
                var, dom = comp[0]
                known = self.g.get(dom) if dom.isidentifier() else None
                order = None
                if type(known) is frozenset and known:
                    try:
                        order = tuple(ordered(known))
                    except EvalError:  # keys TLC cannot order: its error when evaluated
                        order = None
                if order is not None:
                    # a constant domain: its keys in TLC's order once, shared by every
                    # function built here (no sort per function, keys compared by identity)
                    keys = self.const_name(order)
                    return (f"fn_from_ordered({keys}, tuple([{val} for {var} in {keys}]))",
                            flags | f2)
            if len(comp) == 1:
                key = comp[0][0]
            else:
                key = "(" + ", ".join(v for v, _ in comp) + ",)"
            return f"make_fn([({key}, {val}) {loops}])", flags | f2
        if t is ast.Let:
            inner, defs = self._let_bindings(e, env)
            def_flags = self._let_flags
            body, flags = self.expr(e.body, inner)
            flags |= def_flags & ~LOCAL
            # A definition that calls one defined after it (RECURSIVE operators calling each
            # other) reaches it through a cell, filled when that one is bound.
            locals_ = [d[2] for d in defs]
            forward = {x for i, (_, _, _, init) in enumerate(defs) for x in locals_[i + 1:]
                       if re.search(rf"\b{x}\b", init)}
            for _, b, local, init in reversed(defs):
                for x in forward:
                    init = re.sub(rf"\b{x}\b(?!_cell)", f"{x}_cell[0]", init)
                if b[0] == "op" and re.search(rf"\b{local}\b", init):
                    init = f"_fix(lambda {local}: {init})"  # RECURSIVE: it calls itself
                if local in forward:
                    body = f"(lambda {local}: ({local}_cell.append({local}), {body})[1])({init})"
                else:
                    body = f"(lambda {local}: {body})({init})"
            for x in forward:
                body = f"(lambda {x}_cell: {body})([])"
            return body, flags | (LOCAL if defs else 0)
        if t is ast.Lambda:
            raise CompileError("LAMBDA may only be an operator argument", e.span)
        if t is ast.InstanceRef:
            return self._instance_ref(e, env)
        if t in (ast.BoxAction, ast.AngleAction):
            return self._expr(subscripted_action(e), env)
        if t is ast.Fairness:
            raise CompileError("temporal formulas are only allowed in PROPERTY and SPECIFICATION",
                               e.span)
        if t is ast.Decimal:
            raise CompileError("TLC does not support real numbers", e.span)
        raise CompileError(f"cannot evaluate {type(e).__name__} yet", e.span)

    def _plain_membership(self, elem_code: str, set_code: str) -> bool:
        """Can Python's `in` decide membership alone? Yes for a constant model value (nothing
        is an error to compare with one), or a constant set that is no finite set (Nat,
        [S -> T], ...: their tests check kinds) or a set of model values; else runtime.member
        checks kinds when the element is not found."""
        if set_code == "_EMPTY" or (set_code in ("NAT", "INT", "STRING")
                                    and not TYPED_MODEL_VALUES[0]):
            return True
        if self._model_value_code(elem_code):
            return True
        if not set_code.isidentifier() or set_code not in self.g:
            return False
        value = self.g[set_code]
        if type(value) is not frozenset:
            return isinstance(value, runtime.LazySet) and not TYPED_MODEL_VALUES[0]
        return all(type(x) is ModelValue and not x.typed for x in value)

    def _model_value_code(self, code: str) -> bool:
        """Is code a constant holding a model value that compares with anything (an untyped
        one: see ModelValue.typed)?"""
        if not code.isidentifier():
            return False
        v = self.g.get(code)
        return type(v) is ModelValue and not v.typed

    def _is_int_code(self, code: str) -> bool:
        return _INT_LITERAL_RE.fullmatch(code) is not None or code in self._int_codes

    def cond(self, e, env: Env, why: int) -> tuple[str, int]:
        """e compiled where TLC needs a Boolean: checked at run time unless the compiler can
        tell that e is Boolean (a comparison, a Boolean operator, a call of a definition whose
        body is one), so the common case costs nothing."""
        code, flags = self.expr(e, env)
        if code == "True" or code == "False" or self._is_bool(e, env, 0):
            return code, flags
        return f"boolean({code}, {why})", flags

    def _is_bool(self, e, env: Env, depth: int) -> bool:
        """Is e's value surely a Boolean (or an evaluation error)?"""
        t = type(e)
        if t is ast.Bool or t is ast.Junction:
            return True
        if t is ast.Quant:
            return e.kind in ("A", "E")
        if t is ast.If:
            return self._is_bool(e.then, env, depth) and self._is_bool(e.else_, env, depth)
        if t is ast.Case:
            return all(self._is_bool(v, env, depth) for _, v in e.arms) and (
                e.other is None or self._is_bool(e.other, env, depth))
        if t is ast.OpApp:
            name = e.op
        elif t is ast.Ident:
            name = e.name
        else:
            return False
        b = env.locals.get(name)
        if b is not None:
            return b[0] == "expr" and depth < 20 and self._is_bool(b[1], b[2], depth + 1)
        sym = env.scope.symbols.get(name)
        if sym is None:
            return t is ast.OpApp and name in BOOL_BUILTINS
        if (sym.module, sym.name) in BOOL_VALUED:
            return True
        if sym.kind == "constant" and env.frame is self.root_frame and not sym.arity:
            value = self.constants.get(name)
            return value is True or value is False
        if sym.kind != "operator" or not isinstance(sym.node, ast.OpDef) or depth > 20:
            return False
        if self.replacement(sym) is not None:
            return False
        key = (env.frame.ident, sym.module, name)
        known = self._bool_defs.get(key)
        if known is None:
            self._bool_defs[key] = False  # a recursive definition: not known
            known = self._is_bool(sym.node.body, self.def_env(sym, env), depth + 1)
            self._bool_defs[key] = known
        return known

    def _is_recursive_fn(self, e, env: Env) -> bool:
        """Is e the name of a recursive function definition (applied point-wise)?"""
        if not isinstance(e, ast.Ident):
            return False
        b = env.locals.get(e.name)
        if b is not None:
            return b[0] == "fndef"
        sym = env.scope.symbols.get(e.name)
        return sym is not None and isinstance(sym.node, ast.FuncDef)

    def _comprehension(self, bounds, env: Env):
        """Python loop variables for bounds; returns (body env, [(var, domain code)], flags)."""
        comp, binds, flags = [], {}, 0
        inner = env
        for b in bounds:
            if b.domain is None:
                raise CompileError("TLC cannot enumerate an unbounded quantifier", b.span)
            dom, f = self.expr(b.domain, inner)
            flags |= f
            if b.tuple:
                names = [self._local(n) for n in b.names]
                comp.append(("(" + ", ".join(names) + ",)", dom))
                for n, p in zip(b.names, names, strict=True):
                    binds[n] = ("val", p)
            else:
                for n in b.names:
                    p = self._local(n)
                    comp.append((p, dom))
                    binds[n] = ("val", p)
        self._note_binds(LOCAL_RE.findall(" ".join(v for v, _ in comp)))
        return env.bind(binds), comp, flags

    def _quant(self, e: ast.Quant, env: Env):
        if e.kind not in ("A", "E"):
            raise CompileError("temporal quantifiers are only allowed in properties", e.span)
        if any(b.domain is None for b in e.bounds):  # TLC's error when it is evaluated
            return f'unbounded("\\\\{e.kind}")', 0
        body_env, comp, flags = self._comprehension(e.bounds, env)
        body, f2 = self.cond(e.body, body_env, B_VALUE)
        loops = " ".join(f"for {v} in each({d})" for v, d in comp)
        fn = "all" if e.kind == "A" else "any"
        return f"{fn}({body} {loops})", flags | f2

    def _except(self, e: ast.Except, env: Env):
        code, flags = self.expr(e.func, env)
        for u in e.updates:
            keys = []
            for kind, val in u.path:
                if kind == "field":
                    keys.append(repr(val))
                else:
                    parts = [self.expr(a, env) for a in val]
                    flags |= union_flags(parts)
                    keys.append(parts[0][0] if len(parts) == 1
                                else "(" + ", ".join(c for c, _ in parts) + ",)")
            uses_at = mentions_at(u.value)
            if uses_at:
                at = self._local("at")
                self._note_binds([at])
                v, f = self.expr(u.value, env.bind({"@": ("val", at)}))
                flags |= f
                fun = f"lambda {at}: {v}"
                code = (f"except_at({code}, {keys[0]}, {fun})" if len(keys) == 1
                        else f"except2({code}, {keys[0]}, {keys[1]}, {fun})" if len(keys) == 2
                        else f"except_path({code}, ({', '.join(keys)},), {fun})")
            else:
                v, f = self.expr(u.value, env)
                flags |= f
                if len(keys) == 1:
                    code = f"except_({code}, {keys[0]}, {v})"
                elif len(keys) == 2:
                    code = f"except2({code}, {keys[0]}, {keys[1]}, None, {v})"
                else:
                    code = f"except_path({code}, ({', '.join(keys)},), None, {v})"
        return code, flags

    def _builtin(self, e: ast.OpApp, env: Env):
        op, args = e.op, e.args
        if op == "'":
            return self._primed(args[0], env)
        if op == "UNCHANGED":
            a, f1 = self.expr(args[0], env)
            p, f2 = self._primed(args[0], env)
            # TLC's e = e' (in that order): unequal kinds are an error, not "unchanged"
            return f"eq({a}, {p})", f1 | f2
        if op == "ENABLED":
            return self._enabled(args[0], env)
        if op in ("[]", "<>", "~>", "-+->", "\\cdot"):
            raise CompileError(f"the temporal operator {op} is only allowed in properties",
                               e.span)
        whys = BOOL_OPERANDS.get(op)
        if whys is not None:
            parts = [self.cond(a, env, w) for a, w in zip(args, whys, strict=True)]
            flags = union_flags(parts)
            c = [p[0] for p in parts]
            if op == "\\land":
                return f"({c[0]} and {c[1]})", flags
            if op == "\\lor":
                return f"({c[0]} or {c[1]})", flags
            if op == "\\lnot":
                return f"(not {c[0]})", flags
            if op == "=>":
                return f"((not {c[0]}) or {c[1]})", flags
            return f"({c[0]} is {c[1]})", flags  # \equiv
        parts = [self.expr(a, env) for a in args]
        flags = union_flags(parts)
        c = [p[0] for p in parts]
        if op in ("=", "#") and (self._model_value_code(c[0]) or self._model_value_code(c[1])):
            # nothing is an error to compare with a model value, and it equals only itself:
            # Python's == decides (UNKNOWN raises in its __eq__ and __ne__ as in eq)
            return f"(({c[0]}) {'==' if op == '=' else '!='} ({c[1]}))", flags
        if op == "=":
            return f"eq({c[0]}, {c[1]})", flags
        if op == "#":
            return f"(not eq({c[0]}, {c[1]}))", flags
        if op in ("\\in", "\\notin"):
            neg = "not_" if op == "\\notin" else ""
            if self._plain_membership(c[0], c[1]):
                return f"({c[0]} {'not in' if neg else 'in'} {c[1]})", flags
            d = args[1]
            if TYPED_MODEL_VALUES[0] and (type(d) is ast.SetEnum
                                          or type(d) is ast.OpApp and d.op == ".."):
                # a set written here: TLC compares x with each element (see member_written)
                return f"{neg}member_written({c[0]}, {c[1]})", flags
            if type(d) is ast.OpApp and d.op == "DOMAIN" and c[1].startswith("domain("):
                # x \in DOMAIN f: tested on f, without building its domain
                return f"{'not ' if neg else ''}in_domain({c[0]}, {c[1][7:-1]})", flags
            if parts[0][1] == 0 and c[0].isidentifier() and c[0] in self.g:
                # A constant element: the shape its kind check needs is computed once.
                shape = self.const_name(runtime.shape_of(self.g[c[0]]))
                return f"{neg}member_k({c[0]}, {c[1]}, {shape})", flags
            return f"{neg}member({c[0]}, {c[1]})", flags
        if op == "\\cup":
            return f"cup({c[0]}, {c[1]})", flags
        if op == "\\cap":
            return f"cap({c[0]}, {c[1]})", flags
        if op == "\\":
            return f"diff({c[0]}, {c[1]})", flags
        if op == "\\subseteq":
            return f"subseteq({c[0]}, {c[1]})", flags
        if op == "SUBSET":
            return f"PowerSet({c[0]})", flags
        if op == "UNION":
            return f"big_union({c[0]})", flags
        if op == "DOMAIN":
            return f"domain({c[0]})", flags
        raise CompileError(f"undefined operator {op}", e.span)


_INT_LITERAL_RE = re.compile(r"-?\d+|\(-\d+\)")
