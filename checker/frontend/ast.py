"""The syntax tree of a TLA+ module: immutable dataclasses, each node with its source span.

Operators are named canonically (`\\land` for `/\\`, `∧` and `\\land`; `#` for `/=`; `-.` for
prefix minus) so later stages never care how the user spelled them. The span is left out of
equality, so two trees parsed from differently laid-out text compare equal.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .errors import Span


@dataclass(frozen=True, slots=True, kw_only=True)
class Node:
    span: Span = field(compare=False, repr=False)


# ---------------------------------------------------------------------------------------------
# Expressions


@dataclass(frozen=True, slots=True)
class Ident(Node):
    """A bare name: a variable, constant, bound variable or zero-arity operator."""

    name: str


@dataclass(frozen=True, slots=True)
class OpApp(Node):
    """Application of a named or symbolic operator: `F(a, b)`, `a + b`, `~a`, `x'`, `SUBSET S`."""

    op: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class InstanceRef(Node):
    """`M!Op`, `M!Op(a)`, `M(x)!N!Op(a)`: an operator reached through named instances."""

    path: tuple[tuple[str, tuple[Expr, ...]], ...]  # the instance names with their arguments
    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Num(Node):
    value: int


@dataclass(frozen=True, slots=True)
class Decimal(Node):
    text: str


@dataclass(frozen=True, slots=True)
class Str(Node):
    value: str


@dataclass(frozen=True, slots=True)
class Bool(Node):
    value: bool


@dataclass(frozen=True, slots=True)
class BuiltinSet(Node):
    """`BOOLEAN` or `STRING`."""

    name: str


@dataclass(frozen=True, slots=True)
class At(Node):
    """`@` inside an EXCEPT update: the old value at that path."""


@dataclass(frozen=True, slots=True)
class Bound(Node):
    """`x, y \\in S` (names), `<<x, y>> \\in S` (tuple=True), or unbounded when domain is None."""

    names: tuple[str, ...]
    tuple: bool
    domain: Expr | None


@dataclass(frozen=True, slots=True)
class Quant(Node):
    """`\\A`/`\\E` (kind "A"/"E") and the temporal `\\AA`/`\\EE` (kind "AA"/"EE")."""

    kind: str
    bounds: tuple[Bound, ...]
    body: Expr


@dataclass(frozen=True, slots=True)
class Choose(Node):
    bound: Bound
    body: Expr


@dataclass(frozen=True, slots=True)
class SetEnum(Node):
    elems: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class SetFilter(Node):
    """`{x \\in S : P}`."""

    bound: Bound
    pred: Expr


@dataclass(frozen=True, slots=True)
class SetMap(Node):
    """`{e : x \\in S, y \\in T}`."""

    expr: Expr
    bounds: tuple[Bound, ...]


@dataclass(frozen=True, slots=True)
class FuncCons(Node):
    """`[x \\in S |-> e]`."""

    bounds: tuple[Bound, ...]
    body: Expr


@dataclass(frozen=True, slots=True)
class FuncSet(Node):
    """`[S -> T]`."""

    domain: Expr
    codomain: Expr


@dataclass(frozen=True, slots=True)
class Record(Node):
    fields: tuple[tuple[str, Expr], ...]


@dataclass(frozen=True, slots=True)
class RecordSet(Node):
    fields: tuple[tuple[str, Expr], ...]


@dataclass(frozen=True, slots=True)
class ExceptUpdate(Node):
    """One `![a][b].c = e`; each path element is ("field", name) or ("index", args)."""

    path: tuple[tuple[str, object], ...]
    value: Expr


@dataclass(frozen=True, slots=True)
class Except(Node):
    func: Expr
    updates: tuple[ExceptUpdate, ...]


@dataclass(frozen=True, slots=True)
class Tuple(Node):
    elems: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class CartProd(Node):
    """`S \\X T \\X U`: n-ary, not nested."""

    factors: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class FuncApp(Node):
    """`f[a]`, `f[a, b]` (the latter applies f to the tuple <<a, b>>)."""

    func: Expr
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class FieldAccess(Node):
    record: Expr
    field: str


@dataclass(frozen=True, slots=True)
class If(Node):
    cond: Expr
    then: Expr
    else_: Expr


@dataclass(frozen=True, slots=True)
class Case(Node):
    arms: tuple[tuple[Expr, Expr], ...]
    other: Expr | None


@dataclass(frozen=True, slots=True)
class Let(Node):
    defs: tuple[Unit, ...]
    body: Expr


@dataclass(frozen=True, slots=True)
class Lambda(Node):
    params: tuple[str, ...]
    body: Expr


@dataclass(frozen=True, slots=True)
class Junction(Node):
    """A bulleted `/\\` (kind "and") or `\\/` (kind "or") list, aligned at `column`."""

    kind: str
    items: tuple[Expr, ...]
    column: int


@dataclass(frozen=True, slots=True)
class BoxAction(Node):
    """`[A]_v`."""

    action: Expr
    sub: Expr


@dataclass(frozen=True, slots=True)
class AngleAction(Node):
    """`<<A>>_v`."""

    action: Expr
    sub: Expr


@dataclass(frozen=True, slots=True)
class Fairness(Node):
    """`WF_v(A)` (kind "WF") or `SF_v(A)` (kind "SF")."""

    kind: str
    sub: Expr
    action: Expr


Expr = (
    Ident | OpApp | InstanceRef | Num | Decimal | Str | Bool | BuiltinSet | At | Quant | Choose
    | SetEnum | SetFilter | SetMap | FuncCons | FuncSet | Record | RecordSet | Except | Tuple
    | CartProd | FuncApp | FieldAccess | If | Case | Let | Lambda | Junction | BoxAction
    | AngleAction | Fairness
)


# ---------------------------------------------------------------------------------------------
# Module-level units


@dataclass(frozen=True, slots=True)
class Param(Node):
    """An operator parameter or declared constant: `x`, `F(_, _)` (arity 2), `_ + _`."""

    name: str
    arity: int = 0


@dataclass(frozen=True, slots=True)
class OpDef(Node):
    name: str
    params: tuple[Param, ...]
    body: Expr
    local: bool = False


@dataclass(frozen=True, slots=True)
class FuncDef(Node):
    """`f[x \\in S] == e`: a recursive function definition."""

    name: str
    bounds: tuple[Bound, ...]
    body: Expr
    local: bool = False


@dataclass(frozen=True, slots=True)
class Substitution(Node):
    name: str
    expr: Expr


@dataclass(frozen=True, slots=True)
class Instance(Node):
    """`INSTANCE M WITH a <- e` (unnamed: its definitions join the module's own)."""

    module: str
    substs: tuple[Substitution, ...]
    local: bool = False


@dataclass(frozen=True, slots=True)
class InstanceDef(Node):
    """`N(p) == INSTANCE M WITH ...`: definitions reached as `N!Op`."""

    name: str
    params: tuple[Param, ...]
    instance: Instance
    local: bool = False


@dataclass(frozen=True, slots=True)
class Variables(Node):
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Constants(Node):
    decls: tuple[Param, ...]


@dataclass(frozen=True, slots=True)
class Recursive(Node):
    decls: tuple[Param, ...]


@dataclass(frozen=True, slots=True)
class Assume(Node):
    name: str | None
    expr: Expr


@dataclass(frozen=True, slots=True)
class Theorem(Node):
    """A THEOREM/LEMMA statement; its proof is skipped. `expr` is None for ASSUME/PROVE forms."""

    name: str | None
    expr: Expr | None


@dataclass(frozen=True, slots=True)
class Module(Node):
    name: str
    extends: tuple[str, ...]
    units: tuple[Unit, ...]
    file: str = ""
    extends_spans: tuple[Span, ...] = field(default=(), compare=False, repr=False)


Unit = (
    OpDef | FuncDef | Instance | InstanceDef | Variables | Constants | Recursive | Assume | Theorem
    | Module
)


def walk(e):
    """Every node inside e (e included), through the tuples that hold them."""
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, Node):
            yield x
            stack.extend(getattr(x, f) for f in x.__dataclass_fields__ if f != "span")
        elif isinstance(x, tuple):
            stack.extend(x)
