"""Static value kinds of the state variables: which variables need kind checks.

Python's == is not TLA+'s: TRUE == 1, FALSE == 0, and a function (an `Fn`, a tuple subclass)
equals the pair of its key and value tuples. So wherever kipcheck finds a value by Python
equality (the fingerprint tables remember each variable's values that way), a hit must be
checked kind for kind (`values.same_kinds`), a walk over the value that costs up to half of a
search's time. The check is needed only for a variable that can hold two such values: one
with a Boolean where another has an integer, or a function where another has a pair of
sequences.

This module infers, before the search, an abstract type for every variable from Init and Next:
atoms (Boolean, integer, string, model value), sets, sequences, functions and records with their
parts' types, TOP where it cannot tell. A variable whose type cannot mix those kinds needs no
check. Everything it does not understand (an operator passed as an argument, an INSTANCE whose
variable is not a variable, a recursive definition) is TOP; an assignment it cannot see through
makes every variable TOP. Model values are told apart from integers by value (they are integers
beyond 2**62, which no spec computes), as everywhere else in kipcheck."""
from __future__ import annotations

from ..frontend import ast
from .natives import STANDARD
from .runtime import FilterSet
from .values import (
    INT,
    NAT,
    STRING,
    Difference,
    Fn,
    FuncSet,
    Intersection,
    Interval,
    LazySet,
    ModelValue,
    PowerSet,
    Product,
    RecordSet,
    SeqSet,
    Union,
    as_set,
)

BOOL_A, INT_A, STR_A, MV_A = "bool", "int", "str", "mv"
_MAX_DEPTH = 8  # deeper types are TOP (a spec may nest a value in itself step after step)


class Ty:
    """An abstract type: the union of the atoms, sets, sequences, functions and records a
    value may be (None for each part that it may not be). Immutable; compare with ==."""

    __slots__ = ("atoms", "set_", "seq", "fn", "rec", "top", "_key")

    def __init__(self, atoms=frozenset(), set_=None, seq=None, fn=None, rec=None, top=False):
        self.atoms = frozenset(atoms)
        self.set_ = set_  # element type
        self.seq = seq  # element type (union over positions)
        self.fn = fn  # (key type, value type) of a function that is not a record or sequence
        self.rec = rec  # tuple of sorted (field, type): a function whose keys are strings
        self.top = top
        self._key = (top, self.atoms, set_, seq, fn, rec)

    def __eq__(self, other):
        return isinstance(other, Ty) and self._key == other._key

    def __hash__(self):
        return hash(self._key)

    def __repr__(self):
        if self.top:
            return "TOP"
        parts = sorted(self.atoms)
        if self.set_ is not None:
            parts.append(f"Set({self.set_})")
        if self.seq is not None:
            parts.append(f"Seq({self.seq})")
        if self.fn is not None:
            parts.append(f"Fn({self.fn[0]} -> {self.fn[1]})")
        if self.rec is not None:
            parts.append("[" + ", ".join(f"{f}: {t}" for f, t in self.rec) + "]")
        return " | ".join(parts) or "BOTTOM"


TOP = Ty(top=True)
BOTTOM = Ty()
BOOL = Ty({BOOL_A})
INTEGER = Ty({INT_A})
STR = Ty({STR_A})
MV = Ty({MV_A})


def join(a: Ty, b: Ty) -> Ty:
    """The least type holding the values of both."""
    if a is b or b == BOTTOM:
        return a
    if a == BOTTOM:
        return b
    if a.top or b.top:
        return TOP
    rec = None
    if a.rec is not None or b.rec is not None:
        fields = dict(a.rec or ())
        for f, t in b.rec or ():
            fields[f] = join(fields[f], t) if f in fields else t
        rec = tuple(sorted(fields.items()))
    t = Ty(a.atoms | b.atoms, _join_opt(a.set_, b.set_), _join_opt(a.seq, b.seq),
           _join_pair(a.fn, b.fn), rec)
    return TOP if depth(t) > _MAX_DEPTH else t


