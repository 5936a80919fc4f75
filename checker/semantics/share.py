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
import functools
import re

from ..frontend.remembered import Remembered
from .values import Fn, ModelValue

# Runtime operators whose result depends only on their arguments (no process state, no
# iterator results, no callbacks).
PURE = frozenset({
    "app", "app_n", "field", "eq", "neq", "except_", "except_path", "except2", "member",
    "member_k", "is_finite_set", "member_written", "not_member_written",
    "not_member", "not_member_k", "cup", "cap", "diff", "card", "subseteq", "domain",
    "in_domain", "add", "sub", "mul", "gt", "lt", "le", "ge", "big_union", "setenum", "boolean",
    "frozenset", "Fn",
})
_CONST_RE = re.compile(r"_k\d+$")
_SCOPES = (ast.Lambda, ast.FunctionDef, ast.ListComp, ast.SetComp, ast.DictComp,
           ast.GeneratorExp)
_PLAIN_LIMIT = 2_000  # parts of a constant compared by value; bigger ones by name


_SHARED = Remembered("share", 8192)  # (function, src, what its constants are) -> new src
_CONST_NAME_RE = re.compile(r"\b_k\d+\b")


def _remembered(rewrite):
    """`rewrite(src, constants)` remembered by src and by what it reads of `constants` (the
    kind-tagged value of each `_k…` name src mentions, as _key compares them): a process that
    compiles one spec many times (tests, sweeps, mutants, workers) rewrites each function
    once (see frontend/remembered.py)."""
    @functools.wraps(rewrite)
    def remembered(src: str, constants: dict) -> str:
        names = sorted(set(_CONST_NAME_RE.findall(src)))
        key = (rewrite.__name__, src, tuple(
            (n, _value_key(constants[n], n) if n in constants else None) for n in names))
        return _SHARED.value(key, lambda: rewrite(src, constants))
    return remembered


@_remembered
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


# -- within one expression: each repeated pure expression evaluated once per evaluation ------
_BOUND_RE = re.compile(r"v\d+_\w*$")  # the Python names of TLA+ bound names (scope.pyname)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


@_remembered
def share_within(src: str, constants: dict) -> str:
    """`src`, a generated function whose body is `return EXPR` on one line (an operator, an
    invariant, a predicate), with each pure call that EXPR repeats evaluated once: its first
    evaluation is remembered (`(_dN := app(s[2], v_i))`) and a later occurrence reads it back
    where the first one has surely been evaluated on the way there (`A and B` reads in B what A
    evaluated; a quantifier's body reads per element what it evaluated for that element).
    Bound names are unique per binding, so an expression over them means one value wherever
    the name is visible. Evaluation order and errors are as before: nothing is evaluated
    earlier or more often, only later occurrences are skipped."""
    try:
        tree = ast.parse(src)
    except SyntaxError:  # pragma: no cover - generated code parses
        return src
    func = tree.body[0]
    if (not isinstance(func, ast.FunctionDef) or len(func.body) != 1
            or not isinstance(func.body[0], ast.Return) or func.body[0].value is None):
        return src
    expr = func.body[0].value
    if expr.lineno != expr.end_lineno:
        return src
    params = {a.arg for a in func.args.args}
    counts: dict = {}
    _count_within(expr, constants, params, counts)
    repeated = {k for k, n in counts.items() if n > 1}
    if not repeated:
        return src
    sharer = _Within(constants, params, repeated)
    new = sharer.walk(expr, {}, True)
    if not sharer.used:
        return src
    new = sharer.unbind_unread(new)
    lines = src.split("\n")
    i = expr.lineno - 1
    line = lines[i]
    lines[i] = line[:expr.col_offset] + ast.unparse(new) + line[expr.end_col_offset:]
    return "\n".join(lines)


def _within_key(node, constants, params):
    """_key, also over bound names and the function's parameters."""
    if isinstance(node, ast.Name) and (_BOUND_RE.match(node.id) or node.id in params) \
            and node.id not in ("s", "t"):
        return ("bound", node.id)
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.func.id not in PURE or node.keywords:
            return None
        args = []
        for a in node.args:
            k = _within_key(a, constants, params)
            if k is None:
                return None
            args.append(k)
        return ("call", node.func.id, tuple(args))
    if isinstance(node, ast.Subscript):
        if (isinstance(node.value, ast.Name) and node.value.id in ("s", "t")
                and isinstance(node.slice, ast.Constant) and type(node.slice.value) is int):
            return ("var", node.value.id, node.slice.value)
        return None
    if isinstance(node, ast.Tuple):
        parts = [_within_key(x, constants, params) for x in node.elts]
        return None if None in parts else ("tuple", tuple(parts))
    return _key(node, constants)


