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

from typing import Any, NamedTuple

import polars as pl
from polars._typing import IntoExprColumn

from polars_roc import _labels


class Rows(NamedTuple):
    """The rows that count, as filtered expressions: score, positive flag, weight (or None)."""

    score: pl.Expr
    positive: pl.Expr
    weight: pl.Expr | None


def rows(
    score: IntoExprColumn,
    label: IntoExprColumn,
    *,
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
    checked: bool = True,
    masked: bool = False,
    label_dtype: pl.DataType | None = None,
) -> Rows:
    """
    Coded score, label and weight, with null-score, null-label and zero-weight rows dropped.

    With `masked`, rows that do not count are set to null in all three instead of filtered
    out: ranks, sums and filters skip nulls, so aggregations give the same numbers without
    the cost of a filter per group (about a third of a grouped AUC's time). `label_dtype`,
    when the caller knows it from the schema, lets Boolean labels skip the coding check.
    """
    s = _labels.score(score, checked=checked)
    y = _labels.positive(label, pos_label, dtype=label_dtype)
    w = None if weight is None else _labels.weight(weight)
    keep = _labels.kept(s, y, w)

    def drop(expr: pl.Expr) -> pl.Expr:
        return pl.when(keep).then(expr) if masked else expr.filter(keep)

    return Rows(drop(s), drop(y), None if w is None else drop(w))


def class_totals(r: Rows) -> tuple[pl.Expr, pl.Expr]:
    """
    Positives and negatives: Int64 counts, or Float64 weight sums when weighted.

    Products of these must be taken in Float64 (a UInt32 product wraps past 65,536 each).
    """
    if r.weight is None:
        return r.positive.sum().cast(pl.Int64), (~r.positive).sum().cast(pl.Int64)
    return r.weight.filter(r.positive).sum(), r.weight.filter(~r.positive).sum()


def _auc_of(r: Rows) -> pl.Expr:
    """AUC of prepared rows, null when a class is empty or a score is NaN."""
    n_pos, n_neg = (n.cast(pl.Float64) for n in class_totals(r))
    if r.weight is None:
        # Mann-Whitney U from average ranks: ties count one half.
        u = r.score.rank("average").filter(r.positive).sum() - n_pos * (n_pos + 1) / 2
    else:
        # Weighted U: each positive scores the weight of negatives below it, half of those tied.
        neg_scores = r.score.filter(~r.positive)
        neg_weights = r.weight.filter(~r.positive).sort_by(neg_scores)
        below = pl.concat([pl.lit(0.0, dtype=pl.Float64), neg_weights.cum_sum()])
        pos_scores = r.score.filter(r.positive)
        sorted_neg = neg_scores.sort()
        # Searching with sorted positives keeps memory access in order: 2x faster at 10M rows.
        sorted_pos = pos_scores.sort()
        lo = sorted_neg.search_sorted(sorted_pos, side="left")
        hi = sorted_neg.search_sorted(sorted_pos, side="right")
        placements = (below.gather(lo) + below.gather(hi)) / 2
        u = (placements * r.weight.filter(r.positive).sort_by(pos_scores)).sum()
    defined = (n_pos > 0) & (n_neg > 0) & ~r.score.is_nan().any()
    return pl.when(defined).then(u / (n_pos * n_neg)).otherwise(None)


def auc(
    score: IntoExprColumn,
    label: IntoExprColumn,
    *,
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
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
    r = rows(score, label, weight=weight, pos_label=pos_label, masked=True)
    return _auc_of(r).alias("auc")
