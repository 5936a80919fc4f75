"""The `kipcheck` command line: a thin layer over the Python API.

Errors in user input print like a compiler's (file:line:col, the line, a caret) and exit with
TLC's codes (150 spec, 151 config); a Python traceback is never shown for bad input. Every exit
code comes from checker.verdicts.
"""
from __future__ import annotations

import atexit
import gc
import signal
import sys
import time
from pathlib import Path

import click

from . import verdicts as V
from .frontend import KipcheckError, default_config, load_spec

# `kipcheck check --help` ends with the exit codes (\b keeps click from rewrapping them).
_EXIT_CODES = "\b\nExit codes:\n" + "\n".join(
    f"  {code:>3}  {meaning}" for code, meaning in sorted(V.MEANINGS.items()))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kipcheck")
def main() -> None:
    """kipcheck: an explicit-state model checker for TLA+ specs."""
    # The interpreter's last garbage collection walks every object a search left (seconds for
    # a medium model, nothing to find: states and values form no cycles); frozen objects are
    # not walked, and the process ends right after.
    atexit.register(gc.freeze)


@main.command()
@click.argument("spec", type=click.Path(dir_okay=False))
@click.option("--config", "-c", "config", type=click.Path(dir_okay=False),
              help="TLC .cfg file (default: SPEC with .cfg, if it exists).")
@click.option("--lib", multiple=True, type=click.Path(file_okay=False),
              help="Directory to look for EXTENDS/INSTANCE modules in (repeatable); "
                   "KIPCHECK_PATH adds more.")
def parse(spec: str, config: str | None, lib: tuple[str, ...]) -> None:
    """Parse and check SPEC (and its config) without running it; print a summary."""
    if config is None:
        config = default_config(spec)
    from .api import preflight

    try:
        loaded = load_spec(spec, config, lib)
        # with a .cfg, what `check` would refuse before searching is refused here too
        failed = preflight(spec, config, lib) if loaded.config is not None else None
    except KipcheckError as e:
        click.echo(e.format(), err=True)
        sys.exit(e.exit_code)
    if failed is not None:
        click.echo(f"Error: {failed.message}", err=True)
        sys.exit(failed.exit_code)
    click.echo(summary(loaded))


@main.command(name="compile")
@click.argument("spec", type=click.Path(dir_okay=False))
@click.option("--config", "-c", "config", type=click.Path(dir_okay=False),
              help="TLC .cfg file (default: SPEC with .cfg, if it exists).")
@click.option("-D", "defines", multiple=True, metavar="NAME=VALUE",
              help="Override a constant (value in .cfg syntax); repeatable.")
@click.option("--lib", multiple=True, type=click.Path(file_okay=False),
              help="Directory to look for EXTENDS/INSTANCE modules in (repeatable).")
@click.option("--action", "actions", multiple=True, metavar="NAME",
              help="Print only this action's functions (its instances) and the expand "
                   "function; repeatable.")
def compile_(spec, config, defines, lib, actions) -> None:
    """Print the Python kipcheck generates for SPEC: what each action, invariant and property
    compiles to (for reading and profiling; a `# @span:N` comment ties a line to the spec)."""
    from .api import EVAL_ERRORS, error_message, generated_code, parse_constant_overrides

    try:
        spec, config, lib = _manifest_model(spec, config, lib)
        constants = parse_constant_overrides(list(defines))
        sources = generated_code(spec, config, constants, lib, actions)
    except KipcheckError as e:
        click.echo(e.format(), err=True)
        sys.exit(e.exit_code)
    except ValueError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(V.EXIT_USAGE)
    except EVAL_ERRORS as e:  # a constant expression failed while compiling
        click.echo(f"error: {error_message(e)}", err=True)
        sys.exit(V.EXIT_EVAL_ERROR)
    for name, src in sources:
        click.echo(f"# ---- {name}\n{src.rstrip()}\n")


@main.command(epilog=_EXIT_CODES)
@click.argument("spec", type=click.Path(dir_okay=False))
@click.option("--config", "-c", "config", type=click.Path(dir_okay=False),
              help="TLC .cfg file (default: SPEC with .cfg, if it exists).")
@click.option("-D", "defines", multiple=True, metavar="NAME=VALUE",
              help="Override a constant of the .cfg (value in .cfg syntax), e.g. -D N=4.")
@click.option("--size", "size", multiple=True, metavar="KNOB=N[,KNOB=N...]",
              help="Set the model's size knobs (`kipcheck models --sizes` lists them), e.g. "
                   "--size brokers=2,dirs=2; -D still applies on top.")
@click.option("--no-deadlock", is_flag=True, help="Do not report deadlocks.")
@click.option("--max-depth", type=int, default=None, help="Explore at most this many levels.")
@click.option("--report-json", type=click.Path(dir_okay=False),
              help="Write the verdict and statistics as JSON to this file.")
@click.option("--lib", multiple=True, type=click.Path(file_okay=False),
              help="Directory to look for EXTENDS/INSTANCE modules in (repeatable).")
