"""
Power and sample size for one AUC against chance, as pROC's ``power.roc.test``.

Obuchowski & McClish (1997) approximate the variance of an AUC ``θ`` from ``n_pos``
positives and ``n_neg = κ·n_pos`` negatives under a binormal model with equal variances:
``V(θ) = 0.0099·exp(-A²/2)·((5A² + 8) + (A² + 8)/κ) / n_pos`` with ``A = 1.414·Φ⁻¹(θ)``, and
``0.0792·(1 + 1/κ) / n_pos`` under the null hypothesis θ = 0.5. The test of ``θ`` against 0.5
then has ``z_β = (√n_pos·|θ - 0.5| - z_α·√V₀) / √V_A``: :func:`roc_power` reads the power off
it, :func:`roc_sample_size` solves it for ``n_pos`` and :func:`detectable_auc` for ``θ``
(bisection to the last bit; pROC's ``uniroot`` stops within about 1e-4).

Each function takes numbers and returns floats, or takes expressions (any argument a
`pl.Expr`) and returns an elementwise expression, e.g. a ``power`` column beside an
``auc(by=...)`` table. In an expression, a row whose inputs are out of range gives null.
Two curves: :func:`polars_roc.inference.compare` with ``power=`` (from data), or
:func:`binormal_sample_size`, :func:`binormal_power` and :func:`binormal_alpha` from the two
curves' binormal parameters (pROC's ``power.roc.test(list(A1=, B1=, ...))``).

Examples
--------
>>> import polars as pl
>>> import polars_roc as pr
>>> round(pr.roc_power(41, 72, 0.73), 6)  # pROC's power.roc.test: 0.9897453
0.989745
>>> [round(n, 2) for n in pr.roc_sample_size(0.73, power=0.9)]
[29.95, 29.95]
>>> round(pr.detectable_auc(41, 72, power=0.95), 4)
0.6961
>>> table = pl.DataFrame({"segment": ["a", "b"], "auc": [0.6, 0.8], "n_pos": [30, 300]})
>>> table.with_columns(power=pr.roc_power("n_pos", pl.col("n_pos") * 3, pl.col("auc")))
shape: (2, 4)
┌─────────┬─────┬───────┬─────────┐
│ segment ┆ auc ┆ n_pos ┆ power   │
│ ---     ┆ --- ┆ ---   ┆ ---     │
│ str     ┆ f64 ┆ i64   ┆ f64     │
╞═════════╪═════╪═══════╪═════════╡
│ a       ┆ 0.6 ┆ 30    ┆ 0.39176 │
│ b       ┆ 0.8 ┆ 300   ┆ 1.0     │
└─────────┴─────┴───────┴─────────┘
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, cast, overload

import numpy as np
import numpy.typing as npt
import polars as pl

from polars_roc._core import binormal, validate
from polars_roc._core.distributions import normal_cdf, normal_quantiles

__all__ = [
    "BinormalPair",
    "Sided",
    "binormal_alpha",
    "binormal_power",
    "binormal_sample_size",
    "detectable_auc",
    "roc_power",
    "roc_sample_size",
]

#: A two-sided test halves `alpha` on each side (pROC's ``"two.sided"``).
Sided = Literal["two-sided", "one-sided"]

_FloatArray = npt.NDArray[np.float64]
#: A number, or an expression (a string names a column).
_NumberOrExpr = float | int | str | pl.Expr

_NULL_VARIANCE = 0.0792  # Obuchowski's V(0.5) per case, times (1 + 1/kappa)
_quantile = normal_quantiles


def _theta_variance(theta: _FloatArray, kappa: _FloatArray) -> _FloatArray:
    """Obuchowski's variance of the AUC per positive, at ``θ`` and ``κ = n_neg / n_pos``."""
    a = _quantile(np.clip(theta, 1e-300, 1 - 1e-16)) * 1.414
    return np.asarray(
        0.0099 * np.exp(-(a**2) / 2) * ((5 * a**2 + 8) + (a**2 + 8) / kappa), dtype=np.float64
    )


def _z_alpha(alpha: _FloatArray, sided: Sided) -> _FloatArray:
    return np.asarray(_quantile(1 - (alpha / 2 if sided == "two-sided" else alpha)), np.float64)


