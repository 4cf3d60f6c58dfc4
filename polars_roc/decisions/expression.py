"""Net benefit as a scalar expression: the decision-curve statistic at one threshold."""

from __future__ import annotations

import math
from typing import Any

import polars as pl
from polars._typing import IntoExprColumn

from polars_roc._core import validate
from polars_roc._core.checks import NanPolicy, is_nan
from polars_roc._core.kernels import rows

__all__ = ["check_probability_thresholds", "net_benefit"]


def check_probability_thresholds(values: Any, argument: str = "thresholds") -> list[float]:
    """
    Check threshold probabilities lie strictly between 0 and 1; return them as floats.

    Examples
    --------
    >>> check_probability_thresholds([0.1, 0.5])
    [0.1, 0.5]
    """
    items = [values] if validate.is_real(values) else values
    try:
        floats = [float(v) for v in items if validate.is_real(v)]
    except TypeError:
        floats = []
    if (
        not floats
        or len(floats) != len(list(items))
        or not all(math.isfinite(v) and 0 < v < 1 for v in floats)
    ):
        msg = (
            f"{argument} must be threshold probabilities strictly between 0 and 1, got "
            f"{values!r}\n\nHint: the odds t / (1 - t) weigh a false positive against a "
            f"true one, so t = 0 and t = 1 are undefined; e.g. {argument}=[0.05, 0.1, 0.2]."
        )
        raise ValueError(msg)
    return floats


def net_benefit(
    score: IntoExprColumn,
    label: IntoExprColumn,
    threshold: float,
    *,
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "propagate",
) -> pl.Expr:
    """
    Net benefit of treating the rows whose risk is at least `threshold`.

    ``TP / n − FP / n · t / (1 − t)`` (Vickers & Elkin 2006), as the Python ``dcurves``
    package computes it: a false positive weighs the odds of the threshold probability
    against a true positive. Null for no rows or a NaN score (with the default
    ``nan_policy``); weights count as repeated rows.

    Parameters
    ----------
    score
        Predicted risk (a probability); a row is treated iff ``score >= threshold``.
    label
        Class column: Boolean, 0/1 integer, or any coding with `pos_label`.
    threshold
        The threshold probability, strictly between 0 and 1.
    weight, pos_label, nan_policy
        As in :func:`polars_roc.auc`. There is no `direction`: a risk's scale is fixed.

    Returns
    -------
    pl.Expr
        A Float64 scalar named ``net_benefit``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "p": [0.1, 0.4, 0.35, 0.8]})
    >>> df.select(pr.net_benefit("p", "y", 0.3)).item()  # (2 - 1 * 0.3 / 0.7) / 4
    0.39285714285714285
    >>> df.select(pl.col("p").roc.net_benefit("y", 0.5)).item()
    0.25
    """
    (t,) = check_probability_thresholds(threshold, "threshold")
    r = rows(score, label, weight=weight, pos_label=pos_label, masked=True, nan_policy=nan_policy)
    treated = r.score >= t
    one = pl.lit(1.0) if r.weight is None else r.weight
    tp = (one * (treated & r.positive).cast(pl.Float64)).sum()
    fp = (one * (treated & ~r.positive).cast(pl.Float64)).sum()
    n = (one * r.positive.is_not_null().cast(pl.Float64)).sum()
    defined = (n > 0) & ~is_nan(r.score).any()
    return pl.when(defined).then((tp - fp * (t / (1 - t))) / n).alias("net_benefit")
