"""
Logistic recalibration of probabilities, for many groups at once (numpy, no per-group loop).

For probabilities ``p`` and outcomes ``y`` the recalibration model is
``logit P(y = 1) = a + b · logit(p)``. Two fits per group, by Newton's method on the
log-likelihood (each step a few `np.bincount` over all groups' rows):

* the **slope** ``b`` with a free intercept ``c`` (1 means the spread of the scores is
  right, below 1 that they are too extreme); ``c`` is the *free intercept*, the intercept
  rms' ``val.prob`` reports;
* the **intercept** ``a`` with the slope fixed at 1, ``logit(p)`` an offset: calibration in
  the large (0 means the scores are right on average).

Each Newton step is safeguarded, as R's ``glm.fit`` halves a step that raises the deviance:
a step that does not raise a group's log-likelihood is halved (up to :data:`_HALVINGS`
times) for that group alone. The log-likelihood is concave, so from any start the fit
converges wherever the estimate exists; it does not exist (the fit is NaN, which callers
turn into null) only where

* a class is missing (both fits), or a probability is NaN;
* the classes are separated on ``logit(p)`` (every positive at or above every negative, or
  the reverse): the slope is infinite (:attr:`Fit.separated`);
* every ``logit(p)`` of the group is equal: the slope is not identified.

Wald intervals from the observed information (the inverse Hessian), as statsmodels'
``GLM(family=Binomial())`` reports them; weights are frequency weights. Probabilities of
exactly 0 or 1 are clipped to ``[eps, 1 - eps]`` (eps the float64 machine epsilon,
2.2e-16), as scikit-learn's ``log_loss``: ``logit(p)`` then stays within ±36.04.
"""

from __future__ import annotations

from statistics import NormalDist
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

EPS = float(np.finfo(np.float64).eps)
_STEPS = 100
_HALVINGS = 50
_TOL = 1e-10
_REACH = 10.0


class Fit(NamedTuple):
    """Per group: both fits and their standard errors (NaN where the estimate does not exist)."""

    intercept: FloatArray
    intercept_se: FloatArray
    slope: FloatArray
    slope_se: FloatArray
    intercept_free: FloatArray
    intercept_free_se: FloatArray
    separated: BoolArray


class _Groups(NamedTuple):
    """
    The rows of every group: group index, logit(p), outcome, weight, number of groups.

    `unit` says every weight is 1: :meth:`weighed` then skips the multiplication (``1.0 *
    v`` is `v`, bit for bit).
    """

    group: IntArray
    x: FloatArray
    y: FloatArray
    w: FloatArray
    n: int
    unit: bool = False

    def total(self, values: FloatArray) -> FloatArray:
        return np.bincount(self.group, weights=values, minlength=self.n).astype(np.float64)

    def weighed(self, values: FloatArray) -> FloatArray:
        return values if self.unit else np.asarray(self.w * values, dtype=np.float64)

    def subset(self, rows: BoolArray) -> _Groups:
        return _Groups(
            self.group[rows], self.x[rows], self.y[rows], self.w[rows], self.n, self.unit
        )


def _softplus(eta: FloatArray) -> FloatArray:
    """
    ``log(1 + exp(eta))``, as ``np.logaddexp(0, eta)`` (to an ulp) at a quarter of its cost.

    ``max(eta, 0) + log1p(exp(-|eta|))``: no overflow, full precision in both tails; worked
    in one buffer (each fresh array of 10M rows costs as much as the arithmetic on it).
    """
    out = np.abs(eta)
    np.negative(out, out=out)
    np.exp(out, out=out)
    np.log1p(out, out=out)
    out += np.maximum(eta, 0.0)
    return out


def logit(p: FloatArray) -> FloatArray:
    """``log(p / (1 - p))`` of `p` clipped to ``[eps, 1 - eps]``."""
    q = np.clip(p, EPS, 1 - EPS)
    return np.asarray(np.log(q) - np.log1p(-q), dtype=np.float64)


def _sigmoid(eta: FloatArray, *, negated: bool = False) -> FloatArray:
    """
    ``1 / (1 + exp(-eta))`` (of ``-eta`` when `negated`), to full relative precision where tiny.

    Worked in one buffer: the same bits as the plain expression, no temporaries.
    """
    out = np.exp(eta) if negated else np.exp(np.negative(eta))
    out += 1.0
    np.divide(1.0, out, out=out)
    return out


