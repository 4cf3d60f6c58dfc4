"""Bootstrap edge cases: a class missing from a group, a +inf cutpoint, a one-row class.

Oracles: brute-force pairwise AUC and scikit-learn on resamples drawn by hand with the
documented schemes (the same per-group seeds), our DeLong route for the point estimates, and
numpy percentiles over the replicate values (+inf mapped to a finite value above every score).
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from sklearn.metrics import average_precision_score

import polars_roc as pr
from polars_roc._core.resampling import group_rng
from tests.conftest import engine_resamples, pairwise_auc

INF = float("inf")


def percentile(values: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """Type 7 percentiles, +inf ordered above every finite value (a stand-in, mapped back)."""
    finite = values[np.isfinite(values)]
    top = (finite.max() if len(finite) else 0.0) + 1.0
    stand_in = np.where(np.isposinf(values), top, values)
    bounds = np.quantile(stand_in, [(1 - level) / 2, (1 + level) / 2])
    mapped = [INF if b > top - 1.0 else float(b) for b in bounds]
    return mapped[0], mapped[1]


# ---------------------------------------------------------------------------------------
# bootstrap(metrics): a group without positives (or without negatives)
# ---------------------------------------------------------------------------------------

MISSING = pl.DataFrame(
    {
        "g": ["a"] * 4 + ["b"] * 3 + ["c"] * 3,
        "label": [1, 0, 1, 0, 0, 0, 0, 1, 1, 1],
        "score": [0.9, 0.1, 0.5, 0.5, 0.2, 0.3, 0.4, 0.2, 0.3, 0.4],
    }
)
RANKED = {
    "auc": pr.auc("score", "label"),
    "ap": pr.average_precision("score", "label"),
    "gini": pr.gini("score", "label"),
}


def group_replicates(df: pl.DataFrame, key: list, seed: int, n_boot: int) -> np.ndarray:
    """(n_boot, 2): pairwise AUC and sklearn's average precision, drawn as documented."""
    df = df.sort(df.columns, nulls_last=True, maintain_order=True)
    labels = df["label"].to_numpy()
    strata = [np.flatnonzero(labels == v) for v in np.unique(labels)]
    rng = group_rng(seed, key)
    drawn = [rows[rng.integers(0, len(rows), size=(n_boot, len(rows)))] for rows in strata]
    y, s = labels.astype(bool), df["score"].to_numpy()
    out = np.empty((n_boot, 2))
    for i, rows in enumerate(np.concatenate(drawn, axis=1)):
        out[i] = pairwise_auc(y[rows], s[rows]), average_precision_score(y[rows], s[rows])
    return out


def test_bootstrap_group_without_positives_is_null_not_an_error() -> None:
    got = MISSING.roc.bootstrap(RANKED, by="g", n_boot=40, seed=1)
    assert got.columns == ["g", "metric", "estimate", "se", "lower", "upper"]
    assert got.height == 9
    b = got.filter(pl.col("g") == "b")
    for column in ("estimate", "se", "lower", "upper"):
        assert b[column].to_list() == [None, None, None]
    # Group "a" is as on its own, and as replayed by hand.
    alone = MISSING.filter(pl.col("g") == "a").roc.bootstrap(RANKED, by="g", n_boot=40, seed=1)
    assert got.filter(pl.col("g") == "a").rows() == alone.rows()
    values = group_replicates(MISSING.filter(pl.col("g") == "a").drop("g"), ["a"], 1, 40)
    for name, column in (("auc", 0), ("ap", 1)):
        row = got.filter(pl.col("g") == "a", pl.col("metric") == name).row(0, named=True)
        assert (row["lower"], row["upper"]) == pytest.approx(percentile(values[:, column]))
        assert row["se"] == pytest.approx(values[:, column].std(ddof=1))


def test_bootstrap_group_without_negatives_keeps_average_precision() -> None:
    got = MISSING.roc.bootstrap(RANKED, by="g", n_boot=40, seed=1).filter(pl.col("g") == "c")
    auc, ap, gini = got.rows(named=True)
    assert (auc["estimate"], auc["lower"], auc["upper"]) == (None, None, None)
    assert (gini["estimate"], gini["lower"], gini["upper"]) == (None, None, None)
    # Every resample of an all-positive group has precision 1 at every positive.
    assert (ap["estimate"], ap["se"], ap["lower"], ap["upper"]) == (1.0, 0.0, 1.0, 1.0)


@pytest.mark.parametrize("metric", ["auc", "ap"])
def test_bootstrap_ungrouped_without_positives(metric: str) -> None:
    frame = MISSING.filter(pl.col("g") == "b").drop("g")
    got = frame.roc.bootstrap({metric: RANKED[metric]}, n_boot=20, seed=0)
    assert got.row(0) == (metric, None, None, None, None)


# ---------------------------------------------------------------------------------------
# best_threshold(ci="bootstrap"): a replicate whose optimum is +inf ("always negative")
# ---------------------------------------------------------------------------------------

CUTPOINT = pl.DataFrame(
    {
        "label": [1, 0] * 10,
        "score": [
            *(0.6, 0.3, 0, 0, 0.8, 0.9, 0.6, 0.7, 0.5, 0.9),
            *(0.8, 0, 0.9, 0, 0.7, 0.2, 0.9, 0.5, 0.3, 0.4),
        ],
    }
)