@click.option("--fingerprints", is_flag=True, hidden=True,
              help="Kept for old scripts: fingerprints are the default.")
@click.option("--exact-states", is_flag=True,
              help="Keep whole states in the seen set instead of 64-bit fingerprints (no "
                   "collisions, far more memory; for debugging).")
@click.option("--workers", default="1", show_default=True, metavar="N|auto",
              help="Explore in N worker processes (auto: one per core). Liveness and "
                   "--dump-graph run in one process.")
@click.option("--backend", type=click.Choice(["local", "spark"]), default="local",
              show_default=True,
              help="Where to search: this machine (--workers), or a Spark cluster (needs "
                   "pyspark and Java; no liveness or --dump-graph).")
@click.option("--spark-master", default="local[*]", show_default=True, metavar="URL",
              help="The Spark master with --backend spark (local[N], spark://, yarn, k8s://).")
@click.option("--partitions", type=click.IntRange(min=1), default=None, metavar="P",
              help="Partitions of the states with --backend spark (default: 2 per core).")
@click.option("--driver-states", type=click.IntRange(min=0), default=20_000, show_default=True,
              metavar="N", help="With --backend spark, levels of at most N states run in the "
                                "driver (Spark's fixed cost per level outweighs them).")
@click.option("--spark-conf", "spark_conf", multiple=True, metavar="KEY=VALUE",
              help="A Spark setting with --backend spark (repeatable), e.g. "
                   "spark.executor.memory=8g.")
@click.option("--checkpoint", "checkpoint_dir", type=click.Path(file_okay=False),
              metavar="DIR",
              help="Write a snapshot of the search into DIR every --checkpoint-minutes and when "
                   "interrupted (Ctrl-C, SIGTERM), to resume with --recover DIR.")
@click.option("--checkpoint-minutes", type=click.FloatRange(min=0, min_open=True),
              default=30.0, show_default=True,
              metavar="K", help="Minutes between two snapshots (fractions allowed).")
@click.option("--recover", "recover_dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Resume the search from the newest snapshot in DIR (same spec, .cfg, "
                   "constants and options, same --workers); keeps writing snapshots there "
                   "unless --checkpoint names another directory.")
@click.option("--frontier-states", type=click.IntRange(min=1), default=1_000_000,
              show_default=True, metavar="N",
              help="States waiting to be expanded that stay in memory; the rest wait on disk, "
                   "in order (one process; --workers keep theirs in memory).")
@click.option("--max-set-size", type=click.IntRange(min=1), default=1_000_000,
              show_default=True, metavar="N",
              help="A set map or filter that builds more elements stops with TLC's evaluation "
                   "error (TLC's -maxSetSize).")
@click.option("--trace-out", type=click.Path(file_okay=False),
              help="Write a counterexample into this directory in every format: ITF JSON, TLC "
                   "JSON, text, DOT, GraphML, HTML.")
@click.option("--lanes", "lanes_file", type=click.Path(dir_okay=False),
              help="Lanes of the HTML sequence diagram (default: CFG.lanes.json or "
                   "SPEC.lanes.json, if one exists).")
@click.option("--junit-xml", "junit", type=click.Path(dir_okay=False),
              help="Write a JUnit XML report: one test case per checked property.")
@click.option("--dump-graph", type=click.Path(dir_okay=False),
              help="Write the explored state graph (small models) as DOT (.dot) or GraphML "
                   "(.graphml).")
@click.option("--witness", "witnesses", multiple=True, metavar="NAME",
              help="A state predicate of the spec that some reachable state must satisfy "
                   "(repeatable): reported reached (at which depth) or not; one not reached "
                   "exits 5. TLC's way: the invariant ~NAME, expected to fail. One process.")
@click.option("--witness-trace", is_flag=True,
              help="Print the shortest trace to each reached witness.")
