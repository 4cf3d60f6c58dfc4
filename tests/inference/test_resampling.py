"""Stratified bootstrap: replicate statistics against brute force, intervals, reproducibility."""

from __future__ import annotations

import itertools

import numpy as np
import polars as pl
import pytest
import scipy.stats
from hypothesis import given
from hypothesis import strategies as st
from polars.testing import assert_frame_equal
from sklearn.metrics import roc_auc_score

from polars_roc._core.resampling import (
    auc_statistic,
    fpr_at_tpr_statistic,
    partial_auc_statistic,
    tpr_at_fpr_statistic,
)
from polars_roc.inference import fpr_at_tpr_interval, tpr_at_fpr_interval
from tests.conftest import pairwise_auc


def binormal(n_pos: int, n_neg: int, d: float, seed: int, groups: int = 1) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    n = n_pos + n_neg
    label = np.tile(np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)], groups)
    score = rng.normal(size=n * groups) + d * label
    return pl.DataFrame({"group": np.repeat(np.arange(groups), n), "score": score, "label": label})


# ---------------------------------------------------------------------------------------
# Replicate statistics: a replicate is a count-weighting of the group's distinct scores
# ---------------------------------------------------------------------------------------

counts = (
    st.integers(1, 6)
    .flatmap(
        lambda k: st.tuples(
            st.lists(st.lists(st.integers(0, 3), min_size=k, max_size=k), min_size=1, max_size=4),
            st.lists(st.lists(st.integers(0, 3), min_size=k, max_size=k), min_size=1, max_size=4),
        )
    )
    .filter(lambda pn: all(sum(r) > 0 for r in pn[0]) and all(sum(r) > 0 for r in pn[1]))
)


def _matrices(data) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    pos, neg = data
    n = min(len(pos), len(neg))
    pos_m, neg_m = np.array(pos[:n], dtype=float), np.array(neg[:n], dtype=float)
    levels = np.arange(pos_m.shape[1], dtype=float) / 10
    return pos_m, neg_m, levels


def _weighted_rows(pos_row, neg_row, levels):
    labels = [True] * len(levels) + [False] * len(levels)
    scores = list(levels) * 2
    return labels, scores, list(pos_row) + list(neg_row)


def _vertices(pos_row, neg_row) -> tuple[np.ndarray, np.ndarray]:
    """ROC vertices, threshold descending, from counts per ascending score level."""
    tp = np.r_[0, np.cumsum(np.asarray(pos_row)[::-1])]
    fp = np.r_[0, np.cumsum(np.asarray(neg_row)[::-1])]
    return fp / fp[-1], tp / tp[-1]


def _read(x: np.ndarray, y: np.ndarray, target: float, *, best) -> float:
    """The best y over every segment of the polyline that passes x = target (brute force)."""
    candidates = []
    for i in range(len(x) - 1):
        x0, x1, y0, y1 = x[i], x[i + 1], y[i], y[i + 1]
        if x0 == x1 == target:
            candidates += [y0, y1]
        elif x0 <= target <= x1 and x0 < x1:
            candidates.append(y0 + (y1 - y0) * (target - x0) / (x1 - x0))
    return best(candidates)


@given(data=counts)
def test_auc_statistic_is_the_weighted_pairwise_auc(data) -> None:
    pos, neg, levels = _matrices(data)
    got = auc_statistic(pos, neg, levels)
    assert got.shape == (pos.shape[0], 1)
    for b in range(pos.shape[0]):
        labels, scores, weights = _weighted_rows(pos[b], neg[b], levels)
        assert got[b, 0] == pytest.approx(pairwise_auc(labels, scores, weights), abs=1e-12)


@given(data=counts, b=st.sampled_from([0.1, 0.3, 0.5, 1.0]))
def test_partial_auc_statistic_matches_sklearn_max_fpr(data, b: float) -> None:
    pos, neg, levels = _matrices(data)
    got = partial_auc_statistic(fpr=(0.0, b), tpr=None)(pos, neg, levels)
    for r in range(pos.shape[0]):
        labels, scores, weights = _weighted_rows(pos[r], neg[r], levels)
        if b == 1.0:
            expected = roc_auc_score(labels, scores, sample_weight=weights)
        else:  # undo McClish: std = (1 + (A - min) / (max - min)) / 2
            std = roc_auc_score(labels, scores, sample_weight=weights, max_fpr=b)
            lo, hi = b * b / 2, b
            expected = lo + (2 * std - 1) * (hi - lo)
        assert got[r, 0] == pytest.approx(expected, abs=1e-12)


