"""One optimal threshold (issue 27 item 4): every route marks the brute-force optimum.

Routes: ``best_threshold`` (and its ``ci="bootstrap"`` point estimate), the threshold
table's ``youden`` column, ``ks``, ``roc_chart(points="youden")``, the KS chart's label,
the threshold explorer's initial slider value, and the bootstrap replicates' own optimum
(the numpy statistic of :mod:`polars_roc._core.replicates` on the sample itself). The
oracle is a brute force over the thresholds in exact fractions; ties go to the highest
threshold (the fewest predicted positives).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import polars_roc as pr  # noqa: F401  (registers .roc)
from polars_roc import charts
from polars_roc._core.replicates import best_statistic

INF = float("inf")
#: best_threshold's own docstring example: 0.8 and 0.6 tie at J = 2/3.
EXAMPLE = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.6, 0.4, 0.1], "label": [1, 1, 0, 1, 0, 0]})


def brute(scores: list[float], labels: list[int], method: str = "youden", **kw: Any) -> float:
    """The optimum over ``+inf`` and every distinct score, in exact fractions; ties: highest."""
    n_pos = sum(labels)
    n_neg = len(labels) - n_pos
    best: tuple[Fraction, float] | None = None
    for t in [INF, *sorted(set(scores), reverse=True)]:
        tp = sum(1 for s, y in zip(scores, labels, strict=True) if s >= t and y == 1)
        fp = sum(1 for s, y in zip(scores, labels, strict=True) if s >= t and y == 0)
        tpr, fpr = Fraction(tp, n_pos), Fraction(fp, n_neg)
        if method == "youden":
            value = tpr - fpr
        elif method == "closest_topleft":
            value = -((1 - tpr) ** 2 + fpr**2)
        else:  # cost, counts
            value = -(Fraction(kw["cost_fn"]) * (n_pos - tp) + Fraction(kw["cost_fp"]) * fp)
        if best is None or value > best[0]:  # strictly better: the first (highest) stays
            best = (value, t)
    assert best is not None
    return best[1]


def replicate_optimum(df: pl.DataFrame, method: str = "youden", **kw: Any) -> float:
    """The bootstrap replicates' numpy optimum, on the sample itself (one 'replicate')."""
    levels = np.sort(df["score"].unique().to_numpy())
    pos = np.array([[((df["score"] == v) & (df["label"] == 1)).sum() for v in levels]], float)
    neg = np.array([[((df["score"] == v) & (df["label"] == 0)).sum() for v in levels]], float)
    costs = {"cost_fp": kw.get("cost_fp", 1.0), "cost_fn": kw.get("cost_fn", 1.0)}
    statistic = best_statistic(method, **costs, prevalence=None, fpr=None, tpr=None)
    return float(statistic(pos, neg, levels)[0, 0])


def chart_points(df: pl.DataFrame) -> list[float]:
    """The thresholds roc_chart(points="youden") marks."""
    spec = charts.roc_chart(df.roc.curve(), points="youden").to_dict()
    rows = spec["datasets"][spec["data"]["name"]]
    # (JSON has no infinity: a point at +inf, "predict nothing", is written null)
    return [
        INF if row["threshold"] is None else row["threshold"]
        for row in rows
        if row["_mark"] == "point"
    ]


def explorer_start(df: pl.DataFrame) -> float:
    """The threshold explorer's initial slider value."""
    spec = charts.threshold_explorer(df.roc.curve()).to_dict()
    return float(spec["params"][0]["value"])


def table_optimum(df: pl.DataFrame) -> float:
    """The threshold table's largest youden, the highest threshold among ties."""
    table = df.roc.thresholds().filter(pl.col("youden").is_not_null())
    top = table.filter(pl.col("youden") == pl.col("youden").max())
    return float(top["threshold"].max())  # type: ignore[arg-type]


def test_the_docstring_example_marks_0_8_everywhere() -> None:
    df = EXAMPLE
    assert df.roc.best_threshold()["threshold"].item() == 0.8
    assert table_optimum(df) == 0.8
    assert df.roc.ks()["threshold"].item() == 0.8
    assert chart_points(df) == [0.8]
    assert explorer_start(df) == 0.8
    boot = df.roc.best_threshold(ci="bootstrap", n_boot=20, seed=1)
    assert boot["threshold"].item() == 0.8
    assert replicate_optimum(df) == 0.8
    spec = charts.ks_chart(df.roc.curve()).to_dict()
    rows = spec["datasets"][spec["data"]["name"]]
    assert [row["_text"] for row in rows if row["_mark"] == "gap"] == ["KS 0.667\nat 0.8000"]


