"""ENABLED A: A compiled as a successor generator in which variables A leaves unassigned are
unknown, run until its first successor (see codegen_runtime.run_enabled); written in an
instantiated module, the instance's own variables are the ones a step binds."""
from __future__ import annotations

from ..frontend import ast
from .scope import LOCAL, STATE, Env, python_locals


class EnabledMixin:
    """Compiler part: ENABLED, as an expression and as a generator for fairness."""

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

    def _enabled(self, a, env: Env) -> tuple[str, int]:
        """`ENABLED A`: A compiled as a generator that stops at its first successor. The
        Python locals A reads (bound names of the enclosing expression) are passed in."""
        body, used = self._enabled_body(a, env)
        params = tuple(sorted(used & python_locals(env)))
        fn = self._define_generator(body, "enabled", params)
        extra = "".join(f", {p}" for p in params)
        self._note_uses(extra)
        return f"enabled({self.const_name(fn)}, s{extra})", STATE | (LOCAL if params else 0)
