"""Scalar expression kernels, valid in `select`, `group_by().agg()`, `over()` and streaming.

Examples
--------
>>> import polars as pl
>>> import polars_roc as pr
>>> df = pl.DataFrame(
...     {"model": ["a"] * 4 + ["b"] * 4, "y": [0, 0, 1, 1] * 2, "p": [0.1, 0.4, 0.35, 0.8] * 2}
... )
>>> df.group_by("model", maintain_order=True).agg(pr.auc("p", "y"))
shape: (2, 2)
┌───────┬──────┐
│ model ┆ auc  │
│ ---   ┆ ---  │
│ str   ┆ f64  │
╞═══════╪══════╡
│ a     ┆ 0.75 │
│ b     ┆ 0.75 │
└───────┴──────┘
"""

from __future__ import annotations

from typing import Any

import polars as pl
from polars._typing import IntoExprColumn

from polars_roc._core.checks import NanPolicy
from polars_roc._core.direction import Direction, expression
from polars_roc._core.kernels import auc_of, rows

__all__ = ["auc"]


def auc(
    score: IntoExprColumn,
    label: IntoExprColumn,
    *,
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.Expr:
    """
    Area under the ROC curve as a scalar expression; tied scores count one half.

    The probability that a random positive scores above a random negative (ties ½), i.e.
    the trapezoidal area under the ROC curve. Null when the rows hold no positive or no
    negative, or a NaN score. Rows with a null score, label or weight are skipped; a weight
    of 0 drops the row and an integer weight k counts the row k times.

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
        A Float64 scalar named ``auc``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "p": [0.1, 0.4, 0.35, 0.8]})
    >>> df.select(pr.auc("p", "y")).item()
    0.75
    >>> df.select(pr.auc("p", "y", weight=pl.lit(2.0))).item()
    0.75
    >>> df.with_columns(pl.col("p").roc.auc("y").over(pl.col("y") >= 0))["auc"].to_list()
    [0.75, 0.75, 0.75, 0.75]
    """
    scores = expression(score, direction)
    r = rows(scores, label, weight=weight, pos_label=pos_label, masked=True, nan_policy=nan_policy)
    return auc_of(r).alias("auc")
