"""`kipcheck mutate`: how strong are a spec's properties? Weaken its actions one change at a
time and check each weakened spec (a mutant) with the same .cfg.

Mutants are text edits of the spec's actions (the operators reached from the next-state
relation through disjunctions and `\\E`, and the operators they call that change variables):

- `drop`: a guard conjunct (one that mentions a variable but no primed one) becomes TRUE;
- `unchanged`: a conjunct `v' = e` or `v' \\in S` becomes `UNCHANGED v`;
- `negate`: a comparison in a guard flips: `<`/`<=`, `>`/`>=`, `=`/`#`, `\\in`/`\\notin`;
- `widen`: a guard `x = c`, c a literal, admits one more value: `x \\in {c, o}`, one mutant for
  each other literal o of a written-out set that holds c (a type set such as `{"copying",
  "caught", "acked"}`); an effect `v' = e` becomes `v' \\in S` when a definition without primes
  states `v \\in S` with S written out (`{...}`, `BOOLEAN`, `a..b`): a type invariant's set.

Guards that mention no variable (configuration switches such as `EnableMoves`) are left alone:
under one .cfg they are constants. Each mutant is checked in its own process from the mutated
text and stops at its first violation. Its fate: `killed` (a property, a deadlock or an Assert
failed), `survived` (the search ended without a violation), `invalid` (the mutant does not
parse or compile, or an evaluation error stopped it), `undecided` (it reached --max-states),
`equivalent` (listed, with a reason, in `<cfg stem>.equivalent.txt` next to the .cfg; not
checked). A mutant that only takes behaviours away passes every safety property vacuously;
*witnesses* catch it: state predicates listed in `<spec stem>.witnesses.txt` or
`<cfg stem>.witnesses.txt`, or given by --witness. A mutant that passes every property but
leaves unreached a witness the original reaches under the .cfg is killed by that witness.
A mutant's id, `Action:kind@line:col`, counts the line from the line where the operator's
definition starts, so edits elsewhere in the file leave ids alone.
"""
from __future__ import annotations

import html
import json
import re
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from . import verdicts as V
from .api import check
from .frontend import KipcheckError, LoadedSpec, ast, load_spec
from .frontend.lexer import prepare
from .paths import shown_path

REPORT_FORMAT = "kipcheck-mutants"
REPORT_VERSION = 2  # 2: witnesses
FATES = ("killed", "survived", "invalid", "undecided", "equivalent")

# Comparison -> (its mutation, the spellings of the original operator in source text).
_NEGATE = {
    "<": ("<=", ("<", "\\lt")), "<=": ("<", ("<=", "=<", "\\leq", "≤")),
    ">": (">=", (">", "\\gt")), ">=": (">", (">=", "\\geq", "≥")),
    "=": ("#", ("=",)), "#": ("=", ("#", "/=", "\\neq", "≠")),
    "\\in": ("\\notin", ("\\in", "∈")), "\\notin": ("\\in", ("\\notin", "∉")),
}
_LOGICAL = ("\\land", "\\lor", "\\lnot", "=>", "\\equiv")


class MutateError(KipcheckError):
    """The run cannot start: no next-state relation, an unknown --action, a bad equivalents
    file, or an original spec that does not pass its own checks."""

    def __init__(self, message: str, exit_code: int = V.EXIT_USAGE, span=None, source=None):
        super().__init__(message, span, source)
        self.exit_code = exit_code


@dataclass
class Mutant:
    id: str
    action: str
    kind: str  # drop | unchanged | negate | widen
    file: str
    line: int
    column: int
    change: str  # what was changed, as text
    before: str  # the changed source line(s)
    after: str
    start: int = field(repr=False, default=0)  # the edit: text[start:end] becomes `new`
    end: int = field(repr=False, default=0)
    new: str = field(repr=False, default="")


# -- deriving mutants ----------------------------------------------------------------------


def derive(loaded: LoadedSpec, constants: dict | None = None
           ) -> tuple[list[Mutant], dict[str, str]]:
    """Every mutant of the spec's actions, in source order, and the actions a boolean switch of
    the .cfg (or -D) turns off, with the switch: their mutants would all be equivalent."""
    d = _Deriver(loaded, constants)
    return d.run(), d.disabled


