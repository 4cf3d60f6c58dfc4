"""Chart builders: valid Vega-Lite, rendered by a real renderer, with the right marks and labels.

Every chart is validated against the Vega-Lite schema (Altair validates in ``to_dict``) and
rendered to SVG by vl-convert; the tests read the rendered marks and texts. Numbers shown in
labels are checked against scikit-learn / scipy / brute force, never against the package.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

import altair as alt
import numpy as np
import polars as pl
import pytest
import vl_convert as vlc
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.exceptions import ColumnNotFoundError
from scipy.stats import norm
from sklearn.metrics import auc, average_precision_score, roc_auc_score, roc_curve

import polars_roc as pr
from polars_roc.charts import (
    auc_interval_chart,
    average_curve_chart,
    det_chart,
    hull_chart,
    partial_auc_chart,
    pr_chart,
    roc_chart,
    score_chart,
    threshold_chart,
    threshold_explorer,
)
from tests.conftest import scored_rows

SVG = "{http://www.w3.org/2000/svg}"
ITEMS = (f"{SVG}path", f"{SVG}text", f"{SVG}line")  # how Vega draws a mark's items
VL_VERSION = ".".join(alt.SCHEMA_VERSION.lstrip("v").split(".")[:2])


# --- rendering helpers -----------------------------------------------------------------------


def strict_json(chart: Any) -> dict[str, Any]:
    """The chart's spec, validated by Altair, and parsed as strict JSON (no Infinity/NaN)."""

    def refuse(token: str) -> None:
        raise AssertionError(f"non-JSON number {token} in the spec")

    spec = chart.to_dict()  # validates against the Vega-Lite schema
    return json.loads(json.dumps(spec), parse_constant=refuse)


def render(chart: Any) -> ET.Element:
    """Render the chart to SVG with vl-convert (the Vega renderer) and parse it."""
    svg = vlc.vegalite_to_svg(strict_json(chart), vl_version=VL_VERSION)
    return ET.fromstring(svg)


def marks(root: ET.Element, kind: str, layer: int | None = None) -> list[ET.Element]:
    """Rendered items of one mark type (line, symbol, rect, area, rule, text), one layer or all."""
    items = []
    for group in root.iter(f"{SVG}g"):
        classes = group.get("class", "").split()
        if f"mark-{kind}" not in classes or "role-mark" not in classes:
            continue
        if layer is not None and not any(c.endswith(f"layer_{layer}_marks") for c in classes):
            continue
        items.extend(child for child in group if child.tag in ITEMS)
    return items


def texts(root: ET.Element, role: str | None = None) -> list[str]:
    """Text content of rendered text items (all, or those of one role, e.g. legend-label)."""
    out = []
    for group in root.iter(f"{SVG}g"):
        classes = group.get("class", "").split()
        if "mark-text" not in classes or (role is not None and f"role-{role}" not in classes):
            continue
        out.extend("".join(t.itertext()) for t in group if t.tag == f"{SVG}text")
    return out


def rows_of(spec: dict[str, Any], mark: str) -> list[dict[str, Any]]:
    """The data rows of one layer (by the `_mark` tag) of a single-dataset chart."""
    (data,) = spec["datasets"].values()
    return [row for row in data if row["_mark"] == mark]


# --- data ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def scored() -> pl.DataFrame:
    return pr.datasets.simulate(1500, seed=3)


def sklearn_auc(frame: pl.DataFrame) -> float:
    return float(roc_auc_score(frame["label"].to_numpy(), frame["score"].to_numpy()))


def per_model(frame: pl.DataFrame, fn: Callable[[pl.DataFrame], float]) -> dict[str, float]:
    return {key[0]: fn(part) for key, part in frame.partition_by("model", as_dict=True).items()}


def big_curve(n: int, seed: int = 0) -> pl.DataFrame:
    """A counts-like ROC curve of `n` distinct thresholds (plus the +inf start), built fast."""
    rng = np.random.default_rng(seed)
    positive = rng.random(n) < 0.3
    tp = np.concatenate([[0], np.cumsum(positive)])
    fp = np.concatenate([[0], np.cumsum(~positive)])
    n_pos, n_neg = int(tp[-1]), int(fp[-1])
    threshold = np.concatenate([[np.inf], np.linspace(1.0, 0.0, n)])
    return pl.DataFrame({"threshold": threshold, "tp": tp, "fp": fp}).with_columns(
        tn=n_neg - pl.col("fp"),
        fn=n_pos - pl.col("tp"),
        tpr=pl.col("tp") / n_pos,
        fpr=pl.col("fp") / n_neg,
    )


# --- the package contract: cheap import, no global state, clear errors -----------------------


def test_import_does_not_import_altair() -> None:
    code = "import sys, polars_roc; assert 'altair' not in sys.modules; print(polars_roc.charts)"
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


