"""Threshold charts: chosen measures against the threshold, with the best threshold marked."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import polars as pl

from polars_roc.charts._altair import (
    THRESHOLD_COLUMNS,
    THRESHOLD_FORMAT,
    Panels,
    altair,
    check_roles,
    combine,
    detail,
    field,
    is_mark,
    nominal,
    quantitative,
    require,
)
from polars_roc.charts._thin import drawing_order, thin

if TYPE_CHECKING:
    import altair as alt

THRESHOLDS_HINT = "pass the frame df.roc.thresholds(...) returns"


def best_rows(frame: pl.DataFrame, by: list[str], measure: str) -> pl.DataFrame:
    """Each group's row maximizing `measure` (the highest threshold on ties; nulls ignored)."""
    top = pl.col(measure).max()
    chosen = frame.filter(pl.col(measure) == (top.over(by) if by else top))
    chosen = chosen.sort([*by, "threshold"], descending=[False] * len(by) + [True])
    return chosen.group_by(by, maintain_order=True).first() if by else chosen.head(1)


def threshold_chart(
    thresholds: pl.DataFrame,
    *,
    measures: Sequence[str] = ("tpr", "fpr", "ppv", "f1", "youden"),
    best: str | pl.DataFrame | None = "youden",
    dash: str | None = None,
    facet: str | None = None,
    row: str | None = None,
    column: str | None = None,
    columns: int | None = None,
    width: int = 400,
    height: int = 250,
    max_points: int = 2000,
) -> alt.LayerChart | alt.FacetChart:
    """
    Chosen measures against the threshold, one line each, with the best threshold marked.

    Colour tells the measures apart; the frame's groups go to panels (`facet`, `row`,
    `column`) or to the line dash (`dash`). The ``+inf`` threshold row is left out (it has
    no place on the axis). The best threshold of each group gets a vertical rule labelled
    with the threshold and the value of the measure it maximizes. Long tables are thinned
    per line for drawing (see :mod:`polars_roc.charts._thin`), never the marked row.

    Parameters
    ----------
    thresholds
        The frame ``df.roc.thresholds(...)`` returns: ``*by, threshold, tp, fp, tn, fn, tpr,
        fpr, tnr, ..., lr_neg``; any column that is not a measure is a group column.
    measures
        Columns to draw.
    best
        The measure whose maximum marks the best threshold (the highest threshold on ties),
        a frame of chosen rows (e.g. ``df.roc.best_threshold(by=...)``: ``*by, threshold``),
        or None.
    dash
        Group column told apart by the line dash.
    facet, row, column, columns
        Group columns splitting the chart into panels.
    width, height
        Size of each panel, in pixels.
    max_points
        Drawing budget for all lines together.

    Returns
    -------
    alt.LayerChart or alt.FacetChart
        Untitled; faceted when a panel role is given.

    Examples
    --------
    >>> import polars as pl
    >>> from polars_roc.charts import threshold_chart
    >>> table = pl.DataFrame(
    ...     {
    ...         "threshold": [float("inf"), 0.8, 0.4, 0.1],
    ...         "tpr": [0.0, 0.5, 1.0, 1.0],
    ...         "fpr": [0.0, 0.0, 0.5, 1.0],
    ...         "youden": [0.0, 0.5, 0.5, 0.0],
    ...     }
    ... )
    >>> spec = threshold_chart(table, measures=["tpr", "fpr", "youden"]).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['line', 'rule', 'text']
    >>> rows = spec["datasets"][spec["data"]["name"]]
    >>> [row["threshold"] for row in rows if row["_mark"] == "best"]
    [0.8]
    """
    alt_ = altair()
    measures = [measures] if isinstance(measures, str) else list(measures)
    if not measures:
        msg = 'measures is empty\n\nHint: measures=["tpr", "fpr", "f1"].'
        raise ValueError(msg)
    require(thresholds, ["threshold", *measures], "the thresholds frame", THRESHOLDS_HINT)
    by = [name for name in thresholds.columns if name not in THRESHOLD_COLUMNS]
    panels = Panels(facet, row, column, columns)
    check_roles(by, "thresholds", dash=dash, facet=facet, row=row, column=column)
    finite = thresholds.filter(pl.col("threshold").is_finite())
    ordered = drawing_order(finite, by, ["threshold"], [True])
    long = ordered.unpivot(measures, index=[*by, "threshold"], variable_name="measure")
    long = long.with_columns(pl.col("value").cast(pl.Float64))
    t = long["threshold"]
    values = long["value"].drop_nulls().drop_nans()
    span_t = float(t.max() - t.min()) if long.height else 1.0  # type: ignore[operator, arg-type]
    span_v = float(values.max() - values.min()) if values.len() else 1.0  # type: ignore[operator, arg-type]
    drawn = thin(
        long,
        "threshold",
        "value",
        by=[*by, "measure"],
        max_points=max_points,
        span=(span_t, span_v),
    )
    marked = None
    if isinstance(best, str):
        require(thresholds, [best], "the thresholds frame", f"add {best!r} to the frame")
        chosen = best_rows(finite.filter(pl.col(best).is_not_null()), by, best)
        texts = [
            f"{best} {value:.3g} at t={cut:.4g}"
            for value, cut in zip(
                chosen[best].to_list(), chosen["threshold"].to_list(), strict=True
            )
        ]
        marked = chosen.select(*by, "threshold", _text=pl.Series(texts, dtype=pl.String))
    elif isinstance(best, pl.DataFrame):
        require(best, ["threshold", *by], "the best frame", "pass df.roc.best_threshold(by=...)")
        best = best.filter(pl.col("threshold").is_not_null())  # undefined: nothing to mark
        texts = [f"t={cut:.4g}" for cut in best["threshold"].cast(pl.Float64).to_list()]
        marked = best.select(*by, "threshold", _text=pl.Series(texts, dtype=pl.String))
    data = combine(line=drawn, best=marked)
    x = quantitative(alt_, "X", "threshold", title="Threshold (predict positive if score ≥ t)")
    y = quantitative(alt_, "Y", "value", title="Value")
    hue = nominal(alt_, "Color", "measure", title="measure", sort=measures)
    strokes = {} if dash is None else {"strokeDash": nominal(alt_, "StrokeDash", dash)}
    grouped = [name for name in by if name != dash and name not in panels.names]
    tips = [
        *(alt_.Tooltip(field=field(name), type="nominal") for name in [*by, "measure"]),
        alt_.Tooltip(field="threshold", type="quantitative", format=THRESHOLD_FORMAT),
        alt_.Tooltip(field="value", type="quantitative", format=".4f"),
    ]
    lines = alt_.Chart().transform_filter(is_mark("line"))
    layers = [
        lines.mark_line(strokeWidth=2, point=False).encode(
            x, y, color=hue, tooltip=tips, **strokes, **detail(alt_, grouped)
        )
    ]
    if marked is not None:
        cut = alt_.Chart().transform_filter(is_mark("best"))
        layers.append(cut.mark_rule(color="black", strokeDash=[3, 3]).encode(x))
        top = alt_.value(0)
        text = alt_.Text(field="_text", type="nominal")
        label = cut.mark_text(align="left", baseline="top", dx=4, dy=4, fontSize=11)
        layers.append(label.encode(x, y=top, text=text, **detail(alt_, grouped)))
    chart = alt_.layer(*layers, data=data).properties(width=width, height=height)
    return panels.apply(alt_, chart)
