"""Metrics of a chosen classifier: the confusion matrix and costs.

Frame functions (LazyFrame in, LazyFrame out): :func:`confusion_matrix` for any number of
classes and :func:`mean_cost` under a cost matrix. The scalar expressions of hard labels and
probabilities (``accuracy``, ``brier_score``, ``log_loss``) live in :mod:`polars_roc.exprs`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import polars as pl
from polars.exceptions import SchemaError

from polars_roc._core import labels, validate
from polars_roc._core.aliases import renamed
from polars_roc._core.frames import same_kind
from polars_roc._core.groups import join_groups, summarize
from polars_roc._core.validate import By

__all__ = ["confusion_matrix", "mean_cost"]


def _class_columns(
    schema: pl.Schema, truth: str, pred: str, by: list[str]
) -> pl.DataType | type[pl.DataType]:
    """Check the truth / predicted class columns and return the dtype they share."""
    truth_dtype = validate.column(schema, truth, "label")
    pred_dtype = validate.column(schema, pred, "prediction")
    for name in by:
        validate.column(schema, name, "by")
    clash = {truth, pred, "truth", "pred", "n", "mean_cost"} & set(by)
    if clash:
        msg = (
            f"`by` column(s) {sorted(clash)} clash with the class columns or the output"
            f"\n\nHint: rename them first."
        )
        raise ValueError(msg)
    for name, dtype in ((truth, truth_dtype), (pred, pred_dtype)):
        if not validate.is_label_dtype(dtype):
            msg = (
                f"class column {name!r} has dtype {dtype}, expected Boolean, integer, string "
                f"or categorical classes\n\nHint: pass label=<class column>, "
                f"prediction=<class column>."
            )
            raise SchemaError(msg)
    if truth_dtype == pred_dtype:
        return truth_dtype
    if truth_dtype.is_numeric() and pred_dtype.is_numeric():
        return pl.Float64 if truth_dtype.is_float() or pred_dtype.is_float() else pl.Int64
    textual = (pl.String, pl.Categorical)
    if isinstance(truth_dtype, textual) and isinstance(pred_dtype, textual):
        return pl.String
    msg = (
        f"label column {truth!r} ({truth_dtype}) and prediction column {pred!r} ({pred_dtype}) "
        f"do "
        f"not hold the same kind of class\n\nHint: cast one to the other's type."
    )
    raise SchemaError(msg)


@renamed(truth="label", pred="prediction")
@same_kind
def confusion_matrix(
    lf: pl.LazyFrame,
    label: str,
    prediction: str,
    *,
    by: By = None,
    weight: str | None = None,
) -> pl.LazyFrame:
    """
    Confusion matrix in long format, for any number of classes.

    One row per group and (true class, predicted class) pair, over every class seen in the
    group's truth or predictions, zero cells included. Rows with a null class or weight,
    or a zero weight, are skipped.

    Parameters
    ----------
    lf
        Rows with a true and a predicted class.
    label
        True class column.
    prediction
        Predicted class column (same kind of values as `label`).
    by
        Column name(s) to group by: one matrix per group.
    weight
        Optional non-negative case weights (`n` becomes a Float64 weight sum).

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, truth, pred, n``: `n` the Int64 count (or weight sum) of rows of class `truth`
        predicted as `pred`, sorted by group, truth, pred.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"y": ["a", "a", "b", "c"], "yhat": ["a", "b", "b", "b"]})
    >>> df.roc.confusion_matrix("y", "yhat").filter(pl.col("n") > 0)
    shape: (4, 3)
    ┌───────┬──────┬─────┐
    │ truth ┆ pred ┆ n   │
    │ ---   ┆ ---  ┆ --- │
    │ str   ┆ str  ┆ i64 │
    ╞═══════╪══════╪═════╡
    │ a     ┆ a    ┆ 1   │
    │ a     ┆ b    ┆ 1   │
    │ b     ┆ b    ┆ 1   │
    │ c     ┆ b    ┆ 1   │
    └───────┴──────┴─────┘
    """
    names = validate.as_names(by)
    schema = lf.collect_schema()
    dtype = _class_columns(schema, label, prediction, names)
    validate.weight_column(schema, weight)
    w = None if weight is None else labels.weight(weight)
    keep = pl.col(label).is_not_null() & pl.col(prediction).is_not_null()
    if w is not None:
        keep = keep & w.is_not_null() & (w > 0)
    cases = lf.filter(keep).select(
        *names,
        truth=pl.col(label).cast(dtype),
        pred=pl.col(prediction).cast(dtype),
        n=pl.lit(1, dtype=pl.Int64) if w is None else w,
    )
    cells = cases.group_by(*names, "truth", "pred").agg(pl.col("n").sum())
    classes = pl.concat(
        [
            cells.select(*names, _class=pl.col("truth")),
            cells.select(*names, _class=pl.col("pred")),
        ]
    ).unique()
    truths = classes.rename({"_class": "truth"})
    preds = classes.rename({"_class": "pred"})
    grid = join_groups(truths, preds, names, how="inner")
    zero = pl.lit(0, dtype=pl.Int64 if w is None else pl.Float64)
    out = grid.join(cells, on=[*names, "truth", "pred"], how="left", nulls_equal=True)
    out = out.with_columns(pl.col("n").fill_null(zero))
    return out.sort([*names, "truth", "pred"], nulls_last=True).select(*names, "truth", "pred", "n")


def _cost_frame(costs: Any, dtype: pl.DataType | type[pl.DataType]) -> pl.LazyFrame:
    """Check a cost matrix (frame ``truth, pred, cost`` or ``{(truth, pred): cost}``)."""
    if isinstance(costs, Mapping):
        try:
            pairs = [(t, p, c) for (t, p), c in costs.items()]
        except (TypeError, ValueError):
            msg = (
                f"costs as a mapping must be {{(truth, pred): cost}}, got {costs!r}"
                f"\n\nHint: costs={{('a', 'b'): 5.0, ('b', 'a'): 1.0}}."
            )
            raise ValueError(msg) from None
        frame = pl.DataFrame(
            {
                "truth": [t for t, _, _ in pairs],
                "pred": [p for _, p, _ in pairs],
                "cost": [c for _, _, c in pairs],
            },
            strict=False,
        )
    elif isinstance(costs, pl.DataFrame):
        frame = costs
    else:
        msg = (
            f"costs must be a DataFrame with columns truth, pred, cost or a mapping "
            f"{{(truth, pred): cost}}, got {type(costs).__name__}"
            f"\n\nHint: pl.DataFrame({{'truth': [...], 'pred': [...], 'cost': [...]}})."
        )
        raise TypeError(msg)
    missing = {"truth", "pred", "cost"} - set(frame.columns)
    if missing:
        msg = (
            f"the cost frame lacks column(s) {sorted(missing)}; it has {frame.columns}"
            f"\n\nHint: a cost frame has columns truth, pred, cost."
        )
        raise ValueError(msg)
    cost_dtype = frame.schema["cost"]
    if not cost_dtype.is_numeric() or cost_dtype == pl.Boolean:
        msg = f"cost column has dtype {cost_dtype}, expected numbers\n\nHint: cast it to Float64."
        raise SchemaError(msg)
    try:
        frame = frame.select(
            pl.col("truth").cast(dtype), pl.col("pred").cast(dtype), pl.col("cost").cast(pl.Float64)
        )
    except pl.exceptions.PolarsError:
        msg = (
            f"the cost matrix's classes ({frame.schema['truth']}, {frame.schema['pred']}) do not "
            f"fit the class columns ({dtype})\n\nHint: give costs for the classes as they are "
            f"in the data, e.g. {{(truth, pred): cost}} with the same type of class values."
        )
        raise SchemaError(msg) from None
    bad = [c for c in frame["cost"].to_list() if c is None or not math.isfinite(c)]
    if bad:
        msg = f"costs must be finite numbers, got {bad[:5]}\n\nHint: fill or drop those pairs."
        raise ValueError(msg)
    duplicated = frame.filter(pl.struct("truth", "pred").is_duplicated())
    if duplicated.height:
        msg = (
            f"the cost matrix lists (truth, pred) pairs more than once: "
            f"{duplicated.select('truth', 'pred').unique().rows()[:5]}"
            f"\n\nHint: give each pair one cost."
        )
        raise ValueError(msg)
    return frame.lazy()


def _priced(cells: pl.DataFrame) -> pl.Series:
    """Costs of the observed cells; raise on a misclassification the cost matrix omits."""
    missing = cells.filter(
        pl.col("cost").is_null() & (pl.col("truth") != pl.col("pred")) & (pl.col("n") > 0)
    )
    if missing.height:
        pairs = missing.select("truth", "pred").unique().rows()[:5]
        msg = (
            f"the cost matrix has no cost for (truth, pred) pairs {pairs} that occur in the "
            f"data\n\nHint: add them to `costs`."
        )
        raise ValueError(msg)
    return cells["cost"].fill_null(0.0)


@renamed(truth="label", pred="prediction")
@same_kind
def mean_cost(
    lf: pl.LazyFrame,
    label: str,
    prediction: str,
    costs: pl.DataFrame | Mapping[tuple[Any, Any], float],
    *,
    by: By = None,
    weight: str | None = None,
) -> pl.LazyFrame:
    """
    Mean misclassification cost per case under a cost matrix.

    ``Σ cost(truth, pred) · n(truth, pred) / Σ n`` over the cells of
    :func:`confusion_matrix`. A correct decision (truth == pred) missing from `costs` costs
    0; a misclassification that occurs in the data but is missing from `costs` raises when
    the query runs. Costs may be negative (benefits).

    Parameters
    ----------
    lf
        Rows with a true and a predicted class.
    label, prediction
        True and predicted class columns.
    costs
        The cost matrix: a DataFrame with columns ``truth, pred, cost``, or a mapping
        ``{(truth, pred): cost}``.
    by
        Column name(s) to group by.
    weight
        Optional non-negative case weights.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, mean_cost``, one row per group, sorted by group.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"y": ["a", "a", "b", "b"], "yhat": ["a", "b", "b", "a"]})
    >>> costs = {("a", "b"): 5.0, ("b", "a"): 1.0}
    >>> df.roc.mean_cost("y", "yhat", costs)
    shape: (1, 1)
    ┌───────────┐
    │ mean_cost │
    │ ---       │
    │ f64       │
    ╞═══════════╡
    │ 1.5       │
    └───────────┘
    """
    names = validate.as_names(by)
    dtype = _class_columns(lf.collect_schema(), label, prediction, names)
    matrix = _cost_frame(costs, dtype)
    cells = confusion_matrix(lf, label, prediction, by=names, weight=weight)
    joined = cells.join(matrix, on=["truth", "pred"], how="left")
    priced = joined.with_columns(
        cost=pl.struct("truth", "pred", "cost", "n").map_batches(
            lambda s: _priced(s.struct.unnest()), return_dtype=pl.Float64, is_elementwise=True
        )
    )
    n = pl.col("n").cast(pl.Float64)
    total = n.sum()
    value = pl.when(total > 0).then((pl.col("cost") * n).sum() / total).alias("mean_cost")
    return summarize(priced, names, [value])
