"""`by=` takes Polars expressions: the same result, bit for bit, as adding the column first."""

from __future__ import annotations

import inspect
from datetime import date
from typing import Any

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import polars_roc as pr
from polars_roc.namespace import FRAME_METHODS

ROWS = (
    pr.datasets.simulate(300, seed=3)
    .with_columns(
        x=pl.col("case"),
        prediction=pl.col("score") > 0.3,
        day=pl.date(2024, 1, 1) + pl.duration(days=pl.col("case") % 28),
        time=(pl.col("case") % 10 + 1).cast(pl.Float64),
        p_a=pl.col("score"),
        p_b=1 - pl.col("score"),
    )
    .filter(pl.col("model") != "baseline")
)
POINTS = pl.DataFrame(
    {
        "model": ["a", "b", "c", "a", "b", "c"],
        "fpr": [0.1, 0.3, 0.6, 0.2, 0.4, 0.5],
        "tpr": [0.4, 0.7, 0.9, 0.5, 0.6, 0.95],
        "x": [1, 2, 3, 7, 8, 9],
    }
)
CLASSES = ROWS.with_columns(label=pl.when(pl.col("label")).then(pl.lit("a")).otherwise(pl.lit("b")))
#: A group computed by an expression (quantile bands need the whole column: not elementwise).
BAND = (pl.col("x") >= pl.col("x").median()).alias("band")

#: name -> (frame, keyword arguments besides `by`)
CALLS: dict[str, tuple[pl.DataFrame, dict[str, Any]]] = {
    "counts": (ROWS, {}),
    "curve": (ROWS, {}),
    "auc": (ROWS, {"ci": "delong"}),
    "partial_auc": (ROWS, {"fpr": (0.0, 0.2)}),
    "thresholds": (ROWS, {}),
    "best_threshold": (ROWS, {}),
    "tpr_at_fpr": (ROWS, {"fpr": 0.1}),
    "fpr_at_tpr": (ROWS, {"tpr": 0.8}),
    "point": (ROWS, {"prediction": "prediction"}),
    "pr_curve": (ROWS, {}),
    "det_curve": (ROWS, {}),
    "average_precision": (ROWS, {}),
    "pr_auc": (ROWS, {}),
    "confusion_matrix": (ROWS, {"label": "label", "prediction": "prediction"}),
    "mean_cost": (
        ROWS,
        {
            "label": "label",
            "prediction": "prediction",
            "costs": {(True, False): 5.0, (False, True): 1.0},
        },
    ),
    "compare": (ROWS, {"case": "case"}),
    "cv_auc": (ROWS, {}),
    "average_curve": (ROWS, {}),
    "hull": (ROWS, {}),
    "hull_auc": (ROWS, {}),
    "hull_of_points": (POINTS, {}),
    "hull_auc_of_points": (POINTS, {}),
    "dominance": (POINTS, {}),
    "crossings": (ROWS, {}),
    "curve_dominance": (ROWS, {}),
    "optimal": (ROWS, {"prevalence": 0.2}),
    "operating_ranges": (ROWS, {}),
    "hybrid": (ROWS, {"fpr": 0.2}),
    "optimal_of_points": (POINTS, {"prevalence": 0.2}),
    "operating_ranges_of_points": (POINTS, {}),
    "hybrid_of_points": (POINTS, {"target": 0.2}),
    "bootstrap": (ROWS, {"metrics": {"auc": pr.auc("score", "label")}, "n_boot": 20}),
    "gain_curve": (ROWS, {}),
    "gains_table": (ROWS, {}),
    "ks": (ROWS, {}),
    "calibration": (ROWS, {}),
    "multiclass_auc": (CLASSES, {"scores": {"a": "p_a", "b": "p_b"}}),
    "multiclass_curve": (CLASSES, {"scores": {"a": "p_a", "b": "p_b"}}),
    "calibration_fit": (ROWS, {}),
    "time_auc": (ROWS, {"time": "time", "event": "label", "horizons": [3.0, 6.0]}),
    "time_curve": (ROWS, {"time": "time", "event": "label", "horizons": [3.0]}),
    "over_time": (ROWS, {"time": "day", "every": "1w"}),
    "score_stability": (
        ROWS,
        {"time": "day", "every": "1w", "reference": (date(2024, 1, 1), date(2024, 1, 8))},
    ),
    "estimated_auc": (ROWS, {}),
    "rollup": (ROWS, {"segment": "segment"}),
    "disparity": (ROWS, {"segment": "segment", "n_boot": 20}),
    "cross_auc": (ROWS, {"segment": "segment"}),
    "bias_auc": (ROWS, {"segment": "segment"}),
    "value_curve": (ROWS, {}),
    "decision_curve": (ROWS, {}),
    "precision_at_recall": (ROWS, {"recall": 0.5}),
    "recall_at_precision": (ROWS, {"precision": 0.3}),
    "precision_at_depth": (ROWS, {"depth": 0.2}),
    "recall_at_depth": (ROWS, {"depth": 0.2}),
    "lift_at_depth": (ROWS, {"depth": 50}),
    "slices": (ROWS, {"features": ["segment", "fold"], "min_pos": 5, "min_neg": 5}),
}
GROUPED = sorted(n for n, f in FRAME_METHODS.items() if "by" in inspect.signature(f).parameters)


