"""
Obuchowski's binormal variance of AUCs and of their difference, as pROC computes them.

Obuchowski & McClish (1997) give the variance of an AUC (table 1 and formula 4) and the
covariance of two paired AUCs (formula 5) from the binormal parameters ``A, B`` of each ROC
curve, the ratio ``κ = n_neg / n_pos`` and the correlations ``r_a, r_n`` of the two
models' scores among the positives and the negatives. The test of ``Δ = θ₁ - θ₂`` then needs
``n_pos = (z_α·√V₀ + z_β·√V_A)² / Δ²`` positives (formula 2), with ``V₀ = 2 V₁ - 2 C``
(curve 1 taken as the null) and ``V_A = V₁ + V₂ - 2 C``, all per positive. Everything is a
Polars expression: the same code serves ``compare(power_method="obuchowski")`` (one row per
pair of models and group) and pROC's ``power.roc.test(list(A1=, B1=, ...))`` form
(:func:`cases_needed` on literals).

pROC's binormal parameters (``smooth(roc, method="binormal")$model``) are the ordinary
least-squares fit ``qnorm(specificity) = A + B·qnorm(sensitivity)`` over the empirical
curve's points, after dropping the points where either quantile is infinite (sensitivity
or specificity 0 or 1): :func:`fit`. So ``B`` is negative for a curve above the diagonal
(about -1 for equal variances); the formulas only use it through ``B²`` and products
``B₁B₂``, ``A·B`` that keep their value.

The partial-area variants (``fpr`` bounds) follow pROC's ``f.partial`` and ``g.partial``,
including its sign of the ``exp`` term (its comment: "in contradiction with Obuchowski
paper").

Examples
--------
>>> import polars as pl
>>> from polars_roc._core.binormal import cases_needed
>>> params = dict(a1=2.6, b1=1.0, a2=1.9, b2=1.0, rn=0.6, ra=0.6, kappa=1.0, delta=0.037)
>>> needed = cases_needed(**params, z_alpha=1.959964, z_beta=0.841621, fpr1=(0, 0.2))
>>> round(pl.select(needed).item(), 2)  # pROC's power.roc.test(list(...)): 107.0238
107.02
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl

from polars_roc._core.counts import accumulate, coded, tally, with_totals
from polars_roc._core.distributions import normal_cdf, normal_quantiles
from polars_roc._core.groups import ordered_sum, summarize

Number = float | int | pl.Expr
#: The bounds (low, high) of the false positive rate of a partial area.
Bounds = tuple[float, float]


def _quantiles(s: pl.Series) -> pl.Series:
    """R's ``qnorm``: -inf at 0, +inf at 1, null outside [0, 1] or for null/NaN."""
    p = s.cast(pl.Float64).to_numpy()
    inside = (p > 0) & (p < 1)
    with np.errstate(invalid="ignore"):
        q = normal_quantiles(np.where(inside, p, 0.5)) if p.size else p
        out = np.where(inside, q, np.where(p == 0, -np.inf, np.where(p == 1, np.inf, np.nan)))
    return pl.Series(s.name, out, dtype=pl.Float64, nan_to_null=True)


def probit(p: pl.Expr) -> pl.Expr:
    """
    The standard normal quantile of `p`, elementwise (Wichura's AS241, as R's ``qnorm``).

    Examples
    --------
    >>> import polars as pl
    >>> frame = pl.DataFrame({"p": [0.0, 0.975, 1.0, None]})
    >>> frame.select(probit(pl.col("p")).round(6)).to_series().to_list()
    [-inf, 1.959964, inf, None]
    """
    return p.map_batches(_quantiles, return_dtype=pl.Float64, is_elementwise=True)


def _cdf(s: pl.Series) -> pl.Series:
    x = s.cast(pl.Float64).to_numpy()
    return pl.Series(s.name, normal_cdf(x), dtype=pl.Float64, nan_to_null=True)


def phi(x: pl.Expr) -> pl.Expr:
    """The standard normal distribution function of `x`, elementwise."""
    return x.map_batches(_cdf, return_dtype=pl.Float64, is_elementwise=True)


