"""AUC as an expression and a frame method, against brute force and scikit-learn."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score

import polars_roc as pr
from tests.conftest import pairwise_auc, repeat_rows, scored_rows


def _frame(labels: list[bool], scores: list[float]) -> pl.DataFrame:
    return pl.DataFrame(
        {"score": scores, "label": labels}, schema={"score": pl.Float64, "label": pl.Boolean}
    )


@pytest.mark.parametrize("lazy", [False, True], ids=["eager", "lazy"])
@given(frame=scored_rows())
@example(frame=_frame([False, True], [0.5, 0.5]))  # all tied -> 0.5
@example(frame=_frame([True, True], [0.1, 0.2]))  # one class -> null
@example(frame=_frame([], []))  # no rows -> null
def test_auc_expression_is_pairwise_probability(frame: pl.DataFrame, *, lazy: bool) -> None:
    query = (frame.lazy() if lazy else frame).select(pr.auc("score", "label"))
    got = query.collect() if isinstance(query, pl.LazyFrame) else query
    expected = pairwise_auc(frame["label"], frame["score"])
    assert got.item() == (None if expected is None else pytest.approx(expected, abs=1e-12))


@given(frame=scored_rows(pool=None, min_size=2))
def test_auc_matches_sklearn_on_continuous_scores(frame: pl.DataFrame) -> None:
    labels = frame["label"].to_numpy()
    if labels.all() or not labels.any():
        assert frame.select(pr.auc("score", "label")).item() is None
        return
    expected = roc_auc_score(labels, frame["score"].to_numpy())
    assert frame.select(pr.auc("score", "label")).item() == pytest.approx(expected, abs=1e-12)


@given(frame=scored_rows(weighted=True))
def test_weighted_auc_equals_repeated_rows_and_pairwise(frame: pl.DataFrame) -> None:
    weighted = frame.select(pr.auc("score", "label", weight="weight")).item()
    repeated = repeat_rows(frame).select(pr.auc("score", "label")).item()
    expected = pairwise_auc(frame["label"], frame["score"], frame["weight"])
    if expected is None:
        assert weighted is None
        assert repeated is None
    else:
        assert weighted == pytest.approx(expected, abs=1e-12)
        assert repeated == pytest.approx(expected, abs=1e-12)


@given(frame=scored_rows(weighted=True, min_size=2))
def test_weighted_auc_matches_sklearn_sample_weight(frame: pl.DataFrame) -> None:
    kept = frame.filter(pl.col("weight") > 0)
    labels = kept["label"].to_numpy()
    got = frame.roc.auc(weight="weight")
    if labels.all() or not labels.any():
        assert got["auc"].item() is None
        return
    expected = roc_auc_score(labels, kept["score"], sample_weight=kept["weight"])
    assert got["auc"].item() == pytest.approx(expected, abs=1e-12)
    assert got["n_pos"].item() == pytest.approx(kept.filter("label")["weight"].sum())


@given(frame=scored_rows(groups=3, weighted=True))
def test_grouped_equals_one_group_at_a_time(frame: pl.DataFrame) -> None:
    grouped = frame.roc.auc(by="group", weight="weight")
    assert grouped["group"].to_list() == sorted(frame["group"].unique().to_list())
    for row in grouped.iter_rows(named=True):
        part = frame.filter(pl.col("group") == row["group"])
        alone = part.roc.auc(weight="weight").row(0, named=True)
        assert row == {"group": row["group"], **alone}


@given(frame=scored_rows(groups=3))
def test_over_and_group_by_agg_agree_with_frame_method(frame: pl.DataFrame) -> None:
    by_frame = frame.roc.auc(by="group").select("group", "auc")
    by_agg = frame.group_by("group").agg(pr.auc("score", "label")).sort("group")
    assert by_agg.equals(by_frame)
    over = frame.with_columns(pl.col("score").roc.auc("label").over("group"))
    expected = dict(by_frame.iter_rows())
    assert over["auc"].to_list() == [expected[g] for g in over["group"]]


@given(frame=scored_rows(groups=2, weighted=True), seed=st.integers(0, 2**32 - 1))
def test_invariant_to_row_order_and_increasing_transforms(frame: pl.DataFrame, seed: int) -> None:
    base = frame.roc.auc(by="group", weight="weight")
    shuffled = frame.sample(fraction=1.0, shuffle=True, seed=seed)
    assert shuffled.roc.auc(by="group", weight="weight").equals(base)
    transformed = frame.with_columns(pl.col("score").mul(3.0).add(1.0).exp())
    assert transformed.roc.auc(by="group", weight="weight").equals(base)


@given(frame=scored_rows(groups=3, weighted=True))
def test_lazy_streaming_and_eager_agree(frame: pl.DataFrame) -> None:
    eager = frame.roc.auc(by="group", weight="weight")
    lazy = frame.lazy().roc.auc(by="group", weight="weight")
    assert isinstance(lazy, pl.LazyFrame)
    assert lazy.collect().equals(eager)
    assert lazy.collect(engine="streaming").equals(eager)
    expression = frame.lazy().group_by("group").agg(pr.auc("score", "label", weight="weight"))
    streamed = expression.collect(engine="streaming").sort("group")
    assert streamed["auc"].to_list() == pytest.approx(eager["auc"].to_list(), nan_ok=False)


def test_counts_beyond_two_to_the_32_stay_exact() -> None:
    # 70,000 of each class: n_pos * n_neg = 4.9e9 > 2**32 (a UInt32 product would wrap).
    n = 70_000
    scores = np.r_[np.arange(n) + 0.5, np.arange(n)].astype(float)
    frame = pl.DataFrame({"score": scores, "label": [True] * n + [False] * n})
    got = frame.roc.auc()
    expected = roc_auc_score(frame["label"], frame["score"])
    assert got["auc"].item() == pytest.approx(expected, abs=1e-12)
    assert (got["n_pos"].item(), got["n_neg"].item()) == (n, n)
    assert 0.0 <= got["auc"].item() <= 1.0


def test_huge_weights_stay_exact() -> None:
    frame = pl.DataFrame({"score": [0.1, 0.2, 0.3, 0.4], "label": [0, 1, 0, 1], "w": [1e12] * 4})
    assert frame.roc.auc(weight="w")["auc"].item() == pytest.approx(0.75)


def test_infinite_scores_rank_like_any_value() -> None:
    frame = pl.DataFrame(
        {"score": [float("-inf"), 0.0, float("inf"), float("inf")], "label": [0, 1, 0, 1]}
    )
    expected = pairwise_auc([0, 1, 0, 1], frame["score"])
    assert frame.roc.auc()["auc"].item() == pytest.approx(expected)
    assert frame.select(pr.auc("score", "label", weight=pl.lit(1.0))).item() == pytest.approx(
        expected
    )


@pytest.mark.parametrize("weighted", [False, True])
def test_nan_score_makes_its_group_null_never_one(weighted: bool) -> None:
    frame = pl.DataFrame(
        {
            "g": ["a", "a", "a", "b", "b"],
            "score": [float("nan"), 0.1, 0.2, 0.3, 0.9],
            "label": [1, 0, 0, 0, 1],
            "w": [1.0] * 5,
        }
    )
    got = frame.roc.auc(by="g", weight="w" if weighted else None)
    assert got["auc"].to_list() == [None, 1.0]
    assert got["n_pos"].to_list() == [1, 1]
    expression = frame.group_by("g").agg(pr.auc("score", "label")).sort("g")
    assert expression["auc"].to_list() == [None, 1.0]


def test_null_scores_and_labels_are_skipped() -> None:
    frame = pl.DataFrame(
        {"score": [0.9, None, 0.2, 0.4, 0.8], "label": [1, 1, None, 0, 0]},
        schema={"score": pl.Float64, "label": pl.Int64},
    )
    got = frame.roc.auc()
    assert got.row(0) == (pairwise_auc([1, 0, 0], [0.9, 0.4, 0.8]), 1, 2)
    assert frame.select(pr.auc("score", "label")).item() == got["auc"].item()


def test_zero_weight_drops_the_row() -> None:
    frame = pl.DataFrame(
        {"score": [0.9, 0.1, 0.5, 0.7], "label": [0, 1, 0, 1], "w": [0.0, 1, 1, 1]}
    )
    dropped = frame.filter(pl.col("w") > 0)
    assert frame.roc.auc(weight="w")["auc"].item() == dropped.roc.auc()["auc"].item()
    assert frame.roc.curve(weight="w").height == dropped.roc.curve().height
