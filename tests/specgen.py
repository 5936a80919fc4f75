"""Random small TLA+ models for fuzzing: one seed gives one (spec, cfg) pair, always the same.

Most cases are well-formed models whose state spaces stay small (every variable ranges over a
finite domain of at most a few dozen values, and every expression of a type stays inside its
domain: arithmetic is taken modulo the constant K, sequences are appended to only while short),
so that kipcheck and TLC both check them in well under a second and their verdicts and counts
can be compared. A share of the cases carries one planted fault (a type error, a syntax error,
a bad cfg, an undefined name, a huge integer, control characters, deep nesting, ...) so that
the error paths are exercised as well. `Case.kind` names the fault ("good" when there is none).

Used by tests/test_fuzz_no_traceback.py and by bench/fuzz_tlc.py.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

MODULE = "Fz"

# Types of values, each with a finite domain in TLA+ (K and Procs are constants of the cfg).
DOMAIN = {
    "int": "0..(K-1)",
    "bool": "BOOLEAN",
    "set": "SUBSET (0..(K-1))",
    "fun": "[Procs -> 0..(K-1)]",
    "seq": "UNION {[1..n -> 0..(K-1)] : n \\in 0..2}",
    "rec": "[a : 0..(K-1), b : BOOLEAN]",
    "mv": "Procs",
    "mvs": "SUBSET Procs",
}
KINDS = list(DOMAIN)
BOOL_OPS = ["/\\", "\\/", "=>", "<=>"]
SET_OPS = ["\\cup", "\\cap", "\\", "\\union", "\\intersect"]


def _size(kind: str, k: int, n: int) -> int:
    """How many values a variable of this type can take (to keep state spaces small)."""
    return {"int": k, "bool": 2, "set": 2 ** k, "fun": k ** n, "seq": 1 + k + k * k,
            "rec": 2 * k, "mv": n, "mvs": 2 ** n}[kind]


@dataclass
class Case:
    seed: int
    spec: str
    cfg: str
    kind: str = "good"  # "good", or the name of the planted fault
    liveness: bool = False

    def write(self, folder: str | Path) -> tuple[Path, Path]:
        """Write MODULE.tla and MODULE.cfg into folder (lone surrogates become raw bytes)."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        spec, cfg = folder / f"{MODULE}.tla", folder / f"{MODULE}.cfg"
        spec.write_bytes(self.spec.encode("utf-8", "surrogateescape"))
        cfg.write_bytes(self.cfg.encode("utf-8", "surrogateescape"))
        return spec, cfg


class _Scope:
    """The terms available for each type (variables, bound names, parameters, `@`)."""

    def __init__(self, terms: dict[str, list[str]] | None = None):
        self.terms = {k: list(v) for k, v in (terms or {}).items()}

    def add(self, kind: str, term: str) -> _Scope:
        s = _Scope(self.terms)
        s.terms.setdefault(kind, []).append(term)
        return s

    def get(self, kind: str) -> list[str]:
        return self.terms.get(kind, [])


