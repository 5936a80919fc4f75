"""Liveness: does some fair behaviour of the explored state graph violate a temporal property?

The property arrives negated, as an LTL formula in negation normal form whose atoms are
compiled predicates (over a state, or over a step). The formula becomes a generalised Büchi
automaton (a tableau); the product of the automaton with the behaviour graph (every state may
also stutter) is searched for a strongly connected component that is
- accepting: it visits every acceptance set of the automaton (each `<>` promise is kept), and
- fair: for each weakly fair action, the component takes it or has a state where it is disabled;
  for each strongly fair action, it takes it or it is disabled everywhere in the component
  (otherwise the states where it is enabled are removed and the rest is searched again).
Such a component, with a shortest path to it, is a counterexample: a lasso.

The behaviour graph is kept in flat arrays (CSR): `offsets[i]:offsets[i+1]` index the edges of
state i in `targets` (the successor's id) and `actions` (the action that produced it).
"""
from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from ..interface import (  # noqa: F401  (the formula helpers, re-exported)
    FALSE,
    TRUE,
    Atom,
    Fairness,
    LivenessCheck,
    always,
    conj,
    disj,
    eventually,
)


@dataclass
class Graph:
    """The behaviour graph: state i is `states[i]`; its edges are in CSR form."""

    states: list = field(default_factory=list)
    inits: list[int] = field(default_factory=list)
    offsets: array = field(default_factory=lambda: array("q", [0]))
    targets: array = field(default_factory=lambda: array("q"))
    actions: array = field(default_factory=lambda: array("l"))
    # Edge e's successor where it is not its target's stored state (with SYMMETRY or VIEW, a
    # successor is stored as the first state of its class seen): actions are checked on it, as
    # TLC checks them on the successor itself.
    succs: dict = field(default_factory=dict)

    def edges(self, i: int) -> range:
        return range(self.offsets[i], self.offsets[i + 1])

    def successor(self, e: int):
        """The state edge e leads to."""
        s = self.succs.get(e)
        return self.states[self.targets[e]] if s is None else s


@dataclass
class Lasso:
    """A counterexample: states[0..] then back to states[loop] by `loop_action` (None: the
    last state stutters forever). `actions[k]` reached states[k] (None for the first)."""

    states: list[int]
    actions: list
    loop: int
    loop_action: int | None


# -- the tableau ---------------------------------------------------------------------------
@dataclass
class _Node:
    state_lits: tuple  # ((atom, positive), ...) to hold in the current state
    action_lits: tuple  # ... to hold on the step leaving it
    pending: frozenset  # the formulas the next position must satisfy
    succ: list = field(default_factory=list)


def _expand(formulas) -> list[tuple[frozenset, frozenset]]:
    """Every way to satisfy all `formulas` now: (literals now, formulas for the next state)."""
    out: set = set()

    def go(todo: list, lits: frozenset, nxt: frozenset) -> None:
        while todo:
            f = todo.pop()
            tag = f[0]
            if tag == "T":
                continue
            if tag == "F":
                return
            if tag == "lit":
                if (f[1], not f[2]) in lits:
                    return
                lits = lits | {(f[1], f[2])}
            elif tag == "and":
                todo.extend((f[1], f[2]))
            elif tag == "or":
                go(todo + [f[1]], lits, nxt)
                todo.append(f[2])
            elif tag == "U":  # g now, or f now and f U g next
                go(todo + [f[2]], lits, nxt)
                todo.append(f[1])
                nxt = nxt | {f}
            else:  # R: g and f now (released), or g now and f R g next
                go(todo + [f[1], f[2]], lits, nxt)
                todo.append(f[2])
                nxt = nxt | {f}
        out.add((lits, nxt))

    go(list(formulas), frozenset(), frozenset())
    return sorted(out, key=repr)


def _subformulas(f, out: set) -> None:
    out.add(f)
    for g in f[1:]:
        if type(g) is tuple:
            _subformulas(g, out)


