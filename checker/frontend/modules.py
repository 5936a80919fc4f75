"""Find, read and parse the modules a spec needs: its EXTENDS and INSTANCE closure.

Where a module named M is looked for, first match wins (SANY's order):
  1. a module nested inside the module that names M,
  2. `M.tla` in the directory of the file that names M, then in the root spec's directory,
  3. `M.tla` on the search path (`--lib` directories, then `KIPCHECK_PATH`),
  4. kipcheck's own text of the standard modules (Naturals, Integers, Sequences, ...).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from pathlib import Path

from . import ast
from .errors import Span, SpecError, read_source
from .parser import parse_module

STANDARD_MODULES = ("Naturals", "Integers", "Reals", "Sequences", "FiniteSets", "Bags", "TLC",
                    "TLAPS", "Randomization",
                    # CommunityModules that kipcheck ships (a spec's own copy takes precedence)
                    "Folds", "FiniteSetsExt", "Functions", "SequencesExt",
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
