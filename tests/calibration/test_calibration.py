"""Calibration curves and the expected calibration error against scikit-learn."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from polars.testing import assert_frame_equal
from sklearn.calibration import calibration_curve

import polars_roc as pr
from tests.conftest import repeat_rows, scored_rows

STRATEGY = pytest.mark.parametrize("strategy", ["uniform", "quantile"])
#: Probabilities with many ties, some on the uniform bin edges (0.1 * k).
PROBABILITIES = [0.0, 0.05, 0.1, 0.2, 0.3, 1 / 3, 0.5, 0.7, 0.9, 0.95, 1.0]


def sklearn_bins(labels, scores, bins: int, strategy: str) -> np.ndarray:
    """Row counts of scikit-learn's bins (its binids), for the ECE oracle."""
    if strategy == "quantile":
        edges = np.percentile(scores, np.linspace(0, 1, bins + 1) * 100)
    else:
        edges = np.linspace(0.0, 1.0, bins + 1)
    ids = np.searchsorted(edges[1:-1], scores)
    return np.bincount(ids, minlength=bins)


@STRATEGY
@pytest.mark.parametrize("bins", [1, 2, 5, 10])
@given(frame=scored_rows(pool=PROBABILITIES, min_size=1, max_size=40))
@example(frame=pl.DataFrame({"score": [0.1, 0.2, 0.3], "label": [False, True, True]}))
def test_matches_sklearn_calibration_curve(frame: pl.DataFrame, bins: int, strategy: str) -> None:
    labels, scores = frame["label"].to_numpy(), frame["score"].to_numpy()
    prob_true, prob_pred = calibration_curve(labels, scores, n_bins=bins, strategy=strategy)
    got = frame.roc.calibration(bins=bins, strategy=strategy)
    np.testing.assert_allclose(got["fraction_positive"].to_numpy(), prob_true, rtol=1e-12)
    np.testing.assert_allclose(got["mean_score"].to_numpy(), prob_pred, rtol=1e-12)
    counts = sklearn_bins(labels, scores, bins, strategy)
    assert got["n"].to_list() == counts[counts > 0].tolist()
    assert got["bin"].to_list() == (np.flatnonzero(counts) + 1).tolist()


@STRATEGY
@pytest.mark.parametrize("bins", [3, 10])
def test_matches_sklearn_on_continuous_scores(bins: int, strategy: str) -> None:
    rng = np.random.default_rng(bins)
    scores = rng.beta(2, 5, 2_000)
    labels = rng.random(2_000) < scores
    prob_true, prob_pred = calibration_curve(labels, scores, n_bins=bins, strategy=strategy)
    got = pl.DataFrame({"score": scores, "label": labels}).roc.calibration(
        bins=bins, strategy=strategy
    )
    np.testing.assert_allclose(got["fraction_positive"].to_numpy(), prob_true, rtol=1e-12)
    np.testing.assert_allclose(got["mean_score"].to_numpy(), prob_pred, rtol=1e-12)


@STRATEGY
@pytest.mark.parametrize("bins", [1, 4, 10])
@given(frame=scored_rows(pool=PROBABILITIES, min_size=1, max_size=40))
def test_ece_from_sklearn_bins(frame: pl.DataFrame, bins: int, strategy: str) -> None:
    labels, scores = frame["label"].to_numpy(), frame["score"].to_numpy()
    prob_true, prob_pred = calibration_curve(labels, scores, n_bins=bins, strategy=strategy)
    counts = sklearn_bins(labels, scores, bins, strategy)
    expected = float(np.sum(counts[counts > 0] * np.abs(prob_true - prob_pred)) / len(labels))
    got = frame.select(
        pr.expected_calibration_error("score", "label", bins=bins, strategy=strategy)
    ).item()
    assert got == pytest.approx(expected, rel=1e-9, abs=1e-12)
    by_method = frame.select(
        pl.col("score").roc.expected_calibration_error("label", bins=bins, strategy=strategy)
    ).item()
    assert by_method == got


@STRATEGY
@given(frame=scored_rows(pool=PROBABILITIES, min_size=1, groups=3))
def test_grouped_equals_one_group_at_a_time(frame: pl.DataFrame, strategy: str) -> None:
    grouped = frame.roc.calibration(by="group", bins=4, strategy=strategy)
    ece = frame.group_by("group").agg(
        pr.expected_calibration_error("score", "label", bins=4, strategy=strategy)
    )
    for (key,), part in frame.group_by("group"):
        alone = part.roc.calibration(bins=4, strategy=strategy)
        assert_frame_equal(grouped.filter(pl.col("group") == key).drop("group"), alone)
        mine = ece.filter(pl.col("group") == key)["expected_calibration_error"].item()
        one = part.select(
            pr.expected_calibration_error("score", "label", bins=4, strategy=strategy)
        ).item()
        assert mine == pytest.approx(one, abs=1e-15)


@STRATEGY
@given(frame=scored_rows(pool=PROBABILITIES, min_size=1, weighted=True))
def test_weights_equal_repeated_rows(frame: pl.DataFrame, strategy: str) -> None:
    repeated = repeat_rows(frame)
    if repeated.height == 0:
        return
    weighted = frame.roc.calibration(bins=4, strategy=strategy, weight="weight")
    plain = repeated.roc.calibration(bins=4, strategy=strategy)
    assert_frame_equal(weighted, plain, check_dtypes=False)
    ece = pr.expected_calibration_error("score", "label", bins=4, strategy=strategy)
    ece_weighted = pr.expected_calibration_error(
        "score", "label", bins=4, strategy=strategy, weight="weight"
    )
    assert frame.select(ece_weighted).item() == pytest.approx(
        repeated.select(ece).item(), abs=1e-12
    )


