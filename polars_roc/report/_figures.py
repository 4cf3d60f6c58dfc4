"""
The charts of the HTML report, laid out to fill a page 1,400 pixels wide.

:mod:`polars_roc.report` computes the frames and writes the page; this module decides which
chart builder draws each figure, with which roles and sizes:

* the first group column colours the curves (the same colour in every chart: the builders
  share a colour scale over the sorted group values), the second splits them into panels;
  more group columns are folded into the second (:func:`merge_groups`);
* panels wrap into at most :data:`COLUMNS` per row, sized so every chart fills (and stays
  within) :data:`PAGE_WIDTH` pixels (a 1,400-pixel window less the page's margins); a
  single-panel ROC or partial-AUC chart takes half of it (the two share a row), and the
  page shrinks a chart to a narrower window (its SVG scales to the width it has);
* when every AUC is above :data:`ZOOM_ABOVE`, the ROC and partial-AUC panels show only FPR 0
  to :data:`ZOOM_FPR` (:func:`fpr_zoom`): strong models otherwise hug the top-left corner;
  with ``roles["fpr_scale"] == "log"`` they (and the threshold explorer) draw a log FPR
  axis instead;
* with bootstrap intervals the ROC panels shade each curve's confidence band.

Examples
--------
>>> import polars as pl
>>> from polars_roc.report._figures import fpr_zoom
>>> fpr_zoom(pl.DataFrame({"auc": [0.97, 0.99]})), fpr_zoom(pl.DataFrame({"auc": [0.97, 0.9]}))
((0.0, 0.2), None)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import polars as pl

from polars_roc import charts
from polars_roc._core import validate
from polars_roc.charts.style import MULTICLASS_PALETTE

Frame = TypeVar("Frame", pl.DataFrame, pl.LazyFrame)

#: Widest a chart may be, in pixels (a 1,400-pixel window less margins and a scrollbar).
PAGE_WIDTH = 1280
#: Widest a chart sharing a row with another may be (two per row).
HALF_WIDTH = (PAGE_WIDTH - 32) // 2
#: Most panels side by side.
COLUMNS = 3
#: Zoom the FPR axis when every AUC is above this, to FPR 0 to ZOOM_FPR.
ZOOM_ABOVE = 0.95
ZOOM_FPR = 0.2
#: Room a chart needs beside its panels (axis, legend), in pixels.
_MARGIN = {
    "roc": 230,
    "pauc": 230,
    "thresholds": 190,
    "scores": 170,
    "explorer": 210,
    "gains": 200,
    "ks": 230,
    "calibration": 380,
}
_GAP = 20


def class_colors(spec: dict[str, Any], roles: dict[str, Any]) -> dict[str, Any]:
    """
    A multiclass report's chart with its classes in their own colours, not the models'.

    The charts colour their first group column with the models' palette; in a report of
    stacked one-vs-rest rows (``roles["classes"]``) that column holds the classes, so each
    colour scale on it takes :data:`~polars_roc.charts.style.MULTICLASS_PALETTE` instead
    (same domain, so a class keeps its colour in every chart). Other specs are returned as
    they are.

    Examples
    --------
    >>> roles = {"classes": {"column": "class"}}
    >>> spec = {"encoding": {"color": {"field": "class", "scale": {"domain": ["a", "b"]}}}}
    >>> class_colors(spec, roles)["encoding"]["color"]["scale"]["range"]
    ['#1b9e77', '#d95f02']
    """
    classes = roles.get("classes")
    if not classes:
        return spec
    column = classes["column"]

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            color = node.get("color")
            if isinstance(color, dict) and color.get("field") == column:
                scale = color.get("scale")
                if isinstance(scale, dict) and "domain" in scale:
                    n = len(scale["domain"])
                    palette = MULTICLASS_PALETTE
                    scale["range"] = [palette[i % len(palette)] for i in range(n)]
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(spec)
    return spec


def merge_groups(frame: Frame, names: Sequence[str]) -> Frame:
    """
    With more than two group columns, fold the second and later ones into the second.

    Examples
    --------
    >>> import polars as pl
    >>> from polars_roc.report._figures import merge_groups
    >>> frame = pl.DataFrame({"a": [1], "b": ["x"], "c": ["y"]})
    >>> merge_groups(frame, ["a", "b", "c"]).row(0)
    (1, 'x · y')
    """
    if len(names) <= 2:
        return frame
    merged = pl.concat_str(
        [pl.col(name).cast(pl.String).fill_null("null") for name in names[1:]], separator=" · "
    )
    return frame.with_columns(merged.alias(names[1])).drop(names[2:])


def panel_roles(names: Sequence[str]) -> tuple[str | None, str | None, str | None]:
    """
    ``(facet, row, column)`` of the per-group grids: one group wraps, two make a grid.

    Examples
    --------
    >>> from polars_roc.report._figures import panel_roles
    >>> panel_roles([]), panel_roles(["model"]), panel_roles(["model", "segment"])
    ((None, None, None), ('model', None, None), (None, 'model', 'segment'))
    """
    if not names:
        return None, None, None
    if len(names) == 1:
        return names[0], None, None
    return None, names[0], names[1]


def panel_size(key: str, n_columns: int, largest: int) -> int:
    """
    The side of a panel when `n_columns` panels share a row of the page.

    Examples
    --------
    >>> from polars_roc.report._figures import panel_size
    >>> panel_size("roc", 1, 340), panel_size("roc", 3, 340)
    (340, 336)
    """
    room = PAGE_WIDTH - _MARGIN[key] - _GAP * (n_columns - 1)
    return max(100, min(largest, room // max(n_columns, 1)))


def fpr_zoom(auc: pl.DataFrame) -> tuple[float, float] | None:
    """
    The FPR range the ROC panels show: ``(0, 0.2)`` when every defined AUC is above 0.95.

    Examples
    --------
    >>> import polars as pl
    >>> from polars_roc.report._figures import fpr_zoom
    >>> print(fpr_zoom(pl.DataFrame({"auc": [None, 0.99]})))
    (0.0, 0.2)
    """
    values = auc["auc"].drop_nulls()
    if values.len() and values.min() > ZOOM_ABOVE:  # type: ignore[operator]
        return (0.0, ZOOM_FPR)
    return None


def _pauc_zoom(
    zoom: tuple[float, float] | None, kind: str, bounds: tuple[float, float]
) -> tuple[float, float] | None:
    """The partial-AUC panels zoom as the ROC panels do, wide enough to show an FPR range."""
    if zoom is None or kind != "fpr":
        return None
    high = min(1.0, max(zoom[1], 1.25 * bounds[1]))
    return None if high >= 1.0 else (0.0, high)


def builders(
    *,
    auc: pl.DataFrame,
    curve: pl.DataFrame,
    pauc: pl.DataFrame,
    best: pl.DataFrame,
    table: pl.DataFrame,
    roles: dict[str, Any],
    band: pl.DataFrame | None = None,
) -> dict[str, Callable[[], Any]]:
    """
    How each chart of the page is drawn: figure key to a function building its chart.

    The frames are those of :class:`polars_roc.report.ReportData` with their groups merged
    (:func:`merge_groups`); `roles` its ``roles``; `band` the bootstrap band of the ROC
    panels (``tpr_at_fpr(..., ci="bootstrap")``), if any.
    """
    kept = list(roles["by"][:2])
    color = kept[0] if kept else None
    facet = kept[1] if len(kept) > 1 else None
    n_panels = curve[facet].n_unique() if facet else 1
    across = min(n_panels, COLUMNS)
    # one panel: half the page (beside the partial-AUC chart); more: the page's width
    size = panel_size("roc", across, 360) if facet else HALF_WIDTH - _MARGIN["pauc"] - 20
    kind, bounds = roles["range"]
    scale = roles.get("fpr_scale", "linear")
    zoom = fpr_zoom(auc) if scale == "linear" else None
    pauc_zoom = _pauc_zoom(zoom, kind, bounds)
    wrap, row, column = panel_roles(kept)
    grid: dict[str, Any] = {"facet": wrap, "row": row, "column": column}
    n_columns = 1
    if wrap is not None:
        grid["columns"] = COLUMNS
        n_columns = min(table[wrap].n_unique(), COLUMNS)
    elif column is not None:
        n_columns = table[column].n_unique()
        if n_columns > COLUMNS + 1:  # too wide a grid: wrap the columns, dash the rows
            grid = {"facet": column, "columns": COLUMNS, "dash": row}
            n_columns = COLUMNS
    width = panel_size("thresholds", n_columns, 420) if kept else 900
    return {
        "auc": lambda: charts.auc_interval_chart(auc, color=color, width=640),
        "roc": lambda: charts.roc_chart(
            curve,
            color=color,
            facet=facet,
            columns=COLUMNS,
            auc=auc,
            points=best,
            size=size,
            zoom=zoom,
            band=band,
            fpr_scale=scale,
        ),
        "pauc": lambda: charts.partial_auc_chart(
            curve,
            fpr=bounds if kind == "fpr" else None,
            tpr=bounds if kind == "tpr" else None,
            color=color,
            facet=facet,
            columns=COLUMNS,
            pauc=pauc,
            size=size,
            zoom=pauc_zoom,
            fpr_scale=scale if kind == "fpr" else "linear",
        ),
        "thresholds": lambda: charts.threshold_chart(
            table,
            best=best.select(*kept, "threshold"),
            width=width,
            height=150 if kept else 260,
            **grid,
        ),
        "explorer": lambda: charts.threshold_explorer(
            table,
            color=color,
            facet=facet,
            columns=COLUMNS,
            zoom=zoom,
            size=panel_size("explorer", across, 420),
            fpr_scale=scale,
        ),
    }


def score_spec(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    names: list[str],
    weight: str | None,
    pos_label: Any,
    notes: list[str],
    n_segments: int,
    heading: str,
) -> dict[str, Any] | None:
    """
    Per-class score histograms in one panel per group, drawn from every scored row.

    Two group columns make a grid (a row per model, a column per segment) up to
    ``COLUMNS + 1`` segments; past that the panels wrap, one per (model, segment) pair.
    """
    rows = merge_groups(lf, names)
    facet, row, column = panel_roles(names)
    across = COLUMNS
    if row is not None and column is not None and n_segments > COLUMNS + 1:
        pair = f"{row} · {column}"
        both = pl.concat_str(
            [pl.col(row).cast(pl.String), pl.col(column).cast(pl.String)], separator=" · "
        )
        rows = rows.with_columns(both.fill_null("null").alias(pair)).drop(row, column)
        facet, row, column, across = pair, None, None, COLUMNS + 1
    try:
        chart = charts.score_chart(
            rows,
            score,
            label,
            weight=weight,
            pos_label=pos_label,
            kind="histogram",
            bins=40,
            width=panel_size("scores", n_segments if column else across, 320) if names else 640,
            height=140 if names else 240,
            facet=facet,
            row=row,
            column=column,
            columns=across if facet is not None else None,
        )
        spec: dict[str, Any] = chart.to_dict()
    except Exception as error:  # a chart must not cost the reader the report's tables
        reason = validate.one_line(error)
        notes.append(f"The {heading} chart could not be drawn: {reason}")
        return None
    return spec