class Tableau:
    """A generalised Büchi automaton for an LTL formula without next-state operator."""

    def __init__(self, formula, atoms: list[Atom]):
        subs: set = set()
        _subformulas(formula, subs)
        self.untils = sorted((g for g in subs if g[0] == "U"), key=repr)
        self.nodes: list[_Node] = []
        ids: dict = {}

        def node_id(lits, nxt) -> int:
            key = (lits, nxt)
            if key not in ids:
                ids[key] = len(self.nodes)
                srt = sorted(lits, key=repr)
                self.nodes.append(_Node(
                    tuple(x for x in srt if atoms[x[0]].kind == "state"),
                    tuple(x for x in srt if atoms[x[0]].kind == "action"), nxt))
                work.append(ids[key])
            return ids[key]

        work: list[int] = []
        self.initial = [node_id(lits, nxt) for lits, nxt in _expand([formula])]
        expanded: dict = {}
        while work:
            n = work.pop()
            node = self.nodes[n]
            if node.pending not in expanded:
                expanded[node.pending] = _expand(node.pending)
            node.succ = [node_id(lits, nxt) for lits, nxt in expanded[node.pending]]
        # Acceptance set of `f U g`: the nodes that do not postpone it.
        self.accepting = [frozenset(i for i, nd in enumerate(self.nodes) if u not in nd.pending)
                          for u in self.untils]