def _power(
    n_pos: _FloatArray, n_neg: _FloatArray, auc: _FloatArray, alpha: _FloatArray, sided: Sided
) -> _FloatArray:
    kappa = n_neg / n_pos
    v0, va = _NULL_VARIANCE * (1 + 1 / kappa), _theta_variance(auc, kappa)
    z_beta = (np.sqrt(n_pos) * np.abs(auc - 0.5) - _z_alpha(alpha, sided) * np.sqrt(v0)) / np.sqrt(
        va
    )
    return np.asarray(normal_cdf(z_beta), dtype=np.float64)


def _cases(
    auc: _FloatArray, power: _FloatArray, alpha: _FloatArray, kappa: _FloatArray, sided: Sided
) -> _FloatArray:
    v0, va = _NULL_VARIANCE * (1 + 1 / kappa), _theta_variance(auc, kappa)
    z_alpha, z_beta = _z_alpha(alpha, sided), _quantile(power)
    with np.errstate(divide="ignore", invalid="ignore"):
        cases = (z_alpha * np.sqrt(v0) + z_beta * np.sqrt(va)) ** 2 / (auc - 0.5) ** 2
    return np.where(auc == 0.5, np.nan, cases)


def _detectable(
    n_pos: _FloatArray, n_neg: _FloatArray, power: _FloatArray, alpha: _FloatArray, sided: Sided
) -> _FloatArray:
    """The AUC above 0.5 whose sample size is `n_pos`: bisection until the interval is one bit."""
    kappa = n_neg / n_pos
    lo = np.full(np.shape(n_pos), 0.5)
    hi = np.full(np.shape(n_pos), 1 - 1e-16)
    # The sample size falls from +inf at 0.5 as the AUC grows; no root if it is still above
    # `n_pos` next to 1 (too few cases for any AUC at this power).
    found = _cases(hi, power, alpha, kappa, sided) <= n_pos
    for _ in range(64):
        mid = (lo + hi) / 2
        enough = _cases(mid, power, alpha, kappa, sided) <= n_pos
        hi, lo = np.where(enough, mid, hi), np.where(enough, lo, mid)
    return np.where(found, hi, np.nan)


def _check_sided(alternative: str) -> Sided:
    if alternative not in ("two-sided", "one-sided"):
        msg = f"alternative must be 'two-sided' or 'one-sided', got {alternative!r}"
        raise ValueError(msg)
    return alternative  # type: ignore[return-value]


def _is_expr(*values: object) -> bool:
    return any(isinstance(v, pl.Expr | str) for v in values)


def _number(value: object, name: str, *, low: float, high: float, closed: bool = False) -> float:
    number = float(cast("float", value)) if validate.is_real(value) else math.nan
    if math.isnan(number):  # NumPy scalars are numbers too; a bool or NaN is not
        msg = f"{name} must be a number, got {value!r}"
        raise TypeError(msg)
    inside = low <= number <= high if closed else low < number < high
    if not inside:
        bounds = f"[{low}, {high}]" if closed else f"({low}, {high})"
        msg = f"{name} must lie in {bounds}, got {value!r}"
        raise ValueError(msg)
    return number


def _count(value: object, name: str) -> float:
    return _number(value, name, low=0.0, high=math.inf)


def _as_expr(value: _NumberOrExpr) -> pl.Expr:
    if isinstance(value, pl.Expr):
        return value.cast(pl.Float64)
    if isinstance(value, str):
        return pl.col(value).cast(pl.Float64)
    return pl.lit(float(value), dtype=pl.Float64)


def _elementwise(
    kernel: Callable[..., _FloatArray],
    values: dict[str, _NumberOrExpr],
    valid: dict[str, tuple[float, float]],
) -> pl.Expr:
    """`kernel` over the rows of the struct of `values`; a row out of `valid` ranges is null."""
    names = list(values)

    def apply(s: pl.Series) -> pl.Series:
        arrays = {n: s.struct.field(n).to_numpy().astype(np.float64) for n in names}
        ok = np.ones(len(s), dtype=bool)
        for n, (low, high) in valid.items():
            with np.errstate(invalid="ignore"):
                ok &= (arrays[n] > low) & (arrays[n] < high)
        safe = {n: np.where(ok, a, 0.75) for n, a in arrays.items()}
        with np.errstate(all="ignore"):
            out = np.where(ok, kernel(**safe), np.nan)
        return pl.Series(out, dtype=pl.Float64, nan_to_null=True)

    fields = pl.struct(*(_as_expr(v).alias(n) for n, v in values.items()))
    return fields.map_batches(apply, return_dtype=pl.Float64, is_elementwise=True)


