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
            # Three dots close together: a label goes beside its dot or is left out (the
            # dot keeps its tooltip), so at least two of the three fit.
            assert sum(text.startswith("t=") for text in shown) >= 2, (name, shown)
        if name == "pr_plain":
            assert len(shown) >= 3, (name, shown)  # a line per model in the panel
        if name in ("roc_plain", "pauc_plain"):
            # without color= the models are coloured by default: their AUCs go in the legend
            labels = re.findall(r"\((p?AUC [\d.]+)", str(chart.to_dict()))
            assert len(labels) >= 3, (name, labels)


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


def expected_text(value: float) -> str:
    """4 significant digits: d3's ".4r", or C's "%.3e" (exponent unpadded) below 1e-3."""
    if value != 0 and abs(value) < 1e-3:
        mantissa, exponent = f"{value:.3e}".split("e")
        return f"{mantissa}e{int(exponent)}"
    return d3_rounded(value)


@pytest.mark.parametrize(
    "value",
    [
        0.28,
        0.273,
        0.00157341,
        0.5954397202808415,
        712.0,
        12345.6,
        -1.5,
        3e-7,
        0.99996,
        6.98976e-22,
        -0.000157341,
        0.0009999,
        0.001,
    ],
)
def test_thresholds_print_the_same_in_python_and_in_vega(value: float) -> None:
    python = pr.charts.style.threshold_text(value)
    assert python == expected_text(value)
    frame = pl.DataFrame({"t": [value]})
    chart = (
        alt.Chart(frame)
        .mark_text()
        .transform_calculate(shown=pr.charts.style.threshold_expr("datum.t"))
        .encode(text=alt.Text("shown:N"))
    )
    svg = vlc.vegalite_to_svg(chart.to_dict(), vl_version=VL_VERSION)
    assert re.search(r">([^<]*)</text>", svg).group(1) == python  # type: ignore[union-attr]


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


# --- label placement, number formats, colour meaning -------------------------------


def marks(svg: str, kind: str) -> list[tuple[float, float, dict[str, str]]]:
    """Every element of the rendered marks of `kind` (e.g. "symbol"): its position, attrs."""
    root = ET.fromstring(svg)
    out: list[tuple[float, float, dict[str, str]]] = []

    def walk(node: ET.Element, x: float, y: float, inside: bool) -> None:
        classes = node.get("class", "").split()
        if node.tag == f"{SVG}g":
            dx, dy = offset(node)
            x, y = x + dx, y + dy
            inside = inside or (f"mark-{kind}" in classes and "role-mark" in classes)
        elif inside and node.tag in (f"{SVG}path", f"{SVG}text"):
            dx, dy = offset(node)
            out.append((x + dx, y + dy, dict(node.attrib)))
            return
        if "role-legend" in classes or "role-axis" in classes:
            return
        for child in node:
            walk(child, x, y, inside)

    walk(root, 0.0, 0.0, False)
    return out


def box_distance(box: tuple[float, float, float, float], x: float, y: float) -> float:
    dx = max(box[0] - x, 0.0, x - box[2])
    dy = max(box[1] - y, 0.0, y - box[3])
    return float(np.hypot(dx, dy))


@pytest.fixture(scope="module")
def strong() -> pl.DataFrame:
    """Three strong models (AUC ~0.99, as on breast-cancer data): dots in the top-left corner."""
    rng = np.random.default_rng(7)
    n = 600
    label = rng.random(n) < 0.4
    latent = rng.normal(size=n) + 4.5 * label
    return pl.concat(
        pl.DataFrame(
            {
                "model": name,
                "label": label,
                "score": 1 / (1 + np.exp(-3 * (latent - 2 + rng.normal(scale=s, size=n)))),
            }
        )
        for name, s in (("logit", 0.2), ("forest", 0.5), ("bayes", 0.9))
    )


