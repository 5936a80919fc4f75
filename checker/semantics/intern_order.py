"""TLC's intern order, which orders its strings: TLC numbers each identifier and string the first
time it meets it and compares two strings by those numbers, so CHOOSE over strings, the order a
set of strings prints in and every operator that lists a set follow it.

TLC meets, in this order: TRUE and FALSE; the .cfg's values (read first); the identifiers of
the root module's text; those of the modules it refers to, each file's whole text as its parser
reads it (see `_Loader` for the order); and only then the strings of the modules as it analyses
them, the root's last. A standard module is read in TLC's own text,
not kipcheck's: `TLC_MODULES` gives what that text holds (`bench/tlc_intern_order.py` checks it
against a TLC jar).
"""
from __future__ import annotations

from ..frontend import LoadedSpec, ast
from ..frontend.cfg import CfgValue, ConstantAssignment
from ..frontend.errors import SpecError
from ..frontend.lexer import Tokenizer, prepare
from .values import intern_names, reset_interning

# TLC's standard modules: the modules each one EXTENDS, those it INSTANCEs (in its text's
# order), and the identifiers of its text in the order they first appear there.
TLC_MODULES: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "Naturals": ((), (), ("Naturals", "Nat", "a", "b", "n")),
    "Integers": (("Naturals",), (), ("Integers", "Naturals", "Int", "a")),
    "Reals": (("Integers",), (), (
        "Reals", "Integers", "Real", "a", "b", "m", "Infinity", "i", "r")),
    "Sequences": ((), ("Naturals",), (
        "Sequences", "Naturals", "Seq", "S", "n", "Nat", "Len", "s", "t", "i", "Append", "e",
        "Head", "Tail", "SubSeq", "m", "SelectSeq", "Test", "F")),
    "FiniteSets": ((), ("Naturals", "Sequences"), (
        "FiniteSets", "Naturals", "Sequences", "IsFiniteSet", "S", "seq", "Seq", "s", "n", "Len",
        "Cardinality", "CS", "T", "x")),
    "Bags": (("TLC",), ("Naturals",), (
        "Bags", "TLC", "Naturals", "IsABag", "B", "n", "Nat", "BagToSet", "SetToBag", "S", "e",
        "BagIn", "EmptyBag", "B1", "B2", "d", "Sum", "f", "DSum", "elt", "BagUnion", "SubBag",
        "RemoveFromDom", "x", "y", "Combine", "BagSet", "i", "Biggest", "Range", "r", "s", "RSB",
        "BB", "BagOfAll", "F", "BagCardinality", "CopiesIn")),
    "TLC": ((), ("Naturals", "Sequences", "FiniteSets"), (
        "TLC", "Naturals", "Sequences", "FiniteSets", "Print", "out", "val", "PrintT", "Assert",
        "v", "JavaTime", "n", "Nat", "TLCGet", "i", "TLCSet", "d", "e", "x", "f", "g",
        "Permutations", "S", "w", "SortSeq", "s", "Op", "Perm", "p", "Len", "j", "RandomElement",
        "Any", "ToString", "a", "b", "TLCEval")),
    "Randomization": ((), ("Naturals", "FiniteSets"), (
        "Randomization", "Naturals", "FiniteSets", "RandomSubset", "k", "S", "T", "Cardinality",
        "RandomSetOfSubsets", "n", "TestRandomSetOfSubsets", "i")),
    "RealTime": (("Reals",), (), (
        "RealTime", "Reals", "now", "RTBound", "A", "v", "D", "E", "TNext", "t", "Timer",
        "MaxTime", "MinTime", "RTnow", "NowNext", "r", "Real")),
    "Toolbox": ((), ("Naturals", "FiniteSets", "TLC"), (
        "Toolbox", "Naturals", "FiniteSets", "TLC", "_TETrace", "f", "Nat", "_TETraceLength",
        "Cardinality", "_TEPosition", "TLCGet")),
}


def intern_order(loaded: LoadedSpec) -> None:
    """Set the process's intern order to the one TLC would have for this spec and .cfg."""
    reset_interning()
    intern_names(("TRUE", "FALSE"))  # TLC's parser knows these before it reads anything
    cfg = loaded.config
    names: list[str] = []
    if cfg is not None:
        for c in cfg.constants:
            if isinstance(c, ConstantAssignment):
                _value_names(c.value, names)
    intern_names(names)
    _Loader(loaded).run()
    strings: list[str] = []
    root = loaded.root
    modules = loaded.modules.modules
    for m in [m for m in modules.values() if m is not root] + [root]:
        strings += _strings(m)
    intern_names(strings)


