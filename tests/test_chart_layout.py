"""What a reader sees: texts that never overlap, colours that stay with their group, numbers
printed one way, many groups within Altair's row limit, big tables drawn fast.

Charts are rendered to SVG by vl-convert (the Vega renderer) and the SVG is parsed here: each
text mark's box comes from its position, anchor and font size, with a width estimated
generously from the glyph widths of Arial / Liberation Sans (the renderer's sans-serif) —
written here, independently of the package's own layout code.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import altair as alt
import numpy as np
import polars as pl
import pytest
import vl_convert as vlc

import polars_roc as pr
from polars_roc.charts import (
    auc_interval_chart,
    average_curve_chart,
    det_chart,
    gain_chart,
    hull_chart,
    ks_chart,
    partial_auc_chart,
    pr_chart,
    roc_chart,
    threshold_chart,
    threshold_explorer,
)

SVG = "{http://www.w3.org/2000/svg}"
VL_VERSION = ".".join(alt.SCHEMA_VERSION.lstrip("v").split(".")[:2])
TRANSLATE = re.compile(r"translate\(([-\d.e]+),\s*([-\d.e]+)\)")
BACKGROUND = re.compile(r"M[\d.]+,[\d.]+h([\d.]+)v([\d.]+)h")

# Advance widths (em) of Arial / Liberation Sans, rounded up; anything else 0.75.
ARIAL = {
    **dict.fromkeys("0123456789abcdeghnopqu", 0.56),
    **dict.fromkeys("ksvxyz", 0.50),
    **dict.fromkeys(" .,:;!|'ijlft[]()I", 0.34),
    "r": 0.34,
    "m": 0.84,
    "w": 0.73,
    "=": 0.59,
}


def width(text: str, size: float) -> float:
    return sum(ARIAL.get(c, 0.75) for c in text) * size


def offset(element: ET.Element) -> tuple[float, float]:
    found = TRANSLATE.search(element.get("transform", ""))
    return (float(found.group(1)), float(found.group(2))) if found else (0.0, 0.0)


def text_boxes(svg: str) -> list[tuple[str, tuple[float, float, float, float], Any]]:
    """Every text mark (role-mark, not axes or legends): its text, box and plot area."""
    root = ET.fromstring(svg)
    out: list[tuple[str, tuple[float, float, float, float], Any]] = []

    def walk(node: ET.Element, x: float, y: float, area: Any, in_mark: bool) -> None:
        classes = node.get("class", "").split()
        dx, dy = offset(node) if node.tag == f"{SVG}g" else (0.0, 0.0)
        x, y = x + dx, y + dy
        for child in node:
            if child.tag == f"{SVG}path" and "background" in child.get("class", ""):
                size = BACKGROUND.match(child.get("d", ""))
                if size and float(size.group(1)) > 0 and not in_mark:
                    area = (x, y, x + float(size.group(1)), y + float(size.group(2)))
        mark = in_mark or ("mark-text" in classes and "role-mark" in classes)
        if node.tag == f"{SVG}text" and in_mark:
            tx, ty = offset(node)
            tx, ty = x + tx, y + ty
            text = "".join(node.itertext())
            size = float(node.get("font-size", "11px").rstrip("px"))
            w = width(text, size)
            anchor = node.get("text-anchor", "start")
            left = tx - (w if anchor == "end" else w / 2 if anchor == "middle" else 0)
            out.append((text, (left, ty - 0.8 * size, left + w, ty + 0.22 * size), area))
            return
        for child in node:
            if not (node.tag == f"{SVG}g" and "role-axis" in classes) and "role-legend" not in (
                child.get("class", "")
            ):
                walk(child, x, y, area, mark)

    walk(root, 0.0, 0.0, None, False)
    return out


def check_texts(chart: Any) -> list[str]:
    """Render; assert no two text marks overlap and each lies inside its plot area."""
    svg = vlc.vegalite_to_svg(chart.to_dict(), vl_version=VL_VERSION)
    boxes = [item for item in text_boxes(svg) if item[0].strip()]
    for text, box, area in boxes:
        assert area is not None, text
        assert area[0] - 0.5 <= box[0], (text, box, area)
        assert box[2] <= area[2] + 0.5, (text, box, area)
        assert area[1] - 0.5 <= box[1], (text, box, area)
        assert box[3] <= area[3] + 0.5, (text, box, area)
    for i, (a, box_a, _) in enumerate(boxes):
        for b, box_b, _ in boxes[i + 1 :]:
            apart = (
                box_a[2] <= box_b[0]
                or box_b[2] <= box_a[0]
                or box_a[3] <= box_b[1]
                or box_b[3] <= box_a[1]
            )
            assert apart, (a, box_a, b, box_b)
    return [text for text, _, _ in boxes]


@pytest.fixture(scope="module")
def good() -> pl.DataFrame:
    """Three near-identical strong models (AUC ~0.98), five folds: the hard case for labels."""
    rng = np.random.default_rng(0)
    n = 569
    label = rng.random(n) < 0.37
    latent = rng.normal(size=n) + 3.2 * label
    fold = rng.integers(0, 5, n)
    return pl.concat(
        pl.DataFrame(
            {
                "model": name,
                "fold": fold,
                "label": label,
                "score": 1 / (1 + np.exp(-(latent + rng.normal(scale=0.35, size=n)))),
            }
        )
        for name in ("logit", "knn", "forest")
    )


def builders(good: pl.DataFrame) -> dict[str, Any]:
    curve = good.roc.curve(by="model")
    folds = good.roc.curve(by=["model", "fold"])
    table = good.roc.thresholds(by="model")
    best = good.roc.best_threshold(by="model")
    return {
        "roc": roc_chart(curve, color="model", points="youden"),
        "roc_frames": roc_chart(curve, color="model", auc=good.roc.auc(by="model"), points=best),
        "roc_plain": roc_chart(curve, points="youden"),
        "roc_zoom": roc_chart(curve, color="model", points="youden", zoom=(0.0, 0.2)),
        "roc_facets": roc_chart(
            folds, color="model", facet="fold", columns=3, points="youden", size=220
        ),
        "pauc": partial_auc_chart(curve, fpr=(0.0, 0.2), color="model"),
        "pauc_plain": partial_auc_chart(curve, fpr=(0.0, 0.2)),
        "pauc_tpr": partial_auc_chart(curve, tpr=(0.8, 1.0)),
        "pauc_facets": partial_auc_chart(
            folds, fpr=(0.0, 0.2), color="model", facet="fold", columns=3, size=220
        ),
        "pr": pr_chart(good.roc.pr_curve(by="model"), color="model"),
        "pr_plain": pr_chart(good.roc.pr_curve(by="model")),
        "det": det_chart(good.roc.det_curve(by="model"), color="model"),
        "thresholds": threshold_chart(table, facet="model", width=220, height=150),
        "thresholds_dash": threshold_chart(table, dash="model"),
        "thresholds_frame": threshold_chart(table, best=best, facet="model", width=220),
        "explorer": threshold_explorer(table, color="model"),
        "intervals": auc_interval_chart(good.roc.auc(by="model", ci="delong"), color="model"),
        "average": average_curve_chart(
            good.roc.average_curve(by="model", fold="fold"), color="model"
        ),
        "hull": hull_chart(good.roc.hull(model="model"), model="model", curves=curve),
        "roc_log": roc_chart(curve, color="model", points="youden", fpr_scale="log"),
        "roc_log_facets": roc_chart(
            folds,
            color="model",
            facet="fold",
            columns=3,
            points="youden",
            size=220,
            fpr_scale="log",
        ),
        "pauc_log_facets": partial_auc_chart(
            folds,
            fpr=(0.0, 0.2),
            color="model",
            facet="fold",
            columns=3,
            size=220,
            fpr_scale="log",
        ),
        "pauc_log": partial_auc_chart(curve, fpr=(0.0, 0.1), color="model", fpr_scale="log"),
        "gains": gain_chart(
            good.roc.gains_table(by=["model", "fold"]),
            color="model",
            facet="fold",
            columns=3,
            size=200,
        ),
        "ks": ks_chart(folds.filter(pl.col("fold") < 2), row="model", column="fold", size=180),
    }


def test_no_text_overlaps_or_leaves_its_plot(good: pl.DataFrame) -> None:
    for name, chart in builders(good).items():
        shown = check_texts(chart)
        if name in ("roc", "roc_frames", "roc_zoom", "roc_log"):
            assert sum(text.startswith("t=") for text in shown) == 3, (name, shown)
        if name in ("roc_plain", "pauc_plain", "pr_plain"):
            assert len(shown) >= 3, (name, shown)  # a line per model in the panel


# --- colours ---------------------------------------------------------------------------------


def colours(spec: Any) -> list[dict[str, Any]]:
    """Every colour encoding of a spec, however deeply nested."""
    found = []
    if isinstance(spec, dict):
        encoding = spec.get("encoding")
        if isinstance(encoding, dict) and isinstance(encoding.get("color"), dict):
            found.append(encoding["color"])
        for value in spec.values():
            found += colours(value)
    elif isinstance(spec, list):
        for value in spec:
            found += colours(value)
    return found


def test_a_group_keeps_its_colour_in_every_chart(good: pl.DataFrame) -> None:
    models = sorted(good["model"].unique())
    for name, chart in builders(good).items():
        if name.startswith(("thresholds", "roc_plain", "pauc_plain", "pr_plain", "pauc_tpr", "ks")):
            continue  # colour there is the measure, or nothing
        by_model = [c for c in colours(chart.to_dict()) if c.get("field") == "model"]
        assert by_model, name
        for channel in by_model:
            assert channel["scale"]["domain"] == models, name
            assert len(set(channel["scale"]["range"])) == len(models), name
    # A chart leaving a group out (its AUC is null) keeps the others' colours.
    auc = good.roc.auc(by="model").with_columns(
        auc=pl.when(pl.col("model") == "forest").then(None).otherwise(pl.col("auc"))
    )
    spec = auc_interval_chart(auc, color="model").to_dict()
    assert {tuple(c["scale"]["domain"]) for c in colours(spec)} == {tuple(models)}
    # In a composed chart the intervals take their groups' colours, not the first colour.
    root = ET.fromstring(
        vlc.vegalite_to_svg(
            (
                roc_chart(good.roc.curve(by="model"), color="model")
                | auc_interval_chart(good.roc.auc(by="model", ci="delong"), color="model")
            ).to_dict(),
            vl_version=VL_VERSION,
        )
    )
    fills = {
        path.get("fill")
        for group in root.iter(f"{SVG}g")
        if "mark-symbol" in group.get("class", "") and "role-mark" in group.get("class", "")
        for path in group
    }
    assert len(fills - {None, "transparent"}) == 3


def test_legend_lists_the_best_first_with_fixed_colours(good: pl.DataFrame) -> None:
    spec = roc_chart(good.roc.curve(by="model"), color="model").to_dict()
    (legend,) = {json_key(c["legend"]) for c in colours(spec) if "legend" in c}
    aucs = {m: float(a) for m, a in good.roc.auc(by="model").select("model", "auc").iter_rows()}
    assert list(legend) == sorted(aucs, key=aucs.__getitem__, reverse=True)


def json_key(legend: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(legend["values"])


# --- numbers ---------------------------------------------------------------------------------


def d3_rounded(value: float, digits: int = 4) -> str:
    """d3-format's ".4r" by its definition: toExponential(3), then decimal notation."""
    mantissa, exponent = f"{abs(value):.{digits - 1}e}".split("e")
    coefficient, e = mantissa.replace(".", ""), int(exponent)
    if e < 0:
        text = "0." + "0" * (-e - 1) + coefficient
    elif len(coefficient) > e + 1:
        text = coefficient[: e + 1] + "." + coefficient[e + 1 :]
    else:
        text = coefficient + "0" * (e - len(coefficient) + 1)
    return ("-" if value < 0 else "") + text


