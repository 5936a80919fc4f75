"""Incremental invariant checking: an invariant compiled for a successor s of a state p that
satisfied it skips each conjunct that reads only variables s shares with p. `state_reads` says
which variables an expression reads, conservatively."""
from __future__ import annotations

import re

from ..frontend import ast
from .codegen_runtime import SelfStep
from .natives import BOOL_OPERANDS, IMPURE_OPS, READ_OPS, STANDARD
from .runtime import B_AND_P, B_AND_Q, B_VALUE
from .scope import Env, pyname

_VAR_IN_CONST = re.compile(r"\(?s\[(\d+)\] in (_k\d+)\)?")  # a variable in a constant set


class IncrementalMixin:
    """Compiler part: invariants checked on a successor, and the variables an expression
    reads."""

    def compile_step_predicate(self, e, env: Env | None = None, name: str = "spred"):
        """An invariant checked on a successor s of a state p that satisfied it: Python
        function (s, p) -> value. A conjunct that reads only variables whose values s shares
        with p (the same objects) held on p, so it holds on s and is not evaluated again;
        every other conjunct is evaluated as compile_predicate's code does."""
        env = env or self.root_env()
        code = self._step_conjunct(e, env, B_VALUE)
        return self._define(f"def {{name}}(s, p, t=None):\n"
                            f"    return {code}{self._tag(e.span)}\n", name)

    def compile_action_property(self, box, env: Env, name: str = "aprop"):
        """[A]_v on a step s -> t: Python function (s, t) -> value. Where t keeps the value of
        every variable A reads primed, A(s, t) is A(s, s), a function of s alone: evaluated
        once per state (its successors are checked one after another) and remembered."""
        from .analysis import subscripted_action

        reads = self.primed_reads(box.action, env) if type(box) is ast.BoxAction else None
        if reads is None:
            return self.compile_action_predicate(subscripted_action(box), env, name)
        whys = BOOL_OPERANDS["\\lor"]
        act, _ = self.cond(box.action, env, whys[0])
        same, _ = self.cond(ast.OpApp("UNCHANGED", (box.sub,), span=box.sub.span), env,
                            whys[1])
        tag = self._tag(box.span)
        moved = self._define(f"def {{name}}(s, t):\n    return {act}{tag}\n", f"{name}_step")
        still = pyname("self", name, next(self._counter))
        self.g[still] = SelfStep(moved)
        kept = " and ".join(f"t[{i}] is s[{i}]" for i in sorted(reads)) or "True"
        return self._define(
            f"def {{name}}(s, t):\n    return (({still}(s) if {kept} else "
            f"{moved.__name__}(s, t)) or {same}){tag}\n", name)

    def _step_conjunct(self, e, env: Env, why: int, depth: int = 0) -> str:
        if type(e) is ast.Junction and e.kind == "and":
            parts = [self._step_conjunct(x, env, B_AND_P if i == 0 else B_AND_Q, depth)
                     for i, x in enumerate(e.items)]
            return "(" + " and ".join(parts) + ")"
        if (type(e) is ast.OpApp and e.op == "\\land" and "\\land" not in env.locals
                and env.scope.symbols.get("\\land") is None):
            whys = BOOL_OPERANDS["\\land"]
            return (f"({self._step_conjunct(e.args[0], env, whys[0], depth)} and "
                    f"{self._step_conjunct(e.args[1], env, whys[1], depth)})")
        # A definition whose body is a conjunction (TypeOK == /\ ..., M!Inv): its conjuncts
        inner = self._conjunct_body(e, env) if depth < 20 else None
        if inner is not None and (type(inner[0]) is ast.Junction and inner[0].kind == "and"
                                  or self._conjunct_body(*inner) is not None):
            return self._step_conjunct(inner[0], inner[1], why, depth + 1)
        since = self._forall_since(e, env, why)
        if since is not None:
            return since
        code, _ = self.cond(e, env, why)
        reads = self.state_reads(e, env)
        if reads is None or code in ("True", "False"):
            return code
        if not reads:
            return "True"  # reads no variable: it held on the initial states
        m = _VAR_IN_CONST.fullmatch(code)
        if m is not None and hasattr(self.g.get(m[2]), "contains_since"):
            # v \in [S -> T] (a record set, Seq(S)): only what v's value does not share
            # with the parent's, which was in the set, is tested
            return f"member_since(s[{m[1]}], p[{m[1]}], {m[2]})"
        same = " and ".join(f"s[{i}] is p[{i}]" for i in sorted(reads))
        return f"({same} or {code})"

    def _forall_since(self, e, env: Env, why: int) -> str | None:
        """`\\A x \\in v : P(x)` with v a variable and P reading no variable: on a successor,
        P is evaluated only on the elements of v's value that are not elements of the
        parent's (which held P), by the same code as the whole quantifier. None when e is not
        of that shape. One element per binding only: `\\A p, q \\in v` ranges over pairs, and a
        pair of an old and a new element is not a pair of new ones."""
        if type(e) is not ast.Quant or e.kind != "A" or len(e.bounds) != 1:
            return None
        b = e.bounds[0]
        if type(b.domain) is not ast.Ident or (len(b.names) != 1 and not b.tuple):
            return None
        var = self.var_of(b.domain.name, env)
        if var is None or self.state_reads(e.body, env) != set():
            return None
        i = self.var_index[var]
        n = next(self._counter)
        name, py = f"$added{n}", pyname("v", f"added_{var}", n)
        added = ast.Bound(b.names, b.tuple, ast.Ident(name, span=b.domain.span), span=b.span)
        code, _ = self.cond(ast.Quant("A", (added,), e.body, span=e.span),
                            env.bind({name: ("val", py)}), why)
        return f"(s[{i}] is p[{i}] or (lambda {py}: {code})(added_since(s[{i}], p[{i}])))"

    def state_reads(self, e, env: Env) -> set[int] | None:
        """The indices of the state variables e reads, also through the definitions it calls,
        an unparameterised INSTANCE's substitutions and a .cfg `C <- Def`, or None when that is
        not sure (a parameterised instance, an operator constant, anything impure such as
        RandomElement or TLCGet, a prime): conservative, so that a conjunct is skipped only
        when it surely reads nothing that changed."""
        found = self._reads(e, env, False)
        return None if found is None else found[0]

    def _conjunct_body(self, e, env: Env):
        """(body, env) when e names a definition without arguments (also M!Op of an instance
        without parameters), so that its conjuncts can be skipped one by one; else None."""
        if type(e) is ast.InstanceRef:
            if e.args or any(a for _, a in e.path) or e.path[0][0] in env.locals:
                return None
            found = self.instance_def(e, env)
        else:
            found = self.user_def(e, env)
            if found is not None and found[2]:
                return None
        if found is None or not isinstance(found[0], ast.OpDef) or found[0].params:
            return None
        return found[0].body, found[1]

    def primed_reads(self, e, env: Env) -> set[int] | None:
        """The indices of the variables an action e reads primed (x', UNCHANGED x, also
        through definitions), or None when that is not sure (as state_reads; ENABLED, a
        nested action or a temporal operator too)."""
        found = self._reads(e, env, True)
        return None if found is None else found[1]

    def action_reads(self, e, env: Env) -> set[int] | None:
        """The variables an action's successors depend on: what it reads unprimed, and what it
        keeps UNCHANGED while also priming it elsewhere (`x' = 5 /\\ UNCHANGED x` compares
        the old value); a variable only kept UNCHANGED is copied, not read. None: not sure."""
        found = self._reads(e, env, True, False)
        if found is None:
            return None
        reads, primed, kept = found
        return reads | (kept & primed)

    def _reads(self, e, env: Env, primes: bool, unchanged_reads: bool = True):
        """(unprimed, primed) variable indices e reads, or None when not sure; primes: whether
        x' may occur; unchanged_reads: whether UNCHANGED x counts as reading x both ways (else
        the variables under UNCHANGED are a third set: (unprimed, primed, kept))."""
        reads: set[int] = set()
        primed: set[int] = set()
        kept: set[int] = set()
        seen: set = set()
        frames: list = []  # the instance frames visited, alive while their ids are in seen
        index = {v: i for i, v in enumerate(self.variables)}
        into = {False: reads, True: primed, "kept": kept}

        def visit(n, nenv, under) -> bool:
            t = type(n)
            if t is tuple:
                return all(visit(x, nenv, under) for x in n)
            if not isinstance(n, ast.Node):
                return True
            if t is ast.InstanceRef and not primes:  # M!Op: its definition in M's frame
                if any(a for _, a in n.path) or n.path[0][0] in nenv.locals:
                    return False  # a parameterised instance: its arguments are code
                found = self.instance_def(n, nenv)
                if found is None or not isinstance(found[0], ast.OpDef):
                    return False
                return visit_def(found[0], found[1], under) and visit(n.args, nenv, under)
            if t is ast.InstanceRef or t is ast.Fairness or t is ast.BoxAction \
                    or t is ast.AngleAction:
                return False
            if t is ast.Ident or t is ast.OpApp:
                name = n.name if t is ast.Ident else n.op
                if name in ("'", "UNCHANGED") and t is ast.OpApp and primes \
                        and name not in nenv.locals and nenv.scope.symbols.get(name) is None:
                    if name == "'":
                        return visit(n.args, nenv, True if under is False else under)
                    if not unchanged_reads:
                        return visit(n.args, nenv, "kept" if under is False else under)
                    return visit(n.args, nenv, True) and visit(n.args, nenv, under)
                if name in ("'", "ENABLED", "UNCHANGED", "[]", "<>", "~>", "-+->", "\\cdot"):
                    return False
                sym = None if name in nenv.locals else nenv.scope.symbols.get(name)
                if under is not False and (
                        name in nenv.locals or (sym is None and t is ast.Ident) or (
                        sym is not None and sym.kind in ("bound", "param"))):
                    return False  # a parameter or LET name primed: its expression is elsewhere
                if sym is not None and not self._reads_symbol(
                        sym, n, nenv, index, into[under],
                        lambda d, denv: visit(d, denv, under),
                        lambda d, denv: visit_def(d, denv, under), not primes):
                    return False
            for f in n.__dataclass_fields__:
                if f != "span" and not visit(getattr(n, f), nenv, under):
                    return False
            return True

        def visit_def(d, denv, under) -> bool:
            """A definition's reads, once per definition, frame and priming."""
            frames.append(denv.frame)
            key = (id(d), id(denv.frame), under)
            if key in seen:
                return True
            seen.add(key)
            return visit(d, denv, under)

        if not visit(e, env, False):
            return None
        return (reads, primed) if unchanged_reads else (reads, primed, kept)

    def _reads_symbol(self, sym, n, nenv: Env, index: dict, reads: set, visit, visit_def,
                      frames_ok: bool = False) -> bool:
        """state_reads for one name: False when its reads are not sure. visit(e, env): an
        expression's reads; visit_def(d, env): a definition's, once. frames_ok: a name in an
        instance's frame reads what its substitution reads (state predicates only)."""
        if sym.kind in ("bound", "param"):
            return True
        inside = nenv.frame is not self.root_frame
        if inside and not (frames_ok and nenv.frame is not self.enabled_frame):
            return False
        if sym.kind in ("variable", "constant") and inside:
            sub = nenv.frame.subst.get(sym.name)
            if sub is None or (sym.kind == "constant" and sym.arity):
                return False
            return visit(sub[0], sub[1])  # `x <- e`, or x itself one frame out
        if sym.kind == "variable":
            if sym.name not in index:
                return False
            reads.add(index[sym.name])
            return True
        if sym.kind == "constant":
            target = self.overrides.get(sym.name)  # `C <- Def` in the .cfg: what Def reads
            if sym.arity or target is None:
                return not sym.arity
            tsym = self.root.symbols.get(target)
            if tsym is None or not isinstance(tsym.node, ast.OpDef) or tsym.node.params:
                return False
            return visit_def(tsym.node, self.def_env(tsym, self.root_env()))
        if sym.kind not in ("operator", "function"):
            return False
        if sym.module in STANDARD:
            key = (sym.module, sym.name)
            return key not in IMPURE_OPS and key not in READ_OPS
        if self.replacement(sym) is not None:
            return False
        target = self.user_def(n, nenv) if sym.kind == "operator" else None
        if target is None:
            if sym.kind != "function" or not isinstance(sym.node, ast.FuncDef):
                return False
            target = (sym.node, self.def_env(sym, nenv))
        d, denv = target[0], target[1]
        if denv.frame is not self.root_frame and not (
                frames_ok and denv.frame is not self.enabled_frame):
            return False
        return visit_def(d, denv)