class _Loader:
    """The order in which TLC's parser reads module files, each file's identifiers interned as
    it is read. After the root, it looks for the next module name not yet resolved where it is
    named: first an EXTENDS anywhere (a module's own EXTENDS names, then depth first through
    the modules it extends, then those it instances), and only when none is left an INSTANCE
    (searched the same way); each time it starts again from the root."""

    def __init__(self, loaded: LoadedSpec):
        self.modules = loaded.modules.modules
        self.sources = loaded.modules.sources
        self.root = loaded.root.name
        self.read: set[str] = set()
        self.resolved: set[tuple[str, str]] = set()  # (module, a module name it uses)
        self.shapes: dict[str, tuple] = {}

    def run(self) -> None:
        self._read(self.root)
        while True:
            found = (self._next(self.root, 0, set()) or self._next(self.root, 1, set()))
            if found is None:
                return
            where, name = found
            self.resolved.add((where, name))
            if name not in self.read:
                self._read(name)

    def _read(self, name: str) -> None:
        self.read.add(name)
        intern_names(self._shape(name)[2])

    def _shape(self, name: str) -> tuple:
        """(EXTENDS names, INSTANCE names, identifiers) of a module as TLC reads it."""
        shape = self.shapes.get(name)
        if shape is None:
            m = self.modules.get(name)
            standard = m is None or m.file.startswith("<standard module")
            if standard and name in TLC_MODULES:
                shape = TLC_MODULES[name]
            elif m is None:
                shape = ((), (), ())
            elif standard:  # a module TLC's jar lacks (CommunityModules): kipcheck's text
                shape = (m.extends, _instanced(m), _defined_idents(m))
            else:
                shape = (m.extends, _instanced(m), _read_idents(m, self.sources))
            self.shapes[name] = shape
        return shape

    def _next(self, name: str, kind: int, visited: set) -> tuple[str, str] | None:
        """The next unresolved (module, name) of `kind` (0: EXTENDS, 1: INSTANCE) reached from
        module `name`, or None."""
        if name in visited or name not in self.read:
            return None
        visited.add(name)
        extends, instances, _ = self._shape(name)
        for n in extends if kind == 0 else instances:
            if (name, n) not in self.resolved:
                return name, n
        for n in extends:
            found = self._next(n, kind, visited)
            if found is not None:
                return found
        for n in instances:
            if (name, n) in self.resolved:
                found = self._next(n, kind, visited)
                if found is not None:
                    return found
        return None


def _instanced(m: ast.Module) -> list[str]:
    out = []
    for u in m.units:
        if isinstance(u, ast.Instance):
            out.append(u.module)
        elif isinstance(u, ast.InstanceDef):
            out.append(u.instance.module)
    return out


def _read_idents(m: ast.Module, sources: dict) -> list[str]:
    """m's identifiers in the order of its file's text (declarations, parameters and uses
    alike)."""
    text = sources.get(m.span.file) if m.span is not None else None
    if text is not None:
        try:
            return [t.value for t in Tokenizer(prepare(text, m.span.file), m.span.file)
                    .raw_tokens() if t.type == "NAME"]
        except SpecError:
            pass
    return _idents(m)


def _value_names(v: CfgValue, out: list) -> None:
    if v.kind in ("model", "str"):
        out.append(v.value)
    elif v.kind in ("set", "tuple"):
        for x in v.value:
            _value_names(x, out)


def _walk(node, visit) -> None:
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Node):
            visit(n)
            kids = [getattr(n, f) for f in n.__dataclass_fields__ if f != "span"]
            stack.extend(reversed(kids))
        elif isinstance(n, tuple):
            stack.extend(reversed(n))


def _defined_idents(m: ast.Module) -> list[str]:
    """The names a module defines, each followed by its parameters' names."""
    names: list[str] = []
    for u in m.units:
        if isinstance(u, ast.OpDef):
            names.append(u.name)
            names += [p.name for p in u.params]
        elif isinstance(u, ast.FuncDef):
            names.append(u.name)
            names += [n for b in u.bounds for n in b.names]
        elif isinstance(u, ast.Variables):
            names += list(u.names)
        elif isinstance(u, ast.Constants):
            names += [p.name for p in u.decls]
    return names


def _idents(m: ast.Module) -> list[str]:
    out: list[str] = []

    def visit(n):
        if isinstance(n, ast.Ident):
            out.append(n.name)
        elif isinstance(n, (ast.Record, ast.RecordSet)):
            out.extend(f for f, _ in n.fields)
        elif isinstance(n, ast.FieldAccess):
            out.append(n.field)
        elif isinstance(n, (ast.OpDef, ast.FuncDef)):
            out.append(n.name)

    _walk(m, visit)
    return out


def _strings(m: ast.Module) -> list[str]:
    out: list[str] = []
    _walk(m, lambda n: out.append(n.value) if isinstance(n, ast.Str) else None)
    return out
