"""Fuzzing the front end: whatever the input, the result is a spec or a KipcheckError.

Valid specs are mutated at the token and character level (deletions, duplications, swaps,
inserted operators, brackets and bullets, changed indentation), and random bytes are decoded
leniently; every input goes through the whole pipeline (parse, module loading, resolution,
config check). Any exception other than SpecError/ConfigError is a bug.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from checker.frontend import load_spec
from checker.frontend.errors import ConfigError, SpecError

SEEDS = [
    r"""---- MODULE M ----
EXTENDS Naturals, Sequences, FiniteSets
CONSTANTS N, Procs
VARIABLES x, q, pc
ASSUME N \in Nat /\ N > 0
RECURSIVE Sum(_)
Sum(s) == IF s = <<>> THEN 0 ELSE Head(s) + Sum(Tail(s))
fact[n \in 0..N] == IF n = 0 THEN 1 ELSE n * fact[n - 1]
TypeOK == /\ x \in [Procs -> 0..N]
          /\ q \in Seq(Procs)
          /\ pc \in [Procs -> {"idle", "busy"}]
Init == /\ x = [p \in Procs |-> 0]
        /\ q = <<>>
        /\ pc = [p \in Procs |-> "idle"]
Step(p) == /\ pc[p] = "idle"
           /\ x' = [x EXCEPT ![p] = @ + 1]
           /\ q' = Append(q, p)
           /\ pc' = [pc EXCEPT ![p] = "busy"]
Done(p) == \/ /\ pc[p] = "busy"
              /\ pc' = [pc EXCEPT ![p] = "idle"]
              /\ UNCHANGED <<x, q>>
           \/ /\ Len(q) > N
              /\ q' = Tail(q)
              /\ UNCHANGED <<x, pc>>
Next == \E p \in Procs : Step(p) \/ Done(p)
vars == <<x, q, pc>>
Spec == Init /\ [][Next]_vars /\ \A p \in Procs : WF_vars(Done(p))
Bounded == Cardinality({p \in Procs : pc[p] = "busy"}) <= N
THEOREM Spec => []TypeOK
<1>1. Init => TypeOK
  BY DEF Init, TypeOK
<1>2. QED
  BY <1>1
====
""",
    r"""---- MODULE M ----