@overload
def roc_power(
    n_pos: float, n_neg: float, auc: float, *, alpha: float = ..., alternative: Sided = ...
) -> float: ...
@overload
def roc_power(
    n_pos: _NumberOrExpr,
    n_neg: _NumberOrExpr,
    auc: _NumberOrExpr,
    *,
    alpha: float = ...,
    alternative: Sided = ...,
) -> float | pl.Expr: ...
def roc_power(
    n_pos: _NumberOrExpr,
    n_neg: _NumberOrExpr,
    auc: _NumberOrExpr,
    *,
    alpha: float = 0.05,
    alternative: Sided = "two-sided",
) -> float | pl.Expr:
    """
    Power of the test of one AUC against 0.5 (Obuchowski's variance, pROC's power.roc.test).

    Parameters
    ----------
    n_pos, n_neg
        Numbers of positives and negatives (> 0): numbers, column names or expressions.
    auc
        The AUC to detect, in (0, 1).
    alpha
        Significance level, in (0, 1).
    alternative
        ``"two-sided"`` (each tail ``alpha / 2``) or ``"one-sided"``.

    Returns
    -------
    float or pl.Expr
        The power, a float for numbers; an elementwise expression named ``power`` when any
        argument is an expression (null on a row whose values are out of range).

    Examples
    --------
    >>> import polars_roc as pr
    >>> round(pr.roc_power(41, 72, 0.73), 6)
    0.989745
    >>> round(pr.roc_power(41, 72, 0.73, alternative="one-sided"), 6)
    0.99593
    """
    sided = _check_sided(alternative)
    validate.open_unit(alpha, "alpha")

    def kernel(n_pos: _FloatArray, n_neg: _FloatArray, auc: _FloatArray) -> _FloatArray:
        return _power(n_pos, n_neg, auc, np.asarray(alpha), sided)

    if _is_expr(n_pos, n_neg, auc):
        values = {"n_pos": n_pos, "n_neg": n_neg, "auc": auc}
        ranges = {"n_pos": (0.0, math.inf), "n_neg": (0.0, math.inf), "auc": (0.0, 1.0)}
        return _elementwise(kernel, values, ranges).alias("power")
    args = (_count(n_pos, "n_pos"), _count(n_neg, "n_neg"), _number(auc, "auc", low=0, high=1))
    return float(kernel(*(np.asarray(a) for a in args)))


@overload
def roc_sample_size(
    auc: float,
    *,
    power: float = ...,
    alpha: float = ...,
    kappa: float = ...,
    alternative: Sided = ...,
) -> tuple[float, float]: ...
@overload
def roc_sample_size(
    auc: _NumberOrExpr,
    *,
    power: float = ...,
    alpha: float = ...,
    kappa: float = ...,
    alternative: Sided = ...,
) -> tuple[float, float] | pl.Expr: ...
def roc_sample_size(
    auc: _NumberOrExpr,
    *,
    power: float = 0.8,
    alpha: float = 0.05,
    kappa: float = 1.0,
    alternative: Sided = "two-sided",
) -> tuple[float, float] | pl.Expr:
    """
    Positives and negatives needed to tell an AUC from 0.5 (pROC's power.roc.test).

    Parameters
    ----------
    auc
        The AUC to detect, in (0, 1) and not 0.5: a number, column name or expression.
    power
        The wanted power, in (0, 1).
    alpha
        Significance level, in (0, 1).
    kappa
        ``n_neg / n_pos``, the ratio of negatives to positives (> 0).
    alternative
        ``"two-sided"`` or ``"one-sided"``.

    Returns
    -------
    tuple of float or pl.Expr
        ``(n_pos, n_neg)`` as fractional numbers of cases (round up to plan a study); for an
        expression, a struct ``sample_size`` with fields ``n_pos, n_neg`` (null where the
        AUC is 0.5 or out of range).

    Examples
    --------
    >>> import polars_roc as pr
    >>> [round(n, 4) for n in pr.roc_sample_size(0.7314, power=0.95, kappa=1.7)]
    [29.2892, 49.7916]
    """
    sided = _check_sided(alternative)
    validate.open_unit(alpha, "alpha")
    validate.open_unit(power, "power")
    ratio = _count(kappa, "kappa")

    def kernel(auc: _FloatArray) -> _FloatArray:
        return _cases(auc, np.asarray(power), np.asarray(alpha), np.asarray(ratio), sided)

    if _is_expr(auc):
        cases = _elementwise(kernel, {"auc": auc}, {"auc": (0.0, 1.0)})
        return pl.struct(n_pos=cases, n_neg=cases * ratio).alias("sample_size")
    theta = _number(auc, "auc", low=0.0, high=1.0)
    if theta == 0.5:
        msg = "auc must differ from 0.5: no sample size tells chance from itself"
        raise ValueError(msg)
    n = float(kernel(np.asarray(theta)))
    return n, n * ratio


