"""An interactive threshold explorer: a slider moves the operating point along the ROC curve."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import polars as pl

from polars_roc._core.columns import CURVE, THRESHOLDS
from polars_roc._core.objectives import curve_optimum, youden
from polars_roc.charts._altair import (
    Panels,
    altair,
    apart,
    chance_line,
    check_roles,
    color_channel,
    combine,
    field,
    groups,
    is_mark,
    named_nulls,
    nominal,
    numbered,
    require,
    row_order,
    tooltips,
)
from polars_roc.charts._axes import fpr_axis
from polars_roc.charts._direction import predicted, runs_lower
from polars_roc.charts._roc import chance_rows, ordered_curve, thinned_curve
from polars_roc.charts.style import COUNT_FORMAT, RATE_FORMAT, THRESHOLD_DIGITS, threshold_expr
from polars_roc.typing import FprScale

if TYPE_CHECKING:
    import altair as alt

COUNTS = ("tp", "fp", "tn", "fn")
#: Rates shown by default, those of them the frame has.
DEFAULT_RATES = ("tpr", "fpr", "ppv", "npv", "accuracy", "f1")


def slider_step(low: float, high: float, typical: float | None = None) -> float:
    """
    A round step for the slider: thresholds to 4 significant digits, 100 positions at least.

    The digits count from the largest threshold's size (its power of ten), so no value the
    slider shows has more than 4 significant digits (``0.5954``, never ``0.5954397202808415`` nor
    ``0.38486``); `typical` (e.g. the median threshold) is accepted for compatibility and
    only used when the ends are both zero.
    """
    if not high > low:
        return 1.0
    largest = max(abs(low), abs(high))
    if largest == 0 and typical is not None and typical > 0:
        largest = typical
    # Steps of the 4th significant digit of the numbers up to `largest`: 1e-4 up to 1
    # (0.4846; 1 itself prints as 1), 0.1 up to 1,000 (712.3).
    digits = math.ceil(math.log10(largest)) - THRESHOLD_DIGITS
    spread = math.floor(math.log10((high - low) / 100))
    return float(10 ** min(digits, spread))


def on_step(value: float, step: float, how: Any = round) -> float:
    """`value` moved to a multiple of `step` (with `how`: round, floor or ceil), as printed."""
    decimals = max(0, -math.floor(math.log10(step)))
    ratio = round(value / step, 6)  # 0.009 / 0.0001 is 89.99999999999999
    return round(float(how(ratio)) * step, decimals)


def youden_start(frame: pl.DataFrame, by: list[str]) -> float:
    """
    The slider's default: the Youden optimum (as ``best_threshold`` and ``ks`` give it).

    Each group's optimum (:func:`polars_roc._core.objectives.curve_optimum`); with several
    groups, the one of largest J (ties: the first group's). An optimum off the axis (the
    start row: no threshold separates the classes) or no optimum at all starts the slider
    at the end where nothing is predicted positive.
    """
    lower = runs_lower(frame)
    best = curve_optimum(frame.lazy(), by, lowest=lower).collect()
    best = best.filter(pl.col("threshold").is_not_null())
    gap = youden() if set(COUNTS) <= set(best.columns) else pl.col("tpr") - pl.col("fpr")
    best = best.with_columns(_j=gap).sort(
        "_j", descending=True, nulls_last=True, maintain_order=True
    )
    finite = frame.filter(pl.col("threshold").is_finite())["threshold"]
    end = float(finite.min() if lower else finite.max())  # type: ignore[arg-type]
    if best.height == 0 or not math.isfinite(best["threshold"][0]):
        return end
    return float(best["threshold"][0])


def threshold_explorer(
    frame: pl.DataFrame,
    *,
    color: str | None = None,
    rates: Sequence[str] | None = None,
    threshold: float | None = None,
    step: float | None = None,
    facet: str | None = None,
    columns: int | None = 3,
    zoom: tuple[float, float] | None = None,
    size: int = 300,
    max_points: int = 2000,
    fpr_scale: FprScale = "linear",
) -> alt.VConcatChart:
    """
    A threshold slider moving the operating point on the ROC curve, with its counts and rates.

    One chart: the ROC panel (one panel per `facet` value, wrapped into `columns`) above a
    table of the confusion counts and rates at the threshold, one row per group: about 800
    pixels wide with the defaults, so it fits pages 1,024 pixels wide.

    For a slider value ``t`` each group's operating point is the curve row with the
    smallest threshold at or above ``t`` (rows with ``score >= threshold`` are predicted
    positive, so that row's counts are those of threshold ``t``); for a curve computed with
    ``direction="lower"`` (read from its start rows at ``-inf``), the largest at or below
    ``t``. Everything runs in the browser with Vega-Lite: no server. Large curves are
    thinned for drawing (see :mod:`polars_roc.charts._thin`); the slider then moves over the
    kept rows, and the table shows the exact counts of the row it stops at, with that row's
    own threshold.

    Parameters
    ----------
    frame
        A frame from ``df.roc.thresholds(...)`` (any of its rates can be shown) or
        ``df.roc.curve(...)``: ``*by, threshold, tp, fp, tn, fn, tpr, fpr, ...``.
    color
        Group column colouring the curves and points; other group columns keep lines apart.
    rates
        Rate columns for the table; default those of ``tpr, fpr, ppv, npv, accuracy, f1``
        the frame has.
    threshold
        Initial slider value; default the Youden optimum ``best_threshold`` and ``ks`` give
        (exact in the counts, the highest threshold among ties; with several groups, the
        optimum of largest J).
    step
        Slider step; default a round number giving thresholds to 4 significant digits (at
        least 100 positions). The slider's ends are the extreme thresholds moved out to
        multiples of the step.
    facet
        Group column splitting the ROC curves into panels (the table keeps every group).
    columns
        Panels per row with `facet`.
    zoom
        Show only this FPR range ``(lo, hi)`` (see :func:`polars_roc.charts.roc_chart`).
    size
        Width and height of each ROC panel, in pixels.
    max_points
        Drawing budget for the curve rows.
    fpr_scale
        ``"log"`` draws the FPR axis on a log scale, from a floor where FPR = 0 is drawn
        (see :func:`polars_roc.charts.roc_chart`).

    Returns
    -------
    alt.VConcatChart
        The ROC panel(s) above the table, with the slider bound to a parameter; untitled.

    Examples
    --------
    >>> import polars_roc as pr
    >>> from polars_roc.charts import threshold_explorer
    >>> df = pr.datasets.simulate(2000, seed=1)
    >>> chart = threshold_explorer(df.roc.curve(by="model"), color="model", threshold=0.5)
    >>> spec = chart.to_dict()
    >>> spec["params"][0]["value"], spec["params"][0]["bind"]["input"]
    (0.5, 'range')
    """
    alt_ = altair()
    hint = "pass the frame df.roc.thresholds(...) or df.roc.curve(...) returns"
    require(frame, ["threshold", *COUNTS, "tpr", "fpr"], "the threshold frame", hint)
    by = groups(frame, THRESHOLDS)
    check_roles(by, "threshold", color=color, facet=facet)
    shown = [r for r in DEFAULT_RATES if r in frame.columns] if rates is None else list(rates)
    require(frame, shown, "the threshold frame", "pass rates= columns the frame has")
    finite = frame.filter(pl.col("threshold").is_finite())
    if finite.height == 0:
        msg = (
            "the threshold frame has no finite threshold to explore"
            "\n\nHint: pass the curve of scored rows with at least one finite score."
        )
        raise ValueError(msg)
    low, high = float(finite["threshold"].min()), float(finite["threshold"].max())  # type: ignore[arg-type]
    if threshold is None:
        threshold = youden_start(frame, by)
    typical = finite.select(pl.col("threshold").abs().median()).item()
    step = slider_step(low, high, typical) if step is None else float(step)
    if not step > 0:
        msg = f"step must be positive, got {step!r}\n\nHint: leave step=None for a round step."
        raise ValueError(msg)
    low, high = on_step(low, step, math.floor), on_step(high, step, math.ceil)
    start = on_step(min(max(float(threshold), low), high), step)

    panels = Panels(facet, columns=columns if facet is not None else None)
    axis = fpr_axis(zoom, fpr_scale, (frame,))
    zoom = axis.zoom
    ordered = ordered_curve(frame, by)
    chance = chance_rows(frame, panels, axis)
    drawn = thinned_curve(
        ordered, by, max_points, extra=chance.height, what="threshold_explorer", zoom=zoom,
        axis=axis,
    )  # fmt: skip
    group = (
        pl.concat_str([pl.col(n).cast(pl.String).fill_null("null") for n in by], separator=" · ")
        if by
        else pl.lit("all")
    )
    keep = [*by, *CURVE, *(r for r in shown if r not in CURVE)]
    data = combine(chance=chance, curve=numbered(drawn.select(keep).with_columns(_group=group)))
    data = axis.placed(data)

    lower = runs_lower(frame)
    name = f"threshold (score {predicted(lower)} t) "
    cut = alt_.param(value=start, bind=alt_.binding_range(min=low, max=high, step=step, name=name))
    at_cut = f"isValid(datum.threshold) && datum.threshold {'<=' if lower else '>='} {cut.name}"
    curve = alt_.Chart().transform_filter(is_mark("curve"))
    chosen = (
        curve.transform_filter(at_cut)
        .transform_joinaggregate(_cut=f"{'max' if lower else 'min'}(threshold)", groupby=["_group"])
        .transform_filter("datum.threshold === datum._cut")
    )
    x, y = axis.channels(alt_)
    clip = axis.clip
    hue = color_channel(alt_, color, None, frame)
    lines_apart = apart(alt_, by, color, panels)
    tips = tooltips(alt_, drawn, by, ["threshold", *COUNTS, *shown])
    roc = alt_.layer(
        chance_line(alt_, x, y).mark_line(color="gray", strokeDash=[4, 4], strokeWidth=1, **clip),
        curve.mark_line(strokeWidth=2, **clip).encode(
            x, y, order=row_order(alt_), **hue, **lines_apart
        ),
        chosen.mark_rule(color="gray", strokeWidth=1, **clip).encode(x, **lines_apart),
        chosen.mark_rule(color="gray", strokeWidth=1, **clip).encode(y, **lines_apart),
        chosen.mark_point(
            filled=True, size=130, opacity=1, stroke="black", strokeWidth=1, **clip
        ).encode(x, y, tooltip=tips, **hue),
    ).properties(width=size, height=size)
    roc = named_nulls(roc, color, frame)
    if facet is not None:  # a facet needs its data at its own top: Altair stores it once
        roc = panels.apply(alt_, roc.properties(data=data))

    names = ["threshold", *COUNTS, *shown]
    formats = dict.fromkeys(COUNTS, COUNT_FORMAT)
    formats.update(dict.fromkeys(shown, RATE_FORMAT))
    pick = json.dumps(formats)
    # The threshold as every table prints it (4 significant digits, scientific below 1e-3).
    text = (
        f"datum.key === 'threshold' ? {threshold_expr('datum.value')} : "
        f"isValid(datum.value) ? format(datum.value, {pick}[datum.key]) : '–'"
    )
    table = (
        chosen.transform_fold([field(c) for c in names])
        .transform_calculate(_shown=text)
        .mark_text(fontSize=12)
        .encode(
            nominal(
                alt_,
                "X",
                "key",
                sort=names,
                title=None,
                axis=alt_.Axis(orient="top", labelAngle=0),
            ),
            nominal(alt_, "Y", "_group", title=None),
            text=nominal(alt_, "Text", "_shown"),
            **hue,
        )
        .properties(width=alt_.Step(64), height=alt_.Step(22))
    )
    table = named_nulls(table, color, frame)
    if facet is None:
        chart = alt_.vconcat(roc, table, data=data, spacing=24).add_params(cut)
    else:  # (add_params trips over a facet inside a concat: set the parameter directly)
        chart = alt_.vconcat(roc, table.properties(data=data), spacing=24)
        chart.params = [cut.param]
    return cast("alt.VConcatChart", chart)