def fit(tp: pl.Expr, fp: pl.Expr, positives: pl.Expr, negatives: pl.Expr) -> list[pl.Expr]:
    """
    Aggregations ``_A, _B``: pROC's binormal fit of one curve from its counts rows.

    ``qnorm(1 - fp/negatives)`` regressed on ``qnorm(tp/positives)`` by least squares over
    the points where both are finite; null with fewer than two such points or when they
    all share one sensitivity (pROC stops with "ROC curve not smoothable").

    Examples
    --------
    >>> import polars as pl
    >>> table = pl.DataFrame({"tp": [0, 1, 2, 3, 4], "fp": [0, 1, 2, 3, 4]})
    >>> agg = fit(pl.col("tp"), pl.col("fp"), pl.lit(4), pl.lit(4))
    >>> [round(v, 6) for v in table.select(agg).row(0)]
    [0.0, -1.0]
    """
    x = probit(tp / positives)
    y = probit(1 - fp / negatives)
    inside = x.is_finite() & y.is_finite()
    x, y = x.filter(inside), y.filter(inside)
    # Sums in row order (the points come sorted): the same bits on every run and engine.
    sxx = ordered_sum((x - _mean(x)) ** 2)
    sxy = ordered_sum((x - _mean(x)) * (y - _mean(y)))
    defined = (x.len() >= 2) & (sxx > 0)
    slope = pl.when(defined).then(sxy / sxx)
    return [(_mean(y) - slope * _mean(x)).alias("_A"), slope.alias("_B")]


def correlation(x: pl.Expr, y: pl.Expr) -> pl.Expr:
    """
    Pearson's correlation (an aggregation): null below two values or for a constant.

    Sums in row order (running sums read at their ends): an aggregation's ``sum`` may add
    its partial sums in any order, and the paired plan must give the same bits every run.
    Give the rows a fixed order first.
    """
    dx, dy = x - _mean(x), y - _mean(y)
    sxx, syy = ordered_sum(dx**2), ordered_sum(dy**2)
    return pl.when((x.len() >= 2) & (sxx > 0) & (syy > 0)).then(
        ordered_sum(dx * dy) / (sxx * syy).sqrt()
    )


def _mean(v: pl.Expr) -> pl.Expr:
    return ordered_sum(v) / v.len()


def _lit(value: Number) -> pl.Expr:
    return value if isinstance(value, pl.Expr) else pl.lit(float(value), dtype=pl.Float64)


def _terms(a: pl.Expr, b: pl.Expr, fpr: Bounds | None) -> tuple[pl.Expr, pl.Expr]:
    """Obuchowski's ``f`` and ``g`` (1997, table 1): the whole area, or pROC's partial."""
    spread = 1 + b**2
    expr1 = (-(a**2) / (2 * spread)).exp()
    if fpr is None:
        f = expr1 * (2 * math.pi * spread) ** -0.5
        g = -expr1 * a * b * (2 * math.pi * spread**3) ** -0.5
        return f, g

    def dagger(bound: float) -> pl.Expr:  # pROC's cdagger
        return (probit(pl.lit(float(bound))) + a * b / spread) * spread**0.5

    c1, c2 = dagger(fpr[0]), dagger(fpr[1])
    expr3 = phi(c1) - phi(c2)
    expr4 = (-(c1**2) / 2).exp() - (-(c2**2) / 2).exp()
    f = expr1 * (2 * math.pi * spread) ** -0.5 * expr3
    g = (
        expr1 / (2 * math.pi * spread) * -expr4
        - a * b * expr1 * (2 * math.pi * spread**3) ** -0.5 * expr3
    )
    return f, g


def variance(a: Number, b: Number, kappa: Number, fpr: Bounds | None = None) -> pl.Expr:
    """Obuchowski's variance of one AUC per positive (1997, formula 4; pROC's var.params)."""
    a, b, kappa = _lit(a), _lit(b), _lit(kappa)
    f, g = _terms(a, b, fpr)
    return f**2 * (1 + b**2 / kappa + a**2 / 2) + g**2 * b**2 * (1 + kappa) / (2 * kappa)


def covariance(
    a1: Number,
    b1: Number,
    a2: Number,
    b2: Number,
    rn: Number,
    ra: Number,
    kappa: Number,
    fpr1: Bounds | None = None,
    fpr2: Bounds | None = None,
) -> pl.Expr:
    """Obuchowski's covariance of two paired AUCs per positive (1997, formula 5)."""
    a1, b1, a2, b2, rn, ra, kappa = (_lit(v) for v in (a1, b1, a2, b2, rn, ra, kappa))
    f1, g1 = _terms(a1, b1, fpr1)
    f2, g2 = _terms(a2, b2, fpr2)
    return (
        f1 * f2 * (ra + rn * b1 * b2 / kappa + ra**2 * a1 * a2 / 2)
        + g1 * g2 * (b1 * b2 * (rn**2 + kappa * ra**2) / (2 * kappa))
        + f1 * g2 * (ra**2 * a1 * b2 / 2)
        + f2 * g1 * (ra**2 * a2 * b1 / 2)
    )