@overload
def detectable_auc(
    n_pos: float, n_neg: float, *, power: float = ..., alpha: float = ..., alternative: Sided = ...
) -> float | None: ...
@overload
def detectable_auc(
    n_pos: _NumberOrExpr,
    n_neg: _NumberOrExpr,
    *,
    power: float = ...,
    alpha: float = ...,
    alternative: Sided = ...,
) -> float | pl.Expr | None: ...
def detectable_auc(
    n_pos: _NumberOrExpr,
    n_neg: _NumberOrExpr,
    *,
    power: float = 0.8,
    alpha: float = 0.05,
    alternative: Sided = "two-sided",
) -> float | pl.Expr | None:
    """
    The smallest AUC above 0.5 that `n_pos` positives and `n_neg` negatives detect.

    Parameters
    ----------
    n_pos, n_neg
        Numbers of positives and negatives (> 0): numbers, column names or expressions.
    power
        The wanted power, in (0, 1).
    alpha
        Significance level, in (0, 1).
    alternative
        ``"two-sided"`` or ``"one-sided"``.

    Returns
    -------
    float, None or pl.Expr
        The AUC; None (null in an expression named ``detectable_auc``) when even an AUC of 1
        needs more cases than given.

    Examples
    --------
    >>> import polars_roc as pr
    >>> round(pr.detectable_auc(41, 72, power=0.95), 6)
    0.6961
    >>> pr.detectable_auc(2, 2) is None
    True
    """
    sided = _check_sided(alternative)
    validate.open_unit(alpha, "alpha")
    validate.open_unit(power, "power")

    def kernel(n_pos: _FloatArray, n_neg: _FloatArray) -> _FloatArray:
        return _detectable(n_pos, n_neg, np.asarray(power), np.asarray(alpha), sided)

    if _is_expr(n_pos, n_neg):
        values = {"n_pos": n_pos, "n_neg": n_neg}
        ranges = {"n_pos": (0.0, math.inf), "n_neg": (0.0, math.inf)}
        return _elementwise(kernel, values, ranges).alias("detectable_auc")
    value = float(kernel(np.asarray(_count(n_pos, "n_pos")), np.asarray(_count(n_neg, "n_neg"))))
    return None if math.isnan(value) else value


@dataclass(frozen=True)
class BinormalPair:
    """
    Two paired ROC curves as pROC's ``power.roc.test(list(...))`` describes them.

    ``a1, b1`` / ``a2, b2``: each curve's binormal parameters (``qnorm(1 - fpr) = A +
    B·qnorm(tpr)`` in pROC's fit; :mod:`polars_roc._core.binormal`); ``rn`` / ``ra``: the
    correlations of the two models' scores among the negatives / the positives; ``delta``:
    the difference of the areas to detect; ``fpr1`` / ``fpr2``: each area's FPR range for a
    partial area (pROC's ``FPR11, FPR12`` / ``FPR21, FPR22``; ``fpr2`` defaults to ``fpr1``).
    """

    a1: float
    b1: float
    a2: float
    b2: float
    rn: float
    ra: float
    delta: float
    fpr1: tuple[float, float] | None = None
    fpr2: tuple[float, float] | None = None

    def variances(self, kappa: float) -> tuple[float, float]:
        """``(V₀, V_A)`` per positive: the variance of the difference (null, alternative)."""
        fpr2 = self.fpr1 if self.fpr2 is None else self.fpr2
        v1 = binormal.variance(self.a1, self.b1, kappa, self.fpr1)
        v2 = binormal.variance(self.a2, self.b2, kappa, fpr2)
        cov = binormal.covariance(
            self.a1, self.b1, self.a2, self.b2, self.rn, self.ra, kappa, self.fpr1, fpr2
        )
        v0, va = pl.select(v0=2 * v1 - 2 * cov, va=v1 + v2 - 2 * cov).row(0)
        return float(v0), float(va)


