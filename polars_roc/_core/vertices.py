"""The ROC vertices of a group's rows, and the kernels frames and expressions both read off them.

A frame method reads the curve of :func:`polars_roc.curves.curve` (one row per group and
distinct threshold, highest first, from the ``+inf`` start row); an expression cannot join
or group, so :func:`vertices` builds the same rows inside one ``list.eval``: the coded rows
packed once, sorted by score (highest first), running class counts read at the end of each
tie block, the start row ``(+inf, 0, 0)`` first. The kernels below take the vertex columns
as expressions and use only group-local operations (``shift``, ``filter``, ``max``), so
the same kernel runs per group in a frame's ``group_by().agg()`` and per list in an
expression's ``list.eval``: one implementation, the same bits (integer counts; weighted
running sums may differ in the last bit, as they add rows in a different order).
"""

from __future__ import annotations

from typing import Literal

import polars as pl

from polars_roc._core.checks import is_nan
from polars_roc._core.counts import INF
from polars_roc._core.groups import ordered_sum
from polars_roc._core.kernels import Rows


def packed(r: Rows) -> pl.Expr:
    """The rows as one list of structs (fields ``s``, ``y`` and ``w`` when weighted)."""
    fields = [r.score.alias("s"), r.positive.alias("y")]
    if r.weight is not None:
        fields.append(r.weight.alias("w"))
    # Packed once: inside `list.eval` every reference reads the packed values instead of
    # running the rows' coding and checks again.
    return pl.struct(fields).implode()


def vertices(r: Rows) -> pl.Expr:
    """
    A list per group of the ROC vertices ``threshold, tp, fp, tpr, fpr``.

    The rows of ``curve()`` for the group, in its order (thresholds descending from
    ``+inf``); as there, `tpr` (`fpr`) is null when the group has no positive (negative)
    or a NaN score.

    Examples
    --------
    >>> import polars as pl
    >>> from polars_roc._core.kernels import rows
    >>> df = pl.DataFrame({"s": [0.9, 0.8, 0.8, 0.1], "y": [1, 0, 1, 0]})
    >>> out = df.select(vertices(rows("s", "y")).explode().struct.unnest())
    >>> out.select("threshold", "tp", "fp").rows()
    [(inf, 0, 0), (0.9, 1, 0), (0.8, 2, 1), (0.1, 2, 2)]
    """
    e = pl.element().struct
    s, y = e.field("s"), e.field("y")
    order = {"descending": True, "nulls_last": True}
    if r.weight is None:
        pos, neg = y.cast(pl.Int64), (~y).cast(pl.Int64)
        zero = pl.lit(0, dtype=pl.Int64)
    else:
        w = e.field("w")
        pos, neg = w * y.cast(pl.Float64), w * (~y).cast(pl.Float64)
        zero = pl.lit(0.0, dtype=pl.Float64)
    ordered = pl.struct(
        s.sort(**order).alias("s"),
        pos.sort_by(s, **order).alias("pos"),
        neg.sort_by(s, **order).alias("neg"),
    )
    e = pl.element().struct
    s, pos, neg = e.field("s"), e.field("pos"), e.field("neg")
    last = s.ne_missing(s.shift(-1))  # the last row of each tie block
    counted = pl.struct(
        pl.concat([pl.lit(INF, dtype=pl.Float64), s.filter(last).cast(pl.Float64)]).alias(
            "threshold"
        ),
        pl.concat([zero, pos.cum_sum().filter(last)]).alias("tp"),
        pl.concat([zero, neg.cum_sum().filter(last)]).alias("fp"),
    )
    e = pl.element().struct
    tp, fp, threshold = e.field("tp"), e.field("fp"), e.field("threshold")
    # Totals as columns (a zero column added), never broadcast scalars: Polars may divide
    # by a scalar through its reciprocal, which is not exact; the frame divides by columns.
    n_pos, n_neg = tp.max() + tp * 0, fp.max() + fp * 0
    defined = ~is_nan(threshold).any()
    rated = pl.struct(
        threshold,
        tp,
        fp,
        pl.when(defined & (n_pos > 0)).then(tp / n_pos).alias("tpr"),
        pl.when(defined & (n_neg > 0)).then(fp / n_neg).alias("fpr"),
    )
    return packed(r).list.eval(ordered).list.eval(counted).list.eval(rated)


def field(name: str) -> pl.Expr:
    """A vertex column inside ``list.eval`` over :func:`vertices`."""
    return pl.element().struct.field(name)


def scalar(
    vertex_list: pl.Expr, kernel: pl.Expr, *, needs: tuple[str, ...] = ("tpr", "fpr")
) -> pl.Expr:
    """A kernel over :func:`vertices`, null where a rate it `needs` is null (as the frame's)."""
    defined = pl.all_horizontal(field(name).is_not_null().all() for name in needs)
    return vertex_list.list.eval(pl.when(defined).then(kernel)).list.first()