class Generator:
    """A grammar-driven generator of typed TLA+ expressions, definitions and cfgs."""

    def __init__(self, seed: int):
        self.seed = seed
        self.r = random.Random(seed)
        self.n = 0
        self.asym = False  # the spec tells model values apart (no SYMMETRY then)
        self.helpers: list[str] = []  # extra definitions, placed before their first use
        self.helper_ops: list[str] = []  # names of int -> int helper operators

    # -- utilities ------------------------------------------------------------------------
    def fresh(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def chance(self, p: float) -> bool:
        return self.r.random() < p

    def pick(self, items):
        return self.r.choice(items)

    # -- expressions ------------------------------------------------------------------------
    def expr(self, kind: str, sc: _Scope, d: int) -> str:
        if d <= 0 or self.chance(0.25):
            return self.leaf(kind, sc)
        return getattr(self, f"_{kind}")(sc, d - 1)

    def leaf(self, kind: str, sc: _Scope) -> str:
        terms = sc.get(kind)
        if terms and self.chance(0.7):
            return self.pick(terms)
        if kind == "int":
            return self.pick(["0", "1", f"({self.r.randint(0, 7)} % K)", "(K - 1)"])
        if kind == "bool":
            return self.pick(["TRUE", "FALSE"])
        if kind == "set":
            return self.pick(["{}", "{0}", "(0..(K-1))", "{1 % K}"])
        if kind == "fun":
            return self.pick(["[q \\in Procs |-> 0]", "[q \\in Procs |-> K - 1]"])
        if kind == "seq":
            return self.pick(["<<>>", "<<0>>", "<<1 % K, 0>>"])
        if kind == "rec":
            return self.pick(["[a |-> 0, b |-> FALSE]", "[b |-> TRUE, a |-> K - 1]"])
        if kind == "mv":
            self.asym = True
            return self.pick(["Leader", "(CHOOSE q \\in Procs : TRUE)"])
        if kind == "mvs":
            return self.pick(["Procs", "{}"])
        raise ValueError(kind)

    def _bind(self, sc: _Scope, d: int) -> tuple[str, str, _Scope]:
        """`i \\in S` over a small set of ints or of model values; the extended scope."""
        if self.chance(0.5):
            name = self.fresh("i")
            dom = self.expr("set", sc, d) if self.chance(0.5) else "0..(K-1)"
            return name, dom, sc.add("int", name)
        name = self.fresh("p")
        dom = self.expr("mvs", sc, d) if self.chance(0.3) else "Procs"
        return name, dom, sc.add("mv", name)

    def _common(self, kind: str, sc: _Scope, d: int) -> str | None:
        """IF, CASE and LET, for any type."""
        c = self.r.random()
        if c < 0.08:
            return (f"(IF {self.expr('bool', sc, d)} THEN {self.expr(kind, sc, d)} "
                    f"ELSE {self.expr(kind, sc, d)})")
        if c < 0.12:
            return (f"(CASE {self.expr('bool', sc, d)} -> {self.expr(kind, sc, d)} "
                    f"[] {self.expr('bool', sc, d)} -> {self.expr(kind, sc, d)} "
                    f"[] OTHER -> {self.expr(kind, sc, d)})")
        if c < 0.16:
            t = self.pick(["int", "bool", "set", "mv"] if kind != "mv" else ["int", "bool"])
            name = self.fresh("t")
            val = self.expr(t, sc, d)
            return f"(LET {name} == {val} IN {self.expr(kind, sc.add(t, name), d)})"
        return None

    def _int(self, sc: _Scope, d: int) -> str:
        common = self._common("int", sc, d)
        if common:
            return common
        e = lambda: self.expr("int", sc, d)  # noqa: E731
        forms = [
            lambda: f"(({e()} + {e()}) % K)",
            lambda: f"(({e()} * {e()}) % K)",
            lambda: f"(({e()} - {e()}) % K)",
            lambda: f"({e()} \\div ({e()} + 1))",
            lambda: f"(Cardinality({self.expr('set', sc, d)}) % K)",
            lambda: f"(Cardinality({self.expr('mvs', sc, d)}) % K)",
            lambda: f"(Len({self.expr('seq', sc, d)}) % K)",
            lambda: self._guarded_head(sc, d),
            lambda: f"{self.expr('fun', sc, d)}[{self.expr('mv', sc, d)}]",
            lambda: f"{self.expr('rec', sc, d)}.a",
            lambda: f"(CHOOSE {self._choose_int(sc, d)})",
            lambda: self._max(sc, d),
            lambda: f"<<{e()}, {self.expr('bool', sc, d)}>>[1]",
            lambda: self._helper_call(sc, d),
            lambda: f"(Cardinality(SUBSET {self.expr('set', sc, d)}) % K)",
            lambda: self._recursive(sc, d),
        ]
        return self.pick(forms)()

    def _guarded_head(self, sc: _Scope, d: int) -> str:
        s = self.expr("seq", sc, d)
        if self.chance(0.5):
            return f"(IF {s} = <<>> THEN 0 ELSE Head({s}))"
        return f"(IF Len({s}) >= 1 THEN {s}[Len({s})] ELSE K - 1)"

    def _choose_int(self, sc: _Scope, d: int) -> str:
        name = self.fresh("i")
        body = self.expr("bool", sc.add("int", name), d)
        return f"{name} \\in 0..(K-1) : {body} \\/ {name} = K - 1"

    def _max(self, sc: _Scope, d: int) -> str:
        s = self.expr("set", sc, d)
        a, b = self.fresh("i"), self.fresh("i")
        return f"(IF {s} = {{}} THEN 0 ELSE CHOOSE {a} \\in {s} : \\A {b} \\in {s} : {b} <= {a})"

    def _helper_call(self, sc: _Scope, d: int) -> str:
        if not self.helper_ops or self.chance(0.3):
            name = self.fresh("Op")
            a, b = self.fresh("a"), self.fresh("b")
            inner = _Scope({"int": [a, b]})
            body = self.expr("int", inner, 2)
            self.helpers.append(f"{name}({a}, {b}) == {body}")
            self.helper_ops.append(name)
        op = self.pick(self.helper_ops)
        return f"{op}({self.expr('int', sc, d)}, {self.expr('int', sc, d)})"

    def _recursive(self, sc: _Scope, d: int) -> str:
        """A RECURSIVE operator or a recursive function (defined once, used anywhere)."""
        if not any(h.startswith("RECURSIVE") for h in self.helpers):
            self.helpers.append("RECURSIVE SumOf(_)\n"
                                "SumOf(S) == IF S = {} THEN 0 ELSE "
                                "LET el == CHOOSE c \\in S : TRUE IN el + SumOf(S \\ {el})")
            self.helpers.append("fact[n \\in 0..4] == IF n = 0 THEN 1 ELSE n * fact[n - 1]")
        if self.chance(0.5):
            return f"(SumOf({self.expr('set', sc, d)}) % K)"
        return f"(fact[{self.expr('int', sc, d)}] % K)"

    def _bool(self, sc: _Scope, d: int) -> str:
        common = self._common("bool", sc, d)
        if common:
            return common
        e = lambda k="int": self.expr(k, sc, d)  # noqa: E731
        forms = [
            lambda: f"({e()} {self.pick(['=', '#', '<', '<=', '>', '>=', '/='])} {e()})",
            lambda: f"({e()} \\in {e('set')})",
            lambda: f"({e()} \\notin {e('set')})",
            lambda: f"({e('set')} \\subseteq {e('set')})",
            lambda: f"({e('set')} = {e('set')})",
            lambda: f"({e('fun')} = {e('fun')})",
            lambda: f"({e('seq')} = {e('seq')})",
            lambda: f"({e('rec')} = {e('rec')})",
            lambda: f"({e('mv')} = {e('mv')})",
            lambda: f"({e('mv')} \\in {e('mvs')})",
            lambda: f"~{e('bool')}",
            lambda: f"({e('bool')} {self.pick(BOOL_OPS)} {e('bool')})",
            lambda: self._quant(sc, d),
            lambda: f"{e('rec')}.b",
            lambda: f"<<{e()}, {e('bool')}>>[2]",
            lambda: f"({e('seq')} \\in Seq(0..(K-1)))",
            lambda: f"(<<{e()}, {e()}>> \\in (0..(K-1)) \\X {e('set')})",
            lambda: f"({e()} \\in Nat)",
            lambda: f"({e('fun')} \\in [Procs -> {e('set')}])",
            lambda: self._quant2(sc, d),
        ]
        return self.pick(forms)()

    def _quant2(self, sc: _Scope, d: int) -> str:
        """Two bound names at once, or a tuple of them."""
        a, b = self.fresh("i"), self.fresh("i")
        inner = sc.add("int", a).add("int", b)
        q = self.pick(["\\E", "\\A"])
        body = self.expr("bool", inner, d)
        if self.chance(0.5):
            return f"({q} {a}, {b} \\in {self.expr('set', sc, d)} : {body})"
        return (f"({q} <<{a}, {b}>> \\in {self.expr('set', sc, d)} \\X "
                f"{self.expr('set', sc, d)} : {body})")

    def _quant(self, sc: _Scope, d: int) -> str:
        name, dom, inner = self._bind(sc, d)
        q = self.pick(["\\E", "\\A"])
        return f"({q} {name} \\in {dom} : {self.expr('bool', inner, d)})"

    def _set(self, sc: _Scope, d: int) -> str:
        common = self._common("set", sc, d)
        if common:
            return common
        e = lambda k="set": self.expr(k, sc, d)  # noqa: E731
        forms = [
            lambda: f"{{{e('int')}}}",
            lambda: f"{{{e('int')}, {e('int')}}}",
            lambda: f"({e()} {self.pick(SET_OPS)} {e()})",
            lambda: self._filter(sc, d),
            lambda: self._image(sc, d),
            lambda: f"({e('int')}..{e('int')})",
            lambda: f"(UNION {{{e()}, {e()}}})",
            lambda: f"(CHOOSE {self._choose_subset(sc, d)})",
            lambda: f"{{{e('fun')}[{self.fresh_p()}] : {self.last_p()} \\in Procs}}",
            lambda: self._seq_range(sc, d),
            lambda: self._domain(sc, d),
        ]
        return self.pick(forms)()

    def fresh_p(self) -> str:
        self._last_p = self.fresh("p")
        return self._last_p

    def last_p(self) -> str:
        return self._last_p

    def _filter(self, sc: _Scope, d: int) -> str:
        name = self.fresh("i")
        return (f"{{{name} \\in {self.expr('set', sc, d)} : "
                f"{self.expr('bool', sc.add('int', name), d)}}}")

    def _image(self, sc: _Scope, d: int) -> str:
        name = self.fresh("i")
        return (f"{{{self.expr('int', sc.add('int', name), d)} : "
                f"{name} \\in {self.expr('set', sc, d)}}}")

    def _domain(self, sc: _Scope, d: int) -> str:
        name = self.fresh("i")
        dom = self.expr("set", sc, d)
        return f"(DOMAIN [{name} \\in {dom} |-> {self.expr('bool', sc.add('int', name), d)}])"

    def _choose_subset(self, sc: _Scope, d: int) -> str:
        name = self.fresh("t")
        body = self.expr("bool", sc.add("set", name), d)
        return f"{name} \\in SUBSET {self.expr('set', sc, d)} : {body} \\/ {name} = {{}}"

    def _seq_range(self, sc: _Scope, d: int) -> str:
        s = self.expr("seq", sc, d)
        name = self.fresh("i")
        return f"{{{s}[{name}] : {name} \\in 1..Len({s})}}"

    def _fun(self, sc: _Scope, d: int) -> str:
        common = self._common("fun", sc, d)
        if common:
            return common
        p = self.fresh("p")
        forms = [
            lambda: f"[{p} \\in Procs |-> {self.expr('int', sc.add('mv', p), d)}]",
            lambda: (f"[{self.expr('fun', sc, d)} EXCEPT ![{self.expr('mv', sc, d)}] = "
                     f"{self.expr('int', sc, d)}]"),
            lambda: (f"[{self.expr('fun', sc, d)} EXCEPT ![{self.expr('mv', sc, d)}] = "
                     f"(@ + {self.expr('int', sc, d)}) % K]"),
            lambda: (f"(({self.expr('mv', sc, d)} :> {self.expr('int', sc, d)}) @@ "
                     f"{self.expr('fun', sc, d)})"),
            lambda: (f"[{p} \\in DOMAIN {self.expr('fun', sc, d)} |-> "
                     f"{self.expr('int', sc.add('mv', p), d)}]"),
        ]
        return self.pick(forms)()

    def _seq(self, sc: _Scope, d: int) -> str:
        common = self._common("seq", sc, d)
        if common:
            return common
        s = lambda: self.expr("seq", sc, d)  # noqa: E731
        i = lambda: self.expr("int", sc, d)  # noqa: E731
        forms = [
            lambda: f"<<{i()}>>",
            lambda: f"<<{i()}, {i()}>>",
            lambda: self._bounded(s(), lambda q: f"Append({q}, {i()})", 1),
            lambda: self._bounded2(s(), s()),
            lambda: (lambda q: f"(IF {q} = <<>> THEN <<>> ELSE Tail({q}))")(s()),
            lambda: (lambda q: f"SubSeq({q}, 1, {i()} % (Len({q}) + 1))")(s()),
            lambda: self._seq_map(sc, d),
        ]
        return self.pick(forms)()

    def _bounded(self, q: str, make, extra: int) -> str:
        return f"(IF Len({q}) + {extra} <= 2 THEN {make(q)} ELSE {q})"

    def _bounded2(self, q: str, t: str) -> str:
        return f"(IF Len({q}) + Len({t}) <= 2 THEN {q} \\o {t} ELSE {t})"

    def _seq_map(self, sc: _Scope, d: int) -> str:
        q = self.expr("seq", sc, d)
        name = self.fresh("i")
        body = self.expr("int", sc.add("int", f"{q}[{name}]"), d)
        return f"[{name} \\in 1..Len({q}) |-> {body}]"

    def _rec(self, sc: _Scope, d: int) -> str:
        common = self._common("rec", sc, d)
        if common:
            return common
        forms = [
            lambda: f"[a |-> {self.expr('int', sc, d)}, b |-> {self.expr('bool', sc, d)}]",
            lambda: f"[{self.expr('rec', sc, d)} EXCEPT !.a = {self.expr('int', sc, d)}]",
            lambda: f"[{self.expr('rec', sc, d)} EXCEPT !.b = ~@]",
            lambda: (f"[{self.expr('rec', sc, d)} EXCEPT !.a = (@ + 1) % K, "
                     f"!.b = {self.expr('bool', sc, d)}]"),
        ]
        return self.pick(forms)()

    def _mv(self, sc: _Scope, d: int) -> str:
        common = self._common("mv", sc, d)
        if common:
            return common
        self.asym = True
        name = self.fresh("p")
        body = self.expr("bool", sc.add("mv", name), d)
        return (f"(IF \\E {name} \\in Procs : {body} THEN CHOOSE {name} \\in Procs : {body} "
                f"ELSE Leader)")

    def _mvs(self, sc: _Scope, d: int) -> str:
        common = self._common("mvs", sc, d)
        if common:
            return common
        p = self.fresh("p")
        forms = [
            lambda: f"{{{self.expr('mv', sc, d)}}}",
            lambda: f"{{{p} \\in Procs : {self.expr('bool', sc.add('mv', p), d)}}}",
            lambda: (f"({self.expr('mvs', sc, d)} {self.pick(SET_OPS[:3])} "
                     f"{self.expr('mvs', sc, d)})"),
            lambda: f"(DOMAIN {self.expr('fun', sc, d)})",
        ]
        return self.pick(forms)()

    def set_of(self, kind: str, sc: _Scope, d: int) -> str:
        """A non-empty set of values of a type (for `x' \\in S` and `x \\in S` in Init)."""
        c = self.r.random()
        if c < 0.3:
            return DOMAIN[kind]
        if kind == "int" and c < 0.6:
            return f"0..{self.expr('int', sc, d)}"
        if kind == "set" and c < 0.6:
            return f"(SUBSET {self.expr('set', sc, d)})"
        return f"{{{self.expr(kind, sc, d)}, {self.expr(kind, sc, d)}}}"


# -- whole models ---------------------------------------------------------------------------

def generate(seed: int, bad_share: float = 0.25) -> Case:
    """The case of this seed: a small model, with a planted fault in about bad_share of them."""
    g = Generator(seed)
    r = g.r
    k = r.randint(2, 3)
    procs = [f"w{i}" for i in range(1, r.randint(1, 3) + 1)]
    # variables: 1-3, with a small product of domain sizes
    while True:
        kinds = [r.choice(KINDS) for _ in range(r.randint(1, 3))]
        size = 1
        for kd in kinds:
            size *= _size(kd, k, len(procs))
        if size <= 1500:
            break
    names = [f"v{i}" for i in range(1, len(kinds) + 1)]
    var_of = dict(zip(names, kinds, strict=True))
    depth = r.randint(1, 3)

    def state_scope(primed: bool = False) -> _Scope:
        sc = _Scope()
        for v, kd in var_of.items():
            sc = sc.add(kd, v)
            if primed:
                sc = sc.add(kd, f"{v}'")
        return sc

    # Init: each variable equal to, or in, a constant expression (earlier variables allowed)
    init = []
    sc = _Scope()
    for v, kd in var_of.items():
        if r.random() < 0.6:
            init.append(f"{v} = {g.expr(kd, sc, depth)}")
        else:
            init.append(f"{v} \\in {g.set_of(kd, sc, depth)}")
        if r.random() < 0.5:
            sc = sc.add(kd, v)

    # actions
    actions, calls = [], []
    for ai in range(r.randint(1, 3)):
        name = f"Act{ai + 1}"
        sc = state_scope()
        param = None
        if r.random() < 0.4:
            pkind = r.choice(["mv", "int"])
            param = g.fresh("x")
            sc = sc.add(pkind, param)
            dom = "Procs" if pkind == "mv" else "0..(K-1)"
            calls.append(f"\\E y{param[1:]} \\in {dom} : {name}(y{param[1:]})")
        else:
            calls.append(name)
        conj = [g.expr("bool", sc, depth) for _ in range(r.randint(0, 2))]
        changed = [v for v in names if r.random() < 0.6] or [r.choice(names)]
        for v in changed:
            kd = var_of[v]
            c = r.random()
            if c < 0.65:
                conj.append(f"{v}' = {g.expr(kd, sc, depth)}")
            elif c < 0.85:
                conj.append(f"{v}' \\in {g.set_of(kd, sc, depth)}")
            elif c < 0.93:
                conj.append(f"(IF {g.expr('bool', sc, depth)} THEN {v}' = "
                            f"{g.expr(kd, sc, depth)} ELSE {v}' = {g.expr(kd, sc, depth)})")
            else:
                conj.append(f"({v}' = {g.expr(kd, sc, depth)} \\/ {v}' = "
                            f"{g.expr(kd, sc, depth)})")
        if r.random() < 0.2:  # a condition on the new state
            post = _Scope(sc.terms)
            for v in changed:
                post = post.add(var_of[v], f"{v}'")
            conj.append(g.expr("bool", post, 1))
        rest = [v for v in names if v not in changed]
        if rest:
            conj.append(f"UNCHANGED <<{', '.join(rest)}>>" if len(rest) > 1 or r.random() < 0.5
                        else f"UNCHANGED {rest[0]}")
        head = f"{name}({param})" if param else name
        actions.append(_bullets(head, conj))

    sc = state_scope()

    def about_state(d: int, scope: _Scope = sc) -> str:
        """A boolean that reads a variable (TLC rejects a constant INVARIANT or CONSTRAINT that
        is FALSE in its own way, before the search)."""
        for _ in range(10):
            e = g.expr("bool", scope, d)
            if re.search(r"\bv\d", e):
                return e
        return f"({e} \\/ {names[0]} = {names[0]})"

    defs = [f"vars == <<{', '.join(names)}>>"]
    defs.append(_bullets("Init", init))
    defs += actions
    # Forms decided by a stream of their own (the rest of each seed's case stays as it was):
    # an action whose successors hold a lazy set filter made inside a loop over a bound name
    # (its test must see that iteration's value, not the last one's).
    extra = random.Random(seed * 7919 + 1)
    sets = [v for v, kd in var_of.items() if kd == "set"]
    if sets and extra.random() < 0.3:
        v = extra.choice(sets)
        form = extra.choice(["{i \\in 0..(K-1) : i # q}", "{i \\in 0..(K-1) : i < q}",
                             "LET m == q IN {i \\in 0..(K-1) : i > m}",
                             "{i \\in 0..(K-1) : \\E j \\in {q} : i + j < K}"])
        rest = [w for w in names if w != v]
        conj = [f"\\E q \\in 0..(K-1) : {v}' = {form}"]
        if rest:
            conj.append(f"UNCHANGED <<{', '.join(rest)}>>")
        defs.append(_bullets("Lazy", conj))
        calls.append("Lazy")
    defs.append("Next == " + (" \\/ ".join(calls) if r.random() < 0.5 else
                              "\n".join(["", *[f"    \\/ {c}" for c in calls]])))
    defs.append("TypeOK == " + " /\\ ".join(f"{v} \\in {DOMAIN[kd]}" for v, kd in var_of.items()))
    invs = ["TypeOK"] if r.random() < 0.7 else []
    for i in range(r.choice([0, 0, 1, 1, 2])):
        defs.append(f"Inv{i + 1} == {about_state(depth)}")
        invs.append(f"Inv{i + 1}")
    # A quantifier over pairs of a set variable's elements (which incremental checking must
    # not reduce to the elements gained), from the same stream.
    if sets and extra.random() < 0.3:
        body = extra.choice(["qa = qb", "qa + qb < K", "qa # qb => qa + qb > 1",
                             "<<qa, qb>> \\in (0..(K-1)) \\X {0, 1}"])
        defs.append(f"InvPairs == \\A qa, qb \\in {extra.choice(sets)} : {body}")
        invs.append("InvPairs")

    cfg = [_constants_cfg(r, k, procs)]
    # properties: safety []P, action [][A]_v, or liveness (needs fairness in SPECIFICATION)
    props, fair, liveness = [], "", False
    c = r.random()
    if c < 0.12:
        defs.append(f"Safe == []({about_state(depth)})")
        props.append("Safe")
    elif c < 0.2:
        a = about_state(1, state_scope(primed=True))
        v = r.choice(names)
        defs.append(f"ActProp == [][{a}]_{v}")
        props.append("ActProp")
    elif c < 0.4:
        liveness = True
        p, q = about_state(depth), about_state(depth)
        form = r.choice([f"<>({p})", f"[]<>({p})", f"({p}) ~> ({q})", f"<>[]({p})"])
        defs.append(f"Live == {form}")
        props.append("Live")
        fair = r.choice(["WF_vars(Next)", "SF_vars(Next)",
                         f"WF_vars({calls[0]})" if "\\E" not in calls[0] else "WF_vars(Next)"])
    spec_conj = ["Init", "[][Next]_vars"] + ([fair] if fair else [])
    defs.append("Spec == " + " /\\ ".join(spec_conj))
    if fair or r.random() < 0.4:
        cfg.append("SPECIFICATION Spec")
    else:
        cfg.append("INIT Init\nNEXT Next")
    if invs:
        cfg.append("INVARIANT " + " ".join(invs) if r.random() < 0.5 else
                   "\n".join(f"INVARIANT {i}" for i in invs))
    if props:
        cfg.append("PROPERTY " + " ".join(props))
    if r.random() < 0.15:
        defs.append(f"Constr == {about_state(depth)}")
        cfg.append("CONSTRAINT Constr")
    if r.random() < 0.1:
        defs.append(f"ActConstr == {about_state(1, state_scope(primed=True))}")
        cfg.append("ACTION_CONSTRAINT ActConstr")
    assumes = []
    if r.random() < 0.1:
        assumes.append("ASSUME " + g.expr("bool", _Scope(), 2))
    if r.random() < 0.25:
        assumes.append("ASSUME " + r.choice(["K > 0", "K \\in Nat", "Procs # {}", "K < 10"]))
    # reductions: only where the answer does not depend on which representative is kept
    if not liveness and not g.asym and len(procs) > 1 and r.random() < 0.25:
        defs.append("Perms == Permutations(Procs)")
        cfg.append("SYMMETRY Perms")
    elif not liveness and r.random() < 0.1:
        defs.append(f"View == <<{', '.join(r.sample(names, r.randint(1, len(names))))}>>")
        cfg.append("VIEW View")
    if r.random() < 0.3:
        cfg.append("CHECK_DEADLOCK FALSE")

    body = header(names) + g.helpers + assumes + defs
    case = Case(seed, _module(body), "\n".join(cfg) + "\n", "good", liveness)
    if r.random() < bad_share:
        _plant(case, g, var_of)
    return case


def _bullets(head: str, conj: list[str]) -> str:
    if not conj:
        return f"{head} == TRUE"
    if len(conj) == 1:
        return f"{head} == {conj[0]}"
    pad = " " * (len(head) + 4)
    return f"{head} == /\\ {conj[0]}\n" + "\n".join(f"{pad}/\\ {c}" for c in conj[1:])


def header(variables: list[str]) -> list[str]:
    """The module's first lines: what every generated case extends and declares."""
    return ["EXTENDS Integers, Sequences, FiniteSets, TLC", "CONSTANTS K, Procs, Leader",
            f"VARIABLES {', '.join(variables)}"]


def _module(lines: list[str]) -> str:
    return f"---- MODULE {MODULE} ----\n" + "\n".join(lines) + "\n====\n"


def _constants_cfg(r: random.Random, k: int, procs: list[str]) -> str:
    leader = r.choice(procs)
    if r.random() < 0.5:
        return (f"CONSTANTS K = {k} Procs = {{{', '.join(procs)}}} Leader = {leader}")
    return ("CONSTANTS\n" + f"    K = {k}\n    Procs = {{{', '.join(procs)}}}\n"
            f"    Leader = {leader}")


# -- planted faults -------------------------------------------------------------------------

_TYPE_ERRORS = [
    ("int_plus_string", '(1 + "a") = 2'),
    ("head_empty", "Head(<<>>) = 0"),
    ("non_boolean_guard", "7"),
    ("string_less", '"a" < "b"'),
    ("fun_out_of_domain", "[q \\in Procs |-> 0][42] = 0"),
    ("choose_none", "(CHOOSE i \\in {} : TRUE) = 0"),
    ("div_zero", "(1 \\div 0) = 0"),
    ("assert", 'Assert(FALSE, "planted")'),
    ("record_field", "[a |-> 1].zz = 1"),
    ("tuple_index", "<<1, 2>>[5] = 1"),
    ("set_plus", "({1} + 1) = 2"),
    ("bool_plus", "(TRUE + 1) = 2"),
    ("compare_types", '(1 = "a")'),
    ("mv_arith", "(Leader + 1) = 2"),
    ("cardinality_infinite", "Cardinality(Nat) = 0"),
    ("seq_of_set", "Len({1}) = 1"),
    ("subseq_bad", "SubSeq(<<1>>, 1, 5) = <<>>"),
    ("tail_empty", "Tail(<<>>) = <<>>"),
    ("except_missing", "[[q \\in Procs |-> 0] EXCEPT ![99] = 1] # <<>>"),
    ("bigint", "2^20000 > 0"),
    ("bigint_value", "(2^300 * 2^300) # 0"),
    ("range_huge", "(5 \\in 0..10^9)"),
    ("cardinality_huge", "Cardinality(1..10^9) > 0"),
    ("subset_huge", "Cardinality(SUBSET (1..40)) > 0"),
    ("negative_exp", "(2^(0-1)) = 0"),
    ("mod_zero", "(5 % 0) = 0"),
    ("control_string", '"a\\tb\\nc" # "\\\\"'),
]


def _plant(case: Case, g: Generator, var_of: dict[str, str]) -> None:
    """Change the case so that it carries one fault; name the fault in case.kind."""
    r = g.r
    where = r.choice(["Init", "Act1", "TypeOK", "ASSUME", "Constr", "Inv", "Prop"])
    c = r.random()
    if c < 0.45:
        kind, text = r.choice(_TYPE_ERRORS)
        case.kind = f"type:{kind}@{where}"
        _inject(case, where, text)
    elif c < 0.6:
        case.kind = "syntax:" + _syntax_error(case, r)
    elif c < 0.75:
        case.kind = "cfg:" + _cfg_error(case, r)
    elif c < 0.82:
        case.kind = "undefined"
        _inject(case, where, r.choice(["Foo(1) = 2", "undefinedName", "x9' = 1",
                                       "Len(Seq) = 1"]))
    elif c < 0.9:
        case.kind = "deep:" + _deep(case, r)
    elif c < 0.95:
        case.kind = "strings"
        v = next(iter(var_of))
        s = r.choice(['"\\t"', '"a\\nb"', '"\\\\\\""', '"\x01\x7f"', '"é ü"', '"\\f\\r"'])
        case.spec = case.spec.replace("vars ==", f"Str == {s}\nvars ==", 1)
        case.spec = case.spec.replace("TypeOK ==", "TypeOK == Str # \"zz\" /\\ ", 1)
        if "INVARIANT TypeOK" not in case.cfg and "INVARIANT" not in case.cfg:
            case.cfg += "INVARIANT TypeOK\n"
        _inject(case, "Inv", f"<<{v}, Str>> = <<{v}, {s}>> => FALSE")
    else:
        case.kind = "assume_false"
        case.spec = case.spec.replace("\nvars ==", "\nASSUME K > 100\nvars ==", 1)


def _inject(case: Case, where: str, text: str) -> None:
    spec = case.spec
    if where == "ASSUME" or where not in ("Init", "Act1", "TypeOK", "Constr", "Inv", "Prop"):
        case.spec = spec.replace("\nvars ==", f"\nASSUME {text}\nvars ==", 1)
        return
    if where == "Constr":
        case.spec = spec.replace("\n====", f"\nBadConstr == {text}\n====")
        case.cfg += "CONSTRAINT BadConstr\n"
        return
    if where == "Prop":
        case.spec = spec.replace("\n====", f"\nBadProp == [][{text}]_vars\n====")
        case.cfg += "PROPERTY BadProp\n"
        return
    if where == "Inv":
        case.spec = spec.replace("\n====", f"\nBadInv == {text}\n====")
        case.cfg += "INVARIANT BadInv\n"
        return
    if where == "TypeOK":
        case.spec = spec.replace("TypeOK == ", f"TypeOK == ({text}) /\\ ", 1)
        if "TypeOK" not in case.cfg:
            case.cfg += "INVARIANT TypeOK\n"
        return
    marker = f"\n{where}"
    at = spec.find(marker + " ==")
    if at < 0:
        at = spec.find(marker + "(")
    eq = spec.find("==", at)
    case.spec = spec[:eq + 2] + f" ({text}) /\\" + spec[eq + 2:]


def _syntax_error(case: Case, r: random.Random) -> str:
    spec = case.spec
    lines = spec.split("\n")
    c = r.random()
    body = [i for i, ln in enumerate(lines) if "==" in ln]
    i = r.choice(body)
    if c < 0.2:
        lines[i] = lines[i] + " )"
        return _set(case, lines, "extra_paren")
    if c < 0.4:
        lines[i] = lines[i].replace("==", "=", 1)
        return _set(case, lines, "single_eq")
    if c < 0.55:
        j = r.randrange(len(lines[i]))
        lines[i] = lines[i][:j] + lines[i][j + 1:]
        return _set(case, lines, "deleted_char")
    if c < 0.7:
        lines = lines[: r.randint(1, len(lines) - 1)]
        return _set(case, lines, "truncated")
    if c < 0.8:
        lines[i] = lines[i] + " \x00\x1b"
        return _set(case, lines, "control_chars")
    if c < 0.9:
        case.spec = spec.replace("---- MODULE Fz ----", "---- MODULE Other ----")
        return "module_name"
    lines.insert(i, "\udcff\udcfe bad bytes")
    return _set(case, lines, "non_utf8")


def _set(case: Case, lines: list[str], name: str) -> str:
    case.spec = "\n".join(lines)
    return name


def _cfg_error(case: Case, r: random.Random) -> str:
    c = r.random()
    if c < 0.15:
        case.cfg += "INVARIANT NoSuchInv\n"
        return "unknown_invariant"
    if c < 0.25:
        case.cfg = case.cfg.replace("K = ", "K = {", 1)
        return "bad_value"
    if c < 0.35:
        case.cfg = case.cfg.replace("Leader = ", "Leaderx = ", 1)
        return "unknown_constant"
    if c < 0.45:
        case.cfg = case.cfg.replace("K = ", 'K = "three" \\* ', 1)
        return "string_constant"
    if c < 0.55:
        case.cfg = case.cfg.replace("K = ", "K = kv \\* ", 1)
        return "model_value_constant"
    if c < 0.62:
        case.cfg += "PROPERTY NoSuchProp\n"
        return "unknown_property"
    if c < 0.7:
        case.cfg += "FROBNICATE X\n"
        return "unknown_keyword"
    if c < 0.78:
        case.cfg = case.cfg.replace("SPECIFICATION Spec", "SPECIFICATION Init")
        case.cfg = case.cfg.replace("NEXT Next", "NEXT TypeOK")
        return "wrong_spec"
    if c < 0.85:
        case.cfg = case.cfg.replace("K = ", "K = 100000000000000000000000 \\* ", 1)
        return "huge_constant"
    if c < 0.92:
        case.cfg += "\udcff\n"
        return "non_utf8"
    case.cfg = case.cfg.replace("Procs = {", "Procs = {w1, ", 1)
    return "duplicate_model_value"


def _deep(case: Case, r: random.Random) -> str:
    c = r.random()
    n = r.choice([50, 120, 250, 400])
    if c < 0.35:
        text = "(" * n + "TRUE" + ")" * n
        name = f"parens{n}"
    elif c < 0.7:
        text = "\n" + "\n".join(f"          /\\ {i} < {i + 1}" for i in range(n))
        name = f"conjuncts{n}"
    else:
        text = ("IF TRUE THEN " * n) + "TRUE" + (" ELSE FALSE" * n)
        name = f"nested_if{n}"
    case.spec = case.spec.replace("\n====", f"\nDeep == {text}\n====")
    case.cfg += "INVARIANT Deep\n"
    return name


# -- running a case with kipcheck ------------------------------------------------------------

# Exit codes kipcheck may end with (README's table); 1 is never right for a check: it is what
# Python exits with on an uncaught exception.
CATALOGUE = {0, 2, 3, 10, 11, 12, 13, 14, 75, 130, 150, 151}
try:  # the catalogue module, where there is one
    from checker import verdicts as _verdicts

    CATALOGUE = (CATALOGUE | set(_verdicts.MEANINGS)) - {1}
except ImportError:
    pass


class Timeout(BaseException):
    """A run took too long (BaseException: no `except Exception` in the checker swallows it)."""


@dataclass
class Run:
    exit_code: int
    output: str
    traceback: str | None = None  # set when kipcheck ended with an uncaught exception
    report: dict | None = None  # the --report-json document, when one was written
    report_error: str | None = None  # the report file exists but is not valid JSON
    timed_out: bool = False

    def problems(self) -> list[str]:
        """What is wrong with this run whatever the case was: tracebacks, unknown exit codes,
        invalid report files, timeouts."""
        out = []
        if self.timed_out:
            out.append("timeout")
        elif self.traceback is not None:
            out.append("traceback: " + self.traceback.strip().splitlines()[-1][:200])
        elif self.exit_code not in CATALOGUE:
            out.append(f"exit code {self.exit_code} not in the catalogue")
        if "Traceback (most recent call last)" in self.output and self.traceback is None:
            out.append("traceback printed")
        if self.report_error:
            out.append("invalid --report-json: " + self.report_error)
        return out


def run_kipcheck(spec: Path, cfg: Path, timeout: float = 30.0, extra: tuple = ()) -> Run:
    """Run `kipcheck check` in this process (click's CliRunner) with --report-json beside the
    spec; a run longer than `timeout` seconds is stopped (SIGALRM, main thread only)."""
    import json
    import signal
    import traceback

    from click.testing import CliRunner

    from checker.cli import main

    report = spec.parent / "report.json"
    report.unlink(missing_ok=True)
    args = ["check", str(spec), "--config", str(cfg), "--report-json", str(report), *extra]

    def on_alarm(signum, frame):
        raise Timeout()

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        result = CliRunner().invoke(main, args, catch_exceptions=True)
    except Timeout:
        return Run(-1, "", timed_out=True)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    exc = result.exception
    if isinstance(exc, Timeout):
        return Run(-1, result.output, timed_out=True)
    run = Run(result.exit_code, result.output)
    if exc is not None and not isinstance(exc, SystemExit):
        run.traceback = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    if report.exists():
        try:
            run.report = json.loads(report.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as e:
            run.report_error = str(e)[:200]
    return run


if __name__ == "__main__":  # print one case: python tests/specgen.py SEED
    import sys

    one = generate(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    print(f"\\* kind: {one.kind}\n{one.spec}\n\\* cfg:\n{one.cfg}")
