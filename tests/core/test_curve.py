"""The ROC curve and the counts core, against scikit-learn and brute-force counting."""

from __future__ import annotations

import itertools

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import auc as trapezoid
from sklearn.metrics import roc_curve

import polars_roc as pr
from tests.conftest import repeat_rows, scored_rows

COLUMNS = ["threshold", "tp", "fp", "tn", "fn", "tpr", "fpr"]


def _two_classes(frame: pl.DataFrame) -> bool:
    return frame["label"].any() and not frame["label"].all()


@given(frame=scored_rows(min_size=2))
def test_curve_matches_sklearn_roc_curve(frame: pl.DataFrame) -> None:
    got = frame.roc.curve()
    assert got.columns == COLUMNS
    if not _two_classes(frame):
        return
    fpr, tpr, thresholds = roc_curve(frame["label"], frame["score"], drop_intermediate=False)
    np.testing.assert_array_equal(got["threshold"], thresholds)
    np.testing.assert_array_equal(got["tpr"], tpr)  # the same divisions, bit for bit
    np.testing.assert_array_equal(got["fpr"], fpr)


@given(frame=scored_rows(min_size=2, max_size=60, groups=3))
def test_grouped_curve_is_sklearn_per_group(frame: pl.DataFrame) -> None:
    # Grouped integer counts collapse ties after the running sum (no tally group-by).
    got = frame.roc.curve(by="group")
    assert got["group"].is_sorted()
    for (group,), part in frame.group_by("group"):
        mine = got.filter(pl.col("group") == group)
        assert mine.row(0)[1:4] == (float("inf"), 0, 0)
        if not _two_classes(part):
            continue
        fpr, tpr, thresholds = roc_curve(part["label"], part["score"], drop_intermediate=False)
        np.testing.assert_array_equal(mine["threshold"], thresholds)
        np.testing.assert_array_equal(mine["tpr"], tpr)
        np.testing.assert_array_equal(mine["fpr"], fpr)


@pytest.mark.parametrize("engine", ["in-memory", "streaming"])
def test_large_curve_is_bit_identical_to_sklearn(engine: str) -> None:
    # Large frames are split into chunks; rates must still be true divisions, never x * (1/n).
    rng = np.random.default_rng(0)
    n = 200_000
    frame = pl.DataFrame({"score": rng.integers(0, 1000, n) / 7, "label": rng.random(n) < 0.3})
    got = frame.lazy().roc.curve().collect(engine=engine)  # type: ignore[call-overload]
    fpr, tpr, thresholds = roc_curve(frame["label"], frame["score"], drop_intermediate=False)
    np.testing.assert_array_equal(got["threshold"], thresholds)
    np.testing.assert_array_equal(got["tpr"], tpr)
    np.testing.assert_array_equal(got["fpr"], fpr)


@given(frame=scored_rows(min_size=2))
def test_counts_are_brute_force_counts_at_each_threshold(frame: pl.DataFrame) -> None:
    got = frame.roc.curve()
    labels, scores = frame["label"].to_numpy(), frame["score"].to_numpy()
    for t, tp, fp, tn, fn in got.select("threshold", "tp", "fp", "tn", "fn").iter_rows():
        predicted = scores >= t
        assert (tp, fp) == ((predicted & labels).sum(), (predicted & ~labels).sum())
        assert (tn, fn) == ((~predicted & ~labels).sum(), (~predicted & labels).sum())
    assert got["threshold"].is_sorted(descending=True)
    assert got.row(0)[:3] == (float("inf"), 0, 0)
    if _two_classes(frame):
        assert (got["tpr"][-1], got["fpr"][-1]) == (1.0, 1.0)