@pytest.mark.parametrize("n_boot", [50, 100, 200])
def test_cutpoint_interval_orders_infinite_thresholds_above_every_score(n_boot: int) -> None:
    got = CUTPOINT.roc.best_threshold(ci="bootstrap", n_boot=n_boot, seed=1).row(0, named=True)
    best = [r.roc.best_threshold() for r in engine_resamples(CUTPOINT, [], 1, n_boot)]
    values = {
        name: np.array([b[name].item() for b in best], dtype=float)
        for name in ("threshold", "tpr", "fpr")
    }
    if n_boot >= 100:  # the case at issue: some replicates choose +inf
        assert np.isposinf(values["threshold"]).any()
    for name, column in values.items():
        lower, upper = percentile(column)
        assert got[f"{name}_lower"] == pytest.approx(lower)
        assert got[f"{name}_upper"] == pytest.approx(upper)
        assert got[f"{name}_lower"] <= got[name] <= got[f"{name}_upper"]


def test_cutpoint_interval_can_reach_infinity() -> None:
    # Mostly "always negative" optima: the upper bound is +inf, the lower one finite.
    frame = pl.DataFrame({"label": [1, 0, 1, 0, 1, 0], "score": [0.5, 0.5, 0.5, 0.5, 0.9, 0.1]})
    got = frame.roc.best_threshold(ci="bootstrap", n_boot=200, seed=3).row(0, named=True)
    best = [r.roc.best_threshold() for r in engine_resamples(frame, [], 3, 200)]
    thresholds = np.array([b["threshold"].item() for b in best], dtype=float)
    lower, upper = percentile(thresholds)
    assert math.isinf(upper)
    assert math.isfinite(lower)
    assert (got["threshold_lower"], got["threshold_upper"]) == (pytest.approx(lower), INF)


def test_cutpoint_interval_all_tied_is_infinite_not_null() -> None:
    frame = pl.DataFrame({"label": [1, 0, 1, 0], "score": [0.5] * 4})
    got = frame.roc.best_threshold(ci="bootstrap", n_boot=30, seed=0).row(0, named=True)
    assert (got["threshold"], got["threshold_lower"], got["threshold_upper"]) == (INF, INF, INF)
    assert (got["tpr_lower"], got["tpr_upper"], got["fpr_lower"], got["fpr_upper"]) == (0, 0, 0, 0)


def test_replicates_without_a_candidate_still_blank_the_interval() -> None:
    # A NaN replicate (no threshold within the FPR range) is not +inf: the bounds stay null.
    rng = np.random.default_rng(0)
    frame = pl.DataFrame({"label": [True, False] * 10, "score": rng.random(20)})
    best = [r.roc.best_threshold(fpr=(0.1, 0.11)) for r in engine_resamples(frame, [], 1, 50)]
    assert any(b["threshold"].item() is None for b in best)
    got = frame.roc.best_threshold(fpr=(0.1, 0.11), ci="bootstrap", n_boot=50, seed=1)
    row = got.row(0, named=True)
    assert row["threshold"] is not None
    for name in ("threshold", "tpr", "fpr"):
        assert (row[f"{name}_lower"], row[f"{name}_upper"]) == (None, None)


# ---------------------------------------------------------------------------------------
# compare(method="bootstrap"): a class with one row
# ---------------------------------------------------------------------------------------

ONE_POSITIVE = pl.DataFrame(
    {
        "case": list(range(6)) * 2,
        "model": ["a"] * 6 + ["b"] * 6,
        "label": [1, 0, 0, 0, 0, 0] * 2,
        "score": [0.9, 0.1, 0.8, 0.3, 0.4, 0.2, 0.5, 0.1, 0.6, 0.3, 0.4, 0.2],
    }
)
POINTS = ("auc_a", "auc_b", "diff")
TEST = ("diff_lower", "diff_upper", "statistic", "p_value")


@pytest.mark.parametrize("case", ["case", None], ids=["paired", "unpaired"])
def test_bootstrap_compare_reports_point_areas_with_one_positive(case: str | None) -> None:
    delong = ONE_POSITIVE.roc.compare(case=case).row(0, named=True)
    boot = ONE_POSITIVE.roc.compare(case=case, method="bootstrap", n_boot=20, seed=1)
    row = boot.row(0, named=True)
    areas = []
    for model in ("a", "b"):
        part = ONE_POSITIVE.filter(pl.col("model") == model)
        areas.append(pairwise_auc(part["label"].to_numpy(), part["score"].to_numpy()))
    expected = (areas[0], areas[1], areas[0] - areas[1])
    assert tuple(row[c] for c in POINTS) == pytest.approx(expected)
    assert tuple(delong[c] for c in POINTS) == pytest.approx(expected)
    assert tuple(row[c] for c in TEST) == (None, None, None, None)
    assert row["paired"] is (case is not None)


def test_bootstrap_compare_partial_area_with_one_negative() -> None:
    frame = ONE_POSITIVE.with_columns(label=1 - pl.col("label"))
    boot = frame.roc.compare(case="case", method="bootstrap", n_boot=20, seed=1, fpr=(0.0, 0.5))
    row = boot.row(0, named=True)
    pauc = frame.roc.partial_auc(fpr=(0.0, 0.5), by="model").sort("model")["pauc"].to_list()
    assert (row["auc_a"], row["auc_b"]) == pytest.approx(pauc)
    assert row["diff"] == pytest.approx(pauc[0] - pauc[1])
    assert tuple(row[c] for c in TEST) == (None, None, None, None)


def test_bootstrap_compare_stays_null_where_the_area_is_undefined() -> None:
    no_positive = ONE_POSITIVE.with_columns(label=pl.lit(0))
    nan = ONE_POSITIVE.with_columns(
        score=pl.when(pl.col("case") == 2).then(float("nan")).otherwise("score")
    )
    for frame in (no_positive, nan):
        delong = frame.roc.compare(case="case").row(0, named=True)
        boot = frame.roc.compare(case="case", method="bootstrap", n_boot=20, seed=1)
        row = boot.row(0, named=True)
        for column in (*POINTS, *TEST):
            assert row[column] is None
            assert delong[column] is None
