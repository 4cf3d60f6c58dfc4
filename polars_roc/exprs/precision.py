"""Scalar expressions of the precision-recall curve: average precision and the PR AUC.

Two summaries of the precision-recall curve, and they differ: :func:`average_precision`
is the step sum ``Σ (R_n - R_{n-1}) P_n`` (scikit-learn's ``average_precision_score``);
:func:`pr_auc` joins the points of the curve with straight lines (scikit-learn's
``auc(recall, precision)``). Their frame twins are ``df.roc.average_precision`` and
``df.roc.pr_auc`` (:mod:`polars_roc.precision_recall`).

Examples
--------
>>> import polars as pl
>>> import polars_roc as pr
>>> df = pl.DataFrame({"g": [1, 1, 1, 1], "y": [0, 0, 1, 1], "p": [0.1, 0.4, 0.35, 0.8]})
>>> df.group_by("g").agg(pr.average_precision("p", "y").round(4))["average_precision"].item()
0.8333
"""

from __future__ import annotations

from typing import Any

import polars as pl
from polars._typing import IntoExprColumn

from polars_roc._core.checks import NanPolicy, is_nan
from polars_roc._core.direction import Direction, expression
from polars_roc._core.kernels import Rows, class_totals, rows


def _average_precision_of(r: Rows) -> pl.Expr:
    """Average precision of prepared rows; null without positives or with a NaN score."""
    order = {"descending": True}
    y = r.positive.sort_by(r.score, **order)
    s = r.score.sort(**order)
    if r.weight is None:
        w_pos = y.cast(pl.Int64)
        w_neg = (~y).cast(pl.Int64)
    else:
        w = r.weight.sort_by(r.score, **order)
        w_pos, w_neg = w * y, w * ~y
    tp, fp = w_pos.cum_sum(), w_neg.cum_sum()
    # Precision at each distinct score: read at the last row of its block of ties.
    block_end = (s != s.shift(-1)).fill_null(True)
    precision = pl.when(block_end).then(tp / (tp + fp)).backward_fill()
    n_pos, _ = class_totals(r)
    ap = (w_pos * precision).sum() / n_pos
    defined = (n_pos > 0) & ~is_nan(r.score).any()
    return pl.when(defined).then(ap)


