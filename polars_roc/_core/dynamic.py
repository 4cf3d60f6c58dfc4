"""
Cumulative/dynamic AUC at several horizons: the numpy kernels of :mod:`polars_roc.survival`.

Two passes over the rows, each one sort: :func:`censoring` sorts them by group and time for
the Kaplan–Meier curves (the censoring curve ``G`` that weights the cases, the survival
curve ``S`` that weights ``mean_auc``), :func:`dynamic_counts` by group and score for the
Mann-Whitney numerators. A sort by group then value is one float sort and one stable sort of
small integers (numpy's radix sort), cheaper than a two-key lexsort.

At horizon ``j`` a row is a control when its time exceeds the horizon (``bucket > j``, the
bucket being the number of horizons before its time) and a case when it had an event by then
(``event and bucket <= j``), weighted by its IPCW weight. Expanding every row once per
horizon and calling the weighted AUC kernel gives the same numbers (the tests check it) but
sorts ``rows × horizons`` rows; here each horizon is one running count of its controls in
score order, read at its cases: ``U_j = Σ_cases w · (controls below + ½ controls tied)``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt
import polars as pl

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


class Dynamic(NamedTuple):
    """Per group and horizon (``[group, horizon]`` arrays)."""

    u: FloatArray  # weighted Mann-Whitney numerator
    case_weight: FloatArray
    cases: IntArray
    controls: IntArray


class Censoring(NamedTuple):
    """The IPCW weight of each row (input order) and ``S`` per group and horizon."""

    weight: FloatArray  # 1 / G(time) for an event (inf where G fell to 0), 1 otherwise
    survival: FloatArray  # [group, horizon]: Kaplan–Meier S at the horizon (1 before any time)


def _order(group: IntArray, values: npt.NDArray[np.generic], n_groups: int) -> IntArray:
    """Row order by group, then by value (tied values in no particular order)."""
    first = pl.Series(values).arg_sort().to_numpy()  # Polars sorts on every core
    return first[np.argsort(_small(group[first], n_groups), kind="stable")]


def _runs(
    group: IntArray, values: npt.NDArray[np.generic], n_groups: int
) -> tuple[IntArray, npt.NDArray[np.bool_], IntArray, IntArray]:
    """
    The rows by group then value, and the runs of one value within one group in that order.

    Returns ``order, new, starts, ends``: `new` marks each run's first row, `starts` and
    `ends` (exclusive) are the runs' bounds.
    """
    order = _order(group, values, n_groups)
    g, v = group[order], values[order]
    new = np.empty(len(g), dtype=bool)
    new[:1] = True
    np.not_equal(g[1:], g[:-1], out=new[1:])
    new[1:] |= v[1:] != v[:-1]
    starts = np.flatnonzero(new)
    return order, new, starts, np.append(starts[1:], len(g))


def _small(values: IntArray, bound: int) -> npt.NDArray[np.integer]:
    """`values` (``0 <= values < bound``) as int16 when they fit: numpy radix-sorts those."""
    return values.astype(np.int16) if bound <= np.iinfo(np.int16).max else values


def _per_bucket(
    index: IntArray, n_groups: int, n_buckets: int, weights: FloatArray | None = None
) -> FloatArray:
    """``[group, j]``: the rows (or `weights`) of the group in buckets ``<= j``."""
    counts = np.bincount(index, weights=weights, minlength=n_groups * n_buckets)
    return np.cumsum(counts.reshape(n_groups, n_buckets), axis=1)


def _segmented_cumprods(segment: IntArray, *factors: FloatArray) -> list[FloatArray]:
    """The running products of each of `factors`, restarting at each segment (sorted)."""
    frame = pl.DataFrame({"s": segment, **{f"f{i}": f for i, f in enumerate(factors)}})
    products = frame.select(pl.exclude("s").cum_prod().over("s"))
    return [column.to_numpy() for column in products.get_columns()]


def censoring(
    group: IntArray,
    time: FloatArray,
    event: npt.NDArray[np.bool_],
    horizons: FloatArray,
    n_groups: int,
) -> Censoring:
    """
    Kaplan–Meier curves of each group's censoring times (``G``) and event times (``S``).

    At a tied time events come first: ``G(t) = Π_{s <= t} (1 - c_s / (r_s - d_s))`` and
    ``S(t) = Π_{s <= t} (1 - d_s / r_s)``, with ``r_s`` the rows at risk (``time >= s``),
    ``d_s`` the events and ``c_s`` the censorings at ``s``. A case is weighted by ``G`` at its
    own time, censorings at that time included (scikit-survival's rule).

    Examples
    --------
    >>> import numpy as np
    >>> from polars_roc._core.dynamic import censoring
    >>> out = censoring(
    ...     np.zeros(4, dtype=np.int64), np.array([1.0, 2.0, 3.0, 4.0]),
    ...     np.array([True, False, True, True]), np.array([2.5]), 1
    ... )
    >>> out.weight.tolist()  # the censoring at 2 leaves G = 2/3 from then on
    [1.0, 1.0, 1.5, 1.5]
    >>> out.survival.tolist()  # S(2.5) = 3/4
    [[0.75]]
    """
    n_horizons = len(horizons)
    n = len(group)
    order, new, starts, ends = _runs(group, time, n_groups)  # runs of one time in a group
    g, t, e = group[order], time[order], event[order]
    events_before = np.concatenate(([0], np.cumsum(e)))
    d = (events_before[ends] - events_before[starts]).astype(np.float64)
    c = (ends - starts) - d
    run_group = g[starts]
    group_end = np.searchsorted(g, np.arange(n_groups), side="right")
    at_risk = (group_end[run_group] - starts).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        g_factor = np.where(at_risk > d, 1 - c / (at_risk - d), 1.0)
        s_factor = 1 - d / at_risk
        big_g, big_s = _segmented_cumprods(run_group, g_factor, s_factor)
        weight_sorted = np.where(e, 1 / big_g[np.cumsum(new) - 1], 1.0)
    weight = np.empty(n, dtype=np.float64)
    weight[order] = weight_sorted
    # S at horizon j: the group's last run at a time <= t_j (its bucket <= j).
    bucket = np.searchsorted(horizons, t[starts], side="left")
    runs = _per_bucket(run_group * (n_horizons + 1) + bucket, n_groups, n_horizons + 1)
    runs = runs[:, :n_horizons].astype(np.int64)
    first_run = np.searchsorted(run_group, np.arange(n_groups), side="left")
    last = np.maximum(first_run[:, None] + runs - 1, 0)
    survival = np.where(runs > 0, big_s[last] if len(big_s) else 1.0, 1.0)
    return Censoring(weight, survival.astype(np.float64))


def dynamic_counts(
    group: IntArray,
    score: npt.NDArray[np.generic],
    bucket: IntArray,
    event: npt.NDArray[np.bool_],
    weight: FloatArray,
    n_groups: int,
    n_horizons: int,
) -> Dynamic:
    """
    The numerators and class sizes of AUC(t_j) for every group and horizon.

    `score` keeps its own dtype (integers compare exactly); NaN scores are the caller's.

    Examples
    --------
    >>> import numpy as np
    >>> from polars_roc._core.dynamic import dynamic_counts
    >>> out = dynamic_counts(
    ...     np.zeros(4, dtype=np.int64), np.array([0.9, 0.7, 0.4, 0.2]),
    ...     np.array([0, 1, 2, 2]), np.array([True, True, False, True]), np.ones(4), 1, 2
    ... )
    >>> (out.u / (out.case_weight * out.controls)).tolist()  # AUC at the two horizons
    [[1.0, 1.0]]
    """
    n = len(group)
    cells = n_horizons + 1
    index = group * cells + bucket
    rows = _per_bucket(index, n_groups, cells)
    controls = (rows[:, -1:] - rows[:, :n_horizons]).astype(np.int64)
    is_event = event.astype(bool)
    at_event = index[is_event]
    cases = _per_bucket(at_event, n_groups, cells)[:, :n_horizons].astype(np.int64)
    case_weight = _per_bucket(at_event, n_groups, cells, weight[is_event])[:, :n_horizons]
    u = np.zeros((n_groups, n_horizons))
    if n == 0 or not is_event.any():
        return Dynamic(u, case_weight, cases, controls)
    order, new_level, starts, ends = _runs(group, score, n_groups)  # one score in a group
    g, k = group[order], _small(bucket[order], cells)  # small: cheaper passes per horizon
    level = np.cumsum(new_level) - 1
    # The event rows, by bucket: the cases at horizon j are a prefix of them.
    at = np.flatnonzero(is_event[order])
    at = at[np.argsort(k[at], kind="stable")]
    first = starts[level[at]]
    past = ends[level[at]]
    case_group = g[at]
    group_first = np.searchsorted(g, np.arange(n_groups), side="left")[case_group]
    mass = weight[order[at]]
    prefix = np.searchsorted(k[at], np.arange(n_horizons), side="right")
    below = np.empty(n + 1, dtype=np.int64)
    below[0] = 0
    for j in range(n_horizons):
        m = prefix[j]
        np.cumsum(k > j, out=below[1:])  # controls before each position
        lo, hi = below[first[:m]], below[past[:m]]
        before = lo - below[group_first[:m]]
        pairs = before + (hi - lo) / 2
        u[:, j] = np.bincount(case_group[:m], weights=mass[:m] * pairs, minlength=n_groups)
    return Dynamic(u, case_weight, cases, controls)