@given(frame=scored_rows(min_size=2, max_size=40, pool=[0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6]))
def test_drop_intermediate_is_exact_thinning_of_sklearn(frame: pl.DataFrame) -> None:
    if not _two_classes(frame):
        return
    full = frame.roc.curve()
    thin = frame.roc.curve(drop_intermediate=True)
    fpr, tpr, thresholds = roc_curve(frame["label"], frame["score"], drop_intermediate=True)
    # every point we keep, scikit-learn keeps; every point we drop is collinear with neighbours
    assert set(thin["threshold"]) <= set(thresholds)
    assert trapezoid(thin["fpr"], thin["tpr"]) == pytest.approx(trapezoid(fpr, tpr), abs=1e-12)
    kept = thin.select("fp", "tp").rows()
    for (x0, y0), (x1, y1), (x2, y2) in zip(kept, kept[1:], kept[2:], strict=False):
        assert (x1 - x0) * (y2 - y1) != (y1 - y0) * (x2 - x1)  # no collinear triple remains
    points = set(full.select("fp", "tp").rows())
    for x, y in points - set(kept):  # a dropped point lies on the kept polyline
        segment = next(
            (a, b) for a, b in itertools.pairwise(kept) if a[0] <= x <= b[0] and a[1] <= y <= b[1]
        )
        (x0, y0), (x1, y1) = segment
        assert (x - x0) * (y1 - y0) == (y - y0) * (x1 - x0)


def test_drop_intermediate_drops_diagonal_points_sklearn_keeps() -> None:
    # scikit-learn issue 31635: points on a straight diagonal run are redundant.
    # Tied blocks of (1 pos, 1 neg), (2, 2), (1, 1): unequal steps along the diagonal.
    frame = pl.DataFrame({"score": [3, 3, 2, 2, 2, 2, 1, 1], "label": [1, 0] * 4})
    thin = frame.roc.curve(drop_intermediate=True)
    assert thin.select("fpr", "tpr").rows() == [(0.0, 0.0), (1.0, 1.0)]
    _, _, sk = roc_curve(frame["label"], frame["score"], drop_intermediate=True)
    assert len(sk) == 4  # scikit-learn keeps the two redundant points


@given(frame=scored_rows(groups=3, weighted=True))
def test_grouped_weighted_curve_is_per_group_repeated_rows(frame: pl.DataFrame) -> None:
    got = frame.roc.curve(by="group", weight="weight")
    assert got.columns == ["group", *COLUMNS]
    for (group,), part in got.group_by(["group"], maintain_order=True):
        rows = repeat_rows(frame.filter(pl.col("group") == group))
        expected = rows.roc.curve()
        if rows.height == 0:
            continue
        assert part.drop("group").height == expected.height
        for name in ("threshold", "tp", "fp", "tn", "fn", "tpr", "fpr"):
            assert part[name].to_list() == pytest.approx(expected[name].to_list(), nan_ok=True)


@given(frame=scored_rows(groups=2, weighted=True))
def test_lazy_and_streaming_curve_equal_eager(frame: pl.DataFrame) -> None:
    eager = frame.roc.curve(by="group", weight="weight", drop_intermediate=True)
    lazy = frame.lazy().roc.curve(by="group", weight="weight", drop_intermediate=True)
    assert isinstance(lazy, pl.LazyFrame)
    assert lazy.collect().equals(eager)
    assert lazy.collect(engine="streaming").equals(eager)


def test_weighted_curve_matches_sklearn_sample_weight() -> None:
    rng = np.random.default_rng(3)
    y, s, w = rng.random(300) < 0.4, rng.integers(0, 20, 300) / 20, rng.uniform(0.1, 3, 300)
    got = pl.DataFrame({"score": s, "label": y, "w": w}).roc.curve(weight="w")
    fpr, tpr, thresholds = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_array_equal(got["threshold"], thresholds)
    np.testing.assert_allclose(got["tpr"], tpr, atol=1e-12)
    np.testing.assert_allclose(got["fpr"], fpr, atol=1e-12)


def test_auc_of_curve_is_auc() -> None:
    rng = np.random.default_rng(4)
    frame = pl.DataFrame({"score": rng.integers(0, 50, 2000) / 7, "label": rng.random(2000) < 0.3})
    points = frame.roc.curve()
    assert trapezoid(points["fpr"], points["tpr"]) == pytest.approx(frame.roc.auc()["auc"].item())


