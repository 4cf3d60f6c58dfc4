"""DeLong placements and variances of the AUC, as lazy Polars queries.

DeLong et al. (1988) write the AUC as the mean of *placements*: a positive's placement
``V10`` is the fraction of negatives scoring below it, a negative's ``V01`` the fraction of
positives scoring above it (ties count one half). The AUC's variance is
``S10 / n_pos + S01 / n_neg`` with ``S10``, ``S01`` the sample variances (ddof = 1) of the
placements. Sun & Xu (2014) compute placements from midranks: the midrank of a positive
among all rows minus its midrank among the positives is the number of negatives below it
(ties one half). Here that is two ``rank()`` windows per group, so the whole computation is
a lazy Polars query with no Python loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from polars_roc._core import kernels
from polars_roc._core.checks import is_nan
from polars_roc._core.distributions import normal_quantile
from polars_roc._core.groups import ordered_sum, per_group, summarize
from polars_roc._core.kernels import Rows, auc_of, class_totals


def placements(coded: pl.LazyFrame, names: list[str], *, weighted: bool) -> pl.LazyFrame:
    """
    Add ``_d``: how much of the *other* class scores below each row, ties counting one half.

    Divided by the other class's size, ``_d`` is a positive's DeLong placement ``V10`` or a
    negative's ``1 - V01`` (same variance, same covariances). Unweighted it is a count: the
    row's midrank among all rows of its group minus its midrank within its class (Sun & Xu).
    Weighted it is the other class's weight below plus half the weight tied, from ordered
    running sums (frequency weights: a row of weight k counts as k rows).
    """
    y = pl.col("_y")
    if not weighted:
        overall = per_group(pl.col("_s").rank("average"), names)
        within = pl.col("_s").rank("average").over([*names, "_y"])
        return coded.with_columns(_d=overall - within)
    # -0.0 and 0.0 are one score: canonical zeros so that tie groups are exact.
    zero = pl.col("_s") == 0
    canonical = coded.with_columns(_s=pl.when(zero).then(pl.col("_s").abs()).otherwise("_s"))
    w = pl.col("_w")
    levels = [*names, "_s"]
    masses = {"_pos": w * y.cast(pl.Float64), "_neg": w * (~y).cast(pl.Float64)}
    # Weight of each class at or below the row's score: a running sum in score order, then
    # the largest over tied scores (weights are non-negative).
    running = canonical.with_columns(
        **{f"{c}_run": per_group(m.cum_sum(), names, order_by="_s") for c, m in masses.items()}
    )
    below = {
        c: pl.col(f"{c}_run").max().over(levels) - m.sum().over(levels) / 2
        for c, m in masses.items()
    }
    placed = running.with_columns(_d=pl.when(y).then(below["_neg"]).otherwise(below["_pos"]))
    return placed.drop("_pos_run", "_neg_run")


def class_sizes(weighted: bool) -> tuple[pl.Expr, pl.Expr]:
    """Float64 class sizes (weight sums when weighted) of one group of placement rows."""
    n_pos, n_neg = class_totals(coded_rows(weighted))
    return n_pos.cast(pl.Float64), n_neg.cast(pl.Float64)


def integer_covariance(x: pl.Expr, y: pl.Expr) -> pl.Expr:
    """
    The sample covariance (ddof = 1) of whole numbers from exact sums: the same bits always.

    ``(m Σxy - Σx Σy) / (m (m - 1))`` with the sums in 128-bit integers (exact while
    ``m Σxy`` stays below 1.7e38: placements of groups up to about 10^9 rows), then one
    rounding to Float64: no cancellation, and no dependence on the order in which a
    group-by, a list evaluation or the streaming engine adds its partial sums. Null below
    2 values, as ``var``. Twice a placement count is a whole number, so DeLong's variances
    and covariances (:func:`placement_variance`, the paired test) are exact here.

    Examples
    --------
    >>> import polars as pl
    >>> frame = pl.DataFrame({"x": [1, 2, 4], "y": [1, 3, 2]})
    >>> frame.select(integer_covariance(pl.col("x"), pl.col("y"))).item()
    0.5
    >>> frame.select(integer_variance(pl.col("x"))).item()  # numpy: 2.3333333333333335
    2.3333333333333335
    >>> frame.head(1).select(integer_variance(pl.col("x"))).item() is None
    True
    """
    wide_x, wide_y = x.cast(pl.Int128), y.cast(pl.Int128)
    m = wide_x.count().cast(pl.Int128)
    numerator = m * (wide_x * wide_y).sum() - wide_x.sum() * wide_y.sum()
    spread = numerator.cast(pl.Float64) / (m * (m - 1)).cast(pl.Float64)
    return pl.when(m >= 2).then(spread)


def integer_variance(x: pl.Expr) -> pl.Expr:
    """The sample variance (ddof = 1) of whole numbers: :func:`integer_covariance` of x, x."""
    return integer_covariance(x, x)


def delong_variance(*, weighted: bool) -> pl.Expr:
    """
    DeLong variance of the AUC of one group of placement rows, as an aggregation.

    ``S10 / n_pos + S01 / n_neg`` with ``S10 = var(_d / n_neg | positive)`` and
    ``S01 = var(_d / n_pos | negative)`` (ddof = 1). With frequency weights the sample
    variances are the weighted ones with ``W - 1`` in the denominator (W the class's weight
    sum), so a row of integer weight k gives exactly the variance of k repeated rows. Null
    when a class has fewer than 2 rows (weight sum below 2).
    """
    n_pos, n_neg = class_sizes(weighted)
    w = pl.col("_w") if weighted else None
    return placement_variance(pl.col("_d"), pl.col("_y"), w, n_pos, n_neg)


def placement_variance(
    d: pl.Expr, y: pl.Expr, w: pl.Expr | None, n_pos: pl.Expr, n_neg: pl.Expr
) -> pl.Expr:
    """
    DeLong variance from the rows' ``_d`` (see :func:`placements`), class flags and weights.

    The one kernel of the frame (:func:`delong_variance`) and of the expression
    ``pr.auc_se``: an aggregation over one group's rows (null rows skipped), Float64 class
    sizes `n_pos`, `n_neg` (weight sums when weighted).
    """
    if w is None:
        # Unweighted, 2 _d is a whole number: its sums are exact in any order, so the
        # variance is the same bits in a group-by, a list evaluation and every run.
        twice = (2 * d).cast(pl.Int64, strict=False)  # a half-integer count: exact
        s10 = integer_variance(twice.filter(y)) / (4 * n_neg * n_neg)
        s01 = integer_variance(twice.filter(~y)) / (4 * n_pos * n_pos)
    else:
        # Placements as shares of the other class (V10, 1 - V01): products of weight sums
        # would overflow past about 1e154 and underflow below about 1e-154.
        d = d / pl.when(y).then(n_neg).otherwise(n_pos)

        def weighted_var(mask: pl.Expr) -> pl.Expr:
            x, wx = d.filter(mask), w.filter(mask)
            mean = (wx * x).sum() / wx.sum()
            return (wx * (x - mean) ** 2).sum() / (wx.sum() - 1)

        s10, s01 = weighted_var(y), weighted_var(~y)
    defined = (n_pos >= 2) & (n_neg >= 2)
    return pl.when(defined).then(s10 / n_pos + s01 / n_neg)


def coded_rows(weighted: bool) -> Rows:
    """The coded columns as prepared rows (nulls already dropped)."""
    return Rows(pl.col("_s"), pl.col("_y"), pl.col("_w") if weighted else None)


def placement_auc() -> pl.Expr:
    """
    The unweighted AUC from the placements: the same number as :func:`polars_roc.exprs.auc`.

    ``Σ _d`` over the positives is the Mann-Whitney U that ``exprs.auc`` computes from the
    same midranks (``Σ rank - n_pos (n_pos + 1) / 2``); both are sums of half-integers, exact
    in Float64, so ``U / (n_pos · n_neg)`` is bit-for-bit the same. Reusing the window's
    ranks saves a second ranking of every group.
    """
    y = pl.col("_y")
    n_pos, n_neg = class_sizes(weighted=False)
    u = pl.col("_d").filter(y).sum()
    defined = (n_pos > 0) & (n_neg > 0) & ~is_nan(pl.col("_s")).any()
    return pl.when(defined).then(u / (n_pos * n_neg))


def delong_table(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    names: list[str],
    weight: str | None,
    pos_label: Any,
    extra: Sequence[str] = (),
) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """Placement rows and the per-group ``*names, auc, n_pos, n_neg, _var`` table."""
    weighted = weight is not None
    coded = kernels.coded(
        lf, score, label, names=names, weight=weight, pos_label=pos_label, extra=extra, masked=True
    )
    placed = placements(coded, names, weighted=weighted)
    n_pos, n_neg = class_totals(coded_rows(weighted))
    auc = auc_of(coded_rows(weighted)) if weighted else placement_auc()
    measures = [
        auc.alias("auc"),
        n_pos.alias("n_pos"),
        n_neg.alias("n_neg"),
        pl.when(auc.is_not_null()).then(delong_variance(weighted=weighted)).alias("_var"),
    ]
    return placed, summarize(placed, names, measures)


def interval_columns(estimate: str, level: float) -> list[pl.Expr]:
    """``{estimate}_lower, _upper``: ``estimate ± z · {estimate}_se`` clipped to [0, 1]."""
    z = normal_quantile((1 + level) / 2)
    se = pl.col(f"{estimate}_se")
    return [
        (pl.col(estimate) - z * se).clip(0.0, 1.0).alias(f"{estimate}_lower"),
        (pl.col(estimate) + z * se).clip(0.0, 1.0).alias(f"{estimate}_upper"),
    ]


def logit_interval_columns(estimate: str, level: float) -> list[pl.Expr]:
    """
    ``{estimate}_lower, _upper`` on the logit scale, back-transformed into (0, 1).

    ``logit(A) ± z · se / (A (1 - A))`` (the delta method), mapped back by the logistic
    function: the bounds stay inside (0, 1) without clipping and are asymmetric near the
    ends. An estimate of exactly 0 or 1 has a DeLong standard error of 0: its interval is
    the point itself.
    """
    z = normal_quantile((1 + level) / 2)
    a, se = pl.col(estimate), pl.col(f"{estimate}_se")
    inside = (a > 0) & (a < 1)
    logit = (a / (1 - a)).log()
    half = z * se / (a * (1 - a))

    def bound(sign: float) -> pl.Expr:
        value = 1 / (1 + (-(logit + sign * half)).exp())
        return pl.when(inside).then(value).otherwise(pl.when(se.is_not_null()).then(a))

    return [bound(-1.0).alias(f"{estimate}_lower"), bound(1.0).alias(f"{estimate}_upper")]


def auc_table(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    names: list[str],
    weight: str | None,
    pos_label: Any,
    level: float,
) -> pl.LazyFrame:
    """
    ``*names, auc, n_pos, n_neg, auc_se, auc_lower, auc_upper`` with DeLong intervals.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"score": [0.9, 0.8, 0.3, 0.6, 0.2, 0.1], "label": [1, 1, 1, 0, 0, 0]})
    >>> out = auc_table(
    ...     df.lazy(), "score", "label", names=[], weight=None, pos_label=None, level=0.95
    ... ).collect()
    >>> round(out["auc_se"].item(), 6)
    0.157135
    """
    _, table = delong_table(lf, score, label, names=names, weight=weight, pos_label=pos_label)
    return table.with_columns(auc_se=pl.col("_var").sqrt()).select(
        *names, "auc", "n_pos", "n_neg", "auc_se", *interval_columns("auc", level)
    )


def obuchowski(a: pl.Expr, b: pl.Expr, m: pl.Expr, n: pl.Expr) -> pl.Expr:
    """
    Obuchowski's (1997) variance as an aggregation over a group's clusters.

    `a` is a cluster's ``V10_i - m_i θ`` (its positives' placements summed, minus their
    number times the AUC), `b` its ``V01_i - n_i θ``; `m`, `n` the (Float64) numbers of
    positives and negatives of the group, the same on every row. With ``I`` clusters
    (``I10`` holding a positive, ``I01`` a negative): ``S10 = I10 / ((I10 - 1) M) Σ a²``,
    ``S01 = I01 / ((I01 - 1) N) Σ b²``, ``S11 = I / (I - 1) Σ a b`` and
    ``var = S10 / M + S01 / N + 2 S11 / (M N)``; null below 2 clusters of either class.
    The variance of a difference of two paired AUCs is the same formula over the per-cluster
    differences of `a` and `b` (it is bilinear): ``V_1 + V_2 - 2 C`` with Obuchowski's
    covariance terms. Sums are taken in row order (the same bits every run): give the
    clusters a fixed order first.
    """
    i_all = pl.len().cast(pl.Float64)
    i10 = (pl.col("_m") > 0).sum().cast(pl.Float64)
    i01 = (pl.col("_n") > 0).sum().cast(pl.Float64)
    big_m, big_n = m.first(), n.first()
    s10 = i10 / ((i10 - 1) * big_m) * ordered_sum(a**2)
    s01 = i01 / ((i01 - 1) * big_n) * ordered_sum(b**2)
    s11 = i_all / (i_all - 1) * ordered_sum(a * b)
    variance = s10 / big_m + s01 / big_n + 2 * s11 / (big_m * big_n)
    return pl.when((i10 >= 2) & (i01 >= 2)).then(variance)


def clustered_variance() -> tuple[pl.Expr, ...]:
    """
    ``_var, n_clusters``: :func:`obuchowski` over a per-cluster table of one AUC.

    The table holds ``_m, _n, _v10, _v01`` per cluster and ``auc, n_pos, n_neg`` per
    group. One row per cluster gives DeLong's variance.
    """
    theta = pl.col("auc")
    m, n = pl.col("n_pos").cast(pl.Float64), pl.col("n_neg").cast(pl.Float64)
    a = pl.col("_v10") - pl.col("_m") * theta
    b = pl.col("_v01") - pl.col("_n") * theta
    defined = theta.first().is_not_null()
    return (
        pl.when(defined).then(obuchowski(a, b, m, n)).alias("_var"),
        pl.len().cast(pl.Float64).alias("n_clusters"),
    )


def cluster_sums(placed: pl.LazyFrame, keys: list[str], cluster: str) -> pl.LazyFrame:
    """
    ``*keys, cluster, _m, _n, _v10, _v01``: each cluster's classes and placement sums.

    `placed` holds placement rows (:func:`placements`) with ``n_pos, n_neg`` joined on.
    """
    y = pl.col("_y")
    m, n = pl.col("n_pos").cast(pl.Float64), pl.col("n_neg").cast(pl.Float64)
    counted = placed.filter(y.is_not_null() & pl.col("_s").is_not_null())
    return counted.group_by(*keys, cluster).agg(
        _m=y.sum().cast(pl.Float64),
        _n=(~y).sum().cast(pl.Float64),
        _v10=(pl.col("_d") / n).filter(y).sum(),
        _v01=(1 - pl.col("_d") / m).filter(~y).sum(),
    )


def cluster_variances(
    placed: pl.LazyFrame, table: pl.LazyFrame, keys: list[str], cluster: str
) -> pl.LazyFrame:
    """``*keys, _var, n_clusters``: the clustered variance of each group's AUC."""
    sizes = table.select(*keys, "n_pos", "n_neg")
    sums = cluster_sums(placed.join(sizes, on=keys, nulls_equal=True), keys, cluster)
    per_cluster = sums.join(table.select(*keys, "auc", "n_pos", "n_neg"), on=keys, nulls_equal=True)
    ordered = per_cluster.sort([*keys, cluster], nulls_last=True)  # sums in a fixed order
    return ordered.group_by(keys, maintain_order=True).agg(*clustered_variance())