def test_missing_altair_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch, scored: pl.DataFrame
) -> None:
    curve = scored.roc.curve()
    monkeypatch.setitem(sys.modules, "altair", None)
    with pytest.raises(ModuleNotFoundError, match="pip install altair"):
        roc_chart(curve)


def test_builders_change_no_global_altair_state(scored: pl.DataFrame) -> None:
    before = (
        alt.data_transformers.active,
        alt.renderers.active,
        alt.theme.active,
        alt.data_transformers.options.copy(),
    )
    roc_chart(scored.roc.curve(by="model"), color="model").to_dict()
    score_chart(scored, kind=["histogram", "density", "sorted", "strip"]).to_dict()
    threshold_explorer(scored.roc.curve(by="model"), color="model").to_dict()
    after = (
        alt.data_transformers.active,
        alt.renderers.active,
        alt.theme.active,
        alt.data_transformers.options.copy(),
    )
    assert after == before


def test_charts_are_untitled_and_compose(scored: pl.DataFrame) -> None:
    roc = roc_chart(scored.roc.curve(by="model"), color="model")
    prc = pr_chart(scored.roc.pr_curve(by="model"), color="model")
    scores = score_chart(scored.filter(pl.col("model") == "logit"), kind="density")
    for chart in (roc, prc, scores):
        assert "title" not in chart.to_dict()
    root = render((roc | prc) & scores)
    assert len(marks(root, "line", 1)) >= 3 + 3  # a line per model in both panels
    assert len(marks(root, "area")) == 2  # one density per class


def test_errors_name_the_problem_and_the_fix(scored: pl.DataFrame) -> None:
    curve = scored.roc.curve(by="model")
    with pytest.raises(ColumnNotFoundError, match=r"color='segment'.*\n\nHint: "):
        roc_chart(curve, color="segment")
    with pytest.raises(ColumnNotFoundError, match=r"\['fpr'\]"):
        roc_chart(curve.drop("fpr"))
    with pytest.raises(TypeError, match=r"collect\(\)"):
        roc_chart(curve.lazy())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not both"):
        roc_chart(curve, facet="model", row="model")
    with pytest.raises(ValueError, match="exactly one range"):
        partial_auc_chart(curve, fpr=(0, 0.2), tpr=(0.8, 1))
    with pytest.raises(ValueError, match=r"must satisfy 0 <= lo < hi <= 1"):
        partial_auc_chart(curve, fpr=(0.3, 0.2))
    with pytest.raises(ValueError, match="kind must be one of"):
        score_chart(scored, kind="violin")  # type: ignore[arg-type]
    with pytest.raises(ColumnNotFoundError, match="label column 'y' not found"):
        score_chart(scored, label="y")


# --- ROC curves ------------------------------------------------------------------------------


def test_roc_chart_lines_legend_aucs_and_tooltips(scored: pl.DataFrame) -> None:
    chart = roc_chart(scored.roc.curve(by="model"), color="model")
    spec = strict_json(chart)
    assert spec["width"] == spec["height"]  # equal aspect on [0, 1]^2
    line = spec["layer"][1]["encoding"]
    assert line["x"]["scale"]["domain"] == line["y"]["scale"]["domain"] == [0, 1]
    tips = {tip["field"] for tip in spec["layer"][2]["encoding"]["tooltip"]}
    assert {"_text_threshold", "tp", "fp", "tn", "fn"} <= tips  # the threshold as text
    root = render(chart)
    assert len(marks(root, "line", 0)) == 1  # the chance diagonal
    assert len(marks(root, "line", 1)) == 3  # one curve per model
    expected = per_model(scored, sklearn_auc)
    ranked = sorted(expected, key=expected.get, reverse=True)  # type: ignore[arg-type]
    labels = [f"{model} (AUC {expected[model]:.3f})" for model in ranked]
    assert texts(root, "legend-label") == labels  # best model first


def test_roc_chart_inf_threshold_becomes_null(scored: pl.DataFrame) -> None:
    curve = scored.roc.curve(by="model")
    assert curve["threshold"].is_infinite().sum() == 3
    chart = roc_chart(curve, color="model")
    assert "Infinity" not in chart.to_json()
    starts = [row for row in rows_of(strict_json(chart), "curve") if row["tp"] == 0 == row["fp"]]
    assert len(starts) == 3
    assert all(row["threshold"] is None for row in starts)


