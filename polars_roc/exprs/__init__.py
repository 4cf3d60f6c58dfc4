"""Every scalar expression: ``pr.X`` is ``exprs.X`` is ``pl.col(score).roc.X``.

Each is a `pl.Expr` valid in `select`, `group_by().agg()`, `over()`, `group_by_dynamic()`
and the streaming engine, and a metric for :func:`polars_roc.bootstrap`. Modules by what
they hold: :mod:`~polars_roc.exprs.ranking` (AUC and its kin), :mod:`~polars_roc.exprs.operating`
(points of the curve), :mod:`~polars_roc.exprs.precision` (precision-recall summaries),
:mod:`~polars_roc.exprs.probability` (probability scores), :mod:`~polars_roc.exprs.hard_labels`.
"""

from polars_roc.exprs.decisions import net_benefit
from polars_roc.exprs.hard_labels import accuracy
from polars_roc.exprs.operating import fpr_at_tpr, ks, tpr_at_fpr
from polars_roc.exprs.precision import average_precision, pr_auc
from polars_roc.exprs.probability import brier_score, expected_calibration_error, log_loss
from polars_roc.exprs.ranking import auc, auc_se, gini, partial_auc
from polars_roc.exprs.recalibration import calibration_intercept, calibration_slope
from polars_roc.exprs.stability import estimated_auc, psi

__all__ = [
    "accuracy",
    "auc",
    "auc_se",
    "average_precision",
    "brier_score",
    "calibration_intercept",
    "calibration_slope",
    "estimated_auc",
    "expected_calibration_error",
    "fpr_at_tpr",
    "gini",
    "ks",
    "log_loss",
    "net_benefit",
    "partial_auc",
    "pr_auc",
    "psi",
    "tpr_at_fpr",
]
