"""Random small models aimed at what kipcheck computes differently from TLC to be fast.

kipcheck rewrites some shapes of TLA+ into cheaper code: recursive set folds become loops,
operators that read the state and loop remember their calls for the latest state, functions of
many keys are searched through a key index, EXCEPT with one or two keys is unrolled, and the
invariants a step cannot have changed are not checked again. Each of these must give TLC's
answer exactly. The cases here are built around them: a set variable `s`, an integer `num` and a
function `f` of many keys, with folds over `s` and over `f`'s values, state-reading operators
called in guards, in successors, in invariants and primed in properties, EXCEPT on one and two
keys, and equalities between functions, tuples and records. One seed gives one case.

Used by bench/fuzz_tlc.py (`--family opt`) and tests/test_fuzz_opt.py.
"""
from __future__ import annotations

import random

from specgen import Case, Generator, _module, _Scope, header

# Domains of the many-key function f: several sizes around the key index's threshold, a
# domain that makes f a tuple (1..n), tuple keys and strings.
F_DOMAINS = [
    ("1..10", ["1", "5", "10"]),
    ("0..8", ["0", "4", "8"]),
    ("1..3", ["1", "2", "3"]),
    ("(0..2) \\X (0..2)", ["<<0, 0>>", "<<1, 2>>", "<<2, 2>>"]),
    ('{"a", "b", "c", "d", "e", "f", "g", "h", "i"}', ['"a"', '"e"', '"i"']),
    ("0..11", ["0", "7", "11"]),
]

# part(x) `op` Fold(S \ {x}) with the base, and what the result is (int, set, seq).
FOLDS = [
    ("0", "x + {rec}", "int"),
    ("0", "{rec} + x * 2", "int"),
    ("0", "x - {rec}", "int"),
    ("1", "(x + 1) * {rec}", "int"),
    ("7", "(7 \\div (x + 0)) + {rec}", "int"),  # fails when 0 is in the set
    ("{}", "{{x + 1}} \\cup {rec}", "set"),
    ("{}", "{rec} \\cup {{x % 2}}", "set"),
    ("<<>>", "<<x>> \\o {rec}", "seq"),
    ("<<>>", "{rec} \\o <<x, x>>", "seq"),
    ("0", "(IF x > 1 THEN x ELSE 0) + {rec}", "int"),
]


