"""The KS chart's labels sit in a corner no curve crosses."""

from __future__ import annotations

import polars as pl
import pytest

import polars_roc as pr


def rows_of(spec: dict, mark: str) -> list[dict]:
    return [row for row in spec["datasets"][spec["data"]["name"]] if row["_mark"] == mark]


@pytest.mark.parametrize("direction", ["higher", "lower"])
def test_each_label_is_in_an_empty_corner(direction: str) -> None:
    rows = pr.datasets.simulate(3000, seed=2)
    if direction == "lower":
        rows = rows.with_columns(-pl.col("score"))
    curve = rows.roc.curve(by=["model", "segment"], direction=direction)
    spec = pr.charts.ks_chart(curve, row="model", column="segment").to_dict()
    gaps, lines = rows_of(spec, "gap"), rows_of(spec, "line")
    layers = [layer["mark"] for layer in spec["spec"]["layer"] if layer["mark"]["type"] == "text"]
    assert {(m["align"], m["baseline"]) for m in layers} <= {
        ("left", "bottom"), ("right", "top"), ("left", "top"), ("right", "bottom"),
        ("left", "middle"), ("right", "middle"),
    }  # fmt: skip
    cornered = 0
    for gap in gaps:
        vertical, align = gap["_place"].split("-")
        if vertical == "middle":
            continue
        cornered += 1
        t, y = gap["threshold"], gap["_y"]
        assert y == (min if vertical == "below" else max)(gap["tpr"], gap["fpr"])
        mine = [r for r in lines if (r["model"], r["segment"]) == (gap["model"], gap["segment"])]
        # the label's side of the rule: aligned right, it runs to the left
        side = [r for r in mine if (r["threshold"] < t if align == "right" else r["threshold"] > t)]
        assert side
        if vertical == "below":  # every curve point on that side lies above the label's top
            assert min(r["value"] for r in side) >= y
        else:  # ... or below the label's bottom
            assert max(r["value"] for r in side) <= y
    assert cornered >= 10  # of 12 panels
