"""Multiclass AUC per group as a frame: one-vs-rest, one-vs-one, pairs of one score."""

from __future__ import annotations

from typing import Literal

import polars as pl

from polars_roc import areas
from polars_roc._core import checks, kernels, validate
from polars_roc._core import columns as registry
from polars_roc._core.checks import NanPolicy
from polars_roc._core.frames import same_kind
from polars_roc._core.validate import By
from polars_roc.multiclass._long import (
    AVERAGES,
    DIRECTIONS,
    METHODS,
    Names,
    Scores,
    anchored,
    average_rows,
    check_label,
    check_score,
    class_blocks,
    class_series,
    coded_scores,
    group_keys,
    pairs_of_one_score,
    per_class_scores,
)
from polars_roc.multiclass._wide import per_class_auc, per_pair_auc
from polars_roc.typing import Average
from polars_roc.typing import MulticlassDirection as Direction
from polars_roc.typing import MulticlassMethod as Method

__all__ = ["multiclass_auc_table"]

# ---------------------------------------------------------------------------------------
# Public: frame functions
# ---------------------------------------------------------------------------------------


@same_kind
def multiclass_auc_table(
    lf: pl.LazyFrame,
    scores: Scores,
    label: str = "label",
    *,
    method: Method = "ovr",
    average: Average = "macro",
    by: By = None,
    weight: str | None = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    ci: Literal["delong"] | None = None,
    level: float = 0.95,
) -> pl.LazyFrame:
    """
    Multiclass AUC per group: one-vs-rest, one-vs-one (Hand & Till), or pairs of one score.

    `scores` is either one score column per class — a mapping ``{class: column}``, or a list
    of columns named like the classes (as ``predict_proba`` gives) — or one column name:

    * ``method="ovr"``: each class against the rest, scored by its own column. ``"macro"``
      averages the class AUCs, ``"weighted"`` weights them by class prevalence (weight sums
      when weighted), ``"micro"`` pools all class-vs-rest rows into one AUC; all three as
      scikit-learn's ``roc_auc_score(multi_class="ovr", average=...)`` (micro as
      ``label_binarize`` + ``ravel``).
    * ``method="ovo"``: every pair of classes, ``(A(a|b) + A(b|a)) / 2`` on the cases of a
      and b (Hand & Till 2001); ``"macro"`` is their M, ``"weighted"`` weights each pair by
      its prevalence (the share of cases in a or b), as scikit-learn.
    * one score column with a multiclass label: the AUC of every pair ``(a, b)`` of classes
      present, ``a`` before ``b`` in the label's order (Enum categories, else sorted), as
      pROC's ``multiclass.roc``; the macro average is its multiclass AUC. `direction`
      ``"higher"`` means a higher score points to ``b`` (pROC ``"<"``), ``"lower"`` to ``a``
      (``">"``), ``"auto"`` picks per pair by pROC's rule (``"<"`` iff the median score of
      ``a`` is at most that of ``b``).

    Classes absent from a group (no case, or only zero weights) are skipped by the averages
    and, with one column per class, keep their row of the per-class output with a null AUC
    and ``n_pos = 0``. A case whose label has no score column is an error naming it. Rows
    with a null label or weight, or a null score in any column, are skipped for every class.
    A NaN in any score column follows `nan_policy`. The columns need not sum to 1: they are
    scores, not probabilities.

    Parameters
    ----------
    lf
        Scored rows.
    scores
        ``{class: column}``, a list of columns named like the classes, or one column name.
    label
        Class column: Boolean, integer, string, Categorical or Enum.
    method
        ``"ovr"`` or ``"ovo"`` (one score column always gives pairs).
    average
        ``"macro"``, ``"weighted"``, ``"micro"`` (``"ovr"`` only), or None for one row per
        class (``*by, class, auc, n_pos, n_neg``) or per pair
        (``*by, class_a, class_b, auc, n_a, n_b``; one score adds ``direction``).
    by
        Column name(s) to group by: one result per group.
    weight
        Optional non-negative case weights (counts become weight sums).
    direction
        ``"higher"``, ``"lower"`` (a lower score means the column's class, as negating every
        score) or, for one score column, ``"auto"``. With one column per class it is never
        guessed.
    nan_policy
        NaN scores, in any score column: ``"propagate"`` (default: every AUC that reads a NaN
        is null, and so is any average over it: per class, the class whose column holds it;
        per pair, a pair whose cases hold it in a column the pair reads), ``"omit"`` (the
        case is skipped for every class, like a null score) or ``"raise"`` (an error naming
        the column and the count).
    ci
        ``"delong"`` adds ``auc_se, auc_lower, auc_upper`` per class (``"ovr"``) or per pair
        of one score; only with ``average=None``.
    level
        Confidence level of the interval.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, auc, n_classes`` when averaged (`n_classes`: the classes present), else the
        per-class or per-pair rows above, sorted by group then class order.

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
    >>> df.roc.multiclass_auc(["a", "b", "c"], "y", average=None)
    shape: (3, 4)
    ┌───────┬───────┬───────┬───────┐
    │ class ┆ auc   ┆ n_pos ┆ n_neg │
    │ ---   ┆ ---   ┆ ---   ┆ ---   │
    │ str   ┆ f64   ┆ i64   ┆ i64   │
    ╞═══════╪═══════╪═══════╪═══════╡
    │ a     ┆ 1.0   ┆ 2     ┆ 4     │
    │ b     ┆ 0.875 ┆ 2     ┆ 4     │
    │ c     ┆ 1.0   ┆ 2     ┆ 4     │
    └───────┴───────┴───────┴───────┘
    >>> df.roc.multiclass_auc(["a", "b", "c"], "y", method="ovo")["auc"].item()
    0.9583333333333334
    >>> df.roc.multiclass_auc("a", "y", direction="auto", average=None)
    shape: (3, 6)
    ┌─────────┬─────────┬───────┬─────┬─────┬───────────┐
    │ class_a ┆ class_b ┆ auc   ┆ n_a ┆ n_b ┆ direction │
    │ ---     ┆ ---     ┆ ---   ┆ --- ┆ --- ┆ ---       │
    │ str     ┆ str     ┆ f64   ┆ i64 ┆ i64 ┆ str       │
    ╞═════════╪═════════╪═══════╪═════╪═════╪═══════════╡
    │ a       ┆ b       ┆ 1.0   ┆ 2   ┆ 2   ┆ lower     │
    │ a       ┆ c       ┆ 1.0   ┆ 2   ┆ 2   ┆ lower     │
    │ b       ┆ c       ┆ 0.625 ┆ 2   ┆ 2   ┆ lower     │
    └─────────┴─────────┴───────┴─────┴─────┴───────────┘
    """
    names = validate.as_names(by)
    schema = lf.collect_schema()
    label_dtype = check_label(schema, label)
    for name in names:
        validate.column(schema, name, "by")
    validate.choice(method, METHODS, "method")
    validate.choice(average, AVERAGES, "average")
    validate.choice(direction, DIRECTIONS, "direction")
    policy = checks.nan_policy(nan_policy)
    if validate.ci(ci, ("delong",)):
        validate.level(level)
        if average is not None:
            msg = (
                f"ci={ci!r} gives an interval per class or pair: it needs average=None, got "
                f"average={average!r}\n\nHint: average=None, ci='delong'."
            )
            raise ValueError(msg)
    if weight is not None:
        validate.column(schema, weight, "weight")
    if label in names or (weight is not None and weight in names):
        msg = f"`by` {names} cannot hold the label or weight column\n\nHint: drop it from by."
        raise ValueError(msg)
    n = Names(schema)
    keys = group_keys(lf, names)
    per_class = per_class_scores(scores)
    interval = list(registry.interval("auc")) if ci is not None else []
    if per_class is None:
        if not isinstance(scores, str):
            msg = f"scores must name columns, got {scores!r}\n\nHint: scores='s100b'."
            raise TypeError(msg)
        check_score(schema, scores)
        if scores in names or scores == label:
            msg = f"score column {scores!r} cannot also be the label or a `by` group"
            raise ValueError(msg)
        if average == "micro":
            msg = "average='micro' needs one score column per class (method='ovr')"
            raise ValueError(msg)
        outputs = ["class_a", "class_b", "auc", "n_a", "n_b", "direction", *interval]
        lf = _nan_applied(lf, [scores], policy)
        validate.no_clash(names, outputs if average is None else ["auc", "n_classes"])
        return _single_score(
            lf, scores, label, names=names, weight=weight, direction=direction,
            average=average, ci=ci, level=level, label_dtype=label_dtype, keys=keys, n=n,
        )  # fmt: skip
    classes_list, columns = per_class
    for column in columns:
        if not isinstance(column, str):
            msg = f"score columns must be given by name, got {column!r} in {scores!r}"
            raise TypeError(msg)
        check_score(schema, column)
    overlap = sorted(set(columns) & {label, *names, *([weight] if weight else [])})
    if overlap:
        msg = f"column(s) {overlap} cannot be both a score column and the label, weight or by"
        raise ValueError(msg)
    if direction == "auto":
        msg = (
            "direction='auto' picks a direction per pair of one score column; with one column "
            "per class a higher score points to that class\n\nHint: direction='higher'."
        )
        raise ValueError(msg)
    if method == "ovo" and average == "micro":
        msg = "average='micro' pools class-vs-rest rows: it needs method='ovr'"
        raise ValueError(msg)
    if method == "ovo" and ci is not None:
        msg = (
            "ci='delong' is given per class (method='ovr') or per pair of one score column; "
            "a one-vs-one pair averages two correlated AUCs\n\nHint: method='ovr'."
        )
        raise ValueError(msg)
    classes = class_series(classes_list, label, label_dtype)
    lf = _nan_applied(lf, columns, policy)
    per_class_out = ["class", *registry.AUC, *interval]
    per_pair_out = ["class_a", "class_b", "auc", "n_a", "n_b"]
    if average is None:
        validate.no_clash(names, per_class_out if method == "ovr" else per_pair_out)
    else:
        validate.no_clash(names, ["auc", "n_classes"])
    values = pl.col(n.cls).replace_strict(range(classes.len()), classes, return_dtype=classes.dtype)
    if method == "ovo":
        coded = coded_scores(
            lf, classes, columns, label, names=names, weight=weight, direction=direction, n=n
        )
        per_pair = per_pair_auc(coded, classes.len(), names=names, weighted=weight is not None, n=n)
        if average is None:

            def label_of(code: str) -> pl.Expr:
                return pl.col(code).replace_strict(
                    range(classes.len()), classes, return_dtype=classes.dtype
                )

            return per_pair.select(
                *names,
                label_of(n.code).alias("class_a"),
                label_of(n.other).alias("class_b"),
                "auc",
                "n_a",
                "n_b",
            )
        here = (pl.col("n_a") > 0) & (pl.col("n_b") > 0)
        seen = pl.col(n.code).filter(pl.col("n_a") > 0)
        seen = seen.append(pl.col(n.other).filter(pl.col("n_b") > 0))
        assert average != "micro"  # checked above
        return average_rows(
            per_pair, names, average, present=here, prevalence=pl.col("n_a") + pl.col("n_b"),
            classes=seen,
        )  # fmt: skip
    if average != "micro" and ci is None:
        coded = coded_scores(
            lf, classes, columns, label, names=names, weight=weight, direction=direction, n=n
        )
        table = per_class_auc(coded, classes.len(), names=names, weighted=weight is not None, n=n)
        if average is None:
            return table.select(*names, values.alias("class"), *per_class_out[1:])
        return average_rows(
            table,
            names,
            average,
            present=pl.col("n_pos") > 0,
            prevalence=pl.col("n_pos"),
            classes=pl.col(n.cls).filter(pl.col("n_pos") > 0),
        )
    long = class_blocks(
        lf, classes, columns, label, names=names, weight=weight, direction=direction, n=n
    )
    w = None if weight is None else n.weight
    if average == "micro":
        # Classes absent from a group are skipped here too: their rows (all negatives) are
        # masked, so the pooled rows are those of the classes present.
        present = pl.col(n.positive).any().over([*names, n.cls])
        long = long.with_columns(pl.when(present).then(pl.col(n.positive)).alias(n.positive))
        r = kernels.rows(
            n.score, n.positive, weight=w, checked=False, masked=True, label_dtype=pl.Boolean()
        )
        present = pl.col(n.cls).filter(r.positive)
        measures = [
            kernels.auc_of(r).alias("auc"),
            present.n_unique().cast(pl.UInt32).alias("n_classes"),
        ]
        if not names:
            return long.select(measures)
        return long.group_by(names).agg(measures).sort(names, nulls_last=True)
    # Per class with DeLong intervals: the long form, the class among the groups.
    cells = pl.LazyFrame({n.cls: pl.Series(range(classes.len()), dtype=pl.UInt32)})
    long = pl.concat([long, anchored(keys, cells)], how="diagonal_relaxed")
    table = areas.auc(long, n.score, n.positive, by=[*names, n.cls], weight=w, ci=ci, level=level)
    return table.select(*names, values.alias("class"), *per_class_out[1:])