@given(data=counts, lo=st.sampled_from([0.0, 0.2, 0.5]), width=st.sampled_from([0.1, 0.5]))
def test_partial_auc_statistic_over_a_tpr_range(data, lo: float, width: float) -> None:
    pos, neg, levels = _matrices(data)
    hi = min(1.0, lo + width)
    got = partial_auc_statistic(fpr=None, tpr=(lo, hi))(pos, neg, levels)
    for r in range(pos.shape[0]):
        fpr, tpr = _vertices(pos[r], neg[r])
        # Between consecutive breakpoints specificity is linear in TPR: exact by midpoints.
        cuts = np.unique(np.r_[lo, hi, tpr[(tpr > lo) & (tpr < hi)]])
        area = sum(
            (t1 - t0) * (1 - _read(tpr, fpr, (t0 + t1) / 2, best=min))
            for t0, t1 in itertools.pairwise(cuts)
        )
        assert got[r, 0] == pytest.approx(area, abs=1e-12)


@given(
    data=counts,
    targets=st.lists(
        st.sampled_from([0.0, 0.1, 0.25, 1 / 3, 0.5, 0.9, 1.0]), min_size=1, max_size=4
    ),
)
def test_operating_point_statistics_against_brute_force(data, targets: list[float]) -> None:
    pos, neg, levels = _matrices(data)
    tpr_at = tpr_at_fpr_statistic(targets)(pos, neg, levels)
    fpr_at = fpr_at_tpr_statistic(targets)(pos, neg, levels)
    for r in range(pos.shape[0]):
        fpr, tpr = _vertices(pos[r], neg[r])
        for j, target in enumerate(targets):
            assert tpr_at[r, j] == pytest.approx(_read(fpr, tpr, target, best=max), abs=1e-12)
            assert fpr_at[r, j] == pytest.approx(_read(tpr, fpr, target, best=min), abs=1e-12)


# ---------------------------------------------------------------------------------------
# Bootstrap intervals
# ---------------------------------------------------------------------------------------


def test_same_seed_same_interval_other_seed_other_interval() -> None:
    frame = binormal(40, 60, 1.0, seed=3)
    first = frame.roc.auc(ci="bootstrap", n_boot=300, seed=7)
    again = frame.lazy().roc.auc(ci="bootstrap", n_boot=300, seed=7).collect()
    other = frame.roc.auc(ci="bootstrap", n_boot=300, seed=8)
    assert_frame_equal(first, again, check_exact=True)
    assert first["auc_lower"].item() != other["auc_lower"].item()
    assert first["auc"].item() == other["auc"].item() == frame.roc.auc()["auc"].item()


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_interval_contains_the_estimate(seed: int) -> None:
    frame = binormal(30, 50, 0.8, seed=seed, groups=3)
    got = frame.roc.auc(by="group", ci="bootstrap", n_boot=400, seed=seed)
    assert got.columns == ["group", "auc", "n_pos", "n_neg", "auc_se", "auc_lower", "auc_upper"]
    assert (got["auc_lower"] <= got["auc"]).all()
    assert (got["auc"] <= got["auc_upper"]).all()
    assert (got["auc_se"] > 0).all()


def test_grouped_equals_one_group_at_a_time_and_ignores_row_order() -> None:
    frame = binormal(20, 30, 1.0, seed=4, groups=4)
    kwargs = {"ci": "bootstrap", "n_boot": 200, "seed": 11}
    grouped = frame.roc.auc(by="group", **kwargs)
    for g in range(4):
        alone = frame.filter(pl.col("group") == g).roc.auc(by="group", **kwargs)
        assert_frame_equal(grouped.filter(pl.col("group") == g), alone, check_exact=True)
    shuffled = frame.sample(fraction=1.0, shuffle=True, seed=1)
    assert_frame_equal(shuffled.roc.auc(by="group", **kwargs), grouped, check_exact=True)


@pytest.mark.slow
def test_standard_error_agrees_with_a_loop_over_sklearn() -> None:
    frame = binormal(80, 120, 1.0, seed=5)
    got = frame.roc.auc(ci="bootstrap", n_boot=1000, seed=0)
    rng = np.random.default_rng(123)
    labels, scores = frame["label"].to_numpy(), frame["score"].to_numpy()
    pos, neg = np.flatnonzero(labels), np.flatnonzero(~labels)
    loop = []
    for _ in range(1000):
        idx = np.r_[rng.choice(pos, len(pos)), rng.choice(neg, len(neg))]
        loop.append(roc_auc_score(labels[idx], scores[idx]))
    assert got["auc_se"].item() == pytest.approx(np.std(loop, ddof=1), rel=0.1)
    lower, upper = np.quantile(loop, [0.025, 0.975])
    assert got["auc_lower"].item() == pytest.approx(lower, abs=0.015)
    assert got["auc_upper"].item() == pytest.approx(upper, abs=0.015)


def test_constant_weights_change_nothing() -> None:
    frame = binormal(25, 35, 0.7, seed=6).with_columns(weight=pl.lit(2.0))
    weighted = frame.roc.auc(ci="bootstrap", weight="weight", n_boot=200)
    plain = frame.roc.auc(ci="bootstrap", n_boot=200)
    for column in ("auc", "auc_se", "auc_lower", "auc_upper"):
        assert weighted[column].item() == pytest.approx(plain[column].item(), rel=1e-12)
    assert weighted["n_pos"].item() == 50.0