def _count_within(node, constants, params, counts) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Call):
            k = _within_key(child, constants, params)
            if k is not None:
                counts[k] = counts.get(k, 0) + 1
        _count_within(child, constants, params, counts)


class _Within:
    """The rewriting walk of share_within. `avail` maps the keys surely evaluated on every
    path to here to (name, stable): a name assigned at the top of a function or lambda holds
    one value for the whole call, so a lambda (which may run later) or a comprehension may
    read it; one assigned inside a comprehension changes with each element, so it is read
    only within the same element."""

    def __init__(self, constants, params, repeated):
        self.constants, self.params, self.repeated = constants, params, repeated
        self.read: set = set()
        self.names = 0

    @property
    def used(self) -> bool:
        return bool(self.read)

    def walk(self, node, avail: dict, bind: bool, in_comp: bool = False):
        """node rewritten; `avail` updated with what is surely evaluated after it. `bind`:
        a name may be assigned here (not in a comprehension's iterable, where Python forbids
        `:=`); `in_comp`: inside a comprehension of the current function or lambda."""
        k = None
        if isinstance(node, ast.Call):
            k = _within_key(node, self.constants, self.params)
            if k is not None and k in avail:
                name = avail[k][0]
                self.read.add(name)
                return ast.Name(name, ast.Load())
        t = type(node)
        if t is ast.BoolOp:  # later operands run only after the earlier ones
            node.values[0] = self.walk(node.values[0], avail, bind, in_comp)
            inner = dict(avail)
            for i in range(1, len(node.values)):
                node.values[i] = self.walk(node.values[i], inner, bind, in_comp)
        elif t is ast.IfExp:
            node.test = self.walk(node.test, avail, bind, in_comp)
            node.body = self.walk(node.body, dict(avail), bind, in_comp)
            node.orelse = self.walk(node.orelse, dict(avail), bind, in_comp)
        elif t is ast.Compare:  # a chain stops at its first false comparison
            node.left = self.walk(node.left, avail, bind, in_comp)
            node.comparators[0] = self.walk(node.comparators[0], avail, bind, in_comp)
            inner = dict(avail)
            for i in range(1, len(node.comparators)):
                node.comparators[i] = self.walk(node.comparators[i], inner, bind, in_comp)
        elif t is ast.Lambda:  # its own scope, maybe called later: only stable names, and
            # none over the state if it takes a state of its own (an operator's lambda)
            own = {a.arg for a in node.args.args} & {"s", "t"}
            inner = {} if own else _stable(avail)
            node.body = self.walk(node.body, inner, True, False)
        elif t in _COMPREHENSIONS:
            gens = node.generators
            gens[0].iter = self.walk(gens[0].iter, avail, False, in_comp)
            inner = _stable(avail)
            for i, g in enumerate(gens):
                if i:
                    g.iter = self.walk(g.iter, inner, False, True)
                g.ifs = [self.walk(c, inner, bind, True) for c in g.ifs]
            if t is ast.DictComp:
                node.key = self.walk(node.key, inner, bind, True)
                node.value = self.walk(node.value, inner, bind, True)
            else:
                node.elt = self.walk(node.elt, inner, bind, True)
        else:  # every part is evaluated, in order
            for field, value in ast.iter_fields(node):
                if isinstance(value, ast.AST):
                    setattr(node, field, self.walk(value, avail, bind, in_comp))
                elif isinstance(value, list):
                    setattr(node, field, [self.walk(x, avail, bind, in_comp)
                                          if isinstance(x, ast.AST) else x for x in value])
        if k is not None and k in self.repeated and bind:
            name = f"_d{self.names}"
            self.names += 1
            avail[k] = (name, not in_comp)
            return ast.NamedExpr(ast.Name(name, ast.Store()), node)
        return node

    def unbind_unread(self, node):
        """Drop the assignments whose name is never read back."""
        read = self.read

        class Unbind(ast.NodeTransformer):
            def visit_NamedExpr(self, n):
                self.generic_visit(n)
                return n if n.target.id in read else n.value

        return Unbind().visit(node)


def _stable(avail: dict) -> dict:
    return {k: v for k, v in avail.items() if v[1]}