@pytest.mark.parametrize(
    "value", [0.28, 0.273, 0.00157341, 0.5954397202808415, 712.0, 12345.6, -1.5, 3e-7, 0.99996]
)
def test_thresholds_print_the_same_in_python_and_in_vega(value: float) -> None:
    python = pr.charts.style.threshold_text(value)
    assert python == d3_rounded(value)
    frame = pl.DataFrame({"t": [value]})
    chart = (
        alt.Chart(frame)
        .mark_text()
        .encode(text=alt.Text("t:Q", format=pr.charts.style.THRESHOLD_FORMAT))
    )
    svg = vlc.vegalite_to_svg(chart.to_dict(), vl_version=VL_VERSION)
    assert re.search(r">([^<]*)</text>", svg).group(1).replace("−", "-") == python  # type: ignore[union-attr]


def test_explorer_slider_moves_in_round_steps(good: pl.DataFrame) -> None:
    table = good.roc.thresholds(by="model")
    spec = threshold_explorer(table, color="model").to_dict()
    (param,) = spec["params"]
    bind = param["bind"]
    for number in (param["value"], bind["min"], bind["max"], bind["step"]):
        assert len(repr(number)) <= 8, number  # e.g. 0.5954, never 0.5954397202808415
    finite = table.filter(pl.col("threshold").is_finite())["threshold"]
    assert bind["min"] <= finite.min()  # type: ignore[operator]
    assert bind["max"] >= finite.max()  # type: ignore[operator]
    assert (bind["max"] - bind["min"]) / bind["step"] >= 100


