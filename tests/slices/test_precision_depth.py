"""Precision at a recall, recall at a precision, and precision/recall/lift at a depth."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import example, given
from polars.testing import assert_frame_equal
from sklearn.metrics import precision_recall_curve

import polars_roc as pr
from tests.conftest import DATA, repeat_rows, scored_rows

ASAH = pl.read_csv(DATA / "aSAH.csv").with_columns(poor=pl.col("outcome") == "Poor")


def test_asah_matches_scikit_learn_and_the_published_values() -> None:
    got = ASAH.select(
        pr.precision_at_recall("s100b", "poor", recall=0.8),
        pr.recall_at_precision("s100b", "poor", precision=0.7),
    ).row(0)
    assert got == (0.4358974358974359, 0.34146341463414637)
    precision, recall, _ = precision_recall_curve(ASAH["poor"], ASAH["s100b"])
    assert got == (precision[recall >= 0.8].max(), recall[precision >= 0.7].max())


@pytest.mark.parametrize("bins", [4, 5, 10, 20])
def test_lift_at_the_first_bin_is_the_gains_tables_first_row(bins: int) -> None:
    table = ASAH.roc.gains_table("s100b", "poor", bins=bins)
    first = table.filter(pl.col("bin") == 1)
    got = ASAH.select(pr.lift_at_depth("s100b", "poor", depth=1 / bins)).item()
    frame = ASAH.roc.lift_at_depth("s100b", "poor", depth=1 / bins)
    assert got == first["cum_lift"].item() == frame["lift"].item()
    assert frame["depth"].item() == first["depth"].item()
    recall = ASAH.select(pr.recall_at_depth("s100b", "poor", depth=1 / bins)).item()
    assert recall == first["gain"].item()


def _pr_oracle(labels: list[bool], scores: list[float]) -> tuple[list[float], list[float]]:
    """Precision and recall at every distinct score, plus (recall 0, precision 1)."""
    y, s = np.asarray(labels, dtype=bool), np.asarray(scores, dtype=float)
    precision, recall = [1.0], [0.0]
    for t in np.unique(s):
        chosen = s >= t
        precision.append(float((y & chosen).sum() / chosen.sum()))
        recall.append(float((y & chosen).sum() / y.sum()))
    return precision, recall


@given(case=scored_rows(min_size=1))
@example(case=pl.DataFrame({"score": [0.5, 0.5], "label": [False, True]}))
def test_points_against_a_brute_force_curve(case: pl.DataFrame) -> None:
    for target in (0.0, 0.3, 0.8, 1.0):
        got = case.select(
            pr.precision_at_recall("score", "label", recall=target),
            pr.recall_at_precision("score", "label", precision=target),
        ).row(0)
        frame_p = case.roc.precision_at_recall(recall=target)["precision"].item()
        frame_r = case.roc.recall_at_precision(precision=target)["recall"].item()
        assert got == (frame_p, frame_r)
        if not case["label"].any():
            assert got == (None, None)
            continue
        precision, recall = _pr_oracle(case["label"].to_list(), case["score"].to_list())
        p, r = np.array(precision), np.array(recall)
        assert got[0] == pytest.approx(p[r >= target].max(), abs=1e-12)
        assert got[1] == pytest.approx(r[p >= target].max(), abs=1e-12)


def _depth_oracle(labels: list[bool], scores: list[float], depth: float | int) -> Any:
    """Whole tie blocks from the top while the rows taken stay within the depth."""
    y, s = np.asarray(labels, dtype=bool), np.asarray(scores, dtype=float)
    limit = depth if isinstance(depth, int) else depth * len(s)
    taken = np.zeros(len(s), dtype=bool)
    for t in sorted(set(s), reverse=True):
        block = taken | (s >= t)
        if block.sum() > limit + 1e-9:
            break
        taken = block
    n, hits, positives = taken.sum(), (y & taken).sum(), y.sum()
    precision = hits / n if n else None
    recall = hits / positives if positives else None
    lift = hits * len(s) / (n * positives) if n and positives else None
    return precision, recall, lift


@given(case=scored_rows(min_size=1))
@example(case=pl.DataFrame({"score": [0.5, 0.5, 0.1], "label": [True, True, False]}))
def test_depth_against_a_brute_force_cut(case: pl.DataFrame) -> None:
    for depth in (0.1, 0.25, 0.5, 1.0, 1, 3):
        got = case.select(
            pr.precision_at_depth("score", "label", depth=depth),
            pr.recall_at_depth("score", "label", depth=depth),
            pr.lift_at_depth("score", "label", depth=depth),
        ).row(0)
        expected = _depth_oracle(case["label"].to_list(), case["score"].to_list(), depth)
        assert got == pytest.approx(expected, abs=1e-12)
        frames = [
            case.roc.precision_at_depth(depth=depth)["precision"].item(),
            case.roc.recall_at_depth(depth=depth)["recall"].item(),
            case.roc.lift_at_depth(depth=depth)["lift"].item(),
        ]
        assert tuple(frames) == got


EXPRESSIONS = {
    "precision_at_recall": lambda **k: pr.precision_at_recall("score", "label", recall=0.5, **k),
    "recall_at_precision": lambda **k: pr.recall_at_precision("score", "label", precision=0.3, **k),
    "precision_at_depth": lambda **k: pr.precision_at_depth("score", "label", depth=0.2, **k),
    "recall_at_depth": lambda **k: pr.recall_at_depth("score", "label", depth=0.2, **k),
    "lift_at_depth": lambda **k: pr.lift_at_depth("score", "label", depth=0.2, **k),
}
FRAMES = {
    "precision_at_recall": (
        lambda lf, **k: lf.roc.precision_at_recall(recall=0.5, **k),
        "precision",
    ),
    "recall_at_precision": (
        lambda lf, **k: lf.roc.recall_at_precision(precision=0.3, **k),
        "recall",
    ),
    "precision_at_depth": (lambda lf, **k: lf.roc.precision_at_depth(depth=0.2, **k), "precision"),
    "recall_at_depth": (lambda lf, **k: lf.roc.recall_at_depth(depth=0.2, **k), "recall"),
    "lift_at_depth": (lambda lf, **k: lf.roc.lift_at_depth(depth=0.2, **k), "lift"),
}
ROWS = pr.datasets.simulate(2000, seed=1).with_columns(
    at=datetime(2024, 1, 1) + pl.duration(days=pl.col("case") % 20),
    w=(pl.col("case") % 3).cast(pl.Int64),
)


@pytest.mark.parametrize("name", sorted(EXPRESSIONS))
def test_every_scalar_context_gives_the_frame_number(name: str) -> None:
    expression = EXPRESSIONS[name]().alias("value")
    frame, column = FRAMES[name]
    expected = (
        frame(ROWS.lazy(), by="model").collect().select("model", pl.col(column).alias("value"))
    )
    grouped = ROWS.group_by("model").agg(expression).sort("model")
    assert_frame_equal(grouped, expected)
    streamed = (
        ROWS.lazy().group_by("model").agg(expression).sort("model").collect(engine="streaming")
    )
    assert_frame_equal(streamed, expected)
    over = ROWS.select("model", expression.over("model")).unique().sort("model")
    assert_frame_equal(over, expected)
    one = ROWS.filter(pl.col("model") == "gbm")
    assert (
        one.select(expression).item() == expected.filter(pl.col("model") == "gbm")["value"].item()
    )
    weekly = ROWS.sort("at").group_by_dynamic("at", every="1w").agg(expression)
    by_week = ROWS.with_columns(pl.col("at").dt.truncate("1w")).group_by("at").agg(expression)
    assert_frame_equal(weekly, by_week.sort("at"))
    boot = ROWS.roc.bootstrap({"m": EXPRESSIONS[name]()}, by="model", n_boot=30)
    assert_frame_equal(
        boot.select("model", pl.col("estimate").alias("value")), expected, check_dtypes=False
    )


@pytest.mark.parametrize("name", sorted(EXPRESSIONS))
def test_integer_weights_equal_repeated_rows(name: str) -> None:
    repeated = repeat_rows(ROWS, "w")
    weighted = ROWS.group_by("model").agg(EXPRESSIONS[name](weight="w")).sort("model")
    plain = repeated.group_by("model").agg(EXPRESSIONS[name]()).sort("model")
    assert_frame_equal(weighted, plain, abs_tol=1e-12, check_exact=False)
    frame, column = FRAMES[name]
    framed = frame(ROWS, by="model", weight="w").select("model", column)
    assert_frame_equal(framed, weighted, abs_tol=1e-12, check_exact=False)


def test_a_group_without_positives_is_null_and_counts_show_why() -> None:
    frame = pl.DataFrame({"score": [0.1, 0.2, 0.3], "label": [False, False, False]})
    row = frame.roc.precision_at_recall(recall=0.5).row(0, named=True)
    assert row["precision"] is None
    assert row["n_pos"] == 0
    assert frame.select(pr.recall_at_depth("score", "label", depth=0.5)).item() is None
    assert frame.select(pr.precision_at_depth("score", "label", depth=0.5)).item() == 0.0


def test_a_tied_top_block_deeper_than_the_depth_takes_nothing() -> None:
    frame = pl.DataFrame({"score": [0.9, 0.9, 0.9, 0.1], "label": [True, False, True, False]})
    row = frame.roc.lift_at_depth(depth=0.5).row(0, named=True)
    assert row == {"lift": None, "depth": 0.0, "threshold": float("inf"), "n_pos": 2, "n_neg": 2}
    assert frame.roc.lift_at_depth(depth=3)["lift"].item() == pytest.approx(4 / 3)


@pytest.mark.parametrize("depth", [0, -0.1, 1.5, True, "0.1", 0.0])
def test_a_bad_depth_is_refused(depth: Any) -> None:
    with pytest.raises(ValueError, match="depth must be"):
        pr.lift_at_depth("score", "label", depth=depth)
    with pytest.raises(ValueError, match="depth must be"):
        ROWS.roc.lift_at_depth(depth=depth)


def test_a_bad_target_is_refused() -> None:
    with pytest.raises(ValueError, match="recall"):
        pr.precision_at_recall("score", "label", recall=1.2)
    with pytest.raises(ValueError, match="precision"):
        ROWS.roc.recall_at_precision(precision=-0.1)


def test_a_nan_score_makes_the_result_null() -> None:
    frame = pl.DataFrame({"score": [0.9, float("nan"), 0.1], "label": [True, False, False]})
    for name, (call, column) in FRAMES.items():
        assert frame.select(EXPRESSIONS[name]()).item() is None, name
        assert call(frame)[column].item() is None, name
    assert ROWS.roc.lift_at_depth(depth=0.1, nan_policy="omit").height == 1