def test_a_threshold_label_sits_beside_its_dot(good: pl.DataFrame, strong: pl.DataFrame) -> None:
    charts = {
        "good": roc_chart(good.roc.curve(by="model"), color="model", points="youden"),
        "good_zoom": roc_chart(
            good.roc.curve(by="model"), color="model", points="youden", zoom=(0.0, 0.2)
        ),
        "strong": roc_chart(strong.roc.curve(by="model"), color="model", points="youden"),
        "strong_zoom": roc_chart(
            strong.roc.curve(by="model"), color="model", points="youden", zoom=(0.0, 0.2)
        ),
        "facets": roc_chart(
            good.roc.curve(by=["model", "fold"]),
            color="model",
            facet="fold",
            columns=3,
            points="youden",
            size=220,
        ),
    }
    for name, chart in charts.items():
        svg = vlc.vegalite_to_svg(chart.to_dict(), vl_version=VL_VERSION)
        labels = [(text, box) for text, box, _ in text_boxes(svg) if text.startswith("t=")]
        dots = [
            (x, y)
            for x, y, attrs in marks(svg, "symbol")
            if attrs.get("opacity", "1") != "0" and attrs.get("fill") not in (None, "none")
        ]
        assert dots, name
        for text, box in labels:
            # Beside a dot: within a line and a half of one (never stacked in a corner).
            nearest = min(box_distance(box, x, y) for x, y in dots)
            assert nearest <= 24, (name, text, box, nearest)


SIG4 = re.compile(r"^-?\d\.\d{3}e-\d+$")


def significant(token: str) -> int:
    """Significant digits of a printed decimal number (trailing zeros count)."""
    digits = token.lstrip("+-−").split("e")[0].replace(".", "").replace(",", "")
    return len(digits.lstrip("0")) or 1


def decimal_tokens(text: str) -> list[str]:
    return re.findall(r"-?\d[\d,]*\.\d+(?:e-?\d+)?", text)


@pytest.fixture(scope="module")
def tiny() -> pl.DataFrame:
    """Probabilities down to 1e-30: thresholds that d3's ".4r" would print with 30 zeros."""
    rng = np.random.default_rng(3)
    n = 400
    label = rng.random(n) < 0.4
    latent = rng.normal(size=n) * 12 + 20 * label - 30
    score = 1 / (1 + np.exp(-latent))
    return pl.DataFrame(
        {"model": np.where(rng.random(n) < 0.5, "a", "b"), "label": label, "score": score}
    )


def tiny_charts(tiny: pl.DataFrame) -> dict[str, Any]:
    curve = tiny.roc.curve(by="model")
    table = tiny.roc.thresholds(by="model")
    return {
        "roc": roc_chart(curve, color="model", points="youden"),
        "thresholds": threshold_chart(table, facet="model", width=300, height=200),
        "ks": ks_chart(curve, facet="model", size=240),
        "explorer": threshold_explorer(table, color="model"),
        "gains": gain_chart(tiny.roc.gains_table(by="model"), color="model"),
        "scores": pr.charts.score_chart(tiny, "score", "label", kind="histogram", facet="model"),
    }


def test_no_chart_text_prints_more_than_four_significant_digits(tiny: pl.DataFrame) -> None:
    assert tiny["score"].min() < 1e-20  # type: ignore[operator]
    for name, chart in tiny_charts(tiny).items():
        svg = vlc.vegalite_to_svg(chart.to_dict(), vl_version=VL_VERSION)
        texts = ["".join(node.itertext()) for node in ET.fromstring(svg).iter(f"{SVG}text")]
        for text in texts:
            for token in decimal_tokens(text):
                assert significant(token) <= 4, (name, text)
                if "e" not in token and token.lstrip("-").startswith("0.000"):
                    raise AssertionError((name, text))  # below 1e-3: scientific
        shown = [t for t in texts if t.startswith("t=") or "at " in t]
        for text in shown:
            value = text.rsplit("=", 1)[-1].rsplit("at ", 1)[-1].strip()
            number = float(value.replace("−", "-"))
            assert value == expected_text(number), (name, text)


