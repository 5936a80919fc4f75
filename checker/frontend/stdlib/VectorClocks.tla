---------------------------- MODULE VectorClocks -------------------------------
\* kipcheck's own text of the CommunityModules module VectorClocks: logs of events stamped with
\* vector clocks. The checker evaluates CausalOrder natively, as TLC's override does.
EXTENDS Naturals, Sequences, Functions

LOCAL Concurrent(v1, v2) == \E i, j \in DOMAIN v1 : i # j /\ v1[i] < v2[i] /\ v1[j] > v2[j]

LOCAL HappenedBefore(v1, v2) ==
    (\A i \in DOMAIN v1 : v1[i] <= v2[i]) /\ \E i \in DOMAIN v1 : v1[i] < v2[i]

\* Is no entry of log preceded by one that happened after it?
IsCausalOrder(log, clock(_)) ==
    \A i \in 1 .. Len(log) : \A j \in 1 .. (i - 1) :
        LET Fill(c, D) == [d \in D |-> IF d \in DOMAIN c THEN c[d] ELSE 0]
            D == DOMAIN clock(log[i]) \cup DOMAIN clock(log[j])
        IN  HappenedBefore(Fill(clock(log[j]), D), Fill(clock(log[i]), D))
            \/ Concurrent(Fill(clock(log[j]), D), Fill(clock(log[i]), D))

\* The entries of log reordered causally; clock(l) is entry l's vector clock, node(l) the node
\* that logged it, domain(vc) the nodes a clock has values for.
CausalOrder(log, clock(_), node(_), domain(_)) ==
    CHOOSE newlog \in {f \in [1 .. Len(log) -> Range(log)] : Range(f) = Range(log)} :
        IsCausalOrder(newlog, clock)
===============================================================================
