"""AUC per group of a frame from one sort: running sums over tie blocks, no rank.

The frame-level twin of :func:`polars_roc._core.kernels.auc_of` (which must stay a single
expression for ``select``, ``group_by().agg()`` and ``over()``). A frame may stage its work
in columns, so every step below runs once:

1. code the rows once (:func:`polars_roc._core.kernels.coded`); rows that do not count
   keep their group with ``_tp = _fp = 0`` and a null score, so every group of the input
   has a row out;
2. sort by score alone (without groups or weights: each class's scores sorted apart and
   merged by as-of joins, and no step below), then by group with a stable single-key
   sort (an ``int_range`` between the two keeps Polars from merging them into one slower
   multi-key sort);
3. each group's running sum of negatives ``C`` (a window: a Float64 sum over the whole
   frame less its value before the group would lose a group's small weights); each tie
   block's ``C`` before and after it, by forward/backward fills;
4. each row adds ``tp * (before + after)``: twice the negatives below it plus the tied
   ones, i.e. ``2 U`` of Mann-Whitney with ties counting one half;
5. one aggregation per group (sorted keys: Polars' sorted group-by).

Steps 3-5 run for weighted rows (Float64 sums; without groups the sort carries one signed
weight, :func:`_signed`); unweighted rows take the class sorts and as-of joins without
groups, and ranks within groups with them (exact Int64 or half-integer sums). Under one
integer key, groups of at most :data:`PAIRED` rows count their pairs instead, weighted or
not (:func:`_paired`, :func:`_paired_weighted`): a window or a rank costs about 1.5 µs per
group however small the group.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from polars_roc._core import checks, kernels
from polars_roc._core.groups import at_block_end, before_block, changed, summarize


def auc_table(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    names: Sequence[str],
    weight: str | None,
    pos_label: Any,
    label_dtype: pl.DataType | None = None,
) -> pl.LazyFrame:
    """
    ``*names, auc, n_pos, n_neg`` per group, sorted by group (nulls last).

    `auc` is null for a group without positives or negatives, or with a NaN score.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.LazyFrame(
    ...     {"g": ["b", "b", "a", "a", "a"], "s": [0.2, 0.7, 0.5, 0.5, 0.9], "y": [1, 0, 1, 0, 1]}
    ... )
    >>> auc_table(df, "s", "y", names=["g"], weight=None, pos_label=None).collect()
    shape: (2, 4)
    ┌─────┬──────┬───────┬───────┐
    │ g   ┆ auc  ┆ n_pos ┆ n_neg │
    │ --- ┆ ---  ┆ ---   ┆ ---   │
    │ str ┆ f64  ┆ i64   ┆ i64   │
    ╞═════╪══════╪═══════╪═══════╡
    │ a   ┆ 0.75 ┆ 2     ┆ 1     │
    │ b   ┆ 0.0  ┆ 1     ┆ 1     │
    └─────┴──────┴───────┴───────┘
    """
    names = list(names)
    weighted = weight is not None
    # Unweighted without groups, rows that do not count are dropped; otherwise masked, so
    # that every group of the input has a row out.
    coded = kernels.coded(
        lf,
        score,
        label,
        names=names,
        weight=weight,
        pos_label=pos_label,
        label_dtype=label_dtype,
        masked=weighted or bool(names),
    )
    if not weighted:
        return _aggregated(coded, names) if names else _merged(coded)
    if not names:
        return _signed(coded)
    if _one_integer_key(coded, names):
        key = names[0]
        rows = _by_size(coded, key)
        small = pl.col("_small")
        big = _weighted(rows.filter(~small).drop("_small"), names)
        paired = _paired_weighted(rows.filter(small), key)
        return pl.concat([big, paired], how="vertical_relaxed").sort(key, nulls_last=True)
    return _weighted(coded, names)


def _weighted(coded: pl.LazyFrame, names: list[str]) -> pl.LazyFrame:
    """Weighted AUC per group: running sums of each group's scaled weights over tie blocks."""
    yy, ww = pl.col("_y"), pl.col("_w")
    # Each group's weights times a power of two (exact): products of weights in U neither
    # overflow nor underflow; the class totals are reported from the weights as given.
    sw = kernels.scaled(ww).over(names)
    # The sorts carry the coded columns and the scaled weight; the four sums are formed
    # after them (1.8x faster without groups, 1.6x with, than sorting the four formed
    # columns; 2M rows).
    rows = coded.select(*names, "_s", "_y", "_w", _sw=sw).sort("_s", nulls_last=True)
    # The index keeps the two sorts apart (see the module docstring).
    rows = rows.with_columns(_i=pl.int_range(pl.len(), dtype=pl.UInt32)).sort(
        names, nulls_last=True, maintain_order=True
    )
    keep, sw = yy.is_not_null(), pl.col("_sw")
    rows = rows.select(
        *names,
        "_s",
        _tp=pl.when(keep & yy).then(sw).otherwise(0.0),
        _fp=pl.when(keep & ~yy).then(sw).otherwise(0.0),
        _np=pl.when(keep & yy).then(ww).otherwise(0.0),
        _nn=pl.when(keep & ~yy).then(ww).otherwise(0.0),
    )
    totals = [pl.col("_np").sum().alias("n_pos"), pl.col("_nn").sum().alias("n_neg")]
    return _summed(rows, names, totals)