def tooltip_fields(spec: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    if isinstance(spec, dict):
        tips = spec.get("tooltip")
        if isinstance(tips, list):
            found += [t for t in tips if isinstance(t, dict)]
        elif isinstance(tips, dict) and "field" in tips:
            found.append(tips)
        for value in spec.values():
            found += tooltip_fields(value)
    elif isinstance(spec, list):
        for value in spec:
            found += tooltip_fields(value)
    return found


def test_tooltips_print_thresholds_and_scores_as_the_tables_do(tiny: pl.DataFrame) -> None:
    printed = {"threshold", "bin_start", "bin_end", "score", "mean_score"}
    for name, chart in tiny_charts(tiny).items():
        spec = chart.to_dict()
        tips = tooltip_fields(spec)
        raw = [t for t in tips if t.get("field") in printed]
        assert raw == [], (name, raw)  # a raw number would print with d3's format
        texts = [t["field"] for t in tips if str(t.get("field", "")).startswith("_text_")]
        rows = [row for data in spec["datasets"].values() for row in data]
        for field in texts:
            source = field.removeprefix("_text_")
            for row in rows:
                if row.get(source) is None:
                    continue
                assert row[field] == expected_text(row[source]), (name, field, row)


def explorer_slider(table: pl.DataFrame) -> dict[str, Any]:
    (param,) = threshold_explorer(table).to_dict()["params"]
    return param  # type: ignore[no-any-return]


def test_explorer_slider_shows_four_significant_digits() -> None:
    # Most thresholds tiny (a median of 0.02), the largest near 1: the step is that of the
    # 4th digit of numbers below 1, so the slider never shows 0.38486.
    rng = np.random.default_rng(5)
    label = rng.random(300) < 0.3
    score = np.where(label, rng.random(300), rng.random(300) ** 6 * 0.1)
    table = pl.DataFrame({"score": score, "label": label}).roc.thresholds()
    param = explorer_slider(table)
    assert param["bind"]["step"] == 1e-4
    for number in (param["value"], param["bind"]["min"], param["bind"]["max"]):
        assert significant(repr(float(number))) <= 4, number


def colour_ranges(spec: Any, fields: set[str]) -> list[list[str]]:
    return [
        list(c["scale"]["range"])
        for c in colours(spec)
        if c.get("field") in fields and isinstance(c.get("scale"), dict) and "range" in c["scale"]
    ]


def test_measures_and_classes_never_take_the_model_colours(good: pl.DataFrame) -> None:
    palette = set(pr.charts.style.PALETTE)
    curve = good.roc.curve(by="model")
    table = good.roc.thresholds(by="model")
    charts = {
        "thresholds": (threshold_chart(table, facet="model"), {"measure"}),
        "thresholds_dash": (threshold_chart(table, dash="model"), {"measure"}),
        "ks": (ks_chart(curve, facet="model"), {"_class"}),
        "scores": (
            pr.charts.score_chart(good, "score", "label", facet="model", kind="histogram"),
            {"_class"},
        ),
    }
    for name, (chart, fields) in charts.items():
        ranges = colour_ranges(chart.to_dict(), fields)
        assert ranges, name
        for colours_ in ranges:
            assert not palette & set(colours_), (name, colours_)
    # ... while models keep the model palette.
    (model,) = {
        tuple(r) for r in colour_ranges(roc_chart(curve, color="model").to_dict(), {"model"})
    }
    assert set(model) <= palette
    # The measures' dashes tell them apart without colour: one dash per measure.
    spec = threshold_chart(table, facet="model").to_dict()
    dashes = [
        enc["strokeDash"]["scale"]["range"]
        for enc in (s.get("encoding", {}) for s in spec["spec"]["layer"])
        if "strokeDash" in enc
    ]
    assert dashes
    assert len({tuple(d) for d in dashes[0]}) == len(dashes[0])