def clustered_auc_table(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    names: list[str],
    cluster: str,
    pos_label: Any,
    level: float,
    logit: bool = False,
) -> pl.LazyFrame:
    """
    ``*names, auc, n_pos, n_neg, n_clusters, auc_se, auc_lower, auc_upper``, clustered.

    Rows of one cluster (a customer, a patient) are not independent: the variance comes
    from the placements summed per cluster (:func:`obuchowski`). Rows with a null
    cluster are an error (a missing cluster id would silently make a cluster of its own).

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame(
    ...     {"score": [0.9, 0.8, 0.3, 0.6, 0.2, 0.1], "label": [1, 1, 1, 0, 0, 0],
    ...      "id": [1, 2, 3, 4, 5, 6]}
    ... )
    >>> out = clustered_auc_table(
    ...     df.lazy(), "score", "label", names=[], cluster="id", pos_label=None, level=0.95
    ... ).collect()
    >>> round(out["auc_se"].item(), 6)  # one row per cluster: DeLong's 0.157135
    0.157135
    """
    placed, table = delong_table(
        lf, score, label, names=names, weight=None, pos_label=pos_label, extra=[cluster]
    )
    keys = names or ["_one"]
    if not names:
        placed = placed.with_columns(_one=pl.lit(True))
        table = table.with_columns(_one=pl.lit(True))
    variances = cluster_variances(placed, table, keys, cluster)
    out = table.drop("_var").join(variances, on=keys, how="left", nulls_equal=True)
    columns = logit_interval_columns("auc", level) if logit else interval_columns("auc", level)
    out = out.with_columns(auc_se=pl.col("_var").sqrt()).with_columns(columns)
    return out.sort(keys, nulls_last=True).select(
        *names,
        "auc",
        "n_pos",
        "n_neg",
        pl.col("n_clusters").fill_null(0).cast(pl.UInt32),
        "auc_se",
        "auc_lower",
        "auc_upper",
    )
