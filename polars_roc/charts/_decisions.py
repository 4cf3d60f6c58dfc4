"""Value and decision-curve charts: what a threshold is worth, and net benefit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import polars as pl

from polars_roc._core.columns import DECISION_CURVE, VALUE_CURVE
from polars_roc.charts._altair import (
    Panels,
    altair,
    check_roles,
    color_scale,
    combine,
    detail,
    field,
    groups,
    is_mark,
    named_nulls,
    nominal,
    per_panel,
    quantitative,
    require,
    threshold_tip,
)
from polars_roc.charts.style import threshold_text

if TYPE_CHECKING:
    import altair as alt

__all__ = ["decision_curve_chart", "value_chart"]


def _thinned(frame: pl.DataFrame, by: list[str], max_points: int) -> pl.DataFrame:
    """At most about `max_points` rows in all, evenly spread over each group, ends kept."""
    if frame.height <= max_points:
        return frame
    step = max(1, frame.height // max_points)
    position = pl.int_range(pl.len())
    keep = (position % step == 0) | (position == pl.len() - 1)
    return frame.filter(keep.over(by) if by else keep)


def _best(values: pl.DataFrame, by: list[str], y: str, capacity: float | None) -> pl.DataFrame:
    """Each group's best row (the first, i.e. highest threshold, on ties) within capacity."""
    flagged = pl.col("tp").cast(pl.Float64) + pl.col("fp").cast(pl.Float64)
    if capacity is None:
        fits = pl.lit(True)
    elif capacity <= 1 and not (isinstance(capacity, int) and capacity == 1):
        fits = pl.col("depth") <= capacity
    else:
        fits = flagged <= capacity
    rows = values.filter(fits & pl.col(y).is_not_null())
    top = pl.col(y) == pl.col(y).max()
    if not by:
        return rows.filter(top).head(1)
    return rows.filter(top.over(by)).unique(by, keep="first", maintain_order=True)


def _labels(best: pl.DataFrame, by: list[str], x: str) -> list[str]:
    """``"<group>: best <value> at <depth or threshold>"`` per group."""
    texts = []
    for record in best.iter_rows(named=True):
        key = ", ".join(str(record[name]) for name in by)
        cut = threshold_text(record["threshold"])
        where = f"depth {record['depth']:.3f}" if x == "depth" else f"t = {cut}"
        y = record["_y"]
        number = f"{y:,.0f}" if abs(y) >= 1000 else f"{y:.4g}"
        texts.append(f"{key + ': ' if key else ''}best {number} at {where}")
    return texts


