"""
Cumulative/dynamic AUC at several horizons: the kernels of :mod:`polars_roc.survival`.

:func:`sorted_rows` puts the counted rows in two orders with two Polars sorts (group, then
time; group, then score): by time, for the Kaplan–Meier curves of :func:`censoring` (the
censoring curve ``G`` that weights the cases, the survival curve ``S`` that weights
``mean_auc``), and by score, for the Mann-Whitney numerators of :func:`dynamic_counts`. A
group's rows stay together in both orders (its block ``bounds[g]:bounds[g + 1]``), so every
later gather stays within a group's block.

At horizon ``j`` a row is a control when its time exceeds the horizon (``bucket > j``, the
bucket being the number of horizons before its time) and a case when it had an event by then
(``event and bucket <= j``), weighted by its case weight times its IPCW weight. Expanding
every row once per horizon and calling the weighted AUC kernel gives the same numbers (the
tests check it) but sorts ``rows × horizons`` rows; here each horizon is one running sum of
its controls' weights in score order, read at its cases:
``U_j = Σ_cases w · (controls below + ½ controls tied)``.

Every running sum and product restarts at its group's start (:func:`scan_plan`): a group's
sums never pass through another group's, so their rounding is a group's own whatever the
frame's size. Sums and products run left to right, as Polars' ``cum_sum`` / ``cum_prod``.

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

from polars_roc._core.groups import changed

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
RowArray = npt.NDArray[np.unsignedinteger]  # row numbers of a frame (Polars' uint32)

#: Rows per block of whole groups: the kernels run a block at a time, so that their
#: temporaries stay small (reused by the allocator, near the cache) whatever the frame's size.
BLOCK_ROWS = 1 << 20

#: Segments longer than this are scanned one at a time (``ufunc.accumulate``); shorter ones
#: all at once, one vectorised step per position (:func:`scan_plan`).
LONG_SEGMENT = 64


class Dynamic(NamedTuple):
    """Per group and horizon (``[group, horizon]`` arrays)."""

    u: FloatArray  # weighted Mann-Whitney numerator
    case_weight: FloatArray  # Σ case weight × IPCW weight over the cases
    cases: FloatArray  # Σ case weight over the cases (their count when unweighted)
    controls: FloatArray  # Σ case weight over the controls (their count when unweighted)


class Censoring(NamedTuple):
    """The IPCW factor of each row (in the order given) and ``S`` per group and horizon."""

    weight: FloatArray  # 1 / G(time) for an event (inf where G fell to 0), 1 otherwise
    survival: FloatArray  # [group, horizon]: Kaplan–Meier S at the horizon (1 before any time)


class Sorted(NamedTuple):
    """Each group's counted rows by time and by score: row numbers and values."""

    keys: pl.DataFrame  # one row per group, sorted by the keys (nulls last)
    bounds: IntArray  # [group + 1]: group g holds positions bounds[g]:bounds[g + 1]
    by_time: RowArray  # row numbers of the frame
    time: FloatArray  # their times (ascending within a group)
    event: BoolArray  # their events
    weight: FloatArray  # their case weights (1.0 when unweighted)
    by_score: RowArray  # row numbers of the frame (empty when no score was asked for)
    score: npt.NDArray[np.generic]  # their scores (ascending within a group)


