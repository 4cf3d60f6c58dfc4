"""Reduce where the data lives: ROC tallies and exact AUC in the frame's own engine.

The one module that speaks narwhals. A frame from any engine narwhals accepts (Polars, DuckDB,
PySpark, sqlframe, ibis, pandas, PyArrow) goes in; the reduction — a ``GROUP BY`` over the
groups, the distinct scores and the labels, with no row order — runs in that engine, and only
the small result comes back, as Polars. Everything after that is Polars. A pandas or PyArrow
table, in memory already, is read as Polars first (pandas' group-by cannot run the
reduction), with pandas' missing marker NaN as a null.

narwhals is an optional dependency (``pip install 'polars-roc[engines]'``): it is imported
when a function here is called, never at package import.

Label coding and weight checks run on the small result, with the same rules as the rest of
the package: Boolean labels mean True, 0/1 integers mean 1, any other coding needs
`pos_label`; weights must be finite and non-negative. Rows whose score or label is null are
skipped. A NaN score stays a NaN score, so the group's results are null, as on raw rows;
in a pandas frame NaN is pandas' missing marker, so it is a null there (as
``pl.from_pandas`` reads it).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from types import ModuleType
from typing import Any

import polars as pl

from polars_roc._core import checks, labels, validate
from polars_roc._core.checks import NanPolicy
from polars_roc._core.columns import AUC, TALLY
from polars_roc._core.direction import Direction, flips
from polars_roc._core.names import fresh_names
from polars_roc._core.validate import By

__all__ = ["auc_table", "tally"]


def _narwhals() -> ModuleType:
    """The stable API of narwhals, or an error that says how to install it."""
    try:
        return importlib.import_module("narwhals.stable.v2")
    except ModuleNotFoundError:
        msg = (
            "reducing a frame in its own engine needs narwhals, which is not installed"
            "\n\nHint: pip install 'polars-roc[engines]'."
        )
        raise ModuleNotFoundError(msg) from None


def _lazy(nw: ModuleType, frame: Any, by: By) -> tuple[Any, By]:
    """
    The user's frame as a narwhals LazyFrame in its own engine, and `by` as names.

    A pandas or PyArrow table is in memory already and read as Polars (Arrow buffers shared
    where they can be): pandas' group-by cannot run the reduction's aggregations (PyArrow's
    cannot either). pandas' missing marker is NaN (``isna()``), so a NaN in a pandas column
    is a null, in the score as everywhere, as ``pl.from_pandas`` reads it: ``tally`` of a
    pandas frame gives the numbers ``df.roc`` gives on ``pl.from_pandas`` of it.

    Polars expressions in `by` become columns of a Polars frame (and of a pandas or PyArrow
    one, read as Polars) as ``with_columns`` then ``by=<names>`` would make them
    (:func:`~polars_roc._core.validate.by_expressions`); any other engine cannot run them.
    """
    try:
        table = nw.from_native(frame)
    except TypeError:
        msg = (
            f"cannot reduce a frame of type {type(frame).__name__}: narwhals does not know it"
            f"\n\nHint: pass a Polars, DuckDB, PySpark, sqlframe, ibis, pandas or PyArrow frame."
        )
        raise TypeError(msg) from None
    native = frame
    if isinstance(table, nw.DataFrame) and table.implementation.is_pandas():
        native = pl.from_pandas(frame)  # NaN, None, pd.NA: null, as pandas means
    elif isinstance(table, nw.DataFrame) and table.implementation.is_pyarrow():
        native = pl.from_arrow(frame)
        assert isinstance(native, pl.DataFrame)
    if _has_expressions(by):
        if not isinstance(native, pl.DataFrame | pl.LazyFrame):
            engine = table.implementation.value
            msg = (
                f"`by` holds a Polars expression, which a {engine} frame cannot run; "
                f"compute the group column in {engine} first and pass its name"
                f"\n\nHint: add the column where the data lives (e.g. SQL "
                f"`select *, <expression> as band`), then by='band'."
            )
            raise TypeError(msg)
        lazy, by = validate.by_expressions(native.lazy(), by)
        validate.as_names(by)  # a name twice is refused before the columns are computed
        native = lazy if isinstance(native, pl.LazyFrame) else lazy.collect()
    if native is not frame:
        table = nw.from_native(native)
    if isinstance(table, nw.DataFrame):
        return table.lazy(), by
    if not isinstance(table, nw.LazyFrame):
        msg = f"expected a frame, got {type(frame).__name__} (a series or a scalar?)"
        raise TypeError(msg)
    return table, by


def _has_expressions(by: By) -> bool:
    """Whether `by` is or holds a Polars expression."""
    items = [by] if isinstance(by, pl.Expr) else by
    return isinstance(items, list | tuple) and any(isinstance(i, pl.Expr) for i in items)


def _check(
    schema: pl.Schema,
    *,
    score: str,
    label: str,
    names: list[str],
    weight: str | None,
    pos_label: Any,
    outputs: Iterable[str],
) -> None:
    """Schema checks, before any heavy work: roles, label coding, output names."""
    validate.roles(schema, score=score, label=label, by=names, weight=weight, pos_label=pos_label)
    dtype = schema[label]
    if pos_label is None and not (dtype == pl.Boolean or dtype.is_integer()):
        msg = (
            f"label column {label!r} has dtype {dtype}, not Boolean or 0/1 codes; "
            f"which class is positive?\n\nHint: pass pos_label=<the positive class>."
        )
        raise ValueError(msg)
    for name in outputs:
        if name in {*names, score}:
            role = "score" if name == score else "`by`"
            msg = (
                f"the {role} column {name!r} would collide with the output column {name!r}"
                f"\n\nHint: rename it first, e.g. .rename({{{name!r}: {name + '_'!r}}})."
            )
            raise ValueError(msg)


def _bins(bins: Any) -> int | None:
    if bins is None:
        return None
    return validate.whole(bins, "bins", hint="bins=1000, or bins=None for exact scores")


def _schema(table: Any) -> pl.Schema:
    return pl.Schema(table.collect_schema().to_polars())


def _prepared(
    nw: ModuleType,
    frame: Any,
    by: By,
    roles: dict[str, Any],
    outputs: Sequence[str],
    nan_policy: Any,
) -> tuple[Any, list[str], pl.Schema, set[str], str]:
    """
    The frame checked and lazy, the group names, its schema, the names taken, the score.

    The shared start of :func:`tally` and :func:`auc_table`: expressions in `by` made
    columns (:func:`_lazy`), the roles checked against the schema, NaN scores handled by
    `nan_policy` (under a fresh name for ``"omit"``).
    """
    table, by = _lazy(nw, frame, by)
    names = validate.as_names(by)
    schema = _schema(table)
    _check(schema, names=names, outputs=outputs, **roles)
    taken = {*schema, *outputs}
    source_name = fresh_names(["_roc_s"], taken, casefold=True)[0]
    table, source = _nans(nw, table, roles["score"], schema, nan_policy, source_name)
    return table, names, schema, taken, source


def _nans(
    nw: ModuleType, table: Any, score: str, schema: pl.Schema, policy: Any, fresh: str
) -> tuple[Any, str]:
    """
    The rows and the score column to read, with the NaN policy applied in the engine.

    ``"omit"`` adds the score with NaN made null under the unused name `fresh` (replacing
    the column in place is misread by sqlframe, whose later references reach the original);
    ``"raise"`` counts the NaN scores in the engine first and refuses any.
    """
    policy = checks.nan_policy(policy)
    if policy == "propagate" or not schema[score].is_float():
        return table, score
    nan = nw.col(score).is_nan()
    if policy == "omit":
        return table.with_columns(nw.when(~nan).then(nw.col(score)).alias(fresh)), fresh
    counted = nw.to_native(table.select(nan.cast(nw.Int64).sum()).collect(backend="polars"))
    checks.refuse_nans(score, int(counted.item() or 0))
    return table, score


def _to_polars(nw: ModuleType, reduced: Any, *, native_lazy: bool) -> pl.LazyFrame:
    """Bring the small result back: still lazy for a Polars LazyFrame, else collected."""
    if native_lazy:
        out = nw.to_native(reduced)
        assert isinstance(out, pl.LazyFrame)
        return out
    collected = nw.to_native(reduced.collect(backend="polars"))
    assert isinstance(collected, pl.DataFrame)
    return collected.lazy()


def _over(expr: pl.Expr, names: Sequence[str]) -> pl.Expr:
    return expr.over(names) if names else expr


def _pos_label_found(label: str, pos_label: Any) -> pl.Expr:
    """Whether each label is `pos_label`; raises when the column holds labels but not it."""

    def check(values: pl.Series) -> pl.Series:
        positive = labels.is_class(values, pos_label)
        if positive.null_count() < positive.len() and not positive.any():
            found = values.drop_nulls().unique().sort().head(10).to_list()
            msg = (
                f"pos_label {pos_label!r} occurs nowhere in label column {label!r}, which holds "
                f"{found}\n\nHint: pass one of those, e.g. pos_label={found[-1]!r}."
            )
            raise ValueError(msg)
        return positive

    return pl.col(label).map_batches(check, return_dtype=pl.Boolean)


def _checked_weights(weight: str, total: str, smallest: str) -> pl.Expr:
    """Weight sums as Float64, raising where a summed weight was negative or not finite."""

    def check(columns: Sequence[pl.Series]) -> pl.Series:
        sums, mins = (column.cast(pl.Float64) for column in columns)
        bad = (sums.is_not_null() & ~sums.is_finite()) | (mins < 0)
        if bad.any():
            found = sorted(
                {*mins.filter(mins < 0).to_list(), *sums.filter(~sums.is_finite()).to_list()}
            )[:5]
            msg = (
                f"weight column {weight!r} holds negative or non-finite values (e.g. {found}); "
                f"weights must be finite and non-negative\n\nHint: drop or fix those rows, "
                f"e.g. .filter(pl.col({weight!r}) >= 0)."
            )
            raise ValueError(msg)
        return sums

    return pl.map_batches([total, smallest], check, return_dtype=pl.Float64)


def tally(
    frame: Any,
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    bins: int | None = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.LazyFrame:
    """
    Positives and negatives per group and distinct score, counted in the frame's own engine.

    The sufficient statistic of ROC analysis, computed where the data lives: one
    ``GROUP BY`` (groups, score, label) in the frame's engine — DuckDB, Spark, a warehouse
    through ibis, or Polars — with no window and no row order; only the small result comes
    back. It comes back as weighted rows, at most two per group and distinct score (label
    True with the positives' count or weight sum, label False with the negatives'), so every
    ``.roc`` method run on it with ``weight="weight"`` gives the numbers the raw rows give.

    Parameters
    ----------
    frame
        Scored rows in any frame narwhals accepts: Polars (eager or lazy), a DuckDB relation,
        a PySpark or sqlframe DataFrame, an ibis table, pandas, PyArrow.
    score
        Numeric score column; higher means more likely positive.
    label
        Class column: Boolean, 0/1 integer, or any coding with `pos_label`.
    by
        Column name(s) to group by. On a Polars frame (and on pandas or PyArrow, read as
        Polars) also Polars expressions, named by their output names: the same tally, bit
        for bit, as ``with_columns(<expressions>)`` then ``by=<names>``. Another engine
        cannot run a Polars expression: compute the column there and pass its name.
    weight
        Optional non-negative case weights (summed instead of counting rows).
    pos_label
        The positive class. Default: True for Boolean labels, 1 for 0/1 integers. It must
        occur somewhere in the data.
    bins
        Round each group's scores to at most `bins` levels first (equal-width bins between the
        group's smallest and largest finite score), for when the distinct scores are too many
        to bring back. Each bin is represented by its smallest score, so every threshold of
        the binned curve is a threshold of the exact one; the AUC can move only through
        positive-negative pairs that share a bin, by at most ``auc_error_bound``.
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"``; never guessed. The
        scores come back in their own units, so pass the same `direction` to the ``.roc``
        methods run on the tally. It changes only the binned tally: under ``"lower"`` each
        bin stands at its largest score, so every binned threshold is still a real one.
    nan_policy
        What a NaN score does, applied in the engine: ``"propagate"`` (the default: the
        group's results are null), ``"omit"`` (a NaN counts as a null score: the row is
        skipped) or ``"raise"`` (one count of the column's NaN scores in the engine, before
        the reduction, and a ValueError naming the column when there are any).

    Returns
    -------
    pl.LazyFrame
        ``*by, <score>, label, weight`` (Boolean label, Float64 weight; + ``auc_error_bound``
        per group with `bins`: ½·Σ pos·neg / (P·N) over the bins, null where the AUC is).
        Rows in no particular order. For a Polars LazyFrame it is still lazy; any other frame
        has been reduced already. A group none of whose rows count (null scores or labels,
        zero weights) keeps one row with a null score and label and weight 0, as `auc` on the
        raw rows keeps the group.

    Raises
    ------
    ColumnNotFoundError, SchemaError
        From the schema, before any data is read.
    ValueError
        Labels that are not Boolean or 0/1 without `pos_label`, a `pos_label` found nowhere,
        negative or non-finite weights (for a Polars LazyFrame: when it is collected).

    Examples
    --------
    >>> import duckdb
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> rel = duckdb.sql(
    ...     "select * from (values (0.9, 1), (0.8, 1), (0.8, 0), (0.1, 0)) t(score, label)"
    ... )
    >>> counts = pr.tally(rel)
    >>> counts.collect().sort("score", "label")
    shape: (4, 3)
    ┌───────┬───────┬────────┐
    │ score ┆ label ┆ weight │
    │ ---   ┆ ---   ┆ ---    │
    │ f64   ┆ bool  ┆ f64    │
    ╞═══════╪═══════╪════════╡
    │ 0.1   ┆ false ┆ 1.0    │
    │ 0.8   ┆ false ┆ 1.0    │
    │ 0.8   ┆ true  ┆ 1.0    │
    │ 0.9   ┆ true  ┆ 1.0    │
    └───────┴───────┴────────┘
    >>> counts.roc.auc(weight="weight").collect()["auc"].item()
    0.875
    """
    lower = flips(direction)
    nw = _narwhals()
    levels = _bins(bins)
    outputs = TALLY if levels else TALLY[:2]
    roles = {"score": score, "label": label, "weight": weight, "pos_label": pos_label}
    table, names, schema, taken, source = _prepared(nw, frame, by, roles, outputs, nan_policy)
    key, low, high, lowest, count, smallest = fresh_names(
        [f"_roc_{name}" for name in ("key", "lo", "hi", "min", "n", "wmin")], taken, casefold=True
    )
    # Rows that do not count (null score or label) stay in: the groups they make stay too.
    rows, aggregates = table, [nw.len().alias(count)]
    if weight is not None:
        aggregates = [nw.col(weight).sum().alias(count), nw.col(weight).min().alias(smallest)]
    if levels is None:
        rows = rows.with_columns(nw.col(source).alias(key))
    else:
        rows = _binned(nw, rows, source, names, levels, key=key, low=low, high=high)
        # The bin's representative: its first score in the direction's order.
        scores = nw.col(source)
        if not schema[score].is_integer():
            scores = scores.cast(nw.Float64)
        aggregates.append((scores.max() if lower else scores.min()).alias(lowest))
    reduced = rows.group_by(*names, key, label).agg(*aggregates)
    small = _to_polars(nw, reduced, native_lazy=isinstance(frame, pl.LazyFrame))

    positive, mass, pos, neg, real = fresh_names(
        [f"_roc_{name}" for name in ("y", "w", "pos", "neg", "real")], taken, casefold=True
    )
    # Integer scores keep their type: distinct beyond 2**53, as on the raw rows.
    kind = schema[score] if schema[score].is_integer() else pl.Float64
    coded = small.select(
        *names,
        pl.col(key).cast(kind if levels is None else pl.Float64),
        pl.col(key if levels is None else lowest).cast(kind).alias(lowest),
        (
            labels.positive(label, dtype=schema[label])
            if pos_label is None
            else _pos_label_found(label, pos_label)
        ).alias(positive),
        (
            pl.col(count).cast(pl.Float64)
            if weight is None
            else _checked_weights(weight, count, smallest)
        ).alias(mass),
    )
    y, w = pl.col(positive), pl.col(mass)
    usable = pl.col(key).is_not_null() & y.is_not_null() & (w > 0)
    bound: list[pl.Expr] = []
    if levels is None and (pos_label is None or schema[label] == pl.Boolean):
        # One engine row per (group, score, label) is already one row per (group, score, class).
        out = coded.filter(usable).select(
            *names, pl.col(key).alias(score), y.alias("label"), w.alias("weight")
        )
    else:
        per_key = (
            coded.filter(usable)
            .group_by(*names, key)
            .agg(
                (pl.col(lowest).max() if lower else pl.col(lowest).min()).alias(score),
                w.filter(y).sum().alias(pos),
                w.filter(~y).sum().alias(neg),
            )
        )
        if levels is not None:
            per_key = per_key.with_columns(_bound(score, names, pos, neg))
            bound = [pl.col("auc_error_bound")]
        sides = [
            per_key.select(
                *names, score, pl.lit(value).alias("label"), pl.col(column).alias("weight"), *bound
            )
            for value, column in ((True, pos), (False, neg))
        ]
        out = pl.concat(sides).filter(pl.col("weight") > 0)
    if names:
        # A group whose rows all fail to count keeps one row that does not count either (null
        # score and label, zero weight), as the group keeps its row in `auc` on the raw rows.
        empty = (
            coded.group_by(names)
            .agg(usable.any().alias(real))
            .filter(~pl.col(real))
            .select(
                *names,
                pl.lit(None, dtype=kind).alias(score),
                pl.lit(None, dtype=pl.Boolean).alias("label"),
                pl.lit(0.0).alias("weight"),
                *[pl.lit(None, dtype=pl.Float64).alias("auc_error_bound") for _ in bound],
            )
        )
        out = pl.concat([out, empty])
    return out if isinstance(frame, pl.LazyFrame) else out.collect().lazy()


def _binned(
    nw: ModuleType,
    rows: Any,
    score: str,
    names: list[str],
    levels: int,
    *,
    key: str,
    low: str,
    high: str,
) -> Any:
    """Add the bin index `key`: equal-width bins of each group's finite scores, NaN apart."""
    s = nw.col(score).cast(nw.Float64)
    finite = nw.when(s.is_finite()).then(s)
    lo, hi = (
        (finite.min(), finite.max())
        if not names
        else (
            finite.min().over(*names),
            finite.max().over(*names),
        )
    )
    rows = rows.with_columns(lo.alias(low), hi.alias(high))
    lo, hi = nw.col(low), nw.col(high)
    # Each step is monotone in the score, so every bin is an interval of scores.
    width = ((s - lo) / (hi - lo) * levels).floor().clip(0, levels - 1)
    index = (
        nw.when(s.is_nan())
        .then(nw.lit(-1.0))
        .when(hi.is_null() | (s <= lo))
        .then(nw.lit(0.0))
        .when(s >= hi)
        .then(nw.lit(float(levels - 1)))
        .otherwise(width)
    )
    return rows.with_columns(index.cast(nw.Float64).alias(key))


