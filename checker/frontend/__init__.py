"""The front end: TLA+ text and TLC .cfg files in, a checked syntax tree out.

`load_spec` is the single entry point later stages use: it parses the spec and every module it
needs, resolves names, parses the .cfg and checks that the .cfg names things the spec defines.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import ast
from .cfg import Config, ConstantAssignment, ConstantSubstitution, load_config
from .errors import ConfigError, KipcheckError, Span, SpecError
from .levels import check_levels
from .modules import Loader, ModuleSet
from .resolve import ModuleScope, resolve

__all__ = ["LoadedSpec", "load_spec", "check_config", "KipcheckError", "SpecError",
           "ConfigError", "Span", "ast"]


@dataclass
class LoadedSpec:
    path: Path
    modules: ModuleSet
    scopes: dict[str, ModuleScope]
    config: Config | None

    @property
    def root(self) -> ast.Module:
        return self.modules.root

    @property
    def scope(self) -> ModuleScope:
        return self.scopes[self.modules.root.name]


def default_config(spec: str | Path) -> str | None:
    """SPEC.cfg next to the spec, as TLC looks for it, if it exists."""
    cfg = Path(spec).with_suffix(".cfg")
    return str(cfg) if cfg.is_file() else None


def load_spec(spec: str | Path, config: str | Path | None = None,
              lib: list[str] | tuple[str, ...] = (), texts: dict | None = None) -> LoadedSpec:
    """Parse and resolve `spec`; parse and check `config` if given. Raises KipcheckError.
    `texts` maps .tla file paths (as the loader names them) to text used instead of the file's."""
    modules = Loader(lib, texts).load_spec(spec)
    scopes = resolve(modules)
    check_levels(modules, scopes)
    cfg = None
    if config is not None:
        cfg = load_config(config)
        check_config(cfg, scopes[modules.root.name], modules)
    return LoadedSpec(Path(spec), modules, scopes, cfg)


def check_config(cfg: Config, scope: ModuleScope, modules: ModuleSet) -> None:
    """Every name a .cfg uses must mean something in the spec (TLC refuses to start otherwise)."""
    source = _read(cfg.file)

    def fail(msg: str, span: Span | None) -> ConfigError:
        return ConfigError(msg, span, source=source)

    assigned = set()
    for c in cfg.constants:
        sym = scope.symbols.get(c.name)
        if c.module is not None:
            if c.module not in modules.modules:
                raise fail(f"unknown module {c.module!r} in the assignment to {c.name!r}",
                           c.span)
            sym = _scope_symbol(modules, c.module, c.name, scope)
        if sym is None and isinstance(c, ConstantAssignment):
            continue  # TLC ignores a value for a name the spec does not declare (`r1 = r1`)
        if sym is None or sym.kind not in ("constant", "operator", "function"):
            known = ", ".join(sorted(scope.constants)) or "none"
            raise fail(f"{c.name!r} is not a constant of module {scope.name} "
                       f"(its constants: {known})", c.span)
        if isinstance(c, ConstantSubstitution):
            target = scope.symbols.get(c.target)
            if target is None or target.kind not in ("operator", "constant", "function"):
                raise fail(f"`{c.name} <- {c.target}`: {c.target!r} is not defined in module "
                           f"{scope.name}", c.span)
            if target.arity != sym.arity:
                raise fail(f"`{c.name} <- {c.target}`: {c.name} takes {sym.arity} argument(s) "
                           f"but {c.target} takes {target.arity}", c.span)
        assigned.add(c.name)
    missing = [n for n in scope.constants if n not in assigned]
    if missing:
        raise fail(f"the configuration gives no value to the constant(s) {', '.join(missing)} "
                   f"of module {scope.name}", Span(cfg.file, 1, 1))
    # TLC's words (exit 151); a missing NEXT is semantics/model.py's question (TLC refuses it
    # only with invariants or properties to check).
    if cfg.specification is None and scope.variables and cfg.init is None:
        raise fail("The configuration file did not specify the initial state predicate "
                   "(give SPECIFICATION, or INIT and NEXT).", Span(cfg.file, 1, 1))
    if cfg.specification is not None and (cfg.init or cfg.next):
        named = cfg.init or cfg.next
        raise fail("give either SPECIFICATION or INIT/NEXT, not both", named.span)
    singles = [cfg.init, cfg.next, cfg.specification, cfg.symmetry, cfg.view, cfg.alias,
               cfg.postcondition]
    lists = [*cfg.invariants, *cfg.properties, *cfg.constraints, *cfg.action_constraints]
    for named in [n for n in singles if n is not None] + lists:
        sym = scope.symbols.get(named.name)
        if sym is None:
            raise fail(f"{named.name!r} is not defined in module {scope.name}", named.span)
        if sym.arity:
            raise fail(f"{named.name!r} takes {sym.arity} argument(s); the configuration can "
                       f"only name operators without arguments", named.span)


def _scope_symbol(modules: ModuleSet, module: str, name: str, root: ModuleScope):
    """The symbol `name` as module `module` defines it (for TLC's `[Mod]` overrides)."""
    from .resolve import resolve as _resolve

    scopes = _resolve(ModuleSet(modules.modules[module], modules.modules, modules.sources))
    return scopes[module].symbols.get(name)


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
