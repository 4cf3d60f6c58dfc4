"""
Non-inferiority and equivalence of two ROC areas: the tests behind ``compare(margin=...)``.

Both read the difference ``diff = auc_a - auc_b`` of a pair of models and its standard
deviation (DeLong's, clustered or not, or the bootstrap's) that
:func:`polars_roc.inference.compare` computes, and replace its test of ``diff = 0``:

* **Non-inferiority** of `model_b` to `model_a` with margin ``δ``: ``H0: auc_b - auc_a <=
  -δ``, ``statistic = (auc_b - auc_a + δ) / sd = (δ - diff) / sd``, one-sided
  ``p = 1 - F(statistic)``.
* **Equivalence** within ``(lo, hi)`` (bounds on ``auc_b - auc_a``): two one-sided tests,
  ``(auc_b - auc_a - lo) / sd`` and ``(hi - auc_b + auc_a) / sd``; the statistic is the
  smaller, the p-value the larger of the two (Schuirmann's TOST).

``F`` is the standard normal, or Student's t with the row's ``df`` (the unpaired DeLong
test). Where ``sd = 0`` the difference is known exactly: ``p = 0`` when it lies inside the
margin, ``1`` when outside, the statistic null.

Examples
--------
>>> check(0.05, None)
(0.05, None)
>>> check(None, (-0.1, 0.1))
(None, (-0.1, 0.1))
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from polars_roc._core import validate
from polars_roc._core.columns import EQUIVALENCE, MARGIN
from polars_roc._core.distributions import FloatArray, normal_cdf, student_t_cdf

__all__ = ["check", "with_margin_test"]

Bounds = tuple[float, float]


def check(margin: Any, equivalence: Any) -> tuple[float | None, Bounds | None]:
    """
    Check `margin` (a number in [0, 1)) and `equivalence` (``lo < hi`` in [-1, 1]).

    At most one of them; returns them as floats.
    """
    if margin is not None and equivalence is not None:
        msg = (
            "give margin= (non-inferiority) or equivalence= (two one-sided tests), not both"
            "\n\nHint: equivalence=(-0.02, 0.02) tests both sides."
        )
        raise ValueError(msg)
    if margin is not None:
        if not validate.is_real(margin) or not 0 <= margin < 1:
            msg = (
                f"margin must be a number in [0, 1) (an AUC difference), got {margin!r}"
                f"\n\nHint: margin=0.02 accepts model_b up to 0.02 below model_a."
            )
            raise ValueError(msg)
        return float(margin), None
    if equivalence is not None:
        ok = isinstance(equivalence, list | tuple) and len(equivalence) == 2
        ok = ok and all(validate.is_real(v) and -1 <= v <= 1 for v in equivalence)
        if not ok or not equivalence[0] < equivalence[1]:
            msg = (
                f"equivalence must be a pair (lo, hi) with -1 <= lo < hi <= 1, got "
                f"{equivalence!r}\n\nHint: equivalence=(-0.02, 0.02) bounds auc_b - auc_a."
            )
            raise ValueError(msg)
        return None, (float(equivalence[0]), float(equivalence[1]))
    return None, None


def _upper_tail(z: FloatArray, dof: FloatArray, t_dist: Any) -> FloatArray:
    """``1 - F(z)``: the normal's, or Student's t's where `t_dist`."""
    with np.errstate(invalid="ignore"):
        t_tail = student_t_cdf(-np.where(t_dist, z, 0.0), np.where(t_dist, dof, 1.0))
    return np.where(t_dist, t_tail, normal_cdf(-z))


def _one_sided(
    gain: FloatArray, sd: FloatArray, dof: FloatArray, t_dist: Any
) -> tuple[FloatArray, FloatArray]:
    """Statistic and p-value of ``H0: gain <= 0`` (`gain` the distance inside the margin)."""
    positive = sd > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(positive, gain / np.where(positive, sd, 1.0), np.nan)
    p = _upper_tail(np.nan_to_num(z), dof, t_dist)
    exact = np.where(gain > 0, 0.0, np.where(gain < 0, 1.0, np.nan))
    p = np.where(positive, p, np.where(sd == 0, exact, np.nan))
    p = np.where(np.isnan(gain), np.nan, p)
    return z, p


def with_margin_test(
    lf: pl.LazyFrame, margin: float | None, equivalence: Bounds | None
) -> pl.LazyFrame:
    """
    `lf` (``diff, _sd, df, paired``) with the margin's ``statistic, p_value`` and its columns.

    Adds ``margin`` (non-inferiority) or ``equivalence_lower, equivalence_upper``;
    nothing when both are None.
    """
    if margin is None and equivalence is None:
        return lf

    def compute(s: pl.Series) -> pl.Series:
        gap = -s.struct.field("diff").to_numpy().astype(np.float64)  # auc_b - auc_a
        sd = s.struct.field("_sd").to_numpy().astype(np.float64)
        dof = s.struct.field("df").to_numpy().astype(np.float64)
        t_dist = ~s.struct.field("paired").to_numpy().astype(bool) & np.isfinite(dof)
        t_dist &= np.nan_to_num(dof) > 0
        if equivalence is None:
            assert margin is not None
            z, p = _one_sided(gap + margin, sd, dof, t_dist)
        else:
            lo, hi = equivalence
            z_lo, p_lo = _one_sided(gap - lo, sd, dof, t_dist)
            z_hi, p_hi = _one_sided(hi - gap, sd, dof, t_dist)
            z, p = np.fmin(z_lo, z_hi), np.fmax(p_lo, p_hi)
            z = np.where(np.isnan(z_lo) | np.isnan(z_hi), np.nan, z)
            p = np.where(np.isnan(p_lo) | np.isnan(p_hi), np.nan, p)
        out = pl.DataFrame({"statistic": z, "p_value": p}).fill_nan(None)
        return out.to_struct(s.name)

    dtype = pl.Struct({"statistic": pl.Float64, "p_value": pl.Float64})
    inputs = pl.struct("diff", "_sd", "df", "paired")
    test = inputs.map_batches(compute, return_dtype=dtype, is_elementwise=True).alias("_margin")
    bounds = (
        {MARGIN: pl.lit(margin, pl.Float64)}
        if equivalence is None
        else {
            name: pl.lit(bound, pl.Float64)
            for name, bound in zip(EQUIVALENCE, equivalence, strict=True)
        }
    )
    fields = [pl.col("_margin").struct.field(name) for name in ("statistic", "p_value")]
    return lf.with_columns(test).with_columns(*fields, **bounds).drop("_margin")