def check(spec, config, defines, size, no_deadlock, max_depth, report_json, lib,
          fingerprints, exact_states, workers, backend, spark_master, partitions, driver_states,
          spark_conf,
          checkpoint_dir, checkpoint_minutes, recover_dir, frontier_states, max_set_size,
          trace_out, lanes_file, junit, dump_graph, witnesses, witness_trace) -> None:
    """Model-check SPEC: explore every reachable state and check the .cfg's properties."""
    from .api import check as run_check
    from .api import error_report, parse_constant_overrides, stop_report
    from .traces.outputs import CheckOutputs, LanesError
    from .traces.text import format_outcome

    try:
        spec, config, lib = _manifest_model(spec, config, lib)
    except KipcheckError as e:
        _stop_on_error(e, report_json, error_report(e, spec, config), None)
    if config is None:
        config = default_config(spec)
    nworkers = _workers(workers)
    spark = (_spark_options(spark_master, partitions, driver_states, spark_conf)
             if backend == "spark" else None)
    try:
        outputs = CheckOutputs(spec, config, trace_out, lanes_file, junit, dump_graph,
                               no_deadlock)
    except (LanesError, ValueError) as e:
        click.echo(e.format() if isinstance(e, LanesError) else f"error: {e}", err=True)
        sys.exit(V.EXIT_USAGE)
    bar = _progress_bar()
    signal.signal(signal.SIGTERM, _interrupt)  # stop as Ctrl-C does: statistics, exit 130
    try:
        constants = parse_constant_overrides(list(defines))
        if size:
            constants = _with_sizes(spec, config, ",".join(size), constants)
        outcome = run_check(spec, config, constants, lib, False if no_deadlock else None,
                            max_depth, progress=bar, on_edge=outputs.graph,
                            exact_states=exact_states, workers=nworkers,
                            checkpoint=checkpoint_dir, checkpoint_minutes=checkpoint_minutes,
                            recover=recover_dir, frontier_states=frontier_states,
                            backend=backend, spark=spark, max_set_size=max_set_size,
                            witnesses=tuple(dict.fromkeys(witnesses)))
    except KipcheckError as e:
        _stop_on_error(e, report_json, error_report(e, spec, config), outputs)
    except KeyboardInterrupt:
        message = "Interrupted: the check was stopped before it finished."
        click.echo(message, err=True)
        report = stop_report(V.INTERRUPTED, message, spec, config)
        for line in _write_report(report_json, report) + outputs.write_error(message):
            click.echo(line, err=True)
        sys.exit(V.EXIT_INTERRUPTED)
    finally:
        if bar is not None:
            bar.close()
    click.echo(format_outcome(outcome, witness_trace))
    errors = _write_report(report_json, outcome.report(spec, config))
    notes, more = outputs.write(outcome)
    for line in notes + errors + more:
        click.echo(line, err=True)
    sys.exit(_exit_code(outcome.exit_code, errors + more))


_SIMULATE_EXIT = _EXIT_CODES + ("\n\nA violation exits with the code `check` uses for it; "
                                 "no violation exits 0, which is no proof.")


@main.command(epilog=_SIMULATE_EXIT)
@click.argument("spec", type=click.Path(dir_okay=False))
@click.option("--config", "-c", "config", type=click.Path(dir_okay=False),
              help="TLC .cfg file (default: SPEC with .cfg, if it exists).")
@click.option("-D", "defines", multiple=True, metavar="NAME=VALUE",
              help="Override a constant of the .cfg (value in .cfg syntax), e.g. -D N=4.")
@click.option("--size", "size", multiple=True, metavar="KNOB=N[,KNOB=N...]",
              help="Set the model's size knobs (`kipcheck models --sizes` lists them).")
@click.option("--depth", type=click.IntRange(min=1), default=100, show_default=True,
              help="Steps per behaviour at most (TLC's -depth).")
@click.option("--traces", type=click.IntRange(min=1), default=None,
              help="Run this many behaviours (default 1000 when --budget is not given).")
@click.option("--budget", metavar="DURATION",
              help="Run behaviours for this long (90s, 10m, 1h); with --traces, whichever "
                   "comes first.")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Random seed: the same seed gives the same behaviours (default: a random "
                   "one, printed).")
@click.option("--workers", default="1", show_default=True, metavar="N|auto",
              help="Run behaviours in N worker processes (the same behaviours and figures "
                   "as one for a given --traces).")
@click.option("--no-shrink", is_flag=True, help="Report the counterexample as found.")
@click.option("--no-deadlock", is_flag=True, help="Do not report deadlocks.")
@click.option("--report-json", type=click.Path(dir_okay=False),
              help="Write the verdict and the simulation's figures as JSON to this file.")
@click.option("--trace-out", type=click.Path(file_okay=False),
              help="Write a counterexample into this directory in every format: ITF JSON, TLC "
                   "JSON, text, DOT, GraphML, HTML.")
@click.option("--lanes", "lanes_file", type=click.Path(dir_okay=False),
              help="Lanes of the HTML sequence diagram (default: CFG.lanes.json or "
                   "SPEC.lanes.json, if one exists).")
@click.option("--junit-xml", "junit", type=click.Path(dir_okay=False),
              help="Write a JUnit XML report: one test case per checked property.")
@click.option("--lib", multiple=True, type=click.Path(file_okay=False),
              help="Directory to look for EXTENDS/INSTANCE modules in (repeatable).")
