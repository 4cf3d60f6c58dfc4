"""Probability bins as scikit-learn's ``calibration_curve`` cuts them: edges, checks, lerp.

Shared by the calibration table (:mod:`polars_roc.calibration`) and the expected
calibration error expression (:mod:`polars_roc.exprs.probability`).
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import polars as pl

Strategy = Literal["uniform", "quantile"]


def check_arguments(bins: Any, strategy: Any) -> None:
    if not isinstance(bins, int) or isinstance(bins, bool) or bins < 1:
        msg = f"bins must be an int >= 1, got {bins!r}\n\nHint: bins=10."
        raise ValueError(msg)
    if strategy not in ("uniform", "quantile"):
        msg = (
            f"strategy must be 'uniform' or 'quantile', got {strategy!r}"
            f"\n\nHint: strategy='uniform' (equal widths) or 'quantile' (equal counts)."
        )
        raise ValueError(msg)


def uniform_edges(bins: int) -> list[float]:
    """The inner bin edges of ``strategy="uniform"``, as scikit-learn computes them."""
    return [float(e) for e in np.linspace(0.0, 1.0, bins + 1)[1:-1]]


def quantile_levels(bins: int) -> list[float]:
    """The quantile levels of the inner edges of ``strategy="quantile"``, as numpy sees them."""
    # scikit-learn passes percentiles (levels * 100) and numpy divides them by 100 again.
    levels = np.true_divide(np.linspace(0.0, 1.0, bins + 1) * 100, 100)
    return [float(q) for q in levels[1:-1]]


def lerp(a: pl.Expr, b: pl.Expr, t: pl.Expr) -> pl.Expr:
    """Linear interpolation as numpy does it: from `a` below t = 0.5, from `b` above."""
    diff = b - a
    # Sums spelled out, so Polars does not fuse them into multiply-adds (its fused kernel
    # panics on an empty frame's Null-typed columns); b + -x is exactly b - x.
    above = pl.sum_horizontal(b, -(diff * (1 - t)), ignore_nulls=False)
    below = pl.sum_horizontal(a, diff * t, ignore_nulls=False)
    return pl.when(t >= 0.5).then(above).otherwise(below)


def checked(score: pl.Expr, name: str | None = None) -> pl.Expr:
    """Refuse scores outside [0, 1] when the query runs (NaN passes: its group is null)."""

    def check(values: pl.Series) -> pl.Series:
        numbers = values.cast(pl.Float64)  # decimals and integers too
        bad = numbers.filter(numbers.is_not_nan() & ((numbers < 0) | (numbers > 1)))
        if bad.len() > 0:
            msg = (
                f"calibration needs probabilities in [0, 1]; score column "
                f"{name or values.name!r} holds {bad.unique().sort().head(5).to_list()}"
                f"\n\nHint: pass predicted probabilities (e.g. predict_proba output), not "
                f"raw scores or logits."
            )
            raise ValueError(msg)
        return numbers

    return score.map_batches(check, return_dtype=pl.Float64, is_elementwise=True)
