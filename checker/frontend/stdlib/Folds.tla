-------------------------------- MODULE Folds --------------------------------
\* kipcheck's own text of the CommunityModules module Folds; the checker evaluates it natively.

\* op(f(x1), op(f(x2), ... op(f(xn), base))), where x1 = choose(S), x2 = choose(S \ {x1}), ...
MapThenFoldSet(op(_, _), base, f(_), choose(_), S) ==
    LET iter[s \in SUBSET S] ==
            IF s = {} THEN base
            ELSE LET x == choose(s) IN op(f(x), iter[s \ {x}])
    IN  iter[S]
=============================================================================