def _bound(score: str, names: list[str], positives: str, negatives: str) -> pl.Expr:
    """½·Σ pos_b·neg_b / (P·N) over a group's bins; null where its AUC is null."""
    pos, neg = pl.col(positives), pl.col(negatives)
    total_pos, total_neg = _over(pos.sum(), names), _over(neg.sum(), names)
    defined = (total_pos > 0) & (total_neg > 0) & ~_over(pl.col(score).is_nan().any(), names)
    tied = _over((pos / total_pos * (neg / total_neg)).sum(), names)
    return pl.when(defined).then(tied / 2).alias("auc_error_bound")


def auc_table(
    frame: Any,
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.DataFrame:
    """
    Exact AUC per group, computed entirely in the frame's own engine.

    For when even the tally (groups × distinct scores) is too big to bring back. The engine
    counts positives and negatives per group and distinct score, runs one window per group
    over the scores (the negatives below each score: the rank sum of the positives), and
    returns one row per group; ties count one half, as everywhere in the package.

    Parameters
    ----------
    frame
        Scored rows in any frame narwhals accepts (see :func:`tally`).
    score
        Numeric score column; higher means more likely positive.
    label
        Class column: Boolean, 0/1 integer, or any coding with `pos_label`.
    by
        Column name(s) to group by: one row per group, sorted by group; Polars expressions
        too on a Polars, pandas or PyArrow frame (as in :func:`tally`).
    pos_label
        The positive class. Default: True for Boolean labels, 1 for 0/1 integers. It must
        occur somewhere in the data.
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"`` (a lower score does: the
        AUC of the negated score); never guessed from the data.
    nan_policy
        What a NaN score does, applied in the engine: ``"propagate"`` (the default: the
        group's results are null), ``"omit"`` (a NaN counts as a null score: the row is
        skipped) or ``"raise"`` (one count of the column's NaN scores in the engine, before
        the reduction, and a ValueError naming the column when there are any).

    Returns
    -------
    pl.DataFrame
        ``*by, auc, n_pos, n_neg``; `auc` is null for a group without positives or
        negatives, or with a NaN score.

    Examples
    --------
    >>> import duckdb
    >>> import polars_roc as pr
    >>> rel = duckdb.sql(
    ...     "select * from (values ('a', 0.9, 1), ('a', 0.8, 1), ('a', 0.8, 0), ('a', 0.1, 0),"
    ...     " ('b', 0.3, 1), ('b', 0.7, 0)) t(model, score, label)"
    ... )
    >>> pr.auc_table(rel, by="model")
    shape: (2, 4)
    ┌───────┬───────┬───────┬───────┐
    │ model ┆ auc   ┆ n_pos ┆ n_neg │
    │ ---   ┆ ---   ┆ ---   ┆ ---   │
    │ str   ┆ f64   ┆ i64   ┆ i64   │
    ╞═══════╪═══════╪═══════╪═══════╡
    │ a     ┆ 0.875 ┆ 2     ┆ 2     │
    │ b     ┆ 0.0   ┆ 1     ┆ 1     │
    └───────┴───────┴───────┴───────┘
    >>> pr.auc_table(rel, by="model", direction="lower")["auc"].to_list()
    [0.125, 1.0]
    """
    lower = flips(direction)
    nw = _narwhals()
    roles = {"score": score, "label": label, "weight": None, "pos_label": pos_label}
    table, names, schema, taken, source = _prepared(nw, frame, by, roles, AUC, nan_policy)
    pos, neg, bad, below, area, nan = fresh_names(
        [f"_roc_{name}" for name in ("pos", "neg", "bad", "below", "u", "nan")],
        taken,
        casefold=True,
    )
    dtype = schema[label]
    if pos_label is not None:
        y = nw.col(label) == pos_label
    elif dtype == pl.Boolean:
        y = nw.col(label)
    else:
        y = nw.col(label) == 1
    # Rows that do not count (null score or label) stay in: the groups they make stay too.
    counted = ~nw.col(source).is_null() & ~nw.col(label).is_null()
    if dtype.is_float():  # a NaN class label is missing, as in the Polars routes
        counted = counted & ~nw.col(label).is_nan()

    def indicator(condition: Any) -> Any:
        return nw.when(counted & condition).then(nw.lit(1.0)).otherwise(nw.lit(0.0))

    per_row = [indicator(y).cast(nw.Float64).sum().alias(pos)]
    per_row.append(indicator(~y).cast(nw.Float64).sum().alias(neg))
    per_group = [
        (nw.col(pos) * (nw.col(below) + nw.col(neg) / 2)).sum().alias(area),
        nw.col(pos).sum().alias("n_pos"),
        nw.col(neg).sum().alias("n_neg"),
    ]
    if pos_label is None and dtype != pl.Boolean:
        per_row.append(indicator(~nw.col(label).is_in([0, 1])).sum().alias(bad))
        per_group.append(nw.col(bad).sum().alias(bad))
    if schema[score].is_float():
        present = nw.col(source).is_nan() & (nw.col(pos) + nw.col(neg) > 0)
        per_group.append(present.any().alias(nan))
    per_score = table.group_by(*names, source).agg(*per_row)
    # The negatives below each score, in the direction's order (a running sum from the top
    # under "lower" is the same as one from the bottom over the negated score).
    running = nw.col(neg).cum_sum(reverse=lower).over(*names, order_by=source) - nw.col(neg)
    ranked = per_score.with_columns(running.alias(below))
    reduced = ranked.group_by(*names).agg(*per_group) if names else ranked.select(*per_group)
    small = nw.to_native(reduced.collect(backend="polars"))
    assert isinstance(small, pl.DataFrame)
    small = small.with_columns(
        pl.col(bad) if bad in small.columns else pl.lit(0.0).alias(bad),
        pl.col(nan) if nan in small.columns else pl.lit(False).alias(nan),
    )
    if small[bad].cast(pl.Float64).sum() > 0 or (
        pos_label is not None and small.height > 0 and small["n_pos"].cast(pl.Float64).sum() == 0
    ):
        # Only on the error path: read the labels found, for the same message as elsewhere.
        found = nw.to_native(table.select(label).unique().collect(backend="polars"))
        check = labels.positive(label) if pos_label is None else _pos_label_found(label, pos_label)
        found.select(check)
    n_pos, n_neg = (pl.col(c).cast(pl.Float64) for c in ("n_pos", "n_neg"))
    defined = (n_pos > 0) & (n_neg > 0) & ~pl.col(nan).fill_null(False)
    return small.select(
        *names,
        # One division by the pairs: the AUC rounded once, as on the Polars routes.
        auc=pl.when(defined).then(pl.col(area).cast(pl.Float64) / (n_pos * n_neg)),
        n_pos=pl.col("n_pos").cast(pl.Float64).round().cast(pl.Int64),
        n_neg=pl.col("n_neg").cast(pl.Float64).round().cast(pl.Int64),
    ).sort(names, nulls_last=True)
