"""Precision, recall and lift at a depth: the top share (or count) of rows, as expressions.

Analysts who act on the top of a ranked list ask what the top 10% (or the top 500 rows)
holds. The depth is cut by the gains table's rule (:func:`polars_roc.gains.gains_table`):
a block of tied scores is taken whole or not at all, so the cut never goes deeper than
asked, and ``lift_at_depth(depth=1 / bins)`` is the first row's ``cum_lift`` of
``gains_table(bins=bins)``. Frame twins: ``df.roc.precision_at_depth``,
``df.roc.recall_at_depth`` and ``df.roc.lift_at_depth`` (:mod:`polars_roc.gains`).

Examples
--------
>>> import polars as pl
>>> import polars_roc as pr
>>> df = pl.DataFrame({"y": [1, 0, 1, 0, 0, 1, 0, 0, 0, 0], "p": range(10, 0, -1)})
>>> df.select(pr.precision_at_depth("p", "y", depth=0.2), pr.lift_at_depth("p", "y", depth=3))
shape: (1, 2)
┌───────────┬──────────┐
│ precision ┆ lift     │
│ ---       ┆ ---      │
│ f64       ┆ f64      │
╞═══════════╪══════════╡
│ 0.5       ┆ 2.222222 │
└───────────┴──────────┘
"""

from __future__ import annotations

from typing import Any, Literal

import polars as pl
from polars._typing import IntoExprColumn

from polars_roc._core import validate
from polars_roc._core.checks import NanPolicy, is_nan
from polars_roc._core.direction import Direction, expression
from polars_roc._core.kernels import rows
from polars_roc._core.vertices import at_depth_of, field, vertices

__all__ = ["lift_at_depth", "precision_at_depth", "recall_at_depth"]

_Measure = Literal["precision", "recall", "lift"]


def _at_depth(
    measure: _Measure,
    score: IntoExprColumn,
    label: IntoExprColumn,
    depth: float | int,
    weight: IntoExprColumn | None,
    pos_label: Any,
    direction: Direction,
    nan_policy: NanPolicy,
) -> pl.Expr:
    cut = validate.depth(depth)
    r = rows(
        expression(score, direction),
        label,
        weight=weight,
        pos_label=pos_label,
        nan_policy=nan_policy,
    )
    kernel = at_depth_of(measure, field("tp"), field("fp"), cut)
    defined = ~is_nan(field("threshold")).any()  # a NaN score: the ranking is undefined
    return vertices(r).list.eval(pl.when(defined).then(kernel)).list.first().alias(measure)


def precision_at_depth(
    score: IntoExprColumn,
    label: IntoExprColumn,
    *,
    depth: float = 0.1,
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.Expr:
    """
    Precision (share of positives) among the top `depth` of the rows by score.

    `depth` is a fraction of the rows in (0, 1] (a float) or a number of rows (an int);
    with weights, a share or amount of the total weight. Tied scores at the cut are taken
    whole or not at all (the gains table's rule), so fewer rows than asked may be taken;
    null when no block fits (the top tied block is deeper than `depth`) or a score is NaN.
    Rows with a null score, label or weight are skipped; a weight of 0 drops the row.

    Parameters
    ----------
    score
        Numeric score column (name or expression); higher means more likely positive.
    label
        Class column: Boolean, 0/1 integer, or any coding with `pos_label`.
    depth
        The top share of rows (0.1: the first decile) or, as an integer, a count of rows.
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
    >>> df = pl.DataFrame({"y": [1, 0, 1, 0, 0, 1, 0, 0, 0, 0], "p": range(10, 0, -1)})
    >>> df.select(pr.precision_at_depth("p", "y", depth=0.3)).item()
    0.6666666666666666
    """
    return _at_depth("precision", score, label, depth, weight, pos_label, direction, nan_policy)


def recall_at_depth(
    score: IntoExprColumn,
    label: IntoExprColumn,
    *,
    depth: float = 0.1,
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.Expr:
    """
    Recall (share of all positives) captured by the top `depth` of the rows by score.

    The gains table's `gain` at that depth. `depth` and ties as in
    :func:`precision_at_depth` (nothing taken gives 0); null without positives or with a
    NaN score.

    Parameters
    ----------
    score
        Numeric score column (name or expression); higher means more likely positive.
    label
        Class column: Boolean, 0/1 integer, or any coding with `pos_label`.
    depth
        The top share of rows (0.1: the first decile) or, as an integer, a count of rows.
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
    >>> df = pl.DataFrame({"y": [1, 0, 1, 0, 0, 1, 0, 0, 0, 0], "p": range(10, 0, -1)})
    >>> df.select(pr.recall_at_depth("p", "y", depth=0.3)).item()
    0.6666666666666666
    """
    return _at_depth("recall", score, label, depth, weight, pos_label, direction, nan_policy)


def lift_at_depth(
    score: IntoExprColumn,
    label: IntoExprColumn,
    *,
    depth: float = 0.1,
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.Expr:
    """
    Lift of the top `depth` of the rows: their precision over the share of positives.

    ``recall / depth reached`` (the gains table's ``cum_lift``; at ``depth=0.1`` its first
    row's). `depth` and ties as in :func:`precision_at_depth`; null when nothing is taken,
    without positives, or with a NaN score.

    Parameters
    ----------
    score
        Numeric score column (name or expression); higher means more likely positive.
    label
        Class column: Boolean, 0/1 integer, or any coding with `pos_label`.
    depth
        The top share of rows (0.1: the first decile) or, as an integer, a count of rows.
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
        A Float64 scalar named ``lift``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"y": [1, 0, 1, 0, 0, 1, 0, 0, 0, 0], "p": range(10, 0, -1)})
    >>> df.select(pr.lift_at_depth("p", "y", depth=0.3)).item()
    2.2222222222222223
    """
    return _at_depth("lift", score, label, depth, weight, pos_label, direction, nan_policy)
