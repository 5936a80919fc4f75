"""`P => Q` in an action or in Init: TLC evaluates P, then Q *as an action* when P holds (Q may
assign a primed variable, or in Init a variable), and goes on with the rest when P is false. The
figures in the comments are TLC's (`tlc2.TLC -workers 1`) on the same specs."""
from __future__ import annotations

import pytest

from checker.api import check

NOT_SPECIFIED = "Successor state is not completely specified by "

# name -> (module body, verdict, message, generated, distinct, the trace's last state).
CASES = {
    # The first implication is skipped at x = 0, the second assigns; then the other way round.
    # TLC: deadlock, 4 generated, 4 distinct, the last state x = 3, y = 7.
    "assigns": ("VARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
                "Next == /\\ x < 3\n        /\\ x' = x + 1\n"
                "        /\\ (x > 0 => y' = y + 1)\n        /\\ (x = 0 => y' = 5)\n",
                "deadlock", None, 4, 4, (3, 7)),
    # P false and nothing else assigns y: TLC's "not completely specified", 2 generated,
    # 1 distinct, State 2: x = 1, y = null.
    "skipped": ("VARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
                "Next == /\\ x < 3\n        /\\ x' = x + 1\n        /\\ (x > 0 => y' = y + 1)\n",
                "error", NOT_SPECIFIED + "the next-state action. "
                "The following variable is not assigned: y.", 2, 1, ("1", "null")),
    # Q assigns and then tests what it assigned; ENABLED on the left; UNCHANGED on the right.
    # TLC: action B leaves x unassigned; 5 generated, 4 distinct; last state x = null, y = 8.
    "mixed": ("VARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
              "A == /\\ x < 3\n     /\\ x' = x + 1\n"
              "     /\\ (x # 1 => (y' = y + 1 /\\ y' > 0))\n     /\\ (x = 1 => y' = 7)\n"
              "B == x = 3 /\\ (ENABLED A => x' = 0) /\\ (x = 3 => UNCHANGED y)\n"
              "Next == A \\/ B\n",
              "error", NOT_SPECIFIED + "action B of the next-state relation. "
              "The following variable is not assigned: x.", 5, 4, ("null", "8")),
    # Q assigns y' = 3, a later conjunct tests y' = 4: no successor. TLC: deadlock, 1 state.
    "then_tested": ("VARIABLES x, y\nInit == x = 0 /\\ y = 0\n"
                    "Next == /\\ x < 2\n        /\\ (x = 0 => y' = 3)\n        /\\ y' = 4\n"
                    "        /\\ x' = x + 1\n",
                    "deadlock", None, 1, 1, (0, 0)),
    # In Init: TLC finds three initial states (6 generated with the stuttering steps).
    "init": ("VARIABLES x, y\n"
             "Init == x \\in 0..1 /\\ (x = 0 => y = 1) /\\ (x = 1 => y \\in {2, 3})\n"
             "Next == UNCHANGED <<x, y>>\n",
             "ok", None, 6, 3, None),
}


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("name", CASES)
def test_tlc_figures(tmp_path, name, workers):
    body, verdict, message, generated, distinct, last = CASES[name]
    spec = tmp_path / "M.tla"
    spec.write_text(f"---- MODULE M ----\nEXTENDS Naturals\n{body}====\n")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\n")
    o = check(spec, workers=workers)
    assert o.verdict == verdict
    assert o.message == message
    if workers == 1:
        assert (o.states_generated, o.distinct_states) == (generated, distinct)
    else:
        assert o.distinct_states == distinct or verdict != "ok"
    if last is not None:
        assert tuple(str(v) for v in o.trace[-1].state) == tuple(str(v) for v in last)
