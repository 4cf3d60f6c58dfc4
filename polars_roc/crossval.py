"""
Cross-validation: stratified fold assignment, summaries of per-fold AUCs, averaged curves.

Out-of-fold scores carry a `fold` column; every function here groups by it on top of `by`.

Examples
--------
>>> import polars as pl
>>> import polars_roc as pr
>>> df = pr.datasets.simulate(2000, models=["logit"], seed=3)
>>> df.roc.cv_auc(fold="fold").columns
['auc_mean', 'auc_var', 'auc_sd', 'n_folds']
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import polars as pl
from polars._typing import IntoExprColumn

from polars_roc import areas
from polars_roc._core import checks, kernels, labels, validate
from polars_roc._core.checks import NanPolicy
from polars_roc._core.columns import AVERAGE_CURVE, THRESHOLD_AVERAGE
from polars_roc._core.counts import counted, roc_points
from polars_roc._core.direction import Direction, directed
from polars_roc._core.distributions import student_t_quantile
from polars_roc._core.frames import same_kind
from polars_roc._core.groups import join_groups, per_group, summarize
from polars_roc._core.names import fresh
from polars_roc._core.validate import By
from polars_roc.thresholds import operating

__all__ = ["average_curve", "cv_auc", "stratified_folds"]


def stratified_folds(label: IntoExprColumn, k: int = 5, *, seed: int | None = 0) -> pl.Expr:
    """
    Fold numbers ``0..k-1`` stratified by class, as an expression.

    Rows are put in a random order within each class (reproducible with `seed`) and dealt
    out to the folds in turn, class after class: every fold gets the same number of rows of
    each class, give or take one, and the same number of rows overall, give or take one.
    Null labels form a class of their own. The assignment depends on the rows' order in the
    frame (the same frame and seed give the same folds); it works in ``with_columns``,
    ``select`` and ``over()`` (folds within each group).

    Parameters
    ----------
    label
        Class column (name or expression), any dtype.
    k
        Number of folds, at least 2.
    seed
        Random seed; None for a fresh one.

    Returns
    -------
    pl.Expr
        Int64 fold numbers named ``fold``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"label": [1, 0, 0, 1, 0, 0, 1, 0, 0, 0]})
    >>> folded = df.with_columns(pr.stratified_folds("label", k=3, seed=1))
    >>> folded.group_by("fold").agg(pl.len(), pl.col("label").sum()).sort("fold")
    shape: (3, 3)
    ┌──────┬─────┬───────┐
    │ fold ┆ len ┆ label │
    │ ---  ┆ --- ┆ ---   │
    │ i64  ┆ u32 ┆ i64   │
    ╞══════╪═════╪═══════╡
    │ 0    ┆ 4   ┆ 1     │
    │ 1    ┆ 3   ┆ 1     │
    │ 2    ┆ 3   ┆ 1     │
    └──────┴─────┴───────┘
    """
    validate.whole(k, "k", minimum=2, hint="k=5 (the number of folds)")
    validate.seed(seed)
    k = int(k)
    y = labels.into_expr(label)
    shuffled = pl.int_range(pl.len(), dtype=pl.Int64).shuffle(
        seed=None if seed is None else int(seed)
    )
    # Rows in (class, shuffled) order, null labels last, dealt round robin. One sort key
    # (class rank * (n + 1) + shuffled position), not two: a two-key sort inside a window
    # is not deterministic in Polars 1.x.
    n = pl.len().cast(pl.Int64)
    key = y.rank("dense").cast(pl.Int64).fill_null(n + 1) * (n + 1) + shuffled
    dealt = key.arg_sort().arg_sort()
    return (dealt % k).cast(pl.Int64).alias("fold")


def _fold_roles(lf: pl.LazyFrame, fold: str, names: list[str], *roles: str) -> None:
    validate.column(lf.collect_schema(), fold, "fold")
    if fold in names or fold in roles:
        msg = f"fold column {fold!r} cannot also be a role or a `by` column"
        raise ValueError(msg)


@same_kind
@directed
def cv_auc(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    fold: str = "fold",
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.LazyFrame:
    """
    Cross-validated AUC: the mean of the per-fold AUCs and their spread, per group.

    The AUC is computed within each fold (``auc(by=[*by, fold])``) and summarized over the
    K folds: ``auc_mean`` their mean, ``auc_var = Σ (auc_k - auc_mean)² / K`` (the 1/K
    variance of the fold AUCs) and ``auc_sd`` its square root. A fold with one class only
    is left out; ``n_folds`` counts the folds used. A NaN score in any fold makes the
    group's AUC measures null under ``nan_policy="propagate"``, as in
    :func:`polars_roc.areas.auc`.

    Parameters
    ----------
    lf
        Out-of-fold scored rows.
    score, label, by, weight, pos_label
        Column roles, as in :func:`polars_roc.areas.auc`.
    fold
        Column holding each row's fold.
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
        ``*by, auc_mean, auc_var, auc_sd, n_folds``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {
    ...         "fold": [0] * 4 + [1] * 4,
    ...         "score": [0.9, 0.4, 0.6, 0.1, 0.8, 0.3, 0.7, 0.2],
    ...         "label": [1, 1, 0, 0, 1, 0, 1, 0],
    ...     }
    ... )
    >>> df.roc.cv_auc()
    shape: (1, 4)
    ┌──────────┬──────────┬────────┬─────────┐
    │ auc_mean ┆ auc_var  ┆ auc_sd ┆ n_folds │
    │ ---      ┆ ---      ┆ ---    ┆ ---     │
    │ f64      ┆ f64      ┆ f64    ┆ i64     │
    ╞══════════╪══════════╪════════╪═════════╡
    │ 0.875    ┆ 0.015625 ┆ 0.125  ┆ 2       │
    └──────────┴──────────┴────────┴─────────┘
    """
    names = validate.as_names(by)
    _fold_roles(lf, fold, names, score, label)
    per_fold = areas.auc(lf, score, label, by=[*names, fold], weight=weight, pos_label=pos_label)
    auc = pl.col("auc")
    # Both classes and still no AUC: a NaN score, which makes the group's measures null.
    clean = ~(auc.is_null() & (pl.col("n_pos") > 0) & (pl.col("n_neg") > 0)).any()
    summary = [
        pl.when(clean).then(auc.mean()).alias("auc_mean"),
        pl.when(clean).then(auc.var(ddof=0)).alias("auc_var"),
        pl.when(clean).then(auc.var(ddof=0).sqrt()).alias("auc_sd"),
        auc.count().cast(pl.Int64).alias("n_folds"),
    ]
    return summarize(per_fold, names, summary)


def _propagated(table: pl.LazyFrame, nan: pl.LazyFrame, names: list[str]) -> pl.LazyFrame:
    """The averages of `table` (unsorted) null in the groups `nan` flags (a NaN score)."""
    flagged = join_groups(table, nan, names)
    averages = [c for c in flagged.collect_schema().names() if c.startswith(("_tpr_", "_fpr_"))]
    keep = ~pl.col("_nan").fill_null(False)
    return flagged.with_columns(pl.when(keep).then(pl.col(c)).alias(c) for c in averages)


def _mean_band(column: str, level: float) -> list[pl.Expr]:
    """Mean over folds and its pointwise t interval: mean ± t(K-1) · sd / sqrt(K)."""
    p = (1 + level) / 2
    values = pl.col(column)
    k = values.count()
    t = (k - 1).map_batches(
        lambda s: pl.Series(s.name, student_t_quantile(p, s.cast(pl.Float64).to_numpy())),
        return_dtype=pl.Float64,
        is_elementwise=True,
    )
    half = pl.when(k >= 2).then(t * values.std(ddof=1) / k.cast(pl.Float64).sqrt())
    mean = values.mean()
    return [
        mean.alias(f"_{column}_mean"),
        (mean - half).clip(0.0, 1.0).alias(f"_{column}_lower"),
        (mean + half).clip(0.0, 1.0).alias(f"_{column}_upper"),
    ]


def _check_points(points: Any) -> None:
    validate.whole(points, "points", minimum=2, hint="points=101")


@same_kind
@directed
def average_curve(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    fold: str = "fold",
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    method: Literal["vertical", "threshold"] = "vertical",
    points: int = 101,
    level: float = 0.95,
) -> pl.LazyFrame:
    """
    The ROC curve averaged over folds, with a pointwise confidence band (Fawcett 2006).

    * ``method="vertical"``: each fold's TPR is read at `points` evenly spaced FPRs in
      [0, 1] (as :func:`polars_roc.thresholds.tpr_at_fpr`: linear between vertices, the
      largest TPR on a vertical part) and averaged over the folds at each FPR.
    * ``method="threshold"``: `points` thresholds are taken from the scores of all folds
      pooled (``+inf`` and then evenly spaced through the sorted distinct scores, highest
      to lowest); at each, every fold's (fpr, tpr) is its operating point for
      ``score >= threshold``, and both coordinates are averaged. Extra columns
      ``threshold, fpr_lower, fpr_upper`` give the horizontal spread.

    The band is a pointwise ``level`` confidence interval of the mean over the K folds,
    ``mean ± t(K - 1) · sd / sqrt(K)`` with ``sd`` the folds' standard deviation (ddof 1)
    and ``t`` Student's quantile, clipped to [0, 1]; null with fewer than 2 folds. It
    describes the uncertainty of the *average* curve, not the spread of single folds
    (multiply the half-width by ``sqrt(K)`` for that). Folds with one class only are left
    out; a NaN score in any fold makes the group's averages null under
    ``nan_policy="propagate"``.

    Parameters
    ----------
    lf
        Out-of-fold scored rows.
    score, label, by, weight, pos_label
        Column roles, as in :func:`polars_roc.areas.auc`.
    fold
        Column holding each row's fold.
    method
        ``"vertical"`` or ``"threshold"`` averaging.
    points
        Number of FPRs (vertical) or thresholds (threshold averaging), at least 2.
    level
        Confidence level of the band.
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
        ``*by, fpr, tpr_mean, tpr_lower, tpr_upper`` sorted by FPR (vertical), or with
        ``threshold, fpr_lower, fpr_upper`` added, sorted by threshold descending
        (threshold averaging; ``fpr`` is then the mean FPR).

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {
    ...         "fold": [0] * 4 + [1] * 4,
    ...         "score": [0.9, 0.4, 0.6, 0.1, 0.8, 0.7, 0.3, 0.2],
    ...         "label": [1, 1, 0, 0, 1, 0, 1, 0],
    ...     }
    ... )
    >>> df.roc.average_curve(points=3)
    shape: (3, 4)
    ┌─────┬──────────┬───────────┬───────────┐
    │ fpr ┆ tpr_mean ┆ tpr_lower ┆ tpr_upper │
    │ --- ┆ ---      ┆ ---       ┆ ---       │
    │ f64 ┆ f64      ┆ f64       ┆ f64       │
    ╞═════╪══════════╪═══════════╪═══════════╡
    │ 0.0 ┆ 0.5      ┆ 0.5       ┆ 0.5       │
    │ 0.5 ┆ 1.0      ┆ 1.0       ┆ 1.0       │
    │ 1.0 ┆ 1.0      ┆ 1.0       ┆ 1.0       │
    └─────┴──────────┴───────────┴───────────┘
    """
    names = validate.as_names(by)
    _fold_roles(lf, fold, names, score, label)
    schema = lf.collect_schema()  # our errors, not a KeyError from the coding below
    validate.roles(schema, score=score, label=label, by=names, weight=weight, pos_label=pos_label)
    _check_points(points)
    validate.level(level)
    if method not in ("vertical", "threshold"):
        msg = (
            f"method must be 'vertical' or 'threshold', got {method!r}\n\nHint: method='vertical'."
        )
        raise ValueError(msg)
    # The fold runs under a name of our own: a fold column may bear one of our columns' names.
    inner = fresh("__roc_fold", schema.names())
    lf = lf.rename({fold: inner})
    keys = [*names, inner]
    # Groups with a NaN score among the rows that count: a plain group-by, no sort.
    rows = kernels.coded(lf, score, label, names=names, weight=weight, pos_label=pos_label)
    tainted = checks.is_nan(pl.col("_s")).any().alias("_nan")
    nan = rows.group_by(names).agg(tainted) if names else rows.select(tainted)
    if method == "vertical":
        grid = np.linspace(0.0, 1.0, points).tolist()
        read = operating.tpr_at_fpr(
            lf, score, label, fpr=grid, by=keys, weight=weight, pos_label=pos_label
        )
        table = _propagated(read.group_by(*names, "fpr").agg(_mean_band("tpr", level)), nan, names)
        return table.sort([*names, "fpr"], nulls_last=True).select(
            *names,
            "fpr",
            *(pl.col(f"_{c}").alias(c) for c in AVERAGE_CURVE[1:]),
        )
    pooled = counted(lf, score, label, by=names, weight=weight, pos_label=pos_label)
    pooled = pooled.with_columns(
        _r=per_group(pl.int_range(pl.len(), dtype=pl.Int64), names),
        _n=per_group(pl.len().cast(pl.Int64), names),
    )
    steps = pl.LazyFrame({"_j": range(points)}, schema={"_j": pl.Int64})
    groups = pooled.select(*names, "_n").unique()
    chosen = (
        (groups.join(steps, how="cross"))
        .with_columns(_r=(pl.col("_j") * (pl.col("_n") - 1) / (points - 1)).round().cast(pl.Int64))
        .select(*names, "_r")
        .unique()
    )
    cut = pooled.join(chosen, on=[*names, "_r"], how="inner", nulls_equal=True).select(
        *names, pl.col("threshold").alias("_t")
    )
    folds_curve = roc_points(lf, score, label, by=keys, weight=weight, pos_label=pos_label)
    # A fold without positives or negatives (or with a NaN score) has no curve: it is left
    # out of both averages, not averaged in one coordinate only.
    defined = (pl.col("tpr").is_not_null() & pl.col("fpr").is_not_null()).all()
    folds_curve = folds_curve.filter(per_group(defined, keys))
    # One integer id per (group, fold): join_asof's `by` never matches null keys, so a null
    # group or fold value would otherwise lose its curve.
    folds = folds_curve.select(keys).unique(maintain_order=True).with_row_index("_k")
    left = join_groups(folds, cut, names, how="inner").sort("_t")
    right = (
        folds_curve.join(folds, on=keys, how="inner", nulls_equal=True)
        .select("_k", "threshold", "fpr", "tpr")
        .sort("threshold")
    )
    read = left.join_asof(
        right,
        left_on="_t",
        right_on="threshold",
        by="_k",
        strategy="forward",
        check_sortedness=False,
    )
    table = read.group_by(*names, "_t").agg(*_mean_band("tpr", level), *_mean_band("fpr", level))
    table = _propagated(table, nan, names)
    table = table.sort([*names, "_t"], descending=[False] * len(names) + [True], nulls_last=True)
    return table.select(
        *names,
        pl.col("_fpr_mean").alias("fpr"),
        *(pl.col("_t" if c == "threshold" else f"_{c}").alias(c) for c in THRESHOLD_AVERAGE[1:]),
    )
