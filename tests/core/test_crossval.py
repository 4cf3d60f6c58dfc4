"""Cross-validation summaries and averaged curves against plain loops; stratified folds."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
import scipy.stats
from hypothesis import given
from hypothesis import strategies as st
from polars.testing import assert_frame_equal
from sklearn.metrics import roc_auc_score, roc_curve

import polars_roc as pr


def folded(n: int = 600, seed: int = 0) -> pl.DataFrame:
    return pr.datasets.simulate(n, models=["logit", "gbm"], segments=["a", "b"], seed=seed)


def tpr_at(fpr: np.ndarray, tpr: np.ndarray, target: float) -> float:
    """Largest TPR over every segment of the curve that passes FPR = target (brute force)."""
    best = -1.0
    for i in range(len(fpr) - 1):
        x0, x1, y0, y1 = fpr[i], fpr[i + 1], tpr[i], tpr[i + 1]
        if x0 == x1 == target:
            best = max(best, y0, y1)
        elif x0 <= target <= x1 and x0 < x1:
            best = max(best, y0 + (y1 - y0) * (target - x0) / (x1 - x0))
    return best


def band(values: list[float], level: float) -> tuple[float, float, float]:
    k = len(values)
    mean = float(np.mean(values))
    half = scipy.stats.t.ppf((1 + level) / 2, k - 1) * np.std(values, ddof=1) / np.sqrt(k)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


# ---------------------------------------------------------------------------------------
# cv_auc
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("lazy", [False, True], ids=["eager", "lazy"])
def test_cv_auc_matches_a_loop(*, lazy: bool) -> None:
    frame = folded()
    query = (frame.lazy() if lazy else frame).roc.cv_auc(by=["model", "segment"])
    got = query.collect() if isinstance(query, pl.LazyFrame) else query
    assert got.columns == ["model", "segment", "auc_mean", "auc_var", "auc_sd", "n_folds"]
    for row in got.iter_rows(named=True):
        aucs = []
        for fold in range(5):
            part = frame.filter(
                (pl.col("model") == row["model"])
                & (pl.col("segment") == row["segment"])
                & (pl.col("fold") == fold)
            )
            aucs.append(roc_auc_score(part["label"], part["score"]))
        assert row["n_folds"] == 5
        assert row["auc_mean"] == pytest.approx(np.mean(aucs), abs=1e-12)
        assert row["auc_var"] == pytest.approx(np.var(aucs), abs=1e-12)  # 1/K
        assert row["auc_sd"] == pytest.approx(np.std(aucs), abs=1e-12)


def test_cv_auc_weighted_and_undefined_folds() -> None:
    frame = folded(seed=1).filter(pl.col("model") == "logit")
    got = frame.roc.cv_auc(weight="weight")
    aucs = [
        roc_auc_score(p["label"], p["score"], sample_weight=p["weight"])
        for p in frame.partition_by("fold")
    ]
    assert got["auc_mean"].item() == pytest.approx(np.mean(aucs), abs=1e-12)
    # a fold with one class only has no AUC: it is left out and n_folds says so
    broken = frame.with_columns(
        label=pl.when(pl.col("fold") == 0).then(pl.lit(False)).otherwise(pl.col("label"))
    )
    got = broken.roc.cv_auc()
    kept = [
        roc_auc_score(p["label"], p["score"])
        for p in frame.partition_by("fold")
        if p["fold"][0] != 0
    ]
    assert got["n_folds"].item() == 4
    assert got["auc_mean"].item() == pytest.approx(np.mean(kept), abs=1e-12)


# ---------------------------------------------------------------------------------------
# average_curve
# ---------------------------------------------------------------------------------------


def test_vertical_average_matches_a_loop() -> None:
    frame = folded(300, seed=2).filter(pl.col("model") == "gbm")
    got = frame.roc.average_curve(by="segment", points=11, level=0.9)
    assert got.columns == ["segment", "fpr", "tpr_mean", "tpr_lower", "tpr_upper"]
    assert got.height == 2 * 11
    grid = np.linspace(0, 1, 11)
    for segment in ("a", "b"):
        part = got.filter(pl.col("segment") == segment)
        assert part["fpr"].to_list() == pytest.approx(grid.tolist())
        curves = []
        for fold in range(5):
            rows = frame.filter((pl.col("segment") == segment) & (pl.col("fold") == fold))
            fpr, tpr, _ = roc_curve(rows["label"], rows["score"], drop_intermediate=False)
            curves.append([tpr_at(fpr, tpr, x) for x in grid])
        for i in range(len(grid)):
            expected = band([c[i] for c in curves], 0.9)
            assert part.row(i)[2:] == pytest.approx(expected, abs=1e-12)


def test_threshold_average_matches_a_loop() -> None:
    frame = folded(200, seed=3).filter((pl.col("model") == "logit") & (pl.col("segment") == "a"))
    got = frame.roc.average_curve(method="threshold", points=6)
    assert got.columns == [
        "fpr",
        "tpr_mean",
        "tpr_lower",
        "tpr_upper",
        "threshold",
        "fpr_lower",
        "fpr_upper",
    ]
    pooled = np.r_[np.inf, np.unique(frame["score"].to_numpy())[::-1]]
    picks = np.unique(np.round(np.arange(6) * (len(pooled) - 1) / 5).astype(int))
    thresholds = pooled[picks]
    assert got["threshold"].to_list() == thresholds.tolist()
    folds = frame.partition_by("fold")
    for row in got.iter_rows(named=True):
        t = row["threshold"]
        tprs, fprs = [], []
        for part in folds:
            y, s = part["label"].to_numpy(), part["score"].to_numpy()
            tprs.append(((s >= t) & y).sum() / y.sum())
            fprs.append(((s >= t) & ~y).sum() / (~y).sum())
        assert (row["tpr_mean"], row["tpr_lower"], row["tpr_upper"]) == pytest.approx(
            band(tprs, 0.95), abs=1e-12
        )
        assert (row["fpr"], row["fpr_lower"], row["fpr_upper"]) == pytest.approx(
            band(fprs, 0.95), abs=1e-12
        )


@pytest.mark.parametrize("method", ["vertical", "threshold"])
def test_average_curve_null_group_and_fold_values_are_keys(method: str) -> None:
    frame = folded(300, seed=4).filter(pl.col("model") == "logit")
    nulled = frame.with_columns(
        segment=pl.when(pl.col("segment") != "a").then(pl.col("segment")),
        fold=pl.when(pl.col("fold") != 0).then(pl.col("fold")),
    )
    got = nulled.roc.average_curve(by="segment", method=method, points=5)
    expected = frame.roc.average_curve(by="segment", method=method, points=5)
    # the null segment sorts last; "a" sorts first
    expected = pl.concat([expected.filter(pl.col("segment") != "a"), expected.head(5)])
    assert got["segment"].to_list() == ["b"] * 5 + [None] * 5
    assert_frame_equal(got.drop("segment"), expected.drop("segment"), abs_tol=1e-12)


def test_average_curve_with_one_fold_has_no_band() -> None:
    frame = folded(100).filter(pl.col("model") == "logit").with_columns(fold=pl.lit(0))
    got = frame.roc.average_curve(points=3)
    assert got["tpr_lower"].to_list() == [None, None, None]
    assert got["tpr_mean"].null_count() == 0


# ---------------------------------------------------------------------------------------
# stratified_folds
# ---------------------------------------------------------------------------------------


@given(
    labels=st.lists(st.sampled_from(["x", "y", "z"]), min_size=1, max_size=60),
    k=st.integers(2, 7),
    seed=st.integers(0, 2**31),
)
def test_stratified_folds_balance_every_class(labels: list[str], k: int, seed: int) -> None:
    frame = pl.DataFrame({"label": labels})
    folds = frame.with_columns(pr.stratified_folds("label", k=k, seed=seed))
    assert folds["fold"].dtype == pl.Int64
    assert folds["fold"].is_between(0, k - 1).all()
    per_class = folds.group_by("label", "fold").len()
    for cls in set(labels):
        sizes = per_class.filter(pl.col("label") == cls)["len"].to_list()
        sizes += [0] * (k - len(sizes))
        assert max(sizes) - min(sizes) <= 1
    totals = folds.group_by("fold").len()["len"].to_list()
    totals += [0] * (k - len(totals))
    assert max(totals) - min(totals) <= 1
    again = (
        frame.lazy().with_columns(pr.stratified_folds(pl.col("label"), k=k, seed=seed)).collect()
    )
    assert again["fold"].to_list() == folds["fold"].to_list()


def test_stratified_folds_seed_and_groups() -> None:
    frame = pl.DataFrame({"label": [0, 1] * 50, "segment": ["a"] * 60 + ["b"] * 40})
    one = frame.select(pr.stratified_folds("label", seed=1))["fold"]
    two = frame.select(pr.stratified_folds("label", seed=2))["fold"]
    assert one.to_list() != two.to_list()
    within = frame.with_columns(pr.stratified_folds("label", k=4).over("segment"))
    counts = within.group_by("segment", "label", "fold").len()
    assert (
        counts.group_by("segment", "label")
        .agg(spread=pl.col("len").max() - pl.col("len").min())["spread"]
        .max()
        <= 1
    )


# ---------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------


def test_crossval_argument_errors() -> None:
    frame = folded(50)
    with pytest.raises(pl.exceptions.ColumnNotFoundError, match="fold column 'folds'"):
        frame.roc.cv_auc(fold="folds")
    with pytest.raises(ValueError, match="cannot be both a role and a `by` group"):
        frame.roc.cv_auc(by="fold")
    with pytest.raises(ValueError, match="method must be 'vertical' or 'threshold'"):
        frame.roc.average_curve(method="horizontal")
    with pytest.raises(ValueError, match="points must be at least 2"):
        frame.roc.average_curve(points=1)
    with pytest.raises(ValueError, match="level must lie strictly between 0 and 1"):
        frame.roc.average_curve(level=95)
    with pytest.raises(ValueError, match="k must be at least 2"):
        pr.stratified_folds("label", k=1)
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        pr.stratified_folds("label", seed=-3)


@pytest.mark.parametrize("method", ["vertical", "threshold"])
def test_a_nan_score_in_one_fold_makes_the_group_null_under_propagate(method: str) -> None:
    # The NaN fold was left out silently (auc_mean 0.75 over 1 fold): neither "propagate"
    # (null, as auc gives) nor "omit" (0.875 over 2 folds).
    rows = pl.DataFrame(
        {
            "fold": [0, 0, 0, 0, 1, 1, 1, 1],
            "score": [0.9, 0.4, 0.6, 0.1, 0.8, float("nan"), 0.7, 0.2],
            "label": [1, 1, 0, 0, 1, 0, 1, 0],
        }
    )
    both = pl.concat(
        [
            rows.with_columns(g=pl.lit("nan")),
            rows.with_columns(g=pl.lit("clean"), score=pl.col("score").fill_nan(0.5)),
        ]
    )
    assert rows.roc.auc()["auc"].item() is None
    got = both.roc.cv_auc(by="g")
    assert got.filter(pl.col("g") == "nan").select("auc_mean", "auc_var", "auc_sd").row(0) == (
        None,
        None,
        None,
    )
    clean = rows.with_columns(pl.col("score").fill_nan(0.5)).roc.cv_auc()
    assert got.filter(pl.col("g") == "clean").drop("g").equals(clean)
    omitted = rows.roc.cv_auc(nan_policy="omit")
    assert omitted.row(0) == (0.875, 0.015625, 0.125, 2)
    curves = both.roc.average_curve(by="g", method=method, points=3)
    assert curves.filter(pl.col("g") == "nan")["tpr_mean"].null_count() == 3
    assert curves.filter(pl.col("g") == "clean")["tpr_mean"].null_count() == 0


@pytest.mark.parametrize("method", ["vertical", "threshold"])
@pytest.mark.parametrize("name", ["tp", "fp", "threshold", "tpr", "fpr", "_k", "_t", "_r"])
def test_a_fold_column_named_like_our_columns_is_an_ordinary_fold(method: str, name: str) -> None:
    frame = folded(200, seed=5).filter(pl.col("model") == "logit")
    expected = frame.roc.average_curve(by="segment", method=method, points=5)
    got = frame.rename({"fold": name}).roc.average_curve(
        by="segment", fold=name, method=method, points=5
    )
    assert_frame_equal(got, expected)
