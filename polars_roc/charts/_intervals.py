"""Uncertainty charts: the averaged ROC curve with its band, and the AUC forest plot."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import polars as pl

from polars_roc._core.columns import AUC, AVERAGE_CURVE, THRESHOLD_AVERAGE, interval
from polars_roc.charts._altair import (
    Panels,
    altair,
    apart,
    chance_line,
    check_roles,
    color_channel,
    combine,
    field,
    groups,
    is_mark,
    named_nulls,
    nominal,
    per_panel,
    quantitative,
    require,
    tooltips,
)
from polars_roc.charts._axes import unit_axes
from polars_roc.charts._roc import chance_rows
from polars_roc.charts._segments import summary_layers, summary_rows
from polars_roc.charts._thin import ROW_BUDGET, budget, drawing_order, thin

if TYPE_CHECKING:
    import altair as alt


def average_curve_chart(
    average: pl.DataFrame,
    *,
    color: str | None = None,
    facet: str | None = None,
    row: str | None = None,
    column: str | None = None,
    columns: int | None = None,
    size: int = 300,
    max_points: int = 2000,
) -> alt.LayerChart | alt.FacetChart:
    """
    The averaged ROC curve (e.g. over cross-validation folds) with its confidence band.

    Draws ``tpr_mean`` against ``fpr`` as a line and the band from ``tpr_lower`` to
    ``tpr_upper`` as a shaded area, per group, over the chance diagonal, on the square
    [0, 1]².

    Parameters
    ----------
    average
        The frame ``df.roc.average_curve(...)`` returns: ``*by, fpr, tpr_mean, tpr_lower,
        tpr_upper``; any other column is a group column.
    color, facet, row, column, columns, size, max_points
        As in :func:`polars_roc.charts.roc_chart`.

    Returns
    -------
    alt.LayerChart or alt.FacetChart
        Untitled; faceted when a panel role is given.

    Examples
    --------
    >>> import polars as pl
    >>> from polars_roc.charts import average_curve_chart
    >>> average = pl.DataFrame(
    ...     {
    ...         "fpr": [0.0, 0.5, 1.0],
    ...         "tpr_mean": [0.0, 0.8, 1.0],
    ...         "tpr_lower": [0.0, 0.7, 1.0],
    ...         "tpr_upper": [0.0, 0.9, 1.0],
    ...     }
    ... )
    >>> spec = average_curve_chart(average).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['line', 'area', 'line', 'circle']
    """
    alt_ = altair()
    hint = "pass the frame df.roc.average_curve(...) returns"
    require(average, list(AVERAGE_CURVE), "the average curve", hint)
    by = groups(average, THRESHOLD_AVERAGE)
    panels = Panels(facet, row, column, columns)
    check_roles(by, "average curve", color=color, facet=facet, row=row, column=column)
    ordered = drawing_order(average, by, ["fpr", "tpr_mean"], [False, False])
    chance = chance_rows(average, panels).rename({"tpr": "tpr_mean"})
    n_lines = ordered.select(by).n_unique() if by else 1
    most, least = budget(n_lines, chance.height, max_points, "average_curve_chart")
    drawn = thin(ordered, "fpr", "tpr_mean", by=by, max_points=most, min_points=least)
    data = combine(chance=chance, curve=drawn)
    x, y = unit_axes(alt_, "fpr", "tpr_mean")
    y2 = alt_.Y2(field="tpr_upper")
    hue = color_channel(alt_, color, None, average)
    lines_apart = apart(alt_, by, color, panels)
    order = alt_.Order(field="fpr", type="quantitative")
    lines = alt_.Chart().transform_filter(is_mark("curve"))
    tips = tooltips(alt_, drawn, by, list(AVERAGE_CURVE))
    band_y = unit_axes(alt_, "fpr", "tpr_lower")[1]
    layers = [
        chance_line(alt_, x, y),
        lines.mark_area(opacity=0.2).encode(x, band_y, y2, **hue, **lines_apart),
        lines.mark_line(strokeWidth=2).encode(x, y, order=order, **hue, **lines_apart),
        lines.mark_circle(size=40, opacity=0).encode(x, y, tooltip=tips, **hue),
    ]
    chart = alt_.layer(*layers, data=data).properties(width=size, height=size)
    return panels.apply(alt_, named_nulls(chart, color, average))


def squeezes(rows: pl.DataFrame, reference: float) -> bool:
    """Whether drawing `reference` would leave the intervals under a third of the axis."""
    ends = [c for c in ("auc", "auc_lower", "auc_upper") if c in rows.columns]
    values = rows.select(pl.concat_list(ends).explode().drop_nulls()).to_series()
    if values.len() == 0:
        return False
    low, high = float(values.min()), float(values.max())  # type: ignore[arg-type]
    gap = max(low - reference, reference - high, 0.0)
    return gap > 2 * max(high - low, 0.01)


def auc_interval_chart(
    auc: pl.DataFrame,
    *,
    label: str | Sequence[str] | None = None,
    color: str | None = None,
    facet: str | None = None,
    row: str | None = None,
    column: str | None = None,
    columns: int | None = None,
    reference: float | None = 0.5,
    width: int = 300,
    step: int = 20,
    rollup: pl.DataFrame | None = None,
) -> alt.LayerChart | alt.FacetChart:
    """
    Forest plot: each group's AUC as a dot with its interval as a bar, sorted by AUC.

    One row per group, the highest AUC on top; the interval bar spans ``auc_lower`` to
    ``auc_upper`` when the frame has them (``df.roc.auc(..., ci="delong")`` or
    ``ci="bootstrap"``). Groups whose AUC is null (no positives or no negatives) are left out.
    A dashed rule marks `reference` (chance, 0.5), unless it lies so far from every interval
    that they would take less than a third of the axis (strong models: AUCs near 1).

    Parameters
    ----------
    auc
        The frame ``df.roc.auc(by=..., ci=...)`` returns: ``*by, auc, n_pos, n_neg[, auc_se,
        auc_lower, auc_upper]``.
    label
        Group column(s) naming the rows, joined with " · "; default: every group column
        not used as a panel role.
    color
        Group column coloured.
    facet, row, column, columns
        Group columns splitting the chart into panels (rows sorted by AUC in each).
    reference
        AUC marked by a dashed rule; None for none.
    width
        Width of each panel, in pixels.
    step
        Height of each row, in pixels.
    rollup
        ``df.roc.rollup(segment=..., by=...)`` of the same rows, when `auc` holds one row per
        segment (``df.roc.auc(by=[..., segment], ci="delong")``): the pooled, within-segment
        and IVW AUCs (with its interval) are drawn beneath the segments as grey diamonds, as
        a meta-analysis forest plot.

    Returns
    -------
    alt.LayerChart or alt.FacetChart
        Untitled; faceted when a panel role is given.

    Examples
    --------
    >>> import polars as pl
    >>> from polars_roc.charts import auc_interval_chart
    >>> auc = pl.DataFrame(
    ...     {
    ...         "model": ["a", "b"],
    ...         "auc": [0.71, 0.83],
    ...         "n_pos": [50, 50],
    ...         "n_neg": [200, 200],
    ...         "auc_se": [0.04, 0.03],
    ...         "auc_lower": [0.63, 0.77],
    ...         "auc_upper": [0.79, 0.89],
    ...     }
    ... )
    >>> spec = auc_interval_chart(auc).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['rule', 'rule', 'point']
    >>> spec["layer"][2]["encoding"]["y"]["sort"]  # rows top down by their place: best first
    {'field': '_place', 'op': 'min', 'order': 'ascending'}
    >>> rows = [r for r in next(iter(spec["datasets"].values())) if r["_mark"] == "interval"]
    >>> [r["_label"] for r in sorted(rows, key=lambda r: r["_place"])]
    ['b', 'a']
    """
    alt_ = altair()
    require(auc, ["auc"], "the auc frame", "pass the frame df.roc.auc(by=..., ci=...) returns")
    by = groups(auc, AUC)
    panels = Panels(facet, row, column, columns)
    check_roles(by, "auc", color=color, facet=facet, row=row, column=column)
    names = (
        [name for name in by if name not in panels.names]
        if label is None
        else ([label] if isinstance(label, str) else list(label))
    )
    check_roles(by, "auc", **{f"label[{i}]": name for i, name in enumerate(names)})
    if names:
        # Each part named on its own: one null key must not blank the whole label.
        parts = [pl.col(n).cast(pl.String).fill_null("null") for n in names]
        text = pl.concat_str(parts, separator=" · ")
    else:
        text = pl.lit("AUC")
    rows = auc.filter(pl.col("auc").is_not_null()).with_columns(_label=text.fill_null("null"))
    rows = rows.sort("auc", descending=True, maintain_order=True)
    if rows.height > ROW_BUDGET:
        msg = (
            f"auc_interval_chart cannot draw {rows.height:,} groups: one row each, and Altair "
            f"draws at most 5,000 rows\n\nHint: filter the groups (e.g. "
            f"auc.sort('auc').head(50)) or draw one panel per chart."
        )
        raise ValueError(msg)
    reference_rows = None
    if reference is not None and squeezes(rows, float(reference)):
        reference = None
    if reference is not None:
        reference_rows = per_panel(pl.DataFrame({"auc": [float(reference)]}), rows, panels.names)
    # segments: the roll-up's summary rows beneath the segments.
    summary = None if rollup is None else summary_rows(rollup, names, panels.names)
    if not panels.names:  # rows by AUC, then the summaries: each row's place, a number
        rows = rows.with_columns(_place=pl.int_range(pl.len(), dtype=pl.Int64))
        if summary is not None:
            place = pl.int_range(pl.len(), dtype=pl.Int64) + rows.height
            summary = summary.with_columns(_place=place)
    data = combine(reference=reference_rows, interval=rows, summary=summary)
    scale = alt_.Scale(zero=False, nice=False, padding=8)
    x = quantitative(alt_, "X", "auc", title="AUC", scale=scale)
    # Sorted by a number, never by an explicit list of the labels: Vega-Lite writes such a
    # list's values unescaped into a Vega expression, which a U+2028 in a label breaks.
    sort = alt_.EncodingSortField(field="_place", op="min", order="ascending")
    if panels.names and summary is None:
        sort = alt_.EncodingSortField(field="auc", op="max", order="descending")
    elif summary is not None and panels.names:  # by AUC, then the summaries in order
        data = data.with_columns(_rank=pl.col("_rank").fill_null(-pl.col("auc") - 2))
        sort = alt_.EncodingSortField(field="_rank", op="min", order="ascending")
    y = nominal(alt_, "Y", "_label", title=None, sort=sort)
    # The colours of every group of the frame (also those left out for a null AUC), so a
    # group keeps its colour beside the other charts; without `color`, one neutral colour
    # (the first palette colour would look like the first group's).
    hue = color_channel(alt_, color, None, auc) if color is not None else {}
    neutral = {} if hue else {"color": "#333"}
    tips = tooltips(alt_, rows, by, [c for c in (*AUC, *interval("auc")) if c in rows.columns])
    marks = alt_.Chart().transform_filter(is_mark("interval"))
    layers = []
    if reference is not None:
        rule = alt_.Chart().transform_filter(is_mark("reference"))
        layers.append(rule.mark_rule(color="gray", strokeDash=[4, 4]).encode(x))
    if {"auc_lower", "auc_upper"} <= set(rows.columns):
        low = quantitative(alt_, "X", "auc_lower", title="AUC", scale=scale)
        bar = marks.mark_rule(strokeWidth=2, **neutral)
        bar = bar.encode(low, y, x2=alt_.X2(field=field("auc_upper")))
        layers.append(bar.encode(tooltip=tips, **hue))
    point = marks.mark_point(filled=True, size=60, opacity=1, **neutral)
    layers.append(point.encode(x, y, tooltip=tips, **hue))
    if summary is not None:
        layers.extend(summary_layers(alt_, x, y, scale))
    height = alt_.Step(step)
    chart = alt_.layer(*layers, data=data).properties(width=width, height=height)
    return panels.apply(alt_, named_nulls(chart, color, auc))
