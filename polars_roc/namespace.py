"""The `.roc` namespaces on DataFrame, LazyFrame and Expr: delegation only, no logic.

`LazyFrame.roc.X(...)` calls the plain function ``X(lf, ...)`` and returns its LazyFrame;
`DataFrame.roc.X(...)` runs the same lazy function and collects once. The plain functions
(in :mod:`polars_roc.curves`, :mod:`polars_roc.areas`, ...) are the documented source of truth.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

import polars as pl

from polars_roc import (
    areas,
    calibration,
    crossval,
    curves,
    decisions,
    exprs,
    gains,
    gates,
    inference,
    metrics,
    monitoring,
    multiclass,
    precision_recall,
    segments,
    slices,
    smoothing,
    survival,
    thresholds,
)
from polars_roc._core.frames import collected
from polars_roc.decisions import expression as decision_exprs
from polars_roc.geometry import crossings, hull, iso
from polars_roc.monitoring import expression as monitoring_exprs
from polars_roc.thresholds import expression as threshold_exprs

__all__ = [
    "EXPR_METHODS",
    "FRAME_METHODS",
    "RocExpr",
    "RocFrame",
    "RocLazyFrame",
    "register",
    "register_expr",
]

_M = TypeVar("_M", bound=Callable[..., Any])

#: Frame methods: name -> plain function taking a LazyFrame first and returning a LazyFrame.
FRAME_METHODS: dict[str, Callable[..., pl.LazyFrame]] = {
    "counts": curves.counts,
    "curve": curves.curve,
    "auc": areas.auc,
    "partial_auc": areas.partial_auc,
    "smooth": smoothing.smooth,
    "smooth_auc": smoothing.smooth_auc,
    # threshold analysis (thresholds.py, pr_det.py, metrics.py)
    "thresholds": thresholds.thresholds,
    "best_threshold": thresholds.best_threshold,
    "tpr_at_fpr": thresholds.tpr_at_fpr,
    "fpr_at_tpr": thresholds.fpr_at_tpr,
    "point": thresholds.point,
    "pr_curve": precision_recall.pr_curve,
    "det_curve": precision_recall.det_curve,
    "average_precision": precision_recall.average_precision,
    "pr_auc": precision_recall.pr_auc,
    "precision_at_recall": precision_recall.precision_at_recall,
    "recall_at_precision": precision_recall.recall_at_precision,
    "confusion_matrix": metrics.confusion_matrix,
    "mean_cost": metrics.mean_cost,
    # inference and cross-validation (inference.py, crossval.py)
    "compare": inference.compare,
    "cv_auc": crossval.cv_auc,
    "average_curve": crossval.average_curve,
    # geometry (hull.py)
    "hull": hull.hull,
    "hull_auc": hull.hull_auc,
    "hull_of_points": hull.hull_of_points,
    "hull_auc_of_points": hull.hull_auc_of_points,
    "dominance": hull.dominance,
    "crossings": crossings.crossings,
    "curve_dominance": crossings.curve_dominance,
    "optimal": iso.optimal,
    "operating_ranges": iso.operating_ranges,
    "hybrid": iso.hybrid,
    "optimal_of_points": iso.optimal_of_points,
    "operating_ranges_of_points": iso.operating_ranges_of_points,
    "hybrid_of_points": iso.hybrid_of_points,
    # uncertainty (metric_bootstrap.py)
    "bootstrap": inference.bootstrap,
    # business views (gains.py)
    "gain_curve": gains.gain_curve,
    "gains_table": gains.gains_table,
    "ks": gains.ks,
    "precision_at_depth": gains.precision_at_depth,
    "recall_at_depth": gains.recall_at_depth,
    "lift_at_depth": gains.lift_at_depth,
    # calibration (calibration.py)
    "calibration": calibration.calibration,
    # multiclass (multiclass/)
    "multiclass_auc": multiclass.multiclass_auc,
    "multiclass_curve": multiclass.multiclass_curve,
    "calibration_fit": calibration.calibration_fit,
    "time_auc": survival.time_auc,
    "time_curve": survival.time_curve,
    "over_time": monitoring.over_time,
    "score_stability": monitoring.score_stability,
    "estimated_auc": monitoring.estimated_auc,
    "rollup": segments.rollup,
    "disparity": segments.disparity,
    "checks": gates.checks,
    "cross_auc": segments.cross_auc,
    "bias_auc": segments.bias_auc,
    "slices": slices.slices,
    "value_curve": decisions.value_curve,
    "decision_curve": decisions.decision_curve,
}


def _lazy_method(function: Callable[..., pl.LazyFrame]) -> Callable[..., pl.LazyFrame]:
    @functools.wraps(function)
    def method(self: RocLazyFrame, *args: Any, **kwargs: Any) -> pl.LazyFrame:
        return function(self._lf, *args, **kwargs)

    return _as_method(method, function, pl.LazyFrame)


def _eager_method(function: Callable[..., pl.LazyFrame]) -> Callable[..., pl.DataFrame]:
    @functools.wraps(function)
    def method(self: RocFrame, *args: Any, **kwargs: Any) -> pl.DataFrame:
        return collected(function(self._df.lazy(), *args, **kwargs), function)

    return _as_method(method, function, pl.DataFrame)


def _as_method(method: _M, function: Callable[..., Any], returns: type) -> _M:
    """The function's signature with `self` for its frame argument and the right return type."""
    signature = inspect.signature(function)
    parameters = list(signature.parameters.values())
    this = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    method.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[this, *parameters[1:]], return_annotation=returns
    )
    method.__annotations__ = {**function.__annotations__, "return": returns}
    del method.__wrapped__  # type: ignore[attr-defined]
    return method


