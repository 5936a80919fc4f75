"""Compile a resolved TLA+ spec into Python source, then into Python functions.

Expressions become Python expressions over the runtime helpers; operator definitions become
Python functions `(s, t, *args)` (s: current state tuple, t: next state tuple or None);
actions become generator functions `(s) -> next-state tuples` written as nested loops and
guards, enumerating exactly as TLC does: conjuncts left to right, `x' = e` binds the first
time and tests after, `x' \\in S` and `\\E` iterate in TLC's set order, disjuncts left to right.
Anything that depends on neither state nor bound names is computed once, when compiling.

Name lookup follows the module structure: a frame holds one instance's substitutions (the root
frame binds constants from the .cfg and variables to the state), a scope says what a module sees.
"""
from __future__ import annotations

import itertools
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from ..frontend import ast
from ..frontend.errors import Span
from ..frontend.resolve import ModuleScope, Symbol
from . import community, runtime
from .memo import memoised
from .runtime import (
    B_AND_P,
    B_AND_Q,
    B_CASE,
    B_EQUIV,
    B_FILTER,
    B_IF,
    B_IMPLIES_P,
    B_IMPLIES_Q,
    B_INIT,
    B_NEXT,
    B_NOT,
    B_OR_P,
    B_OR_Q,
    B_VALUE,
)
from .share import share_repeated
from .values import UNKNOWN, EvalError, ModelValue, UnknownUsed, make_fn, show

STATE, NEXT, LOCAL, IMPURE, READS = 1, 2, 4, 8, 16  # dependency flags of compiled code


class CompileError(Exception):
    """Something kipcheck cannot (yet) evaluate, found while compiling; has a span."""

    def __init__(self, message: str, span: Span | None = None):
        super().__init__(message)
        self.message = message
        self.span = span


@dataclass
class Frame:
    """One instantiation: constant/variable name -> (expression, env it is compiled in)."""

    subst: dict
    ident: int
    cacheable: bool = True


@dataclass
class Env:
    scope: ModuleScope
    frame: Frame
    locals: dict = field(default_factory=dict)  # name -> binding tuple

    def bind(self, names: dict) -> Env:
        return Env(self.scope, self.frame, {**self.locals, **names})



@dataclass
class Action:
    """One action instance of Next, as TLC splits it: a name, bound parameters, a generator."""

    name: str
    params: tuple  # ((name, value), ...)
    span: Span
    gen: object = None  # compiled function (s, emit): emit(t) for each successor t
    body: str = ""  # its generated body, reused by Compiler.compile_expand

    def __post_init__(self):
        if not self.params:
            self.label = self.name
        else:
            self.label = f"{self.name}(" + ", ".join(show(v) for _, v in self.params) + ")"


# Operators of the standard modules with a native implementation: (module, name) -> template.
# `{0}`, `{1}` are the compiled arguments.
NATIVE = {
    ("Naturals", "+"): "({0} + {1})", ("Naturals", "-"): "({0} - {1})",
    ("Naturals", "*"): "({0} * {1})", ("Naturals", "^"): "ipow({0}, {1})",
    ("Naturals", "<"): "({0} < {1})", ("Naturals", ">"): "({0} > {1})",
    ("Naturals", "<="): "({0} <= {1})", ("Naturals", ">="): "({0} >= {1})",
    ("Naturals", "%"): "imod({0}, {1})", ("Naturals", "\\div"): "idiv({0}, {1})",
    ("Naturals", ".."): "interval({0}, {1})", ("Naturals", "Nat"): "NAT",
    ("Integers", "Int"): "INT", ("Integers", "-."): "ineg({0})",
    ("Reals", "Real"): "REAL",
    ("Sequences", "Seq"): "SeqSet({0})", ("Sequences", "Len"): "seq_len({0})",
    ("Sequences", "\\o"): "concat({0}, {1})", ("Sequences", "Append"): "append({0}, {1})",
    ("Sequences", "Head"): "head({0})", ("Sequences", "Tail"): "tail({0})",
    ("Sequences", "SubSeq"): "subseq({0}, {1}, {2})",
    ("Sequences", "SelectSeq"): "selectseq({0}, {1})",
    ("FiniteSets", "Cardinality"): "card({0})",
    ("FiniteSets", "IsFiniteSet"): "(not isinstance({0}, LazySet) or {0}.finite)",
    ("TLC", ":>"): "fn_single({0}, {1})", ("TLC", "@@"): "fn_merge({0}, {1})",
    ("TLC", "Print"): "(tlc_print({0}, {1}) and {1})",
    ("TLC", "PrintT"): "tlc_print_t({0})",
    ("TLC", "Assert"): "tlc_assert({0}, {1})",
    ("TLC", "ToString"): "to_string({0})", ("TLC", "Permutations"): "permutations({0})",
    ("TLC", "SortSeq"): "sortseq({0}, {1})", ("TLC", "TLCGet"): "tlc_get({0})",
    ("TLC", "TLCSet"): "tlc_set({0}, {1})", ("TLC", "JavaTime"): "java_time()",
    ("TLC", "RandomElement"): "random_element({0})", ("TLC", "TLCEval"): "{0}",
    ("TLC", "Any"): "ANY",
}
NATIVE.update(community.NATIVE)
# Integer operators: inline Python when both operands are known to be integers, else a runtime
# helper that checks both (Python would add TRUE to 1, a Boolean being an int to it).
INT_OPS = {("Naturals", "+"): ("+", "add"), ("Naturals", "-"): ("-", "sub"),
           ("Naturals", "*"): ("*", "mul"), ("Naturals", "<"): ("<", "lt"),
           ("Naturals", ">"): (">", "gt"), ("Naturals", "<="): ("<=", "le"),
           ("Naturals", ">="): (">=", "ge")}
# Native operators whose value is an integer (or an error).
INT_VALUED = {("Naturals", "+"), ("Naturals", "-"), ("Naturals", "*"), ("Naturals", "^"),
              ("Naturals", "%"), ("Naturals", "\\div"), ("Integers", "-."),
              ("Sequences", "Len"), ("FiniteSets", "Cardinality")}
# Native operators whose value is a Boolean (or an error).
BOOL_VALUED = {("Naturals", "<"), ("Naturals", ">"), ("Naturals", "<="), ("Naturals", ">="),
               ("FiniteSets", "IsFiniteSet")}
# Built-in operators whose value is a Boolean (their Boolean operands are checked).
BOOL_BUILTINS = {"\\land", "\\lor", "\\lnot", "=>", "\\equiv", "=", "#", "\\in", "\\notin",
                 "\\subseteq", "UNCHANGED", "ENABLED"}
# Native operators whose arguments are operators (passed as Python callables of plain values).
HIGHER_ORDER = {("Sequences", "SelectSeq"): (1,), ("TLC", "SortSeq"): (1,),
                **community.HIGHER_ORDER}
IMPURE_OPS = {("TLC", "Print"), ("TLC", "PrintT"), ("TLC", "Assert"), ("TLC", "TLCGet"),
              ("TLC", "TLCSet"), ("TLC", "JavaTime"), *community.IMPURE}
# Operators whose value the run decides rather than the state (a random choice, a file, the
# environment): never computed ahead inside an expression, but a definition without
# parameters that uses them and reads no state is computed once, as TLC computes it before
# the search (SpanTreeRandom's random Edges is one graph for the whole run).
READ_OPS = {("TLC", "RandomElement"), *community.READS}



# A line of generated code that emits a successor state (see _emit_done).
_EMIT_RE = re.compile(r"^( *)_out\(\(", re.M)


def _pyname(prefix: str, name: str, n: int) -> str:
    return f"{prefix}{n}_" + re.sub(r"\W", "_", name)


