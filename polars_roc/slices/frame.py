"""
Slices of one or two features, each tested against the rest of its group.

A per-segment report answers "how good is the model in the segments I chose"; :func:`slices`
answers "where else is it bad": it cuts numeric features into quantile bands, forms every
slice of one feature (and, at ``depth=2``, of two), and compares each slice's AUC with the
AUC of the rest of its `by` group by the unpaired DeLong test of
:func:`polars_roc.segments.disparity`, with the p-values adjusted over the slices of each
group. One query: each row appears once per feature combination (the slice side) and once
per other slice of that combination (the rest side), and one DeLong pass over all of them
gives every slice's test; there is no Python loop over slices.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import polars as pl
from polars.exceptions import ColumnNotFoundError

from polars_roc._core import kernels, labels, validate
from polars_roc._core.checks import NanPolicy
from polars_roc._core.columns import SLICE_METRICS, SLICES
from polars_roc._core.direction import Direction, flips, scored
from polars_roc._core.frames import same_kind
from polars_roc._core.names import fresh_names
from polars_roc._core.validate import By
from polars_roc.inference.multiple_testing import check_adjust, with_adjusted
from polars_roc.segments.disparity import delong_test, gap_test, sides
from polars_roc.slices import _complement as complement
from polars_roc.slices import _metrics
from polars_roc.typing import Adjust

__all__ = ["slices"]

_Features = str | pl.Expr | Sequence[str | pl.Expr]


def _check(
    lf: pl.LazyFrame,
    features: Any,
    roles: dict[str, str],
    *,
    depth: Any,
    bins: Any,
    min_pos: Any,
    min_neg: Any,
) -> tuple[pl.LazyFrame, list[str]]:
    """The frame with expression features added, and the feature names; errors name the argument."""
    if isinstance(features, str | pl.Expr):
        features = [features]
    if not isinstance(features, list | tuple) or not features:
        msg = (
            f"features must be a column name, an expression or a non-empty list of them, "
            f'got {features!r}\n\nHint: features=["segment", "amount"].'
        )
        raise ValueError(msg)
    lf, names = validate.by_expressions(lf, list(features))
    schema = lf.collect_schema()
    for name in names:
        if not isinstance(name, str):
            msg = f"features must be column names or expressions, got {name!r}"
            raise ValueError(msg)
        if name not in schema:
            msg = (
                f"features column {name!r} not found; the frame has {list(schema)}"
                f"\n\nHint: pass features=<column names or expressions>."
            )
            raise ColumnNotFoundError(msg)
        if name in roles:
            msg = (
                f"features column {name!r} is already the {roles[name]} column"
                f"\n\nHint: slice by other columns (a feature cannot be a role or a `by` group)."
            )
            raise ValueError(msg)
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        msg = f"features names {twice} more than once\n\nHint: list each feature once."
        raise ValueError(msg)
    if not validate.is_integer(depth) or depth not in (1, 2):
        msg = f"depth must be 1 or 2 (slices of one or two features), got {depth!r}"
        raise ValueError(msg + "\n\nHint: depth=2.")
    validate.whole(bins, "bins", minimum=2, hint="bins=4 (quartile bands)")
    validate.whole(min_pos, "min_pos", minimum=1, hint="min_pos=10")
    validate.whole(min_neg, "min_neg", minimum=1, hint="min_neg=10")
    return lf, names


def _value(name: str, dtype: pl.DataType, bins: int) -> pl.Expr:
    """
    A feature's value as text: its quantile band ``[lo, hi)`` or the value itself.

    Numeric columns with more than `bins` distinct values are cut at the quantiles
    ``k / bins`` of the whole frame (equal edges merge bands); a null is ``"null"``.
    """
    x = pl.col(name)
    text = x.cast(pl.String)
    if dtype.is_numeric() and dtype != pl.Boolean:
        v = x.cast(pl.Float64)
        edges = [v.quantile(k / bins, interpolation="linear") for k in range(1, bins)]
        lo = pl.max_horizontal(pl.when(v >= q).then(q) for q in edges).fill_null(float("-inf"))
        hi = pl.min_horizontal(pl.when(v < q).then(q) for q in edges).fill_null(float("inf"))
        text = pl.when(x.n_unique() > bins).then(pl.format("[{}, {})", lo, hi)).otherwise(text)
    return text.fill_null("null")


class _Layout(NamedTuple):
    """The slices' shape: the features, their banded values and the helper column names."""

    columns: list[str]  # the features' names
    values: list[str]  # each feature's value as text (its band), under a fresh name
    combos: list[tuple[int, ...]]  # the feature combinations, as indices into `columns`
    combo: str  # a copy's combination index
    key: str  # the slice's text
    tag: str  # the slice a row of the rest is tagged with
    side: str  # whether a tagged row is in the slice