class _Deriver:
    def __init__(self, loaded: LoadedSpec, constants: dict | None = None):
        self.loaded = loaded
        self.switches = {c.name: c.value.value for c in
                         (loaded.config.constants if loaded.config is not None else ())
                         if getattr(getattr(c, "value", None), "kind", None) == "bool"}
        self.switches.update({k: v for k, v in (constants or {}).items()
                              if isinstance(v, bool)})
        self.disabled: dict[str, str] = {}
        # `Next <- MCNext` in the .cfg: the name stands for the other operator
        self.subst = {c.name: c.target for c in
                      (loaded.config.constants if loaded.config is not None else ())
                      if hasattr(c, "target")}
        self.variables = set(loaded.scope.variables)
        self.ops: dict[str, ast.OpDef] = {}
        for module in _extends_closure(loaded):
            for unit in module.units:
                if isinstance(unit, ast.OpDef):
                    self.ops.setdefault(unit.name, unit)
        self.facts: dict[int, tuple[bool, bool]] = {}  # id of an OpDef -> its facts
        self.local: dict[str, ast.OpDef] = {}  # the LET definitions in scope
        self.texts: dict[str, tuple[str, str, list[int]]] = {}
        self.siblings, self.types, self.fields = self.type_sets()
        self.mutants: list[Mutant] = []
        self.done: set[str] = set()

    def run(self) -> list[Mutant]:
        cfg = self.loaded.config
        nxt = None
        if cfg is not None and cfg.next is not None and cfg.next.name in self.ops:
            nxt = self.ops[cfg.next.name].body
            owner = cfg.next.name
        elif cfg is not None and cfg.specification is not None:
            spec = self.ops.get(cfg.specification.name)
            box = self.find_box(spec.body) if spec is not None else None
            nxt, owner = (box.action if box is not None else None), cfg.specification.name
        if nxt is None:
            raise MutateError("no next-state relation to mutate: the .cfg names neither NEXT "
                              "nor a SPECIFICATION of the form Init /\\ [][Next]_vars",
                              V.EXIT_CONFIG_ERROR)
        self.walk(nxt, owner)
        self.mutants.sort(key=lambda m: (m.file, m.start, m.kind, m.end))
        seen: dict[str, int] = {}
        for m in self.mutants:  # the same place and kind twice (nested comparisons)
            n = seen[m.id] = seen.get(m.id, 0) + 1
            if n > 1:
                m.id += f"/{n}"
        return self.mutants

    # The next-state relation: disjunctions, \E, LET, down to the actions.
    def walk(self, e, owner: str) -> None:
        if isinstance(e, ast.Junction) and e.kind == "or" or _is_op(e, "\\lor"):
            for item in (e.items if isinstance(e, ast.Junction) else e.args):
                self.walk(item, owner)
        elif isinstance(e, ast.Let):
            with self.scope(e):
                self.walk(e.body, owner)
        elif isinstance(e, ast.Quant) and e.kind == "E":
            self.walk(e.body, owner)
        elif self.called(e) is not None:
            d = self.called(e)
            if _disjunctive(d.body):
                if d.name not in self.done:
                    self.done.add(d.name)
                    self.walk(d.body, d.name)
            else:
                self.action(d)
        elif self.scan(e)[0]:
            self.visit(e, self.ops[owner], owner)

    def action(self, d: ast.OpDef) -> None:
        if d.name in self.done:
            return
        self.done.add(d.name)
        body = d.body
        while isinstance(body, ast.Let):  # LET v == ... IN /\ EnableX /\ ...
            body = body.body
        for c in _conjuncts(body):
            off = self.switched_off(c)
            if off is not None:
                self.disabled[d.name] = off
                return
        self.visit(d.body, d, d.name)

    def switched_off(self, c) -> str | None:
        """`EnableX` with EnableX = FALSE (or `~BugX` with BugX = TRUE): the action never runs."""
        negated = _is_op(c, "\\lnot")
        if negated:
            c = c.args[0]
        if isinstance(c, ast.Ident) and self.switches.get(c.name) is negated:
            return f"{c.name} = {'TRUE' if negated else 'FALSE'}"
        return None

    def visit(self, e, d: ast.OpDef, name: str) -> None:
        """Mutants of the conjuncts of `e`, part of action `name` (defined by `d`)."""
        for c in _conjuncts(e):
            primed, state = self.scan(c)
            if not primed:
                if state:
                    self.add(d, name, "drop", c, "TRUE", f"drop guard `{self.shown(c)}`")
                    self.negations(c, d, name)
                    self.widenings(c, d, name)
                continue
            if isinstance(c, ast.Let):
                with self.scope(c):
                    self.visit(c.body, d, name)
            elif isinstance(c, ast.Quant) and c.kind == "E":
                self.visit(c.body, d, name)
            elif isinstance(c, ast.Junction) and c.kind == "or" or _is_op(c, "\\lor"):
                for item in (c.items if isinstance(c, ast.Junction) else c.args):
                    self.visit(item, d, name)
            elif isinstance(c, ast.If):
                self.visit(c.then, d, name)
                self.visit(c.else_, d, name)
            elif (isinstance(c, ast.OpApp) and c.op in ("=", "\\in") and len(c.args) == 2
                  and _is_op(c.args[0], "'") and isinstance(c.args[0].args[0], ast.Ident)):
                var = c.args[0].args[0].name
                self.add(d, name, "unchanged", c, f"UNCHANGED {var}",
                         f"`{self.shown(c)}` -> `UNCHANGED {var}`")
                if c.op == "=" and var in self.types:
                    wide = f"{var}' \\in {self.shown(self.types[var])}"
                    self.add(d, name, "widen", c, wide, f"`{self.shown(c)}` -> `{wide}`")
            elif self.called(c) is not None:
                self.action(self.called(c))

    def negations(self, e, d: ast.OpDef, name: str) -> None:
        """Flip each comparison of guard `e` that mentions a variable."""
        if isinstance(e, ast.Junction):
            for item in e.items:
                self.negations(item, d, name)
        elif isinstance(e, ast.OpApp) and e.op in _LOGICAL:
            for a in e.args:
                self.negations(a, d, name)
        elif isinstance(e, ast.Let):
            with self.scope(e):
                self.negations(e.body, d, name)
        elif isinstance(e, ast.Quant):
            self.negations(e.body, d, name)
        elif (isinstance(e, ast.OpApp) and e.op in _NEGATE and len(e.args) == 2
              and self.scan(e)[1]):
            self.negate(e, d, name)

    def widenings(self, e, d: ast.OpDef, name: str) -> None:
        """Widen each `x = c` of guard `e` (in a positive position) by one more literal."""
        if isinstance(e, ast.Junction):
            for item in e.items:
                self.widenings(item, d, name)
        elif isinstance(e, ast.OpApp) and e.op in ("\\land", "\\lor"):
            for a in e.args:
                self.widenings(a, d, name)
        elif isinstance(e, ast.Let):
            with self.scope(e):
                self.widenings(e.body, d, name)
        elif isinstance(e, ast.Quant):
            self.widenings(e.body, d, name)
        elif isinstance(e, ast.OpApp) and e.op == "=" and len(e.args) == 2:
            x, c = e.args if _literal(e.args[1]) is not None else e.args[::-1]
            key = _literal(c)
            if key is None or _literal(x) is not None or not self.scan(x)[1]:
                return
            for other in self.others(x, key):
                wide = f"{self.shown(x)} \\in {{{self.shown(c)}, {self.shown(other)}}}"
                self.add(d, name, "widen", e, wide, f"`{self.shown(e)}` -> `{wide}`")

    def others(self, x, key: tuple) -> list:
        """The values `x = c` may be widened with: the rest of x's type set when there is one
        (a record field's `[f: {...}]`, a variable's `v \\in {...}`), else of every written-out
        set that holds c."""
        typed = (self.fields.get(x.field) if isinstance(x, ast.FieldAccess) else
                 self.types.get(x.name) if isinstance(x, ast.Ident) else None)
        if isinstance(typed, ast.SetEnum) and key in [_literal(y) for y in typed.elems]:
            return [y for y in typed.elems if _literal(y) != key]
        return self.siblings.get(key, [])

    def type_sets(self):
        """The literals that share a written-out set with each literal; the written-out set S
        of each variable v some definition without primes states as `v \\in S`; the set of
        each record field a record set writes out as `[f: {...}]`."""
        siblings: dict[tuple, list] = {}
        types: dict[str, ast.Node] = {}
        fields: dict[str, ast.Node] = {}
        for d in self.ops.values():
            for x in _nodes(d.body):
                if isinstance(x, ast.RecordSet):
                    for f, v in x.fields:
                        if isinstance(v, ast.SetEnum):
                            fields.setdefault(f, v)
                if isinstance(x, ast.SetEnum) and x.elems and \
                        all(_literal(y) is not None for y in x.elems):
                    for y in x.elems:
                        known = siblings.setdefault(_literal(y), [])
                        for z in x.elems:
                            if _literal(z) != _literal(y) and \
                                    all(_literal(z) != _literal(k) for k in known):
                                known.append(z)
            if self.scan(d.body)[0]:
                continue
            for c in _conjuncts(d.body):
                if (isinstance(c, ast.OpApp) and c.op == "\\in" and len(c.args) == 2
                        and isinstance(c.args[0], ast.Ident) and c.args[0].name in self.variables
                        and _written_out(c.args[1]) and not self.scan(c.args[1])[1]):
                    types.setdefault(c.args[0].name, c.args[1])
        return siblings, types, fields

    def negate(self, e: ast.OpApp, d: ast.OpDef, name: str) -> None:
        new_op, spellings = _NEGATE[e.op]
        text, prepared, starts = self.source(e.span.file)
        left, right = e.args[0].span, e.args[1].span
        a, b = _offset(starts, left.end_line, left.end_col), _offset(starts, right.line,
                                                                      right.col)
        between = prepared[a:b]
        ops = "|".join(re.escape(s) for s in sorted(spellings, key=len, reverse=True))
        m = re.fullmatch(rf"[\s()]*({ops})[\s()]*", between)
        if m is None:
            return  # the operator cannot be located in the text: no mutant rather than a wrong one
        start, end = a + m.start(1), a + m.end(1)
        whole = self.shown(e)
        first, last = self.extent(e)
        after = " ".join((text[first:start] + new_op + text[end:last]).split())
        self.edit(d, name, "negate", e.span.file, first, start, end, new_op,
                  f"`{whole}` -> `{after}`")

    def add(self, d, name, kind, e, new: str, change: str) -> None:
        start, end = self.extent(e)
        self.edit(d, name, kind, e.span.file, start, start, end, new, change)

    def extent(self, e) -> tuple[int, int]:
        """Where `e` is in its file's text (its span; parentheses around an operand are in the
        span of the expression that holds it)."""
        _, _, starts = self.source(e.span.file)
        return (_offset(starts, e.span.line, e.span.col),
                _offset(starts, e.span.end_line, e.span.end_col))

    def edit(self, d, name, kind, file: str, at: int, start: int, end: int, new: str,
             change: str) -> None:
        """A mutant of the expression at offset `at`: text[start:end] becomes `new`."""
        text = self.source(file)[0]
        line = text.count("\n", 0, at) + 1
        col = at - text.rfind("\n", 0, at)
        first = text.rfind("\n", 0, min(at, start)) + 1
        stop = text.find("\n", end)
        stop = len(text) if stop < 0 else stop
        self.mutants.append(Mutant(
            f"{name}:{kind}@{line - d.span.line + 1}:{col}", name, kind, file, line, col,
            change, text[first:stop], text[first:start] + new + text[end:stop], start, end,
            new))

    def find_box(self, body, seen=None) -> ast.BoxAction | None:
        """The `[][Next]_v` of a specification, also inside the operators it names
        (`FairSpec == Spec /\\ WF_vars(Next)`)."""
        seen = seen if seen is not None else set()
        for x in _nodes(body):
            if isinstance(x, ast.BoxAction):
                return x
        for x in _nodes(body):
            d = self.called(x)
            if d is not None and d.name not in seen:
                seen.add(d.name)
                box = self.find_box(d.body, seen)
                if box is not None:
                    return box
        return None

    # -- facts about expressions
    @contextmanager
    def scope(self, let: ast.Let):
        """The definitions of `let` are in scope: a guard `l # NONE` under `LET l ==
        leader[p]` mentions a variable."""
        saved = dict(self.local)
        self.local.update({u.name: u for u in let.defs if isinstance(u, ast.OpDef)})
        try:
            yield
        finally:
            self.local = saved

    def called(self, e) -> ast.OpDef | None:
        """The user operator `e` applies (a bare name or `Op(args)`), if any."""
        if isinstance(e, ast.Ident) or isinstance(e, ast.OpApp):
            name = e.name if isinstance(e, ast.Ident) else e.op
            if name in self.local:
                return self.local[name]
            return self.ops.get(self.subst.get(name, name))
        return None

    def scan(self, e) -> tuple[bool, bool]:
        """(mentions a primed variable, mentions a variable), through operator definitions."""
        primed = state = False
        stack = [e]
        while stack:
            x = stack.pop()
            if isinstance(x, tuple):
                stack.extend(x)
                continue
            if not isinstance(x, ast.Node):
                continue
            if isinstance(x, ast.OpApp) and x.op in ("'", "UNCHANGED"):
                primed = state = True
                break
            if isinstance(x, ast.Ident) and x.name in self.variables:
                state = True
            d = self.called(x)
            if d is not None:
                p, s = self.op_facts(d)
                primed, state = primed or p, state or s
                if primed:
                    break
            for f in x.__dataclass_fields__:
                if f != "span":
                    stack.append(getattr(x, f))
        return primed, state

    def op_facts(self, d: ast.OpDef) -> tuple[bool, bool]:
        if id(d) not in self.facts:
            self.facts[id(d)] = (False, False)  # a recursive operator: its own use adds nothing
            self.facts[id(d)] = self.scan(d.body)
        return self.facts[id(d)]

    def source(self, file: str):
        if file not in self.texts:
            text = self.loaded.modules.sources[file]
            starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
            self.texts[file] = (text, prepare(text, file), starts)
        return self.texts[file]

    def shown(self, e) -> str:
        text = self.source(e.span.file)[0]
        start, end = self.extent(e)
        s = " ".join(text[start:end].split())
        return s if len(s) <= 70 else s[:67] + "..."


