"""Native evaluation of the CommunityModules operators that kipcheck ships (Folds,
FiniteSetsExt, Functions, SequencesExt, Bitwise, DyadicRationals, Graphs, UndirectedGraphs,
BagsExt, IOUtils, Json, SVG, VectorClocks) and of TLC's TLCExt, as TLC's Java overrides
evaluate them.

The modules' .tla text (checker/frontend/stdlib) gives every operator a definition; the ones
listed in NATIVE here are evaluated by these functions instead, because their definitions
recurse over SUBSET S, range over infinite sets or CHOOSE from sets of functions and would be
far too slow, or because what they do (read the environment, read and write files) is no
mathematical definition.
"""
from __future__ import annotations

import itertools
import json
import math
import os
import re
from pathlib import Path

from .runtime import EvalError, _set, app, domain, ordered, show, truth
from .values import Fn, ModelValue, make_fn

__all__ = ["map_then_fold_set", "fold_set", "fold_function", "set_max", "set_min", "set_sum",
           "fn_range", "set_to_seq", "choices", "bit_and", "bit_or", "bit_xor", "bit_not",
           "shift_r", "dyadic_reduce", "simple_paths", "are_connected_in",
           "is_strongly_connected", "connected_components", "fold_bag", "io_env", "atoi",
           "serialize", "deserialize", "not_supported", "to_json", "json_serialize",
           "json_deserialize", "nd_json_serialize", "nd_json_deserialize", "svg_elem_to_string",
           "causal_order", "assert_error", "tlc_trace", "tlc_model_value", "tlc_get_or_default",
           "pick_successor"]


def map_then_fold_set(op, base, f, choose, s):
    """op(f(x1), op(f(x2), ... op(f(xn), base))), with x1 = choose(S), x2 = choose(S \\ {x1})."""
    rest = _set(s)
    picked = []
    while rest:
        x = choose(rest)
        picked.append(x)
        rest = rest - {x}
    acc = base
    for x in reversed(picked):
        acc = op(f(x), acc)
    return acc


def fold_set(op, base, s):
    """MapThenFoldSet(op, base, identity, CHOOSE-any, S): the elements in TLC's order."""
    acc = base
    for x in reversed(ordered(_set(s))):
        acc = op(x, acc)
    return acc


def fold_function(op, base, fun, indices=None):
    """FoldFunctionOnSet(op, base, fun, indices); FoldFunction when indices is DOMAIN fun."""
    keys = domain(fun) if indices is None else _set(indices)
    acc = base
    for k in reversed(ordered(keys)):
        acc = op(app(fun, k), acc)
    return acc


def _numbers(s, op: str) -> list:
    elems = ordered(_set(s))
    for x in elems:
        if type(x) is not int:
            raise EvalError(f"The argument of {op} should be a set of integers, but it contains "
                            f"{show(x)}")
    return elems


_NO_CHOICE = ("Attempted to compute the value of an expression of form\nCHOOSE x \\in S: P, "
              "but no element of S satisfied P.")


def set_max(s):
    elems = _numbers(s, "Max")
    if not elems:
        raise EvalError(_NO_CHOICE)
    return max(elems)


def set_min(s):
    elems = _numbers(s, "Min")
    if not elems:
        raise EvalError(_NO_CHOICE)
    return min(elems)


def set_sum(s):
    return sum(_numbers(s, "SumSet"))


def fn_range(f):
    """{f[x] : x \\in DOMAIN f}."""
    t = type(f)
    if t is tuple:
        return frozenset(f)
    return frozenset(app(f, k) for k in domain(f))


def choices(sets):
    """Choices(Sets) as TLC's override computes it: for each way of picking one element of
    every set of Sets, the set of the picked elements."""
    members = [ordered(_set(t)) for t in ordered(_set(sets))]
    return frozenset(frozenset(pick) for pick in itertools.product(*members))


def set_to_seq(s):
    """The elements of S in TLC's order."""
    return tuple(ordered(_set(s)))


# --- Bitwise: on natural numbers, as the module's definitions by binary digits give them

def _naturals(op: str, *xs) -> None:
    for x in xs:
        if type(x) is not int or x < 0:
            raise EvalError(f"The arguments of {op} should be natural numbers, but one is "
                            f"{show(x)}")


