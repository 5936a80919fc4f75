"""The model manifest, `invariants/manifest.json`: every shipped configuration with the verdict
and the figures TLC reports for it.

One list serves the tests (which run every small entry and compare), trace regeneration and
`kipcheck check NAME`. Paths in it are relative to the directory that holds `invariants/`
(the repository root, or the models directory inside an installed wheel).

An entry:

    {"name": "KIP858_bug_ack_unsent",               unique; the .cfg's stem by convention
     "spec": "invariants/KIP858Properties.tla",     the root module that is checked
     "config": "invariants/KIP858_bug_ack_unsent.cfg",
     "lib": ["spec"],                               extra module directories
     "size": "small" | "medium" | "large",          small: seconds, run by the tests;
                                                     medium and large: by bench/run.py
                                                     (large with --workers 2)
     "verdict": "ok" | "invariant" | "property" | "deadlock",
     "property": "AckOnlyWhatWasSent" | null,       the violated property (null when ok)
     "distinct_states", "states_generated", "depth": TLC's figures (null where TLC's
                                                      counts are not reproducible)
     "trace_length": number of states of the counterexample, null when ok
     "trace": "traces/KIP858_bug_ack_unsent.itf.json" | null,
     "liveness": true}                              optional (default false): checking the
                                                     entry needs a liveness checker
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .frontend.errors import KipcheckError, Span
from .verdicts import CONFIG_ERROR, DEADLOCK, EXIT_CONFIG_ERROR, INVARIANT, OK, PROPERTY

VERDICTS = (OK, INVARIANT, PROPERTY, DEADLOCK)
SIZES = ("small", "medium", "large")
_COUNTS = ("distinct_states", "states_generated", "depth", "trace_length")
_KEYS = {"name", "spec", "config", "lib", "size", "verdict", "property", "trace",
         "liveness", *_COUNTS}


class ManifestError(KipcheckError):
    """A malformed manifest (bad JSON, a missing or mistyped field, a repeated name)."""

    exit_code = EXIT_CONFIG_ERROR
    verdict = CONFIG_ERROR


@dataclass(frozen=True)
class Entry:
    name: str
    spec: str
    config: str
    lib: tuple[str, ...]
    size: str
    verdict: str
    property: str | None
    distinct_states: int | None
    states_generated: int | None
    depth: int | None
    trace_length: int | None
    trace: str | None
    liveness: bool
    root: Path  # the directory the paths above are relative to

    @property
    def spec_path(self) -> Path:
        return self.root / self.spec

    @property
    def config_path(self) -> Path:
        return self.root / self.config

    @property
    def lib_paths(self) -> tuple[str, ...]:
        return tuple(str(self.root / d) for d in self.lib)

    @property
    def trace_path(self) -> Path | None:
        return None if self.trace is None else self.root / self.trace


@dataclass(frozen=True)
class Manifest:
    path: Path
    entries: tuple[Entry, ...]

    def get(self, name: str) -> Entry | None:
        return next((e for e in self.entries if e.name == name), None)

    def names(self) -> list[str]:
        return [e.name for e in self.entries]


def default_path() -> Path | None:
    """The repository's manifest (source checkout, editable install), else the wheel's copy."""
    package = Path(__file__).resolve().parent
    for candidate in (package.parent / "invariants" / "manifest.json",
                      package / "_models" / "invariants" / "manifest.json"):
        if candidate.is_file():
            return candidate
    return None


def load(path: str | Path | None = None) -> Manifest:
    """Read and validate a manifest; raises ManifestError naming the file, line and field."""
    path = Path(path) if path is not None else default_path()
    if path is None:
        raise ManifestError("no model manifest found (invariants/manifest.json)")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ManifestError(f"cannot read the manifest {path}: {e.strerror}") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ManifestError(f"invalid JSON: {e.msg}", Span(str(path), e.lineno, e.colno),
                            text) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("models"), list):
        raise ManifestError('expected an object {"models": [...]}', Span(str(path), 1, 1), text)
    root = path.resolve().parent.parent
    entries: list[Entry] = []
    seen: set[str] = set()
    for i, raw in enumerate(doc["models"]):
        entry = _entry(raw, i, root, path, text)
        if entry.name in seen:
            raise ManifestError(f"{path}: model {entry.name!r} is listed twice",
                                _span_of(entry.name, path, text, nth=2), text)
        seen.add(entry.name)
        entries.append(entry)
    return Manifest(path, tuple(entries))


def _entry(raw, index: int, root: Path, path: Path, text: str) -> Entry:
    where = f"models[{index}]"
    name = raw.get("name") if isinstance(raw, dict) else None
    span = _span_of(name, path, text) if isinstance(name, str) else None

    def bad(message: str) -> ManifestError:
        if span is None:
            return ManifestError(f"{path}: {where}: {message}")
        return ManifestError(f"model {name!r}: {message}", span, text)

    if not isinstance(raw, dict):
        raise bad("expected an object")
    unknown = sorted(set(raw) - _KEYS)
    if unknown:
        raise bad(f"unknown field {unknown[0]!r}")
    for key in ("name", "spec", "config"):
        if not isinstance(raw.get(key), str) or not raw[key]:
            raise bad(f"{key!r} must be a non-empty string")
    lib = raw.get("lib", [])
    if not isinstance(lib, list) or not all(isinstance(d, str) for d in lib):
        raise bad("'lib' must be a list of directory names")
    if raw.get("size") not in SIZES:
        raise bad(f"'size' must be one of {', '.join(SIZES)}")
    verdict = raw.get("verdict")
    if verdict not in VERDICTS:
        raise bad(f"'verdict' must be one of {', '.join(VERDICTS)}")
    prop = raw.get("property")
    if verdict in (INVARIANT, PROPERTY) and not isinstance(prop, str):
        raise bad(f"verdict {verdict!r} needs the violated 'property'")
    if verdict in (OK, DEADLOCK) and prop is not None:
        raise bad(f"'property' must be null when the verdict is {verdict!r}")
    for key in _COUNTS:
        value = raw.get(key)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                                  or value < 0):
            raise bad(f"{key!r} must be a non-negative integer or null")
    if verdict == OK and raw.get("trace_length") is not None:
        raise bad("'trace_length' must be null when the verdict is 'ok'")
    trace = raw.get("trace")
    if trace is not None and not isinstance(trace, str):
        raise bad("'trace' must be a path or null")
    liveness = raw.get("liveness", False)
    if not isinstance(liveness, bool):
        raise bad("'liveness' must be true or false")
    return Entry(raw["name"], raw["spec"], raw["config"], tuple(lib), raw["size"], verdict,
                 prop, raw.get("distinct_states"), raw.get("states_generated"),
                 raw.get("depth"), raw.get("trace_length"), trace, liveness, root)


def _span_of(name: str, path: Path, text: str, nth: int = 1) -> Span | None:
    """Where the nth `"name": "<name>"` is in the file (for error messages)."""
    needle = json.dumps(name)
    for i, line in enumerate(text.splitlines(), 1):
        if '"name"' in line and needle in line:
            nth -= 1
            if nth == 0:
                col = line.index(needle) + 1
                return Span(str(path), i, col, i, col + len(needle))
    return None
