"""
ROC analysis as Polars expressions and frames: exact, lazy, grouped.

Importing the package registers the ``.roc`` namespaces on DataFrame, LazyFrame and Expr.

The folders are the layers, from the top (imports only go down; ``tests/test_layers.py``
holds the map): ``cli`` and ``report/``; ``charts/``; ``namespace``; ``inference/`` and
``engines/``; the analyses (``areas``, ``operating``, ``thresholds``, ``precision_recall``,
``metrics``, ``gains``, ``calibration``, ``crossval``, ``multiclass/``, ``geometry/``); the
public core (``curves``, ``exprs/``) and the argument types (``typing``); and the private
floor ``_core/``.

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
    geometry,
    inference,
    metrics,
    multiclass,
    namespace,
    operating,
    precision_recall,
    report,
    thresholds,
    typing,
)
from polars_roc._core.schemes import linspace
from polars_roc._core.version import __version__ as __version__
from polars_roc.calibration import expected_calibration_error
from polars_roc.crossval import stratified_folds
from polars_roc.curves import from_counts
from polars_roc.engines import auc_table, tally
from polars_roc.exprs import auc, net_benefit  # net_benefit: value and decisions (issue 32)
from polars_roc.gains import gini
from polars_roc.geometry import crossings, hull, iso
from polars_roc.geometry.hull import dominance, hull_auc_of_points, hull_of_points
from polars_roc.geometry.iso import hybrid_of_points, operating_ranges_of_points, optimal_of_points
from polars_roc.inference import bootstrap
from polars_roc.metrics import accuracy, brier_score, log_loss
from polars_roc.multiclass import multiclass_auc
from polars_roc.precision_recall import average_precision, pr_auc

# Keep __all__ sorted; each feature module adds its public names here.
__all__ = [
    "accuracy",
    "areas",
    "auc",
    "auc_table",
    "average_precision",
    "bootstrap",
    "brier_score",
    "calibration",
    "charts",
    "crossings",
    "crossval",
    "curves",
    "datasets",
    "decisions",
    "dominance",
    "engines",
    "expected_calibration_error",
    "exprs",
    "from_counts",
    "gains",
    "geometry",
    "gini",
    "hull",
    "hull_auc_of_points",
    "hull_of_points",
    "hybrid_of_points",
    "inference",
    "iso",
    "linspace",
    "log_loss",
    "metrics",
    "multiclass",
    "multiclass_auc",
    "namespace",
    "net_benefit",
    "operating",
    "operating_ranges_of_points",
    "optimal_of_points",
    "pr_auc",
    "precision_recall",
    "report",
    "stratified_folds",
    "tally",
    "thresholds",
    "typing",
]
