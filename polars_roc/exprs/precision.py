"""Scalar expressions of the precision-recall curve: average precision and the PR AUC.

Two summaries of the precision-recall curve, and they differ: :func:`average_precision`
is the step sum ``Σ (R_n - R_{n-1}) P_n`` (scikit-learn's ``average_precision_score``);
:func:`pr_auc` joins the points of the curve with straight lines (scikit-learn's
``auc(recall, precision)``). Their frame twins are ``df.roc.average_precision`` and
``df.roc.pr_auc`` (:mod:`polars_roc.precision_recall`), which read the same kernels off
``df.roc.curve``.

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

from polars_roc._core import validate
from polars_roc._core.checks import NanPolicy
from polars_roc._core.direction import Direction, expression
from polars_roc._core.kernels import rows
from polars_roc._core.vertices import (
    average_precision_of,
    field,
    pr_area_of,
    precision_at_recall_of,
    recall_at_precision_of,
    scalar,
    vertices,
)

__all__ = ["average_precision", "pr_auc", "precision_at_recall", "recall_at_precision"]


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
    kernel = average_precision_of(field("tp"), field("fp"), field("tpr"))
    return scalar(vertices(r), kernel, needs=("tpr",)).alias("average_precision")


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
    kernel = pr_area_of(field("tp"), field("fp"), field("tpr"))
    return scalar(vertices(r), kernel, needs=("tpr",)).alias("pr_auc")


def precision_at_recall(
    score: IntoExprColumn,
    label: IntoExprColumn,
    *,
    recall: float = 0.8,
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.Expr:
    """
    The highest precision among thresholds whose recall is at least `recall`.

    Read off the precision-recall points of every distinct score (scikit-learn's
    ``precision_recall_curve``, its last point recall 0 at precision 1 included): the
    convention of torchmetrics' ``BinaryPrecisionAtFixedRecall``. The frame twin
    ``df.roc.precision_at_recall`` adds the recall reached and the threshold. Null when
    there is no positive or a NaN score. Rows with a null score, label or weight are
    skipped; a weight of 0 drops the row.

    Parameters
    ----------
    score
        Numeric score column (name or expression); higher means more likely positive.
    label
        Class column: Boolean, 0/1 integer, or any coding with `pos_label`.
    recall
        The least recall (true positive rate) to reach, in [0, 1].
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
        A Float64 scalar named ``precision``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1, 0, 1], "p": [0.1, 0.4, 0.35, 0.8, 0.7, 0.2]})
    >>> round(df.select(pr.precision_at_recall("p", "y", recall=0.6)).item(), 6)
    0.6
    >>> round(df.select(pl.col("p").roc.precision_at_recall("y", recall=0.3)).item(), 6)
    1.0
    """
    (target,) = validate.rates(recall, "recall")
    r = rows(
        expression(score, direction),
        label,
        weight=weight,
        pos_label=pos_label,
        nan_policy=nan_policy,
    )
    kernel = precision_at_recall_of(
        field("tp"), field("fp"), field("tpr"), field("threshold"), target
    )[0]
    return scalar(vertices(r), kernel, needs=("tpr",)).alias("precision")


def recall_at_precision(
    score: IntoExprColumn,
    label: IntoExprColumn,
    *,
    precision: float = 0.7,
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.Expr:
    """
    The highest recall among thresholds whose precision is at least `precision`.

    Read off the same precision-recall points as :func:`precision_at_recall`; the point
    (recall 0, precision 1) always qualifies, so the result is 0 when no threshold reaches
    the precision (torchmetrics' ``BinaryRecallAtFixedPrecision``). The frame twin
    ``df.roc.recall_at_precision`` adds the precision reached and the threshold. Null when
    there is no positive or a NaN score. Rows with a null score, label or weight are
    skipped; a weight of 0 drops the row.

    Parameters
    ----------
    score
        Numeric score column (name or expression); higher means more likely positive.
    label
        Class column: Boolean, 0/1 integer, or any coding with `pos_label`.
    precision
        The least precision (positive predictive value) to keep, in [0, 1].
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
        A Float64 scalar named ``recall``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1, 0, 1], "p": [0.1, 0.4, 0.35, 0.8, 0.7, 0.2]})
    >>> round(df.select(pr.recall_at_precision("p", "y", precision=0.6)).item(), 6)
    1.0
    >>> round(df.select(pr.recall_at_precision("p", "y", precision=0.7)).item(), 6)
    0.333333
    """
    (target,) = validate.rates(precision, "precision")
    r = rows(
        expression(score, direction),
        label,
        weight=weight,
        pos_label=pos_label,
        nan_policy=nan_policy,
    )
    kernel = recall_at_precision_of(
        field("tp"), field("fp"), field("tpr"), field("threshold"), target
    )[0]
    return scalar(vertices(r), kernel, needs=("tpr",)).alias("recall")
