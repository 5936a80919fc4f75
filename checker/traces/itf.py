"""Counterexamples in the Informal Trace Format (ITF) of Apalache and Quint, and back.

The format (ADR-015): `{"#meta", "vars", "states", "loop"?}`, each state `{"#meta": {"index"},
var: value, ...}`. Values: booleans, strings and integers as JSON (`{"#bigint": "..."}` beyond
±(2^53 - 1)), sequences as arrays, records as objects, `{"#set": [...]}`, `{"#tup": [...]}`,
`{"#map": [[key, value], ...]}` for other functions, and `{"#unserializable": "text"}` for what
JSON has no form for: kipcheck writes model values so (`{"#unserializable": "b1"}`), which keeps
them apart from strings, and infinite sets by their TLA+ text (a finite set kept lazily, such as
`{b} \\X 1..2`, is written out as a `#set`).

kipcheck keeps in `#meta` what it needs to render the trace again exactly: each state's action
(`action`, `actionName`, `params`), the lasso's closing action (`loopAction`), the verdict and
property, TLC's order of the names (`order`) and the sequence-diagram lanes (`lanes`).

The last state of a "not completely specified" error has variables the action left unassigned
(TLC prints them as `null`): each is written `{"#unserializable": "null"}`, and the state's
`#meta` lists them in `unassigned`, so reading it back gives them no value again (a model value
named null stays a model value).
"""
from __future__ import annotations

import json
import re

from ..semantics import values as V
from ..semantics.values import NULL, Fn, LazySet, ModelValue, intern_names, make_fn
from .counterexample import Counterexample, Step
from .order import Opaque

FORMAT_URL = "https://apalache-mc.org/docs/adr/015adr-trace.html"
MAX_SAFE = 2 ** 53 - 1
_NAMED_SETS = {"Nat": V.NAT, "Int": V.INT, "STRING": V.STRING, "Real": V.REAL}
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class TraceFormatError(Exception):
    """A trace file that is not a counterexample kipcheck can read; `where` locates it."""

    def __init__(self, message: str, where: str = ""):
        super().__init__(message)
        self.message, self.where = message, where

    def format(self, file: str) -> str:
        where = f" (at {self.where})" if self.where else ""
        return f"{file}: error: {self.message}{where}"


# ---------------------------------------------------------------------------------------------
# Writing


def encode(value, printer):
    """A runtime value as an ITF expression (sets and functions in TLC's order)."""
    t = type(value)
    if t is bool or t is str:
        return value
    if t is int:
        return value if -MAX_SAFE <= value <= MAX_SAFE else {"#bigint": str(value)}
    if t is ModelValue:
        return {"#unserializable": value.name}
    if t is frozenset:
        return {"#set": [encode(e, printer) for e in printer.elements(value)]}
    if t is tuple:
        return [encode(e, printer) for e in value]
    if t is Fn:
        pairs = printer.items(value)
        if all(type(k) is str and not k.startswith("#") for k, _ in pairs):
            return {k: encode(v, printer) for k, v in pairs}
        return {"#map": [[encode(k, printer), encode(v, printer)] for k, v in pairs]}
    if isinstance(value, LazySet) and value.finite:  # {b} \X 1..2 kept lazily in a state
        return {"#set": [encode(e, printer) for e in printer.elements(value.materialise())]}
    if isinstance(value, LazySet) or t is Opaque or value is NULL:
        return {"#unserializable": repr(value)}
    raise TraceFormatError(f"cannot write the value {value!r} in a trace")


def _action_meta(step: Step, printer) -> dict:
    out: dict = {"action": step.label, "actionName": step.name}
    if step.params:
        out["params"] = {n: encode(v, printer) for n, v in step.params}
    return out


