"""Generated models (tests/specgen.py): kipcheck never ends in a Python traceback.

Whatever the model (good, or with a planted type error, syntax error, bad cfg, huge integer,
deep nesting, ...), `kipcheck check` exits with a code of its catalogue, writes a valid JSON
report when it writes one, and finishes. bench/fuzz_tlc.py runs the same generator for many
more seeds, and against TLC.

The cases run in a worker process with an address-space limit, so a case that tries to build
a huge set dies of MemoryError there instead of exhausting the machine.
"""
from __future__ import annotations

import multiprocessing
import resource
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from specgen import generate, run_kipcheck  # noqa: E402

SEEDS = range(0, 200)  # about 30 s on two busy cores
TIMEOUT = 20.0  # seconds per case; the slowest good case takes about one



def _limit_memory() -> None:
    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, hard))


def _problems(seed: int) -> tuple[int, str, list[str]]:
    case = generate(seed)
    with tempfile.TemporaryDirectory() as d:
        spec, cfg = case.write(d)
        run = run_kipcheck(spec, cfg, timeout=TIMEOUT)
    return seed, case.kind, run.problems()


def _run(seeds) -> dict[int, tuple[str, list[str]]]:
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(1, initializer=_limit_memory, maxtasksperchild=200) as pool:
        return {seed: (kind, p) for seed, kind, p in pool.imap_unordered(_problems, seeds)}


def test_no_traceback_on_generated_models():
    bad = {s: r for s, r in _run(SEEDS).items() if r[1]}
    assert not bad, "\n".join(f"seed {s} [{kind}]: {'; '.join(p)}"
                              for s, (kind, p) in sorted(bad.items()))
