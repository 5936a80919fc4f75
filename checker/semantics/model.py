"""Turn a loaded spec and its .cfg into the engine's Model: constants bound, Init and Next found
in the SPECIFICATION, actions split and compiled, properties sorted into what can be checked.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .. import interface as ltl
from ..frontend import LoadedSpec, ast
from ..frontend.cfg import CfgValue, ConstantAssignment, ConstantSubstitution
from ..frontend.errors import ConfigError, Span
from ..interface import Model
from . import codegen_runtime, community, kinds, runtime, temporal
from .analysis import mentions_prime
from .compiler import Compiler
from .intern_order import intern_order
from .natives import STANDARD
from .runtime import AssertFailure
from .scope import IMPURE, NEXT, READS, CompileError, Env
from .values import (
    TYPED_MODEL_VALUES,
    EvalError,
    Fn,
    ModelValue,
    as_set,
    interning,
    is_set,
    make_fn,
    restore_interning,
    same_kinds,
    show,
    tlc_key,
)


@dataclass
class Built:
    model: Model
    compiler: Compiler
    assumptions: list  # (span, callable)
    warnings: list[str] = field(default_factory=list)
    # The .cfg's POSTCONDITION: (name, span of its definition, callable), checked after the
    # search like an ASSUME, with TLCGet("stats") giving the search's statistics.
    postcondition: tuple | None = None
    # The .cfg's ALIAS: (name, its .cfg span, callable (state, successor) -> value).
    alias: tuple | None = None
    # The witnesses asked for (--witness): (name, predicate of a state), in that order.
    witnesses: list = field(default_factory=list)


def cfg_value(v: CfgValue):
    """A .cfg value as a kipcheck value (bare identifiers are model values)."""
    if v.kind in ("int", "str", "bool"):
        return v.value
    if v.kind == "model":
        return ModelValue(v.value)
    if v.kind == "set":
        return frozenset(cfg_value(x) for x in v.value)
    if v.kind == "tuple":
        return tuple(cfg_value(x) for x in v.value)
    raise ConfigError(f"unsupported value {v}", v.span)


def _has_typed(v) -> bool:
    if type(v) is ModelValue:
        return bool(v.typed)
    if type(v) in (frozenset, tuple):
        return any(map(_has_typed, v))
    return False


def _activation(deadlock: bool):
    """Model.activate for the model being built: its process-wide evaluation settings."""
    order, spec_dir, max_set = interning(), community.SPEC_DIR[0], runtime.MAX_SET_SIZE[0]

    def activate() -> None:
        restore_interning(order)
        community.SPEC_DIR[0] = spec_dir
        codegen_runtime.RUN["deadlock"] = deadlock
        runtime.MAX_SET_SIZE[0] = max_set

    return activate


def _names_itself(c) -> bool:
    """`r1 = r1`: a model value named for use in other values; no constant is meant."""
    return (isinstance(c, ConstantAssignment) and c.value.kind == "model"
            and c.value.value == c.name)


def build(loaded: LoadedSpec, overrides_cli: dict | None = None,
          check_deadlock: bool | None = None, witnesses: tuple[str, ...] = ()) -> Built:
    cfg = loaded.config
    if cfg is None:
        raise ConfigError(f"no configuration for {loaded.path}: give --config CFG")
    intern_order(loaded)
    community.SPEC_DIR[0] = Path(loaded.path).parent if loaded.path else None
    scope = loaded.scope
    constants, overrides = {}, {}
    module_values, module_overrides = {}, {}
    for c in cfg.constants:
        if isinstance(c, ConstantAssignment):
            if c.module is not None:  # `Name = [Mod] value`: Mod's definition, in every instance
                module_values[(c.module, c.name)] = cfg_value(c.value)
            else:
                constants[c.name] = cfg_value(c.value)
        elif isinstance(c, ConstantSubstitution):
            if c.module is not None and c.module != loaded.root.name:
                module_overrides[(c.module, c.name)] = c.target  # that module's definition
            else:
                overrides[c.name] = c.target
    for name, value in (overrides_cli or {}).items():
        overrides.pop(name, None)
        constants[name] = value
    # typed model values make comparisons look for them (ModelValue.typed): this model's own
    TYPED_MODEL_VALUES[0] = any(map(_has_typed, (*constants.values(), *module_values.values())))
    variables = list(scope.variables)
    compiler = Compiler(loaded.scopes, loaded.root.name, variables, constants, overrides)
    compiler.module_values = module_values
    compiler.module_overrides = module_overrides
    env = compiler.root_env()
    for c in cfg.constants:  # TLC evaluates `C <- Def` once, without a state
        sym = scope.symbols.get(c.name)
        target = scope.symbols.get(c.target) if isinstance(c, ConstantSubstitution) else None
        if (c.name in overrides and sym is not None and sym.kind == "constant"
                and not sym.arity and target is not None and isinstance(target.node, ast.OpDef)
                and not target.node.params):
            var = _variable_read(compiler, target.node.body, compiler.def_env(target, env),
                                 set())
            if var is not None:
                raise ConfigError(
                    f"The configuration file substitutes constant {c.name} with non-constant "
                    f"{c.target} - specifically: In evaluation, the identifier {var.name} is "
                    f"either undefined or not an operator.", c.span)
    warnings: list[str] = []
    for c in cfg.constants:  # a misspelt name would leave its definition as written
        if c.module is None and c.name not in scope.symbols and not _names_itself(c):
            warnings.append(f"{c.span}: {c.name} is neither a constant nor a definition of "
                            f"module {loaded.root.name}; the configuration's value for it is "
                            "not used (TLC ignores it too).")

    def body_of(n: str):
        sym = scope.symbols[overrides.get(n, n)]  # `Inv <- MCInv` replaces it here too
        d = sym.node
        if isinstance(d, ast.OpDef):
            return d.body, compiler.def_env(sym, env)
        raise CompileError(f"{n!r} is not a definition", getattr(d, "span", None))

    # Init and Next, and the SPECIFICATION's fairness conjuncts.
    translator = temporal.Translator(compiler)
    fairness_parts: list = []
    if cfg.specification is not None:
        init_e, next_e, fairness_parts = _split_spec(translator, cfg.specification, env)
    else:
        init_e = body_of(cfg.init.name) if cfg.init else None
        next_e = body_of(cfg.next.name) if cfg.next else None
        # TLC refuses an INIT or NEXT that reads no variable, whatever its value (one that is
        # FALSE would otherwise pass with no state, or no step, checked)
        for entry, got, what in ((cfg.init, init_e, "initial predicate"),
                                 (cfg.next, next_e, "next state action")):
            if got is not None and _constant_definition(compiler, *got):
                raise ConfigError(f"The {what} {entry.name} cannot be a constant.", entry.span)
    if init_e is None and next_e is None and not variables:
        # Constants and ASSUMEs only (specs that test their operators): TLC checks the
        # ASSUMEs and explores no state.
        init_e = (ast.Bool(False, span=_cfg_span(cfg)), env)
    if init_e is None:
        raise ConfigError("the specification has no initial predicate", _cfg_span(cfg))
    if next_e is None and variables and (cfg.invariants or cfg.properties):
        # TLC's words (exit 151); with nothing to check but the initial states it computes
        # them and stops (no_actions below)
        spec = cfg.specification
        raise ConfigError("The configuration file did not specify the next state predicate"
                          + (f": SPECIFICATION {spec.name} has no [][Next]_vars conjunct"
                             if spec is not None else " (give SPECIFICATION, or INIT and NEXT)."),
                          spec.span if spec is not None else _cfg_span(cfg))
    init_gen = compiler.compile_init(init_e[0], init_e[1])
    next_name = cfg.next.name if cfg.next is not None else "Next"
    actions = compiler.split_actions(next_e[0], next_e[1], next_name) if next_e else []
    # A next-state relation that splits into no action at all (`\E p \in P : A(p)` with P
    # empty): TLC's error once the initial states are checked, not a deadlock (which
    # --no-deadlock would let pass).
    # So is a spec with no next-state relation at all (TLC computes the initial states first).
    no_actions = not actions and (next_e is not None or bool(variables) and init_e is not None)

    def pred(name: str, what: str, span):
        """An INVARIANT's or CONSTRAINT's predicate; one with primes is refused before the
        search, as TLC does (it would otherwise fail on the first state, saying less)."""
        e, denv = body_of(name)
        _, flags = compiler.expr(e, denv)
        if flags & NEXT:
            raise ConfigError(f"The {what} {name} is not a state predicate (one with no primes "
                              "or temporal operators).", span)
        return compiler.compile_predicate(e, denv, f"inv_{name}", True)

    invariants = [(n.name, pred(n.name, "invariant", n.span)) for n in cfg.invariants]
    invariants_pure = all(not compiler.expr(*body_of(n.name))[1] & (IMPURE | READS)
                          for n in cfg.invariants)
    # The same invariants for a successor of a state that satisfied them (see
    # compile_step_predicate): what its unchanged variables decide is not evaluated again.
    step_invariants = [(n.name, compiler.compile_step_predicate(*body_of(n.name),
                                                                f"step_{n.name}"))
                       for n in cfg.invariants]
    # An invariant, constraint, action constraint or property that is the constant FALSE: TLC
    # refuses the model before the search (a constraint would keep no state beyond the
    # initial ones).
    for what, names in (("invariant", cfg.invariants), ("constraint", cfg.constraints),
                        ("action constraint", cfg.action_constraints),
                        ("property", cfg.properties)):
        for n in names:
            if _constant_false(compiler, *body_of(n.name)):
                raise ConfigError(f"The {what} of {n.name} is equal to FALSE", n.span)
    constraints = [pred(n.name, "constraint", n.span) for n in cfg.constraints]
    # The same constraints for a successor of a state inside them (only such states are
    # explored): what its unchanged variables decide is not evaluated again.
    step_constraints = [compiler.compile_step_predicate(*body_of(n.name), f"cstep_{n.name}")
                        for n in cfg.constraints]
    action_constraints = []
    for n in cfg.action_constraints:
        e, denv = body_of(n.name)
        action_constraints.append(compiler.compile_action_predicate(e, denv, f"ac_{n.name}",
                                                                    True))
    action_props = []
    init_props = []
    liveness_checks = []
    for n in cfg.properties:
        e, denv = body_of(n.name)
        live_parts = []
        for kind, parts in _property_parts(translator, e, denv, n):
            if kind == "invariant":
                invariants_pure = invariants_pure and not (
                    compiler.expr(parts[0], parts[1])[1] & (IMPURE | READS))
                invariants.append((n.name, compiler.compile_predicate(parts[0], parts[1],
                                                                       f"prop_{n.name}", True)))
                step_invariants.append((n.name, compiler.compile_step_predicate(
                    parts[0], parts[1], f"sprop_{n.name}")))
            elif kind == "action":  # [A]_v holds on a step when A holds or v is unchanged
                box, benv = parts
                action_props.append((n.name, compiler.compile_action_property(
                    box, benv, f"aprop_{n.name}")))
            elif kind == "init":
                init_props.append((n.name, compiler.compile_predicate(parts[0], parts[1],
                                                                       f"init_{n.name}", True)))
            else:
                live_parts.append(parts)
        if live_parts:
            negation = ltl.FALSE
            for pe, penv in live_parts:
                negation = ltl.disj(negation, translator.formula(pe, penv, positive=False))
            liveness_checks.append((n.name, negation))
    fairness, assumed = [], ltl.TRUE
    if liveness_checks:
        fairness, assumed = translator.spec_fairness(fairness_parts)
        if cfg.symmetry is not None or cfg.view is not None:
            warnings.append("Declaring symmetry or a view during liveness checking is "
                            "dangerous. It might cause TLC to miss violations of the stated "
                            "liveness properties. Please check liveness without symmetry "
                            "defined.")
    live = [ltl.LivenessCheck(name, ltl.conj(assumed, neg), translator.atoms)
            for name, neg in liveness_checks]

    # VIEW / SYMMETRY: the key the seen set uses for a state.
    fingerprint = None
    view_fn = None
    if cfg.view is not None:
        view_body = body_of(cfg.view.name)
        view_fn = compiler.compile_predicate(*view_body, f"inv_{cfg.view.name}")
        view_fn.projection = _view_projection(compiler, *view_body)
    perms = None
    if cfg.symmetry is not None:
        sym_body, sym_env = body_of(cfg.symmetry.name)
        var = _variable_read(compiler, sym_body, sym_env, set())
        if var is not None:  # TLC evaluates SYMMETRY without a state: a config error
            raise ConfigError(f"In evaluation, the identifier {var.name} is either undefined "
                              f"or not an operator (SYMMETRY {cfg.symmetry.name} may not "
                              f"read a variable).", var.span)
        try:
            perms_value = compiler.compile_predicate(sym_body, sym_env, "symmetry")(None)
        except EvalError as e:
            raise CompileError(f"SYMMETRY {cfg.symmetry.name}: {e.message}") from None
        if not is_set(perms_value):  # TLC's words (it stops before the search)
            raise ConfigError(f"The symmetry operator must specify a set of functions "
                              f"(SYMMETRY {cfg.symmetry.name} is {show(perms_value)}).",
                              cfg.symmetry.span)
        perms = [_perm_dict(p) for p in as_set(perms_value)]
    if perms is not None:
        fingerprint = _symmetry_key(perms, view_fn, len(variables))
    elif view_fn is not None:
        fingerprint = view_fn

    assumptions = []
    for mod in _extends_closure(loaded):
        menv = Env(loaded.scopes[mod.name], compiler.root_frame)
        for unit in mod.units:
            if isinstance(unit, ast.Assume):
                assumptions.append((unit.expr.span, compiler.compile_predicate(
                    unit.expr, menv, "assume")))
    deadlock = cfg.check_deadlock if cfg.check_deadlock is not None else True
    if check_deadlock is not None:
        deadlock = check_deadlock and deadlock
    codegen_runtime.RUN.update(deadlock=deadlock, stats=None, live=None)

    def initial_states():
        out: list = []
        init_gen(None, out.append)
        return out

    kind_checked = _kind_checked(compiler, variables, init_e, next_e)
    # An action's successors are remembered per objects of the variables it reads; values of
    # the variables the kind analysis clears are shared by equality so that those objects recur.
    memoise = tuple(not c for c in kind_checked)
    model = Model(variables, initial_states, actions, invariants, action_props,
                  constraints, action_constraints, fingerprint, deadlock,
                  set_level=_set_level, watch_search=_watch_search,
                  mid_states=compiler.g["_CDOT"] if compiler.uses_cdot else None,
                  expand=compiler.compile_expand(actions, memoise) if actions else None,
                  no_actions=no_actions,
                  init_properties=init_props, liveness=live, fairness=fairness,
                  step_invariants=step_invariants, invariants_pure=invariants_pure,
                  step_constraints=step_constraints,
                  activate=_activation(deadlock),
                  kind_checked=kind_checked)
    if isinstance(fingerprint, _SymmetryKey):
        fingerprint.set_kinds_checked(model.kind_checked)
    postcondition = None
    if cfg.postcondition is not None:
        e, denv = body_of(cfg.postcondition.name)
        postcondition = (cfg.postcondition.name, e.span,
                         compiler.compile_predicate(e, denv, "postcondition"))
    alias = None
    if cfg.alias is not None:
        e, denv = body_of(cfg.alias.name)
        try:
            alias = (cfg.alias.name, cfg.alias.span,
                     compiler.compile_action_predicate(e, denv, "alias"))
        except CompileError as err:  # it only shapes the trace: check the model all the same
            where = f" at {err.span}" if err.span is not None else ""
            warnings.append(f"ALIAS {cfg.alias.name} ({cfg.alias.span}) cannot be evaluated by "
                            f"kipcheck ({err.message}{where}), so traces show the variables")
    witness_preds = [(n, _witness(n, scope, body_of, compiler)) for n in witnesses]
    return Built(model, compiler, assumptions, warnings, postcondition, alias, witness_preds)


def _witness(name: str, scope, body_of, compiler):
    """The predicate of witness `name`: an operator of the spec without parameters or primes
    (what TLC accepts as an invariant, since `~name` is the invariant a TLC user writes)."""
    sym = scope.symbols.get(name)
    if sym is None or not isinstance(sym.node, ast.OpDef):
        ops = sorted(n for n, s in scope.symbols.items() if isinstance(s.node, ast.OpDef)
                     and not s.node.params)
        import difflib

        close = difflib.get_close_matches(name, ops, n=1)
        hint = f"; did you mean {close[0]}?" if close else ""
        raise ConfigError(f"--witness {name}: no operator {name!r} in module {scope.name}"
                          f"{hint}")
    if sym.node.params:
        raise ConfigError(f"--witness {name}: {name} takes {len(sym.node.params)} "
                          f"parameter(s); a witness is a state predicate without parameters",
                          sym.node.span)
    e, denv = body_of(name)
    if compiler.expr(e, denv)[1] & NEXT:
        raise ConfigError(f"--witness {name}: {name} is not a state predicate (one with no "
                          f"primes or temporal operators)", sym.node.span)
    return compiler.compile_predicate(e, denv, f"wit_{name}", True)


def _kind_checked(compiler, variables, init_e, next_e) -> tuple:
    """Which variables need kind checks (see kinds.py); all of them if the analysis fails."""
    try:
        return kinds.checked_variables(compiler, variables, init_e, next_e)
    except Exception:  # noqa: BLE001 - the checks are the safe answer to anything unforeseen
        return tuple(True for _ in variables)


class NoState:
    """The state a POSTCONDITION is evaluated in: there is none after the search."""

    def __getitem__(self, i):
        raise EvalError("A postcondition is evaluated after the search, where there is no state "
                        "whose variables it could read")


def set_run_statistics(distinct: int, generated: int, left: int, depth: int,
                       seconds: float) -> None:
    """What TLCGet("stats") (and "distinct", "generated", ...) give once the search is over,
    in a POSTCONDITION; TLCGet("level") is 0 there, as in an ASSUME."""
    codegen_runtime.RUN["stats"] = {"queue": left, "distinct": distinct, "generated": generated,
                         "diameter": depth, "duration": int(seconds)}
    codegen_runtime.LEVEL[0] = 0


def _constant_definition(compiler, e, env) -> bool:
    """Is e a definition TLC evaluates once, before the search: constant level, an operator
    (not a bare number or string: those are left as written) whose value it can compute (an
    error is left to the search to report)."""
    if isinstance(e, (ast.Num, ast.Decimal, ast.Str)) or not _constant(compiler, e, env):
        return False
    try:
        compiler.compile_predicate(e, env, "constant_definition")(None)
    except (EvalError, AssertFailure, CompileError):
        return False
    return True


def _constant(compiler, e, env) -> bool:
    """Does e read no variable (SANY's constant level, as far as kipcheck can tell)?"""
    try:
        return compiler.is_constant(e, env)
    except CompileError:
        return False


def _constant_false(compiler, e, env) -> bool:
    """Is e a constant whose value is FALSE? (A temporal formula such as []TRUE is no
    predicate, and an evaluation error is left to the search: both are not.)"""
    try:
        return _constant(compiler, e, env) and _is_false(
            compiler.compile_predicate(e, env, "constant_false", True))
    except CompileError:
        return False


def _is_false(inv) -> bool:
    """A constant invariant's value; an evaluation error is left to the search to report."""
    try:
        return inv(None) is False
    except (EvalError, AssertFailure):
        return False


def _extends_closure(loaded: LoadedSpec) -> list:
    """The root module and the modules it EXTENDS (transitively), each once, extended modules
    before the modules that extend them: the modules whose ASSUMEs TLC checks, in its order.
    (TLC does not check the ASSUMEs of INSTANCEd modules.)"""
    out: list = []
    seen: set = set()

    def visit(mod):
        if mod.name in seen or mod.name in STANDARD:
            return
        seen.add(mod.name)
        for ext in mod.extends:
            if ext in loaded.modules.modules:
                visit(loaded.modules.modules[ext])
        out.append(mod)

    visit(loaded.root)
    return out


def _variable_read(compiler: Compiler, e, env, seen: set):
    """The first identifier in e (or in a definition it calls) that names a state variable,
    or None: what SYMMETRY, evaluated without a state, may not contain."""
    found = None

    def visit(n, nenv):
        nonlocal found
        if found is not None:
            return
        if isinstance(n, ast.Ident) and n.name not in nenv.locals:
            sym = nenv.scope.symbols.get(n.name)
            if sym is not None and sym.kind == "variable":
                found = n
                return
        if isinstance(n, (ast.Ident, ast.OpApp)):
            target = compiler.user_def(n, nenv)
            if target is not None and id(target[0]) not in seen:
                seen.add(id(target[0]))
                visit(target[0].body, target[1])
        if isinstance(n, ast.Node):
            for f in n.__dataclass_fields__:
                if f != "span":
                    visit(getattr(n, f), nenv)
        elif isinstance(n, tuple):
            for x in n:
                visit(x, nenv)

    visit(e, env)
    return found


def alias_trace(alias: tuple, states: list, loop: int | None, warnings: list[str],
                variables: list[str] = ()):
    """The ALIAS of each state of a counterexample, as TLC prints a trace through it: the
    alias evaluated on the state and its successor (the state the lasso steps back to after the
    last one, else the last state itself), with TLCGet("level") the state's position. Each is a
    record (field names, values). Where TLC would fall back to the variables (the alias fails
    or is no record), None is returned and a warning says why. TLCExt!Trace is the behaviour
    up to the state, as records of the variables."""
    name, span, fn = alias
    records = [make_fn(zip(variables, s, strict=True)) for s in states] if variables else []
    try:
        return _alias_records(name, span, fn, states, loop, warnings, records)
    finally:
        community.TRACE[0] = None


def _alias_records(name, span, fn, states, loop, warnings, records):
    out = []
    for i, s in enumerate(states):
        community.TRACE[0] = tuple(records[:i + 1]) if records else None
        if i + 1 < len(states):
            t = states[i + 1]
        else:
            t = states[loop] if loop is not None else s
        codegen_runtime.LEVEL[0] = i + 1
        try:
            v = fn(s, t)
        except (EvalError, AssertFailure) as e:
            warnings.append(f"ALIAS {name} ({span}) could not be evaluated on state {i + 1}, so "
                            f"the trace shows the variables: {e.message}")
            return None
        if type(v) is not Fn or not all(type(k) is str for k in v.keys):
            warnings.append(f"ALIAS {name} ({span}) is not a record on state {i + 1} but "
                            f"{show(v)}, so the trace shows the variables")
            return None
        out.append((v.keys, v.vals))
    if len({names for names, _ in out}) > 1:
        warnings.append(f"ALIAS {name} ({span}) gives records with different fields, so the "
                        f"trace shows the variables")
        return None
    return out


def _set_level(level: int) -> None:
    codegen_runtime.LEVEL[0] = level


def _watch_search(counts) -> None:
    """counts() gives the search's counts so far, for TLCGet during the search."""
    codegen_runtime.RUN["live"] = counts


def _cfg_span(cfg) -> Span:
    return Span(cfg.file, 1, 1)


def _flatten_conj(tr: temporal.Translator, e, env, out: list, depth=0):
    """Conjuncts of a formula, looking through zero-argument definitions."""
    if depth > 30:
        out.append((e, env))
        return
    if isinstance(e, ast.Junction) and e.kind == "and":
        for x in e.items:
            _flatten_conj(tr, x, env, out, depth + 1)
        return
    if isinstance(e, ast.OpApp) and e.op == "\\land":
        for x in e.args:
            _flatten_conj(tr, x, env, out, depth + 1)
        return
    target = None
    if isinstance(e, ast.Ident) and e.name not in env.locals:
        target = tr.c.user_def(e, env)  # follows the .cfg's `Name <- Other`
    elif isinstance(e, ast.InstanceRef) and not e.args and e.path[0][0] not in env.locals:
        target = tr.c.instance_def(e, env)  # I!P: P's definition in I's frame
    if target is not None and isinstance(target[0], ast.OpDef) and not target[0].params:
        body, denv = target[0].body, target[1]
        if tr.is_temporal(body, denv):
            _flatten_conj(tr, body, denv, out, depth + 1)
            return
    out.append((e, env))


def _split_spec(tr: temporal.Translator, spec, env):
    """(Init, Next or None, fairness conjuncts) of a SPECIFICATION."""
    name = spec.name
    sym = tr.c.root.symbols[tr.c.overrides.get(name, name)]
    body = sym.node.body
    conj: list = []
    _flatten_conj(tr, body, tr.c.def_env(sym, env), conj)
    init = nxt = None
    fairness = []
    for e, cenv in conj:
        if not tr.is_temporal(e, cenv) and _constant_false(tr.c, e, cenv):
            # TLC: a constant conjunct of the spec is evaluated first; FALSE makes the spec
            # trivially false (no behaviour to check), a configuration error
            raise ConfigError(f"The spec is trivially false because {_conjunct_name(e)} is "
                              "false.", spec.span)
        if isinstance(e, ast.OpApp) and e.op == "[]" and isinstance(e.args[0], ast.BoxAction):
            if nxt is not None:  # TLC's words (exit 151); both would have to hold
                raise ConfigError("The specification contains more than one conjunct of the "
                                  "form [][Next]_v, but TLC (and kipcheck) can handle only "
                                  "specifications with one next-state relation.", e.span)
            nxt = (e.args[0].action, cenv)
        elif tr.is_temporal(e, cenv):
            fairness.append((e, cenv))
        elif init is None:
            init = (e, cenv)
        else:
            init = (ast.OpApp("\\land", (init[0], e), span=e.span), cenv)
    return init, nxt, fairness


def _conjunct_name(e) -> str:
    """How TLC names a conjunct: a definition by its name, anything else by its text."""
    if isinstance(e, ast.Ident):
        return e.name
    span = getattr(e, "span", None)
    try:
        lines = Path(span.file).read_text(encoding="utf-8").splitlines()
        if span.line == span.end_line:
            return lines[span.line - 1][span.col - 1:span.end_col - 1]
    except (AttributeError, OSError, IndexError, UnicodeDecodeError):
        pass
    return f"the conjunct at {span}" if span is not None else "a conjunct"


def _property_parts(tr: temporal.Translator, e, env, name):
    """A PROPERTY's conjuncts, each sorted as TLC checks it: 'init' (a state predicate, on
    the initial states), 'invariant' ([]P), 'action' ([][A]_v) or 'liveness' (the rest).
    `name` is the .cfg's PROPERTY entry (a conjunct that is an action is its error, 151)."""
    conj: list = []
    _flatten_conj(tr, e, env, conj)
    for e, env in conj:
        if not tr.is_temporal(e, env):
            if mentions_prime(e, tr.c, env, set()):
                raise ConfigError(f"The property {name.name} is not correctly defined: a "
                                  "property is a state predicate or a temporal formula, not "
                                  "an action (for one that holds at every step, write "
                                  "[][A]_v)", name.span)
            yield "init", (e, env)
            continue
        if isinstance(e, ast.OpApp) and e.op == "[]" and "[]" not in env.locals:
            inner = e.args[0]
            if isinstance(inner, ast.BoxAction):
                yield "action", (inner, env)
                continue
            if (not tr.is_temporal(inner, env)
                    and not mentions_prime(inner, tr.c, env, set())):
                yield "invariant", (inner, env)
                continue
        yield "liveness", (e, env)


def _perm_dict(p) -> dict:
    if type(p) is Fn:
        return {k: v for k, v in zip(p[0], p[1], strict=True) if k != v}
    if type(p) is tuple:
        return {k: v for k, v in enumerate(p, 1) if k != v}
    raise CompileError("SYMMETRY must be a set of permutations")


def _group_closure(perms: list[dict], limit: int = 100_000) -> list[dict]:
    """The group the given permutations generate (TLC identifies states under all of it:
    SYMMETRY Permutations(A) \\cup Permutations(B) reduces like the product of the two)."""
    seen = {frozenset(p.items()) for p in perms}
    seen.add(frozenset())
    frontier = [dict(k) for k in seen]
    gens = [p for p in perms if p]
    while frontier:
        nxt = []
        for p in frontier:
            for g in gens:
                comp = {}
                for k in set(p) | set(g):
                    v = g.get(p.get(k, k), p.get(k, k))
                    if v != k:
                        comp[k] = v
                key = frozenset(comp.items())
                if key not in seen:
                    seen.add(key)
                    nxt.append(comp)
                    if len(seen) > limit:
                        raise CompileError(f"SYMMETRY generates more than {limit} permutations")
        frontier = nxt
    return [dict(k) for k in seen if k]


class _SymmetryKey:
    """The seen-set key of a state under SYMMETRY: TLC's representative of its orbit, the
    image least in TLC's order of values (variable by variable), then the VIEW of that image
    if there is one. Any fixed member identifies the same states, but with a VIEW the choice
    shows in the counts, and TLC's order is the same in every process (Python's hash() of a
    string is not), so fingerprints of keys agree between workers.

    Work is cached by object identity, since states share most sub-values with their parent:
    each value's images and their order keys, and each sub-value's support (the model values
    in it), so that a permutation that moves nothing in a sub-value returns it untouched.
    """

    def __init__(self, perms: list[dict], view_fn, n_vars: int):
        self.perms = _group_closure(perms)
        self.moved = [frozenset(p) for p in self.perms]
        self.view_fn = view_fn
        self.images = [{} for _ in self.perms]  # per permutation: sub-value id -> image
        self.values: dict = {}  # value id -> (value, {perm: (image, order key)}, support)
        # per variable: value -> the same entry (for equal values built afresh)
        self.by_value: list = [{} for _ in range(n_vars)]
        self.all_candidates = (-1, *range(len(self.perms)))
        self.cand_sets: dict = {}  # one tuple object per candidate set seen
        self.supports: dict = {}  # sub-value id -> (value, model values in it)
        # state -> (that state, its key): duplicates are generated far more often. A hit
        # counts only for the same state kind for kind (Python has TRUE == 1), unless no
        # variable can hold such values (`kinds_exact`, set from Model.kind_checked).
        self.keys: dict = {}
        self.kinds_exact = False
        # per variable: can two Python-equal values of it differ in kind? (Model.kind_checked)
        self.vars_checked: tuple = (True,) * n_vars

    def set_kinds_checked(self, checked: tuple) -> None:
        """Which variables can hold values Python equates across kinds (Model.kind_checked)."""
        self.vars_checked = tuple(checked)
        self.kinds_exact = not any(checked)

    def _support(self, v) -> frozenset:
        t = type(v)
        if t is ModelValue:
            return frozenset((v,))
        if t is not tuple and t is not frozenset and t is not Fn:
            return _NOTHING
        e = self.supports.get(id(v))
        if e is not None and e[0] is v:
            return e[1]
        if t is Fn:
            sup = _NOTHING.union(*[self._support(x) for x in v[0]],
                                 *[self._support(x) for x in v[1]])
        else:
            sup = _NOTHING.union(*[self._support(x) for x in v])
        self.supports[id(v)] = (v, sup)
        return sup

    def _permute(self, v, perm: dict, moved: frozenset, cache: dict):
        t = type(v)
        if t is ModelValue:
            return perm.get(v, v)
        if t is not tuple and t is not frozenset and t is not Fn:
            return v
        e = cache.get(id(v))
        if e is not None and e[0] is v:
            return e[1]
        if moved.isdisjoint(self._support(v)):
            cache[id(v)] = (v, v)
            return v
        if t is Fn:
            keys, vals = v
            nkeys = [self._permute(k, perm, moved, cache) for k in keys]
            nvals = [self._permute(x, perm, moved, cache) for x in vals]
            if all(a is b for a, b in zip(nkeys, keys, strict=True)):
                out = Fn((keys, tuple(nvals)))
            else:
                out = make_fn(zip(nkeys, nvals, strict=True))
        else:
            out = t([self._permute(x, perm, moved, cache) for x in v])
        cache[id(v)] = (v, out)
        return out

    def _entry(self, v, var: int):
        """The cache entry of v, a value of variable number var: [v, {perm: (image, its order
        key)}, support, v's order key or None, {candidates: the ones whose image of v is
        least}]."""
        e = self.values.get(id(v))
        if e is None or e[0] is not v:
            # A successor's values are mostly fresh objects equal to values met before: their
            # images and order keys are found by value, kind for kind (TLC has TRUE # 1),
            # unless the kind analysis says the variable cannot hold values Python equates.
            table = self.by_value[var]
            e = table.get(v)
            if e is None or self.vars_checked[var] and not same_kinds(e[0], v):
                e = [v, {}, self._support(v), None, {}]
                if len(table) > 500_000:
                    table.clear()
                table[v] = e
                self.values[id(v)] = e
        return e

    def _image(self, v, var: int, i: int):
        """v's image (a value of variable number var) under permutation i (-1: the
        identity), cached per value."""
        if i < 0:
            return v
        return self._image_and_key(self._entry(v, var), i)[0]

    def _own_key(self, e):
        if e[3] is None:
            e[3] = tlc_key(e[0])
        return e[3]

    def _image_and_key(self, e, i: int):
        img = e[1].get(i)
        if img is None:
            v, moved = e[0], self.moved[i]
            if moved.isdisjoint(e[2]):
                img = (v, self._own_key(e))
            else:
                image = self._permute(v, self.perms[i], moved, self.images[i])
                img = (image, tlc_key(image))
            e[1][i] = img
        return img

    def _least(self, v, var: int, cands: tuple) -> tuple:
        """The candidate permutations whose image of v (of variable number var) is least in
        TLC's order (cached per value and candidate set: a state's first variables rarely
        change)."""
        e = self._entry(v, var)
        hit = e[4].get(cands)
        if hit is not None:
            return hit
        keys = [self._own_key(e) if i < 0 else self._image_and_key(e, i)[1] for i in cands]
        least = min(keys)
        out = tuple([i for i, k in zip(cands, keys, strict=True) if k == least])
        out = self.cand_sets.setdefault(out, out)
        e[4][cands] = out
        return out

    def __call__(self, state):
        known = self.keys.get(state)
        if known is not None and (known[0] is state or self.kinds_exact
                                  or same_kinds(known[0], state)):
            return known[1]
        key = self._canonical(state)
        if len(self.keys) > 2_000_000:
            self.keys.clear()
        self.keys[state] = (state, key)
        return key

    def _canonical(self, state):
        """The orbit member least in TLC's order, variable by variable: most permutations
        drop out at the first variables (which rarely change, so their images are cached),
        and later variables are permuted only by the few that remain."""
        if len(self.values) > 500_000 or len(self.supports) > 2_000_000:
            self.values.clear()
            for table in self.by_value:
                table.clear()
            self.supports.clear()
            for cache in self.images:
                cache.clear()
        cands = self.all_candidates
        for var, v in enumerate(state):
            if len(cands) == 1:
                break
            cands = self._least(v, var, cands)
        best = cands[0]  # all remaining candidates give the same image
        image = state if best < 0 else tuple([self._image(v, var, best)
                                               for var, v in enumerate(state)])
        return image if self.view_fn is None else self.view_fn(image)


_NOTHING = frozenset()


def _view_projection(compiler, body, env, depth: int = 0) -> tuple | None:
    """The sorted distinct indices of the variables a VIEW is a tuple of (`<<x, y>>`, also
    through definitions without arguments, or one variable), else None."""
    if depth > 20:
        return None
    target = compiler.user_def(body, env)
    if target is not None:
        return None if target[2] else _view_projection(compiler, target[0].body, target[1],
                                                         depth + 1)
    elems = body.elems if isinstance(body, ast.Tuple) else (body,)
    found = set()
    for x in elems:
        name = compiler.var_of(x.name, env) if isinstance(x, ast.Ident) else None
        if name is None:
            return None
        found.add(compiler.var_index[name])
    return tuple(sorted(found))


def _symmetry_key(perms: list[dict], view_fn, n_vars: int):
    return _SymmetryKey(perms, view_fn, n_vars)
