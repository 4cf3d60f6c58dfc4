"""
The interval functions by name: each calls the analysis with its `ci` argument.

``auc_interval`` is ``auc(ci=...)`` (DeLong or the stratified bootstrap),
``partial_auc_interval`` is ``partial_auc(ci="bootstrap")``, ``tpr_at_fpr_interval`` and
``fpr_at_tpr_interval`` the bootstrap intervals of an operating point. The DeLong variance is
described in :mod:`polars_roc.inference.comparison`.

Examples
--------
>>> import polars as pl
>>> from polars_roc.inference import auc_interval
>>> df = pl.DataFrame(
...     {"score": [0.1, 0.4, 0.35, 0.8, 0.7, 0.2, 0.9, 0.3], "label": [0, 0, 1, 1, 1, 0, 1, 0]}
... )
>>> auc_interval(df.lazy()).collect()["auc_lower"].round(6).item()
0.764262
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import polars as pl

from polars_roc import areas
from polars_roc._core import validate
from polars_roc._core.checks import NanPolicy
from polars_roc._core.direction import Direction
from polars_roc._core.validate import By
from polars_roc.thresholds import operating

__all__ = ["auc_interval", "fpr_at_tpr_interval", "partial_auc_interval", "tpr_at_fpr_interval"]


def auc_interval(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    ci: Literal["delong", "bootstrap"] = "delong",
    level: float = 0.95,
    n_boot: int = 2000,
    seed: int | None = 0,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    progress: bool | None = None,
) -> pl.LazyFrame:
    """
    AUC per group with a DeLong or a stratified bootstrap confidence interval.

    The engine of ``auc(..., ci=...)``: the point estimate, `n_pos` and `n_neg` are those of
    :func:`polars_roc.areas.auc` without `ci`.

    * ``ci="delong"``: ``auc_se`` is the DeLong standard error (sample variances of the
      placements with ddof = 1, midranks per Sun & Xu 2014); the interval is
      ``auc ± z · se`` clipped to [0, 1]. Null when a class has fewer than 2 rows. With
      `weight`, weights are frequency weights: the result equals that of the data with each
      row repeated `weight` times (weight sums play the part of class sizes). That is the
      right reading for aggregated counts; for sampling or importance weights prefer the
      bootstrap.
    * ``ci="bootstrap"``: `n_boot` stratified resamples per group (positives and negatives
      drawn separately, so every replicate has the group's class sizes); ``auc_se`` is the
      replicates' standard deviation (ddof = 1) and the interval their percentiles
      ``(1 - level) / 2`` and ``(1 + level) / 2`` (linear between order statistics, as
      ``numpy.quantile``). Reproducible with `seed`: each group's
      stream is seeded by `seed` and its key, so a group's interval does not depend on the
      other groups or on row order. With `weight`, rows are resampled and keep their
      weights. Null when a class has fewer than 2 rows.

    Parameters
    ----------
    lf
        Scored rows.
    score, label, by, weight, pos_label
        Column roles, as in :func:`polars_roc.areas.auc`.
    ci
        ``"delong"`` or ``"bootstrap"``.
    level
        Confidence level, strictly between 0 and 1.
    n_boot
        Bootstrap replicates (``ci="bootstrap"``), a positive integer.
    seed
        Bootstrap seed, a non-negative integer; None draws a fresh one.
    direction, nan_policy
        As in :func:`polars_roc.areas.auc`: ``"lower"`` when a lower score means positive
        (thresholds stay in score units); NaN scores propagate, are omitted or raise.
    progress
        A progress bar on standard error while the bootstrap runs: True, False or None
        (auto: only on a terminal, not under pytest, and with tqdm installed; ``pip install
        polars_roc[progress]``). It ticks once per chunk of replicates, after ~2 s.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, auc, n_pos, n_neg, auc_se, auc_lower, auc_upper``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {
    ...         "model": ["a"] * 6 + ["b"] * 6,
    ...         "score": [0.9, 0.8, 0.3, 0.6, 0.2, 0.1] * 2,
    ...         "label": [1, 1, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0],
    ...     }
    ... )
    >>> df.roc.auc(by="model", ci="delong")
    shape: (2, 7)
    ┌───────┬──────────┬───────┬───────┬──────────┬───────────┬───────────┐
    │ model ┆ auc      ┆ n_pos ┆ n_neg ┆ auc_se   ┆ auc_lower ┆ auc_upper │
    │ ---   ┆ ---      ┆ ---   ┆ ---   ┆ ---      ┆ ---       ┆ ---       │
    │ str   ┆ f64      ┆ i64   ┆ i64   ┆ f64      ┆ f64       ┆ f64       │
    ╞═══════╪══════════╪═══════╪═══════╪══════════╪═══════════╪═══════════╡
    │ a     ┆ 0.888889 ┆ 3     ┆ 3     ┆ 0.157135 ┆ 0.58091   ┆ 1.0       │
    │ b     ┆ 0.555556 ┆ 3     ┆ 3     ┆ 0.31427  ┆ 0.0       ┆ 1.0       │
    └───────┴──────────┴───────┴───────┴──────────┴───────────┴───────────┘
    """
    validate.ci(ci, ("delong", "bootstrap"))
    return areas.auc(
        lf,
        score,
        label,
        by=by,
        weight=weight,
        pos_label=pos_label,
        ci=ci,
        level=level,
        n_boot=n_boot,
        seed=seed,
        progress=progress,
        direction=direction,
        nan_policy=nan_policy,
    )


def partial_auc_interval(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    fpr: tuple[float, float] | None = None,
    tpr: tuple[float, float] | None = None,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    ci: Literal["bootstrap"] = "bootstrap",
    level: float = 0.95,
    n_boot: int = 2000,
    seed: int | None = 0,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    progress: bool | None = None,
) -> pl.LazyFrame:
    """
    Partial AUC per group with a stratified bootstrap interval of the raw partial area.

    The engine of ``partial_auc(..., ci="bootstrap")``: ``pauc_se`` is the standard
    deviation of the replicates' partial areas, ``pauc_lower`` / ``pauc_upper`` their
    percentiles; resampling as in :func:`auc_interval`. Only the bootstrap is available
    (DeLong's variance covers the full area only).

    Parameters
    ----------
    lf
        Scored rows.
    score, label, fpr, tpr, by, weight, pos_label
        As in :func:`polars_roc.areas.partial_auc`.
    ci
        ``"bootstrap"``.
    level, n_boot, seed
        As in :func:`auc_interval`.
    direction, nan_policy
        As in :func:`polars_roc.areas.auc`: ``"lower"`` when a lower score means positive
        (thresholds stay in score units); NaN scores propagate, are omitted or raise.
    progress
        A progress bar on standard error while the bootstrap runs: True, False or None
        (auto: only on a terminal, not under pytest, and with tqdm installed; ``pip install
        polars_roc[progress]``). It ticks once per chunk of replicates, after ~2 s.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, pauc, pauc_std, n_pos, n_neg, pauc_se, pauc_lower, pauc_upper``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {"score": [0.1, 0.4, 0.35, 0.8, 0.7, 0.2, 0.9, 0.3], "label": [0, 0, 1, 1, 1, 0, 1, 0]}
    ... )
    >>> out = df.roc.partial_auc(fpr=(0.0, 0.5), ci="bootstrap", n_boot=200)
    >>> out.columns
    ['pauc', 'pauc_std', 'n_pos', 'n_neg', 'pauc_se', 'pauc_lower', 'pauc_upper']
    >>> bool(out["pauc_lower"].item() <= out["pauc"].item() <= out["pauc_upper"].item())
    True
    """
    validate.ci(ci, ("bootstrap",))
    return areas.partial_auc(
        lf,
        score,
        label,
        fpr=fpr,
        tpr=tpr,
        by=by,
        weight=weight,
        pos_label=pos_label,
        ci=ci,
        level=level,
        n_boot=n_boot,
        seed=seed,
        progress=progress,
        direction=direction,
        nan_policy=nan_policy,
    )


def tpr_at_fpr_interval(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    fpr: float | Sequence[float],
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    level: float = 0.95,
    n_boot: int = 2000,
    seed: int | None = 0,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    progress: bool | None = None,
) -> pl.LazyFrame:
    """
    TPR at given FPRs with stratified bootstrap confidence bands.

    The point estimates are those of :func:`polars_roc.thresholds.tpr_at_fpr` (linear
    between ROC vertices, the largest TPR on a vertical part); each replicate's curve is read
    the same way. ``tpr_se`` is the replicates' standard deviation and ``tpr_lower`` /
    ``tpr_upper`` their percentiles, pointwise per target (a band of sensitivity at fixed
    specificities). Resampling as in :func:`auc_interval`.

    Parameters
    ----------
    lf
        Scored rows.
    fpr
        One target false positive rate, or a list, each in [0, 1].
    score, label, by, weight, pos_label
        Column roles, as in :func:`polars_roc.areas.auc`.
    level, n_boot, seed
        As in :func:`auc_interval`.
    direction, nan_policy
        As in :func:`polars_roc.areas.auc`: ``"lower"`` when a lower score means positive
        (thresholds stay in score units); NaN scores propagate, are omitted or raise.
    progress
        A progress bar on standard error while the bootstrap runs: True, False or None
        (auto: only on a terminal, not under pytest, and with tqdm installed; ``pip install
        polars_roc[progress]``). It ticks once per chunk of replicates, after ~2 s.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, fpr, tpr, threshold, tpr_se, tpr_lower, tpr_upper``.

    Examples
    --------
    >>> import polars as pl
    >>> from polars_roc.inference import tpr_at_fpr_interval
    >>> df = pl.DataFrame(
    ...     {"score": [0.1, 0.4, 0.35, 0.8, 0.7, 0.2, 0.9, 0.3], "label": [0, 0, 1, 1, 1, 0, 1, 0]}
    ... )
    >>> out = tpr_at_fpr_interval(df.lazy(), fpr=[0.1, 0.5], n_boot=200).collect()
    >>> out.columns[-3:]
    ['tpr_se', 'tpr_lower', 'tpr_upper']
    >>> out["tpr"].to_list()
    [0.75, 1.0]
    """
    return operating.tpr_at_fpr(
        lf,
        score,
        label,
        fpr=fpr,
        by=by,
        weight=weight,
        pos_label=pos_label,
        ci="bootstrap",
        level=level,
        n_boot=n_boot,
        seed=seed,
        progress=progress,
        direction=direction,
        nan_policy=nan_policy,
    )


def fpr_at_tpr_interval(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    tpr: float | Sequence[float],
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    level: float = 0.95,
    n_boot: int = 2000,
    seed: int | None = 0,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    progress: bool | None = None,
) -> pl.LazyFrame:
    """
    FPR at given TPRs with stratified bootstrap confidence bands.

    The point estimates are those of :func:`polars_roc.thresholds.fpr_at_tpr` (the smallest
    FPR on a horizontal part); ``fpr_se, fpr_lower, fpr_upper`` summarize the replicates
    read the same way, pointwise per target. Resampling as in :func:`auc_interval`.

    Parameters
    ----------
    lf
        Scored rows.
    tpr
        One target true positive rate, or a list, each in [0, 1].
    score, label, by, weight, pos_label
        Column roles, as in :func:`polars_roc.areas.auc`.
    level, n_boot, seed
        As in :func:`auc_interval`.
    direction, nan_policy
        As in :func:`polars_roc.areas.auc`: ``"lower"`` when a lower score means positive
        (thresholds stay in score units); NaN scores propagate, are omitted or raise.
    progress
        A progress bar on standard error while the bootstrap runs: True, False or None
        (auto: only on a terminal, not under pytest, and with tqdm installed; ``pip install
        polars_roc[progress]``). It ticks once per chunk of replicates, after ~2 s.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, fpr, tpr, threshold, fpr_se, fpr_lower, fpr_upper``.

    Examples
    --------
    >>> import polars as pl
    >>> from polars_roc.inference import fpr_at_tpr_interval
    >>> df = pl.DataFrame(
    ...     {"score": [0.1, 0.4, 0.35, 0.8, 0.7, 0.2, 0.9, 0.3], "label": [0, 0, 1, 1, 1, 0, 1, 0]}
    ... )
    >>> out = fpr_at_tpr_interval(df.lazy(), tpr=0.75, n_boot=200).collect()
    >>> out.columns[-3:]
    ['fpr_se', 'fpr_lower', 'fpr_upper']
    >>> out["fpr"].to_list()
    [0.0]
    """
    return operating.fpr_at_tpr(
        lf,
        score,
        label,
        tpr=tpr,
        by=by,
        weight=weight,
        pos_label=pos_label,
        ci="bootstrap",
        level=level,
        n_boot=n_boot,
        seed=seed,
        progress=progress,
        direction=direction,
        nan_policy=nan_policy,
    )


# ---------------------------------------------------------------------------------------
# Comparing two models
# ---------------------------------------------------------------------------------------
