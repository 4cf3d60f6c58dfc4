"""Precision-recall and DET (detection error tradeoff) curve charts."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from polars_roc._core.columns import DET_CURVE, PR_CURVE, THRESHOLDS
from polars_roc.charts._altair import (
    Panels,
    altair,
    apart,
    chance_line,
    check_roles,
    color_channel,
    combine,
    fmt,
    groups,
    is_mark,
    label_layer,
    named_nulls,
    numbered,
    per_panel,
    place_labels,
    quantitative,
    require,
    row_order,
    tooltips,
)
from polars_roc.charts._direction import pr_runs_lower
from polars_roc.charts._layout import PAD, Plot
from polars_roc.charts._thin import budget, drawing_order, thin

if TYPE_CHECKING:
    import altair as alt

#: DET axes: normal deviates from probit(0.0005) to probit(0.9995), ticks at these rates.
DET_LIMIT = 3.2905
DET_TICKS = (0.001, 0.01, 0.05, 0.2, 0.5, 0.8, 0.95, 0.99, 0.999)


def ap_summary(frame: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """
    ``*by, _value, _text``: each group's average precision, best first.

    ``AP = sum((R_n - R_{n-1}) * P_n)`` over the points ordered by recall (scikit-learn's
    ``average_precision_score``); null when a recall is null (a group without positives).
    """
    previous = pl.col("recall").shift(1).fill_null(0.0)
    step = (pl.col("recall") - (previous.over(by) if by else previous)) * pl.col("precision")
    ok = pl.col("recall").is_not_null().all()
    value = pl.when(ok).then(pl.col("_step").sum()).alias("_value")
    parts = frame.lazy().with_columns(_step=step)
    table = (
        parts.group_by(by, maintain_order=True).agg(value) if by else parts.select(value)
    ).collect()
    ranked = table.sort("_value", descending=True, nulls_last=True, maintain_order=True)
    texts = [f"AP {fmt(value)}" for value in ranked["_value"].to_list()]
    return ranked.with_columns(_text=pl.Series(texts, dtype=pl.String))


def pr_chart(
    pr: pl.DataFrame,
    *,
    color: str | None = None,
    facet: str | None = None,
    row: str | None = None,
    column: str | None = None,
    columns: int | None = None,
    ap: bool = True,
    baseline: bool = True,
    size: int = 300,
    max_points: int = 2000,
) -> alt.LayerChart | alt.FacetChart:
    """
    Precision-recall curves, one per group, with the no-skill baseline and AP in the labels.

    The baseline of a group is a dashed horizontal rule at the precision of its lowest
    threshold, where every row is predicted positive: the prevalence. The label gives the
    average precision ``sum((R_n - R_{n-1}) * P_n)`` (scikit-learn's step-wise
    definition) in the legend, or inside the panels when colour alone does not tell the
    groups apart. Long curves are thinned for drawing (see :mod:`polars_roc.charts._thin`).

    Parameters
    ----------
    pr
        The frame ``df.roc.pr_curve(...)`` returns: ``*by, threshold, precision, recall``
        (in any row order: the chart orders points by recall).
    color, facet, row, column, columns, size, max_points
        As in :func:`polars_roc.charts.roc_chart`.
    ap
        Put each group's average precision in its label.
    baseline
        Draw each group's no-skill baseline.

    Returns
    -------
    alt.LayerChart or alt.FacetChart
        Untitled; faceted when a panel role is given.

    Examples
    --------
    >>> import polars as pl
    >>> from polars_roc.charts import pr_chart
    >>> pr = pl.DataFrame(
    ...     {
    ...         "threshold": [0.9, 0.8, 0.7, 0.1],
    ...         "precision": [1.0, 1.0, 0.667, 0.5],
    ...         "recall": [0.5, 1.0, 1.0, 1.0],
    ...     }
    ... )
    >>> spec = pr_chart(pr).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['rule', 'line', 'circle', 'text', 'text']
    >>> [row["_text"] for row in spec["datasets"][spec["data"]["name"]] if row["_mark"] == "label"]
    ['AP 1.000']
    """
    alt_ = altair()
    hint = "pass the frame df.roc.pr_curve(...) returns (columns *by, threshold, precision, recall)"
    require(pr, ["precision", "recall"], "the precision-recall curve", hint)
    by = groups(pr, (*PR_CURVE, *THRESHOLDS))
    panels = Panels(facet, row, column, columns)
    check_roles(by, "pr_curve", color=color, facet=facet, row=row, column=column)
    if "threshold" in pr.columns:  # from the start row (recall 0) on, in either direction
        ordered = drawing_order(pr, by, ["threshold"], [not pr_runs_lower(pr)])
    else:
        ordered = drawing_order(pr, by, ["recall", "precision"], [False, True])
    labels = place_labels(
        ap_summary(ordered, by) if ap else None,
        by=by,
        color=color,
        panels=panels.names,
        plot=Plot(size, size),
        fields=("recall", "precision"),
        align="left",
    )
    rule = None
    if baseline:
        lowest = ordered.group_by(by, maintain_order=True).last() if by else ordered.tail(1)
        # Rules at the same height in the same colour and panel are one rule.
        shown = [name for name in by if name == color or name in panels.names]
        rule = lowest.select(*shown, "precision").unique(maintain_order=True)
    n_lines = ordered.select(by).n_unique() if by else 1
    extra = (0 if rule is None else rule.height) + (
        0 if labels.rows is None else labels.rows.height
    )
    most, least = budget(n_lines, extra, max_points, "pr_chart")
    drawn = thin(ordered, "recall", "precision", by=by, max_points=most, min_points=least)
    data = combine(baseline=rule, curve=numbered(drawn), label=labels.rows)
    scale = alt_.Scale(domain=[0, 1], nice=False)
    x = quantitative(alt_, "X", "recall", title="Recall (true positive rate)", scale=scale)
    y = quantitative(alt_, "Y", "precision", title="Precision (positive predictive value)")
    y = y.scale(scale)
    hue = color_channel(alt_, color, labels, pr)
    lines_apart = apart(alt_, by, color, panels)
    lines = alt_.Chart().transform_filter(is_mark("curve"))
    tips = tooltips(alt_, drawn, by, ["threshold", "precision", "recall", "tp", "fp"])
    layers = []
    if rule is not None:
        base = alt_.Chart().transform_filter(is_mark("baseline"))
        layers.append(base.mark_rule(strokeDash=[4, 4], strokeWidth=1).encode(y, **hue))
    layers += [
        lines.mark_line(strokeWidth=2).encode(x, y, order=row_order(alt_), **hue, **lines_apart),
        lines.mark_circle(size=40, opacity=0).encode(x, y, tooltip=tips, **hue),
    ]
    if labels.rows is not None:
        layers += label_layer(alt_, x, y, hue.get("color"), size - 2 * PAD)
    chart = alt_.layer(*layers, data=data).properties(width=size, height=size)
    return panels.apply(alt_, named_nulls(chart, color, pr))


def probit(p: np.ndarray) -> np.ndarray:
    """
    Normal quantile function, vectorized (Acklam's rational approximation, |error| < 1.2e-9).

    Rates 0 and 1 map to -inf and +inf.
    """
    a = (-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269,
         -30.66479806614716, 2.506628277459239)  # fmt: skip
    b = (-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972,
         -13.28068155288572)  # fmt: skip
    c = (-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734,
         4.374664141464968, 2.938163982698783)  # fmt: skip
    d = (0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416)
    p = np.asarray(p, dtype=float)
    out = np.full(p.shape, np.nan)
    low, high = p < 0.02425, p > 1 - 0.02425
    mid = ~low & ~high & np.isfinite(p)
    q = p[mid] - 0.5
    r = q * q
    num = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
    den = ((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1
    out[mid] = num / den
    with np.errstate(divide="ignore", invalid="ignore"):
        for tail, sign in ((low, 1.0), (high, -1.0)):
            x = p[tail] if sign > 0 else 1 - p[tail]
            q = np.sqrt(-2 * np.log(x))
            num = ((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]
            den = (((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1
            out[tail] = sign * num / den
    out[p <= 0] = -np.inf
    out[p >= 1] = np.inf
    return out


def det_chart(
    det: pl.DataFrame,
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
    DET curves: false negative rate against false positive rate on normal-deviate axes.

    Both axes are probit-scaled (a binormal model draws a straight line), labelled in
    percent from 0.1% to 99.9%, and the chance line is ``fnr = 1 - fpr``. Points where
    either rate is exactly 0 or 1 lie at infinity on these axes and are not drawn. Long
    curves are thinned in the drawn (probit) coordinates.

    Parameters
    ----------
    det
        The frame ``df.roc.det_curve(...)`` returns: ``*by, threshold, fpr, fnr`` (a
        thresholds table works too).
    color, facet, row, column, columns, size, max_points
        As in :func:`polars_roc.charts.roc_chart`.

    Returns
    -------
    alt.LayerChart or alt.FacetChart
        Untitled; faceted when a panel role is given.

    Examples
    --------
    >>> import polars as pl
    >>> from polars_roc.charts import det_chart
    >>> det = pl.DataFrame(
    ...     {"threshold": [0.9, 0.5, 0.2], "fpr": [0.01, 0.1, 0.5], "fnr": [0.6, 0.2, 0.02]}
    ... )
    >>> spec = det_chart(det).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['line', 'line', 'circle']
    """
    alt_ = altair()
    hint = "pass the frame df.roc.det_curve(...) returns (columns *by, threshold, fpr, fnr)"
    require(det, ["fpr", "fnr"], "the DET curve", hint)
    by = groups(det, (*DET_CURVE, *THRESHOLDS))
    panels = Panels(facet, row, column, columns)
    check_roles(by, "det_curve", color=color, facet=facet, row=row, column=column)
    ordered = drawing_order(det, by, ["fpr", "fnr"], [False, True])
    deviates = ordered.with_columns(
        _x=pl.Series(probit(ordered["fpr"].cast(pl.Float64).to_numpy())),
        _y=pl.Series(probit(ordered["fnr"].cast(pl.Float64).to_numpy())),
    ).filter(pl.col("_x").is_finite() & pl.col("_y").is_finite())
    limit = 2 * DET_LIMIT
    chance = per_panel(
        pl.DataFrame({"_x": [-DET_LIMIT, DET_LIMIT], "_y": [DET_LIMIT, -DET_LIMIT]}),
        det,
        panels.names,
    )
    n_lines = deviates.select(by).n_unique() if by else 1
    most, least = budget(n_lines, chance.height, max_points, "det_chart")
    drawn = thin(
        deviates, "_x", "_y", by=by, max_points=most, span=(limit, limit), min_points=least
    )
    data = combine(chance=chance, curve=numbered(drawn))
    ticks = [float(v) for v in probit(np.asarray(DET_TICKS))]
    axis = alt_.Axis(values=ticks, labelExpr="format(cumulativeNormal(datum.value), '.3~%')")
    scale = alt_.Scale(domain=[-DET_LIMIT, DET_LIMIT], nice=False)
    x = quantitative(alt_, "X", "_x", title="False positive rate", scale=scale, axis=axis)
    y = quantitative(alt_, "Y", "_y", title="False negative rate", scale=scale, axis=axis)
    hue = color_channel(alt_, color, None, det)
    lines_apart = apart(alt_, by, color, panels)
    lines = alt_.Chart().transform_filter(is_mark("curve"))
    tips = tooltips(alt_, drawn, by, ["threshold", "fpr", "fnr"])
    layers = [
        chance_line(alt_, x, y),
        lines.mark_line(strokeWidth=2, clip=True).encode(
            x, y, order=row_order(alt_), **hue, **lines_apart
        ),
        lines.mark_circle(size=40, opacity=0, clip=True).encode(x, y, tooltip=tips, **hue),
    ]
    chart = alt_.layer(*layers, data=data).properties(width=size, height=size)
    return panels.apply(alt_, named_nulls(chart, color, det))
