"""
Cumulative/dynamic AUC at several horizons: the kernels of :mod:`polars_roc.survival`.

:func:`sorted_rows` puts each group's counted rows in two orders in one Polars aggregation
(both sorts run per group, on every core): by time, for the Kaplan–Meier curves of
:func:`censoring` (the censoring curve ``G`` that weights the cases, the survival curve ``S``
that weights ``mean_auc``), and by score, for the Mann-Whitney numerators of
:func:`dynamic_counts`. A group's rows stay together in both orders (its block
``bounds[g]:bounds[g + 1]``), so every later gather stays within a group's block.

At horizon ``j`` a row is a control when its time exceeds the horizon (``bucket > j``, the
bucket being the number of horizons before its time) and a case when it had an event by then
(``event and bucket <= j``), weighted by its IPCW weight. Expanding every row once per
horizon and calling the weighted AUC kernel gives the same numbers (the tests check it) but
sorts ``rows × horizons`` rows; here each horizon is one running count of its controls in
score order, read at its cases: ``U_j = Σ_cases w · (controls below + ½ controls tied)``.

The numpy kernels run a block of whole groups at a time (about :data:`BLOCK_ROWS` rows,
:func:`blocks`), on a thread each (:func:`each_block`): a block's temporaries are small, so
the allocator reuses them instead of asking the system for fresh memory at every step, and
numpy releases the interpreter lock in its loops, so blocks run on every core.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
import polars as pl

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
RowArray = npt.NDArray[np.unsignedinteger]  # row numbers of a frame (Polars' uint32)

#: Rows per block of whole groups: the kernels run a block at a time, so that their
#: temporaries stay small (reused by the allocator, near the cache) whatever the frame's size.
BLOCK_ROWS = 1 << 20


class Dynamic(NamedTuple):
    """Per group and horizon (``[group, horizon]`` arrays)."""

    u: FloatArray  # weighted Mann-Whitney numerator
    case_weight: FloatArray
    cases: IntArray
    controls: IntArray


class Censoring(NamedTuple):
    """The IPCW weight of each row (in the order given) and ``S`` per group and horizon."""

    weight: FloatArray  # 1 / G(time) for an event (inf where G fell to 0), 1 otherwise
    survival: FloatArray  # [group, horizon]: Kaplan–Meier S at the horizon (1 before any time)


class Sorted(NamedTuple):
    """Each group's counted rows by time and by score: row numbers and values."""

    keys: pl.DataFrame  # one row per group, sorted by the keys (nulls last)
    bounds: IntArray  # [group + 1]: group g holds positions bounds[g]:bounds[g + 1]
    by_time: RowArray  # row numbers of the frame
    time: FloatArray  # their times (ascending within a group)
    event: BoolArray  # their events
    by_score: RowArray  # row numbers of the frame (empty when no score was asked for)
    score: npt.NDArray[np.generic]  # their scores (ascending within a group)


