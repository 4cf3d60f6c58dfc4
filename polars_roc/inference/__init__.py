"""Inference: intervals and tests between models, the bootstrap of any metric, adjustment.

:mod:`~polars_roc.inference.comparison` holds the DeLong intervals and `compare`;
:mod:`~polars_roc.inference._bootstrap_tests` the bootstrap tests it runs with
``method="bootstrap"``; :mod:`~polars_roc.inference.metric_bootstrap` the stratified
bootstrap of any scalar expression; :mod:`~polars_roc.inference.multiple_testing` Holm,
Bonferroni and Benjamini-Hochberg; :mod:`~polars_roc.inference.power` power and sample
size for an AUC; :mod:`~polars_roc.inference.intervals` intervals of the curve's points.
"""

from polars_roc.inference.comparison import compare
from polars_roc.inference.intervals import (
    auc_interval,
    fpr_at_tpr_interval,
    partial_auc_interval,
    tpr_at_fpr_interval,
)
from polars_roc.inference.metric_bootstrap import bootstrap
from polars_roc.inference.power import (
    BinormalPair,
    binormal_alpha,
    binormal_power,
    binormal_sample_size,
    detectable_auc,
    roc_power,
    roc_sample_size,
)

__all__ = [
    "BinormalPair",
    "auc_interval",
    "binormal_alpha",
    "binormal_power",
    "binormal_sample_size",
    "bootstrap",
    "compare",
    "detectable_auc",
    "fpr_at_tpr_interval",
    "partial_auc_interval",
    "roc_power",
    "roc_sample_size",
    "tpr_at_fpr_interval",
]
