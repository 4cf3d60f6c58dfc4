"""
Bootstrap intervals at thresholds and of the optimal cutpoint.

These are pROC's ``ci.thresholds`` and ``ci.coords(x="best")``.

Both run on the stratified bootstrap engine of :mod:`polars_roc._core.resampling` (the one behind
``auc(ci="bootstrap")`` and the ``tpr_at_fpr`` bands), so they share its seeding per group
and its independence of row order. A replicate is the group's rows with multinomial counts;
its ROC curve lives on the group's own distinct scores:

* at fixed thresholds, a replicate's TPR (FPR) at ``t`` is the share of its positive
  (negative) rows scoring at least ``t``;
* for the optimal cutpoint, each replicate chooses its own optimum by the same rule as
  :func:`polars_roc.thresholds.best_threshold` (the same objective, the same range limits,
  the highest threshold on ties), so the interval covers the choice of the cutpoint as well
  as the rates at it (as cutpointr's bootstrap and pROC's ``ci.coords(x="best")``). A
  replicate may choose +inf ("always negative"): it sorts above every finite threshold, so
  ``threshold_upper`` (or both bounds) can be +inf.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from polars_roc._core.columns import interval
from polars_roc._core.groups import join_groups
from polars_roc._core.objectives import best_index_np, objective_np
from polars_roc._core.resampling import FloatArray, Statistic, boot_table

INF = float("inf")


def _cumulative(pos: FloatArray, neg: FloatArray) -> tuple[FloatArray, FloatArray]:
    """``tp, fp`` at each candidate, threshold descending: ``+inf`` first, then each level."""
    zeros = np.zeros((pos.shape[0], 1))
    tp = np.concatenate([zeros, np.cumsum(pos[:, ::-1], axis=1)], axis=1)
    fp = np.concatenate([zeros, np.cumsum(neg[:, ::-1], axis=1)], axis=1)
    return tp, fp


#: The threshold-table measures that get bootstrap intervals, in the statistic's order.
MEASURES = (
    "tpr",
    "fpr",
    "tnr",
    "fnr",
    "ppv",
    "npv",
    "fdr",
    "accuracy",
    "balanced_accuracy",
    "f1",
    "youden",
    "mcc",
    "lr_pos",
    "lr_neg",
    "closest_topleft",
)


def measures_np(tp: FloatArray, fp: FloatArray, n_pos: FloatArray, n_neg: FloatArray) -> FloatArray:
    """
    The numpy twin of :func:`polars_roc.thresholds.measures`: ``(..., len(MEASURES))``.

    NaN where a measure is undefined (a zero denominator); a likelihood ratio x / 0 with
    x > 0 is +inf, as in the table.

    Examples
    --------
    >>> out = measures_np(np.array([2.0]), np.array([1.0]), np.array([4.0]), np.array([5.0]))
    >>> dict(zip(MEASURES, out[0].round(4).tolist()))["f1"]
    0.5714
    """
    tn, fn = n_neg - fp, n_pos - tp
    with np.errstate(divide="ignore", invalid="ignore"):

        def ratio(a: FloatArray, b: FloatArray) -> FloatArray:
            return np.where(b > 0, a / np.where(b > 0, b, 1.0), np.nan)

        def likelihood(top: FloatArray, bottom: FloatArray) -> FloatArray:
            inf = np.where((bottom == 0) & (top > 0), np.inf, np.nan)
            return np.where(bottom > 0, top / np.where(bottom > 0, bottom, 1.0), inf)

        tpr, fpr, tnr, fnr = ratio(tp, n_pos), ratio(fp, n_neg), ratio(tn, n_neg), ratio(fn, n_pos)
        mcc = ratio(tp * tn - fp * fn, np.sqrt((tp + fp) * n_pos * n_neg * (tn + fn)))
        columns = [
            tpr,
            fpr,
            tnr,
            fnr,
            ratio(tp, tp + fp),
            ratio(tn, tn + fn),
            ratio(fp, tp + fp),
            ratio(tp + tn, n_pos + n_neg),
            (tpr + tnr) / 2,
            ratio(2 * tp, 2 * tp + fp + fn),
            tpr - fpr,
            mcc,
            likelihood(tpr, fpr),
            likelihood(fnr, tnr),
            fnr**2 + fpr**2,
        ]
    return np.stack(columns, axis=-1)


def rates_statistic(thresholds: Sequence[float]) -> Statistic:
    """Each of :data:`MEASURES` at each threshold (measure after measure): ``score >= t``."""
    wanted = np.asarray(thresholds, dtype=np.float64)

    def statistic(pos: FloatArray, neg: FloatArray, levels: FloatArray) -> FloatArray:
        tp, fp = _cumulative(pos, neg)
        # Levels at or above t: the top K - first of them, K the number of levels.
        above = len(levels) - np.searchsorted(levels, wanted, side="left")
        values = measures_np(tp[:, above], fp[:, above], tp[:, -1:], fp[:, -1:])
        # (replicates, k, measures) to measure after measure: tpr at every t, then fpr, ...
        return np.asarray(values.transpose(0, 2, 1).reshape(len(tp), -1), dtype=np.float64)

    return statistic


def best_statistic(
    method: str,
    *,
    cost_fp: float,
    cost_fn: float,
    prevalence: float | None,
    fpr: tuple[float, float] | None,
    tpr: tuple[float, float] | None,
    weighted: bool = False,
    ratio: float | None = None,
) -> Statistic:
    """
    ``threshold, tpr, fpr`` of each replicate's own optimum (NaN when it has no candidate).

    The optimum of :mod:`polars_roc._core.objectives` (its numpy twin), the rule of
    :func:`polars_roc.thresholds.best_threshold`: exact for unweighted counts, ties to the
    highest threshold.
    """

    def statistic(pos: FloatArray, neg: FloatArray, levels: FloatArray) -> FloatArray:
        tp, fp = _cumulative(pos, neg)
        value, tie = objective_np(
            method,
            tp,
            fp,
            cost_fp=cost_fp,
            cost_fn=cost_fn,
            prevalence=prevalence,
            weighted=weighted,
            ratio=ratio,
        )
        rate_tp, rate_fp = tp / tp[:, -1:], fp / fp[:, -1:]
        allowed = np.ones(value.shape, dtype=bool)
        for bounds, rate in ((fpr, rate_fp), (tpr, rate_tp)):
            if bounds is not None:
                allowed &= (rate >= bounds[0]) & (rate <= bounds[1])
        index, found = best_index_np(value, tie, allowed)
        best = index[:, None]
        candidates = np.concatenate([[INF], levels[::-1]])
        rows = np.arange(tp.shape[0])[:, None]
        chosen = np.concatenate(
            [candidates[best], rate_tp[rows, best], rate_fp[rows, best]], axis=1
        )
        return np.asarray(np.where(found[:, None], chosen, np.nan), dtype=np.float64)

    return statistic


def with_rate_intervals(
    table: pl.LazyFrame,
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    names: list[str],
    weight: str | None,
    pos_label: Any,
    thresholds: Sequence[float],
    level: float,
    n_boot: int,
    seed: int | None,
    progress: bool | None = None,
    cluster: str | None = None,
) -> pl.LazyFrame:
    """
    The threshold table with ``<measure>_lower, <measure>_upper`` per row, every measure.

    pROC's ``ci.coords`` for every coordinate: the percentile interval of each of
    :data:`MEASURES` over the replicates, null where a replicate leaves it undefined or
    infinite (a likelihood ratio at FPR 0) or the row's own rates are null.

    `cluster`: the column of cluster ids of a cluster bootstrap (whole clusters drawn).
    """
    wanted = sorted({float(t) for t in thresholds}, reverse=True)
    k = len(wanted)
    boot = boot_table(
        lf,
        score,
        label,
        names=names,
        weight=weight,
        pos_label=pos_label,
        statistic=rates_statistic(wanted),
        width=len(MEASURES) * k,
        level=level,
        n_boot=n_boot,
        seed=seed,
        progress=progress,
        cluster=cluster,
    )
    field = pl.col("_boot").struct.field
    bounds = [name for measure in MEASURES for name in interval(measure, se=False)]
    bands = boot.select(
        *names,
        pl.lit(pl.Series("_t", [wanted], dtype=pl.List(pl.Float64))).alias("_t"),
        *(
            field(side).list.slice(start, k).alias(name)
            for start, rate in zip(range(0, len(MEASURES) * k, k), MEASURES, strict=True)
            for side, name in zip(("lower", "upper"), interval(rate, se=False), strict=True)
        ),
    ).explode("_t", *bounds)
    keyed = table.with_columns(_t=pl.col("threshold").cast(pl.Float64))
    out = join_groups(keyed, bands, [*names, "_t"]).drop("_t")
    defined = pl.col("tpr").is_not_null() & pl.col("fpr").is_not_null()
    return out.with_columns(pl.when(defined).then(pl.col(c)).alias(c) for c in bounds)


def with_best_intervals(
    best: pl.LazyFrame,
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    names: list[str],
    weight: str | None,
    pos_label: Any,
    statistic: Statistic,
    level: float,
    n_boot: int,
    seed: int | None,
    progress: bool | None = None,
) -> pl.LazyFrame:
    """
    The optimum's row with ``threshold_lower, threshold_upper`` and its rates' bounds.

    A replicate whose optimum is +inf (every row predicted negative, as
    :func:`polars_roc.thresholds.best_threshold` chooses for all-tied scores) counts as a
    threshold above every score: a bound is +inf where its percentile falls on +inf, and
    finite otherwise. A replicate without a candidate (NaN: range limits exclude every
    threshold) still makes the bounds null, as for the rates.
    """
    boot = boot_table(
        lf,
        score,
        label,
        names=names,
        weight=weight,
        pos_label=pos_label,
        statistic=statistic,
        width=3,
        level=level,
        n_boot=n_boot,
        seed=seed,
        progress=progress,
        unbounded=(0,),  # a replicate's optimum may be +inf: "always negative"
    )
    field = pl.col("_boot").struct.field
    bands = boot.select(
        *names,
        *(
            field(side).list.get(i).alias(bound)
            for i, name in enumerate(("threshold", "tpr", "fpr"))
            for side, bound in zip(("lower", "upper"), interval(name, se=False), strict=True)
        ),
    )
    out = join_groups(best, bands, names)
    defined = pl.col("threshold").is_not_null()
    bounds = [b for name in ("threshold", "tpr", "fpr") for b in interval(name, se=False)]
    return out.with_columns(pl.when(defined).then(pl.col(c)).alias(c) for c in bounds)
