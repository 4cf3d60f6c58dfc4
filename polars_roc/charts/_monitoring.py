"""Monitoring charts: a metric per time window with its bands and alerts, and score stability."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import polars as pl

from polars_roc.charts._altair import (
    Panels,
    altair,
    apart,
    check_roles,
    color_channel,
    combine,
    detail,
    field,
    finite,
    is_mark,
    named_nulls,
    require,
)
from polars_roc.charts.style import COUNT_FORMAT, RATE_FORMAT
from polars_roc.monitoring import STABILITY_COLUMNS
from polars_roc.monitoring.over_time import OVER_TIME_COLUMNS

if TYPE_CHECKING:
    import altair as alt

__all__ = ["over_time_chart", "stability_chart"]

#: The customary PSI reading: below 0.1 stable, 0.1-0.25 some shift, above a large shift.
PSI_GUIDES = (0.1, 0.25)

#: The colour of alerts and of PSI guide lines.
ALERT_COLOR = "#e45756"


def _time_axis(alt_: Any, frame: pl.DataFrame, name: str, title: str) -> tuple[Any, pl.DataFrame]:
    """The window start as an x channel: temporal for dates (shown in their zone), else numeric."""
    dtype = frame.schema[name]
    if isinstance(dtype, pl.Date | pl.Datetime):
        stamp = "%Y-%m-%dT%H:%M:%S"  # local time, no zone: drawn as shown in the frame
        bounds = [name, "window_end"]
        frame = frame.with_columns(
            (pl.col(b).cast(pl.Datetime("ms")) if isinstance(dtype, pl.Date) else pl.col(b))
            .dt.to_string(stamp)
            .alias(b)
            for b in bounds
        )
        return alt_.X(field=field(name), type="temporal", title=title), frame
    return alt_.X(field=field(name), type="quantitative", title=title), frame


def _window_tips(alt_: Any, by: list[str], names: list[tuple[str, str]]) -> list[Any]:
    tips = [alt_.Tooltip(field=field(name), type="nominal") for name in by]
    tips += [alt_.Tooltip(field="window_start", type="nominal", title="window start")]
    for name, kind in names:
        fmt = COUNT_FORMAT if kind == "count" else RATE_FORMAT
        tips.append(alt_.Tooltip(field=field(name), type="quantitative", format=fmt))
    return tips


def over_time_chart(
    frame: pl.DataFrame,
    *,
    color: str | None = None,
    facet: str | None = None,
    columns: int | None = None,
    width: int = 420,
    height: int = 180,
) -> alt.LayerChart | alt.FacetChart:
    """
    A metric per time window: the line, its interval band, the reference band and alerts.

    Per group, the estimate is drawn as a line with points over the windows' starts, its
    interval (``lower`` to ``upper``) as a shaded band, the reference band (``ref_lower`` to
    ``ref_upper``) as a grey band with ``ref_mean`` dashed, and the windows whose `alert`
    is true as red rings. One panel per `facet` value (e.g. a segment); several metrics are
    told apart by `color` or panels, or drawn one line each.

    Parameters
    ----------
    frame
        The frame ``df.roc.over_time(...)`` returns; any other column is a group column.
    color
        Group column (or ``"metric"``) that colours the lines.
    facet
        Group column (or ``"metric"``) with one panel per value, wrapped in `columns`.
    columns
        Panels per row.
    width, height
        Size of a panel in pixels.

    Returns
    -------
    alt.LayerChart or alt.FacetChart
        Untitled; faceted when `facet` is given.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {"t": [1] * 4 + [2] * 4 + [3] * 4, "score": [0.9, 0.8, 0.3, 0.1] * 3,
    ...      "label": [1, 0, 1, 0] * 3}
    ... )
    >>> frame = df.roc.over_time(time="t", every="1i", ci="delong", reference=(1, 2))
    >>> spec = pr.charts.over_time_chart(frame).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['area', 'line', 'area', 'line', 'point']
    """
    alt_ = altair()
    hint = "pass the frame df.roc.over_time(...) returns"
    require(frame, list(OVER_TIME_COLUMNS), "the over-time", hint)
    by = [*(name for name in frame.columns if name not in OVER_TIME_COLUMNS), "metric"]
    check_roles(by, "over-time", color=color, facet=facet)
    panels = Panels(facet, None, None, columns)
    x, data = _time_axis(alt_, finite(frame), "window_start", "Window start")
    metrics = frame.get_column("metric").unique(maintain_order=True).to_list()
    title = str(metrics[0]) if len(metrics) == 1 else "Estimate"
    y = alt_.Y(field="estimate", type="quantitative", title=title, scale=alt_.Scale(zero=False))
    hue = color_channel(alt_, color, None, frame)
    keep_apart = apart(alt_, by, color, panels)
    separate = detail(alt_, [name for name in by if name not in panels.names])
    base = alt_.Chart()
    shown = ["estimate", "lower", "upper", "n", "n_pos", "ref_lower", "ref_upper"]
    kinds = [(name, "count" if name.startswith("n") else "rate") for name in shown]
    tips = [*_window_tips(alt_, by, kinds), alt_.Tooltip(field="alert", type="nominal")]
    reference = base.mark_area(color="gray", opacity=0.18).encode(
        x,
        alt_.Y(field="ref_lower", type="quantitative", scale=alt_.Scale(zero=False)),
        alt_.Y2(field="ref_upper"),
        **separate,
    )
    mean = base.mark_line(color="gray", strokeDash=[4, 4], strokeWidth=1).encode(
        x, alt_.Y(field="ref_mean", type="quantitative"), **separate
    )
    band = base.mark_area(opacity=0.2).encode(
        x,
        alt_.Y(field="lower", type="quantitative", scale=alt_.Scale(zero=False)),
        alt_.Y2(field="upper"),
        **hue,
        **keep_apart,
    )
    line = base.mark_line(point=True, strokeWidth=2).encode(x, y, tooltip=tips, **hue, **keep_apart)
    alerts = (
        base.transform_filter("datum.alert === true")
        .mark_point(size=140, strokeWidth=2.5, color=ALERT_COLOR, filled=False)
        .encode(x, y, tooltip=tips)
    )
    chart = alt_.layer(reference, mean, band, line, alerts, data=data).properties(
        width=width, height=height
    )
    return panels.apply(alt_, named_nulls(chart, color, frame))


def stability_chart(
    frame: pl.DataFrame,
    *,
    color: str | None = None,
    facet: str | None = None,
    columns: int | None = None,
    width: int = 420,
    height: int = 160,
) -> alt.LayerChart | alt.FacetChart:
    """
    PSI per time window, with the customary 0.1 and 0.25 guide lines.

    Bars of each window's population stability index against the reference (below 0.1:
    stable; 0.1–0.25: some shift; above 0.25: a large shift, drawn in red), per group
    (`color`, or `facet` for one panel per value); the KS statistic and p-value in the
    tooltip.

    Parameters
    ----------
    frame
        The frame ``df.roc.score_stability(...)`` returns.
    color, facet, columns, width, height
        As in :func:`over_time_chart`.

    Returns
    -------
    alt.LayerChart or alt.FacetChart
        Untitled; faceted when `facet` is given.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"t": [1, 1, 1, 2, 2, 2], "score": [0.1, 0.2, 0.3, 0.5, 0.6, 0.7]})
    >>> frame = df.roc.score_stability(time="t", every="1i", reference=(1, 1), bins=2)
    >>> spec = pr.charts.stability_chart(frame).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['line', 'rule']
    """
    alt_ = altair()
    hint = "pass the frame df.roc.score_stability(...) returns"
    require(frame, list(STABILITY_COLUMNS[:6]), "the score stability", hint)
    by = [name for name in frame.columns if name not in STABILITY_COLUMNS]
    check_roles(by, "score stability", color=color, facet=facet)
    panels = Panels(facet, None, None, columns)
    x, data = _time_axis(alt_, finite(frame), "window_start", "Window start")
    y = alt_.Y(field="psi", type="quantitative", title="PSI against the reference")
    hue = color_channel(alt_, color, None, frame)
    tips = _window_tips(
        alt_,
        by,
        [("psi", "rate"), ("ks", "rate"), ("ks_p_value", "rate"), ("n", "count")],
    )
    guides = pl.DataFrame({"psi": list(PSI_GUIDES), "_reading": ["some shift", "large shift"]})
    if facet is not None:  # the guide lines drawn in every panel
        values = frame.select(pl.col(facet).unique(maintain_order=True))
        guides = guides.join(values, how="cross")
    data = combine(window=data, guide=guides)
    line = (
        alt_.Chart()
        .transform_filter(is_mark("window"))
        .mark_line(point=True, strokeWidth=2)
        .encode(x, y, tooltip=tips, **hue, **apart(alt_, by, color, panels))
    )
    rule = (
        alt_.Chart()
        .transform_filter(is_mark("guide"))
        .mark_rule(strokeDash=[4, 4], color=ALERT_COLOR)
        .encode(
            alt_.Y(field="psi", type="quantitative"),
            opacity=alt_.Opacity(
                field="_reading", type="nominal", scale=alt_.Scale(range=[0.45, 0.9]), legend=None
            ),
        )
    )
    chart = alt_.layer(line, rule, data=data).properties(width=width, height=height)
    return panels.apply(alt_, named_nulls(chart, color, frame))
