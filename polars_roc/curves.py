"""The counts core and the ROC curve: LazyFrame in, LazyFrame out.

`counts` is the one place where cumulative true/false positives are computed. Every curve,
table, area and chart in the package derives from it.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from polars_roc._core import validate
from polars_roc._core.checks import NanPolicy
from polars_roc._core.counts import counted, roc_points
from polars_roc._core.direction import Direction, directed
from polars_roc._core.frames import same_kind
from polars_roc._core.groups import per_group
from polars_roc._core.schemes import Thresholds, at_thresholds
from polars_roc._core.validate import By

__all__ = ["counts", "curve", "from_counts"]


@same_kind
@directed
def counts(
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
    Cumulative true and false positives per group at each distinct score, highest first.

    The sufficient statistic of ROC analysis: one row per group and distinct score (tied
    scores collapse into one threshold), with `tp` / `fp` the positives / negatives (or their
    weights) scoring at or above it. A first row per group at ``threshold=+inf`` holds (0, 0),
    so the table starts where the ROC curve starts. Rows with a null score, label or weight
    are skipped; zero weights drop the row.

    Parameters
    ----------
    lf
        Scored rows.
    score, label, by, weight, pos_label
        Column roles; see :func:`polars_roc.curves.curve`.
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
        ``*by, threshold, tp, fp``, sorted by ``by`` then threshold descending. Counts are
        Int64, or Float64 weight sums when `weight` is given.

    Examples
    --------
    >>> import polars as pl
    >>> from polars_roc.curves import counts
    >>> df = pl.DataFrame({"score": [0.9, 0.8, 0.8, 0.1], "label": [1, 1, 0, 0]})
    >>> counts(df.lazy()).collect()
    shape: (4, 3)
    ┌───────────┬─────┬─────┐
    │ threshold ┆ tp  ┆ fp  │
    │ ---       ┆ --- ┆ --- │
    │ f64       ┆ i64 ┆ i64 │
    ╞═══════════╪═════╪═════╡
    │ inf       ┆ 0   ┆ 0   │
    │ 0.9       ┆ 1   ┆ 0   │
    │ 0.8       ┆ 2   ┆ 1   │
    │ 0.1       ┆ 2   ┆ 2   │
    └───────────┴─────┴─────┘
    """
    names = validate.as_names(by)
    return counted(lf, score, label, by=names, weight=weight, pos_label=pos_label)


