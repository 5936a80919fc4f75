"""What every part of the compiler shares: environments and frames (what a name means where it
is compiled), the dependency flags of compiled code, the names of generated Python locals, and
the error compiling raises."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..frontend.errors import Span
from ..frontend.resolve import ModuleScope

STATE, NEXT, LOCAL, IMPURE, READS = 1, 2, 4, 8, 16  # dependency flags of compiled code
LOCAL_RE = re.compile(r"\bv\d+_\w*")  # the Python locals of generated code (see pyname)


class CompileError(Exception):
    """Something kipcheck cannot (yet) evaluate, found while compiling; has a span."""

    def __init__(self, message: str, span: Span | None = None):
        super().__init__(message)
        self.message = message
        self.span = span


class NotConstant(Exception):
    """An expression the compiler was asked to evaluate now reads the state or bound names."""


@dataclass
class Frame:
    """One instantiation: constant/variable name -> (expression, env it is compiled in)."""

    subst: dict
    ident: int
    cacheable: bool = True


@dataclass
class Env:
    """Where an expression is compiled: the module scope it sees, the instance frame it is
    reached through, and the names bound around it (LET, quantifiers, parameters)."""

    scope: ModuleScope
    frame: Frame
    locals: dict = field(default_factory=dict)  # name -> binding tuple

    def bind(self, names: dict) -> Env:
        return Env(self.scope, self.frame, {**self.locals, **names})


def union_flags(parts) -> int:
    """The dependency flags of compiled parts [(code, flags)] together."""
    flags = 0
    for p in parts:
        flags |= p[1]
    return flags


def pyname(prefix: str, name: str, n: int) -> str:
    """A fresh Python name for a TLA+ name: unique by n, readable in generated code."""
    return f"{prefix}{n}_" + re.sub(r"\W", "_", name)


def python_locals(env: Env, _frames: set | None = None) -> set[str]:
    """The Python locals that an environment's bound names compile to, and those its instance
    frame's substitutions read (`I(k) == INSTANCE M WITH c <- f[k]` seen from I(k)'s
    definitions, where k is the caller's bound name, passed by name)."""
    frames = set() if _frames is None else _frames
    out: set[str] = set()
    for b in env.locals.values():
        if b[0] in ("expr", "def"):
            out |= python_locals(b[2], frames)
        else:
            out.update(x for x in b[1:] if type(x) is str and LOCAL_RE.fullmatch(x))
    if id(env.frame) not in frames:
        frames.add(id(env.frame))
        for sub in env.frame.subst.values():
            out |= python_locals(sub[1], frames)
    return out

