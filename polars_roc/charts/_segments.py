"""Segment charts: the cross-AUC heatmap, the disparity plot, the forest plot's summary rows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import polars as pl

from polars_roc.charts._altair import (
    Panels,
    altair,
    check_roles,
    combine,
    field,
    is_mark,
    nominal,
    quantitative,
    require,
)
from polars_roc.charts._thin import ROW_BUDGET
from polars_roc.charts.style import RATE_FORMAT, SMALL_FORMAT

if TYPE_CHECKING:
    import altair as alt

__all__ = ["cross_auc_chart", "disparity_chart", "summary_rows"]

CROSS_COLUMNS = ("segment_pos", "segment_neg", "auc", "n_pos", "n_neg")
DISPARITY_COLUMNS = (
    "segment",
    "metric",
    "estimate",
    "reference_estimate",
    "diff",
    "diff_lower",
    "diff_upper",
    "ratio",
    "p_value",
    "p_adjusted",
)
#: The roll-up's summary rows drawn beneath a forest plot's segments, in drawing order.
SUMMARY = (
    ("pooled_auc", None, None, "pooled AUC"),
    ("within_auc", None, None, "within-segment AUC"),
    ("ivw_auc", "ivw_lower", "ivw_upper", "IVW mean AUC"),
)

#: The cross-AUC heatmap's least side, in pixels: its axis title ("Negatives' segment").
TITLE_WIDTH = 130


def summary_rows(rollup: pl.DataFrame, names: Sequence[str], panels: Sequence[str]) -> pl.DataFrame:
    """
    The forest plot's summary rows from a roll-up: pooled, within-segment and IVW AUCs.

    One row per roll-up group and summary, with ``_label`` (the group's values among the
    label columns `names`, then the summary's name), ``auc``, ``auc_lower``, ``auc_upper``
    (the IVW interval only), ``_kind`` and ``_rank`` (their order beneath the segments),
    keeping the panel columns.

    Examples
    --------
    >>> import polars as pl
    >>> rollup = pl.DataFrame({"pooled_auc": [0.8], "within_auc": [0.7], "ivw_auc": [0.71],
    ...                        "ivw_lower": [0.65], "ivw_upper": [0.77]})
    >>> summary_rows(rollup, ["region"], [])["_label"].to_list()
    ['pooled AUC', 'within-segment AUC', 'IVW mean AUC']
    """
    require(rollup, [c for c, *_ in SUMMARY], "the roll-up", "pass df.roc.rollup(...)")
    for name in panels:
        if name not in rollup.columns:
            msg = (
                f"the roll-up has no panel column {name!r}; it has {rollup.columns}"
                f"\n\nHint: compute it with by=[..., {name!r}], as the AUC frame."
            )
            raise pl.exceptions.ColumnNotFoundError(msg)
    keys = [name for name in names if name in rollup.columns]
    parts = []
    for rank, (value, lower, upper, title) in enumerate(SUMMARY):
        prefix = [pl.col(n).cast(pl.String).fill_null("null") for n in keys]
        label = pl.concat_str([*prefix, pl.lit(title)], separator=" · ")
        parts.append(
            rollup.select(
                *panels,
                *(n for n in keys if n not in panels),
                _label=label,
                auc=pl.col(value),
                auc_lower=pl.col(lower) if lower else pl.lit(None, dtype=pl.Float64),
                auc_upper=pl.col(upper) if upper else pl.lit(None, dtype=pl.Float64),
                _kind=pl.lit(title),
                _rank=pl.lit(rank, dtype=pl.Int64),
            )
        )
    rows = pl.concat(parts, how="vertical_relaxed").filter(pl.col("auc").is_not_null())
    return rows.sort("_rank", *keys, maintain_order=True)


def summary_layers(alt_: Any, x: Any, y: Any, scale: Any) -> list[Any]:
    """The summary rows' marks: a grey diamond each, the IVW interval as a bar."""
    marks = alt_.Chart().transform_filter(is_mark("summary"))
    low = quantitative(alt_, "X", "auc_lower", title="AUC", scale=scale)
    tips = [
        alt_.Tooltip(field="_label", type="nominal", title="summary"),
        *(
            alt_.Tooltip(field=name, type="quantitative", format=RATE_FORMAT)
            for name in ("auc", "auc_lower", "auc_upper")
        ),
    ]
    bar = marks.transform_filter("isValid(datum.auc_lower)").mark_rule(strokeWidth=3, color="#555")
    bar = bar.encode(low, y, x2=alt_.X2(field=field("auc_upper")), tooltip=tips)
    diamond = marks.mark_point(shape="diamond", filled=True, size=130, color="#555", opacity=1)
    return [bar, diamond.encode(x, y, tooltip=tips)]


def _text(values: pl.Expr) -> pl.Expr:
    return values.cast(pl.String).fill_null("null")


def cross_auc_chart(
    cross: pl.DataFrame,
    *,
    facet: str | None = None,
    columns: int | None = None,
    cell: int = 34,
    text: bool = True,
) -> alt.LayerChart | alt.FacetChart:
    """
    Heatmap of the cross-segment AUCs: positives' segment (rows) against negatives' (columns).

    Each cell is coloured by its AUC less the group's pooled AUC on a diverging scale
    (blue above, red below, white at the pooled AUC) and, with `text`, shows the AUC. The
    pooled AUC is rebuilt from the cells themselves (``Σ auc · n_pos · n_neg`` over all
    positive-negative pairs). A red row is a segment whose positives score low against
    every segment's negatives (missed); a red column, one whose negatives score high
    (false alarms).

    Parameters
    ----------
    cross
        The frame ``df.roc.cross_auc(segment=..., by=...)`` returns.
    facet
        The `by` column splitting the chart into panels; required with several groups.
    columns
        Panels per row with `facet`.
    cell
        Size of a cell, in pixels.
    text
        Print each cell's AUC.

    Returns
    -------
    alt.LayerChart or alt.FacetChart
        Untitled; faceted when `facet` is given.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {
    ...         "region": ["n"] * 4 + ["s"] * 4,
    ...         "score": [0.9, 0.6, 0.5, 0.2, 0.8, 0.3, 0.95, 0.7],
    ...         "label": [1, 1, 0, 0, 1, 1, 0, 0],
    ...     }
    ... )
    >>> spec = pr.charts.cross_auc_chart(df.roc.cross_auc(segment="region")).to_dict()
    >>> [layer["mark"]["type"] for layer in spec["layer"]]
    ['rect', 'text']
    """
    alt_ = altair()
    hint = "pass the frame df.roc.cross_auc(segment=..., by=...) returns"
    require(cross, list(CROSS_COLUMNS), "the cross-AUC frame", hint)
    by = [name for name in cross.columns if name not in CROSS_COLUMNS]
    check_roles(by, "cross-AUC", facet=facet)
    rest = [name for name in by if name != facet]
    if rest and cross.select(rest).n_unique() > 1:
        msg = (
            f"the cross-AUC frame holds several groups of {rest}: one heatmap per group"
            f"\n\nHint: pass facet={rest[0]!r}, or filter one group first."
        )
        raise ValueError(msg)
    if cross.height > ROW_BUDGET:
        msg = (
            f"cross_auc_chart cannot draw {cross.height:,} cells (Altair draws at most 5,000)"
            f"\n\nHint: keep the largest segments, e.g. filter segment_pos and segment_neg."
        )
        raise ValueError(msg)
    pairs = pl.col("auc") * pl.col("n_pos").cast(pl.Float64) * pl.col("n_neg").cast(pl.Float64)
    panel = [facet] if facet else []

    def per_side(side: str, count: str) -> pl.LazyFrame:
        return cross.lazy().group_by(*panel, side).agg(pl.col(count).first())

    def totals(side: str, count: str) -> pl.LazyFrame:
        frame = per_side(side, count)
        total = pl.col(count).cast(pl.Float64).sum().alias(f"_{count}")
        return frame.group_by(panel).agg(total) if panel else frame.select(total)

    u = (
        cross.lazy().group_by(panel).agg(_u=pairs.sum())
        if panel
        else cross.lazy().select(_u=pairs.sum())
    )
    pooled = pl.concat(
        [u, totals("segment_pos", "n_pos"), totals("segment_neg", "n_neg")],
        how="align" if panel else "horizontal",
    ).select(*panel, _pooled=pl.col("_u") / (pl.col("_n_pos") * pl.col("_n_neg")))
    joined = (
        cross.lazy().join(pooled, on=panel, how="left")
        if panel
        else cross.lazy().join(pooled, how="cross")
    )
    rows = joined.with_columns(
        _gap=pl.col("auc") - pl.col("_pooled"),
        _pos=_text(pl.col("segment_pos")),
        _neg=_text(pl.col("segment_neg")),
    ).collect()
    order = sorted(set(rows["_pos"].to_list()) | set(rows["_neg"].to_list()))
    # Each segment's place in `order`, to sort both axes by: Vega-Lite writes an explicit
    # sort list's values unescaped into a Vega expression, which a U+2028 in a name breaks.
    places = pl.Series(range(len(order)), dtype=pl.Int64)
    rows = rows.with_columns(
        pl.col(side).replace_strict(order, places).alias(f"{side}_place")
        for side in ("_pos", "_neg")
    )
    reach = float(rows.select(pl.col("_gap").abs().max()).item() or 0.0) or 0.05
    data = combine(cell=rows)
    color = quantitative(
        alt_,
        "Color",
        "_gap",
        title="AUC − pooled",
        scale=alt_.Scale(scheme="redblue", domain=[-reach, reach], domainMid=0),
        legend=alt_.Legend(format="+.2f"),
    )
    x_sort = alt_.EncodingSortField(field="_neg_place", op="min", order="ascending")
    y_sort = alt_.EncodingSortField(field="_pos_place", op="min", order="ascending")
    x = nominal(alt_, "X", "_neg", title="Negatives' segment", sort=x_sort)
    y = nominal(alt_, "Y", "_pos", title="Positives' segment", sort=y_sort)
    tips = [
        alt_.Tooltip(field="_pos", type="nominal", title="positives of"),
        alt_.Tooltip(field="_neg", type="nominal", title="negatives of"),
        alt_.Tooltip(field="auc", type="quantitative", format=RATE_FORMAT),
        alt_.Tooltip(field="_pooled", type="quantitative", format=RATE_FORMAT, title="pooled"),
        alt_.Tooltip(field="n_pos", type="quantitative", format=",.2~f"),
        alt_.Tooltip(field="n_neg", type="quantitative", format=",.2~f"),
    ]
    base = alt_.Chart().transform_filter(is_mark("cell"))
    layers = [base.mark_rect(stroke="white", strokeWidth=1).encode(x, y, color, tooltip=tips)]
    if text:
        dark = f"abs(datum._gap) > {reach * 0.6}"
        label = base.mark_text(fontSize=10).encode(
            x,
            y,
            text=alt_.Text(field="auc", type="quantitative", format=".2f"),
            color=alt_.condition(dark, alt_.value("white"), alt_.value("black")),
        )
        layers.append(label)
    # At least wide enough for the axis title: with few segments it overran the next panel.
    size = max(cell * len(order), TITLE_WIDTH)
    chart = alt_.layer(*layers, data=data).properties(width=size, height=size)
    return Panels(facet=facet, columns=columns).apply(alt_, chart)


def disparity_chart(
    disparity: pl.DataFrame,
    *,
    alpha: float = 0.05,
    facet: str | None = None,
    columns: int | None = None,
    width: int = 260,
    step: int = 20,
) -> alt.LayerChart | alt.FacetChart:
    """
    Each segment's gap to the reference, with its interval, a zero line and significance.

    One row per segment (and `by` group not used as a panel), sorted by the gap, the worst
    on top; a dot at ``diff`` and a bar from ``diff_lower`` to ``diff_upper``. Filled red
    dots mark the gaps whose adjusted p-value is below `alpha`; hollow grey ones the rest.
    Several metrics are drawn side by side, each on its own scale.

    Parameters
    ----------
    disparity
        The frame ``df.roc.disparity(segment=..., ...)`` returns.
    alpha
        Significance level for ``p_adjusted``.
    facet, columns
        A `by` column splitting the chart into panels (one metric only), and panels per row.
    width
        Width of each panel, in pixels.
    step
        Height of each row, in pixels.

    Returns
    -------
    alt.LayerChart or alt.FacetChart
        Untitled; faceted by metric when there are several, or by `facet`.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pr.datasets.simulate(600, seed=4).with_columns(region=pl.int_range(pl.len()) % 3)
    >>> chart = pr.charts.disparity_chart(df.roc.disparity(segment="region", by="model"))
    >>> [layer["mark"]["type"] for layer in chart.to_dict()["layer"]]
    ['rule', 'rule', 'point']
    """
    alt_ = altair()
    hint = "pass the frame df.roc.disparity(segment=..., ...) returns"
    require(disparity, list(DISPARITY_COLUMNS), "the disparity frame", hint)
    by = [name for name in disparity.columns if name not in DISPARITY_COLUMNS]
    check_roles(by, "disparity", facet=facet)
    several = disparity["metric"].n_unique() > 1
    if facet is not None and several:
        msg = (
            "disparity_chart draws several metrics as panels already: facet= needs one metric"
            "\n\nHint: filter one metric first, e.g. .filter(pl.col('metric') == 'auc')."
        )
        raise ValueError(msg)
    names = [name for name in by if name != facet]
    parts = [_text(pl.col(n)) for n in names] + [_text(pl.col("segment"))]
    rows = disparity.with_columns(
        _label=pl.concat_str(parts, separator=" · "),
        _significant=(pl.col("p_adjusted") < alpha).fill_null(False),
    ).sort("diff", nulls_last=True, maintain_order=True)
    if rows.height > ROW_BUDGET:
        msg = f"disparity_chart cannot draw {rows.height:,} rows (Altair draws at most 5,000)"
        raise ValueError(msg + "\n\nHint: keep the significant rows or the largest gaps.")
    zero = (
        rows.select(*([facet] if facet else []), "metric").unique().with_columns(diff=pl.lit(0.0))
    )
    data = combine(zero=zero, gap=rows)
    scale = alt_.Scale(zero=False, nice=True, padding=8)
    x = quantitative(alt_, "X", "diff", title="Difference from the reference", scale=scale)
    y = nominal(
        alt_,
        "Y",
        "_label",
        title=None,
        sort=alt_.EncodingSortField(field="diff", op="min", order="ascending"),
    )
    tips = [
        alt_.Tooltip(field="_label", type="nominal", title="segment"),
        alt_.Tooltip(field="metric", type="nominal"),
        *(
            alt_.Tooltip(field=name, type="quantitative", format=SMALL_FORMAT)
            for name in ("estimate", "reference_estimate", "diff", "diff_lower", "diff_upper")
        ),
        alt_.Tooltip(field="p_adjusted", type="quantitative", format=".3g"),
    ]
    significance = alt_.Color(
        field="_significant",
        type="nominal",
        title=f"adjusted p < {alpha:g}",
        scale=alt_.Scale(domain=[True, False], range=["#e45756", "#8c8c8c"]),
    )
    gaps = alt_.Chart().transform_filter(is_mark("gap"))
    low = quantitative(alt_, "X", "diff_lower", title="Difference from the reference")
    layers = [
        alt_.Chart()
        .transform_filter(is_mark("zero"))
        .mark_rule(color="gray", strokeDash=[4, 4])
        .encode(x),
        gaps.mark_rule(strokeWidth=2).encode(
            low, y, x2=alt_.X2(field="diff_upper"), color=significance, tooltip=tips
        ),
        gaps.mark_point(size=60, opacity=1).encode(
            x,
            y,
            color=significance,
            fill=alt_.condition("datum._significant", alt_.value("#e45756"), alt_.value("white")),
            tooltip=tips,
        ),
    ]
    chart = alt_.layer(*layers, data=data).properties(width=width, height=alt_.Step(step))
    if several:
        panels = chart.facet(column=nominal(alt_, "Column", "metric", title=None))
        return cast("alt.FacetChart", panels.resolve_scale(x="independent"))
    return Panels(facet=facet, columns=columns).apply(alt_, chart)
