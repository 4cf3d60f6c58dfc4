"""ROC curve charts: curves with AUC labels and operating points, and the partial-AUC region."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

import polars as pl

from polars_roc._core import validate
from polars_roc._core.columns import CURVE, THRESHOLDS
from polars_roc._core.kernels import segment_area
from polars_roc._core.objectives import curve_optimum
from polars_roc.areas import partial_auc_of_curve
from polars_roc.charts._altair import (
    Labels,
    Panels,
    altair,
    apart,
    chance_line,
    check_roles,
    color_channel,
    combine,
    datum,
    default_color,
    detail,
    fmt,
    groups,
    is_mark,
    label_layer,
    named_nulls,
    numbered,
    per_panel,
    place_labels,
    require,
    row_order,
    tooltips,
)
from polars_roc.charts._axes import FprAxis, fpr_axis
from polars_roc.charts._direction import runs_lower
from polars_roc.charts._layout import PAD
from polars_roc.charts._thin import budget, drawing_order, thin
from polars_roc.charts.style import threshold_text
from polars_roc.multiclass import AVERAGED
from polars_roc.typing import FprScale

if TYPE_CHECKING:
    import altair as alt

CURVE_HINT = (
    "pass the frame df.roc.curve(...) returns (columns *by, threshold, tp, fp, tn, fn, tpr, fpr)"
)
#: Where the lines of text go on a log FPR axis: the top left, which the curves leave free.
LOG_LINES: dict[str, Any] = {"align": "left", "top": True}
#: Style of the range bounds of a partial AUC.
BOUND = {"color": "black", "strokeDash": [2, 3], "strokeWidth": 1}


def ordered_curve(curve: pl.DataFrame, by: Sequence[str]) -> pl.DataFrame:
    """The curve's rows in drawing order per group (as `.roc.curve` returns them)."""
    return drawing_order(curve, by, ["fpr", "tpr"], [False, False])


def thinned_curve(
    curve: pl.DataFrame,
    by: Sequence[str],
    max_points: int,
    *,
    extra: int = 0,
    share: int = 1,
    what: str = "roc_chart",
    zoom: tuple[float, float] | None = None,
    axis: FprAxis | None = None,
) -> pl.DataFrame:
    """
    Rows to draw: see :mod:`polars_roc.charts._thin` for the error bound.

    `extra` rows of other layers and the repeat factor `share` keep the whole chart under
    Altair's row limit however many groups there are (see :func:`_thin.budget`). On a log
    FPR `axis` distances along x are measured in decades.
    """
    exact = ("fp", "tp") if {"fp", "tp"} <= set(curve.columns) else None
    n_lines = curve.select(by).n_unique() if by else 1
    most, least = budget(n_lines, extra, max_points, what, share)
    if axis is not None and axis.log:
        frame, x, width = axis.thinning(curve)
        kept = thin(frame, x, "tpr", by=by, max_points=most, min_points=least, span=(width, 1.0))
        return kept.drop(x)
    span = (zoom[1] - zoom[0], 1.0) if zoom is not None else (1.0, 1.0)
    return thin(
        curve, "fpr", "tpr", by=by, max_points=most, exact=exact, min_points=least, span=span
    )


def defined(*names: str) -> pl.Expr:
    """A group's area is defined only when none of its rates is null."""
    return pl.all_horizontal(pl.col(name).is_not_null().all() for name in names)