def _extends_closure(loaded: LoadedSpec) -> list[ast.Module]:
    """The root module and the user modules it EXTENDS (standard modules are not mutated)."""
    out, todo = [], [loaded.root.name]
    while todo:
        name = todo.pop(0)
        module = loaded.modules.modules.get(name)
        if module is None or module.file.startswith("<") or module in out:
            continue
        out.append(module)
        todo.extend(module.extends)
    return out


def _literal(e) -> tuple | None:
    """A string, number or Boolean literal as a comparable key; None for anything else."""
    if isinstance(e, (ast.Str, ast.Num, ast.Bool)):
        return (type(e).__name__, e.value)
    return None


def _written_out(e) -> bool:
    """A set written out in full: `{...}`, `BOOLEAN`, or a range `a..b`."""
    return (isinstance(e, ast.SetEnum) or isinstance(e, ast.BuiltinSet) and e.name == "BOOLEAN"
            or _is_op(e, ".."))


def _is_op(e, op: str) -> bool:
    return isinstance(e, ast.OpApp) and e.op == op


def _conjuncts(e):
    if isinstance(e, ast.Junction) and e.kind == "and":
        for item in e.items:
            yield from _conjuncts(item)
    elif _is_op(e, "\\land"):
        for a in e.args:
            yield from _conjuncts(a)
    else:
        yield e


