"""With a state constraint, a successor whose fingerprint is a recently stored state's skips
the constraint and the store (it was inside the constraints when stored) but not the action
properties, which TLC checks on every transition. TLC 2.18 (`-workers 1`) figures: on Dup the
violating step is the second to reach <<1, 1>>, already stored from <<0, 0>> (4 generated,
3 distinct, 1 left, a trace of 2 states from y = 1); on Grows, 30 generated, 13 distinct,
depth 4, no error."""
from __future__ import annotations

import pytest

from checker.api import check

DUP = """---- MODULE Dup ----
EXTENDS Naturals
VARIABLES x, y
vars == <<x, y>>
Init == x = 0 /\\ y \\in {0, 1}
Next == x < 3 /\\ x' = x + 1 /\\ y' = 1
InBound == x < 3
NoJumpFromOne == [][~(x = 0 /\\ y = 1 /\\ x' = 1)]_vars
====
"""

GROWS = """---- MODULE Grows ----
EXTENDS Naturals
VARIABLES x, y
vars == <<x, y>>
Init == x = 0 /\\ y \\in 0..3
Next == \\/ x < 4 /\\ x' = x + 1 /\\ y' = (y + x) % 3
        \\/ x < 4 /\\ x' = x + 1 /\\ y' = 2
InBound == x < 4
Grows == [][x' = x + 1 /\\ y' \\in 0..2]_vars
====
"""


def _write(tmp_path, name, text, prop):
    (tmp_path / f"{name}.tla").write_text(text)
    (tmp_path / f"{name}.cfg").write_text(
        f"INIT Init\nNEXT Next\nCONSTRAINT InBound\nPROPERTY {prop}\nCHECK_DEADLOCK FALSE\n")
    return tmp_path / f"{name}.tla"


@pytest.mark.parametrize("workers", [1, 2])
def test_an_action_property_broken_on_a_step_into_a_stored_state_is_found(tmp_path, workers):
    o = check(_write(tmp_path, "Dup", DUP, "NoJumpFromOne"), workers=workers)
    assert (o.verdict, o.property, o.trace_length) == ("property", "NoJumpFromOne", 2)
    assert o.trace[0].state == (0, 1) and o.trace[1].state == (1, 1)
    if workers == 1:
        assert (o.states_generated, o.distinct_states) == (4, 3)


@pytest.mark.parametrize("workers", [1, 2])
def test_steps_into_stored_states_keep_tlcs_counts(tmp_path, workers):
    o = check(_write(tmp_path, "Grows", GROWS, "Grows"), workers=workers)
    assert (o.verdict, o.states_generated, o.distinct_states, o.depth) == ("ok", 30, 13, 4)
