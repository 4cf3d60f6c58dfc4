"""The counts core in two steps: an order-free tally, then accumulation in threshold order.

`tally` is a plain ``GROUP BY (*by, threshold)`` of positives and negatives (or their
weights): it needs no row order, so any engine can compute it where the data lives.
`accumulate` adds each group's start row (0, 0) at ``threshold=+inf`` and the running sums,
highest threshold first, in an explicit order. Every curve, table, area and chart reads the
result; nothing else computes a cumulative count.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from polars_roc._core import kernels, validate
from polars_roc._core.groups import before_block, changed
from polars_roc._core.names import fresh

INF = float("inf")


def coded(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    names: Sequence[str],
    weight: str | None,
    pos_label: Any,
    label_dtype: pl.DataType | None = None,
    masked: bool = False,
    extra: Sequence[str] = (),
) -> pl.LazyFrame:
    """
    The rows that count, as ``*names, threshold, tp, fp``: one positive or negative each.

    `extra` columns (per-row amounts) ride along after `fp`, unchanged.

    `tp` / `fp` are 1/0 Int64 counts, or the row's Float64 weight when weighted. Rows with a
    null score, label or weight, or a zero weight, are dropped; with `masked` they are kept
    with all three null, so that a group none of whose rows counts still has a row (its
    tally is a null threshold with zero counts, which :func:`accumulate` turns into the
    group's start row alone).

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"score": [0.9, None, 0.1], "label": [1, 1, 0]})
    >>> coded(df.lazy(), "score", "label", names=[], weight=None, pos_label=None).collect()
    shape: (2, 3)
    ┌───────────┬─────┬─────┐
    │ threshold ┆ tp  ┆ fp  │
    │ ---       ┆ --- ┆ --- │
    │ f64       ┆ i64 ┆ i64 │
    ╞═══════════╪═════╪═════╡
    │ 0.9       ┆ 1   ┆ 0   │
    │ 0.1       ┆ 0   ┆ 1   │
    └───────────┴─────┴─────┘
    """
    rows = kernels.coded(
        lf,
        score,
        label,
        names=names,
        weight=weight,
        pos_label=pos_label,
        label_dtype=label_dtype,
        masked=masked,
        extra=extra,
    )
    y = pl.col("_y")
    if weight is None:
        tp, fp = y.cast(pl.Int64), (~y).cast(pl.Int64)
    else:
        tp, fp = pl.col("_w") * y, pl.col("_w") * ~y
    counts = [pl.col("_s").alias("threshold"), tp.alias("tp"), fp.alias("fp")]
    return rows.select(*names, *counts, *extra)


def threshold_order(frame: pl.LazyFrame, names: Sequence[str]) -> pl.LazyFrame:
    """
    Sort by group (nulls last), then threshold descending: the order of every curve.

    Two stable single-key sorts, by threshold and then by group, give the order of one
    multi-key sort 1.1-2.3x faster (4M rows; 10 to 40k groups, integer, string or two
    keys). A column computed between them keeps Polars from merging them back into the
    multi-key sort.
    """
    frame = frame.sort("threshold", descending=True, nulls_last=True, maintain_order=True)
    if not names:
        return frame
    columns = frame.collect_schema().names()
    apart = frame.with_columns(pl.int_range(pl.len()).alias(fresh("_i", columns)))
    return apart.sort(names, nulls_last=True, maintain_order=True).select(columns)


def tally(
    rows: pl.LazyFrame,
    names: Sequence[str],
    *,
    ordered: bool = False,
    deferred: bool = False,
    amounts: Sequence[str] = (),
) -> pl.LazyFrame:
    """
    Positives and negatives per group and distinct threshold: ``*names, threshold, tp, fp``.

    Order-free: a plain group-by whose result does not depend on the rows' order (tied
    scores collapse into one threshold). It keeps the order in which groups first appear;
    `ordered` sorts the rows by :func:`threshold_order` first, so the tally comes out in
    that order (Polars then takes its faster sorted group-by) and :func:`accumulate` in the
    same query need not sort again.

    `deferred` (with `ordered`, for rows of one case each: 1/0 counts) leaves the collapse
    of tied rows to :func:`accumulate` (``tied=True``), which keeps the last running sum of
    each tie block: the same table without the group-by over all-distinct scores. Without
    groups, the deferred rows come from each class's sorted scores, merged (no frame sort).
    Float weight sums keep the group-by: per-threshold sums first, so that every weighted
    table gives the same bits as a tally computed elsewhere (:func:`polars_roc.from_counts`).

    `amounts` names further per-row columns (e.g. a loss avoided per positive) summed beside
    `tp` and `fp`, so that :func:`accumulate` carries their running sums too.

    Examples
    --------
    >>> import polars as pl
    >>> rows = pl.LazyFrame({"threshold": [0.8, 0.9, 0.8], "tp": [1, 1, 0], "fp": [0, 0, 1]})
    >>> tally(rows, []).sort("threshold").collect()
    shape: (2, 3)
    ┌───────────┬─────┬─────┐
    │ threshold ┆ tp  ┆ fp  │
    │ ---       ┆ --- ┆ --- │
    │ f64       ┆ i64 ┆ i64 │
    ╞═══════════╪═════╪═════╡
    │ 0.8       ┆ 1   ┆ 1   │
    │ 0.9       ┆ 1   ┆ 0   │
    └───────────┴─────┴─────┘
    >>> deferred = tally(rows, [], ordered=True, deferred=True)
    >>> accumulate(deferred, [], in_order=True, tied=True).collect()["fp"].to_list()
    [0, 0, 1]
    """
    if deferred and not ordered:
        msg = "a deferred tally needs ordered=True"
        raise ValueError(msg)
    if deferred and not names and not amounts:
        return _merged(rows)
    if ordered:
        rows = threshold_order(rows, names)
    if deferred:
        return rows
    keys = [*names, "threshold"]
    return rows.group_by(keys, maintain_order=True).agg(pl.col("tp", "fp", *amounts).sum())


def _merged(rows: pl.LazyFrame) -> pl.LazyFrame:
    """
    Rows of one case each (1/0 counts) in threshold order, without sorting the frame.

    Each class's scores are sorted as a bare column, and the two runs merged: the same
    order as :func:`threshold_order` up to the order within ties, which the deferred tally
    collapses. The single curve's counts at 4M rows: 0.29 s to 0.21 s with the streaming
    engine, 0.40 s to 0.29 s with the in-memory one (median of 7, taken in turn). The
    runs carry one Boolean, not two Int64 counts, and float scores are merged negated
    instead of reversed: the whole curve 1.1-1.3x faster again (2.75-2.89x to 3.2-4.0x
    scikit-learn's ``roc_curve``, 4M rows).
    """
    threshold, positive = pl.col("threshold"), pl.col("tp") == 1
    y = pl.col("_y")
    counts = {"tp": y.cast(pl.Int64), "fp": (~y).cast(pl.Int64)}
    # merge_sorted takes ascending runs. Float scores negate exactly, so their negations,
    # merged ascending, come in descending order without a reverse pass; NaN becomes null,
    # which sorts and merges first, as NaN does in the descending sort.
    flip = rows.collect_schema()["threshold"].is_float()

    def scores(cases: pl.Expr, case: bool) -> pl.LazyFrame:
        key = threshold.filter(cases)
        key = (-key).fill_nan(None) if flip else key
        return rows.select(key.sort(), _y=pl.lit(case))

    merged = scores(~positive, False).merge_sorted(scores(positive, True), "threshold")
    if flip:
        return merged.select((-threshold).fill_null(float("nan")), **counts)
    return merged.reverse().select(threshold, **counts)


def accumulate(
    table: pl.LazyFrame,
    names: Sequence[str],
    *,
    in_order: bool = False,
    tied: bool = False,
    amounts: Sequence[str] = (),
) -> pl.LazyFrame:
    """
    Cumulative counts per group from a tally, highest threshold first, from (0, 0).

    The one cumulative count of the package. The explicit :func:`threshold_order` sort
    fixes the order of every running sum; `in_order` says the tally was built in that order
    in the same query (``tally(..., ordered=True)``), so the sort is not repeated. `tied`
    says the table is a deferred tally (tied rows not yet collapsed): each tie block then
    keeps its last running sum, the same table as from a collapsed tally (the filter is
    left out otherwise: inside a grouped aggregation it costs 1.1x). A first row per group
    at ``threshold=+inf`` holds (0, 0), before a real +inf score. `amounts` (columns of the
    tally beside `tp` and `fp`) get running sums in the same pass, from 0.

    Examples
    --------
    >>> import polars as pl
    >>> table = pl.LazyFrame({"threshold": [0.1, 0.9], "tp": [1, 2], "fp": [3, 0]})
    >>> accumulate(table, []).collect()
    shape: (3, 3)
    ┌───────────┬─────┬─────┐
    │ threshold ┆ tp  ┆ fp  │
    │ ---       ┆ --- ┆ --- │
    │ f64       ┆ i64 ┆ i64 │
    ╞═══════════╪═════╪═════╡
    │ inf       ┆ 0   ┆ 0   │
    │ 0.9       ┆ 2   ┆ 0   │
    │ 0.1       ┆ 3   ┆ 3   │
    └───────────┴─────┴─────┘
    """
    ordered = table if in_order else threshold_order(table, names)
    schema = ordered.collect_schema()
    threshold = pl.col("threshold")
    # The last row of each tie block (within a group: the aggregation sees one group).
    last = threshold.ne_missing(threshold.shift(-1))

    def ends(expr: pl.Expr) -> pl.Expr:
        return expr.filter(last) if tied else expr

    # The start row joins inside one select: a frame concat may reorder under streaming.
    columns = {
        # Integer scores were tallied as integers (exact beyond 2**53); thresholds are Float64.
        "threshold": pl.concat([pl.lit(INF, dtype=pl.Float64), ends(threshold).cast(pl.Float64)]),
        **{
            c: pl.concat([pl.lit(0, dtype=schema[c]), ends(pl.col(c).cum_sum())])
            for c in ("tp", "fp", *amounts)
        },
    }
    if not names:
        return ordered.select(**columns)
    if schema["tp"].is_integer() and schema["fp"].is_integer() and not amounts:
        return _flat(ordered, list(names), tied=tied)
    # Float sums: each group's running sum is its own, for the same bits as elsewhere. A
    # null threshold (masked rows: nothing counted) sorts last and leaves only the start row.
    return (
        ordered.group_by(list(names), maintain_order=True)
        .agg(**columns)
        .explode("threshold", "tp", "fp", *amounts)
        .filter(threshold.is_not_null())
    )


def _flat(ordered: pl.LazyFrame, names: list[str], *, tied: bool) -> pl.LazyFrame:
    """
    :func:`accumulate` of integer counts over many groups, without a per-group list.

    One running sum over the whole frame, less its value before each group's first row
    (exact in Int64), gives each group's running sums. The start rows ``(+inf, 0, 0)`` come
    from the groups' first rows and are merged before them on the row index: no sort, no
    per-group list (4M rows in 2M groups: 9.8 s to 1.4 s, the sort included; 40k groups:
    the same 1.1 s). The sorted rows are cached: both the start rows and the sums read them.
    """
    schema = ordered.collect_schema()
    threshold, index = pl.col("threshold"), fresh("_i", schema.names())
    first = changed(names)
    last = changed([*names, "threshold"]).shift(-1, fill_value=True) if tied else pl.lit(True)
    running = {}
    for c in ("tp", "fp"):
        total = pl.col(c).cum_sum()
        running[c] = total - before_block(total, pl.col(c), first)
    rows = ordered.with_columns(
        pl.int_range(pl.len(), dtype=pl.Int64).alias(index), _first=first, _last=last
    ).cache()
    twice = pl.col(index) * 2
    starts = rows.filter("_first").select(
        *names,
        threshold=pl.lit(INF, dtype=pl.Float64),
        tp=pl.lit(0, dtype=schema["tp"]),
        fp=pl.lit(0, dtype=schema["fp"]),
        **{index: twice},
    )
    sums = rows.with_columns(**running).filter(pl.col("_last") & threshold.is_not_null())
    sums = sums.select(*names, threshold.cast(pl.Float64), "tp", "fp", **{index: twice + 1})
    return starts.merge_sorted(sums, index).drop(index)


def with_totals(table: pl.LazyFrame, names: Sequence[str]) -> pl.LazyFrame:
    """
    Add each group's positives and negatives (``_positives``, ``_negatives``) to a counts table.

    Null for a group holding a NaN score: it has no defined curve, so every rate and area
    derived from the totals is null too. The totals are real columns, never broadcast
    scalars: Polars may divide by a broadcast scalar through its reciprocal, which is not
    exact (3 / 5 gives 0.6000000000000001), and a column also divides bit for bit like
    scikit-learn.
    """
    defined = ~pl.col("threshold").is_nan().any()
    totals = [
        pl.when(defined).then(pl.col(column).max()).alias(alias)
        for column, alias in (("tp", "_positives"), ("fp", "_negatives"))
    ]
    if names:
        return table.with_columns(total.over(names) for total in totals)
    # Without groups the totals are scalars, which Polars broadcasts; adding a zero column
    # makes them real columns (4M rows: 0.16 s to 0.04 s against a one-row cross join).
    zero = pl.col("tp") * 0
    return table.with_columns(total + zero for total in totals)


def counted(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    by: list[str],
    weight: str | None,
    pos_label: Any,
) -> pl.LazyFrame:
    """
    The counts table (``*by, threshold, tp, fp``) of rows already prepared for it.

    The kernel of :func:`polars_roc.curves.counts`, for code inside the package: the rows
    have had what the public function's decorators do (`by` expressions and private names,
    NaN policy, the positive class's presence, direction). The roles are checked against
    the schema here, as the public function does.

    Examples
    --------
    >>> import polars as pl
    >>> lf = pl.LazyFrame({"score": [0.9, 0.8, 0.8, 0.1], "label": [1, 1, 0, 0]})
    >>> counted(lf, "score", "label", by=[], weight=None, pos_label=None).collect().rows()
    [(inf, 0, 0), (0.9, 1, 0), (0.8, 2, 1), (0.1, 2, 2)]
    """
    schema = lf.collect_schema()
    validate.roles(schema, score=score, label=label, by=by, weight=weight, pos_label=pos_label)
    # Grouped rows that do not count are masked, not dropped: every group has a curve, if
    # only its start row (rates null, like a group without positives or negatives).
    rows = coded(
        lf,
        score,
        label,
        names=by,
        weight=weight,
        pos_label=pos_label,
        label_dtype=schema[label],
        masked=bool(by),
    )
    # The sort fixes the order of every running sum; the tally keeps it (and Polars' sorted
    # group-by is faster than hashing all-distinct scores), so accumulate need not re-sort.
    # Integer counts defer the collapse of ties to accumulate: no group-by at all.
    integer = weight is None
    table = tally(rows, by, ordered=True, deferred=integer)
    return accumulate(table, by, in_order=True, tied=integer)


def roc_points(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    by: list[str],
    weight: str | None,
    pos_label: Any,
) -> pl.LazyFrame:
    """
    The ROC curve (``*by, threshold, tp, fp, tn, fn, tpr, fpr``) of rows already prepared.

    The kernel of :func:`polars_roc.curves.curve` at every distinct score, for code inside
    the package: the rows have had what the public function's decorators do (`by`
    expressions and private names, NaN policy, the positive class's presence, direction),
    as a decorated public caller's rows have. Internal code calls this, never ``curve()``.

    Examples
    --------
    >>> import polars as pl
    >>> lf = pl.LazyFrame({"score": [0.9, 0.1], "label": [1, 0]})
    >>> points = roc_points(lf, "score", "label", by=[], weight=None, pos_label=None)
    >>> points.select("threshold", "tpr", "fpr").collect().rows()
    [(inf, 0.0, 0.0), (0.9, 1.0, 0.0), (0.1, 1.0, 1.0)]
    """
    table = counted(lf, score, label, by=by, weight=weight, pos_label=pos_label)
    positives, negatives = pl.col("_positives"), pl.col("_negatives")
    return (
        with_totals(table, by)
        .with_columns(
            tn=negatives - pl.col("fp"),
            fn=positives - pl.col("tp"),
            tpr=pl.when(positives > 0).then(pl.col("tp") / positives),
            fpr=pl.when(negatives > 0).then(pl.col("fp") / negatives),
        )
        .drop("_positives", "_negatives")
    )