def _disjunctive(e) -> bool:
    while isinstance(e, (ast.Quant, ast.Let)) and getattr(e, "kind", "E") == "E":
        e = e.body
    return isinstance(e, ast.Junction) and e.kind == "or" or _is_op(e, "\\lor")


def _nodes(e):
    """Every node of `e`, breadth first."""
    stack = [e]
    while stack:
        x = stack.pop(0)
        if isinstance(x, tuple):
            stack.extend(x)
        elif isinstance(x, ast.Node):
            yield x
            stack.extend(getattr(x, f) for f in x.__dataclass_fields__ if f != "span")


def _offset(starts: list[int], line: int, col: int) -> int:
    return starts[line - 1] + col - 1


# -- equivalent mutants --------------------------------------------------------------------


def equivalents_file(config: str | Path) -> Path:
    """Where the user lists equivalent mutants: `<cfg stem>.equivalent.txt` next to the .cfg."""
    config = Path(config)
    return config.with_name(config.stem + ".equivalent.txt")


def spec_equivalents_file(spec: str | Path) -> Path:
    """Mutants equivalent under every configuration of a spec: `<spec stem>.equivalent.txt`
    next to the spec."""
    spec = Path(spec)
    return spec.with_name(spec.stem + ".equivalent.txt")


def default_equivalents(config: str | Path, spec: str | Path) -> dict[str, str]:
    """The equivalent mutants of a run without --equivalent: the spec's file, then the .cfg's
    (whose reason wins for a mutant both list)."""
    return {**load_equivalents(spec_equivalents_file(spec)),
            **load_equivalents(equivalents_file(config))}


