"""The AUC and its kin as scalar expressions: AUC, Gini, partial AUC, DeLong standard error.

Each is valid in `select`, `group_by().agg()`, `over()`, `group_by_dynamic()` and the
streaming engine, and gives its frame method's number (``df.roc.auc``, ``df.roc.partial_auc``,
``df.roc.auc(ci="delong")``) from the same kernel.

Examples
--------
>>> import polars as pl
>>> import polars_roc as pr
>>> df = pl.DataFrame(
...     {"model": ["a"] * 4 + ["b"] * 4, "y": [0, 0, 1, 1] * 2, "p": [0.1, 0.4, 0.35, 0.8] * 2}
... )
>>> df.group_by("model", maintain_order=True).agg(pr.auc("p", "y"))
shape: (2, 2)
┌───────┬──────┐
│ model ┆ auc  │
│ ---   ┆ ---  │
│ str   ┆ f64  │
╞═══════╪══════╡
│ a     ┆ 0.75 │
│ b     ┆ 0.75 │
└───────┴──────┘
"""

from __future__ import annotations

from typing import Any, Literal

import polars as pl
from polars._typing import IntoExprColumn

from polars_roc._core import validate
from polars_roc._core.checks import NanPolicy, is_nan
from polars_roc._core.delong import placement_variance
from polars_roc._core.direction import Direction, expression
from polars_roc._core.groups import at_block_end, before_block
from polars_roc._core.kernels import Rows, auc_of, checked_rows, class_totals, rows
from polars_roc._core.vertices import field, mcclish, packed, partial_area, scalar, vertices

__all__ = ["auc", "auc_se", "gini", "partial_auc"]


