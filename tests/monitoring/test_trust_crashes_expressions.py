"""The user's own expressions (``metrics=``, ``reference=``) may read a `by` column.

Oracles: numpy per group and window, scikit-learn's AUC, scipy's ``ks_2samp``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
import polars as pl
import pytest
from scipy.stats import ks_2samp
from sklearn.metrics import roc_auc_score

import polars_roc as pr
from polars_roc._core.names import EXPRESSIONS

rng = np.random.default_rng(8)
N = 240
ROWS = pl.DataFrame(
    {
        "t": np.repeat(np.arange(4), N // 4),
        "g": np.tile(["a", "b"], N // 2),
        "score": np.round(rng.random(N), 3),
        "label": (rng.random(N) < 0.4).astype(np.int64),
    }
).with_columns(score=pl.col("score") + 0.3 * pl.col("label"))

IS_A = (pl.col("g") == "a").cast(pl.Float64).mean()  # 1 in group a, 0 in group b


def test_over_time_metrics_read_the_by_column() -> None:
    mean_if_a = pl.col("score").filter(pl.col("g") == "a").mean()
    out = ROWS.roc.over_time(
        time="t", every="1i", by="g", metrics={"is_a": IS_A, "mean_if_a": mean_if_a}
    )
    for (g, t, metric), estimate in zip(
        out.select("g", "window_start", "metric").rows(), out["estimate"], strict=True
    ):
        part = ROWS.filter((pl.col("g") == g) & (pl.col("t") == t))
        expected = {
            "is_a": float(g == "a"),
            "mean_if_a": float(np.mean(part["score"].to_numpy())) if g == "a" else None,
        }[metric]
        assert estimate == pytest.approx(expected)


def test_over_time_bootstrap_metrics_read_the_by_column() -> None:
    out = ROWS.roc.over_time(
        time="t", every="1i", by="g", metrics={"is_a": IS_A}, ci="bootstrap", n_boot=20
    )
    assert out.select("g", "estimate", "lower").unique().sort("g").rows() == [
        ("a", 1.0, 1.0),
        ("b", 0.0, 0.0),
    ]


def test_over_time_reference_reads_the_by_column() -> None:
    reference = (pl.col("g") == "a") & (pl.col("t") <= 1)
    out = ROWS.roc.over_time(time="t", every="1i", by="g", reference=reference)
    a = ROWS.filter(pl.col("g") == "a")
    windows = [a.filter(pl.col("t") == t) for t in (0, 1)]
    aucs = [roc_auc_score(w["label"], w["score"]) for w in windows]
    ref_a = out.filter(pl.col("g") == "a")["ref_mean"].unique().to_list()
    assert ref_a == [pytest.approx(np.mean(aucs))]
    assert out.filter(pl.col("g") == "b")["ref_mean"].null_count() == 4  # no reference rows


def test_score_stability_reference_reads_the_by_column() -> None:
    reference = (pl.col("t") == 0) | ((pl.col("g") == "b") & (pl.col("t") == 1))
    out = ROWS.roc.score_stability(time="t", every="1i", by="g", reference=reference)
    for g, ref_times in (("a", [0]), ("b", [0, 1])):
        rows = ROWS.filter(pl.col("g") == g)
        ref = rows.filter(pl.col("t").is_in(ref_times))["score"].to_numpy()
        window = rows.filter(pl.col("t") == 3)["score"].to_numpy()
        got = out.filter((pl.col("g") == g) & (pl.col("window_start") == 3))
        assert got["n_ref"].item() == len(ref)
        assert got["ks"].item() == pytest.approx(ks_2samp(window, ref).statistic)


def test_disparity_metrics_read_the_by_column() -> None:
    out = ROWS.roc.disparity(segment="t", by="g", metrics={"is_a": IS_A}, n_boot=20)
    assert out.select("g", "estimate", "reference_estimate").unique().sort("g").rows() == [
        ("a", 1.0, 1.0),
        ("b", 0.0, 0.0),
    ]


def test_bootstrap_metrics_read_the_by_column() -> None:
    out = pr.bootstrap(ROWS, {"is_a": IS_A}, by="g", n_boot=20)
    assert out.select("g", "estimate").sort("g").rows() == [("a", 1.0), ("b", 0.0)]


# The sweep: every public function with `by` and a parameter holding user expressions.
CALLS: dict[str, Callable[[pl.DataFrame, pl.Expr], Any]] = {
    "bootstrap/metrics": lambda f, e: pr.bootstrap(f, {"m": e}, by="g", n_boot=10),
    "over_time/metrics": lambda f, e: f.roc.over_time(
        time="t", every="1i", by="g", metrics={"m": e}
    ),
    "over_time/reference": lambda f, e: f.roc.over_time(
        time="t", every="1i", by="g", reference=(e > 0) & (pl.col("t") == 0)
    ),
    "score_stability/reference": lambda f, e: f.roc.score_stability(
        time="t", every="1i", by="g", reference=(e > 0) & (pl.col("t") == 0)
    ),
    "disparity/metrics": lambda f, e: f.roc.disparity(
        segment="t", by="g", metrics={"m": e}, n_boot=10
    ),
}


@pytest.mark.parametrize("call", list(CALLS))
@pytest.mark.parametrize("lazy", [False, True], ids=["eager", "lazy"])
def test_every_user_expression_may_read_a_by_column(call: str, *, lazy: bool) -> None:
    frame = ROWS.lazy() if lazy else ROWS
    out = CALLS[call](frame, (pl.col("g") != "").cast(pl.Float64).mean())  # type: ignore[arg-type]
    out = out.collect() if isinstance(out, pl.LazyFrame) else out
    assert out.height > 0
    assert out.columns[0] == "g"


def test_every_function_taking_user_expressions_is_swept() -> None:
    found = set()
    for module in (pr, pr.inference, pr.monitoring, pr.segments, pr.decisions):
        for name in module.__all__:
            obj = getattr(module, name)
            if not inspect.isfunction(obj):
                continue
            parameters = inspect.signature(obj).parameters
            if "by" in parameters:
                found |= {f"{name}/{p}" for p in EXPRESSIONS if p in parameters}
    found.discard("disparity/reference")  # "rest" or "overall", never an expression
    found.discard("checks/reference")  # a (start, end) pair of the time column
    assert found == set(CALLS)
