"""Gain/lift and calibration charts: layers, reference lines, errors, and a rendered PNG."""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

import polars_roc as pr
from polars_roc.charts.style import threshold_text


def rows_of(spec: dict, mark: str) -> list[dict]:
    return [row for row in spec["datasets"][spec["data"]["name"]] if row["_mark"] == mark]


@pytest.fixture(scope="module")
def scored() -> pl.DataFrame:
    return pr.datasets.simulate(600, seed=4)


def test_gain_chart_draws_random_and_perfect_lines(scored: pl.DataFrame) -> None:
    prevalence = scored.filter(pl.col("model") == "logit")["label"].mean()
    curve = scored.roc.gain_curve(by="model")
    spec = pr.charts.gain_chart(curve, color="model", prevalence=scored.roc.auc(by="model"))
    spec = spec.to_dict()
    assert [(row["depth"], row["_y"]) for row in rows_of(spec, "chance")] == [(0, 0), (1, 1)]
    # Every model scores the same rows: one grey perfect-model line for them all.
    perfect = rows_of(spec, "perfect")
    assert all(row.get("model") is None for row in perfect)
    assert [(row["depth"], row["_y"]) for row in perfect] == [
        (0, 0),
        (pytest.approx(prevalence), 1),
        (1, 1),
    ]
    assert spec["layer"][1]["mark"]["color"] == "gray"
    # Groups of different prevalence keep one perfect line each, in their colours.
    fewer = scored.filter(
        (pl.col("model") != "gbm") | (pl.col("label") | (pl.col("case") % 2 == 0))
    )
    spec = pr.charts.gain_chart(
        fewer.roc.gain_curve(by="model"), color="model", prevalence=fewer.roc.auc(by="model")
    ).to_dict()
    assert {row["model"] for row in rows_of(spec, "perfect")} == {"baseline", "gbm", "logit"}
    assert "color" in spec["layer"][1]["encoding"]
    model = rows_of(spec, "model")
    assert all(row["_y"] is not None for row in model)
    assert all(row["threshold"] is None or row["threshold"] < 2 for row in model)  # no Infinity


def test_lift_chart_reference_lines(scored: pl.DataFrame) -> None:
    table = scored.roc.gains_table(by="model")
    spec = pr.charts.gain_chart(table, lift=True, facet="model").to_dict()
    assert {row["_y"] for row in rows_of(spec, "chance")} == {1.0}
    logit = [row for row in rows_of(spec, "perfect") if row["model"] == "logit"]
    prevalence = table.filter(pl.col("model") == "logit").select(
        pl.col("n_pos").sum() / pl.col("n").sum()
    )
    assert max(row["_y"] for row in logit) == pytest.approx(1 / prevalence.item())
    assert spec["facet"]["field"] == "model"


def test_gain_chart_without_prevalence_leaves_the_perfect_line_out() -> None:
    frame = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.6], "label": [1, 0, 1, 0]})
    spec = pr.charts.gain_chart(frame.roc.gain_curve()).to_dict()
    assert rows_of(spec, "perfect") == []
    with pytest.raises(pl.exceptions.ColumnNotFoundError, match="gain_curve"):
        pr.charts.gain_chart(frame.roc.curve())
    with pytest.raises(pl.exceptions.ColumnNotFoundError, match="color='model'"):
        pr.charts.gain_chart(frame.roc.gain_curve(), color="model")
    with pytest.raises(ValueError, match="prevalence must lie"):
        pr.charts.gain_chart(frame.roc.gain_curve(), prevalence=1.5)


def test_calibration_chart_layers_and_histogram() -> None:
    frame = pl.DataFrame(
        {"score": [0.1, 0.2, 0.6, 0.9] * 2, "label": [0, 1, 1, 1] * 2, "m": ["a"] * 4 + ["b"] * 4}
    )
    table = frame.roc.calibration(by="m", bins=2)
    spec = pr.charts.calibration_chart(table, color="m").to_dict()
    top, bottom = spec["vconcat"]
    assert [layer["mark"]["type"] for layer in top["layer"]] == ["line", "line"]
    # Two groups share the panel: their counts are lines with points (bars would hide
    # each other); one group alone gets bars.
    assert bottom["mark"]["type"] == "line"
    assert bottom["encoding"]["y"]["field"] == "n"
    one = pr.charts.calibration_chart(table.filter(pl.col("m") == "a"), color="m").to_dict()
    assert one["vconcat"][1]["mark"]["type"] == "bar"
    alone = pr.charts.calibration_chart(table, color="m", histogram=False).to_dict()
    assert "vconcat" not in alone
    with pytest.raises(pl.exceptions.ColumnNotFoundError, match="calibration"):
        pr.charts.calibration_chart(frame.roc.gain_curve())


def test_charts_render_to_png(scored: pl.DataFrame) -> None:
    vl_convert = pytest.importorskip("vl_convert")
    gain = pr.charts.gain_chart(scored.roc.gains_table(by="model"), color="model")
    calibration = pr.charts.calibration_chart(
        scored.roc.calibration(by="model", strategy="quantile"), color="model"
    )
    for chart in (gain, calibration):
        png = vl_convert.vegalite_to_png(chart.to_json())
        assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_ks_chart_marks_the_ks_gap(scored: pl.DataFrame) -> None:
    curve = scored.roc.curve(by="model")
    spec = pr.charts.ks_chart(curve, facet="model").to_dict()
    gaps = {row["model"]: row for row in rows_of(spec, "gap")}
    ks = scored.roc.ks(by="model")
    for model, value, threshold in ks.iter_rows():
        assert gaps[model]["tpr"] - gaps[model]["fpr"] == pytest.approx(value)
        assert gaps[model]["threshold"] == threshold
    big = pr.datasets.simulate(20_000, seed=1).roc.curve(by="model")
    assert len(rows_of(pr.charts.ks_chart(big, max_points=1000).to_dict(), "line")) <= 1100


@given(
    scores=st.lists(st.integers(0, 5), min_size=2, max_size=25),
    data=st.data(),
    direction=st.sampled_from(["higher", "lower"]),
)
def test_ks_chart_marks_the_threshold_gains_ks_reports(
    scores: list[int], data: st.DataObject, direction: str
) -> None:
    # Equal gaps may differ in the last bit of tpr - fpr (1/7 - 0 against 3/7 - 2/7): the
    # chart must mark the threshold the KS table gives, not a float-rounding neighbour.
    labels = data.draw(st.lists(st.booleans(), min_size=len(scores), max_size=len(scores)))
    frame = pl.DataFrame({"score": [float(v) for v in scores], "label": labels})
    ks = frame.roc.ks(direction=direction)
    spec = pr.charts.ks_chart(frame.roc.curve(direction=direction)).to_dict()
    marked = [(row["threshold"], row["tpr"] - row["fpr"]) for row in rows_of(spec, "gap")]
    value, threshold = ks.row(0)
    if threshold is None:  # no positives or no negatives
        assert marked == []
    elif abs(threshold) == float("inf"):  # KS 0 at the start row: labelled at the axis end
        end = max(scores) if threshold > 0 else min(scores)
        assert marked == [(end, 0.0)]
        assert rows_of(spec, "gap")[0]["_text"] == f"KS 0.000\nat {threshold_text(threshold)}"
    else:
        assert marked == [(threshold, pytest.approx(value))]
