"""The compiler's parts and what the rest of kipcheck may use of them: public names only, and
the semantics stage imports no later stage."""

from __future__ import annotations

import ast
from pathlib import Path

from checker.semantics.compiler import Compiler

CHECKER = Path(__file__).resolve().parent.parent / "checker"
# The modules the compiler is made of: they may share private names among themselves.
PARTS = {"compiler", "compile_actions", "compile_defs", "compile_enabled", "compile_exprs",
         "compile_incremental", "compile_instances", "compile_names", "constant_fold",
         "codegen_runtime", "analysis", "natives", "scope"}
LATER_STAGES = ("engine", "backends", "traces", "cli", "api")


def _modules():
    for path in sorted(CHECKER.rglob("*.py")):
        yield path, ast.parse(path.read_text(), str(path))


def _is_part(path: Path) -> bool:
    return path.parent.name == "semantics" and path.stem in PARTS


def _imported_module(node: ast.ImportFrom, path: Path) -> str:
    """The dotted name (under checker) an ImportFrom reads from."""
    if node.level == 0:
        return (node.module or "").removeprefix("checker.")
    base = path.relative_to(CHECKER).parent.parts
    base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
    return ".".join([*base, *([node.module] if node.module else [])])


def test_no_module_imports_a_private_name_of_the_compiler():
    found = []
    for path, tree in _modules():
        if _is_part(path):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                module = _imported_module(node, path)
                if module.startswith("semantics.") and module.split(".")[1] in PARTS:
                    found += [f"{path.name}: {module}.{a.name}" for a in node.names
                              if a.name.startswith("_")]
    assert found == []


def test_no_module_calls_a_private_method_of_the_compiler():
    private = {n for n in dir(Compiler) if n.startswith("_") and not n.startswith("__")}
    found = []
    for path, tree in _modules():
        if _is_part(path):
            continue
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and node.attr in private
                    and not (isinstance(node.value, ast.Name) and node.value.id == "self")):
                found.append(f"{path.name}:{node.lineno}: .{node.attr}")
    assert found == []


def test_semantics_imports_no_later_stage():
    found = []
    for path, tree in _modules():
        if path.parent.name != "semantics":
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                module = _imported_module(node, path)
                if module.split(".")[0] in LATER_STAGES:
                    found.append(f"{path.name}: {module}")
    assert found == []
