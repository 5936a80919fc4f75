---- MODULE ActionProp ----
EXTENDS Naturals
VARIABLE x
Init == x = 0
Next == x' = (x + 1) % 4
Monotone == [][x' > x]_x
Bounded == [](x < 4)
====