def simulate(spec, config, defines, size, depth, traces, budget, seed, workers, no_shrink,
             no_deadlock, report_json, trace_out, lanes_file, junit, lib) -> None:
    """Random simulation of SPEC (TLC's -simulate): random behaviours from the initial states,
    checking invariants and action properties on every step. A counterexample is shrunk to
    the shortest one found. Temporal (liveness) properties are not checked."""
    import random

    from .api import error_report, parse_constant_overrides, stop_report
    from .api import simulate as run_simulation
    from .sweep import parse_budget
    from .traces.outputs import CheckOutputs, LanesError
    from .traces.simreport import format_simulation

    try:
        seconds = parse_budget(budget)
    except ValueError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(V.EXIT_USAGE)
    if traces is None and seconds is None:
        traces = 1000
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 31)
    try:
        spec, config, lib = _manifest_model(spec, config, lib)
    except KipcheckError as e:
        _stop_on_error(e, report_json, error_report(e, spec, config), None)
    if config is None:
        config = default_config(spec)
    nworkers = _workers(workers)
    try:
        outputs = CheckOutputs(spec, config, trace_out, lanes_file, junit, None, no_deadlock)
    except (LanesError, ValueError) as e:
        click.echo(e.format() if isinstance(e, LanesError) else f"error: {e}", err=True)
        sys.exit(V.EXIT_USAGE)
    signal.signal(signal.SIGTERM, _interrupt)  # stop as Ctrl-C does: figures, exit 130
    click.echo(f"Simulating with seed {seed}: "
               + (f"{traces:,} behaviours" if traces is not None else "behaviours")
               + (f" for at most {budget}" if seconds is not None else "")
               + f" of at most {depth} steps"
               + (f", {nworkers} workers" if nworkers > 1 else "") + ".")
    try:
        constants = parse_constant_overrides(list(defines))
        if size:
            constants = _with_sizes(spec, config, ",".join(size), constants)
        bar = _SimProgress()
        outcome = run_simulation(spec, config, constants, lib, False if no_deadlock else None,
                                 depth, traces, seconds, seed, nworkers, not no_shrink,
                                 progress=bar)
    except KipcheckError as e:
        _stop_on_error(e, report_json, error_report(e, spec, config), outputs)
    except KeyboardInterrupt:
        message = "Interrupted: the simulation was stopped before it started."
        click.echo(message, err=True)
        report = stop_report(V.INTERRUPTED, message, spec, config)
        for line in _write_report(report_json, report) + outputs.write_error(message):
            click.echo(line, err=True)
        sys.exit(V.EXIT_INTERRUPTED)
    bar.close()
    click.echo(format_simulation(outcome))
    errors = _write_report(report_json, outcome.report(spec, config))
    notes, more = outputs.write(outcome)
    for line in notes + errors + more:
        click.echo(line, err=True)
    sys.exit(_exit_code(outcome.exit_code, errors + more))


_MUTATE_EXIT = ("\b\nExit code: 0 when no mutant survived; 4 when one survived (or reached "
                "--max-states undecided); the original's own code when the spec does not pass "
                "its checks (5: it does not reach a --witness); 150/151 for a bad .tla/.cfg; 2 "
                "for a bad option or equivalents file.")


@main.command(epilog=_MUTATE_EXIT)
@click.argument("spec", type=click.Path(dir_okay=False))
@click.option("--config", "-c", "config", type=click.Path(dir_okay=False),
              help="TLC .cfg file (default: SPEC with .cfg, if it exists).")
@click.option("-D", "defines", multiple=True, metavar="NAME=VALUE",
              help="Override a constant of the .cfg (value in .cfg syntax).")
@click.option("--lib", multiple=True, type=click.Path(file_okay=False),
              help="Directory to look for EXTENDS/INSTANCE modules in (repeatable).")
@click.option("--action", "actions", multiple=True, metavar="NAME",
              help="Only mutants of this action (repeatable).")
@click.option("--workers", default="1", show_default=True, metavar="N|auto",
              help="Check mutants in N processes at once.")
@click.option("--max-mutants", type=click.IntRange(min=1), default=None,
              help="Check at most N mutants, spread evenly over the spec.")
@click.option("--max-states", type=click.IntRange(min=1), default=None,
              help="Stop a mutant's search past N distinct states (undecided); default: 10 "
                   "times the original's, plus 10,000.")
@click.option("--equivalent", "equivalent_file", type=click.Path(dir_okay=False),
              help="The list of equivalent mutants (default: CFG-stem.equivalent.txt next to "
                   "the .cfg).")
@click.option("--witness", "witnesses", multiple=True, metavar="NAME",
              help="A state predicate the original reaches (repeatable): a mutant that passes "
                   "every property but does not reach it is killed by it. Added to those of "
                   "SPEC-stem.witnesses.txt and CFG-stem.witnesses.txt, which are used where "
                   "the original reaches them.")
@click.option("--no-witnesses", is_flag=True,
              help="Ignore the witnesses files (--witness still applies).")
@click.option("--no-deadlock", is_flag=True, help="Do not report deadlocks.")
@click.option("--report-json", type=click.Path(dir_okay=False),
              help="Write the mutants and the totals as JSON to this file.")
@click.option("--html", "html_file", type=click.Path(dir_okay=False),
              help="Write a self-contained HTML page of the mutants to this file.")