def _copies(
    base: pl.LazyFrame, carried: list[str], layout: _Layout, out: list[str]
) -> pl.LazyFrame:
    """
    One copy of the rows per combination of features (never one per slice).

    Each copy holds the `carried` columns, its combination's index, the slice's text, and
    per feature (named by `out`) the slice's value, null when the slice does not use it.
    """
    copies = []
    for index, used in enumerate(layout.combos):
        pattern = " & ".join(f"{layout.columns[i]} = {{}}" for i in used)
        text = pl.format(pattern, *(pl.col(layout.values[i]) for i in used))
        copies.append(
            base.select(
                *carried,
                pl.lit(index, dtype=pl.UInt32).alias(layout.combo),
                text.alias(layout.key),
                *(
                    (pl.col(v) if i in used else pl.lit(None, dtype=pl.String)).alias(o)
                    for i, (v, o) in enumerate(zip(layout.values, out, strict=True))
                ),
            )
        )
    return pl.concat(copies, how="vertical")


def _auc_gaps(
    lf: pl.LazyFrame,
    roles: tuple[str, str, list[str], str | None, Any],
    layout: _Layout,
    *,
    count: dict[str, pl.Expr],
    enough: pl.Expr,
    level: float,
) -> pl.LazyFrame:
    """
    Each tested slice's AUC against the rest's (unpaired DeLong), worst first.

    `lf` holds the rows with the banded feature values; unweighted rows take the rest's
    sums from the group's and the slice's (no copy of the rest), weighted ones copy it.
    """
    score, label, names, weight, pos_label = roles
    groups, key, columns = [*names, layout.combo], layout.key, layout.columns
    kept = [*names, score, label, *([weight] if weight else [])]
    if weight is None:  # counts: the rest's sums from the group's and the slice's (no copies)
        coded = kernels.coded(
            lf, score, label, names=names, weight=None, pos_label=pos_label, extra=layout.values
        )
        long = _copies(coded, [*names, "_s", "_y"], layout, columns)
        group = complement.group_level(coded, names)
        sided = complement.slice_sides(long, group, names, [layout.combo, key, *columns])
        counted = sided.with_columns(
            n_pos=pl.col("_p").cast(pl.Int64), n_neg=pl.col("_n_neg").cast(pl.Int64)
        ).filter(enough)
        tested = gap_test(counted, level)
    else:  # weights: each slice's rest copied and tested as a segment of disparity
        long = _copies(lf.select(*kept, *layout.values), kept, layout, columns)
        counted = long.group_by(*groups, key, *columns).agg(**count).filter(enough)
        spread = sides(
            long,
            key,
            groups,
            "rest",
            layout.tag,
            layout.side,
            tested=counted.select(*groups, pl.col(key).alias(layout.tag)),
        )
        gaps = delong_test(
            spread,
            score,
            label,
            names=groups,
            tag=layout.tag,
            side=layout.side,
            weight=weight,
            pos_label=pos_label,
            level=level,
        )
        tested = counted.join(
            gaps.rename({layout.tag: key}), on=[*groups, key], how="left", nulls_equal=True
        )
    joined = tested.select(
        *names,
        pl.col(key).alias("slice"),
        *columns,
        "n_pos",
        "n_neg",
        pl.col("estimate").alias("auc"),
        pl.col("reference_estimate").alias("auc_rest"),
        pl.col("diff").alias("gap"),
        pl.col("diff_lower").alias("gap_lower"),
        pl.col("diff_upper").alias("gap_upper"),
        "p_value",
    )
    return joined.sort(["gap", *names, "slice"], nulls_last=True, maintain_order=True)