def _newton(
    data: _Groups, start: FloatArray, live: BoolArray
) -> tuple[FloatArray, FloatArray, BoolArray]:
    """
    Maximise each live group's log-likelihood over its ``k`` parameters (k = 1 or 2).

    The linear predictor is ``beta_0 + x`` (k = 1: ``x`` an offset) or ``beta_0 + beta_1 x``
    (k = 2), from the ``(n, k)`` parameters `start`. Each step works on the rows of the
    groups still iterating only. Returns the estimates, the ``(n, k, k)`` information at
    them, and which groups converged.
    """
    k = start.shape[1]

    def eta_of(beta: FloatArray, rows: _Groups) -> FloatArray:
        # Each parameter gathered from its own contiguous column: half the cost of beta[g, 0].
        intercept = np.ascontiguousarray(beta[:, 0])[rows.group]
        if k == 1:  # the offset enters with slope 1 (1.0 * x is x)
            return np.asarray(intercept + rows.x, dtype=np.float64)
        slope = np.ascontiguousarray(beta[:, 1])[rows.group]
        return np.asarray(intercept + slope * rows.x, dtype=np.float64)

    def loglik(eta: FloatArray, rows: _Groups) -> FloatArray:
        return rows.total(rows.weighed(rows.y * eta - _softplus(eta)))

    def information(eta: FloatArray, rows: _Groups) -> tuple[FloatArray, FloatArray]:
        x, y, total = rows.x, rows.y, rows.total
        mu, rest = _sigmoid(eta), _sigmoid(eta, negated=True)  # rest: 1 - mu, no cancellation
        v, r = rows.weighed(mu) * rest, rows.weighed(y * rest - (1 - y) * mu)
        if k == 1:
            return total(r)[:, None], total(v)[:, None, None]
        vx = v * x
        h01 = total(vx)
        info = np.stack([np.stack([total(v), h01], -1), np.stack([h01, total(vx * x)], -1)], -1)
        return np.stack([total(r), total(r * x)], -1), info

    beta = start.copy()
    done = ~live
    rows = data
    eta = eta_of(beta, rows)
    ll = loglik(eta, rows)
    for _ in range(_STEPS):
        active = ~done[rows.group]
        if active.size and active.mean() < 0.5:  # leave the converged groups' rows behind
            rows = rows.subset(active)
            eta = eta[active]
        grad, info = information(eta, rows)
        if k == 1:
            step = grad / info[:, :, 0]
        else:
            (h00, h01), h11 = info[:, 0].T, info[:, 1, 1]
            det = h00 * h11 - h01 * h01
            step = np.stack(
                [h11 * grad[:, 0] - h01 * grad[:, 1], h00 * grad[:, 1] - h01 * grad[:, 0]], -1
            )
            step /= det[:, None]
        step[done] = 0.0
        small = np.all(np.abs(step) < _TOL * (1 + np.abs(beta)), axis=1)
        # The Newton decrement: what the full step would gain, here below the rounding of
        # the log-likelihood itself (scores of exactly 0 or 1 put rows at logit ±36).
        small |= np.sum(grad * step, axis=1) <= 4 * EPS * (1 + np.abs(ll))
        # A first step from far away (a score of 0 or 1 at logit ±36) can be astronomically
        # long: no parameter moves more than _REACH times its size at once.
        reach = np.max(np.abs(step) / (_REACH * (1 + np.abs(beta))), axis=1)
        size = 1 / np.maximum(reach, 1.0)
        for _ in range(_HALVINGS):  # halve the step of a group whose likelihood it lowers
            trial = beta + size[:, None] * step
            trial_eta = eta_of(trial, rows)
            trial_ll = loglik(trial_eta, rows)
            worse = ~done & ~small & ~(trial_ll >= ll - 1e-12 * np.abs(ll))
            if not worse.any():
                break
            size = np.where(worse, size / 2, size)
        stuck = worse  # no step length gains: the optimum, to the rounding of the likelihood
        keep = done | stuck
        beta = np.where(keep[:, None], beta, trial)
        ll = np.where(keep, ll, trial_ll)
        # Unless a group is stuck, the trial is the new beta (a done group's step is 0).
        eta = eta_of(beta, rows) if stuck.any() else trial_eta
        done |= small | stuck
        if done.all():
            break
    return beta, information(eta_of(beta, data), data)[1], done & live


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
    with np.errstate(all="ignore"):  # NaN groups are left out of the fit and reported NaN
        data = _Groups(group, logit(p), y, w, n, unit=bool(np.all(w == 1)))
        return _Fit.of(data).both()


