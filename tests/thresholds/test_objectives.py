"""The one optimum of ``_core/objectives.py`` and its numpy twin: parity on hypothesis data.

The Polars objective (over a curve's counts) and the numpy twin (the bootstrap replicates'
statistic) choose the same threshold for every named method, weighted or not, and both
agree with a brute force in exact fractions where weights are repeated rows.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

import polars_roc as pr  # noqa: F401  (registers .roc)
from polars_roc._core import objectives

INF = float("inf")

cases = st.integers(2, 25).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 5), min_size=n, max_size=n),
        st.lists(st.integers(0, 1), min_size=n, max_size=n),
        st.lists(st.integers(1, 3), min_size=n, max_size=n),
    )
)
methods = st.sampled_from(
    [
        ("youden", {}),
        ("closest_topleft", {}),
        ("cost", {"cost_fp": 1.0, "cost_fn": 3.0}),
        ("cost", {"cost_fp": 2.0, "cost_fn": 1.0, "prevalence": 0.3}),
    ]
)


def brute(rows: list[tuple[float, int]], method: str, kw: dict[str, Any]) -> float:
    """The optimum over +inf and every distinct score in exact fractions; ties: highest."""
    n_pos = sum(1 for _, y in rows if y)
    n_neg = len(rows) - n_pos
    best: tuple[Fraction, float] | None = None
    for t in [INF, *sorted({s for s, _ in rows}, reverse=True)]:
        tp = sum(1 for s, y in rows if s >= t and y)
        fp = sum(1 for s, y in rows if s >= t and not y)
        tpr, fpr = Fraction(tp, n_pos), Fraction(fp, n_neg)
        if method == "youden":
            value = tpr - fpr
        elif method == "closest_topleft":
            value = -((1 - tpr) ** 2 + fpr**2)
        elif kw.get("prevalence") is None:
            value = -(Fraction(kw["cost_fn"]) * (n_pos - tp) + Fraction(kw["cost_fp"]) * fp)
        else:
            pi = Fraction(kw["prevalence"])
            value = -(Fraction(kw["cost_fn"]) * pi * (1 - tpr)) - (
                Fraction(kw["cost_fp"]) * (1 - pi) * fpr
            )
        if best is None or value > best[0]:
            best = (value, t)
    assert best is not None
    return best[1]


@settings(max_examples=80, deadline=None)
@given(cases, methods, st.booleans())
def test_polars_and_numpy_choose_the_same_threshold(
    case: tuple[list[int], list[int], list[int]], method: tuple[str, dict[str, Any]], weighted: bool
) -> None:
    raw, labels, weights = case
    if len(set(labels)) < 2:
        return
    name, kw = method
    df = pl.DataFrame({"score": [s / 10 for s in raw], "label": labels, "w": weights})
    curve = df.roc.curve(weight="w" if weighted else None)
    # Polars
    value = objectives.objective(name, **kw, weighted=weighted)
    tie = objectives.tolerance(name, **kw, weighted=weighted)
    chosen = objectives.best_rows(curve.lazy(), [], value, columns=["threshold"], tie=tie)
    polars_threshold = chosen.collect().item()
    # numpy: the curve's cumulative counts as one replicate, highest threshold first
    tp = curve["tp"].cast(pl.Float64).to_numpy()[None, :]
    fp = curve["fp"].cast(pl.Float64).to_numpy()[None, :]
    numbers, ties = objectives.objective_np(name, tp, fp, **kw, weighted=weighted)
    index, found = objectives.best_index_np(numbers, ties)
    assert found.tolist() == [True]
    numpy_threshold = curve["threshold"][int(index[0])]
    assert polars_threshold == numpy_threshold
    # the oracle: weights as repeated rows
    rows = [
        (s / 10, y)
        for s, y, w in zip(raw, labels, weights, strict=True)
        for _ in range(w if weighted else 1)
    ]
    assert polars_threshold == brute(rows, name, kw)


def test_numpy_twin_is_exact_beyond_float_resolution() -> None:
    # J = 2/3 at two candidates: tpr - fpr in floats splits them, the integers do not.
    tp = np.array([[0.0, 1, 2, 2, 3, 3, 3]])
    fp = np.array([[0.0, 0, 0, 1, 1, 2, 3]])
    assert (tp[0, 2] / 3 - fp[0, 2] / 3) != (tp[0, 4] / 3 - fp[0, 4] / 3)
    value, tie = objectives.objective_np("youden", tp, fp, weighted=False)
    index, found = objectives.best_index_np(value, tie)
    assert index.tolist() == [2]
    assert found.tolist() == [True]


def test_large_squared_distances_are_ranked_not_rounded() -> None:
    # P * N near 2**31: squared distances beyond 2**53 still order and tie exactly.
    n = 46_000
    tp = np.array([[0.0, n - 1, n - 1, n]])
    fp = np.array([[0.0, 1, 1, n]])
    value, tie = objectives.objective_np("closest_topleft", tp, fp, weighted=False)
    assert tie is None
    index, _ = objectives.best_index_np(value, tie)
    assert index.tolist() == [1]  # the two equal middles tie: the first (highest) wins


def test_a_group_without_candidate_gets_nulls() -> None:
    table = pl.LazyFrame({"g": ["a", "a", "b"], "threshold": [1.0, 0.0, 1.0], "v": [1, 2, None]})
    out = objectives.best_rows(table, ["g"], pl.col("v"), columns=["threshold"]).collect()
    assert out.rows() == [("a", 0.0), ("b", None)]
