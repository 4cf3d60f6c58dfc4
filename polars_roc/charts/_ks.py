"""KS chart: the two classes' cumulative score distributions, with the KS gap marked."""

from __future__ import annotations

from typing import TYPE_CHECKING

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
    # The label goes on the side of the rule with more room (the panels share the x scale).
    lo, hi = finite["threshold"].min(), finite["threshold"].max()
    middle = (lo + hi) / 2 if lo is not None and hi is not None else 0.0  # type: ignore[operator]
    marked = best.select(
        *by,
        pl.col("threshold").clip(pl.lit(lo), pl.lit(hi)),
        "tpr",
        "fpr",
        _text=pl.Series(texts, dtype=pl.String),
    ).with_columns(_right=pl.col("threshold") > middle, _middle=(pl.col("tpr") + pl.col("fpr")) / 2)
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
    sides = set(marked["_right"].to_list())  # (a layer with no rows makes Vega warn)
    for align, dx, test in (("left", 5, "!datum._right"), ("right", -5, "datum._right")):
        if (align == "right") not in sides:
            continue
        side = marks.transform_filter(test).mark_text(
            align=align, dx=dx, fontSize=11, lineBreak="\n", baseline="middle"
        )
        layers.append(
            side.encode(
                x,
                quantitative(alt_, "Y", "_middle").scale(domain=[0, 1]),
                text=alt_.Text(field="_text", type="nominal"),
                **apart,
            )
        )
    chart = alt_.layer(*layers, data=data).properties(width=size, height=size)
    return panels.apply(alt_, chart)