def matched(curve: pl.DataFrame, table: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """The rows of a per-group `table` for the curve's groups, in the curve's group order."""
    if not by:
        if table.height != 1:
            msg = (
                f"the curve has no groups but the table has {table.height} rows"
                "\n\nHint: compute both with the same `by`."
            )
            raise ValueError(msg)
        return table
    keys = curve.select(by).unique(maintain_order=True)
    return keys.join(table, on=by, how="left", nulls_equal=True)


def auc_summary(curve: pl.DataFrame, by: list[str], auc: pl.DataFrame | bool) -> pl.DataFrame:
    """``*by, _value, _text``: each group's AUC, best first, from the curve or an auc frame."""
    if isinstance(auc, pl.DataFrame):
        require(auc, ["auc", *by], "the auc frame", "pass df.roc.auc(by=<the curve's by>)")
        table = matched(curve, auc.select(*by, _value="auc"), by)
    else:
        area = segment_area("fpr", "tpr", 0.0, 1.0, by)
        value = pl.when(defined("fpr", "tpr")).then(pl.col("_area").sum()).alias("_value")
        parts = curve.lazy().with_columns(_area=area)
        grouped = parts.group_by(by, maintain_order=True) if by else None
        table = (grouped.agg(value) if grouped is not None else parts.select(value)).collect()
    ranked = table.sort("_value", descending=True, nulls_last=True, maintain_order=True)
    texts = [f"AUC {fmt(value)}" for value in ranked["_value"].to_list()]
    return ranked.with_columns(_text=pl.Series(texts, dtype=pl.String))


def operating_points(
    curve: pl.DataFrame, by: list[str], points: pl.DataFrame | Literal["youden"]
) -> pl.DataFrame:
    """``*by, fpr, tpr, threshold, ..., _text``: the marked points and their threshold labels."""
    if isinstance(points, str):
        if points != "youden":
            msg = f'points={points!r} is not a frame or "youden"\n\nHint: points="youden".'
            raise ValueError(msg)
        # The optimum best_threshold and ks give (exact in the counts, ties to the top).
        best = curve_optimum(curve.lazy(), by, lowest=runs_lower(curve)).collect()
        order = curve.select(by).unique(maintain_order=True)
        chosen = order.join(best, on=by, how="left", nulls_equal=True) if by else best
    else:
        require(points, ["fpr", "tpr", "threshold", *by], "the points frame", CURVE_HINT)
        keep = [name for name in THRESHOLDS if name in points.columns]
        chosen = points.select(*by, *keep)
    # A group without a defined optimum (one class only) has no point to mark.
    chosen = chosen.filter(pl.col("threshold").is_not_null())
    texts = [f"t={threshold_text(v)}" for v in chosen["threshold"].cast(pl.Float64).to_list()]
    return chosen.with_columns(_text=pl.Series(texts, dtype=pl.String))


def curve_layers(
    alt: Any,
    curve: pl.DataFrame,
    *,
    by: list[str],
    color: str | None,
    panels: Panels,
    labels: Labels | None,
    source: pl.DataFrame,
    axis: FprAxis,
    size: int = 300,
) -> list[Any]:
    """Chance diagonal, one line per group, and invisible hover points carrying tooltips."""
    x, y = axis.channels(alt)
    hue = color_channel(alt, color, labels, source)
    lines_apart = apart(alt, by, color, panels)
    lines = alt.Chart().transform_filter(is_mark("curve"))
    tips = tooltips(alt, curve, by, ["threshold", "tp", "fp", "tn", "fn", "tpr", "fpr"])
    clip = axis.clip
    dash = averaged_dash(alt, curve, color)
    layers = [
        chance_line(alt, x, y).mark_line(color="gray", strokeDash=[4, 4], strokeWidth=1, **clip),
        lines.mark_line(strokeWidth=2, **clip).encode(
            x, y, order=row_order(alt), **hue, **lines_apart, **dash
        ),
        lines.mark_circle(size=40, opacity=0, **clip).encode(x, y, tooltip=tips, **hue),
    ]
    if labels is not None and labels.rows is not None:
        layers += label_layer(alt, x, y, hue.get("color"), size - 2 * PAD)
    return layers


BAND_HINT = (
    "pass df.roc.tpr_at_fpr(fpr=grid, by=<the curve's by>, ci='bootstrap') "
    "(columns *by, fpr, tpr_lower, tpr_upper)"
)


def band_rows(band: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """The band's defined rows, ``*by, fpr, tpr_lower, tpr_upper``, FPR ascending per group."""
    require(band, ["fpr", "tpr_lower", "tpr_upper", *by], "the band frame", BAND_HINT)
    rows = band.select(*by, "fpr", "tpr_lower", "tpr_upper")
    rows = rows.filter(pl.col("tpr_lower").is_not_null() & pl.col("tpr_upper").is_not_null())
    return rows.sort([*by, "fpr"], nulls_last=True, maintain_order=True)


def band_layer(
    alt: Any,
    *,
    by: list[str],
    color: str | None,
    panels: Panels,
    hue: Any,
    axis: FprAxis,
) -> Any:
    """A shaded area between ``tpr_lower`` and ``tpr_upper`` per group, in its colour."""
    x, y = axis.channels(alt, y="tpr_lower")
    y2 = alt.Y2(field="tpr_upper")
    clip = axis.clip
    area = alt.Chart().transform_filter(is_mark("band")).mark_area(fillOpacity=0.2, **clip)
    return area.encode(x, y, y2=y2, **hue, **apart(alt, by, color, panels))


def averaged_dash(alt: Any, curve: pl.DataFrame, color: str | None) -> dict[str, Any]:
    """
    Dash the averaged curves of a multiclass curve frame (colour values "micro", "macro").

    Only when the coloured column holds one of them (``df.roc.multiclass_curve`` with
    ``color="class"``); every other chart is drawn as before.
    """
    if color is None or color not in curve.columns:
        return {}
    values = curve.get_column(color)
    if values.dtype != pl.String or not values.is_in(list(AVERAGED)).any():
        return {}
    test = f"indexof({list(AVERAGED)!r}, {datum(color)}) >= 0".replace("'", '"')
    return {"strokeDash": alt.condition(test, alt.value([6, 4]), alt.value([1, 0]))}


def chance_rows(curve: pl.DataFrame, panels: Panels, axis: FprAxis | None = None) -> pl.DataFrame:
    """The chance diagonal, once per panel (as the FPR `axis` draws it)."""
    return (axis or FprAxis()).chance(curve, panels.names)


def roc_chart(
    curve: pl.DataFrame,
    *,
    color: str | None = None,
    facet: str | None = None,
    row: str | None = None,
    column: str | None = None,
    columns: int | None = None,
    auc: pl.DataFrame | bool = True,
    points: pl.DataFrame | Literal["youden"] | None = None,
    zoom: tuple[float, float] | None = None,
    size: int = 300,
    max_points: int = 2000,
    band: pl.DataFrame | None = None,
    fpr_scale: FprScale = "linear",
) -> alt.LayerChart | alt.FacetChart:
    """
    ROC curves: one line per group over the chance diagonal, AUC in the labels.

    The plot is square on [0, 1]² (equal aspect). Each group of the curve frame (its `by`
    columns) is one line, coloured by `color`, split into panels by `facet` (wrapped into
    `columns`) or a `row` / `column` grid. Hovering a curve shows threshold, tp, fp, tn, fn
    and the rates. The AUC of each group goes in the colour legend ("logit (AUC 0.873)") when
    colour alone tells the groups apart, and otherwise as lines of text inside each panel
    (none in a panel whose lines do not all fit). Each group keeps its colour in every chart
    of the same groups (the colour scale's domain is the sorted group values), while the
    legend lists the best AUC first. An operating-point label (4 significant digits,
    scientific below 1e-3) sits beside its point where it overlaps nothing, else is left
    out (the point keeps its tooltip); no two texts ever overlap.

    Curves longer than `max_points` (all groups together) are thinned for drawing, with the
    error bound of :mod:`polars_roc.charts._thin`; AUC labels and tooltips use exact rows.
    However many groups there are, the chart stays under Altair's 5,000-row limit (each
    curve keeps 4 points at least while they fit, else 3 or 2); past about 2,400 groups it
    is a ValueError saying what to do.

    Parameters
    ----------
    curve
        The frame ``df.roc.curve(...)`` returns: ``*by, threshold, tp, fp, tn, fn, tpr,
        fpr`` (only ``fpr`` and ``tpr`` are required). Any column that is not one of these is
        a group column.
    color
        Group column coloured (and named in the legend). Default: the first group column
        that no panel role (`facet`, `row`, `column`) takes, so groups never share a colour
        unannounced; the other group columns draw lines of their own.
    facet, row, column
        Group columns that split the chart into panels (`facet` wraps; `row` / `column` grid).
    columns
        Panels per row with `facet`.
    auc
        True: each group's AUC by the trapezoid rule over the curve's points (the same area
        ``df.roc.auc`` gives for the same data). A frame from ``df.roc.auc(by=...)``: its
        `auc` column. False: no AUC labels.
    points
        Operating points to mark, labelled with their thresholds: ``"youden"`` (each group's
        point maximizing ``tpr - fpr``, the first along the curve on ties: the highest
        threshold, the lowest for a ``direction="lower"`` curve) or a frame with
        ``*by, fpr, tpr, threshold`` (e.g. from ``df.roc.best_threshold(by=...)``).
    zoom
        Show only this FPR range ``(lo, hi)``, e.g. ``(0, 0.2)`` for strong models whose
        curves hug the top-left corner; None for all of [0, 1].
    size
        Width and height of each panel, in pixels.
    max_points
        Drawing budget for the curve rows of the whole chart.
    band
        A confidence band to shade under each curve, in its colour: the frame
        ``df.roc.tpr_at_fpr(fpr=grid, by=<the curve's by>, ci="bootstrap")`` returns (its
        ``fpr, tpr_lower, tpr_upper`` columns; a grid such as ``[i / 50 for i in
        range(51)]`` draws a smooth band; on a log FPR axis add small FPRs such as 1e-3).
    fpr_scale
        ``"log"`` draws the FPR axis on a log scale, to read the curve at small FPRs (fraud,
        screening). A log scale cannot show FPR = 0: the axis starts at a floor, the `zoom`
        range's lower bound when above 0, else the power of ten at or below the smallest
        non-zero FPR of the curves (at least 1e-6), and points with FPR = 0 are drawn on the
        floor at the left edge (tooltips keep the exact values). The ticks are the powers
        of ten; the chance diagonal is drawn as the curve it becomes.

    Returns
    -------
    alt.LayerChart or alt.FacetChart
        A faceted chart when a panel role is given; untitled; compose with ``+ | &``.

    Examples
    --------
    >>> import polars_roc as pr
    >>> from polars_roc.charts import roc_chart
    >>> df = pr.datasets.simulate(2000, seed=1)
    >>> chart = roc_chart(df.roc.curve(by="model"), color="model", points="youden")
    >>> spec = chart.to_dict()  # validates against the Vega-Lite schema
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['line', 'line', 'circle', 'point', 'text', 'text']
    >>> spec["layer"][1]["encoding"]["color"]["legend"]["labelExpr"]  # doctest: +ELLIPSIS
    '{"logit": "logit (AUC 0.8...)", "gbm": "gbm (AUC 0.7...)", ...}[datum.value] || datum.label'
    >>> grid = [i / 20 for i in range(21)]
    >>> band = df.roc.tpr_at_fpr(fpr=grid, by="model", ci="bootstrap", n_boot=200, seed=1)
    >>> spec = roc_chart(df.roc.curve(by="model"), color="model", band=band).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['line', 'area', 'line', 'circle']
    """
    alt_ = altair()
    require(curve, ["fpr", "tpr"], "the curve", CURVE_HINT)
    by = groups(curve, CURVE)
    panels = Panels(facet, row, column, columns)
    check_roles(by, "curve", color=color, facet=facet, row=row, column=column)
    color = default_color(by, color, facet, row, column)
    axis = fpr_axis(zoom, fpr_scale, (curve,))
    zoom = axis.zoom
    ordered = ordered_curve(curve, by)
    marked = None if points is None else operating_points(ordered, by, points)
    summary = None if auc is False else auc_summary(ordered, by, auc)
    labels = place_labels(
        summary,
        by=by,
        color=color,
        panels=panels.names,
        plot=axis.plot(size),
        fields=("fpr", "tpr"),
        points=None if marked is None else marked.select(*by, "fpr", "tpr", "_text"),
        **LOG_LINES if axis.log else {},
    )
    chance = chance_rows(curve, panels, axis)
    shaded = None if band is None else band_rows(band, by)
    extra = chance.height + (0 if marked is None else marked.height)
    extra += (0 if labels.rows is None else labels.rows.height) + (
        0 if shaded is None else shaded.height
    )
    drawn = thinned_curve(ordered, by, max_points, extra=extra, zoom=zoom, axis=axis)
    data = combine(
        chance=chance, curve=numbered(drawn), point=marked, label=labels.rows, band=shaded
    )
    data = axis.placed(data)
    layers = curve_layers(
        alt_, data, by=by, color=color, panels=panels, labels=labels, source=curve, axis=axis,
        size=size,
    )  # fmt: skip
    if band is not None:
        hue = color_channel(alt_, color, labels, curve)
        layers.insert(1, band_layer(alt_, by=by, color=color, panels=panels, hue=hue, axis=axis))
    if marked is not None:
        x, y = axis.channels(alt_)
        hue = color_channel(alt_, color, labels, curve)
        chosen = alt_.Chart().transform_filter(is_mark("point"))
        tips = tooltips(alt_, marked, by, [c for c in THRESHOLDS if c in marked.columns])
        point = chosen.mark_point(filled=True, size=80, opacity=1, stroke="white", strokeWidth=1)
        layers.insert(3 if band is None else 4, point.encode(x, y, tooltip=tips, **hue))
    chart = alt_.layer(*layers, data=data).properties(width=size, height=size)
    return panels.apply(alt_, named_nulls(chart, color, curve))


def pauc_summary(
    curve: pl.DataFrame,
    by: list[str],
    along: str,
    bounds: tuple[float, float],
    pauc: pl.DataFrame | bool,
) -> pl.DataFrame:
    """``*by, _value, _text``: each group's partial AUC and its McClish standardization."""
    lo, hi = bounds
    if isinstance(pauc, pl.DataFrame):
        hint = "pass df.roc.partial_auc(by=<the curve's by>, ...) over the same range"
        require(pauc, ["pauc", "pauc_std", *by], "the pauc frame", hint)
        table = matched(curve, pauc.select(*by, _value="pauc", _std="pauc_std"), by)
    else:
        range_ = {along: (lo, hi)}
        table = (
            partial_auc_of_curve(curve.lazy(), by=by, **range_)
            .select(*by, _value="pauc", _std="pauc_std")
            .collect()
        )
    ranked = table.sort("_value", descending=True, nulls_last=True, maintain_order=True)
    pairs = list(zip(ranked["_value"].to_list(), ranked["_std"].to_list(), strict=True))
    texts = [f"pAUC {fmt(value, 4)}, standardized {fmt(std)}" for value, std in pairs]
    short = [f"pAUC {fmt(value, 4)}, std. {fmt(std)}" for value, std in pairs]
    return ranked.with_columns(
        _text=pl.Series(texts, dtype=pl.String), _short=pl.Series(short, dtype=pl.String)
    )


def clip_curve(
    curve: pl.DataFrame, by: list[str], along: str, other: str, lo: float, hi: float
) -> pl.DataFrame:
    """The part of each group's curve with `along` in [lo, hi], interpolated at the bounds."""

    def before(name: str) -> pl.Expr:
        shifted = pl.col(name).shift(1)
        return shifted.over(by) if by else shifted

    inside = curve.filter(pl.col(along).is_between(lo, hi)).select(*by, along, other)
    steps = curve.with_columns(_a=before(along), _o=before(other))
    pieces = [inside]
    for bound in (lo, hi):
        crossing = (pl.col("_a") < bound) & (pl.col(along) > bound)
        slope = (pl.col(other) - pl.col("_o")) / (pl.col(along) - pl.col("_a"))
        at = pl.col("_o") + slope * (bound - pl.col("_a"))
        pieces.append(
            steps.filter(crossing).select(*by, pl.lit(bound).alias(along), at.alias(other))
        )
    joined = pl.concat(pieces, how="vertical_relaxed")
    return joined.sort([*by, along, other], maintain_order=True)


def partial_auc_chart(
    curve: pl.DataFrame,
    *,
    fpr: tuple[float, float] | None = None,
    tpr: tuple[float, float] | None = None,
    color: str | None = None,
    facet: str | None = None,
    row: str | None = None,
    column: str | None = None,
    columns: int | None = None,
    pauc: pl.DataFrame | bool = True,
    zoom: tuple[float, float] | None = None,
    size: int = 300,
    max_points: int = 2000,
    fpr_scale: FprScale = "linear",
) -> alt.LayerChart | alt.FacetChart:
    """
    ROC curves with the partial area over an FPR or a TPR range shaded, its bounds marked.

    With ``fpr=(lo, hi)`` the shaded region lies under the curve between the two FPR bounds;
    with ``tpr=(lo, hi)`` it lies between the curve and the right edge (FPR = 1) between the
    two TPR bounds: the area pROC integrates for focus "sensitivity". Each group's label gives
    the raw pAUC and McClish's standardized pAUC, with the definitions of
    :func:`polars_roc.areas.partial_auc`; inside a panel the lines of text sit beside the
    shaded range, never over it. With one curve per panel its region takes its colour; when
    several curves share a panel their regions are grey (overlapping colours would blend
    into a colour no legend shows), darker where more curves cover the range.

    Parameters
    ----------
    curve
        The frame ``df.roc.curve(...)`` returns (see :func:`roc_chart`).
    fpr, tpr
        The range ``(lo, hi)``; give exactly one.
    color, facet, row, column, columns, zoom, size, max_points, fpr_scale
        As in :func:`roc_chart` (on a log FPR axis an FPR range from 0 is shaded from the
        axis' floor).
    pauc
        True: computed from the curve's points. A frame from ``df.roc.partial_auc(by=...,
        fpr=...)`` over the same range: its ``pauc, pauc_std`` columns. False: no labels.

    Returns
    -------
    alt.LayerChart or alt.FacetChart
        Untitled; faceted when a panel role is given.

    Examples
    --------
    >>> import polars_roc as pr
    >>> from polars_roc.charts import partial_auc_chart
    >>> df = pr.datasets.simulate(2000, seed=1)
    >>> chart = partial_auc_chart(df.roc.curve(by="model"), fpr=(0.0, 0.2), color="model")
    >>> spec = chart.to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['line', 'area', 'rule', 'line', 'circle']
    >>> "standardized" in spec["layer"][3]["encoding"]["color"]["legend"]["labelExpr"]
    True
    """
    alt_ = altair()
    if (fpr is None) == (tpr is None):
        msg = "give exactly one range: fpr=(lo, hi) or tpr=(lo, hi)\n\nHint: fpr=(0.0, 0.2)."
        raise ValueError(msg)
    along, other = ("fpr", "tpr") if fpr is not None else ("tpr", "fpr")
    lo, hi = validate.unit_range(fpr if fpr is not None else tpr, along)
    require(curve, ["fpr", "tpr"], "the curve", CURVE_HINT)
    by = groups(curve, CURVE)
    panels = Panels(facet, row, column, columns)
    check_roles(by, "curve", color=color, facet=facet, row=row, column=column)
    color = default_color(by, color, facet, row, column)
    axis = fpr_axis(zoom, fpr_scale, (curve,))
    zoom = axis.zoom
    ordered = ordered_curve(curve, by)
    plot = axis.plot(size)
    summary = None if pauc is False else pauc_summary(ordered, by, along, (lo, hi), pauc)
    align, span = "right", None
    if axis.log:  # a log axis leaves the top left free (curves are low at small FPRs)
        align = "left"
    elif along == "fpr":  # the lines of text go beside the shaded range, on its wider side
        left, right = plot.to_pixels(lo, 0)[0], plot.to_pixels(hi, 0)[0]
        if max(left, 0) > size - min(right, size):
            align, span = "left", (0.0, max(left, 0.0))
        else:
            align, span = "right", (min(right, float(size)), float(size))
    labels = place_labels(
        summary,
        by=by,
        color=color,
        panels=panels.names,
        plot=plot,
        fields=("fpr", "tpr"),
        align=align,
        span=span,
        top=axis.log,
    )
    chance = chance_rows(curve, panels, axis)
    bounds = per_panel(pl.DataFrame({along: [lo, hi]}), curve, panels.names)
    n_lines = curve.select(by).n_unique() if by else 1
    extra = chance.height + bounds.height + 2 * n_lines
    extra += 0 if labels.rows is None else labels.rows.height
    drawn = thinned_curve(
        ordered, by, max_points, extra=extra, share=2, what="partial_auc_chart", zoom=zoom,
        axis=axis,
    )  # fmt: skip
    data = combine(
        chance=chance,
        curve=numbered(drawn),
        region=clip_curve(drawn, by, along, other, lo, hi),
        bound=bounds,
        label=labels.rows,
    )
    data = axis.placed(data)
    layers = curve_layers(
        alt_, data, by=by, color=color, panels=panels, labels=labels, source=curve, axis=axis,
        size=size,
    )  # fmt: skip
    x, y = axis.channels(alt_)
    lines_apart = apart(alt_, by, color, panels)
    n_panels = curve.select(panels.names).n_unique() if panels.names else 1
    # One curve per panel: its region in its colour. Several: grey regions (coloured ones
    # would blend into colours no legend shows), darker where more curves cover the range.
    shared = n_lines > n_panels
    hue = {} if shared else color_channel(alt_, color, labels, curve)
    fill = {"color": "#888", "opacity": 0.12} if shared else {"opacity": 0.25}
    region_apart = detail_of(alt_, by, color, panels, shared) or lines_apart
    clip = axis.clip
    region = alt_.Chart().transform_filter(is_mark("region"))
    if along == "fpr":
        shade = region.mark_area(**fill, **clip)
        shade = shade.encode(x, y, y2=alt_.datum(0), **hue, **region_apart)
        rule = alt_.Chart().transform_filter(is_mark("bound")).mark_rule(**BOUND, **clip).encode(x)
    else:
        shade = region.mark_area(orient="horizontal", **fill, **clip)
        shade = shade.encode(x, y, x2=alt_.datum(1), **hue, **region_apart)
        rule = alt_.Chart().transform_filter(is_mark("bound")).mark_rule(**BOUND, **clip).encode(y)
    layers[1:1] = [shade, rule]
    chart = alt_.layer(*layers, data=data).properties(width=size, height=size)
    return panels.apply(alt_, named_nulls(chart, color, curve))


def detail_of(
    alt: Any, by: list[str], color: str | None, panels: Panels, shared: bool
) -> dict[str, Any]:
    """With grey regions, the colour column still keeps the regions apart (one per curve)."""
    if not shared or color is None:
        return {}
    names = [name for name in by if name not in panels.names]
    return detail(alt, names)
