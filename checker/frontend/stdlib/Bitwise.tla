------------------------------- MODULE Bitwise -------------------------------
\* kipcheck's own text of the CommunityModules module Bitwise: bitwise operations on natural
\* numbers, defined by their binary digits; the checker evaluates &, |, ^^, Not and shiftR
\* natively, as TLC's overrides do.
LOCAL INSTANCE Integers

\* The i-th binary digit of x (the least significant is digit 0).
LOCAL Digit(x, i) == (x \div 2^i) % 2

\* The digits of x, y combined by Op on the digits 0 .. n - 1.
LOCAL Combine(x, y, n, Op(_, _)) ==
    LET F[i \in 0 .. n] ==
            IF i = 0 THEN 0 ELSE F[i - 1] + 2^(i - 1) * Op(Digit(x, i - 1), Digit(y, i - 1))
    IN  F[n]

\* The number of binary digits of x.
LOCAL Width(x) == CHOOSE n \in 0 .. x : x < 2^n

\* Bitwise and, or and exclusive or.
x & y == Combine(x, y, Width(IF x >= y THEN x ELSE y), LAMBDA a, b : a * b)

x | y == Combine(x, y, Width(IF x >= y THEN x ELSE y), LAMBDA a, b : (a + b + a * b) % 2)

x ^^ y == Combine(x, y, Width(IF x >= y THEN x ELSE y), LAMBDA a, b : (a + b) % 2)

\* a with each of its binary digits flipped, up to its most significant one.
Not(a) == Combine(a, a, Width(a), LAMBDA d, e : 1 - d)

\* n shifted right by pos digits.
shiftR(n, pos) == n \div 2^pos
=============================================================================