# --- many groups -----------------------------------------------------------------------------


def many(n_groups: int, rows: int = 8, seed: int = 0) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    n = n_groups * rows
    return pl.DataFrame(
        {
            "store": np.repeat(np.arange(n_groups), rows),
            "label": np.tile([True, False], n // 2),
            "score": rng.random(n),
        }
    )


@pytest.mark.parametrize("n_groups", [1_300, 1_700, 5_000])
def test_many_groups_stay_under_altairs_row_limit(n_groups: int) -> None:
    frame = many(n_groups, rows=4)
    curve = frame.roc.curve(by="store")
    charts = {
        "roc": lambda: roc_chart(curve),
        "roc_points": lambda: roc_chart(curve, points="youden"),
        "pr": lambda: pr_chart(frame.roc.pr_curve(by="store")),
        "det": lambda: det_chart(frame.roc.det_curve(by="store")),
        "pauc": lambda: partial_auc_chart(curve, fpr=(0.0, 0.5)),
        "explorer": lambda: threshold_explorer(curve),
        "thresholds": lambda: threshold_chart(frame.roc.thresholds(by="store"), measures="tpr"),
        "intervals": lambda: auc_interval_chart(frame.roc.auc(by="store")),
    }
    # Past 1,300 groups only the charts with more rows per group may refuse, and with our
    # own error saying what to do: never Altair's MaxRowsError.
    may_refuse = {"pauc"} | ({"roc_points", "thresholds"} if n_groups > 1_300 else set())
    for name, build in charts.items():
        if n_groups > 1_700 or name in may_refuse:
            try:
                chart = build()
            except ValueError as error:
                message = str(error)
            else:
                message = ""
            if message:
                assert "\n\nHint: " in message, name
                continue
        else:
            chart = build()
        spec = chart.to_dict()  # Altair's default data transformer: MaxRowsError past 5,000
        rows = sum(len(values) for values in spec["datasets"].values())
        assert rows <= 5_000, (name, rows)
        if name in ("roc", "pr"):  # (DET leaves out points at rate 0 or 1: infinite)
            drawn = chart.data.filter(pl.col("_mark") == "curve").group_by("store").len()
            assert drawn.height == n_groups, name  # every group still drawn
            assert drawn["len"].min() >= 2, name


def test_too_many_groups_is_our_error_with_a_hint() -> None:
    curve = many(5_000, rows=4).roc.curve(by="store")
    with pytest.raises(ValueError, match=r"cannot draw 5,000 lines.*\n\nHint: filter"):
        roc_chart(curve)


def test_threshold_chart_of_many_groups_and_measures() -> None:
    table = many(300).roc.thresholds(by="store")
    spec = threshold_chart(table, dash=None, facet=None).to_dict()
    assert sum(len(v) for v in spec["datasets"].values()) <= 5_000


# --- speed -----------------------------------------------------------------------------------


def test_threshold_chart_of_a_million_rows_is_thinned() -> None:
    rng = np.random.default_rng(1)
    n = 1_000_000
    table = pl.DataFrame({"score": rng.random(n), "label": rng.random(n) < 0.3}).roc.thresholds()
    # Its speed is measured in benchmarks/, never asserted here.
    spec = threshold_chart(table).to_dict()
    rows = next(iter(spec["datasets"].values()))
    assert len(rows) < 20_000  # thinned for drawing, not 1M rows
    drawn = pl.DataFrame(rows, infer_schema_length=None).filter(pl.col("_mark") == "line")
    # The drawn tpr line is within 1% of the full one everywhere (brute force).
    full = table.filter(pl.col("threshold").is_finite()).sort("threshold")
    line = drawn.filter(pl.col("measure") == "tpr").sort("threshold")
    got = np.interp(full["threshold"], line["threshold"], line["value"])
    assert np.abs(got - full["tpr"].to_numpy()).max() <= 0.01


# --- facets and axes -------------------------------------------------------------------------


def x_axes(chart: Any) -> list[str]:
    """The aria labels of the rendered chart's x-axes."""
    svg = vlc.vegalite_to_svg(chart.to_dict(), vl_version=VL_VERSION)
    return re.findall(r'aria-label="(X-axis[^"]*)"', svg)


def test_a_ragged_facet_grid_draws_no_axis_under_empty_cells(good: pl.DataFrame) -> None:
    folds = good.roc.curve(by=["model", "fold"])  # five folds: 3 + 2 panels
    ragged = roc_chart(folds, color="model", facet="fold", columns=3, size=150)
    assert len(x_axes(ragged)) == 5  # one per panel, none under the empty cell
    full = roc_chart(
        folds.filter(pl.col("fold") < 3), color="model", facet="fold", columns=3, size=150
    )
    assert "resolve" not in full.to_dict()  # a full row keeps the shared axis
    assert len(x_axes(full)) == 3


def test_log_fpr_axis_starts_at_the_decade_below_the_smallest_fpr(good: pl.DataFrame) -> None:
    curve = good.roc.curve(by="model")
    negatives = (~good.filter(pl.col("model") == "logit")["label"]).sum()
    floor = 10.0 ** np.floor(np.log10(1 / negatives))  # the smallest FPR is 1 / negatives
    for chart in (
        roc_chart(curve, color="model", fpr_scale="log"),
        partial_auc_chart(curve, fpr=(0.0, 0.1), color="model", fpr_scale="log"),
    ):
        (axis,) = x_axes(chart)
        assert "log scale" in axis
        assert f"values from {floor:g} to 1" in axis
        svg = vlc.vegalite_to_svg(chart.to_dict(), vl_version=VL_VERSION)
        ticks = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
        assert {"0.001", "0.01", "0.1", "1"} <= set(ticks)
    explorer = threshold_explorer(good.roc.thresholds(by="model"), color="model", fpr_scale="log")
    (axis,) = [axis for axis in x_axes(explorer) if "False positive" in axis]
    assert f"log scale with values from {floor:g} to 1" in axis
    zoomed = roc_chart(curve, color="model", fpr_scale="log", zoom=(0.01, 0.5)).to_dict()
    assert zoomed["layer"][0]["encoding"]["x"]["scale"]["domain"] == [0.01, 0.5]
    with pytest.raises(ValueError, match="fpr_scale must be"):
        roc_chart(curve, fpr_scale="logit")  # type: ignore[arg-type]