def _join_opt(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return join(a, b)


def _join_pair(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return (join(a[0], b[0]), join(a[1], b[1]))


def depth(t: Ty) -> int:
    if t.top:
        return 0
    parts = [t.set_, t.seq, *(t.fn or ()), *(x for _, x in t.rec or ())]
    return 1 + max((depth(p) for p in parts if p is not None), default=0)


def set_of(t: Ty) -> Ty:
    return TOP if t.top else Ty(set_=t)


def seq_of(t: Ty) -> Ty:
    return TOP if t.top else Ty(seq=t)


def fn_of(k: Ty, v: Ty) -> Ty:
    """A function from k to v: a sequence when its domain is 1..n (kipcheck's canonical form),
    a record when its keys are strings."""
    if k.top or v.top:
        return TOP
    out = Ty(fn=(k, v))
    if INT_A in k.atoms:
        out = join(out, Ty(seq=v))
    return out


def elem(t: Ty) -> Ty:
    """The type of an element of a set of type t."""
    if t.top:
        return TOP
    return t.set_ if t.set_ is not None else BOTTOM


def applied(t: Ty) -> Ty:
    """The type of f[x] for f of type t."""
    if t.top:
        return TOP
    out = BOTTOM
    if t.fn is not None:
        out = join(out, t.fn[1])
    if t.seq is not None:
        out = join(out, t.seq)
    for _, x in t.rec or ():
        out = join(out, x)
    return out


def keys(t: Ty) -> Ty:
    """The type of DOMAIN f for f of type t."""
    if t.top:
        return TOP
    out = BOTTOM
    if t.fn is not None:
        out = join(out, t.fn[0])
    if t.seq is not None:
        out = join(out, INTEGER)
    if t.rec is not None:
        out = join(out, STR)
    return out


def field(t: Ty, name: str) -> Ty:
    """The type of r.name for r of type t."""
    if t.top:
        return TOP
    out = BOTTOM
    for f, x in t.rec or ():
        if f == name:
            out = join(out, x)
    if t.fn is not None:
        out = join(out, t.fn[1])
    return out


def ambiguous(t: Ty) -> bool:
    """Can two values of type t be equal in Python but not in TLA+?"""
    if t.top:
        return True
    if BOOL_A in t.atoms and INT_A in t.atoms:
        return True
    fn = t.fn
    if t.rec is not None:  # records and other functions are compared as functions alike
        fields = BOTTOM
        for _, x in t.rec:
            fields = join(fields, x)
        fn = (join(fn[0], STR), join(fn[1], fields)) if fn is not None else (STR, fields)
        if fn[0].top or fn[1].top:
            return True
        if t.fn is None and any(ambiguous(x) for _, x in t.rec):
            return True
    if fn is not None:
        if t.seq is not None and _tuple_of(t.seq, fn[0]) and _tuple_of(t.seq, fn[1]):
            return True  # a function against the pair of its keys and its values
        if (t.rec is None or t.fn is not None) and (ambiguous(fn[0]) or ambiguous(fn[1])):
            return True
    return any(ambiguous(p) for p in (t.set_, t.seq) if p is not None)


def _tuple_like(t: Ty) -> bool:
    return t.top or t.seq is not None or t.fn is not None or t.rec is not None


def _overlap(a: Ty, b: Ty) -> bool:
    """Can a value of type a be equal in Python to a value of type b?"""
    if a.top or b.top or a.atoms & b.atoms:
        return True
    if (BOOL_A in a.atoms and INT_A in b.atoms) or (INT_A in a.atoms and BOOL_A in b.atoms):
        return True
    return (a.set_ is not None and b.set_ is not None) or (_tuple_like(a) and _tuple_like(b))


def _tuple_of(e: Ty, x: Ty) -> bool:
    """Can a value of type e (an element of a sequence) equal a tuple of values of type x (a
    function's keys or values)?"""
    if e.top:
        return True
    if e.seq is not None and _overlap(e.seq, x):
        return True
    return (e.fn is not None or e.rec is not None) and _tuple_like(x)


def of_value(v, _memo=None) -> Ty:
    """The type of a value (a constant)."""
    memo = {} if _memo is None else _memo
    key = id(v)
    hit = memo.get(key)
    if hit is not None:
        return hit[1]
    t = type(v)
    if t is bool:
        out = BOOL
    elif t is int:
        out = INTEGER
    elif t is str:
        out = STR
    elif t is ModelValue:
        out = MV
    elif t is tuple:
        out = seq_of(_join_all(of_value(x, memo) for x in v))
    elif t is Fn:
        ks, vs = v
        if all(type(k) is str for k in ks):
            fields = {}
            for k, x in zip(ks, vs, strict=True):
                fields[k] = of_value(x, memo)
            out = TOP if any(x.top for x in fields.values()) else Ty(
                rec=tuple(sorted(fields.items())))
        else:
            out = fn_of(_join_all(of_value(k, memo) for k in ks),
                        _join_all(of_value(x, memo) for x in vs))
    elif t is frozenset:
        out = set_of(_join_all(of_value(x, memo) for x in v))
    elif isinstance(v, LazySet):
        out = _lazy(v, memo)
    else:
        out = TOP
    memo[key] = (v, out)
    return out


def _lazy(v, memo) -> Ty:
    if v is NAT or v is INT or isinstance(v, Interval):
        return set_of(INTEGER)
    if v is STRING:
        return set_of(STR)
    if isinstance(v, SeqSet):
        return set_of(seq_of(elem(of_value(v.base, memo))))
    if isinstance(v, PowerSet):
        return set_of(of_value(v.base, memo))
    if isinstance(v, FuncSet):
        return set_of(fn_of(elem(of_value(v.domain, memo)), elem(of_value(v.codomain, memo))))
    if isinstance(v, RecordSet):
        fields = {f: elem(of_value(s, memo)) for f, s in v.fields.items()}
        if any(x.top for x in fields.values()):
            return TOP
        return set_of(Ty(rec=tuple(sorted(fields.items()))))
    if isinstance(v, Product):
        return set_of(seq_of(_join_all(elem(of_value(s, memo)) for s in v.factors)))
    if isinstance(v, FilterSet):  # a subset of its base
        return of_value(v.base, memo)
    if isinstance(v, Union):
        return _join_all(of_value(p, memo) for p in v.parts)
    if isinstance(v, (Intersection, Difference)):  # within the join of the two
        return join(of_value(v.left, memo), of_value(v.right, memo))
    return TOP


def _join_all(types) -> Ty:
    out = BOTTOM
    for t in types:
        out = join(out, t)
        if out.top:
            return TOP
    return out


_BOOL_OPS = {"=", "#", "\\in", "\\notin", "\\land", "\\lor", "\\lnot", "=>", "\\equiv",
             "\\subseteq", "UNCHANGED", "ENABLED"}
_INT_STD = {"+", "-", "*", "^", "%", "\\div", "-.", "Len", "Cardinality", "JavaTime"}
_BOOL_STD = {"<", ">", "<=", ">=", "IsFiniteSet", "PrintT", "Assert", "TLCSet"}


class GiveUp(Exception):
    """An assignment the analysis cannot see through: every variable is TOP."""


class KindAnalysis:
    """The fixpoint over Init and Next of every variable's type (see the module docstring)."""

    def __init__(self, comp, variables: list[str]):
        self.c = comp
        self.vars = {v: BOTTOM for v in variables}
        self._active: set = set()  # definitions being typed
        self._visited: set = set()  # (definition, frame, argument types) walked this round
        self._consts: dict = {}  # (frame, module, name) -> type of a constant definition
        self._names: dict = {}  # id(node) -> (node, the names it mentions)
        self._recursive: set = set()  # definitions (with argument types) that call themselves
        self._approx: dict = {}  # such a definition -> its type found so far

    def run(self, init, nxt, rounds: int = 30) -> dict[str, Ty]:
        try:
            for _ in range(rounds):
                before = dict(self.vars)
                self._visited.clear()
                if init is not None:
                    self.visit(init[0], init[1], {}, "init")
                if nxt is not None:
                    self.visit(nxt[0], nxt[1], {}, "next")
                if before == self.vars:
                    return {v: (TOP if t == BOTTOM else t) for v, t in self.vars.items()}
        except (GiveUp, RecursionError):
            pass
        return {v: TOP for v in self.vars}

    # -- assignments ---------------------------------------------------------------------------

    def _assign(self, var: str, t: Ty) -> None:
        self.vars[var] = join(self.vars[var], t)

    def _var(self, e, env) -> str | None:
        """The root variable an identifier denotes, None if it is no variable; GiveUp when it
        is an instance's variable that stands for an expression."""
        if not isinstance(e, ast.Ident) or e.name in env.locals:
            return None
        sym = env.scope.symbols.get(e.name)
        if sym is None or sym.kind != "variable":
            return None
        var = self.c.var_of(e.name, env)
        if var is None:
            raise GiveUp
        return var

    def visit(self, e, env, tenv: dict, mode: str) -> None:
        """Record the assignments of action (or Init) e."""
        t = type(e)
        if t is ast.Junction:
            for item in e.items:
                self.visit(item, env, tenv, mode)
        elif t is ast.OpApp:
            self._visit_app(e, env, tenv, mode)
        elif t is ast.Ident:
            self._visit_call(e.name, (), e, env, tenv, mode)
        elif t is ast.Quant:
            self.visit(e.body, env, self._bind_bounds(e.bounds, env, tenv), mode)
        elif t is ast.If:
            for part in (e.cond, e.then, e.else_):
                self.visit(part, env, tenv, mode)
        elif t is ast.Case:
            for cond, body in e.arms:
                self.visit(cond, env, tenv, mode)
                self.visit(body, env, tenv, mode)
            if e.other is not None:
                self.visit(e.other, env, tenv, mode)
        elif t is ast.Let:
            self.visit(e.body, env, self._bind_let(e.defs, env, tenv), mode)
        elif t in (ast.BoxAction, ast.AngleAction):
            self.visit(e.action, env, tenv, mode)
        elif t is ast.InstanceRef:
            self._visit_instance(e, env, tenv, mode)
        elif t in (ast.Num, ast.Str, ast.Bool, ast.Decimal, ast.BuiltinSet, ast.At):
            pass
        elif isinstance(e, ast.Node):  # anything else: its parts, with what is bound unknown
            for f in e.__dataclass_fields__:
                if f != "span":
                    self._visit_any(getattr(e, f), env, tenv, mode)

    def _visit_any(self, x, env, tenv, mode):
        if isinstance(x, ast.Node):
            self.visit(x, env, _unknown_bounds(x, tenv), mode)
        elif isinstance(x, tuple):
            for y in x:
                self._visit_any(y, env, tenv, mode)

    def _visit_app(self, e, env, tenv, mode):
        op, args = e.op, e.args
        if op in ("=", "\\in") and not self._user_op(op, env, tenv):
            lhs, lenv, ltenv = _unalias(args[0], env, tenv)
            var = None
            if mode == "next" and type(lhs) is ast.OpApp and lhs.op == "'":
                inner, ienv, _ = _unalias(lhs.args[0], lenv, ltenv)
                var = self._var(inner, ienv)
            elif mode == "init":
                var = self._var(lhs, lenv)
            if var is not None:
                rhs = self.ty(args[1], env, tenv)
                self._assign(var, rhs if op == "=" else elem(rhs))
            return
        if op in ("\\land", "\\lor", "\\lnot", "=>", "\\equiv", "\\cdot") and \
                not self._user_op(op, env, tenv):
            for a in args:
                self.visit(a, env, tenv, mode)
            return
        if op in _BOOL_OPS or op in ("'", "SUBSET", "UNION", "DOMAIN", "\\cup", "\\cap", "\\"):
            if not self._user_op(op, env, tenv):
                return
        self._visit_call(op, args, e, env, tenv, mode)

    def _user_op(self, op, env, tenv) -> bool:
        return op in tenv or op in env.locals or (
            (sym := env.scope.symbols.get(op)) is not None and sym.module not in STANDARD)

    def _visit_call(self, name, args, e, env, tenv, mode):
        """An operator applied in an action: walk its body where it may assign."""
        b = tenv.get(name)
        if b is not None:
            if b[0] == "op":  # an operator passed as an argument
                raise GiveUp
            if b[0] == "let":
                d, denv, dtenv = b[1], b[2], b[3]
                if isinstance(d, ast.OpDef):
                    self._walk_def(d, denv, self._bind_params(d, args, env, tenv, dtenv),
                                   mode, ("let", id(d)))
            return
        if name in env.locals:
            if env.locals[name][0] not in ("val", "expr"):
                raise GiveUp  # an operator the compiler bound: it may assign
            return
        sym = env.scope.symbols.get(name)
        if sym is None:
            return
        target = self._resolve(e, sym, env)
        if target is None:
            if sym.kind == "constant" and sym.arity:
                raise GiveUp  # an operator constant the analysis cannot follow
            return
        d, denv = target
        if isinstance(d, ast.OpDef):
            self._walk_def(d, denv, self._bind_params(d, args, env, tenv, {}), mode,
                           ("def", id(d), denv.frame.ident))

    def _resolve(self, e, sym, env):
        """The definition an operator application evaluates, as the compiler resolves it (a
        .cfg `Name <- Other`, an instance's operator constant, a LAMBDA given for one):
        (definition, its env), or None for a standard operator, a constant or a variable.
        GiveUp when a replaced operator cannot be followed."""
        if type(e) is ast.Ident or e.op[:1].isalpha():
            target = self.c.user_def(e, env)
            if target is not None:
                return target[0], target[1]
            if sym.kind == "function" and self.c.replacement(sym) is None:
                return sym.node, self.c.def_env(sym, env)
            return None
        if sym.module in STANDARD or not isinstance(sym.node, ast.OpDef):
            return None  # a user-defined infix operator below
        if self.c.replacement(sym) is not None:
            raise GiveUp
        return sym.node, self.c.def_env(sym, env)

    def _walk_def(self, d, denv, ptenv, mode, key):
        """Walk a definition's body once per round for each list of argument types."""
        arg_key = tuple(sorted((n, b[1]) for n, b in ptenv.items()
                               if b[0] == "ty")) if ptenv else ()
        k = (key, mode, arg_key)
        if k in self._visited:
            return
        self._visited.add(k)
        self.visit(d.body, denv, ptenv, mode)

    def _visit_instance(self, e, env, tenv, mode):
        try:
            resolved = self.c.instance_def(e, env)
        except Exception:  # noqa: BLE001 - whatever it is, the analysis cannot follow it
            resolved = None
        if resolved is None or not isinstance(resolved[0], ast.OpDef):
            raise GiveUp
        d, denv, args = resolved
        self._walk_def(d, denv, self._bind_params(d, args, env, tenv, {}), mode,
                       ("inst", id(d), denv.frame.ident))

    # -- bindings ------------------------------------------------------------------------------

    def _bind_params(self, d, args, env, tenv, base: dict) -> dict:
        """A parameter's binding: its argument's type, and the argument itself, since
        `P(v) == v = 1` applied as P(x') assigns x (TLC substitutes arguments)."""
        out = dict(base)
        for p, a in zip(d.params, args, strict=False):
            if isinstance(p, str):  # a LAMBDA's parameter
                out[p] = ("ty", self.ty(a, env, tenv), a, env, tenv)
            else:
                out[p.name] = ("op",) if p.arity else ("ty", self.ty(a, env, tenv), a, env,
                                                        tenv)
        return out

    def _bind_bounds(self, bounds, env, tenv) -> dict:
        out = dict(tenv)
        for b in bounds:
            t = TOP if b.domain is None else elem(self.ty(b.domain, env, tenv))
            if b.tuple:
                t = applied(t)
            for n in b.names:
                out[n] = ("ty", t)
        return out

    def _bind_let(self, defs, env, tenv) -> dict:
        out = dict(tenv)
        for d in defs:
            if isinstance(d, (ast.OpDef, ast.FuncDef)):
                out[d.name] = ("let", d, env, out)
            elif hasattr(d, "name"):
                out[d.name] = ("op",)
        return out

    # -- expression types ----------------------------------------------------------------------

    def ty(self, e, env, tenv: dict) -> Ty:
        t = type(e)
        if t in _FOLDABLE and not (tenv and self._names_in(e) & tenv.keys()):
            # a constant's type is its value's, exactly (not when a bound name, which may
            # shadow a definition, appears in it)
            key = (id(e), env.frame.ident, env.scope.name)
            out = self._consts.get(key)
            if out is None:
                try:
                    out = of_value(self.c.const_value(e, env))
                except Exception:  # noqa: BLE001 - not constant (bound names, variables)
                    out = _NO_VALUE
                self._consts[key] = (e, out)  # e kept alive: its id stays its own
            else:
                out = out[1]
            if out is not _NO_VALUE:
                return out
        if t is ast.Num:
            return INTEGER
        if t is ast.Str:
            return STR
        if t is ast.Bool:
            return BOOL
        if t is ast.BuiltinSet:
            return {"BOOLEAN": set_of(BOOL), "STRING": set_of(STR), "Nat": set_of(INTEGER),
                    "Int": set_of(INTEGER)}.get(e.name, TOP)
        if t is ast.Ident:
            return self._name(e, env, tenv)
        if t is ast.OpApp:
            return self._app(e, env, tenv)
        if t is ast.At:
            b = tenv.get("@")
            return b[1] if b is not None else TOP
        if t in (ast.Quant, ast.Junction, ast.BoxAction, ast.AngleAction):
            return BOOL if t is not ast.Quant or e.kind in ("A", "E") else TOP
        if t is ast.Choose:
            return TOP if e.bound.domain is None else self._bound_elem(e.bound, env, tenv)
        if t is ast.SetEnum:
            return set_of(_join_all(self.ty(x, env, tenv) for x in e.elems))
        if t is ast.SetFilter:
            return TOP if e.bound.domain is None else self.ty(e.bound.domain, env, tenv)
        if t is ast.SetMap:
            return set_of(self.ty(e.expr, env, self._bind_bounds(e.bounds, env, tenv)))
        if t is ast.FuncCons:
            return fn_of(self._domain_elem(e.bounds, env, tenv),
                         self.ty(e.body, env, self._bind_bounds(e.bounds, env, tenv)))
        if t is ast.FuncSet:
            return set_of(fn_of(elem(self.ty(e.domain, env, tenv)),
                                elem(self.ty(e.codomain, env, tenv))))
        if t is ast.Record:
            return self._record({f: self.ty(x, env, tenv) for f, x in e.fields})
        if t is ast.RecordSet:
            r = self._record({f: elem(self.ty(x, env, tenv)) for f, x in e.fields})
            return set_of(r)
        if t is ast.Except:
            return self._except(e, env, tenv)
        if t is ast.Tuple:
            return seq_of(_join_all(self.ty(x, env, tenv) for x in e.elems))
        if t is ast.CartProd:
            return set_of(seq_of(_join_all(elem(self.ty(x, env, tenv)) for x in e.factors)))
        if t is ast.FuncApp:
            return applied(self.ty(e.func, env, tenv))
        if t is ast.FieldAccess:
            return field(self.ty(e.record, env, tenv), e.field)
        if t is ast.If:
            return join(self.ty(e.then, env, tenv), self.ty(e.else_, env, tenv))
        if t is ast.Case:
            out = _join_all(self.ty(b, env, tenv) for _, b in e.arms)
            return out if e.other is None else join(out, self.ty(e.other, env, tenv))
        if t is ast.Let:
            return self.ty(e.body, env, self._bind_let(e.defs, env, tenv))
        if t is ast.InstanceRef:
            return self._instance(e, env, tenv)
        return TOP

    def _names_in(self, e) -> frozenset:
        """The identifiers and operator names e mentions (remembered per node)."""
        hit = self._names.get(id(e))
        if hit is not None and hit[0] is e:
            return hit[1]
        found: set = set()
        stack = [e]
        while stack:
            x = stack.pop()
            if isinstance(x, ast.Ident):
                found.add(x.name)
            elif isinstance(x, ast.OpApp):
                found.add(x.op)
            if isinstance(x, ast.Node):
                stack.extend(getattr(x, f) for f in x.__dataclass_fields__ if f != "span")
            elif isinstance(x, tuple):
                stack.extend(x)
        out = frozenset(found)
        self._names[id(e)] = (e, out)
        return out

    @staticmethod
    def _record(fields: dict) -> Ty:
        if any(x.top for x in fields.values()):
            return TOP
        return Ty(rec=tuple(sorted(fields.items())))

    def _bound_elem(self, b, env, tenv) -> Ty:
        t = elem(self.ty(b.domain, env, tenv))
        return applied(t) if b.tuple else t

    def _domain_elem(self, bounds, env, tenv) -> Ty:
        """The type of a key of [x \\in S, y \\in T |-> e]: a tuple when there are several."""
        if len(bounds) == 1 and (len(bounds[0].names) == 1 or bounds[0].tuple):
            b = bounds[0]
            return TOP if b.domain is None else elem(self.ty(b.domain, env, tenv))
        parts = [TOP if b.domain is None else elem(self.ty(b.domain, env, tenv))
                 for b in bounds]
        return seq_of(_join_all(parts))

    def _except(self, e, env, tenv) -> Ty:
        base = self.ty(e.func, env, tenv)
        out = base
        for u in e.updates:
            path = []
            for kind, val in u.path:
                if kind == "field":
                    path.append(("field", val))
                else:
                    path.append(("index", None))
            at = base
            for kind, name in path:
                at = field(at, name) if kind == "field" else applied(at)
            v = self.ty(u.value, env, {**tenv, "@": ("ty", at)})
            out = join(out, _replaced(base, path, v))
        return out

    def _name(self, e, env, tenv) -> Ty:
        name = e.name
        b = tenv.get(name)
        if b is not None:
            if b[0] == "ty":
                return b[1]
            if b[0] == "let":
                return self._let_value(b, (), env, tenv)
            return TOP
        if name in env.locals:
            return TOP
        sym = env.scope.symbols.get(name)
        if sym is None:
            return TOP
        if sym.kind == "variable":
            try:
                var = self._var(e, env)
            except GiveUp:
                var = None
            if var is not None:
                return self.vars[var]
            sub = env.frame.subst.get(name)
            if sub is not None and env.frame is not self.c.root_frame:
                return self.ty(sub[0], sub[1], {})
            return TOP
        if sym.kind in ("constant", "operator", "function"):
            key = (env.frame.ident, sym.module, name)
            out = self._consts.get(key)
            if out is None:
                try:
                    out = of_value(self.c.const_value(e, env))
                except Exception:  # noqa: BLE001 - not constant: typed from its body
                    out = _NO_VALUE
                self._consts[key] = out
            if out is not _NO_VALUE:
                return out
            if sym.kind == "constant":
                sub = env.frame.subst.get(name)
                if sub is not None and env.frame is not self.c.root_frame:
                    return self.ty(sub[0], sub[1], {})
                return TOP
            try:
                target = self._resolve(e, sym, env)
            except GiveUp:
                return TOP
            if target is not None:
                d, denv = target
                key = ("def", id(d), denv.frame.ident)
                if isinstance(d, ast.OpDef) and not d.params:
                    return self._body(d, denv, {}, key)
                if isinstance(d, ast.FuncDef):
                    return self._func_def(d, denv, {}, key)
        return TOP

    def _body(self, d, denv, ptenv, key) -> Ty:
        arg_key = tuple(sorted((n, b[1]) for n, b in ptenv.items() if b[0] == "ty"))
        return self._fixpoint((key, arg_key), lambda: self.ty(d.body, denv, ptenv))

    def _func_def(self, d, denv, tenv, key) -> Ty:
        return self._fixpoint((key, "fn"), lambda: fn_of(
            self._domain_elem(d.bounds, denv, tenv),
            self.ty(d.body, denv, self._bind_bounds(d.bounds, denv, tenv))))

    def _fixpoint(self, k, compute) -> Ty:
        """A definition's type; a recursive one's by iteration from BOTTOM: each recursive
        call gives the type found so far, until the body's type stops growing."""
        if k in self._active:
            self._recursive.add(k)
            return self._approx.get(k, BOTTOM)
        self._active.add(k)
        try:
            for _ in range(12):
                out = compute()
                if k not in self._recursive:
                    return out
                before = self._approx.get(k, BOTTOM)
                out = join(before, out)
                if out == before:
                    return out
                self._approx[k] = out
            return TOP
        finally:
            self._active.discard(k)

    def _let_value(self, b, args, env, tenv) -> Ty:
        d, denv, dtenv = b[1], b[2], b[3]
        if isinstance(d, ast.FuncDef):
            return applied(self._func_def(d, denv, dtenv, ("let", id(d)))) if args else \
                self._func_def(d, denv, dtenv, ("let", id(d)))
        ptenv = self._bind_params(d, args, env, tenv, dtenv)
        return self._body(d, denv, ptenv, ("let", id(d)))

    def _app(self, e, env, tenv) -> Ty:
        op, args = e.op, e.args
        b = tenv.get(op)
        if b is not None:
            return self._let_value(b, args, env, tenv) if b[0] == "let" else TOP
        if op in env.locals:
            return TOP
        sym = env.scope.symbols.get(op)
        if sym is not None:
            try:
                target = self._resolve(e, sym, env)
            except GiveUp:
                return TOP
            if target is not None:
                d, denv = target
                if not isinstance(d, ast.OpDef):
                    return TOP
                return self._body(d, denv, self._bind_params(d, args, env, tenv, {}),
                                  ("def", id(d), denv.frame.ident))
            if sym.module not in STANDARD:
                return TOP
        if op in _BOOL_OPS:
            return BOOL
        if op == "'":
            return self.ty(args[0], env, tenv)
        if op in ("\\cup", "\\cap"):
            return join(self.ty(args[0], env, tenv), self.ty(args[1], env, tenv))
        if op == "\\":
            return self.ty(args[0], env, tenv)
        if op == "SUBSET":
            return set_of(self.ty(args[0], env, tenv))
        if op == "UNION":
            return elem(self.ty(args[0], env, tenv))
        if op == "DOMAIN":
            return set_of(keys(self.ty(args[0], env, tenv)))
        if sym is None or sym.module not in STANDARD:
            return TOP
        return self._standard(op, args, env, tenv)

    def _standard(self, op, args, env, tenv) -> Ty:
        if op in _INT_STD:
            return INTEGER
        if op in _BOOL_STD:
            return BOOL
        a = [lambda i=i: self.ty(args[i], env, tenv) for i in range(len(args))]
        if op == "..":
            return set_of(INTEGER)
        if op in ("Nat", "Int"):
            return set_of(INTEGER)
        if op == "Seq":
            return set_of(seq_of(elem(a[0]())))
        if op in ("\\o", "@@"):
            return join(a[0](), a[1]())
        if op == "Append":
            return join(a[0](), seq_of(a[1]()))
        if op == "Head":
            return applied(a[0]())
        if op in ("Tail", "SubSeq", "SelectSeq", "SortSeq", "TLCEval"):
            return a[0]()
        if op == ":>":
            return fn_of(a[0](), a[1]())
        if op == "Print":
            return a[1]()
        if op == "ToString":
            return STR
        if op == "RandomElement":
            return elem(a[0]())
        if op == "Permutations":
            x = elem(a[0]())
            return set_of(fn_of(x, x))
        return TOP

    def _instance(self, e, env, tenv) -> Ty:
        try:
            resolved = self.c.instance_def(e, env)
        except Exception:  # noqa: BLE001
            return TOP
        if resolved is None:
            return TOP
        d, denv, args = resolved
        if not isinstance(d, ast.OpDef):
            return TOP
        return self._body(d, denv, self._bind_params(d, args, env, tenv, {}),
                          ("inst", id(d), denv.frame.ident))


_NO_VALUE = object()
_FOLDABLE = {ast.If, ast.Case, ast.OpApp, ast.SetFilter, ast.SetMap, ast.FuncCons, ast.FuncSet,
             ast.RecordSet, ast.FuncApp, ast.Let, ast.SetEnum, ast.CartProd, ast.Choose,
             ast.InstanceRef}


def _replaced(t: Ty, path: list, v: Ty) -> Ty:
    """The type of t with the part at path replaced by a value of type v (joined with t by
    the caller: the other parts keep their types)."""
    if not path:
        return v
    if t.top:
        return TOP
    kind, name = path[0]
    sub = field(t, name) if kind == "field" else applied(t)
    new = _replaced(sub, path[1:], v)
    out = BOTTOM
    if t.rec is not None:
        fields = dict(t.rec)
        for f in fields:
            if kind == "index" or f == name:
                fields[f] = join(fields[f], new)
        out = join(out, Ty(rec=tuple(sorted(fields.items()))))
    if t.fn is not None:
        out = join(out, Ty(fn=(t.fn[0], join(t.fn[1], new))))
    if t.seq is not None:
        out = join(out, Ty(seq=join(t.seq, new)))
    return out


def _unalias(e, env, tenv: dict):
    """A parameter's argument in place of the parameter (repeatedly), with where it was
    written: (expression, env, type env)."""
    while type(e) is ast.Ident:
        b = tenv.get(e.name)
        if b is None or b[0] != "ty" or len(b) < 3:
            break
        e, env, tenv = b[2], b[3], b[4]
    return e, env, tenv


def _unknown_bounds(node, tenv: dict) -> dict:
    """The names a construct binds, as TOP, for walking its parts without typing them."""
    bounds = []
    if isinstance(node, (ast.Quant, ast.SetMap, ast.FuncCons)):
        bounds = node.bounds
    elif isinstance(node, (ast.Choose, ast.SetFilter)):
        bounds = (node.bound,)
    if not bounds:
        return tenv
    out = dict(tenv)
    for b in bounds:
        for n in b.names:
            out[n] = ("ty", TOP)
    return out


def checked_variables(comp, variables: list[str], init, nxt) -> tuple[bool, ...]:
    """Per variable: does a by-value hit on its values need a kind check?"""
    types = KindAnalysis(comp, variables).run(init, nxt)
    return tuple(ambiguous(types[v]) for v in variables)


def variable_types(comp, variables: list[str], init, nxt) -> dict[str, Ty]:
    """The inferred type of every variable (for tests and `kipcheck compile`)."""
    return KindAnalysis(comp, variables).run(init, nxt)


def conforms(v, t: Ty) -> bool:
    """Is value v of type t? (The tests check the analysis with it on every reachable state.)"""
    if t.top:
        return True
    k = type(v)
    if k is bool:
        return BOOL_A in t.atoms
    if k is int:
        return INT_A in t.atoms
    if k is str:
        return STR_A in t.atoms
    if k is ModelValue:
        return MV_A in t.atoms
    if k is tuple:
        return t.seq is not None and all(conforms(x, t.seq) for x in v) or (
            not v and (t.fn is not None or t.rec is not None))
    if k is Fn:
        ks, vs = v
        if t.rec is not None and all(type(x) is str for x in ks):
            fields = dict(t.rec)
            if all(f in fields and conforms(x, fields[f]) for f, x in zip(ks, vs, strict=True)):
                return True
        return t.fn is not None and all(conforms(x, t.fn[0]) for x in ks) and all(
            conforms(x, t.fn[1]) for x in vs)
    if k is frozenset:
        return t.set_ is not None and all(conforms(x, t.set_) for x in v)
    if isinstance(v, LazySet):  # a set kept lazy: its elements, when it has finitely many
        if t.set_ is None:
            return False
        return not getattr(v, "finite", False) or all(conforms(x, t.set_) for x in as_set(v))
    return False