# -- the search ----------------------------------------------------------------------------
class _Search:
    """Product of the behaviour graph and one tableau, with memoised atom evaluation."""

    def __init__(self, graph: Graph, check: LivenessCheck, fairness: list[Fairness]):
        self.g = graph
        self.atoms = check.atoms
        self.fair = fairness
        self.tab = Tableau(check.negation, check.atoms)
        self.nq = len(self.tab.nodes)
        n, m = len(graph.states), len(graph.targets)
        self.state_memo = [bytearray(n) if a.kind == "state" else None for a in self.atoms]
        self.edge_memo = [bytearray(m) if a.kind == "action" else None for a in self.atoms]
        self.stutter_memo = [bytearray(n) if a.kind == "action" else None for a in self.atoms]
        self.enabled_memo = [bytearray(n) for _ in fairness]
        self.taken_memo = [bytearray(m) for _ in fairness]
        self.holds_memo = [bytearray(n) for _ in self.tab.nodes]
        self.edge_holds: dict = {}  # (tableau node, edge with a successor of its own) -> bool

    # Memoised evaluation: 0 = not yet, 1 = false, 2 = true.
    def state_atom(self, a: int, i: int) -> bool:
        memo = self.state_memo[a]
        v = memo[i]
        if not v:
            v = memo[i] = 2 if self.atoms[a].fn(self.g.states[i]) is True else 1
        return v == 2

    def step_atom(self, a: int, i: int, e: int) -> bool:
        """Atom a on edge e out of state i (e = -1: the stuttering step i -> i)."""
        if e < 0:
            memo, k, t = self.stutter_memo[a], i, self.g.states[i]
        else:
            memo, k, t = self.edge_memo[a], e, self.g.successor(e)
        v = memo[k]
        if not v:
            v = memo[k] = 2 if self.atoms[a].fn(self.g.states[i], t) is True else 1
        return v == 2

    def enabled(self, f: int, i: int) -> bool:
        memo = self.enabled_memo[f]
        v = memo[i]
        if not v:
            v = memo[i] = 2 if self.fair[f].enabled(self.g.states[i]) else 1
        return v == 2

    def taken(self, f: int, i: int, e: int) -> bool:
        if e < 0:
            return False  # a stuttering step changes nothing
        memo = self.taken_memo[f]
        v = memo[e]
        if not v:
            g = self.g
            v = memo[e] = 2 if self.fair[f].taken(g.states[i], g.successor(e)) else 1
        return v == 2

    def holds_in(self, q: int, i: int) -> bool:
        """Do node q's state literals hold in state i? (memoised per node and state)"""
        memo = self.holds_memo[q]
        v = memo[i]
        if not v:
            lits = self.tab.nodes[q].state_lits
            v = memo[i] = 2 if all(self.state_atom(a, i) == pos for a, pos in lits) else 1
        return v == 2

    def holds_on_edge(self, q: int, e: int) -> bool:
        """Do node q's state literals hold in the successor of edge e, a state of its target's
        class (SYMMETRY, VIEW) other than the stored one? TLC evaluates them on the successor
        itself, which a property may tell from the stored state."""
        v = self.edge_holds.get((q, e))
        if v is None:
            t = self.g.succs[e]
            v = self.edge_holds[q, e] = all(
                (self.atoms[a].fn(t) is True) == pos for a, pos in self.tab.nodes[q].state_lits)
        return v

    def successors(self, p: int) -> list[tuple[int, int]]:
        """Product successors of p = state * nq + node: (product node, edge or -1)."""
        nq = self.nq
        i, q = divmod(p, nq)
        node = self.tab.nodes[q]
        succ = node.succ
        action_lits = node.action_lits
        holds_memo = self.holds_memo
        holds_in = self.holds_in
        targets = self.g.targets
        own = self.g.succs
        out = []
        start, end = self.g.offsets[i], self.g.offsets[i + 1]
        for e in (-1, *range(start, end)):
            j = i if e < 0 else targets[e]
            if action_lits and not all(self.step_atom(a, i, e) == pos
                                       for a, pos in action_lits):
                continue
            if e in own:
                out += [(j * nq + q2, e) for q2 in succ if self.holds_on_edge(q2, e)]
                continue
            for q2 in succ:
                v = holds_memo[q2][j]
                if v == 2 or (v == 0 and holds_in(q2, j)):
                    out.append((j * nq + q2, e))
        return out

    def initial(self) -> list[int]:
        return [i * self.nq + q for i in self.g.inits for q in self.tab.initial
                if self.holds_in(q, i)]

    # -- strongly connected components (iterative Tarjan) -------------------------------
    def components(self, roots, allowed: set | None = None):
        index: dict = {}
        low: dict = {}
        on_stack: set = set()
        stack: list = []
        counter = 0
        for root in roots:
            if root in index or (allowed is not None and root not in allowed):
                continue
            index[root] = low[root] = counter
            counter += 1
            stack.append(root)
            on_stack.add(root)
            work = [(root, iter(self.successors(root)))]
            while work:
                v, it = work[-1]
                pushed = False
                for w, _e in it:
                    if allowed is not None and w not in allowed:
                        continue
                    if w not in index:
                        index[w] = low[w] = counter
                        counter += 1
                        stack.append(w)
                        on_stack.add(w)
                        work.append((w, iter(self.successors(w))))
                        pushed = True
                        break
                    if w in on_stack and index[w] < low[v]:
                        low[v] = index[w]
                if pushed:
                    continue
                work.pop()
                if work:
                    u = work[-1][0]
                    if low[v] < low[u]:
                        low[u] = low[v]
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    yield comp

    def fair_component(self, comp: list[int]):
        """A fair, accepting sub-component of `comp` and what its cycle must pass through:
        a list of (node condition or None, step condition or None), or None."""
        members = set(comp)
        inner = [(p, w, e) for p in comp for w, e in self.successors(p) if w in members]
        if not inner:
            return None  # a single product node without a step back to itself
        needs = []
        nq = self.nq
        for acc in self.tab.accepting:
            if not any(p % nq in acc for p in comp):
                return None
            needs.append((lambda p, acc=acc: p % nq in acc, None))
        for f, fair in enumerate(self.fair):
            def taken(p, e, f=f):
                return self.taken(f, p // nq, e)

            def disabled(p, f=f):
                return not self.enabled(f, p // nq)

            has_step = any(taken(p, e) for p, _w, e in inner)
            enabled = [p for p in comp if self.enabled(f, p // nq)]
            if not enabled:
                continue  # disabled throughout: fair whatever the kind
            if has_step:
                needs.append((disabled if fair.kind == "WF" else None, taken))
                continue
            if len(enabled) == len(comp):
                return None  # enabled throughout and never taken
            if fair.kind == "WF":
                needs.append((disabled, None))
                continue
            # SF: the states where it is enabled cannot recur; search what remains.
            rest = members.difference(enabled)
            for sub in self.components(sorted(rest), rest):
                found = self.fair_component(sub)
                if found is not None:
                    return found
            return None
        return members, needs

    def search(self) -> Lasso | None:
        """Every fair component, then the lasso into the one nearest an initial state (so
        counterexamples are short, as a breadth-first search would find them)."""
        roots = self.initial()
        owner: dict = {}
        found = []
        for comp in self.components(roots):
            fair = self.fair_component(comp)
            if fair is not None:
                for p in fair[0]:
                    owner[p] = len(found)
                found.append(fair)
        if not found:
            return None
        nearest = self._path(roots, lambda p: p in owner)[-1][0]
        return self._lasso(roots, *found[owner[nearest]])

    # -- the counterexample --------------------------------------------------------------
    def _path(self, starts, goal: Callable | None = None, step_goal: Callable | None = None,
              within: set | None = None, move: bool = False):
        """Shortest product path from one of `starts`, staying `within` if given, to a node
        meeting `goal` (not a start itself when `move`) or through a step meeting
        `step_goal(node, edge)`: [(node, edge that reached it or None)]."""
        parent: dict = {s: None for s in starts}
        queue = deque(starts)

        def path_to(p):
            path = []
            while p is not None:
                prev = parent[p]
                path.append((p, None if prev is None else prev[1]))
                p = None if prev is None else prev[0]
            return path[::-1]

        while queue:
            p = queue.popleft()
            if goal is not None and goal(p) and not (move and parent[p] is None):
                return path_to(p)
            for w, e in self.successors(p):
                if within is not None and w not in within:
                    continue
                if step_goal is not None and step_goal(p, e):
                    return path_to(p) + [(w, e)]
                if w not in parent:
                    parent[w] = (p, e)
                    queue.append(w)
        raise AssertionError("liveness: a goal inside a strongly connected component is missing")

    def _lasso(self, roots, members: set, needs) -> Lasso:
        """A shortest prefix into the component, then a cycle that greedily goes to the
        nearest node or step meeting a condition not yet met, and back to its start."""
        prefix = self._path(roots, lambda p: p in members)
        entry = prefix[-1][0]
        shortest = self._shortest_cycle(entry, members, needs)
        if shortest is not None:
            return self._states(prefix, shortest)
        cycle: list = []  # (node, edge that reached it), after entry
        open_needs = [n for n in needs if not (n[0] and n[0](entry))]
        here = entry
        while open_needs:
            leg = self._path(
                [here], lambda p, ns=open_needs: any(n[0] and n[0](p) for n in ns),
                lambda p, e, ns=open_needs: any(n[1] and n[1](p, e) for n in ns),
                members, True)[1:]
            cycle += leg
            for i, (p, e) in enumerate(leg):
                src = (here if i == 0 else leg[i - 1][0])
                open_needs = [n for n in open_needs
                              if not ((n[0] and n[0](p)) or (n[1] and n[1](src, e)))]
            here = leg[-1][0]
        if here == entry and not cycle:  # move at least once: any step inside, then back
            w, e = next((w, e) for w, e in self.successors(entry) if w in members)
            cycle.append((w, e))
            here = w
        if here != entry:
            cycle += self._path([here], lambda p: p == entry, within=members)[1:]
        return self._states(prefix, cycle)

    def _shortest_cycle(self, entry: int, members: set, needs, limit: int = 4_000_000):
        """The shortest cycle from entry back to it, inside the component, that meets every
        need: a breadth-first search over (node, the needs met so far). [(node, edge that
        reached it)] after entry, ending at entry; None when the search could grow past
        `limit` nodes (the greedy cycle of _lasso is used then)."""
        k = len(needs)
        if k > 20 or len(members) << k > limit:
            return None
        full = (1 << k) - 1
        node_needs = [(b, n[0]) for b, n in enumerate(needs) if n[0] is not None]
        step_needs = [(b, n[1]) for b, n in enumerate(needs) if n[1] is not None]
        met_at: dict = {}

        def met(p) -> int:
            m = met_at.get(p)
            if m is None:
                m = met_at[p] = sum(1 << b for b, cond in node_needs if cond(p))
            return m

        start = (entry, met(entry))
        parent: dict = {start: None}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            p, mask = here
            for w, e in self.successors(p):
                if w not in members:
                    continue
                m = mask | met(w)
                for b, cond in step_needs:
                    if not m >> b & 1 and cond(p, e):
                        m |= 1 << b
                if w == entry and m == full:
                    path = [(w, e)]
                    while parent[here] is not None:
                        before, edge = parent[here]
                        path.append((here[0], edge))
                        here = before
                    return path[::-1]
                there = (w, m)
                if there not in parent:
                    parent[there] = (here, e)
                    queue.append(there)
        return None

    def _states(self, prefix, cycle) -> Lasso:
        """Product path -> behaviour. Steps that leave the state as it is (stuttering, or an
        action looping on the state) are dropped; the cycle ends where it began."""
        g = self.g
        states: list[int] = []
        actions: list = []
        for p, e in prefix:
            i = p // self.nq
            if not states or i != states[-1]:
                states.append(i)
                actions.append(None if e is None else g.actions[e])
        loop = len(states) - 1
        same_state_action = None
        for p, e in cycle:
            i = p // self.nq
            if i == states[-1]:
                if e >= 0:
                    same_state_action = g.actions[e]
                continue
            states.append(i)
            actions.append(g.actions[e])
        if len(states) - 1 > loop:  # the last state is the loop's first again
            states.pop()
            return Lasso(states, actions, loop, actions.pop())
        return Lasso(states, actions, loop, same_state_action)


def check(graph: Graph, checks: list[LivenessCheck], fairness: list[Fairness]):
    """The first property with a fair counterexample: (name, Lasso), or None."""
    for c in checks:
        lasso = _Search(graph, c, fairness).search()
        if lasso is not None:
            return c.name, lasso
    return None
