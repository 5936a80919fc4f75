"""Which process takes each action, and which messages it exchanges: declared, per model.

A lanes file (JSON) says how to draw a trace as a sequence diagram, one lane per process:

    {
      "lanes": ["controller", {"domainOf": "alive"}],
      "actions": {
        "Heartbeat": {"lane": "controller",
                      "messages": [{"from": "$b", "label": "BrokerHeartbeat"}]},
        "DirFail": {"lane": "$b"}
      }
    }

`lanes` fixes the first lanes and their order: a name, or `{"domainOf": VAR}` for one lane per
key of that variable's function in the first state (e.g. every broker, in TLC's order). Each
entry of `actions` names the lane an action is drawn on, `"$p"` being the value of its
parameter p (`"$d[1]"`: the first component of a tuple parameter d); its `messages` are
arrows `from` a lane `to` a lane (either defaults to the action's lane) with a `label`
(default: the action's name). Actions not listed, and every
action when there is no lanes file, get a lane named after the action. Lanes an action names
that `lanes` does not list follow, in order of first use.

kipcheck looks for the file given with `--lanes`, else for `CFG.lanes.json` next to the .cfg,
then `SPEC.lanes.json` next to the spec or the .cfg (CFG and SPEC: the file names without
`.cfg`/`.tla`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..semantics.values import Fn
from .counterexample import Counterexample, Step


class LanesError(Exception):
    def __init__(self, message: str, file: str | None = None):
        super().__init__(message)
        self.message, self.file = message, file

    def format(self) -> str:
        return f"{self.file or '<lanes>'}: error: {self.message}"


@dataclass
class Message:
    source: str
    target: str
    label: str


@dataclass
class Event:
    step: int  # index into the counterexample's steps (len(steps) for the lasso's closing step)
    lane: str
    label: str
    messages: list[Message] = field(default_factory=list)


@dataclass
class Diagram:
    lanes: list[str]
    events: list[Event]  # one per step after the first, and one for a lasso's closing step


def find_lanes(spec: str | Path | None, config: str | Path | None) -> Path | None:
    """The conventional lanes file of a model, if there is one."""
    candidates = []
    if config is not None:
        c = Path(config)
        candidates.append(c.with_name(c.stem + ".lanes.json"))
    if spec is not None:
        s = Path(spec)
        candidates.append(s.with_name(s.stem + ".lanes.json"))
        if config is not None:
            candidates.append(Path(config).with_name(s.stem + ".lanes.json"))
    for path in candidates:
        if path.is_file():
            return path
    return None


def load_lanes(path: str | Path) -> dict:
    """Read and check a lanes file."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise LanesError(f"cannot read the lanes file: {e.strerror}", str(path)) from None
    except UnicodeDecodeError as e:
        raise LanesError(f"not UTF-8 text (byte {e.object[e.start]:#04x} at offset {e.start})",
                         str(path)) from None
    except json.JSONDecodeError as e:
        raise LanesError(f"{e.lineno}:{e.colno}: invalid JSON: {e.msg}", str(path)) from None
    try:
        validate(doc)
    except LanesError as e:
        raise LanesError(e.message, str(path)) from None
    return doc


def validate(doc) -> None:
    if type(doc) is not dict:
        raise LanesError("a lanes file is a JSON object with `lanes` and `actions`")
    unknown = set(doc) - {"lanes", "actions", "description"}
    if unknown:
        raise LanesError(f"unknown key {sorted(unknown)[0]!r} (expected lanes, actions)")
    for i, lane in enumerate(doc.get("lanes", [])):
        if type(lane) is str:
            continue
        if type(lane) is not dict or set(lane) != {"domainOf"} or type(lane["domainOf"]) \
                is not str:
            raise LanesError(f"lanes[{i}]: a lane is a name or {{\"domainOf\": VARIABLE}}")
    actions = doc.get("actions", {})
    if type(actions) is not dict:
        raise LanesError("actions: an object from action names to {lane, messages}")
    for name, spec in actions.items():
        where = f"actions.{name}"
        if type(spec) is not dict or set(spec) - {"lane", "messages"} or "lane" not in spec:
            raise LanesError(f"{where}: expected {{\"lane\": ..., \"messages\": [...]}}")
        if type(spec["lane"]) is not str:
            raise LanesError(f"{where}.lane: a lane name or \"$parameter\"")
        for j, m in enumerate(spec.get("messages", [])):
            if type(m) is not dict or set(m) - {"from", "to", "label"} or any(
                    type(x) is not str for x in m.values()):
                raise LanesError(f"{where}.messages[{j}]: expected {{\"from\", \"to\", "
                                 f"\"label\"}} strings")


def diagram(cx: Counterexample, lanes: dict | None = None) -> Diagram:
    """Lanes and events of `cx` under the lanes declaration (or one lane per action name)."""
    lanes = lanes or {}
    order: list[str] = []

    def add(lane: str) -> str:
        if lane not in order:
            order.append(lane)
        return lane

    for entry in lanes.get("lanes", []):
        if type(entry) is str:
            add(entry)
        else:
            for key in _domain(cx, entry["domainOf"]):
                add(_text(cx, key))
    actions = lanes.get("actions", {})
    events = []
    closing = [(len(cx.steps), cx.back)] if cx.back is not None and cx.back.label else []
    for i, step in list(enumerate(cx.steps))[1:] + closing:
        name = step.name or step.label
        spec = actions.get(step.name) if step.name else None
        if spec is None:
            events.append(Event(i, add(name), step.label or name))
            continue
        lane = add(_resolve(cx, step, spec["lane"], name))
        messages = []
        for m in spec.get("messages", []):
            source = add(_resolve(cx, step, m.get("from", spec["lane"]), name))
            target = add(_resolve(cx, step, m.get("to", spec["lane"]), name))
            messages.append(Message(source, target, m.get("label", step.name)))
        events.append(Event(i, lane, step.label or name, messages))
    return Diagram(order, events)


def _domain(cx: Counterexample, variable: str) -> list:
    if variable not in cx.variables or not cx.steps:
        return []
    value = cx.steps[0].state[cx.variables.index(variable)]
    if type(value) is Fn:
        return [k for k, _ in cx.printer.items(value)]
    if type(value) is tuple:
        return list(range(1, len(value) + 1))
    return []


def _text(cx: Counterexample, value) -> str:
    return value if type(value) is str else cx.show(value)


def _resolve(cx: Counterexample, step: Step, ref: str, fallback: str) -> str:
    """A lane reference: `$p` is the value of parameter p, `$p[i]` the i-th component (from 1)
    of a tuple p, e.g. the broker of a dir <<b, 1>>; the action's name if there is none."""
    if not ref.startswith("$"):
        return ref
    name, index = ref[1:], None
    if name.endswith("]") and "[" in name:
        name, _, i = name[:-1].partition("[")
        index = int(i) if i.isdigit() else None
    for pname, value in step.params:
        if pname == name:
            if index is not None:
                if type(value) is not tuple or not 1 <= index <= len(value):
                    return fallback
                value = value[index - 1]
            return _text(cx, value)
    return fallback
