"""Parse TLA+ module text into the AST of `ast.py` with lark's LALR parser.

The grammar is in grammar.lark; tokens, with TLA+'s bullet-list layout already resolved, come
from lexer.py. Trees are built directly by an inline transformer (no intermediate lark Tree).
"""
from __future__ import annotations

from functools import lru_cache
from importlib.resources import files

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.lexer import Lexer

from . import ast
from .errors import Span, SpecError
from .lexer import CANONICAL, Tokenizer, prepare
from .remembered import Remembered

# Human names of token types, for "expected ..." messages.
_TOKEN_NAMES = {
    "NAME": "an identifier", "NUMBER": "a number", "STRING": "a string", "DEFEQ": "'=='",
    "EQ": "'='", "LPAR": "'('", "RPAR": "')'", "LBRACK": "'['", "RBRACK": "']'",
    "RBRACK_SUB": "']_'", "LBRACE": "'{'", "RBRACE": "'}'", "LANGLE": "'<<'", "RANGLE": "'>>'",
    "RANGLE_SUB": "'>>_'", "COMMA": "','", "COLON": "':'", "MAPSTO": "'|->'", "ARROW": "'->'",
    "LARROW": "'<-'", "BANG": "'!'", "SEP4": "'----'", "END4": "'===='", "JEND": "end of list",
    "JSEP": "next bullet", "LETIN": "'IN'", "IN": "'\\in'", "THEN": "'THEN'", "ELSE": "'ELSE'",
}

_BASES = {"b": 2, "o": 8, "h": 16}  # TLA+'s number literals in other bases


class _LexerAdapter(Lexer):
    """Lets lark pull tokens from our Tokenizer, handing it the live parser state."""

    __future_interface__ = 1

    def __init__(self, lexer_conf):
        pass

    def lex(self, lexer_state, parser_state):
        text = lexer_state.text
        return Tokenizer(getattr(text, "text", text)).tokens(parser_state)


@lru_cache(maxsize=1)
def _lark() -> Lark:
    grammar = files("checker.frontend").joinpath("grammar.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", lexer=_LexerAdapter, transformer=_BUILD,
                maybe_placeholders=False, cache=True)


_PARSED = Remembered("parse", 32)  # (text, file) -> its tree


def parse_module(text: str, file: str = "<string>") -> ast.Module:
    """Parse the text of one .tla file; raise SpecError with a span on any syntax error.
    Trees are immutable, so each text is parsed once per process (see remembered.py)."""
    return _PARSED.value((text, file), lambda: _parse_text(text, file))


def _parse_text(text: str, file: str) -> ast.Module:
    prepared = prepare(text, file)
    _BUILD.parenthesised.clear()
    _BUILD.infixes.clear()
    _BUILD.chains.clear()
    try:
        module = _set_file(_lark().parse(prepared), file)
    except SpecError as e:  # raised by the tokenizer, which does not know the file name
        raise SpecError(e.message, _with_file(e.span, file), source=text) from None
    except UnexpectedInput as e:
        raise _syntax_error(e, file, text) from None
    except RecursionError:
        raise SpecError("expression nested too deeply to parse", Span(file, 1, 1),
                        source=text) from None
    return module


def _with_file(span: Span | None, file: str) -> Span:
    if span is None:
        return Span(file, 1, 1)
    return Span(file, span.line, span.col, span.end_line, span.end_col)


def _syntax_error(e: UnexpectedInput, file: str, text: str) -> SpecError:
    if isinstance(e, UnexpectedToken) and e.token.type != "$END":
        tok = e.token
        shown = tok.value or tok.type
        if tok.type == "JSEP":
            shown = "bullet"
        elif tok.type == "JEND":
            shown = "end of a bulleted list"
        expected = sorted({_TOKEN_NAMES.get(t, t) for t in e.expected if not t.startswith("$")})
        msg = f"unexpected {shown!r}"
        if len(expected) <= 6:
            msg += "; expected " + ", ".join(expected)
        width = max(1, len(tok.value)) if tok.value else 1
        return SpecError(msg, Span(file, tok.line, tok.column, tok.line, tok.column + width),
                         source=text)
    if isinstance(e, UnexpectedCharacters):
        return SpecError(f"unexpected character {text[e.pos_in_stream]!r}",
                         Span(file, e.line, e.column), source=text)
    lines = text.splitlines() or [""]
    last = len(lines)
    msg = "unexpected end of file"
    if isinstance(e, (UnexpectedEOF, UnexpectedToken)):
        msg += ": the module must end with a line of `====`"
    return SpecError(msg, Span(file, last, len(lines[-1]) + 1), source=text)


