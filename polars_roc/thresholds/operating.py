"""Operating points: the ROC curve read at given false or true positive rates.

``tpr_at_fpr`` (sensitivity at fixed specificities) and ``fpr_at_tpr`` read the polyline
through the vertices of :func:`polars_roc.curves.curve`, linear between vertices, with
optional stratified bootstrap bands. LazyFrame in, LazyFrame out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import polars as pl

from polars_roc._core import resampling, validate
from polars_roc._core.checks import NanPolicy
from polars_roc._core.columns import AT_RATE
from polars_roc._core.counts import roc_points
from polars_roc._core.direction import Direction, directed
from polars_roc._core.frames import same_kind
from polars_roc._core.groups import group_ids, per_group
from polars_roc._core.validate import By

__all__ = ["fpr_at_tpr", "tpr_at_fpr"]

#: The attainable operating point added to the interpolated one.


def _operating_points(
    lf: pl.LazyFrame,
    targets: list[float],
    along: Literal["fpr", "tpr"],
    score: str,
    label: str,
    *,
    by: By,
    weight: str | None,
    pos_label: Any,
    ci: Any = None,
    level: float = 0.95,
    n_boot: int = 2000,
    seed: int | None = 0,
    progress: bool | None = None,
) -> pl.LazyFrame:
    """
    The ROC curve read at given FPRs (``along="fpr"``) or TPRs (``along="tpr"``).

    The curve is the polyline through the vertices of ``curve()``. For a target x, the
    vertices are gathered into levels of equal x: a level is a vertical (horizontal) part.
    The segment leaving level a ends at the *lowest* vertex of the next level b, and starts
    at the *highest* vertex of a; at an exact hit the answer is the best vertex of the level
    (largest TPR for ``tpr_at_fpr``, smallest FPR for ``fpr_at_tpr``) and its threshold.
    ``ci="bootstrap"`` adds the bootstrap band.
    """
    if validate.ci(ci, ("bootstrap",)):
        return _operating_interval(
            lf,
            targets,
            along,
            score,
            label,
            by=by,
            weight=weight,
            pos_label=pos_label,
            level=level,
            n_boot=n_boot,
            seed=seed,
            progress=progress,
        )
    names = validate.as_names(by)
    x, y = along, "tpr" if along == "fpr" else "fpr"
    points = roc_points(lf, score, label, by=names, weight=weight, pos_label=pos_label)
    valid = points.filter(pl.col(x).is_not_null() & pl.col(y).is_not_null())
    # tpr_at_fpr: at a vertical part the top (largest tpr, lowest threshold) is exact;
    # fpr_at_tpr: at a horizontal part the left end (smallest fpr, highest threshold).
    exact_y = pl.col(y).max() if along == "fpr" else pl.col(y).min()
    exact_t = pl.col("threshold").min() if along == "fpr" else pl.col("threshold").max()
    levels = valid.group_by(*names, x).agg(
        _y_lo=pl.col(y).min(), _y_hi=pl.col(y).max(), _y_exact=exact_y, _t_exact=exact_t
    )
    levels, groups = group_ids(levels, names, points)
    levels = levels.select(pl.exclude(names)).sort("_gid", x)
    wanted = pl.LazyFrame(
        {"_i": range(len(targets)), "_target": targets},
        schema={"_i": pl.Int64, "_target": pl.Float64},
    )
    left = groups.join(wanted, how="cross").sort("_gid", "_target")
    below = levels.select(
        "_gid", _x_a=pl.col(x), _y_a=pl.col("_y_hi"), _y_exact="_y_exact", _t_exact="_t_exact"
    )
    above = levels.select("_gid", _x_b=pl.col(x), _y_b=pl.col("_y_lo"))
    # The attainable operating point, from the levels of the other coordinate: for
    # tpr_at_fpr, each TPR's leftmost vertex (smallest FPR, highest threshold), the one with
    # the largest TPR whose FPR is at most the target; for fpr_at_tpr, each FPR's top vertex
    # (largest TPR, lowest threshold), the one with the smallest FPR whose TPR is at least
    # the target. The secondary sort settles ties toward the better point.
    best_x = pl.col(x).min() if along == "fpr" else pl.col(x).max()
    best_t = pl.col("threshold").max() if along == "fpr" else pl.col("threshold").min()
    attainable = (
        valid.group_by(*names, y)
        .agg(_op_x=best_x, _op_t=best_t)
        .join(groups, on=names, how="inner", nulls_equal=True)
        if names
        else valid.group_by(y)
        .agg(_op_x=best_x, _op_t=best_t)
        .with_columns(_gid=pl.lit(0, dtype=pl.UInt32))
    )
    attainable = attainable.select("_gid", "_op_x", pl.col(y).alias("_op_y"), "_op_t").sort(
        "_gid", "_op_x", "_op_y"
    )
    joined = (
        left.join_asof(
            below,
            left_on="_target",
            right_on="_x_a",
            by="_gid",
            strategy="backward",
            coalesce=False,
            check_sortedness=False,
        )
        .join_asof(
            above,
            left_on="_target",
            right_on="_x_b",
            by="_gid",
            strategy="forward",
            allow_exact_matches=False,
            coalesce=False,
            check_sortedness=False,
        )
        .join_asof(
            attainable,
            left_on="_target",
            right_on="_op_x",
            by="_gid",
            strategy="backward" if along == "fpr" else "forward",
            coalesce=False,
            check_sortedness=False,
        )
    )
    t, x_a, y_a, x_b, y_b = (pl.col(c) for c in ("_target", "_x_a", "_y_a", "_x_b", "_y_b"))
    hit = x_a == t
    value = (
        pl.when(hit).then(pl.col("_y_exact")).otherwise(y_a + (t - x_a) * (y_b - y_a) / (x_b - x_a))
    )
    threshold = pl.when(hit).then(pl.col("_t_exact"))
    out = joined.with_columns(
        pl.col("_target").alias(x),
        value.alias(y),
        threshold.alias("threshold"),
        pl.col("_op_t").alias("op_threshold"),
        pl.col("_op_x").alias(f"op_{x}"),
        pl.col("_op_y").alias(f"op_{y}"),
    )
    out = out.sort([*names, "_i"], nulls_last=True, maintain_order=True)
    return out.select(*names, *AT_RATE)


@same_kind
@directed
def tpr_at_fpr(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    fpr: float | Sequence[float],
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    ci: Literal["bootstrap"] | None = None,
    level: float = 0.95,
    n_boot: int = 2000,
    seed: int | None = 0,
    progress: bool | None = None,
) -> pl.LazyFrame:
    """
    The TPR the ROC curve reaches at given false positive rates.

    The ROC curve is the polyline through the vertices of ``curve()``, read by linear
    interpolation between vertices. Where the curve is vertical at the target FPR the result
    is the largest TPR there (the best attainable), with the threshold that attains it.
    Between vertices the point is reachable only by randomizing between two thresholds, so
    `threshold` is null. Works on any LazyFrame of scored rows (e.g. a bootstrap resample,
    with the replicate as a `by` column).

    Parameters
    ----------
    lf
        Scored rows.
    fpr
        One target false positive rate, or a list, each in [0, 1].
    score, label, by, weight, pos_label
        Column roles, as in :func:`thresholds`.
    ci
        ``"bootstrap"`` adds ``tpr_se, tpr_lower, tpr_upper``: stratified bootstrap bands of
        `tpr` (see :func:`polars_roc.inference.tpr_at_fpr_interval`).
    level, n_boot, seed
        Confidence level, bootstrap replicates and random seed (``ci="bootstrap"`` only).
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"`` (the same as negating
        the score, with thresholds kept in score units); never guessed from the data.
    nan_policy
        NaN scores: ``"propagate"`` (default: the group's results are null), ``"omit"``
        (skipped like nulls) or ``"raise"`` (an error naming the column and the count).
    progress
        A progress bar on standard error while the bootstrap runs: True, False or None
        (auto: only on a terminal, not under pytest, and with tqdm installed; ``pip install
        polars_roc[progress]``). It ticks once per chunk of replicates, after ~2 s.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, fpr, tpr, threshold, op_threshold, op_fpr, op_tpr`` (+ ``tpr_se, tpr_lower,
        tpr_upper``): one row per group and target, targets in the order given. `tpr` is
        null for a group without positives or negatives, or with a NaN score. ``op_*`` is
        the attainable operating point: the threshold with the largest TPR whose FPR is at
        most the target (the vertex at or left of the target). Why two thresholds:
        ``threshold`` belongs to the interpolated point, so it is null between two vertices
        (no single threshold reaches it); ``op_threshold`` is the one to deploy.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.6, 0.5], "label": [1, 1, 0, 1, 0]})
    >>> df.roc.tpr_at_fpr(fpr=[0.0, 0.25, 0.5])
    shape: (3, 6)
    ┌──────┬──────────┬───────────┬──────────────┬────────┬──────────┐
    │ fpr  ┆ tpr      ┆ threshold ┆ op_threshold ┆ op_fpr ┆ op_tpr   │
    │ ---  ┆ ---      ┆ ---       ┆ ---          ┆ ---    ┆ ---      │
    │ f64  ┆ f64      ┆ f64       ┆ f64          ┆ f64    ┆ f64      │
    ╞══════╪══════════╪═══════════╪══════════════╪════════╪══════════╡
    │ 0.0  ┆ 0.666667 ┆ 0.8       ┆ 0.8          ┆ 0.0    ┆ 0.666667 │
    │ 0.25 ┆ 0.666667 ┆ null      ┆ 0.8          ┆ 0.0    ┆ 0.666667 │
    │ 0.5  ┆ 1.0      ┆ 0.6       ┆ 0.6          ┆ 0.5    ┆ 1.0      │
    └──────┴──────────┴───────────┴──────────────┴────────┴──────────┘
    """
    targets = validate.rates(fpr, "fpr")
    return _operating_points(
        lf,
        targets,
        "fpr",
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
    )


@same_kind
@directed
def fpr_at_tpr(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    tpr: float | Sequence[float],
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    ci: Literal["bootstrap"] | None = None,
    level: float = 0.95,
    n_boot: int = 2000,
    seed: int | None = 0,
    progress: bool | None = None,
) -> pl.LazyFrame:
    """
    The FPR the ROC curve needs to reach given true positive rates.

    Linear interpolation between the vertices of ``curve()``; where the curve is horizontal
    at the target TPR the result is the smallest FPR there (the best attainable), with the
    threshold that attains it; between vertices `threshold` is null (only a randomized mix
    of two thresholds attains the point). Works on any LazyFrame of scored rows.

    Parameters
    ----------
    lf
        Scored rows.
    tpr
        One target true positive rate (sensitivity), or a list, each in [0, 1].
    score, label, by, weight, pos_label
        Column roles, as in :func:`thresholds`.
    ci
        ``"bootstrap"`` adds ``fpr_se, fpr_lower, fpr_upper``: stratified bootstrap bands of
        `fpr` (see :func:`polars_roc.inference.fpr_at_tpr_interval`).
    level, n_boot, seed
        Confidence level, bootstrap replicates and random seed (``ci="bootstrap"`` only).
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"`` (the same as negating
        the score, with thresholds kept in score units); never guessed from the data.
    nan_policy
        NaN scores: ``"propagate"`` (default: the group's results are null), ``"omit"``
        (skipped like nulls) or ``"raise"`` (an error naming the column and the count).
    progress
        A progress bar on standard error while the bootstrap runs: True, False or None
        (auto: only on a terminal, not under pytest, and with tqdm installed; ``pip install
        polars_roc[progress]``). It ticks once per chunk of replicates, after ~2 s.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, fpr, tpr, threshold, op_threshold, op_fpr, op_tpr`` (+ ``fpr_se, fpr_lower,
        fpr_upper``): one row per group and target, in the order given. ``op_*`` is the
        attainable operating point: the threshold with the smallest FPR whose TPR is at
        least the target. Why two thresholds: ``threshold`` belongs to the interpolated
        point, so it is null between two vertices (no single threshold reaches it);
        ``op_threshold`` is the one to deploy.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.6, 0.5], "label": [1, 1, 0, 1, 0]})
    >>> df.roc.fpr_at_tpr(tpr=[0.5, 2 / 3, 1.0])
    shape: (3, 6)
    ┌─────┬──────────┬───────────┬──────────────┬────────┬──────────┐
    │ fpr ┆ tpr      ┆ threshold ┆ op_threshold ┆ op_fpr ┆ op_tpr   │
    │ --- ┆ ---      ┆ ---       ┆ ---          ┆ ---    ┆ ---      │
    │ f64 ┆ f64      ┆ f64       ┆ f64          ┆ f64    ┆ f64      │
    ╞═════╪══════════╪═══════════╪══════════════╪════════╪══════════╡
    │ 0.0 ┆ 0.5      ┆ null      ┆ 0.8          ┆ 0.0    ┆ 0.666667 │
    │ 0.0 ┆ 0.666667 ┆ 0.8       ┆ 0.8          ┆ 0.0    ┆ 0.666667 │
    │ 0.5 ┆ 1.0      ┆ 0.6       ┆ 0.6          ┆ 0.5    ┆ 1.0      │
    └─────┴──────────┴───────────┴──────────────┴────────┴──────────┘
    """
    targets = validate.rates(tpr, "tpr")
    return _operating_points(
        lf,
        targets,
        "tpr",
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
    )


def _operating_interval(
    lf: pl.LazyFrame,
    targets: float | Sequence[float],
    along: Literal["fpr", "tpr"],
    score: str,
    label: str,
    *,
    by: By,
    weight: str | None,
    pos_label: Any,
    level: float,
    n_boot: int,
    seed: int | None,
    progress: bool | None = None,
) -> pl.LazyFrame:
    names = validate.as_names(by)
    wanted = validate.rates(targets, along)
    reading = "tpr" if along == "fpr" else "fpr"
    point = _operating_points(
        lf, wanted, along, score, label, by=names, weight=weight, pos_label=pos_label
    )
    if along == "fpr":
        statistic = resampling.tpr_at_fpr_statistic(wanted)
    else:
        statistic = resampling.fpr_at_tpr_statistic(wanted)
    boot = resampling.boot_table(
        lf,
        score,
        label,
        names=names,
        weight=weight,
        pos_label=pos_label,
        statistic=statistic,
        width=len(wanted),
        level=level,
        n_boot=n_boot,
        seed=seed,
        progress=progress,
    )
    fields = ["se", "lower", "upper"]
    bands = boot.select(
        *names,
        pl.int_range(len(wanted), dtype=pl.Int64).implode().alias("_i"),
        *(pl.col("_boot").struct.field(f).alias(f"{reading}_{f}") for f in fields),
    )
    bands = bands.explode(["_i", *(f"{reading}_{f}" for f in fields)])
    numbered = point.with_columns(_i=per_group(pl.int_range(pl.len(), dtype=pl.Int64), names))
    keys = [*names, "_i"]
    joined = numbered.join(bands, on=keys, how="left", nulls_equal=True, maintain_order="left")
    defined = pl.col(reading).is_not_null()
    return joined.select(
        *names,
        *AT_RATE,
        *(pl.when(defined).then(pl.col(f"{reading}_{f}")).alias(f"{reading}_{f}") for f in fields),
    )
