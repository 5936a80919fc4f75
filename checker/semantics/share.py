"""Evaluate each repeated state expression of a generated function once per call.

The actions of a spec repeat the same guards and look-ups: every instance of `RcvCommit(r)` tests
`[type |-> "Commit"] \\in msgs`, every action on partition p reads `part[p].state`. In the one
function that expands a state (see Compiler.compile_expand) such an expression is evaluated once
per instance; here each expression that occurs more than once is remembered in a local variable
the first time it is evaluated, wherever that happens, and read back afterwards.

Only expressions whose value depends on nothing but the state and constants are shared: calls of
the runtime's pure operators on `s[i]`, the compiled constants (`_k…`) and literals. Evaluation
order is kept, so an evaluation error still happens at the same place: the first evaluation is the
one the unshared code made first, and later uses follow a successful one. Lines, and the
`# @span` comments that tie them to the spec, stay as they were.
"""
from __future__ import annotations

import ast
import re

from .values import Fn, ModelValue

# Runtime operators whose result depends only on their arguments (no process state, no
# iterator results, no callbacks).
PURE = frozenset({
    "app", "app_n", "field", "eq", "neq", "except_", "except_path", "member", "member_k",
    "not_member", "not_member_k", "cup", "cap", "diff", "card", "subseteq", "domain", "add",
    "sub", "mul", "gt", "lt", "le", "ge", "big_union", "setenum", "boolean", "frozenset", "Fn",
})
_CONST_RE = re.compile(r"_k\d+$")
_SCOPES = (ast.Lambda, ast.FunctionDef, ast.ListComp, ast.SetComp, ast.DictComp,
           ast.GeneratorExp)
_PLAIN_LIMIT = 2_000  # parts of a constant compared by value; bigger ones by name


def share_repeated(src: str, constants: dict) -> str:
    """`src` (one generated function) with its repeated pure state expressions remembered in
    locals. `constants` holds the values of the `_k…` names, so that equal constants compiled
    under two names count as one expression."""
    tree = ast.parse(src)
    func = tree.body[0]
    if not isinstance(func, ast.FunctionDef) or not func.args.args or \
            func.args.args[0].arg != "s":
        return src
    keys: dict = {}
    counts: dict = {}
    _count(func, constants, keys, counts)
    repeated = {k for k, n in counts.items() if n > 1}
    if not repeated:
        return src
    lines = src.split("\n")
    edits: dict[int, list] = {}  # line index -> [(start col, end col, cache name)]
    names: dict = {}
    _choose(func, keys, repeated, names, edits)
    if not names:
        return src
    for i, spans in edits.items():
        line = lines[i]
        for start, end, name in sorted(spans, reverse=True):
            cached = f"({name} if {name} is not None else ({name} := {line[start:end]}))"
            line = line[:start] + cached + line[end:]
        lines[i] = line
    body = func.body[0]
    indent = " " * body.col_offset
    init = f"{indent}{' = '.join(names.values())} = None"
    lines.insert(body.lineno - 1, init)
    return "\n".join(lines)


def _count(node, constants, keys, counts) -> None:
    """Count the pure call expressions outside nested scopes, by structure."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, _SCOPES):
            continue
        if isinstance(child, ast.Call) and child.lineno == child.end_lineno:
            k = _key(child, constants)
            if k is not None:
                keys[id(child)] = k
                counts[k] = counts.get(k, 0) + 1
        _count(child, constants, keys, counts)


def _choose(node, keys, repeated, names, edits) -> None:
    """Mark the outermost repeated expressions for a cache variable."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, _SCOPES):
            continue
        k = keys.get(id(child))
        if k is not None and k in repeated:
            name = names.get(k)
            if name is None:
                name = names[k] = f"_c{len(names)}"
            edits.setdefault(child.lineno - 1, []).append(
                (child.col_offset, child.end_col_offset, name))
            continue
        _choose(child, keys, repeated, names, edits)


def _key(node, constants):
    """A hashable description of a pure expression of the state, or None."""
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.func.id not in PURE or node.keywords:
            return None
        args = []
        for a in node.args:
            k = _key(a, constants)
            if k is None:
                return None
            args.append(k)
        return ("call", node.func.id, tuple(args))
    if isinstance(node, ast.Subscript):
        if (isinstance(node.value, ast.Name) and node.value.id == "s"
                and isinstance(node.slice, ast.Constant) and type(node.slice.value) is int):
            return ("var", node.slice.value)
        return None
    if isinstance(node, ast.Name):
        if _CONST_RE.match(node.id) and node.id in constants:
            return ("const", _value_key(constants[node.id], node.id))
        if node.id == "_EMPTY":
            return ("empty",)
        return None
    if isinstance(node, ast.Constant):
        return ("lit", type(node.value).__name__, node.value)
    if isinstance(node, ast.Tuple):
        parts = [_key(x, constants) for x in node.elts]
        return None if None in parts else ("tuple", tuple(parts))
    return None


def _value_key(v, name: str):
    """Equal TLA+ values get equal keys (Python's 1 == True, or a function equal to a pair,
    must not merge them): each part is tagged with its kind."""
    budget = [_PLAIN_LIMIT]
    k = _typed(v, budget)
    return ("name", name) if k is None else k


def _typed(v, budget):
    budget[0] -= 1
    if budget[0] < 0:
        return None
    t = type(v)
    if t is bool or t is int or t is str:
        return (t.__name__, v)
    if t is ModelValue:
        return ("mv", v.name)
    if t is tuple:
        parts = [_typed(x, budget) for x in v]
        return None if None in parts else ("seq", tuple(parts))
    if t is Fn:
        parts = [_typed(x, budget) for x in (*v[0], *v[1])]
        return None if None in parts else ("fn", tuple(parts))
    if t is frozenset:
        parts = [_typed(x, budget) for x in v]
        return None if None in parts else ("set", frozenset(parts))
    return None