def _set_file(module: ast.Module, file: str) -> ast.Module:
    """Spans are built without the file name (lark hands us no context); fill it in once."""
    import dataclasses

    def fix(obj):
        if isinstance(obj, Span):
            return _with_file(obj, file)
        if isinstance(obj, ast.Node):
            changes = {f.name: fix(getattr(obj, f.name)) for f in dataclasses.fields(obj)
                       if f.name != "span"}
            changes["span"] = _with_file(obj.span, file)
            return type(obj)(**changes)
        if isinstance(obj, tuple):
            return tuple(fix(x) for x in obj)
        return obj

    fixed = fix(module)
    return dataclasses.replace(fixed, file=file)


# ---------------------------------------------------------------------------------------------
# Tree building


def _span(*items) -> Span:
    """The span from the first to the last positioned item among tokens, nodes and tuples."""
    first = last = None
    for it in items:
        s = _first(it)
        if s is not None:
            first = s
            break
    for it in reversed(items):
        s = _last(it)
        if s is not None:
            last = s
            break
    if first is None:
        return Span("", 0, 0)
    return Span("", first[0], first[1], last[2], last[3])


def _first(it):
    if isinstance(it, Span):
        return (it.line, it.col, it.end_line, it.end_col)
    if isinstance(it, Token):
        return (it.line, it.column, it.end_line, it.end_column) if it.line else None
    if isinstance(it, ast.Node):
        wrapped = _BUILD.parenthesised.get(id(it))
        if wrapped is not None:
            return wrapped[1]
        s = it.span
        return (s.line, s.col, s.end_line, s.end_col)
    if isinstance(it, (list, tuple)):
        for x in it:
            r = _first(x)
            if r is not None:
                return r
    return None


def _last(it):
    if isinstance(it, Span):
        return (it.line, it.col, it.end_line, it.end_col)
    if isinstance(it, Token):
        return (it.line, it.column, it.end_line, it.end_column) if it.line else None
    if isinstance(it, ast.Node):
        wrapped = _BUILD.parenthesised.get(id(it))
        if wrapped is not None:
            return wrapped[2]
        s = it.span
        return (s.line, s.col, s.end_line, s.end_col)
    if isinstance(it, (list, tuple)):
        for x in reversed(it):
            r = _last(x)
            if r is not None:
                return r
    return None


def _tokspan(tok: Token) -> Span:
    return Span("", tok.line, tok.column, tok.end_line, tok.end_column)


def _canon(tok: Token) -> str:
    return CANONICAL.get(tok.value, tok.value)


def _unescape(s: str) -> str:
    out, i = [], 1
    while i < len(s) - 1:
        c = s[i]
        if c == "\\" and i + 1 < len(s) - 1:
            nxt = s[i + 1]
            out.append({"n": "\n", "t": "\t", "r": "\r", "f": "\f"}.get(nxt, nxt))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _toks(children, ttype):
    return [c for c in children if isinstance(c, Token) and c.type == ttype]


def _nodes(children):
    return [c for c in children if not isinstance(c, Token)]