def mutate(spec, config, defines, lib, actions, workers, max_mutants, max_states,
           equivalent_file, witnesses, no_witnesses, no_deadlock, report_json,
           html_file) -> None:
    """Mutation testing: weaken SPEC's actions one change at a time (drop a guard, forget an
    effect, flip a comparison) and check each mutant with the .cfg; a mutant that survives
    shows a part of an action that no property needs."""
    from . import mutate as M
    from .api import parse_constant_overrides

    try:
        spec, config, lib = _manifest_model(spec, config, lib)
        if config is None:
            config = default_config(spec)
        if config is None:
            raise M.MutateError(f"{spec}: no .cfg given and none next to the spec (-c CFG)")
        path = Path(equivalent_file) if equivalent_file else M.equivalents_file(config)
        if equivalent_file and not path.is_file():
            raise M.MutateError(f"--equivalent {equivalent_file}: no such file")
        equivalents = (M.load_equivalents(path) if equivalent_file
                       else M.default_equivalents(config, spec))
        constants = parse_constant_overrides(list(defines))
        nworkers = _workers(workers)
        signal.signal(signal.SIGTERM, _interrupt)
        listed = () if no_witnesses else tuple(M.default_witnesses(config, spec))
        report = M.run(spec, config, lib, constants, False if no_deadlock else None, actions,
                       nworkers, max_mutants, max_states, equivalents,
                       echo=lambda line: click.echo(line, err=True),
                       witnesses=tuple(witnesses), listed=listed)
    except KipcheckError as e:
        click.echo(e.format(), err=True)
        sys.exit(e.exit_code)
    except KeyboardInterrupt:
        click.echo("Interrupted: mutation testing was stopped before it finished.", err=True)
        sys.exit(V.EXIT_INTERRUPTED)
    click.echo(M.table(report))
    listed = set(M.load_equivalents(path))  # the spec's file may list other configs' mutants
    stale = sorted(listed - {m["id"] for m in report.mutants})
    if stale and not actions and max_mutants is None:
        click.echo(f"warning: {path} lists mutants that no longer exist: {', '.join(stale)}",
                   err=True)
    errors = []
    for target, write in ((report_json, M.write_json), (html_file, _write_html)):
        if target:
            try:
                write(report, target)
            except OSError as e:
                errors.append(f"error: cannot write {target}: {e.strerror or e}")
    for line in errors:
        click.echo(line, err=True)
    sys.exit(_exit_code(report.exit_code, errors))


def _write_html(report, path) -> None:
    from .mutate import html_page

    Path(path).write_text(html_page(report), encoding="utf-8")


def _with_sizes(spec, config, text: str, constants: dict) -> dict:
    """The constants of `--size` knobs, with the -D overrides on top."""
    from .api import parse_constant_overrides
    from .sizes import size_overrides

    sized = parse_constant_overrides(size_overrides(spec, config, text, constants))
    sized.update(constants)
    return sized


def _stop_on_error(e: KipcheckError, report_json, report: dict, outputs) -> None:
    """A check that could not start: the error, and still the report files CI expects."""
    message = e.format()
    click.echo(message, err=True)
    errors = _write_report(report_json, report)
    if outputs is not None:
        errors += outputs.write_error(message)
    for line in errors:
        click.echo(line, err=True)
    sys.exit(e.exit_code)


def _write_report(path, report: dict) -> list[str]:
    """Write the --report-json document; returns the error line if it could not be."""
    import json

    if not path:
        return []
    try:
        Path(path).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    except OSError as e:
        return [f"error: cannot write the JSON report to {path}: {e.strerror or e}"]
    return []


def _exit_code(verdict_code: int, write_errors: list[str]) -> int:
    """The verdict's code; a report that could not be written turns a pass into a failure
    (EXIT_USAGE), so a missing report never passes a CI gate silently."""
    if write_errors and verdict_code == V.EXIT_OK:
        return V.EXIT_USAGE
    return verdict_code


def _workers(text: str) -> int:
    """--workers N or auto (the cores this process may use)."""
    from .backends import cores

    if text == "auto":
        return cores()
    if not text.isdigit() or int(text) < 1:
        click.echo(f"error: --workers expects a positive number or auto, got {text!r}", err=True)
        sys.exit(V.EXIT_USAGE)
    return int(text)


def _spark_options(master: str, partitions: int | None, driver_states: int,
                   conf: tuple[str, ...]) -> dict:
    """--spark-master, --partitions, --driver-states and --spark-conf K=V as the Spark backend
    takes them."""
    settings = {}
    for item in conf:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            click.echo(f"error: --spark-conf expects KEY=VALUE, got {item!r}", err=True)
            sys.exit(V.EXIT_USAGE)
        settings[key.strip()] = value.strip()
    return {"master": master, "partitions": partitions, "driver_states": driver_states,
            "conf": settings}


def _manifest_model(spec: str, config: str | None, lib: tuple[str, ...]):
    """`kipcheck check NAME`: a name from the model manifest stands for its spec, .cfg and lib
    (when no file of that name exists); --config and --lib still apply on top. An unknown
    name or a bad manifest raises KipcheckError."""
    if Path(spec).exists() or spec.endswith(".tla"):
        return spec, config, lib
    from .manifest import load

    entry = load().get(spec)
    if entry is None:
        raise KipcheckError(f"{spec}: no such spec file or manifest model "
                            "(`kipcheck models` lists the models)")
    return (str(entry.spec_path), config or str(entry.config_path),
            entry.lib_paths + tuple(lib))


