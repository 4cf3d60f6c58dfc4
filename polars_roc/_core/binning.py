"""Probability bins as scikit-learn's ``calibration_curve`` cuts them: edges, checks, lerp.

Shared by the calibration table (:mod:`polars_roc.calibration`) and the expected
calibration error expression (:mod:`polars_roc.exprs.probability`).
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import polars as pl

from polars_roc._core import validate

Strategy = Literal["uniform", "quantile"]


def check_arguments(bins: Any, strategy: Any) -> None:
    """Check the number of bins and the binning strategy."""
    validate.whole(bins, "bins", hint="bins=10")
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


def repeats(w: pl.Expr) -> pl.Expr:
    """
    The weights as repeat counts for the quantile edges: a constant weight is one row each.

    numpy's edges read positions ``(n - 1) * q``, so a frequency weight k must count as k
    rows; but a constant weight (0.5, or 3 on every row) must change nothing. Both hold
    when weights count in units of the group's smallest: when every weight is a whole
    multiple of it (to 1e-9), the multiples (rounded) are the counts; otherwise the weights
    are the counts as given. Integer weights with a 1 among them are repeats as before.

    Examples
    --------
    >>> import polars as pl
    >>> from polars_roc._core.binning import repeats
    >>> pl.select(repeats(pl.lit(pl.Series([0.1, 0.1, 0.3])))).to_series().to_list()
    [1.0, 1.0, 3.0]
    >>> pl.select(repeats(pl.lit(pl.Series([2.0, 3.0])))).to_series().to_list()
    [2.0, 3.0]
    """
    ratio = w / w.min()
    whole = ((ratio - ratio.round()).abs() <= 1e-9 * ratio).all()
    return pl.when(whole).then(ratio.round()).otherwise(w)