#: Groups of at most this many rows (one integer key) compare every pair of their rows.
PAIRED = 8


def _aggregated(coded: pl.LazyFrame, names: list[str]) -> pl.LazyFrame:
    """
    Unweighted AUC per group: Mann-Whitney from average ranks within each group.

    With integer counts and groups of tens of rows or more, ranking inside each group (in
    parallel across groups) beats two frame sorts by 1.3-1.7x. Rows are masked once over
    the frame, and the aggregation holds only plain sums (a filter or a ``when`` evaluated
    per group costs more than the rank); the AUC is formed after it.

    One integer key: the rows are sorted by it and flagged, and the group-by ranks each
    slice (1.2-1.5x faster with the sort included, 4M rows, 10 to 400k groups). A rank per
    group costs about 1.5 microseconds however small the group, so groups of at most
    :data:`PAIRED` rows (counted by a window over the sorted rows) compare their rows pair
    by pair instead (:func:`_paired`). 4M rows, medians of 5 taken in turn: 2M groups of 2
    rows 3.1-3.4 s to 0.62-0.74 s, of 5 rows 1.4-1.6 s to 0.58-0.75 s; but 40k groups of
    100 rows, where no group is paired, 0.33-0.37 s to 0.40-0.50 s, and groups of 9 to 32
    rows 1.1-1.4x slower too: the count and the split cost that much. A lazy plan cannot
    see the group sizes to skip them; this trade keeps every size within 2-3x of the cost
    per row of 100-row groups (9-row groups the dearest; 2-row groups were 8.6-9.5x).

    Other keys (strings, several columns) rank in a window and sum in a plain group-by:
    1.2x faster than ranking in a hash group-by (4M rows, 3 x 1,000 groups), and on 100M
    Parquet rows with the streaming engine 11.5 s and 3.5 GB peak against 28 s and 6.9 GB.
    The window holds twice the rank as UInt32 (half the memory of the Float64 rank; a group
    of 2**31 rows or more makes the strict cast raise instead of wrapping).
    """
    s, y = pl.col("_s"), pl.col("_y")
    counts = [
        y.sum().cast(pl.Int64).alias("n_pos"),
        (~y).sum().cast(pl.Int64).alias("n_neg"),
        checks.is_nan(s).any().alias("_nan"),
    ]
    n_pos = pl.col("n_pos")
    # Twice the Mann-Whitney U: `_ranks`, twice the positives' rank sum, less P (P + 1), exact.
    twice_u = pl.col("_ranks") - n_pos * (n_pos + 1)
    if _one_integer_key(coded, names):
        key = names[0]
        small = pl.col("_small")
        rows = _by_size(coded, key)
        ranks = (2 * (s.rank("average") * y).sum()).alias("_ranks")  # exact: half-integers
        ranked = rows.filter(~small).group_by(key, maintain_order=True).agg(ranks, *counts)
        ranked = ranked.select(key, _u=twice_u, n_pos="n_pos", n_neg="n_neg", _nan="_nan")
        paired = _paired(rows.filter(small), key)
        sums = pl.concat([ranked, paired], how="vertical_relaxed").sort(key, nulls_last=True)
    else:
        coded = coded.with_columns(_r=(2 * s.rank("average")).cast(pl.UInt32).over(names))
        # A product, not a filter: the streaming engine streams plain sums of elementwise
        # expressions and gathers the whole frame in memory for a filter (2.2x the peak).
        ranks = (pl.col("_r").cast(pl.Int64) * y).sum().alias("_ranks")  # twice the sum
        sums = summarize(coded, names, [ranks, *counts]).with_columns(_u=twice_u)
    return sums.select(*names, _auc("n_pos", "n_neg"), "n_pos", "n_neg")


