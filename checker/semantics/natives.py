"""The standard modules' operators that compiled code calls natively, and what the compiler may
assume about them (integer or Boolean results, operator arguments, impurity), in one table each
so that the expression compiler and the analyses agree."""
from __future__ import annotations

from . import community
from .runtime import (
    B_AND_P,
    B_AND_Q,
    B_EQUIV,
    B_IMPLIES_P,
    B_IMPLIES_Q,
    B_NOT,
    B_OR_P,
    B_OR_Q,
)

# Operators of the standard modules with a native implementation: (module, name) -> template.
# `{0}`, `{1}` are the compiled arguments.
NATIVE = {
    ("Naturals", "+"): "({0} + {1})", ("Naturals", "-"): "({0} - {1})",
    ("Naturals", "*"): "({0} * {1})", ("Naturals", "^"): "ipow({0}, {1})",
    ("Naturals", "<"): "({0} < {1})", ("Naturals", ">"): "({0} > {1})",
    ("Naturals", "<="): "({0} <= {1})", ("Naturals", ">="): "({0} >= {1})",
    ("Naturals", "%"): "imod({0}, {1})", ("Naturals", "\\div"): "idiv({0}, {1})",
    ("Naturals", ".."): "interval({0}, {1})", ("Naturals", "Nat"): "NAT",
    ("Integers", "Int"): "INT", ("Integers", "-."): "ineg({0})",
    ("Reals", "Real"): "REAL",
    ("Sequences", "Seq"): "SeqSet({0})", ("Sequences", "Len"): "seq_len({0})",
    ("Sequences", "\\o"): "concat({0}, {1})", ("Sequences", "Append"): "append({0}, {1})",
    ("Sequences", "Head"): "head({0})", ("Sequences", "Tail"): "tail({0})",
    ("Sequences", "SubSeq"): "subseq({0}, {1}, {2})",
    ("Sequences", "SelectSeq"): "selectseq({0}, {1})",
    ("FiniteSets", "Cardinality"): "card({0})",
    ("FiniteSets", "IsFiniteSet"): "is_finite_set({0})",
    ("TLC", ":>"): "fn_single({0}, {1})", ("TLC", "@@"): "fn_merge({0}, {1})",
    ("TLC", "Print"): "(tlc_print({0}, {1}) and {1})",
    ("TLC", "PrintT"): "tlc_print_t({0})",
    ("TLC", "Assert"): "tlc_assert({0}, {1})",
    ("TLC", "ToString"): "to_string({0})", ("TLC", "Permutations"): "permutations({0})",
    ("TLC", "SortSeq"): "sortseq({0}, {1})", ("TLC", "TLCGet"): "tlc_get({0})",
    ("TLC", "TLCSet"): "tlc_set({0}, {1})", ("TLC", "JavaTime"): "java_time()",
    ("TLC", "RandomElement"): "random_element({0})", ("TLC", "TLCEval"): "{0}",
    ("TLC", "Any"): "ANY",
}
NATIVE.update(community.NATIVE)
# Bags as TLC evaluates it (its checks of the counts: see bags.py).
NATIVE.update({
    ("Bags", "IsABag"): "is_a_bag({0})", ("Bags", "BagCardinality"): "bag_cardinality({0})",
    ("Bags", "BagIn"): "bag_in({0}, {1})", ("Bags", "CopiesIn"): "copies_in({0}, {1})",
    ("Bags", "\\oplus"): "bag_cup({0}, {1})", ("Bags", "\\ominus"): "bag_diff({0}, {1})",
    ("Bags", "BagUnion"): "bag_union({0})", ("Bags", "\\sqsubseteq"): "bag_sqsubseteq({0}, {1})",
    ("Bags", "BagOfAll"): "bag_of_all({0}, {1})", ("Bags", "BagToSet"): "bag_to_set({0})",
    ("Bags", "SetToBag"): "set_to_bag({0})", ("Bags", "SubBag"): "sub_bag({0})",
})


# Integer operators: inline Python when both operands are known to be integers, else a runtime
# helper that checks both (Python would add TRUE to 1, a Boolean being an int to it).
INT_OPS = {("Naturals", "+"): ("+", "add"), ("Naturals", "-"): ("-", "sub"),
           ("Naturals", "*"): ("*", "mul"), ("Naturals", "<"): ("<", "lt"),
           ("Naturals", ">"): (">", "gt"), ("Naturals", "<="): ("<=", "le"),
           ("Naturals", ">="): (">=", "ge")}


# Native operators whose value is an integer (or an error).
INT_VALUED = {("Naturals", "+"), ("Naturals", "-"), ("Naturals", "*"), ("Naturals", "^"),
              ("Naturals", "%"), ("Naturals", "\\div"), ("Integers", "-."),
              ("Sequences", "Len"), ("FiniteSets", "Cardinality")}


# Native operators whose value is a Boolean (or an error).
BOOL_VALUED = {("Naturals", "<"), ("Naturals", ">"), ("Naturals", "<="), ("Naturals", ">="),
               ("FiniteSets", "IsFiniteSet")}


# Built-in operators whose value is a Boolean (their Boolean operands are checked).
BOOL_BUILTINS = {"\\land", "\\lor", "\\lnot", "=>", "\\equiv", "=", "#", "\\in", "\\notin",
                 "\\subseteq", "UNCHANGED", "ENABLED"}


# Native operators whose arguments are operators (passed as Python callables of plain values).
HIGHER_ORDER = {("Sequences", "SelectSeq"): (1,), ("TLC", "SortSeq"): (1,),
                ("Bags", "BagOfAll"): (0,),
                **community.HIGHER_ORDER}


IMPURE_OPS = {("TLC", "Print"), ("TLC", "PrintT"), ("TLC", "Assert"), ("TLC", "TLCGet"),
              ("TLC", "TLCSet"), ("TLC", "JavaTime"), *community.IMPURE}


# Operators whose value the run decides rather than the state (a random choice, a file, the
# environment): never computed ahead inside an expression, but a definition without
# parameters that uses them and reads no state is computed once, as TLC computes it before
# the search (SpanTreeRandom's random Edges is one graph for the whole run).
READ_OPS = {("TLC", "RandomElement"), *community.READS}


STANDARD = {"Naturals", "Integers", "Reals", "Sequences", "FiniteSets", "Bags", "TLC", "TLAPS",
             "Randomization", *community.MODULES}


BOOL_OPERANDS = {"\\land": (B_AND_P, B_AND_Q), "\\lor": (B_OR_P, B_OR_Q), "\\lnot": (B_NOT,),
                  "=>": (B_IMPLIES_P, B_IMPLIES_Q), "\\equiv": (B_EQUIV, B_EQUIV)}
