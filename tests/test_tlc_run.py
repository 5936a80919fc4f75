"""What a spec can ask of the run it is checked in, as TLC answers it: TLCGet("config") (the
run's settings) and the .cfg's POSTCONDITION, checked after the search with TLCGet("stats").
The fields of TLCGet("config") and the postcondition's messages and exit code are TLC's (its
TLCGetSet and EC/MP: TLC_POSTCONDITION_FALSE exits with the assumption code, 10); the TLC 2.18
jar used elsewhere predates both.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from checker.api import check
from checker.frontend.errors import KipcheckError

COUNTER = "VARIABLE x\nInit == x = 0\nNext == x < 2 /\\ x' = x + 1\n"


def _spec(tmp_path: Path, body: str, cfg: str) -> Path:
    (tmp_path / "M.tla").write_text(f"---- MODULE M ----\nEXTENDS Naturals, TLC\n{COUNTER}{body}\n"
                                    f"====\n")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\n" + cfg)
    return tmp_path / "M.tla"


def test_tlcget_config_gives_the_runs_settings(tmp_path):
    body = ('ASSUME TLCGet("config").mode = "bfs" /\\ TLCGet("config").worker = 1\n'
            'ASSUME TLCGet("config").deadlock = FALSE\n'
            'ASSUME DOMAIN TLCGet("config") = {"mode", "deadlock", "worker", "seed", '
            '"fingerprint", "install"}')
    out = check(_spec(tmp_path, body, "CHECK_DEADLOCK FALSE\n"))
    assert out.verdict == "ok", out.message


def test_tlcget_config_follows_the_deadlock_setting_and_the_workers(tmp_path):
    spec = _spec(tmp_path, 'ASSUME TLCGet("config").deadlock /\\ TLCGet("config").worker = 2', "")
    out = check(spec, workers=2)
    assert out.verdict == "deadlock"  # the ASSUME held; x = 2 has no successor
    out = check(spec, deadlock=False)
    assert (out.verdict, out.exit_code) == ("assumption", 10)


def test_a_postcondition_sees_the_searchs_statistics(tmp_path):
    post = ('Post == /\\ TLCGet("stats") = [queue |-> 0, distinct |-> 3, generated |-> 3, '
            'diameter |-> 3, duration |-> TLCGet("stats").duration]\n'
            '        /\\ TLCGet("distinct") = 3 /\\ TLCGet("level") = 0')
    out = check(_spec(tmp_path, post, "POSTCONDITION Post\nCHECK_DEADLOCK FALSE\n"))
    assert (out.verdict, out.exit_code) == ("ok", 0), out.message
    assert (out.distinct_states, out.states_generated, out.depth) == (3, 3, 3)


def test_a_false_postcondition_is_tlcs_violation(tmp_path):
    out = check(_spec(tmp_path, 'Post == TLCGet("generated") = 4',
                      "POSTCONDITION Post\nCHECK_DEADLOCK FALSE\n"))
    assert (out.verdict, out.exit_code, out.property) == ("postcondition", 10, "Post")
    assert out.message == "Postcondition Post at line 6, col 9 to line 6, col 31 of module M is false."
    assert (out.distinct_states, out.states_generated) == (3, 3)  # the search's own counts


def test_a_postcondition_that_fails_to_evaluate(tmp_path):
    out = check(_spec(tmp_path, 'Post == <<1>>[2] = 1', "POSTCONDITION Post\nCHECK_DEADLOCK FALSE\n"))
    assert (out.verdict, out.exit_code) == ("postcondition", 10)
    assert out.message.startswith("Evaluating postcondition Post at line 6, col 9 to line 6, "
                                  "col 20 of module M failed.\nAttempted to apply tuple")


def test_a_postcondition_is_not_checked_after_a_violation(tmp_path):
    out = check(_spec(tmp_path, "Post == FALSE", "POSTCONDITION Post\n"))
    assert (out.verdict, out.exit_code) == ("deadlock", 11)


@pytest.mark.parametrize("body, why", [
    ("Post == x = 2", "POSTCONDITION Post reads a variable"),
    ("Other == TRUE", "'Post' is not defined in module M")])
def test_a_bad_postcondition_is_a_config_error_with_its_position(tmp_path, body, why):
    with pytest.raises(KipcheckError) as e:
        check(_spec(tmp_path, body, "POSTCONDITION Post\n"))
    assert why in e.value.message
    assert (e.value.span.line, e.value.span.col) == (3, 15)