def value_chart(
    values: pl.DataFrame,
    *,
    x: Literal["depth", "threshold"] = "depth",
    per_case: bool = False,
    capacity: float | None = None,
    color: str | None = None,
    facet: str | None = None,
    row: str | None = None,
    column: str | None = None,
    columns: int | None = None,
    size: int = 300,
    max_points: int = 4000,
) -> alt.LayerChart | alt.FacetChart:
    """
    Value against depth (or threshold), with the optimum and the capacity marked.

    Each group's line is its value of flagging the rows at or above each threshold; a
    point marks its best threshold (within `capacity` when given; the highest threshold on
    ties, as ``best_threshold(method="value")``), labelled with its value. A capacity given
    as a share of the rows is drawn as a dashed vertical line at that depth.

    Parameters
    ----------
    values
        The frame ``df.roc.value_curve(...)`` returns (``*by, threshold, depth, tp, fp,
        value, value_per_case``).
    x
        ``"depth"`` (share of rows flagged) or ``"threshold"``.
    per_case
        Draw ``value_per_case`` instead of the total value.
    capacity
        A share of rows in (0, 1] or a row count: the optimum is searched within it.
    color, facet, row, column, columns
        Group columns told apart by colour, or splitting the chart into panels.
    size
        Width and height of each panel, in pixels.
    max_points
        Drawing budget for the lines (longer curves are thinned evenly).

    Returns
    -------
    alt.LayerChart or alt.FacetChart
        Untitled; faceted when a panel role is given.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {"score": [0.9, 0.8, 0.7, 0.2], "label": [1, 0, 1, 0], "amount": [9.0, 5.0, 3.0, 1.0]}
    ... )
    >>> values = df.roc.value_curve(gain_tp="amount", cost_fp=2.0)
    >>> spec = pr.charts.value_chart(values, capacity=0.5).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['rule', 'rule', 'line', 'point', 'point', 'text', 'text']
    """
    alt_ = altair()
    hint = "pass the frame df.roc.value_curve(...) returns"
    require(values, ["depth", "value", "tp", "fp", "threshold"], "the value frame", hint)
    if x not in ("depth", "threshold"):
        msg = f"x must be 'depth' or 'threshold', got {x!r}\n\nHint: x='depth'."
        raise ValueError(msg)
    by = groups(values, VALUE_CURVE)
    panels = Panels(facet, row, column, columns)
    check_roles(by, "value", color=color, facet=facet, row=row, column=column)
    y_name = "value_per_case" if per_case else "value"
    line = values.filter(pl.col(x).is_finite() & pl.col(y_name).is_not_null())
    line = _thinned(line.select(*by, "threshold", "depth", _y=y_name), by, max_points)
    best = _best(values, by, y_name, capacity).select(*by, "threshold", "depth", _y=y_name)
    best = best.filter(pl.col(x).is_finite())
    told = [n for n in by if n not in panels.names]  # a panel's title names the rest
    best = best.with_columns(_text=pl.Series(_labels(best, told, x), dtype=pl.String))
    px = 4.0 + 14.0 * pl.int_range(pl.len())  # text rows in pixels, counted per panel
    best = best.with_columns(_px=px.over(panels.names) if panels.names else px)
    overall = None
    if capacity is not None:  # the unconstrained optimum too, hollow
        overall = _best(values, by, y_name, None).select(*by, "threshold", "depth", _y=y_name)
        overall = overall.filter(pl.col(x).is_finite())
    fraction = capacity is not None and 0 < capacity <= 1 and not isinstance(capacity, int)
    rule = pl.DataFrame({"depth": [float(capacity or 0)]}) if fraction and x == "depth" else None
    rule = None if rule is None else per_panel(rule, values, panels.names)
    zero = per_panel(pl.DataFrame({"_y": [0.0]}), values, panels.names)
    data = combine(zero=zero, capacity=rule, model=line, overall=overall, best=best)
    title = "Depth (share of rows flagged)" if x == "depth" else "Threshold"
    x_enc = quantitative(alt_, "X", x, title=title)
    if x == "depth":
        x_enc = x_enc.scale(domain=[0, 1])
    y_enc = quantitative(alt_, "Y", "_y", title="Value per case" if per_case else "Value")
    scale = {} if color is None else {"scale": color_scale(alt_, values, color)}
    hue = {} if color is None else {"color": nominal(alt_, "Color", color, **scale)}
    apart = detail(alt_, [n for n in by if n != color and n not in panels.names])
    tips = [alt_.Tooltip(field=field(n), type="nominal") for n in by]
    tips += [
        threshold_tip(alt_, "threshold"),
        alt_.Tooltip(field="depth", type="quantitative", format=".4~g"),
        alt_.Tooltip(field="_y", type="quantitative", format=",.4~g", title=y_name),
    ]
    order = alt_.Order(field=x, type="quantitative")
    layers = [
        alt_.Chart()
        .transform_filter(is_mark("zero"))
        .mark_rule(color="gray", strokeWidth=1)
        .encode(y=y_enc),
        alt_.Chart()
        .transform_filter(is_mark("capacity"))
        .mark_rule(color="gray", strokeDash=[4, 4])
        .encode(x=x_enc),
        alt_.Chart()
        .transform_filter(is_mark("model"))
        .mark_line(strokeWidth=2)
        .encode(x_enc, y_enc, order, tooltip=tips, **hue, **apart),
        alt_.Chart()
        .transform_filter(is_mark("overall"))
        .mark_point(filled=False, size=70, strokeWidth=1.5)
        .encode(x_enc, y_enc, tooltip=tips, **hue, **apart),
        alt_.Chart()
        .transform_filter(is_mark("best"))
        .mark_point(filled=True, size=70)
        .encode(x_enc, y_enc, tooltip=tips, **hue, **apart),
        # One line of text per group in the panel's top right corner, on a white halo.
        *(
            alt_.Chart()
            .transform_filter(is_mark("best"))
            .mark_text(align="right", baseline="top", fontSize=11, **style)
            .encode(
                x=alt_.value(size - 4),
                y=alt_.Y(field="_px", type="quantitative", scale=None),
                text=alt_.Text(field="_text", type="nominal"),
                **({} if style else hue),
            )
            for style in ({"stroke": "white", "strokeWidth": 4, "opacity": 0.9}, {})
        ),
    ]
    chart = alt_.layer(*layers, data=data).properties(width=size, height=size)
    return panels.apply(alt_, named_nulls(chart, color, values))


def _y_range(curve: pl.DataFrame, y_min: float | None) -> list[float]:
    """From a little below zero to a little above the best net benefit or treat-all."""
    names = [c for c in ("net_benefit", "treat_all", "net_benefit_upper") if c in curve.columns]
    tops = curve.select(pl.max_horizontal(pl.col(names).max()).fill_null(0.0)).item()
    top = max(float(tops), 0.01)
    hi = top * 1.05
    lo = -0.25 * hi if y_min is None else y_min
    return [lo, hi]


