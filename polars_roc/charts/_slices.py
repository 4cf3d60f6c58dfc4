"""Slice charts: the weakest slices as a forest of gaps, or one pair of features as a heatmap."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import polars as pl

from polars_roc._core.columns import SLICES
from polars_roc.charts._altair import altair, combine, is_mark, nominal, quantitative, require
from polars_roc.charts.style import SMALL_FORMAT

if TYPE_CHECKING:
    import altair as alt

__all__ = ["slice_chart"]


def _one_metric(slices: pl.DataFrame) -> tuple[pl.DataFrame, str]:
    """
    A ``slices(metrics=...)`` frame of one metric in the AUC frame's columns, and its name.

    The frame without `metrics` comes back as it is, named ``"AUC"``; a frame holding
    several metrics is refused (their gaps share no scale).
    """
    if "metric" not in slices.columns or "auc" in slices.columns:
        return slices, "AUC"
    names = slices["metric"].unique(maintain_order=True).to_list()
    if len(names) != 1:
        msg = (
            f"slice_chart draws one metric at a time; the slices frame holds {names}"
            f"\n\nHint: slice_chart(out.filter(pl.col('metric') == {names[0]!r}))."
            if names
            else "the slices frame holds no slices\n\nHint: lower min_pos / min_neg."
        )
        raise ValueError(msg)
    renamed = slices.rename({"estimate": "auc", "estimate_rest": "auc_rest"}, strict=False)
    return renamed.drop("metric"), str(names[0])


def _parts(slices: pl.DataFrame) -> tuple[list[str], list[str]]:
    """The `by` columns (before ``slice``) and the feature columns (between it and ``n_pos``)."""
    require(slices, ["slice", *SLICES], "the slices frame", "pass df.roc.slices(...)'s frame")
    start, end = slices.columns.index("slice"), slices.columns.index("n_pos")
    return slices.columns[:start], slices.columns[start + 1 : end]


def slice_chart(
    slices: pl.DataFrame,
    *,
    top: int = 20,
    alpha: float = 0.05,
    pair: Sequence[str] | None = None,
    width: int = 320,
    step: int = 18,
) -> alt.LayerChart | alt.Chart | alt.FacetChart:
    """
    The weakest slices as a forest of AUC gaps, or a heatmap of the gaps over two features.

    Without `pair`: the `top` slices with the lowest ``gap`` (per `by` group, labelled by
    it), each a dot at ``gap = auc - auc_rest`` on a bar from ``gap_lower`` to
    ``gap_upper``, beside a dashed zero line; filled red where ``p_adjusted`` is below
    `alpha`, hollow grey elsewhere. With ``pair=(f1, f2)``: the slices of exactly those two
    features as cells coloured by the gap (red below 0, blue above), one panel per `by`
    group.

    Parameters
    ----------
    slices
        The frame ``df.roc.slices(...)`` returns; with ``metrics=``, the rows of one metric
        (its gaps are drawn, the axis named after it).
    top
        How many of the weakest slices the forest draws.
    alpha
        Significance level for ``p_adjusted``.
    pair
        Two feature columns of `slices` for the heatmap, or None for the forest.
    width
        Width of the chart (of each panel), in pixels.
    step
        Height of each row, in pixels.

    Returns
    -------
    alt.LayerChart, alt.Chart or alt.FacetChart
        Untitled.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pr.datasets.simulate(3000, seed=4).filter(pl.col("model") == "logit")
    >>> out = df.roc.slices(features=["segment", "weight"])
    >>> chart = pr.charts.slice_chart(out, top=10)
    >>> [layer["mark"]["type"] for layer in chart.to_dict()["layer"]]
    ['rule', 'rule', 'point']
    >>> pr.charts.slice_chart(out, pair=["segment", "weight"]).to_dict()["mark"]["type"]
    'rect'
    """
    alt_ = altair()
    slices, measure = _one_metric(slices)
    by, features = _parts(slices)
    titles = {} if measure == "AUC" else {"auc": measure, "auc_rest": f"{measure} of the rest"}
    if pair is not None:
        return _heatmap(alt_, slices, by, features, list(pair), width, titles)
    if not isinstance(top, int) or top < 1:
        msg = f"top must be a whole number of slices >= 1, got {top!r}\n\nHint: top=20."
        raise ValueError(msg)
    group = [pl.col(n).cast(pl.String).fill_null("null") for n in by]
    rows = (
        slices.filter(pl.col("gap").is_not_null())
        .sort("gap", maintain_order=True)
        .head(top)
        .with_columns(
            _label=pl.concat_str([*group, pl.col("slice")], separator=" · "),
            _significant=(pl.col("p_adjusted") < alpha).fill_null(value=False),
        )
    )
    data = combine(zero=pl.DataFrame({"gap": [0.0]}), gap=rows)
    axis = f"{measure} of the slice minus {measure} of the rest"
    x = quantitative(alt_, "X", "gap", title=axis)
    y = nominal(
        alt_,
        "Y",
        "_label",
        title=None,
        sort=alt_.EncodingSortField(field="gap", op="min", order="ascending"),
        axis=alt_.Axis(labelLimit=480),
    )
    tips = [
        alt_.Tooltip(field="_label", type="nominal", title="slice"),
        *(
            alt_.Tooltip(
                field=name, type="quantitative", format=SMALL_FORMAT, title=titles.get(name, name)
            )
            for name in ("auc", "auc_rest", "gap", "gap_lower", "gap_upper")
        ),
        alt_.Tooltip(field="n_pos", type="quantitative"),
        alt_.Tooltip(field="n_neg", type="quantitative"),
        alt_.Tooltip(field="p_adjusted", type="quantitative", format=".3g"),
    ]
    significance = alt_.Color(
        field="_significant",
        type="nominal",
        title=f"adjusted p < {alpha:g}",
        scale=alt_.Scale(domain=[True, False], range=["#e45756", "#8c8c8c"]),
    )
    gaps = alt_.Chart().transform_filter(is_mark("gap"))
    layers = [
        alt_.Chart()
        .transform_filter(is_mark("zero"))
        .mark_rule(color="gray", strokeDash=[4, 4])
        .encode(x),
        gaps.mark_rule(strokeWidth=2).encode(
            quantitative(alt_, "X", "gap_lower", title=axis),
            y,
            x2=alt_.X2(field="gap_upper"),
            color=significance,
            tooltip=tips,
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
    return cast("alt.LayerChart", chart)


def _ordered(values: pl.Series) -> list[str]:
    """
    A feature's values in order: quantile bands by their lower edge, other values as text.

    Examples
    --------
    >>> _ordered(pl.Series(["[10.0, inf)", "[-inf, 2.0)", "[2.0, 10.0)"]))
    ['[-inf, 2.0)', '[2.0, 10.0)', '[10.0, inf)']
    """

    def key(value: str) -> tuple[int, float, str]:
        if value.startswith("[") and value.endswith(")") and ", " in value:
            try:
                return (0, float(value[1:].split(", ")[0]), value)
            except ValueError:
                pass
        return (1, 0.0, value)

    return sorted({str(v) for v in values.drop_nulls()}, key=key)


def _heatmap(
    alt_: object,
    slices: pl.DataFrame,
    by: list[str],
    features: list[str],
    pair: list[str],
    width: int,
    titles: dict[str, str],
) -> alt.Chart | alt.FacetChart:
    """The slices of exactly the two features of `pair`, as cells coloured by the gap."""
    if len(pair) != 2 or not set(pair) <= set(features):
        msg = (
            f"pair must name two feature columns of the slices frame {features}, got {pair!r}"
            f"\n\nHint: pair={features[:2]!r}."
        )
        raise ValueError(msg)
    others = [f for f in features if f not in pair]
    used = pl.all_horizontal(pl.col(f).is_not_null() for f in pair)
    unused = pl.all_horizontal(pl.col(f).is_null() for f in others) if others else pl.lit(True)
    # Each value's place in its order, to sort the axes by: Vega-Lite writes an explicit
    # sort list's values unescaped into a Vega expression, which a U+2028 in a name breaks.
    cells = slices.filter(used & unused)
    cells = cells.with_columns(
        pl.col(f)
        .replace_strict(order, pl.Series(range(len(order)), dtype=pl.Int64))
        .alias(f"_place{i}")
        for i, (f, order) in enumerate((f, _ordered(cells[f])) for f in pair)
    )
    a: Any = alt_
    tips = [
        *(a.Tooltip(field=f, type="nominal") for f in [*by, *pair]),
        *(
            a.Tooltip(field=n, type="quantitative", format=SMALL_FORMAT, title=titles.get(n, n))
            for n in ("auc", "auc_rest", "gap")
        ),
        a.Tooltip(field="p_adjusted", type="quantitative", format=".3g"),
    ]
    color = a.Color(
        field="gap", type="quantitative", title="gap", scale=a.Scale(scheme="redblue", domainMid=0)
    )
    chart = (
        a.Chart(combine(cell=cells))
        .mark_rect()
        .encode(
            nominal(a, "X", pair[0], sort=a.EncodingSortField(field="_place0", op="min")),
            nominal(a, "Y", pair[1], sort=a.EncodingSortField(field="_place1", op="min")),
            color=color,
            tooltip=tips,
        )
        .properties(width=width)
    )
    if by:
        group = a.Column(field=by[0], type="nominal")
        return chart.facet(column=group)  # type: ignore[no-any-return]
    return chart  # type: ignore[no-any-return]