def _list_text(path: Path) -> str | None:
    """The text of a list the user keeps next to a spec or .cfg; None if there is none."""
    if not path.is_file():
        return None
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise MutateError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None


def load_equivalents(path: Path) -> dict[str, str]:
    """`ID  reason` per line (`#` starts a comment): mutant id -> why it is equivalent."""
    text = _list_text(path)
    if text is None:
        return {}
    out = {}
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 1)
        if len(parts) < 2:
            from .frontend.errors import Span

            raise MutateError(f"an equivalent mutant needs a reason: `{parts[0]}  <why>`",
                              span=Span(str(path), n, 1, n, len(raw) + 1), source=text)
        out[parts[0]] = parts[1].strip()
    return out


# -- witnesses -----------------------------------------------------------------------------


def witnesses_file(path: str | Path) -> Path:
    """Where the user lists the witnesses of a spec (or of one .cfg):
    `<stem>.witnesses.txt` next to it."""
    path = Path(path)
    return path.with_name(path.stem + ".witnesses.txt")


def load_witnesses(path: Path) -> dict[str, str]:
    """`NAME  what it shows` per line (`#` starts a comment; the description may be left
    out): witness name -> its description."""
    text = _list_text(path)
    if text is None:
        return {}
    out = {}
    for raw in text.splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            parts = line.split(None, 1)
            out[parts[0]] = parts[1].strip() if len(parts) > 1 else ""
    return out