def test_roc_chart_auc_frame_labels_and_panel_labels(scored: pl.DataFrame) -> None:
    auc = pl.DataFrame({"model": ["logit", "gbm", "baseline"], "auc": [0.9, 0.8, None]})
    auc = auc.with_columns(n_pos=pl.lit(1), n_neg=pl.lit(1))
    root = render(roc_chart(scored.roc.curve(by="model"), color="model", auc=auc))
    assert texts(root, "legend-label") == [
        "logit (AUC 0.900)",
        "gbm (AUC 0.800)",
        "baseline (AUC undefined)",
    ]
    # Faceted by segment: one AUC per model and segment, so the texts go inside the panels.
    curve = scored.roc.curve(by=["model", "segment"])
    root = render(roc_chart(curve, color="model", facet="segment", columns=2))
    assert len(marks(root, "line", 0)) == 4  # a chance diagonal per panel
    assert len(marks(root, "line", 1)) == 12
    shown = set(texts(root, "mark"))
    for (model, segment), part in scored.partition_by(["model", "segment"], as_dict=True).items():
        assert f"{model} (AUC {sklearn_auc(part):.3f})" in shown, (model, segment)
    assert texts(root, "legend-label") == ["baseline", "gbm", "logit"]


def test_roc_chart_single_curve_label_in_panel(scored: pl.DataFrame) -> None:
    logit = scored.filter(pl.col("model") == "logit")
    root = render(roc_chart(logit.roc.curve()))
    assert f"AUC {sklearn_auc(logit):.3f}" in texts(root, "mark")
    assert not texts(root, "legend-label")


def test_roc_chart_marks_operating_points(scored: pl.DataFrame) -> None:
    chart = roc_chart(scored.roc.curve(by="model"), color="model", points="youden")
    root = render(chart)
    assert len(marks(root, "symbol", 3)) == 3
    shown = texts(root, "mark")
    for model, part in scored.partition_by("model", as_dict=True).items():
        fpr, tpr, cut = roc_curve(part["label"].to_numpy(), part["score"].to_numpy())
        best = cut[np.argmax(tpr - fpr)]  # first maximum: the highest threshold
        assert f"t={best:#.4g}" in shown, model  # 4 significant digits, as everywhere
    best = scored.roc.best_threshold(by="model")
    root = render(roc_chart(scored.roc.curve(by="model"), color="model", points=best))
    assert len(marks(root, "symbol", 3)) == 3


# --- thinning and large curves ---------------------------------------------------------------


def drawn_distance(points: np.ndarray, line: np.ndarray) -> np.ndarray:
    """Euclidean distance of each point to the polyline `line` (brute force)."""
    a, b = line[:-1], line[1:]
    ab = b - a
    length2 = np.maximum((ab**2).sum(axis=1), 1e-300)
    out = np.full(len(points), np.inf)
    for start in range(0, len(points), 500):
        p = points[start : start + 500, None, :]
        t = np.clip(((p - a) * ab).sum(axis=2) / length2, 0, 1)
        nearest = a + t[..., None] * ab
        out[start : start + 500] = np.sqrt(((p - nearest) ** 2).sum(axis=2)).min(axis=1)
    return out


@pytest.mark.parametrize(("n", "max_points", "seed"), [(20_000, 400, 0), (5_000, 1000, 1)])
def test_thinning_keeps_exact_rows_within_the_stated_bound(
    n: int, max_points: int, seed: int
) -> None:
    curve = big_curve(n, seed)
    spec = strict_json(roc_chart(curve, max_points=max_points))
    drawn = rows_of(spec, "curve")
    assert len(drawn) <= max_points
    # Every drawn row is an exact row of the curve (numbers unchanged).
    exact = {(row[0], row[1]) for row in curve.select("tp", "fp").iter_rows()}
    assert all((row["tp"], row["fp"]) in exact for row in drawn)
    line = np.array(sorted((row["fpr"], row["tpr"]) for row in drawn))
    assert tuple(line[0]) == (0.0, 0.0)
    assert tuple(line[-1]) == (1.0, 1.0)
    # Documented bound for a monotone curve: h / (2 sqrt 2), h = L / B, L = fpr + tpr total
    # length (2 here), B = (max_points // groups) // 2 - 1.
    steps = max(4, max_points) // 2 - 1
    bound = 2.0 / steps / (2 * math.sqrt(2))
    points = curve.select("fpr", "tpr").to_numpy()
    assert drawn_distance(points, line).max() <= bound + 1e-12
    # The AUC label comes from every row (trapezoid on the full curve), not the drawn ones.
    (label,) = [row["_text"] for row in rows_of(spec, "label")]
    assert label == f"AUC {np.trapezoid(points[:, 1], points[:, 0]):.3f}"


