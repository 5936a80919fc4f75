------------------------------ MODULE Sequences -----------------------------
\* kipcheck's own text of the standard module Sequences; the checker evaluates its operators natively.
(***************************************************************************)
(* A sequence of length n is a function with domain 1 .. n.                *)
(***************************************************************************)
LOCAL INSTANCE Naturals

\* All finite sequences whose elements lie in S.
Seq(S) == UNION {[1 .. n -> S] : n \in Nat}

Len(s) == CHOOSE n \in Nat : DOMAIN s = 1 .. n

\* Concatenation.
s \o t ==
    [i \in 1 .. (Len(s) + Len(t)) |-> IF i <= Len(s) THEN s[i] ELSE t[i - Len(s)]]

Append(s, e) == s \o <<e>>

Head(s) == s[1]

Tail(s) == [i \in 1 .. (Len(s) - 1) |-> s[i + 1]]

\* The elements of s at positions m through n; empty when n < m.
SubSeq(s, m, n) == [i \in 1 .. (n - m + 1) |-> s[m + i - 1]]

\* The subsequence of the elements e of s for which Test(e) holds, in their order in s.
SelectSeq(s, Test(_)) ==
    LET kept[i \in 0 .. Len(s)] ==
            IF i = 0 THEN << >>
            ELSE IF Test(s[i]) THEN Append(kept[i - 1], s[i])
                 ELSE kept[i - 1]
    IN  kept[Len(s)]
=============================================================================