def cases_needed(
    a1: Number,
    b1: Number,
    a2: Number,
    b2: Number,
    rn: Number,
    ra: Number,
    kappa: Number,
    delta: Number,
    *,
    z_alpha: float,
    z_beta: float,
    fpr1: Bounds | None = None,
    fpr2: Bounds | None = None,
) -> pl.Expr:
    """
    Positives needed to detect ``delta`` (pROC's ``ncases.obuchowski.params``).

    `fpr1` / `fpr2`: partial-area bounds of curve 1 / 2 (`fpr2` defaults to `fpr1`).
    Null where ``delta`` is 0 or either variance (``V₀``, ``V_A``) is negative (NaN in pROC).
    """
    fpr2 = fpr1 if fpr2 is None else fpr2
    v1 = variance(a1, b1, kappa, fpr1)
    v2 = variance(a2, b2, kappa, fpr2)
    cov = covariance(a1, b1, a2, b2, rn, ra, kappa, fpr1, fpr2)
    v0, va = 2 * v1 - 2 * cov, v1 + v2 - 2 * cov
    return sample_size(v0, va, _lit(delta), z_alpha=z_alpha, z_beta=z_beta)


def sample_size(
    v0: pl.Expr, va: pl.Expr, delta: pl.Expr, *, z_alpha: float, z_beta: float
) -> pl.Expr:
    """
    ``n = (z_α·√V₀ + z_β·√V_A)² / Δ²`` (Obuchowski & McClish 1997, formula 2).

    ``V₀`` and ``V_A`` are the variances of the difference (per positive) under the null and
    the alternative, whichever way they were estimated. Null where ``Δ`` is 0 or a variance
    is negative.

    Examples
    --------
    >>> import polars as pl
    >>> pl.select(sample_size(pl.lit(0.2), pl.lit(0.3), pl.lit(0.1), z_alpha=1.96, z_beta=0.84))
    shape: (1, 1)
    ┌────────────┐
    │ literal    │
    │ ---        │
    │ f64        │
    ╞════════════╡
    │ 178.656798 │
    └────────────┘
    """
    cases = (z_alpha * v0.sqrt() + z_beta * va.sqrt()) ** 2 / delta**2
    return pl.when((delta != 0) & (v0 >= 0) & (va >= 0)).then(cases)


def curve_fits(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    names: list[str],
    weight: str | None,
    pos_label: Any,
) -> pl.LazyFrame:
    """
    Per group ``*names, n_pos, n_neg, n_points, _A, _B``: :func:`fit` of each ROC curve.

    The curve is the counts core's; `n_points` counts its points strictly inside the unit
    square (the fit's points). Sorted by group.

    Examples
    --------
    >>> import polars as pl
    >>> lf = pl.LazyFrame({"s": [0.1, 0.3, 0.35, 0.4, 0.6, 0.8], "y": [0, 1, 0, 1, 0, 1]})
    >>> out = curve_fits(lf, "s", "y", names=[], weight=None, pos_label=None).collect()
    >>> out.select("n_pos", "n_neg", "n_points").row(0)
    (3, 3, 3)
    """
    schema = lf.collect_schema()
    rows = coded(
        lf,
        score,
        label,
        names=names,
        weight=weight,
        pos_label=pos_label,
        label_dtype=schema[label],
        masked=bool(names),
    )
    integer = weight is None
    table = tally(rows, names, ordered=True, deferred=integer)
    table = with_totals(accumulate(table, names, in_order=True, tied=integer), names)
    tp, fp = pl.col("tp"), pl.col("fp")
    positives, negatives = pl.col("_positives"), pl.col("_negatives")
    inside = (tp > 0) & (tp < positives) & (fp > 0) & (fp < negatives)
    measures = [
        tp.max().alias("n_pos"),
        fp.max().alias("n_neg"),
        inside.sum().cast(pl.Int64).alias("n_points"),
        *fit(tp, fp, positives, negatives),
    ]
    return summarize(table, names, measures)
