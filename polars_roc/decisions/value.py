"""Value curves: what flagging the top of the score is worth, with per-row amounts.

A threshold flags every row scoring at or above it. With an amount for each outcome, the
value of flagging is

    value = Σ flagged positives' gain_tp − Σ flagged negatives' cost_fp
            − Σ missed positives' cost_fn + Σ passed negatives' gain_tn,

each amount a number (the same for every row) or a column (per-row amounts: a loss
avoided, a loan size, a margin). The sums are read off the counts core
(:mod:`polars_roc._core.counts`): the tally carries each amount column's sum beside ``tp``
and ``fp`` and the one cumulative pass gives their running sums, so a value curve costs
one sort, like the ROC curve. Weights multiply the amounts (an integer weight k is k
copies of the row).

A `capacity` (the share, or number, of rows a team can review) restricts a search to the
thresholds whose depth fits: see :func:`fits`.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from polars_roc._core.checks import NanPolicy
from polars_roc._core.columns import VALUE_CURVE
from polars_roc._core.direction import Direction, directed
from polars_roc._core.frames import same_kind
from polars_roc._core.validate import By, as_names, no_clash
from polars_roc._core.value import Amount, check_amounts, value_points

__all__ = ["VALUE_COLUMNS", "value_curve"]

#: The value curve's columns, in order, after the `by` columns.
VALUE_COLUMNS = VALUE_CURVE


@same_kind
@directed
def value_curve(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    gain_tp: Amount = 1.0,
    cost_fp: Amount = 0.0,
    cost_fn: Amount = 0.0,
    gain_tn: Amount = 0.0,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.LazyFrame:
    """
    The value of flagging every row at or above each threshold, per group.

    ``value = Σ flagged positives' gain_tp − Σ flagged negatives' cost_fp − Σ missed
    positives' cost_fn + Σ passed negatives' gain_tn``, where each amount is a number or a
    column of per-row amounts (a loss avoided, a loan size, a margin). The running sums come
    from the counts core in the same pass as ``tp`` and ``fp``.

    Parameters
    ----------
    lf
        Scored rows.
    score, label, by, weight, pos_label
        Column roles, as in :func:`polars_roc.curves.curve`. Weights multiply the amounts.
    gain_tp
        What flagging a positive earns (e.g. the fraud loss it avoids).
    cost_fp
        What flagging a negative costs (e.g. the review of a good customer).
    cost_fn
        What missing a positive costs.
    gain_tn
        What passing a negative earns.
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"``; never guessed.
    nan_policy
        NaN scores: ``"propagate"`` (default: the group's value is null), ``"omit"`` or
        ``"raise"``.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, threshold, depth, tp, fp, value, value_per_case``, threshold descending from
        ``+inf`` (nothing flagged) per group; `depth` is the share of rows (weight)
        flagged, `value_per_case` the value over the number of rows (weight sum).

    Raises
    ------
    ValueError
        A negative or non-finite amount, or a null amount where it applies (a null
        `gain_tp` on a positive row): the argument and its column are named.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {
    ...         "score": [0.9, 0.8, 0.7, 0.2],
    ...         "label": [1, 0, 1, 0],
    ...         "amount": [100.0, 50.0, 30.0, 80.0],
    ...     }
    ... )
    >>> df.roc.value_curve(gain_tp="amount", cost_fp=10.0)
    shape: (5, 6)
    ┌───────────┬───────┬─────┬─────┬───────┬────────────────┐
    │ threshold ┆ depth ┆ tp  ┆ fp  ┆ value ┆ value_per_case │
    │ ---       ┆ ---   ┆ --- ┆ --- ┆ ---   ┆ ---            │
    │ f64       ┆ f64   ┆ i64 ┆ i64 ┆ f64   ┆ f64            │
    ╞═══════════╪═══════╪═════╪═════╪═══════╪════════════════╡
    │ inf       ┆ 0.0   ┆ 0   ┆ 0   ┆ 0.0   ┆ 0.0            │
    │ 0.9       ┆ 0.25  ┆ 1   ┆ 0   ┆ 100.0 ┆ 25.0           │
    │ 0.8       ┆ 0.5   ┆ 1   ┆ 1   ┆ 90.0  ┆ 22.5           │
    │ 0.7       ┆ 0.75  ┆ 2   ┆ 1   ┆ 120.0 ┆ 30.0           │
    │ 0.2       ┆ 1.0   ┆ 2   ┆ 2   ┆ 110.0 ┆ 27.5           │
    └───────────┴───────┴─────┴─────┴───────┴────────────────┘
    """
    names = as_names(by)
    no_clash(names, VALUE_CURVE)
    amounts = {"gain_tp": gain_tp, "cost_fp": cost_fp, "cost_fn": cost_fn, "gain_tn": gain_tn}
    checked = check_amounts(lf.collect_schema(), amounts)
    points = value_points(lf, score, label, names, weight, pos_label, checked)
    return points.select(*names, *VALUE_COLUMNS)
