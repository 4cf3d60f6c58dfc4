"""compare(case=): cases without a partner under the other model are counted, never silent."""

from __future__ import annotations

import warnings

import polars as pl
import pytest

import polars_roc as pr


@pytest.fixture(scope="module")
def scores() -> pl.DataFrame:
    return pr.datasets.simulate(300, models=["a", "b"], seed=5)


def without_partners(scores: pl.DataFrame) -> tuple[pl.DataFrame, int]:
    """Drop 3 of b's cases and flip the label of 2 more under b: 5 cases lack a partner."""
    gone = pl.col("case").is_in([0, 1, 2]) & (pl.col("model") == "b")
    flipped = pl.col("case").is_in([3, 4]) & (pl.col("model") == "b")
    frame = scores.filter(~gone).with_columns(
        label=pl.when(flipped).then(~pl.col("label")).otherwise(pl.col("label"))
    )
    a = set(frame.filter(pl.col("model") == "a").select("case", "label").iter_rows())
    b = set(frame.filter(pl.col("model") == "b").select("case", "label").iter_rows())
    return frame, len(a ^ b)  # rows of either model with no (case, label) twin: 3 + 2 x 2


@pytest.mark.parametrize("lazy", [False, True], ids=["eager", "lazy"])
def test_a_fallback_to_the_unpaired_test_warns_with_the_count(
    scores: pl.DataFrame, *, lazy: bool
) -> None:
    frame, alone = without_partners(scores)
    assert alone == 7
    unpaired = rf"unpaired test for models 'a' and 'b' .*: {alone} case"
    run = (
        (lambda: frame.lazy().roc.compare(case="case").collect())
        if lazy
        else (lambda: frame.roc.compare(case="case"))
    )
    with pytest.warns(UserWarning, match=unpaired):  # when the query runs
        got = run()
    assert got["paired"].to_list() == [False]
    # the unpaired test's numbers, as asked for explicitly (which is silent)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        chosen = frame.roc.compare(case="case", paired=False)
    assert got["p_value"].item() == chosen["p_value"].item()


def test_paired_true_refuses_with_the_count(scores: pl.DataFrame) -> None:
    frame, alone = without_partners(scores)
    with pytest.raises(
        ValueError, match=rf"paired=True but models 'a' and 'b'.*: {alone} case\(s\)"
    ):
        frame.roc.compare(case="case", paired=True)


def test_matched_cases_are_paired_without_a_warning(scores: pl.DataFrame) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = scores.roc.compare(case="case", paired=True)
        again = scores.roc.compare(case="case")
    assert got["paired"].to_list() == again["paired"].to_list() == [True]


def test_each_pair_and_group_is_counted_apart(scores: pl.DataFrame) -> None:
    three = pr.datasets.simulate(200, models=["a", "b", "c"], seed=2)
    frame = three.filter(~((pl.col("model") == "c") & (pl.col("case") < 4)))
    with pytest.warns(UserWarning, match="unpaired test") as seen:
        got = frame.roc.compare(case="case")
    messages = sorted(str(w.message) for w in seen if "unpaired test" in str(w.message))
    assert len(messages) == 2  # a-c and b-c; a-b is paired
    assert all(": 4 case(s)" in m for m in messages)
    assert got.sort("model_a", "model_b")["paired"].to_list() == [True, False, False]