def to_itf(cx: Counterexample) -> dict:
    """The ITF document of `cx`."""
    p = cx.printer
    meta: dict = {"format": "ITF", "format-description": FORMAT_URL,
                  "description": "Counterexample found by kipcheck"}
    for key, value in (("source", cx.spec), ("model", cx.model), ("verdict", cx.verdict),
                       ("property", cx.property), ("message", cx.message)):
        if value is not None:
            meta[key] = value
    if cx.back is not None and cx.back.label is not None:
        meta["loopAction"] = _action_meta(cx.back, p)
    meta["order"] = list(cx.order)
    if cx.lanes is not None:
        meta["lanes"] = cx.lanes
    for key, value in cx.extra.items():
        meta.setdefault(key, value)
    states = []
    for i, step in enumerate(cx.steps):
        smeta: dict = {"index": i}
        if step.label is not None:
            smeta.update(_action_meta(step, p))
        unassigned = [n for n, v in zip(cx.variables, step.state, strict=True) if v is NULL]
        if unassigned:
            smeta["unassigned"] = unassigned
        state = {"#meta": smeta}
        for name, value in zip(cx.variables, step.state, strict=True):
            state[name] = encode(value, p)
        states.append(state)
    doc = {"#meta": meta, "vars": list(cx.variables), "states": states}
    if cx.loop is not None:
        doc["loop"] = cx.loop
    return doc


def dumps(cx: Counterexample) -> str:
    """The ITF text: one line per #meta entry and per variable of each state, so that traces
    diff well."""
    doc = to_itf(cx)

    def obj(d: dict, pad: str) -> str:
        fields = [f"{pad}  {_line(k)}: {_line(v)}" for k, v in d.items()]
        return "{\n" + ",\n".join(fields) + f"\n{pad}}}"

    states = ",\n".join("    " + obj(state, "    ") for state in doc["states"])
    out = ["{", f'  "#meta": {obj(doc["#meta"], "  ")},', f'  "vars": {_line(doc["vars"])},',
           '  "states": [', states, "  ]" + ("," if "loop" in doc else "")]
    if "loop" in doc:
        out.append(f'  "loop": {doc["loop"]}')
    out.append("}")
    return "\n".join(out) + "\n"


def _line(v) -> str:
    return json.dumps(v, ensure_ascii=False)


# ---------------------------------------------------------------------------------------------
# Reading


def decode(x, where: str = "value"):
    """An ITF expression as a runtime value."""
    t = type(x)
    if t is bool or t is str:
        return x
    if t is int:
        return x
    if t is list:
        return tuple(decode(e, f"{where}[{i}]") for i, e in enumerate(x))
    if t is dict:
        if len(x) == 1:
            ((tag, body),) = x.items()
            if tag == "#bigint":
                if type(body) is not str or not re.fullmatch(r"-?[0-9]+", body):
                    raise TraceFormatError("#bigint needs a string of digits", where)
                return int(body)
            if tag in ("#set", "#tup"):
                if type(body) is not list:
                    raise TraceFormatError(f"{tag} needs an array", where)
                elems = [decode(e, f"{where}.{tag}[{i}]") for i, e in enumerate(body)]
                return frozenset(elems) if tag == "#set" else tuple(elems)
            if tag == "#map":
                return _decode_map(body, where)
            if tag == "#unserializable":
                if type(body) is not str:
                    raise TraceFormatError("#unserializable needs a string", where)
                return _unserializable(body)
        if any(k.startswith("#") for k in x):
            raise TraceFormatError(f"unknown ITF form {sorted(x)}", where)
        return make_fn([(k, decode(v, f"{where}.{k}")) for k, v in x.items()])
    raise TraceFormatError(f"a {t.__name__} is not an ITF value", where)


def _decode_map(body, where: str):
    if type(body) is not list or any(type(p) is not list or len(p) != 2 for p in body):
        raise TraceFormatError("#map needs an array of [key, value] pairs", where)
    pairs = [(decode(k, f"{where}.#map[{i}][0]"), decode(v, f"{where}.#map[{i}][1]"))
             for i, (k, v) in enumerate(body)]
    if len({k for k, _ in pairs}) != len(pairs):
        raise TraceFormatError("#map has a key twice", where)
    return make_fn(pairs)


def _unserializable(text: str):
    if text in _NAMED_SETS:
        return _NAMED_SETS[text]
    if _IDENT.match(text):
        return ModelValue(text)
    return Opaque(text)


def _read_action(meta: dict, where: str) -> tuple:
    label = meta.get("action")
    if label is not None and type(label) is not str:
        raise TraceFormatError("the action label must be a string", f"{where}.action")
    name = meta.get("actionName")
    if name is None and label is not None:
        name = label.split("(", 1)[0]
    params = meta.get("params", {})
    if type(params) is not dict:
        raise TraceFormatError("params must be an object", f"{where}.params")
    return label, name, tuple((k, decode(v, f"{where}.params.{k}")) for k, v in params.items())


