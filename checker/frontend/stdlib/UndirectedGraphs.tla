------------------------- MODULE UndirectedGraphs ----------------------------
\* kipcheck's own text of the CommunityModules module UndirectedGraphs: an undirected graph is a
\* record [node |-> Nodes, edge |-> Edges] with edges as sets {a, b}. The checker evaluates
\* SimplePath, AreConnectedIn and ConnectedComponents natively, as TLC's overrides do.
LOCAL INSTANCE Naturals
LOCAL INSTANCE Sequences
LOCAL INSTANCE SequencesExt
LOCAL INSTANCE FiniteSets
LOCAL INSTANCE Folds
LOCAL INSTANCE Functions

IsUndirectedGraph(G) ==
    /\ G = [node |-> G.node, edge |-> G.edge]
    /\ \A e \in G.edge : \E a, b \in G.node : e = {a, b}

IsLoopFreeUndirectedGraph(G) ==
    /\ G = [node |-> G.node, edge |-> G.edge]
    /\ \A e \in G.edge : \E a, b \in G.node : a # b /\ e = {a, b}

UndirectedSubgraph(G) ==
    {H \in [node : SUBSET G.node, edge : SUBSET G.edge] : IsUndirectedGraph(H)}

\* The nonempty sequences of nodes, each joined to the next by an edge.
Path(G) == {p \in Seq(G.node) : p # <<>> /\ \A i \in 1 .. (Len(p) - 1) : {p[i], p[i + 1]} \in G.edge}

SimplePath(G) == {p \in Path(G) : \A i, j \in 1 .. Len(p) : p[i] = p[j] => i = j}

AreConnectedIn(m, n, G) == \E p \in Path(G) : p[1] = m /\ p[Len(p)] = n

\* The maximal nonempty sets of nodes whose nodes are pairwise connected within the set.
ConnectedComponents(G) ==
    LET IsCC(S) == S # {} /\ \A m, n \in S : AreConnectedIn(m, n, [node |-> S, edge |-> G.edge])
    IN  {S \in SUBSET G.node : IsCC(S) /\ \A T \in SUBSET G.node : S \subseteq T /\ S # T => ~ IsCC(T)}

IsStronglyConnected(G) == ConnectedComponents(G) = {G.node}

\* Every graph on the nodes S, with self-loops written {s}.
UndirectedGraphs(S) == [node : {S}, edge : SUBSET {{s, t} : <<s, t>> \in S \X S}]
=============================================================================