def _binormal_checks(
    kappa: float, alternative: str, **probabilities: float | None
) -> tuple[Sided, float]:
    sided = _check_sided(alternative)
    kappa = _number(kappa, "kappa", low=0.0, high=math.inf)
    for name, value in probabilities.items():
        if value is not None:
            _number(value, name, low=0.0, high=1.0)
    return sided, kappa


def _halved(alpha: float, sided: Sided) -> float:
    return alpha / 2 if sided == "two-sided" else alpha


def binormal_sample_size(
    pair: BinormalPair,
    *,
    power: float = 0.8,
    alpha: float = 0.05,
    kappa: float = 1.0,
    alternative: Sided = "two-sided",
) -> tuple[float, float]:
    """
    Positives and negatives needed to detect ``pair.delta`` (pROC's list form, ``ncases``).

    ``n = (z_α·√V₀ + z_β·√V_A)² / Δ²`` positives and ``κ·n`` negatives (Obuchowski &
    McClish 1997). Numbers only; NaN where a variance is negative (pROC's NaN).

    Examples
    --------
    >>> pair = BinormalPair(2.6, 1, 1.9, 1, rn=0.6, ra=0.6, delta=0.037, fpr1=(0, 0.2))
    >>> [round(n, 4) for n in binormal_sample_size(pair, power=0.8)]  # pROC: 107.0238
    [107.0238, 107.0238]
    """
    sided, kappa = _binormal_checks(kappa, alternative, power=power, alpha=alpha)
    v0, va = pair.variances(kappa)
    z_alpha = float(_quantile(np.array(1 - _halved(alpha, sided))))
    z_beta = float(_quantile(np.array(power)))
    with np.errstate(invalid="ignore"):
        n = (z_alpha * np.sqrt(v0) + z_beta * np.sqrt(va)) ** 2 / pair.delta**2
    return float(n), float(n * kappa)


def binormal_power(
    pair: BinormalPair,
    n_pos: float,
    *,
    alpha: float = 0.05,
    kappa: float = 1.0,
    alternative: Sided = "two-sided",
) -> float:
    """
    Power to detect ``pair.delta`` with `n_pos` positives (pROC's list form, ``power``).

    ``z_β = (√n·|Δ| - z_α·√V₀) / √V_A``, the power ``Φ(z_β)``.

    Examples
    --------
    >>> pair = BinormalPair(2.6, 1, 1.9, 1, rn=0.6, ra=0.6, delta=0.037, fpr1=(0, 0.2))
    >>> round(binormal_power(pair, 107), 7)  # pROC: 0.7999286
    0.7999286
    """
    sided, kappa = _binormal_checks(kappa, alternative, alpha=alpha)
    n = _count(n_pos, "n_pos")
    v0, va = pair.variances(kappa)
    z_alpha = float(_quantile(np.array(1 - _halved(alpha, sided))))
    z_beta = (math.sqrt(n) * abs(pair.delta) - z_alpha * math.sqrt(v0)) / math.sqrt(va)
    return float(normal_cdf(np.array(z_beta)))


def binormal_alpha(
    pair: BinormalPair,
    n_pos: float,
    *,
    power: float = 0.8,
    kappa: float = 1.0,
    alternative: Sided = "two-sided",
) -> float:
    """
    The significance level at which `n_pos` positives reach `power` (pROC's ``sig.level``).

    ``z_α = (√n·|Δ| - z_β·√V_A) / √V₀``, the level ``1 - Φ(z_α)`` (doubled when two-sided).

    Examples
    --------
    >>> pair = BinormalPair(2.6, 1, 1.9, 1, rn=0.6, ra=0.6, delta=0.037, fpr1=(0, 0.2))
    >>> round(binormal_alpha(pair, 107, power=0.8), 8)  # pROC: 0.05004012
    0.05004012
    """
    sided, kappa = _binormal_checks(kappa, alternative, power=power)
    n = _count(n_pos, "n_pos")
    v0, va = pair.variances(kappa)
    z_beta = float(_quantile(np.array(power)))
    z_alpha = (math.sqrt(n) * abs(pair.delta) - z_beta * math.sqrt(va)) / math.sqrt(v0)
    level = 1 - float(normal_cdf(np.array(z_alpha)))
    return level * 2 if sided == "two-sided" else level
