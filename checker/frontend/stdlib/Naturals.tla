------------------------------ MODULE Naturals ------------------------------
\* kipcheck's own text of the standard module Naturals; the checker evaluates its operators natively.

(***************************************************************************)
(* Addition is taken as primitive: what the numerals 0, 1, 2, ... denote   *)
(* and what their sums are is fixed by TLA+ itself.  The natural numbers   *)
(* and every other operator below are defined from + and the numerals.     *)
(* The definitions are written so that they also hold for the integers of  *)
(* module Integers, which extends this one.                                *)
(***************************************************************************)
a + b == CHOOSE sum : TRUE  \* primitive: the sum of two numbers

\* The least set that contains 0 and is closed under adding 1.
Nat ==
    CHOOSE N :
        /\ 0 \in N
        /\ \A n \in N : n + 1 \in N
        /\ \A M \in SUBSET N : (0 \in M /\ \A m \in M : m + 1 \in M) => M = N

a - b == CHOOSE d : d + b = a

a < b == \E d \in Nat : d # 0 /\ a + d = b
a > b == b < a
a <= b == a < b \/ a = b
a >= b == b <= a

\* The numbers from a up to b; empty when b < a.
a .. b == {a + k : k \in {d \in Nat : a + d <= b}}

\* Repeated addition of a, b times; a negative b (in Integers) negates the result.
a * b ==
    LET times[n \in Nat] == IF n = 0 THEN 0 ELSE times[n - 1] + a
    IN  IF b \in Nat THEN times[b] ELSE 0 - times[0 - b]

a ^ b ==
    LET power[n \in Nat] == IF n = 0 THEN 1 ELSE power[n - 1] * a
    IN  power[b]

\* Division rounding towards minus infinity, with a remainder in 0 .. b-1 (for b > 0).
a \div b ==
    CHOOSE q \in {m - n : m, n \in Nat} : \E r \in 0 .. (b - 1) : a = b * q + r

a % b == a - b * (a \div b)
=============================================================================
