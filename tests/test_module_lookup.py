"""A file may hold several modules one after another; the first is the spec, and TLC (since
its "monolith" specs, SANY's MonolithSpecExtractor) finds the modules it EXTENDS or INSTANCEs
among the ones that follow, before looking for files. tlaplus/Examples' braf spec relies on it
(`EXTENDS Common`, with module Common at the end of the same file).
"""
from __future__ import annotations

import pytest

from checker.api import check
from checker.frontend.errors import KipcheckError

MONOLITH = """text before the spec is ignored
---- MODULE M ----
EXTENDS Naturals, Common
VARIABLE x
R == INSTANCE Other WITH y <- x
Init == x = K
Next == x' = (x + 1) % 3
Inv == R!Ok
====
free text between modules
---- MODULE Other ----
EXTENDS Naturals, Common
VARIABLE y
Ok == y < K + 3
====
(* ---- MODULE Common ---- a comment, not a module *)
---- MODULE Common ----
K == 0
====
"""


def test_modules_after_the_spec_in_its_file_are_found(tmp_path):
    (tmp_path / "M.tla").write_text(MONOLITH)
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
    out = check(tmp_path / "M.tla")
    assert (out.verdict, out.distinct_states, out.states_generated) == ("ok", 3, 4)


def test_they_come_before_a_file_of_the_same_name(tmp_path):
    (tmp_path / "M.tla").write_text(MONOLITH)
    (tmp_path / "Common.tla").write_text("---- MODULE Common ----\nK == 5\n====\n")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
    out = check(tmp_path / "M.tla")
    assert out.verdict == "ok" and out.trace == []
    assert out.distinct_states == 3


def test_an_error_in_a_following_module_has_its_place_in_the_file(tmp_path):
    (tmp_path / "M.tla").write_text(MONOLITH.replace("Ok == y < K + 3", "Ok == y < K +"))
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
    with pytest.raises(KipcheckError) as e:
        check(tmp_path / "M.tla")
    assert e.value.span.line == 15
