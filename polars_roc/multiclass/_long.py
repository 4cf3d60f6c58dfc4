"""Multiclass rows: argument checks, the one coding of label and class scores, long forms."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import polars as pl
from polars.exceptions import SchemaError

from polars_roc._core import labels, validate
from polars_roc._core.names import fresh
from polars_roc.typing import MulticlassDirection as Direction

Scores = Mapping[Any, str] | Sequence[str] | str

METHODS = ("ovr", "ovo")
AVERAGES = ("macro", "weighted", "micro", None)
DIRECTIONS = ("higher", "lower", "auto")


# ---------------------------------------------------------------------------------------
# Arguments and schema
# ---------------------------------------------------------------------------------------


def check_score(schema: pl.Schema, name: str) -> None:
    dtype = validate.column(schema, name, "score")
    if not dtype.is_numeric() or dtype == pl.Boolean:
        msg = (
            f"score column {name!r} has dtype {dtype}, expected a numeric score"
            f"\n\nHint: pass one numeric score column per class, {{class: column}}."
        )
        raise SchemaError(msg)


def check_label(schema: pl.Schema, label: str) -> pl.DataType:
    dtype = validate.column(schema, label, "label")
    if not validate.is_label_dtype(dtype) or dtype.is_float():
        msg = (
            f"label column {label!r} has dtype {dtype}, expected Boolean, integer, string or "
            f"categorical classes\n\nHint: pass label=<class column>."
        )
        raise SchemaError(msg)
    return dtype


def class_series(values: list[Any], label: str, dtype: pl.DataType) -> pl.Series:
    """The class values as a Series of the label's dtype; an error if one cannot be."""
    if isinstance(dtype, pl.Enum):
        categories = dtype.categories.to_list()
        missing = [v for v in values if v not in categories]
        if missing:
            msg = (
                f"class(es) {missing} are not categories of label column {label!r}: "
                f"{categories}\n\nHint: name the score columns after the categories."
            )
            raise ValueError(msg)
    try:
        series = pl.Series("class", values).cast(dtype, strict=True)
    except Exception:
        msg = (
            f"class values {values} do not fit label column {label!r} of dtype {dtype}"
            f"\n\nHint: pass {{class: column}} with classes of the label's type."
        )
        raise TypeError(msg) from None
    if series.n_unique() != series.len():
        msg = f"class values {values} repeat a class\n\nHint: one score column per class."
        raise ValueError(msg)
    return series


def per_class_scores(scores: Scores) -> tuple[list[Any], list[Any]] | None:
    """``(classes, columns)`` for a mapping or a list of columns; None for one score."""
    if isinstance(scores, str | pl.Expr):
        return None
    if isinstance(scores, Mapping):
        classes, columns = list(scores), list(scores.values())
    else:
        columns = list(scores)
        classes = list(columns)
        if not all(isinstance(c, str) for c in columns):
            msg = (
                f"scores as a list must hold column names named like the classes, got "
                f"{scores!r}\n\nHint: pass {{class: column}} for other names."
            )
            raise TypeError(msg)
    if len(classes) < 2:
        msg = (
            f"multiclass scores need a score column for at least two classes, got {scores!r}"
            f"\n\nHint: {{'a': 'p_a', 'b': 'p_b', 'c': 'p_c'}}, or one column name for the "
            f"pairwise AUCs of a single score."
        )
        raise ValueError(msg)
    return classes, columns


def coder(classes: pl.Series, label: str) -> Callable[[pl.Series], pl.Series]:
    """Label values to class codes 0..k-1; raises on a label that has no score column."""
    codes = pl.Series(range(classes.len()), dtype=pl.UInt32)

    def code(labels: pl.Series) -> pl.Series:
        coded = labels.replace_strict(classes, codes, default=None, return_dtype=pl.UInt32)
        unknown = labels.filter(labels.is_not_null() & coded.is_null())
        if unknown.len() > 0:
            found = unknown.unique().sort().head(5).to_list()
            msg = (
                f"label column {label!r} holds {found}, which have no score column; score "
                f"columns are given for {classes.to_list()}\n\nHint: pass one score column "
                f"per class, {{class: column}}, or drop those rows first."
            )
            raise ValueError(msg)
        return coded

    return code


