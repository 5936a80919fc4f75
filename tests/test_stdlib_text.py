"""Checks on the text of kipcheck's standard modules (checker/frontend/stdlib/*.tla).

These read the files with simple patterns rather than the TLA+ parser, so they pin down what
each module must export (name and arity) independently of the front end.
"""

from __future__ import annotations

import re
from importlib.resources import files

import pytest

# Each module's exported operators as `name/arity` (all of them); LOCAL helpers are not listed.
EXPORTS = {
    "Naturals": "+/2 -/2 */2 ^/2 </2 >/2 <=/2 >=/2 %/2 \\div/2 ../2 Nat/0",
    "Integers": "Int/0 -./1",
    "Reals": "Real/0 //2 Infinity/0",
    "Sequences": "Seq/1 Len/1 \\o/2 Append/2 Head/1 Tail/1 SubSeq/3 SelectSeq/2",
    "FiniteSets": "IsFiniteSet/1 Cardinality/1",
    "Bags": (
        "IsABag/1 BagToSet/1 SetToBag/1 BagIn/2 EmptyBag/0 \\oplus/2 \\ominus/2 BagUnion/1 "
        "\\sqsubseteq/2 SubBag/1 BagOfAll/2 BagCardinality/1 CopiesIn/2"
    ),
    "TLC": (
        "Print/2 PrintT/1 Assert/2 JavaTime/0 TLCGet/1 TLCSet/2 :>/2 @@/2 Permutations/1 "
        "SortSeq/2 RandomElement/1 Any/0 ToString/1 TLCEval/1"
    ),
    "TLAPS": (
        "SMT/0 SMTT/1 CVC3/0 CVC3T/1 Yices/0 YicesT/1 veriT/0 veriTT/1 Z3/0 Z3T/1 Spass/0 "
        "SpassT/1 SimpleArithmetic/0 Zenon/0 ZenonT/1 Isa/0 IsaT/1 IsaM/1 IsaMT/2 Auto/0 "
        "AutoT/1 Force/0 ForceT/1 Blast/0 BlastT/1 SimplifyAndSolve/0 SimplifyAndSolveT/1 "
        "Simplification/0 SimplificationT/1 AutoBlast/0 LS4/0 LS4T/1 PTL/0 "
        "PropositionalTemporalLogic/0 IsaWithSetExtensionality/0 AllProvers/0 AllProversT/1 "
        "AllSMT/0 AllSMTT/1 AllIsa/0 AllIsaT/1 SlowZenon/0 SlowerZenon/0 VerySlowZenon/0 "
        "SlowestZenon/0 SlowAuto/0 SlowerAuto/0 SlowestAuto/0 SlowForce/0 SlowerForce/0 "
        "SlowestForce/0 SlowBlast/0 SlowerBlast/0 SlowestBlast/0 SlowSimplifyAndSolve/0 "
        "SlowerSimplifyAndSolve/0 SlowestSimplifyAndSolve/0 SlowSimplification/0 "
        "SlowerSimplification/0 SlowestSimplification/0 ExpandENABLED/0 ExpandCdot/0 AutoUSE/0 "
        "Lambdify/0 ENABLEDaxioms/0 ENABLEDrewrites/0 ENABLEDrules/0 LevelComparison/0 Trivial/0"
    ),
    "Randomization": (
        "RandomSubset/2 RandomSetOfSubsets/3 RandomSubsetSet/3 TestRandomSetOfSubsets/3 "
        "RandomSubsetSetSize/3"
    ),
}

# Top-level definitions start in column 0: `Name(p, q) ==`, `a + b ==` or `-. a ==`.
_PREFIX_DEF = re.compile(r"^(?P<op>-\.) \w+ ==")
_INFIX_DEF = re.compile(r"^\w+ (?P<op>\S+) \w+ ==")
_NAMED_DEF = re.compile(
    r"^(?P<local>LOCAL )?(?P<name>\w+)(?:\((?P<params>[^)]*(?:\)[^)]*)?)\))? =="
)


def _module_text(name: str) -> str:
    return (files("checker.frontend.stdlib") / f"{name}.tla").read_text(encoding="utf-8")


def _exports(text: str) -> set[str]:
    found = set()
    for line in text.splitlines():
        if m := _PREFIX_DEF.match(line):
            found.add(f"{m['op']}/1")
        elif m := _NAMED_DEF.match(line):
            if not m["local"]:
                params = m["params"]
                arity = 0 if params is None else params.count(",") - params.count("_,") + 1
                found.add(f"{m['name']}/{arity}")
        elif m := _INFIX_DEF.match(line):
            found.add(f"{m['op']}/2")
    return found


@pytest.mark.parametrize("module", sorted(EXPORTS))
def test_module_exports_exactly_the_expected_operators(module):
    exported = _exports(_module_text(module))
    expected = set(EXPORTS[module].split())
    assert not expected - exported, f"{module} lacks {sorted(expected - exported)}"
    assert not exported - expected, f"{module} also exports {sorted(exported - expected)}"


@pytest.mark.parametrize("module", sorted(EXPORTS))
def test_module_frame_and_provenance_comment(module):
    lines = _module_text(module).splitlines()
    assert re.fullmatch(rf"-{{4,}} MODULE {module} ?-{{4,}}", lines[0])
    assert re.fullmatch(r"={4,}", lines[-1])
    assert (
        f"\\* kipcheck's own text of the standard module {module}; "
        "the checker evaluates its operators natively."
    ) in lines[1:3]
    assert not any(line.startswith(("THEOREM", "LEMMA", "PROOF")) for line in lines)
