"""`=` and `#` with a model value compile to Python's == and != (comparing anything with a model
value is never an error in TLC, and it equals only itself). TLC 2.18 (`-workers 1`) on this
spec: with Same, no error, 12 generated, 6 distinct, depth 1; with NotNone as well, NotNone is
violated by the initial state x = NONE."""
from __future__ import annotations

import subprocess
import sys

import pytest

from checker.api import check

SPEC = """---- MODULE MV ----
CONSTANT NONE
VARIABLE x
Init == \\/ x = 1 \\/ x = <<1>> \\/ x = {1} \\/ x = "s" \\/ x = [a |-> 1] \\/ x = NONE
Next == x' = IF x = NONE THEN 1 ELSE x
Same == IF x = NONE THEN x = NONE ELSE (x # NONE) = (NONE # x)
NotNone == x # NONE
====
"""


def _write(tmp_path, invariants):
    (tmp_path / "MV.tla").write_text(SPEC)
    (tmp_path / "MV.cfg").write_text("CONSTANT NONE = NONE\nINIT Init\nNEXT Next\n" + "".join(
        f"INVARIANT {i}\n" for i in invariants))
    return tmp_path / "MV.tla"


@pytest.mark.parametrize("workers", [1, 2])
def test_comparisons_with_a_model_value_keep_tlcs_answers(tmp_path, workers):
    o = check(_write(tmp_path, ["Same"]), workers=workers)
    assert (o.verdict, o.states_generated, o.distinct_states, o.depth) == ("ok", 12, 6, 1)
    o = check(_write(tmp_path, ["Same", "NotNone"]), workers=workers)
    assert (o.verdict, o.property, o.trace_length) == ("invariant", "NotNone", 1)


def test_they_compile_to_pythons_comparison(tmp_path):
    spec = _write(tmp_path, ["Same"])
    r = subprocess.run([sys.executable, "-m", "checker.cli", "compile", str(spec)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    same = [line for line in r.stdout.splitlines() if line.endswith("# MV.tla:6:9")]
    # x = NONE, x # NONE and NONE # x: Python's comparisons; the = of two Booleans stays eq
    assert same and all(line.count(" == (_k") == 2 and line.count(" != (_k") == 1
                        and line.count(") != (s[0])") == 1 and line.count("eq(") == 1
                        for line in same)
