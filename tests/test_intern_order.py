"""Strings are ordered as TLC interns them, and TLC reads its standard modules in its own text:
each case is the order TLC 2.18 prints the same set in (PrintT), for the EXTENDS shown. Before,
kipcheck took its own standard modules' names first and their parameters last, so CHOOSE
s \\in {"a", "Len"} : TRUE was "Len" where TLC says "a"."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from checker.cli import main

NAMES = ('"a","b","c","d","e","f","g","h","n","m","s","t","y","z","S","T","seq","i","j","k",'
         '"p","q","r","v","w","N","e1","e2","Len","Head","Nat","op","val","f1","s1","s2","set",'
         '"id","data","key"')
TAIL = '"c","h","y","z","k","q","r","N","e1","e2","op","f1","s1","s2","set","id","data","key"'


@pytest.mark.parametrize("extends, order", [
    ("Naturals, Sequences, FiniteSets, TLC",
     '"Nat","a","b","n","S","Len","s","t","i","e","Head","m","seq","T","val","v","d","f","g",'
     '"w","p","j",' + TAIL),
    ("TLC",
     '"val","v","n","Nat","i","d","e","f","g","S","w","s","p","Len","j","a","b","t","Head",'
     '"m","seq","T",' + TAIL),
    ("FiniteSets, TLC, Naturals",
     '"S","seq","s","n","Len","T","val","v","Nat","i","d","e","f","g","w","p","j","a","b","t",'
     '"Head","m",' + TAIL),
])
def test_a_set_of_strings_prints_in_tlcs_order(tmp_path, extends, order):
    (tmp_path / "P.tla").write_text(
        f"---- MODULE P ----\nEXTENDS {extends}\nVARIABLE x\nInit == x = 0\n"
        f"Next == UNCHANGED x\nInv == PrintT({{{NAMES}}})\n====\n")
    (tmp_path / "P.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
    out = CliRunner().invoke(main, ["check", str(tmp_path / "P.tla")]).output
    assert "{" + order.replace(",", ", ") + "}" in out


def test_choose_takes_the_string_tlc_interned_first(tmp_path):
    (tmp_path / "C.tla").write_text(
        "---- MODULE C ----\nEXTENDS Naturals, Sequences, TLC\nVARIABLE x\n"
        'Init == x = CHOOSE s \\in {"Len", "a"} : TRUE\nNext == UNCHANGED x\n'
        'Inv == x = "a"\n====\n')
    (tmp_path / "C.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
    r = CliRunner().invoke(main, ["check", str(tmp_path / "C.tla")])
    assert r.exit_code == 0, r.output


# Module files are read in TLC's order: the next module name not yet resolved, an EXTENDS
# anywhere before any INSTANCE, searched from the root each time. Each module M defines tM; the
# order is the one TLC 2.18 prints the set of them in.
@pytest.mark.parametrize("root, modules, order", [
    ("EXTENDS A, B", {"A": "EXTENDS C", "B": "EXTENDS D", "C": "", "D": ""}, "ABCD"),
    ("EXTENDS A, B", {"A": "I == INSTANCE C", "B": "EXTENDS D", "C": "", "D": ""}, "ABDC"),
    ("EXTENDS A\nI == INSTANCE B", {"A": "J == INSTANCE C", "B": "EXTENDS D", "C": "EXTENDS E",
                                    "D": "", "E": ""}, "ABDCE"),
    ("EXTENDS A\nI == INSTANCE D", {"A": "EXTENDS B", "B": "EXTENDS C", "C": "", "D": ""},
     "ABCD"),
    ("EXTENDS A, B", {"A": "I == INSTANCE C", "B": "J == INSTANCE D", "C": "EXTENDS E", "D": "",
                      "E": ""}, "ABCED"),
])
def test_modules_are_read_in_tlcs_order(tmp_path, root, modules, order):
    for name, refs in modules.items():
        (tmp_path / f"{name}.tla").write_text(
            f"---- MODULE {name} ----\n{refs}\nt{name} == 1\n====\n")
    names = ", ".join(f'"t{n}"' for n in sorted(modules))
    (tmp_path / "Root.tla").write_text(
        f"---- MODULE Root ----\n{root}\nVARIABLE x\nInit == x = {{{names}, \"zz\"}}\n"
        "Next == UNCHANGED x\nInv == x = {}\n====\n")
    (tmp_path / "Root.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
    out = CliRunner().invoke(main, ["check", str(tmp_path / "Root.tla")]).output
    assert "x = {" + ", ".join(f'"t{n}"' for n in order) + ', "zz"}' in out


def test_a_remembered_order_is_forgotten_with_the_intern_order():
    """ordered() remembers a set's order by identity (a state's message set is enumerated by
    every action); another model's intern order must not reuse it."""
    from checker.semantics import runtime, values

    s = frozenset({"x", "y", "z"})
    values.restore_interning({"z": 0, "y": 1, "x": 2})
    assert values.ordered(s) == ["z", "y", "x"]
    assert tuple(runtime.enum(s)) == ("z", "y", "x")
    values.restore_interning({"x": 0, "y": 1, "z": 2})
    assert values.ordered(s) == ["x", "y", "z"]
    assert tuple(runtime.enum(s)) == ("x", "y", "z")
    values.reset_interning()