@main.command()
@click.option("--size", type=click.Choice(["small", "medium", "large"]),
              help="Only models of this size.")
@click.option("--sizes", "knobs", is_flag=True,
              help="List each model's size knobs with their values in its .cfg (the defaults "
                   "of `check --size` and `sweep --vary`).")
def models(size, knobs) -> None:
    """List the shipped models of the manifest: name, size and expected verdict."""
    from .manifest import load

    try:
        entries = load().entries
        if knobs:
            _list_knobs([e for e in entries if size in (None, e.size)])
            return
    except KipcheckError as e:
        click.echo(e.format(), err=True)
        sys.exit(e.exit_code)
    rows = [(e.name, e.size, e.verdict + (f" {e.property}" if e.property else "")
             + (" (liveness)" if e.liveness else ""))
            for e in entries if size in (None, e.size)]
    width = max((len(r[0]) for r in rows), default=0)
    for name, sz, verdict in rows:
        click.echo(f"{name:<{width}}  {sz:<6}  {verdict}")


_SWEEP_EXIT = ("\b\nExit code: the worst size's verdict, in the order ok < budget < incomplete "
               "< deadlock < invariant < property < assert < error < assumption < "
               "config-error < spec-error (budget exits 3).")


@main.command(epilog=_SWEEP_EXIT)
@click.argument("spec", type=click.Path(dir_okay=False))
@click.option("--vary", "varies", multiple=True, required=True, metavar="KNOB=LO..HI",
              help="A knob and its values (LO..HI or N,N,...); repeat for more knobs: every "
                   "combination is checked, smallest first.")
@click.option("--budget", metavar="DURATION",
              help="Stop a size after this long (90s, 10m, 1h) and report it as `budget`.")
@click.option("--max-states", type=click.IntRange(min=1), default=None,
              help="Stop a size once it has this many distinct states (`budget`).")
@click.option("--stop-on-violation", is_flag=True,
              help="Stop the sweep at the first size that fails (any verdict worse than "
                   "budget). With --backend spark the sizes run side by side: the report "
                   "still ends at the first failing size in size order; later sizes are "
                   "cancelled and left out.")
@click.option("--out", type=click.Path(file_okay=False),
              help="Write sweep.csv, sweep.json and sweep.html (plots, growth per knob, the "
                   "next size's estimated cost) into this directory; with --backend spark "
                   "also sweep.parquet.")
@click.option("--config", "-c", "config", type=click.Path(dir_okay=False),
              help="TLC .cfg file (default: SPEC with .cfg, if it exists).")
@click.option("-D", "defines", multiple=True, metavar="NAME=VALUE",
              help="Override a constant at every size (value in .cfg syntax).")
@click.option("--no-deadlock", is_flag=True, help="Do not report deadlocks.")
@click.option("--workers", default="1", show_default=True, metavar="N|auto",
              help="Check each size in N worker processes (auto: one per core).")
@click.option("--backend", type=click.Choice(["local", "spark"]), default="local",
              show_default=True,
              help="Check the sizes one after the other here, or side by side as Spark tasks "
                   "(one task per size; needs pyspark and Java).")
@click.option("--spark-master", default="local[*]", show_default=True, metavar="URL",
              help="The Spark master with --backend spark (local[N], spark://, yarn, k8s://).")
@click.option("--spark-conf", "spark_conf", multiple=True, metavar="KEY=VALUE",
              help="A Spark setting with --backend spark (repeatable).")
@click.option("--lib", multiple=True, type=click.Path(file_okay=False),
              help="Directory to look for EXTENDS/INSTANCE modules in (repeatable).")