def weighted_median(s: pl.Expr, w: pl.Expr | None) -> pl.Expr:
    """The median (R's: the mean of the two middle values); weights count as repeats."""
    if w is None:
        return s.median()
    order = s.arg_sort()
    values, weights = s.gather(order), w.gather(order)
    running, half = weights.cum_sum(), weights.sum() / 2
    lower = values.filter(running >= half).first()
    upper = values.filter(running > half).first()
    return (lower + upper) / 2


# ---------------------------------------------------------------------------------------
# Frames: long form per class, per class pair
# ---------------------------------------------------------------------------------------


class Names:
    """Internal column names for one call, none equal to a column of the user's frame."""

    def __init__(self, schema: pl.Schema) -> None:
        taken = list(schema)
        self.score = fresh("_mc_score", taken)
        self.positive = fresh("_mc_positive", taken)
        self.weight = fresh("_mc_weight", taken)
        self.code = fresh("_mc_code", taken)
        self.cls = fresh("_mc_class", taken)
        self.other = fresh("_mc_other", taken)
        self.flip = fresh("_mc_flip", taken)
        self.prefix = fresh("_mc_s", taken) + "_"


def coded_scores(
    lf: pl.LazyFrame,
    classes: pl.Series,
    columns: list[str],
    label: str,
    *,
    names: list[str],
    weight: str | None,
    direction: Direction,
    n: Names,
) -> pl.LazyFrame:
    """
    ``*names, code, score_0..score_{k-1} (, weight)``: rows that do not count are all null.

    `code` is the case's class (0..k-1), null when the case does not count: a null label or
    weight, a zero weight, or a null score in any column. Its scores (and weight) are set to
    null too, so ranks, sums and filters skip it for every class. Scores are Float64,
    negated under ``direction="lower"``; a negated zero ties with a zero.
    """
    code = pl.col(label).map_batches(
        coder(classes, label), return_dtype=pl.UInt32, is_elementwise=True
    )
    keep = pl.all_horizontal(pl.col(c).is_not_null() for c in columns)
    extra = []
    if weight is not None:
        w = labels.weight(weight)
        keep = keep & w.is_not_null() & (w > 0)
        extra = [pl.when(keep).then(pl.col(weight).cast(pl.Float64)).alias(n.weight)]
    sign = -1.0 if direction == "lower" else 1.0
    return lf.select(
        *names,
        pl.when(keep).then(code).alias(n.code),
        *[
            pl.when(keep & pl.col(label).is_not_null())
            .then(pl.col(c).cast(pl.Float64) * sign + 0.0)
            .alias(f"{n.prefix}{i}")
            for i, c in enumerate(columns)
        ],
        *extra,
    )


def class_blocks(
    lf: pl.LazyFrame,
    classes: pl.Series,
    columns: list[str],
    label: str,
    *,
    names: list[str],
    weight: str | None,
    direction: Direction,
    n: Names,
) -> pl.LazyFrame:
    """
    ``*names, code, cls, score, positive (, weight)``: one row per case and class.

    The rows of :func:`coded_scores`, stacked: `cls` is the class whose score column `score`
    comes from, and `positive` whether the case is of that class. A case that does not
    count (a null score in any column, a null label or weight, a zero weight) has a null
    `positive` for every class, so that all classes count the same cases.
    """
    coded = coded_scores(
        lf, classes, columns, label, names=names, weight=weight, direction=direction, n=n
    )
    extra = [] if weight is None else [n.weight]
    # One block of rows per class (a concat of projections: no unpivot, whose variable
    # column would be a string to parse back into the class).
    blocks = [
        coded.select(
            *names,
            n.code,
            *extra,
            pl.lit(i, dtype=pl.UInt32).alias(n.cls),
            pl.col(f"{n.prefix}{i}").alias(n.score),
            (pl.col(n.code) == i).alias(n.positive),
        )
        for i in range(len(columns))
    ]
    return pl.concat(blocks)


def group_keys(lf: pl.LazyFrame, names: list[str]) -> pl.LazyFrame | None:
    """The distinct `by` keys of the frame (None without groups)."""
    return lf.select(names).unique() if names else None