@pl.api.register_lazyframe_namespace("roc")
class RocLazyFrame:
    """`LazyFrame.roc`: every method returns a LazyFrame and never collects."""

    def __init__(self, lf: pl.LazyFrame) -> None:
        self._lf = lf


@pl.api.register_dataframe_namespace("roc")
class RocFrame:
    """`DataFrame.roc`: the eager twin of `LazyFrame.roc` (runs it and collects once)."""

    def __init__(self, df: pl.DataFrame) -> None:
        self._df = df


def register(name: str, function: Callable[..., pl.LazyFrame]) -> None:
    """Expose a LazyFrame -> LazyFrame function as `lf.roc.<name>` and `df.roc.<name>`."""
    FRAME_METHODS[name] = function
    setattr(RocLazyFrame, name, _lazy_method(function))
    setattr(RocFrame, name, _eager_method(function))


for _name, _function in FRAME_METHODS.items():
    register(_name, _function)


#: Expression methods: name -> plain function taking the score expression first.
EXPR_METHODS: dict[str, Callable[..., pl.Expr]] = {
    "auc": exprs.auc,
    "average_precision": exprs.average_precision,
    "brier_score": exprs.brier_score,
    "log_loss": exprs.log_loss,
    "pr_auc": exprs.pr_auc,
    "precision_at_recall": exprs.precision_at_recall,
    "recall_at_precision": exprs.recall_at_precision,
    "precision_at_depth": exprs.precision_at_depth,
    "recall_at_depth": exprs.recall_at_depth,
    "lift_at_depth": exprs.lift_at_depth,
    "gini": exprs.gini,
    "expected_calibration_error": exprs.expected_calibration_error,
    "partial_auc": exprs.partial_auc,
    "ks": threshold_exprs.ks,
    "tpr_at_fpr": threshold_exprs.tpr_at_fpr,
    "fpr_at_tpr": threshold_exprs.fpr_at_tpr,
    "auc_se": exprs.auc_se,
    "calibration_slope": calibration.calibration_slope,
    "calibration_intercept": calibration.calibration_intercept,
    "psi": monitoring_exprs.psi,
    "estimated_auc": monitoring_exprs.estimated_auc,
    "net_benefit": decision_exprs.net_benefit,
}


@pl.api.register_expr_namespace("roc")
class RocExpr:
    """`Expr.roc`: the score column's metrics, e.g. ``pl.col("p").roc.auc("y")``."""

    def __init__(self, expr: pl.Expr) -> None:
        self._expr = expr


def _expr_method(function: Callable[..., pl.Expr]) -> Callable[..., pl.Expr]:
    @functools.wraps(function)
    def method(self: RocExpr, *args: Any, **kwargs: Any) -> pl.Expr:
        return function(self._expr, *args, **kwargs)

    return _as_method(method, function, pl.Expr)


def register_expr(name: str, function: Callable[..., pl.Expr]) -> None:
    """Expose a score-first expression function as `pl.col(score).roc.<name>`."""
    EXPR_METHODS[name] = function
    setattr(RocExpr, name, _expr_method(function))


for _name, _expr_function in EXPR_METHODS.items():
    register_expr(_name, _expr_function)
