"""Successor generators: Init and each action compiled into a Python function `(s, _out)`
written as nested loops and guards that enumerate exactly as TLC does (conjuncts left to right,
`x' = e` binds the first time and tests after, `x' \\in S` and `\\E` iterate in TLC's set order,
disjuncts left to right, user operators expanded in place); Next split into action instances;
all actions of a state in one function (`compile_expand`)."""
from __future__ import annotations

import ast as pyast
import itertools
import re
from dataclasses import dataclass

from ..frontend import ast
from ..frontend.errors import Span
from . import runtime
from .analysis import mentions_prime, names_in, subscripted_action
from .codegen_runtime import SuccessorMemo, patch_state
from .natives import STANDARD
from .runtime import B_CASE, B_IF, B_IMPLIES_P, B_INIT, B_NEXT, B_NOT
from .scope import CompileError, Env, NotConstant, pyname, python_locals
from .share import share_repeated
from .values import show


@dataclass
class Action:
    """One action instance of Next, as TLC splits it: a name, bound parameters, a generator."""

    name: str
    params: tuple  # ((name, value), ...)
    span: Span
    gen: object = None  # compiled function (s, emit): emit(t) for each successor t
    body: str = ""  # its generated body, reused by Compiler.compile_expand
    # The variables (indices) it reads unprimed, UNCHANGED aside: its successors are a function
    # of their values. None: not sure (see IncrementalMixin._reads).
    reads: frozenset | None = None

    def __post_init__(self):
        if not self.params:
            self.label = self.name
        else:
            self.label = f"{self.name}(" + ", ".join(show(v) for _, v in self.params) + ")"


# A line of generated code that emits a successor state (see _emit_done).
_EMIT_RE = re.compile(r"^( *)_out\(\(", re.M)


