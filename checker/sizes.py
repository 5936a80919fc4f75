"""Size knobs: a model's size parameters, declared once, mapped to consistent constant values.

A model declares its knobs in a JSON file next to it: `CFG.sizes.json` (for one .cfg) or
`SPEC.sizes.json` (for every .cfg of the spec); the first that exists is used. The format:

    {"knobs": {
        "brokers": {"help": "number of brokers", "min": 1, "max": 5,
                    "default": "card(Brokers)"},
        "rf":      {"help": "replication factor", "min": 1, "max": "brokers",
                    "default": "ReplicationFactor"}},
     "constants": {
        "Brokers": {"model_values": "b", "count": "brokers"},
        "Names":   {"model_values": ["A", "B", "C"], "count": "topics"},
        "Ids":     {"model_values": "id", "first": 0, "count": "topics * incarnations"},
        "DirCounts": {"set": ["dirs"]},
        "ReplicationFactor": "rf"}}

A knob's `default` reads its value off the .cfg (so the defaults are the .cfg's own size);
`min` and `max` bound it. Expressions are integer arithmetic (+, -, *, //) over numbers, knob
names (in `max` and in constants) or constant names (in `default`), and card(C), max(C),
min(C) of a constant that is a set. A constant is an integer expression, a set of integers
(`set`), or a set of `count` model values named prefix + 1.. (or prefix + `first`..), or taken
from a list of names in order.

Only the constants that depend on a knob the user gave are overridden: the others keep the
.cfg's values (so `brokers=2` grows the dir-id pool and leaves `DirCounts = {1, 2}` alone).
"""
from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from pathlib import Path

from .frontend.cfg import ConstantAssignment, load_config
from .frontend.errors import ConfigError
from .semantics.model import cfg_value

SUFFIX = ".sizes.json"


class SizesError(ConfigError):
    """A bad knob on the command line or a bad sizes file: exit 151, like a bad -D."""


@dataclass(frozen=True)
class Knob:
    name: str
    help: str
    min: str
    max: str
    default: str


@dataclass(frozen=True)
class Sizes:
    path: Path
    knobs: dict  # name -> Knob, in declaration order
    constants: dict  # constant name -> its template (as in the file)

    def listing(self) -> str:
        return ", ".join(self.knobs)


def sizes_file(spec: str | Path, config: str | Path | None) -> Path | None:
    """CFG.sizes.json, else SPEC.sizes.json, else None."""
    for base in (config, spec):
        if base is not None:
            candidate = Path(base).with_suffix(SUFFIX)
            if candidate.is_file():
                return candidate
    return None


def load(path: str | Path) -> Sizes:
    """Read and validate a sizes file; every problem is a SizesError naming the file."""
    path = Path(path)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise SizesError(f"{path}: cannot read the sizes file: {e.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise SizesError(f"{path}: invalid JSON: {e}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("knobs"), dict) \
            or not isinstance(doc.get("constants"), dict):
        raise SizesError(f'{path}: expected {{"knobs": {{...}}, "constants": {{...}}}}')
    knobs = {}
    for name, raw in doc["knobs"].items():
        if not isinstance(raw, dict) or "default" not in raw:
            raise SizesError(f"{path}: knob {name!r}: expected an object with a 'default'")
        unknown = sorted(set(raw) - {"help", "min", "max", "default"})
        if unknown:
            raise SizesError(f"{path}: knob {name!r}: unknown field {unknown[0]!r}")
        knobs[name] = Knob(name, str(raw.get("help", "")), str(raw.get("min", 1)),
                           str(raw.get("max", 1_000_000)), str(raw["default"]))
    for name, raw in doc["constants"].items():
        ok = isinstance(raw, (str, int)) or (isinstance(raw, dict) and (
            ("set" in raw and isinstance(raw["set"], list)) or
            ("model_values" in raw and "count" in raw)))
        if not ok:
            raise SizesError(f"{path}: constant {name!r}: expected an expression, "
                             f'{{"set": [...]}} or {{"model_values": ..., "count": ...}}')
    sizes = Sizes(path, knobs, dict(doc["constants"]))
    for name, raw in sizes.constants.items():  # every name an expression uses must exist
        for text in _expressions(raw):
            _evaluate(text, {k: 0 for k in knobs}, f"{path}: constant {name!r}")
    return sizes


def parse_assignments(text: str, sizes: Sizes | None = None) -> dict[str, int]:
    """`brokers=2,dirs=2` (also repeated options joined by commas) -> {"brokers": 2, ...}."""
    out: dict[str, int] = {}
    for item in (p.strip() for p in text.split(",")):
        if not item:
            continue
        name, eq, value = item.partition("=")
        name = name.strip()
        if not eq or not value.strip().isdigit():
            raise SizesError(f"--size expects KNOB=NUMBER[,KNOB=NUMBER...], got {item!r}"
                             + (f" (knobs: {sizes.listing()})" if sizes else ""))
        if name in out:  # the later would silently win over the earlier
            raise SizesError(f"--size {name} is given twice; give each knob once")
        out[name] = int(value)
    return out


def cfg_constants(config: str | Path | None) -> dict:
    """The .cfg's constant values (kipcheck values: ints, frozensets, model values)."""
    if config is None or not Path(config).is_file():
        return {}
    cfg = load_config(config)
    return {c.name: cfg_value(c.value) for c in cfg.constants
            if isinstance(c, ConstantAssignment)}


def defaults(sizes: Sizes, constants: dict) -> dict[str, int]:
    """Each knob's value in a configuration (its .cfg constants, -D applied)."""
    out = {}
    for knob in sizes.knobs.values():
        out[knob.name] = _evaluate(knob.default, constants, f"{sizes.path}: knob {knob.name!r}")
    return out


