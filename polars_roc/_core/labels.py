"""Column coding shared by every computation: positive class, score and weight checks.

The checks that need data (label values, negative weights, non-numeric scores in a bare
expression) run inside the query, when it is collected: a lazy query fails at collect with a
message that names the column and the fix, never with a wrong number.
"""

from __future__ import annotations

from typing import Any

import polars as pl
from polars._typing import IntoExprColumn
from polars.exceptions import SchemaError

from polars_roc._core import checks
from polars_roc._core.checks import NanPolicy


def into_expr(value: IntoExprColumn) -> pl.Expr:
    """A column name, Series or expression as an expression."""
    if isinstance(value, pl.Expr):
        return value
    if isinstance(value, str):
        return pl.col(value)
    return pl.lit(value)


def binary_codes(labels: pl.Series, role: str = "label") -> pl.Series:
    """Map Boolean labels to themselves and 0/1 codes to False/True; refuse anything else."""
    if labels.dtype == pl.Boolean:
        return labels
    checks.label_dtype(labels.name, None)(labels.dtype)  # Null, float or other dtypes: ours
    if labels.dtype.is_numeric():
        bad = labels.filter(labels.is_not_null() & ~labels.is_in([0, 1]))
    else:
        bad = labels.drop_nulls()
    if bad.len() > 0:
        found = labels.drop_nulls().unique().sort().head(10).to_list()
        msg = (
            f"{role} column {labels.name!r} holds values like {found}, not Boolean or 0/1 codes; "
            f"which class is positive?\n\nHint: pass pos_label=<the positive class>, "
            f"e.g. pos_label={found[-1]!r}."
        )
        raise ValueError(msg)
    return labels.cast(pl.Boolean)


def is_class(labels: pl.Series, pos_label: Any) -> pl.Series:
    """
    Whether each label is `pos_label`: null where the label is null, or NaN (missing too).

    Examples
    --------
    >>> is_class(pl.Series([1.0, float("nan"), 0.0, None]), 1.0).to_list()
    [True, None, False, None]
    """
    present = labels.fill_nan(None) if labels.dtype.is_float() else labels
    positive: pl.Series = present.eq(pos_label)
    return positive


def _is_class_of(pos_label: Any) -> Any:
    def run(labels: pl.Series) -> pl.Series:
        return is_class(labels, pos_label)

    return run


def positive(
    label: IntoExprColumn,
    pos_label: Any = None,
    *,
    dtype: pl.DataType | None = None,
    role: str = "label",
) -> pl.Expr:
    """
    Boolean expression: is the row's label the positive class (null where the label is null).

    Without `pos_label`, Boolean labels mean True and 0/1 integers mean 1; any other coding
    raises when the query runs. A caller that knows the label's `dtype` from the schema
    skips that check for Boolean labels. A NaN label (float class codes) is missing, like a
    null (:func:`is_class`): its row is skipped, never counted as a negative. `role` names
    the column in the error (e.g. ``"prediction"`` for predicted classes).
    """
    expr = into_expr(label)
    if pos_label is None and dtype == pl.Boolean:
        return expr
    if pos_label is None:
        return expr.map_batches(
            lambda labels: binary_codes(labels, role), return_dtype=pl.Boolean, is_elementwise=True
        )
    if dtype is None:  # a bare expression: check the dtype and pos_label's type in the query
        expr = checks.checked_dtype(
            expr, checks.label_dtype(checks.name_of(expr, "label"), pos_label)
        )
        return expr.map_batches(
            _is_class_of(pos_label), return_dtype=pl.Boolean, is_elementwise=True
        )
    if dtype.is_float():
        expr = expr.fill_nan(None)
    return expr == pl.lit(pos_label)


def score(
    value: IntoExprColumn,
    *,
    checked: bool = True,
    nan_policy: NanPolicy = "propagate",
    dtype: pl.DataType | None = None,
) -> pl.Expr:
    """
    Score expression; `checked` refuses non-numeric scores when the query runs.

    Integer and Decimal scores keep their type, so scores beyond 2**53 rank as integers,
    not as false ties in Float64; other scores are Float64 when the caller knows the
    `dtype`, and keep their numeric type in a bare expression (ranks, sorts and sums take
    any). Test NaN with :func:`polars_roc._core.checks.is_nan`. `nan_policy` keeps NaN
    scores (the group's result is then null), sets them to null (``"omit"``) or refuses
    them (``"raise"``).

    Frame functions check the score's dtype against the schema at call time and pass
    ``checked=False``. A bare expression cannot see the schema, so the check runs in the
    query, elementwise (:func:`polars_roc._core.checks.checked_dtype`): a Boolean, string,
    categorical or Null score (e.g. score and label swapped) raises our SchemaError instead
    of giving a number.
    """
    expr = into_expr(value)
    name = checks.name_of(expr, "score")
    if checked:
        expr = checks.checked_dtype(expr, checks.score_dtype(name))
    expr = checks.apply_nan_policy(expr, nan_policy, name, per_row=True)
    if dtype is not None and not (dtype.is_integer() or dtype.is_decimal()):
        expr = expr.cast(pl.Float64)
    return expr


def _valid_weights(weights: pl.Series) -> pl.Series:
    if not weights.dtype.is_numeric() or weights.dtype == pl.Boolean:
        msg = f"weight column {weights.name!r} has dtype {weights.dtype}, expected numbers"
        raise SchemaError(msg)
    values = weights.cast(pl.Float64)
    bad = values.filter(values.is_not_null() & ~(values.is_finite() & (values >= 0)))
    if bad.len() > 0:
        msg = (
            f"weight column {weights.name!r} holds {bad.unique().sort().head(5).to_list()}; "
            f"weights must be finite and non-negative\n\nHint: drop or fix those rows, "
            f"e.g. .filter(pl.col({weights.name!r}) >= 0)."
        )
        raise ValueError(msg)
    return values


def weight(value: IntoExprColumn) -> pl.Expr:
    """Float64 weight expression that raises at collect on negative or non-finite weights."""
    return into_expr(value).map_batches(
        _valid_weights, return_dtype=pl.Float64, is_elementwise=True
    )


def kept(s: pl.Expr, y: pl.Expr, w: pl.Expr | None) -> pl.Expr:
    """Rows that count: score and label present, and weight present and positive."""
    keep = s.is_not_null() & y.is_not_null()
    if w is not None:
        keep = keep & w.is_not_null() & (w > 0)
    return keep