def sweep(spec, varies, budget, max_states, stop_on_violation, out, config, defines,
          no_deadlock, workers, backend, spark_master, spark_conf, lib) -> None:
    """Check SPEC at every combination of its size knobs, smallest first: a table of verdicts,
    counts, time and peak memory per size."""
    from . import sweep as S
    from .api import parse_constant_overrides

    name = spec
    try:
        seconds = S.parse_budget(budget)
    except ValueError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(V.EXIT_USAGE)
    try:
        spec, config, lib = _manifest_model(spec, config, lib)
        if config is None:
            config = default_config(spec)
        constants = parse_constant_overrides(list(defines))
        plan = S.plan(spec, config, [S.parse_vary(v) for v in varies], constants)
        per_size = [S.constants_of(spec, config, combo, constants) for combo in plan]
        if backend == "spark":
            from . import sweep_spark

            if workers != "1":
                click.echo("error: --workers is for --backend local: on Spark each size is "
                           "one task of one process", err=True)
                sys.exit(V.EXIT_USAGE)
            sweep_spark.require()
            spark = _spark_options(spark_master, None, 0, spark_conf)
    except KipcheckError as e:
        click.echo(e.format(), err=True)
        sys.exit(e.exit_code)
    deadlock = False if no_deadlock else None
    nworkers = _workers(workers)
    knobs = [k for k, _ in (S.parse_vary(v) for v in varies)]
    width = max(len(",".join(f"{k}={v}" for k, v in c.items())) for c in plan)
    click.echo(S.table_header(width))
    rows, written, errors = [], [], []

    def show(row):
        rows.append(row)
        click.echo(S.table_line(row, width))
        if row.verdict not in (V.OK, S.BUDGET) and row.message:
            click.echo(f"  {row.message.splitlines()[0]}", err=True)

    try:
        left = 0
        if backend == "spark":
            texts = [sweep_spark.constant_texts(spec, config, combo, constants, defines)
                     for combo in plan]
            done = sweep_spark.run(spec, config, lib, plan, texts, show, deadlock=deadlock,
                                   budget=seconds, max_states=max_states,
                                   stop_on_violation=stop_on_violation, spark=spark, out=out,
                                   knobs=knobs)
            left, written, errors = done.left, done.written, done.errors
            for line in done.notes:
                click.echo(line, err=True)
        else:
            for combo, values in zip(plan, per_size, strict=True):
                show(S.run_size(spec, config, lib, values, combo, deadlock, seconds,
                                max_states, nworkers))
                if stop_on_violation and S.fails(rows[-1]):
                    left = len(plan) - len(rows)
                    break
        if left:
            click.echo(f"Stopped at the first failing size ({left} size(s) not checked).",
                       err=True)
    except KipcheckError as e:  # Spark did not start
        click.echo(e.format(), err=True)
        sys.exit(e.exit_code)
    except KeyboardInterrupt:
        click.echo("Interrupted: the sweep was stopped before it finished.", err=True)
        if out:  # the sizes finished so far are still worth keeping
            try:
                S.write_outputs(out, rows, name, spec, config, knobs)
            except OSError as e:
                click.echo(f"error: cannot write the sweep results to {out}: "
                           f"{e.strerror or e}", err=True)
        sys.exit(V.EXIT_INTERRUPTED)
    verdict = S.worst(rows)
    budgeted = [r.size for r in rows if r.verdict == S.BUDGET]
    if budgeted:
        click.echo(f"Budget: {', '.join(budgeted)} stopped before the end (partial counts).",
                   err=True)
    if out:
        try:
            for path in S.write_outputs(out, rows, name, spec, config, knobs) + written:
                click.echo(f"Wrote {path}", err=True)
        except OSError as e:
            errors.append(f"error: cannot write the sweep results to {out}: {e.strerror or e}")
    for line in errors:
        click.echo(line, err=True)
    click.echo(f"Sweep verdict: {verdict} ({len(rows)} size(s))")
    sys.exit(_exit_code(S.exit_code(verdict), errors))


def _list_knobs(entries) -> None:
    """`models --sizes`: one line per model, its knobs at the values of its .cfg."""
    from .sizes import cfg_constants, describe, sizes_file
    from .sizes import load as load_sizes

    width = max((len(e.name) for e in entries), default=0)
    for e in entries:
        path = sizes_file(e.spec_path, e.config_path)
        text = ("(no size knobs)" if path is None else
                describe(load_sizes(path), cfg_constants(e.config_path)))
        click.echo(f"{e.name:<{width}}  {text}")


@main.group()
def trace() -> None:
    """Work with a saved counterexample (an ITF JSON file)."""


@trace.command("render")
@click.argument("trace_file", metavar="TRACE.itf.json", type=click.Path(dir_okay=False))
@click.option("--format", "fmt", default="text", show_default=True,
              type=click.Choice(["html", "dot", "graphml", "text", "tlc-json", "itf"]),
              help="What to render the counterexample as.")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Write to this file instead of standard output.")
@click.option("--lanes", "lanes_file", type=click.Path(dir_okay=False),
              help="Lanes of the HTML sequence diagram (default: those the trace carries).")
def trace_render(trace_file, fmt, output, lanes_file) -> None:
    """Render a counterexample saved as ITF JSON in another format."""
    from .traces.formats import render
    from .traces.itf import TraceFormatError, loads
    from .traces.lanes import LanesError, load_lanes

    try:
        cx = loads(Path(trace_file).read_text(encoding="utf-8"))
        lanes = load_lanes(lanes_file) if lanes_file else None
    except (OSError, UnicodeDecodeError) as e:
        reason = e.strerror if isinstance(e, OSError) else "not UTF-8 text"
        click.echo(f"{trace_file}: error: cannot read the file: {reason}", err=True)
        sys.exit(V.EXIT_USAGE)
    except TraceFormatError as e:
        click.echo(e.format(trace_file), err=True)
        sys.exit(V.EXIT_USAGE)
    except LanesError as e:
        click.echo(e.format(), err=True)
        sys.exit(V.EXIT_USAGE)
    text = render(cx, fmt, lanes)
    if output:
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as e:
            click.echo(f"error: cannot write {output}: {e.strerror or e}", err=True)
            sys.exit(V.EXIT_USAGE)
    else:
        click.echo(text, nl=False)


