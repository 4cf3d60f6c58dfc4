"""Cumulative gains and lift charts, with the random and perfect-model references."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import polars as pl

from polars_roc._core.columns import GAIN_CURVE, GAINS_TABLE
from polars_roc._core.swallowed import bin_text
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
from polars_roc.charts._direction import ranks_lowest_first

if TYPE_CHECKING:
    import altair as alt

HINT = "pass the frame df.roc.gain_curve(...) or df.roc.gains_table(...) returns"


def _prevalences(
    frame: pl.DataFrame, by: list[str], prevalence: float | pl.DataFrame | None
) -> pl.DataFrame | None:
    """``*by, _prevalence`` per group, or None when the frame and argument cannot tell it."""
    groups = frame.select(by).unique(maintain_order=True) if by else pl.DataFrame({"_": [0]})
    if isinstance(prevalence, int | float) and not isinstance(prevalence, bool):
        if not 0.0 < prevalence <= 1.0:
            msg = f"prevalence must lie in (0, 1], got {prevalence!r}\n\nHint: prevalence=0.1."
            raise ValueError(msg)
        out = groups.with_columns(_prevalence=pl.lit(float(prevalence)))
        return out.drop("_") if not by else out
    if isinstance(prevalence, pl.DataFrame):
        require(
            prevalence, [*by, "n_pos", "n_neg"], "the prevalence frame", "pass df.roc.auc(by=...)"
        )
        share = pl.col("n_pos") / (pl.col("n_pos") + pl.col("n_neg"))
        return prevalence.select(*by, _prevalence=share.cast(pl.Float64))
    if prevalence is not None:
        msg = f"prevalence must be a number, a frame or None, got {type(prevalence).__name__}"
        raise TypeError(msg)
    if "n_pos" in frame.columns and "n" in frame.columns:  # a gains table
        share = pl.col("n_pos").sum() / pl.col("n").sum()
        if by:
            return frame.group_by(by, maintain_order=True).agg(_prevalence=share)
        return frame.select(_prevalence=share)
    return None


def _perfect(prevalences: pl.DataFrame, by: list[str], *, lift: bool) -> pl.DataFrame:
    """The perfect model's line per group: every positive ranked above every negative."""
    rows = []
    for record in prevalences.filter(pl.col("_prevalence") > 0).iter_rows(named=True):
        p = record["_prevalence"]
        keys = {name: record[name] for name in by}
        if lift:
            depths = sorted({p, *(i / 100 for i in range(1, 101))})
            rows += [{**keys, "depth": d, "_y": min(1 / p, 1 / d)} for d in depths]
        else:
            rows += [{**keys, "depth": d, "_y": g} for d, g in ((0.0, 0.0), (p, 1.0), (1.0, 1.0))]
    schema: dict[str, Any] = {name: prevalences.schema[name] for name in by}
    return pl.DataFrame(rows, schema={**schema, "depth": pl.Float64, "_y": pl.Float64})


def _one_per_panel(shares: pl.DataFrame, panels: list[str]) -> bool:
    """Whether every panel's groups share one prevalence."""
    values = pl.col("_prevalence").n_unique()
    if not panels:
        return bool(shares.select(values).item() == 1)
    return bool(shares.group_by(panels).agg(values)["_prevalence"].max() == 1)


