"""With an action property or a CONSTRAINT the search fingerprints a state's successors at once
(engine/explore.py, `batched`), then checks them one by one in TLC's order; a successor that
cannot be fingerprinted must still be met only after the ones generated before it. Figures are
TLC 2.18's."""
from __future__ import annotations

import pytest

from checker.api import check

SPEC = """\
---- MODULE Fp ----
EXTENDS Naturals
VARIABLE x
Init == x = 0
Next == x = 0 /\\ ({first} \\/ {second})
Inv == x # 1
Prop == [][TRUE]_x
====
"""


@pytest.mark.parametrize("first, second, verdict, distinct", [
    ("x' = 1", "x' = Nat", "invariant", 2),  # the violation comes first
    ("x' = Nat", "x' = 1", "error", 1),  # the state that cannot be stored comes first
])
def test_successors_are_met_in_order_around_one_that_cannot_be_stored(
        tmp_path, first, second, verdict, distinct):
    (tmp_path / "Fp.tla").write_text(SPEC.format(first=first, second=second))
    (tmp_path / "Fp.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\nPROPERTY Prop\n")
    o = check(tmp_path / "Fp.tla", tmp_path / "Fp.cfg")
    assert (o.verdict, o.states_generated, o.distinct_states) == (verdict, 2, distinct)
    if verdict == "error":
        assert o.message.startswith(
            "TLC has found a state in which the value of a variable cannot be stored.")
