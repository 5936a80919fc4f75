"""Tests for the TLC .cfg reader (checker.frontend.cfg)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from checker.frontend.cfg import (
    KEYWORDS,
    CfgValue,
    Config,
    ConstantAssignment,
    ConstantSubstitution,
    Named,
    load_config,
    parse_config,
)
from checker.frontend.errors import EXIT_CONFIG_ERROR, ConfigError, Span

# Shorthands for expected values; spans are not part of equality, so these compare equal to
# what the parser builds wherever it was written.


def model(name: str) -> CfgValue:
    return CfgValue("model", name)


def num(n: int) -> CfgValue:
    return CfgValue("int", n)


def string(s: str) -> CfgValue:
    return CfgValue("str", s)


def boolean(b: bool) -> CfgValue:
    return CfgValue("bool", b)


def setof(*items: CfgValue) -> CfgValue:
    return CfgValue("set", tuple(items))


def tup(*items: CfgValue) -> CfgValue:
    return CfgValue("tuple", tuple(items))


def names(*ns: str) -> tuple[Named, ...]:
    return tuple(Named(n) for n in ns)


REALISTIC = r"""\* Model for the Paxos spec.
(***************************************************************************)
(* Three acceptors, two values; (* nested *) comments are fine.            *)
(***************************************************************************)
CONSTANTS
    Acceptors = {a1, a2, a3}
    Values = {v1, v2}
    Quorums = {{a1, a2}, {a1, a3}, {a2, a3}}
    MaxBallot = 3   Offset = -2     \* several entries on one line
    None = None
    Greeting = "say \"hi\"\tto\\all\n"
    Debug = FALSE
    Pair = <<1, "x", <<>>>>
    NoProcs = {}
    Ballots <- BallotsImpl
    Leq <- [Voting] LeqImpl

SPECIFICATION Spec
INVARIANT TypeOK
INVARIANTS
    Consistency   OneValuePerBallot