def sorted_rows(
    df: pl.DataFrame,
    keys: list[str],
    *,
    time: str,
    event: str,
    score: str | None = None,
    weight: str | None = None,
) -> Sorted:
    """
    The rows of `df` whose `time` is not null, grouped by `keys` (one or more), by time and score.

    Every group of `df` is kept (a group without counted rows has an empty block), in the
    order of the keys (nulls last). Tied values come in no particular order. `weight` names
    the case weights. Many small groups take two sorts of the frame (by the keys, then the
    value); groups of :data:`GROUP_SORT_ROWS` rows or more on average are sorted each on its
    own in one aggregation (a sort of few distinct keys costs more than the groups' sorts).

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
    extra = [c for c in (score, weight) if c is not None]
    frame = df.select(*keys, time, event, *extra).with_row_index(index)
    distinct = pl.col(keys[0]) if len(keys) == 1 else pl.struct(keys)
    n_groups = frame.select(distinct.n_unique()).item() if frame.height else 0
    big = frame.height >= GROUP_SORT_ROWS * n_groups
    parts = (_each_group if big else _whole_frame)(frame, keys, index, time, event, score)
    group_keys, bounds, by_time, by_score = parts
    rows = by_time[index].to_numpy()
    if by_score is not None and score is not None:
        order, values = by_score[index].to_numpy(), by_score[score].to_numpy()
    else:
        order, values = np.zeros(0, dtype=rows.dtype), np.zeros(0)
    weights = np.ones(len(rows)) if weight is None else by_time[weight].to_numpy()
    return Sorted(
        group_keys,
        bounds,
        rows,
        by_time[time].to_numpy(),
        by_time[event].to_numpy(),
        weights,
        order,
        values,
    )


#: Rows per group on average from which :func:`sorted_rows` sorts each group on its own.
GROUP_SORT_ROWS = 256

_Parts = tuple[pl.DataFrame, IntArray, pl.DataFrame, pl.DataFrame | None]


def _whole_frame(
    frame: pl.DataFrame, keys: list[str], index: str, time: str, event: str, score: str | None
) -> _Parts:
    """:func:`sorted_rows` by two sorts of the whole frame: by keys and time, keys and score."""
    first = "__roc_first"
    timed = frame.sort([*keys, time], nulls_last=True).with_columns(changed(keys).alias(first))
    starts = timed[first].to_numpy()
    counted = timed[time].is_not_null().to_numpy()
    group = np.cumsum(starts) - 1
    n_groups = int(group[-1]) + 1 if len(group) else 0
    bounds = np.zeros(n_groups + 1, dtype=np.int64)
    np.cumsum(np.bincount(group[counted], minlength=n_groups), out=bounds[1:])
    by_score = None
    if score is not None:
        rows = frame.filter(pl.col(time).is_not_null())
        by_score = rows.sort([*keys, score], nulls_last=True)
    keys_frame = timed.filter(pl.Series(starts)).select(keys)
    return keys_frame, bounds, timed.filter(pl.Series(counted)), by_score


def _each_group(
    frame: pl.DataFrame, keys: list[str], index: str, time: str, event: str, score: str | None
) -> _Parts:
    """:func:`sorted_rows` by one aggregation that sorts each group's rows on its own."""
    counted = pl.col(time).is_not_null()
    rest = [c for c in frame.columns if c not in (*keys, index, time, event, score)]
    when = pl.col(time).filter(counted)
    fields = [pl.col(c).filter(counted) for c in (index, time, event, *rest)]
    orders = [pl.struct(fields).sort_by(when).alias("__roc_time")]
    if score is not None:
        by = pl.col(score).filter(counted)
        orders.append(pl.struct(pl.col(index).filter(counted), by).sort_by(by).alias("__roc_score"))
    lists = frame.group_by(keys).agg(orders).sort(keys, nulls_last=True)
    bounds = np.zeros(lists.height + 1, dtype=np.int64)
    np.cumsum(lists["__roc_time"].list.len().to_numpy(), out=bounds[1:])
    by_time = lists["__roc_time"].explode().drop_nulls().struct.unnest()
    by_score = (
        None if score is None else lists["__roc_score"].explode().drop_nulls().struct.unnest()
    )
    return lists.select(keys), bounds, by_time, by_score


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


class Scan(NamedTuple):
    """Where a running sum or product restarts: :func:`scan_plan`, read by :func:`scan`."""

    steps: list[IntArray]  # step k: the positions k places into a short segment
    long: list[tuple[int, int]]  # the long segments, (start, end)


def scan_plan(starts: IntArray, n: int) -> Scan:
    """
    The plan of a running operation over `n` positions that restarts at each of `starts`.

    `starts` are ascending segment starts (the first one 0; repeats are empty segments).

    Examples
    --------
    >>> import numpy as np
    >>> plan = scan_plan(np.array([0, 2, 2, 5]), 6)
    >>> [step.tolist() for step in plan.steps], plan.long
    ([[3, 1], [4]], [])
    """
    if len(starts) == 0:
        return Scan([], [])
    ends = np.append(starts[1:], n)
    lengths = ends - starts
    long = lengths > LONG_SEGMENT
    short = np.argsort(-lengths[~long], kind="stable")
    first, size = starts[~long][short], lengths[~long][short]
    steps = [
        first[: np.searchsorted(-size, -k, side="left")] + k
        for k in range(1, int(size.max(initial=0)))
    ]
    return Scan(steps, [(int(a), int(b)) for a, b in zip(starts[long], ends[long], strict=True)])


def scan(operation: np.ufunc, values: FloatArray, plan: Scan) -> FloatArray:
    """
    The running `operation` (``np.add``, ``np.multiply``) of `values` along `plan`, in place.

    Left to right within a segment, as ``operation.accumulate`` and Polars' ``cum_sum``.

    Examples
    --------
    >>> import numpy as np
    >>> scan(np.add, np.ones(6), scan_plan(np.array([0, 2, 2, 5]), 6)).tolist()
    [1.0, 2.0, 1.0, 2.0, 3.0, 1.0]
    """
    for at in plan.steps:
        values[at] = operation(values[at - 1], values[at])
    for start, end in plan.long:
        operation.accumulate(values[start:end], out=values[start:end])
    return values


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


