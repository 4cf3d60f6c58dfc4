"""Multiclass AUC as a scalar expression for ``select`` and ``group_by().agg()``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any, Literal

import polars as pl
from polars._typing import IntoExprColumn

from polars_roc._core import checks, kernels, labels, validate
from polars_roc._core.checks import NanPolicy
from polars_roc.multiclass._long import (
    DIRECTIONS,
    METHODS,
    fitted_coder,
    median_above,
    per_class_scores,
)
from polars_roc.typing import MulticlassDirection as Direction
from polars_roc.typing import MulticlassMethod as Method

__all__ = ["multiclass_auc"]

# ---------------------------------------------------------------------------------------
# Public: the scalar expression
# ---------------------------------------------------------------------------------------


def multiclass_auc(
    scores: Mapping[Any, IntoExprColumn] | Sequence[str] | IntoExprColumn,
    label: IntoExprColumn,
    *,
    method: Method = "ovr",
    average: Literal["macro", "weighted", "micro"] = "macro",
    weight: IntoExprColumn | None = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    classes: Sequence[Any] | None = None,
) -> pl.Expr:
    """
    Multiclass AUC as a scalar expression, for ``select`` and ``group_by().agg()``.

    The numbers of :func:`polars_roc.multiclass.multiclass_auc` (``df.roc.multiclass_auc``) with an
    average, computed per class or pair with :func:`polars_roc.exprs.auc`. An expression
    cannot see the data's classes before it runs, so they come from `scores` (its keys, or
    the column names of a list) or, for one score column, from `classes`: the class values in
    pair order (the classes present are used, as pROC does).

    Parameters
    ----------
    scores
        ``{class: column or expression}``, a list of columns named like the classes, or one
        score column (name or expression) for the pairwise AUCs of one score.
    label
        Class column (name or expression).
    method, average, weight, direction
        As in :func:`polars_roc.multiclass.multiclass_auc` (`average` one of ``"macro"``,
        ``"weighted"``, ``"micro"``).
    nan_policy
        NaN scores, in any score column: ``"propagate"`` (default: the result is null when a
        class or pair it averages reads a NaN), ``"omit"`` (the case is skipped for every
        class, like a null score) or ``"raise"`` (an error naming the column and the count,
        when the query runs).
    classes
        The class values, in order; required with one score column, else not allowed.

    Returns
    -------
    pl.Expr
        A Float64 scalar named ``auc``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {
    ...         "g": [1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2],
    ...         "y": ["a", "a", "b", "b", "c", "c"] * 2,
    ...         "a": [0.8, 0.5, 0.1, 0.3, 0.2, 0.1] * 2,
    ...         "b": [0.1, 0.3, 0.7, 0.4, 0.2, 0.5] * 2,
    ...         "c": [0.1, 0.2, 0.2, 0.3, 0.6, 0.4, 0.3, 0.2, 0.2, 0.3, 0.1, 0.4],
    ...     }
    ... )
    >>> df.group_by("g", maintain_order=True).agg(pr.multiclass_auc(["a", "b", "c"], "y"))
    shape: (2, 2)
    ┌─────┬──────────┐
    │ g   ┆ auc      │
    │ --- ┆ ---      │
    │ i64 ┆ f64      │
    ╞═════╪══════════╡
    │ 1   ┆ 0.958333 │
    │ 2   ┆ 0.791667 │
    └─────┴──────────┘
    >>> df.select(pr.multiclass_auc("a", "y", classes=["a", "b", "c"], direction="lower"))
    shape: (1, 1)
    ┌───────┐
    │ auc   │
    │ ---   │
    │ f64   │
    ╞═══════╡
    │ 0.875 │
    └───────┘
    """
    validate.choice(method, METHODS, "method")
    validate.choice(average, ("macro", "weighted", "micro"), "average")
    validate.choice(direction, DIRECTIONS, "direction")
    policy = checks.nan_policy(nan_policy)
    y = labels.into_expr(label)
    # Weights are checked (finite, non-negative) once, on the result; the kernels read the
    # bare column: each repeat of a checked (Python) expression would run again.
    w = None if weight is None else labels.into_expr(weight).cast(pl.Float64)
    guard = pl.lit(0.0) if weight is None else labels.weight(weight).min() * 0.0
    per_class = (
        None if isinstance(scores, str | pl.Expr) else per_class_scores(scores)  # type: ignore[arg-type]
    )
    if per_class is None:
        if classes is None or len(classes) < 2:
            msg = (
                f"the pairwise AUCs of one score column need the classes, got classes="
                f"{classes!r}\n\nHint: classes=[...] in pair order, e.g. the label's categories."
            )
            raise ValueError(msg)
        if average == "micro":
            msg = "average='micro' needs one score column per class (method='ovr')"
            raise ValueError(msg)
        score, checked = _score(scores, policy)  # type: ignore[arg-type]
        value = _pairs(dict.fromkeys(classes, score), y, score.is_not_null(), w, average, direction)
        return (value + guard + checked).alias("auc")
    if classes is not None:
        msg = "classes= is for one score column; with one column per class they are its keys"
        raise ValueError(msg)
    if direction == "auto":
        msg = (
            "direction='auto' picks a direction per pair of one score column; with one column "
            "per class a higher score points to that class\n\nHint: direction='higher'."
        )
        raise ValueError(msg)
    keys, columns = per_class
    known = _comparable(y, keys)
    # A label without a score column, or keys of another type than the label, raise when
    # the query runs: one check, on the result.
    check = y.map_batches(
        fitted_coder(keys, checks.name_of(y, "label")),
        return_dtype=pl.UInt32,
        is_elementwise=True,
    )
    score_of = {}
    for c, column in zip(keys, columns, strict=True):
        score_of[c], checked = _score(column, policy)
        guard = guard + checked
    if direction == "lower":
        score_of = {c: -s + 0.0 for c, s in score_of.items()}
    complete = pl.all_horizontal(s.is_not_null() for s in score_of.values())
    if method == "ovo":
        value = _pairs(score_of, known, complete, w, average, "higher", hand_till=True)
    elif average == "micro":
        pooled = pl.concat_list(list(score_of.values())).explode()

        def cases_of(c: Any) -> pl.Expr:  # null for a class absent here: its rows skipped
            truth = pl.when(complete).then(known == pl.lit(c))
            counted = truth if w is None else truth & (w > 0)
            return pl.when(counted.any()).then(truth)

        truth = pl.concat_list([cases_of(c) for c in keys])
        weights = None if w is None else pl.concat_list([w] * len(keys)).explode()
        value = _auc(pooled, truth.explode(), weights)[0]
    else:
        aucs, sizes = [], []
        for c, s in score_of.items():
            auc, size = _auc(s, pl.when(complete).then(known == pl.lit(c)), w)
            aucs.append(auc)
            sizes.append(size)
        value = _combine(aucs, sizes, average)
    return (value + guard + check.max().cast(pl.Float64) * 0.0).alias("auc")


def _comparable(y: pl.Expr, keys: list[Any]) -> pl.Expr:
    """
    The label in the keys' type, so that ``label == key`` never fails in Polars.

    The label's dtype is known only when the query runs; a key of another type (1 against
    "a") must reach the check that names them rather than fail a comparison. String keys
    read the label as text (a Boolean label's columns named "true" / "false" match),
    integer and Boolean keys read it in their type (no-op casts for labels of that type;
    other values become null and the check names them); other keys, the label as it is.
    """
    if all(isinstance(k, str) for k in keys):
        return y.cast(pl.String)
    if all(isinstance(k, bool) for k in keys):
        return y.cast(pl.Boolean, strict=False)
    if all(isinstance(k, int) and not isinstance(k, bool) for k in keys):
        return y.cast(pl.Int64, strict=False)
    return y


def _score(column: IntoExprColumn, policy: NanPolicy) -> tuple[pl.Expr, pl.Expr]:
    """
    A score for the kernels, and a zero that runs its checks once (dtype, ``"raise"``).

    The score appears many times in the expression (every class or pair reads it, and each
    kernel several times); its checks are Python callbacks run per group, so they are kept
    out of it and run once, in a term added to the result.
    """
    score = labels.score(
        column, checked=False, nan_policy="omit" if policy == "omit" else "propagate"
    )
    checked = labels.score(column, nan_policy="raise" if policy == "raise" else "propagate")
    return score, checked.head(0).count().cast(pl.Float64) * 0.0


def _auc(score: pl.Expr, positive: pl.Expr, w: pl.Expr | None) -> tuple[pl.Expr, pl.Expr]:
    """
    The binary AUC kernel and the positives' size, for a Boolean `positive` expression.

    `positive` is null where a row does not count; the rows are masked here once rather
    than through :func:`polars_roc.kernels.rows`, which would repeat the (already large)
    label expression inside its mask: expression trees grow with every repeat.
    """
    keep = positive.is_not_null() & score.is_not_null()
    if w is not None:
        keep = keep & w.is_not_null() & (w > 0)
    r = kernels.Rows(
        pl.when(keep).then(score),
        pl.when(keep).then(positive),
        None if w is None else pl.when(keep).then(w),
    )
    return kernels.auc_of(r), kernels.class_totals(r)[0].cast(pl.Float64)


def _combine(aucs: list[pl.Expr], sizes: list[pl.Expr], average: str) -> pl.Expr:
    """
    The average of scalar AUCs over the present ones (size > 0), null if one of them is null.

    Each AUC appears once in the expression (sums that do not skip nulls carry a null).
    """
    weights = [
        pl.when(size > 0).then(size if average == "weighted" else pl.lit(1.0)).otherwise(0.0)
        for size in sizes
    ]
    total = pl.sum_horizontal(weights)
    terms = [
        pl.when(weight > 0).then(auc * weight).otherwise(0.0)
        for auc, weight in zip(aucs, weights, strict=True)
    ]
    value = pl.sum_horizontal(terms, ignore_nulls=False) / total
    return pl.when(total > 0).then(value).alias("auc")


def _pairs(
    score_of: Mapping[Any, pl.Expr],
    y: pl.Expr,
    keep: pl.Expr,
    w: pl.Expr | None,
    average: str,
    direction: Direction,
    *,
    hand_till: bool = False,
) -> pl.Expr:
    """
    The average of pair AUCs: Hand & Till's, or those of one score (all `score_of` equal).

    Pairs with a class absent (no case counted) are skipped, as pROC skips the class.
    """
    aucs, sizes = [], []
    for a, b in combinations(list(score_of), 2):
        is_a, is_b = y == pl.lit(a), y == pl.lit(b)
        inside = keep & (is_a | is_b)
        if hand_till:
            a_vs_b, n_a = _auc(score_of[a], pl.when(inside).then(is_a), w)
            b_vs_a, n_b = _auc(score_of[b], pl.when(inside).then(is_b), w)
            value = (a_vs_b + b_vs_a) / 2
        else:
            s = -score_of[a] + 0.0 if direction == "lower" else score_of[a]
            value, n_b = _auc(s, pl.when(inside).then(is_b), w)
            n_a = _auc(s, pl.when(inside).then(is_a), w)[1]
            if direction == "auto":
                # pROC's rule per pair; the medians appear once (a signed score would repeat
                # them inside every use of the score).
                counted = inside if w is None else inside & w.is_not_null() & (w > 0)
                flip = median_above(s, w, counted & is_a, counted & is_b)
                flip = flip.first()  # a scalar to Polars 2.0 too (it broadcast the weighted rule)
                value = pl.when(flip).then(1.0 - value).otherwise(value)
        present = (n_a > 0) & (n_b > 0)
        aucs.append(value)
        sizes.append(pl.when(present).then(n_a + n_b).otherwise(0.0))
    return _combine(aucs, sizes, average)
