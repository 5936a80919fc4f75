"""Fixtures shared by several test files."""
from __future__ import annotations

import os
import shutil
import sys

import pytest


@pytest.fixture(scope="module")
def spark_context():
    """Spark's local master with two task slots (each retried once); skipped without pyspark
    or Java."""
    pytest.importorskip("pyspark")
    if not (shutil.which("java") or os.environ.get("JAVA_HOME")):
        pytest.skip("Spark backend: no Java")
    from pyspark import SparkConf, SparkContext

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    conf = (SparkConf().setMaster("local[2,2]").setAppName("kipcheck-tests")
            .set("spark.ui.enabled", "false").set("spark.ui.showConsoleProgress", "false"))
    sc = SparkContext.getOrCreate(conf)
    sc.setLogLevel("ERROR")
    yield sc
    sc.stop()
