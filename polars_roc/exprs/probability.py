"""Scalar expressions of predicted probabilities: Brier score, log-loss, calibration error.

Each takes the probability of the positive class (binary) and, for the Brier score and the
log-loss, a mapping ``{class: probability column}`` (multiclass). None takes `direction`: a
probability's scale is fixed (negating it leaves [0, 1]); for the other class's
probability, pass that class as `pos_label`.

Examples
--------
>>> import polars as pl
>>> import polars_roc as pr
>>> df = pl.DataFrame({"y": [0, 1, 1, 0], "p": [0.1, 0.9, 0.8, 0.3]})
>>> df.select(pr.brier_score("p", "y").round(4), pr.log_loss("p", "y").round(4))
shape: (1, 2)
┌─────────────┬──────────┐
│ brier_score ┆ log_loss │
│ ---         ┆ ---      │
│ f64         ┆ f64      │
╞═════════════╪══════════╡
│ 0.0375      ┆ 0.1976   │
└─────────────┴──────────┘
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import polars as pl
from polars._typing import IntoExprColumn
from polars.exceptions import SchemaError

from polars_roc._core import checks, labels
from polars_roc._core.binning import (
    Strategy,
    check_arguments,
    checked,
    lerp,
    quantile_levels,
    repeats,
    uniform_edges,
)
from polars_roc._core.checks import NanPolicy, is_nan
from polars_roc._core.kernels import rows, weighted_mean

__all__ = ["EPS", "ClassProbabilities", "brier_score", "expected_calibration_error", "log_loss"]

#: scikit-learn clips probabilities to [eps, 1 - eps] before taking logs.
EPS = float(np.finfo(np.float64).eps)

#: Per-class probability columns for multiclass scores: ``{class value: column}``.
ClassProbabilities = Mapping[Any, IntoExprColumn]


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
        value = _no_nan(list(columns.values()), weighted_mean(total, w))
        return value.alias("brier_score")
    r = rows(_probability(score, nan_policy), label, weight=weight, pos_label=pos_label)
    squared = (r.score - r.positive.cast(pl.Float64)) ** 2
    return _no_nan([r.score], weighted_mean(squared, r.weight)).alias("brier_score")


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
        value = _no_nan(list(columns.values()), weighted_mean(loss, w))
        return value.alias("log_loss")
    r = rows(_probability(score, nan_policy), label, weight=weight, pos_label=pos_label)
    p = pl.when(r.positive).then(r.score).otherwise(1 - r.score)
    loss = -p.clip(EPS, 1 - EPS).log()
    return _no_nan([r.score], weighted_mean(loss, r.weight)).alias("log_loss")


def expected_calibration_error(
    score: IntoExprColumn,
    label: IntoExprColumn,
    *,
    bins: int = 10,
    strategy: Strategy = "uniform",
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "propagate",
) -> pl.Expr:
    """
    Expected calibration error (ECE) as a scalar expression.

    ``ECE = Σ_b (n_b / n) * |fraction_positive_b - mean_score_b|`` over the bins of
    :func:`calibration` (same edges, same ``strategy``; empty bins contribute nothing): the
    mean distance of the reliability curve from the diagonal, weighted by the bins' sizes
    (Naeini, Cooper & Hauskrecht, 2015). 0 for a perfectly calibrated score. Null when no
    row counts or a score is NaN; scores outside [0, 1] raise when the query runs.

    Parameters
    ----------
    score
        The predicted probability of the positive class (name or expression).
    label
        Class column: Boolean, 0/1 integer, or any coding with `pos_label`.
    bins
        Number of bins, at least 1.
    strategy
        ``"uniform"`` (equal widths on [0, 1]) or ``"quantile"`` (equal counts).
    weight
        Optional non-negative case weights.
    pos_label
        The positive class (`score` is its probability). Default: True for Boolean
        labels, 1 for 0/1 integers. There is no `direction`: see :func:`calibration`.
    nan_policy
        NaN scores: ``"propagate"`` (default: the result is null), ``"omit"`` (skipped like
        nulls) or ``"raise"`` (an error naming the column and the count, when the query runs).

    Returns
    -------
    pl.Expr
        A Float64 scalar named ``expected_calibration_error``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {
    ...         "score": [0.1, 0.2, 0.3, 0.4, 0.65, 0.7, 0.8, 0.9, 1.0],
    ...         "label": [0, 0, 0, 0, 1, 1, 1, 1, 1],
    ...     }
    ... )
    >>> round(df.select(pr.expected_calibration_error("score", "label", bins=3)).item(), 6)
    0.138889

    That is (3 * |0 - 0.2| + 2 * |0.5 - 0.525| + 4 * |1 - 0.85|) / 9, from the bins of
    ``df.roc.calibration(bins=3)``.
    """
    check_arguments(bins, strategy)
    probability = checked(labels.score(score, nan_policy=nan_policy))
    r = rows(probability, label, weight=weight, pos_label=pos_label)
    columns = [r.score.alias("s"), r.positive.cast(pl.Float64).alias("y")]
    if r.weight is not None:
        columns.append(r.weight.alias("w"))
    # The checked rows are packed into a list once: inside `list.eval` every reference to
    # them reads the packed values instead of running the rows' checks again.
    packed = pl.struct(columns).sort_by(r.score).implode()
    ece = packed.list.eval(_ece_of_sorted(bins, strategy, weighted=r.weight is not None))
    return ece.list.first().alias("expected_calibration_error")


def _ece_of_sorted(bins: int, strategy: Strategy, *, weighted: bool) -> pl.Expr:
    """ECE of the rows in a list (fields s, y and w), sorted by score, as a 1-element list."""
    row = pl.element().struct
    s, y = row.field("s"), row.field("y")
    w = row.field("w") if weighted else None
    gap = (y - s if w is None else w * (y - s)).cum_sum()  # Σ w (y - s) up to each row
    total = s.len().cast(pl.Float64) if w is None else w.sum()
    if bins == 1:
        per_bin = gap.last()
    else:
        if strategy == "uniform":
            edges = pl.lit(pl.Series(uniform_edges(bins), dtype=pl.Float64))
        else:
            edges = _expression_edges(s, w, bins)
        # Bins are runs of sorted rows: each bin's sum is a step of `gap` at the run ends.
        runs = edges.search_sorted(s, side="left").rle().struct.field("len")
        at_ends = gap.gather(runs.cum_sum() - 1)
        per_bin = pl.concat([pl.lit(0.0), at_ends]).diff().slice(1)
    defined = (total > 0) & ~is_nan(s).any()
    return pl.when(defined).then(per_bin.abs().sum() / total)


def _expression_edges(s: pl.Expr, w: pl.Expr | None, bins: int) -> pl.Expr:
    """The inner quantile edges of sorted scores `s` (weights `w` sorted alike), as numpy."""
    cumulative = None if w is None else repeats(w).cum_sum()
    total = s.len().cast(pl.Float64) if cumulative is None else cumulative.last()
    levels = pl.lit(pl.Series(quantile_levels(bins), dtype=pl.Float64))
    virtual = (total - 1) * levels  # numpy's (n - 1) * q
    below = virtual.floor()
    last = (total - 1).clip(lower_bound=0)
    k_lo, k_hi = below.clip(0, last), (below + 1).clip(0, last)
    padded = s.append(pl.lit(None, dtype=pl.Float64))  # no rows: read null, not out of bounds
    if cumulative is None:
        a, b = padded.gather(k_lo.cast(pl.Int64)), padded.gather(k_hi.cast(pl.Int64))
    else:
        a = padded.gather(cumulative.search_sorted(k_lo, side="right"))
        b = padded.gather(cumulative.search_sorted(k_hi, side="right"))
    return lerp(a, b, virtual - below)
