"""Gain and lift curves, gains tables, KS and Gini against scikit-learn and brute force."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from hypothesis import example, given
from polars.testing import assert_frame_equal
from sklearn.metrics import roc_auc_score, roc_curve

import polars_roc as pr
from tests.conftest import repeat_rows, scored_rows

WEIGHTED = pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])


def brute_gain_curve(labels, scores, weights=None) -> list[tuple[float, float, float, float]]:
    """(threshold, depth, gain, lift) at +inf and every distinct score, by counting rows."""
    y = np.asarray(labels, dtype=bool)
    s = np.asarray(scores, dtype=float)
    w = np.ones(len(y)) if weights is None else np.asarray(weights, dtype=float)
    keep = w > 0
    y, s, w = y[keep], s[keep], w[keep]
    total, positives = w.sum(), w[y].sum()
    out = [(math.inf, 0.0, 0.0 if positives > 0 else math.nan, math.nan)]
    for t in sorted(set(s.tolist()), reverse=True):
        above = s >= t
        depth = w[above].sum() / total
        gain = w[above & y].sum() / positives if positives > 0 else math.nan
        out.append((t, depth, gain, gain / depth if positives > 0 else math.nan))
    return out


def as_rows(frame: pl.DataFrame, columns: list[str]) -> list[tuple[float, ...]]:
    return [
        tuple(math.nan if v is None else float(v) for v in row)
        for row in frame.select(columns).iter_rows()
    ]


@WEIGHTED
@given(frame=scored_rows(min_size=1, weighted=True))
@example(frame=pl.DataFrame({"score": [0.5, 0.5], "label": [True, False], "weight": [1.0, 1.0]}))
def test_gain_curve_matches_brute_force(frame: pl.DataFrame, *, weighted: bool) -> None:
    weights = frame["weight"] if weighted else None
    if weights is not None and weights.sum() == 0:
        return
    got = frame.roc.gain_curve(weight="weight" if weighted else None)
    expected = brute_gain_curve(frame["label"], frame["score"], weights)
    np.testing.assert_allclose(
        as_rows(got, ["threshold", "depth", "gain", "lift"]), expected, rtol=1e-12
    )


def brute_gains_table(labels, scores, bins: int, weights=None) -> dict[int, dict[str, float]]:
    """
    The gains table by its definition, row by row.

    Each row's bin is ceil(bins * c / total), c the (weight of) rows scoring at or above
    it; then every column is summed over the rows of each bin.
    """
    y = np.asarray(labels, dtype=bool)
    s = np.asarray(scores, dtype=float)
    w = np.ones(len(y)) if weights is None else np.asarray(weights, dtype=float)
    keep = w > 0
    y, s, w = y[keep], s[keep], w[keep]
    total, positives, negatives = w.sum(), w[y].sum(), w[~y].sum()
    row_bin = np.array([math.ceil(bins * w[s >= v].sum() / total) for v in s])
    table = {}
    for b in sorted(set(row_bin.tolist())):
        inside, upto = row_bin == b, row_bin <= b
        n, n_pos = w[inside].sum(), w[inside & y].sum()
        gain = w[upto & y].sum() / positives if positives > 0 else math.nan
        depth = w[upto].sum() / total
        table[b] = {
            "min_score": s[inside].min(),
            "max_score": s[inside].max(),
            "n": n,
            "n_pos": n_pos,
            "response_rate": n_pos / n,
            "depth": depth,
            "gain": gain,
            "lift": (n_pos / n) / (positives / total) if positives > 0 else math.nan,
            "cum_lift": gain / depth if positives > 0 else math.nan,
            "ks": (
                gain - w[upto & ~y].sum() / negatives
                if positives > 0 and negatives > 0
                else math.nan
            ),
        }
    return table


@WEIGHTED
@pytest.mark.parametrize("bins", [1, 3, 10])
@given(frame=scored_rows(min_size=1, max_size=40, weighted=True))
def test_gains_table_matches_brute_force(frame: pl.DataFrame, bins: int, *, weighted: bool) -> None:
    weights = frame["weight"] if weighted else None
    if weights is not None and weights.sum() == 0:
        return
    got = frame.roc.gains_table(bins=bins, weight="weight" if weighted else None)
    expected = brute_gains_table(frame["label"], frame["score"], bins, weights)
    assert got["bin"].to_list() == list(expected)
    columns = list(next(iter(expected.values())))
    np.testing.assert_allclose(
        as_rows(got, columns), [tuple(row.values()) for row in expected.values()], rtol=1e-12
    )


@pytest.mark.parametrize("n", [7, 10, 23, 100])
@pytest.mark.parametrize("bins", [3, 10])
def test_gains_bins_follow_r_gains_on_untied_scores(n: int, bins: int) -> None:
    # R's gains package: group = ceiling(rank / (n / groups)), rank 1 = the top score.
    rng = np.random.default_rng(n)
    scores = rng.permutation(n) / n
    labels = rng.random(n) < 0.4
    rank = n + 1 - (np.argsort(np.argsort(scores)) + 1)
    group = np.ceil(rank / (n / bins)).astype(int)
    expected = [int((group == g).sum()) for g in sorted(set(group.tolist()))]
    got = pl.DataFrame({"score": scores, "label": labels}).roc.gains_table(bins=bins)
    assert got["n"].to_list() == expected


@given(frame=scored_rows(min_size=1, max_size=40))
def test_gains_ties_never_split_and_depth_within_nominal(frame: pl.DataFrame) -> None:
    got = frame.roc.gains_table(bins=4)
    # Bins cover disjoint score ranges, from the top down.
    highs, lows = got["max_score"].to_list(), got["min_score"].to_list()
    assert all(low > high for low, high in zip(lows, highs[1:], strict=False))
    for b, depth in zip(got["bin"], got["depth"], strict=True):
        assert (b - 1) / 4 < depth <= b / 4


def test_gains_table_documents_a_tie_on_the_edge() -> None:
    # 10 rows, deciles; three rows tie at 0.5 in positions 4-6: they end in bin 6.
    scores = [0.9, 0.8, 0.7, 0.5, 0.5, 0.5, 0.4, 0.3, 0.2, 0.1]
    got = pl.DataFrame({"score": scores, "label": [1, 0] * 5}).roc.gains_table()
    assert got["bin"].to_list() == [1, 2, 3, 6, 7, 8, 9, 10]
    assert got["n"].to_list() == [1, 1, 1, 3, 1, 1, 1, 1]


@given(frame=scored_rows(min_size=1, groups=3))
def test_grouped_equals_one_group_at_a_time(frame: pl.DataFrame) -> None:
    for function in ("gain_curve", "gains_table", "ks"):
        grouped = getattr(frame.roc, function)(by="group")
        for (key,), part in frame.group_by("group"):
            alone = getattr(part.roc, function)()
            mine = grouped.filter(pl.col("group") == key).drop("group")
            assert_frame_equal(mine, alone)


@given(frame=scored_rows(min_size=1, weighted=True))
def test_weights_equal_repeated_rows(frame: pl.DataFrame) -> None:
    repeated = repeat_rows(frame)
    if repeated.height == 0:
        return
    for function in ("gain_curve", "gains_table", "ks"):
        weighted = getattr(frame.roc, function)(weight="weight")
        plain = getattr(repeated.roc, function)()
        assert_frame_equal(weighted, plain, check_dtypes=False)


@WEIGHTED
@given(frame=scored_rows(min_size=2, weighted=True))
@example(frame=pl.DataFrame({"score": [0.5, 0.5], "label": [True, False], "weight": [1.0, 1.0]}))
@example(frame=pl.DataFrame({"score": [0.1, 0.9], "label": [True, False], "weight": [1.0, 1.0]}))
def test_ks_matches_sklearn_roc_curve(frame: pl.DataFrame, *, weighted: bool) -> None:
    labels = frame["label"].to_numpy()
    sw = frame["weight"].to_numpy() if weighted else None
    live = np.ones(len(labels), dtype=bool) if sw is None else sw > 0
    got = frame.roc.ks(weight="weight" if weighted else None)
    if labels[live].all() or not labels[live].any():
        assert got["ks"].item() is None
        assert got["threshold"].item() is None
        return
    fpr, tpr, thresholds = roc_curve(
        labels, frame["score"].to_numpy(), sample_weight=sw, drop_intermediate=False
    )
    gap = tpr - fpr
    assert got["ks"].item() == pytest.approx(gap.max(), abs=1e-12)
    best = np.flatnonzero(np.isclose(gap, gap.max(), rtol=0, atol=1e-12))
    assert got["threshold"].item() == thresholds[best[0]]  # the highest such threshold


@WEIGHTED
@given(frame=scored_rows(min_size=2, weighted=True))
def test_gini_is_twice_sklearn_auc_less_one(frame: pl.DataFrame, *, weighted: bool) -> None:
    labels = frame["label"].to_numpy()
    sw = frame["weight"].to_numpy() if weighted else None
    live = np.ones(len(labels), dtype=bool) if sw is None else sw > 0
    weight = "weight" if weighted else None
    got = frame.select(pr.gini("score", "label", weight=weight)).item()
    if labels[live].all() or not labels[live].any():
        assert got is None
        return
    expected = 2 * roc_auc_score(labels, frame["score"].to_numpy(), sample_weight=sw) - 1
    assert got == pytest.approx(expected, abs=1e-12)
    by_method = frame.select(pl.col("score").roc.gini("label", weight=weight)).item()
    assert by_method == got


def test_undefined_groups_are_null() -> None:
    frame = pl.DataFrame(
        {
            "g": ["pos only", "pos only", "nan", "nan", "both", "both"],
            "score": [0.2, 0.8, float("nan"), 0.3, 0.4, 0.6],
            "label": [True, True, True, False, False, True],
        }
    )
    ks = frame.roc.ks(by="g").sort("g")
    assert ks["ks"].to_list() == [1.0, None, None]
    table = frame.roc.gains_table(by="g", bins=2).filter(pl.col("g") != "both")
    nan_row = table.filter(pl.col("g") == "nan")
    assert nan_row.height == 1
    assert nan_row.select("bin", "gain", "ks").row(0) == (None, None, None)
    assert table.filter(pl.col("g") == "pos only")["ks"].to_list() == [None, None]
    curve = frame.roc.gain_curve(by="g").filter(pl.col("g") == "nan")
    assert curve["gain"].null_count() == curve.height


def test_lazy_stays_lazy_and_errors_are_clear() -> None:
    lf = pl.LazyFrame({"score": [0.1, 0.9], "label": [0, 1]})
    assert isinstance(lf.roc.gains_table(), pl.LazyFrame)
    assert isinstance(lf.roc.gain_curve(), pl.LazyFrame)
    assert isinstance(lf.roc.ks(), pl.LazyFrame)
    with pytest.raises(ValueError, match="bins must be at least 1"):
        lf.roc.gains_table(bins=0)
    with pytest.raises(ValueError, match="collide"):
        lf.with_columns(depth=pl.lit(1)).roc.gain_curve(by="depth")
    with pytest.raises(pl.exceptions.ColumnNotFoundError):
        lf.roc.ks(score="nope")