def test_nan_group_has_null_rates_and_other_groups_are_untouched() -> None:
    frame = pl.DataFrame(
        {
            "g": [1, 1, 1, 2, 2],
            "score": [float("nan"), 0.2, 0.1, 0.3, 0.4],
            "label": [1, 0, 1, 0, 1],
        }
    )
    got = frame.roc.curve(by="g")
    assert got.filter(pl.col("g") == 1)["tpr"].is_null().all()
    assert got.filter(pl.col("g") == 2)["tpr"].to_list() == [0.0, 1.0, 1.0]


SPECIAL = [float("nan"), float("inf"), float("-inf"), 0.0, -0.0, 1.0, 2.0]


@given(
    rows=st.lists(st.tuples(st.sampled_from(SPECIAL), st.booleans()), min_size=1, max_size=30),
    dtype=st.sampled_from([pl.Float32, pl.Float64]),
)
def test_curve_with_nan_and_infinite_scores_is_the_one_group_curve(
    rows: list[tuple[float, bool]], dtype: pl.DataType
) -> None:
    # The single curve merges each class's sorted scores: NaN must still be one tie block,
    # as in the grouped curve's sort (a merge on NaN's comparisons split it in two).
    frame = pl.DataFrame(rows, schema={"score": dtype, "label": pl.Boolean}, orient="row")
    single = frame.roc.curve()
    grouped = frame.with_columns(g=pl.lit(1)).roc.curve(by="g").drop("g")
    assert single.equals(grouped, null_equal=True)
    thresholds = single["threshold"].to_list()[1:]
    nan = [t for t in thresholds if t != t]
    assert len(nan) == (1 if frame["score"].is_nan().any() else 0)
    # Every other threshold counts the rows at or above it, and the NaN rows (sorted first).
    for t, tp, fp in single.select("threshold", "tp", "fp").rows()[1:]:
        if t != t:
            continue
        above = [y for s, y in rows if s == s and s >= t]
        nan_rows = [y for s, y in rows if s != s]
        assert (tp, fp) == (
            sum(above) + sum(nan_rows),
            len(above) - sum(above) + len(nan_rows) - sum(nan_rows),
        )


def test_one_class_group_has_null_fpr() -> None:
    got = pl.DataFrame({"score": [0.1, 0.2], "label": [True, True]}).roc.curve()
    assert got["tpr"].to_list() == [0.0, 0.5, 1.0]
    assert got["fpr"].is_null().all()


def test_counts_core_is_public_and_starts_at_zero() -> None:
    frame = pl.DataFrame({"s": [0.3, 0.3, 0.9], "y": ["p", "n", "n"], "m": ["a", "a", "b"]})
    got = pr.curves.counts(frame.lazy(), "s", "y", by="m", pos_label="p").collect()
    assert got.rows() == [
        ("a", float("inf"), 0, 0),
        ("a", 0.3, 1, 1),
        ("b", float("inf"), 0, 0),
        ("b", 0.9, 0, 1),
    ]


@given(frame=scored_rows(groups=3, weighted=True))
def test_counts_table_input_gives_the_same_numbers_as_rows(frame: pl.DataFrame) -> None:
    # reduce "where the data lives" with a plain group-by, then finish in polars_roc
    table = frame.group_by("group", "score").agg(
        pos=pl.col("weight").filter("label").sum(),
        neg=pl.col("weight").filter(~pl.col("label")).sum(),
    )
    rows = pr.from_counts(table.lazy())
    got = rows.roc.auc(by="group", weight="weight").collect()
    expected = frame.roc.auc(by="group", weight="weight")
    assert got["group"].to_list() == expected["group"].to_list()
    assert got["auc"].to_list() == pytest.approx(expected["auc"].to_list())
    curve = rows.roc.curve(by="group", weight="weight").collect()
    assert curve.select("group", "threshold").equals(
        frame.roc.curve(by="group", weight="weight").select("group", "threshold")
    )