def test_lower_direction_marks_the_lowest_tied_threshold() -> None:
    # Negated scores under direction="lower": the same rows, thresholds negated.
    df = EXAMPLE.with_columns(-pl.col("score"))
    assert df.roc.best_threshold(direction="lower")["threshold"].item() == -0.8
    assert df.roc.ks(direction="lower")["threshold"].item() == -0.8
    spec = charts.roc_chart(df.roc.curve(direction="lower"), points="youden").to_dict()
    rows = spec["datasets"][spec["data"]["name"]]
    assert [row["threshold"] for row in rows if row["_mark"] == "point"] == [-0.8]
    chart = charts.threshold_explorer(df.roc.curve(direction="lower"))
    assert chart.to_dict()["params"][0]["value"] == -0.8


data = st.integers(2, 30).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 6), min_size=n, max_size=n),
        st.lists(st.integers(0, 1), min_size=n, max_size=n),
    )
)


@settings(max_examples=25, deadline=None)
@given(data)
def test_every_youden_route_agrees_with_brute_force(case: tuple[list[int], list[int]]) -> None:
    raw, labels = case
    if len(set(labels)) < 2:
        labels = [*labels[:-1], 1 - labels[0]] if labels[0] == labels[-1] else labels
    if len(set(labels)) < 2:
        return
    scores = [s / 10 for s in raw]
    df = pl.DataFrame({"score": scores, "label": labels})
    expected = brute(scores, labels)
    assert df.roc.best_threshold()["threshold"].item() == expected
    assert table_optimum(df) == expected
    assert df.roc.ks()["threshold"].item() == expected
    assert chart_points(df) == [expected]
    assert replicate_optimum(df) == expected
    if expected != INF and len(set(scores)) > 1:
        assert explorer_start(df) == pytest.approx(expected, abs=1e-9)


@settings(max_examples=20, deadline=None)
@given(data, st.sampled_from(["closest_topleft", "cost"]), st.integers(1, 4))
def test_other_objectives_agree_with_brute_force(
    case: tuple[list[int], list[int]], method: str, cost_fn: int
) -> None:
    raw, labels = case
    if len(set(labels)) < 2:
        return
    scores = [s / 10 for s in raw]
    df = pl.DataFrame({"score": scores, "label": labels})
    # closest_topleft with costs is pROC's best.weights: tests/thresholds/test_best_weights.py
    costs = {"cost_fp": 1.0, "cost_fn": float(cost_fn)} if method == "cost" else {}
    expected = brute(scores, labels, method, **costs)
    assert df.roc.best_threshold(method=method, **costs)["threshold"].item() == expected
    assert replicate_optimum(df, method, **costs) == expected


weighted_data = st.integers(2, 20).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 5), min_size=n, max_size=n),
        st.lists(st.integers(0, 1), min_size=n, max_size=n),
        st.lists(st.integers(1, 3), min_size=n, max_size=n),
    )
)


@settings(max_examples=20, deadline=None)
@given(weighted_data)
def test_weighted_routes_agree_with_repeated_rows(
    case: tuple[list[int], list[int], list[int]],
) -> None:
    raw, labels, weights = case
    if len(set(labels)) < 2:
        return
    scores = [s / 10 for s in raw]
    df = pl.DataFrame({"score": scores, "label": labels, "w": weights})
    repeated = [(s, y) for s, y, w in zip(scores, labels, weights, strict=True) for _ in range(w)]
    expected = brute([s for s, _ in repeated], [y for _, y in repeated])
    assert df.roc.best_threshold(weight="w")["threshold"].item() == expected
    assert df.roc.ks(weight="w")["threshold"].item() == expected
    spec = charts.roc_chart(df.roc.curve(weight="w"), points="youden").to_dict()
    rows = spec["datasets"][spec["data"]["name"]]
    marked = [
        INF if r["threshold"] is None else r["threshold"] for r in rows if r["_mark"] == "point"
    ]
    assert marked == [expected]
