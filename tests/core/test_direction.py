"""direction="lower" is the same as negating the score, with thresholds kept in score units."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from polars.testing import assert_frame_equal
from sklearn.metrics import roc_auc_score

import polars_roc as pr
from tests.conftest import scored_rows

FRAME_FUNCTIONS = [
    ("counts", {}),
    ("curve", {}),
    ("auc", {}),
    ("partial_auc", {"fpr": (0.0, 0.5)}),
    ("thresholds", {}),
    ("thresholds", {"thresholds": [0.3, 0.6]}),
    ("best_threshold", {"method": "f1"}),
    ("tpr_at_fpr", {"fpr": [0.1, 0.5]}),
    ("fpr_at_tpr", {"tpr": [0.5]}),
    ("pr_curve", {}),
    ("det_curve", {}),
    ("average_precision", {}),
    ("pr_auc", {}),
    ("gain_curve", {}),
    ("gains_table", {"bins": 3}),
    ("ks", {}),
    ("hull", {}),
    ("hull_auc", {}),
    ("optimal", {}),
    ("operating_ranges", {}),
    ("hybrid", {"fpr": [0.25]}),
]


def negated_units(frame: pl.DataFrame) -> pl.DataFrame:
    """The oracle's thresholds back in score units: negate them, swap min and max scores."""
    units = ("threshold", "op_threshold", "threshold_a", "threshold_b")
    out = frame.with_columns(pl.col(c).neg() for c in units if c in frame.columns)
    if "min_score" in frame.columns:
        out = out.with_columns(min_score=-pl.col("max_score"), max_score=-pl.col("min_score"))
    return out


@pytest.mark.parametrize(("name", "options"), FRAME_FUNCTIONS, ids=lambda v: str(v))
@given(frame=scored_rows(min_size=1, groups=2))
def test_lower_equals_negated_score(frame: pl.DataFrame, name: str, options: dict) -> None:
    lower = getattr(frame.roc, name)(by="group", direction="lower", **options)
    negated_options = dict(options)
    if "thresholds" in options:
        negated_options["thresholds"] = [-t for t in options["thresholds"]]
    flipped = frame.with_columns(-pl.col("score"))
    expected = negated_units(getattr(flipped.roc, name)(by="group", **negated_options))
    assert_frame_equal(lower, expected)


@given(frame=scored_rows(min_size=2, weighted=True))
def test_expressions_follow_the_direction(frame: pl.DataFrame) -> None:
    for function in (pr.auc, pr.gini, pr.average_precision, pr.pr_auc):
        lower = frame.select(function("score", "label", weight="weight", direction="lower"))
        negated = frame.select(function(-pl.col("score"), "label", weight="weight"))
        assert_frame_equal(lower, negated)
    by_method = frame.select(pl.col("score").roc.auc("label", direction="lower"))
    assert_frame_equal(by_method, frame.select(pr.auc(-pl.col("score"), "label")))


def test_lower_auc_matches_sklearn_on_a_reversed_score() -> None:
    rng = np.random.default_rng(7)
    labels = rng.random(300) < 0.3
    risk = rng.normal(size=300) - labels  # a lower value means positive
    frame = pl.DataFrame({"score": risk, "label": labels})
    got = frame.roc.auc(direction="lower")["auc"].item()
    assert got == pytest.approx(roc_auc_score(labels, -risk), abs=1e-12)
    assert got > 0.5
    curve = frame.roc.curve(direction="lower")
    assert curve["threshold"][0] == float("-inf")  # nothing predicted positive
    assert curve["threshold"][1:].is_sorted()  # then from the lowest score up


def test_direction_is_checked_and_never_guessed() -> None:
    frame = pl.DataFrame({"score": [0.9, 0.1], "label": [0, 1]})
    assert frame.roc.auc()["auc"].item() == 0.0  # a reversed score is not flipped for you
    with pytest.raises(ValueError, match="direction must be 'higher' or 'lower'"):
        frame.roc.auc(direction="auto")
    with pytest.raises(ValueError, match="direction must be"):
        pr.auc("score", "label", direction=">")  # type: ignore[arg-type]


def test_direction_reaches_comparisons_and_folds() -> None:
    frame = pr.datasets.simulate(300, seed=5)
    flipped = frame.with_columns(-pl.col("score"))
    for name, options in (
        ("compare", {"case": "case", "by": "segment"}),
        ("cv_auc", {"fold": "fold", "by": "model"}),
        ("crossings", {"model": "model"}),
        ("curve_dominance", {"model": "model"}),
    ):
        lower = getattr(frame.roc, name)(direction="lower", **options)
        assert_frame_equal(lower, getattr(flipped.roc, name)(**options)), name
    lower = frame.roc.average_curve(fold="fold", by="model", method="threshold", direction="lower")
    negated = flipped.roc.average_curve(fold="fold", by="model", method="threshold")
    assert_frame_equal(lower, negated_units(negated))