def censoring(
    time: FloatArray,
    event: BoolArray,
    weight: FloatArray,
    bounds: IntArray,
    bucket: npt.NDArray[np.integer],
    n_horizons: int,
    *,
    before: bool = False,
) -> Censoring:
    """
    Weighted Kaplan–Meier curves of each group's censoring times (``G``) and events (``S``).

    `time`, `event` and the case `weight` are in a :class:`Sorted` time order (each group's
    block by time), `bucket` the number of horizons before each time. At a tied time events
    come first: ``G(t) = Π_{s <= t} (1 - c_s / (r_s - d_s))`` and
    ``S(t) = Π_{s <= t} (1 - d_s / r_s)``, with ``r_s`` the weight at risk (``time >= s``),
    ``d_s`` the events' weight and ``c_s`` the censorings' weight at ``s`` (row counts when
    every weight is 1). ``r_s - d_s`` is summed as the weight at risk after ``s`` plus
    ``c_s``, so that it is ``c_s`` itself where every row left is censored at ``s`` (``G``
    falls to 0 exactly). A case is weighted by ``G`` at its own time, censorings at that
    time included (scikit-survival's rule), or with `before` by ``G`` just before its time
    (``G(T-)``, riskRegression's rule: the censoring curve of the earlier times only).

    Examples
    --------
    >>> import numpy as np
    >>> from polars_roc.survival._dynamic import censoring
    >>> out = censoring(
    ...     np.array([1.0, 2.0, 3.0, 4.0]), np.array([True, False, True, True]), np.ones(4),
    ...     np.array([0, 4]), np.array([0, 0, 1, 1]), 1
    ... )
    >>> out.weight.tolist()  # the censoring at 2 leaves G = 2/3 from then on
    [1.0, 1.0, 1.5, 1.5]
    >>> out.survival.tolist()  # S at the horizon between 2 and 3: 3/4
    [[0.75]]
    >>> tied = np.array([1.0, 2.0, 2.0, 3.0]), np.array([True, True, False, True])
    >>> censoring(*tied, np.ones(4), np.array([0, 4]), np.zeros(4, dtype=int), 0).weight.tolist()
    [1.0, 2.0, 1.0, 2.0]
    >>> censoring(
    ...     *tied, np.ones(4), np.array([0, 4]), np.zeros(4, dtype=int), 0, before=True
    ... ).weight.tolist()  # G(2-) = 1: the censoring at 2 does not weigh the event at 2
    [1.0, 1.0, 1.0, 2.0]
    """
    n, n_groups = len(time), len(bounds) - 1
    starts = _runs(time, bounds)  # runs of one time within a group
    events, censored = np.where(event, weight, 0.0), np.where(event, 0.0, weight)
    if len(starts) == n:  # no tied times: each row is its own run
        run_group = group_ids(bounds)
        d, c = events, censored
    else:
        d, c = np.add.reduceat(events, starts), np.add.reduceat(censored, starts)
        run_group = np.searchsorted(bounds, starts, side="right") - 1
    n_runs = len(starts)
    first = np.flatnonzero(np.diff(run_group, prepend=-1))  # each group's first run
    last = np.append(first[1:], n_runs) - 1
    # The weight at risk: running sums from each group's last run back (reversed segments).
    back = scan_plan((n_runs - 1 - last)[::-1], n_runs)
    at_risk = scan(np.add, (d + c)[::-1], back)[::-1]
    after = np.append(at_risk[1:], 0.0)  # the weight at risk after the run
    after[last] = 0.0
    alive = after + c
    with np.errstate(divide="ignore", invalid="ignore"):
        g_factor = np.where(alive > 0, 1 - c / alive, 1.0)
        s_factor = 1 - d / at_risk
    plan = scan_plan(first, n_runs)
    big_g, big_s = scan(np.multiply, g_factor, plan), scan(np.multiply, s_factor, plan)
    if before:  # G at the run before, within the group (1 before a group's first time)
        big_g = np.append(1.0, big_g[:-1]) if n_runs else big_g
        big_g[first] = 1.0
    with np.errstate(divide="ignore"):
        inverse = np.divide(1.0, big_g)
    weight = np.where(event, inverse if n_runs == n else inverse[_run_of(starts, n)], 1.0)
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
    mass: FloatArray,
    weight: FloatArray,
    bounds: IntArray,
    n_horizons: int,
) -> Dynamic:
    """
    The numerators and class sizes of AUC(t_j) for every group and horizon.

    The arrays are in a :class:`Sorted` score order (each group's block by score); `mass`
    is a row's case weight times its IPCW weight (``inf`` where ``G`` fell to 0: counted,
    not weighted), 0 for a row that is a case at no horizon (censored, or its event after
    the last horizon); `weight` every row's case weight (1.0 when unweighted). `score` keeps
    its own dtype (integers compare exactly); NaN scores are the caller's.

    Examples
    --------
    >>> import numpy as np
    >>> from polars_roc.survival._dynamic import dynamic_counts
    >>> out = dynamic_counts(
    ...     np.array([0.2, 0.4, 0.7, 0.9]), np.array([2, 2, 1, 0]),
    ...     np.array([1.0, 0.0, 1.0, 1.0]), np.ones(4), np.array([0, 4]), 2
    ... )
    >>> (out.u / (out.case_weight * out.controls)).tolist()  # AUC at the two horizons
    [[1.0, 1.0]]
    """
    n, n_groups, cells = len(score), len(bounds) - 1, n_horizons + 1
    group = group_ids(bounds)
    index = group * cells + bucket
    per_cell = np.bincount(index, weights=weight, minlength=n_groups * cells)
    beyond = np.cumsum(per_cell.reshape(n_groups, cells)[:, ::-1], axis=1)[:, ::-1]
    controls = np.ascontiguousarray(beyond[:, 1:], dtype=np.float64)  # weight in buckets > j
    at = np.flatnonzero(mass)  # the rows that are a case at some horizon, by position
    at_index = index[at]
    cases = _per_bucket(at_index, n_groups, cells, weight[at])[:, :n_horizons]
    mass = mass[at]
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
    # Controls' weight before a case's run, and through it: running sums within the group.
    opens = first == bounds[case_group]  # the run opens its group: nothing before it
    before, through = np.maximum(first - 1, 0), None if past is None else past - 1
    plan = scan_plan(bounds[:-1], n)
    control = np.empty(n)
    for j in range(n_horizons):
        m = prefix[j]
        np.multiply(weight, bucket > j, out=control)
        running = scan(np.add, control, plan)
        lo = np.where(opens[:m], 0.0, running[before[:m]])
        pairs = lo if through is None else lo + (running[through[:m]] - lo) / 2
        u[:, j] = np.bincount(case_group[:m], weights=mass[:m] * pairs, minlength=n_groups)
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