@given(
    cut=st.integers(1, 20),
    scores=st.lists(st.sampled_from(PROBABILITIES), min_size=2, max_size=30),
)
def test_quantile_bins_hold_about_equal_counts(cut: int, scores: list[float]) -> None:
    # Untied blocks aside, the quantile strategy never puts a tie in two bins.
    frame = pl.DataFrame(
        {"score": scores, "label": [True, False] * (len(scores) // 2) + [True] * (len(scores) % 2)}
    )
    got = frame.roc.calibration(bins=cut, strategy="quantile")
    assert got["n"].sum() == len(scores)
    assert got["bin"].is_sorted()


def test_scores_outside_unit_interval_raise_at_collect() -> None:
    lf = pl.LazyFrame({"score": [0.2, 1.5], "label": [0, 1]})
    query = lf.roc.calibration()  # no data read yet
    with pytest.raises((ValueError, pl.exceptions.ComputeError), match=r"in \[0, 1\]"):
        query.collect()
    with pytest.raises((ValueError, pl.exceptions.ComputeError), match=r"in \[0, 1\]"):
        lf.select(pr.expected_calibration_error("score", "label")).collect()


def test_bad_arguments_and_undefined_groups() -> None:
    frame = pl.DataFrame(
        {"g": [1, 1, 2, 2], "score": [0.2, float("nan"), 0.3, 0.8], "label": [0, 1, 0, 1]}
    )
    with pytest.raises(ValueError, match="strategy must be"):
        frame.roc.calibration(strategy="equal")
    with pytest.raises(ValueError, match="bins must be"):
        frame.roc.calibration(bins=0)
    with pytest.raises(ValueError, match="bins must be"):
        pr.expected_calibration_error("score", "label", bins=True)
    got = frame.roc.calibration(by="g")
    assert got.filter(pl.col("g") == 1).select("bin", "mean_score").row(0) == (None, None)
    assert got.filter(pl.col("g") == 2)["n"].to_list() == [1, 1]
    ece = frame.group_by("g").agg(pr.expected_calibration_error("score", "label")).sort("g")
    assert ece["expected_calibration_error"][0] is None
    assert ece["expected_calibration_error"][1] == pytest.approx((0.3 + 0.2) / 2)


def assert_matches_sklearn(got: pl.DataFrame, labels, scores, bins: int, strategy: str) -> None:
    """`got` (one group's rows of the calibration table) equals scikit-learn's curve."""
    prob_true, prob_pred = calibration_curve(labels, scores, n_bins=bins, strategy=strategy)
    counts = sklearn_bins(labels, scores, bins, strategy)
    assert got["bin"].to_list() == (np.flatnonzero(counts) + 1).tolist()
    assert got["n"].to_list() == counts[counts > 0].tolist()
    np.testing.assert_allclose(got["fraction_positive"].to_numpy(), prob_true, rtol=1e-12)
    np.testing.assert_allclose(got["mean_score"].to_numpy(), prob_pred, rtol=1e-12)


@STRATEGY
@given(
    frame=scored_rows(pool=PROBABILITIES, min_size=1, max_size=60, groups=4),
    bins=st.integers(1, 30),
)
def test_each_group_matches_sklearn(frame: pl.DataFrame, bins: int, strategy: str) -> None:
    # The grouped path (one sort and gather per group, a join, one group-by) per group
    # against scikit-learn on that group's rows alone.
    grouped = frame.roc.calibration(by="group", bins=bins, strategy=strategy)
    assert grouped["group"].unique().sort().to_list() == frame["group"].unique().sort().to_list()
    for (key,), part in frame.group_by("group"):
        got = grouped.filter(pl.col("group") == key)
        labels, scores = part["label"].to_numpy(), part["score"].to_numpy()
        assert_matches_sklearn(got, labels, scores, bins, strategy)


@STRATEGY
@given(
    scores=st.lists(st.floats(0, 1, allow_subnormal=False), min_size=1, max_size=80),
    bins=st.integers(1, 40),
    flip=st.randoms(use_true_random=False),
)
@example(scores=[0.0, 0.1, 0.1, 0.7, 1.0], bins=40, flip=None)
def test_continuous_scores_match_sklearn(scores: list[float], bins: int, flip, strategy) -> None:
    # Untied scores put the quantile edges between order statistics (numpy's lerp).
    labels = [(i * 7919) % 3 == 0 for i in range(len(scores))]
    if flip is not None:
        flip.shuffle(labels)
    frame = pl.DataFrame({"score": scores, "label": labels})
    got = frame.roc.calibration(bins=bins, strategy=strategy)
    lazy = frame.lazy().roc.calibration(bins=bins, strategy=strategy).collect(engine="in-memory")
    assert_frame_equal(got, lazy)
    assert_matches_sklearn(got, np.array(labels), np.array(scores), bins, strategy)


@STRATEGY
@pytest.mark.parametrize("by", [None, "g"])
def test_no_rows_that_count_give_no_rows(strategy: str, by: str | None) -> None:
    frame = pl.DataFrame(
        {"g": [1, 2], "score": [0.3, None], "label": [True, False], "w": [0.0, 1.0]},
    )
    for empty in (frame.clear(), frame):
        got = empty.roc.calibration(by=by, weight="w", strategy=strategy)
        assert got.height == 0
        assert got.columns == [*([by] if by else []), "bin", "mean_score", "fraction_positive", "n"]