class ActionsMixin:
    """Compiler part: Init, actions, Next's split and the all-actions function."""

    def split_actions(self, e, env: Env | None = None, name: str = "Next") -> list[Action]:
        """Split Next into actions as TLC does, each compiled to a function (s, emit)."""
        out: list[Action] = []
        self._split(e, env or self.root_env(), name, (), out, e.span)
        for a in out:
            e, aenv = a.gen
            if all(b[0] == "val" for b in aenv.locals.values()):
                found = self.action_reads(e, aenv)
                a.reads = None if found is None else frozenset(found)
            a.gen = self.compile_action(e, aenv, pyname("act", a.name, len(out)))
            a.body = self.last_body
        return out

    def _split(self, e, env: Env, name: str, params: tuple, out: list, span) -> None:
        if isinstance(e, ast.Junction) and e.kind == "or":
            for item in e.items:
                self._split(item, env, name, params, out, span)
            return
        if isinstance(e, ast.OpApp) and e.op == "\\lor" and env.locals.get("\\lor") is None:
            for item in e.args:
                self._split(item, env, name, params, out, span)
            return
        if isinstance(e, ast.Quant) and e.kind == "E" and not any(
                len(b.names) > 1 and not b.tuple for b in e.bounds):
            try:
                combos = self._constant_combos(e.bounds, env)
            except runtime.EvalError:
                # a bound TLC cannot enumerate (<<1, 2>>, Nat): left to the search, which
                # reports it at the first state it expands, as TLC does
                combos = None
            if combos is not None:
                for ps in combos:
                    self._split(e.body, self._bind_values(env, ps), name, params + ps, out,
                                span)
                return
        target = self.user_def(e, env)
        if target is not None:
            d, denv, args = target
            if isinstance(d, ast.OpDef) and self._is_action_level(d, denv):
                try:
                    values = [self.const_value(a, env) for a in args]
                except NotConstant:
                    values = None
                if values is not None:
                    binds = {p.name: ("val", self.const_name(v))
                             for p, v in zip(d.params, values, strict=True)}
                    ps = tuple((p.name, v) for p, v in zip(d.params, values, strict=True))
                    self._split(d.body, denv.bind(binds), d.name, ps, out, d.span)
                    return
        out.append(Action(name, params, span, (e, env)))

    def _is_variable(self, e, env: Env) -> bool:
        """Is e a bare state variable (of this module or substituted into an instance)?"""
        if not isinstance(e, ast.Ident):
            return False
        b = env.locals.get(e.name)
        if b is not None:
            return b[0] == "expr" and self._is_variable(b[1], b[2])
        sym = env.scope.symbols.get(e.name)
        return sym is not None and sym.kind == "variable"

    def _is_action_level(self, d: ast.OpDef, env: Env) -> bool:
        """Must a call be expanded in place? Actions: when it has primes; Init: when it reads
        variables (which Init is still assigning)."""
        what = "var" if self.mode == "init" else "prime"
        return mentions_prime(d.body, self, env, set(), what)

    def _compile_generator(self, e, env: Env, mode: str, name: str):
        """e as a function (s, _out) emitting its successors (or initial states)."""
        body, _ = self._generator_body(e, env, mode, False)
        self.last_body = body
        return self._define_generator(body, name)

    def _define_generator(self, body: str, name: str, params: tuple = ()):
        extra = "".join(f", {p}" for p in params)
        return self._define(f"def {{name}}(s, _out{extra}):\n    t = None\n{body}\n", name)

    def _generator_body(self, e, env: Env, mode: str, partial: bool):
        """The statements enumerating e's successors, and the Python locals they read."""
        lines: list[str] = []
        self._uses.append(set())
        self._binds.append(set())
        saved, self.partial = self.partial, partial
        try:
            with self._mode(mode, {}):
                self._gen(e, env, [], lines, 1)
        finally:
            used = self._uses.pop()
            self._binds.pop()
            self.partial = saved
        return "\n".join(lines) or "    pass", used

    def compile_expand(self, actions: list[Action], memoise: tuple | None = None):
        """All actions in one function (s, emit): one Python call per state instead of one per
        action. emit(i) announces action i right before each successor emit(state), so an action
        without successors (most of them, in most states) costs a store, not a call; on an
        error, emit(i) last names the action that failed. `memoise`: per variable, whether its
        values may be shared by equality (see SuccessorMemo); with it, an action that reads only
        some variables remembers its successors by their values (_memoised_actions)."""
        parts = ["def {name}(s, _out):", "    t = None", "    _a = 0", "    try:"]
        cached = self._memoised_actions(actions, memoise, parts) if memoise is not None else {}
        for i, a in enumerate(actions):
            parts.append(f"        _a = {i}")
            body = _EMIT_RE.sub(lambda m, i=i: f"{m.group(1)}_out({i})\n{m.group(0)}", a.body)
            if i in cached:  # remembered while its group pays, else evaluated
                on, code = cached[i]
                parts.append(f"        if {on}:\n{code}\n        else:")
                parts.append("\n".join("        " + line for line in body.split("\n")))
                continue
            parts.append("\n".join("    " + line for line in body.split("\n")))
        parts += ["    except BaseException:", "        _out(_a)", "        raise"]
        code = share_repeated("\n".join(parts).replace("{name}", "_expand_") + "\n", self.g)
        return self._define(code.replace("def _expand_(", "def {name}(", 1), "expand")

    def _memoised_actions(self, actions: list[Action], memoise: tuple, parts: list) -> dict:
        """The code of the actions whose successors are remembered (index -> code), after
        adding to `parts` the look-ups they share. An action that reads only some variables
        has the successors it had in an earlier state whose read variables held the very same
        objects, but for the variables it sets; the actions that read the same variables share
        one look-up per state (a dict keyed by those objects' identities). Left out, where it
        does not pay or is not sure: an action that reads every variable, whose reads are not
        known (an INSTANCE, TLCGet, RandomElement, ENABLED ...), that a constant disables, or
        whose emits are not plain tuples."""
        n = len(self.variables)
        codes: dict = {}
        groups: dict = {}  # reads -> [(action index, slot)]
        for i, a in enumerate(actions):
            if a.reads is None or len(a.reads) >= n or a.body.lstrip().startswith("if False:"):
                continue
            lines = self._recording(i, a.body)
            if lines is None:
                continue
            slots = groups.setdefault(a.reads, [])
            codes[i] = lines
            slots.append(i)
        if not codes:
            return {}
        memo = SuccessorMemo(memoise, self.g)
        self.g["_MEMO"], self.g["_patch"] = memo, patch_state
        parts.append("        _MEMO.expanded += 1")
        where, ons = {}, {}
        for g, (reads, members) in enumerate(groups.items()):
            order = tuple(sorted(reads))
            cache, rname = (pyname(x, str(g), next(self._counter)) for x in ("ac", "rd"))
            on = pyname("on", str(g), next(self._counter))
            self.g[cache], self.g[rname], self.g[on] = memo.new_cache(on), order, True
            ons[g] = on
            key = ("(" + ", ".join(f"id(s[{j}])" for j in order) + ",)") if order else "0"
            parts.append(f"        if {on}:\n"
                         f"            _k = {key}\n"
                         f"            _g{g} = {cache}.get(_k)\n"
                         f"            if _g{g} is None:\n"
                         f"                _g{g} = _MEMO.slots({g}, {cache}, _k, s, {rname}, "
                         f"{len(members)})")
            for slot, i in enumerate(members):
                where[i] = (g, slot)
        out = {}
        for i, lines in codes.items():
            g, slot = where[i]
            body = "\n".join("                " + line for line in lines)
            out[i] = (ons[g], f"            _hit = _g{g}[{slot}]\n"
                              f"            if _hit is None:\n"
                              f"                _rec_ = []\n"
                              f"                try:\n{body}\n"
                              f"                except BaseException:\n"
                              f"                    for _t, _ in _rec_:\n"
                              f"                        _out({i})\n"
                              f"                        _out(_t)\n"
                              f"                    raise\n"
                              f"                _hit = _g{g}[{slot}] = _MEMO.keep(_rec_)\n"
                              f"            for _js, _vs in _hit:\n"
                              f"                _out({i})\n"
                              f"                _out(_patch(s, _js, _vs))")
        return out

    def _recording(self, i: int, body: str) -> list[str] | None:
        """The lines of an action's body with each emit recording (successor, the variables it
        sets) in `_rec_` instead; None if an emit is not a plain tuple of every variable."""
        n = len(self.variables)
        lines = body.split("\n")
        for k, line in enumerate(lines):
            m = _EMIT_RE.match(line)
            if m is None:
                continue
            try:
                call = pyast.parse(line.strip()).body[0].value
                items = call.args[0].elts
            except (SyntaxError, AttributeError, IndexError):
                return None
            if len(call.args) != 1 or len(items) != n:
                return None
            # a variable whose new value is its own old one (UNCHANGED, x' = x) is taken from
            # the state being expanded; every other one is remembered
            setting = tuple(p for p, x in enumerate(items) if not (
                type(x) is pyast.Subscript and type(x.value) is pyast.Name
                and x.value.id == "s" and type(x.slice) is pyast.Constant
                and x.slice.value == p))
            name = pyname("js", str(i), next(self._counter))
            self.g[name] = setting
            lines[k] = f"{m.group(1)}_rec_.append(({line.strip()[5:-1]}, {name}))"
        return lines

    def _emit_done(self, lines: list[str], depth: int, span) -> None:
        missing = [v for v in self.variables if v not in self.primes]
        pad = "    " * depth
        if missing and self.partial:
            tup = ", ".join(self.primes.get(v, "_UNKNOWN") for v in self.variables)
            lines.append(f"{pad}_out(({tup},))")
            return
        if missing:  # TLC counts an incomplete successor and ends the trace with it
            tup = ", ".join(self.primes.get(v, "_NULL") for v in self.variables)
            lines.append(f"{pad}raise _NotAssigned(({tup},), {tuple(missing)!r}, "
                         f"{self._span_const(span)}, {self.mode == 'init'})")
            return
        tup = ", ".join(self.primes[v] for v in self.variables)
        lines.append(f"{pad}_out(({tup},))" if tup else f"{pad}_out(())")  # no variables

    def _gen(self, e, env: Env, pending: list, lines: list[str], depth: int) -> None:
        """Emit code that enumerates e's successors, then continues with `pending`."""
        pad = "    " * depth
        if type(e) in (ast.BoxAction, ast.AngleAction):
            e = subscripted_action(e)
        # Conjunctions: the first conjunct, then the rest.
        if isinstance(e, ast.Junction) and e.kind == "and":
            self._gen(e.items[0], env, [(x, env) for x in e.items[1:]] + pending, lines, depth)
            return
        if isinstance(e, ast.OpApp) and e.op == "\\land" and "\\land" not in env.locals:
            self._gen(e.args[0], env, [(e.args[1], env)] + pending, lines, depth)
            return
        if isinstance(e, ast.Junction) and e.kind == "or" or (
                isinstance(e, ast.OpApp) and e.op == "\\lor"):
            items = e.items if isinstance(e, ast.Junction) else e.args
            for item in items:
                saved = dict(self.primes)
                self._gen(item, env, pending, lines, depth)
                self.primes = saved
            return
        if (isinstance(e, ast.OpApp) and e.op == "=>" and "=>" not in env.locals
                and (self._branches(e.args[1], env, set())
                     or mentions_prime(e.args[1], self, env, set(),
                                       "var" if self.mode == "init" else "prime"))):
            # TLC evaluates P, then Q as an action when P holds (so Q may assign a variable,
            # primed or in Init, and every way through Q counts); when P is false it goes on.
            cond, _ = self.cond(e.args[0], env, B_IMPLIES_P)
            lines.append(f"{pad}if {cond}:{self._tag(e.args[0].span)}")
            saved = dict(self.primes)
            self._gen(e.args[1], env, pending, lines, depth + 1)
            self.primes = saved
            lines.append(f"{pad}else:")
            self._continue(pending, lines, depth + 1, e.span)
            self.primes = dict(saved)
            return
        if isinstance(e, ast.If):
            if self._unrolled:  # inside a recursive action: a constant test picks its branch
                try:
                    known = self.const_value(e.cond, env)
                except NotConstant:
                    known = None
                if known is True or known is False:
                    self._gen(e.then if known else e.else_, env, pending, lines, depth)
                    return
            cond, _ = self.cond(e.cond, env, B_IF)
            lines.append(f"{pad}if {cond}:{self._tag(e.cond.span)}")
            saved = dict(self.primes)
            self._gen(e.then, env, pending, lines, depth + 1)
            self.primes = saved
            lines.append(f"{pad}else:")
            self._gen(e.else_, env, pending, lines, depth + 1)
            self.primes = dict(saved)
            return
        if isinstance(e, ast.Case):
            saved = dict(self.primes)
            for i, (cond, val) in enumerate(e.arms):
                c, _ = self.cond(cond, env, B_CASE)
                lines.append(f"{pad}{'if' if i == 0 else 'elif'} {c}:")
                self.primes = dict(saved)
                self._gen(val, env, pending, lines, depth + 1)
            lines.append(f"{pad}else:")
            self.primes = dict(saved)
            if e.other is not None:
                self._gen(e.other, env, pending, lines, depth + 1)
            else:
                lines.append(f"{pad}    _case_fail({self._span_const(e.span)})")
            self.primes = saved
            return
        if isinstance(e, ast.Quant) and e.kind == "E":
            if any(b.domain is None for b in e.bounds):  # TLC's error when it is evaluated
                lines.append(f'{"    " * depth}unbounded("\\\\E")')
                return
            # TLC enumerates the bound names together, the first varying fastest: the loops
            # nest from the last name out; every domain is evaluated outside them all
            loops = []  # (target code, domain code, span), first name first
            binds = {}
            for b in e.bounds:
                dom, _ = self.expr(b.domain, env)
                if b.tuple:
                    names = [self._local(n) for n in b.names]
                    loops.append((f"({', '.join(names)},)", dom, b.span))
                    binds.update((n, ("val", p)) for n, p in zip(b.names, names, strict=True))
                else:
                    for n in b.names:
                        p = self._local(n)
                        loops.append((p, dom, b.span))
                        binds[n] = ("val", p)
            d = depth
            for target, dom, span in reversed(loops):
                lines.append(f"{'    ' * d}for {target} in enum({dom}):{self._tag(span)}")
                d += 1
            inner = env.bind(binds)
            self._gen(e.body, inner, pending, lines, d)
            return
        if isinstance(e, ast.Let):
            inner = self._let_env(e, env, lines, depth)
            self._gen(e.body, inner, pending, lines, depth)
            return
        if isinstance(e, ast.OpApp) and e.op == "\\cdot" and "\\cdot" not in env.locals:
            self._gen_cdot(e, env, pending, lines, depth)
            return
        if isinstance(e, ast.Quant) and e.kind == "A" and self._may_assign(e.body, env):
            unrolled = self._unrolled_forall(e, env)
            if unrolled is not None:  # P(s1) /\ P(s2) /\ ..., as TLC evaluates it
                (first, fenv), more = unrolled[0], unrolled[1:]
                self._gen(first, fenv, more + list(pending), lines, depth)
            else:
                self._gen_forall_first(e, env, pending, lines, depth)
            return
        if isinstance(e, ast.Quant) and e.kind == "A" and self._branches(e.body, env, set()):
            self._gen_forall(e, env, pending, lines, depth)
            return
        # An assignment or membership that binds a variable?
        if isinstance(e, ast.OpApp) and e.op in ("=", "\\in") and len(e.args) == 2:
            var = self._target_var(e.args[0], env)
            if var is not None and var not in self.primes:
                rhs, _ = self.expr(e.args[1], env)
                local = self._local(var + "_next")
                if e.op == "=":
                    lines.append(f"{pad}{local} = {rhs}{self._tag(e.span)}")
                    self.primes[var] = local
                    self._continue(pending, lines, depth, e.span)
                else:
                    lines.append(f"{pad}for {local} in enum({rhs}):{self._tag(e.span)}")
                    self.primes[var] = local
                    self._continue(pending, lines, depth + 1, e.span)
                return
        if isinstance(e, ast.OpApp) and e.op == "UNCHANGED" and "UNCHANGED" not in env.locals:
            vars_ = self._unchanged_vars(e.args[0], env)
            if vars_ is not None:
                checks = []
                for v in vars_:
                    cur = self._current(v)
                    if v in self.primes:
                        checks.append(f"{self.primes[v]} == {cur}")
                    else:
                        self.primes[v] = cur
                if checks:
                    lines.append(f"{pad}if {' and '.join(checks)}:")
                    depth += 1
                self._continue(pending, lines, depth, e.span)
                return
        # A LET definition used as a conjunct: expanded in place, like an operator call.
        if isinstance(e, ast.Ident):
            b = env.locals.get(e.name)
            if b is not None and b[0] == "expr":  # an action passed as an argument: NoStutter(A)
                self._gen(b[1], b[2], pending, lines, depth)
                return
            if (b is not None and b[0] in ("val", "lazy") and len(b) == 4
                    and id(b[2]) not in self._inlining):
                self._inlining.add(id(b[2]))
                try:
                    self._gen(b[2], b[3], pending, lines, depth)
                finally:
                    self._inlining.discard(id(b[2]))
                return
        # A call of a user operator: TLC evaluates its body in place, so an \E or a
        # disjunction inside it enumerates (and may produce the same successor several times).
        target = self.user_def(e, env) or self._let_def(e, env)
        unroll = None
        if target is not None and isinstance(target[0], ast.OpDef) and (
                id(target[0]) in self._inlining or target[0].name in names_in(target[0].body)):
            unroll = self._constant_args(target, env)
        if target is not None and (id(target[0]) not in self._inlining or unroll is not None):
            d, denv, args = target
            self._inlining.add(id(d))
            self._unrolled += unroll is not None
            try:
                binds = {}
                for p, a in zip(d.params, args, strict=True):
                    if unroll is not None:  # a recursive call with constant arguments
                        binds[p.name] = ("val", self.const_name(unroll[p.name]))
                        continue
                    if p.arity:
                        binds[p.name] = self._op_arg(a, env, p.arity)
                    elif mentions_prime(a, self, env, set()) or self._is_variable(a, env):
                        # TLC substitutes arguments into the body: a primed argument such
                        # as lastHash' may be assigned inside it (`newLastHash = hash`), and
                        # a variable passed in may be primed there (`Lose(q) == q' = ...`).
                        binds[p.name] = ("expr", a, env)
                    else:
                        code, _ = self.expr(a, env)
                        local = self._local(p.name)
                        lines.append(f"{pad}{local} = {code}")
                        binds[p.name] = ("val", local)
                self._gen(d.body, denv.bind(binds), pending, lines, depth)
            finally:
                if unroll is None:
                    self._inlining.discard(id(d))
                self._unrolled -= unroll is not None
            return
        if isinstance(e, ast.InstanceRef):
            resolved = self.instance_def(e, env)
            if resolved is not None:
                d, denv, args = resolved
                # A part of a definition (`Init!1`) is expanded as a call of it would be.
                if isinstance(d, ast.OpDef) and (id(d) in self._subdef_ids
                                                 or self._is_action_level(d, denv)):
                    binds = {}
                    for p, a in zip(d.params, args, strict=True):
                        if p.arity:  # an operator argument (LAMBDA a : a + 1, Op)
                            binds[p.name] = self._op_arg(a, env, p.arity)
                            continue
                        code, _ = self.expr(a, env)
                        local = self._local(p.name)
                        lines.append(f"{pad}{local} = {code}")
                        binds[p.name] = ("val", local)
                    self._gen(d.body, denv.bind(binds), pending, lines, depth)
                    return
        if isinstance(e, ast.FuncApp):
            lazy = self._lazy_fn(e.func, env)
            if lazy is not None and self._branches(lazy[2], lazy[3], {lazy[0]}) and (
                    self._gen_fnapp(e, lazy, env, pending, lines, depth)):
                return
        # Otherwise a guard.
        self._guard(e, env, pending, lines, depth)

    def _constant_args(self, target, env: Env) -> dict | None:
        """A recursive operator called again in an action (RECURSIVE Step(_), Step(n) ==
        IF n = 0 THEN x' = x + 1 ELSE Step(n - 1)): its parameters' values when every
        argument is a constant, so the call can be expanded once more (its IF tests then
        fold, see _gen); None otherwise, or past 256 expansions."""
        d, _, args = target
        if self._unrolled >= 256 or any(p.arity for p in d.params):
            return None
        try:
            return {p.name: self.const_value(a, env) for p, a in zip(d.params, args,
                                                                      strict=True)}
        except (NotConstant, CompileError):
            return None

    def _lazy_fn(self, f, env: Env):
        """(key, bounds, body, body env) when f is a function TLC keeps unevaluated: a
        `[x \\in S |-> e]`, a LET-defined one, or a recursive or state-dependent definition.
        TLC applies such a function in an action by evaluating its body there, so an \\E or
        \\/ in the body branches. Constant definitions of the module are computed at start.
        The initial predicate evaluates f[a] as a value: TLC does not branch there."""
        if self.mode != "action":
            return None
        if isinstance(f, ast.FuncCons):
            return id(f), f.bounds, f.body, env
        if not isinstance(f, ast.Ident):
            return None
        b = env.locals.get(f.name)
        if b is not None:
            if b[0] in ("val", "lazy") and len(b) == 4 and isinstance(b[2], ast.FuncCons):
                return id(b[2]), b[2].bounds, b[2].body, b[3]
            if b[0] == "fndef" and len(b) == 4:
                return id(b[2]), b[2].bounds, b[2].body, b[3][0]
            return None
        sym = env.scope.symbols.get(f.name)
        if (sym is None or sym.module in STANDARD or f.name in self.overrides
                or self.replacement(sym) is not None):
            return None
        d = sym.node
        if isinstance(d, ast.FuncDef):
            bounds, body = d.bounds, d.body
        elif isinstance(d, ast.OpDef) and not d.params and isinstance(d.body, ast.FuncCons):
            bounds, body = d.body.bounds, d.body.body
        else:
            return None
        if id(d) not in self._fn_gens and self.expr(f, env)[1] == 0:
            return None
        return id(d), bounds, body, self.def_env(sym, env)

    def _gen_fnapp(self, e: ast.FuncApp, lazy, env: Env, pending: list, lines: list[str],
                   depth: int) -> bool:
        """f[a] in an action, f lazy (see _lazy_fn): f's body with its parameter bound to a,
        as a generator that yields once per way through it (it recurses for f[c] inside)."""
        key, bounds, body, benv = lazy
        if any(b.domain is None or b.tuple for b in bounds):
            return False
        names = [(n, b.domain) for b in bounds for n in b.names]
        if len(names) != len(e.args):
            return False
        pad = "    " * depth
        args = [self.expr(a, env)[0] for a in e.args]
        gen = self._fn_gens.get(key)
        if gen is None:
            gen = self._local("fnbody")
            params = [self._local(n) for n, _ in names]
            lines.append(f"{pad}def {gen}({', '.join(params)}):")
            lines.append(f"{pad}    if False:")
            lines.append(f"{pad}        yield None")
            binds = {}
            ordinals = ("first", "second", "third")
            for i, ((n, dom), p) in enumerate(zip(names, params, strict=True)):
                dcode, _ = self.expr(dom, benv.bind(binds))
                nth = ordinals[i] if i < len(ordinals) else f"{i + 1}th"
                lines.append(f"{pad}    if not member({p}, {dcode}):")
                lines.append(f"{pad}        raise EvalError('In applying the function, the {nth} "
                             f"argument is:\\n' + show({p}) + '\\nwhich is not in its domain.', "
                             f"{self._span_const(e.span)})")
                binds[n] = ("val", p)
            saved = dict(self.primes)
            self._fn_gens[key] = gen
            try:
                self._gen(body, benv.bind(binds), [("__emit__", "yield None")], lines, depth + 1)
            finally:
                del self._fn_gens[key]
            if self.primes != saved:
                raise CompileError("a function applied in an action may not assign primed "
                                   "variables", e.span)
        lines.append(f"{pad}for _ in {gen}({', '.join(args)}):{self._tag(e.span)}")
        self._continue(pending, lines, depth + 1, e.span)
        return True

    def _guard(self, e, env: Env, pending: list, lines: list[str], depth: int) -> None:
        """`if e:` then the rest. A guard the compiler cannot prove Boolean is tested with
        `is True` (a negated one with `is False`), and only a value that is neither reaches
        the error: no call on the common path."""
        pad = "    " * depth
        why, want, inner = B_INIT if self.mode == "init" else B_NEXT, "True", e
        if (isinstance(e, ast.OpApp) and e.op == "\\lnot" and "\\lnot" not in env.locals
                and env.scope.symbols.get("\\lnot") is None):
            why, want, inner = B_NOT, "False", e.args[0]
        code, _ = self.expr(inner, env)
        if code in ("True", "False") or self._is_bool(inner, env, 0):
            if inner is not e:
                code = f"(not {code})"
            lines.append(f"{pad}if {code}:{self._tag(e.span)}")
            self._continue(pending, lines, depth + 1, e.span)
            return
        lines.append(f"{pad}if (_g := {code}) is {want}:{self._tag(e.span)}")
        self._continue(pending, lines, depth + 1, e.span)
        other = "False" if want == "True" else "True"
        lines.append(f"{pad}elif _g is not {other}:")
        lines.append(f"{pad}    boolean(_g, {why}){self._tag(inner.span)}")

    def _continue(self, pending: list, lines: list[str], depth: int, span) -> None:
        if pending:
            (nxt, nenv), rest = pending[0], pending[1:]
            if nxt == "__emit__":
                lines.append("    " * depth + nenv)
                return
            if nxt == "__forall_rest__":  # the elements after a \A's first (see above)
                e, fenv, names, targets, elems = nenv
                self._forall_loop(e, fenv, names, targets, elems, 1, rest, lines, depth)
                return
            if (self.mode in ("init", "action") and not self.partial
                    and all(v in self.primes for v in self.variables)
                    and self._branches(nxt, nenv, set())):
                # TLC: once the initial predicate or an action has assigned every variable,
                # the conjuncts left are evaluated as Booleans (no \\/, \\E or => branches
                # any more). Conjuncts that cannot branch keep their generator code.
                self._guard(nxt, nenv, rest, lines, depth)
                return
            self._gen(nxt, nenv, rest, lines, depth)
        else:
            self._emit_done(lines, depth, span)

    def _gen_cdot(self, e: ast.OpApp, env: Env, pending: list, lines: list[str],
                  depth: int) -> None:
        r"""`A \cdot B`, as TLC evaluates it: every successor u of A from the current state
        (A starts with no primed variable set), then B and the conjuncts after it with u as
        the current state, each way through B a successor. B and the rest run in a nested
        function whose parameter `s` is u."""
        if any(p[0] == "__emit__" for p in pending):
            raise CompileError("\\cdot inside a function or \\A of an action is not supported",
                               e.span)
        pad = "    " * depth
        # Newer TLCs count the successors of an outermost composition's A as generated
        # states (those of compositions nested in it are not counted).
        outer = self._cdot_nesting == 0
        self.uses_cdot = True
        self._cdot_nesting += 1
        try:
            body, used = self._generator_body(e.args[0], env, "action", False)
        finally:
            self._cdot_nesting -= 1
        params = tuple(sorted(used & python_locals(env)))
        first = self._define_generator(body, "cdot", params)
        self._note_uses(" ".join(params))
        mids, nested = self._local("mids"), self._local("then")
        lines.append(f"{pad}{mids} = []")
        lines.append(f"{pad}{self.const_name(first)}(s, {mids}.append"
                     f"{''.join(', ' + p for p in params)}){self._tag(e.args[0].span)}")
        if outer:
            lines.append(f"{pad}_CDOT[0] += len({mids})")
        lines.append(f"{pad}def {nested}(s):")
        saved = dict(self.primes)
        self._cdot_nesting += 1
        try:
            self._gen(e.args[1], env, pending, lines, depth + 1)
        finally:
            self._cdot_nesting -= 1
        self.primes = saved
        lines.append(f"{pad}    pass")
        lines.append(f"{pad}for _u in {mids}:")
        lines.append(f"{pad}    {nested}(_u)")

    def _may_assign(self, e, env: Env) -> bool:
        """Could e assign a primed variable here (it has primes, and some variable is not
        assigned yet)?"""
        return (self.mode in ("init", "action") and not self.partial
                and not all(v in self.primes for v in self.variables)
                and mentions_prime(e, self, env, set(), "var" if self.mode == "init" else
                                   "prime"))

    _UNROLL = 64  # at most this many copies of a \A's body

    def _unrolled_forall(self, e: ast.Quant, env: Env) -> list | None:
        r"""`\A x \in S : P` over a constant S as the conjuncts [(P, env with x bound to each
        element)] in TLC's order, so that the first conjunct to meet an unassigned primed
        variable assigns it and the others test it (TLC evaluates the \A as the conjunction);
        None when S is not constant or too large."""
        try:
            combos = self._constant_combos(e.bounds, env)
        except CompileError:  # a tuple binder over non-tuples: the general code's error
            return None
        if combos is None:
            return None
        combos = list(itertools.islice(combos, self._UNROLL + 1))
        if len(combos) > self._UNROLL:
            return None
        if not combos:
            return [(ast.Bool(True, span=e.span), env)]
        return [(e.body, self._bind_values(env, ps)) for ps in combos]

    def _constant_combos(self, bounds, env: Env):
        """The bound names' values where every domain is a constant, in TLC's order (the
        first name varies fastest): an iterator of ((name, value), ...) with a tuple binder's
        elements taken apart (CompileError where one is no tuple of its length); None when a
        domain is missing or not constant."""
        if any(b.domain is None for b in bounds):
            return None
        try:
            domains = [self.const_value(b.domain, env) for b in bounds]
        except NotConstant:
            return None
        groups = []
        for b, dom in zip(bounds, domains, strict=True):
            elems = list(runtime.enum(dom))
            if b.tuple:
                if any(type(v) is not tuple or len(v) != len(b.names) for v in elems):
                    raise CompileError("tuple binder over non-tuples", b.span)
                groups.append([tuple(zip(b.names, v, strict=True)) for v in elems])
            else:
                groups += [[((n, v),) for v in elems] for n in b.names]
        return (sum(combo, ()) for combo in runtime.tlc_product(groups))

    def _bind_values(self, env: Env, pairs) -> Env:
        """env with each (name, value) of pairs bound to that constant value."""
        return env.bind({n: ("val", self.const_name(v)) for n, v in pairs})

    def _gen_forall(self, e: ast.Quant, env: Env, pending: list, lines: list[str],
                    depth: int) -> None:
        r"""`\A x \in S : P` in an action, where P can branch: TLC evaluates it as the
        conjunction P(x1) /\ P(x2) /\ ..., so every way through each conjunct counts."""
        names, targets, elems = self._forall_elements(e, env, lines, depth)
        self._forall_loop(e, env, names, targets, elems, 0, pending, lines, depth)

    def _gen_forall_first(self, e: ast.Quant, env: Env, pending: list, lines: list[str],
                          depth: int) -> None:
        r"""`\A x \in S : P` in an action over a set known only when the state is (so not
        unrolled), where P assigns a primed variable: P(x1) assigns it, P(x2), ... test it,
        as in TLC's conjunction. The first element's conjunct is generated in place; the
        others follow it as a loop (see _forall_loop), where P may assign nothing more."""
        pad = "    " * depth
        names, targets, elems = self._forall_elements(e, env, lines, depth)
        saved = dict(self.primes)
        lines.append(f"{pad}if not {elems}:")  # \A over an empty set: TRUE
        self._continue(pending, lines, depth + 1, e.span)
        self.primes = dict(saved)
        lines.append(f"{pad}else:")
        lines.append(f"{pad}    ({', '.join(targets)},) = {elems}[0]")
        binds = {n: ("val", p) for n, p in names}
        rest = ("__forall_rest__", (e, env, names, targets, elems))
        self._gen(e.body, env.bind(binds), [rest, *pending], lines, depth + 1)
        self.primes = saved

    def _forall_elements(self, e: ast.Quant, env: Env, lines: list[str], depth: int):
        """The bound names with their Python locals, what each element of the product of
        the domains unpacks to, and the local holding that product's list (emitted)."""
        names, targets, doms = [], [], []  # (name, its local); what each element unpacks to
        for b in e.bounds:
            if b.domain is None:
                raise CompileError("TLC cannot handle an unbounded \\A in an action", e.span)
            dom, _ = self.expr(b.domain, env)
            if b.tuple:  # \A <<a, b>> \in S : ... takes S's elements apart
                locals_ = [self._local(n) for n in b.names]
                names += zip(b.names, locals_, strict=True)
                targets.append("(" + ", ".join(locals_) + ",)")
                doms.append(dom)
                continue
            for n in b.names:
                p = self._local(n)
                names.append((n, p))
                targets.append(p)
                doms.append(dom)
        elems = self._local("elems")
        product = "".join(f"enum({d}), " for d in doms)
        lines.append(f"{'    ' * depth}{elems} = list(tlc_product(({product})))")
        return names, targets, elems

    def _forall_loop(self, e: ast.Quant, env: Env, names: list, targets: list, elems: str,
                     start: int, pending: list, lines: list[str], depth: int) -> None:
        r"""Every way through P(x_start) /\ P(x_start+1) /\ ... for the elements in `elems`,
        then the pending conjuncts: a recursive generator over the element index."""
        pad = "    " * depth
        fn = self._local("forall")
        idx = self._local("i")
        # The function gets itself as an argument: a closure that named itself would be a
        # reference cycle, garbage only the cyclic collector frees (one per expanded state).
        me = f"{fn}_me"
        lines.append(f"{pad}def {fn}({idx}, {me}):")
        lines.append(f"{pad}    if {idx} == len({elems}):")
        lines.append(f"{pad}        yield None")
        lines.append(f"{pad}        return")
        lines.append(f"{pad}    ({', '.join(targets)},) = {elems}[{idx}]")
        binds = {n: ("val", p) for n, p in names}
        saved = dict(self.primes)
        self._gen(e.body, env.bind(binds), [("__emit__", f"yield from {me}({idx} + 1, {me})")],
                  lines, depth + 1)
        if self.primes != saved:
            raise CompileError("a \\A in an action may not assign primed variables", e.span)
        lines.append(f"{pad}for _ in {fn}({start}, {fn}):")
        self._continue(pending, lines, depth + 1, e.span)

    def _let_def(self, e, env: Env):
        """If e calls an operator a LET defines with parameters: (def, its env, args)."""
        if isinstance(e, ast.OpApp) and e.op[:1].isalpha():
            b = env.locals.get(e.op)
            if b is not None and b[0] == "op" and len(b) == 5 and b[4]:
                return b[3], b[4][0], e.args
        return None

    def _branches(self, e, env: Env, seen: set) -> bool:
        r"""Could evaluating e as an action yield more than one way through (\E, \/)?"""
        if isinstance(e, ast.Junction):
            return e.kind == "or" or any(self._branches(x, env, seen) for x in e.items)
        if isinstance(e, ast.OpApp) and e.op in (r"\lor", r"\cdot") and e.op not in env.locals:
            return True
        if isinstance(e, ast.OpApp) and e.op == r"\land" and e.op not in env.locals:
            return any(self._branches(x, env, seen) for x in e.args)
        if isinstance(e, ast.OpApp) and e.op == "=>" and e.op not in env.locals:
            return self._branches(e.args[1], env, seen)
        if isinstance(e, ast.Quant):
            return e.kind == "E" or self._branches(e.body, env, seen)
        if isinstance(e, ast.If):
            return self._branches(e.then, env, seen) or self._branches(e.else_, env, seen)
        if isinstance(e, ast.Case):
            return any(self._branches(v, env, seen) for _, v in e.arms) or (
                e.other is not None and self._branches(e.other, env, seen))
        if isinstance(e, ast.Let):
            inner = env  # the definitions' bodies only, as _gen expands them in place
            for d in e.defs:
                if isinstance(d, ast.OpDef) and not d.params:
                    inner = inner.bind({d.name: ("val", None, d.body, inner)})
                elif isinstance(d, ast.OpDef):
                    scope: list = []
                    inner = inner.bind({d.name: ("op", None, len(d.params), d, scope)})
                    scope.append(inner)
            return self._branches(e.body, inner, seen)
        if isinstance(e, ast.FuncApp):
            lazy = self._lazy_fn(e.func, env)
            if lazy is not None and lazy[0] not in seen:
                seen.add(lazy[0])
                return self._branches(lazy[2], lazy[3], seen)
            return False
        if isinstance(e, ast.Ident):
            b = env.locals.get(e.name)
            if b is not None and b[0] == "expr":
                return self._branches(b[1], b[2], seen)
            if b is not None and b[0] in ("val", "lazy") and len(b) == 4 and id(b[2]) not in seen:
                seen.add(id(b[2]))  # a LET definition used as a conjunct
                return self._branches(b[2], b[3], seen)
        target = self.user_def(e, env) or self._let_def(e, env)
        if target is not None and id(target[0]) not in seen:
            seen.add(id(target[0]))
            return self._branches(target[0].body, target[1], seen)
        return False

    def _target_var(self, e, env: Env) -> str | None:
        """The variable an `x' = ...` (or, in Init, `x = ...`) would assign, if any."""
        if isinstance(e, ast.Ident):
            b = env.locals.get(e.name)
            if b is not None and b[0] == "expr":
                return self._target_var(b[1], b[2])
        if self.mode == "action":
            if isinstance(e, ast.OpApp) and e.op == "'" and isinstance(e.args[0], ast.Ident):
                b = env.locals.get(e.args[0].name)
                if b is not None and b[0] == "expr":  # `q'` with q an argument passed by name
                    return self._target_var(ast.OpApp("'", (b[1],), span=e.span), b[2])
                return self.var_of(e.args[0].name, env)
            return None
        if self.mode == "init" and isinstance(e, ast.Ident):
            return self.var_of(e.name, env)
        return None

    def _unchanged_vars(self, e, env: Env, depth: int = 0) -> list[str] | None:
        """The variables `UNCHANGED e` mentions, when e is built from variables and tuples."""
        if depth > 50:
            return None
        if isinstance(e, ast.Tuple):
            out = []
            for x in e.elems:
                vs = self._unchanged_vars(x, env, depth + 1)
                if vs is None:
                    return None
                out += vs
            return out
        if isinstance(e, ast.Ident):
            v = self.var_of(e.name, env)
            if v is not None:
                return [v]
            b = env.locals.get(e.name)
            if b is not None and b[0] == "expr":  # an argument passed by name
                return self._unchanged_vars(b[1], b[2], depth + 1)
            sym = env.scope.symbols.get(e.name) if b is None else None
            if sym is not None and sym.kind == "variable" and env.frame is not self.root_frame:
                sub = env.frame.subst.get(e.name)  # an instance's variable replaced by an
                if sub is not None and not isinstance(sub[0], tuple):  # expression (vars)
                    return self._unchanged_vars(sub[0], sub[1], depth + 1)
            target = self.user_def(e, env)
            if target is not None and not target[0].params:
                return self._unchanged_vars(target[0].body, target[1], depth + 1)
        return None

    def _let_env(self, e: ast.Let, env: Env, lines: list[str], depth: int) -> Env:
        """LET in an action: one assignment statement per definition."""
        inner, defs = self._let_bindings(e, env)
        for _, _, local, init in defs:
            lines.append(f"{'    ' * depth}{local} = {init}")
        return inner