def case_weights(order: Sorted, n_rows: int, *, before: bool = False) -> FloatArray:
    """
    The IPCW factor of every row (input order; 1 for a row not counted or not an event).

    `before`: ``G(T-)`` instead of ``G(T)`` (:func:`censoring`).

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
        t, e, w = order.time[lo:hi], order.event[lo:hi], order.weight[lo:hi]
        found = censoring(t, e, w, local, none, 0, before=before)
        weight[order.by_time[lo:hi]] = found.weight

    each_block(bounds, block)
    return weight


def dynamic_table(
    order: Sorted, n_rows: int, horizons: FloatArray, *, before: bool = False
) -> Table:
    """
    Every group's AUC(t) counts, a block of whole groups at a time (:func:`each_block`).

    Within a block the rows go from time order to score order by their row numbers: a
    scratch array holds each row's place in its block's time order, read in score order.
    `before`: cases weighted by ``G(T-)`` instead of ``G(T)`` (:func:`censoring`).

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
    cases, controls = np.zeros(cells), np.zeros(cells)
    survival, unweighted = np.ones(cells), np.zeros(cells, dtype=bool)
    has_nan = np.zeros(n_groups, dtype=bool)
    place = np.empty(n_rows, dtype=np.int32 if n_rows < 2**31 else np.int64)
    floats = order.score.dtype.kind == "f"

    def block(g0: int, g1: int) -> None:
        lo, hi = bounds[g0], bounds[g1]
        local = bounds[g0 : g1 + 1] - lo
        t, e, w = order.time[lo:hi], order.event[lo:hi], order.weight[lo:hi]
        bucket = np.searchsorted(horizons, t, side="left").astype(_small(n_horizons))
        weighted = censoring(t, e, w, local, bucket, n_horizons, before=before)
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
        mass = np.where(case, w * weighted.weight, 0.0)
        counts = dynamic_counts(values, bucket[moved], mass[moved], w[moved], local, n_horizons)
        u[g0:g1], case_weight[g0:g1] = counts.u, counts.case_weight
        cases[g0:g1], controls[g0:g1] = counts.cases, counts.controls

    each_block(bounds, block)
    return Table(Dynamic(u, case_weight, cases, controls), survival, unweighted, has_nan)


def _small(bound: int) -> type[np.integer]:
    """The narrowest integer type holding ``0..bound`` (fewer bytes per pass)."""
    return np.int8 if bound < 2**7 else np.int16 if bound < 2**15 else np.int64
