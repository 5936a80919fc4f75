------------------------------ MODULE SequencesExt ------------------------------
\* kipcheck's own text of the CommunityModules module SequencesExt (its common operators);
\* the checker evaluates SetToSeq and the folds natively.
EXTENDS Sequences, Naturals, FiniteSets, FiniteSetsExt, Folds, Functions, Bags, TLC

\* The set of the elements of s.
ToSet(s) == {s[i] : i \in DOMAIN s}

\* A sequence of the elements of the finite set S, each once.
SetToSeq(S) == CHOOSE f \in [1 .. Cardinality(S) -> S] : \A i, j \in DOMAIN f : f[i] = f[j] => i = j

\* e prepended to s.
Cons(e, s) == <<e>> \o s

\* Does e occur in s?
Contains(s, e) == \E i \in 1 .. Len(s) : s[i] = e

\* s backwards.
Reverse(s) == [i \in 1 .. Len(s) |-> s[(Len(s) - i) + 1]]

\* s without its occurrences of e.
Remove(s, e) == SelectSeq(s, LAMBDA t : t # e)

\* s with e inserted at index i, removed at index i, replaced at index i.
InsertAt(s, i, e) == SubSeq(s, 1, i - 1) \o <<e>> \o SubSeq(s, i, Len(s))

RemoveAt(s, i) == SubSeq(s, 1, i - 1) \o SubSeq(s, i + 1, Len(s))

ReplaceAt(s, i, e) == [s EXCEPT ![i] = e]

\* The last element of s, and s without it.
Last(s) == s[Len(s)]

Front(s) == SubSeq(s, 1, Len(s) - 1)

\* Is s a prefix (a proper prefix, a suffix) of t?
IsPrefix(s, t) == Len(s) <= Len(t) /\ SubSeq(s, 1, Len(s)) = SubSeq(t, 1, Len(s))

IsStrictPrefix(s, t) == IsPrefix(s, t) /\ s # t

IsSuffix(s, t) == IsPrefix(Reverse(s), Reverse(t))

IsStrictSuffix(s, t) == IsSuffix(s, t) /\ s # t

\* The sequences of elements of S of length n, and of length at most n.
TupleOf(S, n) == [1 .. n -> S]

SeqOf(S, n) == UNION {[1 .. m -> S] : m \in 0 .. n}

BoundedSeq(S, n) == SeqOf(S, n)

\* The prefixes and the suffixes of s, the empty sequence included.
Prefixes(s) == {SubSeq(s, 1, l) : l \in 0 .. Len(s)}

Suffixes(s) == {SubSeq(s, l, Len(s)) : l \in 1 .. Len(s)} \cup {<<>>}

\* The sequences that are prefixes of every sequence of S, and the longest of them.
CommonPrefixes(S) == {p \in UNION {Prefixes(s) : s \in S} : \A t \in S : IsPrefix(p, t)}

LongestCommonPrefix(S) ==
    CHOOSE p \in CommonPrefixes(S) : \A q \in CommonPrefixes(S) : Len(q) <= Len(p)

\* op(s[1], op(s[2], ... base)) for an associative and commutative op.
FoldSeq(op(_, _), base, s) ==
    MapThenFoldSet(op, base, LAMBDA i : s[i], LAMBDA S : CHOOSE i \in S : TRUE, DOMAIN s)

\* op(... op(op(base, s[1]), s[2]) ..., s[Len(s)]) and op(s[1], op(s[2], ... op(s[Len(s)], base))).
FoldLeft(op(_, _), base, s) ==
    MapThenFoldSet(LAMBDA x, y : op(y, x), base, LAMBDA i : s[i],
                   LAMBDA S : CHOOSE i \in S : \A j \in S : i >= j, DOMAIN s)

FoldRight(op(_, _), s, base) ==
    MapThenFoldSet(op, base, LAMBDA i : s[i], LAMBDA S : CHOOSE i \in S : \A j \in S : i <= j,
                   DOMAIN s)
=============================================================================