def anchored(keys: pl.LazyFrame | None, cells: pl.LazyFrame) -> pl.LazyFrame:
    """
    One empty row per group and cell (class or pair): rows the core skips (no label).

    Concatenated to the rows, they make every class or pair of every group (and of an empty
    frame) appear in the output, with a null AUC and zero counts.
    """
    return cells if keys is None else keys.join(cells, how="cross")


def pairs_of_one_score(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    names: list[str],
    weight: str | None,
    direction: Direction,
    label_dtype: pl.DataType,
    keys: pl.LazyFrame | None,
    n: Names,
) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """
    Pair rows ``*names, cls (a), other (b), score, positive (, weight)`` and the class table.

    Classes are ordered as the label's Enum categories, else sorted. Each case of class c
    joins every pair (a, b) with c among them; it is positive when c is b, the later class.
    The score is signed so that a higher value points to b: negated for ``"lower"``, and for
    ``"auto"`` per pair by pROC's rule (``"<"``, higher means b, iff median(a) <= median(b)).
    """
    y = pl.col(label)
    code = y.to_physical() if isinstance(label_dtype, pl.Enum) else y.rank("dense")
    extra = {} if weight is None else {n.weight: pl.col(weight)}
    coded = lf.select(
        *names,
        **{n.code: code.cast(pl.UInt32), n.score: pl.col(score).cast(pl.Float64)},
        **extra,
        _mc_value=y,
    )
    value = fresh("_mc_value", [*names, n.code, n.score, *extra])
    coded = coded.rename({"_mc_value": value})
    classes = coded.filter(pl.col(n.code).is_not_null()).select(n.code, value).unique()
    others = classes.select(pl.col(n.code).alias(n.other))
    pairs = (
        coded.drop(value)
        .join(others, how="cross")
        .filter(pl.col(n.other) != pl.col(n.code))
        .select(
            *names,
            pl.min_horizontal(n.code, n.other).alias(n.cls),
            pl.max_horizontal(n.code, n.other).alias(n.other),
            n.score,
            (pl.col(n.code) > pl.col(n.other)).alias(n.positive),
            *extra,
        )
    )
    if keys is not None:
        pairs = pl.concat([pairs, keys], how="diagonal_relaxed")
    if direction != "higher":
        sign: pl.Expr = pl.lit(-1.0)
        if direction == "auto":
            w = None if weight is None else pl.col(n.weight)
            counted = labels.kept(pl.col(n.score), pl.col(n.positive), w)

            def median(side: pl.Expr) -> pl.Expr:
                mask = counted & side
                return weighted_median(
                    pl.col(n.score).filter(mask), None if w is None else w.filter(mask)
                )

            rule = median(~pl.col(n.positive)) > median(pl.col(n.positive))
            pairs = pairs.with_columns(rule.over([*names, n.cls, n.other]).alias(n.flip))
            sign = pl.when(pl.col(n.flip)).then(-1.0).otherwise(1.0)
        pairs = pairs.with_columns(pl.col(n.score) * sign + 0.0)
    return pairs, classes


# ---------------------------------------------------------------------------------------
# Averages
# ---------------------------------------------------------------------------------------


def average_rows(
    table: pl.LazyFrame,
    names: list[str],
    average: Literal["macro", "weighted"],
    *,
    present: pl.Expr,
    prevalence: pl.Expr,
    classes: pl.Expr,
) -> pl.LazyFrame:
    """
    ``*names, auc, n_classes``: the mean AUC over the rows where the classes are present.

    Rows whose class (or pair) is absent from the group are skipped, as pROC skips classes
    without cases; the average is null when a row that counts has a null AUC (a NaN score,
    or a group holding one class only).
    """
    auc = pl.col("auc").filter(present)
    if average == "macro":
        value = auc.mean()
    else:
        weights = prevalence.filter(present).cast(pl.Float64)
        value = (auc * weights).sum() / weights.sum()
    undefined = (present & pl.col("auc").is_null()).any() | (present.sum() == 0)
    measures = [
        pl.when(undefined).then(None).otherwise(value).cast(pl.Float64).alias("auc"),
        classes.n_unique().cast(pl.UInt32).alias("n_classes"),
    ]
    if not names:
        return table.select(measures)
    return table.group_by(names).agg(measures).sort(names, nulls_last=True)