def decision_curve_chart(
    curve: pl.DataFrame,
    *,
    color: str | None = None,
    facet: str | None = None,
    row: str | None = None,
    column: str | None = None,
    columns: int | None = None,
    y_min: float | None = None,
    size: int = 300,
) -> alt.LayerChart | alt.FacetChart:
    """
    Net benefit against the threshold probability, with treat-all and treat-none.

    Each group's net benefit is a line (with its bootstrap band when the frame has
    ``net_benefit_lower, net_benefit_upper``); treat-all is a dashed grey line per group
    (models scored on the same rows share it) and treat-none the zero line. Treat-all falls
    steeply at high thresholds, so the y axis is clipped: from a quarter of the top below
    zero (or `y_min`) to a little above the best net benefit.

    Parameters
    ----------
    curve
        The frame ``df.roc.decision_curve(...)`` returns.
    color, facet, row, column, columns
        Group columns told apart by colour, or splitting the chart into panels.
    y_min
        The bottom of the y axis (default: ``-0.25`` times its top).
    size
        Width and height of each panel, in pixels.

    Returns
    -------
    alt.LayerChart or alt.FacetChart
        Untitled; faceted when a panel role is given.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"p": [0.1, 0.3, 0.35, 0.6, 0.8, 0.9], "y": [0, 0, 1, 0, 1, 1]})
    >>> spec = pr.charts.decision_curve_chart(df.roc.decision_curve("p", "y")).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['rule', 'line', 'line']
    """
    alt_ = altair()
    hint = "pass the frame df.roc.decision_curve(...) returns"
    require(curve, ["threshold", "net_benefit", "treat_all"], "the decision-curve frame", hint)
    by = groups(curve, [*DECISION_CURVE, "net_benefit_lower", "net_benefit_upper"])
    panels = Panels(facet, row, column, columns)
    check_roles(by, "decision-curve", color=color, facet=facet, row=row, column=column)
    lo, hi = _y_range(curve, y_min)
    banded = "net_benefit_lower" in curve.columns
    keep = [*by, "threshold", "net_benefit", "treat_all"]
    keep += ["net_benefit_lower", "net_benefit_upper"] if banded else []
    model = curve.select(keep)
    zero = per_panel(pl.DataFrame({"net_benefit": [0.0]}), curve, panels.names)
    data = combine(zero=zero, model=model)
    x = quantitative(alt_, "X", "threshold", title="Threshold probability")
    x = x.scale(domain=[0, curve.select(pl.col("threshold").max().fill_null(1.0)).item()])
    y_scale = alt_.Scale(domain=[lo, hi], clamp=False)
    y = quantitative(alt_, "Y", "net_benefit", title="Net benefit").scale(y_scale)
    scale = {} if color is None else {"scale": color_scale(alt_, curve, color)}
    hue = {} if color is None else {"color": nominal(alt_, "Color", color, **scale)}
    apart = detail(alt_, [n for n in by if n != color and n not in panels.names])
    every = detail(alt_, [n for n in by if n not in panels.names])
    tips = [alt_.Tooltip(field=field(n), type="nominal") for n in by]
    tips += [threshold_tip(alt_, "threshold")]
    tips += [
        alt_.Tooltip(field=c, type="quantitative", format=".4f")
        for c in ("net_benefit", "treat_all")
    ]
    models = alt_.Chart().transform_filter(is_mark("model"))
    layers = [
        alt_.Chart()
        .transform_filter(is_mark("zero"))
        .mark_rule(color="gray", strokeWidth=1)
        .encode(y=y),
    ]
    if banded:
        band_y = quantitative(alt_, "Y", "net_benefit_lower").scale(y_scale)
        band_y2 = alt_.Y2(field="net_benefit_upper")
        layers.append(
            models.mark_area(opacity=0.2, clip=True).encode(x, band_y, band_y2, **hue, **apart)
        )
    all_y = quantitative(alt_, "Y", "treat_all", title="Net benefit").scale(y_scale)
    layers.append(
        models.mark_line(color="gray", strokeDash=[4, 4], strokeWidth=1, clip=True).encode(
            x, all_y, **every
        )
    )
    layers.append(
        models.mark_line(strokeWidth=2, clip=True).encode(x, y, tooltip=tips, **hue, **apart)
    )
    chart = alt_.layer(*layers, data=data).properties(width=size, height=size)
    return panels.apply(alt_, named_nulls(chart, color, curve))