def _one_integer_key(coded: pl.LazyFrame, names: list[str]) -> bool:
    """Whether the groups are one integer column: the route of sorted keys and pairs."""
    return len(names) == 1 and coded.collect_schema()[names[0]].is_integer()


def _by_size(coded: pl.LazyFrame, key: str) -> pl.LazyFrame:
    """
    Rows sorted by an integer `key` (nulls last), flagged ``_small`` in small groups.

    A window counts each group's rows; groups of at most :data:`PAIRED` rows are small.
    The rows are cached: each size takes its own branch.
    """
    rows = coded.sort(key, nulls_last=True).with_columns(pl.col(key).set_sorted())
    return rows.with_columns(_small=pl.len().over(key) <= PAIRED).cache()


def _pair_terms(key: str, weight: pl.Expr | None = None) -> list[pl.Expr]:
    """
    Each row's pairs with the next ``PAIRED - 1`` rows of its group (`key`, rows sorted by it).

    A positive-negative pair adds 2 when the positive scores higher, 1 for a tie and 0 when
    lower (twice its Mann-Whitney count; -0.0 and 0.0 tie, as in the ranks), times the
    product of the two rows' `weight` when given. One expression per step.
    """
    s, y, g = pl.col("_s"), pl.col("_y"), pl.col(key)
    side = y.cast(pl.Int8) * 2 - 1  # +1 for a positive, -1 for a negative, null otherwise
    terms = []
    for step in range(1, PAIRED):
        other = s.shift(-step)
        order = (s > other).cast(pl.Int8) - (s < other).cast(pl.Int8)
        pair = g.eq_missing(g.shift(-step)) & (side * side.shift(-step) == -1)
        twice = 1 + side * order
        if weight is None:
            terms.append(pl.when(pair).then(twice).otherwise(0))
        else:
            terms.append(pl.when(pair).then(weight * weight.shift(-step) * twice).otherwise(0.0))
    return terms


def _paired(rows: pl.LazyFrame, key: str) -> pl.LazyFrame:
    """
    ``key, _u, n_pos, n_neg, _nan`` of groups of at most :data:`PAIRED` rows, sorted by key.

    `rows` are sorted by `key`, so each row meets every other row of its group within the
    next ``PAIRED - 1`` rows: each positive-negative pair adds 2 when the positive scores
    higher, 1 for a tie and 0 when lower (twice U; -0.0 and 0.0 tie, as in the ranks). The
    sums per group are differences of running Int64 sums at each group's last row (exact;
    a sorted group-by of plain sums alone cost 0.35 s over 2M groups).
    """
    s, y = pl.col("_s"), pl.col("_y")
    last = changed([key]).shift(-1, fill_value=True)
    running = rows.select(
        key,
        _last=last,
        _u=pl.sum_horizontal(_pair_terms(key)).cast(pl.Int64).cum_sum(),
        n_pos=y.fill_null(False).cast(pl.Int64).cum_sum(),
        n_neg=(~y).fill_null(False).cast(pl.Int64).cum_sum(),
        _nan=checks.is_nan(s).fill_null(False).cast(pl.Int64).cum_sum(),
    )

    def since(column: str) -> pl.Expr:  # the group's own part of a running sum
        return pl.col(column) - pl.col(column).shift(1, fill_value=0)

    ends = running.filter("_last")
    return ends.select(key, since("_u"), since("n_pos"), since("n_neg"), _nan=since("_nan") > 0)


