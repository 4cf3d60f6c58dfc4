"""The `.roc` namespaces on DataFrame, LazyFrame and Expr: delegation only, no logic.

`LazyFrame.roc.X(...)` calls the plain function ``X(lf, ...)`` and returns its LazyFrame;
`DataFrame.roc.X(...)` runs the same lazy function and collects once. The plain functions
(in :mod:`polars_roc.curves`, :mod:`polars_roc.areas`, ...) are the documented source of truth.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import polars as pl
from polars._typing import IntoExprColumn

from polars_roc import areas, curves, exprs

#: Frame methods: name -> plain function taking a LazyFrame first and returning a LazyFrame.
FRAME_METHODS: dict[str, Callable[..., pl.LazyFrame]] = {
    "counts": curves.counts,
    "curve": curves.curve,
    "auc": areas.auc,
    "partial_auc": areas.partial_auc,
    # threshold analysis (thresholds.py, pr_det.py, metrics.py)
    # inference and cross-validation (inference.py, crossval.py)
    # geometry (hull.py)
}


def _lazy_method(function: Callable[..., pl.LazyFrame]) -> Callable[..., pl.LazyFrame]:
    @functools.wraps(function)
    def method(self: RocLazyFrame, *args: Any, **kwargs: Any) -> pl.LazyFrame:
        return function(self._lf, *args, **kwargs)

    return method


def _eager_method(function: Callable[..., pl.LazyFrame]) -> Callable[..., pl.DataFrame]:
    @functools.wraps(function)
    def method(self: RocFrame, *args: Any, **kwargs: Any) -> pl.DataFrame:
        return function(self._df.lazy(), *args, **kwargs).collect()

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


@pl.api.register_expr_namespace("roc")
class RocExpr:
    """`Expr.roc`: the score column's metrics, e.g. ``pl.col("p").roc.auc("y")``."""

    def __init__(self, expr: pl.Expr) -> None:
        self._expr = expr

    def auc(
        self,
        label: IntoExprColumn,
        *,
        weight: IntoExprColumn | None = None,
        pos_label: Any = None,
    ) -> pl.Expr:
        """See :func:`polars_roc.exprs.auc`."""
        return exprs.auc(self._expr, label, weight=weight, pos_label=pos_label)