def auc(
    score: IntoExprColumn,
    label: IntoExprColumn,
    *,
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.Expr:
    """
    Area under the ROC curve as a scalar expression; tied scores count one half.

    The probability that a random positive scores above a random negative (ties ½), i.e.
    the trapezoidal area under the ROC curve. Null when the rows hold no positive or no
    negative, or a NaN score. Rows with a null score, label or weight are skipped; a weight
    of 0 drops the row and an integer weight k counts the row k times.

    Parameters
    ----------
    score
        Numeric score column (name or expression); higher means more likely positive.
    label
        Class column: Boolean, 0/1 integer, or any coding with `pos_label`.
    weight
        Optional non-negative case weights.
    pos_label
        The positive class. Default: True for Boolean labels, 1 for 0/1 integers.
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"`` (the same as negating
        the score); never guessed from the data.
    nan_policy
        NaN scores: ``"propagate"`` (default: the result is null), ``"omit"`` (skipped like
        nulls) or ``"raise"`` (an error naming the column and the count, when the query runs).

    Returns
    -------
    pl.Expr
        A Float64 scalar named ``auc``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "p": [0.1, 0.4, 0.35, 0.8]})
    >>> df.select(pr.auc("p", "y")).item()
    0.75
    >>> df.select(pr.auc("p", "y", weight=pl.lit(2.0))).item()
    0.75
    >>> df.with_columns(pl.col("p").roc.auc("y").over(pl.col("y") >= 0))["auc"].to_list()
    [0.75, 0.75, 0.75, 0.75]
    """
    scores = expression(score, direction)
    if weight is None and pos_label is None and nan_policy == "propagate":
        r, nan = checked_rows(scores, label)  # no Python callback among the values
        return auc_of(r, nan).alias("auc")
    r = rows(scores, label, weight=weight, pos_label=pos_label, masked=True, nan_policy=nan_policy)
    return auc_of(r).alias("auc")


def gini(
    score: IntoExprColumn,
    label: IntoExprColumn,
    *,
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.Expr:
    """
    The Gini coefficient (accuracy ratio, Somers' D) of a score: ``2 * AUC - 1``.

    1 for a perfect ordering, 0 for a random one, negative when the score ranks the classes
    the wrong way round. It is also the area between the cumulative accuracy profile (the
    gain curve) and the diagonal, over the same area for a perfect model. Tied scores count
    one half, as in :func:`polars_roc.auc`; null where the AUC is.

    Parameters
    ----------
    score
        Numeric score column (name or expression); higher means more likely positive.
    label
        Class column: Boolean, 0/1 integer, or any coding with `pos_label`.
    weight
        Optional non-negative case weights.
    pos_label
        The positive class. Default: True for Boolean labels, 1 for 0/1 integers.
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"`` (the same as negating
        the score); never guessed from the data.
    nan_policy
        NaN scores: ``"propagate"`` (default: the result is null), ``"omit"`` (skipped like
        nulls) or ``"raise"`` (an error naming the column and the count, when the query runs).

    Returns
    -------
    pl.Expr
        A Float64 scalar named ``gini``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "p": [0.1, 0.4, 0.35, 0.8]})
    >>> df.select(pr.auc("p", "y"), pr.gini("p", "y"))
    shape: (1, 2)
    ┌──────┬──────┐
    │ auc  ┆ gini │
    │ ---  ┆ ---  │
    │ f64  ┆ f64  │
    ╞══════╪══════╡
    │ 0.75 ┆ 0.5  │
    └──────┴──────┘
    """
    area = auc(
        score,
        label,
        weight=weight,
        pos_label=pos_label,
        direction=direction,
        nan_policy=nan_policy,
    )
    return (2 * area - 1).alias("gini")


def partial_auc(
    score: IntoExprColumn,
    label: IntoExprColumn,
    *,
    fpr: tuple[float, float] | None = None,
    tpr: tuple[float, float] | None = None,
    standardized: bool = False,
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.Expr:
    """
    Partial AUC over an FPR or a TPR range as a scalar expression (raw, or McClish's).

    The number of ``df.roc.partial_auc``: with ``fpr=(lo, hi)`` the integral of TPR over
    that FPR range, with ``tpr=(lo, hi)`` the integral of specificity over that TPR range,
    the curve interpolated linearly at the bounds; `standardized` gives McClish's
    ``(1 + (A - min) / (max - min)) / 2`` (the frame's ``pauc_std``; for ``fpr=(0, b)``
    scikit-learn's ``roc_auc_score(max_fpr=b)``). Null where the frame's is: no positive,
    no negative, or a NaN score.

    Parameters
    ----------
    score, label, weight, pos_label
        Column roles, as in :func:`auc`.
    fpr
        FPR range ``(lo, hi)``, ``0 <= lo < hi <= 1``.
    tpr
        TPR range ``(lo, hi)``; give exactly one of `fpr` and `tpr`.
    standardized
        McClish's standardization (``pauc_std``) instead of the raw area (``pauc``).
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"`` (the same as negating
        the score); never guessed from the data.
    nan_policy
        NaN scores: ``"propagate"`` (default: the result is null), ``"omit"`` (skipped like
        nulls) or ``"raise"`` (an error naming the column and the count, when the query runs).

    Returns
    -------
    pl.Expr
        A Float64 scalar named ``pauc`` (``pauc_std`` when `standardized`).

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.3, 0.2], "label": [1, 0, 1, 0, 0]})
    >>> df.select(
    ...     pr.partial_auc("score", "label", fpr=(0.0, 0.5)),
    ...     pr.partial_auc("score", "label", fpr=(0.0, 0.5), standardized=True),
    ... )
    shape: (1, 2)
    ┌──────────┬──────────┐
    │ pauc     ┆ pauc_std │
    │ ---      ┆ ---      │
    │ f64      ┆ f64      │
    ╞══════════╪══════════╡
    │ 0.333333 ┆ 0.777778 │
    └──────────┴──────────┘
    """
    if (fpr is None) == (tpr is None):
        msg = "give exactly one range: fpr=(lo, hi) or tpr=(lo, hi)\n\nHint: fpr=(0.0, 0.2)."
        raise ValueError(msg)
    along: Literal["fpr", "tpr"] = "fpr" if fpr is not None else "tpr"
    lo, hi = validate.unit_range(fpr if fpr is not None else tpr, along)
    r = rows(
        expression(score, direction),
        label,
        weight=weight,
        pos_label=pos_label,
        nan_policy=nan_policy,
    )
    x, y = (field("fpr"), field("tpr")) if along == "fpr" else (field("tpr"), 1 - field("fpr"))
    area = partial_area(x, y, lo, hi)
    if standardized:
        return mcclish(scalar(vertices(r), area), lo, hi, along).alias("pauc_std")
    return scalar(vertices(r), area).alias("pauc")


def _placed(weighted: bool) -> Rows:
    """
    Inside ``list.eval`` over packed rows: each row's ``_d`` (see ``_core.delong``), class, weight.

    Unweighted, ``_d`` is the row's midrank among all rows less its midrank within its class
    (Sun & Xu), the rows reordered positives first (an expression has no window). Weighted,
    the rows sorted by score: the other class's weight below plus half of it tied.
    """
    e = pl.element().struct
    s, y = e.field("s"), e.field("y")
    if not weighted:
        overall = s.rank("average")
        d = pl.concat(
            [
                overall.filter(y) - s.filter(y).rank("average"),
                overall.filter(~y) - s.filter(~y).rank("average"),
            ]
        )
        return Rows(d, pl.concat([y.filter(y), y.filter(~y)]), None)
    w = e.field("w")
    s = s + 0  # -0.0 and 0.0 are one score
    s_sorted, y, w = s.sort(), y.sort_by(s), w.sort_by(s)
    first = s_sorted.ne_missing(s_sorted.shift(1))

    def below(mass: pl.Expr) -> pl.Expr:
        running = mass.cum_sum()
        end = at_block_end(running, first)
        return end - (end - before_block(running, mass, first)) / 2

    pos, neg = w * y.cast(pl.Float64), w * (~y).cast(pl.Float64)
    return Rows(pl.when(y).then(below(neg)).otherwise(below(pos)), y, w)


def auc_se(
    score: IntoExprColumn,
    label: IntoExprColumn,
    *,
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.Expr:
    """
    DeLong standard error of the AUC as a scalar expression.

    The ``auc_se`` of ``df.roc.auc(ci="delong")``: ``sqrt(S10 / n_pos + S01 / n_neg)`` with
    ``S10``, ``S01`` the sample variances of the placements (DeLong et al., 1988, midranks as
    Sun & Xu, 2014); with frequency weights, a row of integer weight k counts as k rows.
    Null when a class has fewer than 2 rows (weight sum below 2) or a score is NaN.

    Parameters
    ----------
    score, label, weight, pos_label
        Column roles, as in :func:`auc`.
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"`` (the same as negating
        the score); never guessed from the data.
    nan_policy
        NaN scores: ``"propagate"`` (default: the result is null), ``"omit"`` (skipped like
        nulls) or ``"raise"`` (an error naming the column and the count, when the query runs).

    Returns
    -------
    pl.Expr
        A Float64 scalar named ``auc_se``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.9, 0.8, 0.3, 0.6, 0.2, 0.1], "label": [1, 1, 1, 0, 0, 0]})
    >>> round(df.select(pr.auc_se("score", "label")).item(), 6)
    0.157135
    >>> df.roc.auc(ci="delong")["auc_se"].round(6).item()
    0.157135
    """
    r = rows(
        expression(score, direction),
        label,
        weight=weight,
        pos_label=pos_label,
        nan_policy=nan_policy,
    )
    placed = _placed(weighted=r.weight is not None)
    n_pos, n_neg = (n.cast(pl.Float64) for n in class_totals(placed))
    variance = placement_variance(placed.score, placed.positive, placed.weight, n_pos, n_neg)
    s = pl.element().struct.field("s")
    defined = (n_pos > 0) & (n_neg > 0) & ~is_nan(s).any()
    se = packed(r).list.eval(pl.when(defined).then(variance.sqrt()))
    return se.list.first().alias("auc_se")
