"""Edges: column names, extreme weights, huge integers, NaN scores, unclear errors.

Every expected value comes from an independent oracle: scikit-learn, brute force over all
positive-negative pairs, or the same data with a neutral column name.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import polars_roc as pr
from polars_roc._core.names import SUFFIXED

GROUP = "grp_neutral"

#: Output and internal column names a user's group column could carry.
NAMES = [
    "tpr", "fpr", "tn", "fn", "tp", "fp", "auc", "n_pos", "n_neg", "threshold", "pauc",
    "precision", "recall", "_d", "_positives", "_negatives", "_positive", "_weight", "_gid",
    "_k", "_t", "_i", "_target", "_r", "_n", "_j", "diff", "model_a", "se", "lower",
    "average_precision", "fnr", "mean_cost", "ks", "p_value", "index", "__roc_by0",
]  # fmt: skip


def _rows() -> pl.DataFrame:
    rng = np.random.default_rng(7)
    n = 48
    label = rng.integers(0, 2, n)
    label[:4] = [0, 1, 0, 1]
    return pl.DataFrame(
        {
            GROUP: np.repeat(["a", "b"], n // 2),
            "model": np.tile(np.repeat(["m1", "m2"], n // 4), 2),
            "case": np.tile(np.arange(n // 4), 4),
            "fold": np.tile([1, 2], n // 2),
            "score": np.round(rng.normal(size=n) + label, 1),
            "label": label,
            "pred": (rng.normal(size=n) + label > 0.5).astype(int),
        }
    )


def _points() -> pl.DataFrame:
    return pl.DataFrame(
        {
            GROUP: ["a"] * 3 + ["b"] * 3,
            "model": ["x", "y", "z"] * 2,
            "fpr": [0.1, 0.3, 0.6, 0.2, 0.4, 0.5],
            "tpr": [0.4, 0.7, 0.9, 0.5, 0.6, 0.95],
        }
    )


def _p(df: pl.DataFrame) -> pl.DataFrame:
    return df.with_columns(p=1 / (1 + (-pl.col("score")).exp()))


def _timed(df: pl.DataFrame) -> pl.DataFrame:
    return df.with_columns(t=(pl.col("case") + 1).cast(pl.Float64), e=pl.col("label") == 1)


Call = Callable[[pl.DataFrame, str], pl.DataFrame]
COSTS = {(0, 1): 1.0, (1, 0): 3.0}
CALLS: dict[str, Call] = {
    "counts": lambda df, g: df.roc.counts(by=g),
    "curve": lambda df, g: df.roc.curve(by=g, drop_intermediate=True),
    "auc": lambda df, g: df.roc.auc(by=g),
    "auc:delong": lambda df, g: df.roc.auc(by=g, ci="delong"),
    "partial_auc": lambda df, g: df.roc.partial_auc(fpr=(0.0, 0.5), by=g),
    "thresholds": lambda df, g: df.roc.thresholds(by=g),
    "best_threshold": lambda df, g: df.roc.best_threshold(by=g),
    "tpr_at_fpr": lambda df, g: df.roc.tpr_at_fpr(fpr=[0.1, 0.5], by=g),
    "fpr_at_tpr": lambda df, g: df.roc.fpr_at_tpr(tpr=[0.5, 0.9], by=g),
    "point": lambda df, g: df.roc.point("pred", by=g),
    "pr_curve": lambda df, g: df.roc.pr_curve(by=g),
    "det_curve": lambda df, g: df.roc.det_curve(by=g),
    "average_precision": lambda df, g: df.roc.average_precision(by=g),
    "confusion_matrix": lambda df, g: df.roc.confusion_matrix("label", "pred", by=g),
    "mean_cost": lambda df, g: df.roc.mean_cost("label", "pred", COSTS, by=g),
    "compare": lambda df, g: df.roc.compare(by=g, case="case"),
    "cv_auc": lambda df, g: df.roc.cv_auc(by=g),
    "average_curve": lambda df, g: df.roc.average_curve(by=g, points=5),
    "average_curve:threshold": lambda df, g: df.roc.average_curve(
        by=g, points=5, method="threshold"
    ),
    "hull": lambda df, g: df.roc.hull(by=g),
    "hull_auc": lambda df, g: df.roc.hull_auc(by=g, model="model"),
    "crossings": lambda df, g: df.roc.crossings(by=g),
    "curve_dominance": lambda df, g: df.roc.curve_dominance(by=g),
    "optimal": lambda df, g: df.roc.optimal(by=g),
    "operating_ranges": lambda df, g: df.roc.operating_ranges(by=g),
    "hybrid": lambda df, g: df.roc.hybrid(fpr=0.3, by=g),
    "bootstrap": lambda df, g: df.roc.bootstrap(
        {"auc": pr.auc("score", "label")}, by=g, n_boot=20, seed=1
    ),
    "gain_curve": lambda df, g: df.roc.gain_curve(by=g),
    "gains_table": lambda df, g: df.roc.gains_table(by=g, bins=4),
    "ks": lambda df, g: df.roc.ks(by=g),
    "pr_auc": lambda df, g: df.roc.pr_auc(by=g),
    "calibration": lambda df, g: df.with_columns(
        p=1 / (1 + (-pl.col("score")).exp())
    ).roc.calibration("p", by=g, bins=4),
    "multiclass_auc": lambda df, g: df.with_columns(s0=-pl.col("score")).roc.multiclass_auc(
        {0: "s0", 1: "score"}, by=g
    ),
    "multiclass_curve": lambda df, g: df.with_columns(s0=-pl.col("score")).roc.multiclass_curve(
        {0: "s0", 1: "score"}, by=g
    ),
    # round 3
    "calibration_fit": lambda df, g: _p(df).roc.calibration_fit("p", by=g),
    "time_auc": lambda df, g: _timed(df).roc.time_auc(
        time="t", event="e", horizons=[3.0, 6.0], by=g
    ),
    "time_curve": lambda df, g: _timed(df).roc.time_curve(
        time="t", event="e", horizons=[6.0], by=g
    ),
    "over_time": lambda df, g: df.roc.over_time(time="case", every="4i", by=g),
    "score_stability": lambda df, g: df.roc.score_stability(
        time="case", every="4i", reference=pl.col("case") < 4, by=g
    ),
    "estimated_auc": lambda df, g: _p(df).roc.estimated_auc("p", by=g),
    "rollup": lambda df, g: df.roc.rollup(segment="model", by=g),
    "disparity": lambda df, g: df.roc.disparity(segment="model", by=g),
    "cross_auc": lambda df, g: df.roc.cross_auc(segment="model", by=g),
    "bias_auc": lambda df, g: df.roc.bias_auc(segment="model", by=g),
    "value_curve": lambda df, g: df.roc.value_curve(cost_fp=1.0, by=g),
    "precision_at_recall": lambda df, g: df.roc.precision_at_recall(by=g),
    "recall_at_precision": lambda df, g: df.roc.recall_at_precision(by=g),
    "precision_at_depth": lambda df, g: df.roc.precision_at_depth(by=g),
    "recall_at_depth": lambda df, g: df.roc.recall_at_depth(by=g),
    "lift_at_depth": lambda df, g: df.roc.lift_at_depth(by=g),
    "slices": lambda df, g: df.roc.slices(features="model", by=g, min_pos=1, min_neg=1),
    "smooth": lambda df, g: df.roc.smooth(by=g),
    "smooth_auc": lambda df, g: df.roc.smooth_auc(by=g),
    "checks": lambda df, g: df.roc.checks(
        by=g, champion="m1", challenger="m2", case="case", margin=0.1
    ),
    "decision_curve": lambda df, g: _p(df).roc.decision_curve("p", by=g, thresholds=[0.2, 0.5]),
}
POINT_CALLS: dict[str, Call] = {
    "hull_of_points": lambda df, g: df.roc.hull_of_points(by=g),
    "hull_auc_of_points": lambda df, g: df.roc.hull_auc_of_points(by=g),
    "dominance": lambda df, g: df.roc.dominance(by=g),
    "optimal_of_points": lambda df, g: df.roc.optimal_of_points(by=g, prevalence=0.4),
    "operating_ranges_of_points": lambda df, g: df.roc.operating_ranges_of_points(by=g),
    "hybrid_of_points": lambda df, g: df.roc.hybrid_of_points(by=g, target=0.3),
}


def test_the_sweep_covers_every_frame_method() -> None:
    covered = {name.split(":")[0] for name in CALLS}
    assert set(pr.namespace.FRAME_METHODS) <= covered | set(POINT_CALLS)


def _same_as_neutral(call: Call, frame: pl.DataFrame, name: str, suffixed: bool = False) -> None:
    if name in frame.columns:
        return
    neutral = call(frame, GROUP)
    if name in neutral.columns and suffixed:  # the user's column keeps its name; ours: `name_`
        with pytest.warns(UserWarning, match=f"output column {name!r} .* is named {name + '_'!r}"):
            got = call(frame.rename({GROUP: name}), name)
        assert_frame_equal(got, neutral.rename({name: f"{name}_"}).rename({GROUP: name}))
        return
    if name in neutral.columns:
        with pytest.raises(ValueError, match=f"output column {name!r}.*`by` column {name!r}"):
            call(frame.rename({GROUP: name}), name)
        return
    got = call(frame.rename({GROUP: name}), name)
    assert_frame_equal(got, neutral.rename({GROUP: name}))


@pytest.mark.parametrize("method", sorted(CALLS))
def test_a_group_named_like_any_column_gives_the_neutral_result(method: str) -> None:
    frame = _rows()
    function = pr.namespace.FRAME_METHODS[method.split(":")[0]]
    suffixed = getattr(function, SUFFIXED, False)
    for name in NAMES:
        _same_as_neutral(CALLS[method], frame, name, suffixed)


#: Tables of score bins: a group without a counted score has no bin, so no row.
BINNED = {"gains_table", "calibration", "average_curve:threshold"}
#: Tables whose rows are pairs or windows of counted rows: a group without one has none
#: (cross_auc: no segment holds a counted positive or negative; score_stability: no window
#: holds a counted score). Grouped == one group at a time still holds.
BINNED |= {"cross_auc", "score_stability"}
#: slices: a slice needs min_pos positives and min_neg negatives among its counted rows.
BINNED |= {"slices"}


@pytest.mark.parametrize("method", sorted(CALLS))
def test_a_group_whose_scores_are_all_null_keeps_its_rows(method: str) -> None:
    # Grouped == one group at a time, and a group in which no row counts (every score
    # null) is not dropped: its curve is the start row, its areas and rates null, as for a
    # group without positives or negatives (once, every curve-based table dropped it).
    frame = _rows()
    empty = frame.filter(pl.col(GROUP) == "a").with_columns(
        pl.lit("c").alias(GROUP), pl.lit(None, dtype=pl.Float64).alias("score")
    )
    both = pl.concat([frame, empty])
    got = CALLS[method](both, GROUP)
    for group in ("a", "c"):
        alone = CALLS[method](both.filter(pl.col(GROUP) == group), GROUP)
        assert_frame_equal(got.filter(pl.col(GROUP) == group), alone, check_dtypes=False)
    rows = got.filter(pl.col(GROUP) == "c")
    assert rows.height == 0 if method in BINNED else rows.height > 0
    if method in {"counts", "curve"}:
        assert rows.select("threshold", "tp", "fp").rows() == [(float("inf"), 0, 0)]
    for column in ("auc", "pauc", "average_precision", "pr_auc", "hull_auc", "ks", "tpr"):
        # point rates come from predictions; fpr_at_tpr and hybrid echo the target asked for.
        if column in rows.columns and method not in {"point", "hybrid", "fpr_at_tpr"}:
            assert rows[column].null_count() == rows.height


@pytest.mark.parametrize("method", sorted(POINT_CALLS))
def test_a_points_group_named_like_any_column_gives_the_neutral_result(method: str) -> None:
    for name in NAMES:
        _same_as_neutral(POINT_CALLS[method], _points(), name)


def test_a_group_named_like_a_role_or_twice_or_as_an_expression_is_refused() -> None:
    frame = _rows()
    with pytest.raises(ValueError, match="fold column 'fold' is already the by column"):
        frame.roc.cv_auc(by="fold")
    with pytest.raises(ValueError, match="model column 'model' is already the by column"):
        frame.roc.compare(by="model")
    with pytest.raises(ValueError, match=r"more than once.*\['grp_neutral', 'grp_neutral'\]"):
        frame.roc.auc(by=[GROUP, GROUP])
    with pytest.raises(ValueError, match="output column 'diff' of compare"):
        frame.rename({GROUP: "diff"}).roc.compare(by="diff", case="case")


def test_an_unused_column_named_like_an_internal_one_changes_nothing() -> None:
    frame = _rows()
    extra = frame.with_columns(**{name: pl.lit(1.5) for name in NAMES if name not in frame.columns})
    for method, call in CALLS.items():
        want = call(frame, GROUP)
        got = call(extra, GROUP)
        assert_frame_equal(got, want), method
