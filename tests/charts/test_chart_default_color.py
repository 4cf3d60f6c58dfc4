"""Charts without color= colour by a group column, with a legend, instead of one colour."""

from __future__ import annotations

import json
from typing import Any

import polars as pl
import pytest

import polars_roc as pr


def color_fields(spec: dict[str, Any]) -> set[str]:
    """Every field a colour channel of the spec encodes, and whether any legend is hidden."""
    text = json.dumps(spec)
    found = set()
    for layer in _walk(spec):
        color = layer.get("encoding", {}).get("color")
        if isinstance(color, dict) and "field" in color:
            assert color.get("legend", {}) is not None, "a colour channel without a legend"
            found.add(color["field"])
    assert text  # the spec serialises
    return found


def _walk(node: Any) -> list[dict[str, Any]]:
    if isinstance(node, dict):
        return [node, *(x for v in node.values() for x in _walk(v))]
    if isinstance(node, list):
        return [x for v in node for x in _walk(v)]
    return []


@pytest.fixture(scope="module")
def scores() -> pl.DataFrame:
    return pr.datasets.simulate(600, seed=4)


def test_roc_chart_colours_by_its_group(scores: pl.DataFrame) -> None:
    curve = scores.roc.curve(by="model")
    assert color_fields(pr.charts.roc_chart(curve).to_dict()) == {"model"}
    # the same chart as asked for explicitly
    assert (
        pr.charts.roc_chart(curve).to_dict() == pr.charts.roc_chart(curve, color="model").to_dict()
    )


def test_a_panel_role_keeps_its_column_and_the_next_group_colours(scores: pl.DataFrame) -> None:
    curve = scores.roc.curve(by=["model", "segment"])
    faceted = pr.charts.roc_chart(curve, facet="model").to_dict()
    assert color_fields(faceted) == {"segment"}
    assert color_fields(pr.charts.roc_chart(curve).to_dict()) == {"model"}
    grid = pr.charts.roc_chart(curve, row="model", column="segment").to_dict()
    assert color_fields(grid) == set()  # every group has a panel of its own


def test_ungrouped_charts_have_no_colour(scores: pl.DataFrame) -> None:
    assert color_fields(pr.charts.roc_chart(scores.roc.curve()).to_dict()) == set()


def test_calibration_chart_colours_by_its_group(scores: pl.DataFrame) -> None:
    bins = scores.roc.calibration(by="model", bins=5)
    assert color_fields(pr.charts.calibration_chart(bins).to_dict()) == {"model"}
    by_two = scores.roc.calibration(by=["model", "segment"], bins=5)
    assert color_fields(pr.charts.calibration_chart(by_two, facet="model").to_dict()) == {"segment"}


def test_time_auc_chart_colours_by_its_group() -> None:
    rows = pl.DataFrame(
        {
            "plan": ["a", "b"] * 6,
            "risk": [0.9, 0.4, 0.8, 0.3, 0.6, 0.7, 0.2, 0.1, 0.5, 0.35, 0.65, 0.45],
            "days": [40, 400, 95, 120, 500, 200, 380, 600, 150, 90, 60, 300],
            "churned": [1, 0, 1, 1, 0, 1, 1, 0, 1, 0, 1, 1],
        }
    )
    table = rows.roc.time_auc("risk", time="days", event="churned", horizons=[100, 300], by="plan")
    assert color_fields(pr.charts.time_auc_chart(table).to_dict()) == {"plan"}