def default_witnesses(config: str | Path, spec: str | Path) -> list[str]:
    """The witnesses of a run without --no-witnesses: the spec's file, then the .cfg's."""
    return list(dict.fromkeys([*load_witnesses(witnesses_file(spec)),
                               *load_witnesses(witnesses_file(config))]))


# -- checking ------------------------------------------------------------------------------


class _OverBudget(Exception):
    pass


def _check_one(job: tuple) -> dict:
    """Check the spec, with one file's text replaced (a mutant) or as it is (job[5] None)."""
    spec, config, lib, constants, deadlock, texts, max_states, *rest = job
    witnesses = tuple(rest[0]) if rest else ()

    def progress(distinct, generated, queue, depth):
        if max_states is not None and distinct > max_states:
            raise _OverBudget(distinct)

    try:
        o = check(spec, config, dict(constants), lib, deadlock, progress=progress,
                  texts=texts, witnesses=witnesses)
    except _OverBudget as e:
        return {"verdict": "budget", "distinct_states": e.args[0],
                "message": f"stopped at --max-states {max_states:,}"}
    except KipcheckError as e:
        return {"verdict": e.verdict, "exit_code": e.exit_code, "message": e.message,
                "location": None if e.span is None else f"{e.span}"}
    except Exception as e:  # noqa: BLE001 - a mutant must never end the run with a traceback
        return {"verdict": V.ERROR, "exit_code": V.EXIT_EVAL_ERROR,
                "message": f"{type(e).__name__}: {e}"}
    return {"verdict": o.verdict, "exit_code": o.exit_code, "property": o.property,
            "distinct_states": o.distinct_states, "states_generated": o.states_generated,
            "depth": o.depth, "trace_length": o.trace_length if o.trace else None,
            "message": o.message,
            "location": None if o.span is None else f"{o.span}",
            "witnesses": {w["name"]: w["depth"] for w in o.witnesses}}


def _fate(r: dict) -> tuple[str, str | None]:
    """(fate, killing property) of a mutant's check result."""
    v = r["verdict"]
    if v == V.OK:
        return "survived", None
    if v in (V.INVARIANT, V.PROPERTY, V.WITNESS):  # a witness: r["property"] is not reached
        return "killed", r["property"]
    if v == V.DEADLOCK:
        return "killed", "Deadlock"
    if v == V.ASSERT:
        return "killed", "Assert"
    if v == "budget":
        return "undecided", None
    return "invalid", None


@dataclass
class Report:
    spec: str
    config: str
    original: dict
    mutants: list[dict]
    generated: int
    disabled: dict[str, str] = field(default_factory=dict)  # action -> the switch that is off
    seconds: float = 0.0
    # The witnesses the original reaches (name -> depth), which the mutants must reach too,
    # and those it does not reach under this .cfg (not used).
    witnesses: dict[str, int] = field(default_factory=dict)
    unreached: list[str] = field(default_factory=list)

    @property
    def totals(self) -> dict:
        counts = {f: 0 for f in FATES}
        by_witness = 0
        for m in self.mutants:
            counts[m["fate"]] += 1
            by_witness += bool(m.get("by_witness"))
        return {"mutants": self.generated, "checked": len(self.mutants) - counts["equivalent"],
                **counts, "killed_by_witness": by_witness}

    @property
    def exit_code(self) -> int:
        t = self.totals
        return V.EXIT_MUTANT_SURVIVED if t["survived"] or t["undecided"] else V.EXIT_OK

    def document(self) -> dict:
        return {"format": REPORT_FORMAT, "version": REPORT_VERSION,
                "spec": shown_path(self.spec), "config": shown_path(self.config),
                "original": self.original, "disabled": self.disabled,
                "witnesses": self.witnesses, "witnesses_not_reached_by_original":
                    self.unreached,
                "mutants": self.mutants, "totals": self.totals,
                "exit_code": self.exit_code}


