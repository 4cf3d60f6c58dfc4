"""Smoothed ROC curves (binormal, kernel density) and their areas, as pROC's ``smooth``."""

from polars_roc.smoothing.frame import Method, smooth, smooth_auc

__all__ = ["Method", "smooth", "smooth_auc"]
