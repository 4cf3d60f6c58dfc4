"""
Inference on ROC areas: tests comparing two models, and the interval functions by name.

DeLong et al. (1988) write the AUC as the mean of *placements*: a positive's placement
``V10`` is the fraction of negatives scoring below it, a negative's ``V01`` the fraction of
positives scoring above it (ties count one half). The AUC's variance is
``S10 / n_pos + S01 / n_neg`` with ``S10``, ``S01`` the sample variances (ddof = 1) of the
placements. Sun & Xu (2014) compute placements from midranks: the midrank of a positive
among all rows minus its midrank among the positives is the number of negatives below it
(ties one half). Here that is two ``rank()`` windows per group, so the whole computation is
a lazy Polars query with no Python loop (see :mod:`polars_roc._core.delong`). The
intervals are computed by ``auc(ci=...)``, ``partial_auc(ci=...)`` and
``tpr_at_fpr(ci=...)``; the ``*_interval`` functions here name them.

Examples
--------
>>> import polars as pl
>>> import polars_roc as pr
>>> df = pl.DataFrame(
...     {"score": [0.1, 0.4, 0.35, 0.8, 0.7, 0.2, 0.9, 0.3], "label": [0, 0, 1, 1, 1, 0, 1, 0]}
... )
>>> df.roc.auc(ci="delong")
shape: (1, 6)
┌────────┬───────┬───────┬──────────┬───────────┬───────────┐
│ auc    ┆ n_pos ┆ n_neg ┆ auc_se   ┆ auc_lower ┆ auc_upper │
│ ---    ┆ ---   ┆ ---   ┆ ---      ┆ ---       ┆ ---       │
│ f64    ┆ i64   ┆ i64   ┆ f64      ┆ f64       ┆ f64       │
╞════════╪═══════╪═══════╪══════════╪═══════════╪═══════════╡
│ 0.9375 ┆ 4     ┆ 4     ┆ 0.088388 ┆ 0.764262  ┆ 1.0       │
└────────┴───────┴───────┴──────────┴───────────┴───────────┘
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import polars as pl

from polars_roc import areas, bootstrap_tests, operating
from polars_roc._core import validate
from polars_roc._core.checks import NanPolicy
from polars_roc._core.compat import opaque
from polars_roc._core.delong import delong_table, ordered_variance
from polars_roc._core.direction import Direction, directed
from polars_roc._core.distributions import (
    difference_test,
    normal_cdf,
    normal_quantile,
    student_t_cdf,
    student_t_quantile,
)
from polars_roc._core.frames import same_kind
from polars_roc._core.groups import join_groups
from polars_roc._core.names import fresh
from polars_roc._core.validate import By
from polars_roc.multiple_testing import Adjust, check_adjust, with_adjusted

__all__ = [
    "auc_interval",
    "compare",
    "fpr_at_tpr_interval",
    "normal_cdf",
    "normal_quantile",
    "partial_auc_interval",
    "student_t_cdf",
    "student_t_quantile",
    "tpr_at_fpr_interval",
]

Alternative = Literal["two-sided", "greater", "less"]
_ALTERNATIVES = ("two-sided", "greater", "less")


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
        direction=direction,
        nan_policy=nan_policy,
    )


def tpr_at_fpr_interval(
    lf: pl.LazyFrame,
    fpr: float | Sequence[float],
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    level: float = 0.95,
    n_boot: int = 2000,
    seed: int | None = 0,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
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
    >>> out = tpr_at_fpr_interval(df.lazy(), [0.1, 0.5], n_boot=200).collect()
    >>> out.columns[-3:]
    ['tpr_se', 'tpr_lower', 'tpr_upper']
    >>> out["tpr"].to_list()
    [0.75, 1.0]
    """
    return operating.tpr_at_fpr(
        lf,
        fpr,
        score,
        label,
        by=by,
        weight=weight,
        pos_label=pos_label,
        ci="bootstrap",
        level=level,
        n_boot=n_boot,
        seed=seed,
        direction=direction,
        nan_policy=nan_policy,
    )


