------------------------------ MODULE Functions ------------------------------
\* kipcheck's own text of the CommunityModules module Functions; the checker evaluates
\* Range and the folds natively.
EXTENDS Integers, Folds

\* f restricted to the domain S.
Restrict(f, S) == [x \in S |-> f[x]]

\* f restricted to the arguments that satisfy Test.
RestrictDomain(f, Test(_)) == Restrict(f, {x \in DOMAIN f : Test(x)})

\* f restricted to the arguments whose values satisfy Test.
RestrictValues(f, Test(_)) == Restrict(f, {x \in DOMAIN f : Test(f[x])})

\* Is f a restriction of g?
IsRestriction(f, g) == DOMAIN f \subseteq DOMAIN g /\ \A x \in DOMAIN f : f[x] = g[x]

\* The set of values of f.
Range(f) == {f[x] : x \in DOMAIN f}

\* The function applying T to the values of f and g at each argument of f.
Pointwise(f, g, T(_, _)) == [e \in DOMAIN f |-> T(f[e], g[e])]

\* A function from T to S mapping each value of f to an argument with that value.
Inverse(f, S, T) == [t \in T |-> CHOOSE s \in S : t \in Range(f) => f[s] = t]

\* The inverse of f on its range.
AntiFunction(f) == Inverse(f, DOMAIN f, Range(f))

\* Does f map distinct arguments to distinct values?
IsInjective(f) == \A a, b \in DOMAIN f : f[a] = f[b] => a = b

\* The injections, surjections and bijections from S to T.
Injection(S, T) == {M \in [S -> T] : IsInjective(M)}

Surjection(S, T) == {M \in [S -> T] : \A t \in T : \E s \in S : M[s] = t}

Bijection(S, T) == Injection(S, T) \cap Surjection(S, T)

ExistsInjection(S, T) == Injection(S, T) # {}

ExistsSurjection(S, T) == Surjection(S, T) # {}

ExistsBijection(S, T) == Bijection(S, T) # {}

\* op(fun[x1], op(fun[x2], ... base)) over the arguments x1, x2, ... in indices.
FoldFunctionOnSet(op(_, _), base, fun, indices) ==
    MapThenFoldSet(op, base, LAMBDA i : fun[i], LAMBDA s : CHOOSE x \in s : TRUE, indices)

\* FoldFunctionOnSet over the whole domain of fun.
FoldFunction(op(_, _), base, fun) == FoldFunctionOnSet(op, base, fun, DOMAIN fun)

\* The sum of the values of fun at the arguments in indices, at all its arguments.
SumFunctionOnSet(fun, indices) == FoldFunctionOnSet(LAMBDA x, y : x + y, 0, fun, indices)

SumFunction(fun) == SumFunctionOnSet(fun, DOMAIN fun)
=============================================================================
