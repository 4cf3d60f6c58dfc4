"""Metrics of a chosen classifier: hard-label accuracy, probability scores, costs.

Expressions (valid in ``select``, ``group_by().agg()`` and ``over()``): :func:`accuracy`,
:func:`brier_score`, :func:`log_loss`. Frame functions (LazyFrame in, LazyFrame out):
:func:`confusion_matrix` for any number of classes and :func:`mean_cost` under a cost
matrix.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import polars as pl
from polars._typing import IntoExprColumn
from polars.exceptions import SchemaError

from polars_roc._core import checks, labels, validate
from polars_roc._core.aliases import renamed
from polars_roc._core.checks import NanPolicy
from polars_roc._core.frames import same_kind
from polars_roc._core.groups import join_groups, summarize
from polars_roc._core.kernels import rows
from polars_roc._core.validate import By

__all__ = [
    "EPS",
    "ClassProbabilities",
    "accuracy",
    "brier_score",
    "confusion_matrix",
    "log_loss",
    "mean_cost",
]

#: scikit-learn clips probabilities to [eps, 1 - eps] before taking logs.
EPS = float(np.finfo(np.float64).eps)

#: Per-class probability columns for multiclass scores: ``{class value: column}``.
ClassProbabilities = Mapping[Any, IntoExprColumn]


def _weighted_mean(values: pl.Expr, weight: pl.Expr | None) -> pl.Expr:
    if weight is None:
        return values.mean()
    total = weight.sum()
    return pl.when(total > 0).then((values * weight).sum() / total)


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
    return _weighted_mean(hit, None if w is None else w.filter(keep)).alias("accuracy")


def _probabilities(values: pl.Series) -> pl.Series:
    """Numeric probabilities in [0, 1] as Float64 (NaN passes: it makes the result null)."""
    if not values.dtype.is_numeric() or values.dtype == pl.Boolean:
        msg = (
            f"probability column {values.name!r} has dtype {values.dtype}, expected numbers in "
            f"[0, 1] (did you swap score and label?)\n\nHint: pass the probability column first."
        )
        raise SchemaError(msg)
    numbers = values.cast(pl.Float64)
    bad = numbers.filter(numbers.is_not_nan() & ((numbers < 0) | (numbers > 1)))
    if bad.len() > 0:
        msg = (
            f"probability column {values.name!r} holds {bad.unique().sort().head(5).to_list()}"
            f", outside [0, 1]\n\nHint: pass probabilities (e.g. predict_proba output), not "
            f"raw scores or logits."
        )
        raise ValueError(msg)
    return numbers


def _probability(value: IntoExprColumn, nan_policy: NanPolicy = "propagate") -> pl.Expr:
    expr = labels.into_expr(value)
    checked = expr.map_batches(_probabilities, return_dtype=pl.Float64, is_elementwise=True)
    name = checks.name_of(expr, "score")
    return checks.apply_nan_policy(checked, nan_policy, name, per_row=True)


def _known_classes(classes: list[Any]) -> Any:
    """A check that every non-null label has a probability column; returns `is_not_null`."""

    def check(labels: pl.Series) -> pl.Series:
        present = labels.drop_nulls()
        known = pl.Series(classes, dtype=present.dtype, strict=False).implode()
        unknown = present.filter(~present.is_in(known))
        if unknown.len() > 0:
            msg = (
                f"label column {labels.name!r} holds {unknown.unique().head(5).to_list()}, "
                f"which have no probability column; columns are given for {classes}"
                f"\n\nHint: pass one probability column per class: {{class: column}}."
            )
            raise ValueError(msg)
        return labels.is_not_null()

    return check


def _multiclass(
    probabilities: ClassProbabilities,
    label: IntoExprColumn,
    weight: IntoExprColumn | None,
    nan_policy: NanPolicy = "propagate",
) -> tuple[dict[Any, pl.Expr], pl.Expr, pl.Expr | None]:
    """Checked per-class probabilities, label and weight, filtered to the rows that count."""
    if len(probabilities) < 2:
        msg = (
            f"multiclass scores need a probability column for at least two classes, got "
            f"{dict(probabilities)!r}\n\nHint: {{'a': 'p_a', 'b': 'p_b', 'c': 'p_c'}}."
        )
        raise ValueError(msg)
    classes = list(probabilities)
    y = labels.into_expr(label)
    columns = {k: _probability(column, nan_policy) for k, column in probabilities.items()}
    w = None if weight is None else labels.weight(weight)
    keep = y.map_batches(_known_classes(classes), return_dtype=pl.Boolean, is_elementwise=True)
    for column in columns.values():
        keep = keep & column.is_not_null()
    if w is not None:
        keep = keep & w.is_not_null() & (w > 0)
    filtered = {k: column.filter(keep) for k, column in columns.items()}
    return filtered, y.filter(keep), None if w is None else w.filter(keep)


def _no_nan(columns: list[pl.Expr], value: pl.Expr) -> pl.Expr:
    nan = pl.lit(False)
    for column in columns:
        nan = nan | checks.is_nan(column).any()
    return pl.when(~nan).then(value)


def brier_score(
    score: IntoExprColumn | ClassProbabilities,
    label: IntoExprColumn,
    *,
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "propagate",
) -> pl.Expr:
    """
    Brier score: mean squared difference between predicted probability and outcome.

    Binary (`score` the positive class's probability): ``mean((p - y)²)``, scikit-learn's
    ``brier_score_loss``. Multiclass (`score` a mapping ``{class: probability column}``):
    ``mean(Σ_k (p_k - [y = k])²)``, halved for two classes as scikit-learn does by default.
    Probabilities outside [0, 1] raise when the query runs; a NaN probability makes the
    result null. Rows with a null score, label or weight are skipped.

    Parameters
    ----------
    score
        Probability column of the positive class, or ``{class: column}`` for multiclass.
    label
        Class column: Boolean, 0/1 integer, or any coding with `pos_label` (binary); the
        class values named in `score` (multiclass).
    weight
        Optional non-negative case weights.
    pos_label
        The positive class (binary only). Default: True for Boolean labels, 1 for 0/1.
        There is no `direction`: a probability's scale is fixed (negating it leaves
        [0, 1]); for the other class's probability, pass that class as `pos_label`.
    nan_policy
        NaN probabilities: ``"propagate"`` (default: the result is null), ``"omit"``
        (skipped like nulls) or ``"raise"`` (an error naming the column and the count,
        when the query runs).

    Returns
    -------
    pl.Expr
        A Float64 scalar named ``brier_score``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0], "p": [0.1, 0.9, 0.8, 0.3]})
    >>> round(df.select(pr.brier_score("p", "y")).item(), 6)
    0.0375
    >>> three = pl.DataFrame(
    ...     {"y": ["a", "b", "c"], "pa": [0.8, 0.2, 0.2], "pb": [0.1, 0.7, 0.2],
    ...      "pc": [0.1, 0.1, 0.6]}
    ... )
    >>> round(three.select(pr.brier_score({"a": "pa", "b": "pb", "c": "pc"}, "y")).item(), 6)
    0.146667
    """
    if isinstance(score, Mapping):
        columns, y, w = _multiclass(score, label, weight, nan_policy)
        total = pl.lit(0.0)
        for k, p in columns.items():
            total = total + (p - (y == pl.lit(k)).cast(pl.Float64)) ** 2
        if len(columns) == 2:
            total = total / 2
        value = _no_nan(list(columns.values()), _weighted_mean(total, w))
        return value.alias("brier_score")
    r = rows(_probability(score, nan_policy), label, weight=weight, pos_label=pos_label)
    squared = (r.score - r.positive.cast(pl.Float64)) ** 2
    return _no_nan([r.score], _weighted_mean(squared, r.weight)).alias("brier_score")


def log_loss(
    score: IntoExprColumn | ClassProbabilities,
    label: IntoExprColumn,
    *,
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "propagate",
) -> pl.Expr:
    """
    Log-loss (cross-entropy): mean negative log-probability of the true class.

    Binary (`score` the positive class's probability): ``-mean(y log p + (1 - y) log(1 - p))``.
    Multiclass (`score` a mapping ``{class: probability column}``): ``-mean(log p_y)``.
    As scikit-learn's ``log_loss``, probabilities are clipped to ``[eps, 1 - eps]`` (eps of
    float64) so the loss stays finite, and rows are not renormalized. Probabilities outside
    [0, 1] raise when the query runs; a NaN probability makes the result null.

    Parameters
    ----------
    score, label, weight, pos_label, nan_policy
        As in :func:`brier_score`: the positive class's probability column (binary) or
        ``{class: column}`` (multiclass), the class column, case weights, positive class,
        NaN probabilities. There is no `direction`, as for :func:`brier_score`.

    Returns
    -------
    pl.Expr
        A Float64 scalar named ``log_loss`` (natural log).

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"y": ["spam", "ham", "ham", "spam"], "p": [0.9, 0.1, 0.2, 0.65]})
    >>> round(df.select(pr.log_loss("p", "y", pos_label="spam")).item(), 5)
    0.21616
    >>> probs = {"ham": 1 - pl.col("p"), "spam": pl.col("p")}
    >>> round(df.select(pr.log_loss(probs, "y")).item(), 5)
    0.21616
    """
    if isinstance(score, Mapping):
        columns, y, w = _multiclass(score, label, weight, nan_policy)
        true_class: Any = pl
        for k, p in columns.items():
            true_class = true_class.when(y == pl.lit(k)).then(p)
        loss = -true_class.otherwise(None).clip(EPS, 1 - EPS).log()
        value = _no_nan(list(columns.values()), _weighted_mean(loss, w))
        return value.alias("log_loss")
    r = rows(_probability(score, nan_policy), label, weight=weight, pos_label=pos_label)
    p = pl.when(r.positive).then(r.score).otherwise(1 - r.score)
    loss = -p.clip(EPS, 1 - EPS).log()
    return _no_nan([r.score], _weighted_mean(loss, r.weight)).alias("log_loss")


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


def _check_weight(schema: pl.Schema, weight: str | None) -> None:
    if weight is None:
        return
    dtype = validate.column(schema, weight, "weight")
    if not dtype.is_numeric() or dtype == pl.Boolean:
        msg = (
            f"weight column {weight!r} has dtype {dtype}, expected non-negative numbers"
            f"\n\nHint: pass weight=<numeric column> or weight=None."
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
    _check_weight(schema, weight)
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
