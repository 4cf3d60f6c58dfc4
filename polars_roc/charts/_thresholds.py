"""Threshold charts: chosen measures against the threshold, with the best threshold marked."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from polars_roc._core.columns import THRESHOLDS
from polars_roc._core.objectives import COUNTS, curve_optimum
from polars_roc._core.objectives import best_rows as optimal_rows
from polars_roc.charts._altair import (
    Panels,
    altair,
    check_roles,
    combine,
    detail,
    field,
    groups,
    is_mark,
    nominal,
    quantitative,
    require,
    threshold_tip,
)
from polars_roc.charts._direction import predicted, runs_lower
from polars_roc.charts._layout import FONT, LINE, PAD, text_width
from polars_roc.charts._thin import budget, drawing_order, thin
from polars_roc.charts.style import (
    MEASURE_DASHES,
    MEASURE_PALETTE,
    MEASURE_SHADES,
    RATE_FORMAT,
    rate_text,
    threshold_text,
)

if TYPE_CHECKING:
    import altair as alt

THRESHOLDS_HINT = "pass the frame df.roc.thresholds(...) returns"


def pixel_rows(
    frame: pl.DataFrame, by: list[str], measures: Sequence[str], columns: int
) -> pl.DataFrame:
    """
    The rows a line chart of `measures` against the threshold needs at `columns` pixels.

    The threshold axis is cut into `columns` equal steps per group; in each step only its
    first and last rows and, for each measure, the rows of its smallest and largest value
    are kept (the M4 reduction: every kept line has the same extent in every pixel column,
    so the drawing does not change). Frames with few rows per column come back whole.
    """
    n_groups = frame.select(by).n_unique() if by else 1
    if frame.height <= 4 * (len(measures) + 1) * columns * n_groups:
        return frame
    t = pl.col("threshold")
    low, high = (t.min().over(by), t.max().over(by)) if by else (t.min(), t.max())
    step = ((t - low) / (high - low) * columns).floor().fill_nan(0.0).fill_null(0.0)
    indexed = frame.with_row_index("_row").with_columns(_step=step)
    row = pl.col("_row")
    picks = [row.first().alias("_first"), row.last().alias("_last")]
    for i, name in enumerate(measures):
        value = pl.col(name).cast(pl.Float64).fill_nan(None)
        picks += [
            row.get(value.arg_min()).alias(f"_min{i}"),
            row.get(value.arg_max()).alias(f"_max{i}"),
        ]
    kept = indexed.group_by([*by, "_step"]).agg(picks).drop([*by, "_step"])
    rows = pl.concat([kept.get_column(c) for c in kept.columns]).drop_nulls()
    keep = np.zeros(frame.height, dtype=bool)
    keep[rows.to_numpy()] = True
    return frame.filter(pl.Series(keep))


def rule_labels(
    marked: pl.DataFrame,
    ordered: pl.DataFrame,
    by: list[str],
    panels: list[str],
    width: int,
    height: int,
) -> pl.DataFrame:
    """
    Where each best threshold's text goes: a line of its own from the top of its panel.

    The text sits on the wider side of its rule (so it stays inside the plot), shortened to
    the threshold alone when the full text does not fit there, one line per rule of the
    panel (so texts of several groups in one panel never overlap); a text that still does
    not fit, or past the lines that fit in the top half of the panel, is left out (the rule
    stays). Several groups in a panel are named in their texts.
    """
    t = pl.col("threshold")
    line = pl.int_range(pl.len()).over(panels) if panels else pl.int_range(pl.len())
    named = [name for name in by if name not in panels]
    text = pl.col("_text")
    if named and marked.height > max(1, marked.select(panels).n_unique() if panels else 1):
        prefix = pl.concat_str(
            [pl.col(n).cast(pl.String).fill_null("null") for n in named], separator=" · "
        )
        text = pl.concat_str([prefix, pl.lit(": "), text])
    extent = ordered.select(*panels, "threshold") if panels else ordered.select("threshold")
    span = extent.group_by(panels).agg(_lo=t.min(), _hi=t.max()) if panels else None
    out = marked.with_columns(_text=text)
    if span is not None:
        out = out.join(span, on=panels, how="left", nulls_equal=True)
    else:
        lo, hi = extent["threshold"].min(), extent["threshold"].max()
        out = out.with_columns(_lo=pl.lit(lo), _hi=pl.lit(hi))
    where = (t - pl.col("_lo")) / (pl.col("_hi") - pl.col("_lo"))
    out = out.sort([*panels, "threshold"], descending=[False] * len(panels) + [True])
    out = out.with_columns(
        _where=where.fill_nan(0.5).fill_null(0.5).clip(0.0, 1.0),
        _short=pl.concat_str(
            [pl.lit("t="), pl.col("threshold").map_elements(threshold_text, return_dtype=pl.String)]
        ),
        _line=line,
    )
    texts, aligns, tops = [], [], []
    for text, short, at, i in out.select("_text", "_short", "_where", "_line").iter_rows():
        right = at > 0.5  # the text goes on the wider side of its rule
        room = (at if right else 1 - at) * width - 2 * PAD - 10  # the axis may be nicer
        if text_width(text) > room:
            text = short
        fits = text_width(text) <= room and (i + 1) * LINE <= height / 2
        texts.append(text)
        aligns.append("right" if right else "left")
        tops.append(PAD + i * LINE if fits else None)
    return out.with_columns(
        _text=pl.Series(texts, dtype=pl.String),
        _align=pl.Series(aligns, dtype=pl.String),
        _py=pl.Series(tops, dtype=pl.Float64),
    ).drop("_lo", "_hi", "_where", "_short", "_line")


def best_rows(
    frame: pl.DataFrame, by: list[str], measure: str, *, lower: bool = False
) -> pl.DataFrame:
    """
    Each group's row maximizing `measure`, nulls ignored (:mod:`polars_roc._core.objectives`).

    ``"youden"`` is ranked exactly in the counts (as ``best_threshold`` and ``ks`` do);
    ties go to the highest threshold (the lowest with `lower`: ``direction="lower"``).
    """
    if measure == "youden" and set(COUNTS) <= set(frame.columns):
        best = curve_optimum(frame.lazy(), by, lowest=lower)
    else:
        value = pl.col(measure).cast(pl.Float64)
        rest = [name for name in frame.columns if name not in by]
        value = pl.when(value.is_not_nan()).then(value)
        best = optimal_rows(frame.lazy(), by, value, columns=rest, lowest=lower)
    return best.collect().filter(pl.col("threshold").is_not_null())


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
    by = groups(thresholds, THRESHOLDS)
    panels = Panels(facet, row, column, columns)
    check_roles(by, "thresholds", dash=dash, facet=facet, row=row, column=column)
    lower = runs_lower(thresholds)
    finite = thresholds.filter(pl.col("threshold").is_finite())
    ordered = drawing_order(finite, by, ["threshold"], [True])
    n_groups = ordered.select(by).n_unique() if by else 1
    n_lines = len(measures) * n_groups
    most, least = budget(n_lines, n_groups, max_points, "threshold_chart")
    few = pixel_rows(ordered, by, measures, columns=4 * width)
    long = few.unpivot(measures, index=[*by, "threshold"], variable_name="measure")
    long = long.with_columns(pl.col("value").cast(pl.Float64))
    spans = ordered.select(
        t=pl.col("threshold").max() - pl.col("threshold").min(),
        v=pl.max_horizontal(pl.col(measures).cast(pl.Float64).fill_nan(None).max())
        - pl.min_horizontal(pl.col(measures).cast(pl.Float64).fill_nan(None).min()),
    ).row(0)
    span_t, span_v = (float(v) if v else 1.0 for v in spans)
    drawn = thin(
        long,
        "threshold",
        "value",
        by=[*by, "measure"],
        max_points=most,
        span=(span_t, span_v),
        min_points=least,
    )
    marked = None
    if isinstance(best, str):
        require(thresholds, [best], "the thresholds frame", f"add {best!r} to the frame")
        chosen = best_rows(finite.filter(pl.col(best).is_not_null()), by, best, lower=lower)
        texts = [
            f"{best} {rate_text(value)} at t={threshold_text(cut)}"
            for value, cut in zip(
                chosen[best].to_list(), chosen["threshold"].to_list(), strict=True
            )
        ]
        marked = chosen.select(*by, "threshold", _text=pl.Series(texts, dtype=pl.String))
    elif isinstance(best, pl.DataFrame):
        require(best, ["threshold", *by], "the best frame", "pass df.roc.best_threshold(by=...)")
        best = best.filter(pl.col("threshold").is_not_null())  # undefined: nothing to mark
        texts = [f"t={threshold_text(cut)}" for cut in best["threshold"].cast(pl.Float64)]
        marked = best.select(*by, "threshold", _text=pl.Series(texts, dtype=pl.String))
    grouped = [name for name in by if name != dash and name not in panels.names]
    if marked is not None:
        marked = rule_labels(marked, ordered, by, panels.names, width, height)
    data = combine(line=drawn, best=marked)
    title = (
        f"Threshold t (positive if score {predicted(lower)} t)" if width >= 300 else "Threshold t"
    )
    axis = alt_.Axis(titleLimit=width, format="~g")
    x = quantitative(alt_, "X", "threshold", title=title, axis=axis)
    y = quantitative(alt_, "Y", "value", title="Value")
    # Measures in their own encoding, never the models' colours: a dash each in near-black
    # shades, or (when the dash tells groups apart) the dark measure palette.
    n = len(measures)
    colors = MEASURE_SHADES if dash is None else MEASURE_PALETTE
    palette = alt_.Scale(domain=list(measures), range=[colors[i % len(colors)] for i in range(n)])
    hue = nominal(alt_, "Color", "measure", title="measure", sort=measures, scale=palette)
    if dash is None:
        dashes = [list(MEASURE_DASHES[i % len(MEASURE_DASHES)]) for i in range(n)]
        shape = alt_.Scale(domain=list(measures), range=dashes)
        strokes = {
            "strokeDash": nominal(
                alt_, "StrokeDash", "measure", title="measure", sort=measures, scale=shape
            )
        }
    else:
        strokes = {"strokeDash": nominal(alt_, "StrokeDash", dash)}
    tips = [
        *(alt_.Tooltip(field=field(name), type="nominal") for name in [*by, "measure"]),
        threshold_tip(alt_, "threshold"),
        alt_.Tooltip(field="value", type="quantitative", format=RATE_FORMAT),
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
        text = alt_.Text(field="_text", type="nominal")
        top = alt_.Y(field="_py", type="quantitative", scale=None)
        shown = marked.filter(pl.col("_py").is_not_null())["_align"].unique().to_list()
        for align, dx in (("left", 4), ("right", -4)):
            if align not in shown:  # an empty layer would give Vega an infinite extent
                continue
            side = cut.transform_filter(f"isValid(datum._py) && datum._align === '{align}'")
            label = side.mark_text(
                align=align, baseline="top", dx=dx, fontSize=FONT, limit=width - 2 * PAD
            )
            layers.append(label.encode(x, top, text=text, **detail(alt_, grouped)))
    chart = alt_.layer(*layers, data=data).properties(width=width, height=height)
    return panels.apply(alt_, chart)
