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
    (tmp_path / "M.tla").write_text(f"---- MODULE M ----\nEXTENDS Naturals, Sequences, TLC\n"
                                    f"{COUNTER}{body}\n====\n")
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
    assert out.message == ("Postcondition Post at line 6, col 9 to line 6, col 31 of module M is "
                           "false.")
    assert (out.distinct_states, out.states_generated) == (3, 3)  # the search's own counts


def test_a_postcondition_that_fails_to_evaluate(tmp_path):
    out = check(_spec(tmp_path, "Post == <<1>>[2] = 1",
                      "POSTCONDITION Post\nCHECK_DEADLOCK FALSE\n"))
    assert (out.verdict, out.exit_code) == ("postcondition", 10)
    assert out.message.startswith("Evaluating postcondition Post at line 6, col 9 to line 6, "
                                  "col 20 of module M failed.\nAttempted to apply tuple")


def test_a_postcondition_is_not_checked_after_a_violation(tmp_path):
    out = check(_spec(tmp_path, "Post == FALSE", "POSTCONDITION Post\n"))
    assert (out.verdict, out.exit_code) == ("deadlock", 11)


def test_a_postcondition_that_reads_a_variable_fails_to_evaluate(tmp_path):
    out = check(_spec(tmp_path, "Post == x = 2", "POSTCONDITION Post\nCHECK_DEADLOCK FALSE\n"))
    assert (out.verdict, out.exit_code) == ("postcondition", 10)
    assert out.message.endswith("failed.\nA postcondition is evaluated after the search, where "
                                "there is no state whose variables it could read")


def test_an_undefined_postcondition_is_a_config_error_with_its_position(tmp_path):
    with pytest.raises(KipcheckError) as e:
        check(_spec(tmp_path, "Other == TRUE", "POSTCONDITION Post\n"))
    assert "'Post' is not defined in module M" in e.value.message
    assert (e.value.span.line, e.value.span.col) == (3, 15)


# -- ALIAS ------------------------------------------------------------------------------------

ALIAS_SPEC = ("Inv == x < 2\n"
              "Alias == [y |-> x * 10, next |-> x', level |-> TLCGet(\"level\")]\n")


def test_the_trace_prints_through_the_alias(tmp_path):
    """Each state is shown as the alias's record, evaluated on the state and its successor
    (the last state is its own), TLCGet("level") being the state's position."""
    from checker.traces.text import format_outcome

    out = check(_spec(tmp_path, ALIAS_SPEC, "INVARIANT Inv\nALIAS Alias\n"))
    assert (out.verdict, len(out.trace)) == ("invariant", 3)
    assert out.alias == [(("y", "next", "level"), (0, 1, 1)), (("y", "next", "level"), (10, 2, 2)),
                         (("y", "next", "level"), (20, 2, 3))]
    text = format_outcome(out)
    assert ("State 1: <Initial predicate>\n /\\ y = 0\n /\\ next = 1\n /\\ level = 1\n\n"
            "State 2: <Next>\n*/\\ y = 10\n*/\\ next = 2\n*/\\ level = 2\n\n"
            "State 3: <Next>\n*/\\ y = 20\n /\\ next = 2\n*/\\ level = 3\n") in text
    assert "Warning" not in text
    assert out.variables == ["x"]  # the files written with --trace-out keep the variables


def test_a_lassos_last_state_has_the_loop_state_as_successor(tmp_path):
    (tmp_path / "L.tla").write_text(
        "---- MODULE L ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = 0\n"
        "Next == x' = (x + 1) % 3\nSpec == Init /\\ [][Next]_x\nLive == <>(x = 5)\n"
        "Alias == [now |-> x, then |-> x']\n====\n")
    (tmp_path / "L.cfg").write_text("SPECIFICATION Spec\nPROPERTY Live\nALIAS Alias\n")
    out = check(tmp_path / "L.tla")
    assert out.verdict == "property" and out.loop is not None
    assert [vals for _, vals in out.alias][-1] == (out.trace[-1].state[0],
                                                   out.trace[out.loop].state[0])


def test_an_alias_that_is_no_record_falls_back_to_the_variables_with_a_warning(tmp_path):
    out = check(_spec(tmp_path, "Inv == x < 1\nAlias == x", "INVARIANT Inv\nALIAS Alias\n"))
    assert out.verdict == "invariant" and out.alias is None
    assert any("ALIAS Alias" in w and "is not a record on state 1 but 0" in w
               for w in out.warnings)


def test_an_undefined_alias_is_a_config_error_with_its_position(tmp_path):
    with pytest.raises(KipcheckError) as e:
        check(_spec(tmp_path, "Inv == x < 1", "INVARIANT Inv\nALIAS Nope\n"))
    assert "'Nope' is not defined in module M" in e.value.message
    assert (e.value.span.line, e.value.span.col) == (4, 7)


# -- printing sets that kipcheck keeps lazy ----------------------------------------------------

def test_finite_sets_of_functions_records_tuples_and_subsets_print_enumerated(tmp_path):
    """TLC prints (PrintT, ToString, traces) such a set by its elements, as TLC 2.18 does."""
    body = ('ASSUME <<ToString([1..2 -> {1}]), ToString(SUBSET {1}), ToString([a : {1}]), '
            'ToString({1} \\X {2}), ToString(Seq({1})), ToString([{} -> {1}])>> = '
            '<<"{<<1, 1>>}", "{{}, {1}}", "{[a |-> 1]}", "{<<1, 2>>}", "Seq({1})", "{<<>>}">>')
    out = check(_spec(tmp_path, body, "CHECK_DEADLOCK FALSE\n"))
    assert out.verdict == "ok", out.message


def test_trace_in_an_alias_is_the_behaviour_up_to_the_state(tmp_path):
    """TLCExt!Trace, as TLC binds it while printing through an ALIAS."""
    (tmp_path / "T.tla").write_text(
        "---- MODULE T ----\nEXTENDS Naturals, Sequences, TLCExt\nVARIABLE x\nInit == x = 0\n"
        "Next == x' = x + 1\nInv == x < 2\nAlias == [x |-> x, seen |-> Len(Trace), "
        "first |-> Trace[1].x]\n====\n")
    (tmp_path / "T.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\nALIAS Alias\n")
    out = check(tmp_path / "T.tla")
    assert [vals for _, vals in out.alias] == [(0, 1, 0), (1, 2, 0), (2, 3, 0)]
