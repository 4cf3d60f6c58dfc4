"""A curve's counts on one fixed list of thresholds shared by every group, in output order.

The decision curve reads every group's counts at the same threshold probabilities, so the
output is a dense grid (groups × thresholds) that can be built already in order: the sorted
groups crossed with the ascending thresholds. Each curve point falls in the bin of the
thresholds at or below its score (one binary search in the shared list); the counts at a
threshold are those of the nearest bin above it, found by a forward as-of join on one
integer key (group index × bins + bin) that both sides hold sorted — a linear merge, with
no sort of the grid and no per-group join.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

__all__ = ["counts_on_grid", "snapped"]

_COUNTS = ("tp", "fp", "tn", "fn")


def counts_on_grid(
    points: pl.LazyFrame, names: list[str], thresholds: Sequence[float]
) -> pl.LazyFrame:
    """
    The curve's counts at each threshold: those of the smallest distinct score ``>= t``.

    Parameters
    ----------
    points
        A full curve, as from ``curve(...)``: ``*names, threshold, tp, fp, tn, fn, ...``
        with each group's ``+inf`` start row (nothing flagged).
    names
        The group columns.
    thresholds
        Distinct thresholds, ascending.

    Returns
    -------
    pl.LazyFrame
        ``*names, threshold, tp, fp, tn, fn``: one row per group and threshold, groups
        sorted (nulls last), thresholds ascending.

    Examples
    --------
    >>> import polars as pl
    >>> from polars_roc.curves import curve
    >>> df = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.1], "label": [1, 1, 0, 0]})
    >>> counts_on_grid(curve(df.lazy()), [], [0.5, 0.95]).collect()
    shape: (2, 5)
    ┌───────────┬─────┬─────┬─────┬─────┐
    │ threshold ┆ tp  ┆ fp  ┆ tn  ┆ fn  │
    │ ---       ┆ --- ┆ --- ┆ --- ┆ --- │
    │ f64       ┆ i64 ┆ i64 ┆ i64 ┆ i64 │
    ╞═══════════╪═════╪═════╪═════╪═════╡
    │ 0.5       ┆ 2   ┆ 1   ┆ 1   ┆ 0   │
    │ 0.95      ┆ 0   ┆ 0   ┆ 2   ┆ 2   │
    └───────────┴─────┴─────┴─────┴─────┘
    """
    wanted = pl.Series("threshold", thresholds, dtype=pl.Float64)
    bins = len(wanted) + 1  # bin b holds the scores with exactly b thresholds at or below
    if names:
        groups = points.select(names).unique().sort(names, nulls_last=True)
        groups = groups.with_row_index("_gi")
        tagged = points.join(groups, on=names, how="left", nulls_equal=True)
    else:
        groups = pl.LazyFrame({"_gi": [0]}, schema={"_gi": pl.UInt32})
        tagged = points.with_columns(_gi=pl.lit(0, dtype=pl.UInt32))
    gi = pl.col("_gi").cast(pl.Int64)
    level = pl.col("threshold").cast(pl.Float64)
    below = pl.lit(wanted).search_sorted(level, side="right").cast(pl.Int64)
    # One point per (group, bin): the smallest score in it; the +inf start row (mass 0)
    # yields to a real +inf score. Every group's start row fills its top bin, so the
    # forward search below never leaves the group.
    mass = pl.col("tp") + pl.col("fp")
    right = (
        tagged.filter(~level.is_nan())
        .select(*_COUNTS, _key=gi * bins + below, _level=level, _mass=mass)
        .sort(["_key", "_level", "_mass"], descending=[False, False, True])
        .filter(pl.col("_key") != pl.col("_key").shift(1).fill_null(-1))
        .select("_key", *_COUNTS)
    )
    grid = groups.join(pl.LazyFrame([wanted]), how="cross", maintain_order="left_right")
    position = pl.int_range(pl.len(), dtype=pl.Int64) % (bins - 1)
    left = grid.with_columns(_key=gi * bins + position + 1)
    joined = left.join_asof(right, on="_key", strategy="forward", check_sortedness=False)
    return joined.select(*names, "threshold", *_COUNTS)


def snapped(score: str, thresholds: Sequence[float]) -> pl.Expr:
    """
    Each score as the highest threshold at or below it, or 0 below them all (Float64).

    ``score >= t`` holds for the snapped score exactly when it holds for the score, at
    every threshold ``t`` of the list (each strictly between 0 and 1), so the counts at the
    thresholds are unchanged while each group's curve has at most one point per threshold
    and one below them: fewer distinct scores to sort. NaN and null stay as they are.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"s": [0.05, -2.0, 0.3, 0.72, 1.0, float("inf"), None]})
    >>> df.select(snapped("s", [0.1, 0.3, 0.7]))["s"].to_list()
    [0.0, 0.0, 0.3, 0.7, 0.7, 0.7, None]
    """
    wanted = pl.Series("threshold", thresholds, dtype=pl.Float64)
    s = pl.col(score).cast(pl.Float64)
    below = pl.lit(wanted).search_sorted(s, side="right").cast(pl.Int64)
    highest = pl.lit(wanted).gather((below - 1).clip(lower_bound=0))
    return pl.when(s.is_null() | s.is_nan()).then(s).when(below == 0).then(0.0).otherwise(highest)
