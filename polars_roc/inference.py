"""
Inference on ROC areas: DeLong and bootstrap intervals, and tests comparing two models.

DeLong et al. (1988) write the AUC as the mean of *placements*: a positive's placement
``V10`` is the fraction of negatives scoring below it, a negative's ``V01`` the fraction of
positives scoring above it (ties count one half). The AUC's variance is
``S10 / n_pos + S01 / n_neg`` with ``S10``, ``S01`` the sample variances (ddof = 1) of the
placements. Sun & Xu (2014) compute placements from midranks: the midrank of a positive
among all rows minus its midrank among the positives is the number of negatives below it
(ties one half). Here that is two ``rank()`` windows per group, so the whole computation is
a lazy Polars query with no Python loop.

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

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import polars as pl

from polars_roc import _labels, _validate, areas, resampling, thresholds
from polars_roc._validate import By
from polars_roc.curves import per_group
from polars_roc.exprs import Rows, _auc_of, class_totals, rows

FloatArray = npt.NDArray[np.float64]
Alternative = Literal["two-sided", "greater", "less"]
_ALTERNATIVES = ("two-sided", "greater", "less")

# ---------------------------------------------------------------------------------------
# Distributions (no scipy at run time)
# ---------------------------------------------------------------------------------------

_lgamma = np.vectorize(math.lgamma, otypes=[np.float64])
_erfc = np.vectorize(math.erfc, otypes=[np.float64])


def normal_cdf(x: npt.ArrayLike) -> FloatArray:
    """
    Standard normal distribution function, accurate in both tails (via ``math.erfc``).

    Examples
    --------
    >>> from polars_roc.inference import normal_cdf
    >>> [round(float(v), 6) for v in normal_cdf([-1.959964, 0.0, 1.0])]
    [0.025, 0.5, 0.841345]
    """
    values = np.asarray(x, dtype=np.float64)
    return np.asarray(0.5 * _erfc(-values / math.sqrt(2.0)), dtype=np.float64)


def normal_quantile(p: float) -> float:
    """
    Standard normal quantile (Wichura's AS241 via :class:`statistics.NormalDist`).

    Examples
    --------
    >>> from polars_roc.inference import normal_quantile
    >>> round(normal_quantile(0.975), 6)
    1.959964
    """
    return NormalDist().inv_cdf(p)


def _betacf(a: FloatArray, b: FloatArray, x: FloatArray) -> FloatArray:
    """
    Continued fraction of the incomplete beta function (modified Lentz), vectorized.

    Each iteration works only on the entries that have not converged yet, so one slowly
    converging entry does not make every other entry iterate with it.
    """
    tiny = 1e-300

    def guard(v: FloatArray) -> FloatArray:
        return np.where(np.abs(v) < tiny, tiny, v)

    shape = x.shape
    a, b, x = (np.broadcast_to(v, shape).ravel() for v in (a, b, x))
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = np.ones_like(x)
    d = 1.0 / guard(1.0 - qab * x / qap)
    h = d.copy()
    live = np.arange(x.size)  # the entries still iterating
    for m in range(1, 100_000):
        if live.size == 0:
            break
        m2 = 2.0 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 / guard(1.0 + aa * d)
        c = guard(1.0 + aa / c)
        step = d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 / guard(1.0 + aa * d)
        c = guard(1.0 + aa / c)
        delta = d * c
        h[live] = h[live] * step * delta
        going = np.abs(delta - 1.0) >= 1e-15  # NaN stops too: h is NaN for good
        live = live[going]
        a, b, x, c, d = a[going], b[going], x[going], c[going], d[going]
        qab, qap, qam = qab[going], qap[going], qam[going]
    return h.reshape(shape)


def _stirling_delta(x: FloatArray) -> FloatArray:
    """``lgamma(x) - ((x - 1/2) log x - x + log(2 pi) / 2)`` for x >= 20 (Stirling's series)."""
    x2 = x * x
    return np.asarray((1 / 12 - (1 / 360 - (1 / 1260 - 1 / (1680 * x2)) / x2) / x2) / x)


def _lgamma_step(x: FloatArray, s: FloatArray) -> FloatArray:
    """``lgamma(x + s) - lgamma(x)`` without the cancellation of two large lgammas."""
    big = x >= 20  # the series' next term is below 2e-15 there
    xb = np.where(big, x, 20.0)
    stirling = (
        (xb - 0.5) * np.log1p(s / xb)
        + s * np.log(xb + s)
        - s
        + _stirling_delta(xb + s)
        - _stirling_delta(xb)
    )
    direct = _lgamma(np.where(big, 1.0, x + s)) - _lgamma(np.where(big, 1.0, x))
    return np.asarray(np.where(big, stirling, direct), dtype=np.float64)


def _lbeta(a: FloatArray, b: FloatArray) -> FloatArray:
    """``log B(a, b)``, accurate when one argument is large."""
    small, large = np.minimum(a, b), np.maximum(a, b)
    return np.asarray(_lgamma(small) - _lgamma_step(large, small), dtype=np.float64)


def _betainc(
    a: FloatArray,
    b: FloatArray,
    x: FloatArray,
    y: FloatArray,
    log_x: FloatArray,
    log_y: FloatArray,
    log_beta: FloatArray,
) -> FloatArray:
    """
    Regularized incomplete beta ``I_x(a, b)`` from ``x``, ``y = 1 - x`` and their logs.

    `log_beta` is ``log B(a, b)`` (symmetric in a and b), computed once by the caller.

    The continued fraction converges fast for ``x < (a + 1) / (a + b + 2)``; above that the
    symmetry ``I_x(a, b) = 1 - I_y(b, a)`` is used. Passing ``y`` and the logs exactly keeps
    full relative accuracy near 0 and 1.
    """
    flip = x > (a + 1.0) / (a + b + 2.0)
    a1, b1 = np.where(flip, b, a), np.where(flip, a, b)
    x1 = np.where(flip, y, x)
    lx, ly = np.where(flip, log_y, log_x), np.where(flip, log_x, log_y)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        front = np.exp(a1 * lx + b1 * ly - log_beta) / a1
        value = front * _betacf(a1, b1, x1)
    value = np.where(np.isneginf(lx), 0.0, np.where(np.isneginf(ly), 1.0, value))
    return np.asarray(np.where(flip, 1.0 - value, value), dtype=np.float64)


def _log1p_square(t: FloatArray, df: FloatArray) -> FloatArray:
    """``log(1 + t² / df)`` without overflow for huge t."""
    with np.errstate(divide="ignore", over="ignore"):
        log_r = 2.0 * np.log(np.abs(t)) - np.log(df)
        r = np.exp(log_r)
        return np.asarray(np.where(r > 1.0, log_r + np.log1p(1.0 / r), np.log1p(r)))


def _t_log_beta(df: FloatArray) -> FloatArray:
    """``log B(df / 2, 1 / 2)``: the normalizing constant of Student's t."""
    return _lbeta(df / 2.0, np.full_like(df, 0.5))


def _t_tail(t: FloatArray, df: FloatArray, log_beta: FloatArray | None = None) -> FloatArray:
    """
    ``P(T > |t|)`` for Student's t: ``I_x(df / 2, 1 / 2) / 2`` with ``x = df / (df + t²)``.

    `log_beta` is :func:`_t_log_beta` of `df`, when the caller has it already.
    """
    if log_beta is None:
        log_beta = _t_log_beta(df)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        log_r = 2.0 * np.log(np.abs(t)) - np.log(df)  # log(t² / df), finite for huge t
        r = np.exp(log_r)
        x = 1.0 / (1.0 + r)
        y = np.where(np.isinf(r), 1.0, r / (1.0 + r))
        log_x = -_log1p_square(t, df)
        log_y = np.where(r == 0, -np.inf, -np.log1p(1.0 / r))
    return 0.5 * _betainc(df / 2.0, np.full_like(df, 0.5), x, y, log_x, log_y, log_beta)


def student_t_cdf(t: npt.ArrayLike, df: npt.ArrayLike) -> FloatArray:
    """
    Distribution function of Student's t with `df` (real, > 0) degrees of freedom.

    Through the regularized incomplete beta function,
    ``P(T > |t|) = I_{df / (df + t²)}(df / 2, 1 / 2) / 2``, evaluated by its continued
    fraction with accurate log-gamma differences. Relative accuracy in either tail: about
    1e-12 up to a thousand degrees of freedom, 1e-9 up to 1e7; above that a corrected
    normal approximation (as R's ``pt``) with absolute error below 1e-13. NaN gives NaN.

    Examples
    --------
    >>> from polars_roc.inference import student_t_cdf
    >>> [round(float(v), 6) for v in student_t_cdf([-2.0, 0.0, 2.5], [3, 7.5, 40])]
    [0.069663, 0.5, 0.99169]
    """
    t_arr, df_arr = np.broadcast_arrays(
        np.asarray(t, dtype=np.float64), np.asarray(df, dtype=np.float64)
    )
    t_arr, df_arr = t_arr.astype(np.float64), df_arr.astype(np.float64)
    out = np.full(t_arr.shape, np.nan)
    ok = (df_arr > 0) & ~np.isnan(t_arr) & ~np.isnan(df_arr)
    big = ok & (df_arr > 1e7)
    # Corrected normal approximation for huge df (as R's pt): error O(1 / df²).
    tb, nb = t_arr[big], df_arr[big]
    scale = np.sqrt(2 * nb)
    with np.errstate(over="ignore", invalid="ignore"):
        corrected = np.where(
            np.abs(tb) > 1e100,
            np.sign(tb) * scale,
            tb / np.sqrt(1 + (tb / scale) ** 2),
        ) * (1 - 1 / (4 * nb))
    out[big] = normal_cdf(corrected)
    use = ok & ~big
    tt, nu = t_arr[use], df_arr[use]
    tail = _t_tail(tt, nu)
    out[use] = np.where(tt > 0, 1.0 - tail, tail)
    return out


def _student_t_log_pdf(t: FloatArray, df: FloatArray, log_beta: FloatArray) -> FloatArray:
    return np.asarray(
        -log_beta - 0.5 * np.log(df) - (df + 1.0) / 2.0 * _log1p_square(t, df),
        dtype=np.float64,
    )


def student_t_quantile(p: npt.ArrayLike, df: npt.ArrayLike) -> FloatArray:
    """
    Quantile function of Student's t with `df` (real, > 0) degrees of freedom.

    Newton's method on the log of the upper tail as a function of ``log t`` (nearly linear
    in both light and heavy tails), from a Cornish-Fisher start, safeguarded by bisection.

    Examples
    --------
    >>> from polars_roc.inference import student_t_quantile
    >>> [round(float(v), 4) for v in student_t_quantile(0.975, [1, 4, 30])]
    [12.7062, 2.7764, 2.0423]
    """
    p_arr, df_arr = np.broadcast_arrays(
        np.asarray(p, dtype=np.float64), np.asarray(df, dtype=np.float64)
    )
    p_arr, df_arr = p_arr.astype(np.float64), df_arr.astype(np.float64)
    out = np.full(p_arr.shape, np.nan)
    ok = (df_arr > 0) & (p_arr > 0) & (p_arr < 1) & ~np.isnan(df_arr)
    out[ok & (p_arr == 0.5)] = 0.0
    solve = ok & (p_arr != 0.5)
    pp, nu = p_arr[solve], df_arr[solve]
    q = np.where(pp < 0.5, pp, 1.0 - pp)  # the upper tail probability to reach
    levels, which = np.unique(q, return_inverse=True)  # usually one probability for all
    z = -np.array([normal_quantile(float(v)) for v in levels], dtype=np.float64)[which]
    start = (
        z
        + (z**3 + z) / (4 * nu)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * nu**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * nu**3)
    )
    u = np.log(np.maximum(start, z))  # t's quantiles lie beyond the normal's
    huge = nu > 1e7  # invert the corrected normal approximation of student_t_cdf
    k = 1 - 1 / (4 * nu)
    with np.errstate(invalid="ignore"):
        u = np.where(huge, np.log(z / np.sqrt(k * k - z * z / (2 * nu))), u)
    lo, hi = np.full_like(u, -np.inf), np.full_like(u, np.inf)
    target = np.log(q)
    log_beta = _t_log_beta(nu)  # the same at every step: log-gammas are slow
    solved = u.copy()
    live = np.arange(u.size)  # entries still iterating; a converged one drops out
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        for _ in range(100):
            if live.size == 0:
                break
            t = np.exp(u)
            tail = _t_tail(t, nu, log_beta)
            gap = np.where(huge, 0.0, np.log(tail) - target)  # decreasing in u
            lo = np.where(gap > 0, np.maximum(lo, u), lo)
            hi = np.where(gap < 0, np.minimum(hi, u), hi)
            slope = -np.exp(_student_t_log_pdf(t, nu, log_beta) + u - np.log(tail))
            candidate = u - gap / slope
            inside = (candidate > lo) & (candidate < hi) & np.isfinite(candidate)
            # Bisect in log t; with one side still open, step out geometrically.
            middle = np.where(
                np.isinf(lo),
                hi - np.maximum(1.0, np.abs(hi)),
                np.where(np.isinf(hi), lo + np.maximum(1.0, np.abs(lo)), (lo + hi) / 2),
            )
            new = np.where(inside, candidate, middle)
            going = ~((np.abs(new - u) <= 1e-15 * np.maximum(1.0, np.abs(u))) | (gap == 0))
            solved[live] = new
            live, u, lo, hi = live[going], new[going], lo[going], hi[going]
            nu, target, huge, log_beta = nu[going], target[going], huge[going], log_beta[going]
    u = solved
    with np.errstate(over="ignore"):
        t = np.exp(u)
    out[solve] = np.where(pp < 0.5, -t, t)
    return out


# ---------------------------------------------------------------------------------------
# DeLong placements and variances
# ---------------------------------------------------------------------------------------


def _coded(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    names: list[str],
    weight: str | None,
    pos_label: Any,
    extra: Sequence[str] = (),
) -> pl.LazyFrame:
    """
    The rows coded: ``*names, *extra, _s, _y`` (+ ``_w``).

    Rows that do not count (null score or label, zero weight) are masked to null rather than
    filtered out, so a group whose rows all drop out still yields its row of nulls, as
    :func:`polars_roc.areas.auc` does. Ranks, sums and windows skip the nulls.
    """
    s = _labels.score(score, checked=False)
    y = _labels.positive(label, pos_label)
    w = None if weight is None else _labels.weight(weight)
    columns = {"_s": s, "_y": y, **({} if w is None else {"_w": w})}
    coded = lf.select(*names, *extra, **columns)
    keep = _labels.kept(pl.col("_s"), pl.col("_y"), None if w is None else pl.col("_w"))
    return coded.with_columns(pl.when(keep).then(pl.col(c)).name.keep() for c in columns)


def _placements(coded: pl.LazyFrame, names: list[str], *, weighted: bool) -> pl.LazyFrame:
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
    canonical = coded.with_columns(_s=pl.when(pl.col("_s") == 0).then(0.0).otherwise("_s"))
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


def _class_sizes(weighted: bool) -> tuple[pl.Expr, pl.Expr]:
    """Float64 class sizes (weight sums when weighted) of one group of placement rows."""
    n_pos, n_neg = class_totals(_coded_rows(weighted))
    return n_pos.cast(pl.Float64), n_neg.cast(pl.Float64)


def _delong_variance(*, weighted: bool) -> pl.Expr:
    """
    DeLong variance of the AUC of one group of placement rows, as an aggregation.

    ``S10 / n_pos + S01 / n_neg`` with ``S10 = var(_d | positive) / n_neg²`` and
    ``S01 = var(_d | negative) / n_pos²`` (ddof = 1). With frequency weights the sample
    variances are the weighted ones with ``W - 1`` in the denominator (W the class's weight
    sum), so a row of integer weight k gives exactly the variance of k repeated rows. Null
    when a class has fewer than 2 rows (weight sum below 2).
    """
    y, d = pl.col("_y"), pl.col("_d")
    n_pos, n_neg = _class_sizes(weighted)
    if not weighted:
        s10, s01 = d.filter(y).var(ddof=1), d.filter(~y).var(ddof=1)
    else:
        w = pl.col("_w")

        def weighted_var(mask: pl.Expr) -> pl.Expr:
            x, wx = d.filter(mask), w.filter(mask)
            mean = (wx * x).sum() / wx.sum()
            return (wx * (x - mean) ** 2).sum() / (wx.sum() - 1)

        s10, s01 = weighted_var(y), weighted_var(~y)
    defined = (n_pos >= 2) & (n_neg >= 2)
    return pl.when(defined).then(s10 / (n_pos * n_neg**2) + s01 / (n_neg * n_pos**2))


def _coded_rows(weighted: bool) -> Rows:
    """The coded columns as prepared rows (nulls already dropped)."""
    return Rows(pl.col("_s"), pl.col("_y"), pl.col("_w") if weighted else None)


def _placement_auc() -> pl.Expr:
    """
    The unweighted AUC from the placements: the same number as :func:`exprs.auc`.

    ``Σ _d`` over the positives is the Mann-Whitney U that ``exprs.auc`` computes from the
    same midranks (``Σ rank - n_pos (n_pos + 1) / 2``); both are sums of half-integers, exact
    in Float64, so ``U / (n_pos · n_neg)`` is bit-for-bit the same. Reusing the window's
    ranks saves a second ranking of every group.
    """
    y = pl.col("_y")
    n_pos, n_neg = _class_sizes(weighted=False)
    u = pl.col("_d").filter(y).sum()
    defined = (n_pos > 0) & (n_neg > 0) & ~pl.col("_s").is_nan().any()
    return pl.when(defined).then(u / (n_pos * n_neg))


def _delong_table(
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
    coded = _coded(lf, score, label, names=names, weight=weight, pos_label=pos_label, extra=extra)
    placed = _placements(coded, names, weighted=weighted)
    n_pos, n_neg = class_totals(_coded_rows(weighted))
    auc = _auc_of(_coded_rows(weighted)) if weighted else _placement_auc()
    measures = [
        auc.alias("auc"),
        n_pos.alias("n_pos"),
        n_neg.alias("n_neg"),
        pl.when(auc.is_not_null()).then(_delong_variance(weighted=weighted)).alias("_var"),
    ]
    return placed, _per_group(placed, names, measures)


def _per_group(lf: pl.LazyFrame, names: list[str], measures: Sequence[pl.Expr]) -> pl.LazyFrame:
    """Aggregate per group, sorted by the keys (nulls last); one row when `names` is empty."""
    if not names:
        return lf.select(measures)
    return lf.group_by(names).agg(measures).sort(names, nulls_last=True)


def _interval_columns(estimate: str, level: float) -> list[pl.Expr]:
    z = normal_quantile((1 + level) / 2)
    se = pl.col(f"{estimate}_se")
    return [
        (pl.col(estimate) - z * se).clip(0.0, 1.0).alias(f"{estimate}_lower"),
        (pl.col(estimate) + z * se).clip(0.0, 1.0).alias(f"{estimate}_upper"),
    ]


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

    Returns
    -------
    pl.LazyFrame
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
    names = _validate.as_names(by)
    _validate.roles(
        lf.collect_schema(), score=score, label=label, by=names, weight=weight, pos_label=pos_label
    )
    _validate.ci(ci, ("delong", "bootstrap"))
    _validate.level(level)
    if ci == "delong":
        _, table = _delong_table(lf, score, label, names=names, weight=weight, pos_label=pos_label)
        return table.with_columns(auc_se=pl.col("_var").sqrt()).select(
            *names, "auc", "n_pos", "n_neg", "auc_se", *_interval_columns("auc", level)
        )
    r = rows(score, label, weight=weight, pos_label=pos_label, checked=False)
    n_pos, n_neg = class_totals(r)
    boot = _boot_expr(
        r, names, resampling.auc_statistic, width=1, level=level, n_boot=n_boot, seed=seed
    )
    measures = [_auc_of(r).alias("auc"), n_pos.alias("n_pos"), n_neg.alias("n_neg"), boot]
    table = _per_group(lf, names, measures)
    return table.select(*names, "auc", "n_pos", "n_neg", *_boot_fields("auc"))


def _boot_expr(
    r: Rows,
    names: list[str],
    statistic: resampling.Statistic,
    *,
    width: int,
    level: float,
    n_boot: int,
    seed: int | None,
) -> pl.Expr:
    """The checked bootstrap aggregation ``_boot`` (a struct of lists), seeded per group."""
    resampling.check_n_boot(n_boot)
    resampling.check_seed(seed)
    _validate.level(level)
    return resampling.bootstrap(
        r,
        [pl.col(name).first() for name in names],
        statistic,
        width=width,
        level=level,
        n_boot=n_boot,
        seed=seed,
    ).alias("_boot")


def _boot_fields(estimate: str) -> list[pl.Expr]:
    """``{estimate}_se, _lower, _upper`` of a one-value bootstrap; null where the estimate is."""
    defined = pl.col(estimate).is_not_null()
    return [
        pl.when(defined).then(pl.col("_boot").struct.field(f).list.first()).alias(f"{estimate}_{f}")
        for f in ("se", "lower", "upper")
    ]


def _boot_table(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    names: list[str],
    weight: str | None,
    pos_label: Any,
    statistic: resampling.Statistic,
    width: int,
    level: float,
    n_boot: int,
    seed: int | None,
) -> pl.LazyFrame:
    """``*names, _boot``: the bootstrap summary struct per group (unsorted)."""
    r = rows(score, label, weight=weight, pos_label=pos_label, checked=False)
    boot = _boot_expr(r, names, statistic, width=width, level=level, n_boot=n_boot, seed=seed)
    return lf.group_by(names).agg(boot) if names else lf.select(boot)


def _attach(point: pl.LazyFrame, boot: pl.LazyFrame, names: list[str]) -> pl.LazyFrame:
    """Left-join the bootstrap summaries onto a sorted point table, keeping its order."""
    if not names:
        return point.join(boot, how="cross")
    return point.join(boot, on=names, how="left", nulls_equal=True, maintain_order="left")


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

    Returns
    -------
    pl.LazyFrame
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
    names = _validate.as_names(by)
    _validate.ci(ci, ("bootstrap",))
    point = areas.partial_auc(
        lf, score, label, fpr=fpr, tpr=tpr, by=names, weight=weight, pos_label=pos_label
    )
    statistic = resampling.partial_auc_statistic(
        fpr=None if fpr is None else _validate.unit_range(fpr, "fpr"),
        tpr=None if tpr is None else _validate.unit_range(tpr, "tpr"),
    )
    boot = _boot_table(
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
    )
    return _attach(point, boot, names).select(
        *names, "pauc", "pauc_std", "n_pos", "n_neg", *_boot_fields("pauc")
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
) -> pl.LazyFrame:
    names = _validate.as_names(by)
    wanted = _validate.rates(targets, along)
    reading = "tpr" if along == "fpr" else "fpr"
    if along == "fpr":
        point = thresholds.tpr_at_fpr(
            lf, wanted, score, label, by=names, weight=weight, pos_label=pos_label
        )
        statistic = resampling.tpr_at_fpr_statistic(wanted)
    else:
        point = thresholds.fpr_at_tpr(
            lf, wanted, score, label, by=names, weight=weight, pos_label=pos_label
        )
        statistic = resampling.fpr_at_tpr_statistic(wanted)
    boot = _boot_table(
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
        "fpr",
        "tpr",
        "threshold",
        *(pl.when(defined).then(pl.col(f"{reading}_{f}")).alias(f"{reading}_{f}") for f in fields),
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

    Returns
    -------
    pl.LazyFrame
        ``*by, fpr, tpr, threshold, tpr_se, tpr_lower, tpr_upper``.

    Examples
    --------
    >>> import polars as pl
    >>> from polars_roc.inference import tpr_at_fpr_interval
    >>> df = pl.DataFrame(
    ...     {"score": [0.1, 0.4, 0.35, 0.8, 0.7, 0.2, 0.9, 0.3], "label": [0, 0, 1, 1, 1, 0, 1, 0]}
    ... )
    >>> out = tpr_at_fpr_interval(df.lazy(), [0.1, 0.5], n_boot=200).collect()
    >>> out.columns
    ['fpr', 'tpr', 'threshold', 'tpr_se', 'tpr_lower', 'tpr_upper']
    >>> out["tpr"].to_list()
    [0.75, 1.0]
    """
    return _operating_interval(
        lf,
        fpr,
        "fpr",
        score,
        label,
        by=by,
        weight=weight,
        pos_label=pos_label,
        level=level,
        n_boot=n_boot,
        seed=seed,
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

    Returns
    -------
    pl.LazyFrame
        ``*by, fpr, tpr, threshold, fpr_se, fpr_lower, fpr_upper``.

    Examples
    --------
    >>> import polars as pl
    >>> from polars_roc.inference import fpr_at_tpr_interval
    >>> df = pl.DataFrame(
    ...     {"score": [0.1, 0.4, 0.35, 0.8, 0.7, 0.2, 0.9, 0.3], "label": [0, 0, 1, 1, 1, 0, 1, 0]}
    ... )
    >>> out = fpr_at_tpr_interval(df.lazy(), 0.75, n_boot=200).collect()
    >>> out.columns
    ['fpr', 'tpr', 'threshold', 'fpr_se', 'fpr_lower', 'fpr_upper']
    >>> out["fpr"].to_list()
    [0.0]
    """
    return _operating_interval(
        lf,
        tpr,
        "tpr",
        score,
        label,
        by=by,
        weight=weight,
        pos_label=pos_label,
        level=level,
        n_boot=n_boot,
        seed=seed,
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


def _test_columns(alternative: Alternative, level: float) -> pl.Expr:
    """p-value and interval of the difference from statistic, sd and df (numpy, vectorized)."""
    two_sided = alternative == "two-sided"
    p_quantile = (1 + level) / 2 if two_sided else level

    def compute(s: pl.Series) -> pl.Series:
        diff = s.struct.field("diff").to_numpy().astype(np.float64)
        sd = s.struct.field("_sd").to_numpy().astype(np.float64)
        stat = s.struct.field("statistic").to_numpy().astype(np.float64)
        dof = s.struct.field("df").to_numpy().astype(np.float64)
        paired = s.struct.field("paired").to_numpy().astype(bool)
        t_dist = ~paired & np.isfinite(dof) & (dof > 0)
        lower_tail = np.where(t_dist, student_t_cdf(stat, dof), normal_cdf(stat))
        upper_tail = np.where(
            t_dist, student_t_cdf(-stat, dof), normal_cdf(-stat)
        )  # symmetric distributions
        if two_sided:
            p = np.minimum(1.0, 2 * np.minimum(lower_tail, upper_tail))
        elif alternative == "greater":
            p = upper_tail
        else:
            p = lower_tail
        quantile = np.where(
            t_dist, student_t_quantile(p_quantile, dof), normal_quantile(p_quantile)
        )
        margin = np.where(sd == 0, 0.0, quantile * sd)
        lower = np.clip(diff - margin, -1.0, 1.0)
        upper = np.clip(diff + margin, -1.0, 1.0)
        # One-sided: the far end is the range's end, defined when the near end is.
        if alternative == "greater":
            upper = np.where(np.isnan(lower), np.nan, 1.0)
        elif alternative == "less":
            lower = np.where(np.isnan(upper), np.nan, -1.0)
        out = pl.DataFrame({"p_value": p, "diff_lower": lower, "diff_upper": upper}).fill_nan(None)
        return out.to_struct(s.name)

    dtype = pl.Struct({"p_value": pl.Float64, "diff_lower": pl.Float64, "diff_upper": pl.Float64})
    inputs = pl.struct("diff", "_sd", "statistic", "df", "paired")
    return inputs.map_batches(compute, return_dtype=dtype, is_elementwise=True)


def compare(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    model: str = "model",
    case: str | None = None,
    by: By = None,
    pos_label: Any = None,
    paired: bool | None = None,
    alternative: Alternative = "two-sided",
    level: float = 0.95,
) -> pl.LazyFrame:
    """
    DeLong's test of two AUCs, for every pair of models, per group.

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
    * ``paired=None`` decides per group and pair: paired iff `case` is given and both models
      hold exactly the same cases, each with the same label under both. ``paired=True``
      raises when they do not; ``paired=False`` always runs the unpaired test.

    With more than two models every pair is tested and the p-values are reported as
    computed: no correction for multiple comparisons. A group with fewer than two models
    yields no rows. Results are null when a curve is undefined or has a class with fewer
    than 2 rows. For a one-sided `alternative` the interval is one-sided, with the far end
    at ±1 (the range of a difference of AUCs); intervals are clipped to [-1, 1].

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

    Returns
    -------
    pl.LazyFrame
        ``*by, model_a, model_b, auc_a, auc_b, diff, diff_lower, diff_upper, statistic,
        p_value, paired, df``: `paired` tells which test ran, `df` the t test's degrees of
        freedom (null for the paired normal test).

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
    """
    names = _validate.as_names(by)
    schema = lf.collect_schema()
    _validate.roles(schema, score=score, label=label, by=names, pos_label=pos_label)
    _validate.column(schema, model, "model")
    roles = {score: "score", label: "label", **dict.fromkeys(names, "by")}
    if model in roles:
        msg = f"model column {model!r} is already the {roles[model]} column"
        raise ValueError(msg)
    if case is not None:
        _validate.column(schema, case, "case")
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
    _validate.level(level)

    extra = [] if case is None else [case]
    placed, table = _delong_table(
        lf.rename({model: "_model"}),
        score,
        label,
        names=[*names, "_model"],
        weight=None,
        pos_label=pos_label,
        extra=extra,
    )
    if case is not None:
        dup = placed.group_by(*names, "_model").agg(
            _dup=pl.col(case).filter(pl.col(case).is_duplicated()).first()
        )
        table = table.join(dup, on=[*names, "_model"], how="left", nulls_equal=True)
    else:
        table = table.with_columns(_dup=pl.lit(None))
    table = table.with_columns(_n=pl.col("n_pos") + pl.col("n_neg")).map_batches(
        _check_summary(model, case)
    )
    side = ["_model", "auc", "n_pos", "n_neg", "_var", "_n"]
    a = table.select(*names, *(pl.col(c).alias(f"{c}_a") for c in side))
    b = table.select(*names, *(pl.col(c).alias(f"{c}_b") for c in side))
    pairs = (
        a.join(b, on=names, how="inner", nulls_equal=True) if names else a.join(b, how="cross")
    ).filter(pl.col("_model_a") < pl.col("_model_b"))
    pair_keys = [*names, "_model_a", "_model_b"]
    if case is not None:
        cells = placed.select(*names, "_model", pl.col(case).alias("_case"), "_y", "_d")
        left = cells.rename({"_model": "_model_a", "_y": "_y_a", "_d": "_d_a"})
        right = cells.rename({"_model": "_model_b", "_y": "_y_b", "_d": "_d_b"})
        matched = left.join(right, on=[*names, "_case"], how="inner", nulls_equal=True).filter(
            (pl.col("_model_a") < pl.col("_model_b")) & (pl.col("_y_a") == pl.col("_y_b"))
        )
        y = pl.col("_y_a")
        covariances = matched.group_by(pair_keys).agg(
            _matched=pl.len(),
            _c10=pl.cov(pl.col("_d_a").filter(y), pl.col("_d_b").filter(y), ddof=1),
            _c01=pl.cov(pl.col("_d_a").filter(~y), pl.col("_d_b").filter(~y), ddof=1),
        )
        pairs = pairs.join(covariances, on=pair_keys, how="left", nulls_equal=True)
        same_cases = (pl.col("_matched") == pl.col("_n_a")) & (pl.col("_n_a") == pl.col("_n_b"))
        is_paired = same_cases.fill_null(False) if paired is not False else pl.lit(False)
    else:
        pairs = pairs.with_columns(_c10=pl.lit(None, pl.Float64), _c01=pl.lit(None, pl.Float64))
        is_paired = pl.lit(False)
    v_a, v_b = pl.col("_var_a"), pl.col("_var_b")
    # Placement covariances; `_d` are counts, so V10 = _d / n_neg and 1 - V01 = _d / n_pos.
    m, n = (pl.col(c).cast(pl.Float64) for c in ("n_pos_a", "n_neg_a"))
    covariance = pl.col("_c10") / (m * n**2) + pl.col("_c01") / (n * m**2)
    variance = pl.when(pl.col("paired")).then(v_a + v_b - 2 * covariance).otherwise(v_a + v_b)
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
        .with_columns(_test=_test_columns(alternative, level))
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
    return out.map_batches(_check_pairs(case)) if paired is True else out
