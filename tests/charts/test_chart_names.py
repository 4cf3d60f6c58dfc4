"""
Every chart draws, whatever its groups are called: line separators, quotes, markup, emoji.

Vega-Lite writes an explicit sort list's values unescaped into a Vega expression, so a group
named with U+2028 or U+2029 used to stop the AUC forest plot and the cross-AUC heatmap from
rendering ("Unexpected token ILLEGAL"); they now sort by a number. Each builder exported by
:mod:`polars_roc.charts`, and every figure of the HTML report, is rendered here to PNG with
vl-convert (the same Vega as the browser) from groups with such names.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

import polars as pl
import pytest

import polars_roc as pr
from polars_roc import charts

vlc = pytest.importorskip("vl_convert")

#: Group names: line and paragraph separators, quotes, a backslash, markup, emoji, empty.
MODELS = ["line\u2028sep", "para\u2029sep", "quo\"te's", "back\\slash"]
SEGMENTS = ["</script>", "emoji \U0001f3af", "", "seg\u2028ment", 'p\u2029"\\']


@pytest.fixture(scope="module")
def rows() -> pl.DataFrame:
    df = pr.datasets.simulate(400, models=MODELS, segments=SEGMENTS, seed=3)
    return df.with_columns(
        t=(pl.col("case") % 4).cast(pl.Int64),
        days=(pl.col("case") % 17 + 1).cast(pl.Float64),
        event=pl.col("label"),
    )


def builders(df: pl.DataFrame) -> dict[str, Callable[[], Any]]:
    """One call of every builder in ``polars_roc.charts.__all__`` (some several times)."""
    curve = df.roc.curve(by="model")
    one = df.filter(pl.col("model") == MODELS[0])
    auc = df.roc.auc(by=["model", "segment"], ci="delong")
    return {
        "roc_chart": lambda: charts.roc_chart(curve, color="model", points="youden"),
        "partial_auc_chart": lambda: charts.partial_auc_chart(curve, fpr=(0.0, 0.2), color="model"),
        "pr_chart": lambda: charts.pr_chart(df.roc.pr_curve(by="model"), color="model"),
        "det_chart": lambda: charts.det_chart(df.roc.det_curve(by="model"), color="model"),
        "ks_chart": lambda: charts.ks_chart(curve, facet="model", columns=2, size=150),
        "gain_chart": lambda: charts.gain_chart(df.roc.gain_curve(by="model"), color="model"),
        "hull_chart": lambda: charts.hull_chart(
            df.roc.hull(model="model"), model="model", curves=curve
        ),
        "calibration_chart": lambda: charts.calibration_chart(
            df.roc.calibration(by="model", bins=5), color="model"
        ),
        "threshold_chart": lambda: charts.threshold_chart(
            df.roc.thresholds(by="model"), facet="model", width=200, height=120
        ),
        "threshold_explorer": lambda: charts.threshold_explorer(
            curve, color="model", threshold=0.5
        ),
        "score_chart": lambda: charts.score_chart(
            df, facet="model", kind=["histogram", "density", "sorted", "strip"]
        ),
        "auc_interval_chart": lambda: charts.auc_interval_chart(
            df.roc.auc(by="model", ci="delong")
        ),
        "auc_interval_chart_forest": lambda: charts.auc_interval_chart(
            auc, rollup=df.roc.rollup(segment="segment", by="model")
        ),
        "auc_interval_chart_faceted": lambda: charts.auc_interval_chart(
            auc, facet="model", rollup=df.roc.rollup(segment="segment", by="model")
        ),
        "average_curve_chart": lambda: charts.average_curve_chart(
            df.roc.average_curve(by="model", fold="fold"), color="model"
        ),
        "cross_auc_chart": lambda: charts.cross_auc_chart(one.roc.cross_auc(segment="segment")),
        "cross_auc_chart_faceted": lambda: charts.cross_auc_chart(
            df.roc.cross_auc(segment="segment", by="model"), facet="model", columns=2
        ),
        "slice_chart": lambda: charts.slice_chart(
            df.roc.slices(features=["segment", "t"], by="model", min_pos=2, min_neg=2)
        ),
        "slice_chart_faceted": lambda: charts.slice_chart(
            df.roc.slices(features=["segment", "t"], by="model", min_pos=2, min_neg=2),
            pair=["segment", "t"],
        ),
        "disparity_chart": lambda: charts.disparity_chart(
            df.roc.disparity(segment="segment", by="model"), facet="model"
        ),
        "decision_curve_chart": lambda: charts.decision_curve_chart(
            df.roc.decision_curve(by="model"), color="model"
        ),
        "value_chart": lambda: charts.value_chart(
            df.roc.value_curve(gain_tp=3.0, cost_fp=1.0, by="model"), color="model"
        ),
        "over_time_chart": lambda: charts.over_time_chart(
            df.roc.over_time(time="t", every="1i", by="model", ci="delong", reference=(0, 1)),
            color="model",
        ),
        "stability_chart": lambda: charts.stability_chart(
            df.roc.score_stability(time="t", every="1i", by="model", reference=(0, 1), bins=4),
            color="model",
        ),
        "time_auc_chart": lambda: charts.time_auc_chart(
            df.roc.time_auc("score", time="days", event="event", horizons=[4, 8, 12], by="model"),
            color="model",
        ),
    }


def svg_texts(spec: str) -> list[str]:
    """The texts Vega draws for a Vega-Lite spec (JSON)."""
    root = ET.fromstring(vlc.vegalite_to_svg(spec))
    return ["".join(node.itertext()) for node in root.iter("{http://www.w3.org/2000/svg}text")]


def test_every_builder_is_exercised(rows: pl.DataFrame) -> None:
    built = {name.removesuffix("_forest").removesuffix("_faceted") for name in builders(rows)}
    assert set(charts.__all__) <= built


def test_every_chart_renders_with_hostile_group_names(rows: pl.DataFrame) -> None:
    failures = {}
    for name, build in builders(rows).items():
        try:
            png = vlc.vegalite_to_png(build().to_json())
        except Exception as error:
            failures[name] = str(error).splitlines()[:2]
            continue
        assert png.startswith(b"\x89PNG"), name
    assert failures == {}


def test_sorted_charts_draw_every_name_in_their_order(rows: pl.DataFrame) -> None:
    # The two charts that sorted by an explicit list of names: each name is drawn once per
    # row / column, in the order the list gave.
    auc = rows.roc.auc(by="segment", ci="delong").filter(pl.col("auc").is_not_null())
    labels = [t for t in svg_texts(charts.auc_interval_chart(auc).to_json()) if t in set(SEGMENTS)]
    want = auc.sort("auc", descending=True)["segment"].to_list()
    assert [name for name in labels if name] == [name for name in want if name]
    one = rows.filter(pl.col("model") == MODELS[0]).roc.cross_auc(segment="segment")
    texts = svg_texts(charts.cross_auc_chart(one).to_json())
    named = [t for t in texts if t in set(SEGMENTS) and t]
    by_code_point = sorted(name for name in SEGMENTS if name)
    assert named == by_code_point + by_code_point  # x axis labels, then y axis labels


def report_specs(html: str) -> dict[str, str]:
    """The Vega-Lite spec of every figure of a report page, by its key."""
    found = re.finditer(r'<script type="application/json" id="spec-([^"]*)">(.*?)</script>', html)
    return {m.group(1): m.group(2) for m in found}


def test_every_report_figure_renders_with_hostile_group_names(rows: pl.DataFrame) -> None:
    lf = rows.lazy()
    data = pr.report.compute(
        lf,
        by="model",
        segment="segment",
        ci="delong",
        time_to_event="days",
        event="event",
        horizons=[4, 8],
        gain_tp=3.0,
        decision_curve=True,
    )
    over_time = pr.report.compute_over_time(
        lf, "score", "label", time="t", every="1i", reference=(0, 1), by=["model"]
    )
    specs = report_specs(pr.report.render(data, js="cdn", over_time=over_time))
    assert len(specs) >= 10
    failures = {}
    for key, spec in specs.items():
        try:
            png = vlc.vegalite_to_png(json.dumps(json.loads(spec)))
        except Exception as error:
            failures[key] = str(error).splitlines()[:2]
            continue
        assert png.startswith(b"\x89PNG"), key
    assert failures == {}