def _thinned(frame: pl.DataFrame, by: list[str], max_points: int) -> pl.DataFrame:
    """At most about `max_points` rows in all, evenly spread over each group, ends kept."""
    if frame.height <= max_points:
        return frame
    step = max(1, frame.height // max_points)
    position = pl.int_range(pl.len())
    keep = (position % step == 0) | (position == pl.len() - 1)
    return frame.filter(keep.over(by) if by else keep)


def gain_chart(
    gains: pl.DataFrame,
    *,
    lift: bool = False,
    prevalence: float | pl.DataFrame | None = None,
    color: str | None = None,
    facet: str | None = None,
    row: str | None = None,
    column: str | None = None,
    columns: int | None = None,
    size: int = 300,
    max_points: int = 4000,
) -> alt.LayerChart | alt.FacetChart:
    """
    Cumulative gains (or lift) against depth, with the random and perfect-model lines.

    The gain chart (cumulative accuracy profile) shows the share of positives reached
    against the share of rows taken, highest scores first (lowest first for a frame computed
    with ``direction="lower"``, read from the frame). A random ordering follows the
    diagonal; the perfect model reaches every positive at ``depth = prevalence`` (then
    stays at 1). With ``lift=True`` the y axis is the cumulative lift ``gain / depth``:
    1 for a random ordering, ``1 / prevalence`` at best.

    Parameters
    ----------
    gains
        The frame ``df.roc.gain_curve(...)`` returns (``*by, threshold, depth, gain, lift``)
        or ``df.roc.gains_table(...)`` returns (one point per bin, joined from the origin;
        its lift line is `cum_lift`).
    lift
        Draw the cumulative lift instead of the gain.
    prevalence
        Each group's share of positives, for the perfect-model line: a number (all groups),
        or a frame with ``*by, n_pos, n_neg`` such as ``df.roc.auc(by=...)``. A gains table
        carries it already; for a gain curve without it, the perfect-model line is left out.
    color
        Group column told apart by colour, each group in its colour of every chart (the
        colour scale's domain is the sorted group values).
    facet, row, column, columns
        Group columns splitting the chart into panels (wrapped, or a grid).
    size
        Width and height of each panel, in pixels.
    max_points
        Drawing budget for the model lines (longer curves are thinned evenly).

    Returns
    -------
    alt.LayerChart or alt.FacetChart
        Untitled; faceted when a panel role is given.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.6], "label": [1, 0, 1, 0]})
    >>> spec = pr.charts.gain_chart(df.roc.gain_curve(), prevalence=0.5).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['line', 'line', 'line']
    >>> table = pr.charts.gain_chart(df.roc.gains_table(bins=2), lift=True).to_dict()
    >>> table["layer"][2]["encoding"]["y"]["title"]
    'Cumulative lift'
    """
    alt_ = altair()
    require(gains, ["depth", "gain"], "the gains frame", HINT)
    is_table = "bin" in gains.columns
    by = groups(gains, GAINS_TABLE if is_table else GAIN_CURVE)
    panels = Panels(facet, row, column, columns)
    check_roles(by, "gains", color=color, facet=facet, row=row, column=column)
    value = "cum_lift" if (lift and is_table) else ("lift" if lift else "gain")
    require(gains, [value], "the gains frame", HINT)
    points = gains.select(
        *by, "depth", _y=pl.col(value).cast(pl.Float64), **_extra(gains, is_table)
    )
    if is_table:  # the bin as the report prints it: which empty bins its ties swallowed
        ordered = gains.with_row_index("_i").sort([*by, "bin"], nulls_last=True)
        texts = ordered.select("_i", bin_text(by).alias("_bin")).sort("_i")["_bin"]
        points = points.with_columns(texts)
    if is_table and not lift:  # a gains table starts at the origin
        origin = gains.select(by).unique(maintain_order=True) if by else pl.DataFrame()
        start = origin.with_columns(depth=pl.lit(0.0), _y=pl.lit(0.0))
        points = pl.concat([start, points], how="diagonal_relaxed")
    points = points.filter(pl.col("_y").is_not_null() & pl.col("depth").is_not_null())
    points = points.sort([*by, "depth"], nulls_last=True, maintain_order=True)
    points = _thinned(points, by, max_points)
    chance = pl.DataFrame({"depth": [0.0, 1.0], "_y": [0.0, 1.0] if not lift else [1.0, 1.0]})
    shares = _prevalences(gains, by, prevalence)
    # Groups of a panel with one prevalence (models scoring the same rows) share one grey
    # perfect-model line; else each group has its own, in its colour.
    shared = shares is not None and bool(by) and _one_per_panel(shares, panels.names)
    keys = by
    if shares is not None and shared:
        keys = panels.names
        first = shares.unique(keys, keep="first", maintain_order=True) if keys else shares.head(1)
        shares = first.select(*keys, "_prevalence")
    perfect = None if shares is None else _perfect(shares, keys, lift=lift)
    data = combine(chance=per_panel(chance, gains, panels.names), perfect=perfect, model=points)
    leading = "lowest" if ranks_lowest_first(gains, by) else "highest"
    depth = f"Depth ({leading} scores first)"  # short: fits a panel in any font
    x = quantitative(alt_, "X", "depth", title=depth).scale(domain=[0, 1])
    title = "Cumulative lift" if lift else "Gain (share of positives reached)"
    y = quantitative(alt_, "Y", "_y", title=title)
    if not lift:
        y = y.scale(domain=[0, 1])
    scale = {} if color is None else {"scale": color_scale(alt_, gains, color)}
    hue = {} if color is None else {"color": nominal(alt_, "Color", color, **scale)}
    apart = detail(alt_, [name for name in by if name != color and name not in panels.names])
    order = alt_.Order(field="depth", type="quantitative")
    reference = alt_.Chart().transform_filter(is_mark("chance"))
    layers = [
        reference.mark_line(color="gray", strokeDash=[4, 4], strokeWidth=1).encode(x, y, order)
    ]
    best = alt_.Chart().transform_filter(is_mark("perfect"))
    best_style = {"strokeDash": [1, 3], "strokeWidth": 1.5, "opacity": 0.8}
    if color is None or shared:
        best_style["color"] = "gray"
    best_hue = {} if shared else {**hue, **apart}
    layers.append(best.mark_line(**best_style).encode(x, y, order, **best_hue))
    tips = [alt_.Tooltip(field=field(name), type="nominal") for name in by]
    if is_table:
        tips.append(alt_.Tooltip(field="_bin", type="nominal", title="bin"))
    tips += [
        threshold_tip(alt_, name)
        if name == "threshold"
        else alt_.Tooltip(field=name, type="quantitative", format=".4~g")
        for name in ("threshold", "depth")
        if name in points.columns
    ]
    tips.append(alt_.Tooltip(field="_y", type="quantitative", format=".4f", title=value))
    model = alt_.Chart().transform_filter(is_mark("model"))
    layers.append(
        model.mark_line(strokeWidth=2, point=is_table).encode(
            x, y, order, tooltip=tips, **hue, **apart
        )
    )
    chart = alt_.layer(*layers, data=data).properties(width=size, height=size)
    return panels.apply(alt_, named_nulls(chart, color, gains))


def _extra(gains: pl.DataFrame, is_table: bool) -> dict[str, Any]:
    """The columns a tooltip shows besides depth and the value: the bin or the threshold."""
    name = "bin" if is_table else "threshold"
    return {name: pl.col(name)} if name in gains.columns else {}