def sorted_rows(
    df: pl.DataFrame, keys: list[str], *, time: str, event: str, score: str | None = None
) -> Sorted:
    """
    The rows of `df` whose `time` is not null, grouped by `keys`, by time and by `score`.

    Every group of `df` is kept (a group without counted rows has an empty block). Tied
    values come in no particular order. The values come out of the same sort (no gather).

    Examples
    --------
    >>> import polars as pl
    >>> from polars_roc.survival._dynamic import sorted_rows
    >>> df = pl.DataFrame(
    ...     {"g": [1, 0, 1, 0], "t": [3.0, 2.0, 1.0, None], "e": [True] * 4, "s": [0, 5, 9, 1]}
    ... )
    >>> rows = sorted_rows(df, ["g"], time="t", event="e", score="s")
    >>> rows.bounds.tolist(), rows.by_time.tolist(), rows.time.tolist(), rows.score.tolist()
    ([0, 1, 3], [1, 2, 0], [2.0, 1.0, 3.0], [5, 0, 9])
    """
    index = "__roc_row"
    counted = pl.col(time).is_not_null()
    row, when = pl.col(index).filter(counted).alias("r"), pl.col(time).filter(counted)
    fields = [row, when.alias("t"), pl.col(event).filter(counted).alias("e")]
    orders = [pl.struct(fields).sort_by(when).alias("_time")]
    if score is not None:
        by = pl.col(score).filter(counted)
        orders.append(pl.struct(row, by.alias("s")).sort_by(by).alias("_score"))
    lists = (
        df.select(*keys, time, event, *([] if score is None else [score]))
        .with_row_index(index)
        .group_by(keys)
        .agg(orders)
        .sort(keys, nulls_last=True)
    )
    bounds = np.zeros(lists.height + 1, dtype=np.int64)
    np.cumsum(lists["_time"].list.len().to_numpy(), out=bounds[1:])
    by_time = lists["_time"].explode().drop_nulls().struct.unnest()
    by_score = (
        lists["_score"].explode().drop_nulls().struct.unnest()
        if score is not None
        else pl.DataFrame({"r": [], "s": []}, schema={"r": pl.UInt32, "s": pl.Float64})
    )
    return Sorted(
        lists.select(keys),
        bounds,
        by_time["r"].to_numpy(),
        by_time["t"].to_numpy(),
        by_time["e"].to_numpy(),
        by_score["r"].to_numpy(),
        by_score["s"].to_numpy(),
    )


def group_ids(bounds: IntArray) -> IntArray:
    """
    The group of each position of blocks ``bounds[g]:bounds[g + 1]`` (a cumulative count).

    Examples
    --------
    >>> import numpy as np
    >>> group_ids(np.array([0, 2, 2, 5])).tolist()  # group 1 is empty
    [0, 0, 2, 2, 2]
    """
    marks = np.zeros(int(bounds[-1]), dtype=np.int64)
    starts = bounds[1:-1]
    np.add.at(marks, starts[starts < len(marks)], 1)
    return np.cumsum(marks, out=marks)


def _per_bucket(
    index: IntArray, n_groups: int, n_buckets: int, weights: FloatArray | None = None
) -> FloatArray:
    """``[group, j]``: the rows (or `weights`) of the group in buckets ``<= j``."""
    counts = np.bincount(index, weights=weights, minlength=n_groups * n_buckets)
    return np.cumsum(counts.reshape(n_groups, n_buckets), axis=1)


def _runs(values: npt.NDArray[np.generic], bounds: IntArray) -> IntArray:
    """The first position of each run of one value within a group's block."""
    new = np.empty(len(values), dtype=bool)
    new[:1] = True
    np.not_equal(values[1:], values[:-1], out=new[1:])
    new[bounds[1:-1][bounds[1:-1] < len(values)]] = True
    return np.flatnonzero(new)


def _run_of(starts: IntArray, n: int) -> IntArray:
    """The run (index into `starts`, the runs' first positions) of each of `n` positions."""
    run = np.zeros(n, dtype=np.int64)
    run[starts[1:]] = 1
    return np.cumsum(run, out=run)


def _segmented_cumprods(segment: IntArray, *factors: FloatArray) -> list[FloatArray]:
    """The running products of each of `factors`, restarting at each segment (sorted)."""
    frame = pl.DataFrame({"s": segment, **{f"f{i}": f for i, f in enumerate(factors)}})
    products = frame.select(pl.exclude("s").cum_prod().over("s", mapping_strategy="explode"))
    return [column.to_numpy() for column in products.get_columns()]


