---- MODULE Errors ----
EXTENDS Naturals, Sequences
VARIABLE q
Init == q = <<1>>
Next == q' = Tail(q) /\ Head(q') > 0
====
