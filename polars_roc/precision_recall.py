"""Precision-recall and DET curves, average precision and PR AUC, read off the ROC curve.

The curves follow scikit-learn's ``precision_recall_curve`` and ``det_curve`` (1.9) row for
row: the same points, in the same order (thresholds ascending), with the same
``drop_intermediate`` rule. Where scikit-learn warns and guesses (a class absent), the
rates here are null.

Two summaries of the precision-recall curve, and they differ:

* :func:`average_precision` is the step sum ``Σ (R_n - R_{n-1}) P_n`` (scikit-learn's
  ``average_precision_score``): precision is held constant over each recall step, no
  interpolation;
* :func:`pr_auc` joins the points of :func:`pr_curve` with straight lines and takes the
  area (scikit-learn's ``auc(recall, precision)``), the final point (recall 0, precision 1)
  included. Points on such a line between two thresholds are not attainable (Davis &
  Goadrich, 2006: PR space interpolates non-linearly); where precision falls along a
  recall step the line overstates it, where it rises average precision's step is the more
  generous. The two differ either way.

The same numbers as scalar expressions: :func:`polars_roc.exprs.average_precision` and
:func:`polars_roc.exprs.pr_auc`.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from polars_roc._core import validate
from polars_roc._core.checks import NanPolicy
from polars_roc._core.columns import (
    DET_CURVE,
    PR_CURVE,
    PRECISION_AT_RECALL,
    RECALL_AT_PRECISION,
)
from polars_roc._core.counts import roc_points
from polars_roc._core.direction import Direction, directed
from polars_roc._core.frames import same_kind
from polars_roc._core.groups import is_end, per_group, summarize
from polars_roc._core.validate import By
from polars_roc._core.vertices import (
    average_precision_of,
    pr_area_of,
    precision_at_recall_of,
    recall_at_precision_of,
)

__all__ = [
    "average_precision",
    "det_curve",
    "pr_auc",
    "pr_curve",
    "precision_at_recall",
    "recall_at_precision",
]


def _keep_tp_changes(names: list[str]) -> pl.Expr:
    """scikit-learn's `drop_intermediate`: keep the ends and rows where tp changes next to them."""
    tp = pl.col("tp")
    before = per_group(tp.shift(1), names)
    after = per_group(tp.shift(-1), names)
    return is_end(names) | (tp != before) | (tp != after)


@same_kind
@directed
def pr_curve(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    drop_intermediate: bool = False,
) -> pl.LazyFrame:
    """
    Precision-recall curve per group, as scikit-learn's ``precision_recall_curve``.

    One row per distinct score, thresholds **ascending** (scikit-learn's order), with
    ``precision = tp / (tp + fp)`` and ``recall = tp / P`` of the rows scoring at or above
    the threshold; then a last row ``threshold=+inf, precision=1, recall=0``: scikit-learn's
    final point, which it returns without a threshold; here it gets ``+inf``, the threshold
    at which nothing is predicted positive (its precision 0/0 is set to 1 by that
    convention). So the columns are scikit-learn's ``precision``, ``recall`` and
    ``thresholds`` (plus ``inf``) in the same order. With `drop_intermediate`, rows whose
    true-positive count equals both neighbours' are dropped (scikit-learn's rule).

    Unlike scikit-learn, which warns and sets recall to 1 when a group has no positives,
    recall is null there; a group with a NaN score has null precision and recall.

    Parameters
    ----------
    lf
        Scored rows.
    score, label, by, weight, pos_label
        Column roles, as in :func:`polars_roc.curves.curve`: one curve per group.
    drop_intermediate
        Drop thresholds whose true-positive count equals both neighbours'.
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
        ``*by, threshold, precision, recall``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"label": [0, 0, 1, 1], "score": [0.1, 0.4, 0.35, 0.8]})
    >>> df.roc.pr_curve()
    shape: (5, 3)
    ┌───────────┬───────────┬────────┐
    │ threshold ┆ precision ┆ recall │
    │ ---       ┆ ---       ┆ ---    │
    │ f64       ┆ f64       ┆ f64    │
    ╞═══════════╪═══════════╪════════╡
    │ 0.1       ┆ 0.5       ┆ 1.0    │
    │ 0.35      ┆ 0.666667  ┆ 1.0    │
    │ 0.4       ┆ 0.5       ┆ 0.5    │
    │ 0.8       ┆ 1.0       ┆ 0.5    │
    │ inf       ┆ 1.0       ┆ 0.0    │
    └───────────┴───────────┴────────┘
    """
    names = validate.as_names(by)
    points = roc_points(lf, score, label, by=names, weight=weight, pos_label=pos_label)
    tp, fp, fn = pl.col("tp"), pl.col("fp"), pl.col("fn")
    # The start row (nothing at or above +inf) is the only one with tp + fp == 0: real rows
    # hold at least one row of positive weight.
    start = tp + fp == 0
    real = points.filter(~start)
    if drop_intermediate:
        real = real.filter(_keep_tp_changes(names))
    both = pl.concat([real, points.filter(start)], how="vertical")
    defined = fn.is_not_null()  # null totals: a NaN score in the group
    n_pos = tp + fn
    precision = pl.when(defined).then(pl.when(start).then(1.0).otherwise(tp / (tp + fp)))
    recall = pl.when(defined & (n_pos > 0)).then(tp / n_pos)
    out = both.with_columns(_start=start, precision=precision, recall=recall)
    # Ties of the Float64 threshold (integers past 2**53) ordered by the exact depth.
    keys = [*names, "_start", "threshold", tp + fp]
    descending = [False] * (len(keys) - 1) + [True]
    out = out.sort(keys, descending=descending, nulls_last=True, maintain_order=True)
    return out.select(*names, *PR_CURVE)


