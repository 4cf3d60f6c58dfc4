"""Scalar expressions of hard labels: the accuracy of predicted classes.

Examples
--------
>>> import polars as pl
>>> import polars_roc as pr
>>> df = pl.DataFrame({"g": [1, 1, 2, 2], "y": [0, 1, 1, 1], "yhat": [0, 0, 1, 1]})
>>> df.group_by("g", maintain_order=True).agg(pr.accuracy("y", "yhat"))["accuracy"].to_list()
[0.5, 1.0]
"""

from __future__ import annotations

import polars as pl
from polars._typing import IntoExprColumn

from polars_roc._core import labels
from polars_roc._core.aliases import renamed
from polars_roc._core.kernels import weighted_mean

__all__ = ["accuracy"]


@renamed(truth="label", pred="prediction")
def accuracy(
    label: IntoExprColumn,
    prediction: IntoExprColumn,
    *,
    weight: IntoExprColumn | None = None,
) -> pl.Expr:
    """
    Share of rows whose predicted class equals the true class (any number of classes).

    The misclassification error is ``1 - accuracy``. Rows with a null class, null weight or
    zero weight are skipped; null when no row is left.

    Parameters
    ----------
    label
        True class column (name or expression).
    prediction
        Predicted class column, of the same type.
    weight
        Optional non-negative case weights.

    Returns
    -------
    pl.Expr
        A Float64 scalar named ``accuracy``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"y": ["a", "b", "c", "a"], "yhat": ["a", "b", "a", "a"]})
    >>> df.select(pr.accuracy("y", "yhat")).item()
    0.75
    >>> df.select(1 - pr.accuracy("y", "yhat")).item()
    0.25
    """
    t, p = labels.into_expr(label), labels.into_expr(prediction)
    w = None if weight is None else labels.weight(weight)
    keep = t.is_not_null() & p.is_not_null()
    if w is not None:
        keep = keep & w.is_not_null() & (w > 0)
    hit = (t == p).cast(pl.Float64).filter(keep)
    return weighted_mean(hit, None if w is None else w.filter(keep)).alias("accuracy")
