"""The report's `by` takes Polars expressions, as every frame function does."""

from __future__ import annotations

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import polars_roc as pr

FRAMES = ("auc", "curve", "partial_auc", "best_threshold", "thresholds", "gains", "calibration")


@pytest.fixture(scope="module")
def rows() -> pl.DataFrame:
    frame = pr.datasets.simulate(600, seed=4)
    return frame.with_columns(age=(pl.col("case") * 7919 % 61 + 20))


@pytest.mark.parametrize("lazy", [False, True], ids=["eager", "lazy"])
def test_expression_by_is_with_columns_then_names(rows: pl.DataFrame, *, lazy: bool) -> None:
    band = (pl.col("age") // 20 * 20).alias("age_band")
    source = rows.lazy() if lazy else rows
    got = pr.report.compute(source, by=[band, "model"], segment="segment", ci="delong")
    want = pr.report.compute(
        rows.with_columns(band).lazy(), by=["age_band", "model"], segment="segment"
    )
    assert got.roles["by"] == ["age_band", "model"]
    for name in FRAMES:
        assert_frame_equal(getattr(got, name), getattr(want, name))
    assert_frame_equal(got.segments.rollup, want.segments.rollup)
    # bands of age 20-39, 40-59, 60-79 and 80
    sizes = got.auc.group_by("age_band").agg(pl.col("n_pos").sum() + pl.col("n_neg").sum())
    assert sorted(sizes["age_band"]) == [20, 40, 60, 80]


def test_to_html_with_an_expression_by_is_the_same_page(rows: pl.DataFrame) -> None:
    band = (pl.col("age") // 20 * 20).alias("age_band")
    got = pr.report.to_html(rows.lazy(), by=band, ci=None, js="cdn")
    want = pr.report.to_html(rows.with_columns(band).lazy(), by="age_band", ci=None, js="cdn")
    assert got == want
    assert "<b>groups</b> age_band" in got


def test_an_expression_naming_no_column_is_refused(rows: pl.DataFrame) -> None:
    with pytest.raises(pl.exceptions.ColumnNotFoundError, match="nope"):
        pr.report.compute(rows.lazy(), by=pl.col("nope") // 20)