def average_precision(
    score: IntoExprColumn,
    label: IntoExprColumn,
    *,
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.Expr:
    """
    Average precision as a scalar expression (scikit-learn's ``average_precision_score``).

    ``Σ (R_n - R_{n-1}) P_n`` over the distinct scores, highest first: each positive
    contributes the precision at its score (ties form one threshold), weighted by its share
    of the positives. Null when there is no positive or a NaN score. Rows with a null score,
    label or weight are skipped; a weight of 0 drops the row.

    Parameters
    ----------
    score
        Numeric score column (name or expression); higher means more likely positive.
    label
        Class column: Boolean, 0/1 integer, or any coding with `pos_label`.
    weight
        Optional non-negative case weights.
    pos_label
        The positive class. Default: True for Boolean labels, 1 for 0/1 integers.
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"`` (the same as negating
        the score); never guessed from the data.
    nan_policy
        NaN scores: ``"propagate"`` (default: the result is null), ``"omit"`` (skipped like
        nulls) or ``"raise"`` (an error naming the column and the count, when the query runs).

    Returns
    -------
    pl.Expr
        A Float64 scalar named ``average_precision``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "p": [0.1, 0.4, 0.35, 0.8]})
    >>> round(df.select(pr.average_precision("p", "y")).item(), 6)
    0.833333
    >>> round(df.select(pl.col("p").roc.average_precision("y")).item(), 6)
    0.833333
    """
    r = rows(
        expression(score, direction),
        label,
        weight=weight,
        pos_label=pos_label,
        nan_policy=nan_policy,
    )
    return _average_precision_of(r).alias("average_precision")


def _pr_auc_of(r: Rows) -> pl.Expr:
    """Trapezoidal PR area of prepared rows; null without positives or with a NaN score."""
    fields = [r.score.alias("s"), r.positive.alias("y")]
    if r.weight is not None:
        fields.append(r.weight.alias("w"))
    # Packed once, sorted by score descending: inside `list.eval` each reference to the rows
    # reads the packed values instead of coding the rows again (3x faster at 1M rows).
    packed = pl.struct(fields).sort_by(r.score, descending=True).implode()
    area = packed.list.eval(_pr_area_of_sorted(weighted=r.weight is not None))
    return area.list.first()


def _pr_area_of_sorted(*, weighted: bool) -> pl.Expr:
    """The trapezoidal area of packed rows (fields s, y, w) sorted by score, descending."""
    row = pl.element().struct
    s, y = row.field("s"), row.field("y")
    if weighted:
        w = row.field("w")
        w_pos, w_neg = w * y, w * ~y
    else:
        w_pos, w_neg = y.cast(pl.Int64), (~y).cast(pl.Int64)
    tp, fp = w_pos.cum_sum(), w_neg.cum_sum()
    n_pos = tp.last()  # scikit-learn divides by the last cumulative count
    # One point per distinct score, read at the last row of its block of ties.
    block_end = (s != s.shift(-1)).fill_null(value=True)
    recall = (tp / n_pos).filter(block_end)
    precision = (tp / (tp + fp)).filter(block_end)
    # From the point (recall 0, precision 1) at the top, down the thresholds.
    step = recall - recall.shift(1).fill_null(0.0)
    height = (precision + precision.shift(1).fill_null(1.0)) / 2
    defined = (n_pos > 0) & ~is_nan(s).any()
    return pl.when(defined).then((step * height).sum())


def pr_auc(
    score: IntoExprColumn,
    label: IntoExprColumn,
    *,
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.Expr:
    """
    Trapezoidal area under the precision-recall curve, as a scalar expression.

    The points of :func:`polars_roc.precision_recall.pr_curve` as it returns them (one per
    distinct score, plus recall 0 at precision 1) joined by straight lines: scikit-learn's
    ``auc(recall, precision)`` of ``precision_recall_curve``. :func:`average_precision`
    sums steps instead (precision held constant over each recall step), so the two differ;
    see the example. Null when there is no positive or a NaN score. Rows with a null score,
    label or weight are skipped; a weight of 0 drops the row.

    Parameters
    ----------
    score
        Numeric score column (name or expression); higher means more likely positive.
    label
        Class column: Boolean, 0/1 integer, or any coding with `pos_label`.
    weight
        Optional non-negative case weights.
    pos_label
        The positive class. Default: True for Boolean labels, 1 for 0/1 integers.
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"`` (the same as negating
        the score); never guessed from the data.
    nan_policy
        NaN scores: ``"propagate"`` (default: the result is null), ``"omit"`` (skipped like
        nulls) or ``"raise"`` (an error naming the column and the count, when the query runs).

    Returns
    -------
    pl.Expr
        A Float64 scalar named ``pr_auc``.

    Examples
    --------
    The curve passes through (recall, precision) = (0, 1), (0.5, 1), (0.5, 0.5), (1, 2/3),
    (1, 0.5). Average precision counts the recall gained at each threshold at that
    threshold's precision: 0.5 * 1 + 0.5 * 2/3 = 0.8333. The trapezoidal area also counts
    the straight line from (0.5, 0.5) up to (1, 2/3): 0.5 * 1 + 0.5 * (0.5 + 2/3) / 2 =
    0.7917; here it is the smaller, because precision rises along that step.

    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "p": [0.1, 0.4, 0.35, 0.8]})
    >>> df.select(pr.average_precision("p", "y").round(4), pr.pr_auc("p", "y").round(4))
    shape: (1, 2)
    ┌───────────────────┬────────┐
    │ average_precision ┆ pr_auc │
    │ ---               ┆ ---    │
    │ f64               ┆ f64    │
    ╞═══════════════════╪════════╡
    │ 0.8333            ┆ 0.7917 │
    └───────────────────┴────────┘
    """
    r = rows(
        expression(score, direction),
        label,
        weight=weight,
        pos_label=pos_label,
        nan_policy=nan_policy,
    )
    return _pr_auc_of(r).alias("pr_auc")
