"""Constant hoisting: compiled code that depends on neither the state nor bound names is
evaluated once, while compiling, and replaced by the name of its value (`_kN`), so the search
never computes it again."""
from __future__ import annotations

import re

from . import runtime
from .scope import Env, NotConstant
from .values import EvalError


class ConstantFoldMixin:
    """Compiler part: constants computed at compile time and named in generated code."""

    def _hoist(self, code: str) -> str:
        """Constant code's value, named; the code itself when evaluating it fails now (the
        error is the search's to report, where the expression is evaluated)."""
        try:
            value = eval(code, self.g)  # noqa: S307 - code we generated ourselves
        except (EvalError, runtime.AssertFailure, RecursionError, ZeroDivisionError, TypeError):
            return code
        return self.const_name(value)

    def const_name(self, value) -> str:
        """Code naming a value computed while compiling: a literal for a Boolean, an integer
        or a string, else a fresh `_kN` bound to it in the generated code's namespace."""
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
        """A span as a constant of generated code, for the errors it raises."""
        return self.const_name(("span", span)) if span is not None else "None"

    def const_value(self, e, env: Env):
        """Evaluate a constant-level expression now, or raise NotConstant."""
        with self._mode("expr", None):
            code, flags = self.expr(e, env)
        if flags:
            raise NotConstant
        try:
            return eval(code, self.g)  # noqa: S307
        except NameError:
            raise NotConstant from None
        except (EvalError, TypeError) as err:
            raise NotConstant from err


_TRIVIAL_RE = re.compile(r"-?\d+|'[^']*'|\"[^\"]*\"|\(-\d+\)")


def trivial(code: str) -> bool:
    """Code that is already as cheap as a constant's name: nothing to gain by hoisting it."""
    return code.isidentifier() or _TRIVIAL_RE.fullmatch(code) is not None
