"""Multiclass rows: argument checks, the one coding of label and class scores, long forms."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import polars as pl
from polars.exceptions import SchemaError

from polars_roc._core import labels, validate
from polars_roc._core.direction import negated
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
    texts = isinstance(dtype, pl.String | pl.Categorical | pl.Enum)
    if texts and not all(isinstance(v, str) for v in values):
        msg = (
            f"class keys {values} are not all strings, but label column {label!r} holds "
            f"strings ({dtype})\n\nHint: key the score columns by the label's values, e.g. "
            f"{{'a': 'p_a', 'b': 'p_b'}}, or cast the label first."
        )
        raise TypeError(msg)
    if dtype == pl.Boolean and all(isinstance(v, str) for v in values):
        # columns named "true" / "false" (a list of columns named like the classes)
        values = [{"true": True, "false": False}.get(v.lower(), v) for v in values]
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


def coder(
    classes: pl.Series, label: str, shown: list[Any] | None = None
) -> Callable[[pl.Series], pl.Series]:
    """
    Label values to class codes 0..k-1; raises on a label that has no score column.

    `shown` are the classes as the user gave them, for the message (default `classes`).
    """
    codes = pl.Series(range(classes.len()), dtype=pl.UInt32)

    def code(labels: pl.Series) -> pl.Series:
        coded = labels.replace_strict(classes, codes, default=None, return_dtype=pl.UInt32)
        unknown = labels.filter(labels.is_not_null() & coded.is_null())
        if unknown.len() > 0:
            found = unknown.unique().sort().head(5).to_list()
            msg = (
                f"label column {label!r} holds {found}, which have no score column; score "
                f"columns are given for {shown or classes.to_list()}\n\nHint: pass one score "
                f"column per class, {{class: column}}, or drop those rows first."
            )
            raise ValueError(msg)
        return coded

    return code


def fitted_coder(values: list[Any], label: str) -> Callable[[pl.Series], pl.Series]:
    """
    :func:`coder` for class values fitted to the label's dtype when the query runs.

    For an expression, whose label dtype is unknown until then: the values are checked
    against it as :func:`class_series` checks them for a frame (a key of another type is
    an error naming the label column and the keys).
    """

    def code(labels: pl.Series) -> pl.Series:
        classes = class_series(values, label, labels.dtype)
        return coder(classes, label, values)(labels)

    return code


def weighted_median(s: pl.Expr, w: pl.Expr | None) -> pl.Expr:
    """The median (R's: the mean of the two middle values); weights count as repeats."""
    if w is None:
        return s.median()
    lower, upper = _middles(s, w)
    return (lower.cast(pl.Float64) + upper.cast(pl.Float64)) / 2


def _middles(s: pl.Expr, w: pl.Expr | None) -> tuple[pl.Expr, pl.Expr]:
    """The two middle values of the (weighted) scores, in their dtype: the median's mean."""
    if w is None:
        ranked = s.drop_nulls().sort()
        n = ranked.len().cast(pl.Int64)
        return ranked.get((n - 1) // 2, null_on_oob=True), ranked.get(n // 2, null_on_oob=True)
    order = s.arg_sort()
    values, weights = s.gather(order), w.gather(order)
    running, half = weights.cum_sum(), weights.sum() / 2
    return values.filter(running >= half).first(), values.filter(running > half).first()


def median_above(s: pl.Expr, w: pl.Expr | None, first: pl.Expr, second: pl.Expr) -> pl.Expr:
    """
    Whether the (weighted) median score where `first` holds exceeds that where `second` does.

    pROC's ``direction="auto"`` rule. Exact for integer scores: each median is the mean of
    two middle values, so the sums of the middles are compared in Int128 (which holds the
    sum of two Int64 or UInt64 values); a Float64 median rounds scores past 2**53 (apart by
    less than 1,024 near 2**63 they are equal) and a sum in the scores' own type overflows.
    Other scores compare their Float64 medians. Null when a side has no score.

    Examples
    --------
    >>> import polars as pl
    >>> top = 2**63 - 1
    >>> df = pl.DataFrame({"s": [top, top - 3, top - 2, top - 2], "a": [1, 1, 0, 0]})
    >>> is_a = pl.col("a") == 1
    >>> df.select(median_above(pl.col("s"), None, is_a, ~is_a)).item()  # top - 1.5 > top - 2
    True
    >>> df.select(pl.col("s").filter(is_a).median() > pl.col("s").filter(~is_a).median()).item()
    False
    """
    (a_low, a_high), (b_low, b_high) = (
        _middles(s.filter(mask), None if w is None else w.filter(mask)) for mask in (first, second)
    )
    wide = [value.cast(pl.Int128, strict=False) for value in (a_low, a_high, b_low, b_high)]
    whole = pl.all_horizontal(
        exact == value for exact, value in zip(wide, (a_low, a_high, b_low, b_high), strict=True)
    )
    exact = wide[0] + wide[1] > wide[2] + wide[3]
    halves = (
        weighted_median(s.filter(mask), None if w is None else w.filter(mask))
        for mask in (first, second)
    )
    return pl.when(whole).then(exact).otherwise(next(halves) > next(halves))


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
    null too, so ranks, sums and filters skip it for every class. Scores are of one type
    (:func:`common_score_dtype`: integers stay exact), negated under ``direction="lower"``.
    """
    code = pl.col(label).map_batches(
        coder(classes, label), return_dtype=pl.UInt32, is_elementwise=True
    )
    # A null label counts for no class: its row is masked like a null score (weights too,
    # which the weighted kernel would otherwise count as a negative's).
    keep = pl.all_horizontal(pl.col(c).is_not_null() for c in columns)
    keep = keep & pl.col(label).is_not_null()
    extra = []
    if weight is not None:
        w = labels.weight(weight)
        keep = keep & w.is_not_null() & (w > 0)
        extra = [pl.when(keep).then(pl.col(weight).cast(pl.Float64)).alias(n.weight)]
    schema = lf.collect_schema()
    kind = common_score_dtype([schema[c] for c in columns])
    return lf.select(
        *names,
        pl.when(keep).then(code).alias(n.code),
        *[
            pl.when(keep).then(signed(pl.col(c), kind, direction)).alias(f"{n.prefix}{i}")
            for i, c in enumerate(columns)
        ],
        *extra,
    )


def common_score_dtype(dtypes: Sequence[pl.DataType]) -> pl.DataType:
    """
    One type for the class score columns: exact for integers (beyond 2**53), else Float64.

    Integer columns keep an integer type that holds every one of their values (a mix of
    signed and unsigned widens, UInt64 with a signed type to Int128), so scores past 2**53
    stay distinct, as in the binary routes; any other mix is Float64.

    Examples
    --------
    >>> import polars as pl
    >>> common_score_dtype([pl.Int64(), pl.UInt32()]), common_score_dtype([pl.UInt64()])
    (Int64, UInt64)
    >>> common_score_dtype([pl.UInt64(), pl.Int8()]), common_score_dtype([pl.Int64(), pl.Float32()])
    (Int128, Float64)
    """
    if not dtypes or not all(d.is_integer() for d in dtypes):
        return pl.Float64()
    bits: dict[Any, int] = {pl.Int8: 8, pl.Int16: 16, pl.Int32: 32, pl.Int64: 64, pl.Int128: 128}
    ubits: dict[Any, int] = {pl.UInt8: 8, pl.UInt16: 16, pl.UInt32: 32, pl.UInt64: 64}
    signed_bits = max((bits[d.base_type()] for d in dtypes if d.is_signed_integer()), default=0)
    unsigned_bits = max(
        (ubits[d.base_type()] for d in dtypes if d.is_unsigned_integer()), default=0
    )
    if not signed_bits:
        return {8: pl.UInt8(), 16: pl.UInt16(), 32: pl.UInt32(), 64: pl.UInt64()}[unsigned_bits]
    width = max(signed_bits, 2 * unsigned_bits if unsigned_bits >= signed_bits else 0)
    widths = {8: pl.Int8(), 16: pl.Int16(), 32: pl.Int32(), 64: pl.Int64(), 128: pl.Int128()}
    return widths[min(w for w in widths if w >= width)]


def signed(score: pl.Expr, kind: pl.DataType, direction: Direction) -> pl.Expr:
    """The score in `kind`, negated exactly under ``"lower"`` (integers widen if need be)."""
    score = score.cast(kind)
    if direction != "lower":
        return score
    if kind.is_integer():
        return negated(score, kind)
    return -score + 0.0  # a negated zero ties with a zero


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


def present_classes(long: pl.LazyFrame, names: list[str], n: Names) -> pl.LazyFrame:
    """
    The rows of :func:`one_vs_rest` with those of classes absent from the group masked.

    A class with no case in a group contributes only negatives to the pooled (micro) rows;
    they are skipped, as the averages skip the class, so that the pooled rows are those of
    the classes present (the micro AUC and the micro curve read the same rows).
    """
    present = pl.col(n.positive).any().over([*names, n.cls])
    return long.with_columns(pl.when(present).then(pl.col(n.positive)).alias(n.positive))


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
    kind = common_score_dtype([lf.collect_schema()[score]])
    y = pl.col(label)
    code = y.to_physical() if isinstance(label_dtype, pl.Enum) else y.rank("dense")
    # The weights checked under the user's name (not the internal one the core reads).
    extra = {} if weight is None else {n.weight: labels.weight(weight)}
    coded = lf.select(
        *names,
        **{n.code: code.cast(pl.UInt32), n.score: pl.col(score).cast(kind)},
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
        flipped = signed(pl.col(n.score), kind, "lower")
        if direction == "auto":
            w = None if weight is None else pl.col(n.weight)
            counted = labels.kept(pl.col(n.score), pl.col(n.positive), w)
            positive = pl.col(n.positive)
            rule = median_above(pl.col(n.score), w, counted & ~positive, counted & positive)
            pairs = pairs.with_columns(rule.over([*names, n.cls, n.other]).alias(n.flip))
            flipped = pl.when(pl.col(n.flip)).then(flipped).otherwise(pl.col(n.score))
        pairs = pairs.with_columns(flipped.alias(n.score))
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
