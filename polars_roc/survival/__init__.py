"""Survival outcomes: cumulative/dynamic AUC(t) and ROC(t) curves with censoring weights.

* :mod:`~polars_roc.survival.frame`: :func:`time_auc` and :func:`time_curve`;
* ``_dynamic``: the Kaplan–Meier censoring weights and the per-horizon cases and controls.
"""

from polars_roc.survival.frame import time_auc, time_curve

__all__ = ["time_auc", "time_curve"]
