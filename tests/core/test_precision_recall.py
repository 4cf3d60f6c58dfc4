"""PR curve, DET curve and average precision against scikit-learn and brute force."""

from __future__ import annotations

import warnings

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal
from sklearn.metrics import average_precision_score, det_curve, precision_recall_curve

import polars_roc as pr

POOL = [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0]
Case = tuple[list[bool], list[float], list[int]]


@st.composite
def cases(draw: st.DrawFn, *, min_size: int = 2) -> Case:
    """Labels with both classes, scores from a small pool (ties), integer weights >= 1."""
    n = draw(st.integers(min_size, 25))
    labels = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if all(labels) or not any(labels):
        labels[0] = not labels[0]
    scores = draw(st.lists(st.sampled_from(POOL), min_size=n, max_size=n))
    weights = draw(st.lists(st.integers(1, 3), min_size=n, max_size=n))
    return labels, scores, weights


def frame(case: Case) -> pl.DataFrame:
    labels, scores, weights = case
    return pl.DataFrame({"label": labels, "score": scores, "w": weights})


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("drop", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
@SETTINGS
@given(case=cases())
@example(case=([False, True], [0.5, 0.5], [1, 1]))
@example(case=([True, True, False], [0.9, 0.8, 0.1], [1, 2, 1]))
def test_pr_curve_matches_sklearn(case: Case, *, drop: bool, weighted: bool) -> None:
    labels, scores, weights = case
    sw = np.asarray(weights, dtype=float) if weighted else None
    precision, recall, thresholds = precision_recall_curve(
        labels, scores, sample_weight=sw, drop_intermediate=drop
    )
    got = frame(case).roc.pr_curve(weight="w" if weighted else None, drop_intermediate=drop)
    np.testing.assert_allclose(got["precision"].to_numpy(), precision, rtol=1e-12)
    np.testing.assert_allclose(got["recall"].to_numpy(), recall, rtol=1e-12)
    np.testing.assert_array_equal(got["threshold"].to_numpy(), [*thresholds, np.inf])


@pytest.mark.parametrize("drop", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
@SETTINGS
@given(case=cases())
@example(case=([False, True], [0.5, 0.5], [1, 1]))
@example(case=([True, True, False], [0.9, 0.8, 0.1], [1, 1, 1]))
@example(case=([False, True, False], [0.9, 0.8, 0.1], [1, 1, 1]))
def test_det_curve_matches_sklearn(case: Case, *, drop: bool, weighted: bool) -> None:
    labels, scores, weights = case
    sw = np.asarray(weights, dtype=float) if weighted else None
    fpr, fnr, thresholds = det_curve(labels, scores, sample_weight=sw, drop_intermediate=drop)
    got = frame(case).roc.det_curve(weight="w" if weighted else None, drop_intermediate=drop)
    np.testing.assert_allclose(got["fpr"].to_numpy(), fpr, rtol=1e-12)
    np.testing.assert_allclose(got["fnr"].to_numpy(), fnr, rtol=1e-12)
    np.testing.assert_array_equal(got["threshold"].to_numpy(), thresholds)


def brute_average_precision(labels: list[bool], scores: list[float], weights: list[int]) -> float:
    """Σ over distinct thresholds, highest first, of (recall gain) * precision, by hand."""
    total_pos = sum(w for y, w in zip(labels, weights, strict=True) if y)
    ap, previous_recall = 0.0, 0.0
    for t in sorted(set(scores), reverse=True):
        tp = sum(w for y, s, w in zip(labels, scores, weights, strict=True) if y and s >= t)
        fp = sum(w for y, s, w in zip(labels, scores, weights, strict=True) if not y and s >= t)
        recall = tp / total_pos
        ap += (recall - previous_recall) * tp / (tp + fp)
        previous_recall = recall
    return ap


@pytest.mark.parametrize("weighted", [False, True])
@SETTINGS
@given(case=cases())
@example(case=([False, True], [0.5, 0.5], [1, 1]))
def test_average_precision_matches_sklearn_and_brute_force(case: Case, *, weighted: bool) -> None:
    labels, scores, weights = case
    sw = np.asarray(weights, dtype=float) if weighted else None
    expected = average_precision_score(labels, scores, sample_weight=sw)
    brute = brute_average_precision(labels, scores, weights if weighted else [1] * len(labels))
    assert expected == pytest.approx(brute, abs=1e-12)
    df = frame(case)
    w = "w" if weighted else None
    expr = df.select(pr.average_precision("score", "label", weight=w)).item()
    method = df.select(pl.col("score").roc.average_precision("label", weight=w)).item()
    table = df.roc.average_precision(weight=w)
    assert expr == pytest.approx(expected, abs=1e-12)
    assert method == pytest.approx(expected, abs=1e-12)
    assert table["average_precision"].item() == pytest.approx(expected, abs=1e-12)
    used = weights if weighted else [1] * len(labels)
    assert table["n_pos"].item() == sum(x for y, x in zip(labels, used, strict=True) if y)
    assert table["n_neg"].item() == sum(x for y, x in zip(labels, used, strict=True) if not y)


@SETTINGS
@given(case=cases())
def test_weights_equal_repeated_rows(case: Case) -> None:
    df = frame(case)
    repeated = df.select(pl.all().repeat_by("w").explode()).drop("w")
    assert_frame_equal(
        df.roc.pr_curve(weight="w"),
        repeated.roc.pr_curve(),
        check_dtypes=False,
    )
    assert df.select(pr.average_precision("score", "label", weight="w")).item() == pytest.approx(
        repeated.select(pr.average_precision("score", "label")).item()
    )


def grouped_frame(seed: int) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    n = 400
    return pl.DataFrame(
        {
            "g": rng.choice(["a", "b", "c"], n),
            "h": rng.integers(0, 2, n),
            "label": rng.random(n) < 0.4,
            "score": np.round(rng.random(n), 1),
            "w": rng.uniform(0.5, 2.0, n),
        }
    )


@pytest.mark.parametrize(
    "method", ["pr_curve", "det_curve", "average_precision"], ids=lambda m: str(m)
)
def test_grouped_equals_per_group_and_lazy_equals_eager(method: str) -> None:
    df = grouped_frame(1)
    grouped = getattr(df.roc, method)(by=["g", "h"], weight="w")
    lazy = getattr(df.lazy().roc, method)(by=["g", "h"], weight="w")
    assert isinstance(lazy, pl.LazyFrame)
    assert_frame_equal(lazy.collect(), grouped)
    for (g, h), part in df.group_by("g", "h"):
        alone = getattr(part.roc, method)(weight="w")
        mine = grouped.filter((pl.col("g") == g) & (pl.col("h") == h)).drop("g", "h")
        assert_frame_equal(mine, alone)


def test_average_precision_expression_in_group_by_and_over() -> None:
    df = grouped_frame(2)
    agg = df.group_by("g").agg(pr.average_precision("score", "label", weight="w")).sort("g")
    table = df.roc.average_precision(by="g", weight="w")
    np.testing.assert_allclose(agg["average_precision"], table["average_precision"], rtol=1e-12)
    over = df.with_columns(pl.col("score").roc.average_precision("label", weight="w").over("g"))
    for _, part in over.group_by("g"):
        expected = average_precision_score(part["label"], part["score"], sample_weight=part["w"])
        assert part["average_precision"].unique().item() == pytest.approx(expected)


def test_undefined_cases_are_null() -> None:
    no_pos = pl.DataFrame({"score": [0.3, 0.6], "label": [0, 0]})
    assert no_pos.select(pr.average_precision("score", "label")).item() is None
    assert no_pos.roc.average_precision()["average_precision"].item() is None
    assert no_pos.roc.pr_curve()["recall"].null_count() == 3
    assert no_pos.roc.pr_curve()["precision"].to_list() == [0.0, 0.0, 1.0]
    nan = pl.DataFrame({"score": [0.3, float("nan"), 0.5], "label": [0, 1, 1]})
    assert nan.select(pr.average_precision("score", "label")).item() is None
    assert nan.roc.average_precision()["average_precision"].item() is None
    assert nan.roc.pr_curve()["precision"].null_count() == nan.roc.pr_curve().height
    det = nan.roc.det_curve()
    assert det["fpr"].null_count() == det.height


def test_nulls_and_zero_weights_are_skipped() -> None:
    df = pl.DataFrame(
        {
            "score": [0.9, 0.8, None, 0.4, 0.3, 0.2],
            "label": [1, 0, 1, None, 1, 0],
            "w": [1.0, 1.0, 1.0, 1.0, 0.0, 2.0],
        }
    )
    kept = df.filter(pl.col("score").is_not_null() & pl.col("label").is_not_null())
    kept = kept.filter(pl.col("w") > 0)
    assert_frame_equal(df.roc.pr_curve(weight="w"), kept.roc.pr_curve(weight="w"))
    expected = average_precision_score(kept["label"], kept["score"], sample_weight=kept["w"])
    got = df.select(pr.average_precision("score", "label", weight="w")).item()
    assert got == pytest.approx(expected)


def test_string_labels_with_pos_label() -> None:
    df = pl.DataFrame({"score": [0.9, 0.2, 0.6, 0.4], "y": ["bad", "good", "bad", "good"]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        precision, recall, _ = precision_recall_curve(df["y"], df["score"], pos_label="bad")
    got = df.roc.pr_curve(label="y", pos_label="bad")
    np.testing.assert_allclose(got["precision"], precision)
    np.testing.assert_allclose(got["recall"], recall)
    with pytest.raises(ValueError, match="pos_label"):
        df.roc.pr_curve(label="y")
