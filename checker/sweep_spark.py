"""`kipcheck sweep --backend spark`: the sizes of a sweep as parallel Spark tasks.

The sizes form an RDD with one partition per size; each partition is its own Spark job (one
task), submitted from a driver thread in size order, so that the sizes run side by side as far
as the executors' cores allow, smallest first, and each one's row comes back as soon as it is
done. A task writes the spec's files, shipped as text from the driver, into a private directory
and checks its size there as the local sweep does (`sweep.run_size`: a child process, the same
budget and --max-states), so its row is the local sweep's (time and memory are the executor's).

Rows reach the caller in size order. With --stop-on-violation the report is the local sweep's:
every size up to the first failing one in size order; the sizes after it are cancelled when
running, never started when waiting, and left out when they finished first.

With `--out DIR`, the rows are also written as a Spark DataFrame, `DIR/sweep.parquet`, with the
CSV's columns (ints as long, seconds and MiB as double, text as string).
"""
from __future__ import annotations

import functools
import queue
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from . import sweep as S
from . import verdicts as V
from .backends.spark import session
from .interface import Recipe
from .sizes import cfg_constants, for_model, overrides

PARQUET = "sweep.parquet"


def require() -> None:
    """SparkUnavailable (exit 2, one line) unless pyspark and Java are here."""
    session.require()


def constant_texts(spec, config, combo: dict, defines: dict, define_texts) -> list[str]:
    """A size's constants as `-D` texts (.cfg syntax): the executor parses them as the local
    sweep's `constants_of` does, so no value of the driver's process travels."""
    constants = cfg_constants(config)
    constants.update(defines)
    return overrides(for_model(spec, config), combo, constants) + list(define_texts)


@dataclass
class Done:
    """What a Spark sweep leaves: the sizes --stop-on-violation left out, the Parquet file
    written, notes and errors (an output that could not be written) to show."""

    left: int = 0
    written: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    errors: list = field(default_factory=list)


def run(spec, config, lib, plan: list[dict], texts: list[list[str]], on_row, *,
        deadlock=None, budget=None, max_states=None, stop_on_violation=False,
        spark: dict | None = None, out=None, knobs: list[str] = ()) -> Done:
    """Check every size of `plan` (constants `texts`) on Spark; `on_row(row)` sees each row in
    size order. Ctrl-C cancels the running tasks and passes on."""
    options = spark or {}
    done = Done()
    sc, created = session.context(options.get("master") or "local[*]",
                                  dict(options.get("conf") or {}), done.notes)
    try:
        job = _Job(session.bundle(Recipe(str(spec), None if config is None else str(config),
                                         (), tuple(lib), deadlock)), budget, max_states)
        rows, done.left = _run_sizes(sc, job, plan, texts, on_row, stop_on_violation,
                                     quiet=created)
        if out is not None:
            try:
                done.written.append(write_parquet(sc, out, rows, list(knobs)))
            except Exception as e:  # noqa: BLE001 - OSError, or Spark's own (py4j) errors
                done.errors.append(f"error: cannot write {Path(out) / PARQUET}: {_first(e)}")
        return done
    except BaseException:
        try:
            if created:  # the killed Python workers of cancelled tasks are no news
                sc.setLogLevel("OFF")
            sc.cancelAllJobs()
        except Exception:  # noqa: BLE001 - the JVM may be gone already (Ctrl-C hits it too)
            pass
        raise
    finally:
        if created and not options.get("keep_context"):
            try:
                sc.stop()
            except Exception:  # noqa: BLE001 - as above
                pass


class _Job:
    """What every task needs: the spec's files as text and the per-size limits."""

    def __init__(self, bundle, budget, max_states):
        self.bundle, self.budget, self.max_states = bundle, budget, max_states
        self.token = uuid.uuid4().hex[:12]  # this sweep's Spark job groups

    def group(self, i: int) -> str:
        """The Spark job group of size `i` (Spark keeps finished jobs' groups: a name of its
        own per sweep)."""
        return f"kipcheck-sweep-{self.token}-{i}"


