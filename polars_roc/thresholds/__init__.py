"""Thresholds: measures at chosen thresholds, cutpoints and operating points.

* :mod:`~polars_roc.thresholds.frame`: :func:`thresholds`, :func:`best_threshold` and
  :func:`point`;
* :mod:`~polars_roc.thresholds.operating`: :func:`tpr_at_fpr` and :func:`fpr_at_tpr` as
  frame functions;
* :mod:`~polars_roc.thresholds.expression`: :func:`ks`, ``tpr_at_fpr`` and ``fpr_at_tpr``
  as expressions (``pr.tpr_at_fpr``).
"""

from polars_roc.thresholds.frame import best_threshold, measures, point, thresholds
from polars_roc.thresholds.operating import fpr_at_tpr, tpr_at_fpr

__all__ = ["best_threshold", "fpr_at_tpr", "measures", "point", "thresholds", "tpr_at_fpr"]
