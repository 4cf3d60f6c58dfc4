"""
Cumulative/dynamic AUC at several horizons from one sort: a numpy twin of the AUC kernel.

At horizon ``j`` a row is a control when its time exceeds the horizon (``bucket > j``, the
bucket being the number of horizons before its time) and a case when it had an event by
then (``event and bucket <= j``), weighted by its IPCW weight. Expanding every row once per
horizon and calling the weighted AUC kernel gives the same numbers (the tests check it) but
sorts ``rows × horizons`` rows; here the rows are sorted by group and score once, tied
scores collapse into one level, and each horizon is a pass of running sums over the levels:
``U_j = Σ_levels case_weight_j · (controls below_j + ½ controls at the level_j)``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


class Dynamic(NamedTuple):
    """Per group and horizon (``[group, horizon]`` arrays)."""

    u: FloatArray  # weighted Mann-Whitney numerator
    case_weight: FloatArray
    cases: IntArray
    controls: IntArray


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
    order = np.lexsort((score, group))
    g, s, k = group[order], score[order], bucket[order]
    case_mass = np.where(event[order], weight[order], 0.0)
    n = len(g)
    u = np.zeros((n_groups, n_horizons))
    case_weight = np.zeros((n_groups, n_horizons))
    cases = np.zeros((n_groups, n_horizons), dtype=np.int64)
    controls = np.zeros((n_groups, n_horizons), dtype=np.int64)
    if n == 0:
        return Dynamic(u, case_weight, cases, controls)
    # Levels: runs of one score within one group.
    new_level = np.r_[True, (g[1:] != g[:-1]) | (s[1:] != s[:-1])]
    starts = np.flatnonzero(new_level)
    level_group = g[starts]
    new_group = np.r_[True, level_group[1:] != level_group[:-1]]
    group_of_level_start = np.flatnonzero(new_group)
    events = event[order]
    for j in range(n_horizons):
        is_control = (k > j).astype(np.float64)
        is_case = events & (k <= j)
        at = np.add.reduceat(is_control, starts)
        mass = np.add.reduceat(np.where(is_case, case_mass, 0.0), starts)
        running = np.cumsum(at)
        # Controls in earlier levels of the same group: the running sum less the group's
        # running sum before its first level.
        before_group = np.r_[0.0, running][group_of_level_start]
        offset = np.repeat(before_group, np.diff(np.r_[group_of_level_start, len(starts)]))
        below = running - at - offset
        u[:, j] = np.bincount(level_group, weights=mass * (below + at / 2), minlength=n_groups)
        case_weight[:, j] = np.bincount(level_group, weights=mass, minlength=n_groups)
        cases[:, j] = np.bincount(g, weights=is_case, minlength=n_groups).astype(np.int64)
        controls[:, j] = np.bincount(level_group, weights=at, minlength=n_groups).astype(np.int64)
    return Dynamic(u, case_weight, cases, controls)
