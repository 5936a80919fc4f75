"""Remembered successors (compile_actions._memoised_actions, codegen_runtime.SuccessorMemo):
an action that reads only some variables has, in a state whose read variables hold the very
objects of an earlier state's, the earlier successors but for the variables it sets. Figures
are TLC 2.18's."""
from __future__ import annotations

import pytest

from checker.api import check, generated_code
from checker.semantics.codegen_runtime import SuccessorMemo

SPECS = {
    # x' = y copies another variable's object; Same reads x and y; Bump reads z only.
    "SM1": ("EXTENDS Naturals\nVARIABLES x, y, z\nInit == x = 0 /\\ y = 0 /\\ z = 0\n"
            "Copy == x' = y /\\ y' = (y + 1) % 3 /\\ UNCHANGED z\n"
            "Bump == z < 2 /\\ z' = z + 1 /\\ UNCHANGED <<x, y>>\n"
            "Same == x = y /\\ z' = 0 /\\ UNCHANGED <<x, y>>\n"
            "Next == Copy \\/ Bump \\/ Same\nInv == x + y + z < 6\n",
            "INIT Init\nNEXT Next\nINVARIANT Inv\n", ("ok", 12, 24, None)),
    # C fails in a state whose x its earlier successors did not depend on: the error, its
    # trace and TLC's count of generated states are those of an unremembered search.
    "SM2": ("EXTENDS Naturals\nVARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
            "A == \\E v \\in {1, 2} : x' = v /\\ UNCHANGED y\n"
            "B == y < 3 /\\ y' = y + 1 /\\ UNCHANGED x\n"
            "C == y = 3 /\\ x' = x \\div (x - 2) /\\ UNCHANGED y\n"
            "Next == A \\/ B \\/ C\n",
            "INIT Init\nNEXT Next\n", ("error", 13, 36, 5)),
    # B keeps x UNCHANGED and primes it too: x' = 2 compares the old x, so B reads x (a memo
    # that took UNCHANGED x for a copy only would never fire B: 3 states).
    "SM5": ("EXTENDS Naturals\nVARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
            "C == x' = (x + 1) % 3 /\\ UNCHANGED y\n"
            "B == UNCHANGED x /\\ x' = 2 /\\ y' = 7\nNext == C \\/ B\n",
            "INIT Init\nNEXT Next\n", ("ok", 6, 9, None)),
    # x holds 0, TRUE and 1: Python's == merges TRUE and 1, so x's values are not shared.
    "SM3": ("EXTENDS Naturals\nVARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
            "Flip == x' = (IF x = 0 THEN TRUE ELSE IF x = TRUE THEN 1 ELSE 0) /\\ UNCHANGED y\n"
            "Step == y < 4 /\\ y' = y + 1 /\\ UNCHANGED x\nNext == Flip \\/ Step\n",
            "INIT Init\nNEXT Next\n", ("error", 3, 3, None)),
}


def _write(tmp_path, name):
    body, cfg, _ = SPECS[name]
    (tmp_path / f"{name}.tla").write_text(f"---- MODULE {name} ----\n{body}====\n")
    (tmp_path / f"{name}.cfg").write_text(cfg)
    return tmp_path / f"{name}.tla"


@pytest.mark.parametrize("name", sorted(SPECS))
def test_remembered_successors_agree_with_tlc(tmp_path, name):
    verdict, distinct, generated, length = SPECS[name][2]
    o = check(_write(tmp_path, name))
    assert (o.verdict, o.distinct_states, o.states_generated) == (verdict, distinct, generated)
    if length is not None:
        assert len(o.trace) == length


def test_what_is_remembered(tmp_path):
    code = "".join(src for _, src in generated_code(_write(tmp_path, "SM1")))
    assert "_k = (id(s[1]),)" in code  # Copy reads y only
    assert "_k = (id(s[2]),)" in code  # Bump reads z only
    assert "_k = (id(s[0]), id(s[1]),)" in code  # Same reads x and y
    # Copy sets x (to y's object) and y; Bump sets z; Same sets z (UNCHANGED x, y are copied)
    memo = SuccessorMemo((True, True, True), {})
    assert memo.keep([((7, 8, 0), (0, 1))]) == (((0, 1), (7, 8)),)


def test_a_group_that_misses_is_switched_off():
    namespace = {"on": True}
    memo = SuccessorMemo((True,), namespace)
    cache = memo.new_cache("on")
    n = 0
    while namespace["on"] and n < 3 * SuccessorMemo.WINDOW:
        n += 1
        memo.expanded = n
        memo.slots(0, cache, n, (n,), (0,), 1)  # every state reads a new object: all miss
    assert namespace["on"] is False and not cache
    assert n == 2 * SuccessorMemo.WINDOW  # decided at the end of the second window


def test_a_group_that_hits_stays_on():
    namespace = {"on": True}
    memo = SuccessorMemo((True,), namespace)
    cache = memo.new_cache("on")
    for n in range(3 * SuccessorMemo.WINDOW):
        memo.expanded = n + 1
        if n % 4 == 0:  # one look-up in four misses
            memo.slots(0, cache, n, (n,), (0,), 1)
    assert namespace["on"] is True