def censoring(
    time: FloatArray,
    event: BoolArray,
    bounds: IntArray,
    bucket: npt.NDArray[np.integer],
    n_horizons: int,
) -> Censoring:
    """
    Kaplan–Meier curves of each group's censoring times (``G``) and event times (``S``).

    `time` and `event` are in a :class:`Sorted` time order (each group's block by time),
    `bucket` the number of horizons before each time. At a tied time events come first:
    ``G(t) = Π_{s <= t} (1 - c_s / (r_s - d_s))`` and ``S(t) = Π_{s <= t} (1 - d_s / r_s)``,
    with ``r_s`` the rows at risk (``time >= s``), ``d_s`` the events and ``c_s`` the
    censorings at ``s``. A case is weighted by ``G`` at its own time, censorings at that time
    included (scikit-survival's rule).

    Examples
    --------
    >>> import numpy as np
    >>> from polars_roc.survival._dynamic import censoring
    >>> out = censoring(
    ...     np.array([1.0, 2.0, 3.0, 4.0]), np.array([True, False, True, True]),
    ...     np.array([0, 4]), np.array([0, 0, 1, 1]), 1
    ... )
    >>> out.weight.tolist()  # the censoring at 2 leaves G = 2/3 from then on
    [1.0, 1.0, 1.5, 1.5]
    >>> out.survival.tolist()  # S at the horizon between 2 and 3: 3/4
    [[0.75]]
    """
    n, n_groups = len(time), len(bounds) - 1
    starts = _runs(time, bounds)  # runs of one time within a group
    if len(starts) == n:  # no tied times: each row is its own run
        run_group = group_ids(bounds)
        d = event.astype(np.float64)
        c = 1 - d
    else:
        ends = np.append(starts[1:], n)
        events_before = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(event, out=events_before[1:])
        d = (events_before[ends] - events_before[starts]).astype(np.float64)
        c = (ends - starts) - d
        run_group = np.searchsorted(bounds, starts, side="right") - 1
    at_risk = (bounds[run_group + 1] - starts).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        g_factor = np.where(at_risk > d, 1 - c / (at_risk - d), 1.0)
        s_factor = 1 - d / at_risk
        big_g, big_s = _segmented_cumprods(run_group, g_factor, s_factor)
        inverse = np.divide(1.0, big_g)
    weight = np.where(event, inverse if len(starts) == n else inverse[_run_of(starts, n)], 1.0)
    # S at horizon j: the group's last run at a time <= t_j (bucket <= j).
    runs = _per_bucket(run_group * (n_horizons + 1) + bucket[starts], n_groups, n_horizons + 1)
    runs = runs[:, :n_horizons].astype(np.int64)
    first_run = np.searchsorted(run_group, np.arange(n_groups), side="left")
    last_run, seen = first_run[:, None] + runs - 1, runs > 0
    survival = np.where(seen, big_s[np.maximum(last_run, 0)] if len(big_s) else 1.0, 1.0)
    return Censoring(weight, survival.astype(np.float64))


def dynamic_counts(
    score: npt.NDArray[np.generic],
    bucket: npt.NDArray[np.integer],
    weight: FloatArray,
    bounds: IntArray,
    n_horizons: int,
) -> Dynamic:
    """
    The numerators and class sizes of AUC(t_j) for every group and horizon.

    The arrays are in a :class:`Sorted` score order (each group's block by score); `weight`
    is a row's case weight (``inf`` where ``G`` fell to 0: counted, not weighted), 0 for a
    row that is a case at no horizon (censored, or its event after the last horizon).
    `score` keeps its own dtype (integers compare exactly); NaN scores are the caller's.

    Examples
    --------
    >>> import numpy as np
    >>> from polars_roc.survival._dynamic import dynamic_counts
    >>> out = dynamic_counts(
    ...     np.array([0.2, 0.4, 0.7, 0.9]), np.array([2, 2, 1, 0]),
    ...     np.array([1.0, 0.0, 1.0, 1.0]), np.array([0, 4]), 2
    ... )
    >>> (out.u / (out.case_weight * out.controls)).tolist()  # AUC at the two horizons
    [[1.0, 1.0]]
    """
    n, n_groups, cells = len(score), len(bounds) - 1, n_horizons + 1
    group = group_ids(bounds)
    index = group * cells + bucket
    rows = _per_bucket(index, n_groups, cells)
    controls = (rows[:, -1:] - rows[:, :n_horizons]).astype(np.int64)
    at = np.flatnonzero(weight)  # the rows that are a case at some horizon, by position
    at_index = index[at]
    cases = _per_bucket(at_index, n_groups, cells)[:, :n_horizons].astype(np.int64)
    mass = weight[at]
    mass[np.isinf(mass)] = 0.0
    case_weight = _per_bucket(at_index, n_groups, cells, mass)[:, :n_horizons]
    u = np.zeros((n_groups, n_horizons))
    if len(at) == 0:
        return Dynamic(u, case_weight, cases, controls)
    # The cases by bucket (then position): the cases at horizon j are a prefix of them.
    by_bucket = np.argsort(bucket[at], kind="stable")
    at, mass, case_group = at[by_bucket], mass[by_bucket], group[at][by_bucket]
    prefix = np.searchsorted(bucket[at], np.arange(n_horizons), side="right")
    starts = _runs(score, bounds)  # runs of one score within a group
    if len(starts) == n:  # no tied scores: a case's run is itself (and holds no control)
        first, past = at, None
    else:
        level = _run_of(starts, n)[at]
        first, past = starts[level], np.append(starts[1:], n)[level]
    # Controls before each position, counted from the block's start: a case's count within
    # its group is that minus its group's first count, taken off per group after the sum.
    below: IntArray = np.zeros(n + 1, dtype=np.int32 if n < 2**31 else np.int64)
    control = np.empty(n, dtype=bool)
    for j in range(n_horizons):
        m = prefix[j]
        np.greater(bucket, j, out=control)
        np.cumsum(control, out=below[1:])
        lo = below[first[:m]]
        pairs: npt.NDArray[np.number] = lo if past is None else lo + (below[past[:m]] - lo) / 2
        u[:, j] = np.bincount(case_group[:m], weights=mass[:m] * pairs, minlength=n_groups)
        u[:, j] -= below[bounds[:-1]] * case_weight[:, j]
    return Dynamic(u, case_weight, cases, controls)