def bit_and(x, y):
    _naturals("&", x, y)
    return x & y


def bit_or(x, y):
    _naturals("|", x, y)
    return x | y


def bit_xor(x, y):
    _naturals("^^", x, y)
    return x ^ y


def bit_not(x):
    """x with its binary digits flipped up to its most significant one (Not(0) = 0)."""
    _naturals("Not", x)
    return x ^ ((1 << x.bit_length()) - 1)


def shift_r(n, pos):
    _naturals("shiftR", n, pos)
    return n >> pos


# --- DyadicRationals

def dyadic_reduce(p):
    """The rational [num, den] in lowest terms (0 / d is 0 / 1)."""
    num, den = app(p, "num"), app(p, "den")
    if type(num) is not int or type(den) is not int:
        raise EvalError(f"The argument of Reduce should be a record of integers num and den, "
                        f"but instead it is:\n{show(p)}")
    g = math.gcd(num, den)
    if g in (0, 1):
        return p
    return make_fn([("num", num // g), ("den", den // g)])


# --- Graphs and UndirectedGraphs: G is [node |-> Nodes, edge |-> Edges]

def _graph(op: str, g, kind: str):
    try:
        nodes, edges = app(g, "node"), app(g, "edge")
        return ordered(_set(nodes)), ordered(_set(edges))
    except EvalError:
        raise EvalError(f"The argument of {op} should be a {kind} (a record with a node and an "
                        f"edge field, both sets), but instead it is:\n{show(g)}") from None


def _ends(e, undirected: bool):
    """An edge's two ends, or None for a value that can denote no edge (it is skipped, as
    the definitions can never match it): a pair <<a, b>>; a set {a, b}, {a} being a loop."""
    if undirected:
        if type(e) is not frozenset or not 1 <= len(e) <= 2:
            return None
        ends = ordered(e)
        return ends[0], ends[-1]
    if type(e) is not tuple or len(e) != 2:
        return None
    return e


def _adjacency(nodes, edges, undirected: bool, transpose: bool = False) -> dict:
    """Each node's successors (in the order of the edges), over edges within the nodes."""
    inside = set(nodes)
    adj: dict = {}
    for e in edges:
        ends = _ends(e, undirected)
        if ends is None or ends[0] not in inside or ends[1] not in inside:
            continue
        a, b = (ends[1], ends[0]) if transpose else ends
        adj.setdefault(a, []).append(b)
        if undirected and a != b:
            adj.setdefault(b, []).append(a)
    return adj


def _reachable(start, adj: dict) -> set:
    seen, todo = {start}, [start]
    while todo:
        for m in adj.get(todo.pop(), ()):
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return seen


def simple_paths(g, undirected: bool):
    """SimplePath(G): every nonempty path of G that visits no node twice."""
    nodes, edges = _graph("SimplePath", g, "graph")
    adj = _adjacency(nodes, edges, undirected)
    paths = []

    def extend(path, seen):
        paths.append(tuple(path))
        for m in adj.get(path[-1], ()):
            if m not in seen:
                seen.add(m)
                path.append(m)
                extend(path, seen)
                path.pop()
                seen.discard(m)

    for n in nodes:
        extend([n], {n})
    return frozenset(paths)


def are_connected_in(m, n, g, undirected: bool):
    """AreConnectedIn(m, n, G): is there a path from m to n (<<m>> being one from m to m)?"""
    nodes, edges = _graph("AreConnectedIn", g, "graph")
    if m not in nodes or n not in nodes:
        return False
    if m == n:
        return True
    return n in _reachable(m, _adjacency(nodes, edges, undirected))


def is_strongly_connected(g):
    """Graphs!IsStronglyConnected(G): every node reaches some node r and r reaches them all."""
    nodes, edges = _graph("IsStronglyConnected", g, "graph")
    if not nodes:
        return True
    r = nodes[0]
    return (len(_reachable(r, _adjacency(nodes, edges, False))) == len(nodes)
            and len(_reachable(r, _adjacency(nodes, edges, False, True))) == len(nodes))


def connected_components(g):
    """UndirectedGraphs!ConnectedComponents(G): the sets of nodes joined by paths."""
    nodes, edges = _graph("ConnectedComponents", g, "undirected graph")
    adj = _adjacency(nodes, edges, True)
    comps, placed = [], set()
    for n in nodes:
        if n not in placed:
            comp = _reachable(n, adj)
            placed |= comp
            comps.append(frozenset(comp))
    return frozenset(comps)


# --- BagsExt

def fold_bag(op, base, bag):
    """FoldBag(op, base, B) as TLC's override: acc := op(acc, x) once per copy of each x."""
    acc = base
    for x in ordered(domain(bag)):
        n = app(bag, x)
        if type(n) is not int or n <= 0:
            raise EvalError(f"The third argument of FoldBag should be a bag, but {show(x)} has "
                            f"{show(n)} copies")
        for _ in range(n):
            acc = op(acc, x)
    return acc


# --- Files: a relative name is resolved as TLC resolves it, against the working directory;
# failing that, against the root spec's directory.

SPEC_DIR: list = [None]


def _path(name, op: str, *, reading: bool) -> Path:
    if type(name) is not str:
        raise EvalError(f"The file name given to {op} should be a string, but instead it is "
                        f"{show(name)}")
    p = Path(name)
    if reading and not p.is_absolute() and not p.exists() and SPEC_DIR[0] is not None:
        beside = Path(SPEC_DIR[0]) / p
        if beside.exists():
            return beside
    return p


def not_supported(op: str):
    raise EvalError(f"{op} is not supported by kipcheck")


# --- IOUtils

def io_env():
    """The environment variables as a record."""
    return make_fn(sorted(os.environ.items()))


def atoi(s):
    """The number a decimal string writes (as Java's Integer.parseInt reads it)."""
    if type(s) is str and re.fullmatch(r"[+-]?[0-9]+", s):
        return int(s)
    raise EvalError(f"The argument of atoi should be a string, but instead it is:\n{show(s)}")


def _exec_result(code: int, out: str, err: str):
    return make_fn([("exitValue", code), ("stdout", out), ("stderr", err)])


def _format(options, op: str) -> str:
    fmt = app(options, "format") if type(options) is Fn and "format" in options[0] else None
    if fmt != "TXT":
        not_supported(f"{op} with the format {show(fmt)} (only \"TXT\")")
    return fmt


def serialize(value, dest, options):
    """Serialize(payload, file, [format |-> "TXT", ...]): writes the string payload."""
    _format(options, "Serialize")
    if type(value) is not str:
        return _exec_result(1, "", f"Serialize error invalid parameters: {show(value)} is no "
                                   f"string")
    opts = app(options, "openOptions") if "openOptions" in options[0] else ()
    mode = "a" if "APPEND" in tuple(opts) else "w"
    try:
        with _path(dest, "Serialize", reading=False).open(mode, encoding="utf-8") as f:
            f.write(value)
    except OSError as e:
        return _exec_result(1, "", f"Serialize error writing to the file: {e}")
    return _exec_result(0, "Finish writing to the file with success!", "")


def deserialize(src, options):
    """Deserialize(file, [format |-> "TXT", ...]): the file's text as stdout."""
    _format(options, "Deserialize")
    try:
        text = _path(src, "Deserialize", reading=True).read_text(encoding="utf-8")
    except OSError as e:
        return _exec_result(1, "", f"Deserialize error reading from the file: {e}")
    return _exec_result(0, text, "")


# --- Json: TLC's mapping between values and JSON

def _is_seq_fn(v) -> bool:
    return type(v) is Fn and all(type(k) is int for k in v[0]) and list(v[0]) == list(
        range(1, len(v[0]) + 1))


def _json(v):
    t = type(v)
    if t is bool or t is int or t is str:
        return v
    if t is ModelValue:
        return v.name
    if t is tuple:
        return [_json(x) for x in v]
    if t is Fn:
        return {(k if type(k) is str else show(k)): _json(x)
                for k, x in zip(v[0], v[1], strict=True)}
    if t is frozenset or hasattr(v, "__iter__"):
        return [_json(x) for x in ordered(_set(v))]
    raise EvalError(f"Cannot convert value to JSON: {show(v)}")


def _json_array(v):
    if type(v) is Fn:
        return _json(v)
    return _json(v) if type(v) in (tuple, frozenset) else _not_json(v, "an array")


def _json_object(v):
    if type(v) is tuple:
        return {str(i): _json(x) for i, x in enumerate(v)}
    if type(v) is Fn:
        return _json(v)
    return _not_json(v, "an object")


def _not_json(v, what: str):
    raise EvalError(f"Cannot convert value to JSON {what}: {show(v)}")


def _dump(doc) -> str:
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


def to_json(v, shape: str = ""):
    """ToJson, ToJsonArray, ToJsonObject: the value as compact JSON text."""
    doc = {"array": _json_array, "object": _json_object}.get(shape, _json)(v)
    return _dump(doc)


def _value(doc):
    """A JSON value as a TLA+ value: arrays are sequences, objects records."""
    t = type(doc)
    if t is bool or t is str:
        return doc
    if t is int:
        return doc
    if t is float and doc.is_integer():
        return int(doc)
    if t is list:
        return tuple(_value(x) for x in doc)
    if t is dict:
        return make_fn([(k, _value(x)) for k, x in doc.items()])
    raise EvalError(f"Cannot convert value: unsupported JSON value {_dump(doc)}")


def _write(name, op: str, text: str) -> bool:
    p = _path(name, op, reading=False)
    try:
        if p.parent != Path(""):
            p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    except OSError as e:
        raise EvalError(f"{op} cannot write {name}: {e.strerror or e}") from None
    return True


def _read(name, op: str) -> str:
    p = _path(name, op, reading=True)
    try:
        return p.read_text(encoding="utf-8")
    except OSError as e:
        raise EvalError(f"{op} cannot read {name}: {e.strerror or e}") from None


def json_serialize(name, v):
    if type(v) not in (tuple, Fn):
        raise EvalError(f"The second argument of JsonSerialize should be a sequence or record, "
                        f"but instead it is:\n{show(v)}")
    return _write(name, "JsonSerialize", _dump(_json(v)))


def nd_json_serialize(name, v):
    if type(v) is not tuple:
        raise EvalError(f"The second argument of ndJsonSerialize should be a sequence, but "
                        f"instead it is:\n{show(v)}")
    return _write(name, "ndJsonSerialize", "".join(_dump(_json(x)) + "\n" for x in v))


def _parse(text: str, name, op: str):
    try:
        return json.loads(text)
    except ValueError as e:
        raise EvalError(f"{op}: {name} is not JSON: {e}") from None


def json_deserialize(name):
    return _value(_parse(_read(name, "JsonDeserialize"), name, "JsonDeserialize"))


def nd_json_deserialize(name):
    lines = _read(name, "ndJsonDeserialize").splitlines()
    return tuple(_value(_parse(ln, name, "ndJsonDeserialize")) for ln in lines if ln.strip())


# --- SVG

def svg_elem_to_string(elem):
    """<name attr='v' ...>innerText children</name>, as TLC's override writes an element."""
    try:
        name, attrs = app(elem, "name"), app(elem, "attrs")
        children, text = app(elem, "children"), app(elem, "innerText")
    except EvalError:
        raise EvalError(f"An SVG element must be a record [name, attrs, children, innerText], "
                        f"but instead it is:\n{show(elem)}") from None
    pairs = zip(attrs[0], attrs[1], strict=True) if type(attrs) is Fn else ()
    attr = "".join(f" {str(k).replace('_', '-')}='{v if type(v) is str else show(v)}'"
                   for k, v in pairs)
    kids = children if type(children) is tuple else (
        children[1] if type(children) is Fn else ())
    inner = str(text).replace("<<", "&lt;&lt;").replace(">>", "&gt;&gt;")
    return f"<{name}{attr}>{inner}{''.join(svg_elem_to_string(c) for c in kids)}</{name}>"


# --- VectorClocks

def causal_order(log, clock, node, dom):
    """CausalOrder(log, clock, node, domain) as TLC's override computes it: each node's entries
    by their own time, an entry waiting for the entries its clock has seen from other nodes;
    then, round after round, each node in turn (in TLC's order of the nodes) emits its next
    entry if that one waits for nothing more."""
    if type(log) is not tuple:
        raise EvalError(f"The first argument of CausalOrder should be a sequence, but instead "
                        f"it is:\n{show(log)}")
    lists: dict = {}
    for entry in log:
        host = node(entry)
        vc = clock(entry)
        lists.setdefault(host, []).append({"entry": entry, "vc": vc, "time": app(vc, host),
                                           "hosts": ordered(_set(dom(vc))), "waits": set()})
    for entries in lists.values():
        entries.sort(key=lambda e: e["time"])
    for host, entries in lists.items():
        seen = dict.fromkeys(lists, 0)
        for e in entries:
            seen[host] = e["time"]
            for other in e["hosts"]:
                time = app(e["vc"], other)
                if seen.get(other, 0) < time:
                    seen[other] = time
                    e["waits"].add(id(lists[other][time - 1]))
    done: set = set()
    out = []
    hosts = ordered(frozenset(lists))
    for _ in range(len(log)):
        for host in hosts:
            entries = lists[host]
            if entries and not (entries[0]["waits"] - done):
                e = entries.pop(0)
                done.add(id(e))
                out.append(e["entry"])
    return tuple(out)


# --- TLCExt

def assert_error(err, thunk):
    """AssertError(err, exp): does evaluating exp fail with exactly the message err?"""
    try:
        thunk()
    except EvalError as e:
        return e.message == err
    return False


# The behaviour up to the state whose ALIAS is being evaluated: TLCExt!Trace there, as in TLC.
TRACE: list = [None]


def tlc_trace():
    """Trace: the states from an initial one to the current one, as records of the variables
    (only while a counterexample is printed through an ALIAS)."""
    if TRACE[0] is None:
        not_supported("Trace (outside an ALIAS)")
    return TRACE[0]


def tlc_model_value(name):
    if type(name) is not str:
        raise EvalError(f"The argument of TLCModelValue should be a string, but instead it is "
                        f"{show(name)}")
    return ModelValue(name)


def tlc_get_or_default(registers: dict, key, default):
    return registers.get(key, default)


def pick_successor(cond):
    if truth(cond):
        return True
    not_supported("PickSuccessor (picking successor states interactively)")


# (module, name) -> code template, `{0}`... the compiled arguments (as compiler.NATIVE).
NATIVE = {
    ("Folds", "MapThenFoldSet"): "map_then_fold_set({0}, {1}, {2}, {3}, {4})",
    ("FiniteSetsExt", "FoldSet"): "fold_set({0}, {1}, {2})",
    ("FiniteSetsExt", "ReduceSet"): "fold_set({0}, {2}, {1})",
    ("FiniteSetsExt", "Max"): "set_max({0})",
    ("FiniteSetsExt", "Min"): "set_min({0})",
    ("FiniteSetsExt", "SumSet"): "set_sum({0})",
    ("FiniteSetsExt", "Choices"): "choices({0})",
    ("Functions", "Range"): "fn_range({0})",
    ("Functions", "FoldFunction"): "fold_function({0}, {1}, {2})",
    ("Functions", "FoldFunctionOnSet"): "fold_function({0}, {1}, {2}, {3})",
    ("SequencesExt", "SetToSeq"): "set_to_seq({0})",
    ("Bitwise", "&"): "bit_and({0}, {1})", ("Bitwise", "|"): "bit_or({0}, {1})",
    ("Bitwise", "^^"): "bit_xor({0}, {1})", ("Bitwise", "Not"): "bit_not({0})",
    ("Bitwise", "shiftR"): "shift_r({0}, {1})",
    ("DyadicRationals", "Reduce"): "dyadic_reduce({0})",
    ("Graphs", "SimplePath"): "simple_paths({0}, False)",
    ("Graphs", "AreConnectedIn"): "are_connected_in({0}, {1}, {2}, False)",
    ("Graphs", "IsStronglyConnected"): "is_strongly_connected({0})",
    ("UndirectedGraphs", "SimplePath"): "simple_paths({0}, True)",
    ("UndirectedGraphs", "AreConnectedIn"): "are_connected_in({0}, {1}, {2}, True)",
    ("UndirectedGraphs", "ConnectedComponents"): "connected_components({0})",
    ("BagsExt", "FoldBag"): "fold_bag({0}, {1}, {2})",
    ("IOUtils", "IOEnv"): "io_env()", ("IOUtils", "atoi"): "atoi({0})",
    ("IOUtils", "Serialize"): "serialize({0}, {1}, {2})",
    ("IOUtils", "Deserialize"): "deserialize({0}, {1})",
    ("IOUtils", "IOSerialize"): "not_supported('IOSerialize')",
    ("IOUtils", "IODeserialize"): "not_supported('IODeserialize')",
    ("IOUtils", "IOExec"): "not_supported('IOExec')",
    ("IOUtils", "IOEnvExec"): "not_supported('IOEnvExec')",
    ("IOUtils", "IOExecTemplate"): "not_supported('IOExecTemplate')",
    ("IOUtils", "IOEnvExecTemplate"): "not_supported('IOEnvExecTemplate')",
    ("Json", "ToJson"): "to_json({0})", ("Json", "ToJsonArray"): "to_json({0}, 'array')",
    ("Json", "ToJsonObject"): "to_json({0}, 'object')",
    ("Json", "JsonSerialize"): "json_serialize({0}, {1})",
    ("Json", "JsonDeserialize"): "json_deserialize({0})",
    ("Json", "ndJsonSerialize"): "nd_json_serialize({0}, {1})",
    ("Json", "ndJsonDeserialize"): "nd_json_deserialize({0})",
    ("SVG", "SVGElemToString"): "svg_elem_to_string({0})",
    ("VectorClocks", "CausalOrder"): "causal_order({0}, {1}, {2}, {3})",
    ("TLCExt", "AssertError"): "assert_error({0}, lambda: {1})",
    ("TLCExt", "TLCModelValue"): "tlc_model_value({0})",
    ("TLCExt", "TLCGetOrDefault"): "tlc_get_or_default(TLC_REGISTERS, {0}, {1})",
    ("TLCExt", "PickSuccessor"): "pick_successor({0})",
    ("TLCExt", "TLCDefer"): "(({0}) is None or True)",
    ("TLCExt", "Trace"): "tlc_trace()",
    ("TLCExt", "CounterExample"): "not_supported('CounterExample')",
    ("TLCExt", "ToTrace"): "not_supported('ToTrace')",
    ("TLCExt", "TLCFP"): "not_supported('TLCFP')",
    ("TLCExt", "TLCEvalDefinition"): "not_supported('TLCEvalDefinition')",
}
# Native operators whose arguments at these positions are operators (Python callables).
HIGHER_ORDER = {
    ("Folds", "MapThenFoldSet"): (0, 2, 3),
    ("FiniteSetsExt", "FoldSet"): (0,),
    ("FiniteSetsExt", "ReduceSet"): (0,),
    ("Functions", "FoldFunction"): (0,),
    ("Functions", "FoldFunctionOnSet"): (0,),
    ("BagsExt", "FoldBag"): (0,),
    ("VectorClocks", "CausalOrder"): (1, 2, 3),
}
# Native operators with effects (printing, registers, writing files): never evaluated ahead
# of time.
IMPURE = {("IOUtils", "Serialize"), ("Json", "JsonSerialize"),
          ("Json", "ndJsonSerialize"), ("TLCExt", "TLCGetOrDefault"), ("TLCExt", "AssertError"),
          ("TLCExt", "Trace")}
# Native operators that read a file or the environment: not evaluated ahead of time inside an
# expression (an ASSUME may read a file that an earlier one writes), but a definition without
# parameters that reads one and no state is computed once, as TLC computes it before the
# search (a trace spec's log).
READS = {("IOUtils", "IOEnv"), ("IOUtils", "Deserialize"), ("Json", "JsonDeserialize"),
         ("Json", "ndJsonDeserialize")}
MODULES = ("Folds", "FiniteSetsExt", "Functions", "SequencesExt", "Bitwise", "DyadicRationals",
           "Relation", "Graphs", "UndirectedGraphs", "BagsExt", "IOUtils", "Json", "SVG",
           "VectorClocks", "TLCExt")