@same_kind
@directed
def det_curve(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    drop_intermediate: bool = False,
) -> pl.LazyFrame:
    """
    Detection error tradeoff curve per group, as scikit-learn's ``det_curve``.

    False positive rate against false negative rate (``fnr = fn / P``), thresholds
    ascending, from the highest threshold at which every positive is caught (``fnr = 0``)
    up to the lowest at which no negative is (``fpr = 0``; ``+inf`` when the top score is a
    negative's). With `drop_intermediate`, thresholds whose true-positive count equals both
    neighbours' are dropped first (scikit-learn's rule). Rates are null for a group without
    positives or negatives (where scikit-learn raises) or with a NaN score.

    Parameters
    ----------
    lf, score, label, by, weight, pos_label
        Scored rows and column roles, as in :func:`pr_curve`.
    drop_intermediate
        Drop thresholds whose true-positive count equals both neighbours'.
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
        ``*by, threshold, fpr, fnr``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"label": [0, 0, 1, 1], "score": [0.1, 0.4, 0.35, 0.8]})
    >>> df.roc.det_curve()
    shape: (3, 3)
    ┌───────────┬─────┬─────┐
    │ threshold ┆ fpr ┆ fnr │
    │ ---       ┆ --- ┆ --- │
    │ f64       ┆ f64 ┆ f64 │
    ╞═══════════╪═════╪═════╡
    │ 0.35      ┆ 0.5 ┆ 0.0 │
    │ 0.4       ┆ 0.5 ┆ 0.5 │
    │ 0.8       ┆ 0.0 ┆ 0.5 │
    └───────────┴─────┴─────┘
    """
    names = validate.as_names(by)
    points = roc_points(lf, score, label, by=names, weight=weight, pos_label=pos_label)
    if drop_intermediate:
        points = points.filter(_keep_tp_changes(names))
    tp, fp, fn = pl.col("tp"), pl.col("fp"), pl.col("fn")
    n_pos = tp + fn
    position = per_group(pl.int_range(pl.len()), names)
    size = per_group(pl.len(), names)
    # From the last row with no false positive (rows in descending threshold order) ...
    after_no_fp = (fp > 0) | (per_group(fp.shift(-1), names) > 0) | (position == size - 1)
    # ... to the first row where every positive is caught.
    before_all_tp = (tp < n_pos) | (per_group(tp.shift(1), names) < n_pos) | (position == 0)
    # A group holding a NaN score has no defined curve: all its rows stay, with null rates,
    # as in curve() and pr_curve().
    undefined = per_group(pl.col("threshold").is_nan().any(), names)
    kept = points.filter(
        (after_no_fp.fill_null(False) & before_all_tp.fill_null(False)) | undefined
    ).with_columns(fnr=pl.when(n_pos > 0).then(fn / n_pos))
    # Ties of the Float64 threshold (integers past 2**53) ordered by the exact depth.
    keys = [*names, "threshold", tp + fp]
    descending = [False] * (len(keys) - 1) + [True]
    out = kept.sort(keys, descending=descending, nulls_last=True, maintain_order=True)
    return out.select(*names, *DET_CURVE)