class Table(NamedTuple):
    """:func:`dynamic_counts` of every group, with ``S`` and the horizons left unweighted."""

    counts: Dynamic
    survival: FloatArray  # [group, horizon]
    unweighted: BoolArray  # [group, horizon]: a case there has G = 0 (no weight)
    has_nan: BoolArray  # [group]: a NaN score among the counted rows


def blocks(bounds: IntArray, rows: int | None = None) -> list[tuple[int, int]]:
    """
    Consecutive ranges ``(g0, g1)`` of groups of about `rows` rows each; a group is whole.

    `rows` defaults to :data:`BLOCK_ROWS`.

    Examples
    --------
    >>> import numpy as np
    >>> from polars_roc.survival._dynamic import blocks
    >>> blocks(np.array([0, 3, 4, 9, 10]), rows=4)
    [(0, 2), (2, 4)]
    """
    total, rows = int(bounds[-1]), rows or BLOCK_ROWS
    first = np.searchsorted(bounds, np.arange(0, total, rows), side="right") - 1
    cuts = np.unique(np.concatenate(([0], first, [len(bounds) - 1])))
    return [(int(a), int(b)) for a, b in pairwise(cuts) if a < b]


def each_block(bounds: IntArray, work: Callable[[int, int], None]) -> None:
    """
    Run ``work(g0, g1)`` on every block of :func:`blocks`, on Polars' threads' worth of workers.

    The blocks hold disjoint groups and rows, so `work` writes its own slices of shared
    output arrays; numpy releases the interpreter lock in its loops, so blocks run at once.

    Examples
    --------
    >>> import numpy as np
    >>> seen = []
    >>> each_block(np.array([0, 3, 5]), lambda g0, g1: seen.append((g0, g1)))
    >>> seen
    [(0, 2)]
    """
    parts = blocks(bounds)
    workers = min(pl.thread_pool_size(), len(parts))
    if workers <= 1:
        for part in parts:
            work(*part)
        return
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for done in [pool.submit(work, *part) for part in parts]:
            done.result()


