---- MODULE Vals ----
EXTENDS Integers, Sequences, TLC, FiniteSets
VARIABLE v
ASSUME [a |-> 1] = [x \in {"a"} |-> 1]
ASSUME <<1, 2>> = [i \in 1..2 |-> i]
ASSUME <<>> = [x \in {} |-> 1]
ASSUME (CHOOSE x \in {3, 1, 2} : TRUE) = 1
ASSUME (CHOOSE s \in SUBSET {1, 2, 3} : Cardinality(s) = 2) = {1, 2}
ASSUME [[a |-> 1, b |-> <<1, 2>>] EXCEPT !.b[2] = @ + 10].b = <<1, 12>>
ASSUME (-7) \div 2 = -4 /\ (-7) % 2 = 1
ASSUME 3..1 = {}
ASSUME SubSeq(<<1, 2, 3>>, 2, 1) = <<>>
ASSUME DOMAIN [r |-> 1, s |-> 2] = {"r", "s"}
ASSUME (1 :> 2 @@ 2 :> 3) = <<2, 3>>
ASSUME {<<x, y>> : x \in 1..2, y \in {"a"}} = {<<1, "a">>, <<2, "a">>}
ASSUME [{1, 2} -> {"x"}] = {<<"x", "x">>}
ASSUME Len(SelectSeq(<<1, 2, 3, 4>>, LAMBDA e : e % 2 = 0)) = 2
ASSUME LET f[n \in 0..5] == IF n = 0 THEN 1 ELSE n * f[n - 1] IN f[5] = 120
Init == v = 0
Next == v' = v
====
