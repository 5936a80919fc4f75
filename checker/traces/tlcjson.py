"""Counterexamples in the shape of TLC's `-dumpTrace json FILE`, for tools written against TLC.

TLC serializes its `CounterExample` record (module TLCExt) with the Json module:
`{"action": [[[i, state_i], action, [j, state_j]], ...], "state": [[i, state_i], ...]}`, states
numbered from 1, each a record of the variables, an action a record `name`, `location`, and for
an action with parameters `context` (parameter -> value) and `parameters` (their names); a lasso
adds the edge from the last state back to the loop's state. Values as the Json module writes
them: records and other functions as objects (keys printed as TLA+ values unless strings),
sequences and sets as arrays, model values as their names. kipcheck knows no source location of
an action instance, so `location` is left out. TLC writes no JSON for a "not completely
specified" error; kipcheck writes the variables its last state leaves unassigned as JSON null.
"""
from __future__ import annotations

import json

from ..semantics.values import NULL, Fn, LazySet, ModelValue
from .counterexample import Counterexample, Step


def _value(v, printer):
    t = type(v)
    if t is bool or t is int or t is str:
        return v
    if t is ModelValue:
        return v.name
    if v is NULL:
        return None
    if t is tuple:
        return [_value(e, printer) for e in v]
    if t is frozenset:
        return [_value(e, printer) for e in printer.elements(v)]
    if t is Fn:
        return {(k if type(k) is str else printer.show(k)): _value(x, printer)
                for k, x in printer.items(v)}
    if isinstance(v, LazySet) and v.finite:
        return [_value(e, printer) for e in printer.elements(v.materialise())]
    return printer.show(v)


def _action(step: Step | None, printer) -> dict:
    if step is None or step.name is None:
        return {"name": "UnnamedAction"}
    out: dict = {"name": step.name}
    if step.params:
        out["context"] = {n: _value(v, printer) for n, v in step.params}
        out["parameters"] = [n for n, _ in step.params]
    return out


def to_tlc_json(cx: Counterexample) -> dict:
    p = cx.printer
    states = [[i + 1, {n: _value(v, p) for n, v in zip(cx.variables, s.state, strict=True)}]
              for i, s in enumerate(cx.steps)]
    actions = [[states[i - 1], _action(cx.steps[i], p), states[i]]
               for i in range(1, len(states))]
    if cx.loop is not None:
        actions.append([states[-1], _action(cx.back, p), states[cx.loop]])
    return {"action": actions, "state": states}


def dumps(cx: Counterexample) -> str:
    """Compact, as TLC writes it."""
    return json.dumps(to_tlc_json(cx), ensure_ascii=False, separators=(",", ":"))