def fpr_at_tpr_interval(
    lf: pl.LazyFrame,
    tpr: float | Sequence[float],
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    level: float = 0.95,
    n_boot: int = 2000,
    seed: int | None = 0,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
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
    >>> out = fpr_at_tpr_interval(df.lazy(), 0.75, n_boot=200).collect()
    >>> out.columns[-3:]
    ['fpr_se', 'fpr_lower', 'fpr_upper']
    >>> out["fpr"].to_list()
    [0.0]
    """
    return operating.fpr_at_tpr(
        lf,
        tpr,
        score,
        label,
        by=by,
        weight=weight,
        pos_label=pos_label,
        ci="bootstrap",
        level=level,
        n_boot=n_boot,
        seed=seed,
        direction=direction,
        nan_policy=nan_policy,
    )


# ---------------------------------------------------------------------------------------
# Comparing two models
# ---------------------------------------------------------------------------------------


def _check_summary(model: str, case: str | None) -> Any:
    """A frame check run at collect time on the per-model summary."""

    def check(summary: pl.DataFrame) -> pl.DataFrame:
        models = summary["_model"].unique().to_list()
        if len(models) < 2:
            msg = (
                f"compare needs at least two models in column {model!r}, found {models}"
                f"\n\nHint: pass the column that names the models as model=<column>, in "
                f"long format (one row per case and model)."
            )
            raise ValueError(msg)
        nulls = summary.filter(pl.col("_null_cases") > 0)
        if nulls.height:
            row = nulls.row(0, named=True)
            msg = (
                f"case column {case!r} holds {row['_null_cases']} null case id(s) for model "
                f"{row['_model']!r}: a case without an id cannot be paired\n\nHint: fill "
                f"or drop them, e.g. .filter(pl.col({case!r}).is_not_null())."
            )
            raise ValueError(msg)
        if case is not None:
            dups = summary.filter(pl.col("_dup").is_not_null())
            if dups.height:
                row = dups.row(0, named=True)
                msg = (
                    f"case {row['_dup']!r} appears more than once for model "
                    f"{row['_model']!r} (column {case!r}); each case must be scored once "
                    f"per model\n\nHint: deduplicate the rows, or add the column that tells "
                    f"them apart to `by`."
                )
                raise ValueError(msg)
        return summary

    return check


def _check_pairs(case: str | None) -> Any:
    def check(pairs: pl.DataFrame) -> pl.DataFrame:
        bad = pairs.filter(~pl.col("paired"))
        if bad.height:
            row = bad.row(0, named=True)
            msg = (
                f"paired=True but models {row['model_a']!r} and {row['model_b']!r} do not "
                f"hold the same cases (column {case!r}) with the same labels"
                f"\n\nHint: pass paired=False for an unpaired test, or paired=None to decide "
                f"from the data."
            )
            raise ValueError(msg)
        return pairs

    return check


@same_kind
@directed
def compare(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    model: str = "model",
    case: str | None = None,
    by: By = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    paired: bool | None = None,
    alternative: Alternative = "two-sided",
    level: float = 0.95,
    method: Literal["delong", "bootstrap"] = "delong",
    fpr: tuple[float, float] | None = None,
    tpr: tuple[float, float] | None = None,
    n_boot: int = 2000,
    seed: int | None = None,
    adjust: Adjust | None = None,
) -> pl.LazyFrame:
    """
    DeLong's (or a bootstrap) test of two AUCs, for every pair of models, per group.

    Long-format input: one row per case and model. For each group and each pair of models
    ``model_a < model_b`` (in the model column's sort order), ``diff = auc_a - auc_b`` is
    tested against 0.

    * **Paired** (the same cases scored by both models, matched by `case`): DeLong's test,
      ``Z = diff / sqrt(V_a + V_b - 2 C)`` against the standard normal, where ``C`` is the
      covariance of the two AUCs from the placements' covariances (ddof = 1):
      ``C = cov(V10_a, V10_b) / n_pos + cov(V01_a, V01_b) / n_neg``. The interval is
      ``diff ± z · sd``. Identical curves give ``Z = 0`` and ``p = 1``.
    * **Unpaired** (different cases): ``D = diff / sqrt(V_a + V_b)`` against Student's t
      with the Welch-type ``df = (V_a + V_b)² / (V_a² / (N_a - 1) + V_b² / (N_b - 1))``,
      ``N = n_pos + n_neg`` of each curve (as pROC); interval ``diff ± t_df · sd``.
    * ``paired=None`` decides per group and pair, as pROC: paired iff both models hold
      exactly the same cases, each with the same label under both, matched by `case`, or
      without `case` by position (the same number of rows with the same labels in the same
      order). ``paired=True`` raises when they do not; ``paired=False`` always runs the
      unpaired test. The `paired` column says which test ran. Null case ids are an error.

    ``method="bootstrap"`` runs pROC's bootstrap test instead (paired or not, by the same
    rule), of the AUCs or, with ``fpr=(lo, hi)`` / ``tpr=(lo, hi)``, of the raw partial
    areas (then in ``auc_a, auc_b``): see :mod:`polars_roc.bootstrap_tests`.

    With more than two models every pair is tested; ``adjust="holm"``, ``"bonferroni"`` or
    ``"bh"`` (Benjamini-Hochberg) adds ``p_adjusted``, corrected over all the rows returned
    (:mod:`polars_roc.multiple_testing`). A group with fewer than two models
    yields no rows. Results are null when a curve is undefined; the interval, statistic and
    p-value also where a class has fewer than 2 rows. For a one-sided `alternative` the
    interval is one-sided, with the far end at ±1 (the range of a difference of AUCs);
    intervals are clipped to [-1, 1].

    Parameters
    ----------
    lf
        Scored rows in long format.
    score, label, by, pos_label
        Column roles, as in :func:`polars_roc.areas.auc`.
    model
        Column naming the model that produced each score.
    case
        Column identifying the case (patient, customer): pairs the two models' rows.
        Each case appears at most once per model and group.
    paired
        True (paired test, or an error), False (unpaired test), None (decide from the data).
    alternative
        ``"two-sided"``, ``"greater"`` (``auc_a > auc_b``) or ``"less"``.
    level
        Confidence level of the interval of the difference.
    method, fpr, tpr, n_boot, seed
        ``"delong"`` or ``"bootstrap"``; the partial-area range, replicates and random seed
        of the bootstrap test.
    adjust
        None, ``"holm"``, ``"bonferroni"`` or ``"bh"``: adds ``p_adjusted``.
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"`` (the same as negating
        the score, with thresholds kept in score units); never guessed from the data.
    nan_policy
        NaN scores: ``"propagate"`` (default: the group's results are null), ``"omit"``
        (skipped like nulls) or ``"raise"`` (an error naming the column and the count).

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, model_a, model_b, auc_a, auc_b, diff, diff_lower, diff_upper, statistic,
        p_value, paired, df``: `paired` tells which test ran, `df` the t test's degrees of
        freedom (null for the normal tests); + ``p_adjusted`` with `adjust`.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {
    ...         "case": list(range(8)) * 2,
    ...         "model": ["a"] * 8 + ["b"] * 8,
    ...         "label": [0, 0, 1, 1, 1, 0, 1, 0] * 2,
    ...         "score": [0.1, 0.4, 0.35, 0.8, 0.7, 0.2, 0.9, 0.3]
    ...         + [0.3, 0.2, 0.6, 0.5, 0.1, 0.7, 0.8, 0.4],
    ...     }
    ... )
    >>> df.roc.compare(case="case").select("model_a", "model_b", "diff", "statistic", "p_value")
    shape: (1, 5)
    ┌─────────┬─────────┬────────┬───────────┬──────────┐
    │ model_a ┆ model_b ┆ diff   ┆ statistic ┆ p_value  │
    │ ---     ┆ ---     ┆ ---    ┆ ---       ┆ ---      │
    │ str     ┆ str     ┆ f64    ┆ f64       ┆ f64      │
    ╞═════════╪═════════╪════════╪═══════════╪══════════╡
    │ a       ┆ b       ┆ 0.3125 ┆ 1.099853  ┆ 0.271396 │
    └─────────┴─────────┴────────┴───────────┴──────────┘
    >>> boot = df.roc.compare(case="case", method="bootstrap", n_boot=500, seed=1, adjust="holm")
    >>> boot.select("diff", "paired", "p_adjusted").row(0)[:2]
    (0.3125, True)
    """
    names = validate.as_names(by)
    schema = lf.collect_schema()
    validate.roles(schema, score=score, label=label, by=names, pos_label=pos_label)
    validate.column(schema, model, "model")
    roles = {score: "score", label: "label", **dict.fromkeys(names, "by")}
    if model in roles:
        msg = f"model column {model!r} is already the {roles[model]} column"
        raise ValueError(msg)
    if case is not None:
        validate.column(schema, case, "case")
        if case in roles or case == model:
            msg = f"case column {case!r} is already the {roles.get(case, 'model')} column"
            raise ValueError(msg)
    if paired not in (None, True, False):
        msg = f"paired must be True, False or None, got {paired!r}"
        raise ValueError(msg)
    if paired is True and case is None:
        msg = (
            "paired=True needs the column that matches the cases across models"
            "\n\nHint: pass case=<case id column>."
        )
        raise ValueError(msg)
    if alternative not in _ALTERNATIVES:
        msg = (
            f"alternative must be one of {list(_ALTERNATIVES)}, got {alternative!r}"
            f"\n\nHint: alternative='two-sided'."
        )
        raise ValueError(msg)
    validate.level(level)
    check_adjust(adjust)
    if bootstrap_tests.wanted(method, fpr=fpr, tpr=tpr, n_boot=n_boot, seed=seed):
        cols: dict[str, Any] = {"model": model, "case": case, "pos_label": pos_label}
        test: dict[str, Any] = {"paired": paired, "alternative": alternative, "level": level}
        boot: dict[str, Any] = {"n_boot": n_boot, "seed": seed, "fpr": fpr, "tpr": tpr}
        tested = bootstrap_tests.compare(lf, score, label, names=names, **cols, **test, **boot)
        return with_adjusted(tested, adjust)
    # Only the columns the test reads, model and case under names not in the frame: no other
    # column meets an internal one. As pROC: without case ids, two models score the same
    # cases when they hold the same number of rows with the same labels in the same order;
    # the row's position within its model (and group) is then its case id.
    taken = list(schema)
    model_column, case_column = fresh("__roc_model", taken), fresh("__roc_case", taken)
    case_id = pl.col(case) if case is not None else pl.int_range(pl.len()).over([*names, model])
    rows = lf.select(
        *names, score, label, pl.col(model).alias(model_column), case_id.alias(case_column)
    )
    keys = [*names, model_column]
    placed, table = delong_table(
        rows, score, label, names=keys, weight=None, pos_label=pos_label, extra=[case_column]
    )
    # Past the coding every column is ours (the groups run under reserved names).
    placed = placed.rename({model_column: "_model", case_column: "_case"})
    table = table.rename({model_column: "_model"})
    dup = placed.group_by(*names, "_model").agg(
        _dup=pl.col("_case").filter(pl.col("_case").is_duplicated()).first(),
        _null_cases=pl.col("_case").is_null().sum(),
    )
    table = table.join(dup, on=[*names, "_model"], how="left", nulls_equal=True)
    table = opaque(
        table.with_columns(_n=pl.col("n_pos") + pl.col("n_neg")), _check_summary(model, case)
    )
    side = ["_model", "auc", "n_pos", "n_neg", "_var", "_n"]
    a = table.select(*names, *(pl.col(c).alias(f"{c}_a") for c in side))
    b = table.select(*names, *(pl.col(c).alias(f"{c}_b") for c in side))
    pairs = join_groups(a, b, names, how="inner").filter(pl.col("_model_a") < pl.col("_model_b"))
    pair_keys = [*names, "_model_a", "_model_b"]
    cells = placed.select(*names, "_model", "_case", "_y", "_d")
    left = cells.rename({"_model": "_model_a", "_y": "_y_a", "_d": "_d_a"})
    right = cells.rename({"_model": "_model_b", "_y": "_y_b", "_d": "_d_b"})
    matched = left.join(right, on=[*names, "_case"], how="inner", nulls_equal=True).filter(
        (pl.col("_model_a") < pl.col("_model_b")) & (pl.col("_y_a") == pl.col("_y_b"))
    )
    y = pl.col("_y_a")
    # The paired variance from the per-case differences of placements: the same number as
    # var_a + var_b - 2 cov, and exactly 0 for identical curves (no cancellation error).
    gap = pl.col("_d_a") - pl.col("_d_b")
    # Cases sorted and sums in row order: the same bits on every run and engine.
    ordered = matched.sort([*pair_keys, "_case"])
    covariances = ordered.group_by(pair_keys, maintain_order=True).agg(
        _matched=pl.len(),
        _g10=ordered_variance(gap.filter(y)),
        _g01=ordered_variance(gap.filter(~y)),
    )
    pairs = pairs.join(covariances, on=pair_keys, how="left", nulls_equal=True)
    same_cases = (pl.col("_matched") == pl.col("_n_a")) & (pl.col("_n_a") == pl.col("_n_b"))
    is_paired = same_cases.fill_null(False) if paired is not False else pl.lit(False)
    v_a, v_b = pl.col("_var_a"), pl.col("_var_b")
    # `_d` are counts, so V10 = _d / n_neg and 1 - V01 = _d / n_pos.
    m, n = (pl.col(c).cast(pl.Float64) for c in ("n_pos_a", "n_neg_a"))
    paired_variance = pl.col("_g10") / (m * n**2) + pl.col("_g01") / (n * m**2)
    variance = pl.when(pl.col("paired")).then(paired_variance).otherwise(v_a + v_b)
    diff = pl.col("auc_a") - pl.col("auc_b")
    sd = pl.col("_sd")
    welch = (v_a + v_b) ** 2 / (v_a**2 / (pl.col("_n_a") - 1) + v_b**2 / (pl.col("_n_b") - 1))
    out = (
        pairs.with_columns(paired=is_paired)
        .with_columns(diff=diff, _sd=variance.clip(lower_bound=0.0).sqrt())
        .with_columns(
            statistic=pl.when(sd > 0)
            .then(pl.col("diff") / sd)
            .when((sd == 0) & (pl.col("diff") == 0))
            .then(0.0),
            df=pl.when(~pl.col("paired") & (sd > 0)).then(welch),
        )
        .with_columns(_test=difference_test(alternative, level))
        .unnest("_test")
        .sort(pair_keys, nulls_last=True)
    )
    out = out.select(
        *names,
        pl.col("_model_a").alias("model_a"),
        pl.col("_model_b").alias("model_b"),
        "auc_a",
        "auc_b",
        "diff",
        "diff_lower",
        "diff_upper",
        "statistic",
        "p_value",
        "paired",
        "df",
    )
    out = opaque(out, _check_pairs(case)) if paired is True else out
    return with_adjusted(out, adjust)
