"""Compile a resolved TLA+ spec into Python source, then into Python functions.

Expressions become Python expressions over the runtime helpers; operator definitions become
Python functions `(s, t, *args)` (s: current state tuple, t: next state tuple or None);
actions become generator functions `(s) -> next-state tuples` written as nested loops and
guards, enumerating exactly as TLC does: conjuncts left to right, `x' = e` binds the first
time and tests after, `x' \\in S` and `\\E` iterate in TLC's set order, disjuncts left to right.
Anything that depends on neither state nor bound names is computed once, when compiling.

Name lookup follows the module structure: a frame holds one instance's substitutions (the root
frame binds constants from the .cfg and variables to the state), a scope says what a module sees.

`Compiler` is this module's facade: its state, the entry points for predicates, and the plumbing
that turns generated source into functions. The rest of the compiler is one part per job, each
a mixin of Compiler in its own module:

- compile_actions.py: successor generators (Init, actions, Next's split, `expand`);
- compile_enabled.py: ENABLED;
- compile_incremental.py: invariants checked on a successor, the variables an expression reads;
- compile_exprs.py: expressions; compile_names.py: names and operator applications;
- compile_defs.py: definitions, replacements and LET; compile_instances.py: INSTANCE;
- constant_fold.py: constants computed while compiling.

Beside them: scope.py (environments, frames, dependency flags, CompileError), natives.py (the
standard modules' operators), analysis.py (static questions about expressions) and
codegen_runtime.py (the helpers generated code calls).
"""
from __future__ import annotations

import itertools
import marshal
import re
from contextlib import contextmanager

from ..frontend.remembered import Remembered
from ..frontend.resolve import ModuleScope
from . import bags, community, runtime
from . import codegen_runtime as rt
from .compile_actions import ActionsMixin
from .compile_defs import DefsMixin
from .compile_enabled import EnabledMixin
from .compile_exprs import ExprsMixin
from .compile_folds import FoldsMixin
from .compile_incremental import IncrementalMixin
from .compile_instances import InstancesMixin
from .compile_names import NamesMixin
from .constant_fold import ConstantFoldMixin
from .runtime import B_VALUE
from .scope import IMPURE, NEXT, READS, STATE, CompileError, Env, Frame, pyname
from .share import share_within
from .values import NULL, UNKNOWN, NotAssigned


class Compiler(ActionsMixin, EnabledMixin, IncrementalMixin, DefsMixin, FoldsMixin,
               InstancesMixin, NamesMixin, ExprsMixin, ConstantFoldMixin):
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
        self.g.update((name, getattr(bags, name)) for name in bags.__all__)
        self.g["itertools"] = itertools
        self.g.update(tlc_print_t=rt.print_t, tlc_get=rt.tlc_get, tlc_set=rt.tlc_set,
                      random_element=rt.random_element, ANY=rt.ANY, _unassigned=rt.unassigned,
                      _case_fail=rt.case_fail, _EMPTY=frozenset(), except_path=rt.except_path,
                      except2=rt.except2, except_at=rt.except_at,
                      _fcall=rt.fcall, _fix=rt.fix, enabled=rt.run_enabled)
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
        self._unrolled = 0  # recursive calls with constant arguments expanded (see _gen)
        # id(LET binding) -> (binding, the mode its value was compiled in): a LET definition
        # used under a prime it was not compiled under is compiled again there (see
        # compile_names._use_binding)
        self._binding_modes: dict = {}
        self._primed_bodies: dict = {}  # (id(definition), frame) -> (it, does it prime?)
        self._subdefs: dict = {}  # (id(definition), selectors) -> its subexpression as a def
        self._subdef_ids: set = set()
        self._lambda_defs: dict = {}  # id(LAMBDA) -> (it, it as a definition)
        self._cdot_nesting = 0  # inside an A \cdot B being compiled
        self.uses_cdot = False
        self.g["_CDOT"] = [0]  # intermediate states of A \cdot B, counted as TLC counts them
        self._fn_gens: dict = {}  # lazy functions whose body an action is enumerating: name
        self._uses: list[set] = []
        self._binds: list[set] = []
        self.mode = "expr"  # expr | action | init: how variables and primes compile
        self.primes: dict | None = None  # var -> python local, in action/init mode
        # Constant code may call a definition as f(s, t, ...); evaluated once at compile time,
        # it has no state (generated functions take s and t as parameters).
        self.g["s"] = self.g["t"] = None
        self.g["_UNKNOWN"] = UNKNOWN
        self.g.update(_NULL=NULL, _NotAssigned=NotAssigned)  # a successor left incomplete
        self.g.update(_U=rt.UNSET, _Lazy=rt.Lazy, _LazyFn=rt.LazyFn)  # constant code may need them
        self.partial = False  # compiling ENABLED: unassigned primes are unknown, not errors
        # Compiling an ENABLED written in an instantiated module: the frame whose variables
        # are the unknowns, and their keys -> (name, env) (see compile_enabled.py).
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

    def root_env(self) -> Env:
        """The env of the root module's definitions."""
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

    def _local(self, name: str) -> str:
        """A fresh Python local for a bound name."""
        return pyname("v", name, next(self._counter))

    def _define(self, src: str, name: str):
        fname = name if name.isidentifier() and name not in self.g else pyname(
            "f", name, next(self._counter))
        code = share_within(src.replace("{name}", fname), self.g)
        try:
            exec(_compiled(code, f"<kipcheck:{fname}>"), self.g)  # noqa: S102
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


_TAG_RE = re.compile(r"# @span:(\d+)$")
_COMPILED = Remembered("compile", 8192, marshal.dumps, marshal.loads)  # (code, file) -> code


def _compiled(code: str, filename: str):
    """Python's compile, remembered: code objects are immutable and exec makes new functions
    from them, so each function is compiled once per process (see frontend/remembered.py)."""
    return _COMPILED.value((code, filename), lambda: compile(code, filename, "exec"))
