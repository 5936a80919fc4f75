------------------------------- MODULE Reals --------------------------------
\* kipcheck's own text of the standard module Reals; the checker evaluates its operators natively.
EXTENDS Integers

\* The real numbers are taken as primitive, as + is in Naturals.
Real == CHOOSE R : Int \subseteq R  \* primitive: the set of real numbers

\* The quotient; the definition of * in Naturals covers an integer divisor b # 0.
a / b == CHOOSE q \in Real : a = q * b

\* A value that is no real number, standing for an unbounded limit.
Infinity == CHOOSE x : x \notin Real
=============================================================================