@same_kind
def slices(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    features: _Features,
    by: By = None,
    depth: int = 2,
    bins: int = 4,
    min_pos: int = 10,
    min_neg: int = 10,
    metrics: Mapping[str, pl.Expr] | None = None,
    adjust: Adjust | None = "fdr_bh",
    n_boot: int = 2000,
    seed: int | None = 0,
    level: float = 0.95,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    progress: bool | None = None,
) -> pl.LazyFrame:
    """
    Every slice of one or two features, its AUC against the rest of its group, worst first.

    Each feature is a column name or an expression (named by its output name). A numeric
    feature with more than `bins` distinct values is cut at its quantiles (over the whole
    frame) into `bins` bands written ``[lo, hi)`` (``-inf`` / ``inf`` at the ends; equal
    quantiles merge bands); any other feature is used as it is, as text, null being its
    own value ``"null"``. A slice fixes one feature (``depth=1``) or, at ``depth=2``,
    also every pair of features; per `by` group (e.g. per model) every slice with at least
    `min_pos` positive and `min_neg` negative rows is tested.

    For each slice: its AUC, the AUC of the rest of its group, ``gap = auc - auc_rest``
    with its interval at `level`, and the two-sided p-value of the unpaired DeLong test
    (pROC's ``roc.test(paired=FALSE)``, the test of :func:`polars_roc.segments.disparity`;
    the slice and the rest are disjoint). ``p_adjusted`` adjusts the p-values over all the
    slices of a group: ``"fdr_bh"`` (Benjamini-Hochberg, default; ``"bh"`` too), ``"holm"``,
    ``"bonferroni"``, or None (then it is the p-value).

    With ``metrics={name: expression}`` the slices are compared on any scalar expressions
    instead (``pr.precision_at_recall``, ``pr.brier_score``, the user's own
    ``pl.col(...).mean()``), by the test :func:`polars_roc.segments.disparity` gives its
    metrics: the slice's rows and the rest of its group are resampled apart by the
    stratified bootstrap of :func:`polars_roc.inference.bootstrap` (strata: the label's
    classes; `n_boot`, `seed`), ``se(gap) = sqrt(se_slice² + se_rest²)``, the interval is
    ``gap ± z·se`` and ``p_value`` the two-sided normal p-value of ``gap / se`` (Wald, not
    DeLong). The expressions read the rows as given (their own weight, positive class and
    score direction: `weight` and `direction` apply to the AUC only); ``p_adjusted`` is
    adjusted over the slices of each group and metric. The work grows with ``rows × slices
    × n_boot`` (the AUC path copies no rows).

    Parameters
    ----------
    lf
        Scored rows (a LazyFrame, or a DataFrame).
    score, label, by, weight, pos_label
        Column roles, as in :func:`polars_roc.areas.auc`; `by` may hold expressions.
    features
        Column names or expressions to slice by; none may be a role or a `by` column.
    depth
        1 (slices of one feature) or 2 (also of every pair of features).
    bins
        Quantile bands of a numeric feature (at least 2).
    min_pos, min_neg
        The fewest positive and negative rows a slice needs to be tested (at least 1).
    metrics
        None (the AUC, DeLong) or ``{name: scalar expression}`` (bootstrap); an expression
        must read columns of the frame and give one number per group (checked at call time
        on an empty frame of the schema).
    adjust
        ``"fdr_bh"``, ``"bh"``, ``"holm"``, ``"bonferroni"`` or None.
    n_boot, seed
        Bootstrap replicates and random seed (with `metrics`).
    level
        Confidence level of the gap's interval.
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"``; never guessed.
    nan_policy
        NaN scores: ``"propagate"`` (default: the slice's results are null), ``"omit"``
        or ``"raise"``.
    progress
        A progress bar while the bootstrap runs (with `metrics`), as in
        :func:`polars_roc.inference.bootstrap`: True, False or None (auto).

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame). ``*by, slice, <one column
        per feature>, n_pos, n_neg, auc, auc_rest, gap, gap_lower, gap_upper, p_value,
        p_adjusted``: `slice` reads like ``segment = west & amount = [1000.0, inf)``; a
        feature's column holds the slice's value (text), null when the slice does not use
        that feature; `n_pos` and `n_neg` count the slice's rows (unweighted). Sorted by
        `gap`, the worst slice first (null gaps last).
        With `metrics`, long: ``*by, slice, <feature columns>, n_pos, n_neg, metric,
        estimate, estimate_rest, gap, gap_lower, gap_upper, p_value, p_adjusted``, one row
        per slice and metric, sorted by metric (in the order given) and then `gap`, lowest
        first (for a metric where lower is better, such as the Brier score, the worst
        slices come last).

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pr.datasets.simulate(4000, seed=2).filter(pl.col("model") == "logit")
    >>> out = df.roc.slices(features=["segment", "weight"], depth=1)
    >>> out.select("slice", "n_pos", "auc", "gap", "p_adjusted").head(3)
    shape: (3, 5)
    ┌───────────────────────┬───────┬──────────┬───────────┬────────────┐
    │ slice                 ┆ n_pos ┆ auc      ┆ gap       ┆ p_adjusted │
    │ ---                   ┆ ---   ┆ ---      ┆ ---       ┆ ---        │
    │ str                   ┆ i64   ┆ f64      ┆ f64       ┆ f64        │
    ╞═══════════════════════╪═══════╪══════════╪═══════════╪════════════╡
    │ segment = north       ┆ 113   ┆ 0.850798 ┆ -0.055326 ┆ 0.026269   │
    │ weight = [0.87, 1.24) ┆ 117   ┆ 0.868294 ┆ -0.033268 ┆ 0.118139   │
    │ segment = west        ┆ 113   ┆ 0.873684 ┆ -0.025249 ┆ 0.239226   │
    └───────────────────────┴───────┴──────────┴───────────┴────────────┘

    Any scalar expression, with bootstrap intervals of the gap:

    >>> at_recall = pr.precision_at_recall("score", "label", recall=0.8)
    >>> out = df.roc.slices(
    ...     features="segment", metrics={"precision": at_recall}, n_boot=200, min_pos=50
    ... )
    >>> out.select("slice", "estimate", "estimate_rest", "gap", "p_value")
    shape: (4, 5)
    ┌─────────────────┬──────────┬───────────────┬───────────┬──────────┐
    │ slice           ┆ estimate ┆ estimate_rest ┆ gap       ┆ p_value  │
    │ ---             ┆ ---      ┆ ---           ┆ ---       ┆ ---      │
    │ str             ┆ f64      ┆ f64           ┆ f64       ┆ f64      │
    ╞═════════════════╪══════════╪═══════════════╪═══════════╪══════════╡
    │ segment = north ┆ 0.264789 ┆ 0.40678       ┆ -0.141991 ┆ 0.003356 │
    │ segment = west  ┆ 0.312715 ┆ 0.383489      ┆ -0.070774 ┆ 0.095307 │
    │ segment = east  ┆ 0.475248 ┆ 0.334515      ┆ 0.140732  ┆ 0.018007 │
    │ segment = south ┆ 0.495098 ┆ 0.338631      ┆ 0.156467  ┆ 0.035795 │
    └─────────────────┴──────────┴───────────────┴───────────┴──────────┘
    """
    roles = {score: "score", label: "label"} | ({weight: "weight"} if weight else {})
    names = validate.as_names(by)
    roles |= dict.fromkeys(names, "by")
    lf, columns = _check(
        lf, features, roles, depth=depth, bins=bins, min_pos=min_pos, min_neg=min_neg
    )
    flips(direction)
    validate.level(level)
    check_adjust(adjust)
    schema = lf.collect_schema()
    validate.roles(schema, score=score, label=label, by=names, weight=weight, pos_label=pos_label)
    exprs = _metrics.check_metrics(metrics, schema)
    if exprs is not None:
        validate.n_boot(n_boot)
        validate.seed(seed)
    taken = {*schema.names(), *SLICES, *SLICE_METRICS, "slice"}
    n = len(columns)
    combo, key, tag, side, *fresh = fresh_names(
        ["__roc_combo", "__roc_slice", "__roc_tag", "__roc_side"]
        + [f"__roc_value{i}" for i in range(n)]
        + [f"__roc_feature{i}" for i in range(n)],
        taken,
    )
    combos = [c for size in range(1, depth + 1) for c in itertools.combinations(range(n), size)]
    layout = _Layout(columns, fresh[:n], combos, combo, key, tag, side)
    bands = [
        _value(c, schema[c], bins).alias(v) for c, v in zip(columns, layout.values, strict=True)
    ]
    enough = (pl.col("n_pos") >= min_pos) & (pl.col("n_neg") >= min_neg)
    y = labels.positive(pl.col(label), pos_label, dtype=schema[label])
    valid = pl.col(score).is_not_null() & y.is_not_null()
    count = {"n_pos": (y & valid).sum().cast(pl.Int64), "n_neg": (~y & valid).sum().cast(pl.Int64)}
    if exprs is None:
        # The AUC reads the score in `direction`; the metrics read the rows as given.
        banded = scored(lf, score, direction).with_columns(bands)
        roles_ = (score, label, names, weight, pos_label)
        ordered = _auc_gaps(banded, roles_, layout, count=count, enough=enough, level=level)
        families, outputs = names, list(SLICES)
    else:  # any metric: each slice's rows and its rest bootstrapped apart
        texts = fresh[n:]
        carried = list(dict.fromkeys([*names, score, label, *_metrics.read_columns(exprs, schema)]))
        long = _copies(lf.select(*carried, *bands), carried, layout, texts)
        groups = [*names, combo]
        counted = long.group_by(*groups, key, *texts).agg(**count).filter(enough)
        gaps = _metrics.metric_gaps(
            long, counted, exprs, label=label, groups=groups, key=key, tag=tag, side=side,
            n_boot=n_boot, seed=seed, level=level, progress=progress,
        )  # fmt: skip
        order = pl.col("metric").replace_strict(list(exprs), list(range(len(exprs))))
        shown = gaps.select(
            *names,
            pl.col(key).alias("slice"),
            *(pl.col(t).alias(c) for t, c in zip(texts, columns, strict=True)),
            *SLICE_METRICS[:-1],
        )
        ordered = shown.sort([order, "gap", *names, "slice"], nulls_last=True, maintain_order=True)
        families, outputs = [*names, "metric"], list(SLICE_METRICS)
    if adjust is None:
        adjusted = ordered.with_columns(p_adjusted=pl.col("p_value"))
    else:
        adjusted = with_adjusted(ordered, adjust, by=families)
    return adjusted.select(*names, "slice", *columns, *outputs)