@main.group()
def traces() -> None:
    """The golden counterexamples under traces/ (from invariants/manifest.json)."""


@traces.command("regenerate")
@click.option("--only", metavar="NAME", help="Only the manifest model with this name.")
@click.option("--check", "compare", is_flag=True,
              help="Compare with the saved files instead of writing; exit 1 if any differ.")
@click.option("--root", type=click.Path(file_okay=False), default=".", show_default=True,
              help="The repository root (where invariants/manifest.json is).")
def traces_regenerate(only, compare, root) -> None:
    """Check every manifest model that has a trace and write its ITF JSON and HTML page."""
    from .traces.golden import regenerate

    try:
        problems = regenerate(root, only, compare, echo=click.echo)
    except (OSError, ValueError, KipcheckError) as e:
        message = e.format() if isinstance(e, KipcheckError) else str(e)
        click.echo(f"error: {message}", err=True)
        sys.exit(V.EXIT_USAGE)
    if problems:
        click.echo(f"{problems} golden trace file(s) "
                   f"{'differ' if compare else 'could not be made'}; "
                   f"run `kipcheck traces regenerate` to update them.", err=True)
        sys.exit(V.EXIT_FAILURE)


class _Progress:
    """The live progress line on a terminal: distinct states, generated, queue, depth, rate."""

    def __init__(self):
        from tqdm import tqdm

        self.bar = tqdm(unit=" distinct", file=sys.stderr, leave=False, dynamic_ncols=True)

    def __call__(self, distinct: int, generated: int, queue: int, depth: int) -> None:
        bar = self.bar
        bar.update(distinct - bar.n)
        bar.set_postfix_str(f"generated {generated:,}, queue {queue:,}, depth {depth}",
                            refresh=False)

    def close(self) -> None:
        self.bar.close()


class _LogProgress:
    """Progress for logs (stderr not a terminal, as in CI): a TLC-style line every minute."""

    EVERY = 60.0

    def __init__(self):
        self.started = self.last = time.monotonic()
        self.last_distinct = 0

    def __call__(self, distinct: int, generated: int, queue: int, depth: int) -> None:
        now = time.monotonic()
        if now - self.last < self.EVERY:
            return
        rate = (distinct - self.last_distinct) / (now - self.last)
        self.last, self.last_distinct = now, distinct
        stamp = time.strftime("%Y-%m-%d %H:%M:%S")
        click.echo(f"Progress({depth}) at {stamp}: {generated:,} states generated, "
                   f"{distinct:,} distinct states found ({rate:,.0f} distinct states/s), "
                   f"{queue:,} states left on queue.", err=True)

    def close(self) -> None:
        pass


class _SimProgress:
    """Progress of a simulation on standard error: a live line on a terminal, else (as in CI)
    a line every minute."""

    EVERY = 60.0

    def __init__(self):
        self.tty = sys.stderr.isatty()
        self.started = self.last = time.monotonic()

    def __call__(self, behaviours: int, states: int, generated: int) -> None:
        now = time.monotonic()
        if now - self.last < (0.5 if self.tty else self.EVERY):
            return
        self.last = now
        rate = generated / max(now - self.started, 1e-9)
        line = (f"Progress: {behaviours:,} behaviours, {states:,} states, {generated:,} states "
                f"generated ({rate:,.0f} states/s)")
        if self.tty:
            click.echo(f"\r{line}\033[K", err=True, nl=False)
        else:
            click.echo(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {line}.", err=True)

    def close(self) -> None:
        if self.tty and self.last != self.started:
            click.echo("\r\033[K", err=True, nl=False)


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def _progress_bar():
    return _Progress() if sys.stderr.isatty() else _LogProgress()


def summary(loaded) -> str:
    scope = loaded.scope
    root = loaded.root
    own = [u for u in root.units]
    from .frontend import ast

    defs = [u.name for u in own if isinstance(u, (ast.OpDef, ast.FuncDef, ast.InstanceDef))]
    lines = [
        f"module {root.name} ({loaded.path})",
        f"  extends:     {', '.join(root.extends) or '-'}",
        f"  modules:     {', '.join(loaded.modules.modules)}",
        f"  constants:   {', '.join(scope.constants) or '-'}",
        f"  variables:   {', '.join(scope.variables) or '-'}",
        f"  definitions: {len(defs)}" + (f" ({', '.join(defs)})" if defs else ""),
    ]
    cfg = loaded.config
    if cfg is not None:
        parts = []
        for label, named in (("SPECIFICATION", cfg.specification), ("INIT", cfg.init),
                             ("NEXT", cfg.next)):
            if named is not None:
                parts.append(f"{label} {named.name}")
        for label, items in (("INVARIANTS", cfg.invariants), ("PROPERTIES", cfg.properties),
                             ("CONSTRAINTS", cfg.constraints)):
            if items:
                parts.append(f"{label} {', '.join(n.name for n in items)}")
        lines.append(f"config {cfg.file}: " + "; ".join(parts))
    return "\n".join(lines)


if __name__ == "__main__":
    main()
