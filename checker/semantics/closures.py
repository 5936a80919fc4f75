"""Closures that outlive the loop iteration that made them.

Generated code holds TLA+'s bound names in Python locals, and a comprehension or a `for` over a
set rebinds its local at each element. A Python closure sees a local's latest binding, so a
lambda made for one element and called after the loop moved on would see the last element:
the test of a lazy set filter (`\\E x \\in S : y' = {z \\in SUBSET T : x \\in z}` keeps one in
each successor, read when the successor is fingerprinted), a LET value or operator read through
it, a recursive function definition's body. `closure` binds, when the lambda is made, the outer
locals it reads as default arguments; TLA+ values are immutable, so that binding is the value
the lambda was made with, whenever it runs."""
from __future__ import annotations

import functools
import re
import symtable

_OUTER = re.compile(r"v\d+_\w*|_d\d+")  # the locals generated code binds (see scope.pyname)


def closure(params: str, body: str, exclude: frozenset | set = frozenset()) -> str:
    """`lambda params: body`, with the outer locals body reads (but those in exclude, which
    are never rebound) bound now as default arguments."""
    head = f"lambda {params}" if params else "lambda"
    free = [n for n in _free_locals(f"{head}: {body}") if n not in exclude]
    if not free:
        return f"{head}: {body}"
    defaults = ", ".join(f"{n}={n}" for n in free)
    return f"lambda {params + ', ' if params else ''}{defaults}: {body}"


@functools.lru_cache(maxsize=4096)
def _free_locals(src: str) -> tuple[str, ...]:
    """The generated locals a lambda reads without binding them (in any scope inside it),
    sorted; parsed alone, those resolve to the module."""
    top = symtable.symtable(src, "<closure>", "eval")
    found: set[str] = set()
    todo = list(top.get_children())
    while todo:
        table = todo.pop()
        todo += table.get_children()
        for sym in table.get_symbols():
            if sym.is_global() and sym.is_referenced() and _OUTER.fullmatch(sym.get_name()):
                found.add(sym.get_name())
    return tuple(sorted(found))
