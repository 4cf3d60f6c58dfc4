"""Calibration of probability scores: reliability curves, the logistic recalibration fit.

* :mod:`~polars_roc.calibration.frame`: :func:`calibration` (scikit-learn's
  ``calibration_curve`` per group) and :func:`calibration_fit` (slope and intercept);
* :mod:`~polars_roc.calibration.expression`: :func:`calibration_slope` and
  :func:`calibration_intercept` as expressions;
* ``_logistic``: the logistic fit on logit(p) both share.
"""

from polars_roc.calibration.expression import calibration_intercept, calibration_slope
from polars_roc.calibration.frame import Strategy, calibration, calibration_fit

__all__ = [
    "Strategy",
    "calibration",
    "calibration_fit",
    "calibration_intercept",
    "calibration_slope",
]
