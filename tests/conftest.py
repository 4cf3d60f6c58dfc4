"""Shared oracles and hypothesis strategies: slow, obviously-correct references."""

from __future__ import annotations

import functools
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from polars_roc._core.resampling import group_rng

# "ci" (the default) replays the same examples on every run, so a green suite stays green on
# a fresh machine; HYPOTHESIS_PROFILE=explore draws new examples each run to hunt for bugs.
settings.register_profile(
    "ci",
    max_examples=int(os.environ.get("HYPOTHESIS_MAX_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
    database=None,
)
settings.register_profile("explore", settings.get_profile("ci"), derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

#: The small published data sets the tests compare against (tests/data, see its README).
#: The repository root (tests/ is one level below it).
ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"

POOL = [0.0, 0.25, 0.5, 0.75, 1.0]  # a small pool forces ties


@pytest.fixture(scope="session", autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The report's Vega bundle cache in a temporary folder: the suite leaves ~/.cache alone."""
    previous = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if previous is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = previous


def asah_long() -> pl.DataFrame:
    """pROC's aSAH in long format: one row per patient and marker, `case` the patient."""
    wide = pl.read_csv(DATA / "aSAH.csv").with_row_index("case")
    return wide.unpivot(
        index=["case", "outcome", "gender"],
        on=["s100b", "ndka", "wfns"],
        variable_name="model",
        value_name="score",
    ).with_columns(pl.col("score").cast(pl.Float64))


def pairwise_auc(labels, scores, weights=None) -> float | None:
    """P(score_pos > score_neg) + 1/2 P(tie) over all weighted pairs; None if undefined."""
    labels = np.asarray(labels, dtype=bool)
    scores = np.asarray(scores, dtype=float)
    weights = np.ones(len(labels)) if weights is None else np.asarray(weights, dtype=float)
    pos, neg = labels & (weights > 0), ~labels & (weights > 0)
    total = 0.0
    for i in np.flatnonzero(pos):
        for j in np.flatnonzero(neg):
            win = 1.0 if scores[i] > scores[j] else 0.5 if scores[i] == scores[j] else 0.0
            total += weights[i] * weights[j] * win
    denominator = weights[pos].sum() * weights[neg].sum()
    return None if denominator == 0 else total / denominator


@st.composite
def scored_rows(
    draw: st.DrawFn,
    *,
    pool: list[float] | None = POOL,
    min_size: int = 0,
    max_size: int = 30,
    weighted: bool = False,
    groups: int = 1,
) -> pl.DataFrame:
    """A frame of `score, label` (+ `weight`, + `group`) rows; scores from `pool` if given."""
    n = draw(st.integers(min_size, max_size))
    score = st.sampled_from(pool) if pool else st.floats(-1e6, 1e6, allow_nan=False)
    data = {
        "score": draw(st.lists(score, min_size=n, max_size=n)),
        "label": draw(st.lists(st.booleans(), min_size=n, max_size=n)),
    }
    if weighted:
        data["weight"] = [
            float(w) for w in draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
        ]
    if groups > 1:
        data["group"] = draw(st.lists(st.integers(0, groups - 1), min_size=n, max_size=n))
    schema = {"score": pl.Float64, "label": pl.Boolean, "weight": pl.Float64, "group": pl.Int64}
    return pl.DataFrame(data, schema={k: schema[k] for k in data})


@functools.cache
def spark_session() -> Any:
    """One local[2] SparkSession for the whole run: its start-up (10-15 s) is paid once."""
    pyspark_sql = pytest.importorskip("pyspark.sql", reason="PySpark is not installed")
    java_home = os.environ.get("JAVA_HOME")
    if shutil.which("java") is None and not (java_home and Path(java_home, "bin", "java").exists()):
        pytest.skip("no Java runtime found: PySpark needs one (e.g. default-jre-headless)")
    session = (
        pyspark_sql.SparkSession.builder.master("local[2]")
        .appName("polars-roc-tests")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.default.parallelism", "2")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    return session


@pytest.fixture(scope="session")
def spark() -> Any:
    """The run's SparkSession (tests using it are marked `spark`); skips without PySpark."""
    return spark_session()


def repeat_rows(frame: pl.DataFrame, weight: str = "weight") -> pl.DataFrame:
    """Each row repeated `weight` times (integer weights), the weight column dropped."""
    counts = frame[weight].cast(pl.Int64)
    return frame.drop(weight).select(pl.all().repeat_by(counts).explode()).drop_nulls()


def engine_resamples(df: pl.DataFrame, key: list, seed: int, n_boot: int) -> list[pl.DataFrame]:
    """The resampling engine's replicates as frames (one chunk: small data, few replicates)."""
    scores, positive = df["score"].to_numpy(), df["label"].to_numpy().astype(bool)
    order = np.lexsort((scores, positive))
    rows = df[order]
    pos, neg = np.flatnonzero(positive[order]), np.flatnonzero(~positive[order])
    rng = group_rng(seed, key)
    pos_draws = rng.integers(0, len(pos), size=(n_boot, len(pos)))
    neg_draws = rng.integers(0, len(neg), size=(n_boot, len(neg)))
    return [rows[np.r_[pos[p], neg[q]]] for p, q in zip(pos_draws, neg_draws, strict=True)]