def test_every_frame_method_with_by_is_exercised() -> None:
    assert set(GROUPED) <= set(CALLS), sorted(set(GROUPED) - set(CALLS))


@pytest.mark.parametrize("name", GROUPED)
def test_an_expression_group_equals_the_named_column(name: str) -> None:
    frame, kwargs = CALLS[name]
    expected = FRAME_METHODS[name](frame.with_columns(BAND), by="band", **kwargs)
    got = FRAME_METHODS[name](frame, by=BAND, **kwargs)
    assert isinstance(got, pl.DataFrame)
    assert_frame_equal(got, expected)
    assert got["band"].n_unique() == 2  # two groups: the expression did group


@pytest.mark.parametrize("name", ["auc", "curve", "gains_table", "disparity", "bootstrap"])
def test_a_list_mixes_names_and_expressions_lazily_and_streaming(name: str) -> None:
    frame, kwargs = CALLS[name]
    by: list[str | pl.Expr] = [BAND, "segment"] if name != "disparity" else [BAND, "fold"]
    named = [*(["band", "segment"] if name != "disparity" else ["band", "fold"])]
    expected = FRAME_METHODS[name](frame.with_columns(BAND), by=named, **kwargs)
    lazy = FRAME_METHODS[name](frame.lazy(), by=by, **kwargs)
    assert isinstance(lazy, pl.LazyFrame)
    assert_frame_equal(lazy.collect(), expected)
    assert_frame_equal(lazy.collect(engine="streaming"), expected)


def test_the_namespace_takes_expressions() -> None:
    got = ROWS.roc.auc(by=pl.col("fold") > 0)
    assert got.columns[0] == "fold"
    expected = ROWS.with_columns(pl.col("fold") > 0).roc.auc(by="fold")
    assert_frame_equal(got, expected)
    # auc per band against the scalar expression on the band's rows, an independent path
    bands = ROWS.with_columns(BAND)
    for row in ROWS.roc.auc(by=BAND).iter_rows(named=True):
        part = bands.filter(pl.col("band") == row["band"])
        assert row["auc"] == pytest.approx(part.select(pr.auc("score", "label")).item(), abs=1e-12)


def test_an_expression_group_named_like_a_role_is_refused() -> None:
    with pytest.raises(ValueError, match="role and a `by` group"):
        ROWS.roc.auc(by=pl.col("score").round(1))


def test_something_else_in_by_is_refused_with_a_hint() -> None:
    with pytest.raises(TypeError, match="an expression or a list of them"):
        ROWS.roc.auc(by=[1])  # type: ignore[list-item]
