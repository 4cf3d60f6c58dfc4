"""Monitoring: time windows, metrics over time with alerts, score stability, estimated AUC.

* :mod:`~polars_roc.monitoring.frame`: :func:`windows`, :func:`score_stability` (PSI and
  two-sample KS per window), :func:`estimated_auc` and the reference band;
* :mod:`~polars_roc.monitoring.over_time`: :func:`over_time`, any metric per window with
  its interval, a reference band and alerts;
* :mod:`~polars_roc.monitoring.expression`: :func:`psi` and :func:`estimated_auc` as
  expressions (``pr.psi``, ``pr.estimated_auc``);
* ``_drift``: the PSI kernel (bins cut at the reference's quantiles).
"""

from polars_roc.monitoring.frame import (
    STABILITY_COLUMNS,
    estimated_auc,
    reference_band,
    reference_rows,
    score_stability,
    windows,
)
from polars_roc.monitoring.over_time import OVER_TIME_COLUMNS, over_time

__all__ = [
    "OVER_TIME_COLUMNS",
    "STABILITY_COLUMNS",
    "estimated_auc",
    "over_time",
    "reference_band",
    "reference_rows",
    "score_stability",
    "windows",
]
