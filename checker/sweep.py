"""`kipcheck sweep`: check one model at every combination of its size knobs, smallest first.

Each size runs in a child process of its own (forked): its peak memory is measurable, and a
size that outruns the budget (`--budget`, `--max-states`) is killed cleanly and reported as
`budget` with the counts of its last progress report. The engine is not touched: the child
runs `checker.api.check` and sends the progress callback's figures up a pipe.
"""
from __future__ import annotations

import builtins
import csv
import io
import itertools
import json
import multiprocessing
import os
import re
import resource
import signal
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import verdicts as V
from .api import check, parse_constant_overrides
from .frontend.errors import KipcheckError
from .paths import shown_path
from .sizes import SizesError, cfg_constants, for_model, overrides, resolve

BUDGET = "budget"  # a size stopped at --budget or --max-states: its counts are partial
SWEEP_FORMAT = "kipcheck-sweep"
SWEEP_VERSION = 1

# The sweep's verdict is its worst size's, in this order (best first); its exit code is that
# verdict's (`budget`: 3, like a cut search: nothing was violated, not everything was checked).
SEVERITY = (V.OK, BUDGET, V.INCOMPLETE, V.DEADLOCK, V.INVARIANT, V.PROPERTY, V.POSTCONDITION,
            V.ASSERT, V.ERROR, V.ASSUMPTION, V.CONFIG_ERROR, V.SPEC_ERROR)

# The CSV columns (after `size`, one column per varied knob); the JSON rows have the same keys,
# with the knobs as an object under "knobs".
COLUMNS = ("size", "verdict", "property", "distinct_states", "states_generated", "depth",
           "seconds", "states_per_second", "peak_rss_mib", "message")

_PROGRESS_EVERY = 0.2  # seconds between the child's progress messages
_STOP_GRACE = 5.0  # seconds a stopped size has to stop its worker processes


@dataclass
class Row:
    knobs: dict
    verdict: str
    property: str | None = None
    distinct_states: int = 0
    states_generated: int = 0
    depth: int = 0
    seconds: float = 0.0
    peak_rss_mib: float = 0.0
    message: str | None = None
    extra: dict = field(default_factory=dict)

    @builtins.property
    def size(self) -> str:
        return ",".join(f"{k}={v}" for k, v in self.knobs.items())

    @builtins.property
    def states_per_second(self) -> int:
        return round(self.distinct_states / self.seconds) if self.seconds > 0 else 0

    def record(self) -> dict:
        doc = {"size": self.size, "knobs": dict(self.knobs)}
        doc.update({k: v for k, v in asdict(self).items() if k not in ("knobs", "extra")})
        doc["seconds"] = round(self.seconds, 3)
        doc["peak_rss_mib"] = round(self.peak_rss_mib, 1)
        doc["states_per_second"] = self.states_per_second
        return doc


def parse_vary(text: str) -> tuple[str, list[int]]:
    """`brokers=1..3` or `brokers=1,2,4` -> ("brokers", [1, 2, 3])."""
    m = re.fullmatch(r"\s*(\w+)\s*=\s*(\d+)\s*\.\.\s*(\d+)\s*", text)
    if m:
        lo, hi = int(m.group(2)), int(m.group(3))
        if lo > hi:
            raise SizesError(f"--vary {text}: the range is empty")
        return m.group(1), list(range(lo, hi + 1))
    m = re.fullmatch(r"\s*(\w+)\s*=\s*(\d+(?:\s*,\s*\d+)*)\s*", text)
    if m:
        return m.group(1), sorted({int(v) for v in m.group(2).split(",")})
    raise SizesError(f"--vary expects KNOB=LO..HI or KNOB=N,N,..., got {text!r}")


def parse_budget(text: str | None) -> float | None:
    """`90s`, `10m`, `1h`, `30` (seconds) -> seconds."""
    if text is None:
        return None
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smh]?)\s*", text)
    if not m or float(m.group(1)) <= 0:
        raise ValueError(f"--budget expects a duration such as 90s, 10m or 1h, got {text!r}")
    return float(m.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600}[m.group(2)]


