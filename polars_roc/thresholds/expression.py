"""Points of the ROC curve as scalar expressions: KS, TPR at a fixed FPR, FPR at a fixed TPR.

Each is valid in `select`, `group_by().agg()`, `over()`, `group_by_dynamic()` and the
streaming engine, and gives its frame method's number (``df.roc.ks``, ``df.roc.tpr_at_fpr``,
``df.roc.fpr_at_tpr``) from the same kernels (:mod:`polars_roc._core.vertices`), read off
the same vertices as ``df.roc.curve``.

Examples
--------
>>> import polars as pl
>>> import polars_roc as pr
>>> df = pl.DataFrame(
...     {"g": [*"aaaaabbbb"], "p": [9, 8, 7, 6, 5, 4, 3, 2, 1], "y": [1, 1, 0, 1, 0, 0, 1, 0, 1]}
... )
>>> df.group_by("g", maintain_order=True).agg(pr.ks("p", "y"), pr.tpr_at_fpr("p", "y", fpr=0.5))
shape: (2, 3)
┌─────┬──────────┬─────┐
│ g   ┆ ks       ┆ tpr │
│ --- ┆ ---      ┆ --- │
│ str ┆ f64      ┆ f64 │
╞═════╪══════════╪═════╡
│ a   ┆ 0.666667 ┆ 1.0 │
│ b   ┆ 0.0      ┆ 0.5 │
└─────┴──────────┴─────┘
"""

from __future__ import annotations

from typing import Any, Literal

import polars as pl
from polars._typing import IntoExprColumn

from polars_roc._core import validate
from polars_roc._core.checks import NanPolicy
from polars_roc._core.direction import Direction, expression
from polars_roc._core.kernels import rows
from polars_roc._core.vertices import exact_gap, field, read_at, scalar, vertices

__all__ = ["fpr_at_tpr", "ks", "tpr_at_fpr"]


def _vertices(
    score: IntoExprColumn,
    label: IntoExprColumn,
    weight: IntoExprColumn | None,
    pos_label: Any,
    direction: Direction,
    nan_policy: NanPolicy,
) -> pl.Expr:
    r = rows(
        expression(score, direction),
        label,
        weight=weight,
        pos_label=pos_label,
        nan_policy=nan_policy,
    )
    return vertices(r)


def ks(
    score: IntoExprColumn,
    label: IntoExprColumn,
    *,
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.Expr:
    """
    The Kolmogorov-Smirnov statistic ``max(tpr - fpr)`` as a scalar expression.

    The ``ks`` of ``df.roc.ks``: the largest gap between the class score distributions read
    from the top, over the curve's thresholds (the ``+inf`` start row included, so at least
    0); the gaps are ranked exactly (``tp * N - fp * P`` in integer counts) and, among equal
    ones, the highest threshold's ``tpr - fpr`` is given. Null without positives or
    negatives, or with a NaN score.

    Parameters
    ----------
    score
        Numeric score column (name or expression); higher means more likely positive.
    label
        Class column: Boolean, 0/1 integer, or any coding with `pos_label`.
    weight
        Optional non-negative case weights (the distributions are weighted).
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
        A Float64 scalar named ``ks``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.6, 0.5], "label": [1, 1, 0, 1, 0]})
    >>> round(df.select(pr.ks("score", "label")).item(), 6)
    0.666667
    >>> round(df.roc.ks()["ks"].item(), 6)
    0.666667
    """
    tp, fp = field("tp").cast(pl.Float64), field("fp").cast(pl.Float64)
    n_pos, n_neg = tp.max(), fp.max()
    # As the frame method's optimum (_core.objectives.youden): one division of the largest
    # (tp * N - fp * P) by P * N, so equal gaps are equal floats.
    gap = exact_gap(tp, fp, n_pos, n_neg)
    value = pl.when((n_pos > 0) & (n_neg > 0)).then(gap.max() / (n_pos * n_neg))
    points = _vertices(score, label, weight, pos_label, direction, nan_policy)
    return scalar(points, value).alias("ks")


def _read(
    along: Literal["fpr", "tpr"],
    target: float,
    score: IntoExprColumn,
    label: IntoExprColumn,
    weight: IntoExprColumn | None,
    pos_label: Any,
    direction: Direction,
    nan_policy: NanPolicy,
) -> pl.Expr:
    (value,) = validate.rates(target, along)
    x, y = (field("fpr"), field("tpr")) if along == "fpr" else (field("tpr"), field("fpr"))
    points = _vertices(score, label, weight, pos_label, direction, nan_policy)
    return scalar(points, read_at(x, y, value, along)).alias("tpr" if along == "fpr" else "fpr")


def tpr_at_fpr(
    score: IntoExprColumn,
    label: IntoExprColumn,
    *,
    fpr: float,
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.Expr:
    """
    The TPR the ROC curve reaches at a false positive rate, as a scalar expression.

    The ``tpr`` of ``df.roc.tpr_at_fpr(fpr=fpr)``: linear between the curve's vertices and,
    where the curve is vertical at the target, the largest TPR there (the best attainable).
    Null without positives or negatives, or with a NaN score.

    Parameters
    ----------
    score, label, weight, pos_label
        Column roles, as in :func:`ks`.
    fpr
        The target false positive rate, in [0, 1] (one number: one expression per target).
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"`` (the same as negating
        the score); never guessed from the data.
    nan_policy
        NaN scores: ``"propagate"`` (default: the result is null), ``"omit"`` (skipped like
        nulls) or ``"raise"`` (an error naming the column and the count, when the query runs).

    Returns
    -------
    pl.Expr
        A Float64 scalar named ``tpr``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.6, 0.5], "label": [1, 1, 0, 1, 0]})
    >>> [round(df.select(pr.tpr_at_fpr("score", "label", fpr=f)).item(), 6) for f in (0, 0.25, 0.5)]
    [0.666667, 0.666667, 1.0]
    """
    return _read("fpr", fpr, score, label, weight, pos_label, direction, nan_policy)


def fpr_at_tpr(
    score: IntoExprColumn,
    label: IntoExprColumn,
    *,
    tpr: float,
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.Expr:
    """
    The FPR at which the ROC curve reaches a true positive rate, as a scalar expression.

    The ``fpr`` of ``df.roc.fpr_at_tpr(tpr=tpr)``: linear between the curve's vertices and,
    where the curve is horizontal at the target, the smallest FPR there (the best
    attainable). Null without positives or negatives, or with a NaN score.

    Parameters
    ----------
    score, label, weight, pos_label
        Column roles, as in :func:`ks`.
    tpr
        The target true positive rate, in [0, 1] (one number: one expression per target).
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"`` (the same as negating
        the score); never guessed from the data.
    nan_policy
        NaN scores: ``"propagate"`` (default: the result is null), ``"omit"`` (skipped like
        nulls) or ``"raise"`` (an error naming the column and the count, when the query runs).

    Returns
    -------
    pl.Expr
        A Float64 scalar named ``fpr``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.6, 0.5], "label": [1, 1, 0, 1, 0]})
    >>> df.select(pr.fpr_at_tpr("score", "label", tpr=1.0)).item()
    0.5
    """
    return _read("tpr", tpr, score, label, weight, pos_label, direction, nan_policy)