def run(spec: str, config: str, lib: tuple[str, ...] = (), constants: dict | None = None,
        deadlock: bool | None = None, actions: tuple[str, ...] = (), workers: int = 1,
        max_mutants: int | None = None, max_states: int | None = None,
        equivalents: dict[str, str] | None = None, echo=None,
        witnesses: tuple[str, ...] = (), listed: tuple[str, ...] = ()) -> Report:
    """Derive the mutants of `spec`'s actions and check each one with `config`. `witnesses`
    (--witness) must be reached by the original; `listed` (the witnesses files) are used
    where it reaches them."""
    started = time.perf_counter()
    loaded = load_spec(spec, config, lib)
    mutants, disabled = derive(loaded, constants)
    if actions:
        known = sorted({m.action for m in mutants})
        unknown = [a for a in actions if a not in known]
        if unknown:
            raise MutateError(f"--action {unknown[0]}: no such action with mutants (the "
                              f"actions: {', '.join(known) or 'none'})")
        mutants = [m for m in mutants if m.action in actions]
    generated = len(mutants)
    if max_mutants is not None and len(mutants) > max_mutants:  # spread over the spec
        mutants = [mutants[i * len(mutants) // max_mutants] for i in range(max_mutants)]
    equivalents = equivalents or {}
    consts = tuple((constants or {}).items())
    wanted = tuple(dict.fromkeys([*witnesses, *listed]))
    original = _check_one((spec, config, tuple(lib), consts, deadlock, None, None, wanted))
    reached = {n: d for n, d in original.get("witnesses", {}).items() if d is not None}
    missing = [n for n in witnesses if n not in reached]
    if original["verdict"] == V.WITNESS and not missing:
        original["verdict"] = V.OK  # a listed witness this .cfg does not reach: not used
    if original["verdict"] != V.OK:
        what = original.get("property") or original.get("message") or ""
        raise MutateError(f"the spec does not pass its own checks ({original['verdict']}"
                          f"{': ' + what if what else ''}); mutation testing needs a model "
                          f"that passes", original.get("exit_code", V.EXIT_FAILURE))
    if max_states is None:
        max_states = 10 * original["distinct_states"] + 10_000
    texts = {f: loaded.modules.sources[f] for f in {m.file for m in mutants}}
    todo = [m for m in mutants if m.id not in equivalents]
    jobs = [(spec, config, tuple(lib), consts, deadlock,
             {m.file: texts[m.file][:m.start] + m.new + texts[m.file][m.end:]}, max_states,
             tuple(reached))
            for m in todo]
    ids = [m.id for m in todo]
    results = dict(zip(ids, _map(jobs, workers, echo, ids), strict=True))
    rows = []
    for m in mutants:
        row = {"id": m.id, "action": m.action, "kind": m.kind, "file": shown_path(m.file),
               "line": m.line, "column": m.column, "change": m.change, "before": m.before,
               "after": m.after}
        if m.id in equivalents:
            row.update(fate="equivalent", reason=equivalents[m.id])
        else:
            r = results[m.id]
            fate, prop = _fate(r)
            row.update(fate=fate, property=prop, by_witness=r["verdict"] == V.WITNESS,
                       verdict=r["verdict"], exit_code=r.get("exit_code"),
                       trace_length=r.get("trace_length"),
                       distinct_states=r.get("distinct_states"))
            if fate in ("invalid", "undecided"):
                row.update(message=r.get("message"), location=r.get("location"))
        rows.append(row)
    keep = ("verdict", "distinct_states", "states_generated", "depth")
    return Report(spec, config, {k: original[k] for k in keep}, rows, generated, disabled,
                  time.perf_counter() - started, reached,
                  [n for n in wanted if n not in reached])


def _map(jobs: list, workers: int, echo, ids: list[str]) -> list[dict]:
    """Check the mutants, in `workers` processes when more than one; results in job order."""
    if workers <= 1 or len(jobs) <= 1:
        results = map(_check_one, jobs)
        return _collect(results, echo, ids)
    import multiprocessing as mp

    with mp.get_context("spawn").Pool(min(workers, len(jobs))) as pool:
        return _collect(pool.imap(_check_one, jobs), echo, ids)


def _collect(results, echo, ids: list[str]) -> list[dict]:
    out = []
    for i, r in enumerate(results):
        out.append(r)
        if echo is not None:
            echo(f"[{i + 1}/{len(ids)}] {ids[i]}: {_fate(r)[0]}")
    return out


# -- output --------------------------------------------------------------------------------


def _detail(row: dict, original: dict) -> str:
    fate = row["fate"]
    if fate == "killed" and row.get("by_witness"):
        return f"witness {row['property']} not reached " \
            f"({row['distinct_states']:,} distinct states)"
    if fate == "killed":
        where = row["verdict"] if row["property"] in ("Deadlock", "Assert") else \
            f"{row['property']} ({row['verdict']})"
        return f"{where}, trace {row['trace_length']}"
    if fate == "survived":
        return f"{row['distinct_states']:,} distinct (original {original['distinct_states']:,})"
    if fate == "equivalent":
        return row["reason"]
    if fate == "undecided":
        return f"{row['message']}, no violation so far"
    first = (row.get("message") or "").strip().splitlines()
    return f"{row['verdict']} (exit {row.get('exit_code')})" + (f": {first[0]}" if first else "")


def table(report: Report) -> str:
    """The table on stdout: one line per mutant, then the totals."""
    rows = [(r["id"], r["fate"], f"{r['file']}:{r['line']}:{r['column']}", r["change"],
             _detail(r, report.original)) for r in report.mutants]
    head = ("MUTANT", "FATE", "LOCATION", "CHANGE", "RESULT")
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(head[:2])]
    lines = [f"{head[0]:<{widths[0]}}  {head[1]:<{widths[1]}}  {head[4]}"]
    for r in rows:
        lines.append(f"{r[0]:<{widths[0]}}  {r[1]:<{widths[1]}}  {r[4]}")
        lines.append(f"{'':<{widths[0]}}  {'':<{widths[1]}}  {r[2]}: {r[3]}")
    t = report.totals
    o = report.original
    if report.disabled:
        lines.append("Not mutated, switched off by the .cfg: " + ", ".join(
            f"{a} ({why})" for a, why in sorted(report.disabled.items())) + ".")
    lines.append(f"Original: {o['distinct_states']:,} distinct states, "
                 f"{o['states_generated']:,} generated, depth {o['depth']}.")
    picked = "" if t["mutants"] == len(report.mutants) else \
        f" ({len(report.mutants)} of them selected by --max-mutants)"
    if report.witnesses or report.unreached:
        lines.append("Witnesses: " + (", ".join(
            f"{n} (depth {d})" for n, d in report.witnesses.items()) or "none reached") + (
            f"; not reached by the original, not used: {', '.join(report.unreached)}"
            if report.unreached else "") + ".")
    by = f" ({t['killed_by_witness']} by a witness)" if t["killed_by_witness"] else ""
    lines.append(f"Mutants: {t['mutants']}{picked}: {t['killed']} killed{by}, {t['survived']} "
                 f"survived, {t['invalid']} invalid, {t['undecided']} undecided, "
                 f"{t['equivalent']} equivalent.")
    return "\n".join(lines)


def html_page(report: Report) -> str:
    """A self-contained page: the table, with the changed line before and after."""
    e = html.escape
    t = report.totals
    rows = []
    for r in report.mutants:
        rows.append(
            f"<tr class='{r['fate']}'><td><code>{e(r['id'])}</code></td>"
            f"<td>{e(r['fate'])}</td><td>{e(_detail(r, report.original))}</td>"
            f"<td>{e(r['file'])}:{r['line']}:{r['column']}</td><td>{e(r['change'])}</td>"
            f"<td><pre class='before'>{e(r['before'])}</pre>"
            f"<pre class='after'>{e(r['after'])}</pre></td></tr>")
    summary = ", ".join(f"{t[f]} {f}" + (f" ({t['killed_by_witness']} by a witness)"
                                         if f == "killed" and t["killed_by_witness"] else "")
                        for f in FATES)
    if report.witnesses:
        summary += "; witnesses: " + ", ".join(report.witnesses)
    disabled = "" if not report.disabled else "<p>Not mutated, switched off by the .cfg: " + \
        e(", ".join(f"{a} ({why})" for a, why in sorted(report.disabled.items()))) + ".</p>"
    return f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>kipcheck mutate: {e(shown_path(report.spec))}</title>
<style>
body {{ font-family: sans-serif; margin: 1em; }}
table {{ border-collapse: collapse; }}
td, th {{ border: 1px solid #ccc; padding: 4px; vertical-align: top; text-align: left; }}
pre {{ margin: 0; white-space: pre-wrap; }}
pre.before {{ background: #fdd; }} pre.after {{ background: #dfd; }}
tr.killed td:nth-child(2) {{ color: #070; }} tr.survived td:nth-child(2) {{ color: #b00;
font-weight: bold; }} tr.invalid td:nth-child(2), tr.undecided td:nth-child(2) {{ color: #a60; }}
tr.equivalent td:nth-child(2) {{ color: #666; }}
</style></head><body>
<h1>Mutants of {e(shown_path(report.spec))}</h1>
<p>Configuration {e(shown_path(report.config))}; original: {report.original['distinct_states']:,}
distinct states. {t['mutants']} mutants: {e(summary)}.</p>
{disabled}
<table><tr><th>mutant</th><th>fate</th><th>result</th><th>location</th><th>change</th>
<th>line before / after</th></tr>
{chr(10).join(rows)}
</table></body></html>
"""


def write_json(report: Report, path: str) -> None:
    Path(path).write_text(json.dumps(report.document(), indent=2, ensure_ascii=False) + "\n",
                          encoding="utf-8")
