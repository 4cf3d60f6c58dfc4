"""NumPy numbers and arrays are accepted wherever Python numbers and lists are.

Each call is made twice, once with Python arguments and once with the same values as NumPy
scalars or arrays; the answers must be equal. The values are exact in float32 (0.25, 0.5,
...), so a float32 argument means the same number as its Python twin.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import polars_roc as pr

rng = np.random.default_rng(11)
N = 120
ROWS = pl.DataFrame(
    {
        "score": np.round(rng.random(N), 2),
        "label": (rng.random(N) < 0.4).astype(np.int64),
        "model": rng.choice(["a", "b"], N),
        "case": np.tile(np.arange(N // 2), 2),
        "fold": np.arange(N) % 3,
    }
).with_columns(score=pl.col("score") + (pl.col("label") * 0.2))
PAIRED = ROWS.with_columns(
    model=pl.when(pl.int_range(pl.len()) < N // 2).then(pl.lit("a")).otherwise(pl.lit("b"))
)
POINTS = pl.DataFrame(
    {
        "fpr": [0.0, 0.125, 0.25, 0.5, 1.0],
        "tpr": [0.0, 0.5, 0.75, 0.875, 1.0],
        "model": list("abcde"),
    }
)

f32, f64, i64, i32 = np.float32, np.float64, np.int64, np.int32

# name -> (call, Python kwargs, NumPy kwargs)
CASES: dict[str, tuple[Callable[..., Any], dict[str, Any], dict[str, Any]]] = {
    "auc level n_boot seed": (
        ROWS.roc.auc,
        {"ci": "bootstrap", "level": 0.75, "n_boot": 40, "seed": 3},
        {"ci": "bootstrap", "level": f32(0.75), "n_boot": i64(40), "seed": i32(3)},
    ),
    "auc delong level": (
        ROWS.roc.auc,
        {"ci": "delong", "level": 0.5},
        {"ci": "delong", "level": f32(0.5)},
    ),
    "auc pos_label": (ROWS.roc.auc, {"pos_label": 1}, {"pos_label": i64(1)}),
    "partial_auc fpr array": (
        ROWS.roc.partial_auc,
        {"fpr": (0.0, 0.25)},
        {"fpr": np.array([0.0, 0.25])},
    ),
    "partial_auc tpr float32": (
        ROWS.roc.partial_auc,
        {"tpr": (0.5, 1.0)},
        {"tpr": (f32(0.5), np.array(1.0, dtype=np.float32))},
    ),
    "partial_auc bootstrap": (
        ROWS.roc.partial_auc,
        {"fpr": (0.0, 0.5), "ci": "bootstrap", "n_boot": 30, "level": 0.75},
        {
            "fpr": np.array([0, 0.5], dtype=np.float32),
            "ci": "bootstrap",
            "n_boot": i32(30),
            "level": f64(0.75),
        },
    ),
    "tpr_at_fpr array": (
        ROWS.roc.tpr_at_fpr,
        {"fpr": [0.125, 0.5]},
        {"fpr": np.array([0.125, 0.5], dtype=np.float32)},
    ),
    "tpr_at_fpr scalar": (ROWS.roc.tpr_at_fpr, {"fpr": 0.25}, {"fpr": f32(0.25)}),
    "tpr_at_fpr int rates": (ROWS.roc.tpr_at_fpr, {"fpr": [0, 1]}, {"fpr": np.array([0, 1])}),
    "fpr_at_tpr bootstrap": (
        ROWS.roc.fpr_at_tpr,
        {"tpr": 0.5, "ci": "bootstrap", "n_boot": 30, "seed": 1},
        {"tpr": np.array([0.5]), "ci": "bootstrap", "n_boot": i64(30), "seed": np.uint8(1)},
    ),
    "curve thresholds array": (
        ROWS.roc.curve,
        {"thresholds": [0.25, 0.5, 0.75]},
        {"thresholds": np.array([0.25, 0.5, 0.75], dtype=np.float32)},
    ),
    "thresholds int k": (ROWS.roc.thresholds, {"thresholds": 4}, {"thresholds": i64(4)}),
    "thresholds linspace": (
        ROWS.roc.thresholds,
        {"thresholds": pr.linspace(5)},
        {"thresholds": pr.linspace(i32(5))},
    ),
    "thresholds int array": (
        ROWS.roc.thresholds,
        {"thresholds": [0, 1]},
        {"thresholds": np.array([0, 1])},
    ),
    "best_threshold cost": (
        ROWS.roc.best_threshold,
        {"method": "cost", "cost_fp": 2, "cost_fn": 0.5, "prevalence": 0.25},
        {"method": "cost", "cost_fp": i64(2), "cost_fn": f32(0.5), "prevalence": f32(0.25)},
    ),
    "best_threshold range": (
        ROWS.roc.best_threshold,
        {"fpr": (0.0, 0.5), "thresholds": [0.25, 0.5]},
        {"fpr": np.array([0.0, 0.5]), "thresholds": np.array([0.25, 0.5])},
    ),
    "compare level": (
        PAIRED.roc.compare,
        {"case": "case", "level": 0.75},
        {"case": "case", "level": f32(0.75)},
    ),
    "compare plan sizes": (
        PAIRED.roc.compare,
        {"case": "case", "plan": "power", "n_pos": 30, "n_neg": 40.5},
        {"case": "case", "plan": "power", "n_pos": i64(30), "n_neg": f32(40.5)},
    ),
    "compare plan power": (
        PAIRED.roc.compare,
        {"case": "case", "plan": "alpha", "power": 0.75, "n_pos": 30},
        {"case": "case", "plan": "alpha", "power": f32(0.75), "n_pos": i32(30)},
    ),
    "average_curve points level": (
        ROWS.roc.average_curve,
        {"points": 5, "level": 0.5},
        {"points": i64(5), "level": f32(0.5)},
    ),
    "average_curve threshold": (
        ROWS.roc.average_curve,
        {"method": "threshold", "points": 4},
        {"method": "threshold", "points": i32(4)},
    ),
    "optimal": (
        ROWS.roc.optimal,
        {"prevalence": 0.25, "cost_fp": 2, "cost_fn": 1.5},
        {"prevalence": f32(0.25), "cost_fp": i64(2), "cost_fn": f32(1.5)},
    ),
    "operating_ranges": (ROWS.roc.operating_ranges, {"prevalence": 0.5}, {"prevalence": f64(0.5)}),
    "hybrid": (
        ROWS.roc.hybrid,
        {"fpr": [0.125, 0.25]},
        {"fpr": np.array([0.125, 0.25], dtype=np.float32)},
    ),
    "hybrid scalar": (ROWS.roc.hybrid, {"fpr": 0.25}, {"fpr": f32(0.25)}),
    "optimal_of_points": (
        pr.optimal_of_points,
        {"frame": POINTS, "prevalence": 0.25, "cost_fp": 3},
        {"frame": POINTS, "prevalence": f32(0.25), "cost_fp": i64(3)},
    ),
    "operating_ranges_of_points": (
        pr.operating_ranges_of_points,
        {"frame": POINTS, "prevalence": 0.5},
        {"frame": POINTS, "prevalence": f32(0.5)},
    ),
    "hybrid_of_points": (
        pr.hybrid_of_points,
        {"frame": POINTS, "target": [0.125, 0.375]},
        {"frame": POINTS, "target": np.array([0.125, 0.375])},
    ),
    "mean_cost": (
        ROWS.with_columns(pred=(pl.col("score") > 0.5).cast(pl.Int64)).roc.mean_cost,
        {"label": "label", "prediction": "pred", "costs": {(0, 1): 2.0, (1, 0): 5}},
        {
            "label": "label",
            "prediction": "pred",
            "costs": {(i64(0), i64(1)): f32(2.0), (i64(1), i64(0)): i64(5)},
        },
    ),
}


def _call(function: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
    kwargs = dict(kwargs)
    if "frame" in kwargs:
        return function(kwargs.pop("frame"), **kwargs)
    return function(**kwargs)


@pytest.mark.parametrize("case", sorted(CASES))
def test_numpy_arguments_mean_what_python_ones_do(case: str) -> None:
    function, python, numpy = CASES[case]
    expected = _call(function, python)
    got = _call(function, numpy)
    assert_frame_equal(got, expected)


def test_numpy_arguments_to_expressions() -> None:
    frame = ROWS.with_columns(fold=pr.stratified_folds("label", k=3, seed=5))
    again = ROWS.with_columns(fold=pr.stratified_folds("label", k=i64(3), seed=i64(5)))
    assert_frame_equal(again, frame)
    assert (
        ROWS.select(pr.auc("score", "label", pos_label=i64(1))).item()
        == ROWS.select(pr.auc("score", "label", pos_label=1)).item()
    )


def test_numpy_bins_and_sizes_in_charts() -> None:
    scores = ROWS.select("score", "label")
    expected = pr.charts.score_chart(scores, bins=10, width=200).to_dict()
    assert pr.charts.score_chart(scores, bins=i64(10), width=i64(200)).to_dict() == expected
    curve = ROWS.roc.curve()
    expected = pr.charts.roc_chart(curve, size=200, max_points=50).to_dict()
    assert pr.charts.roc_chart(curve, size=i32(200), max_points=i64(50)).to_dict() == expected


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: ROWS.roc.auc(ci="delong", level=np.float32(1.5)), "level"),
        (lambda: ROWS.roc.auc(ci="bootstrap", n_boot=np.float64(10.0)), "n_boot"),
        (lambda: ROWS.roc.tpr_at_fpr(fpr=np.array([0.1, 2.0])), "rates in"),
        (lambda: ROWS.roc.thresholds(thresholds=np.array([[0.1, 0.2]])), "thresholds"),
        (lambda: ROWS.roc.best_threshold(method="cost", cost_fp=np.float64("nan")), "cost_fp"),
        (lambda: ROWS.roc.tpr_at_fpr(fpr=np.bool_(True)), "rates"),
    ],
)
def test_bad_numpy_arguments_get_our_errors(call: Callable[[], Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()