# Precedence ranges of the infix operators (Specifying Systems, table 15.2.1) and whether
# they associate: `a op b op c` needs parentheses when the ranges of the two operators overlap,
# unless it is one associative operator twice. SANY rejects such formulas, so kipcheck does.
_PRECEDENCE: dict[str, tuple[int, int, bool]] = {
    "=>": (1, 1, False), "\\equiv": (2, 2, False), "~>": (2, 2, False),
    "-+->": (2, 2, False), "\\land": (3, 3, True), "\\lor": (3, 3, True),
    "@@": (6, 6, True), ":>": (7, 7, False), "<:": (7, 7, False), "\\cup": (8, 8, True),
    "\\cap": (8, 8, True), "\\": (8, 8, False), "..": (9, 9, False), "...": (9, 9, False),
    "!!": (9, 13, False), "$": (9, 13, True), "$$": (9, 13, True), "??": (9, 13, True),
    "\\sqcap": (9, 13, True), "\\sqcup": (9, 13, True), "\\uplus": (9, 13, True),
    "\\wr": (9, 14, False), "+": (10, 10, True), "++": (10, 10, True),
    "\\oplus": (10, 10, True), "%": (10, 11, False), "%%": (10, 11, True), "|": (10, 11, True),
    "||": (10, 11, True), "-": (11, 11, True), "--": (11, 11, True), "\\ominus": (11, 11, True),
    "*": (13, 13, True), "**": (13, 13, True), "/": (13, 13, False), "//": (13, 13, False),
    "\\o": (13, 13, True), "\\div": (13, 13, False), "&": (13, 13, True),
    "&&": (13, 13, True), "\\odot": (13, 13, True), "\\oslash": (13, 13, False),
    "\\otimes": (13, 13, True), "\\star": (13, 13, True), "\\bullet": (13, 13, True),
    "\\bigcirc": (13, 13, True), "\\cdot": (5, 14, True), "^": (14, 14, False),
    "\\X": (10, 13, False),
    "^^": (14, 14, False),
}
_RELATION = (5, 5, False)  # =, #, <, \in, \subseteq and the other relations


_CHAINED = ("\\land", "\\lor")  # associative: long chains are parsed as balanced trees


_SET_PREFIXES = {"SUBSET", "SUBSET_T", "UNION", "UNION_T", "DOMAIN", "DOMAIN_T"}


def _cartesian_mix(tok: Token) -> None:
    """A prefix operator and \\X whose grouping TLA+ leaves open, as SANY reports it."""
    raise SpecError(f"the precedence of {tok.value} and \\X overlaps: add parentheses to say "
                    f"which applies first", Span("", tok.line, tok.column, tok.line,
                                                 tok.column + len(tok.value)))


def _check_mix(op: str, inner: str, tok: Token) -> None:
    """Reject `a inner b op c` (or `a op b inner c`) when TLA+ leaves the grouping open."""
    a = _PRECEDENCE.get(op, _RELATION)
    b = _PRECEDENCE.get(inner, _RELATION)
    if a[1] < b[0] or b[1] < a[0]:
        return  # disjoint ranges: the grammar grouped them as TLA+ does
    if op == inner and a[2]:
        return
    shown = tok.value
    raise SpecError(f"the precedence of {inner} and {shown} overlaps: add parentheses to say "
                    f"which applies first", Span("", tok.line, tok.column, tok.line,
                                                 tok.column + len(shown)))