@same_kind
@directed
def curve(
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
    thresholds: Thresholds = None,
) -> pl.LazyFrame:
    """
    ROC curve per group: every distinct score as a threshold, highest first.

    A row is predicted positive iff ``score >= threshold``. The first row of each group is
    ``threshold=+inf`` at (0, 0), the last is at (1, 1). With `drop_intermediate`, a point is
    dropped only when it lies exactly on the line through its neighbours, so the curve keeps
    its shape and its area.

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
        Optional non-negative case weights (counts become Float64 weight sums).
    pos_label
        The positive class. Default: True for Boolean labels, 1 for 0/1 integers.
    drop_intermediate
        Drop points exactly collinear with both neighbours.
    thresholds
        Where to evaluate the curve: None (every distinct score), a list of floats, an int k
        (k quantiles of the negative class's scores) or ``pr.linspace(k)``; the end points
        (0, 0) and (1, 1) are always kept. See :mod:`polars_roc.thresholds`.
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
        ``*by, threshold, tp, fp, tn, fn, tpr, fpr``. Rates are null for a group without
        positives (tpr) or negatives (fpr), and for a group holding a NaN score; a group in
        which no row counts keeps its start row.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.1], "label": [1, 1, 0, 0]})
    >>> df.roc.curve()
    shape: (5, 7)
    ┌───────────┬─────┬─────┬─────┬─────┬─────┬─────┐
    │ threshold ┆ tp  ┆ fp  ┆ tn  ┆ fn  ┆ tpr ┆ fpr │
    │ ---       ┆ --- ┆ --- ┆ --- ┆ --- ┆ --- ┆ --- │
    │ f64       ┆ i64 ┆ i64 ┆ i64 ┆ i64 ┆ f64 ┆ f64 │
    ╞═══════════╪═════╪═════╪═════╪═════╪═════╪═════╡
    │ inf       ┆ 0   ┆ 0   ┆ 2   ┆ 2   ┆ 0.0 ┆ 0.0 │
    │ 0.9       ┆ 1   ┆ 0   ┆ 2   ┆ 1   ┆ 0.5 ┆ 0.0 │
    │ 0.8       ┆ 2   ┆ 0   ┆ 2   ┆ 0   ┆ 1.0 ┆ 0.0 │
    │ 0.7       ┆ 2   ┆ 1   ┆ 1   ┆ 0   ┆ 1.0 ┆ 0.5 │
    │ 0.1       ┆ 2   ┆ 2   ┆ 0   ┆ 0   ┆ 1.0 ┆ 1.0 │
    └───────────┴─────┴─────┴─────┴─────┴─────┴─────┘
    >>> df.roc.curve(drop_intermediate=True)["threshold"].to_list()
    [inf, 0.8, 0.1]
    """
    names = validate.as_names(by)
    out = roc_points(lf, score, label, by=names, weight=weight, pos_label=pos_label)
    if thresholds is not None:
        out = at_thresholds(out, names, thresholds, ends=True)
    if drop_intermediate:
        out = out.filter(_not_collinear(names))
    return out


def _not_collinear(names: list[str]) -> pl.Expr:
    """Keep a point unless it lies exactly on the segment joining its neighbours."""

    def step(column: str, n: int) -> pl.Expr:
        diff = pl.col(column) - pl.col(column).shift(n)
        return per_group(diff, names) * (1 if n == 1 else -1)

    before_tp, before_fp = step("tp", 1), step("fp", 1)
    after_tp, after_fp = step("tp", -1), step("fp", -1)
    # Exact in integer counts: the cross product of the two steps is zero iff collinear.
    cross = before_fp * after_tp - before_tp * after_fp
    return cross.is_null() | (cross != 0)


@same_kind
def from_counts(
    lf: pl.LazyFrame, score: str = "score", *, pos: str = "pos", neg: str = "neg"
) -> pl.LazyFrame:
    """
    Scored rows from a counts table: the way in for data reduced where it lives.

    A table of positives and negatives per distinct score (and per group) — what any engine
    computes with a plain ``GROUP BY group, score`` — is the sufficient statistic of ROC
    analysis. This turns it into weighted rows (``label`` True with weight `pos`, False with
    weight `neg`), so every function here runs on it with ``weight="weight"`` and gives the
    same numbers as on the raw rows. Binned or rounded scores work the same way.

    Parameters
    ----------
    lf
        The counts table: `score`, `pos`, `neg` and any group columns.
    score
        The score column.
    pos, neg
        Columns with the number (or weight) of positives and negatives at each score.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        The other columns, then ``score, label, weight`` (two rows per input row).

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> table = pl.DataFrame({"score": [0.9, 0.5, 0.1], "pos": [3, 1, 0], "neg": [1, 2, 4]})
    >>> rows = pr.from_counts(table.lazy())
    >>> rows.roc.auc(weight="weight").collect()["auc"].item()
    0.875
    """
    schema = lf.collect_schema()
    validate.column(schema, score, "score")
    validate.column(schema, pos, "pos")
    validate.column(schema, neg, "neg")
    rest = [name for name in schema if name not in {score, pos, neg}]

    def side(count: str, positive: bool) -> pl.LazyFrame:
        return lf.select(
            *rest, pl.col(score), label=pl.lit(positive), weight=pl.col(count).cast(pl.Float64)
        )

    return pl.concat([side(pos, True), side(neg, False)])
