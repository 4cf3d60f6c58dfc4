"""Inference: intervals and tests between models, the bootstrap of any metric, adjustment.

:mod:`~polars_roc.inference.comparison` holds the DeLong intervals and `compare`;
:mod:`~polars_roc.inference._bootstrap_tests` the bootstrap tests it runs with
``method="bootstrap"``; :mod:`~polars_roc.inference._metric_bootstrap` the stratified
bootstrap of any scalar expression; :mod:`~polars_roc.inference._multiple_testing` Holm,
Bonferroni and Benjamini-Hochberg.
"""

from polars_roc._core.distributions import (
    normal_cdf,
    normal_quantile,
    student_t_cdf,
    student_t_quantile,
)
from polars_roc.inference._metric_bootstrap import bootstrap
from polars_roc.inference.comparison import compare
from polars_roc.inference.intervals import (
    auc_interval,
    fpr_at_tpr_interval,
    partial_auc_interval,
    tpr_at_fpr_interval,
)

__all__ = [
    "auc_interval",
    "bootstrap",
    "compare",
    "fpr_at_tpr_interval",
    "normal_cdf",
    "normal_quantile",
    "partial_auc_interval",
    "student_t_cdf",
    "student_t_quantile",
    "tpr_at_fpr_interval",
]
