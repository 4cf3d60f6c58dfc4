"""
Calibration slope and intercept as scalar expressions (logistic recalibration per group).

The same numbers as :func:`polars_roc.calibration.calibration_fit`, from the same kernel
(:mod:`polars_roc.calibration._logistic`), for `select`, `group_by().agg()`, `over()`,
`group_by_dynamic()` and :func:`polars_roc.bootstrap`. Each group's rows are imploded into
one list and a single numpy call fits every group at once.

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

    def every_group(lists: pl.Series) -> pl.Series:
        # One call for all groups: each group's rows imploded into one list, the fits
        # vectorised over the groups (a per-group call cost 19-49x the frame method).
        sizes = lists.list.len().fill_null(0).to_numpy().astype(np.int64)
        flat = lists.explode(empty_as_null=False, keep_nulls=False).struct
        p = flat.field("p").to_numpy().astype(np.float64)
        y = flat.field("y").to_numpy().astype(np.float64)
        w = flat.field("w").to_numpy().astype(np.float64)
        group = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
        logistic.check_probabilities(p, name)
        fitted = logistic.one_fit(group, p, y, w, len(sizes), which)
        return pl.Series(lists.name, fitted, dtype=pl.Float64).fill_nan(None)

    imploded = packed.implode()
    fitted = imploded.map_batches(every_group, return_dtype=pl.Float64, is_elementwise=True)
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
    timid. Null only where the estimate does not exist (one class, separated classes,
    every probability equal) or a probability is NaN; probabilities outside [0, 1] are an
    error when the query runs.
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
    where a class is missing or a probability is NaN. This is calibration in the large;
    the intercept of the slope's own fit is ``intercept_free`` of
    :func:`polars_roc.calibration.calibration_fit`. There is no `direction`: a
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