PROPERTY Liveness
CONSTRAINT BallotBound
ACTION_CONSTRAINT NoRollback
SYMMETRY Perms
VIEW StateView
ALIAS DebugAlias
POSTCONDITION AllDone
CHECK_DEADLOCK FALSE
"""


def test_realistic_config_structure():
    cfg = parse_config(REALISTIC, "MCPaxos.cfg")
    expected = Config(
        file="MCPaxos.cfg",
        constants=(
            ConstantAssignment("Acceptors", setof(model("a1"), model("a2"), model("a3"))),
            ConstantAssignment("Values", setof(model("v1"), model("v2"))),
            ConstantAssignment(
                "Quorums",
                setof(
                    setof(model("a1"), model("a2")),
                    setof(model("a1"), model("a3")),
                    setof(model("a2"), model("a3")),
                ),
            ),
            ConstantAssignment("MaxBallot", num(3)),
            ConstantAssignment("Offset", num(-2)),
            ConstantAssignment("None", model("None")),
            ConstantAssignment("Greeting", string('say "hi"\tto\\all\n')),
            ConstantAssignment("Debug", boolean(False)),
            ConstantAssignment("Pair", tup(num(1), string("x"), tup())),
            ConstantAssignment("NoProcs", setof()),
            ConstantSubstitution("Ballots", "BallotsImpl", None),
            ConstantSubstitution("Leq", "LeqImpl", "Voting"),
        ),
        init=None,
        next=None,
        specification=Named("Spec"),
        invariants=names("TypeOK", "Consistency", "OneValuePerBallot"),
        properties=names("Liveness"),
        constraints=names("BallotBound"),
        action_constraints=names("NoRollback"),
        symmetry=Named("Perms"),
        view=Named("StateView"),
        alias=Named("DebugAlias"),
        postcondition=Named("AllDone"),
        check_deadlock=False,
    )
    assert cfg == expected


def test_realistic_config_spans():
    cfg = parse_config(REALISTIC, "MCPaxos.cfg")
    acceptors = cfg.constants[0]
    assert acceptors.span == Span("MCPaxos.cfg", 6, 5, 6, 29)
    assert acceptors.value.span == Span("MCPaxos.cfg", 6, 17, 6, 29)
    assert acceptors.value.value[1].span == Span("MCPaxos.cfg", 6, 22, 6, 24)
    offset = cfg.constants[4]
    assert offset.span == Span("MCPaxos.cfg", 9, 21, 9, 32)
    assert offset.value.span == Span("MCPaxos.cfg", 9, 30, 9, 32)
    leq = cfg.constants[-1]
    assert leq.span == Span("MCPaxos.cfg", 16, 5, 16, 28)
    assert cfg.specification.span == Span("MCPaxos.cfg", 18, 15, 18, 19)
    assert cfg.invariants[1].span == Span("MCPaxos.cfg", 21, 5, 21, 16)
    assert cfg.invariants[2].span == Span("MCPaxos.cfg", 21, 19, 21, 36)
    assert cfg.check_deadlock is False


def test_value_kinds_and_types():
    cfg = parse_config('CONSTANTS A = 0 B = -17 C = "" D = TRUE E = e F = {<<1, 2>>, {}}')
    kinds = [(c.name, c.value.kind, c.value.value) for c in cfg.constants]
    assert kinds[:5] == [
        ("A", "int", 0),
        ("B", "int", -17),
        ("C", "str", ""),
        ("D", "bool", True),
        ("E", "model", "e"),
    ]
    f = cfg.constants[5].value
    assert f.kind == "set" and isinstance(f.value, tuple)
    assert f.value == (tup(num(1), num(2)), setof())
    # A bool is not the int it happens to equal in Python.
    assert boolean(True) != num(1)


def test_value_str_renders_tla_syntax():
    cfg = parse_config('CONSTANT X = {a, -1, "q\\"t", TRUE, <<{}, <<>>>>}')
    assert str(cfg.constants[0].value) == '{a, -1, "q\\"t", TRUE, <<{}, <<>>>>}'


def test_plain_init_next_and_defaults():
    cfg = parse_config("INIT Init\nNEXT Next\n")
    assert cfg == Config(file="<cfg>", init=Named("Init"), next=Named("Next"))
    assert cfg.check_deadlock is None
    assert cfg.constants == () and cfg.invariants == ()


def test_check_deadlock_true():
    assert parse_config("CHECK_DEADLOCK TRUE").check_deadlock is True


def test_model_value_bound_to_itself_and_odd_names():
    cfg = parse_config("CONSTANT a = a\nCONSTANT 1st_node = n_1  _x2 = 2")
    assert cfg.constants == (
        ConstantAssignment("a", model("a")),
        ConstantAssignment("1st_node", model("n_1")),
        ConstantAssignment("_x2", num(2)),
    )


def test_constant_section_may_be_empty():
    cfg = parse_config("CONSTANTS\nINIT Init")
    assert cfg.constants == () and cfg.init == Named("Init")


def test_repeated_sections_accumulate():
    text = (
        "INVARIANT Inv1\nCONSTANT N = 1\nINVARIANT Inv2 Inv3\nPROPERTY P1\nPROPERTIES P2\n"
        "CONSTANTS M = 2\nCONSTRAINT C1\nCONSTRAINTS C2\nACTION_CONSTRAINTS A1 A2\n"
    )
    cfg = parse_config(text)
    assert cfg.invariants == names("Inv1", "Inv2", "Inv3")
    assert cfg.properties == names("P1", "P2")
    assert cfg.constraints == names("C1", "C2")
    assert cfg.action_constraints == names("A1", "A2")
    assert [c.name for c in cfg.constants] == ["N", "M"]


@pytest.mark.parametrize("text, line", [
    # TLC 2.18: "The keyword INIT appeared twice." (the value given first was silently lost)
    ("INIT I1\nNEXT N1\nINIT I2\n", 3), ("INIT I\nINIT I\n", 2),
    ("SPECIFICATION S\nVIEW V1\nVIEW V2\n", 3), ("NEXT N\nSYMMETRY A SYMMETRY B\n", 2),
    ("CHECK_DEADLOCK FALSE\nCHECK_DEADLOCK TRUE\n", 2), ("ALIAS A\nALIAS B\n", 2),
    ("SPECIFICATION S\nSPECIFICATION T\n", 2), ("POSTCONDITION P POSTCONDITION Q\n", 1)])
def test_a_single_valued_keyword_given_twice_is_an_error(text, line):
    with pytest.raises(ConfigError) as e:
        parse_config(text)
    assert "appeared twice (first at line" in e.value.message and e.value.span.line == line


def test_the_same_list_keyword_may_be_given_again():
    cfg = parse_config("INIT I\nNEXT N\nINVARIANT A\nINVARIANT B\nSPECIFICATION S\n")
    assert cfg.invariants == names("A", "B")
    assert cfg.specification == Named("S")  # with INIT and NEXT: the checker's error


def test_names_may_span_lines_and_sections_share_lines():
    cfg = parse_config("INVARIANTS\n  A\n  B C\n\n  D INIT Init NEXT Next")
    assert cfg.invariants == names("A", "B", "C", "D")
    assert cfg.init == Named("Init") and cfg.next == Named("Next")


def test_comments_everywhere():
    text = (
        "(* header *) CONSTANTS N (* before = *) = (* after = *) { 1 \\* one\n"
        ", (* (* deep *) *) 2 }\n"
        "\\* INIT Commented\n"
        "INIT Init (* INIT Other\n INIT Other2 *)\n"
        "(**) NEXT Next\\*trailing"
    )
    cfg = parse_config(text)
    assert cfg.constants == (ConstantAssignment("N", setof(num(1), num(2))),)
    assert cfg.init == Named("Init")
    assert cfg.next == Named("Next")


def test_star_inside_block_comment_does_not_close_it():
    cfg = parse_config("(* a * b (* c *) ) * *) INIT Init")
    assert cfg.init == Named("Init")


def test_crlf_and_tabs_positions():
    text = "INIT Init\r\n\tNEXT\r\n\tNext\r\n"
    cfg = parse_config(text, "w.cfg")
    assert cfg.next == Named("Next")
    assert cfg.next.span == Span("w.cfg", 3, 2, 3, 6)


def test_spans_are_not_part_of_equality():
    a = parse_config("INIT Init")
    b = parse_config("\n\n   INIT    Init")
    assert a == b
    assert a.init.span != b.init.span
    assert hash(a.init) == hash(b.init)


# --------------------------------------------------------------------------------------------
# Errors: each reports the offending token's exact place.


UNKNOWN_KEYWORD = "unknown keyword 'INVARIANTZ'; expected one of CONSTANT, CONSTANTS, INIT"


@pytest.mark.parametrize(
    ("text", "line", "col", "message"),
    [
        # unknown keywords, at the top level and where a section would otherwise continue
        ("INVARIANTZ Foo", 1, 1, UNKNOWN_KEYWORD),
        ("INIT Init\nINVARIANTZ Foo", 2, 1, UNKNOWN_KEYWORD),
        ("INVARIANT Inv\nINVARIANTZ Foo", 2, 1, UNKNOWN_KEYWORD),
        ("CONSTANTS N = 3\n  INVARIANTZ Foo", 2, 3, UNKNOWN_KEYWORD),
        ("init Init", 1, 1, "unknown keyword 'init'"),
        ("\n  Spec", 2, 3, "unknown keyword 'Spec'"),
        ("INVARIANTZ Foo", 1, 1, "(did you mean INVARIANT?)"),
        ("= 3", 1, 1, "expected a keyword such as CONSTANT, INIT or INVARIANT, found '='"),
        # keywords missing their names
        ("INIT\nNEXT Next", 1, 1, "INIT must be followed by an operator name"),
        ("INIT Init\nNEXT", 2, 1, "NEXT must be followed by an operator name"),
        ("SPECIFICATION", 1, 1, "SPECIFICATION must be followed by an operator name"),
        ("INVARIANT {", 1, 11, "expected an operator name after INVARIANT, found '{'"),
        ("INVARIANT A 3", 1, 13, "expected an operator name in the INVARIANT section, found '3'"),
        ("INIT TRUE", 1, 6, "expected an operator name after INIT, found 'TRUE'"),
        ("INIT Init Other", 1, 11, "INIT takes a single operator name, found 'Other' after 'Init'"),
        # bad values
        (
            "CONSTANT N = {1, 2",
            1,
            19,
            "expected ',' or '}' in the set opened at 1:14, found end of file",
        ),
        ("CONSTANT N = {1, 2\nINIT Init", 2, 1, "found keyword 'INIT'"),
        ("CONSTANT N = {1,}", 1, 17, "expected a value, found '}'"),
        (
            "CONSTANT N = <<1 2>>",
            1,
            18,
            "expected ',' or '>>' in the tuple opened at 1:14, found '2'",
        ),
        ("CONSTANT N =", 1, 13, "expected a value, found end of file"),
        ("CONSTANT N = INIT", 1, 14, "expected a value, found keyword 'INIT'"),
        ("CONSTANT N = -x", 1, 14, "unexpected character '-'"),
        ("CONSTANT N = 3a\nN = -3a", 2, 5, "invalid number '-3a'"),
        ("CONSTANTS\n  N 3", 2, 5, "expected '=' or '<-' after constant 'N', found '3'"),
        ("CONSTANTS\n  N", 2, 4, "expected '=' or '<-' after constant 'N', found end of file"),
        ("CONSTANTS { = 1", 1, 11, "expected a constant name, found '{'"),
        ("CONSTANTS N <- 3", 1, 16, "expected an operator name after '<-', found '3'"),
        ("CONSTANTS N <- [M Other", 1, 19, "expected ']' after the module name, found 'Other'"),
        ("CONSTANTS N <- [] Other", 1, 17, "expected a module name after '[', found ']'"),
        ("CONSTANTS __ = 1", 1, 11, "invalid name '__'"),
        ("CONSTANTS N = 1 ; M = 2", 1, 17, "unexpected character ';'"),
        # unterminated comments and strings, bad escapes
        ("INIT Init\n  (* open (* nested *)\n", 2, 3, "unterminated comment"),
        ('CONSTANT S = "abc\nINIT Init', 1, 14, "unterminated string"),
        ('CONSTANT S = "abc', 1, 14, "unterminated string"),
        ('CONSTANT S = "a\\qb"', 1, 16, "unknown escape '\\q' in string"),
        # CHECK_DEADLOCK needs a boolean
        ("CHECK_DEADLOCK", 1, 1, "CHECK_DEADLOCK must be followed by TRUE or FALSE"),
        ("CHECK_DEADLOCK\nINIT Init", 1, 1, "CHECK_DEADLOCK must be followed by TRUE or FALSE"),
        ("CHECK_DEADLOCK no", 1, 16, "expected TRUE or FALSE after CHECK_DEADLOCK, found 'no'"),
        ("CHECK_DEADLOCK 0", 1, 16, "expected TRUE or FALSE after CHECK_DEADLOCK, found '0'"),
    ],
)
def test_errors_point_at_the_offending_token(text, line, col, message):
    with pytest.raises(ConfigError) as info:
        parse_config(text, "bad.cfg")
    err = info.value
    assert message in err.message
    assert (err.span.file, err.span.line, err.span.col) == ("bad.cfg", line, col)
    assert err.source == text
    assert err.exit_code == EXIT_CONFIG_ERROR == 151


def test_unknown_keyword_lists_every_keyword():
    with pytest.raises(ConfigError) as info:
        parse_config("INVARIANTZ Foo")
    assert info.value.message.startswith(
        "unknown keyword 'INVARIANTZ'; expected one of " + ", ".join(KEYWORDS)
    )


def test_error_span_covers_the_token_and_formats_with_caret():
    with pytest.raises(ConfigError) as info:
        parse_config("INIT Init\nINVARIANTZ Foo", "m.cfg")
    assert info.value.span == Span("m.cfg", 2, 1, 2, 11)
    lines = info.value.format().splitlines()
    assert lines[0].startswith("m.cfg:2:1: error: unknown keyword 'INVARIANTZ'")
    assert lines[1:] == ["INVARIANTZ Foo", "^" + "~" * 9]


def test_mixed_case_names_on_their_own_line_are_not_taken_for_keywords():
    cfg = parse_config("INVARIANTS\n  Invariant\n  INVARIANT_OK\nPROPERTY\n  Property")
    assert cfg.invariants == names("Invariant", "INVARIANT_OK")
    assert cfg.properties == names("Property")


def test_huge_number_and_deep_nesting_are_config_errors():
    with pytest.raises(ConfigError, match="too large"):
        parse_config("CONSTANT N = " + "9" * 6000)
    with pytest.raises(ConfigError, match="nested more than"):
        parse_config("CONSTANT N = " + "{" * 5000)
    deep = "CONSTANT N = " + "{" * 150 + "}" * 150
    assert parse_config(deep).constants[0].value.kind == "set"


def test_big_numbers_within_limits_are_kept_exactly():
    cfg = parse_config("CONSTANT N = 123456789012345678901234567890")
    assert cfg.constants[0].value == num(123456789012345678901234567890)


# --------------------------------------------------------------------------------------------
# load_config


def test_load_config_reads_file(tmp_path):
    path = tmp_path / "MC.cfg"
    path.write_bytes("\ufeffINIT Init\r\nNEXT Next\r\n".encode())
    cfg = load_config(path)
    assert cfg.file == str(path)
    assert cfg.init == Named("Init") and cfg.next == Named("Next")
    assert cfg.next.span == Span(str(path), 2, 6, 2, 10)


def test_load_config_missing_file(tmp_path):
    path = tmp_path / "nope.cfg"
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(path) in info.value.message
    assert info.value.span is None
    assert info.value.format().startswith("error: cannot read config file")


def test_load_config_errors_name_the_file(tmp_path):
    path = tmp_path / "bad.cfg"
    path.write_text("INIT Init\nNEXT\n")
    with pytest.raises(ConfigError) as info:
        load_config(str(path))
    assert info.value.span == Span(str(path), 2, 1, 2, 5)


# --------------------------------------------------------------------------------------------
# Robustness: any input gives a Config or a ConfigError, never another exception.

_PIECES = [
    *KEYWORDS,
    *["TRUE", "FALSE", "Foo", "a1", "_", "1", "-", "-7", "=", "<-", "<<", ">>", "<", ">"],
    *["{", "}", "[", "]", ",", '"', "\\", "\\*", "(*", "*)", "(", ")", "*"],
    *[" ", "\t", "\n", "\r", "\r\n", "\f", "\u2028", "\ufeff", "é", "\x00"],
]

_VALID = (
    'CONSTANTS N = 3  Procs = {p1, p2}\n  S = "x\\ty" T = <<1, {a}>>\n  Op <- [M] Impl\n'
    "INIT Init\nNEXT Next\nINVARIANT TypeOK Safe\n(* c *) CHECK_DEADLOCK FALSE \\* end\n"
)


def _parse_or_config_error(text: str) -> None:
    try:
        cfg = parse_config(text, "fuzz.cfg")
    except ConfigError as err:
        assert err.span is not None and err.span.line >= 1 and err.span.col >= 1
        err.format()  # rendering the report must not fail either
    else:
        assert isinstance(cfg, Config)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200))
def test_fuzz_arbitrary_text(text):
    _parse_or_config_error(text)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_PIECES), max_size=60).map("".join))
def test_fuzz_token_soup(text):
    _parse_or_config_error(text)


@st.composite
def _mutated_valid(draw):
    text = _VALID
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 8)))
        op = draw(st.sampled_from(["delete", "insert", "replace"]))
        piece = "" if op == "delete" else draw(st.sampled_from(_PIECES) | st.text(max_size=3))
        text = text[:i] + piece + (text[i:] if op == "insert" else text[j:])
    return text


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutated_valid())
def test_fuzz_mutations_of_a_valid_config(text):
    _parse_or_config_error(text)


def test_valid_fuzz_seed_parses():
    cfg = parse_config(_VALID)
    assert cfg.constants[-1] == ConstantSubstitution("Op", "Impl", "M")
    assert cfg.check_deadlock is False


def test_an_empty_list_section_is_accepted_as_tlc_does():
    # tlaplus/Examples' ACP_SB_TLC.cfg ends with a bare PROPERTIES line; TLC runs it.
    cfg = parse_config("INVARIANT\n\nPROPERTY P\nPROPERTIES\n", "m.cfg")
    assert cfg.invariants == ()
    assert [p.name for p in cfg.properties] == ["P"]


def test_an_assignment_may_name_the_module_whose_definition_it_overrides():
    cfg = parse_config("CONSTANTS\n  NoHash = [Nano]NoHashVal\n", "m.cfg")
    (c,) = cfg.constants
    assert (c.name, c.module, c.value.kind, c.value.value) == ("NoHash", "Nano", "model",
                                                              "NoHashVal")