def generate_opt(seed: int) -> Case:
    """The case of this seed (always well-formed; an evaluation error may be part of it)."""
    r = random.Random(seed * 104729 + 17)
    g = Generator(seed)
    k = r.choice([2, 3])
    dom, keys = r.choice(F_DOMAINS)
    hi = r.choice([1, 2])
    defs: list[str] = []
    sc = _Scope().add("set", "s").add("int", "num")

    # A fold over a set, maybe with a second parameter, maybe in the recognised shape only
    # nearly (CHOOSE with a condition, the element chosen twice).
    fold_kind = None
    if r.random() < 0.7:
        base, comb, fold_kind = r.choice(FOLDS)
        shape = r.choice(["let", "let", "let", "cond", "twice", "param"])
        rec = "Fold(S \\ {x})" if shape != "param" else "Fold(p, S \\ {x})"
        body = (comb.replace("x", "(x + p)") if shape == "param" else comb).format(rec=rec)
        head = "Fold(S)" if shape != "param" else "Fold(p, S)"
        if shape == "cond":
            choose = "CHOOSE y \\in S : y >= 0"
        else:
            choose = "CHOOSE y \\in S : TRUE"
        if shape == "twice":
            pick = "(CHOOSE z \\in S : TRUE)"
            text = body.replace("S \\ {x}", f"S \\ {{{pick}}}")
            text = f"LET x == {choose} IN {text}"
        else:
            text = f"LET x == {choose} IN {body}"
        arity = "_, _" if shape == "param" else "_"
        defs.append(f"RECURSIVE Fold({arity})\n{head} == IF S = {{}} THEN {base} ELSE {text}")

    def fold_call(arg: str) -> str:
        call = f"Fold(1, {arg})" if "Fold(p, S)" in "\n".join(defs) else f"Fold({arg})"
        if fold_kind == "int":
            return f"(({call}) % {k})"
        if fold_kind == "set":
            return f"Cardinality({call} \\cap (0..{k - 1}))"
        return f"(Len({call}) % {k})"

    # Operators that read the state and loop (remembered per state), with and without
    # parameters, one of them over f.
    mem = r.choice([
        "Mem(i) == \\E j \\in s : j >= i",
        "Mem(i) == Cardinality({j \\in s : j # i}) > 0",
        "Mem(i) == \\A j \\in DOMAIN f : f[j] <= i",
        "Mem(i) == i \\in {f[j] : j \\in DOMAIN f}",
    ])
    defs.append(mem)
    cnt = r.choice([
        "Cnt == Cardinality({j \\in DOMAIN f : f[j] > 0})",
        "Cnt == Cardinality({j \\in s : Mem(j)})",
        "Cnt == LET m == {j \\in s : j > num} IN Cardinality(m)",
    ])
    defs.append(cnt)

    init = [f"s \\in {r.choice(['SUBSET (0..(K-1))', '{{}, {0}}', '{{1 % K}}'])}",
            "num = 0", f"f = [j \\in {dom} |-> 0]"]
    defs.append("Init == " + " /\\ ".join(init))

    acts = []
    # Flip one of three keys of f (one-key EXCEPT, with or without @), maybe guarded by Mem.
    key = r.choice(keys)
    guard = r.choice(["TRUE", "Mem(num)", "~Mem(1)", f"Cnt < {k}"])
    upd = r.choice([f"[f EXCEPT ![{key}] = (@ + 1) % {hi + 1}]",
                    f"[f EXCEPT ![{key}] = {hi} - @]",
                    f"[f EXCEPT ![{key}] = IF f[{key}] = 0 THEN {hi} ELSE 0]"])
    acts.append(("FlipA", [guard, f"f' = {upd}", "UNCHANGED <<s, num>>"]))
    # Two keys at once, or a key chosen by a bound name.
    k1, k2 = r.sample(keys, 2)
    if r.random() < 0.5:
        acts.append(("FlipB", [f"f[{k1}] # f[{k2}] \\/ Mem(0)",
                               f"f' = [f EXCEPT ![{k1}] = f[{k2}], ![{k2}] = (@ + 1) % {hi + 1}]",
                               "UNCHANGED <<s, num>>"]))
    else:
        acts.append(("FlipB", [f"\\E j \\in {{{k1}, {k2}}} : f' = [f EXCEPT ![j] = 0] "
                               f"/\\ f' # f", "UNCHANGED <<s, num>>"]))
    # Change s and num with generated expressions (num may take a fold's value).
    n_val = fold_call("s") if fold_kind and r.random() < 0.6 else g.expr("int", sc, 2)
    acts.append(("Step", [g.expr("bool", sc, 2) if r.random() < 0.5 else "TRUE",
                          f"num' = {n_val}",
                          f"s' = {g.expr('set', sc, 2)}", "UNCHANGED f"]))
    if r.random() < 0.5:
        # a bound name over s whose successors hold a filter of s
        acts.append(("Pick", ["\\E q \\in s : s' = {j \\in s : j # q} /\\ num' = q",
                              "UNCHANGED f"]))
    if r.random() < 0.4:
        acts.append(("Count", [f"num' = Cnt % {k}", "Mem(num) \\/ Cnt > 0", "UNCHANGED <<s, f>>"]))
    for name, conj in acts:
        defs.append(f"{name} ==\n" + "\n".join(f"    /\\ {c}" for c in conj))
    defs.append("Next == " + " \\/ ".join(name for name, _ in acts))
    defs.append("vars == <<s, num, f>>")
    defs.append(f"TypeOK == s \\subseteq 0..(K-1) /\\ num \\in Int /\\ DOMAIN f = {dom}")

    invs = ["TypeOK"]
    inv_forms = [
        f"InvF == f[{key}] + f[{k1}] < {r.choice([2, 3, 4])}",
        f"InvF == f # [j \\in {dom} |-> {hi}]",
        "InvF == Cnt <= 2",
        f"InvF == Mem({r.choice([0, 1, 2])}) \\/ s = {{}}",
    ]
    if dom == "1..10":
        inv_forms.append(f"InvF == f # <<{', '.join(['0'] * 9)}, {hi}>>")
        inv_forms.append("InvF == Len(f) = 10 /\\ Head(f) = f[1]")
    if dom == "1..3":
        inv_forms.append(f"InvF == f # <<{hi}, 0, {hi}>> /\\ f # [j \\in {{3, 2, 1}} |-> {hi}]")
    defs.append(r.choice(inv_forms))
    invs.append("InvF")
    if fold_kind:
        defs.append(f"InvFold == {fold_call('s')} {r.choice(['<', '#', '<='])} "
                    f"{r.randint(0, k)}")
        if r.random() < 0.6:
            invs.append("InvFold")
    if r.random() < 0.4:
        defs.append(f"InvPairs == \\A a, b \\in s : {r.choice(['a = b', 'a + b < K + 1'])}")
        invs.append("InvPairs")

    props = []
    c = r.random()
    if c < 0.3:
        defs.append(f"Grow == [][{r.choice(['Cnt', 'Cardinality(s)'])}' >= "
                    f"{r.choice(['Cnt', '0'])} \\/ num' # num]_vars")
        props.append("Grow")
    elif c < 0.5:
        defs.append("MemStep == [][Mem(1)' => Mem(1) \\/ s' # s \\/ f' # f]_vars")
        props.append("MemStep")
    cfg = [f"CONSTANTS\n    K = {k}\n    Procs = {{w1, w2}}\n    Leader = w1",
           "INIT Init\nNEXT Next" if not props else "SPECIFICATION Spec",
           "INVARIANT " + " ".join(invs)]
    if props:
        defs.append("Spec == Init /\\ [][Next]_vars")
        cfg.append("PROPERTY " + " ".join(props))
    if r.random() < 0.2:
        extra = r.choice(["Cnt < 3", "TRUE", "(Mem(0) \\/ num = 0)"])
        defs.append(f"Constr == num < {k} /\\ {extra}")
        cfg.append("CONSTRAINT Constr")
    if r.random() < 0.15:
        defs.append(f"View == <<s, {r.choice(['num', 'Cnt', 'f'])}>>")
        cfg.append("VIEW View")
    if r.random() < 0.4:
        cfg.append("CHECK_DEADLOCK FALSE")
    body = header(["s", "num", "f"]) + g.helpers + defs
    return Case(seed, _module(body), "\n".join(cfg) + "\n", "opt", False)


if __name__ == "__main__":  # print one case: python tests/specgen_opt.py SEED
    import sys

    one = generate_opt(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    print(f"{one.spec}\n\\* cfg:\n{one.cfg}")