def plan(spec, config, varies: list[tuple[str, list[int]]], defines: dict) -> list[dict]:
    """Every combination of the varied knobs, smallest first (by the sum of the steps up from
    each knob's smallest value, then in order); each one checked against the knobs' ranges
    before anything runs."""
    sizes = for_model(spec, config)
    constants = cfg_constants(config)
    constants.update(defines)
    names = [n for n, _ in varies]
    if len(set(names)) != len(names):
        raise SizesError("--vary: a knob is given twice")
    combos = [dict(zip(names, values, strict=True)) for values in
              itertools.product(*(vals for _, vals in varies))]
    lows = {n: vals[0] for n, vals in varies}
    combos.sort(key=lambda c: (sum(v - lows[n] for n, v in c.items()), list(c.values())))
    for combo in combos:
        resolve(sizes, combo, constants, "--vary")
    return combos


def constants_of(spec, config, combo: dict, defines: dict) -> dict:
    """The constant overrides of one size (-D on top)."""
    sizes = for_model(spec, config)
    constants = cfg_constants(config)
    constants.update(defines)
    values = parse_constant_overrides(overrides(sizes, combo, constants))
    values.update(defines)
    return values


def _peak_mib() -> float:
    """The checking process's peak resident memory, plus its largest worker's (--workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return (own + workers) / 1024  # Linux: KiB


def _child(conn, spec, config, lib, constants, deadlock, max_states, workers=1,
           parent=None) -> None:
    """The checking process of one size: progress and the outcome go up the pipe. SIGTERM
    stops it as Ctrl-C does, so that its worker processes stop too."""
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)
    last = [0.0]

    def progress(distinct, generated, queue, depth):
        now = time.perf_counter()
        if now - last[0] >= _PROGRESS_EVERY or (max_states and distinct >= max_states):
            last[0] = now
            conn.send(("progress", distinct, generated, depth, _peak_mib()))

    try:
        if parent is not None:
            _die_with(parent)
        o = check(spec, config, constants, lib, deadlock, progress=progress, workers=workers)
        _quiet()  # the outcome is known: a late signal must not lose it
        conn.send(("done", {"verdict": o.verdict, "property": o.property,
                            "distinct_states": o.distinct_states,
                            "states_generated": o.states_generated, "depth": o.depth,
                            "seconds": o.seconds, "message": o.message}, _peak_mib()))
    except KipcheckError as e:
        conn.send(("done", {"verdict": e.verdict, "message": e.format()}, _peak_mib()))
    except KeyboardInterrupt:  # stopped by the sweep (budget): nobody waits for a result
        pass
    except BaseException as e:  # noqa: BLE001 - reported as the size's error, never lost
        conn.send(("done", {"verdict": V.ERROR, "message": f"{type(e).__name__}: {e}"},
                   _peak_mib()))
    finally:
        _quiet()
        conn.close()


def run_size(spec, config, lib, constants: dict, knobs: dict, deadlock=None,
             budget: float | None = None, max_states: int | None = None,
             workers: int = 1) -> Row:
    """Check one size in a child process (with `workers` processes of its own); stop it at
    the budget or at max_states."""
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, spec, config, lib, constants, deadlock,
                                             max_states, workers, os.getpid()),
                       daemon=workers == 1)  # a daemon cannot start worker processes
    started = time.perf_counter()
    proc.start()
    child.close()
    partial = Row(knobs, BUDGET)
    reason = None
    try:
        while True:
            elapsed = time.perf_counter() - started
            if budget is not None and elapsed >= budget:
                reason = f"stopped at the budget of {_duration(budget)}"
                break
            wait = 0.5 if budget is None else min(0.5, budget - elapsed)
            if not parent.poll(max(wait, 0.0)):
                if not proc.is_alive() and not parent.poll():
                    return Row(knobs, V.ERROR, seconds=elapsed, message=(
                        f"the checking process ended without a result (exit code "
                        f"{proc.exitcode})"))
                continue
            try:
                msg = parent.recv()
            except EOFError:
                continue
            if msg[0] == "done":
                proc.join(_STOP_GRACE)  # it is ending: let it stop its workers itself
                result, peak = msg[1], msg[2]
                row = Row(knobs, result["verdict"], peak_rss_mib=peak,
                          message=result.get("message"))
                for key in ("property", "distinct_states", "states_generated", "depth",
                            "seconds"):
                    if result.get(key) is not None:
                        setattr(row, key, result[key])
                if not row.seconds:
                    row.seconds = time.perf_counter() - started
                return row
            _, partial.distinct_states, partial.states_generated, partial.depth, \
                partial.peak_rss_mib = msg
            if max_states is not None and partial.distinct_states >= max_states:
                reason = f"stopped at --max-states {max_states:,}"
                break
    finally:
        if proc.is_alive():
            proc.terminate()  # as Ctrl-C: it stops its workers; then killed if it lingers
            proc.join(_STOP_GRACE)
        if proc.is_alive():
            proc.kill()
        proc.join()
        parent.close()
    partial.seconds = time.perf_counter() - started
    partial.message = f"{reason}; the counts are partial"
    return partial


def _interrupt(signum, frame):
    """Stop as Ctrl-C does, once: the signals that follow (the sweep's SIGTERM after a
    terminal's Ctrl-C, the parent's death) must not break into the stopping."""
    signal.signal(signal.SIGTERM, _stopping)  # not SIG_IGN: a signal already caught would
    signal.signal(signal.SIGINT, _stopping)  # print a warning then
    raise KeyboardInterrupt


def _stopping(signum, frame):
    """Already stopping: nothing to do."""


def _quiet() -> None:
    """From here on a size's process is ending: signals no longer interrupt it."""
    signal.signal(signal.SIGTERM, _stopping)
    signal.signal(signal.SIGINT, _stopping)


