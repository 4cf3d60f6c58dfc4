"""
Closed-form intervals for proportions and likelihood ratios, as Polars expressions.

No resampling: each interval is a function of two counts, so it runs on a tally
(`pr.tally` output) or any engine's counts as well as on raw rows. Weighted counts are read
as frequencies (a weight of 3 is three cases), which is what a tally's weights are.

* ``wilson``: Wilson's score interval, ``(x + z²/2 ± z·√(x(n-x)/n + z²/4)) / (n + z²)``.
* ``agresti_coull``: the Wald interval of ``(x + z²/2) / (n + z²)`` over ``n + z²``
  trials, clipped to [0, 1] (as statsmodels).
* ``clopper_pearson``: the exact interval from beta quantiles,
  ``B⁻¹(α/2; x, n - x + 1)`` and ``B⁻¹(1 - α/2; x + 1, n - x)`` (0 at x = 0, 1 at x = n).
* Likelihood ratios (Simel, Samsa & Matchar 1991, the log method):
  ``LR+ = tpr / fpr`` with ``se(log LR+) = √(1/tp - 1/(tp + fn) + 1/fp - 1/(fp + tn))``,
  ``LR- = fnr / tnr`` with ``se(log LR-) = √(1/fn - 1/(tp + fn) + 1/tn - 1/(fp + tn))``;
  null where a count in a denominator is zero.

Each interval of a proportion is null where its denominator is zero (an undefined rate).

Examples
--------
>>> import polars as pl
>>> from polars_roc._core.proportions import proportion_interval
>>> df = pl.DataFrame({"x": [8.0, 0.0], "n": [10.0, 10.0]})
>>> df.select(proportion_interval(pl.col("x"), pl.col("n"), "wilson", 0.95)).unnest("ci")
shape: (2, 2)
┌──────────┬──────────┐
│ lower    ┆ upper    │
│ ---      ┆ ---      │
│ f64      ┆ f64      │
╞══════════╪══════════╡
│ 0.490162 ┆ 0.943318 │
│ 0.0      ┆ 0.277533 │
└──────────┴──────────┘
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
import numpy.typing as npt
import polars as pl

from polars_roc._core.distributions import beta_quantile, normal_quantile

#: The closed-form interval methods for a proportion.
ProportionMethod = Literal["wilson", "clopper_pearson", "agresti_coull"]
PROPORTION_METHODS: tuple[ProportionMethod, ...] = ("wilson", "clopper_pearson", "agresti_coull")

FloatArray = npt.NDArray[np.float64]


def _z(level: float) -> float:
    return normal_quantile((1 + level) / 2)


def proportion_interval(x: pl.Expr, n: pl.Expr, method: ProportionMethod, level: float) -> pl.Expr:
    """
    The interval of the proportion ``x / n`` as a struct ``ci{lower, upper}``.

    Null where ``n`` is zero or null.

    Examples
    --------
    >>> import polars as pl
    >>> from polars_roc._core.proportions import proportion_interval
    >>> df = pl.DataFrame({"x": [3], "n": [10]})
    >>> row = df.select(proportion_interval(pl.col("x"), pl.col("n"), "clopper_pearson", 0.95))
    >>> [round(v, 6) for v in row.unnest("ci").row(0)]
    [0.066739, 0.652453]
    """
    x, n = x.cast(pl.Float64), n.cast(pl.Float64)
    defined = n > 0
    if method == "clopper_pearson":
        ci = clopper_pearson({"p": (x, n)}, level)
        both = pl.struct(lower=ci.struct.field("p_lower"), upper=ci.struct.field("p_upper"))
        return pl.when(defined).then(both).alias("ci")
    z = _z(level)
    z2 = z * z
    if method == "wilson":
        centre = (x + z2 / 2) / (n + z2)
        half = z * (x * (n - x) / n + z2 / 4).clip(lower_bound=0.0).sqrt() / (n + z2)
        lower, upper = (centre - half).clip(0.0, 1.0), (centre + half).clip(0.0, 1.0)
    elif method == "agresti_coull":
        n_tilde = n + z2
        p_tilde = (x + z2 / 2) / n_tilde
        half = z * (p_tilde * (1 - p_tilde) / n_tilde).sqrt()
        lower, upper = (p_tilde - half).clip(0.0, 1.0), (p_tilde + half).clip(0.0, 1.0)
    else:
        msg = f"ci must be one of {list(PROPORTION_METHODS)}, got {method!r}"
        raise ValueError(msg)
    both = pl.struct(lower=lower, upper=upper)
    return pl.when(defined).then(both).alias("ci")


def _cp_bounds(x: FloatArray, n: FloatArray, level: float) -> tuple[FloatArray, FloatArray]:
    """
    Clopper-Pearson bounds of every ``x / n`` at once: NaN where `n` is not positive.

    One vectorised beta quantile call solves every lower and upper bound together (each
    distinct count pair once).
    """
    alpha = 1 - level
    ok = np.isfinite(x) & np.isfinite(n) & (n > 0)
    x, n = np.where(ok, x, 0.5), np.where(ok, n, 1.0)
    size = x.size
    p = np.concatenate([np.full(size, alpha / 2), np.full(size, 1 - alpha / 2)])
    a = np.concatenate([np.maximum(x, 1e-300), x + 1])
    b = np.concatenate([n - x + 1, np.maximum(n - x, 1e-300)])
    with np.errstate(all="ignore"):
        both = beta_quantile(p, a, b)
    lower = np.where(x > 0, both[:size], 0.0)
    upper = np.where(x < n, both[size:], 1.0)
    return np.where(ok, lower, np.nan), np.where(ok, upper, np.nan)


def _cp_columns(s: pl.Series, names: list[str], level: float) -> pl.Series:
    """The bounds ``<name>_lower, <name>_upper`` of each pair of fields ``<name>_x, <name>_n``."""
    fields = {f: s.struct.field(f).cast(pl.Float64).to_numpy() for f in s.struct.fields}
    x = np.concatenate([fields[f"{name}_x"] for name in names])
    n = np.concatenate([fields[f"{name}_n"] for name in names])
    lower, upper = _cp_bounds(x, n, level)
    out = {}
    for i, name in enumerate(names):
        part = slice(i * len(s), (i + 1) * len(s))
        out[f"{name}_lower"], out[f"{name}_upper"] = lower[part], upper[part]
    return pl.DataFrame(out).fill_nan(None).to_struct(s.name)


def clopper_pearson(pairs: dict[str, tuple[pl.Expr, pl.Expr]], level: float) -> pl.Expr:
    """
    Clopper-Pearson bounds of several proportions in one vectorised pass, as one struct.

    `pairs` maps a name to its ``(x, n)``; the struct holds ``<name>_lower, <name>_upper``
    for each, null where ``n`` is zero or null.

    Examples
    --------
    >>> import polars as pl
    >>> from polars_roc._core.proportions import clopper_pearson
    >>> df = pl.DataFrame({"x": [3, 0], "n": [10, 0]})
    >>> ci = clopper_pearson({"rate": (pl.col("x"), pl.col("n"))}, 0.95)
    >>> df.select(ci).unnest("ci").with_columns(pl.all().round(6))
    shape: (2, 2)
    ┌────────────┬────────────┐
    │ rate_lower ┆ rate_upper │
    │ ---        ┆ ---        │
    │ f64        ┆ f64        │
    ╞════════════╪════════════╡
    │ 0.066739   ┆ 0.652453   │
    │ null       ┆ null       │
    └────────────┴────────────┘
    """
    names = list(pairs)
    inputs = pl.struct(
        *(
            e.cast(pl.Float64).alias(f"{name}_{role}")
            for name in names
            for role, e in zip(("x", "n"), pairs[name], strict=True)
        )
    )
    dtype = pl.Struct({f"{name}_{end}": pl.Float64 for name in names for end in ("lower", "upper")})
    return inputs.map_batches(
        lambda s: _cp_columns(s, names, level), return_dtype=dtype, is_elementwise=True
    ).alias("ci")


def log_ratio_interval(
    top: pl.Expr, top_total: pl.Expr, bottom: pl.Expr, bottom_total: pl.Expr, level: float
) -> pl.Expr:
    """
    The log-method interval of ``(top / top_total) / (bottom / bottom_total)``.

    A struct ``ci{lower, upper}``, null where any of the four counts is zero (the standard
    error ``√(1/top - 1/top_total + 1/bottom - 1/bottom_total)`` is then undefined).

    Examples
    --------
    >>> import polars as pl
    >>> from polars_roc._core.proportions import log_ratio_interval
    >>> df = pl.DataFrame({"tp": [40], "fn": [10], "fp": [20], "tn": [80]})
    >>> tp, fn, fp, tn = (pl.col(c) for c in ("tp", "fn", "fp", "tn"))
    >>> ci = log_ratio_interval(tp, tp + fn, fp, fp + tn, 0.95)
    >>> [round(v, 4) for v in df.select(ci).unnest("ci").row(0)]
    [2.6393, 6.0622]
    """
    a, m, b, k = (e.cast(pl.Float64) for e in (top, top_total, bottom, bottom_total))
    ratio = (a / m) / (b / k)
    se = (1 / a - 1 / m + 1 / b - 1 / k).clip(lower_bound=0.0).sqrt()
    z = _z(level)
    defined = (a > 0) & (b > 0) & (m > 0) & (k > 0)
    both = pl.struct(lower=ratio * (-z * se).exp(), upper=ratio * (z * se).exp())
    return pl.when(defined).then(both).alias("ci")


def rate_intervals(method: ProportionMethod, level: float) -> list[pl.Expr]:
    """
    The closed-form interval columns of a threshold table with ``tp, fp, tn, fn``.

    ``tpr_lower, tpr_upper, fpr_lower, fpr_upper, ppv_lower, ppv_upper, npv_lower,
    npv_upper`` by `method`; ``lr_pos_lower, lr_pos_upper, lr_neg_lower, lr_neg_upper`` by
    the log method.
    """
    if not 0.0 < level < 1.0 or math.isnan(level):
        msg = f"level must lie strictly between 0 and 1, got {level!r}"
        raise ValueError(msg)
    tp, fp, tn, fn = (pl.col(c).cast(pl.Float64) for c in ("tp", "fp", "tn", "fn"))
    pairs = {
        "tpr": (tp, tp + fn),
        "fpr": (fp, fp + tn),
        "ppv": (tp, tp + fp),
        "npv": (tn, tn + fn),
    }
    out: list[pl.Expr] = []
    if method == "clopper_pearson":  # one pass for all eight bounds
        out += [clopper_pearson(pairs, level).struct.unnest()]
    for name, (x, n) in pairs.items() if method != "clopper_pearson" else ():
        ci = proportion_interval(x, n, method, level)
        out += [ci.struct.field("lower").alias(f"{name}_lower")]
        out += [ci.struct.field("upper").alias(f"{name}_upper")]
    lr_pos = log_ratio_interval(tp, tp + fn, fp, fp + tn, level)
    lr_neg = log_ratio_interval(fn, tp + fn, tn, fp + tn, level)
    for name, ci in (("lr_pos", lr_pos), ("lr_neg", lr_neg)):
        out += [ci.struct.field("lower").alias(f"{name}_lower")]
        out += [ci.struct.field("upper").alias(f"{name}_upper")]
    return out