@same_kind
@directed
def average_precision(
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
    Average precision per group (``df.roc.average_precision``), with class counts.

    scikit-learn's ``average_precision_score``: the step sum ``Σ (R_n - R_{n-1}) P_n`` over
    the distinct thresholds, highest first, i.e. precision weighted by the recall gained at
    each threshold (no interpolation). Null for a group without positives (scikit-learn
    warns and returns 0 or a meaningless value) or with a NaN score.

    Parameters
    ----------
    lf, score, label, by, weight, pos_label
        Scored rows and column roles, as in :func:`pr_curve`.
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
        ``*by, average_precision, n_pos, n_neg``, one row per group, sorted by group.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"label": [0, 0, 1, 1], "score": [0.1, 0.4, 0.35, 0.8]})
    >>> df.roc.average_precision()
    shape: (1, 3)
    ┌───────────────────┬───────┬───────┐
    │ average_precision ┆ n_pos ┆ n_neg │
    │ ---               ┆ ---   ┆ ---   │
    │ f64               ┆ i64   ┆ i64   │
    ╞═══════════════════╪═══════╪═══════╡
    │ 0.833333          ┆ 2     ┆ 2     │
    └───────────────────┴───────┴───────┘
    """
    names = validate.as_names(by)
    points = roc_points(lf, score, label, by=names, weight=weight, pos_label=pos_label)
    tp, fp, tpr = pl.col("tp"), pl.col("fp"), pl.col("tpr")
    defined = tpr.is_not_null().all()
    summary = [
        # The kernel of the expression `pr.average_precision` too, per group in curve order.
        pl.when(defined).then(average_precision_of(tp, fp, tpr)).alias("average_precision"),
        tp.max().alias("n_pos"),  # cumulative: the last row holds every row of the group
        fp.max().alias("n_neg"),
    ]
    return summarize(points, names, summary)


@same_kind
@directed
def pr_auc(
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
    Trapezoidal area under each group's precision-recall curve (``df.roc.pr_auc``).

    The area of :func:`pr_curve` exactly as it is returned, point to point by the trapezoid
    rule (scikit-learn's ``auc(recall, precision)``); the same number as the expression
    :func:`polars_roc.exprs.pr_auc`. Null for a group without positives or with a NaN score.

    Parameters
    ----------
    lf, score, label, by, weight, pos_label
        Scored rows and column roles, as in :func:`pr_curve`.
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
        ``*by, pr_auc``, one row per group, sorted by group.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"label": [0, 0, 1, 1], "score": [0.1, 0.4, 0.35, 0.8]})
    >>> round(df.roc.pr_auc()["pr_auc"].item(), 4)
    0.7917
    """
    names = validate.as_names(by)
    if "pr_auc" in names:
        msg = "by column 'pr_auc' would collide with the output column\n\nHint: rename it."
        raise ValueError(msg)
    # Read straight off the ROC curve (the counts core, thresholds descending, the +inf
    # start row first), not off pr_curve, which re-sorts the rows ascending.
    points = roc_points(lf, score, label, by=names, weight=weight, pos_label=pos_label)
    tp, fp, tpr = pl.col("tp"), pl.col("fp"), pl.col("tpr")
    # The kernel of the expression `pr.pr_auc` too: from the start row (recall 0, precision
    # 1) down the thresholds, each step adds (R_i - R_{i-1}) times the mean of the precisions.
    area = pl.when(tpr.is_not_null().all()).then(pr_area_of(tp, fp, tpr)).alias("pr_auc")
    return summarize(points, names, [area])