def test_bootstrap_nulls_for_small_classes_and_nan() -> None:
    frame = pl.DataFrame(
        {
            "group": ["one_pos"] * 4 + ["nan"] * 4 + ["empty"],
            "score": [0.1, 0.2, 0.3, 0.9, 0.1, float("nan"), 0.3, 0.4, None],
            "label": [0, 0, 0, 1, 0, 0, 1, 1, 1],
        }
    )
    got = frame.roc.auc(by="group", ci="bootstrap", n_boot=50)
    assert got["group"].to_list() == ["empty", "nan", "one_pos"]
    assert got["auc"].to_list() == [None, None, 1.0]
    for column in ("auc_se", "auc_lower", "auc_upper"):
        assert got[column].to_list() == [None, None, None]


@pytest.mark.slow
def test_coverage_on_binormal_data() -> None:
    d = 1.0
    true_auc = float(scipy.stats.norm.cdf(d / np.sqrt(2)))
    frame = binormal(50, 50, d, seed=2024, groups=300)
    boot = frame.roc.auc(by="group", ci="bootstrap", n_boot=500, seed=1)
    delong = frame.roc.auc(by="group", ci="delong")
    for table in (boot, delong):
        covered = ((table["auc_lower"] <= true_auc) & (true_auc <= table["auc_upper"])).mean()
        assert 0.89 <= covered <= 0.99


# ---------------------------------------------------------------------------------------
# Partial AUC and operating points
# ---------------------------------------------------------------------------------------


def test_partial_auc_bootstrap() -> None:
    frame = binormal(40, 60, 1.0, seed=8, groups=2)
    plain = frame.roc.partial_auc(fpr=(0.0, 0.3), by="group")
    got = frame.roc.partial_auc(fpr=(0.0, 0.3), by="group", ci="bootstrap", n_boot=300, seed=3)
    assert got.columns == [*plain.columns, "pauc_se", "pauc_lower", "pauc_upper"]
    assert_frame_equal(got.select(plain.columns), plain)
    assert (got["pauc_lower"] <= got["pauc"]).all()
    assert (got["pauc"] <= got["pauc_upper"]).all()
    again = frame.lazy().roc.partial_auc(
        fpr=(0.0, 0.3), by="group", ci="bootstrap", n_boot=300, seed=3
    )
    assert_frame_equal(again.collect(), got, check_exact=True)
    tpr_range = frame.roc.partial_auc(tpr=(0.8, 1.0), ci="bootstrap", n_boot=100)
    assert tpr_range["pauc_se"].item() > 0


def test_operating_point_bands() -> None:
    frame = binormal(60, 90, 1.2, seed=9, groups=2)
    targets = [0.05, 0.2, 0.5]
    band = tpr_at_fpr_interval(frame.lazy(), fpr=targets, by="group", n_boot=300).collect()
    point = frame.roc.tpr_at_fpr(fpr=targets, by="group")
    assert band.columns == [*point.columns, "tpr_se", "tpr_lower", "tpr_upper"]
    assert_frame_equal(band.select(point.columns), point)
    assert (band["tpr_lower"] <= band["tpr"]).all()
    assert (band["tpr"] <= band["tpr_upper"]).all()
    band = fpr_at_tpr_interval(frame.lazy(), tpr=[0.5, 0.9], by="group", n_boot=300).collect()
    point = frame.roc.fpr_at_tpr(tpr=[0.5, 0.9], by="group")
    assert_frame_equal(band.select(point.columns), point)
    assert (band["fpr_lower"] <= band["fpr"]).all()
    assert (band["fpr"] <= band["fpr_upper"]).all()


# ---------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("n_boot", [0, 1, -5, 1.5, True, "100"])
def test_n_boot_must_be_an_integer_of_at_least_2(n_boot: object) -> None:
    frame = binormal(5, 5, 1.0, seed=0)
    with pytest.raises(ValueError, match=r"n_boot must be (an integer|at least 2)"):
        frame.roc.auc(ci="bootstrap", n_boot=n_boot)
    with pytest.raises(ValueError, match=r"n_boot must be (an integer|at least 2)"):
        frame.roc.partial_auc(fpr=(0, 0.5), ci="bootstrap", n_boot=n_boot)


def test_bootstrap_argument_errors() -> None:
    frame = binormal(5, 5, 1.0, seed=0)
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        frame.roc.auc(ci="bootstrap", seed=-1)
    with pytest.raises(ValueError, match="level must lie strictly between 0 and 1"):
        frame.roc.auc(ci="bootstrap", level=1.0)
    with pytest.raises(ValueError, match="ci must be 'bootstrap'"):
        frame.roc.partial_auc(fpr=(0, 0.5), ci="delong")
