------------------------------ MODULE Integers ------------------------------
\* kipcheck's own text of the standard module Integers; the checker evaluates its operators natively.
EXTENDS Naturals

\* Every integer is a difference of two naturals.
Int == {m - n : m, n \in Nat}

\* Unary minus, written -a in a spec.
-. a == 0 - a
=============================================================================
