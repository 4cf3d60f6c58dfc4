"""
Logistic recalibration of probabilities, for many groups at once (numpy, no per-group loop).

For probabilities ``p`` and outcomes ``y`` the recalibration model is
``logit P(y = 1) = a + b · logit(p)``. Two fits per group, by Newton's method on the
log-likelihood (each step one `np.bincount` over all groups' rows):

* the **slope** ``b`` with a free intercept (1 means the spread of the scores is right,
  below 1 that they are too extreme);
* the **intercept** ``a`` with the slope fixed at 1, ``logit(p)`` an offset: calibration in
  the large (0 means the scores are right on average).

Wald intervals from the observed information (the inverse Hessian), as statsmodels'
``GLM(family=Binomial())`` reports them; weights are frequency weights. Probabilities of
exactly 0 or 1 are clipped to ``[eps, 1 - eps]`` (eps the float64 machine epsilon,
2.2e-16), as scikit-learn's ``log_loss``: ``logit(p)`` then stays within ±36.04. A group
whose fit does not converge (perfect separation, a single class) gets NaN, which callers
turn into null.
"""

from __future__ import annotations

from statistics import NormalDist
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

EPS = float(np.finfo(np.float64).eps)
_STEPS = 100
_TOL = 1e-10


class Fit(NamedTuple):
    """Per group: intercept (slope fixed at 1), slope (free intercept), their standard errors."""

    intercept: FloatArray
    intercept_se: FloatArray
    slope: FloatArray
    slope_se: FloatArray


def logit(p: FloatArray) -> FloatArray:
    """``log(p / (1 - p))`` of `p` clipped to ``[eps, 1 - eps]``."""
    q = np.clip(p, EPS, 1 - EPS)
    return np.asarray(np.log(q) - np.log1p(-q), dtype=np.float64)


def _sigmoid(eta: FloatArray) -> FloatArray:
    return np.asarray(0.5 * (1 + np.tanh(eta / 2)), dtype=np.float64)


def recalibrate(group: IntArray, p: FloatArray, y: FloatArray, w: FloatArray, n: int) -> Fit:
    """
    Both recalibration fits for groups ``0 .. n - 1`` (`group` the row's group).

    Examples
    --------
    >>> import numpy as np
    >>> from polars_roc.calibration._logistic import recalibrate
    >>> p = np.array([0.1, 0.3, 0.6, 0.8, 0.2, 0.7])
    >>> y = np.array([0.0, 1.0, 0.0, 1.0, 0.0, 1.0])
    >>> fit = recalibrate(np.zeros(6, dtype=np.int64), p, y, np.ones(6), 1)
    >>> round(float(fit.slope[0]), 4), round(float(fit.intercept[0]), 4)
    (1.1866, 0.28)
    """
    with np.errstate(all="ignore"):  # a diverging group turns NaN and is reported as such
        return _recalibrate(group, logit(p), y, w, n)


def _recalibrate(group: IntArray, x: FloatArray, y: FloatArray, w: FloatArray, n: int) -> Fit:
    def total(values: FloatArray) -> FloatArray:
        return np.bincount(group, weights=values, minlength=n).astype(np.float64)

    # Calibration in the large: a with the offset x.
    a = np.zeros(n)
    done = np.zeros(n, dtype=bool)
    info = np.zeros(n)
    for _ in range(_STEPS):
        mu = _sigmoid(a[group] + x)
        info = total(w * mu * (1 - mu))
        with np.errstate(divide="ignore", invalid="ignore"):
            step = total(w * (y - mu)) / info
        step = np.where(done, 0.0, step)
        a = a + step
        done |= np.abs(step) < _TOL * (1 + np.abs(a))
        if done.all():
            break
    mu = _sigmoid(a[group] + x)  # the information at the estimate itself
    info = total(w * mu * (1 - mu))
    with np.errstate(divide="ignore", invalid="ignore"):
        a_se = 1 / np.sqrt(info)
    bad = ~done | ~np.isfinite(a) | ~(info > 0)
    intercept, intercept_se = np.where(bad, np.nan, a), np.where(bad, np.nan, a_se)

    # The slope: a free intercept c and the slope b, from (0, 1).
    c, b = np.zeros(n), np.ones(n)
    done = np.zeros(n, dtype=bool)
    for _ in range(_STEPS):
        mu = _sigmoid(c[group] + b[group] * x)
        v = w * mu * (1 - mu)
        h00, h01, h11 = total(v), total(v * x), total(v * x * x)
        r = w * (y - mu)
        g0, g1 = total(r), total(r * x)
        det = h00 * h11 - h01 * h01
        with np.errstate(divide="ignore", invalid="ignore"):
            dc = (h11 * g0 - h01 * g1) / det
            db = (h00 * g1 - h01 * g0) / det
        dc, db = np.where(done, 0.0, dc), np.where(done, 0.0, db)
        c, b = c + dc, b + db
        done |= (np.abs(dc) < _TOL * (1 + np.abs(c))) & (np.abs(db) < _TOL * (1 + np.abs(b)))
        if done.all():
            break
    mu = _sigmoid(c[group] + b[group] * x)
    v = w * mu * (1 - mu)
    h00, h01, h11 = total(v), total(v * x), total(v * x * x)
    det = h00 * h11 - h01 * h01
    with np.errstate(divide="ignore", invalid="ignore"):
        b_se = np.sqrt(h00 / det)
    bad = ~done | ~np.isfinite(b) | ~(det > 0)
    return Fit(intercept, intercept_se, np.where(bad, np.nan, b), np.where(bad, np.nan, b_se))


def summary(
    group: IntArray, p: FloatArray, y: FloatArray, w: FloatArray, n: int, *, level: float, name: str
) -> dict[str, FloatArray]:
    """
    The ``calibration_fit`` columns per group: fits, Wald bounds, ``citl``, class sizes.

    ``citl`` is the (weighted) mean outcome minus the mean probability: the crude
    calibration in the large on the probability scale. Probabilities outside [0, 1] are an
    error naming the score column `name`; a NaN probability makes its group's numbers NaN.
    """
    with np.errstate(invalid="ignore"):
        outside = (p < 0) | (p > 1)
    if outside.any():
        bad = p[outside][:3].tolist()
        msg = (
            f"score column {name!r} holds values outside [0, 1], e.g. {bad}: a calibration "
            "fit needs probabilities\n\nHint: pass calibrated probabilities (not ranks or "
            "log-odds), or rescale the score first."
        )
        raise ValueError(msg)
    fit = recalibrate(group, p, y, w, n)
    z = float(NormalDist().inv_cdf((1 + level) / 2))
    weight = np.bincount(group, weights=w, minlength=n).astype(np.float64)
    positives = np.bincount(group, weights=w * y, minlength=n).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        citl = (positives - np.bincount(group, weights=w * p, minlength=n)) / weight
    return {
        "intercept": fit.intercept,
        "intercept_lower": fit.intercept - z * fit.intercept_se,
        "intercept_upper": fit.intercept + z * fit.intercept_se,
        "slope": fit.slope,
        "slope_lower": fit.slope - z * fit.slope_se,
        "slope_upper": fit.slope + z * fit.slope_se,
        "citl": citl,
        "n_pos": positives,
        "n_neg": weight - positives,
    }
