"""
The smoothed curves of many groups at once, and the areas under them (numpy).

One call gets a table of groups (one row each) and returns, per group, the smoothed curve
as two lists (``fpr``, ``tpr``: pROC's points from (0, 0) to (1, 1)) and the area under it
over the requested range. Binormal curves come from the fitted line ``qnorm(1 - fpr) =
A + B·qnorm(tpr)`` at pROC's grid of ``n`` sensitivities ``0, 1/(n-1), …, 1``; their whole
area is pROC's closed form ``Φ(A / √(1 + B²))``. Density curves come from
:mod:`polars_roc.smoothing._density`. Partial areas are the trapezoids of the points,
clipped to the range, as pROC's ``auc(smooth.roc, partial.auc=)`` integrates them.

Examples
--------
>>> import numpy as np
>>> fpr = np.array([[0.0, 0.5, 1.0]])
>>> tpr = np.array([[0.0, 1.0, 1.0]])
>>> float(clipped_area(fpr, tpr, 0.0, 1.0)[0]), float(clipped_area(fpr, tpr, 0.0, 0.25)[0])
(0.75, 0.0625)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from polars_roc._core.distributions import normal_cdf, normal_quantiles

FloatArray = npt.NDArray[np.float64]

__all__ = ["binormal_area", "binormal_curves", "clipped_area"]


def binormal_curves(a: FloatArray, b: FloatArray, *, n: int) -> tuple[FloatArray, FloatArray]:
    """
    The binormal curves ``(fpr, tpr)`` of pROC, (groups, n + 2) each, in its point order.

    pROC's order: specificity ascending (its grid reversed when the fitted line falls),
    with its anchors (specificity 0, sensitivity 1) first and (1, 0) last; here read
    backwards, so a curve above the diagonal runs from (0, 0) to (1, 1).
    """
    grid = np.arange(n, dtype=np.float64) * (1 / (n - 1))
    inner = normal_quantiles(grid[1:-1])
    q = np.concatenate([[-np.inf], inner, [np.inf]])
    se = normal_cdf(q)
    with np.errstate(invalid="ignore"):
        sp = normal_cdf(a[:, None] + b[:, None] * q[None, :])
    falling = (b < 0)[:, None]
    sp = np.where(falling, sp[:, ::-1], sp)
    se = np.where(falling, se[None, ::-1], se[None, :])
    ones, zeros = np.ones((len(a), 1)), np.zeros((len(a), 1))
    sp = np.hstack([zeros, sp, ones])
    se = np.hstack([ones, se, zeros])
    return 1 - sp[:, ::-1], se[:, ::-1]


def binormal_area(a: FloatArray, b: FloatArray) -> FloatArray:
    """The area under a binormal curve, as pROC: ``Φ(A / √(1 + B²))``."""
    return normal_cdf(a / np.sqrt(1 + b * b))


def clipped_area(x: FloatArray, y: FloatArray, lo: float, hi: float) -> FloatArray:
    """Per row, the area under the polyline (x, y) between ``x = lo`` and ``x = hi``."""
    x0, x1, y0, y1 = x[:, :-1], x[:, 1:], y[:, :-1], y[:, 1:]
    start, end = np.clip(x0, lo, hi), np.clip(x1, lo, hi)
    with np.errstate(invalid="ignore", divide="ignore"):
        slope = (y1 - y0) / (x1 - x0)
        at_start, at_end = y0 + slope * (start - x0), y0 + slope * (end - x0)
        parts = np.where(end > start, (end - start) * (at_start + at_end) / 2, 0.0)
    return np.asarray(parts.sum(axis=1))
