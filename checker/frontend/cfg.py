"""Reader for TLC model configuration (.cfg) files.

A .cfg file names the operators a run uses (INIT, NEXT or SPECIFICATION, INVARIANTs, ...) and
gives values to the spec's CONSTANTs. The language is tiny, so it is read by a hand-written
tokenizer and recursive-descent parser: that keeps it fast and lets every error point at the
exact token that is wrong, which a generated parser makes harder.

Whatever the input, `parse_config` returns a `Config` or raises `ConfigError`; nothing else
escapes (nesting depth and number size are bounded for that reason).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path

from .errors import NO_SPAN, ConfigError, Span

__all__ = [
    "KEYWORDS",
    "CfgValue",
    "Config",
    "ConstantAssignment",
    "ConstantSubstitution",
    "Named",
    "load_config",
    "parse_config",
]


# --------------------------------------------------------------------------------------------
# Data model. Spans say where each item was written; they take no part in equality, so two
# configs that mean the same thing compare equal however they were laid out.


_MAX_DIGITS = 4300  # a .cfg number longer than this is no model size


@dataclass(frozen=True)
class CfgValue:
    """A constant's value as written in the cfg.

    kind is one of "int", "str", "bool", "model" (a model value, written as a bare name),
    "set" or "tuple"; value is an int, str, bool, or a tuple of CfgValue for sets and tuples
    (in source order, duplicates kept: the checker builds the actual set).
    """

    kind: str
    value: object
    span: Span = field(default=NO_SPAN, compare=False)

    def __str__(self) -> str:
        if self.kind == "str":
            return _quote(self.value)  # type: ignore[arg-type]
        if self.kind == "bool":
            return "TRUE" if self.value else "FALSE"
        if self.kind == "set":
            return "{" + ", ".join(str(v) for v in self.value) + "}"  # type: ignore[attr-defined]
        if self.kind == "tuple":
            return "<<" + ", ".join(str(v) for v in self.value) + ">>"  # type: ignore[attr-defined]
        return str(self.value)


@dataclass(frozen=True)
class ConstantAssignment:
    """`name = value`: the constant takes a concrete value (`a = a` binds a to model value a)."""

    name: str
    value: CfgValue
    span: Span = field(default=NO_SPAN, compare=False)
    module: str | None = None  # `name = [Mod] value` overrides the definition in module Mod


@dataclass(frozen=True)
class ConstantSubstitution:
    """`name <- target` or `name <- [module] target`: the constant or operator is replaced by
    another definition, in the given module only when one is named."""

    name: str
    target: str
    module: str | None = None
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True)
class Named:
    """A reference to an operator of the spec, such as the name after INIT or INVARIANT."""

    name: str
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True)
class Config:
    """Everything a .cfg file says; sections that may repeat accumulate in source order."""

    file: str
    constants: tuple[ConstantAssignment | ConstantSubstitution, ...] = ()
    init: Named | None = None
    next: Named | None = None
    specification: Named | None = None
    invariants: tuple[Named, ...] = ()
    properties: tuple[Named, ...] = ()
    constraints: tuple[Named, ...] = ()
    action_constraints: tuple[Named, ...] = ()
    symmetry: Named | None = None
    view: Named | None = None
    alias: Named | None = None
    postcondition: Named | None = None
    check_deadlock: bool | None = None


# --------------------------------------------------------------------------------------------
# Keywords, grouped by the shape of what follows them.

_CONSTANT_SECTION = ("CONSTANT", "CONSTANTS")
# Sections holding one or more names, mapped to the Config field they fill.
_LIST_SECTIONS = {
    "INVARIANT": "invariants",
    "INVARIANTS": "invariants",
    "PROPERTY": "properties",
    "PROPERTIES": "properties",
    "CONSTRAINT": "constraints",
    "CONSTRAINTS": "constraints",
    "ACTION_CONSTRAINT": "action_constraints",
    "ACTION_CONSTRAINTS": "action_constraints",
}
# Sections holding exactly one name; given twice, a configuration error (TLC: "The keyword
# INIT appeared twice."), as CHECK_DEADLOCK given twice.
_SINGLE_SECTIONS = {
    "INIT": "init",
    "NEXT": "next",
    "SPECIFICATION": "specification",
    "SYMMETRY": "symmetry",
    "VIEW": "view",
    "ALIAS": "alias",
    "POSTCONDITION": "postcondition",
}
_CHECK_DEADLOCK = "CHECK_DEADLOCK"

KEYWORDS: tuple[str, ...] = (
    "CONSTANT",
    "CONSTANTS",
    "INIT",
    "NEXT",
    "SPECIFICATION",
    "INVARIANT",
    "INVARIANTS",
    "PROPERTY",
    "PROPERTIES",
    "CONSTRAINT",
    "CONSTRAINTS",
    "ACTION_CONSTRAINT",
    "ACTION_CONSTRAINTS",
    "SYMMETRY",
    "VIEW",
    "ALIAS",
    "POSTCONDITION",
    "CHECK_DEADLOCK",
)
_KEYWORD_SET = frozenset(KEYWORDS)
_BOOLEANS = {"TRUE": True, "FALSE": False}

# Deeper nesting than this in a value is refused rather than risking Python's recursion limit.
_MAX_NESTING = 200


# --------------------------------------------------------------------------------------------
# Tokenizer.

# The characters str.splitlines() breaks on, so our line numbers agree with the line that
# KipcheckError.format() prints under them.
_LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")
_STRING_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t", "r": "\r", "f": "\f"}

_DIGITS = frozenset("0123456789")

_WORD, _INT, _STR, _PUNCT, _EOF = "word", "int", "str", "punct", "eof"


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str
    text: str  # the source text (for strings: the decoded contents)
    value: object
    span: Span
    first_on_line: bool  # nothing but blanks and comments before it on its line


def _is_word_char(ch: str) -> bool:
    return ch.isascii() and (ch.isalnum() or ch == "_")


class _Lexer:
    """Splits cfg text into tokens, tracking 1-based line and column as it goes."""

    def __init__(self, text: str, file: str):
        self.text = text
        self.file = file
        self.i = 0
        self.line = 1
        self.col = 1
        self.line_has_token = False

    def error(self, message: str, line: int, col: int, width: int = 1) -> ConfigError:
        return ConfigError(message, Span(self.file, line, col, line, col + width), self.text)

    def bump(self) -> None:
        """Step over one character (a CR LF pair counts as one line break)."""
        ch = self.text[self.i]
        self.i += 1
        if ch in _LINE_BREAKS:
            if ch == "\r" and self.text.startswith("\n", self.i):
                self.i += 1
            self.line += 1
            self.col = 1
            self.line_has_token = False
        else:
            self.col += 1

    def at(self, prefix: str) -> bool:
        return self.text.startswith(prefix, self.i)

    def tokens(self) -> list[_Token]:
        out: list[_Token] = []
        text = self.text
        while self.i < len(text):
            ch = text[self.i]
            if ch in _LINE_BREAKS or ch.isspace() or ch == "\ufeff":
                self.bump()
            elif self.at("\\*"):
                while self.i < len(text) and text[self.i] not in _LINE_BREAKS:
                    self.bump()
            elif self.at("(*"):
                self.skip_block_comment()
            else:
                out.append(self.token())
        # End of input sits just after the last token, so "expected '}'" points at the gap.
        if out:
            end = out[-1].span
            eof = Span(self.file, end.end_line, end.end_col, end.end_line, end.end_col)
        else:
            eof = Span(self.file, 1, 1, 1, 1)
        out.append(_Token(_EOF, "", None, eof, True))
        return out

    def skip_block_comment(self) -> None:
        """Skip a `(* ... *)` comment; these nest, as in TLA+."""
        line, col = self.line, self.col
        depth = 0
        while self.i < len(self.text):
            if self.at("(*"):
                depth += 1
                self.bump()
                self.bump()
            elif self.at("*)"):
                depth -= 1
                self.bump()
                self.bump()
                if depth == 0:
                    return
            else:
                self.bump()
        raise self.error("unterminated comment: '(*' has no matching '*)'", line, col, 2)

    def token(self) -> _Token:
        line, col, start = self.line, self.col, self.i
        first = not self.line_has_token
        self.line_has_token = True
        text = self.text
        ch = text[self.i]
        kind: str
        value: object = None
        if _is_word_char(ch) or (ch == "-" and text[self.i + 1 : self.i + 2] in _DIGITS):
            self.bump()
            while self.i < len(text) and _is_word_char(text[self.i]):
                self.bump()
            word = text[start : self.i]
            digits = word.lstrip("-")
            if digits.isdigit():
                kind = _INT
                value = self.number(word, line, col)
            elif word.startswith("-"):
                raise self.error(f"invalid number '{word}'", line, col, len(word))
            elif not any(c.isalpha() for c in word):
                raise self.error(
                    f"invalid name '{word}': a name needs at least one letter", line, col, len(word)
                )
            else:
                kind = _WORD
        elif ch == '"':
            kind = _STR
            value = self.string(line, col)
        else:
            kind = _PUNCT
            for punct in ("<<", ">>", "<-", "=", "{", "}", ",", "[", "]"):
                if self.at(punct):
                    for _ in punct:
                        self.bump()
                    break
            else:
                raise self.error(f"unexpected character {ch!r}", line, col)
        # A string token's text is its decoded contents; any other token's is its source text.
        token_text = value if isinstance(value, str) else text[start : self.i]
        span = Span(self.file, line, col, self.line, self.col)
        return _Token(kind, token_text, value, span, first)

    def number(self, word: str, line: int, col: int) -> int:
        if len(word) > _MAX_DIGITS:  # converting is quadratic in the digits: refuse it
            raise self.error(
                f"number '{word[:20]}...' is too large", line, col, len(word)
            ) from None
        return int(word)

    def string(self, line: int, col: int) -> str:
        """Read a string literal; it may not run past the end of its line."""
        self.bump()  # the opening quote
        chars: list[str] = []
        text = self.text
        while True:
            if self.i >= len(text) or text[self.i] in _LINE_BREAKS:
                raise self.error("unterminated string: missing closing '\"'", line, col)
            ch = text[self.i]
            if ch == '"':
                self.bump()
                return "".join(chars)
            if ch == "\\":
                esc_line, esc_col = self.line, self.col
                self.bump()
                nxt = text[self.i] if self.i < len(text) else ""
                if nxt not in _STRING_ESCAPES:
                    shown = nxt if nxt and nxt not in _LINE_BREAKS else ""
                    raise self.error(
                        f"unknown escape '\\{shown}' in string", esc_line, esc_col, 1 + len(shown)
                    )
                chars.append(_STRING_ESCAPES[nxt])
                self.bump()
            else:
                chars.append(ch)
                self.bump()


# --------------------------------------------------------------------------------------------
# Parser.


def _join(first: Span, last: Span) -> Span:
    return Span(first.file, first.line, first.col, last.end_line, last.end_col)


def _describe(tok: _Token) -> str:
    if tok.kind == _EOF:
        return "end of file"
    if tok.kind == _STR:
        return f"string {_quote(tok.text)}"
    if tok.kind == _WORD and tok.text in _KEYWORD_SET:
        return f"keyword '{tok.text}'"
    return f"'{tok.text}'"


def _quote(s: str) -> str:
    body = s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{body}"'


def _suggest(word: str) -> str | None:
    """The keyword `word` was most likely meant to be, if any is close."""
    match = difflib.get_close_matches(word.upper(), KEYWORDS, n=1, cutoff=0.75)
    return match[0] if match else None


class _Parser:
    def __init__(self, tokens: list[_Token], file: str, text: str):
        self.tokens = tokens
        self.pos = 0
        self.file = file
        self.text = text

    # -- token access

    def peek(self) -> _Token:
        return self.tokens[self.pos]

    def advance(self) -> _Token:
        tok = self.tokens[self.pos]
        if tok.kind != _EOF:
            self.pos += 1
        return tok

    def is_punct(self, tok: _Token, text: str) -> bool:
        return tok.kind == _PUNCT and tok.text == text

    def error(self, message: str, tok: _Token) -> ConfigError:
        return ConfigError(message, tok.span, self.text)

    @staticmethod
    def ends_section(tok: _Token) -> bool:
        return tok.kind == _EOF or (tok.kind == _WORD and tok.text in _KEYWORD_SET)

    @staticmethod
    def is_name(tok: _Token) -> bool:
        return tok.kind == _WORD and tok.text not in _KEYWORD_SET and tok.text not in _BOOLEANS

    def unknown_keyword(self, tok: _Token) -> ConfigError:
        message = f"unknown keyword '{tok.text}'; expected one of {', '.join(KEYWORDS)}"
        guess = _suggest(tok.text)
        if guess is not None:
            message += f" (did you mean {guess}?)"
        return self.error(message, tok)

    def misspelt_keyword(self, tok: _Token) -> bool:
        """Whether a name in a section is probably a mistyped keyword starting the next one.

        Only upper-case words at the start of a line that are close to a keyword qualify, so
        ordinary operator names (`Invariant`, `TypeOK`) are never taken for keywords.
        """
        return (
            tok.kind == _WORD
            and tok.first_on_line
            and not any(c.islower() for c in tok.text)
            and _suggest(tok.text) is not None
        )

    # -- sections

    def parse(self) -> Config:
        constants: list[ConstantAssignment | ConstantSubstitution] = []
        lists: dict[str, list[Named]] = {f: [] for f in set(_LIST_SECTIONS.values())}
        singles: dict[str, Named | None] = {f: None for f in _SINGLE_SECTIONS.values()}
        check_deadlock: bool | None = None
        given: dict[str, _Token] = {}  # single-valued keyword -> where it was first given
        while self.peek().kind != _EOF:
            tok = self.advance()
            if tok.kind != _WORD or tok.text not in _KEYWORD_SET:
                if tok.kind == _WORD:
                    raise self.unknown_keyword(tok)
                raise self.error(
                    "expected a keyword such as CONSTANT, INIT or INVARIANT, "
                    f"found {_describe(tok)}",
                    tok,
                )
            if tok.text in _SINGLE_SECTIONS or tok.text == _CHECK_DEADLOCK:
                first = given.setdefault(tok.text, tok)
                if first is not tok:
                    raise self.error(f"The keyword {tok.text} appeared twice (first at line "
                                     f"{first.span.line}): a configuration gives it once", tok)
            if tok.text in _CONSTANT_SECTION:
                while not self.ends_section(self.peek()):
                    constants.append(self.constant_entry())
            elif tok.text in _LIST_SECTIONS:
                lists[_LIST_SECTIONS[tok.text]].extend(self.name_list(tok))
            elif tok.text in _SINGLE_SECTIONS:
                singles[_SINGLE_SECTIONS[tok.text]] = self.single_name(tok)
            else:
                check_deadlock = self.boolean_after(tok)
        return Config(
            file=self.file,
            constants=tuple(constants),
            init=singles["init"],
            next=singles["next"],
            specification=singles["specification"],
            invariants=tuple(lists["invariants"]),
            properties=tuple(lists["properties"]),
            constraints=tuple(lists["constraints"]),
            action_constraints=tuple(lists["action_constraints"]),
            symmetry=singles["symmetry"],
            view=singles["view"],
            alias=singles["alias"],
            postcondition=singles["postcondition"],
            check_deadlock=check_deadlock,
        )

    def name_list(self, keyword: _Token) -> list[Named]:
        """One or more names, running across lines until the next keyword."""
        names: list[Named] = []
        while not self.ends_section(self.peek()):
            tok = self.advance()
            if not self.is_name(tok):
                where = f"after {keyword.text}" if not names else f"in the {keyword.text} section"
                raise self.error(f"expected an operator name {where}, found {_describe(tok)}", tok)
            following = self.peek()
            if (
                self.misspelt_keyword(tok)
                and following.kind != _EOF
                and following.span.line == tok.span.end_line
            ):
                raise self.unknown_keyword(tok)
            names.append(Named(tok.text, tok.span))
        return names  # TLC accepts an empty section, e.g. a bare PROPERTIES line

    def single_name(self, keyword: _Token) -> Named:
        tok = self.peek()
        if self.ends_section(tok):
            raise self.error(f"{keyword.text} must be followed by an operator name", keyword)
        self.advance()
        if not self.is_name(tok):
            raise self.error(
                f"expected an operator name after {keyword.text}, found {_describe(tok)}", tok
            )
        extra = self.peek()
        if not self.ends_section(extra):
            if extra.kind == _WORD and extra.first_on_line:
                raise self.unknown_keyword(extra)
            raise self.error(
                f"{keyword.text} takes a single operator name, "
                f"found {_describe(extra)} after '{tok.text}'",
                extra,
            )
        return Named(tok.text, tok.span)

    def boolean_after(self, keyword: _Token) -> bool:
        tok = self.peek()
        if tok.kind == _EOF or (tok.kind == _WORD and tok.text in _KEYWORD_SET):
            raise self.error(f"{keyword.text} must be followed by TRUE or FALSE", keyword)
        self.advance()
        if tok.kind != _WORD or tok.text not in _BOOLEANS:
            raise self.error(
                f"expected TRUE or FALSE after {keyword.text}, found {_describe(tok)}", tok
            )
        return _BOOLEANS[tok.text]

    # -- constants

    def constant_entry(self) -> ConstantAssignment | ConstantSubstitution:
        """`Name = value`, `Name <- Target` or `Name <- [Module] Target`."""
        name = self.advance()
        if not self.is_name(name):
            raise self.error(f"expected a constant name, found {_describe(name)}", name)
        op = self.advance()
        if self.is_punct(op, "="):
            module = self.module_scope()
            value = self.value(0)
            return ConstantAssignment(name.text, value, _join(name.span, value.span), module)
        if self.is_punct(op, "<-"):
            module = self.module_scope()
            target = self.expect_name("an operator name after '<-'")
            return ConstantSubstitution(
                name.text, target.text, module, _join(name.span, target.span)
            )
        if self.misspelt_keyword(name):
            raise self.unknown_keyword(name)
        raise self.error(
            f"expected '=' or '<-' after constant '{name.text}', found {_describe(op)}", op
        )

    def module_scope(self) -> str | None:
        """The optional `[Module]` of TLC's `Name = [Mod] value` and `Name <- [Mod] Op`."""
        if not self.is_punct(self.peek(), "["):
            return None
        self.advance()
        module = self.expect_name("a module name after '['").text
        close = self.advance()
        if not self.is_punct(close, "]"):
            raise self.error(f"expected ']' after the module name, found {_describe(close)}", close)
        return module

    def expect_name(self, what: str) -> _Token:
        tok = self.advance()
        if not self.is_name(tok):
            raise self.error(f"expected {what}, found {_describe(tok)}", tok)
        return tok

    def value(self, depth: int) -> CfgValue:
        tok = self.advance()
        if depth > _MAX_NESTING:
            raise self.error(f"value nested more than {_MAX_NESTING} levels deep", tok)
        if tok.kind == _INT:
            return CfgValue("int", tok.value, tok.span)
        if tok.kind == _STR:
            return CfgValue("str", tok.value, tok.span)
        if tok.kind == _WORD and tok.text in _BOOLEANS:
            return CfgValue("bool", _BOOLEANS[tok.text], tok.span)
        if self.is_name(tok):
            return CfgValue("model", tok.text, tok.span)
        if self.is_punct(tok, "{"):
            items, close = self.elements(tok, "}", "set", depth)
            return CfgValue("set", items, _join(tok.span, close.span))
        if self.is_punct(tok, "<<"):
            items, close = self.elements(tok, ">>", "tuple", depth)
            return CfgValue("tuple", items, _join(tok.span, close.span))
        raise self.error(f"expected a value, found {_describe(tok)}", tok)

    def elements(
        self, opener: _Token, closer: str, what: str, depth: int
    ) -> tuple[tuple[CfgValue, ...], _Token]:
        """Comma-separated values up to `closer`; returns them and the closing token."""
        items: list[CfgValue] = []
        if self.is_punct(self.peek(), closer):
            return (), self.advance()
        while True:
            items.append(self.value(depth + 1))
            tok = self.advance()
            if self.is_punct(tok, closer):
                return tuple(items), tok
            if not self.is_punct(tok, ","):
                where = f"{opener.span.line}:{opener.span.col}"
                raise self.error(
                    f"expected ',' or '{closer}' in the {what} opened at {where}, "
                    f"found {_describe(tok)}",
                    tok,
                )


# --------------------------------------------------------------------------------------------
# Entry points.


def parse_config(text: str, file: str = "<cfg>") -> Config:
    """Parse the text of a .cfg file; `file` is the name used in spans and messages."""
    tokens = _Lexer(text, file).tokens()
    return _Parser(tokens, file, text).parse()


def load_config(path: str | PathLike[str]) -> Config:
    """Read and parse a .cfg file; an unreadable file is a ConfigError too."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        reason = exc.strerror or exc.__class__.__name__
        raise ConfigError(f"cannot read config file '{p}': {reason}") from None
    # TLC reads cfg files leniently; undecodable bytes (usually inside comments) become U+FFFD.
    text = data.decode("utf-8-sig", errors="replace")
    try:
        return parse_config(text, str(p))
    except ConfigError as e:
        span = e.span
        lines = text.splitlines()
        if span is not None and 1 <= span.line <= len(lines) and \
                lines[span.line - 1][span.col - 1:span.col] == "\ufffd":
            raise ConfigError("the file is not UTF-8 text here: a byte that UTF-8 cannot "
                              "read (save the file as UTF-8)", span, e.source) from None
        raise
