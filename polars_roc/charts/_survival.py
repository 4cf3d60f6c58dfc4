"""Time-dependent AUC chart: AUC(t) against the horizon, one line per group."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import polars as pl

from polars_roc.charts._altair import (
    Panels,
    altair,
    check_roles,
    color_channel,
    default_color,
    detail,
    groups,
    nominal,
    quantitative,
    require,
)

if TYPE_CHECKING:
    import altair as alt

_KNOWN = ("horizon", "auc", "n_cases", "n_controls", "mean_auc", "auc_lower", "auc_upper")
_HINT = "pass the frame df.roc.time_auc(...) returns (columns *by, horizon, auc, ...)"


def time_auc_chart(
    frame: pl.DataFrame,
    *,
    color: str | None = None,
    facet: str | None = None,
    columns: int | None = None,
    size: int = 300,
) -> alt.LayerChart | alt.FacetChart:
    """
    AUC(t) against the horizon: a line with points per group, over the chance line at 0.5.

    A horizon whose AUC is null (no case yet, or no control left) leaves a gap. With
    ``auc_lower, auc_upper`` columns (e.g. joined from a bootstrap) a band is drawn under
    each line. The tooltip gives the horizon, the AUC, the numbers of cases and controls
    and the group's ``mean_auc``.

    Parameters
    ----------
    frame
        The frame ``df.roc.time_auc(...)`` returns: ``*by, horizon, auc, n_cases,
        n_controls, mean_auc``.
    color
        Group column drawn as coloured lines (each group keeps its colour in every chart).
        Default: the first group column `facet` does not take.
    facet
        Group column splitting the chart into panels, `columns` per row.
    columns
        Panels per row with `facet`.
    size
        Width and height of each panel, in pixels.

    Returns
    -------
    alt.LayerChart or alt.FacetChart
        Untitled; faceted when `facet` is given.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {"risk": [0.9, 0.7, 0.4, 0.2, 0.6], "t": [1, 3, 5, 9, 7], "e": [1, 1, 0, 1, 1]}
    ... )
    >>> table = df.roc.time_auc("risk", time="t", event="e", horizons=[2, 4, 6])
    >>> chart = pr.charts.time_auc_chart(table)
    >>> sorted(chart.to_dict()["datasets"])[:1] != []
    True
    """
    alt_ = altair()
    require(frame, ["horizon", "auc"], "time_auc_chart's frame", _HINT)
    by = groups(frame, _KNOWN)
    check_roles(by, "time_auc", color=color, facet=facet)
    color = default_color(by, color, facet)
    data = frame.with_columns(pl.col("horizon").cast(pl.Float64))
    x = quantitative(alt_, "X", "horizon", title="Horizon")
    y = quantitative(alt_, "Y", "auc", title="AUC(t)", scale=alt_.Scale(domain=[0, 1]))
    others = [name for name in by if name not in (color, facet)]
    keep_apart = detail(alt_, others)
    hue = color_channel(alt_, color, None, frame)
    tips = [
        quantitative(alt_, "Tooltip", "horizon", title="horizon"),
        quantitative(alt_, "Tooltip", "auc", title="AUC", format=".3f"),
        *(
            quantitative(alt_, "Tooltip", name, title=name, format=fmt)
            for name, fmt in (("n_cases", ",.0f"), ("n_controls", ",.0f"), ("mean_auc", ".3f"))
            if name in frame.columns
        ),
        *(nominal(alt_, "Tooltip", name) for name in by),
    ]
    base = alt_.Chart()
    layers: list[Any] = []
    if "auc_lower" in frame.columns and "auc_upper" in frame.columns:
        band = base.mark_area(fillOpacity=0.2).encode(  # fill only: the legend stays solid
            x,
            quantitative(alt_, "Y", "auc_lower"),
            alt_.Y2(field="auc_upper"),
            **hue,
            **keep_apart,
        )
        layers.append(band)
    rule = base.mark_rule(color="gray", strokeDash=[4, 4], strokeWidth=1)
    chance = rule.encode(y=alt_.datum(0.5))
    line = base.mark_line(point=True).encode(x, y, tooltip=tips, **hue, **keep_apart)
    chart = alt_.layer(chance, *layers, line, data=data).properties(width=size, height=size)
    return Panels(facet=facet, columns=columns).apply(alt_, chart)
