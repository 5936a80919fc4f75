"""Find, read and parse the modules a spec needs: its EXTENDS and INSTANCE closure.

Where a module named M is looked for, first match wins (SANY's order):
  1. a module nested inside the module that names M,
  2. a module M that follows the root module in the root spec's file (TLC reads a file of
     several modules one after another, the first being the spec: its "monolith" specs),
  3. `M.tla` in the directory of the file that names M, then in the root spec's directory,
  4. `M.tla` on the search path (`--lib` directories, then `KIPCHECK_PATH`),
  5. kipcheck's own text of the standard modules (Naturals, Integers, Sequences, ...).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from pathlib import Path

from . import ast
from .errors import Span, SpecError, read_source
from .lexer import _HEADER_RE, Tokenizer, prepare
from .parser import parse_module

STANDARD_MODULES = ("Naturals", "Integers", "Reals", "Sequences", "FiniteSets", "Bags", "TLC",
                    "TLAPS", "Randomization",
                    # CommunityModules that kipcheck ships (a spec's own copy takes precedence)
                    "Folds", "FiniteSetsExt", "Functions", "SequencesExt", "Bitwise",
                    "DyadicRationals", "Relation", "Graphs", "UndirectedGraphs", "BagsExt",
                    "IOUtils", "Json", "SVG", "VectorClocks",
                    # TLC's own extension module
                    "TLCExt",
                    # TLAPS proof library modules, as empty stand-ins (their theorems are not
                    # needed to check a model)
                    "FiniteSetTheorems", "NaturalsInduction", "FunctionTheorems",
                    "SequenceTheorems", "WellFoundedInduction", "SequencesExtTheorems")


@dataclass
class ModuleSet:
    """The root module and every module it reaches, by name, in the order they were loaded."""

    root: ast.Module
    modules: dict[str, ast.Module] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)  # file path -> text, for error reports

    def get(self, name: str) -> ast.Module:
        return self.modules[name]


def search_path(lib: list[str] | tuple[str, ...] = ()) -> list[Path]:
    """The `--lib` directories followed by those in KIPCHECK_PATH (os.pathsep separated)."""
    dirs = [Path(d) for d in lib]
    env = os.environ.get("KIPCHECK_PATH", "")
    dirs += [Path(d) for d in env.split(os.pathsep) if d]
    return dirs


def standard_module_text(name: str) -> str | None:
    if name not in STANDARD_MODULES:
        return None
    return files("checker.frontend").joinpath("stdlib", f"{name}.tla").read_text(encoding="utf-8")


class Loader:
    """Loads modules once each; detects cycles; reports unknown modules at the naming span."""

    def __init__(self, lib: list[str] | tuple[str, ...] = (), texts: dict | None = None):
        self.lib = search_path(lib)
        self.texts = texts or {}  # file path -> text read instead of the file (mutate)
        self.modules: dict[str, ast.Module] = {}
        self.sources: dict[str, str] = {}
        self._loading: list[str] = []
        self.following: dict[str, str] = {}  # modules after the root's in its file: name -> text

    def load_spec(self, path: str | Path) -> ModuleSet:
        path = Path(path)
        try:
            text = read_source(path, SpecError)
        except FileNotFoundError:
            raise SpecError(f"cannot read {path}: no such file") from None
        except OSError as e:
            raise SpecError(f"cannot read {path}: {e.strerror or e}") from None
        self.root_dir = path.parent
        root = self._parse(text, str(path))
        self.root_file = str(path)
        self.following = following_modules(text, self.root_file)
        expected = path.stem
        if root.name != expected:
            raise SpecError(f"module name {root.name!r} does not match the file name "
                            f"{path.name!r}", root.span, source=text)
        self._register(root, path.parent)
        return ModuleSet(root, self.modules, self.sources)

    def load_text(self, text: str, file: str = "<string>",
                  directory: str | Path = ".") -> ModuleSet:
        """Load a spec given as text (tests, tools); its imports are looked up in `directory`."""
        self.root_dir = Path(directory)
        root = self._parse(text, file)
        self._register(root, Path(directory))
        return ModuleSet(root, self.modules, self.sources)

    def _parse(self, text: str, file: str) -> ast.Module:
        text = self.texts.get(file, text)
        self.sources[file] = text
        return parse_module(text, file)

    def _register(self, module: ast.Module, directory: Path,
                  nested: dict[str, ast.Module] | None = None) -> None:
        if module.name in self._loading:
            cycle = " -> ".join(self._loading[self._loading.index(module.name):] + [module.name])
            raise SpecError(f"circular module dependency: {cycle}", module.span,
                            source=self.sources.get(module.span.file))
        self.modules[module.name] = module
        self._loading.append(module.name)
        inner = dict(nested or {})
        for unit in module.units:
            if isinstance(unit, ast.Module):
                inner[unit.name] = unit
                self._register(unit, directory, inner)
        for name, span in zip(module.extends, module.extends_spans, strict=True):
            self._require(name, span, directory, inner)
        for inst in _instances(module):
            self._require(inst.module, inst.span, directory, inner)
        self._loading.pop()

    def _require(self, name: str, span: Span, directory: Path,
                 nested: dict[str, ast.Module]) -> None:
        if name in self.modules and name not in self._loading:
            return
        if name in nested:
            return
        if name in self._loading:
            cycle = " -> ".join(self._loading[self._loading.index(name):] + [name])
            raise SpecError(f"circular module dependency: {cycle}", span,
                            source=self.sources.get(span.file))
        if name in self.following:
            self._register(parse_module(self.following[name], self.root_file), self.root_dir)
            return
        for d in [directory, self.root_dir, *self.lib]:
            candidate = d / f"{name}.tla"
            if candidate.is_file():
                try:
                    text = read_source(candidate, SpecError)
                except OSError as e:
                    raise SpecError(f"cannot read {candidate} (module {name!r}): {e}", span,
                                    source=self.sources.get(span.file)) from None
                module = self._parse(text, str(candidate))
                if module.name != name:
                    raise SpecError(f"{candidate} holds module {module.name!r}, not {name!r}",
                                    module.span, source=text)
                self._register(module, candidate.parent)
                return
        if name in STANDARD_MODULES:
            file = f"<standard module {name}>"
            self.sources[file] = standard_module_text(name)
            self._register(_parsed_standard_module(name), directory)
            return
        where = ", ".join(str(d) for d in dict.fromkeys([directory, self.root_dir, *self.lib]))
        raise SpecError(f"unknown module {name!r}: no {name}.tla in {where}, and it is not a "
                        f"standard module", span, source=self.sources.get(span.file))


def following_modules(text: str, file: str) -> dict[str, str]:
    """The modules written after the first one in a file, by name: for each, the file's text
    with everything before its header blanked (lines and columns stay the file's)."""
    found: dict[str, str] = {}
    try:
        start = _HEADER_RE.search(text).start()
        while True:
            blanked = _blank(text, start)
            end = None
            for tok in Tokenizer(prepare(blanked, file), file).raw_tokens():
                end = tok.end_pos
            nxt = _LINE_HEADER_RE.search(text, end) if end is not None else None
            if nxt is None:
                return found
            start = nxt.start(1)
            if nxt.group(2) not in found:
                found[nxt.group(2)] = _blank(text, start)
    except SpecError:  # a broken later module is reported if it is ever needed
        return found


# A module header at the start of a line (one inside a comment is no module).
_LINE_HEADER_RE = re.compile(r"^[ \t]*(-{4,}[ \t]*MODULE[ \t]+(\w+))", re.M)


def _blank(text: str, start: int) -> str:
    return "".join(ch if ch == "\n" else " " for ch in text[:start]) + text[start:]


@cache
def _parsed_standard_module(name: str) -> ast.Module:
    """Standard modules never change: parse each once per process."""
    return parse_module(standard_module_text(name), f"<standard module {name}>")


def _instances(module: ast.Module):
    """Every INSTANCE in a module, including named ones and those inside LET."""
    for unit in module.units:
        if isinstance(unit, ast.Instance):
            yield unit
        elif isinstance(unit, ast.InstanceDef):
            yield unit.instance
        elif isinstance(unit, ast.OpDef):
            yield from _let_instances(unit.body)


def _let_instances(expr):
    stack = [expr]
    while stack:
        e = stack.pop()
        if isinstance(e, ast.Let):
            for d in e.defs:
                if isinstance(d, ast.InstanceDef):
                    yield d.instance
                elif isinstance(d, ast.Instance):
                    yield d
        if isinstance(e, ast.Node):
            for f in e.__dataclass_fields__:
                if f != "span":
                    stack.append(getattr(e, f))
        elif isinstance(e, tuple):
            stack.extend(e)