class Compiler:
    """Compiles definitions on demand into one Python namespace `self.g`."""

    def __init__(self, scopes: dict[str, ModuleScope], root: str, variables: list[str],
                 constants: dict, overrides: dict):
        self.scopes = scopes
        self.root = scopes[root]
        self.variables = variables
        self.var_index = {v: i for i, v in enumerate(variables)}
        self.constants = constants  # name -> value (root-frame constants and overridden defs)
        self.overrides = overrides  # name -> name of the definition that replaces it
        self.module_values: dict = {}  # (module, name) -> value, from `Name = [Mod] value`
        self.module_overrides: dict = {}  # (module, name) -> replacement, `Name <- [Mod] Other`
        self._replaced: dict | None = None  # id(definition node) -> name of its replacement
        self._direct = None  # the symbol an M!Op names, which no .cfg override replaces
        self.g: dict = {name: getattr(runtime, name) for name in runtime.__all__}
        self.g.update((name, getattr(community, name)) for name in community.__all__)
        self.g["itertools"] = itertools
        self.g.update(tlc_print_t=_print_t, tlc_get=_tlc_get, tlc_set=_tlc_set,
                      random_element=_random_element, ANY=_ANY, _unassigned=_unassigned,
                      _case_fail=_case_fail, _EMPTY=frozenset(), except_path=_except_path,
                      _fcall=_fcall, _fix=_fix, _not_enumerable=_not_enumerable, _prime_of=None,
                      enabled=_run_enabled)
        self.root_frame = Frame({}, 0)
        self._counter = itertools.count(1)
        self._defs: dict = {}  # (frame id, module, name) -> (python name, flags)
        self._instance_frames: dict = {}
        self._raw_fn = False
        self._let_flags = 0
        self.sources: dict = {}  # generated function name -> its Python source (for debugging)
        self.spans: list = []  # spans referred to by `# @span:N` tags in generated code
        self.line_spans: dict = {}  # (code file name, line) -> TLA+ span
        self.prime_cache: dict = {}  # (frame, module, name, what) -> mentions primes/variables
        self._inlining: set = set()  # definitions being expanded in an action (no recursion)
        self._subdefs: dict = {}  # (id(definition), selectors) -> its subexpression as a def
        self._subdef_ids: set = set()
        self._cdot_nesting = 0  # inside an A \cdot B being compiled
        self.uses_cdot = False
        self.g["_CDOT"] = [0]  # intermediate states of A \cdot B, counted as TLC counts them
        self._fn_gens: dict = {}  # lazy functions whose body an action is enumerating: name
        self._uses: list[set] = []
        self._binds: list[set] = []
        self.mode = "expr"  # expr | action | init: how variables and primes compile
        self.primes: dict | None = None  # var -> python local, in action/init mode
        self.g["LEVEL"] = [0]
        # Constant code may call a definition as f(s, t, ...); evaluated once at compile time,
        # it has no state (generated functions take s and t as parameters).
        self.g["s"] = self.g["t"] = None
        self.g["_UNKNOWN"] = UNKNOWN
        self.g.update(_U=_U, _Lazy=_Lazy, _LazyFn=_LazyFn)  # constant code may need them
        self.partial = False  # compiling ENABLED: unassigned primes are unknown, not errors
        # Compiling an ENABLED written in an instantiated module: the frame whose variables
        # are the unknowns, and their keys -> (name, env) (see _enabled_body).
        self.enabled_frame: Frame | None = None
        self._inner_vars: dict = {}
        self._int_codes: set[str] = set()  # generated code known to yield an integer
        self._bool_defs: dict = {}  # (frame, module, name) -> is the body surely Boolean?

    @contextmanager
    def _mode(self, mode: str, primes: dict | None):
        """Compile in `mode` (expr | action | init | primed), restoring the previous one."""
        saved = (self.mode, self.primes)
        self.mode, self.primes = mode, primes
        try:
            yield
        finally:
            self.mode, self.primes = saved

    # -- public entry points -----------------------------------------------------------------
    def root_env(self) -> Env:
        return Env(self.root, self.root_frame)

    def compile_predicate(self, e, env: Env | None = None, name: str = "pred",
                          boolean: bool = False):
        """A state predicate or state function: Python function (s) -> value. `boolean`: the
        value must be a Boolean (an invariant, a constraint), else TLC's evaluation error."""
        env = env or self.root_env()
        code, _ = self.cond(e, env, B_VALUE) if boolean else self.expr(e, env)
        return self._define(f"def {{name}}(s, t=None):\n    return {code}{self._tag(e.span)}\n",
                            name)

    def is_constant(self, e, env: Env | None = None) -> bool:
        """Does e read no variable (and call nothing impure)? TLC evaluates such an invariant
        once, before the search."""
        _, flags = self.expr(e, env or self.root_env())
        return not flags & (STATE | NEXT | IMPURE | READS)

    def compile_step_predicate(self, e, env: Env | None = None, name: str = "spred"):
        """An invariant checked on a successor s of a state p that satisfied it: Python
        function (s, p) -> value. A conjunct that reads only variables whose values s shares
        with p (the same objects) held on p, so it holds on s and is not evaluated again;
        every other conjunct is evaluated as compile_predicate's code does."""
        env = env or self.root_env()
        code = self._step_conjunct(e, env, B_VALUE)
        return self._define(f"def {{name}}(s, p, t=None):\n"
                            f"    return {code}{self._tag(e.span)}\n", name)

    def _step_conjunct(self, e, env: Env, why: int) -> str:
        if type(e) is ast.Junction and e.kind == "and":
            parts = [self._step_conjunct(x, env, B_AND_P if i == 0 else B_AND_Q)
                     for i, x in enumerate(e.items)]
            return "(" + " and ".join(parts) + ")"
        if (type(e) is ast.OpApp and e.op == "\\land" and "\\land" not in env.locals
                and env.scope.symbols.get("\\land") is None):
            whys = _BOOL_OPERANDS["\\land"]
            return (f"({self._step_conjunct(e.args[0], env, whys[0])} and "
                    f"{self._step_conjunct(e.args[1], env, whys[1])})")
        code, _ = self.cond(e, env, why)
        reads = self.state_reads(e, env)
        if reads is None or code in ("True", "False"):
            return code
        if not reads:
            return "True"  # reads no variable: it held on the initial states
        same = " and ".join(f"s[{i}] is p[{i}]" for i in sorted(reads))
        return f"({same} or {code})"

    def state_reads(self, e, env: Env) -> set[int] | None:
        """The indices of the state variables e reads, also through the definitions it calls,
        or None when that is not sure (an INSTANCE, a substituted constant, a recursive
        operator, anything impure such as RandomElement or TLCGet): conservative, so that a
        conjunct is skipped only when it surely reads nothing that changed."""
        reads: set[int] = set()
        seen: set = set()
        index = {v: i for i, v in enumerate(self.variables)}

        def visit(n, nenv) -> bool:
            t = type(n)
            if t is tuple:
                return all(visit(x, nenv) for x in n)
            if not isinstance(n, ast.Node):
                return True
            if t is ast.InstanceRef or t is ast.Fairness:
                return False
            if t is ast.Ident or t is ast.OpApp:
                name = n.name if t is ast.Ident else n.op
                if name in ("'", "ENABLED", "UNCHANGED", "[]", "<>", "~>", "-+->", "\\cdot"):
                    return False
                sym = None if name in nenv.locals else nenv.scope.symbols.get(name)
                if sym is not None and not self._reads_symbol(sym, n, nenv, index, reads,
                                                              seen, visit):
                    return False
            for f in n.__dataclass_fields__:
                if f != "span" and not visit(getattr(n, f), nenv):
                    return False
            return True

        return reads if visit(e, env) else None

    def _reads_symbol(self, sym, n, nenv: Env, index: dict, reads: set, seen: set,
                      visit) -> bool:
        """state_reads for one name: False when its reads are not sure."""
        if sym.kind in ("bound", "param"):
            return True
        if sym.kind == "variable":
            if nenv.frame is not self.root_frame or sym.name not in index:
                return False
            reads.add(index[sym.name])
            return True
        if sym.kind == "constant":
            return (nenv.frame is self.root_frame and not sym.arity
                    and sym.name not in self.overrides)
        if sym.kind not in ("operator", "function"):
            return False
        if sym.module in _STANDARD:
            key = (sym.module, sym.name)
            return key not in IMPURE_OPS and key not in READ_OPS
        if self._replacement(sym) is not None:
            return False
        target = self._user_def(n, nenv) if sym.kind == "operator" else None
        if target is None:
            if sym.kind != "function" or not isinstance(sym.node, ast.FuncDef):
                return False
            target = (sym.node, self._def_env(sym, nenv))
        d, denv = target[0], target[1]
        if denv.frame is not self.root_frame:
            return False
        if id(d) in seen:
            return True
        seen.add(id(d))
        return visit(d, denv)

    def compile_action_predicate(self, e, env: Env | None = None, name: str = "apred",
                                 boolean: bool = False):
        """An action-level predicate over a step: Python function (s, t) -> value."""
        env = env or self.root_env()
        code, _ = self.cond(e, env, B_VALUE) if boolean else self.expr(e, env)
        return self._define(f"def {{name}}(s, t):\n    return {code}{self._tag(e.span)}\n", name)

    def compile_init(self, e, env: Env | None = None):
        """Init as a function (s, emit) calling emit(state) for each initial state."""
        return self._compile_generator(e, env or self.root_env(), "init", "init")

    def compile_action(self, e, env: Env, name: str = "act"):
        """An action as a generator (s, emit)."""
        return self._compile_generator(e, env, "action", name)

    def compile_enabled(self, e, env: Env, name: str = "enabled"):
        """ENABLED e as a generator (s, _out) that emits at each way through e (see
        _enabled_body)."""
        body, _ = self._enabled_body(e, env)
        return self._define_generator(body, name)

    def _enabled_body(self, e, env: Env):
        """The generator body of ENABLED e, written in env, as TLC computes it. Variables e
        leaves unassigned are unknown (reading one raises UnknownUsed). Written in an
        instantiated module (a refined spec seen through a refinement mapping), the
        substitutions stay outside ENABLED: the instance's own variables are the unknowns a
        step binds (`f' = e` assigns f, even where f <- <<g.c>>), and an unprimed f is its
        substitution read in the current state. Instances e itself refers to are expanded
        inside: their primed substitutions read the variables bound here."""
        saved = self.enabled_frame, self._inner_vars
        inside = env.frame is not self.root_frame
        self.enabled_frame, self._inner_vars = (env.frame, {}) if inside else (None, {})
        try:
            return self._generator_body(e, env, "action", True)
        finally:
            self.enabled_frame, self._inner_vars = saved

    def _inner_var(self, name: str, env: Env) -> str:
        """The key of an instance variable that ENABLED binds (see _enabled_body)."""
        key = f"{name}'{env.frame.ident}"
        self._inner_vars.setdefault(key, (name, Env(env.scope, env.frame, {})))
        return key

    def _current(self, var: str) -> str:
        """Code for a variable's value in the current state (an instance variable: its
        substitution)."""
        i = self.var_index.get(var)
        if i is not None:
            return f"s[{i}]"
        name, venv = self._inner_vars[var]
        with self._mode("action", self.primes):
            code, _ = self.expr(ast.Ident(name, span=venv.scope.module.span), venv)
        return code

    def split_actions(self, e, env: Env | None = None, name: str = "Next") -> list[Action]:
        """Split Next into actions as TLC does, each compiled to a function (s, emit)."""
        out: list[Action] = []
        self._split(e, env or self.root_env(), name, (), out, e.span)
        for a in out:
            a.gen = self.compile_action(a.gen[0], a.gen[1], _pyname("act", a.name, len(out)))
            a.body = self.last_body
        return out

    # -- action splitting -----------------------------------------------------------------
    def _split(self, e, env: Env, name: str, params: tuple, out: list, span) -> None:
        if isinstance(e, ast.Junction) and e.kind == "or":
            for item in e.items:
                self._split(item, env, name, params, out, span)
            return
        if isinstance(e, ast.OpApp) and e.op == "\\lor" and env.locals.get("\\lor") is None:
            for item in e.args:
                self._split(item, env, name, params, out, span)
            return
        if isinstance(e, ast.Quant) and e.kind == "E" and all(b.domain is not None
                                                                for b in e.bounds):
            try:
                domains = [self._const_value(b.domain, env) for b in e.bounds]
            except _NotConstant:
                domains = None
            if domains is not None:
                groups = []
                for b, dom in zip(e.bounds, domains, strict=True):
                    vals = list(runtime.enum(dom))
                    groups.append([(b, v) for v in vals])
                    if len(b.names) > 1 and not b.tuple:
                        groups[-1] = None
                if all(g is not None for g in groups):
                    for combo in itertools.product(*groups):
                        binds, ps = {}, []
                        for b, v in combo:
                            if b.tuple:
                                if type(v) is not tuple or len(v) != len(b.names):
                                    raise CompileError("tuple binder over non-tuples", b.span)
                                for n, x in zip(b.names, v, strict=True):
                                    binds[n] = ("val", self._const_name(x))
                                    ps.append((n, x))
                            else:
                                binds[b.names[0]] = ("val", self._const_name(v))
                                ps.append((b.names[0], v))
                        self._split(e.body, env.bind(binds), name, params + tuple(ps), out, span)
                    return
        target = self._user_def(e, env)
        if target is not None:
            d, denv, args = target
            if isinstance(d, ast.OpDef) and self._is_action_level(d, denv):
                try:
                    values = [self._const_value(a, env) for a in args]
                except _NotConstant:
                    values = None
                if values is not None:
                    binds = {p.name: ("val", self._const_name(v))
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

    def _user_def(self, e, env: Env):
        """If e calls a user definition (not a bound name), return (def, its env, args)."""
        if isinstance(e, ast.Ident):
            name, args = e.name, ()
        elif isinstance(e, ast.OpApp) and e.op[:1].isalpha():
            name, args = e.op, e.args
        else:
            return None
        if name in env.locals:
            return None
        sym = env.scope.symbols.get(name)
        if sym is not None and sym.kind == "constant" and sym.arity:
            return self._substituted_def(sym, env, args)
        if sym is None or sym.kind != "operator" or not isinstance(sym.node, ast.OpDef):
            return None
        target = self._replacement(sym)
        if target is not None:
            # `Name <- Other` in the .cfg: Other's definition, wherever Name is used.
            sym = self.root.symbols.get(target)
            if sym is None or not isinstance(sym.node, ast.OpDef):
                return None
            env = self.root_env()
        if sym.module in _STANDARD:
            return None
        denv = self._def_env(sym, env)
        return sym.node, denv, args

    def _replacement(self, sym: Symbol) -> str | None:
        """The root definition a .cfg `Name <- Other` (or `Name <- [Mod] Other`) puts in
        place of the operator sym names. As in TLC, it replaces that definition wherever it is
        used, inside instances too (`Seq <- BoundedSeq` reaches an INSTANCEd module's Seq);
        another module's definition of the same name needs `<- [Mod]`."""
        if self._replaced is None:
            self._replaced = {}
            named = [(self.root, n, t) for n, t in self.overrides.items()]
            named += [(self.scopes.get(m), n, t) for (m, n), t in self.module_overrides.items()]
            for scope, name, target in named:
                d = scope.symbols.get(name) if scope is not None else None
                if d is not None and d.kind in ("operator", "function"):
                    self._replaced[id(d.node)] = target
        return self._replaced.get(id(sym.node)) if sym.kind in ("operator", "function") else None

    def _substituted_def(self, sym: Symbol, env: Env, args):
        """An operator constant that an INSTANCE ... WITH or a .cfg `<-` replaces by a
        definition: that definition, so actions expand it in place as TLC does."""
        if env.frame is self.root_frame:
            target = self.overrides.get(sym.name)
            if target is None:
                return None
            tsym = self.root.symbols.get(target)
            if tsym is None or not isinstance(tsym.node, ast.OpDef):
                return None
            return tsym.node, self._def_env(tsym, self.root_env()), args
        sub = env.frame.subst.get(sym.name)
        if sub is None or not isinstance(sub[0], ast.Ident):
            return None
        return self._user_def(ast.OpApp(sub[0].name, args, span=sub[0].span), sub[1])

    def _is_action_level(self, d: ast.OpDef, env: Env) -> bool:
        """Must a call be expanded in place? Actions: when it has primes; Init: when it reads
        variables (which Init is still assigning)."""
        what = "var" if self.mode == "init" else "prime"
        return _mentions_prime(d.body, self, env, set(), what)

    # -- generators (Init and actions) ------------------------------------------------------
    def _compile_generator(self, e, env: Env, mode: str, name: str, partial: bool = False):
        """e as a function (s, _out) emitting its successors (or initial states)."""
        body, _ = self._generator_body(e, env, mode, partial)
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

    def compile_expand(self, actions: list[Action]):
        """All actions in one function (s, emit): one Python call per state instead of one per
        action. emit(i) announces action i right before each successor emit(state), so an action
        without successors (most of them, in most states) costs a store, not a call; on an
        error, emit(i) last names the action that failed."""
        parts = ["def {name}(s, _out):", "    t = None", "    _a = 0", "    try:"]
        for i, a in enumerate(actions):
            parts.append(f"        _a = {i}")
            body = _EMIT_RE.sub(lambda m, i=i: f"{m.group(1)}_out({i})\n{m.group(0)}", a.body)
            parts.append("\n".join("    " + line for line in body.split("\n")))
        parts += ["    except BaseException:", "        _out(_a)", "        raise"]
        code = share_repeated("\n".join(parts).replace("{name}", "_expand_") + "\n", self.g)
        return self._define(code.replace("def _expand_(", "def {name}(", 1), "expand")

    def _emit_done(self, lines: list[str], depth: int, span) -> None:
        missing = [v for v in self.variables if v not in self.primes]
        pad = "    " * depth
        if missing and self.partial:
            tup = ", ".join(self.primes.get(v, "_UNKNOWN") for v in self.variables)
            lines.append(f"{pad}_out(({tup},))")
            return
        if missing:
            which = ", ".join(missing)
            lines.append(f"{pad}raise EvalError('Successor state is not completely specified by "
                         f"the next-state action. The following variable(s) are not assigned: "
                         f"{which}.', {self._span_const(span)})")
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
                and self._branches(e.args[1], env, set())):
            # TLC evaluates P, then Q as an action when P holds: every way through Q counts.
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
            inner = env
            d = depth
            for b in e.bounds:
                if b.domain is None:
                    raise CompileError("TLC cannot handle an unbounded \\E in an action", e.span)
                dom, _ = self.expr(b.domain, inner)
                binds = {}
                if b.tuple:
                    names = [self._local(n) for n in b.names]
                    lines.append(f"{'    ' * d}for ({', '.join(names)},) in enum({dom}):"
                                 f"{self._tag(b.span)}")
                    binds = {n: ("val", p) for n, p in zip(b.names, names, strict=True)}
                    d += 1
                else:
                    for n in b.names:
                        p = self._local(n)
                        lines.append(f"{'    ' * d}for {p} in enum({dom}):{self._tag(b.span)}")
                        binds[n] = ("val", p)
                        d += 1
                inner = inner.bind(binds)
            self._gen(e.body, inner, pending, lines, d)
            return
        if isinstance(e, ast.Let):
            inner = self._let_env(e, env, lines, depth)
            self._gen(e.body, inner, pending, lines, depth)
            return
        if isinstance(e, ast.OpApp) and e.op == "\\cdot" and "\\cdot" not in env.locals:
            self._gen_cdot(e, env, pending, lines, depth)
            return
        if isinstance(e, ast.Quant) and e.kind == "A" and self._branches(e.body, env, set()):
            self._gen_forall(e, env, pending, lines, depth)
            return
        if isinstance(e, ast.Ident) and e.name == "TRUE":
            pass
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
        target = self._user_def(e, env)
        if target is not None and id(target[0]) not in self._inlining:
            d, denv, args = target
            self._inlining.add(id(d))
            try:
                binds = {}
                for p, a in zip(d.params, args, strict=True):
                    if p.arity:
                        binds[p.name] = self._op_arg(a, env, p.arity)
                    elif _mentions_prime(a, self, env, set()) or self._is_variable(a, env):
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
                self._inlining.discard(id(d))
            return
        if isinstance(e, ast.InstanceRef):
            resolved = self._instance_def(e, env)
            if resolved is not None:
                d, denv, args = resolved
                # A part of a definition (`Init!1`) is expanded as a call of it would be.
                if isinstance(d, ast.OpDef) and (id(d) in self._subdef_ids
                                                 or self._is_action_level(d, denv)):
                    binds = {}
                    for p, a in zip(d.params, args, strict=True):
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
        if (sym is None or sym.module in _STANDARD or f.name in self.overrides
                or self._replacement(sym) is not None):
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
        return id(d), bounds, body, self._def_env(sym, env)

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
        params = tuple(sorted(used & _python_locals(env)))
        first = self._define_generator(body, "cdot", params)
        self._note_uses(" ".join(params))
        mids, nested = self._local("mids"), self._local("then")
        lines.append(f"{pad}{mids} = []")
        lines.append(f"{pad}{self._const_name(first)}(s, {mids}.append"
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

    def _gen_forall(self, e: ast.Quant, env: Env, pending: list, lines: list[str],
                    depth: int) -> None:
        r"""`\A x \in S : P` in an action, where P can branch: TLC evaluates it as the
        conjunction P(x1) /\ P(x2) /\ ..., so every way through each conjunct counts."""
        pad = "    " * depth
        names, doms = [], []
        for b in e.bounds:
            if b.domain is None or b.tuple:
                raise CompileError("unsupported \\A form in an action", e.span)
            dom, _ = self.expr(b.domain, env)
            for n in b.names:
                names.append(n)
                doms.append(dom)
        elems = self._local("elems")
        fn = self._local("forall")
        idx = self._local("i")
        product = ", ".join(f"enum({d})" for d in doms)
        lines.append(f"{pad}{elems} = list(itertools.product({product}))")
        lines.append(f"{pad}def {fn}({idx}):")
        lines.append(f"{pad}    if {idx} == len({elems}):")
        lines.append(f"{pad}        yield None")
        lines.append(f"{pad}        return")
        locals_ = [self._local(n) for n in names]
        lines.append(f"{pad}    ({', '.join(locals_)},) = {elems}[{idx}]")
        binds = {n: ("val", p) for n, p in zip(names, locals_, strict=True)}
        saved = dict(self.primes)
        self._gen(e.body, env.bind(binds), [("__emit__", f"yield from {fn}({idx} + 1)")],
                  lines, depth + 1)
        if self.primes != saved:
            raise CompileError("a \\A in an action may not assign primed variables", e.span)
        lines.append(f"{pad}for _ in {fn}(0):")
        self._continue(pending, lines, depth + 1, e.span)

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
        target = self._user_def(e, env)
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
                return self._var_of(e.args[0].name, env)
            return None
        if self.mode == "init" and isinstance(e, ast.Ident):
            return self._var_of(e.name, env)
        return None

    def _var_of(self, name: str, env: Env) -> str | None:
        """The root variable `name` denotes in env (following instance substitutions)."""
        if name in env.locals:
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
            return self._var_of(sub[0].name, sub[1])
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
            v = self._var_of(e.name, env)
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
            target = self._user_def(e, env)
            if target is not None and not target[0].params:
                return self._unchanged_vars(target[0].body, target[1], depth + 1)
        return None

    # -- LET ---------------------------------------------------------------------------------
    def _let_bindings(self, e: ast.Let, env: Env):
        """Compile LET definitions in order: [(name, binding, python name, init code)].

        Values are lazy (TLC evaluates a LET definition only when used, and at most once):
        `_Lazy(lambda: value)`, read with `.get()`. Constant values are computed now instead.
        Operators become lambdas `(s, t, *args)`; recursive functions `_LazyFn`s."""
        out = []
        inner = env
        self._let_flags = 0
        declared: dict[str, str] = {}  # RECURSIVE names -> their Python names
        for d in e.defs:
            if isinstance(d, ast.OpDef) and not d.params:
                code, flags = self.expr(d.body, inner)
                self._let_flags |= flags
                # The definition's body and scope ride along: an action that uses it as a
                # conjunct expands it in place, as TLC does (its \/ and \E branch).
                if flags == 0 or _trivial(code):
                    b = ("val", code, d.body, inner)
                    inner = inner.bind({d.name: b})
                    continue
                local = self._local(d.name)
                self._note_binds([local])
                b = ("lazy", local, d.body, inner)
                out.append((d.name, b, local, f"_Lazy(lambda: {code})"))
                inner = inner.bind({d.name: b})
            elif isinstance(d, ast.OpDef):
                local = declared.pop(d.name, None) or self._local(d.name)
                b = ("op", local, len(d.params))
                inner = inner.bind({d.name: b})  # visible in its own body (RECURSIVE)
                params = {p.name: ("val", self._local(p.name)) if not p.arity
                          else ("op", self._local(p.name), p.arity) for p in d.params}
                self._note_binds([local] + [pb[1] for pb in params.values()])
                body, f = self.expr(d.body, inner.bind(params))
                self._let_flags |= f
                args = ", ".join(pb[1] for pb in params.values())
                out.append((d.name, b, local, f"(lambda s, t, {args}: {body})"))
            elif isinstance(d, ast.FuncDef):
                local = self._local(d.name)
                self._note_binds([local])
                scope_of_body: list = []  # the env its body sees, for an action to expand it
                b = ("fndef", local, d, scope_of_body)
                inner = inner.bind({d.name: b})
                scope_of_body.append(inner)
                code, f = self._funcdef_value(d, inner)
                out.append((d.name, b, local, code))
                self._let_flags |= f
            elif isinstance(d, ast.Recursive):
                # Declared operators are visible to the definitions before their own, which
                # may call them (mutual recursion).
                for p in d.decls:
                    local = declared[p.name] = self._local(p.name)
                    self._note_binds([local])
                    inner = inner.bind({p.name: ("op", local, p.arity)})
            elif isinstance(d, ast.InstanceDef):  # LET M == INSTANCE Mod ...: M!Op in the body
                inner = inner.bind({d.name: ("instance", d, inner)})
            else:
                raise CompileError("this kind of LET definition is not supported yet", d.span)
        return inner, out

    def _let_env(self, e: ast.Let, env: Env, lines: list[str], depth: int) -> Env:
        """LET in an action: one assignment statement per definition."""
        inner, defs = self._let_bindings(e, env)
        for _, _, local, init in defs:
            lines.append(f"{'    ' * depth}{local} = {init}")
        return inner

    # -- expressions -------------------------------------------------------------------------
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
        if flags == 0 and not _trivial(code):
            return self._hoist(code, flags), 0
        return code, flags

    def _note_uses(self, code: str) -> None:
        if self._uses:
            self._uses[-1].update(_LOCAL_RE.findall(code))

    def _note_binds(self, names) -> None:
        if self._binds:
            self._binds[-1].update(names)

    def _hoist(self, code: str, flags: int) -> str:
        try:
            value = eval(code, self.g)  # noqa: S307 - code we generated ourselves
        except (EvalError, runtime.AssertFailure, RecursionError, ZeroDivisionError, TypeError):
            return code
        return self._const_name(value)

    def _const_name(self, value) -> str:
        if value is True or value is False or value is None:
            return repr(value)
        if type(value) is int:
            return repr(value) if value >= 0 else f"({value})"
        if type(value) is str:
            return repr(value)
        name = f"_k{next(self._counter)}"
        self.g[name] = value
        return name

    def _span_const(self, span) -> str:
        return self._const_name(("span", span)) if span is not None else "None"

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
            return "(" + op.join(c for c, _ in parts) + ")", _or(parts)
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
            return "(" + ", ".join(c for c, _ in parts) + ",)", _or(parts)
        if t is ast.SetEnum:
            parts = [self.expr(x, env) for x in e.elems]
            if not parts:
                return "_EMPTY", 0
            elems = ", ".join(c for c, _ in parts)
            if len(parts) == 1 or len({type(x) for x in e.elems}) == 1 and type(
                    e.elems[0]) in (ast.Num, ast.Str):
                return f"frozenset(({elems},))", _or(parts)
            return f"setenum(({elems},))", _or(parts)  # kinds checked at run time
        if t is ast.Record:
            names = sorted((n for n, _ in e.fields), key=runtime.tlc_key)
            parts = dict((n, self.expr(x, env)) for n, x in e.fields)
            keys = self._const_name(tuple(names))
            vals = ", ".join(parts[n][0] for n in names)
            return f"Fn(({keys}, ({vals},)))", _or(parts.values())
        if t is ast.RecordSet:
            parts = [(n, self.expr(x, env)) for n, x in e.fields]
            inner = ", ".join(f"{n!r}: {c}" for n, (c, _) in parts)
            return f"RecordSet({{{inner}}})", _or(p for _, p in parts)
        if t is ast.FuncSet:
            d, f1 = self.expr(e.domain, env)
            r, f2 = self.expr(e.codomain, env)
            return f"FuncSet({d}, {r})", f1 | f2
        if t is ast.CartProd:
            parts = [self.expr(x, env) for x in e.factors]
            return "Product((" + ", ".join(c for c, _ in parts) + ",))", _or(parts)
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
                return f"_fcall({f}, {x})", f1 | _or(args)
            args = [self.expr(a, env) for a in e.args]
            if len(args) == 1:
                return f"app({f}, {args[0][0]})", f1 | args[0][1]
            return f"app({f}, ({', '.join(c for c, _ in args)},))", f1 | _or(args)
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
            body_env, comp, flags = self._comprehension((e.bound,), env)
            body, f2 = self.expr(e.body, body_env)
            dom, f3 = self.expr(e.bound.domain, env) if e.bound.domain is not None else (None, 0)
            if dom is None:
                raise CompileError("TLC attempted to evaluate an unbounded CHOOSE.\nMake sure "
                                   "that the expression is of form CHOOSE x \\in S: P(x).",
                                   e.span)
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
            test = (f"lambda _v: (lambda {var[1:-2]}: {pred})(*_v)" if var.startswith("(")
                    else f"lambda {var}: {pred}")
            return (f"sfilter({dom}, lambda _s: frozenset([{var} for {var} in _s if {pred}]), "
                    f"{test})", flags | f2)
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
        if set_code in ("NAT", "INT", "STRING", "_EMPTY"):
            return True
        if elem_code.isidentifier() and type(self.g.get(elem_code)) is ModelValue:
            return True
        if not set_code.isidentifier() or set_code not in self.g:
            return False
        value = self.g[set_code]
        if type(value) is not frozenset:
            return isinstance(value, runtime.LazySet)
        return all(type(x) is ModelValue for x in value)

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
        if self._replacement(sym) is not None:
            return False
        key = (env.frame.ident, sym.module, name)
        known = self._bool_defs.get(key)
        if known is None:
            self._bool_defs[key] = False  # a recursive definition: not known
            known = self._is_bool(sym.node.body, self._def_env(sym, env), depth + 1)
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
        self._note_binds(_LOCAL_RE.findall(" ".join(v for v, _ in comp)))
        return env.bind(binds), comp, flags

    def _quant(self, e: ast.Quant, env: Env):
        if e.kind not in ("A", "E"):
            raise CompileError("temporal quantifiers are only allowed in properties", e.span)
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
                    flags |= _or(parts)
                    keys.append(parts[0][0] if len(parts) == 1
                                else "(" + ", ".join(c for c, _ in parts) + ",)")
            uses_at = _mentions_at(u.value)
            if uses_at:
                at = self._local("at")
                self._note_binds([at])
                v, f = self.expr(u.value, env.bind({"@": ("val", at)}))
                flags |= f
                code = f"except_path({code}, ({', '.join(keys)},), lambda {at}: {v})"
            else:
                v, f = self.expr(u.value, env)
                flags |= f
                if len(keys) == 1:
                    code = f"except_({code}, {keys[0]}, {v})"
                else:
                    code = f"except_path({code}, ({', '.join(keys)},), None, {v})"
        return code, flags

    # -- names --------------------------------------------------------------------------------
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
        self._note_uses(b[1])
        if kind == "val":
            if args:
                raise CompileError(f"{getattr(e, 'name', '?')!r} is not an operator", e.span)
            return b[1], LOCAL
        if kind == "lazy":
            return f"{b[1]}.get()", LOCAL
        if kind == "fndef":
            return (b[1] if self._raw_fn else f"{b[1]}.full()"), LOCAL
        if kind in ("op", "opcode"):
            fn = b[1] if kind == "op" else b[3]
            if not args:
                return fn, LOCAL
            return f"{fn}(s, t, {', '.join(args)})", LOCAL | STATE
        raise CompileError("internal: bad binding", getattr(e, "span", None))

    def _symbol(self, sym: Symbol, env: Env, args: tuple, e) -> tuple[str, int]:
        """Code for a module-level name applied to already-compiled args."""
        direct, self._direct = self._direct, None
        if (sym.module, sym.name) in self.module_values and not args:
            return self._const_name(self.module_values[sym.module, sym.name]), 0
        if sym.kind == "variable":
            return self._variable(sym.name, env, e)
        if sym.kind == "constant":
            if env.frame is self.root_frame:
                if sym.name in self.overrides:
                    return self._override(self.overrides[sym.name], args, e)
                if sym.name not in self.constants:
                    raise CompileError(f"the constant {sym.name!r} has no value in the "
                                       f"configuration", e.span)
                value = self.constants[sym.name]
                if args:
                    raise CompileError(f"{sym.name!r} is not an operator", e.span)
                return self._const_name(value), 0
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
        target = self._replacement(sym) if sym is not direct else None
        if target is not None:
            return self._override(target, args, e)
        if env.frame is self.root_frame and sym.name in self.constants and sym.kind in (
                "operator", "function") and not args:
            return self._const_name(self.constants[sym.name]), 0
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
                var = self._var_of(e.name, env)
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

    def _call_def(self, sym: Symbol, env: Env, args, e):
        d = sym.node
        denv = self._def_env(sym, env)
        key = (denv.frame.ident, sym.module, sym.name, self.mode == "primed")
        if isinstance(d, ast.FuncDef):
            raw, self._raw_fn = self._raw_fn, False  # its body's own applications decide
            try:
                fname, flags = self._compiled_funcdef(sym, d, denv, key)
            finally:
                self._raw_fn = raw
            if args:
                raise CompileError(f"{sym.name!r} is a function: write {sym.name}[...]", e.span)
            if raw:
                return fname, flags  # a _LazyFn, which FuncApp applies point-wise
            return f"{fname}.full()", flags
        if isinstance(d, ast.Param):  # a RECURSIVE declaration: the definition follows
            real = self.scopes[sym.module].symbols.get(sym.name)
            if real is not None and isinstance(real.node, ast.OpDef):
                d = real.node
            else:
                raise CompileError(f"no definition for RECURSIVE {sym.name!r}", e.span)
        if isinstance(d, (ast.Theorem, ast.Assume)) and d.expr is not None and not args:
            return self.expr(d.expr, denv)  # a named THEOREM or ASSUME means its statement
        if isinstance(d, ast.Theorem) and d.expr is None:  # SANY rejects it too
            raise CompileError(f"{sym.name!r} is an ASSUME ... PROVE theorem, which is not an "
                               f"expression", e.span)
        if not isinstance(d, ast.OpDef):
            raise CompileError(f"kipcheck cannot evaluate {sym.name!r} (a "
                               f"{type(d).__name__})", e.span)
        what = "var" if self.mode in ("init", "primed") else "prime"
        if self.mode in ("action", "init", "primed") and _mentions_prime(d.body, self, denv,
                                                                           set(), what):
            # Action-level definitions are expanded where they are used.
            binds = {}
            for p, a in zip(d.params, args, strict=True):
                binds[p.name] = ("val", a) if not p.arity else ("op", a, p.arity)
            code, flags = self.expr(d.body, denv.bind(binds))
            return code, flags | STATE
        if not denv.frame.cacheable and id(d) not in self._inlining:
            # A definition of a parametrized INSTANCE (P(Succ)!Op) reads the instance's
            # arguments, which may be the caller's bound names: compiled in place.
            binds = {}
            for p, a in zip(d.params, args, strict=True):
                binds[p.name] = ("val", a) if not p.arity else ("op", a, p.arity)
            self._inlining.add(id(d))
            try:
                return self.expr(d.body, denv.bind(binds))
            finally:
                self._inlining.discard(id(d))
        fname, flags = self._compiled_def(d, denv, key)
        if not d.params:
            if flags == 0:
                return fname, 0
            return f"{fname}(s, t)", flags
        return f"{fname}(s, t, {', '.join(args)})", flags

    def _compiled_def(self, d: ast.OpDef, denv: Env, key):
        hit = self._defs.get(key) if denv.frame.cacheable else None
        if hit is not None:
            return hit
        fname = _pyname("op", d.name, next(self._counter))
        params = {}
        for p in d.params:
            local = self._local(p.name)
            params[p.name] = ("op", local, p.arity) if p.arity else ("val", local)
        # Register first so recursive calls find it.
        self._defs[key] = (fname, STATE)
        keep = self.mode == "primed"  # a definition primed as a whole reads the next state
        with self._mode("primed" if keep else "expr", self.primes if keep else None):
            body, flags = self.expr(d.body, denv.bind(params))
        flags &= ~LOCAL
        plist = ", ".join(b[1] for b in params.values())
        self._define(f"def {{name}}(s, t{', ' if plist else ''}{plist}):\n"
                     f"    return {body}{self._tag(d.body.span)}\n", fname)
        if not d.params and flags & ~READS == 0:
            # A constant definition: compute it once (one that reads a file only if the file
            # can be read now; else each time it is used, as before). TLC too draws its
            # RandomElement once.
            try:
                value = self.g[fname](None, None)
            except (EvalError, runtime.AssertFailure, RecursionError):
                self._defs[key] = (fname, flags or STATE)
                return fname, flags or STATE
            const = self._const_name(value)
            self._defs[key] = (const, 0)
            return const, 0
        # With parameters, a definition that reads no state is a pure function of its
        # arguments: a call with constant arguments is itself constant (and computed once),
        # and one that loops or calls others remembers what it returned (see memo.py).
        if (flags == 0 and d.params and not any(p.arity for p in d.params)
                and _LOOPS_RE.search(body)):
            self.g[fname] = memoised(self.g[fname], fname, self.g)
        result = (fname, flags)
        self._defs[key] = result
        return result

    def _compiled_funcdef(self, sym: Symbol, d: ast.FuncDef, denv: Env, key):
        hit = self._defs.get(key)
        if hit is not None:
            return hit
        fname = _pyname("fn", d.name, next(self._counter))
        with self._mode("expr", None):
            value_code, flags = self._funcdef_value(d, denv)
        if flags == 0:
            # Depends on no state: one function for the whole run, filled in as it is applied.
            const = self._const_name(eval(value_code, self.g))  # noqa: S307
            self._defs[key] = (const, 0)
            return const, 0
        # The function's value depends on the state: keep the one for the latest state.
        self._define(f"def {{name}}(s, t, _last=[None, None, None]):\n"
                     f"    if _last[2] is None or _last[0] is not s or _last[1] is not t:\n"
                     f"        _last[0], _last[1], _last[2] = s, t, None\n"
                     f"        _last[2] = {value_code}\n"
                     f"    return _last[2]\n", fname)
        result = (f"{fname}(s, t)", STATE)
        self._defs[key] = result
        return result

    def _funcdef_value(self, d: ast.FuncDef, env: Env) -> tuple[str, int]:
        """A recursive function definition's value: a _LazyFn applied point-wise, whose body
        receives the function itself as its first argument (so it may call itself). Returns
        the code and its dependency flags (LOCAL only for names bound outside it)."""
        me = self._local(d.name)
        self._uses.append(set())
        self._binds.append(set())
        self._note_binds([me])
        body_env, comp, dom_flags = self._comprehension(d.bounds,
                                                        env.bind({d.name: ("fndef", me)}))
        val, body_flags = self.expr(d.body, body_env)
        used, bound = self._uses.pop(), self._binds.pop()
        free = used - bound
        if self._uses:
            self._uses[-1] |= free
        flags = ((dom_flags | body_flags) & ~LOCAL) | (LOCAL if free else 0)
        if len(comp) == 1 and not comp[0][0].startswith("("):
            v, dom = comp[0]
            return f"_LazyFn({dom}, lambda {me}, {v}: {val})", flags
        if len(comp) == 1:
            v, dom = comp[0]
            return f"_LazyFn({dom}, lambda {me}, _k: (lambda {v[1:-2]}: {val})(*_k))", flags
        names = ", ".join(v for v, _ in comp)
        doms = ", ".join(dm for _, dm in comp)
        return (f"_LazyFn(Product(({doms},)), lambda {me}, _k: (lambda {names}: {val})(*_k))",
                flags)

    def _def_env(self, sym: Symbol, env: Env) -> Env:
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

    def _instance_def(self, e: ast.InstanceRef, env: Env):
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
            denv = self._def_env(sym, env) if sym.module in self.scopes else env
        params = {}
        for p, a in zip(idef.params, first_args, strict=True):
            code, _ = self.expr(a, env)
            params[p.name] = ("val", code)
        frame = self._make_frame(idef.instance, denv if not params else denv, params)
        scope = self.scopes[idef.instance.module]
        cur = Env(scope, frame, {})
        for name, args in e.path[1:]:
            inner = scope.exports.get(name)
            idef2 = inner.node
            ps = {}
            for p, a in zip(idef2.params, args, strict=True):
                code, _ = self.expr(a, env)
                ps[p.name] = ("val", code)
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
        resolved = self._instance_def(e, env)
        if resolved is None:
            raise CompileError(f"cannot resolve {first}!{e.name}", e.span)
        d, denv, args = resolved
        op_sym = denv.scope.symbols.get(e.name) or self._find_symbol(d, denv)
        compiled_args = [self.expr(a, env) for a in args]
        flags = _or(compiled_args)
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
        if first in env.locals or not all(_is_selector(n) for n in sels):
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
                body = _operand(body, n, e.span)
            sub = self._subdefs[key] = ast.OpDef(f"{first}!{'!'.join(sels)}", (), body,
                                                 span=body.span)
            self._subdef_ids.add(id(sub))
        denv = self._def_env(sym, env)
        if params:
            denv = denv.bind({p.name: ("expr", a, env) for p, a in zip(params, first_args,
                                                                         strict=True)})
        return sub, denv, ()

    def _opapp(self, e: ast.OpApp, env: Env):
        op = e.op
        b = env.locals.get(op)
        if b is not None:
            args = [self.expr(a, env) for a in e.args]
            code, f = self._use_binding(b, e, tuple(c for c, _ in args))
            return code, f | _or(args)
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
                param = self._param_arity(sym, i)
                if param:
                    b2 = self._op_arg(a, env, param)
                    code, f = b2[1], LOCAL
                else:
                    code, f = self.expr(a, env)
            args.append(code)
            flags |= f
        code, f = self._symbol(sym, env, tuple(args), e)
        return code, flags | f

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
            return ("op", f"(lambda s, t, {plist}: {body})", arity)
        if isinstance(a, ast.Ident):
            b = env.locals.get(a.name)
            if b is not None and b[0] in ("op", "opcode"):
                return b
            sym = env.scope.symbols.get(a.name)
            names = [self._local(f"a{i}") for i in range(arity)]
            self._note_binds(names)
            if sym is None:
                fake = ast.OpApp(a.name, tuple(ast.Ident(n, span=a.span) for n in names),
                                 span=a.span)
            else:
                fake = ast.OpApp(a.name, tuple(ast.Ident(n, span=a.span) for n in names),
                                 span=a.span)
            binds = {n: ("val", n) for n in names}
            body, f = self.expr(fake, env.bind(binds))
            if flags_out is not None:
                flags_out.append(f)
            return ("op", f"(lambda s, t, {', '.join(names)}: {body})", arity)
        raise CompileError("expected an operator as this argument", a.span)

    def _op_value(self, a, env: Env):
        """An operator argument for a native operator: a callable of plain values. It
        depends on the state or on bound names only if its body does (a LAMBDA that reads
        neither leaves a constant definition such as a trace spec's log constant)."""
        self._uses.append(set())
        self._binds.append(set())
        flags: list = []
        try:
            b = self._op_arg(a, env, _lambda_arity(a, env), flags)
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

    def _builtin(self, e: ast.OpApp, env: Env):
        op, args = e.op, e.args
        if op == "'":
            return self._primed(args[0], env)
        if op == "UNCHANGED":
            a, f1 = self.expr(args[0], env)
            p, f2 = self._primed(args[0], env)
            return f"({p} == {a})", f1 | f2
        if op == "ENABLED":
            return self._enabled(args[0], env)
        if op in ("[]", "<>", "~>", "-+->", "\\cdot"):
            raise CompileError(f"the temporal operator {op} is only allowed in properties",
                               e.span)
        whys = _BOOL_OPERANDS.get(op)
        if whys is not None:
            parts = [self.cond(a, env, w) for a, w in zip(args, whys, strict=True)]
            flags = _or(parts)
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
        flags = _or(parts)
        c = [p[0] for p in parts]
        if op == "=":
            return f"eq({c[0]}, {c[1]})", flags
        if op == "#":
            return f"(not eq({c[0]}, {c[1]}))", flags
        if op in ("\\in", "\\notin"):
            neg = "not_" if op == "\\notin" else ""
            if self._plain_membership(c[0], c[1]):
                return f"({c[0]} {'not in' if neg else 'in'} {c[1]})", flags
            if parts[0][1] == 0 and c[0].isidentifier() and c[0] in self.g:
                # A constant element: the shape its kind check needs is computed once.
                shape = self._const_name(runtime.shape_of(self.g[c[0]]))
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

    def _enabled(self, a, env: Env) -> tuple[str, int]:
        """`ENABLED A`: A compiled as a generator that stops at its first successor. The
        Python locals A reads (bound names of the enclosing expression) are passed in."""
        body, used = self._enabled_body(a, env)
        params = tuple(sorted(used & _python_locals(env)))
        fn = self._define_generator(body, "enabled", params)
        extra = "".join(f", {p}" for p in params)
        self._note_uses(extra)
        return f"enabled({self._const_name(fn)}, s{extra})", STATE | (LOCAL if params else 0)

    # -- helpers ------------------------------------------------------------------------------
    def _local(self, name: str) -> str:
        return _pyname("v", name, next(self._counter))

    def _const_value(self, e, env: Env):
        """Evaluate a constant-level expression now, or raise _NotConstant."""
        with self._mode("expr", None):
            code, flags = self.expr(e, env)
        if flags:
            raise _NotConstant
        try:
            return eval(code, self.g)  # noqa: S307
        except NameError:
            raise _NotConstant from None
        except (EvalError, TypeError) as err:
            raise _NotConstant from err

    def _define(self, src: str, name: str):
        fname = name if name.isidentifier() and name not in self.g else _pyname(
            "f", name, next(self._counter))
        code = src.replace("{name}", fname)
        self.g["_U"] = _U
        self.g["_Lazy"] = _Lazy
        self.g["_LazyFn"] = _LazyFn
        try:
            exec(compile(code, f"<kipcheck:{fname}>", "exec"), self.g)  # noqa: S102
        except SyntaxError as err:  # pragma: no cover - a compiler bug
            raise CompileError(f"internal: generated code does not compile ({err}):\n{code}"
                               ) from err
        self.sources[fname] = code
        for lineno, line in enumerate(code.splitlines(), 1):
            m = _TAG_RE.search(line)
            if m:
                self.line_spans[(f"<kipcheck:{fname}>", lineno)] = self.spans[int(m.group(1))]
        return self.g[fname]

    def _tag(self, span) -> str:
        """A trailing comment tying a generated line to the TLA+ it came from."""
        if span is None:
            return ""
        self.spans.append(span)
        return f"  # @span:{len(self.spans) - 1}"

    def span_of(self, exc: BaseException):
        """The TLA+ span of the innermost generated line an exception passed through."""
        found = None
        tb = exc.__traceback__
        while tb is not None:
            key = (tb.tb_frame.f_code.co_filename, tb.tb_lineno)
            if key in self.line_spans:
                found = self.line_spans[key]
            tb = tb.tb_next
        return found



class _NotConstant(Exception):
    pass


class _Unset:
    __slots__ = ()

    def __repr__(self):
        return "<unset>"


_U = _Unset()


class _Lazy:
    """A LET definition's value: computed on first use, then remembered."""

    __slots__ = ("make", "value")

    def __init__(self, make):
        self.make = make
        self.value = _U

    def get(self):
        if self.value is _U:
            self.value = self.make()
        return self.value


class _LazyFn(runtime.LazySet):
    """f[x \\in S] == body: applied point-wise (so recursion terminates), built on demand."""

    finite = True

    def __init__(self, domain, body):
        self.domain = domain
        self.body = body
        self.cache = {}
        self._full = None

    def __call__(self, x):
        return self.apply(x)

    def apply(self, x):
        if x in self.cache:
            return self.cache[x]
        if x not in self.domain:
            raise EvalError(f"Attempted to apply the recursively defined function to {show(x)}, "
                            f"which is not in its domain.")
        v = self.body(self, x)
        self.cache[x] = v
        return v

    def full(self):
        if self._full is None:
            self._full = runtime.make_fn((k, self.apply(k)) for k in runtime.enum(self.domain))
        return self._full

    def __eq__(self, other):
        return self.full() == (other.full() if isinstance(other, _LazyFn) else other)

    def __hash__(self):
        return hash(self.full())

    def __repr__(self):
        return show(self.full())


def _fix(make):
    """A recursive LET operator outside an action: make(self) builds the operator's lambda
    from a stand-in that calls the finished operator."""
    cell = []
    op = make(lambda *args: cell[0](*args))
    cell.append(op)
    return op


def _fcall(f, x):
    return f.apply(x) if isinstance(f, _LazyFn) else runtime.app(f, x)


def _lambda_arity(a, env: Env) -> int:
    if isinstance(a, ast.Lambda):
        return len(a.params)
    if isinstance(a, ast.Ident):
        b = env.locals.get(a.name)
        if b is not None and b[0] in ("op", "opcode"):
            return b[2]
        sym = env.scope.symbols.get(a.name)
        if sym is not None:
            return sym.arity
    return 1


def _except_path(f, keys, fun, value=None):
    """[f EXCEPT ![k1][k2]... = v]; `fun`, if given, computes v from the old value (`@`)."""
    k = keys[0]
    if len(keys) == 1:
        if fun is None:
            return runtime.except_(f, k, value)
        try:
            old = runtime.app(f, k)
        except EvalError:
            return f
        return runtime.except_(f, k, fun(old))
    try:
        inner = runtime.app(f, k)
    except EvalError:
        return f
    return runtime.except_(f, k, _except_path(inner, keys[1:], fun, value))


def _unassigned(name: str):
    raise EvalError(f"The variable {name} was used before it was assigned a value.")


def _case_fail(span):
    raise EvalError("Attempted to evaluate a CASE with no conditions true.",
                    span[1] if isinstance(span, tuple) else span)


def _not_enumerable(v):
    raise EvalError(f"TLC cannot enumerate {show(v)}")


def _print_t(v):
    print(show(v), flush=True)
    return True


# What TLCGet("config") and TLCGet("stats") report: the run's settings (set when the model is
# built and the search starts) and, once the search is over, its statistics.
RUN: dict = {"deadlock": True, "workers": 1, "stats": None, "live": None}
_STATS = ("queue", "distinct", "generated", "diameter", "duration")


def _run_config():
    """TLC's record for a breadth-first model check; kipcheck's search is deterministic (seed
    0) and fingerprints states with xxHash3-64."""
    return make_fn([("mode", "bfs"), ("deadlock", bool(RUN["deadlock"])),
                    ("worker", RUN["workers"]), ("seed", "0"), ("fingerprint", "xxh3-64"),
                    ("install", str(Path(__file__).resolve().parent.parent))])

# TLCGet("-Dprop"): the Java system properties of TLC's that kipcheck's behaviour matches.
_TLC_PROPERTIES = {"-Dtlc2.tool.impl.Tool.cdot": "true"}  # action composition A \cdot B


def _tlc_get(key):
    if key in _TLC_PROPERTIES:
        return _TLC_PROPERTIES[key]
    if key == "level":
        return _LEVEL[0]
    if key == "config":
        return _run_config()
    stats = RUN["stats"]
    if stats is None and RUN["live"] is not None:  # during the search: its counts so far
        stats = RUN["live"]()
    if stats is not None and (key == "stats" or key in _STATS):
        return make_fn(stats.items()) if key == "stats" else stats[key]
    if key in runtime.TLC_REGISTERS:
        return runtime.TLC_REGISTERS[key]
    if key == "stats" or key in _STATS:
        raise EvalError(f"TLCGet({show(key)}) is only supported after the search, in a "
                        f"POSTCONDITION")
    raise EvalError(f"TLCGet({show(key)}) is not supported")


def _tlc_set(key, value):
    runtime.TLC_REGISTERS[key] = value
    return True


def _random_element(s):
    import random

    elems = runtime.ordered(runtime.as_set(s))
    if not elems:
        raise EvalError("RandomElement of the empty set")
    return random.choice(elems)


class _AnySet(runtime.LazySet):
    def __contains__(self, x):
        return True

    def __repr__(self):
        return "Any"


_ANY = _AnySet()
_LEVEL = [0]
_BOOL_OPERANDS = {"\\land": (B_AND_P, B_AND_Q), "\\lor": (B_OR_P, B_OR_Q), "\\lnot": (B_NOT,),
                  "=>": (B_IMPLIES_P, B_IMPLIES_Q), "\\equiv": (B_EQUIV, B_EQUIV)}
_STANDARD = {"Naturals", "Integers", "Reals", "Sequences", "FiniteSets", "Bags", "TLC", "TLAPS",
             "Randomization", *community.MODULES}


def _or(parts) -> int:
    flags = 0
    for p in parts:
        flags |= p[1]
    return flags


_TRIVIAL_RE = re.compile(r"-?\d+|'[^']*'|\"[^\"]*\"|\(-\d+\)")


def _trivial(code: str) -> bool:
    """Code that is already as cheap as a constant's name: nothing to gain by hoisting it."""
    return code.isidentifier() or _TRIVIAL_RE.fullmatch(code) is not None


def _mentions_at(e) -> bool:
    if isinstance(e, ast.At):
        return True
    if isinstance(e, ast.Except):
        return _mentions_at(e.func)  # a nested EXCEPT's @ is its own
    if isinstance(e, ast.Node):
        return any(_mentions_at(getattr(e, f)) for f in e.__dataclass_fields__ if f != "span")
    if isinstance(e, tuple):
        return any(_mentions_at(x) for x in e)
    return False


def _is_selector(name: str) -> bool:
    return name.isdigit() or name in (":", "<<", ">>")


def _operands(e) -> tuple:
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


def _operand(e, sel: str, span):
    """The part of e that one selector of a subexpression name picks."""
    if sel == ":":
        return e
    ops = _operands(e)
    n = 1 if sel == "<<" else 2 if sel == ">>" else int(sel)
    if not 1 <= n <= len(ops):
        raise CompileError(f"Nonexistent operand specified by `argument selector {sel}'", span)
    return ops[n - 1]


def _mentions_prime(e, comp: Compiler, env: Env, seen: set, what: str = "prime") -> bool:
    """Does e (through the definitions it calls) contain a prime or UNCHANGED? With
    what="var": does it read a state variable at all?"""
    if isinstance(e, ast.OpApp):
        if e.op == "ENABLED" and "ENABLED" not in env.locals:
            return what == "var"  # state-level: it reads variables, its primes are its own
        if e.op in ("'", "UNCHANGED") and e.op not in env.locals:
            return True
        if any(_mentions_prime(a, comp, env, seen, what) for a in e.args):
            return True
        return _def_mentions_prime(e.op, comp, env, seen, what)
    if isinstance(e, ast.Ident):
        if what == "var" and e.name not in env.locals:
            sym = env.scope.symbols.get(e.name)
            if sym is not None and sym.kind == "variable":
                return True
        return _def_mentions_prime(e.name, comp, env, seen, what)
    if isinstance(e, (ast.BoxAction, ast.AngleAction)):
        return True
    if isinstance(e, ast.InstanceRef):
        resolved = comp._instance_def(e, env) if e.path[0][0] not in env.locals else None
        if resolved is not None:
            d, denv, _ = resolved
            if isinstance(d, ast.OpDef) and _mentions_prime(d.body, comp, denv, seen, what):
                return True
        return any(_mentions_prime(a, comp, env, seen, what) for a in e.args)
    if isinstance(e, ast.Node):
        for f in e.__dataclass_fields__:
            if f != "span" and _mentions_prime(getattr(e, f), comp, env, seen, what):
                return True
        return False
    if isinstance(e, tuple):
        return any(_mentions_prime(x, comp, env, seen, what) for x in e)
    return False


def _def_mentions_prime(name: str, comp: Compiler, env: Env, seen: set,
                        what: str = "prime") -> bool:
    b = env.locals.get(name)
    if b is not None:  # a LET definition of a temporal formula: look into its body
        if b[0] == "def" and id(b[1]) not in seen:
            seen.add(id(b[1]))
            return _mentions_prime(b[1].body, comp, b[2], seen, what)
        return False
    sym = env.scope.symbols.get(name)
    if sym is None or sym.module in _STANDARD:
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
        result = _mentions_prime(d.body, comp, comp._def_env(sym, env), seen, what)
    elif sym.kind in ("constant", "variable") and env.frame is not comp.root_frame:
        sub = env.frame.subst.get(name)
        if sub is not None and isinstance(sub[0], ast.Node):
            result = _mentions_prime(sub[0], comp, sub[1], seen, what)
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


def _python_locals(env: Env) -> set[str]:
    """The Python locals that an environment's bound names compile to."""
    out: set[str] = set()
    for b in env.locals.values():
        if b[0] in ("expr", "def"):
            out |= _python_locals(b[2])
        else:
            out.update(x for x in b[1:] if type(x) is str and _LOCAL_RE.fullmatch(x))
    return out


UNDECIDED_ENABLED = ("kipcheck cannot decide ENABLED here: the action reads the next value of a "
                     "variable before it assigns it (TLC stops too: the variable is undefined in "
                     "the next state ENABLED builds).")


class _Enabled(Exception):
    """Raised by ENABLED's generator at its first successor."""


def _stop_enabled(_t):
    raise _Enabled


def _run_enabled(fn, s, *args) -> bool:
    try:
        fn(s, _stop_enabled, *args)
    except _Enabled:
        return True
    except UnknownUsed:
        raise EvalError(UNDECIDED_ENABLED) from None
    return False


_TAG_RE = re.compile(r"# @span:(\d+)$")
# Code that loops (comprehensions, quantifiers, CHOOSE) or calls another definition.
_LOOPS_RE = re.compile(r"\bfor\b|\blambda\b|\bchoose\(|\bop\d+_")
_INT_LITERAL_RE = re.compile(r"-?\d+|\(-\d+\)")
_LOCAL_RE = re.compile(r"\bv\d+_\w*")