def case_weights(order: Sorted, n_rows: int) -> FloatArray:
    """
    The IPCW weight of every row (input order; 1 for a row not counted or not an event).

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"g": [0] * 4, "t": [1.0, 2.0, 3.0, 4.0], "e": [1, 0, 1, 1]})
    >>> df = df.with_columns(pl.col("e").cast(pl.Boolean))
    >>> case_weights(sorted_rows(df, ["g"], time="t", event="e"), df.height).tolist()
    [1.0, 1.0, 1.5, 1.5]
    """
    weight, bounds = np.ones(n_rows), order.bounds

    def block(g0: int, g1: int) -> None:
        lo, hi = bounds[g0], bounds[g1]
        local, none = bounds[g0 : g1 + 1] - lo, np.zeros(hi - lo, dtype=np.int8)
        found = censoring(order.time[lo:hi], order.event[lo:hi], local, none, 0)
        weight[order.by_time[lo:hi]] = found.weight

    each_block(bounds, block)
    return weight


def dynamic_table(order: Sorted, n_rows: int, horizons: FloatArray) -> Table:
    """
    Every group's AUC(t) counts, a block of whole groups at a time (:func:`each_block`).

    Within a block the rows go from time order to score order by their row numbers: a
    scratch array holds each row's place in its block's time order, read in score order.

    Examples
    --------
    >>> import numpy as np
    >>> import polars as pl
    >>> df = pl.DataFrame(
    ...     {"g": [0] * 4, "s": [0.9, 0.7, 0.4, 0.2], "t": [1.0, 3.0, 5.0, 9.0],
    ...      "e": [True, True, False, True]}
    ... )  # fmt: skip
    >>> order = sorted_rows(df, ["g"], time="t", event="e", score="s")
    >>> found = dynamic_table(order, df.height, np.array([2.0, 4.0]))
    >>> (found.counts.u / (found.counts.case_weight * found.counts.controls)).tolist()
    [[1.0, 1.0]]
    """
    n_groups, n_horizons, bounds = len(order.bounds) - 1, len(horizons), order.bounds
    cells = (n_groups, n_horizons)
    u, case_weight = np.zeros(cells), np.zeros(cells)
    cases, controls = np.zeros(cells, dtype=np.int64), np.zeros(cells, dtype=np.int64)
    survival, unweighted = np.ones(cells), np.zeros(cells, dtype=bool)
    has_nan = np.zeros(n_groups, dtype=bool)
    place = np.empty(n_rows, dtype=np.int32 if n_rows < 2**31 else np.int64)
    floats = order.score.dtype.kind == "f"

    def block(g0: int, g1: int) -> None:
        lo, hi = bounds[g0], bounds[g1]
        local = bounds[g0 : g1 + 1] - lo
        t, e = order.time[lo:hi], order.event[lo:hi]
        bucket = np.searchsorted(horizons, t, side="left").astype(_small(n_horizons))
        weighted = censoring(t, e, local, bucket, n_horizons)
        survival[g0:g1] = weighted.survival
        case = e & (bucket < n_horizons)
        infinite = np.flatnonzero(case & np.isinf(weighted.weight))
        if len(infinite):  # a case whose censoring curve fell to 0: its horizons are undefined
            group = np.searchsorted(local, infinite, side="right") - 1
            index = group * (n_horizons + 1) + bucket[infinite]
            hits = _per_bucket(index, g1 - g0, n_horizons + 1)[:, :n_horizons]
            unweighted[g0:g1] = hits > 0
        place[order.by_time[lo:hi]] = np.arange(hi - lo)
        moved = place[order.by_score[lo:hi]]  # score order, as places in time order
        values = order.score[lo:hi]
        nan = np.isnan(values) if floats else None
        if nan is not None and nan.any():
            has_nan[g0 + np.searchsorted(local, np.flatnonzero(nan), side="right") - 1] = True
            values = np.where(nan, 0, values)
        weight = np.where(case, weighted.weight, 0.0)
        counts = dynamic_counts(values, bucket[moved], weight[moved], local, n_horizons)
        u[g0:g1], case_weight[g0:g1] = counts.u, counts.case_weight
        cases[g0:g1], controls[g0:g1] = counts.cases, counts.controls

    each_block(bounds, block)
    return Table(Dynamic(u, case_weight, cases, controls), survival, unweighted, has_nan)


def _small(bound: int) -> type[np.integer]:
    """The narrowest integer type holding ``0..bound`` (fewer bytes per pass)."""
    return np.int8 if bound < 2**7 else np.int16 if bound < 2**15 else np.int64
