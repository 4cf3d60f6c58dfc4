"""
ROC analysis as Polars expressions and frames: exact, lazy, grouped.

Importing the package registers the ``.roc`` namespaces on DataFrame, LazyFrame and Expr.

The folders are the layers, from the top (imports only go down;
``tests/package/test_layers.py`` holds the map): ``cli`` and ``report/``; ``charts/``;
``namespace``; ``inference/``, ``segments/``, ``slices/``, ``monitoring/``, ``gates/`` and
``engines/``; the questions (``thresholds/``, ``calibration/``, ``survival/``,
``decisions/``, ``multiclass/``, ``geometry/``, ``smoothing/`` and the one-module questions
``areas``, ``precision_recall``, ``metrics``, ``gains``, ``crossval``); the public core
(``curves``, ``exprs/``) and the argument types (``typing``); and the private floor
``_core/``.

Examples
--------
>>> import polars as pl
>>> import polars_roc as pr
>>> df = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.1], "label": [1, 0, 1, 0]})
>>> df.roc.auc()["auc"].item()
0.75
>>> df.select(pr.auc("score", "label")).item()
0.75
"""

from polars_roc import (
    areas,
    calibration,
    charts,
    crossval,
    curves,
    datasets,
    decisions,
    engines,
    exprs,
    gains,
    gates,
    geometry,
    inference,
    metrics,
    monitoring,
    multiclass,
    namespace,
    precision_recall,
    report,
    segments,
    slices,
    smoothing,
    survival,
    thresholds,
    typing,
)
from polars_roc._core.schemes import linspace
from polars_roc._core.version import __version__ as __version__
from polars_roc.calibration.expression import calibration_intercept, calibration_slope
from polars_roc.crossval import stratified_folds
from polars_roc.curves import from_counts
from polars_roc.decisions.expression import net_benefit
from polars_roc.engines import auc_table, tally
from polars_roc.exprs import (
    accuracy,
    auc,
    auc_se,
    average_precision,
    brier_score,
    expected_calibration_error,
    gini,
    lift_at_depth,
    log_loss,
    partial_auc,
    pr_auc,
    precision_at_depth,
    precision_at_recall,
    recall_at_depth,
    recall_at_precision,
)
from polars_roc.gates import checks
from polars_roc.geometry.hull import dominance, hull_auc_of_points, hull_of_points
from polars_roc.geometry.iso import hybrid_of_points, operating_ranges_of_points, optimal_of_points
from polars_roc.inference import bootstrap, detectable_auc, roc_power, roc_sample_size
from polars_roc.monitoring.expression import estimated_auc, psi
from polars_roc.multiclass.expression import multiclass_auc
from polars_roc.thresholds.expression import fpr_at_tpr, ks, tpr_at_fpr

# Keep __all__ sorted; each feature module adds its public names here.
__all__ = [
    "accuracy",
    "areas",
    "auc",
    "auc_se",
    "auc_table",
    "average_precision",
    "bootstrap",
    "brier_score",
    "calibration",
    "calibration_intercept",
    "calibration_slope",
    "charts",
    "checks",
    "crossval",
    "curves",
    "datasets",
    "decisions",
    "detectable_auc",
    "dominance",
    "engines",
    "estimated_auc",
    "expected_calibration_error",
    "exprs",
    "fpr_at_tpr",
    "from_counts",
    "gains",
    "gates",
    "geometry",
    "gini",
    "hull_auc_of_points",
    "hull_of_points",
    "hybrid_of_points",
    "inference",
    "ks",
    "lift_at_depth",
    "linspace",
    "log_loss",
    "metrics",
    "monitoring",
    "multiclass",
    "multiclass_auc",
    "namespace",
    "net_benefit",
    "operating_ranges_of_points",
    "optimal_of_points",
    "partial_auc",
    "pr_auc",
    "precision_at_depth",
    "precision_at_recall",
    "precision_recall",
    "psi",
    "recall_at_depth",
    "recall_at_precision",
    "report",
    "roc_power",
    "roc_sample_size",
    "segments",
    "slices",
    "smoothing",
    "stratified_folds",
    "survival",
    "tally",
    "thresholds",
    "tpr_at_fpr",
    "typing",
]
