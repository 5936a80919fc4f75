"""Spark for the search: the SparkContext, kipcheck's code and the spec on every executor.

Executors may share no file system with the driver: the driver ships kipcheck itself (a zip of
the `checker` package, on the executors' path ahead of any installed copy) and the spec's text
(every module it loaded and the .cfg), which an executor writes into a private directory and
loads from there. The model is built once per Python worker and spec.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from ...frontend.errors import KipcheckError
from ...verdicts import EXIT_USAGE


class SparkUnavailable(KipcheckError):
    """Spark cannot be used here: pyspark or Java is missing, or the cluster did not start."""

    exit_code = EXIT_USAGE


def require() -> None:
    """Raise SparkUnavailable, saying what to install, unless pyspark and Java are here."""
    try:
        import pyspark  # noqa: F401
    except ImportError:
        raise SparkUnavailable("--backend spark needs pyspark: pip install 'kipcheck[spark]'") \
            from None
    java_home = os.environ.get("JAVA_HOME")
    if not (java_home and Path(java_home, "bin", "java").is_file()) and not shutil.which("java"):
        raise SparkUnavailable("--backend spark needs Java 17 or later: install a JDK or JRE "
                               "(e.g. apt-get install openjdk-17-jre-headless) or set JAVA_HOME")


def local_cores(master: str) -> int | None:
    """The cores of a local master (local, local[N], local[*], local[N,F]); None for a
    cluster."""
    from .. import cores

    if master == "local":
        return 1
    m = re.fullmatch(r"local\[(\*|\d+)(?:,\d+)?\]", master)
    if m is None:
        return None
    return cores() if m.group(1) == "*" else max(1, int(m.group(1)))


def context(master: str, conf: dict, notes: list):
    """(SparkContext, whether this call started it). A context already running in this process
    is used as it is (its master and settings win; `notes` says so if they differ)."""
    from pyspark import SparkConf, SparkContext

    active = SparkContext._active_spark_context
    if active is not None:
        if master != active.master and master != "local[*]":
            notes.append(f"--spark-master {master} ignored: this process already runs Spark "
                         f"on {active.master}")
        _ship_code(active)
        return active, False
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    settings = SparkConf().setMaster(master).setAppName("kipcheck")
    settings.set("spark.ui.showConsoleProgress", "false")
    settings.set("spark.ui.enabled", "false")
    for k, v in conf.items():
        settings.set(k, v)
    try:
        sc = SparkContext(conf=settings)
    except Exception as e:  # noqa: BLE001 - py4j and the JVM launcher raise many kinds
        text = str(e).strip().splitlines()
        raise SparkUnavailable(f"Spark did not start on {master}: "
                               f"{text[0] if text else type(e).__name__}") from None
    sc.setLogLevel(conf.get("spark.log.level", "ERROR"))
    if conf.get("spark.checkpoint.dir"):
        sc.setCheckpointDir(conf["spark.checkpoint.dir"])
    _ship_code(sc)
    return sc, True


def _ship_code(sc) -> None:
    """Add a zip of this `checker` package to the executors' path, once per context."""
    if getattr(sc, "_kipcheck_shipped", False):
        return
    package = Path(__file__).resolve().parents[2]
    folder = Path(tempfile.mkdtemp(prefix="kipcheck-code-"))
    target = folder / "kipcheck_checker.zip"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
        for p in sorted(package.rglob("*")):
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc":
                z.write(p, str(Path("checker") / p.relative_to(package)))
    sc.addPyFile(str(target))
    sc._kipcheck_shipped = True


@dataclass(frozen=True)
class Bundle:
    """A model as text: what an executor needs to build it, with no file of the driver's."""

    files: tuple  # (absolute path, text) of every module file the spec loaded, and the .cfg
    spec: str
    config: str | None
    lib: tuple
    constants: tuple
    deadlock: bool | None
    digest: str
    max_set_size: int = 1_000_000


def bundle(recipe) -> Bundle:
    """The Bundle of a model's Recipe (read here, in the driver)."""
    from ...frontend.modules import Loader

    loader = Loader(recipe.lib, dict(recipe.texts))
    loader.load_spec(recipe.spec)
    files = {str(Path(f).resolve()): t for f, t in loader.sources.items()
             if not f.startswith("<")}
    if recipe.config is not None:
        files[str(Path(recipe.config).resolve())] = Path(recipe.config).read_text(
            encoding="utf-8", errors="replace")
    items = tuple(sorted(files.items()))
    spec = str(Path(recipe.spec).resolve())
    config = None if recipe.config is None else str(Path(recipe.config).resolve())
    lib = tuple(str(Path(d).resolve()) for d in recipe.lib)
    digest = hashlib.sha256(repr((items, spec, config, lib, recipe.constants, recipe.deadlock,
                                  recipe.max_set_size)).encode()).hexdigest()
    return Bundle(items, spec, config, lib, tuple(recipe.constants), recipe.deadlock, digest,
                  recipe.max_set_size)


def spark_counts():
    """What TLCGet reads for the search's counts on Spark: a refusal (see CountsRefused)."""
    from .. import CountsRefused

    return CountsRefused("on Spark (--backend spark)", "the partitions", "--backend local")


class Env:
    """A model built from a Bundle, with the key function the search uses."""

    def __init__(self, model):
        from ...engine.fingerprints import key_function

        self.model = model
        self.key_of = key_function(model.fingerprint, model.kind_checked)
        self.incremental = model.fingerprint is None
        if model.watch_search:  # the counts are spread over the partitions
            model.watch_search(spark_counts)


_ENVS: dict = {}  # digest -> Env, in this Python worker
_CURRENT: list = [None]  # the digest whose fingerprints the process's tables hold


def env(b: Bundle) -> Env:
    """The model of `b` in this process (built on first use)."""
    from ...engine.fingerprints import clear

    e = _ENVS.get(b.digest)
    if e is None:
        e = _ENVS[b.digest] = Env(_build(b))
    elif _CURRENT[0] != b.digest:
        clear()  # remembered values of another model must not stand in for this one's
        if e.model.activate:
            e.model.activate()  # its intern order: CHOOSE and set order depend on it
    _CURRENT[0] = b.digest
    return e


def unpack(b: Bundle, root: Path) -> tuple[str, str | None, list[str]]:
    """Write the files of `b` under `root` (each at its driver path below it): the spec, .cfg
    and lib directories to load there."""
    def here(path: str) -> Path:
        return root / Path(path).relative_to(Path(path).anchor)

    for path, text in b.files:
        target = here(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    for d in b.lib:
        here(d).mkdir(parents=True, exist_ok=True)
    return (str(here(b.spec)), None if b.config is None else str(here(b.config)),
            [str(here(d)) for d in b.lib])


def _build(b: Bundle):
    from ...frontend import load_spec
    from ...semantics import model as model_builder
    from ...semantics.runtime import set_max_set_size

    set_max_set_size(b.max_set_size)
    spec, config, lib = unpack(b, Path(tempfile.mkdtemp(prefix="kipcheck-spec-")))
    loaded = load_spec(spec, config, lib)
    return model_builder.build(loaded, dict(b.constants), b.deadlock).model