def _paired_weighted(rows: pl.LazyFrame, key: str) -> pl.LazyFrame:
    """
    ``key, auc, n_pos, n_neg`` of weighted groups of at most :data:`PAIRED` rows, by key.

    The pairs of :func:`_paired`, each times the product of its two scaled weights. Each
    group's weights are scaled by a power of two bringing its largest near 1, as in
    :func:`_weighted`: the largest binary exponent comes from one running maximum over the
    frame of ``group number * 4096 + exponent`` (exponents of doubles span fewer than 4096
    values), read at each group's last row, with no window. The float sums stay per group
    (a sorted group-by of plain sums): a running sum over the frame, less its value before
    the group, would lose a group's small weights. 4M rows in 2M groups of 2: 4.2-5.5 s with
    the two windows per group of :func:`_weighted`, 1.9-2.3 s (old and new run in turn).
    """
    s, y, w, sw = pl.col("_s"), pl.col("_y"), pl.col("_w"), pl.col("_sw")
    group = changed([key]).cum_sum().cast(pl.Int64) * 4096
    code = group + 2048 + w.log(2.0).floor().cast(pl.Int64).fill_null(-2048)
    last = changed([key]).shift(-1, fill_value=True)
    exponent = pl.when(last).then(code.cum_max()).backward_fill() - group - 2048
    rows = rows.with_columns(_sw=kernels.scaled(w, exponent=exponent))
    keep = y.is_not_null()
    positive, negative = keep & y, keep & ~y
    sums = rows.select(
        key,
        _u=pl.sum_horizontal(_pair_terms(key, sw)),
        _ps=pl.when(positive).then(sw).otherwise(0.0),
        _ns=pl.when(negative).then(sw).otherwise(0.0),
        n_pos=pl.when(positive).then(w).otherwise(0.0),
        n_neg=pl.when(negative).then(w).otherwise(0.0),
        _nan=checks.is_nan(s).fill_null(False),
    )
    columns = ("_u", "_ps", "_ns", "n_pos", "n_neg")
    totals = sums.group_by(key, maintain_order=True).agg(
        *(pl.col(c).sum() for c in columns), pl.col("_nan").any()
    )
    return totals.select(key, _auc("_ps", "_ns"), "n_pos", "n_neg")


def _merged(coded: pl.LazyFrame) -> pl.LazyFrame:
    """
    The single unweighted AUC: the sorted positives merged with the sorted negatives.

    Each class is sorted apart and the negatives carry their 1-based position. Two as-of
    joins, linear merges of the sorted classes, give each positive the position of the last
    negative strictly below it and of the last at or below it: the negatives below it and
    those at or below it, whose sum is twice its Mann-Whitney count (ties one half).
    0.13 s against 0.22 s for two ``search_sorted`` over the sorted negatives (binary
    searches; 4M rows, median of 9, taken in turn), 0.065 s against 0.10 s on scores with
    few distinct values. The coded rows are cached: every branch reads them, and without
    the cache the optimizer gives the negatives their own scan and label coding. (Weighted
    rows gain nothing from it: sorting each class with its weights costs what one sort of
    the frame does, so they take the running sums below.)
    """
    s, y, c = pl.col("_s"), pl.col("_y"), pl.col("_c")
    # The as-of joins compare floats as IEEE numbers: -0.0 and 0.0 tie, in either order.
    rows = coded.select(s, y).cache()
    positives = rows.filter(y).select(s.sort())
    negatives = rows.filter(~y).select(s.sort()).with_row_index("_c", offset=1)
    below = positives.join_asof(
        negatives.select(s, _lt=c), on="_s", strategy="backward", allow_exact_matches=False
    ).join_asof(negatives.select(s, _le=c), on="_s", strategy="backward")
    twice_u = pl.col("_lt").cast(pl.Int64).sum() + pl.col("_le").cast(pl.Int64).sum()
    n_pos = y.sum().cast(pl.Int64)
    totals = rows.select(
        n_pos=n_pos,
        n_neg=pl.len().cast(pl.Int64) - n_pos,
        _nan=checks.is_nan(s).any(),
    )
    sums = pl.concat([totals, below.select(_u=twice_u)], how="horizontal")
    return sums.select(_auc("n_pos", "n_neg"), "n_pos", "n_neg")


