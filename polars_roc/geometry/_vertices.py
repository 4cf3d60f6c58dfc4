"""The hull vertices of scored rows, shared by :mod:`~polars_roc.geometry.hull` and ``iso``."""

from __future__ import annotations

from typing import Any

import polars as pl

from polars_roc._core import convex
from polars_roc._core.convex import Frame
from polars_roc._core.counts import roc_points


def scored_vertices(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    by: list[str],
    model: str | None,
    points: Frame | None,
    weight: str | None,
    pos_label: Any,
) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """
    Hull vertices of scored rows: one curve per group, or all `model` curves and `points`.

    Each curve is hulled first in its own counts (exactly, for unweighted counts); with
    `model`, the hull of those hulls and the extra points is then taken in rates. Returns
    the vertices ``*by, _name, fpr, tpr, threshold, _x, _y`` and the per-group class balance
    ``*by, _n_pos, _n_neg`` of the scored rows (null where a curve is undefined).
    """
    if model is not None and (model in by or model in (score, label)):
        msg = f"model={model!r} must differ from the score, label and `by` columns"
        raise ValueError(msg)
    if points is not None and model is None:
        msg = (
            "extra `points` need a classifier name column\n\n"
            "Hint: pass model=<name column>, present in the scored rows and in `points`."
        )
        raise ValueError(msg)
    keys = [*by] if model is None else [*by, model]
    curves = roc_points(lf, score, label, by=keys, weight=weight, pos_label=pos_label)
    standard = curves.select(
        *keys,
        _name=pl.lit(None) if model is None else pl.col(model),
        fpr="fpr",
        tpr="tpr",
        threshold="threshold",
        _x="fp",
        _y="tp",
    )
    own = convex.curve_vertices(standard, keys)
    sizes = [pl.col("_y").max().alias("_n_pos"), pl.col("_x").max().alias("_n_neg")]
    per_curve = own.group_by(keys).agg(sizes) if keys else own.select(sizes)  # 1.x: no keyless
    totals = pl.col("_n_pos", "_n_neg").sum()
    balance = per_curve.group_by(by).agg(totals) if by else per_curve.select(totals)
    if model is None:
        return own.drop(keys[len(by) :]), balance
    rates = own.select(*by, *convex.COLUMNS, _x="fpr", _y="tpr")
    if points is not None:
        schema = rates.collect_schema()
        extra = convex.standard_points(points, "fpr", "tpr", model, by)
        rates = pl.concat(
            [rates, extra.cast({c: schema[c] for c in [*by, "_name"]})], how="vertical"
        )
    return convex.vertices(rates, by, required=False), balance
