"""The interface between the semantics and the engines: what a model is, what a search returns.

The semantics builds a `Model` (Python callables over states: tuples of values in `variables`
order, plus LTL formulas over compiled atoms for liveness); every engine and backend explores one
and answers with a `Result`. Nothing here knows TLA+ syntax or how states are stored, so the
semantics never imports an engine and no backend imports the compiler.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .semantics.runtime import AssertFailure
from .semantics.values import EvalError

# What evaluating generated code can raise besides EvalError: a spec applying an operator to
# values of the wrong kind (1 + "a") surfaces as a Python TypeError and the like.
EVAL_ERRORS = (EvalError, TypeError, ValueError, IndexError, KeyError, AttributeError,
               ZeroDivisionError, RecursionError, OverflowError)


def error_message(e: BaseException) -> str:
    """TLC-style wording for an evaluation error."""
    if isinstance(e, (EvalError, AssertFailure)):
        return e.message
    if isinstance(e, RecursionError):
        return "The evaluation recursed too deeply (an infinite recursion in the spec?)."
    return f"Attempted to evaluate an expression on values of the wrong kind ({e})."


@dataclass
class Model:
    """What the engine explores. States are tuples of values, in `variables` order."""

    variables: list[str]
    init: Callable  # () -> iterator of states
    actions: list  # objects with .label, .name and .gen(state, emit): emit(s) per successor
    invariants: list[tuple[str, Callable]] = field(default_factory=list)  # (name, pred(s))
    action_properties: list[tuple[str, Callable]] = field(default_factory=list)  # pred(s, t)
    constraints: list[Callable] = field(default_factory=list)  # pred(s)
    action_constraints: list[Callable] = field(default_factory=list)  # pred(s, t)
    fingerprint: Callable | None = None  # state -> key for the seen set (VIEW, SYMMETRY)
    check_deadlock: bool = True
    set_level: Callable | None = None  # tell the evaluator TLCGet("level")
    watch_search: Callable | None = None  # give it the live counts: TLCGet("distinct"), ...
    mid_states: list | None = None  # [n]: the states A \cdot B passed through in the last
    # expansion, which TLC counts as generated (set only when an action composes)
    expand: Callable | None = None  # all actions at once: emit(i) then action i's successors
    init_properties: list[tuple[str, Callable]] = field(default_factory=list)  # pred(s) on Init
    liveness: list = field(default_factory=list)  # LivenessCheck, one per PROPERTY
    fairness: list = field(default_factory=list)  # Fairness of the SPECIFICATION
    # How to rebuild this model in another process (a worker): a picklable Recipe, since the
    # model's callables are made by exec and cannot be pickled. None: single process only.
    recipe: object = None
    # What building it parsed and compiled (frontend/remembered.py), handed to the workers so
    # they build the same model without doing that work again. None: nothing recorded.
    remembered: dict | None = None
    # The invariants again, as (name, pred(s, p)) for a successor s of a state p that
    # satisfied them all (a conjunct reading only variables s shares with p is skipped);
    # None: check successors with `invariants`.
    step_invariants: list[tuple[str, Callable]] | None = None
    # Every invariant's verdict depends on the state alone (no TLCGet, Print or random
    # choice), so a state outside the constraints, which TLC checks each time it is
    # generated, can be remembered as checked once it satisfied them.
    invariants_pure: bool = False
    # The constraints again, as pred(s, p) for a successor s of a state p inside them (only
    # such states are expanded): a conjunct reading only variables s shares with p is
    # skipped. None: check successors with `constraints`.
    step_constraints: list[Callable] | None = None
    # Put back what evaluation reads from the process rather than from the model (the intern
    # order that orders strings and model values, the spec's directory, the deadlock flag of
    # TLCGet("config"), the set-size bound): a process that built another model since must
    # call it first.
    activate: Callable | None = None
    # Per variable: can it hold two values Python's == confuses (TRUE and 1, a function and
    # the pair of its keys and values)? Only those need kind checks on a by-value hit (see
    # semantics/kinds.py). None: check every variable.
    kind_checked: tuple | None = None
    # The witnesses of the check (engine.witnesses.Witnesses), or None: they live in this
    # process, so only the local backend checks them.
    witnesses: object = None
    # The next-state relation splits into no action (`\E p \in P : A(p)` with P empty): TLC's
    # error once the initial states are checked (the search runs to depth 1 only).
    no_actions: bool = False

    def successor_in_model(self, state, succ) -> bool:
        """Is succ, a successor of `state` (a state inside the constraints: only those are
        expanded), inside the constraints and the action constraints?"""
        if self.step_constraints is not None:
            inside = all(c(succ, state) for c in self.step_constraints)
        else:
            inside = all(c(succ) for c in self.constraints)
        return inside and all(c(state, succ) for c in self.action_constraints)


@dataclass
class Step:
    """One state of a counterexample and the action instance that reached it."""

    action: str | None  # the label, e.g. "Send(b1, p1)"; None for an initial state
    state: tuple
    name: str | None = None  # the action's name ("Send"); None for an initial state
    params: tuple = ()  # ((parameter name, value), ...) of the action instance


def step_of(action, state) -> Step:
    """The Step for `state` reached by `action` (an engine action, or None for Init)."""
    if action is None:
        return Step(None, state)
    return Step(action.label, state, action.name, tuple(action.params))


@dataclass
class Result:
    verdict: str  # a verdict of checker.verdicts
    property: str | None
    distinct: int
    generated: int
    depth: int
    left: int
    trace: list[Step]
    coverage: dict[str, list[int]]
    seconds: float
    message: str | None = None
    error_at: object = None  # what was being evaluated when an error happened
    outdegree: tuple = (0, 0, 0, 0)
    exc: BaseException | None = None  # the evaluation error itself (its traceback locates it)
    loop: int | None = None  # a lasso: the last state steps back to trace[loop]
    loop_step: Step | None = None  # ... by this action (None: it stutters forever)
    # Fingerprint mode: TLC's optimistic estimate of the probability that two distinct states
    # shared a fingerprint (so some state went unexplored). None: whole states were compared.
    collision: float | None = None
    store_bytes: int = 0  # memory of the visited store (fingerprint mode), for benchmarks
    checkpoint: str | None = None  # the newest snapshot this search wrote (--checkpoint)


@dataclass(frozen=True)
class Recipe:
    """Everything needed to build the same Model again in another process."""

    spec: str
    config: str | None
    constants: tuple = ()  # (name, value) pairs of -D overrides
    lib: tuple[str, ...] = ()
    deadlock: bool | None = None
    texts: tuple = ()  # (file, text) pairs read instead of those files (mutants)
    max_set_size: int = 1_000_000  # TLC's bound on a set map's or filter's elements


# -- liveness: LTL formulas over compiled atoms ------------------------------------------
# LTL formulas are tuples: ("T",), ("F",), ("lit", atom, positive), ("and", f, g),
# ("or", f, g), ("U", f, g) (f until g) and ("R", f, g) (f releases g).
TRUE, FALSE = ("T",), ("F",)


def conj(f, g):
    if f == FALSE or g == FALSE:
        return FALSE
    if f == TRUE:
        return g
    if g == TRUE:
        return f
    return ("and", f, g)


def disj(f, g):
    if f == TRUE or g == TRUE:
        return TRUE
    if f == FALSE:
        return g
    if g == FALSE:
        return f
    return ("or", f, g)


def eventually(f):
    return ("U", TRUE, f)


def always(f):
    return ("R", FALSE, f)


@dataclass
class Atom:
    """A predicate of the formula: kind "state" (fn(s)) or "action" (fn(s, t) on a step)."""

    kind: str
    fn: Callable


@dataclass
class Fairness:
    """WF_v(A) or SF_v(A): `enabled(s)` is ENABLED <<A>>_v, `taken(s, t)` is <<A>>_v."""

    kind: str  # "WF" | "SF"
    enabled: Callable
    taken: Callable


@dataclass
class LivenessCheck:
    """One PROPERTY to check: `negation` is the negated formula over `atoms`."""

    name: str
    negation: tuple
    atoms: list[Atom]