class _Fit:
    """The groups' validity (classes, NaN, separation) and the two fits on top of it."""

    def __init__(
        self, data: _Groups, both: BoolArray, overlap: BoolArray, spread: BoolArray
    ) -> None:
        self.data, self.both_classes, self.overlap = data, both, overlap
        #: Both classes, no overlap on logit(p), and not every logit(p) equal.
        self.separated = both & ~overlap & spread

    @classmethod
    def of(cls, data: _Groups) -> _Fit:
        x, y, w, n = data.x, data.y, data.w, data.n
        nan = data.total(np.isnan(x).astype(np.float64)) > 0
        kept = w > 0
        positive, negative = kept & (y > 0), kept & (y <= 0)
        both = (data.total(w * y) > 0) & (data.total(w * (1 - y)) > 0) & ~nan

        # Each counted row's slot: 2·group + 1 for a positive, 2·group for a negative (the
        # rest in a last, unread slot); the classes' extremes per group, in two passes.
        slot = np.where(positive, 2 * data.group + 1, np.where(negative, 2 * data.group, 2 * n))
        lo, hi = np.full(2 * n + 1, np.inf), np.full(2 * n + 1, -np.inf)
        np.minimum.at(lo, slot, x)
        np.maximum.at(hi, slot, x)
        neg_lo, pos_lo, neg_hi, pos_hi = lo[0:-1:2], lo[1::2], hi[0:-1:2], hi[1::2]
        overlap = both & (pos_lo < neg_hi) & (neg_lo < pos_hi)
        spread = np.minimum(pos_lo, neg_lo) < np.maximum(pos_hi, neg_hi)
        return cls(data, both, overlap, spread)

    def intercept(self) -> tuple[FloatArray, FloatArray]:
        """Calibration in the large: ``a`` with the offset logit(p); its standard error."""
        data = self.data
        a, info, ok = _newton(data, np.zeros((data.n, 1)), self.both_classes)
        se = 1 / np.sqrt(info[:, 0, 0])
        bad = ~ok | ~np.isfinite(a[:, 0]) | ~(info[:, 0, 0] > 0)
        return np.where(bad, np.nan, a[:, 0]), np.where(bad, np.nan, se)

    def slope(self) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
        """Free intercept ``c`` and slope ``b``, from (0, 1); their standard errors."""
        data = self.data
        start = np.column_stack([np.zeros(data.n), np.ones(data.n)])
        cb, info, ok = _newton(data, start, self.overlap)
        det = info[:, 0, 0] * info[:, 1, 1] - info[:, 0, 1] ** 2
        c_se, b_se = np.sqrt(info[:, 1, 1] / det), np.sqrt(info[:, 0, 0] / det)
        bad = ~ok | ~np.isfinite(cb).all(axis=1) | ~(det > 0)
        c, b = (np.where(bad, np.nan, v) for v in (cb[:, 0], cb[:, 1]))
        return c, b, np.where(bad, np.nan, c_se), np.where(bad, np.nan, b_se)

    def both(self) -> Fit:
        a, a_se = self.intercept()
        c, b, c_se, b_se = self.slope()
        return Fit(a, a_se, b, b_se, c, c_se, self.separated)


def one_fit(
    group: IntArray, p: FloatArray, y: FloatArray, w: FloatArray, n: int, which: str
) -> FloatArray:
    """Only ``"slope"`` or ``"intercept"`` (in the large) per group, for the expressions."""
    with np.errstate(all="ignore"):
        fit = _Fit.of(_Groups(group, logit(p), y, w, n, unit=bool(np.all(w == 1))))
        return fit.intercept()[0] if which == "intercept" else fit.slope()[1]


def check_probabilities(p: FloatArray, name: str) -> None:
    """An error naming the score column `name` when a value lies outside [0, 1]."""
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


def summary(
    group: IntArray, p: FloatArray, y: FloatArray, w: FloatArray, n: int, *, level: float, name: str
) -> dict[str, FloatArray]:
    """
    The ``calibration_fit`` columns per group: fits, Wald bounds, ``citl``, class sizes.

    ``citl`` is the (weighted) mean outcome minus the mean probability: the crude
    calibration in the large on the probability scale. Probabilities outside [0, 1] are an
    error naming the score column `name`; a NaN probability makes its group's numbers NaN
    (and ``separated`` NaN).
    """
    check_probabilities(p, name)
    fit = recalibrate(group, p, y, w, n)
    z = float(NormalDist().inv_cdf((1 + level) / 2))
    weight = np.bincount(group, weights=w, minlength=n).astype(np.float64)
    positives = np.bincount(group, weights=w * y, minlength=n).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        citl = (positives - np.bincount(group, weights=w * p, minlength=n)) / weight
    nan = np.isnan(np.bincount(group, weights=p, minlength=n))
    return {
        "intercept": fit.intercept,
        "intercept_lower": fit.intercept - z * fit.intercept_se,
        "intercept_upper": fit.intercept + z * fit.intercept_se,
        "slope": fit.slope,
        "slope_lower": fit.slope - z * fit.slope_se,
        "slope_upper": fit.slope + z * fit.slope_se,
        "intercept_free": fit.intercept_free,
        "intercept_free_lower": fit.intercept_free - z * fit.intercept_free_se,
        "intercept_free_upper": fit.intercept_free + z * fit.intercept_free_se,
        "citl": citl,
        "separated": np.where(nan, np.nan, fit.separated.astype(np.float64)),
        "n_pos": positives,
        "n_neg": weight - positives,
    }