EXTENDS Integers, TLC
(* A comment (* nested *) with PlusCal:
--algorithm a { variables y = 0; { y := y + 1 } } *)
CONSTANT Values, F(_, _)
VARIABLE state
a \prec b == a < b
Plus2(a, b) == a + b
Max(S) == CHOOSE m \in S : \A s \in S : s <= m
Pairs == {<<a, b>> \in Values \X Values : a # b}
Rec == [kind : {"put", "get"}, val : Values]
Apply(Op(_, _), a, b) == Op(a, b)
Total == Apply(+, 1, 2) + Apply(LAMBDA u, v : u * v, 3, 4) + Apply(F, 1, 2)
Classify(v) == CASE v < 0 -> "neg"
                 [] v = 0 -> "zero"
                 [] OTHER -> "pos"
Init == state = [v \in Values |-> [kind |-> "put", val |-> v]]
Next == LET s == state
            k(v) == s[v].kind
        IN  \E v \in DOMAIN s :
              /\ k(v) = "put"
              /\ state' = [s EXCEPT ![v].kind = "get", ![v].val = @]
Live == []<>(\A v \in Values : state[v].kind = "get") /\ (TRUE ~> FALSE)
====
""",
    r"""---- MODULE M ----
EXTENDS Naturals
---- MODULE Inner ----
CONSTANT K
VARIABLE v
Grow == v' = v + K
====
VARIABLE w
I == INSTANCE Inner WITH K <- 2, v <- w
J(k) == INSTANCE Inner WITH K <- k, v <- w
a (+) b == a + b
Init == w = 0
Next == I!Grow \/ J(3)!Grow \/ w' = w (+) 1
Spec == Init /\ [][Next]_w /\ SF_w(Next)
Inv == w >= 0
====
""",
]

CONFIGS = {
    0: "CONSTANTS N = 3\n  Procs = {p1, p2}\nSPECIFICATION Spec\nINVARIANT TypeOK Bounded\n",
    1: "CONSTANTS Values = {1, 2}\n F <- Plus2\nINIT Init\nNEXT Next\n",
    2: "SPECIFICATION Spec\nINVARIANT Inv\nPROPERTY Spec\n",
}

# What mutations insert: operators, brackets, bullets, keywords, odd characters.
INSERTS = [
    "/\\", "\\/", "~", "=", "==", "'", "+", "-", "*", "..", "\\in", "\\notin", "\\X", "\\cup",
    "=>", "<=>", "~>", "[]", "<>", "-+->", "(", ")", "[", "]", "{", "}", "<<", ">>", "]_",
    ">>_", ",", ":", "::", "|->", "->", "<-", "!", "@", "_", ".", "-.", "^+", "\\A", "\\E",
    "\\AA", "CHOOSE", "LET", "IN", "IF", "THEN", "ELSE", "CASE", "OTHER", "EXCEPT", "LAMBDA",
    "INSTANCE", "WITH", "LOCAL", "RECURSIVE", "EXTENDS", "CONSTANT", "VARIABLE", "ASSUME",
    "THEOREM", "PROVE", "NEW", "BY", "<1>1.", "WF_", "SF_", "SUBSET", "UNION", "DOMAIN",
    "UNCHANGED", "ENABLED", "TRUE", "STRING", "----", "====", "---- MODULE X ----", "(*", "*)",
    "\\*", '"', '"s\\"', "\\foo", "x", "N", "Inner", "1", "2.5", "∧", "∨", "⟨", "⟩", "≜", "∈",
    "\n", "\n     ", "\n  /\\ ", "\n\\/ ", "\t", "\r\n", "\x00", "\ufeff",
]

_TOKEN = re.compile(r"\s+|\w+|\\[A-Za-z]+|[^\w\s]")

_tmp = tempfile.TemporaryDirectory(prefix="kipcheck-fuzz-")
TMP = Path(_tmp.name)


def run_pipeline(text: str, cfg: str | None = None) -> None:
    """Load `text` as M.tla (with `cfg` as M.cfg); only a KipcheckError may escape."""
    spec = TMP / "M.tla"
    spec.write_text(text, encoding="utf-8", errors="surrogatepass")
    config = None
    if cfg is not None:
        config = TMP / "M.cfg"
        config.write_text(cfg, encoding="utf-8")
    try:
        loaded = load_spec(spec, config)
    except (SpecError, ConfigError) as e:
        assert isinstance(e.message, str) and e.message
        report = e.format()  # formatting must work for every error, spans included
        if e.span is not None and e.span.line > 0:
            lines = text.splitlines() or [""]
            assert 1 <= e.span.line <= len(lines) + 1, (e.span, report)
            assert e.span.col >= 1
            assert report.startswith(f"{e.span.file}:{e.span.line}:{e.span.col}: error: ")
        else:
            assert report.startswith("error: ")
        return
    assert loaded.root.name == "M"


@pytest.mark.parametrize("index", range(len(SEEDS)))
def test_seeds_are_valid(index):
    (TMP / "M.tla").write_text(SEEDS[index], encoding="utf-8")
    (TMP / "M.cfg").write_text(CONFIGS[index], encoding="utf-8")
    loaded = load_spec(TMP / "M.tla", TMP / "M.cfg")
    assert loaded.root.name == "M"
    assert len(loaded.root.units) > 5


@st.composite
def mutated_specs(draw):
    index = draw(st.integers(0, len(SEEDS) - 1))
    # Keep the header apart (hypothesis favours small positions, which would hit it most).
    header, body = SEEDS[index].split("\n", 1)
    toks = _TOKEN.findall(body)
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "insert", "insert", "indent"]))
        i = draw(st.integers(0, len(toks) - 1))
        if op == "delete":
            del toks[i:i + draw(st.integers(1, 4))]
        elif op == "duplicate":
            j = min(len(toks), i + draw(st.integers(1, 8)))
            toks[i:i] = toks[i:j]
        elif op == "swap":
            j = draw(st.integers(0, len(toks) - 1))
            toks[i], toks[j] = toks[j], toks[i]
        elif op == "insert":
            toks.insert(i, draw(st.sampled_from(INSERTS)))
        else:  # change the indentation of a line: shift it left or right
            ws = [k for k, t in enumerate(toks) if t.startswith("\n")]
            if ws:
                k = draw(st.sampled_from(ws))
                toks[k] = "\n" + " " * draw(st.integers(0, 14))
        if not toks:
            toks = [""]
    text = "".join(toks)
    for _ in range(draw(st.integers(0, 3))):  # character-level damage
        if not text:
            break
        i = draw(st.integers(0, len(text) - 1))
        if draw(st.booleans()):
            text = text[:i] + text[i + 1:]
        else:
            text = text[:i] + draw(st.characters(codec="utf-8")) + text[i:]
    if draw(st.sampled_from([False] * 19 + [True])):  # now and then, damage the header too
        i = draw(st.integers(0, len(header) - 1))
        header = (header[:i] + draw(st.sampled_from(["", "-", "=", "MODULE ", "\n"]))
                  + header[i + 1:])
    cfg = CONFIGS[index] if draw(st.booleans()) else None
    return header + "\n" + text, cfg


def fuzz(n: int) -> settings:
    return settings(max_examples=n, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@fuzz(2500)
@given(mutated_specs())
def test_mutated_specs_parse_or_fail_cleanly(case):
    text, cfg = case
    run_pipeline(text, cfg)


@fuzz(600)
@given(st.binary(max_size=300), st.booleans())
def test_random_bytes_fail_cleanly(data, with_header):
    text = data.decode("utf-8", errors="replace")
    if with_header:
        text = f"---- MODULE M ----\n{text}\n===="
    run_pipeline(text)


@fuzz(600)
@given(st.lists(st.sampled_from(INSERTS + [" ", " ", "\n", "A", "B", "=="]), max_size=50))
def test_token_soup_fails_cleanly(tokens):
    run_pipeline("---- MODULE M ----\nEXTENDS Naturals\n" + " ".join(tokens) + "\n====\n")


@fuzz(300)
@given(st.lists(st.sampled_from(["/\\ ", "\\/ ", "a ", "b ", "(", ")", "\n", "\n   ", "    ",
                                 "IF ", "THEN ", "ELSE ", "\\E x \\in S : ", ", ", "LET c == ",
                                 "IN ", "CASE ", "-> ", "[] ", "{", "}"]),
                min_size=1, max_size=40))
def test_bullet_soup_fails_cleanly(pieces):
    # The layout rule interacts with the parser state; hammer it with bullets and closers.
    run_pipeline("---- MODULE M ----\nVARIABLES a, b\nS == {}\nE == " + "".join(pieces)
                 + "\n====\n")


def test_cli_on_mutated_input_never_shows_a_traceback(tmp_path):
    script = Path(sys.executable).with_name("kipcheck")
    cmd = [str(script)] if script.is_file() else [sys.executable, "-m", "checker.cli"]
    broken = SEEDS[0].replace("/\\ q = <<>>", "/\\ q = <<>\n  \\/ [] ((").replace(
        "Next ==", "Next == \\foo")
    (tmp_path / "M.tla").write_text(broken, encoding="utf-8")
    (tmp_path / "N.tla").write_bytes(b"\x00\xff---- MODULE N ----\n\x80\x81 == ((\n")
    for spec in ("M.tla", "N.tla"):
        proc = subprocess.run([*cmd, "parse", spec], cwd=tmp_path, capture_output=True,
                              text=True, timeout=60)
        assert proc.returncode == 150, proc.stderr
        assert "Traceback" not in proc.stderr + proc.stdout
        assert proc.stdout == ""
        assert re.match(rf"({spec}:\d+:\d+: )?error: ", proc.stderr), proc.stderr


@pytest.mark.parametrize("text", [
    "",
    "====",
    "---- MODULE M ----",
    "---- MODULE M ----\n====\n====\n====",
    "---- MODULE M ----\n---- MODULE M ----\n====\n====",
    "---- MODULE M ----\nA == /\\\n====",
    "---- MODULE M ----\nA == \\/ /\\ \\/ /\\\n====",
    "---- MODULE M ----\nA == <1>1.\n====",
    "---- MODULE M ----\nTHEOREM\n====",
    "---- MODULE M ----\nA == 1\n\x00====",
    "\ufeff---- MODULE M ----\nA == 1\n====",
    "---- MODULE M ----\r\nA == 1\r\n====\r\n",
])
def test_edge_inputs_fail_cleanly(text):
    run_pipeline(text)
