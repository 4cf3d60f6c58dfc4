"""Business views of a score: gain and lift curves, the decile gains table, KS and Gini.

Every frame here is read off the ROC curve of :func:`polars_roc.curves.curve` (itself the
counts core: one row per group and distinct score, cumulative from the top), so no
function counts rows a second time and every number agrees with the curve. In the words of
marketing and credit scoring, with ``P`` positives and ``N`` negatives in a group:

* depth: the share of rows scoring at or above the threshold, ``(tp + fp) / (P + N)``;
* gain (cumulative response captured, sensitivity): ``tp / P`` = ``tpr``;
* lift: ``gain / depth``, how many times the positives are concentrated above the
  threshold compared with picking rows at random;
* KS: the Kolmogorov-Smirnov statistic of the two class score distributions,
  ``max(tpr - fpr)``; Gini (accuracy ratio): ``2 * AUC - 1``, the expression
  :func:`polars_roc.exprs.gini`.

Weighted rows count their weights everywhere (depth is a share of the total weight); an
integer weight k is the same as k copies of the row.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import polars as pl

from polars_roc._core import validate
from polars_roc._core.checks import NanPolicy
from polars_roc._core.columns import (
    GAIN_CURVE,
    GAINS_TABLE,
    KS,
    LIFT_AT_DEPTH,
    PRECISION_AT_DEPTH,
    RECALL_AT_DEPTH,
)
from polars_roc._core.counts import roc_points
from polars_roc._core.direction import Direction, directed
from polars_roc._core.frames import same_kind
from polars_roc._core.groups import per_group, summarize
from polars_roc._core.names import fresh
from polars_roc._core.objectives import largest_gap
from polars_roc._core.validate import By
from polars_roc._core.vertices import at_depth_of, depth_cut

__all__ = [
    "gain_curve",
    "gains_table",
    "ks",
    "lift_at_depth",
    "precision_at_depth",
    "recall_at_depth",
]


def _in_units(
    lf: pl.LazyFrame, weight: str | None, taken: Sequence[str]
) -> tuple[pl.LazyFrame, pl.LazyFrame | None]:
    """
    The rows with the weights divided by the smallest positive one, and that unit (1 row).

    Running sums of a constant weight 0.1 are not multiples of 0.1 (bins cut at
    ``bins * c / total`` and KS's tied maxima came apart); sums of 1.0 are exact. A ratio
    of weights changes no rate, so bins and KS read the weights in units of the smallest
    (a constant weight becomes 1 on every row), and weight sums are multiplied back.
    Weights that are not numbers, or the column in another role, are left to the checks.
    """
    dtype = lf.collect_schema().get(weight) if weight is not None else None
    if weight is None or dtype is None or not dtype.is_numeric() or dtype == pl.Boolean:
        return lf, None
    if weight in taken:
        return lf, None
    w = pl.col(weight).cast(pl.Float64)
    unit_name = fresh("_roc_unit", [*lf.collect_schema().names()])
    smallest = w.filter((w > 0) & w.is_finite()).min().fill_null(1.0).alias(unit_name)
    # A real column to divide by: Polars may divide by a broadcast scalar through its
    # reciprocal (0.3 * (1 / 0.3) is not 1).
    scaled = lf.with_columns(smallest).with_columns(w / pl.col(unit_name)).drop(unit_name)
    return scaled, lf.select(smallest)


def _rates(totals_defined: pl.Expr) -> dict[str, pl.Expr]:
    """Depth and gain of a curve row (``tp, fp, tn, fn``); null where undefined."""
    tp, fp, tn, fn = (pl.col(c).cast(pl.Float64) for c in ("tp", "fp", "tn", "fn"))
    total, positives = tp + fp + tn + fn, tp + fn
    depth = pl.when(totals_defined & (total > 0)).then((tp + fp) / total)
    gain = pl.when(totals_defined & (positives > 0)).then(tp / positives)
    return {"depth": depth, "gain": gain}


@same_kind
@directed
def gain_curve(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.LazyFrame:
    """
    Cumulative gain and lift per group at every distinct score, highest first.

    The cumulative gains chart (also cumulative accuracy profile, CAP) plots `gain` against
    `depth`: having contacted the top `depth` share of rows (by score), `gain` is the share
    of all positives reached. `lift` is ``gain / depth``: 1 for a random ordering. The rows
    are those of :func:`polars_roc.curves.curve`: a first row per group at
    ``threshold=+inf`` (depth 0, gain 0, lift null), a last row at depth 1, gain 1, lift 1.

    Parameters
    ----------
    lf
        Scored rows.
    score
        Numeric score column; higher means more likely positive.
    label
        Class column: Boolean, 0/1 integer, or any coding with `pos_label`.
    by
        Column name(s) to group by: one curve per group.
    weight
        Optional non-negative case weights: depth is then a share of the total weight.
    pos_label
        The positive class. Default: True for Boolean labels, 1 for 0/1 integers.
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"`` (the same as negating
        the score, with thresholds kept in score units); never guessed from the data.
    nan_policy
        NaN scores: ``"propagate"`` (default: the group's results are null), ``"omit"``
        (skipped like nulls) or ``"raise"`` (an error naming the column and the count).

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, threshold, depth, gain, lift``. `gain` and `lift` are null for a group
        without positives; everything is null for a group holding a NaN score.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.6], "label": [1, 0, 1, 0]})
    >>> df.roc.gain_curve()
    shape: (5, 4)
    ┌───────────┬───────┬──────┬──────────┐
    │ threshold ┆ depth ┆ gain ┆ lift     │
    │ ---       ┆ ---   ┆ ---  ┆ ---      │
    │ f64       ┆ f64   ┆ f64  ┆ f64      │
    ╞═══════════╪═══════╪══════╪══════════╡
    │ inf       ┆ 0.0   ┆ 0.0  ┆ null     │
    │ 0.9       ┆ 0.25  ┆ 0.5  ┆ 2.0      │
    │ 0.8       ┆ 0.5   ┆ 0.5  ┆ 1.0      │
    │ 0.7       ┆ 0.75  ┆ 1.0  ┆ 1.333333 │
    │ 0.6       ┆ 1.0   ┆ 1.0  ┆ 1.0      │
    └───────────┴───────┴──────┴──────────┘
    """
    names = validate.as_names(by)
    validate.no_clash(names, GAIN_CURVE)
    points = roc_points(lf, score, label, by=names, weight=weight, pos_label=pos_label)
    defined = pl.col("tn").is_not_null()  # null totals: a NaN score in the group
    rates = _rates(defined)
    depth, gain = pl.col("depth"), pl.col("gain")
    return (
        points.with_columns(**rates)
        .with_columns(lift=pl.when(depth > 0).then(gain / depth))
        .select(*names, *GAIN_CURVE)
    )


@same_kind
@directed
def gains_table(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    bins: int = 10,
) -> pl.LazyFrame:
    """
    The gains (lift, decile) table: rows cut into `bins` bins of equal size from the top.

    Rows are ordered by score, highest first; bin ``b`` (1 = the top scores) holds the rows
    whose cumulative count from the top, ``c``, satisfies ``ceil(bins * c / total) = b``,
    where ``c`` counts every row scoring **at or above** the row's score. So tied scores are
    never split across bins: a block of tied scores goes, whole, to the bin in which its
    last row falls (scikit-learn has no gains table; this is the rule of R's ``gains``
    package with ``ties.method="min"``, and, on untied scores, its default). A bin edge
    therefore falls on a tie only by moving to the end of the tied block: each bin's
    cumulative `depth` lies in ``((b - 1) / bins, b / bins]``, never above its nominal
    depth, and a bin swallowed by a large tied block is empty and left out (so `bin` may
    skip numbers; with fewer distinct scores than bins each score is its own bin). With
    weights, counts are weight sums and the bins hold equal shares of the total weight.

    Columns: `n` and `n_pos` the rows and positives in the bin; ``response_rate = n_pos /
    n``; the cumulative `depth` (share of rows in this bin or above) and `gain` (share of
    positives in this bin or above); ``lift = response_rate / (P / total)`` the bin's own
    lift; ``cum_lift = gain / depth``; ``ks = tpr - fpr`` at the bin's lowest score (the
    difference of the cumulative shares of positives and negatives).

    Parameters
    ----------
    lf
        Scored rows (a LazyFrame, or a DataFrame).
    score, label, by, weight, pos_label
        Column roles, as in :func:`gain_curve`: one table per group.
    bins
        Number of bins (10: deciles; 20: ventiles), at least 1.
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"`` (the same as negating
        the score, with thresholds kept in score units); never guessed from the data.
    nan_policy
        NaN scores: ``"propagate"`` (default: the group's results are null), ``"omit"``
        (skipped like nulls) or ``"raise"`` (an error naming the column and the count).

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, bin, min_score, max_score, n, n_pos, response_rate, depth, gain, lift,
        cum_lift, ks``, bins in order from the top. `gain`, `lift` and `cum_lift` are null
        for a group without positives, `ks` for a group without positives or negatives; a
        group holding a NaN score has one row, with a null `bin` and null measures.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {
    ...         "score": [0.9, 0.8, 0.8, 0.7, 0.5, 0.4, 0.3, 0.2],
    ...         "label": [1, 1, 0, 1, 0, 1, 0, 0],
    ...     }
    ... )
    >>> df.roc.gains_table(bins=4).select("bin", "max_score", "n", "n_pos", "gain", "cum_lift")
    shape: (4, 6)
    ┌─────┬───────────┬─────┬───────┬──────┬──────────┐
    │ bin ┆ max_score ┆ n   ┆ n_pos ┆ gain ┆ cum_lift │
    │ --- ┆ ---       ┆ --- ┆ ---   ┆ ---  ┆ ---      │
    │ i64 ┆ f64       ┆ i64 ┆ i64   ┆ f64  ┆ f64      │
    ╞═════╪═══════════╪═════╪═══════╪══════╪══════════╡
    │ 1   ┆ 0.9       ┆ 1   ┆ 1     ┆ 0.25 ┆ 2.0      │
    │ 2   ┆ 0.8       ┆ 3   ┆ 2     ┆ 0.75 ┆ 1.5      │
    │ 3   ┆ 0.5       ┆ 2   ┆ 1     ┆ 1.0  ┆ 1.333333 │
    │ 4   ┆ 0.3       ┆ 2   ┆ 0     ┆ 1.0  ┆ 1.0      │
    └─────┴───────────┴─────┴───────┴──────┴──────────┘

    The two rows tied at 0.8 (the 2nd and 3rd from the top) straddle the edge between
    bins 1 and 2: both go to bin 2, where the tie ends, so bin 1 holds one row.
    """
    validate.whole(bins, "bins", hint="bins=10 for deciles")
    names = validate.as_names(by)
    validate.no_clash(names, GAINS_TABLE)
    lf, unit = _in_units(lf, weight, [score, label, *names])
    points = roc_points(lf, score, label, by=names, weight=weight, pos_label=pos_label)
    tp, fp, tn, fn = (pl.col(c).cast(pl.Float64) for c in ("tp", "fp", "tn", "fn"))
    total = tp + fp + tn + fn
    # (bins * c) / total is exact for counts (and integer weights) below 2**53, so a row
    # that ends a bin exactly (c = b * total / bins) lands in bin b, never b + 1.
    bin_ = (
        (pl.lit(float(bins)) * (tp + fp) / total).ceil().clip(1, bins).cast(pl.Int64).alias("bin")
    )
    real = points.filter(pl.col("tp") + pl.col("fp") > 0)  # not the +inf start row
    blocks = real.with_columns(bin_)
    summary = blocks.group_by(*names, "bin").agg(
        min_score=pl.col("threshold").min(),
        max_score=pl.col("threshold").max(),
        _tp=pl.col("tp").max(),  # cumulative counts: the bin's last row holds the most
        _fp=pl.col("fp").max(),
        _positives=(pl.col("tp") + pl.col("fn")).first(),
        _negatives=(pl.col("fp") + pl.col("tn")).first(),
    )
    ordered = summary.sort([*names, "bin"], nulls_last=True, maintain_order=True)
    zero = pl.lit(0, dtype=ordered.collect_schema()["_tp"])

    def previous(column: str) -> pl.Expr:
        return per_group(pl.col(column).shift(1), names).fill_null(zero)

    cum_tp, cum_fp = pl.col("_tp"), pl.col("_fp")
    positives, negatives = pl.col("_positives"), pl.col("_negatives")
    defined = pl.col("bin").is_not_null()
    n = pl.when(defined).then(cum_tp + cum_fp - previous("_tp") - previous("_fp"))
    n_pos = pl.when(defined).then(cum_tp - previous("_tp"))
    everything = positives + negatives
    with_counts = ordered.with_columns(n=n, n_pos=n_pos)
    f = {c: pl.col(c).cast(pl.Float64) for c in ("n", "n_pos", "_tp", "_fp")}
    p, q, t = positives.cast(pl.Float64), negatives.cast(pl.Float64), everything.cast(pl.Float64)
    has_pos, has_neg = defined & (p > 0), defined & (q > 0)
    response_rate = pl.when(f["n"] > 0).then(f["n_pos"] / f["n"])
    depth = pl.when(defined).then((f["_tp"] + f["_fp"]) / t)
    gain = pl.when(has_pos).then(f["_tp"] / p)
    # The bin's lift: its response rate over the group's, n_pos * total / (n * P).
    lift = pl.when(has_pos & (f["n"] > 0)).then(f["n_pos"] * t / (f["n"] * p))
    cum_lift = pl.when(has_pos).then(f["_tp"] * t / ((f["_tp"] + f["_fp"]) * p))
    ks = pl.when(has_pos & has_neg).then(f["_tp"] / p - f["_fp"] / q)
    measures = with_counts.with_columns(
        response_rate=response_rate,
        depth=depth,
        gain=gain,
        lift=lift,
        cum_lift=cum_lift,
        ks=ks,
    )
    if unit is not None:  # weight sums back in the weight's own units
        factor = unit.collect_schema().names()[0]
        measures = measures.join(unit, how="cross").with_columns(
            pl.col("n", "n_pos") * pl.col(factor)
        )
    return measures.select(*names, *GAINS_TABLE)


@same_kind
@directed
def ks(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.LazyFrame:
    """
    The Kolmogorov-Smirnov statistic per group: ``max(tpr - fpr)`` and where it is reached.

    The largest gap between the cumulative score distributions of the positives and the
    negatives, read from the top: ``D = max_t (P(score >= t | positive) - P(score >= t |
    negative))``, which is the largest vertical distance of the ROC curve above the
    diagonal (Youden's J at its best). The maximum is taken over the curve's thresholds,
    the ``+inf`` start row included, so `ks` is at least 0 (a score ordering the classes
    the wrong way round everywhere gives 0 at ``threshold=+inf``; score ``direction``
    decides which way is right, it is never guessed). Among thresholds reaching the
    maximum, the highest is given. With weights, the distributions are weighted.

    Parameters
    ----------
    lf
        Scored rows (a LazyFrame, or a DataFrame).
    score, label, by, weight, pos_label
        Column roles, as in :func:`gain_curve`: one row per group.
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"`` (the same as negating
        the score, with thresholds kept in score units); never guessed from the data.
    nan_policy
        NaN scores: ``"propagate"`` (default: the group's results are null), ``"omit"``
        (skipped like nulls) or ``"raise"`` (an error naming the column and the count).

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, ks, threshold``, sorted by group; both null for a group without positives or
        negatives, or with a NaN score.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.6, 0.5], "label": [1, 1, 0, 1, 0]})
    >>> df.roc.ks()
    shape: (1, 2)
    ┌──────────┬───────────┐
    │ ks       ┆ threshold │
    │ ---      ┆ ---       │
    │ f64      ┆ f64       │
    ╞══════════╪═══════════╡
    │ 0.666667 ┆ 0.8       │
    └──────────┴───────────┘
    """
    names = validate.as_names(by)
    validate.no_clash(names, KS)
    lf = _in_units(lf, weight, [score, label, *names])[0]  # ties of tpr - fpr stay exact
    points = roc_points(lf, score, label, by=names, weight=weight, pos_label=pos_label)
    return largest_gap(points, names)


@same_kind
@directed
def precision_at_depth(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    depth: float = 0.1,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.LazyFrame:
    """
    Precision (share of positives) among the top `depth` of the rows, per group.

    The frame twin of :func:`polars_roc.exprs.precision_at_depth` (the same number, from the same
    kernel), with the depth reached and the lowest threshold taken (``+inf`` when nothing
    is). `depth` is a fraction of the rows in (0, 1] (a float) or a number of rows (an
    int); with weights, a share or amount of the total weight. Tied scores at the cut are
    taken whole or not at all, the gains table's rule (:func:`gains_table`), so the depth
    reached never exceeds the depth asked.

    Parameters
    ----------
    lf, score, label, by, weight, pos_label
        Scored rows and column roles, as in :func:`gain_curve`.
    depth
        The top share of rows (0.1: the first decile) or, as an integer, a count of rows.
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"`` (the same as negating
        the score, with thresholds kept in score units); never guessed from the data.
    nan_policy
        NaN scores: ``"propagate"`` (default: the group's results are null), ``"omit"``
        (skipped like nulls) or ``"raise"`` (an error naming the column and the count).

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, precision, depth, threshold, n_pos, n_neg``, one row per group, sorted by
        group; null `precision` when nothing is taken (the top tied block is deeper than
        `depth`) or with a NaN score.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"label": [1, 0, 1, 0, 0, 1, 0, 0, 0, 0], "score": range(10, 0, -1)})
    >>> df.roc.precision_at_depth(depth=0.3)
    shape: (1, 5)
    ┌───────────┬───────┬───────────┬───────┬───────┐
    │ precision ┆ depth ┆ threshold ┆ n_pos ┆ n_neg │
    │ ---       ┆ ---   ┆ ---       ┆ ---   ┆ ---   │
    │ f64       ┆ f64   ┆ f64       ┆ i64   ┆ i64   │
    ╞═══════════╪═══════╪═══════════╪═══════╪═══════╡
    │ 0.666667  ┆ 0.3   ┆ 8.0       ┆ 3     ┆ 7     │
    └───────────┴───────┴───────────┴───────┴───────┘
    """
    return _at_depth(
        "precision", lf, score, label, depth, by, weight, pos_label, PRECISION_AT_DEPTH
    )


@same_kind
@directed
def recall_at_depth(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    depth: float = 0.1,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.LazyFrame:
    """
    Recall (share of all positives) captured by the top `depth` of the rows, per group.

    The frame twin of :func:`polars_roc.exprs.recall_at_depth` (the same number, from the same
    kernel), with the depth reached and the lowest threshold taken (``+inf`` when nothing
    is). `depth` is a fraction of the rows in (0, 1] (a float) or a number of rows (an
    int); with weights, a share or amount of the total weight. Tied scores at the cut are
    taken whole or not at all, the gains table's rule (:func:`gains_table`), so the depth
    reached never exceeds the depth asked. It is the gains table's `gain` at that depth.

    Parameters
    ----------
    lf, score, label, by, weight, pos_label
        Scored rows and column roles, as in :func:`gain_curve`.
    depth
        The top share of rows (0.1: the first decile) or, as an integer, a count of rows.
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"`` (the same as negating
        the score, with thresholds kept in score units); never guessed from the data.
    nan_policy
        NaN scores: ``"propagate"`` (default: the group's results are null), ``"omit"``
        (skipped like nulls) or ``"raise"`` (an error naming the column and the count).

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, recall, depth, threshold, n_pos, n_neg``, one row per group, sorted by
        group; null `recall` without positives or with a NaN score.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"label": [1, 0, 1, 0, 0, 1, 0, 0, 0, 0], "score": range(10, 0, -1)})
    >>> df.roc.recall_at_depth(depth=0.3)
    shape: (1, 5)
    ┌──────────┬───────┬───────────┬───────┬───────┐
    │ recall   ┆ depth ┆ threshold ┆ n_pos ┆ n_neg │
    │ ---      ┆ ---   ┆ ---       ┆ ---   ┆ ---   │
    │ f64      ┆ f64   ┆ f64       ┆ i64   ┆ i64   │
    ╞══════════╪═══════╪═══════════╪═══════╪═══════╡
    │ 0.666667 ┆ 0.3   ┆ 8.0       ┆ 3     ┆ 7     │
    └──────────┴───────┴───────────┴───────┴───────┘
    """
    return _at_depth("recall", lf, score, label, depth, by, weight, pos_label, RECALL_AT_DEPTH)


@same_kind
@directed
def lift_at_depth(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    depth: float = 0.1,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.LazyFrame:
    """
    Lift of the top `depth` of the rows (their precision over the base rate), per group.

    The frame twin of :func:`polars_roc.exprs.lift_at_depth` (the same number, from the same
    kernel), with the depth reached and the lowest threshold taken (``+inf`` when nothing
    is). `depth` is a fraction of the rows in (0, 1] (a float) or a number of rows (an
    int); with weights, a share or amount of the total weight. Tied scores at the cut are
    taken whole or not at all, the gains table's rule (:func:`gains_table`), so the depth
    reached never exceeds the depth asked. At ``depth=1 / bins`` it is the first row's
    ``cum_lift`` of ``gains_table(bins=bins)``.

    Parameters
    ----------
    lf, score, label, by, weight, pos_label
        Scored rows and column roles, as in :func:`gain_curve`.
    depth
        The top share of rows (0.1: the first decile) or, as an integer, a count of rows.
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"`` (the same as negating
        the score, with thresholds kept in score units); never guessed from the data.
    nan_policy
        NaN scores: ``"propagate"`` (default: the group's results are null), ``"omit"``
        (skipped like nulls) or ``"raise"`` (an error naming the column and the count).

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, lift, depth, threshold, n_pos, n_neg``, one row per group, sorted by
        group; null `lift` when nothing is taken, without positives, or with a NaN
        score.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"label": [1, 0, 1, 0, 0, 1, 0, 0, 0, 0], "score": range(10, 0, -1)})
    >>> df.roc.lift_at_depth(depth=0.3)
    shape: (1, 5)
    ┌──────────┬───────┬───────────┬───────┬───────┐
    │ lift     ┆ depth ┆ threshold ┆ n_pos ┆ n_neg │
    │ ---      ┆ ---   ┆ ---       ┆ ---   ┆ ---   │
    │ f64      ┆ f64   ┆ f64       ┆ i64   ┆ i64   │
    ╞══════════╪═══════╪═══════════╪═══════╪═══════╡
    │ 2.222222 ┆ 0.3   ┆ 8.0       ┆ 3     ┆ 7     │
    └──────────┴───────┴───────────┴───────┴───────┘
    """
    return _at_depth("lift", lf, score, label, depth, by, weight, pos_label, LIFT_AT_DEPTH)


def _at_depth(
    measure: Literal["precision", "recall", "lift"],
    lf: pl.LazyFrame,
    score: str,
    label: str,
    depth: float,
    by: By,
    weight: str | None,
    pos_label: Any,
    columns: tuple[str, ...],
) -> pl.LazyFrame:
    """The kernel of the three depth measures: one row per group off the curve."""
    cut = validate.depth(depth)
    names = validate.as_names(by)
    validate.no_clash(names, columns)
    points = roc_points(lf, score, label, by=names, weight=weight, pos_label=pos_label)
    tp, fp = pl.col("tp"), pl.col("fp")
    tp_d, fp_d, total, fits = depth_cut(tp, fp, cut)
    defined = pl.col("tn").is_not_null().all()  # null totals: a NaN score in the group
    summary = [
        pl.when(defined).then(at_depth_of(measure, tp, fp, cut)).alias(measure),
        pl.when(defined & (total > 0)).then((tp_d + fp_d) / total).alias("depth"),
        pl.when(defined).then(pl.col("threshold").filter(fits).min()).alias("threshold"),
        tp.max().alias("n_pos"),  # cumulative: the last row holds every row of the group
        fp.max().alias("n_neg"),
    ]
    return summarize(points, names, summary)