@same_kind
@directed
def precision_at_recall(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    recall: float = 0.8,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.LazyFrame:
    """
    The highest precision among thresholds whose recall is at least `recall`, per group.

    The frame twin of :func:`polars_roc.exprs.precision_at_recall` (the same number, from
    the same kernel), with the recall that point reaches and its threshold (the lowest
    among points of equal precision and recall; ``+inf`` for the start row, recall 0 at
    precision 1, which counts as scikit-learn's last point does).

    Parameters
    ----------
    lf, score, label, by, weight, pos_label
        Scored rows and column roles, as in :func:`pr_curve`.
    recall
        The least recall to reach, in [0, 1].
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
        ``*by, precision, recall, threshold, n_pos, n_neg``, one row per group, sorted by
        group; null measures without positives or with a NaN score.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"label": [0, 0, 1, 1, 0, 1], "score": [0.1, 0.4, 0.35, 0.8, 0.7, 0.2]})
    >>> df.roc.precision_at_recall(recall=0.6)
    shape: (1, 5)
    ┌───────────┬────────┬───────────┬───────┬───────┐
    │ precision ┆ recall ┆ threshold ┆ n_pos ┆ n_neg │
    │ ---       ┆ ---    ┆ ---       ┆ ---   ┆ ---   │
    │ f64       ┆ f64    ┆ f64       ┆ i64   ┆ i64   │
    ╞═══════════╪════════╪═══════════╪═══════╪═══════╡
    │ 0.6       ┆ 1.0    ┆ 0.2       ┆ 3     ┆ 3     │
    └───────────┴────────┴───────────┴───────┴───────┘
    """
    (target,) = validate.rates(recall, "recall")
    names = validate.as_names(by)
    validate.no_clash(names, PRECISION_AT_RECALL)
    points = roc_points(lf, score, label, by=names, weight=weight, pos_label=pos_label)
    tp, fp, tpr = pl.col("tp"), pl.col("fp"), pl.col("tpr")
    best = precision_at_recall_of(tp, fp, tpr, pl.col("threshold"), target)
    return _summary(points, names, best, PRECISION_AT_RECALL)


@same_kind
@directed
def recall_at_precision(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    precision: float = 0.7,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.LazyFrame:
    """
    The highest recall among thresholds whose precision is at least `precision`, per group.

    The frame twin of :func:`polars_roc.exprs.recall_at_precision`, with the precision
    that point keeps and its threshold (the highest among points of equal recall and
    precision). The start row (recall 0, precision 1, threshold ``+inf``) always
    qualifies: recall 0 when no threshold keeps the precision.

    Parameters
    ----------
    lf, score, label, by, weight, pos_label
        Scored rows and column roles, as in :func:`pr_curve`.
    precision
        The least precision to keep, in [0, 1].
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
        ``*by, recall, precision, threshold, n_pos, n_neg``, one row per group, sorted by
        group; null measures without positives or with a NaN score.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"label": [0, 0, 1, 1, 0, 1], "score": [0.1, 0.4, 0.35, 0.8, 0.7, 0.2]})
    >>> df.roc.recall_at_precision(precision=0.7).select("recall", "precision", "threshold")
    shape: (1, 3)
    ┌──────────┬───────────┬───────────┐
    │ recall   ┆ precision ┆ threshold │
    │ ---      ┆ ---       ┆ ---       │
    │ f64      ┆ f64       ┆ f64       │
    ╞══════════╪═══════════╪═══════════╡
    │ 0.333333 ┆ 1.0       ┆ 0.8       │
    └──────────┴───────────┴───────────┘
    """
    (target,) = validate.rates(precision, "precision")
    names = validate.as_names(by)
    validate.no_clash(names, RECALL_AT_PRECISION)
    points = roc_points(lf, score, label, by=names, weight=weight, pos_label=pos_label)
    tp, fp, tpr = pl.col("tp"), pl.col("fp"), pl.col("tpr")
    best = recall_at_precision_of(tp, fp, tpr, pl.col("threshold"), target)
    return _summary(points, names, best, RECALL_AT_PRECISION)


def _summary(
    points: pl.LazyFrame,
    names: list[str],
    measures: tuple[pl.Expr, pl.Expr, pl.Expr],
    columns: tuple[str, ...],
) -> pl.LazyFrame:
    """One row per group: the three `measures` (null without positives), then the counts."""
    defined = pl.col("tpr").is_not_null().all()
    summary = [pl.when(defined).then(m).alias(c) for m, c in zip(measures, columns, strict=False)]
    counts = [pl.col("tp").max().alias("n_pos"), pl.col("fp").max().alias("n_neg")]
    return summarize(points, names, [*summary, *counts])