def _run_sizes(sc, job: _Job, plan, texts, on_row, stop_on_violation, quiet=False):
    """Submit every size, then hand the rows on in size order as they come back. `quiet`:
    silence Spark's log before cancelling (a cancelled task's Python worker is killed, which
    Spark logs as an error; nobody else's jobs run in this context)."""
    n = len(plan)
    rdd = sc.parallelize(list(zip(plan, texts, strict=True)), n)
    done: queue.Queue = queue.Queue()
    cutoff = [n]  # the first failing size so far: the sizes after it are not reported
    tracker = sc.statusTracker()
    for i in range(n):  # in size order: Spark runs jobs first come, first served
        thread = threading.Thread(target=_submit, args=(sc, rdd, job, i, plan[i], cutoff, done),
                                  daemon=True, name=f"kipcheck-sweep-{i}")
        thread.start()
        while thread.is_alive() and not tracker.getJobIdsForGroup(job.group(i)):
            time.sleep(0.005)
    rows: dict[int, S.Row] = {}
    shown = 0
    while shown < min(n, cutoff[0] + 1):
        i, row = _get(done)
        if i > cutoff[0]:
            continue
        rows[i] = row
        if stop_on_violation and S.fails(row) and i < cutoff[0]:
            later, cutoff[0] = cutoff[0], i
            if quiet:
                sc.setLogLevel("OFF")
            for j in range(i + 1, min(later + 1, n)):
                sc.cancelJobGroup(job.group(j))
        while shown in rows and shown <= cutoff[0]:
            on_row(rows[shown])
            shown += 1
    return [rows[i] for i in range(shown)], n - shown


def _get(done: queue.Queue):
    """The next finished size; waits in short steps so that Ctrl-C is seen at once."""
    while True:
        try:
            return done.get(timeout=0.2)
        except queue.Empty:
            pass


def _submit(sc, rdd, job: _Job, i: int, knobs: dict, cutoff: list, done: queue.Queue) -> None:
    """Size `i` as one Spark job (a driver thread each, so that the jobs run side by side). A
    job that Spark gives up on is that size's error; the sweep goes on."""
    try:
        if i > cutoff[0]:  # --stop-on-violation: a smaller size failed already
            return
        sc.setJobGroup(job.group(i), f"kipcheck sweep size {i + 1}",
                       interruptOnCancel=True)
        (row,) = sc.runJob(rdd, functools.partial(_task, job), [i])
    except Exception as e:  # noqa: BLE001 - py4j and Spark raise many kinds
        row = S.Row(knobs, V.ERROR, message=f"the Spark task of this size failed: {_first(e)}")
    done.put((i, row))


def _first(e: Exception) -> str:
    """The line of a py4j error that says what went wrong (its first says which call)."""
    lines = [ln.strip() for ln in str(e).strip().splitlines() if ln.strip()]
    said = [ln[2:] for ln in lines if ln.startswith(": ")]
    return (said or lines or [type(e).__name__])[0]


def _task(job: _Job, it):
    """In an executor: check the partition's one size in a private copy of the spec."""
    from .api import parse_constant_overrides

    for knobs, texts in it:
        with tempfile.TemporaryDirectory(prefix="kipcheck-sweep-") as root:
            spec, config, lib = session.unpack(job.bundle, Path(root))
            row = S.run_size(spec, config, lib, parse_constant_overrides(texts), knobs,
                             job.bundle.deadlock, job.budget, job.max_states)
        if row.message:  # name the driver's files, not this private copy
            row.message = row.message.replace(root, "")
        yield row


def write_parquet(sc, out, rows: list[S.Row], knobs: list[str]) -> Path:
    """`out/sweep.parquet`: the CSV's columns, typed (read it with spark.read.parquet)."""
    from pyspark.sql import SparkSession
    from pyspark.sql.types import DoubleType, LongType, StringType, StructField, StructType

    types = {"size": StringType(), "verdict": StringType(), "property": StringType(),
             "distinct_states": LongType(), "states_generated": LongType(),
             "depth": LongType(), "seconds": DoubleType(), "states_per_second": LongType(),
             "peak_rss_mib": DoubleType(), "message": StringType()}
    columns = [S.COLUMNS[0], *knobs, *S.COLUMNS[1:]]
    schema = StructType([StructField(c, types.get(c, LongType()), True) for c in columns])
    data = []
    for row in rows:
        rec = row.record()
        rec.update(row.knobs)
        data.append(tuple(_typed(rec[c], schema[c].dataType) for c in columns))
    Path(out).mkdir(parents=True, exist_ok=True)
    target = Path(out) / PARQUET
    frame = SparkSession(sc).createDataFrame(data, schema)
    frame.coalesce(1).write.mode("overwrite").parquet(target.resolve().as_uri())
    return target


def _typed(value, kind):
    from pyspark.sql.types import DoubleType

    if value is None:
        return None
    return float(value) if isinstance(kind, DoubleType) else value
