"""Static questions about TLA+ expressions that decide how they compile: does an expression
(through the definitions it calls) mention a prime or a variable, an `@`; which operand does a
subexpression selector (`Op!2!1`) pick; what `[A]_v` means. They read the AST and the
compiler's name resolution, and generate no code."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..frontend import ast
from .natives import STANDARD
from .scope import CompileError, Env

if TYPE_CHECKING:
    from .compiler import Compiler


def mentions_prime(e, comp: Compiler, env: Env, seen: set, what: str = "prime") -> bool:
    """Does e (through the definitions it calls) contain a prime or UNCHANGED? With
    what="var": does it read a state variable at all?"""
    if isinstance(e, ast.OpApp):
        if e.op == "ENABLED" and "ENABLED" not in env.locals:
            return what == "var"  # state-level: it reads variables, its primes are its own
        if e.op in ("'", "UNCHANGED") and e.op not in env.locals:
            return True
        if any(mentions_prime(a, comp, env, seen, what) for a in e.args):
            return True
        return def_mentions_prime(e.op, comp, env, seen, what)
    if isinstance(e, ast.Ident):
        if what == "var" and e.name not in env.locals:
            sym = env.scope.symbols.get(e.name)
            if sym is not None and sym.kind == "variable":
                return True
        return def_mentions_prime(e.name, comp, env, seen, what)
    if isinstance(e, (ast.BoxAction, ast.AngleAction)):
        return True
    if isinstance(e, ast.Let):  # a definition counts where the body uses it
        inner = env
        for d in e.defs:
            if isinstance(d, ast.OpDef):
                inner = inner.bind({d.name: ("def", d, inner)})
            elif mentions_prime(d, comp, inner, seen, what):
                return True
        return mentions_prime(e.body, comp, inner, seen, what)
    if isinstance(e, ast.InstanceRef):
        resolved = comp.instance_def(e, env) if e.path[0][0] not in env.locals else None
        if resolved is not None:
            d, denv, _ = resolved
            if isinstance(d, ast.OpDef) and mentions_prime(d.body, comp, denv, seen, what):
                return True
        return any(mentions_prime(a, comp, env, seen, what) for a in e.args)
    if isinstance(e, ast.Node):
        for f in e.__dataclass_fields__:
            if f != "span" and mentions_prime(getattr(e, f), comp, env, seen, what):
                return True
        return False
    if isinstance(e, tuple):
        return any(mentions_prime(x, comp, env, seen, what) for x in e)
    return False


def def_mentions_prime(name: str, comp: Compiler, env: Env, seen: set,
                        what: str = "prime") -> bool:
    b = env.locals.get(name)
    if b is not None:  # a LET definition of a temporal formula: look into its body
        if b[0] == "def" and id(b[1]) not in seen:
            seen.add(id(b[1]))
            return mentions_prime(b[1].body, comp, b[2], seen, what)
        if b[0] == "expr" and isinstance(b[1], ast.Node) and id(b[1]) not in seen:
            # an argument passed by name, or a LET definition of an action compiled where
            # it is used: what it stands for
            seen.add(id(b[1]))
            return mentions_prime(b[1], comp, b[2], seen, what)
        return False
    sym = env.scope.symbols.get(name)
    if sym is None or sym.module in STANDARD:
        return False
    key = (env.frame.ident, sym.module, name, what)
    if key in seen:
        return False
    seen.add(key)
    cached = comp.prime_cache.get(key)
    if cached is not None:
        return cached
    d = sym.node
    result = False
    if isinstance(d, ast.OpDef):
        result = mentions_prime(d.body, comp, comp.def_env(sym, env), seen, what)
    elif sym.kind in ("constant", "variable") and env.frame is not comp.root_frame:
        sub = env.frame.subst.get(name)
        if sub is not None and isinstance(sub[0], ast.Node):
            result = mentions_prime(sub[0], comp, sub[1], seen, what)
    comp.prime_cache[key] = result
    return result


def subscripted_action(e):
    """`[A]_v` is `A \\/ UNCHANGED v`; `<<A>>_v` is `A /\\ ~UNCHANGED v`."""
    v = e.sub
    same = ast.OpApp("UNCHANGED", (v,), span=v.span)
    if type(e) is ast.BoxAction:
        return ast.OpApp("\\lor", (e.action, same), span=e.span)
    return ast.OpApp("\\land", (e.action, ast.OpApp("\\lnot", (same,), span=v.span)),
                     span=e.span)


def names_in(e) -> set:
    """Every identifier and operator name in e (binders included: a conservative 'mentions')."""
    out = set()
    for n in ast.walk(e):
        if isinstance(n, ast.Ident):
            out.add(n.name)
        elif isinstance(n, ast.OpApp):
            out.add(n.op)
        elif isinstance(n, ast.InstanceRef):
            out.add(n.path[0][0])
    return out


def mentions_at(e) -> bool:
    """Does an EXCEPT update's value use `@` (the old value)?"""
    if isinstance(e, ast.At):
        return True
    if isinstance(e, ast.Except):
        return mentions_at(e.func)  # a nested EXCEPT's @ is its own
    if isinstance(e, ast.Node):
        return any(mentions_at(getattr(e, f)) for f in e.__dataclass_fields__ if f != "span")
    if isinstance(e, tuple):
        return any(mentions_at(x) for x in e)
    return False


def is_selector(name: str) -> bool:
    """Is a name in `Op!...` a subexpression selector rather than a definition's name?"""
    return name.isdigit() or name in (":", "<<", ">>")


def operands(e) -> tuple:
    """The operands of an expression as SANY numbers them in subexpression names."""
    t = type(e)
    if t is ast.Junction or t is ast.Tuple or t is ast.SetEnum:
        return e.items if t is ast.Junction else e.elems
    if t is ast.OpApp:
        return e.args
    if t is ast.If:
        return (e.cond, e.then, e.else_)
    if t is ast.Case:
        return tuple(ast.Tuple(arm, span=arm[0].span) for arm in e.arms)
    if t is ast.Record or t is ast.RecordSet:
        return tuple(x for _, x in e.fields)
    if t is ast.FuncApp:
        return (e.func, *e.args)
    if t is ast.FieldAccess:
        return (e.record, ast.Str(e.field, span=e.span))
    if t is ast.FuncSet:
        return (e.domain, e.codomain)
    if t is ast.CartProd:
        return e.factors
    if t in (ast.BoxAction, ast.AngleAction):
        return (e.action, e.sub)
    if t in (ast.Quant, ast.SetMap, ast.FuncCons):
        return tuple(b.domain for b in e.bounds if b.domain is not None)
    if t is ast.SetFilter or t is ast.Choose:
        return (e.bound.domain,) if e.bound.domain is not None else ()
    return ()


def operand(e, sel: str, span):
    """The part of e that one selector of a subexpression name picks."""
    if sel == ":":
        return e
    ops = operands(e)
    n = 1 if sel == "<<" else 2 if sel == ">>" else int(sel)
    if not 1 <= n <= len(ops):
        raise CompileError(f"Nonexistent operand specified by `argument selector {sel}'", span)
    return ops[n - 1]


def lambda_arity(a, env: Env) -> int:
    """The number of arguments of an operator passed as an argument (1 when unknown)."""
    if isinstance(a, ast.Lambda):
        return len(a.params)
    if isinstance(a, ast.Ident):
        b = env.locals.get(a.name)
        if b is not None and b[0] == "op":
            return b[2]
        sym = env.scope.symbols.get(a.name)
        if sym is not None:
            return sym.arity
    return 1
