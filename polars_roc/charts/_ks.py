"""KS chart: the two classes' cumulative score distributions, with the KS gap marked."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import polars as pl

from polars_roc._core.columns import CURVE
from polars_roc._core.objectives import largest_gap
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
from polars_roc.charts.style import CLASS_COLORS, threshold_text

if TYPE_CHECKING:
    import altair as alt

HINT = "pass the frame df.roc.curve(...) returns (columns *by, threshold, ..., tpr, fpr)"


#: The share of the axis a two-line label needs above or below the rule, and beside it.
_ROOM_Y, _ROOM_X = 0.12, 0.2


def _placed(lo: Any, hi: Any, *, lower: bool, on_axis: pl.Series) -> list[pl.Expr]:
    """
    Where each KS label goes so that it crosses neither curve: ``_place``, ``_y``.

    ``_place`` is the label's vertical place and its text alignment, e.g. ``"below-right"``.

    Both curves fall as the threshold rises (rise under `lower`), so beyond each end of
    the rule one corner is empty: below the rule's lower end on the side where the curves
    are higher (left when they fall), above its upper end on the other side. The label
    takes the corner with more room that fits; else (or off the axis) it sits beside the
    middle of the rule, on the side with more room.
    """
    span = (hi - lo) if lo is not None and hi is not None and hi > lo else 1.0
    where = (pl.col("threshold") - (lo if lo is not None else 0.0)) / span
    bottom = pl.min_horizontal("tpr", "fpr")
    top = pl.max_horizontal("tpr", "fpr")
    # the empty corners' sides; a label on the left of the rule is aligned to its right
    below_side, above_side = ("right", "left") if lower else ("left", "right")
    fits = {"left": where >= _ROOM_X, "right": where <= 1 - _ROOM_X}
    align = {"left": "right", "right": "left"}
    below = (bottom >= _ROOM_Y) & fits[below_side]
    above = ((1 - top) >= _ROOM_Y) & fits[above_side]
    prefer_below = bottom >= (1 - top)
    beside = pl.when(where > 0.5).then(pl.lit("middle-right")).otherwise(pl.lit("middle-left"))
    on = pl.lit(on_axis)
    place = (
        pl.when(on & below & (prefer_below | ~above))
        .then(pl.lit(f"below-{align[below_side]}"))
        .when(on & above)
        .then(pl.lit(f"above-{align[above_side]}"))
        .otherwise(beside)
    )
    y = (
        pl.when(place.str.starts_with("below"))
        .then(bottom)
        .when(place.str.starts_with("above"))
        .then(top)
        .otherwise((pl.col("tpr") + pl.col("fpr")) / 2)
    )
    return [place.alias("_place"), y.alias("_y")]


def ks_chart(
    curve: pl.DataFrame,
    *,
    facet: str | None = None,
    row: str | None = None,
    column: str | None = None,
    columns: int | None = None,
    size: int = 300,
    max_points: int = 4000,
) -> alt.LayerChart | alt.FacetChart:
    r"""
    The share of positives and of negatives scoring at or above each threshold, and the KS gap.

    Two step lines over the score: ``tpr`` (positives at or above the threshold) and
    ``fpr`` (negatives). The Kolmogorov-Smirnov statistic is the largest vertical gap
    ``tpr - fpr``; a rule marks it at the threshold :func:`polars_roc.gains.ks` reports
    (gaps ranked exactly from the counts; the highest threshold on ties), labelled with its
    value and threshold beside the middle of the gap, on the side with more room. A KS of
    0 reached only at the start row (no threshold separates the classes the right way) is
    labelled at the end of the axis, with no rule. A curve computed with
    ``direction="lower"`` (read from its start rows at ``-inf``) gives the shares scoring at
    or below each threshold, and the lowest threshold on ties.

    Parameters
    ----------
    curve
        The frame ``df.roc.curve(...)`` returns: ``*by, threshold, ..., tpr, fpr``.
    facet, row, column
        Group columns splitting the chart into panels: `facet` wraps them into rows of
        `columns`; `row` / `column` make a grid (e.g. one row per model, one column per
        segment). Other group columns are drawn apart in the same panel.
    columns
        Panels per row with `facet`.
    size
        Width and height of each panel, in pixels.
    max_points
        Drawing budget for the lines: longer curves are thinned evenly for drawing (the KS
        gap is always found on the full curve).

    Returns
    -------
    alt.LayerChart or alt.FacetChart
        Untitled; faceted when a panel role is given.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.6, 0.5], "label": [1, 1, 0, 1, 0]})
    >>> spec = pr.charts.ks_chart(df.roc.curve()).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['line', 'rule', 'text']
    >>> [row["_text"] for row in spec["datasets"][spec["data"]["name"]] if row["_mark"] == "gap"]
    ['KS 0.667\nat 0.8000']
    """
    alt_ = altair()
    require(curve, ["threshold", "tpr", "fpr"], "the ROC curve", HINT)
    by = groups(curve, CURVE)
    panels = Panels(facet, row, column, columns)
    check_roles(by, "curve", facet=facet, row=row, column=column)
    finite = curve.filter(pl.col("threshold").is_finite())
    long = finite.unpivot(["tpr", "fpr"], index=[*by, "threshold"], variable_name="_class")
    long = long.with_columns(
        _class=pl.col("_class").replace_strict(
            {"tpr": "positives", "fpr": "negatives"}, return_dtype=pl.String
        )
    )
    lower = runs_lower(curve)
    # The threshold gains.ks reports (exact ranking of the gaps). One off the axis (the
    # start row's +inf or -inf: no threshold separates the classes the right way) is
    # labelled at the axis end, with no rule.
    best = largest_gap(curve.lazy(), by, lowest=lower).collect()
    best = best.filter(pl.col("threshold").is_not_null())
    on_axis = best.filter(pl.col("threshold").is_finite()).join(
        finite.select(*by, "threshold", "tpr", "fpr"),
        on=[*by, "threshold"],
        nulls_equal=True,
        maintain_order="left",
    )
    off_axis = best.filter(~pl.col("threshold").is_finite()).with_columns(tpr=0.5, fpr=0.5)
    best = pl.concat([on_axis, off_axis.select(on_axis.columns)])
    texts = [
        f"KS {value:.3f}\nat {threshold_text(cut)}"
        for value, cut in zip(best["ks"].to_list(), best["threshold"].to_list(), strict=True)
    ]
    lo, hi = finite["threshold"].min(), finite["threshold"].max()
    marked = best.select(
        *by,
        pl.col("threshold").clip(pl.lit(lo), pl.lit(hi)),
        "tpr",
        "fpr",
        _text=pl.Series(texts, dtype=pl.String),
    ).with_columns(_placed(lo, hi, lower=lower, on_axis=best["threshold"].is_finite()))
    if long.height > max_points:  # thin evenly for drawing, keeping each line's ends
        step = long.height // max_points + 1
        position = pl.int_range(pl.len())
        keep = (position % step == 0) | (position == pl.len() - 1)
        long = long.filter(keep.over([*by, "_class"]))
    data = combine(line=long, gap=marked)
    x = quantitative(alt_, "X", "threshold", title="Score threshold t")
    y = quantitative(alt_, "Y", "value", title=f"Share of the class scoring {predicted(lower)} t")
    y = y.scale(domain=[0, 1])
    # The classes in their own colours (those of the score chart), never the models'.
    classes = alt_.Scale(domain=["negatives", "positives"], range=list(CLASS_COLORS))
    hue = nominal(alt_, "Color", "_class", title="class", scale=classes)
    apart = detail(alt_, [name for name in by if name not in panels.names])
    tips = [alt_.Tooltip(field=field(name), type="nominal") for name in [*by, "_class"]]
    tips += [
        threshold_tip(alt_, "threshold"),
        alt_.Tooltip(field="value", type="quantitative", format=".4f"),
    ]
    lines = alt_.Chart().transform_filter(is_mark("line"))
    marks = alt_.Chart().transform_filter(is_mark("gap"))
    layers = [
        # Between two thresholds the share is that of the next one up (at or above) or of
        # the one below (at or below).
        lines.mark_line(interpolate="step-after" if lower else "step-before", strokeWidth=2).encode(
            x, y, color=hue, tooltip=tips, **apart
        ),
        marks.mark_rule(color="black", strokeWidth=2).encode(
            x,
            quantitative(alt_, "Y", "fpr").scale(domain=[0, 1]),
            alt_.Y2(field="tpr"),
            **apart,
        ),
    ]
    for place in sorted(set(marked["_place"].to_list())):  # (an empty layer makes Vega warn)
        vertical, horizontal = place.split("-")
        side = marks.transform_filter(alt_.datum._place == place).mark_text(
            align=horizontal,
            dx=5 if horizontal == "left" else -5,
            dy={"below": 4, "above": -4, "middle": 0}[vertical],
            baseline={"below": "top", "above": "bottom", "middle": "middle"}[vertical],
            fontSize=11,
            lineBreak="\n",
        )
        layers.append(
            side.encode(
                x,
                quantitative(alt_, "Y", "_y").scale(domain=[0, 1]),
                text=alt_.Text(field="_text", type="nominal"),
                **apart,
            )
        )
    chart = alt_.layer(*layers, data=data).properties(width=size, height=size)
    return panels.apply(alt_, chart)
