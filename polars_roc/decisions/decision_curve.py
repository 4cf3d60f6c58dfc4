"""Decision curves: net benefit against treating everyone and treating no one.

At a threshold probability ``t`` a clinician treats a patient whose risk is at least ``t``;
choosing ``t`` says a false positive is worth ``t / (1 − t)`` true positives. The net benefit
of a model is ``TP / n − FP / n · t / (1 − t)`` (Vickers & Elkin 2006); treat-all is the
same for a model flagging everyone, treat-none is 0. The numbers are those of the Python
``dcurves`` package (``dcurves.dca``); with `prevalence` (a case-control sample) the true
and false positive rates are weighed by the population's prevalence instead of the
sample's, as ``dcurves.dca(prevalence=)`` does.

The counts at each threshold are read off the counts core's curve
(:mod:`polars_roc._core.counts`) of the scores snapped to the thresholds, tallied per group
and snapped score before they are sorted, on a grid built in output order
(:mod:`polars_roc.decisions._grid`); the optional band is the package's stratified bootstrap
(:mod:`polars_roc._core.resampling`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import polars as pl

from polars_roc._core import validate
from polars_roc._core.checks import NanPolicy
from polars_roc._core.columns import DECISION_CURVE
from polars_roc._core.counts import accumulate, coded, tally, with_totals
from polars_roc._core.frames import same_kind
from polars_roc._core.resampling import FloatArray, Statistic, boot_table
from polars_roc._core.validate import By
from polars_roc.decisions._grid import counts_on_grid, snapped
from polars_roc.decisions.expression import check_probability_thresholds

__all__ = ["DECISION_COLUMNS", "decision_curve", "net_benefit_statistic"]

#: The decision curve's columns, in order, after the `by` columns (+ the band with `ci`).
DECISION_COLUMNS = DECISION_CURVE

#: The default threshold probabilities: 0.01, 0.02, ..., 0.99.
_DEFAULT_THRESHOLDS = tuple(i / 100 for i in range(1, 100))


def net_benefit_statistic(thresholds: Sequence[float], prevalence: float | None) -> Statistic:
    """
    The bootstrap statistic: net benefit at each threshold of a replicate's counts.

    The numpy twin of the point formula in :func:`decision_curve` (a row counts iff
    ``score >= t``), checked against it by the tests.

    Examples
    --------
    >>> import numpy as np
    >>> pos, neg = np.array([[0.0, 1.0, 1.0]]), np.array([[1.0, 1.0, 0.0]])
    >>> net_benefit_statistic([0.5], None)(pos, neg, np.array([0.1, 0.5, 0.9]))
    array([[0.25]])
    """
    wanted = np.asarray(thresholds, dtype=np.float64)
    odds = wanted / (1 - wanted)

    def statistic(pos: FloatArray, neg: FloatArray, levels: FloatArray) -> FloatArray:
        zeros = np.zeros((pos.shape[0], 1))
        # Sums over the levels at or above each index (the last column: nothing above).
        above_pos = np.concatenate([np.cumsum(pos[:, ::-1], axis=1)[:, ::-1], zeros], axis=1)
        above_neg = np.concatenate([np.cumsum(neg[:, ::-1], axis=1)[:, ::-1], zeros], axis=1)
        first = np.searchsorted(levels, wanted, side="left")
        tp, fp = above_pos[:, first], above_neg[:, first]
        n_pos, n_neg = above_pos[:, :1], above_neg[:, :1]
        if prevalence is None:
            n = n_pos + n_neg
            return np.asarray(tp / n - fp / n * odds, dtype=np.float64)
        rate_tp, rate_fp = tp / n_pos * prevalence, fp / n_neg * (1 - prevalence)
        return np.asarray(rate_tp - rate_fp * odds, dtype=np.float64)

    return statistic


@same_kind
def decision_curve(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "propagate",
    thresholds: Sequence[float] | None = None,
    prevalence: float | None = None,
    ci: Literal["bootstrap"] | None = None,
    level: float = 0.95,
    n_boot: int = 2000,
    seed: int | None = 0,
    progress: bool | None = None,
) -> pl.LazyFrame:
    """
    Net benefit per group and threshold probability, with the treat-all and treat-none lines.

    ``net_benefit = TP / n − FP / n · t / (1 − t)``, ``treat_all = P / n − N / n · t /
    (1 − t)`` (everyone treated), ``treat_none = 0`` and ``interventions_avoided =
    (net_benefit − treat_all) / (t / (1 − t))``: the share of patients spared an
    intervention at no loss of true positives, per patient (``dcurves`` with ``nper=1``).
    With `prevalence` ρ, ``TP / n`` becomes ``ρ · TP / P`` and ``FP / n`` becomes
    ``(1 − ρ) · FP / N`` (null for a group without positives or negatives).

    Parameters
    ----------
    lf
        Rows with a predicted risk (a probability) and an outcome.
    score
        Predicted risk; a row is treated iff ``score >= t``.
    label, by, weight, pos_label
        Column roles, as in :func:`polars_roc.curves.curve`; weights count as repeated rows.
        There is no `direction`: a risk's scale is fixed (thresholds are probabilities).
    nan_policy
        NaN scores: ``"propagate"`` (default: the group's numbers are null), ``"omit"`` or
        ``"raise"``.
    thresholds
        Threshold probabilities, each strictly between 0 and 1. Default: 0.01, ..., 0.99.
    prevalence
        The population's share of positives, for a case-control sample (as ``dcurves``);
        default: the sample's.
    ci
        ``"bootstrap"`` adds ``net_benefit_lower, net_benefit_upper``: stratified bootstrap
        percentile intervals (the package's bootstrap, seeded per group).
    level, n_boot, seed
        Confidence level, replicates and seed of the bootstrap (``ci="bootstrap"`` only).
    progress
        A progress bar on standard error while the bootstrap runs: True, False or None
        (auto: only on a terminal, not under pytest, and with tqdm installed; ``pip install
        polars_roc[progress]``). It ticks once per chunk of replicates, after ~2 s.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, threshold, net_benefit, treat_all, treat_none, interventions_avoided``
        (+ ``net_benefit_lower, net_benefit_upper``), threshold ascending per group.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {"risk": [0.1, 0.3, 0.35, 0.6, 0.8, 0.9], "outcome": [0, 0, 1, 0, 1, 1]}
    ... )
    >>> df.roc.decision_curve("risk", "outcome", thresholds=[0.2, 0.5])
    shape: (2, 5)
    ┌───────────┬─────────────┬───────────┬────────────┬───────────────────────┐
    │ threshold ┆ net_benefit ┆ treat_all ┆ treat_none ┆ interventions_avoided │
    │ ---       ┆ ---         ┆ ---       ┆ ---        ┆ ---                   │
    │ f64       ┆ f64         ┆ f64       ┆ f64        ┆ f64                   │
    ╞═══════════╪═════════════╪═══════════╪════════════╪═══════════════════════╡
    │ 0.2       ┆ 0.416667    ┆ 0.375     ┆ 0.0        ┆ 0.166667              │
    │ 0.5       ┆ 0.166667    ┆ 0.0       ┆ 0.0        ┆ 0.166667              │
    └───────────┴─────────────┴───────────┴────────────┴───────────────────────┘
    """
    names = validate.as_names(by)
    validate.no_clash(names, (*DECISION_CURVE, "net_benefit_lower", "net_benefit_upper"))
    wanted = sorted(
        set(check_probability_thresholds(_DEFAULT_THRESHOLDS if thresholds is None else thresholds))
    )
    validate.prevalence(prevalence)
    interval = validate.ci(ci, ("bootstrap",))
    if interval:
        validate.level(level)
        validate.n_boot(n_boot)
        validate.seed(seed)
    # Each score down to the highest threshold at or below it: every count at the thresholds
    # is unchanged, and the curve has at most one point per threshold and group.
    schema = lf.collect_schema()
    validate.roles(schema, score=score, label=label, by=names, weight=weight, pos_label=pos_label)
    rounded = lf.with_columns(snapped(score, wanted).alias(score))
    rows = coded(
        rounded,
        score,
        label,
        names=names,
        weight=weight,
        pos_label=pos_label,
        label_dtype=schema[label],
        masked=bool(names),
    )
    # Tallied before the sort (a hash group-by over at most one row per threshold and
    # group): only the tally is sorted for the running sums, not every row.
    table = with_totals(accumulate(tally(rows, names), names), names)
    points = table.with_columns(
        tn=pl.col("_negatives") - pl.col("fp"), fn=pl.col("_positives") - pl.col("tp")
    )
    counts = counts_on_grid(points, names, wanted)
    tp, fp, tn, fn = (pl.col(c).cast(pl.Float64) for c in ("tp", "fp", "tn", "fn"))
    n_pos, n_neg = tp + fn, fp + tn
    n = n_pos + n_neg
    t = pl.col("threshold")
    odds = t / (1 - t)
    if prevalence is None:
        both = n > 0
        share_tp, share_fp = tp / n, fp / n
        all_tp, all_fp = n_pos / n, n_neg / n
    else:
        both = (n_pos > 0) & (n_neg > 0)
        share_tp, share_fp = tp / n_pos * prevalence, fp / n_neg * (1 - prevalence)
        all_tp, all_fp = pl.lit(prevalence), pl.lit(1 - prevalence)
    net = pl.when(both).then(share_tp - share_fp * odds)
    everyone = pl.when(both).then(all_tp - all_fp * odds)
    out = (
        counts.with_columns(net_benefit=net, treat_all=everyone)
        .with_columns(
            treat_none=pl.when(both).then(pl.lit(0.0)),
            interventions_avoided=(pl.col("net_benefit") - pl.col("treat_all")) / odds,
        )
        .select(*names, *DECISION_COLUMNS)
    )  # groups sorted, thresholds ascending: the grid's order
    if not interval:
        return out
    boot = boot_table(
        lf,
        score,
        label,
        names=names,
        weight=weight,
        pos_label=pos_label,
        statistic=net_benefit_statistic(wanted, prevalence),
        width=len(wanted),
        level=level,
        n_boot=n_boot,
        seed=seed,
        progress=progress,
    )
    band = boot.select(
        *names,
        threshold=pl.lit(pl.Series(wanted, dtype=pl.Float64).implode()),
        net_benefit_lower=pl.col("_boot").struct.field("lower"),
        net_benefit_upper=pl.col("_boot").struct.field("upper"),
    ).explode("threshold", "net_benefit_lower", "net_benefit_upper")
    joined = out.join(band, on=[*names, "threshold"], how="left", nulls_equal=True)
    defined = pl.col("net_benefit").is_not_null()
    return joined.with_columns(
        pl.when(defined).then(pl.col(c)).alias(c)
        for c in ("net_benefit_lower", "net_benefit_upper")
    ).sort([*names, "threshold"], nulls_last=True)
