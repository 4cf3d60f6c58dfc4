"""
Scored files read and tallied by another engine: what ``polars-roc report --engine`` runs.

DuckDB or Spark reads the Parquet/CSV path itself and reduces it with :func:`tally`; only the
tally (groups × distinct scores) comes back to Polars, whose numbers on it equal the raw rows'.
Each engine is an optional dependency, checked (with the pip extra to install) before any
data is read.
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from typing import Any

import polars as pl

from polars_roc.engines.reduce import tally

__all__ = ["read", "require", "tally_file"]

#: engine -> (the Python package it needs, the pip extra that installs it)
_ENGINES = {"duckdb": ("duckdb", "duckdb"), "spark": ("pyspark", "spark")}


def require(engine: str) -> None:
    """
    Check that `engine` and narwhals are installed; else one line naming the pip extra.

    Examples
    --------
    >>> require("duckdb")
    >>> require("excel")
    Traceback (most recent call last):
    ...
    ValueError: unknown engine 'excel'; expected one of duckdb, spark
    """
    if engine not in _ENGINES:
        msg = f"unknown engine {engine!r}; expected one of {', '.join(_ENGINES)}"
        raise ValueError(msg)
    package, extra = _ENGINES[engine]
    for needed in (package, "narwhals"):
        try:
            found = importlib.util.find_spec(needed) is not None
        except (ImportError, ValueError):  # a module set to None in sys.modules
            found = False
        if not found:
            msg = (
                f"--engine {engine} needs the {needed} package, which is not installed: "
                f"pip install 'polars-roc[{extra}]'"
            )
            raise ModuleNotFoundError(msg)


#: File suffixes the engines read, and how.
_KINDS = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv", ".tsv": "tsv"}


def read(path: str, engine: str) -> Any:
    """
    The scored file (or partitioned Parquet directory, or glob) as the engine's own frame.

    DuckDB reads into a fresh in-memory connection; Spark into the active session (or a new
    local one).
    """
    require(engine)
    folder = Path(path).is_dir()
    kind = "parquet" if folder else _KINDS.get(Path(path).suffix.lower())
    if kind is None:
        msg = (
            f"--engine {engine} reads Parquet (a file, a directory or a glob) or CSV/TSV, "
            f"not {Path(path).suffix!r} files: use --engine polars"
        )
        raise ValueError(msg)
    if engine == "duckdb":
        duckdb = importlib.import_module("duckdb")
        connection = duckdb.connect()
        if kind == "parquet":
            source = str(Path(path) / "**" / "*.parquet") if folder else path
            return connection.read_parquet(source, hive_partitioning=folder)
        return connection.read_csv(path, sep="\t" if kind == "tsv" else ",", header=True)
    sql = importlib.import_module("pyspark.sql")
    session = sql.SparkSession.builder.appName("polars-roc").getOrCreate()
    if kind == "parquet":
        return session.read.parquet(path)
    separator = "\t" if kind == "tsv" else ","
    return session.read.csv(path, header=True, inferSchema=True, sep=separator)


def tally_file(
    path: str,
    engine: str,
    *,
    score: str,
    label: str,
    by: list[str],
    weight: str | None,
    pos_label: Any,
) -> pl.LazyFrame:
    """
    Read `path` in `engine` and tally it there: ``*by, <score>, label, weight`` back.

    Examples
    --------
    >>> import tempfile, polars as pl
    >>> folder = tempfile.mkdtemp()
    >>> pl.DataFrame({"p": [0.9, 0.8, 0.8, 0.1], "y": [1, 1, 0, 0]}).write_parquet(
    ...     f"{folder}/s.parquet")
    >>> counts = tally_file(f"{folder}/s.parquet", "duckdb", score="p", label="y",
    ...                     by=[], weight=None, pos_label=None)
    >>> counts.roc.auc("p", weight="weight").collect()["auc"].item()
    0.875
    """
    frame = read(path, engine)
    return tally(frame, score, label, by=by, weight=weight, pos_label=pos_label)