def _nan_applied(lf: pl.LazyFrame, columns: list[str], policy: NanPolicy) -> pl.LazyFrame:
    """The rows with `nan_policy` applied to every score column (NaN kept, nulled or refused)."""
    if policy == "propagate":
        return lf
    return lf.with_columns(checks.apply_nan_policy(pl.col(c), policy, c) for c in columns)


def _single_score(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    names: list[str],
    weight: str | None,
    direction: Direction,
    average: Average,
    ci: Literal["delong"] | None,
    level: float,
    label_dtype: pl.DataType,
    keys: pl.LazyFrame | None,
    n: Names,
) -> pl.LazyFrame:
    """Pairwise AUCs of one score column (pROC's ``multiclass.roc``); see the caller."""
    pairs, classes = pairs_of_one_score(
        lf, score, label, names=names, weight=weight, direction=direction,
        label_dtype=label_dtype, keys=keys, n=n,
    )  # fmt: skip
    w = None if weight is None else n.weight
    part = [*names, n.cls, n.other, *([n.flip] if direction == "auto" else [])]
    table = areas.auc(pairs, n.score, n.positive, by=part, weight=w, ci=ci, level=level)
    table = table.rename({"n_neg": "n_a", "n_pos": "n_b"})
    here = (pl.col("n_a") > 0) & (pl.col("n_b") > 0)
    if average is not None:
        seen = pl.col(n.cls).filter(here).append(pl.col(n.other).filter(here))
        assert average != "micro"  # checked by the caller
        return average_rows(
            table, names, average, present=here, prevalence=pl.col("n_a") + pl.col("n_b"),
            classes=seen,
        )  # fmt: skip
    value = classes.collect_schema().names()[1]
    lookup_a = classes.rename({n.code: n.cls, value: "class_a"})
    lookup_b = classes.rename({n.code: n.other, value: "class_b"})
    interval = list(registry.interval("auc")) if ci is not None else []
    if direction == "auto":
        chosen = pl.when(pl.col(n.flip)).then(pl.lit("lower")).otherwise(pl.lit("higher"))
    else:
        chosen = pl.lit(direction)
    chosen = chosen.alias("direction")
    return (
        table.filter(here)
        .join(lookup_a, on=n.cls, how="left")
        .join(lookup_b, on=n.other, how="left")
        .sort([*names, n.cls, n.other], nulls_last=True)
        .select(*names, "class_a", "class_b", "auc", "n_a", "n_b", chosen, *interval)
    )
