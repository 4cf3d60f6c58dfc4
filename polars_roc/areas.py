"""Areas under ROC curves per group: AUC and partial AUC. LazyFrame in, LazyFrame out."""

from __future__ import annotations

from typing import Any, Literal

import polars as pl

from polars_roc._core import binormal, delong, resampling, sorted_auc, validate
from polars_roc._core.checks import NanPolicy
from polars_roc._core.columns import AUC, PARTIAL_AUC
from polars_roc._core.counts import roc_points
from polars_roc._core.direction import Direction, directed
from polars_roc._core.frames import same_kind
from polars_roc._core.groups import join_groups, summarize
from polars_roc._core.kernels import auc_of, class_totals, rows
from polars_roc._core.validate import By
from polars_roc._core.vertices import mcclish, partial_area

__all__ = ["auc", "partial_auc", "partial_auc_of_curve"]


@same_kind
@directed
def auc(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    ci: Literal["delong", "logit", "bootstrap", "obuchowski"] | None = None,
    level: float = 0.95,
    n_boot: int = 2000,
    seed: int | None = 0,
    cluster: str | None = None,
    progress: bool | None = None,
) -> pl.LazyFrame:
    """
    Area under the ROC curve per group, with class counts and optional intervals.

    Parameters
    ----------
    lf
        Scored rows.
    score
        Numeric score column; higher means more likely positive.
    label
        Class column: Boolean, 0/1 integer, or any coding with `pos_label`.
    by
        Column name(s) to group by: one row per group, sorted by group.
    weight
        Optional non-negative case weights (`n_pos` / `n_neg` become weight sums).
    pos_label
        The positive class. Default: True for Boolean labels, 1 for 0/1 integers.
    ci
        ``"delong"``, ``"logit"`` or ``"bootstrap"`` adds ``auc_se, auc_lower, auc_upper``.
        ``"logit"`` takes the DeLong standard error to the logit scale (the delta method)
        and back: bounds inside (0, 1) without clipping, asymmetric near 1, better
        coverage for small samples and AUCs near 1 (an AUC of exactly 0 or 1 gives the
        point itself). ``"obuchowski"``: the standard error of Obuchowski's (1997)
        binormal variance, pROC's ``var(roc, method="obuchowski")``, from the curve's
        binormal fit (pROC's ``smooth(method="binormal")``, see
        :func:`polars_roc.smoothing.smooth`) and ``κ = n_neg / n_pos``; null where the fit
        is (fewer than two points inside the unit square).
    level
        Confidence level of the interval.
    cluster
        Column of cluster ids (a customer, a patient with several rows); adds
        ``n_clusters``. With ``ci="delong"`` or ``"logit"`` the standard error is
        Obuchowski's (1997) clustered variance from the placements summed per cluster;
        with ``ci="bootstrap"`` replicates draw whole clusters with replacement, stratified
        by kind (clusters of positives only, of negatives only, then clusters holding both:
        see :mod:`polars_roc._core.resampling`). One cluster per row gives the row-level
        numbers: DeLong's to rounding, the bootstrap's exactly (the same seed, the same
        replicates).
        Unweighted rows only; null cluster ids are an error.
    n_boot, seed
        Bootstrap replicates and random seed (``ci="bootstrap"`` only).
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
        ``*by, auc, n_pos, n_neg`` (+ ``auc_se, auc_lower, auc_upper``). `auc` is null for a
        group without positives or negatives, or with a NaN score.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {
    ...         "model": ["a", "a", "a", "b", "b", "b"],
    ...         "score": [0.9, 0.5, 0.5, 0.2, 0.6, 0.7],
    ...         "label": [True, True, False, True, False, False],
    ...     }
    ... )
    >>> df.roc.auc(by="model")
    shape: (2, 4)
    ┌───────┬──────┬───────┬───────┐
    │ model ┆ auc  ┆ n_pos ┆ n_neg │
    │ ---   ┆ ---  ┆ ---   ┆ ---   │
    │ str   ┆ f64  ┆ i64   ┆ i64   │
    ╞═══════╪══════╪═══════╪═══════╡
    │ a     ┆ 0.75 ┆ 2     ┆ 1     │
    │ b     ┆ 0.0  ┆ 1     ┆ 2     │
    └───────┴──────┴───────┴───────┘

    Several rows per patient: the interval from whole patients, not rows.

    >>> sim = pr.datasets.simulate(600, seed=1).filter(pl.col("model") == "gbm")
    >>> sim = sim.with_columns(patient=pl.col("case") // 3)
    >>> out = sim.roc.auc(ci="bootstrap", cluster="patient", n_boot=500)
    >>> out.select("auc", "n_clusters", (pl.col("auc_upper") > pl.col("auc_lower")).alias("ok"))
    shape: (1, 3)
    ┌──────────┬────────────┬──────┐
    │ auc      ┆ n_clusters ┆ ok   │
    │ ---      ┆ ---        ┆ ---  │
    │ f64      ┆ u32        ┆ bool │
    ╞══════════╪════════════╪══════╡
    │ 0.842516 ┆ 200        ┆ true │
    └──────────┴────────────┴──────┘
    """
    names = validate.as_names(by)
    schema = lf.collect_schema()
    validate.roles(schema, score=score, label=label, by=names, weight=weight, pos_label=pos_label)
    if cluster is not None and ci is None:
        msg = "cluster= changes the interval only\n\nHint: pass ci='delong' with it."
        raise ValueError(msg)
    if ci is not None:
        validate.ci(ci, ("delong", "logit", "bootstrap", "obuchowski"))
        if ci == "obuchowski" and cluster is not None:
            msg = "ci='obuchowski' is a binormal model of unclustered rows\n\nHint: ci='delong'."
            raise ValueError(msg)
        validate.level(level)
        if cluster is not None:
            args = (names, weight, pos_label, ci, level, cluster, (n_boot, seed))
            return _clustered(lf, score, label, *args)
        if ci == "delong":
            return delong.auc_table(
                lf, score, label, names=names, weight=weight, pos_label=pos_label, level=level
            )
        if ci == "obuchowski":
            return _obuchowski(lf, score, label, names, weight, pos_label, schema[label], level)
        if ci == "logit":
            table = delong.auc_table(
                lf, score, label, names=names, weight=weight, pos_label=pos_label, level=level
            )
            return table.with_columns(delong.logit_interval_columns("auc", level))
        return _auc_bootstrap(
            lf,
            score,
            label,
            names=names,
            weight=weight,
            pos_label=pos_label,
            level=level,
            n_boot=n_boot,
            seed=seed,
            progress=progress,
        )
    return sorted_auc.auc_table(
        lf, score, label, names=names, weight=weight, pos_label=pos_label, label_dtype=schema[label]
    )