@settings(max_examples=30, deadline=None)
@given(
    rows=scored_rows(pool=[i / 20 for i in range(21)], min_size=30, max_size=300, groups=3),
    max_points=st.integers(4, 60),
)
def test_thinned_groups_keep_their_ends_and_the_bound(rows: pl.DataFrame, max_points: int) -> None:
    curve = rows.roc.curve(by="group")
    data = roc_chart(curve, max_points=max_points).data  # the frame handed to Altair
    drawn = data.filter(pl.col("_mark") == "curve")
    groups = curve["group"].n_unique()
    share = max(4, max_points // groups)
    assert drawn.height <= max(max_points, groups * share)  # at least 4 points per group
    for (group,), part in curve.partition_by("group", as_dict=True).items():
        mine = drawn.filter(pl.col("group") == group).sort("fpr", "tpr")
        exact = set(part.select("tp", "fp").iter_rows())
        assert set(mine.select("tp", "fp").iter_rows()) <= exact  # rows only dropped
        if part["tpr"].is_null().any() or part["fpr"].is_null().any():
            continue  # an undefined curve: nothing to bound
        assert mine.row(0, named=True)["tp"] == 0 == mine.row(0, named=True)["fp"]
        assert (mine["tpr"][-1], mine["fpr"][-1]) == (1.0, 1.0)
        if curve.height <= max_points:
            assert mine.height == part.height
            continue
        bound = 2.0 / (share // 2 - 1) / (2 * math.sqrt(2))
        line = mine.select("fpr", "tpr").to_numpy()
        distance = drawn_distance(part.select("fpr", "tpr").to_numpy(), line)
        assert distance.max() <= bound + 1e-12


def test_collinear_points_are_dropped_first() -> None:
    # All scores tied in runs of equal class mix: long straight runs carry no information.
    tp = np.arange(0, 30_001, dtype=np.int64)
    curve = pl.DataFrame({"threshold": -tp.astype(float), "tp": tp, "fp": 2 * tp}).with_columns(
        tpr=pl.col("tp") / 30_000, fpr=pl.col("fp") / 60_000
    )
    spec = strict_json(roc_chart(curve, auc=False))
    assert [(row["fpr"], row["tpr"]) for row in rows_of(spec, "curve")] == [(0.0, 0.0), (1.0, 1.0)]


def test_small_curves_are_drawn_whole(scored: pl.DataFrame) -> None:
    curve = scored.filter(pl.col("model") == "gbm").roc.curve()
    assert curve.height < 2000
    assert len(rows_of(strict_json(roc_chart(curve)), "curve")) == curve.height


@pytest.mark.slow
def test_ten_million_point_curve_stays_small() -> None:
    curve = big_curve(10_000_000)
    chart = roc_chart(curve, points="youden")
    spec = strict_json(chart)  # the default data transformer (5,000-row limit) ran
    (rows,) = spec["datasets"].values()
    assert len(rows) <= 2000 + 10
    html = chart.to_html()
    assert len(html.encode()) < 600_000  # stated bound: under 600 kB
    root = render(chart)
    assert len(marks(root, "line", 1)) == 1


# --- partial AUC -----------------------------------------------------------------------------


def partial_area(fpr: np.ndarray, tpr: np.ndarray, hi: float) -> float:
    """Raw area over FPR in [0, hi], as scikit-learn computes it before McClish's correction."""
    stop = np.searchsorted(fpr, hi, "right")
    y_at = np.interp(hi, fpr[stop - 1 : stop + 1], tpr[stop - 1 : stop + 1])
    return float(auc(np.r_[fpr[:stop], hi], np.r_[tpr[:stop], y_at]))


def test_partial_auc_chart_fpr_range(scored: pl.DataFrame) -> None:
    chart = partial_auc_chart(scored.roc.curve(by="model"), fpr=(0.0, 0.2), color="model")
    root = render(chart)
    assert len(marks(root, "area")) == 3  # a shaded region per model
    assert len(marks(root, "rule", 2)) == 2  # the two bounds
    labels = texts(root, "legend-label")
    for model, part in scored.partition_by("model", as_dict=True).items():
        y, s = part["label"].to_numpy(), part["score"].to_numpy()
        fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
        raw = partial_area(fpr, tpr, 0.2)
        std = roc_auc_score(y, s, max_fpr=0.2)
        expected = f"{model[0]} (pAUC {raw:.4f}, standardized {std:.3f})"
        assert expected in labels


def test_partial_auc_chart_tpr_range_matches_the_frame(scored: pl.DataFrame) -> None:
    curve = scored.roc.curve(by="model")
    root = render(partial_auc_chart(curve, tpr=(0.8, 1.0), color="model"))
    table = scored.roc.partial_auc(tpr=(0.8, 1.0), by="model")
    labels = texts(root, "legend-label")
    for model, raw, std in table.select("model", "pauc", "pauc_std").iter_rows():
        assert f"{model} (pAUC {raw:.4f}, standardized {std:.3f})" in labels
    # The TPR region is a band between the curve and FPR = 1: its rows span [0.8, 1].
    spec = strict_json(partial_auc_chart(curve, tpr=(0.8, 1.0), color="model"))
    region = rows_of(spec, "region")
    assert min(row["tpr"] for row in region) == 0.8
    assert max(row["tpr"] for row in region) == 1.0


# --- intervals -------------------------------------------------------------------------------


def test_average_curve_chart_band_and_line() -> None:
    fpr = np.linspace(0, 1, 101)
    mean = np.sqrt(fpr)
    frame = pl.DataFrame(
        {
            "model": np.repeat(["a", "b"], 101),
            "fpr": np.tile(fpr, 2),
            "tpr_mean": np.r_[mean, fpr],
            "tpr_lower": np.r_[np.clip(mean - 0.05, 0, 1), np.clip(fpr - 0.05, 0, 1)],
            "tpr_upper": np.r_[np.clip(mean + 0.05, 0, 1), np.clip(fpr + 0.05, 0, 1)],
        }
    )
    root = render(average_curve_chart(frame, color="model"))
    assert len(marks(root, "area")) == 2
    assert len(marks(root, "line", 2)) == 2
    assert texts(root, "legend-label") == ["a", "b"]


def test_average_curve_chart_of_folds(scored: pl.DataFrame) -> None:
    average = scored.roc.average_curve(by="model", fold="fold")
    root = render(average_curve_chart(average, color="model"))
    assert len(marks(root, "area")) == 3
    assert len(marks(root, "line", 2)) == 3


def test_auc_interval_chart_of_delong_intervals(scored: pl.DataFrame) -> None:
    aucs = scored.roc.auc(by="segment", ci="delong")
    root = render(auc_interval_chart(aucs))
    assert len(marks(root, "rule", 1)) == 4  # an interval bar per segment
    y_labels = [t for t in texts(root, "axis-label") if t.isalpha()]
    pooled = {
        segment: sklearn_auc(part)
        for (segment,), part in scored.partition_by("segment", as_dict=True).items()
    }
    assert y_labels == sorted(pooled, key=pooled.get, reverse=True)  # type: ignore[arg-type]


def test_auc_interval_chart_is_sorted_by_auc() -> None:
    frame = pl.DataFrame(
        {
            "segment": ["north", "south", "east", "west", "empty"],
            "auc": [0.71, 0.88, 0.64, 0.80, None],
            "n_pos": [40, 50, 30, 45, 0],
            "n_neg": [400, 420, 380, 410, 5],
            "auc_se": [0.04, 0.03, 0.05, 0.03, None],
            "auc_lower": [0.63, 0.82, 0.54, 0.74, None],
            "auc_upper": [0.79, 0.94, 0.74, 0.86, None],
        }
    )
    root = render(auc_interval_chart(frame))
    assert len(marks(root, "symbol")) == 4  # the null AUC is left out
    assert len(marks(root, "rule", 1)) == 4  # interval bars
    y_labels = [t for t in texts(root, "axis-label") if t.isalpha()]
    assert y_labels == ["south", "west", "north", "east"]  # highest AUC on top


def test_auc_interval_chart_names_each_part_of_a_null_key() -> None:
    # Two keys, the model null in two rows: the labels were built whole, so both rows read
    # "null" and were drawn on one line.
    frame = pl.DataFrame(
        {
            "model": [None, None, "gbm"],
            "segment": ["east", "west", "east"],
            "auc": [0.71, 0.64, 0.80],
            "n_pos": [40, 30, 45],
            "n_neg": [400, 380, 410],
        }
    )
    root = render(auc_interval_chart(frame))
    assert len(marks(root, "symbol")) == 3
    labels = set(texts(root, "axis-label"))
    assert {"null · east", "null · west", "gbm · east"} <= labels


def test_auc_interval_chart_without_intervals(scored: pl.DataFrame) -> None:
    auc = scored.roc.auc(by=["model", "segment"])
    root = render(auc_interval_chart(auc, color="model", facet="segment"))
    assert len(marks(root, "symbol")) == 12
    assert len(marks(root, "rule")) == 4  # only the chance reference, once per panel


# --- thresholds ------------------------------------------------------------------------------


def test_threshold_chart_marks_the_best_threshold(scored: pl.DataFrame) -> None:
    table = scored.roc.thresholds(by="model")
    measures = ["tpr", "fpr", "f1", "youden"]
    root = render(threshold_chart(table, measures=measures, facet="model"))
    assert len(marks(root, "line")) == len(measures) * 3
    assert len(marks(root, "rule", 1)) == 3
    shown = texts(root, "mark")
    for model, part in scored.partition_by("model", as_dict=True).items():
        fpr, tpr, cut = roc_curve(part["label"].to_numpy(), part["score"].to_numpy())
        j = int(np.argmax(tpr - fpr))
        assert f"youden {tpr[j] - fpr[j]:.3f} at t={cut[j]:#.4g}" in shown, model
    assert texts(root, "legend-label") == measures


def test_threshold_chart_thins_long_tables() -> None:
    curve = big_curve(50_000).with_columns(youden=pl.col("tpr") - pl.col("fpr"))
    spec = strict_json(threshold_chart(curve, measures=["tpr", "youden"], max_points=1000))
    assert len(rows_of(spec, "line")) <= 1000
    (best,) = rows_of(spec, "best")
    j = int(curve["youden"].arg_max())  # type: ignore[arg-type]
    assert best["threshold"] == curve["threshold"][j]


# --- score distributions ---------------------------------------------------------------------


def test_score_histogram_counts_match_numpy(scored: pl.DataFrame) -> None:
    logit = scored.filter(pl.col("model") == "logit")
    spec = strict_json(score_chart(logit, kind="histogram", bins=25))
    bars = rows_of(spec, "bar")
    s, y = logit["score"].to_numpy(), logit["label"].to_numpy()
    edges = np.linspace(s.min(), s.max(), 26)
    for klass, mask in (("positive", y), ("negative", ~y)):
        expected, _ = np.histogram(s[mask], bins=edges)
        got = np.zeros(25)
        for bar in bars:
            if bar["_class"] == klass:
                got[round((bar["bin_start"] - edges[0]) / (edges[1] - edges[0]))] += bar["count"]
        np.testing.assert_array_equal(got, expected)
    root = render(score_chart(logit, kind="histogram", bins=25))
    assert len(marks(root, "rect")) == len(bars)
    assert texts(root, "legend-label") == ["negative", "positive"]


def test_score_histogram_weights_and_pos_label(scored: pl.DataFrame) -> None:
    frame = scored.filter(pl.col("model") == "gbm").with_columns(
        outcome=pl.when("label").then(pl.lit("bad")).otherwise(pl.lit("good"))
    )
    spec = strict_json(
        score_chart(frame, label="outcome", pos_label="bad", weight="weight", kind="histogram")
    )
    bars = pl.DataFrame(rows_of(spec, "bar"))
    totals = dict(bars.group_by("_class").agg(pl.col("count").sum()).iter_rows())
    bad = frame.filter(pl.col("outcome") == "bad")["weight"].sum()
    assert totals["positive"] == pytest.approx(bad)
    assert totals["negative"] == pytest.approx(frame["weight"].sum() - bad)


def test_score_density_integrates_to_one(scored: pl.DataFrame) -> None:
    spec = strict_json(score_chart(scored.lazy(), kind="density", facet="model"))
    curves = pl.DataFrame(rows_of(spec, "density"))
    assert curves.select("model", "_class").unique().height == 6
    for _, part in curves.group_by("model", "_class"):
        part = part.sort("score")
        area = np.trapezoid(part["density"].to_numpy(), part["score"].to_numpy())
        assert area == pytest.approx(1.0, abs=2e-3)
    assert len(marks(render(score_chart(scored, kind="density", facet="model")), "area")) == 6


@pytest.mark.parametrize("n_panels", [7, 12, 40])
def test_score_density_of_many_panels_stays_within_the_row_limit(n_panels: int) -> None:
    rng = np.random.default_rng(n_panels)
    n = 60 * n_panels
    frame = pl.DataFrame(
        {
            "panel": np.repeat(np.arange(n_panels), 60),
            "label": rng.random(n) < 0.4,
            "score": rng.normal(size=n),
        }
    )
    spec = strict_json(score_chart(frame, kind="density", facet="panel"))  # raised MaxRowsError
    curves = pl.DataFrame(rows_of(spec, "density"))
    # The default max_points (2,000) shared by the curves, but at least 32 points each.
    grid = max(32, 2000 // (2 * n_panels))
    assert curves.group_by("panel", "_class").len()["len"].to_list() == [grid] * 2 * n_panels
    assert curves.height <= 5000
    for _, part in curves.group_by("panel", "_class"):
        part = part.sort("score")
        area = np.trapezoid(part["density"].to_numpy(), part["score"].to_numpy())
        assert area == pytest.approx(1.0, abs=2e-2)


def test_score_sorted_and_strip_plots_sample_within_budget(scored: pl.DataFrame) -> None:
    chart = score_chart(scored, kind=["sorted", "strip"], column="model", max_points=600)
    spec = strict_json(chart)
    sorted_rows, strip_rows = (
        pl.DataFrame(list(spec["datasets"][view["data"]["name"]])) for view in spec["hconcat"]
    )
    for _model, part in sorted_rows.group_by("model"):
        assert part.height <= 600 // 3 + 1
        ordered = part.sort("rank")
        assert ordered["score"].is_sorted()  # score order
    for _, part in strip_rows.group_by("model", "_class"):
        assert part.height <= 600 // 3 // 2
    root = render(chart)
    assert len(marks(root, "symbol")) == sorted_rows.height + strip_rows.height
    assert len(marks(root, "rect")) == sorted_rows.height  # the two class barcodes (ticks)


# --- PR and DET ------------------------------------------------------------------------------


def test_pr_chart_average_precision_and_baseline(scored: pl.DataFrame) -> None:
    chart = pr_chart(scored.roc.pr_curve(by="model"), color="model")
    root = render(chart)
    assert len(marks(root, "line", 1)) == 3
    assert len(marks(root, "rule", 0)) == 3  # a no-skill baseline per model
    labels = texts(root, "legend-label")
    for model, part in scored.partition_by("model", as_dict=True).items():
        ap = average_precision_score(part["label"].to_numpy(), part["score"].to_numpy())
        assert f"{model[0]} (AP {ap:.3f})" in labels
    (prevalence,) = {row["precision"] for row in rows_of(strict_json(chart), "baseline")}
    assert prevalence == pytest.approx(scored["label"].mean())


@pytest.mark.parametrize("keys", ["string", "integer"])
def test_a_null_group_key_is_drawn_and_named(scored: pl.DataFrame, keys: str) -> None:
    # A colour scale's domain cannot hold null, and a key outside the domain got no colour:
    # the null group's curve vanished and the legend left it out.
    codes = {"gbm": 7, "logit": 12, "baseline": None}
    model = pl.col("model").replace_strict(codes, default=None) if keys == "integer" else None
    nulled = scored.with_columns(
        model if model is not None else pl.when(pl.col("model") != "baseline").then("model")
    )
    aucs = nulled.roc.auc(by="model")
    for chart in (
        roc_chart(nulled.roc.curve(by="model"), color="model"),
        pr_chart(nulled.roc.pr_curve(by="model"), color="model"),
    ):
        root = render(chart)
        strokes = {line.get("stroke") for line in marks(root, "line", 1)}
        assert len(strokes) == 3
        assert not strokes & {None, ""}
        labels = texts(root, "legend-label")
        assert len(labels) == 3
        assert labels[-1].startswith("null")
    explorer = threshold_explorer(nulled.roc.thresholds(by="model"), color="model")
    strokes = {line.get("stroke") for line in marks(render(explorer), "line", 1)}
    assert len(strokes) == 3
    assert not strokes & {None, ""}
    (null_auc,) = aucs.filter(pl.col("model").is_null())["auc"].to_list()
    legend = texts(render(roc_chart(nulled.roc.curve(by="model"), color="model")), "legend-label")
    assert legend[-1] == f"null (AUC {null_auc:.3f})"


def test_pr_chart_of_a_lower_direction_curve_runs_from_its_start(scored: pl.DataFrame) -> None:
    # A direction="lower" PR curve starts at threshold -inf: drawn from the +inf end, its AP
    # came out negative and its baseline at precision 1.
    lower = scored.with_columns(pl.col("score").neg())
    chart = pr_chart(lower.roc.pr_curve(by="model", direction="lower"), color="model")
    labels = texts(render(chart), "legend-label")
    for model, part in scored.partition_by("model", as_dict=True).items():
        ap = average_precision_score(part["label"].to_numpy(), part["score"].to_numpy())
        assert f"{model[0]} (AP {ap:.3f})" in labels
    (prevalence,) = {row["precision"] for row in rows_of(strict_json(chart), "baseline")}
    assert prevalence == pytest.approx(scored["label"].mean())


def test_det_chart_probit_axes(scored: pl.DataFrame) -> None:
    det = scored.roc.det_curve(by="model")
    chart = det_chart(det, color="model")
    drawn = rows_of(strict_json(chart), "curve")
    for row in drawn:
        assert row["_x"] == pytest.approx(norm.ppf(row["fpr"]), abs=1e-8)
        assert row["_y"] == pytest.approx(norm.ppf(row["fnr"]), abs=1e-8)
        assert 0 < row["fpr"] < 1
        assert 0 < row["fnr"] < 1
    root = render(chart)
    assert len(marks(root, "line", 1)) == 3
    labels = texts(root, "axis-label")
    for tick in ("0.1%", "1%", "5%", "50%", "99.9%"):
        assert tick in labels


# --- hull ------------------------------------------------------------------------------------


def test_hull_chart_vertices_and_iso_lines(scored: pl.DataFrame) -> None:
    hull = scored.roc.hull(model="model")
    slopes = [0.5, 1.0, 3.0]
    chart = hull_chart(hull, model="model", curves=scored.roc.curve(by="model"), slopes=slopes)
    spec = strict_json(chart)
    vertices = hull.select("fpr", "tpr").to_numpy()
    iso = pl.DataFrame(rows_of(spec, "iso"))
    for m in slopes:
        (a, b) = iso.filter(pl.col("_slope") == m).select("fpr", "tpr").to_numpy()
        assert (b[1] - a[1]) == pytest.approx(m * (b[0] - a[0]))
        # The line touches the hull: no vertex lies above it, one lies on it.
        intercept = a[1] - m * a[0]
        gap = vertices[:, 1] - m * vertices[:, 0] - intercept
        assert gap.max() == pytest.approx(0.0, abs=1e-12)
    root = render(chart)
    assert len(marks(root, "symbol")) == hull.height
    assert len(marks(root, "line", 2)) == len(slopes)
    assert {f"slope {m:g}" for m in slopes} <= set(texts(root, "mark"))


# --- threshold explorer ----------------------------------------------------------------------


@pytest.mark.parametrize("cut", [0.3, 0.55])
def test_threshold_explorer_shows_counts_at_the_slider_value(
    scored: pl.DataFrame, cut: float
) -> None:
    table = scored.roc.thresholds(by="model")
    chart = threshold_explorer(table, color="model", threshold=cut)
    spec = strict_json(chart)
    (param,) = spec["params"]
    finite = table.filter(pl.col("threshold").is_finite())["threshold"]
    assert param["bind"]["min"] == finite.min()
    assert param["bind"]["max"] == finite.max()
    root = render(chart)
    assert len(marks(root, "symbol")) == 3  # one operating point per model
    shown = texts(root, "mark")
    for model, part in scored.partition_by("model", as_dict=True).items():
        s, y = part["score"].to_numpy(), part["label"].to_numpy()
        predicted = s >= cut  # brute force: the counts at threshold `cut`
        tp, fp = int((predicted & y).sum()), int((predicted & ~y).sum())
        tn, fn = int((~predicted & ~y).sum()), int((~predicted & y).sum())
        for count in (tp, fp, tn, fn):
            assert f"{count:,}" in shown, (model, count)
        assert f"{tp / y.sum():.3f}" in shown
        assert f"{fp / (~y).sum():.3f}" in shown


def test_threshold_explorer_from_a_curve_frame(scored: pl.DataFrame) -> None:
    curve = scored.filter(pl.col("model") == "logit").roc.curve()
    root = render(threshold_explorer(curve, threshold=0.5))
    assert len(marks(root, "symbol")) == 1
    columns = texts(root, "axis-label")
    assert {"threshold", "tp", "fp", "tn", "fn", "tpr", "fpr"} <= set(columns)


def order_channels(spec: Any) -> list[Any]:
    """Every `order` encoding in a spec, however deeply its layers are nested."""
    found = []
    if isinstance(spec, dict):
        if isinstance(spec.get("encoding"), dict) and "order" in spec["encoding"]:
            found.append(spec["encoding"]["order"])
        for value in spec.values():
            found += order_channels(value)
    elif isinstance(spec, list):
        for value in spec:
            found += order_channels(value)
    return found


def test_lines_are_ordered_by_one_field_in_drawing_order(scored: pl.DataFrame) -> None:
    # Vega-Lite drops an `order` channel given as a list (with a console warning) and then
    # sorts line points by x alone.
    curve = scored.roc.curve(by="model")
    charts = {
        "roc": roc_chart(curve, color="model"),
        "pauc": partial_auc_chart(curve, fpr=(0.0, 0.2), color="model"),
        "pr": pr_chart(scored.roc.pr_curve(by="model"), color="model"),
        "det": det_chart(scored.roc.det_curve(by="model"), color="model"),
        "hull": hull_chart(scored.roc.hull(model="model"), model="model", curves=curve),
        "explorer": threshold_explorer(curve, color="model"),
    }
    for name, chart in charts.items():
        spec = strict_json(chart)
        orders = order_channels(spec)
        assert orders, name
        assert all(isinstance(order, dict) for order in orders), name
        if name in ("roc", "pauc", "explorer"):
            drawn = pl.DataFrame(rows_of(spec, "curve")).sort("_order")
            steps = drawn.select(
                pl.col("fpr").diff().over("model").fill_null(0).min(),
                pl.col("tpr").diff().over("model").fill_null(0).min(),
            )
            assert steps.row(0) == (0.0, 0.0), name  # never goes back along either axis


def test_label_frames_without_groups(scored: pl.DataFrame) -> None:
    logit = scored.filter(pl.col("model") == "logit")
    curve = logit.roc.curve()
    root = render(roc_chart(curve, auc=logit.roc.auc(), points=logit.roc.best_threshold()))
    assert f"AUC {sklearn_auc(logit):.3f}" in texts(root, "mark")
    assert len(marks(root, "symbol", 3)) == 1
    pauc = logit.roc.partial_auc(fpr=(0.0, 0.3))
    root = render(partial_auc_chart(curve, fpr=(0.0, 0.3), pauc=pauc))
    raw, std = pauc.select("pauc", "pauc_std").row(0)
    assert f"pAUC {raw:.4f}, standardized {std:.3f}" in texts(root, "mark")
