"""Calibration (reliability) charts: observed against predicted, with the bins' sizes beneath."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import polars as pl

from polars_roc._core.columns import CALIBRATION, CALIBRATION_INTERVAL
from polars_roc.charts._altair import (
    altair,
    check_roles,
    color_scale,
    combine,
    default_color,
    detail,
    field,
    groups,
    is_mark,
    named_nulls,
    nominal,
    quantitative,
    require,
    threshold_tip,
)
from polars_roc.charts.style import color_domain

if TYPE_CHECKING:
    import altair as alt

#: Columns of the frame `calibration` returns, other than the groups.
HINT = "pass the frame df.roc.calibration(...) returns"


def calibration_chart(
    calibration: pl.DataFrame,
    *,
    color: str | None = None,
    facet: str | None = None,
    columns: int | None = None,
    histogram: bool = True,
    size: int = 300,
    histogram_height: int = 80,
) -> alt.LayerChart | alt.VConcatChart | alt.ConcatChart:
    """
    Reliability diagram: the fraction of positives against the mean score, bin by bin.

    A well-calibrated score lies on the dashed diagonal: among rows scored about p, a share
    p is positive. Points above the diagonal mean the score under-predicts, below it
    over-predicts. Beneath, a bar per bin shows how many rows (or how much weight) it
    holds, at its mean score (a line per group when several share the panel): sparse bins
    are noisy.

    Parameters
    ----------
    calibration
        The frame ``df.roc.calibration(...)`` returns: ``*by, bin, mean_score,
        fraction_positive, n``; with ``fraction_lower, fraction_upper`` (``ci=``) each
        bin gets an error bar over its interval.
    color
        Group column told apart by colour, each group in its colour of every chart (the
        colour scale's domain is the sorted group values); other group columns get one line
        each. Default: the first group column `facet` does not take.
    facet
        Group column giving one panel (a diagram over its bar chart) per value, in sorted
        order, titled with the value; every panel shares the colour scale.
    columns
        Panels per row with `facet`.
    histogram
        Draw the bins' sizes beneath.
    size
        Width and height of the reliability diagram, in pixels.
    histogram_height
        Height of the bar chart beneath, in pixels.

    Returns
    -------
    alt.LayerChart, alt.VConcatChart or alt.ConcatChart
        Untitled: the diagram, over the bar chart when `histogram` is set; with `facet`, the
        panels wrapped into rows of `columns`.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.1, 0.2, 0.6, 0.9], "label": [0, 1, 1, 1]})
    >>> spec = pr.charts.calibration_chart(df.roc.calibration(bins=2)).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["vconcat"][0]["layer"]]
    ['line', 'line']
    >>> spec["vconcat"][1]["mark"]["type"]
    'bar'
    >>> two = pl.concat([df.with_columns(g=pl.lit("a")), df.with_columns(g=pl.lit("b"))])
    >>> spec = pr.charts.calibration_chart(two.roc.calibration(by="g", bins=2), facet="g")
    >>> [panel["title"]["text"] for panel in spec.to_dict()["concat"]]
    ['g = a', 'g = b']
    """
    alt_ = altair()
    require(calibration, ["mean_score", "fraction_positive", "n"], "the calibration frame", HINT)
    by = groups(calibration, (*CALIBRATION, *CALIBRATION_INTERVAL))
    check_roles(by, "calibration", color=color, facet=facet)
    color = default_color(by, color, facet)
    scale = alt_.Undefined if color is None else color_scale(alt_, calibration, color)
    if facet is None:
        return _panel(alt_, calibration, by, color, scale, histogram, size, histogram_height)
    panels = []
    for value in color_domain(calibration, column=facet):
        rows = calibration.filter(pl.col(facet).eq_missing(value))
        panel = _panel(alt_, rows, by, color, scale, histogram, size, histogram_height)
        title = alt_.TitleParams(f"{facet} = {value}", fontSize=11, fontWeight="normal")
        panels.append(panel.properties(title=title))
    wrap = alt_.Undefined if columns is None else columns
    return cast("alt.ConcatChart", alt_.concat(*panels, columns=wrap))


def _panel(
    alt_: Any,
    calibration: pl.DataFrame,
    by: list[str],
    color: str | None,
    scale: Any,
    histogram: bool,
    size: int,
    histogram_height: int,
) -> alt.LayerChart | alt.VConcatChart:
    """One reliability diagram over its bin sizes."""
    bins = calibration.filter(pl.col("mean_score").is_not_null()).sort(
        [*by, "mean_score"], nulls_last=True, maintain_order=True
    )
    diagonal = pl.DataFrame({"mean_score": [0.0, 1.0], "fraction_positive": [0.0, 1.0]})
    data = combine(diagonal=diagonal, bins=bins)
    unit = alt_.Scale(domain=[0, 1])
    x = quantitative(alt_, "X", "mean_score", title="Mean predicted probability", scale=unit)
    y = quantitative(alt_, "Y", "fraction_positive", title="Fraction of positives", scale=unit)
    hue = {} if color is None else {"color": nominal(alt_, "Color", color, scale=scale)}
    apart = detail(alt_, [name for name in by if name != color])
    order = alt_.Order(field="mean_score", type="quantitative")
    tips = [alt_.Tooltip(field=field(name), type="nominal") for name in by]
    tips += [
        alt_.Tooltip(field="bin", type="quantitative"),
        threshold_tip(alt_, "mean_score", "mean score"),
        alt_.Tooltip(field="fraction_positive", type="quantitative", format=".4f"),
        alt_.Tooltip(field="n", type="quantitative", format=",.4~g"),
    ]
    bars = "fraction_lower" in bins.columns and "fraction_upper" in bins.columns
    if bars:
        tips += [
            alt_.Tooltip(field="fraction_lower", type="quantitative", format=".4f"),
            alt_.Tooltip(field="fraction_upper", type="quantitative", format=".4f"),
        ]
    reference = alt_.Chart().transform_filter(is_mark("diagonal"))
    curve = alt_.Chart().transform_filter(is_mark("bins"))
    layers = [
        reference.mark_line(color="gray", strokeDash=[4, 4], strokeWidth=1).encode(x, y),
        curve.mark_line(point=True, strokeWidth=2).encode(
            x, y, order, tooltip=tips, **hue, **apart
        ),
    ]
    if bars:  # the bins' intervals as error bars, under the curve's points
        low = quantitative(alt_, "Y", "fraction_lower", scale=unit)
        high = alt_.Y2(field="fraction_upper")
        rule = curve.mark_rule(strokeWidth=1.5, opacity=0.6)
        layers.insert(1, rule.encode(x, low, high, tooltip=tips, **hue, **apart))
    diagram = alt_.layer(*layers, data=data).properties(width=size, height=size)
    diagram = named_nulls(diagram, color, calibration)
    if not histogram:
        return cast("alt.LayerChart", diagram)
    counts = alt_.Chart(data).transform_filter(is_mark("bins"))
    # One group: bars. Several: a line with points per group (bars would hide each other).
    several = bins.select(by).n_unique() > 1 if by else False
    counts = (
        (
            counts.mark_line(point=True, strokeWidth=1.5)
            if several
            else counts.mark_bar(size=max(2, size // 40), opacity=0.7)
        )
        .encode(
            quantitative(alt_, "X", "mean_score", title="Mean predicted probability", scale=unit),
            quantitative(alt_, "Y", "n", title="Rows in bin"),
            tooltip=tips,
            **hue,
            **(apart if several else {}),
        )
        .properties(width=size, height=histogram_height)
    )
    counts = named_nulls(counts, color, calibration)
    return cast("alt.VConcatChart", alt_.vconcat(diagram, counts))
