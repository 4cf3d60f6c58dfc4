"""Segment charts: the forest plot's summary rows, the cross-AUC heatmap, disparity."""

from __future__ import annotations

import json

import polars as pl
import pytest
from polars.exceptions import ColumnNotFoundError

import polars_roc as pr


@pytest.fixture(scope="module")
def frame() -> pl.DataFrame:
    df = pr.datasets.simulate(3000, seed=6)
    return df.with_columns(region=(pl.int_range(pl.len()) % 5).cast(pl.String))


def values(chart) -> list[dict]:
    spec = chart.to_dict()
    json.dumps(spec, allow_nan=False)  # no NaN / Infinity
    return spec.get("data", {}).get("values") or next(iter(spec["datasets"].values()))


def test_forest_draws_pooled_within_and_ivw_beneath_the_segments(frame: pl.DataFrame) -> None:
    auc = frame.roc.auc(by=["model", "region"], ci="delong")
    roll = frame.roc.rollup(segment="region", by="model")
    chart = pr.charts.auc_interval_chart(auc, rollup=roll)
    spec = chart.to_dict()
    # Sorted by each row's place (a number: a list of names breaks on U+2028, see
    # tests/charts/test_chart_names.py): the segments, then the summaries.
    assert spec["layer"][1]["encoding"]["y"]["sort"]["field"] == "_place"
    drawn = [row for row in values(chart) if row["_mark"] in ("interval", "summary")]
    sort = [row["_label"] for row in sorted(drawn, key=lambda row: row["_place"])]
    assert sort[-3:] == [f"{m} · IVW mean AUC" for m in ("baseline", "gbm", "logit")]
    assert len(sort) == 15 + 9
    summary = [row for row in values(chart) if row["_mark"] == "summary"]
    ivw = {row["_label"]: row for row in summary if row["_kind"] == "IVW mean AUC"}
    want = roll.row(1, named=True)
    got = ivw["gbm · IVW mean AUC"]
    assert (got["auc"], got["auc_lower"], got["auc_upper"]) == pytest.approx(
        (want["ivw_auc"], want["ivw_lower"], want["ivw_upper"])
    )
    faceted = pr.charts.auc_interval_chart(auc, rollup=roll, facet="model").to_dict()
    assert faceted["spec"]["layer"][1]["encoding"]["y"]["sort"]["field"] == "_rank"
    with pytest.raises(ColumnNotFoundError, match="no panel column 'model'"):
        pr.charts.auc_interval_chart(auc, rollup=roll.drop("model"), facet="model")


def test_cross_auc_chart_centres_on_the_pooled_auc(frame: pl.DataFrame) -> None:
    one = frame.filter(pl.col("model") == "gbm")
    chart = pr.charts.cross_auc_chart(one.roc.cross_auc(segment="region"))
    cells = [row for row in values(chart) if row["_mark"] == "cell"]
    pooled = one.roc.auc()["auc"].item()
    assert len(cells) == 25
    assert {round(row["_pooled"], 12) for row in cells} == {round(pooled, 12)}
    spec = chart.to_dict()
    assert spec["layer"][0]["encoding"]["color"]["scale"]["domainMid"] == 0
    cross = frame.roc.cross_auc(segment="region", by="model")
    with pytest.raises(ValueError, match="pass facet='model'"):
        pr.charts.cross_auc_chart(cross)
    faceted = pr.charts.cross_auc_chart(cross, facet="model")
    pooled_by_model = {r["model"]: r["_pooled"] for r in values(faceted) if r["_mark"] == "cell"}
    want = frame.roc.auc(by="model")
    assert [pooled_by_model[m] for m in want["model"]] == pytest.approx(want["auc"].to_list())


def test_few_segments_leave_room_for_the_axis_titles(frame: pl.DataFrame) -> None:
    # Two segments in panels: each panel used to be 2 x 34 = 68 px wide, and its x-axis
    # title ("Negatives' segment", about 117 px in Vega's bold 11 px) ran into the next
    # panel's (seen on the rendered PNG).
    two = frame.with_columns(half=(pl.col("region").cast(pl.Int64) % 2).cast(pl.String))
    chart = pr.charts.cross_auc_chart(two.roc.cross_auc(segment="half", by="model"), facet="model")
    spec = chart.to_dict()["spec"]
    title = spec["layer"][0]["encoding"]["x"]["title"]
    assert spec["width"] >= 6.5 * len(title) > 2 * 34


def test_disparity_chart_marks_adjusted_significance(frame: pl.DataFrame) -> None:
    d = frame.roc.disparity(segment="region", by="model")
    chart = pr.charts.disparity_chart(d, facet="model", alpha=0.5)
    rows = [row for row in values(chart) if row["_mark"] == "gap"]
    assert len(rows) == d.height
    for row in rows:
        assert row["_significant"] is (row["p_adjusted"] is not None and row["p_adjusted"] < 0.5)
    metrics = {"auc": pr.auc("score", "label"), "brier": pr.brier_score("score", "label")}
    two = frame.filter(pl.col("model") == "gbm").roc.disparity(
        segment="region", metrics=metrics, n_boot=50
    )
    spec = pr.charts.disparity_chart(two).to_dict()
    assert spec["resolve"]["scale"]["x"] == "independent"
    with pytest.raises(ValueError, match="facet= needs one metric"):
        pr.charts.disparity_chart(two.with_columns(model=pl.lit("gbm")), facet="model")
