-------------------------- MODULE DyadicRationals ---------------------------
\* kipcheck's own text of the CommunityModules module DyadicRationals: rationals whose
\* denominator is a power of two, as records [num, den]; the checker reduces them natively.
LOCAL INSTANCE FiniteSets
LOCAL INSTANCE Integers
LOCAL INSTANCE Sequences
LOCAL INSTANCE FiniteSetsExt
LOCAL INSTANCE TLC

LOCAL Divisors(q) == {d \in 1 .. q : q % d = 0}

LOCAL GCD(n, m) == Max(Divisors(n) \cap Divisors(m))

LOCAL Rational(num, den) == [num |-> num, den |-> den]

\* p in lowest terms.
LOCAL Reduce(p) ==
    LET gcd == GCD(p.num, p.den)
    IN  IF gcd = 1 THEN p ELSE Rational(p.num \div gcd, p.den \div gcd)

IsDyadicRational(r) == \E i \in 0 .. r.den : 2^i = r.den

Zero == Rational(0, 1)

One == Rational(1, 1)

\* p + q; both denominators are powers of two, so the greater one is a common multiple.
Add(p, q) ==
    IF p = Zero THEN q
    ELSE LET den == Max({p.den, q.den})
         IN  Reduce(Rational(p.num * (den \div p.den) + q.num * (den \div q.den), den))

Half(p) == Reduce(Rational(p.num, p.den * 2))

PrettyPrint(p) ==
    IF p = Zero THEN "0"
    ELSE IF p = One THEN "1"
    ELSE ToString(p.num) \o "/" \o ToString(p.den)
=============================================================================
