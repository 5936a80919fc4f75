"""Tokens for the TLA+ grammar, with TLA+'s layout rule for bulleted `/\\` and `\\/` lists.

TLA+ is not context-free as written: a column of `/\\` bullets forms one conjunction, and the
list ends at the first token that is not to the right of the bullets. The lexer resolves this
before the LALR parser sees the tokens, by inserting virtual tokens:

    JAND / JOR   a bullet in prefix position opens a list (its column is remembered)
    JSEP         a bullet of the same kind at exactly that column starts the next item
    JEND         the list ends: a token at or left of the column, or a token the parser
                 cannot take inside the list (a closing bracket, THEN, a comma, ...)

Comments are blanked out first (nested `(* *)` and `\\*`), keeping every line and column. Text
before the first `---- MODULE` line and after its closing `====` is ignored, and so are proofs:
from a proof keyword (PROOF, BY, OBVIOUS, OMITTED, a step `<1>`, USE, HIDE) to the next unit
that starts in column 1.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from lark import Token

from .errors import Span, SpecError

KEYWORDS = {
    "MODULE": "MODULE", "EXTENDS": "EXTENDS",
    "CONSTANT": "CONSTANT", "CONSTANTS": "CONSTANT",
    "VARIABLE": "VARIABLE", "VARIABLES": "VARIABLE",
    "ASSUME": "ASSUME", "ASSUMPTION": "ASSUME", "AXIOM": "ASSUME",
    "THEOREM": "THEOREM", "LEMMA": "THEOREM", "COROLLARY": "THEOREM", "PROPOSITION": "THEOREM",
    "PROVE": "PROVE", "NEW": "NEW",
    "LOCAL": "LOCAL", "INSTANCE": "INSTANCE", "WITH": "WITH", "RECURSIVE": "RECURSIVE",
    "IF": "IF", "THEN": "THEN", "ELSE": "ELSE", "CASE": "CASE", "OTHER": "OTHER",
    "LET": "LET", "IN": "LETIN", "CHOOSE": "CHOOSE", "EXCEPT": "EXCEPT", "LAMBDA": "LAMBDA",
    "ENABLED": "ENABLED", "UNCHANGED": "UNCHANGED", "SUBSET": "SUBSET", "UNION": "UNION",
    "DOMAIN": "DOMAIN", "TRUE": "TRUE", "FALSE": "FALSE", "BOOLEAN": "BOOLEAN",
    "STRING": "STRING_SET",
}
PROOF_STARTERS = {"PROOF", "BY", "OBVIOUS", "OMITTED", "USE", "HIDE"}

# Operator spellings -> (token type, canonical name). The canonical name is what the AST uses.
_OPS: dict[str, tuple[str, str]] = {}


def _ops(ttype: str, canon: str, *spellings: str) -> None:
    for s in spellings:
        _OPS[s] = (ttype, canon)


_ops("DEFEQ", "==", "==", "≜")
_ops("EQ", "=", "=")
_ops("AND", "\\land", "/\\", "\\land", "∧")
_ops("OR", "\\lor", "\\/", "\\lor", "∨")
_ops("NOT", "\\lnot", "~", "\\lnot", "\\neg", "¬")
_ops("IMPLIES", "=>", "=>", "⇒")
_ops("INFIX2", "\\equiv", "<=>", "\\equiv", "≡", "⇔")
_ops("INFIX2", "~>", "~>", "↝")
_ops("INFIX2", "-+->", "-+->", "⇸")
_ops("ALWAYS", "[]", "[]", "□")
_ops("EVENTUALLY", "<>", "<>", "◇")
_ops("IN", "\\in", "\\in", "∈")
for _c, _sp in {
    "#": ("#", "/=", "≠"), "<": ("<",), ">": (">",), "<=": ("<=", "=<", "\\leq", "≤"),
    ">=": (">=", "\\geq", "≥"), "\\notin": ("\\notin", "∉"), "\\subseteq": ("\\subseteq", "⊆"),
    "\\subset": ("\\subset", "⊂"), "\\supseteq": ("\\supseteq", "⊇"), "\\supset": ("\\supset", "⊃"),
    "\\sqsubseteq": ("\\sqsubseteq", "⊑"), "\\sqsupseteq": ("\\sqsupseteq", "⊒"),
    "\\sqsubset": ("\\sqsubset", "⊏"), "\\sqsupset": ("\\sqsupset", "⊐"),
    "\\prec": ("\\prec", "≺"), "\\preceq": ("\\preceq", "⪯"), "\\succ": ("\\succ", "≻"),
    "\\succeq": ("\\succeq", "⪰"), "\\ll": ("\\ll", "≪"), "\\gg": ("\\gg", "≫"),
    "\\sim": ("\\sim", "∼"), "\\simeq": ("\\simeq", "≃"), "\\approx": ("\\approx", "≈"),
    "\\asymp": ("\\asymp", "≍"), "\\cong": ("\\cong", "≅"), "\\doteq": ("\\doteq", "≐"),
    "\\propto": ("\\propto", "∝"), ":=": (":=", "≔"), "::=": ("::=", "⩴"), "|-": ("|-", "⊢"),
    "|=": ("|=", "⊨"), "-|": ("-|", "⊣"), "=|": ("=|", "⫤"),
}.items():
    _ops("REL5", _c, *_sp)
_ops("INFIX6", "@@", "@@")
_ops("INFIX7", ":>", ":>")
_ops("INFIX7", "<:", "<:")
_ops("INFIX8", "\\cup", "\\cup", "\\union", "∪")
_ops("INFIX8", "\\cap", "\\cap", "\\intersect", "∩")
_ops("INFIX8", "\\", "\\", "\\setminus", "∖")
_ops("DOTDOT", "..", "..", "‥")
_ops("DOTDOT", "...", "...", "…")
for _c, _sp in {"!!": ("!!",), "$": ("$",), "$$": ("$$",), "??": ("??",),
                "\\sqcap": ("\\sqcap", "⊓"), "\\sqcup": ("\\sqcup", "⊔"),
                "\\uplus": ("\\uplus", "⊎"), "\\wr": ("\\wr", "≀")}.items():
    _ops("INFIX9", _c, *_sp)
_ops("TIMES", "\\X", "\\X", "\\times", "×")
for _c, _sp in {"+": ("+",), "++": ("++",), "\\oplus": ("\\oplus", "(+)", "⊕"), "|": ("|",),
                "||": ("||",), "%%": ("%%",)}.items():
    _ops("INFIX10", _c, *_sp)
_ops("MINUS", "-", "-")
for _c, _sp in {"--": ("--",), "\\ominus": ("\\ominus", "(-)", "⊖"), "%": ("%",)}.items():
    _ops("INFIX11", _c, *_sp)
for _c, _sp in {"*": ("*",), "**": ("**",), "/": ("/",), "//": ("//",),
                "\\o": ("\\o", "\\circ", "∘"), "\\div": ("\\div", "÷"), "&": ("&",), "&&": ("&&",),
                "\\odot": ("\\odot", "(.)", "⊙"), "\\oslash": ("\\oslash", "(/)", "⊘"),
                "\\otimes": ("\\otimes", "(\\X)", "⊗"), "\\star": ("\\star", "⋆"),
                "\\bullet": ("\\bullet", "∙"), "\\bigcirc": ("\\bigcirc", "◯"),
                "\\cdot": ("\\cdot", "⋅")}.items():
    _ops("INFIX13", _c, *_sp)
_ops("INFIX14", "^", "^")
_ops("INFIX14", "^^", "^^")
_ops("POSTFIX", "^+", "^+")
_ops("POSTFIX", "^*", "^*")
_ops("POSTFIX", "^#", "^#")
_ops("PRIME", "'", "'")
_ops("PREFIXDEF", "-.", "-.")
_ops("FORALL", "\\A", "\\A", "\\forall", "∀")
_ops("EXISTS", "\\E", "\\E", "\\exists", "∃")
_ops("TFORALL", "\\AA", "\\AA")
_ops("TEXISTS", "\\EE", "\\EE")
for _sym, _tt in {
    "(": "LPAR", ")": "RPAR", "[": "LBRACK", "]": "RBRACK", "]_": "RBRACK_SUB", "{": "LBRACE",
    "}": "RBRACE", "<<": "LANGLE", "⟨": "LANGLE", ">>": "RANGLE", "⟩": "RANGLE",
    ">>_": "RANGLE_SUB", "⟩_": "RANGLE_SUB", ",": "COMMA", ":": "COLON", "::": "COLONCOLON",
    "|->": "MAPSTO", "↦": "MAPSTO", "->": "ARROW", "→": "ARROW", "<-": "LARROW", "←": "LARROW",
    "!": "BANG", "@": "AT", "_": "UNDERSCORE", ".": "DOT",
}.items():
    _ops(_tt, _sym, _sym)

CANONICAL = {spelling: canon for spelling, (_, canon) in _OPS.items()}

_SYMBOLS = sorted((s for s in _OPS if not s[0].isalpha() and not s.startswith("\\") or s in
                   ("\\", "\\/")), key=len, reverse=True)
_BACKSLASH_WORDS = {s: v for s, v in _OPS.items() if re.fullmatch(r"\\[A-Za-z]+", s)}

_TOKEN_RE = re.compile(
    r"(?P<NL>\n)|(?P<WS>[ \t\r\f\v]+)"
    r'|(?P<STRING>"(?:[^"\\\n]|\\.)*")'
    r"|(?P<SEP4>-{4,})|(?P<END4>={4,})"
    r"|(?P<STEP><(?:\d+|\*|\+)>[A-Za-z0-9_]*\.?)"
    r"|(?P<DECIMAL>\d+\.\d+)"
    r"|(?P<NUMBER>(?:\d+|\\[bB][01]+|\\[oO][0-7]+|\\[hH][0-9a-fA-F]+)(?![A-Za-z0-9_]))"
    r"|(?P<FAIR>[WS]F_)"
    r"|(?P<NAME>[A-Za-z0-9_]*[A-Za-z][A-Za-z0-9_]*)"
    r"|(?P<BSWORD>\\[A-Za-z]+)"
    r"|(?P<SYM>" + "|".join(re.escape(s) for s in _SYMBOLS) + ")"
)

# After one of these the previous expression is complete, so a following `/\` is infix.
# The escapes SANY accepts in a string are \n \t \r \f \\ and \"; any other is its lexical error.
_BAD_ESCAPE = re.compile(r'(?:^|[^\\])(?:\\\\)*(\\[^ntrf"\\])')

_EXPR_END = {"NAME", "NUMBER", "DECIMAL", "STRING", "TRUE", "FALSE", "BOOLEAN", "STRING_SET",
             "RPAR", "RBRACK", "RBRACE", "RANGLE", "AT", "PRIME", "POSTFIX", "JEND", "OTHER"}
# A prefix operator written as the operand of a tighter infix operator (`a = ~b`, `a * -b`)
# binds only to the expression right after it; the grammar has a `_T` token for that case.
_INFIX_LEVEL = {"EQ": 5, "REL5": 5, "IN": 5, "INFIX6": 6, "INFIX7": 7, "INFIX8": 8, "DOTDOT": 9,
                "INFIX9": 9, "TIMES": 10, "INFIX10": 10, "INFIX11": 11, "MINUS": 11,
                "INFIX13": 13, "INFIX14": 14}
_PREFIX_LEVEL = {"NOT": 4, "ALWAYS": 4, "EVENTUALLY": 4, "ENABLED": 4, "UNCHANGED": 4,
                 "SUBSET": 8, "UNION": 8, "DOMAIN": 9, "MINUS": 12}
_TIGHTENABLE = set(_PREFIX_LEVEL)
# SANY rejects a prefix minus right after * or ^ (`2 * -3`), though it takes `2 * ~b`.
_TIGHT_AFTER = {p: {t for t, lv in _INFIX_LEVEL.items() if lv > plv
                    and not (p == "MINUS" and t in ("INFIX13", "INFIX14"))}
                for p, plv in _PREFIX_LEVEL.items()}
# ... and so does one written right after such a tight prefix operator (`a = ~~b`).
_TIGHT_TOKENS = {p + "_T" for p in _PREFIX_LEVEL}
_UNIT_STARTERS = {"NAME", "VARIABLE", "CONSTANT", "ASSUME", "THEOREM", "LOCAL", "INSTANCE",
                  "RECURSIVE", "SEP4", "END4", "PREFIXDEF", "UNDERSCORE"}


def strip_comments(text: str) -> tuple[str, tuple[int, int] | None]:
    """Blank out comments, keeping line breaks; return the text and an unclosed `(*`'s offset pair.

    The second value is (offset, depth) of the outermost unterminated block comment, or None.
    """
    out = list(text)
    i, n = 0, len(text)
    unterminated = None
    while i < n:
        c = text[i]
        if c == '"':  # a string: comment markers inside it are text
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        elif c == "\\" and text.startswith("\\*", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
        elif c == "(" and text.startswith("(*", i):
            start, depth, j = i, 1, i + 2
            while j < n and depth:
                if text.startswith("(*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*)", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            if depth:
                unterminated = (start, depth)
            for k in range(start, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        else:
            i += 1
    return "".join(out), unterminated


_HEADER_RE = re.compile(r"-{4,}[ \t]*MODULE\b")


def prepare(text: str, file: str) -> str:
    """Blank everything before the module header and all comments; errors carry `file`."""
    m = _HEADER_RE.search(text)
    if m is None:
        raise SpecError("no module header: a TLA+ file starts with `---- MODULE Name ----`",
                        Span(file, 1, 1), source=text)
    head = "".join(ch if ch == "\n" else " " for ch in text[: m.start()])
    body, unterminated = strip_comments(text[m.start():])
    prepared = head + body
    if unterminated is not None:
        # Only an error if the module is not closed before the comment starts.
        off = m.start() + unterminated[0]
        close = re.compile(r"^={4,}", re.M).search(prepared, m.end())
        if close is None or close.start() > off:
            line = text.count("\n", 0, off) + 1
            col = off - (text.rfind("\n", 0, off) + 1) + 1
            raise SpecError("unterminated comment: `(*` is never closed by `*)`",
                            Span(file, line, col, line, col + 2), source=text)
    return prepared


class Tokenizer:
    """Turns prepared text into lark Tokens, applying the layout rule; one instance per text."""

    def __init__(self, text: str, file: str = ""):
        self.text = text
        self.file = file

    def _error(self, msg: str, line: int, col: int, width: int = 1) -> SpecError:
        return SpecError(msg, Span(self.file, line, col, line, col + width))

    def raw_tokens(self) -> Iterator[Token]:
        """Plain tokens, no layout processing; stops after the module's closing `====`."""
        text = self.text
        pos, line, line_start, n = 0, 1, 0, len(text)
        depth = 0  # module nesting: the top module ends at the `====` that brings it back to 0
        prev_sep = False  # just saw `----` (a following MODULE opens a module)
        match = _TOKEN_RE.match
        while pos < n:
            m = match(text, pos)
            col = pos - line_start + 1
            if m is None:
                ch = text[pos]
                if ch in _OPS:
                    ttype, _ = _OPS[ch]
                    end = pos + 1
                    yield Token(ttype, ch, pos, line, col, line, col + 1, end)
                    pos = end
                    continue
                raise self._error(f"unexpected character {ch!r}", line, col)
            kind = m.lastgroup
            end = m.end()
            value = m.group()
            if kind == "NL":
                line += 1
                line_start = end
                pos = end
                continue
            if kind == "WS":
                pos = end
                continue
            if kind == "STRING":
                bad = _BAD_ESCAPE.search(value)
                if bad is not None:
                    raise self._error(f"invalid escape `{bad.group(1)}` in a string (TLA+ has "
                                      f"\\n \\t \\r \\f \\\\ and \\\")", line,
                                      col + bad.start(1), 2)
            if kind == "NAME":
                ttype = KEYWORDS.get(value, "NAME")
                if value in PROOF_STARTERS:
                    ttype = "PROOF_START"
            elif kind == "BSWORD":
                if value not in _BACKSLASH_WORDS:
                    raise self._error(f"unknown operator {value}", line, col, len(value))
                ttype = _BACKSLASH_WORDS[value][0]
            elif kind == "SYM":
                ttype = _OPS[value][0]
            elif kind == "FAIR":
                ttype = "WF" if value[0] == "W" else "SF"
            else:
                ttype = kind
            if ttype == "STEP":
                ttype = "PROOF_START"
            tok = Token(ttype, value, pos, line, col, line, col + (end - pos), end)
            pos = end
            yield tok
            if ttype == "MODULE" and prev_sep:
                depth += 1
            elif ttype == "END4":
                depth -= 1
                if depth <= 0:
                    return
            prev_sep = ttype == "SEP4"

    def tokens(self, parser_state=None) -> Iterator[Token]:
        """Tokens with the layout rule applied and proofs skipped.

        `parser_state` is lark's live LALR state (fed with every token yielded so far). A token
        the parser cannot take while a bulleted list is open ends that list first, which is how
        `)`, `,`, THEN, ELSE, IN, `->` and CASE's `[]` close a list opened inside them.
        """
        juncts: list[tuple[str, int]] = []  # open bulleted lists: (AND|OR, column)
        prev = None  # type of the last token emitted
        skipping = False
        accepts = _acceptor(parser_state)

        def virtual(ttype: str, at: Token) -> Token:
            return Token(ttype, "", at.start_pos, at.line, at.column, at.line, at.column,
                         at.start_pos)

        for tok in self.raw_tokens():
            t = tok.type
            if skipping:
                if tok.column == 1 and t in _UNIT_STARTERS:
                    skipping = False
                else:
                    continue
            if t in ("PROOF_START", "SEP4", "END4", "MODULE"):
                while juncts:
                    juncts.pop()
                    yield virtual("JEND", tok)
                    prev = "JEND"
                if t == "PROOF_START":
                    skipping = True
                    continue
            # The layout rule: a token at or left of an open list's column ends it, unless it
            # is that list's next bullet.
            if juncts and tok.column <= juncts[-1][1]:
                while juncts and tok.column <= juncts[-1][1]:
                    kind, col = juncts[-1]
                    if tok.column == col and t == kind:
                        break
                    juncts.pop()
                    yield virtual("JEND", tok)
                    prev = "JEND"
                if juncts and tok.column == juncts[-1][1] and t == juncts[-1][0]:
                    yield virtual("JSEP", tok)
                    prev = "JSEP"
                    continue
            if t in ("AND", "OR") and prev not in _EXPR_END:
                juncts.append((t, tok.column))
                yield Token("JAND" if t == "AND" else "JOR", tok.value, tok.start_pos, tok.line,
                            tok.column, tok.end_line, tok.end_column, tok.end_pos)
                prev = "JAND"
                continue
            if t in _TIGHTENABLE and (prev in _TIGHT_AFTER[t] or prev in _TIGHT_TOKENS):
                tok = Token(t + "_T", tok.value, tok.start_pos, tok.line, tok.column,
                            tok.end_line, tok.end_column, tok.end_pos)
                t = tok.type
            while juncts and accepts is not None and not accepts(t) and accepts("JEND"):
                juncts.pop()
                yield virtual("JEND", tok)
            yield tok
            prev = t


def _acceptor(parser_state):
    """A test of whether lark's LALR parser, in its current state, can shift a token type.

    It replays the reductions the lookahead would trigger on a copy of the state stack, so the
    answer is exact even where LALR merged lookaheads would reduce before failing.
    """
    if parser_state is None:
        return None
    conf = parser_state.parse_conf
    states = conf.states
    live_stack = parser_state.state_stack

    def accepts(ttype: str) -> bool:
        stack = list(live_stack)
        while True:
            action = states[stack[-1]].get(ttype)
            if action is None:
                return False
            kind, arg = action
            if kind.name == "Shift":
                return True
            size = len(arg.expansion)
            if size:
                del stack[-size:]
            stack.append(states[stack[-1]][arg.origin.name][1])

    return accepts
