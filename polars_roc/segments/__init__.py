"""Segments: whether the headline AUC is real ranking, and where the model ranks worse.

* :mod:`~polars_roc.segments.frame`: :func:`rollup` (pooled vs within-segment AUC and a
  meta-analysis of the segment AUCs), :func:`cross_auc` and :func:`bias_auc`;
* :mod:`~polars_roc.segments.disparity`: :func:`disparity`, each segment against the rest
  of the rows (unpaired DeLong for the AUC, the stratified bootstrap for any metric);
* ``_segment``: the kernel of the ``segment=`` argument shared by both.
"""

from polars_roc.segments.disparity import disparity
from polars_roc.segments.frame import ROLLUP_COLUMNS, bias_auc, cross_auc, rollup

__all__ = ["ROLLUP_COLUMNS", "bias_auc", "cross_auc", "disparity", "rollup"]