def _signed(coded: pl.LazyFrame) -> pl.LazyFrame:
    """
    The single weighted AUC: the sort carries the score and one signed, scaled weight.

    Each row's weight times a power of two (:func:`~polars_roc._core.kernels.scaled`),
    negated for a negative and zero for a row that does not count, is the one column the
    sort carries with the score: 1.15x faster than carrying the label and both weights (4M
    rows, 0.42 s to 0.37 s, median of 7 taken in turn; the frame method 1.08x, in
    ``bench_core``). The class totals are the weights as given, summed from the cached
    coded rows: a weight too small beside the largest to survive the scaling still counts.
    """
    y, w, v = pl.col("_y"), pl.col("_w"), pl.col("_v")
    coded = coded.cache()  # the sort and the class totals both read it
    signed = pl.when(y.is_not_null()).then(pl.when(y).then(w).otherwise(-w)).otherwise(0.0)
    rows = coded.select("_s", _v=kernels.scaled(signed, w.max())).sort("_s", nulls_last=True)
    tp, fp = v.clip(lower_bound=0.0), (-v).clip(lower_bound=0.0)
    auc = _summed(rows.select("_s", _tp=tp, _fp=fp), [])
    totals = coded.select(n_pos=w.filter(y).sum(), n_neg=w.filter(~y).sum())
    return pl.concat([auc, totals], how="horizontal")


def _auc(positives: str, negatives: str) -> pl.Expr:
    """
    ``_u / 2 / (positives * negatives)``: null for an empty class or with a NaN score.

    Halving is exact, so from integer counts the AUC is rounded once, bit for bit as by the
    grouped and expression routes (``_u / (2 * n_pos) / n_neg`` rounded twice: 23/60 came
    out 0.37878787878787884).
    """
    n_pos, n_neg = pl.col(positives).cast(pl.Float64), pl.col(negatives).cast(pl.Float64)
    defined = (n_pos > 0) & (n_neg > 0) & ~pl.col("_nan")
    return pl.when(defined).then(pl.col("_u").cast(pl.Float64) / 2 / (n_pos * n_neg)).alias("auc")


def _summed(rows: pl.LazyFrame, names: list[str], totals: Sequence[pl.Expr] = ()) -> pl.LazyFrame:
    """From weighted rows sorted by group then score: the AUC per group, and `totals`."""
    fp, tp = pl.col("_fp"), pl.col("_tp")
    block = changed([*names, "_s"])
    # Each group's own running sum: one over the whole frame less its value before the
    # group lost a group's small weights beside the earlier groups' sum (negatives weighing
    # 2**-51 of the positives gave an AUC of 0.0 for 0.5). Integer counts never come here.
    running = fp.cum_sum().over(names) if names else fp.cum_sum()
    rows = rows.with_columns(_c=running, _block=block)
    c, first = pl.col("_c"), pl.col("_block")
    twice_u = tp * (before_block(c, fp, first) + at_block_end(c, first))
    rows = rows.with_columns(_u=twice_u)
    measures = [
        pl.col("_u").sum().alias("_u"),
        tp.sum().alias("_ps"),
        fp.sum().alias("_ns"),
        *totals,
        checks.is_nan(pl.col("_s")).any().alias("_nan"),
    ]
    if names:
        sums = rows.group_by(names, maintain_order=True).agg(measures)
    else:
        sums = rows.select(measures)
    return sums.select(*names, _auc("_ps", "_ns"), *(t.meta.output_name() for t in totals))
