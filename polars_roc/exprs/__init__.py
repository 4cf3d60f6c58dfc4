"""Every scalar expression: ``pr.X`` is ``exprs.X`` is ``pl.col(score).roc.X``.

Each is a `pl.Expr` valid in `select`, `group_by().agg()`, `over()`, `group_by_dynamic()`
and the streaming engine, and a metric for :func:`polars_roc.bootstrap`. Modules by what
they hold: :mod:`~polars_roc.exprs.ranking` (AUC and its kin),
:mod:`~polars_roc.exprs.precision` (precision-recall summaries and points),
:mod:`~polars_roc.exprs.depth` (precision, recall and lift at a depth),
:mod:`~polars_roc.exprs.probability` (probability scores), :mod:`~polars_roc.exprs.hard_labels`.
A question's own expressions live in its package (``pr.tpr_at_fpr`` in
:mod:`polars_roc.thresholds.expression`, ``pr.psi`` in :mod:`polars_roc.monitoring.expression`).
"""

from polars_roc.exprs.depth import lift_at_depth, precision_at_depth, recall_at_depth
from polars_roc.exprs.hard_labels import accuracy
from polars_roc.exprs.precision import (
    average_precision,
    pr_auc,
    precision_at_recall,
    recall_at_precision,
)
from polars_roc.exprs.probability import brier_score, expected_calibration_error, log_loss
from polars_roc.exprs.ranking import auc, auc_se, gini, partial_auc

__all__ = [
    "accuracy",
    "auc",
    "auc_se",
    "average_precision",
    "brier_score",
    "expected_calibration_error",
    "gini",
    "lift_at_depth",
    "log_loss",
    "partial_auc",
    "pr_auc",
    "precision_at_depth",
    "precision_at_recall",
    "recall_at_depth",
    "recall_at_precision",
]