def precision(tp: pl.Expr, fp: pl.Expr) -> pl.Expr:
    """Precision at each vertex, 1 at the start row (nothing predicted positive)."""
    return pl.when(tp + fp == 0).then(1.0).otherwise(tp / (tp + fp))


def average_precision_of(tp: pl.Expr, fp: pl.Expr, tpr: pl.Expr) -> pl.Expr:
    """
    ``Σ (R_n - R_{n-1}) P_n`` over one group's vertices in curve order (a running sum).

    The kernel of ``df.roc.average_precision`` and ``pr.average_precision``.
    """
    step = pl.when(tp + fp > 0).then((tpr - tpr.shift(1)) * tp / (tp + fp))
    return ordered_sum(step)


def pr_area_of(tp: pl.Expr, fp: pl.Expr, tpr: pl.Expr) -> pl.Expr:
    """
    The trapezoidal area under the precision-recall points of one group's vertices.

    From the start row (recall 0, precision 1) down the thresholds, each step adds
    ``(R_i - R_{i-1})`` times the mean of the two precisions: scikit-learn's
    ``auc(recall, precision)``. The kernel of ``df.roc.pr_auc`` and ``pr.pr_auc``.
    """
    p = precision(tp, fp)
    step = (tpr - tpr.shift(1)) * (p + p.shift(1)) / 2
    return ordered_sum(step)


def exact_gap(tp: pl.Expr, fp: pl.Expr, n_pos: pl.Expr, n_neg: pl.Expr) -> pl.Expr:
    """``tp * N - fp * P``: ``tpr - fpr`` times ``P * N``, exact in integer counts."""
    return tp * n_neg - fp * n_pos


def best_gap(
    gap: pl.Expr, threshold: pl.Expr, tpr: pl.Expr, fpr: pl.Expr, *, lowest: bool
) -> tuple[pl.Expr, pl.Expr]:
    """
    The KS statistic and its threshold: ``tpr - fpr`` where `gap` is largest.

    The one choice of the KS threshold: among thresholds reaching the largest gap, the
    highest, or the `lowest`. An aggregation over one group's vertices, independent of
    their order.
    """
    top = gap == gap.max()
    tied = threshold.filter(top)
    chosen = tied.min() if lowest else tied.max()
    ks = (tpr - fpr).filter(top & (threshold == chosen)).first()
    return ks, chosen


def partial_area(x: pl.Expr, y: pl.Expr, lo: float, hi: float) -> pl.Expr:
    """
    Area under the polyline (x, y) between ``x = lo`` and ``x = hi``, linear within segments.

    An aggregation over one group's vertices in curve order. A running sum adds the
    segments in that order: the same bits on every run (a group-by ``sum`` may add partial
    sums from different threads in any order).
    """
    x0, y0 = x.shift(1), y.shift(1)
    a, b = x0.clip(lo, hi), x.clip(lo, hi)
    slope = (y - y0) / (x - x0)
    at_a, at_b = y0 + slope * (a - x0), y0 + slope * (b - x0)
    part = pl.when(b > a).then((b - a) * (at_a + at_b) / 2).otherwise(0.0)
    return ordered_sum(part)


def chance_area(lo: float, hi: float, along: Literal["fpr", "tpr"]) -> float:
    """The area of :func:`partial_area` under the chance diagonal over the same range."""
    if along == "fpr":
        return (hi * hi - lo * lo) / 2
    return (hi - lo) - (hi * hi - lo * lo) / 2


def mcclish(pauc: pl.Expr, lo: float, hi: float, along: Literal["fpr", "tpr"]) -> pl.Expr:
    """McClish's standardized partial AUC: ``(1 + (A - min) / (max - min)) / 2``."""
    chance = chance_area(lo, hi, along)
    return (1 + (pauc - chance) / ((hi - lo) - chance)) / 2


def read_at(x: pl.Expr, y: pl.Expr, target: float, along: Literal["fpr", "tpr"]) -> pl.Expr:
    """
    The curve's `y` at ``x = target``: linear between vertices, the best vertex at a hit.

    Vertices of equal `x` form a level (a vertical part of the curve for ``along="fpr"``,
    horizontal for ``"tpr"``). The segment leaving the level at or below the target starts
    at its highest `y` and ends at the lowest `y` of the next level; at an exact hit the
    answer is the level's best vertex (largest TPR, or smallest FPR).
    """
    t = pl.lit(target, dtype=pl.Float64)
    x_a = x.filter(x <= t).max()
    x_b = x.filter(x > t).min()
    y_a, y_b = y.filter(x == x_a).max(), y.filter(x == x_b).min()
    at = y.filter(x == t)
    exact = at.max() if along == "fpr" else at.min()
    between = y_a + (t - x_a) * (y_b - y_a) / (x_b - x_a)
    return pl.when(x_a == t).then(exact).otherwise(between)


