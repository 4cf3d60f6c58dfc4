"""
Calibration slope and intercept as scalar expressions (logistic recalibration per group).

The same numbers as :func:`polars_roc.calibration.calibration_fit`, from the same kernel
(:mod:`polars_roc.calibration._logistic`), for `select`, `group_by().agg()`, `over()`,
`group_by_dynamic()` and :func:`polars_roc.bootstrap`. Each group's fit runs in numpy on
that group's rows.

Examples
--------
>>> import polars as pl
>>> import polars_roc as pr
>>> df = pl.DataFrame({"p": [0.1, 0.3, 0.6, 0.8, 0.2, 0.7], "y": [0, 1, 0, 1, 0, 1]})
>>> slope, intercept = pr.calibration_slope("p", "y"), pr.calibration_intercept("p", "y")
>>> df.select(slope.round(4), intercept.round(4))
shape: (1, 2)
┌───────────────────┬───────────────────────┐
│ calibration_slope ┆ calibration_intercept │
│ ---               ┆ ---                   │
│ f64               ┆ f64                   │
╞═══════════════════╪═══════════════════════╡
│ 1.1866            ┆ 0.28                  │
└───────────────────┴───────────────────────┘
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import polars as pl
from polars._typing import IntoExprColumn

from polars_roc._core import checks, labels
from polars_roc._core.checks import NanPolicy
from polars_roc._core.kernels import rows
from polars_roc.calibration import _logistic as logistic

__all__ = ["calibration_intercept", "calibration_slope"]


def _fit(
    score: IntoExprColumn,
    label: IntoExprColumn,
    weight: IntoExprColumn | None,
    pos_label: Any,
    nan_policy: NanPolicy,
    which: Literal["slope", "intercept"],
) -> pl.Expr:
    name = checks.name_of(labels.into_expr(score), "score")
    r = rows(score, label, weight=weight, pos_label=pos_label, nan_policy=nan_policy)
    w = pl.lit(1.0) if r.weight is None else r.weight
    packed = pl.struct(
        p=r.score.cast(pl.Float64), y=r.positive.cast(pl.Float64), w=w.cast(pl.Float64)
    )

    def one(s: pl.Series) -> pl.Series:
        p = s.struct.field("p").to_numpy()
        y = s.struct.field("y").to_numpy()
        weights = np.broadcast_to(s.struct.field("w").to_numpy(), p.shape).astype(np.float64)
        group = np.zeros(len(p), dtype=np.int64)
        value = logistic.summary(group, p, y, weights, 1, level=0.95, name=name)[which][0]
        return pl.Series([value], dtype=pl.Float64).fill_nan(None)

    fitted = packed.map_batches(one, return_dtype=pl.Float64, returns_scalar=True)
    return fitted.alias(f"calibration_{which}")


def calibration_slope(
    score: IntoExprColumn,
    label: IntoExprColumn,
    *,
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "propagate",
) -> pl.Expr:
    """
    Calibration slope: ``b`` of ``logit P(y = 1) = a + b · logit(p)`` (free intercept).

    1 is ideal; below 1 the probabilities are too extreme (overfitting), above 1 too
    timid. Null where the fit diverges (one class, perfect separation) or a probability is
    NaN; probabilities outside [0, 1] are an error when the query runs.
    There is no `direction`: a probability's scale is fixed. See
    :func:`polars_roc.calibration.calibration_fit` for the method and the clipping of 0, 1.

    Parameters
    ----------
    score
        Probability of the positive class.
    label, weight, pos_label, nan_policy
        As in :func:`polars_roc.brier_score`.

    Returns
    -------
    pl.Expr
        A Float64 scalar named ``calibration_slope``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"p": [0.1, 0.3, 0.6, 0.8, 0.2, 0.7], "y": [0, 1, 0, 1, 0, 1]})
    >>> round(df.select(pr.calibration_slope("p", "y")).item(), 4)
    1.1866
    """
    return _fit(score, label, weight, pos_label, nan_policy, "slope")


def calibration_intercept(
    score: IntoExprColumn,
    label: IntoExprColumn,
    *,
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "propagate",
) -> pl.Expr:
    """
    Calibration intercept (in the large): ``a`` of ``logit P(y = 1) = a + logit(p)``.

    0 is ideal; above 0 the probabilities are too low on average, below 0 too high. Null
    where the fit diverges or a probability is NaN. There is no `direction`: a
    probability's scale is fixed. See :func:`calibration_slope`.

    Parameters
    ----------
    score
        Probability of the positive class.
    label, weight, pos_label, nan_policy
        As in :func:`polars_roc.brier_score`.

    Returns
    -------
    pl.Expr
        A Float64 scalar named ``calibration_intercept``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"p": [0.1, 0.3, 0.6, 0.8, 0.2, 0.7], "y": [0, 1, 0, 1, 0, 1]})
    >>> round(df.select(pr.calibration_intercept("p", "y")).item(), 4)
    0.28
    """
    return _fit(score, label, weight, pos_label, nan_policy, "intercept")
