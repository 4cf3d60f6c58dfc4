"""ROC geometry charts: the convex hull, its classifier vertices and iso-performance lines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import polars as pl

from polars_roc._core.aliases import renamed
from polars_roc._core.columns import CURVE, HULL
from polars_roc.charts._altair import (
    Panels,
    altair,
    apart,
    chance_line,
    check_roles,
    color_channel,
    combine,
    detail,
    groups,
    is_mark,
    label_layer,
    named_nulls,
    numbered,
    place_labels,
    require,
    row_order,
    tooltips,
)
from polars_roc.charts._axes import unit_axes
from polars_roc.charts._layout import PAD, Plot
from polars_roc.charts._roc import chance_rows, thinned_curve

if TYPE_CHECKING:
    import altair as alt


def iso_lines(hull: pl.DataFrame, by: list[str], slopes: Sequence[float]) -> pl.DataFrame:
    """
    ``*by, fpr, tpr, _slope, _text``: the iso-performance lines touching each hull.

    Two rows per group and slope: the ends of the line, clipped to the unit square.

    The line of slope ``m`` touches the vertex maximizing ``tpr - m * fpr`` (the smaller FPR
    on ties, as :func:`polars_roc.geometry.iso.optimal` reports).
    """
    pieces = []
    defined = hull.filter(pl.col("fpr").is_not_null() & pl.col("tpr").is_not_null())
    for m in slopes:
        value = pl.col("tpr") - m * pl.col("fpr")
        top = value.max()
        chosen = defined.filter(value == (top.over(by) if by else top))
        chosen = chosen.sort([*by, "fpr"])
        chosen = chosen.group_by(by, maintain_order=True).first() if by else chosen.head(1)
        f, t = pl.col("fpr"), pl.col("tpr")
        start = pl.max_horizontal(pl.lit(0.0), f - t / m)
        stop = pl.min_horizontal(pl.lit(1.0), f + (1 - t) / m)
        ends = chosen.select(*by, _f=f, _t=t, _start=start, _stop=stop)
        for end in ("_start", "_stop"):
            pieces.append(
                ends.select(
                    *by,
                    fpr=pl.col(end),
                    tpr=pl.col("_t") + m * (pl.col(end) - pl.col("_f")),
                    _slope=pl.lit(float(m)),
                    _text=pl.lit(f"slope {m:g}" if end == "_start" else None, dtype=pl.String),
                )
            )
    if not pieces:
        return pl.DataFrame()
    return pl.concat(pieces, how="vertical_relaxed")


@renamed(across="model")
def hull_chart(
    hull: pl.DataFrame,
    *,
    model: str | None = None,
    curves: pl.DataFrame | None = None,
    slopes: Sequence[float] = (0.5, 1.0, 2.0),
    color: str | None = None,
    facet: str | None = None,
    row: str | None = None,
    column: str | None = None,
    columns: int | None = None,
    size: int = 300,
    max_points: int = 2000,
) -> alt.LayerChart | alt.FacetChart:
    """
    The ROC convex hull with its classifier points and iso-performance lines.

    Draws each group's hull as a line through its vertices, each vertex as a point (a
    classifier: a threshold of a model, or a hard-label classifier; coloured by the model
    that owns it when `model` is given), and for each slope ``m`` in `slopes` the
    iso-performance line touching the hull: all classifiers on it have equal expected cost
    when ``m = cost_fp · N / (cost_fn · P)``, and its touching vertex is the optimal one
    (see :mod:`polars_roc.geometry.iso`). Give the models' `curves` to draw them underneath.

    Parameters
    ----------
    hull
        The frame ``df.roc.hull(...)`` (or ``hull_of_points``) returns: ``*by, [model],
        fpr, tpr, threshold``.
    model
        The classifier column of a hull taken across classifiers (the `model` argument
        of ``df.roc.hull``): it colours the vertices and the curves; it is not a group.
    curves
        Optional ROC curves drawn faintly underneath, e.g. ``df.roc.curve(by=[*by,
        across])``.
    slopes
        Slopes of the iso-performance lines; empty for none.
    color
        Group column colouring the hulls when `model` is not given.
    facet, row, column, columns, size, max_points
        As in :func:`polars_roc.charts.roc_chart`.

    Returns
    -------
    alt.LayerChart or alt.FacetChart
        Untitled; faceted when a panel role is given.

    Examples
    --------
    >>> import polars as pl
    >>> from polars_roc.charts import hull_chart
    >>> hull = pl.DataFrame(
    ...     {
    ...         "model": [None, "c3", "c2", None],
    ...         "fpr": [0.0, 0.2, 0.5, 1.0],
    ...         "tpr": [0.0, 0.6, 0.8, 1.0],
    ...     }
    ... )
    >>> spec = hull_chart(hull, model="model", slopes=[1.0]).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['line', 'line', 'line', 'point', 'text', 'text']
    """
    alt_ = altair()
    hint = "pass the frame df.roc.hull(...) returns (columns *by, [model], fpr, tpr, threshold)"
    require(hull, ["fpr", "tpr"], "the hull", hint)
    if model is not None:
        require(hull, [model], "the hull", "pass model= the classifier column of the hull")
    by = [name for name in groups(hull, HULL) if name != model]
    panels = Panels(facet, row, column, columns)
    check_roles(by, "hull", color=None if model else color, facet=facet, row=row, column=column)
    ordered = hull.sort([*by, "fpr", "tpr"], nulls_last=True)
    underneath = None
    if curves is not None:
        require(curves, ["fpr", "tpr"], "the curves", "pass df.roc.curve(by=[..., model])")
        curve_by = groups(curves, CURVE)
        n_panels = hull.select(by).n_unique() if by else 1  # (no columns: Polars 1.x raises)
        extra = hull.height * 3 + 2 + 2 * len(slopes) * max(1, n_panels)
        underneath = thinned_curve(
            curves.sort([*curve_by, "fpr", "tpr"]),
            curve_by,
            max_points,
            extra=extra,
            what="hull_chart",
        )
    iso_rows = iso_lines(ordered, by, list(slopes))
    starts = (
        iso_rows.filter(pl.col("_text").is_not_null()).select(*by, "fpr", "tpr", "_text")
        if iso_rows.height
        else None
    )
    labels = place_labels(
        None,
        by=by,
        color=None,
        panels=panels.names,
        plot=Plot(size, size),
        fields=("fpr", "tpr"),
        points=starts,
    )
    data = combine(
        chance=chance_rows(hull, panels),
        curve=None if underneath is None else numbered(underneath),
        iso=iso_rows.drop("_text") if iso_rows.height else None,
        hull=numbered(ordered),
        label=labels.rows,
    )
    x, y = unit_axes(alt_)
    owner = model if model is not None else color
    source = hull
    if owner is not None and curves is not None and owner in curves.columns:
        source = pl.concat([hull.select(owner), curves.select(owner)], how="vertical_relaxed")
    hue = color_channel(alt_, owner, None, source)
    hull_hue = {} if model is not None else hue
    lines_apart = apart(alt_, by, color, panels)
    vertices = alt_.Chart().transform_filter(is_mark("hull"))
    iso = alt_.Chart().transform_filter(is_mark("iso"))
    iso_detail = detail(alt_, [*by, "_slope"])
    tips = tooltips(alt_, ordered, [*by, *([model] if model else [])], ["threshold", "fpr", "tpr"])
    layers = [
        chance_line(alt_, x, y),
    ]
    if underneath is not None:
        curve_by = groups(underneath, CURVE)
        lines = alt_.Chart().transform_filter(is_mark("curve"))
        layers.append(
            lines.mark_line(strokeWidth=1, opacity=0.45).encode(
                x,
                y,
                order=row_order(alt_),
                **(hue if owner in curve_by else {}),
                **detail(alt_, [n for n in curve_by if n != owner and n not in panels.names]),
            )
        )
    layers += [
        iso.mark_line(color="#888", strokeWidth=1, strokeDash=[6, 3]).encode(x, y, **iso_detail),
        vertices.mark_line(
            color="black" if not hull_hue else alt_.Undefined, strokeWidth=2.5, point=False
        ).encode(x, y, order=row_order(alt_), **hull_hue, **lines_apart),
        vertices.mark_point(filled=True, size=70, opacity=1).encode(x, y, tooltip=tips, **hue),
    ]
    if labels.rows is not None:
        layers += label_layer(alt_, x, y, alt_.value("#555"), size - 2 * PAD)
    chart = alt_.layer(*layers, data=data).properties(width=size, height=size)
    return panels.apply(alt_, named_nulls(chart, owner, source))
