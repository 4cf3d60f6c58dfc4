"""Per-group building blocks: windows, running sums by block, group ids, end rows, joins.

Every function takes the group columns `names` (possibly empty: one group, the whole frame)
and never relies on the input's row order unless an explicit order is given.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl


def per_group(expr: pl.Expr, names: Sequence[str], order_by: str | None = None) -> pl.Expr:
    """
    `expr` as a window over the groups `names`, or over the whole frame when there are none.

    With `order_by`, the window runs in that column's order instead of the rows' order.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"g": ["a", "a", "b"], "x": [1, 2, 3]})
    >>> df.select(per_group(pl.col("x").cum_sum(), ["g"]))["x"].to_list()
    [1, 3, 3]
    """
    if order_by is not None:
        return expr.over(list(names) or pl.lit(True), order_by=order_by)
    return expr.over(names) if names else expr


def ordered_sum(x: pl.Expr) -> pl.Expr:
    """
    The sum of `x` taken in row order (a running sum read at its end), as an aggregation.

    An aggregation's ``sum`` may add partial sums (threads, morsels) in any order, which
    moves the last bits between runs and between ``select`` and ``group_by``; this one gives
    the same bits everywhere once the rows have a fixed order.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"g": ["a", "a", "b"], "x": [0.1, 0.2, 0.3]})
    >>> df.group_by("g", maintain_order=True).agg(ordered_sum(pl.col("x")))["x"].to_list()
    [0.30000000000000004, 0.3]
    """
    return x.cum_sum().last()


def summarize(lf: pl.LazyFrame, names: Sequence[str], measures: Sequence[pl.Expr]) -> pl.LazyFrame:
    """
    Aggregate per group, sorted by the keys (nulls last); one row when `names` is empty.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"g": ["b", "a", "b"], "x": [1, 2, 3]})
    >>> summarize(df.lazy(), ["g"], [pl.col("x").sum()]).collect()["x"].to_list()
    [2, 4]
    """
    if not names:
        return lf.select(measures)
    return lf.group_by(names).agg(measures).sort(names, nulls_last=True)


def join_groups(
    left: pl.LazyFrame, right: pl.LazyFrame, names: Sequence[str], *, how: str = "left"
) -> pl.LazyFrame:
    """
    Join per-group tables on their keys (null keys equal), keeping the left order.

    Without keys both sides hold one group: a cross join.

    Examples
    --------
    >>> import polars as pl
    >>> a = pl.LazyFrame({"g": ["x", None], "n": [1, 2]})
    >>> b = pl.LazyFrame({"g": [None, "x"], "m": [20, 10]})
    >>> join_groups(a, b, ["g"]).collect()["m"].to_list()
    [10, 20]
    """
    if not names:
        return left.join(right, how="cross")
    if how == "left":
        return left.join(right, on=list(names), how="left", nulls_equal=True, maintain_order="left")
    return left.join(right, on=list(names), how="inner", nulls_equal=True)


def changed(columns: Sequence[str]) -> pl.Expr:
    """
    True on the first row and wherever any of `columns` differs from the row before.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"g": [1, 1, None, None], "s": [0.5, 0.5, 0.5, 0.7]})
    >>> df.select(changed(["g", "s"])).to_series().to_list()
    [True, False, True, True]
    >>> df.slice(2).select(changed(["g"])).to_series().to_list()  # a null key starts too
    [True, False]
    """
    differs = (pl.col(c).ne_missing(pl.col(c).shift(1)) for c in columns)
    return pl.any_horizontal(pl.int_range(pl.len()) == 0, *differs)


def before_block(running: pl.Expr, step: pl.Expr, first: pl.Expr) -> pl.Expr:
    """
    A running sum just before the block of runs each row is in.

    Rows come in blocks (tie blocks, groups), `first` marking each block's first row;
    `running` is the running sum of `step`. Its value before a block's first row, carried
    down the block: the one form of every "before this block" in the package.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"x": [1, 2, 3, 4], "first": [True, False, True, False]})
    >>> x, first = pl.col("x"), pl.col("first")
    >>> df.select(before_block(x.cum_sum(), x, first)).to_series().to_list()
    [0, 0, 3, 3]
    """
    return pl.when(first).then(running - step).forward_fill()


def at_block_end(running: pl.Expr, first: pl.Expr) -> pl.Expr:
    """
    A running sum at the last row of the block each row is in (the next row starts a block).

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"x": [1, 2, 3, 4], "first": [True, False, True, False]})
    >>> x, first = pl.col("x"), pl.col("first")
    >>> df.select(at_block_end(x.cum_sum(), first)).to_series().to_list()
    [3, 3, 10, 10]
    """
    return pl.when(first.shift(-1, fill_value=True)).then(running).backward_fill()


def group_ids(
    frame: pl.LazyFrame, names: Sequence[str], source: pl.LazyFrame
) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """
    Tag `frame` with an integer group id `_gid` (one per group of `source`).

    As-of joins match `by` keys with null never equal to null; an id column keeps groups
    whose key is null.
    """
    if not names:
        gid = pl.LazyFrame({"_gid": [0]}, schema={"_gid": pl.UInt32})
        return frame.with_columns(_gid=pl.lit(0, dtype=pl.UInt32)), gid
    # maintain_order: the plan may run twice (once per join); the ids must agree.
    groups = source.select(names).unique(maintain_order=True).with_row_index("_gid")
    tagged = frame.join(groups, on=list(names), how="left", nulls_equal=True, maintain_order="left")
    return tagged, groups


def is_end(names: Sequence[str]) -> pl.Expr:
    """Whether a row is the first or the last of its group."""
    position = per_group(pl.int_range(pl.len()), names)
    return (position == 0) | (position == per_group(pl.len(), names) - 1)


def ends(points: pl.LazyFrame, names: Sequence[str]) -> pl.LazyFrame:
    """The first (0, 0) and last (1, 1) row of each group's curve."""
    return points.filter(is_end(names))
