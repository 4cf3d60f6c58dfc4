"""`charts.slice_chart`: the weakest slices as a forest, a pair of features as a heatmap."""

from __future__ import annotations

import polars as pl
import pytest

import polars_roc as pr

OUT = (
    pr.datasets.simulate(3000, seed=4)
    .filter(pl.col("model") != "baseline")
    .roc.slices(features=["segment", "weight"], by="model", min_pos=5)
)


def test_the_forest_draws_the_weakest_slices_worst_first() -> None:
    spec = pr.charts.slice_chart(OUT, top=5).to_dict()
    rows = [r for r in next(iter(spec["datasets"].values())) if r["_mark"] == "gap"]
    assert len(rows) == 5
    gaps = [r["gap"] for r in rows]
    assert gaps == sorted(OUT["gap"].drop_nulls().to_list())[:5]
    assert rows[0]["_label"].startswith(OUT["model"][0] + " · ")


def test_the_heatmap_holds_the_slices_of_exactly_the_pair() -> None:
    spec = pr.charts.slice_chart(OUT, pair=["weight", "segment"]).to_dict()
    cells = next(iter(spec["datasets"].values()))
    expected = OUT.filter(pl.col("segment").is_not_null() & pl.col("weight").is_not_null())
    assert len(cells) == expected.height
    assert spec["facet"]["column"]["field"] == "model"
    assert spec["spec"]["encoding"]["x"]["sort"]["field"] == "_place0"
    places = sorted({(c["_place0"], c["weight"]) for c in cells})
    edges = [float(band[1:].split(", ")[0]) for _, band in places]
    assert edges == sorted(edges)
    assert len(edges) == 4


def test_a_bad_pair_or_frame_is_refused() -> None:
    with pytest.raises(ValueError, match="pair must name two feature columns"):
        pr.charts.slice_chart(OUT, pair=["segment", "model"])
    with pytest.raises(pl.exceptions.ColumnNotFoundError):
        pr.charts.slice_chart(OUT.drop("gap"))
    with pytest.raises(ValueError, match="top must be"):
        pr.charts.slice_chart(OUT, top=0)