@same_kind
@directed
def partial_auc(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    fpr: tuple[float, float] | None = None,
    tpr: tuple[float, float] | None = None,
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
    Partial area under the ROC curve over an FPR or a TPR range, with McClish's standardization.

    With ``fpr=(lo, hi)`` the area is the integral of TPR over that FPR range (pROC's focus
    "specificity"); with ``tpr=(lo, hi)`` it is the integral of specificity (1 - FPR) over
    that TPR range (pROC's focus "sensitivity"). The curve is interpolated linearly at the
    bounds. ``pauc_std = (1 + (A - min) / (max - min)) / 2`` with ``max = hi - lo`` and
    ``min`` the same area under the chance diagonal. For ``fpr=(0, b)`` it equals
    scikit-learn's ``roc_auc_score(max_fpr=b)``, also where the curve's area is below the
    diagonal's: there it is below 0.5 (pROC returns NA instead).

    Parameters
    ----------
    lf
        Scored rows.
    score, label, by, weight, pos_label
        Column roles, as in :func:`polars_roc.areas.auc`.
    fpr
        FPR range ``(lo, hi)``, ``0 <= lo < hi <= 1``.
    tpr
        TPR range ``(lo, hi)``; give exactly one of `fpr` and `tpr`.
    ci
        ``"bootstrap"`` adds ``pauc_se, pauc_lower, pauc_upper``: a stratified bootstrap
        interval of `pauc` (see :func:`polars_roc.inference.partial_auc_interval`).
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
        ``*by, pauc, pauc_std, n_pos, n_neg`` (+ ``pauc_se, pauc_lower, pauc_upper``).

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.3, 0.2], "label": [1, 0, 1, 0, 0]})
    >>> df.roc.partial_auc(fpr=(0.0, 0.5))
    shape: (1, 4)
    ┌──────────┬──────────┬───────┬───────┐
    │ pauc     ┆ pauc_std ┆ n_pos ┆ n_neg │
    │ ---      ┆ ---      ┆ ---   ┆ ---   │
    │ f64      ┆ f64      ┆ i64   ┆ i64   │
    ╞══════════╪══════════╪═══════╪═══════╡
    │ 0.333333 ┆ 0.777778 ┆ 2     ┆ 3     │
    └──────────┴──────────┴───────┴───────┘
    """
    if (fpr is None) == (tpr is None):
        msg = "give exactly one range: fpr=(lo, hi) or tpr=(lo, hi)\n\nHint: fpr=(0.0, 0.2)."
        raise ValueError(msg)
    names = validate.as_names(by)
    if ci is not None:
        validate.ci(ci, ("bootstrap",))
        return _partial_auc_bootstrap(
            lf,
            score,
            label,
            fpr=fpr,
            tpr=tpr,
            names=names,
            weight=weight,
            pos_label=pos_label,
            level=level,
            n_boot=n_boot,
            seed=seed,
            progress=progress,
        )
    points = roc_points(lf, score, label, by=names, weight=weight, pos_label=pos_label)
    return _partial_auc_of_points(points, fpr=fpr, tpr=tpr, names=names)


@same_kind
def partial_auc_of_curve(
    points: pl.LazyFrame,
    *,
    fpr: tuple[float, float] | None = None,
    tpr: tuple[float, float] | None = None,
    by: By = None,
) -> pl.LazyFrame:
    """
    Partial AUC and McClish's standardization of ROC curves given as points.

    The computation behind :func:`partial_auc`, for a frame shaped like
    :func:`polars_roc.curves.curve`'s output (``*by, tp, fp, tpr, fpr`` in curve order), so
    that a curve already at hand (e.g. one being charted) is not recomputed.

    Parameters
    ----------
    points
        ROC points per group, from (0, 0) to (1, 1) in curve order.
    fpr, tpr
        The range, as in :func:`partial_auc`: give exactly one.
    by
        The group columns of `points`.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, pauc, pauc_std, n_pos, n_neg``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.3, 0.2], "label": [1, 0, 1, 0, 0]})
    >>> points = df.lazy().roc.curve()
    >>> pr.areas.partial_auc_of_curve(points, fpr=(0.0, 0.5)).collect()["pauc"].item()
    0.3333333333333333
    """
    return _partial_auc_of_points(points, fpr=fpr, tpr=tpr, names=validate.as_names(by))


def _partial_auc_of_points(
    points: pl.LazyFrame,
    *,
    fpr: tuple[float, float] | None,
    tpr: tuple[float, float] | None,
    names: list[str],
) -> pl.LazyFrame:
    """The kernel of :func:`partial_auc_of_curve` (`points` prepared, `names` private)."""
    if (fpr is None) == (tpr is None):
        msg = "give exactly one range: fpr=(lo, hi) or tpr=(lo, hi)\n\nHint: fpr=(0.0, 0.2)."
        raise ValueError(msg)
    along: Literal["fpr", "tpr"] = "fpr" if fpr is not None else "tpr"
    lo, hi = validate.unit_range(fpr if fpr is not None else tpr, along)
    # The kernels of the expression `pr.partial_auc` too: per group, in curve order.
    x, y = (pl.col("fpr"), pl.col("tpr")) if along == "fpr" else (pl.col("tpr"), 1 - pl.col("fpr"))
    defined = pl.col("tpr").is_not_null().all() & pl.col("fpr").is_not_null().all()
    summary = [
        pl.when(defined).then(partial_area(x, y, lo, hi)).alias("pauc"),
        pl.col("tp").max().alias("n_pos"),
        pl.col("fp").max().alias("n_neg"),
    ]
    table = summarize(points, names, summary)
    standardized = mcclish(pl.col("pauc"), lo, hi, along)
    return table.with_columns(pauc_std=standardized).select(*names, *PARTIAL_AUC)


def _auc_bootstrap(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    names: list[str],
    weight: str | None,
    pos_label: Any,
    level: float,
    n_boot: int,
    seed: int | None,
    progress: bool | None = None,
) -> pl.LazyFrame:
    """``*names, auc, n_pos, n_neg, auc_se, auc_lower, auc_upper`` from the bootstrap."""
    r = rows(score, label, weight=weight, pos_label=pos_label, checked=False)
    n_pos, n_neg = class_totals(r)
    boot = resampling.boot_expr(
        r, names, resampling.auc_statistic, width=1, level=level, n_boot=n_boot, seed=seed,
        progress=progress,
    )  # fmt: skip
    measures = [auc_of(r).alias("auc"), n_pos.alias("n_pos"), n_neg.alias("n_neg"), boot]
    table = summarize(lf, names, measures)
    return table.select(*names, *AUC, *resampling.boot_fields("auc"))


def _partial_auc_bootstrap(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    fpr: tuple[float, float] | None,
    tpr: tuple[float, float] | None,
    names: list[str],
    weight: str | None,
    pos_label: Any,
    level: float,
    n_boot: int,
    seed: int | None,
    progress: bool | None = None,
) -> pl.LazyFrame:
    """``*names, pauc, pauc_std, n_pos, n_neg, pauc_se, pauc_lower, pauc_upper``."""
    points = roc_points(lf, score, label, by=names, weight=weight, pos_label=pos_label)
    point = _partial_auc_of_points(points, fpr=fpr, tpr=tpr, names=names)
    statistic = resampling.partial_auc_statistic(
        fpr=None if fpr is None else validate.unit_range(fpr, "fpr"),
        tpr=None if tpr is None else validate.unit_range(tpr, "tpr"),
    )
    boot = resampling.boot_table(
        lf,
        score,
        label,
        names=names,
        weight=weight,
        pos_label=pos_label,
        statistic=statistic,
        width=1,
        level=level,
        n_boot=n_boot,
        seed=seed,
        progress=progress,
    )
    return resampling.attach(point, boot, names).select(
        *names, *PARTIAL_AUC, *resampling.boot_fields("pauc")
    )


def _clustered(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    names: list[str],
    weight: str | None,
    pos_label: Any,
    ci: str,
    level: float,
    cluster: str,
    boot: tuple[int, int | None],
) -> pl.LazyFrame:
    """``auc(ci=..., cluster=...)``: a clustered DeLong (or logit) or cluster bootstrap interval."""
    roles = {score: "score", label: "label", **dict.fromkeys(names, "by")}
    validate.cluster(lf.collect_schema(), cluster, roles=roles, weight=weight)
    if ci == "bootstrap":
        r = rows(score, label, pos_label=pos_label, checked=False)
        n_pos, n_neg = class_totals(r)
        clustered, ids = resampling.clustered_rows(
            score, label, pos_label=pos_label, cluster=cluster
        )
        n_boot, seed = boot
        interval = resampling.boot_expr(
            clustered,
            names,
            resampling.auc_statistic,
            width=1,
            level=level,
            n_boot=n_boot,
            seed=seed,
            cluster=ids,
        )
        n_clusters = ids.n_unique().cast(pl.UInt32).alias("n_clusters")
        measures = [auc_of(r).alias("auc"), n_pos.alias("n_pos"), n_neg.alias("n_neg")]
        table = summarize(lf, names, [*measures, n_clusters, interval])
        return table.select(*names, *AUC, "n_clusters", *resampling.boot_fields("auc"))
    checked = lf.with_columns(validate.checked_cluster(cluster))
    return delong.clustered_auc_table(
        checked,
        score,
        label,
        names=names,
        cluster=cluster,
        pos_label=pos_label,
        level=level,
        logit=ci == "logit",
    )


def _obuchowski(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    names: list[str],
    weight: str | None,
    pos_label: Any,
    label_dtype: pl.DataType,
    level: float,
) -> pl.LazyFrame:
    """``auc(ci="obuchowski")``: the AUC with Obuchowski's binormal standard error."""
    table = sorted_auc.auc_table(
        lf, score, label, names=names, weight=weight, pos_label=pos_label, label_dtype=label_dtype
    )
    fits = binormal.curve_fits(lf, score, label, names=names, weight=weight, pos_label=pos_label)
    fits = fits.select(*names, "_A", "_B")
    joined = join_groups(table, fits, names)
    positives = pl.col("n_pos").cast(pl.Float64)
    kappa = pl.col("n_neg").cast(pl.Float64) / positives
    variance = binormal.variance(pl.col("_A"), pl.col("_B"), kappa) / positives
    out = joined.with_columns(auc_se=variance.sqrt())
    return out.select(*names, *AUC, "auc_se", *delong.interval_columns("auc", level))
