"""The trapezoidal area under the precision-recall curve (`pr_auc`), beside average precision.

Two summaries of one curve, and they differ:

* :func:`polars_roc.average_precision` is the step sum ``Σ (R_n - R_{n-1}) P_n``
  (scikit-learn's ``average_precision_score``): precision is held constant over each
  recall step, no interpolation;
* :func:`pr_auc` joins the points of :func:`polars_roc.precision_recall.pr_curve` with
  straight lines and takes the area (scikit-learn's ``auc(recall, precision)``), the
  final point (recall 0, precision 1) included. Points between two thresholds on that
  straight line are not attainable (Davis & Goadrich, 2006: PR space interpolates
  non-linearly), and where precision falls along a recall step the line overstates it;
  where it rises, average precision's step is the more generous. The two differ either way.
"""

from __future__ import annotations

from typing import Any

import polars as pl
from polars._typing import IntoExprColumn

from polars_roc import _validate
from polars_roc._validate import By
from polars_roc.curves import per_group
from polars_roc.exprs import Rows, rows
from polars_roc.precision_recall import pr_curve


def _pr_auc_of(r: Rows) -> pl.Expr:
    """Trapezoidal PR area of prepared rows; null without positives or with a NaN score."""
    order = {"descending": True}
    y = r.positive.sort_by(r.score, **order)
    s = r.score.sort(**order)
    if r.weight is None:
        w_pos, w_neg = y.cast(pl.Int64), (~y).cast(pl.Int64)
    else:
        w = r.weight.sort_by(r.score, **order)
        w_pos, w_neg = w * y, w * ~y
    tp, fp = w_pos.cum_sum(), w_neg.cum_sum()
    n_pos = tp.last()  # scikit-learn divides by the last cumulative count
    # One point per distinct score, read at the last row of its block of ties.
    block_end = (s != s.shift(-1)).fill_null(value=True)
    recall = (tp / n_pos).filter(block_end)
    precision = (tp / (tp + fp)).filter(block_end)
    # From the point (recall 0, precision 1) at the top, down the thresholds.
    step = recall - recall.shift(1).fill_null(0.0)
    height = (precision + precision.shift(1).fill_null(1.0)) / 2
    defined = (n_pos > 0) & ~r.score.is_nan().any()
    return pl.when(defined).then((step * height).sum())


def pr_auc(
    score: IntoExprColumn,
    label: IntoExprColumn,
    *,
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
) -> pl.Expr:
    """
    Trapezoidal area under the precision-recall curve, as a scalar expression.

    The points of :func:`polars_roc.precision_recall.pr_curve` as it returns them (one per
    distinct score, plus recall 0 at precision 1) joined by straight lines: scikit-learn's
    ``auc(recall, precision)`` of ``precision_recall_curve``. :func:`average_precision`
    sums steps instead (precision held constant over each recall step), so the two differ;
    see the example. Null when there is no positive or a NaN score. Rows with a null score,
    label or weight are skipped; a weight of 0 drops the row.

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

    Returns
    -------
    pl.Expr
        A Float64 scalar named ``pr_auc``.

    Examples
    --------
    The curve passes through (recall, precision) = (0, 1), (0.5, 1), (0.5, 0.5), (1, 2/3),
    (1, 0.5). Average precision counts the recall gained at each threshold at that
    threshold's precision: 0.5 * 1 + 0.5 * 2/3 = 0.8333. The trapezoidal area also counts
    the straight line from (0.5, 0.5) up to (1, 2/3): 0.5 * 1 + 0.5 * (0.5 + 2/3) / 2 =
    0.7917; here it is the smaller, because precision rises along that step.

    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "p": [0.1, 0.4, 0.35, 0.8]})
    >>> df.select(pr.average_precision("p", "y").round(4), pr.pr_auc("p", "y").round(4))
    shape: (1, 2)
    ┌───────────────────┬────────┐
    │ average_precision ┆ pr_auc │
    │ ---               ┆ ---    │
    │ f64               ┆ f64    │
    ╞═══════════════════╪════════╡
    │ 0.8333            ┆ 0.7917 │
    └───────────────────┴────────┘
    """
    r = rows(score, label, weight=weight, pos_label=pos_label)
    return _pr_auc_of(r).alias("pr_auc")


def pr_auc_table(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
) -> pl.LazyFrame:
    """
    Trapezoidal area under each group's precision-recall curve (``df.roc.pr_auc``).

    The area of :func:`polars_roc.precision_recall.pr_curve` exactly as it is returned,
    point to point by the trapezoid rule (scikit-learn's ``auc(recall, precision)``); the
    same number as the expression :func:`pr_auc`. Null for a group without positives or
    with a NaN score.

    Parameters
    ----------
    lf, score, label, by, weight, pos_label
        Scored rows and column roles, as in :func:`polars_roc.precision_recall.pr_curve`.

    Returns
    -------
    pl.LazyFrame
        ``*by, pr_auc``, one row per group, sorted by group.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"label": [0, 0, 1, 1], "score": [0.1, 0.4, 0.35, 0.8]})
    >>> round(df.roc.pr_auc()["pr_auc"].item(), 4)
    0.7917
    """
    names = _validate.as_names(by)
    if "pr_auc" in names:
        msg = "by column 'pr_auc' would collide with the output column\n\nHint: rename it."
        raise ValueError(msg)
    points = pr_curve(lf, score, label, by=names, weight=weight, pos_label=pos_label)
    recall, precision = pl.col("recall"), pl.col("precision")
    # Rows run thresholds ascending, so recall falls: each step adds (R_i - R_{i+1}) * mean P.
    step = recall - per_group(recall.shift(-1), names)
    height = (precision + per_group(precision.shift(-1), names)) / 2
    defined = recall.is_not_null().all() & precision.is_not_null().all()
    parts = points.with_columns(_part=step * height)
    area = pl.when(defined).then(pl.col("_part").sum()).alias("pr_auc")
    if not names:
        return parts.select(area)
    return parts.group_by(names).agg(area).sort(names, nulls_last=True)