class _Build(Transformer):
    """Callbacks named after the grammar's rule aliases; each returns an AST node."""

    def __init__(self):
        super().__init__()
        self.parenthesised: dict = {}  # id -> node of expressions written in parentheses
        self.infixes: dict = {}  # id -> node of binary operator applications
        self.prefixed: dict = {}  # id -> node of `-e`, `SUBSET e`, ... (see cartesian)
        self.chains: dict = {}  # id -> (node, op, forest) of a `/\` or `\/` chain: _chain

    # -- module structure ---------------------------------------------------------------------
    def start(self, c):
        return c[0]

    def module(self, c):
        name = c[2].value
        extends, ext_spans = (), ()
        units = []
        for x in c[4:-1]:
            if isinstance(x, tuple) and x and x[0] == "extends":
                extends, ext_spans = x[1], x[2]
            elif isinstance(x, Token) or x is None:
                continue
            else:
                units.append(x)
        return ast.Module(name, extends, tuple(units), extends_spans=ext_spans,
                          span=_span(c[0], c[3]))

    def extends(self, c):
        names = _toks(c, "NAME")
        return ("extends", tuple(t.value for t in names), tuple(_tokspan(t) for t in names))

    def variables(self, c):
        return ast.Variables(tuple(t.value for t in _toks(c, "NAME")), span=_span(c))

    def constants(self, c):
        return ast.Constants(tuple(_nodes(c)), span=_span(c))

    def recursive(self, c):
        return ast.Recursive(tuple(_nodes(c)), span=_span(c))

    def const_decl(self, c):
        return c[0]

    def separator(self, c):
        return None

    def local(self, c):
        import dataclasses

        d = c[1]
        if isinstance(d, ast.InstanceDef):
            inst = dataclasses.replace(d.instance, local=True)
            return dataclasses.replace(d, local=True, instance=inst, span=_span(c))
        return dataclasses.replace(d, local=True, span=_span(c))

    def assume(self, c):
        return ast.Assume(None, c[1], span=_span(c))

    def assume_named(self, c):
        return ast.Assume(c[1].value, c[3], span=_span(c))

    def theorem(self, c):
        body = c[1]
        return ast.Theorem(None, body if isinstance(body, ast.Node) else None, span=_span(c))

    def theorem_named(self, c):
        body = c[3]
        return ast.Theorem(c[1].value, body if isinstance(body, ast.Node) else None,
                           span=_span(c))

    def theorem_body(self, c):
        return c[0]

    def assume_prove(self, c):
        return ("assume_prove",)

    def ap_new(self, c):
        return None

    def assume_prove_inner(self, c):
        return None

    # -- definitions --------------------------------------------------------------------------
    def op_def(self, c):
        name, params, first = c[0]
        return ast.OpDef(name, params, c[2], span=_span(first, c[2]))

    def func_def(self, c):
        return ast.FuncDef(c[0].value, c[2], c[5], span=_span(c))

    def instance_def(self, c):
        name, params, first = c[0]
        return ast.InstanceDef(name, params, c[2], span=_span(first, c[2]))

    def instance(self, c):
        substs = tuple(x for x in c if isinstance(x, ast.Substitution))
        return ast.Instance(c[1].value, substs, span=_span(c))

    def subst(self, c):
        return ast.Substitution(c[0].value, c[2], span=_span(c))

    def subst_op(self, c):
        return ast.Substitution(c[0][0], c[2], span=_span(c))

    # Each left-hand side is (name, params, first token): the token starts the definition's span.
    def lhs_plain(self, c):
        return (c[0].value, (), c[0])

    def lhs_params(self, c):
        return (c[0].value, tuple(_nodes(c)), c[0])

    def lhs_prefix(self, c):
        return (_canon(c[0]), (ast.Param(c[1].value, span=_tokspan(c[1])),), c[0])

    def lhs_infix(self, c):
        op = c[1][0]
        return (op, (ast.Param(c[0].value, span=_tokspan(c[0])),
                     ast.Param(c[2].value, span=_tokspan(c[2]))), c[0])

    def lhs_postfix(self, c):
        return (_canon(c[1]), (ast.Param(c[0].value, span=_tokspan(c[0])),), c[0])

    def infix_op(self, c):
        return (_canon(c[0]), c[0])

    def param_plain(self, c):
        return ast.Param(c[0].value, 0, span=_span(c))

    def param_op(self, c):
        return ast.Param(c[0].value, len(_toks(c, "UNDERSCORE")), span=_span(c))

    def param_infix(self, c):
        return ast.Param(c[1][0], 2, span=_span(c))

    def param_prefix(self, c):
        return ast.Param(_canon(c[0]), 1, span=_span(c))

    def param_postfix(self, c):
        return ast.Param(_canon(c[1]), 1, span=_span(c))

    # -- operators ----------------------------------------------------------------------------
    def infix(self, c):
        op = _canon(c[1])
        for side in (c[0], c[2]):
            if id(side) in self.infixes and id(side) not in self.parenthesised:
                _check_mix(op, side.op, c[1])
        if op in _CHAINED:
            node = self._chain(op, c[0], c[2])
        else:
            node = ast.OpApp(op, (c[0], c[2]), span=_span(c))
        self.infixes[id(node)] = node
        return node

    def _chain(self, op: str, left, right):
        r"""`a /\ b /\ c ...` as a balanced tree, not a left-leaning one: the meaning and the
        left-to-right order are the same (the operator is associative), but a chain of
        hundreds of conjuncts nests only logarithmically deep, so neither this parser nor the
        code compiled from it overflows Python's recursion or nesting limits (TLC has none).

        The chain so far is kept as a forest of perfect trees of decreasing size (a binary
        counter); adding an operand merges equal sizes, and the node is the forest folded
        from the left."""
        forest = None
        if id(left) in self.chains and id(left) not in self.parenthesised:
            _, chain_op, forest = self.chains[id(left)]
            forest = list(forest) if chain_op == op else None
        if forest is None:
            forest = [(1, left)]
        forest.append((1, right))
        while len(forest) > 1 and forest[-1][0] == forest[-2][0]:
            (n, a), (_, b) = forest[-2], forest.pop()
            forest[-1] = (2 * n, ast.OpApp(op, (a, b), span=_span(a, b)))
        node = forest[0][1]
        for _, tree in forest[1:]:
            node = ast.OpApp(op, (node, tree), span=_span(node, tree))
        self.chains[id(node)] = (node, op, forest)  # the node kept alive: ids stay unique
        return node

    def prefix(self, c):
        if (c[0].type in ("DOMAIN", "SUBSET", "UNION") and isinstance(c[1], ast.CartProd)
                and id(c[1]) not in self.parenthesised):
            _cartesian_mix(c[0])  # `DOMAIN f \X S`: SANY leaves the grouping open
        node = ast.OpApp(_canon(c[0]), (c[1],), span=_span(c))
        if c[0].type in _SET_PREFIXES:
            self.prefixed[id(node)] = node
        return node

    def negate(self, c):
        node = ast.OpApp("-.", (c[1],), span=_span(c))
        self.prefixed[id(node)] = node
        return node

    def postfix(self, c):
        return ast.OpApp(_canon(c[1]), (c[0],), span=_span(c))

    def cartesian(self, c):
        times = next(t for t in c if isinstance(t, Token))
        sides = _nodes(c)
        for i, side in enumerate(sides):
            if id(side) in self.parenthesised:
                continue
            if id(side) in self.infixes:
                _check_mix("\\X", side.op, times)  # `2 * 3 \X S`
            elif id(side) in self.prefixed and i < len(sides) - 1:
                _cartesian_mix(times)  # `-2 \X S`, `S \X SUBSET T \X U` (not `S \X -2`)
        return ast.CartProd(tuple(_nodes(c)), span=_span(c))

    def func_app(self, c):
        return ast.FuncApp(c[0], c[2], span=_span(c))

    def field_access(self, c):
        return ast.FieldAccess(c[0], c[2].value, span=_span(c))

    # -- atoms --------------------------------------------------------------------------------
    def ident(self, c):
        return ast.Ident(c[0].value, span=_span(c))

    def op_app(self, c):
        return ast.OpApp(c[0].value, c[2], span=_span(c))

    def inst_prefix(self, c):
        args = c[2] if len(c) > 2 else ()
        return (c[0].value, args, _tokspan(c[0]))

    def sel_prefix(self, c):
        """`2!` in `Op!2!1`: a positional selector of a subexpression name."""
        return (c[0].value, (), _tokspan(c[0]))

    def inst_ref(self, c):
        path = tuple((p[0], p[1]) for p in c[:-1])
        return ast.InstanceRef(path, c[-1].value, (), span=_span(c[0][2], c[-1]))

    def sub_inst_ref(self, c):
        return ast.InstanceRef(((c[0].value, ()),), c[2].value, (), span=_span(c))

    def labelled(self, c):
        return c[2]  # labels only name subexpressions for proofs; the value is the expression

    def arg_list(self, c):
        return tuple(x for x in c if not isinstance(x, Token))

    def op_arg(self, c):
        op, tok = c[0]
        return ast.Ident(op, span=_tokspan(tok))

    def inst_ref_app(self, c):
        prefixes = [x for x in c if isinstance(x, tuple) and len(x) == 3
                    and isinstance(x[2], Span)]
        name_tok = c[len(prefixes)]
        if isinstance(name_tok, tuple):  # an infix operator reached through an instance: R!+
            name_tok = Token("NAME", name_tok[0], 0, name_tok[1].line, name_tok[1].column)
        args = c[len(prefixes) + 2]
        path = tuple((p[0], p[1]) for p in prefixes)
        return ast.InstanceRef(path, name_tok.value, args, span=_span(prefixes[0][2], c[-1]))

    def number(self, c):
        text = c[0].value  # 42, or SANY's \b101, \o17, \h1F (either case)
        base = _BASES[text[1].lower()] if text[0] == "\\" else 10
        return ast.Num(int(text[2:] if base != 10 else text, base), span=_span(c))

    def decimal(self, c):
        return ast.Decimal(c[0].value, span=_span(c))

    def string(self, c):
        return ast.Str(_unescape(c[0].value), span=_span(c))

    def true(self, c):
        return ast.Bool(True, span=_span(c))

    def false(self, c):
        return ast.Bool(False, span=_span(c))

    def builtin_set(self, c):
        return ast.BuiltinSet(c[0].value, span=_span(c))

    def at(self, c):
        return ast.At(span=_span(c))

    def paren(self, c):
        # The node stands for the parenthesised text: a span built around it covers the
        # parentheses too (`a - (b - c)` ends after the last `)`).
        self.parenthesised[id(c[1])] = (c[1], _first(c[0]), _last(c[2]))
        return c[1]

    def junction(self, c):
        kind = "and" if c[0].type == "JAND" else "or"
        return ast.Junction(kind, tuple(_nodes(c)), c[0].column, span=_span(c[0], _nodes(c)))

    def quant_kind(self, c):
        return c[0]

    def quant(self, c):
        kind = "A" if c[0].type == "FORALL" else "E"
        return ast.Quant(kind, c[1], c[3], span=_span(c))

    def quant_unbounded(self, c):
        kind = "A" if c[0].type == "FORALL" else "E"
        names, _ = c[1]
        return ast.Quant(kind, (ast.Bound(names, False, None, span=_span(c[1][1])),), c[3],
                         span=_span(c))

    def tquant(self, c):
        kind = "AA" if c[0].type == "TFORALL" else "EE"
        names, _ = c[1]
        return ast.Quant(kind, (ast.Bound(names, False, None, span=_span(c[1][1])),), c[3],
                         span=_span(c))

    def name_list(self, c):
        names = _toks(c, "NAME")
        return (tuple(t.value for t in names), names)

    def bound_names(self, c):
        return ast.Bound(c[0][0], False, c[2], span=_span(c[0][1], c[2]))

    def bound_tuple(self, c):
        return ast.Bound(c[1][0], True, c[4], span=_span(c))

    def bounds(self, c):
        return tuple(_nodes(c))

    def choose_name(self, c):
        return ast.Bound((c[0].value,), False, c[2] if len(c) > 2 else None, span=_span(c))

    def choose_tuple(self, c):
        return ast.Bound(c[1][0], True, c[4] if len(c) > 4 else None, span=_span(c))

    def choose(self, c):
        return ast.Choose(c[1], c[3], span=_span(c))

    def expr_list(self, c):
        return tuple(_nodes(c))

    def set_enum(self, c):
        elems = c[1] if len(c) == 3 else ()
        return ast.SetEnum(elems, span=_span(c))

    def set_compr(self, c):
        head, items = c[1], c[3]
        if len(items) == 1 and _as_bound(head) is not None:
            return ast.SetFilter(_as_bound(head), items[0], span=_span(c))
        return ast.SetMap(head, _as_bounds(items, "{e : x \\in S}"), span=_span(c))

    def func_cons(self, c):
        return ast.FuncCons(_as_bounds(c[1], "[x \\in S |-> e]"), c[3], span=_span(c))

    def record(self, c):
        names = _toks(c, "NAME")
        values = _nodes(c)
        fields = tuple((n.value, v) for n, v in zip(names, values, strict=True))
        return ast.Record(fields, span=_span(c))

    def record_set(self, c):
        names = _toks(c, "NAME")
        values = _nodes(c)
        fields = tuple((n.value, v) for n, v in zip(names, values, strict=True))
        return ast.RecordSet(fields, span=_span(c))

    def func_set(self, c):
        return ast.FuncSet(c[1], c[3], span=_span(c))

    def except_(self, c):
        updates = tuple(x for x in c[3:] if isinstance(x, ast.ExceptUpdate))
        return ast.Except(c[1], updates, span=_span(c))

    def except_upd(self, c):
        path = tuple(x for x in c[1:-2])
        return ast.ExceptUpdate(tuple(p[0] for p in path), c[-1], span=_span(c))

    def path_field(self, c):
        return (("field", c[1].value), c)

    def path_index(self, c):
        return (("index", c[1]), c)

    def box_action(self, c):
        return ast.BoxAction(c[1], c[3], span=_span(c))

    def angle_action(self, c):
        return ast.AngleAction(c[1], c[3], span=_span(c))

    def tuple(self, c):
        elems = c[1] if len(c) == 3 else ()
        return ast.Tuple(elems, span=_span(c))

    def if_expr(self, c):
        return ast.If(c[1], c[3], c[5], span=_span(c))

    def case_arm(self, c):
        return (c[0], c[2])

    def case_expr(self, c):
        arms, other = [], None
        i = 1
        while i < len(c):
            x = c[i]
            if isinstance(x, tuple):
                arms.append(x)
            elif isinstance(x, Token) and x.type == "OTHER":
                other = c[i + 2]
                break
            i += 1
        return ast.Case(tuple(arms), other, span=_span(c))

    def let_expr(self, c):
        defs = tuple(x for x in c[1:-2])
        return ast.Let(defs, c[-1], span=_span(c))

    def lambda_expr(self, c):
        return ast.Lambda(c[1][0], c[3], span=_span(c))

    def fairness(self, c):
        return ast.Fairness(c[0].type, c[1], c[3], span=_span(c))


