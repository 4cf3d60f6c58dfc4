"""Value and decision-curve charts: layers, marks, JSON-safe data."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest

import polars_roc as pr


@pytest.fixture(scope="module")
def sim() -> pl.DataFrame:
    df = pr.datasets.simulate(600, seed=3)
    rng = np.random.default_rng(0)
    return df.with_columns(amount=pl.Series(rng.lognormal(3, 1, df.height)))


def layers(chart: object) -> list[dict]:
    spec = chart.to_dict()  # type: ignore[attr-defined]
    json.dumps(spec, allow_nan=False)  # no Infinity or NaN
    return spec["layer"]


def test_value_chart_marks_optimum_and_capacity(sim: pl.DataFrame) -> None:
    values = sim.roc.value_curve(gain_tp="amount", cost_fp=10.0, by="model")
    chart = pr.charts.value_chart(values, capacity=0.05, color="model")
    data = pl.DataFrame(
        chart.to_dict()["datasets"][chart.to_dict()["data"]["name"]], infer_schema_length=None
    )
    best = data.filter(pl.col("_mark") == "best").sort("model")
    expected = pl.concat(
        [
            sim.filter(pl.col("model") == m).roc.best_threshold(
                method="value", gain_tp="amount", cost_fp=10.0, capacity=0.05
            )
            for m in sorted(sim["model"].unique())
        ]
    )
    assert best["threshold"].to_list() == expected["threshold"].to_list()
    assert data.filter(pl.col("_mark") == "capacity")["depth"].to_list() == [0.05]
    assert data.filter(pl.col("_mark") == "overall").height == 3
    assert [layer["mark"]["type"] for layer in layers(chart)][:5] == [
        "rule", "rule", "line", "point", "point"
    ]  # fmt: skip


def test_value_chart_by_threshold_per_case_and_errors(sim: pl.DataFrame) -> None:
    values = sim.roc.value_curve(gain_tp="amount", by="model")
    chart = pr.charts.value_chart(values, x="threshold", per_case=True, facet="model")
    assert chart.to_dict()["facet"]["field"] == "model"
    with pytest.raises(ValueError, match="x must be 'depth' or 'threshold'"):
        pr.charts.value_chart(values, x="fpr")  # type: ignore[arg-type]
    with pytest.raises(pl.exceptions.ColumnNotFoundError, match="the value frame has no"):
        pr.charts.value_chart(sim.roc.curve())


def test_decision_curve_chart_clips_below_zero(sim: pl.DataFrame) -> None:
    curve = sim.roc.decision_curve(by="model", ci="bootstrap", n_boot=50)
    chart = pr.charts.decision_curve_chart(curve, color="model")
    marks = layers(chart)
    assert [m["mark"]["type"] for m in marks] == ["rule", "area", "line", "line"]
    lo, hi = marks[-1]["encoding"]["y"]["scale"]["domain"]
    top = max(curve["net_benefit_upper"].max(), curve["treat_all"].max())
    assert hi == pytest.approx(1.05 * top)
    assert lo == pytest.approx(-0.25 * hi)
    assert curve["treat_all"].min() < lo  # treat-all falls off the chart: clipped
    assert all(m["mark"].get("clip") for m in marks[1:])
    custom = pr.charts.decision_curve_chart(curve.drop("net_benefit_lower", "net_benefit_upper"),
                                            color="model", y_min=-0.01)  # fmt: skip
    assert layers(custom)[-1]["encoding"]["y"]["scale"]["domain"][0] == -0.01
