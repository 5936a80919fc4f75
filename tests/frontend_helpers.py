"""Shared helpers for the front-end tests: wrap bodies in modules, build expected AST nodes.

Spans take no part in AST equality, so expected trees are built with a dummy span and compare
equal to what the parser produces wherever the text was.
"""

from __future__ import annotations

import pytest

from checker.frontend import ast
from checker.frontend.errors import KipcheckError, Span, SpecError
from checker.frontend.modules import Loader, ModuleSet
from checker.frontend.parser import parse_module
from checker.frontend.resolve import ModuleScope, resolve

S0 = Span("", 0, 0)
FILE = "M.tla"


def module(body: str, extends: str | None = "Naturals", name: str = "M") -> str:
    """`body` as the text of a module M (EXTENDS Naturals unless told otherwise)."""
    ext = f"EXTENDS {extends}\n" if extends else ""
    return f"---- MODULE {name} ----\n{ext}{body}\n===="


def parse(body: str, **kw) -> ast.Module:
    return parse_module(module(body, **kw), FILE)


def units(body: str, **kw) -> tuple:
    return parse(body, **kw).units


def unit(body: str, **kw):
    us = units(body, **kw)
    assert len(us) == 1, us
    return us[0]


def expr(text: str):
    """The tree of expression `text` (parsed as the body of `E == text`)."""
    d = unit(f"E == {text}")
    assert isinstance(d, ast.OpDef) and d.name == "E"
    return d.body


def load(body: str, directory=".", **kw) -> ModuleSet:
    return Loader().load_text(module(body, **kw), FILE, directory)


def check(body: str, **kw) -> ModuleScope:
    """Parse and resolve `body` as module M; return M's scope."""
    return resolve(load(body, **kw))["M"]


def spec_error(body: str, **kw) -> SpecError:
    """The SpecError that parsing and resolving `body` as module M raises."""
    with pytest.raises(KipcheckError) as info:
        resolve(load(body, **kw))
    err = info.value
    assert type(err) is SpecError, err
    assert err.exit_code == 150
    return err


# -- expected-tree builders -------------------------------------------------------------------


def I(name: str) -> ast.Ident:  # noqa: E743 - reads like the node it builds
    return ast.Ident(name, span=S0)


def N(value: int) -> ast.Num:
    return ast.Num(value, span=S0)


def Op(op: str, *args) -> ast.OpApp:
    return ast.OpApp(op, tuple(args), span=S0)


def And(*items, col: int) -> ast.Junction:
    return ast.Junction("and", tuple(items), col, span=S0)


def Or(*items, col: int) -> ast.Junction:
    return ast.Junction("or", tuple(items), col, span=S0)


def Bnd(names: str, domain=None, tup: bool = False) -> ast.Bound:
    """Bnd("x y", I("S")) is `x, y \\in S`; tup=True makes it `<<x, y>> \\in S`."""
    return ast.Bound(tuple(names.split()), tup, domain, span=S0)


def P(name: str, arity: int = 0) -> ast.Param:
    return ast.Param(name, arity, span=S0)


def Def(name: str, body, *params, local: bool = False) -> ast.OpDef:
    ps = tuple(p if isinstance(p, ast.Param) else P(p) for p in params)
    return ast.OpDef(name, ps, body, local=local, span=S0)


TRUE = ast.Bool(True, span=S0)
FALSE = ast.Bool(False, span=S0)


def mk(cls, *args, **kw):
    """Any node with the dummy span: mk(ast.Tuple, (N(1),))."""
    return cls(*args, span=S0, **kw)