def from_itf(doc) -> Counterexample:
    """The counterexample an ITF document holds (any tool's; kipcheck's round-trips exactly)."""
    if type(doc) is not dict:
        raise TraceFormatError("an ITF trace is a JSON object")
    meta = doc.get("#meta", {})
    if type(meta) is not dict:
        raise TraceFormatError("#meta must be an object", "#meta")
    variables = doc.get("vars")
    if type(variables) is not list or any(type(v) is not str for v in variables):
        raise TraceFormatError("vars must be an array of variable names", "vars")
    states = doc.get("states")
    if type(states) is not list or not states:
        raise TraceFormatError("states must be a non-empty array of states", "states")
    order = meta.get("order", [])
    if type(order) is not list or any(type(n) is not str for n in order):
        raise TraceFormatError("order must be an array of strings", "#meta.order")
    # Rebuild values under the recorded order, so functions get their canonical key order.
    intern_names(order)
    steps = []
    for i, state in enumerate(states):
        where = f"states[{i}]"
        if type(state) is not dict:
            raise TraceFormatError("a state must be an object", where)
        missing = [v for v in variables if v not in state]
        if missing:
            raise TraceFormatError(f"variable {missing[0]!r} has no value", where)
        extra = [k for k in state if k != "#meta" and k not in variables]
        if extra:
            raise TraceFormatError(f"{extra[0]!r} is not in vars", where)
        smeta = state.get("#meta", {})
        if type(smeta) is not dict:
            raise TraceFormatError("#meta must be an object", f"{where}.#meta")
        label, name, params = _read_action(smeta, f"{where}.#meta")
        unassigned = smeta.get("unassigned", [])
        if type(unassigned) is not list or any(v not in variables for v in unassigned):
            raise TraceFormatError("unassigned must be an array of variables",
                                   f"{where}.#meta.unassigned")
        values = tuple(NULL if v in unassigned else decode(state[v], f"{where}.{v}")
                       for v in variables)
        steps.append(Step(label, name, params, values))
    loop = doc.get("loop")
    back = None
    if loop is not None:
        if type(loop) is not int or not 0 <= loop < len(steps):
            raise TraceFormatError(f"loop must be a state index below {len(steps)}", "loop")
        label, name, params = _read_action(meta.get("loopAction", {}), "#meta.loopAction")
        back = Step(label, name, params, steps[loop].state)
    if not order:  # another tool's trace: names in the order the file shows them
        names: list[str] = []
        _json_names([s.get("#meta", {}).get("params", {}) for s in states], names)
        _json_names([{v: s[v] for v in variables} for s in states], names)
        order = list(dict.fromkeys(names))
    known = {"format", "format-description", "description", "source", "model", "verdict",
             "property", "message", "loopAction", "order", "lanes"}
    lanes = meta.get("lanes")
    if lanes is not None and type(lanes) is not dict:
        raise TraceFormatError("lanes must be an object", "#meta.lanes")
    return Counterexample(
        variables=tuple(variables), steps=steps, loop=loop, back=back,
        verdict=meta.get("verdict", "invariant"), property=meta.get("property"),
        spec=meta.get("source"), model=meta.get("model"), message=meta.get("message"),
        order=tuple(order), lanes=lanes,
        extra={k: v for k, v in meta.items() if k not in known})


def _json_names(x, out: list[str]) -> None:
    """The strings and model-value names of ITF expressions, in document order."""
    if type(x) is str:
        out.append(x)
    elif type(x) is list:
        for e in x:
            _json_names(e, out)
    elif type(x) is dict:
        if set(x) == {"#unserializable"}:
            _json_names(x["#unserializable"], out)
        elif set(x) == {"#bigint"}:
            return
        else:
            for k, v in x.items():
                if not k.startswith("#"):
                    out.append(k)
                _json_names(v, out)


def loads(text: str) -> Counterexample:
    """Parse ITF text; JSON syntax errors are reported with their line and column."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        where = f"line {e.lineno}, column {e.colno}"
        raise TraceFormatError(f"invalid JSON: {e.msg}", where) from None
    return from_itf(doc)