def resolve(sizes: Sizes, given: dict[str, int], constants: dict,
            option: str = "--size") -> dict[str, int]:
    """The knobs' values: the .cfg's defaults with `given` on top, every one checked against
    its range (an unknown knob or a value out of range is a SizesError listing the knobs)."""
    for name in given:
        if name not in sizes.knobs:
            raise SizesError(f"{option} {name}: no such knob of {sizes.path.name}; "
                             f"the knobs: {describe(sizes, constants)}")
    values = dict(defaults(sizes, constants)) if constants else {}
    values.update(given)
    missing = [k for k in sizes.knobs if k not in values]
    if missing:
        raise SizesError(f"{option}: no value for {', '.join(missing)} (the .cfg does not "
                         f"give one); the knobs: {', '.join(sizes.knobs)}")
    for name, knob in sizes.knobs.items():  # the .cfg's values too: they must still fit
        lo = _evaluate(knob.min, values, f"{sizes.path}: knob {name!r}")
        hi = _evaluate(knob.max, values, f"{sizes.path}: knob {name!r}")
        if not lo <= values[name] <= hi:
            origin = ("" if name in given else
                      f" (the .cfg's value: give it with {option} too)")
            raise SizesError(f"{option} {name}={values[name]}: out of range {lo}..{hi} "
                             f"({knob.help or name}){origin}; the knobs: "
                             f"{describe(sizes, constants)}")
    return values


def overrides(sizes: Sizes, given: dict[str, int], constants: dict) -> list[str]:
    """The `-D NAME=VALUE` texts (in .cfg syntax) that set the given knobs: only the
    constants whose template mentions one of them."""
    values = resolve(sizes, given, constants)
    out = []
    for name, raw in sizes.constants.items():
        used = set()
        for text in _expressions(raw):
            used |= _names(text)
        if used & set(given):
            out.append(f"{name}={_render(raw, values, f'{sizes.path}: constant {name!r}')}")
    return out


def describe(sizes: Sizes, constants: dict | None = None) -> str:
    """`brokers=1 (1..5), dirs=2 (1..4)`: the knobs with their defaults and ranges."""
    values = defaults(sizes, constants) if constants else {}
    parts = []
    for knob in sizes.knobs.values():
        default = f"={values[knob.name]}" if knob.name in values else ""
        try:
            scope = values or {k: 0 for k in sizes.knobs}
            lo = _evaluate(knob.min, scope, "")
            hi = knob.max if not knob.max.isdigit() else str(_evaluate(knob.max, scope, ""))
            bounds = f" ({lo}..{hi})"
        except SizesError:
            bounds = ""
        parts.append(f"{knob.name}{default}{bounds}")
    return ", ".join(parts)


def _expressions(raw) -> list[str]:
    if isinstance(raw, (str, int)):
        return [str(raw)]
    if "set" in raw:
        return [str(x) for x in raw["set"]]
    return [str(raw["count"])]


def _render(raw, values: dict, where: str) -> str:
    """A constant's value in .cfg syntax."""
    if isinstance(raw, (str, int)):
        return str(_evaluate(str(raw), values, where))
    if "set" in raw:
        items = sorted({_evaluate(str(x), values, where) for x in raw["set"]})
        return "{" + ", ".join(map(str, items)) + "}"
    count = _evaluate(str(raw["count"]), values, where)
    names = raw["model_values"]
    if isinstance(names, list):
        if count > len(names):
            raise SizesError(f"{where}: needs {count} names, the list has {len(names)}")
        chosen = names[:count]
    else:
        first = int(raw.get("first", 1))
        chosen = [f"{names}{i}" for i in range(first, first + count)]
    return "{" + ", ".join(chosen) + "}"


_FUNCTIONS = {"card": len, "max": max, "min": min}


def _names(text: str) -> set[str]:
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        return set()
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id not in _FUNCTIONS}


def _evaluate(text: str, scope: dict, where: str) -> int:
    """Integer arithmetic over `scope` (a tiny, safe subset of Python expressions)."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        raise SizesError(f"{where}: bad expression {text!r}") from None

    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in scope:
                raise SizesError(f"{where}: {node.id!r} is not defined in {text!r}")
            return scope[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](ev(node.left), ev(node.right))
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in _FUNCTIONS and len(node.args) == 1 and not node.keywords):
            arg = ev(node.args[0])
            if not isinstance(arg, (set, frozenset)):
                raise SizesError(f"{where}: {node.func.id}() needs a set in {text!r}")
            return _FUNCTIONS[node.func.id](arg) if arg or node.func.id == "card" else 0
        raise SizesError(f"{where}: unsupported expression {text!r} (integers, + - * //, "
                         f"names, card/max/min of a set)")

    value = ev(tree)
    if type(value) is not int:
        raise SizesError(f"{where}: {text!r} is not an integer")
    return value


_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
        ast.Mult: lambda a, b: a * b, ast.FloorDiv: lambda a, b: a // b if b else 0}


def for_model(spec, config) -> Sizes:
    """The sizes of a model; a SizesError when it declares none."""
    path = sizes_file(spec, config)
    if path is None:
        raise SizesError(f"{Path(spec).name} declares no size knobs (write "
                         f"{Path(spec).with_suffix(SUFFIX).name} next to it; see the README)")
    return load(path)


def size_overrides(spec, config, text: str, defines: dict | None = None) -> list[str]:
    """`--size brokers=2,dirs=2` of a check: the -D texts it stands for."""
    sizes = for_model(spec, config)
    constants = cfg_constants(config)
    constants.update(defines or {})
    return overrides(sizes, parse_assignments(text, sizes), constants)