# `except` is a Python keyword, so the grammar's alias is routed here.
setattr(_Build, "except", _Build.except_)


def _as_bound(e) -> ast.Bound | None:
    """Read `x \\in S` or `<<x, y>> \\in S`, parsed as an expression, back as a bound."""
    if isinstance(e, ast.OpApp) and e.op == "\\in":
        lhs, dom = e.args
        if isinstance(lhs, ast.Ident):
            return ast.Bound((lhs.name,), False, dom, span=e.span)
        if isinstance(lhs, ast.Tuple) and lhs.elems and all(
                isinstance(x, ast.Ident) for x in lhs.elems):
            return ast.Bound(tuple(x.name for x in lhs.elems), True, dom, span=e.span)
    return None


def _as_bounds(items, form: str) -> tuple[ast.Bound, ...]:
    """`x, y \\in S, z \\in T` parsed as an expression list, read back as bounds."""
    bounds, pending = [], []
    for e in items:
        b = _as_bound(e)
        if b is None:
            if isinstance(e, ast.Ident):
                pending.append(e)
                continue
            raise SpecError(f"expected a bound such as `x \\in S` here, as in {form}", e.span)
        if pending:
            if b.tuple:
                raise SpecError("a tuple bound cannot share its set with other names", b.span)
            b = ast.Bound(tuple(p.name for p in pending) + b.names, False, b.domain,
                          span=_span(pending[0], b))
            pending = []
        bounds.append(b)
    if pending:
        raise SpecError(f"`{pending[-1].name}` has no set: write `{pending[-1].name} \\in S`",
                        pending[-1].span)
    return tuple(bounds)


_BUILD = _Build()