def _die_with(parent: int) -> None:
    """Have SIGTERM sent to this process when `parent` dies, even of SIGKILL (as a Spark
    executor's Python worker does when its task is cancelled): a size never runs on with
    nobody to report to. Linux only; elsewhere nothing happens."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # it died before prctl
        os.kill(os.getpid(), signal.SIGTERM)


def fails(row: Row) -> bool:
    """A failing size for --stop-on-violation: a verdict worse than incomplete."""
    return SEVERITY.index(row.verdict) > SEVERITY.index(V.INCOMPLETE)


def _duration(seconds: float) -> str:
    for unit, size in (("h", 3600), ("m", 60)):
        if seconds >= size and seconds % size == 0:
            return f"{int(seconds // size)}{unit}"
    return f"{seconds:g}s"


def worst(rows: list[Row]) -> str:
    if not rows:
        return V.OK
    return max((r.verdict for r in rows), key=SEVERITY.index)


def exit_code(verdict: str) -> int:
    return V.EXIT_INCOMPLETE if verdict == BUDGET else V.exit_code(verdict)


def table_header(width: int = 28) -> str:
    """`width`: of the size column (the longest size of the sweep)."""
    return (f"{'size':<{width}} {'verdict':<10} {'property':<24} {'distinct':>10} "
            f"{'generated':>11} {'depth':>5} {'seconds':>8} {'states/s':>9} {'peak MiB':>9}")


def table_line(row: Row, width: int = 28) -> str:
    return (f"{row.size:<{width}} {row.verdict:<10} {row.property or '-':<24} "
            f"{row.distinct_states:>10,} {row.states_generated:>11,} {row.depth:>5} "
            f"{row.seconds:>8.2f} {row.states_per_second:>9,} {row.peak_rss_mib:>9.1f}")


def to_csv(rows: list[Row], knobs: list[str]) -> str:
    """COLUMNS, with one column per varied knob after `size`."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([COLUMNS[0], *knobs, *COLUMNS[1:]])
    for row in rows:
        rec = row.record()
        cells = [rec[c] for c in COLUMNS]
        cells[1:1] = [row.knobs[k] for k in knobs]
        writer.writerow(["" if c is None else c for c in cells])
    return out.getvalue()


def to_json(rows: list[Row], name: str, spec, config, knobs: list[str]) -> dict:
    verdict = worst(rows)
    return {"format": SWEEP_FORMAT, "version": SWEEP_VERSION, "model": name,
            "spec": shown_path(spec), "config": shown_path(config), "knobs": knobs,
            "verdict": verdict, "exit_code": exit_code(verdict),
            "sizes": [r.record() for r in rows]}


def write_outputs(out: str | Path, rows: list[Row], name: str, spec, config,
                  knobs: list[str]) -> list[Path]:
    """sweep.csv, sweep.json and sweep.html in `out` (created if needed)."""
    from .sweep_report import render

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    csv_path, json_path, html_path = out / "sweep.csv", out / "sweep.json", out / "sweep.html"
    csv_path.write_text(to_csv(rows, knobs), encoding="utf-8")
    json_path.write_text(json.dumps(to_json(rows, name, spec, config, knobs), indent=2) + "\n",
                         encoding="utf-8")
    html_path.write_text(render(rows, knobs, name, worst(rows)), encoding="utf-8")
    return [csv_path, json_path, html_path]