def precision_at_recall_of(
    tp: pl.Expr, fp: pl.Expr, tpr: pl.Expr, threshold: pl.Expr, target: float
) -> tuple[pl.Expr, pl.Expr, pl.Expr]:
    """
    The highest precision among vertices with recall at least `target`, and where.

    Precision, recall and threshold of that vertex (the largest recall among equal
    precisions).
    The start row counts (recall 0, precision 1), as the last point of scikit-learn's
    ``precision_recall_curve`` and torchmetrics' ``BinaryPrecisionAtFixedRecall``. An
    aggregation over one group's vertices, independent of their order.
    """
    p = precision(tp, fp)
    reach = tpr >= pl.lit(target, dtype=pl.Float64)
    best = p.filter(reach).max()
    top = reach & (p == best)
    recall = tpr.filter(top).max()
    return best, recall, threshold.filter(top & (tpr == recall)).min()


def recall_at_precision_of(
    tp: pl.Expr, fp: pl.Expr, tpr: pl.Expr, threshold: pl.Expr, target: float
) -> tuple[pl.Expr, pl.Expr, pl.Expr]:
    """
    The highest recall among vertices with precision at least `target`, and where.

    Recall, precision and threshold of that vertex (the highest precision among equal
    recalls).
    The start row (recall 0, precision 1) always qualifies: recall 0 when no other does,
    as torchmetrics' ``BinaryRecallAtFixedPrecision``.
    """
    p = precision(tp, fp)
    reach = p >= pl.lit(target, dtype=pl.Float64)
    best = tpr.filter(reach).max()
    top = reach & (tpr == best)
    chosen = p.filter(top).max()
    return best, chosen, threshold.filter(top & (p == chosen)).max()


def depth_cut(
    tp: pl.Expr, fp: pl.Expr, depth: float | int
) -> tuple[pl.Expr, pl.Expr, pl.Expr, pl.Expr]:
    """
    The cumulative ``tp, fp`` and the row count (weight) at the top `depth` of a group.

    The one tie rule of the gains table (``gains.gains_table``): a block of tied scores is
    taken whole or not at all, and only if the rows (or weight) at or above it fit within
    the depth, so the cut never goes deeper than asked: ``c <= depth * total`` for a
    fraction (for ``depth = 1 / bins`` exactly the gains table's ``bins * c / total <= 1``),
    ``c <= depth`` for an integer
    count. The start row (nothing selected) always fits. Returns ``tp, fp, total`` at the
    deepest fitting vertex, as Float64, and the mask of the fitting vertices. An
    aggregation over one group's vertices.
    """
    t, f = tp.cast(pl.Float64), fp.cast(pl.Float64)
    c = t + f
    total = t.max() + f.max()
    # Weights are summed in floats: a weight sum within 1e-12 (relative) of the depth fits, so
    # ten rows of weight 0.1 reach a depth of 1.0 (whole counts below 1e12 never move).
    slack = pl.lit(1.0 + 1e-12, dtype=pl.Float64)
    if isinstance(depth, int):
        fits = c <= pl.lit(float(depth), dtype=pl.Float64) * slack
    else:
        # Either rounding may say it fits (c <= depth * total holds in exact arithmetic
        # for counts far below 2**53): 0.3 is not a float, 3 rows of 10 are its depth.
        fits = (c * pl.lit(1.0 / depth, dtype=pl.Float64) <= total * slack) | (
            c <= pl.lit(depth, dtype=pl.Float64) * total * slack
        )
    return t.filter(fits).max(), f.filter(fits).max(), total, fits


def at_depth_of(
    measure: Literal["precision", "recall", "lift"], tp: pl.Expr, fp: pl.Expr, depth: float | int
) -> pl.Expr:
    """
    Precision, recall or lift of the rows at the top `depth` (:func:`depth_cut`).

    ``precision = tp / c``, ``recall = tp / P``, ``lift = tp * total / (c * P)`` (the gains
    table's ``cum_lift``); null where the denominator is 0 (nothing selected, no positive).
    """
    tp_d, fp_d, total, _ = depth_cut(tp, fp, depth)
    selected, positives = tp_d + fp_d, tp.cast(pl.Float64).max()
    if measure == "precision":
        return pl.when(selected > 0).then(tp_d / selected)
    if measure == "recall":
        return pl.when(positives > 0).then(tp_d / positives)
    return pl.when((selected > 0) & (positives > 0)).then(tp_d * total / (selected * positives))
