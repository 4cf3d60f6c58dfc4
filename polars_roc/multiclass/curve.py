"""One-vs-rest ROC curves per class with the micro- and macro-averaged curves."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl
from polars._typing import PolarsDataType

from polars_roc._core import checks, validate
from polars_roc._core.checks import NanPolicy
from polars_roc._core.columns import CURVE
from polars_roc._core.counts import roc_points
from polars_roc._core.direction import Direction, flips, restored
from polars_roc._core.frames import same_kind
from polars_roc._core.validate import By
from polars_roc.multiclass._long import (
    Names,
    check_label,
    check_score,
    class_blocks,
    class_series,
    per_class_scores,
    present_classes,
)

__all__ = ["AVERAGED", "multiclass_curve"]

#: The class values of the averaged curves in :func:`multiclass_curve`.
AVERAGED = ("micro", "macro")


def _macro_curve(
    per_class: pl.LazyFrame, k: int, names: list[str], n: Names, counts: PolarsDataType
) -> pl.LazyFrame:
    """
    The vertical average of the class curves on the union of their FPR values.

    At each FPR of any class, each class's TPR is read off its curve (linear between its
    points); where a class's curve is vertical at that FPR both ends are kept, so the average
    has a bottom and a top point there. Averages of curves that are linear between the grid
    points are linear between them too, so the area under this curve is the mean of the
    class AUCs (the macro AUC) exactly, up to rounding. Classes with no curve (absent from
    the group) are left out; a class whose curve is undefined (a NaN score) makes the average
    null.
    """
    part = [*names, n.cls]
    defined = pl.col("tpr").is_not_null() & pl.col("fpr").is_not_null()
    vertices = (
        per_class.filter(defined)
        .group_by([*part, "fpr"])
        .agg(_lo=pl.col("tpr").min(), _hi=pl.col("tpr").max())
    )
    nan = float("nan")
    poisoned = (
        per_class.filter(pl.col("fn").is_null())
        .select(part)
        .unique()
        .join(pl.LazyFrame({"fpr": [0.0, 1.0], "_lo": [nan, nan], "_hi": [nan, nan]}), how="cross")
    )
    vertices = pl.concat([vertices, poisoned], how="diagonal_relaxed")
    codes = pl.LazyFrame({n.cls: pl.Series(range(k), dtype=pl.UInt32)})
    probes = vertices.select(*names, "fpr").unique().join(codes, how="cross")
    rows = pl.concat(
        [vertices.with_columns(_probe=pl.lit(False)), probes.with_columns(_probe=pl.lit(True))],
        how="diagonal_relaxed",
    ).sort([*part, "fpr", "_probe"], nulls_last=True, maintain_order=True)

    def carried(column: str, *, forward: bool) -> pl.Expr:
        value = pl.when(~pl.col("_probe")).then(pl.col(column))
        filled = value.forward_fill() if forward else value.backward_fill()
        return filled.over(part)

    x = pl.col("fpr")
    x0, lo0, hi0 = (carried(c, forward=True) for c in ("fpr", "_lo", "_hi"))
    x1, lo1 = carried("fpr", forward=False), carried("_lo", forward=False)
    slope_t = (x - x0) / (x1 - x0)
    at = hi0 + slope_t * (lo1 - hi0)
    read = rows.with_columns(
        _lo=pl.when(x0 == x).then(lo0).otherwise(at), _hi=pl.when(x0 == x).then(hi0).otherwise(at)
    ).filter(pl.col("_probe"))
    mean = read.group_by([*names, "fpr"]).agg(pl.col("_lo").mean(), pl.col("_hi").mean())
    ends = pl.concat(
        [mean.select(*names, "fpr", tpr="_lo"), mean.select(*names, "fpr", tpr="_hi")]
    ).unique()
    null = pl.lit(None, dtype=counts)
    return ends.sort([*names, "fpr", "tpr"], nulls_last=True).select(
        *names,
        pl.lit("macro").alias("class"),
        pl.lit(None, dtype=pl.Float64).alias("threshold"),
        null.alias("tp"),
        null.alias("fp"),
        null.alias("tn"),
        null.alias("fn"),
        pl.col("tpr").fill_nan(None),
        pl.when(pl.col("tpr").is_nan()).then(None).otherwise(pl.col("fpr")).alias("fpr"),
    )


@same_kind
def multiclass_curve(
    lf: pl.LazyFrame,
    scores: Mapping[Any, str] | Sequence[str],
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.LazyFrame:
    """
    One-vs-rest ROC curves per class, with the micro- and macro-averaged curves.

    Each class's curve is :func:`polars_roc.curves.curve` of its score column against "the
    case is of this class". ``class="micro"`` is the curve of the class-vs-rest rows of the
    classes present in the group, pooled (its area is ``multiclass_auc(average="micro")``);
    ``class="macro"`` is the vertical average of the class curves on the union of their FPR
    values (linear between each class's points; where a curve is vertical both ends are
    kept), so its area is the mean of the class AUCs, ``multiclass_auc(average="macro")``.
    The macro rows carry rates only: their threshold and counts are null. Classes absent
    from a group have null rates and are left out of the macro average.

    Parameters
    ----------
    lf
        Scored rows.
    scores
        ``{class: column}`` or a list of columns named like the classes.
    label, by, weight
        As in :func:`polars_roc.multiclass.multiclass_auc`.
    direction
        ``"higher"`` (a higher score means the column's class) or ``"lower"`` (as negating
        every score; thresholds stay in score units, a case predicted of the class iff
        ``score <= threshold``); never guessed.
    nan_policy
        NaN scores, in any score column: ``"propagate"`` (default: the curve of a class whose
        column holds one, the micro curve and the macro average are null), ``"omit"`` (the
        case is skipped for every class, like a null score) or ``"raise"`` (an error naming
        the column and the count).

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, class, threshold, tp, fp, tn, fn, tpr, fpr``; `class` is a string (the class
        values, then ``"micro"`` and ``"macro"``), per group in that order, each curve from
        (0, 0) to (1, 1).

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {
    ...         "y": ["a", "a", "b", "b", "c", "c"],
    ...         "a": [0.8, 0.5, 0.1, 0.3, 0.2, 0.1],
    ...         "b": [0.1, 0.3, 0.7, 0.4, 0.2, 0.5],
    ...         "c": [0.1, 0.2, 0.2, 0.3, 0.6, 0.4],
    ...     }
    ... )
    >>> curves = df.roc.multiclass_curve(["a", "b", "c"], "y")
    >>> curves.group_by("class", maintain_order=True).len()
    shape: (5, 2)
    ┌───────┬─────┐
    │ class ┆ len │
    │ ---   ┆ --- │
    │ str   ┆ u32 │
    ╞═══════╪═════╡
    │ a     ┆ 6   │
    │ b     ┆ 7   │
    │ c     ┆ 6   │
    │ micro ┆ 9   │
    │ macro ┆ 7   │
    └───────┴─────┘
    >>> pr.charts.roc_chart(curves, color="class").to_dict()["layer"][1]["encoding"][
    ...     "strokeDash"]["condition"]["value"]
    [6, 4]
    """
    names = validate.as_names(by)
    schema = lf.collect_schema()
    label_dtype = check_label(schema, label)
    for name in names:
        validate.column(schema, name, "by")
    flips(direction)  # checks it
    policy = checks.nan_policy(nan_policy)
    per_class = per_class_scores(scores)
    if per_class is None:
        msg = (
            f"multiclass_curve needs one score column per class, got {scores!r}"
            f"\n\nHint: pass {{class: column}} or a list of columns named like the classes."
        )
        raise ValueError(msg)
    classes_list, columns = per_class
    for column in columns:
        check_score(schema, column)
    if weight is not None:
        validate.column(schema, weight, "weight")
    validate.no_clash(names, ["class", *CURVE])
    classes = class_series(classes_list, label, label_dtype)
    n = Names(schema)
    if policy != "propagate":
        lf = lf.with_columns(checks.apply_nan_policy(pl.col(c), policy, c) for c in columns)
    long = class_blocks(
        lf, classes, columns, label, names=names, weight=weight, direction=direction, n=n
    )
    w = None if weight is None else n.weight
    per_class_curves = roc_points(
        long, n.score, n.positive, by=[*names, n.cls], weight=w, pos_label=None
    )
    text = classes.cast(pl.String)
    named = per_class_curves.select(
        *names,
        pl.col(n.cls).replace_strict(range(text.len()), text, return_dtype=pl.String)
        .alias("class"),
        pl.all().exclude([*names, n.cls]),
    )  # fmt: skip
    pooled = present_classes(long, names, n)  # as the micro AUC: absent classes skipped
    micro = roc_points(pooled, n.score, n.positive, by=names, weight=w, pos_label=None).select(
        *names, pl.lit("micro").alias("class"), pl.all().exclude(names)
    )
    counts = pl.Int64 if weight is None else pl.Float64
    macro = _macro_curve(per_class_curves, classes.len(), names, n, counts)
    out = pl.concat(
        [restored(named, direction), restored(micro, direction), macro], how="vertical_relaxed"
    )
    if not names:
        return out
    # Groups in order, each with its classes, micro and macro in turn (a stable sort).
    return out.sort(names, nulls_last=True, maintain_order=True)
