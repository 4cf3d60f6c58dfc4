"""
Bootstrap any scalar metric: stratified percentile intervals for a mapping of expressions.

:func:`bootstrap` takes scalar Polars expressions (ours, such as :func:`polars_roc.auc`, or
the user's own) and gives, per group, each one's estimate on the data, its bootstrap
standard error and its percentile interval.

The resampling scheme, fixed so that results are reproducible (and checkable):

* within a group, rows are put in a canonical order first (sorted by every column), so the
  result does not depend on the order the rows came in;
* the strata are the distinct values of the `label` column, sorted (a null label is its own
  stratum, last); a resample draws as many rows from each stratum as it holds, with
  replacement;
* the generator is :func:`polars_roc.resampling.group_rng` ``(seed, key)``, with `key` the
  group's `by` values, so a group's numbers do not depend on the other groups;
* replicates are drawn a chunk at a time: for each chunk, each stratum in turn draws a
  ``(replicates, stratum size)`` matrix of positions with ``rng.integers``; a chunk holds
  ``max(1, 2**21 // rows)`` replicates (all of them when that is at least `n_boot`).

Replicates are evaluated together, without a Python loop over them: the chunk's drawn rows
are gathered into one long frame with a replicate number, and the expressions run once as
``group_by(replicate).agg(...)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import polars as pl

from polars_roc._core import validate
from polars_roc._core.frames import same_kind
from polars_roc._core.validate import By
from polars_roc.resampling import FloatArray, IntArray, check_n_boot, check_seed, group_rng

#: Rows gathered per chunk of replicates.
CHUNK_ROWS = 1 << 21

#: Output columns after the `by` columns.
COLUMNS = ("metric", "estimate", "se", "lower", "upper")


def _check_metrics(metrics: Any) -> dict[str, pl.Expr]:
    """A non-empty mapping of names to expressions."""
    if not isinstance(metrics, Mapping) or not metrics:
        msg = (
            f"metrics must be a non-empty mapping of names to expressions, got {metrics!r}"
            '\n\nHint: metrics={"auc": pr.auc("score", "label")}.'
        )
        raise ValueError(msg)
    for name, expr in metrics.items():
        if not isinstance(name, str) or not isinstance(expr, pl.Expr):
            msg = (
                f"metrics maps {name!r} to {expr!r}: expected a str name and a pl.Expr"
                '\n\nHint: metrics={"auc": pr.auc("score", "label")}.'
            )
            raise ValueError(msg)
    return dict(metrics)


def _canonical(df: pl.DataFrame) -> pl.DataFrame:
    """The rows sorted by every column (by a row hash where a column cannot be sorted)."""
    try:
        return df.sort(df.columns, nulls_last=True, maintain_order=True)
    except pl.exceptions.PolarsError:  # nested or object columns: identical rows tie anyway
        return df.with_columns(_h=df.hash_rows(seed=0)).sort("_h").drop("_h")


def strata(labels: pl.Series) -> list[IntArray]:
    """The row positions of each stratum: distinct label values sorted, null last."""
    values = labels.unique().sort(nulls_last=True)
    return [np.flatnonzero(labels.eq_missing(value).to_numpy()) for value in values]


def _values(
    df: pl.DataFrame,
    exprs: dict[str, pl.Expr],
    groups: list[IntArray],
    *,
    n_boot: int,
    rng: np.random.Generator,
) -> FloatArray:
    """``(n_boot, metrics)``: each metric on each stratified resample (NaN where null)."""
    n = df.height
    replicate = "_replicate"
    while replicate in df.columns:
        replicate += "_"
    chunk = max(1, min(n_boot, CHUNK_ROWS // max(n, 1)))
    out = np.empty((n_boot, len(exprs)), dtype=np.float64)
    for start in range(0, n_boot, chunk):
        reps = min(chunk, n_boot - start)
        drawn = [rows[rng.integers(0, len(rows), size=(reps, len(rows)))] for rows in groups]
        positions = np.concatenate(drawn, axis=1).ravel()
        long = df[positions].with_columns(
            pl.Series(replicate, np.repeat(np.arange(reps, dtype=np.int64), n))
        )
        measured = (
            long.group_by(replicate)
            .agg(**{name: expr.cast(pl.Float64) for name, expr in exprs.items()})
            .sort(replicate)
        )
        block = measured.select(list(exprs)).fill_null(np.nan).to_numpy()
        out[start : start + reps] = block.astype(np.float64)
    return out


def _summary(values: FloatArray, level: float) -> list[tuple[float | None, ...]]:
    """Per metric: (se, lower, upper) over the replicates where it is defined."""
    alpha = 1.0 - level
    rows: list[tuple[float | None, ...]] = []
    for column in values.T:
        kept = column[~np.isnan(column)]
        if len(kept) < 2:
            rows.append((None, None, None))
            continue
        lower, upper = np.quantile(kept, [alpha / 2, 1 - alpha / 2])
        se = kept.std(ddof=1)
        rows.append(tuple(float(v) if np.isfinite(v) else None for v in (se, lower, upper)))
    return rows


@same_kind
def bootstrap(
    lf: pl.LazyFrame,
    metrics: Mapping[str, pl.Expr],
    *,
    by: By = None,
    label: str = "label",
    n_boot: int = 2000,
    seed: int | None = None,
    level: float = 0.95,
) -> pl.LazyFrame:
    """
    Stratified bootstrap of scalar metrics: estimate, standard error, percentile interval.

    Each metric is a scalar expression (an aggregation valid in ``group_by().agg()``): any of
    ours, such as :func:`polars_roc.auc`, or the user's own. Within each group, a resample
    draws from each class of `label` as many rows as it holds, with replacement, and every
    metric is computed on it; ``se`` is the standard deviation (ddof 1) of the replicates
    and ``lower, upper`` their ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles
    (linear interpolation: R's type 7, as pROC). Replicates where a metric is null or NaN are
    left out of its summary (as pROC drops them); fewer than two defined replicates, or an
    undefined estimate, give nulls. The resampling scheme is documented in
    :mod:`polars_roc.metric_bootstrap`: the same `seed` gives the same numbers, whatever the
    row order, the other groups, or the number of threads.

    Parameters
    ----------
    lf
        Scored rows.
    metrics
        ``{name: expression}``; each expression must give one value per group.
    by
        Column name(s) to group by.
    label
        The column whose classes are the strata.
    n_boot
        Number of replicates.
    seed
        Random seed; None draws a fresh, unreproducible one.
    level
        Confidence level of the percentile interval.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, metric, estimate, se, lower, upper``: one row per group and metric, sorted by
        group, metrics in the order given.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pr.datasets.simulate(400, seed=3).filter(pl.col("model") != "baseline")
    >>> metrics = {"auc": pr.auc("score", "label"), "brier": pr.brier_score("score", "label")}
    >>> out = df.roc.bootstrap(metrics, by="model", n_boot=500, seed=1)
    >>> out
    shape: (4, 6)
    ┌───────┬────────┬──────────┬──────────┬──────────┬──────────┐
    │ model ┆ metric ┆ estimate ┆ se       ┆ lower    ┆ upper    │
    │ ---   ┆ ---    ┆ ---      ┆ ---      ┆ ---      ┆ ---      │
    │ str   ┆ str    ┆ f64      ┆ f64      ┆ f64      ┆ f64      │
    ╞═══════╪════════╪══════════╪══════════╪══════════╪══════════╡
    │ gbm   ┆ auc    ┆ 0.819394 ┆ 0.027602 ┆ 0.763843 ┆ 0.878812 │
    │ gbm   ┆ brier  ┆ 0.11285  ┆ 0.006595 ┆ 0.099469 ┆ 0.125183 │
    │ logit ┆ auc    ┆ 0.89726  ┆ 0.024234 ┆ 0.848067 ┆ 0.941381 │
    │ logit ┆ brier  ┆ 0.095543 ┆ 0.005697 ┆ 0.085354 ┆ 0.107489 │
    └───────┴────────┴──────────┴──────────┴──────────┴──────────┘
    >>> bool((out["lower"] <= out["estimate"]).all() and (out["estimate"] <= out["upper"]).all())
    True
    """
    exprs = _check_metrics(metrics)
    names = validate.as_names(by)
    schema = lf.collect_schema()
    validate.column(schema, label, "label")
    for name in names:
        validate.column(schema, name, "by")
    for name in COLUMNS:
        if name in names:
            msg = f"by column {name!r} collides with the output column {name!r}"
            raise ValueError(msg + f"\n\nHint: rename it, e.g. pl.col({name!r}).alias('group').")
    check_n_boot(n_boot)
    check_seed(seed)
    validate.level(level)
    columns: dict[str, pl.DataType] = {name: schema[name] for name in names}
    columns["metric"] = pl.String()
    columns.update(dict.fromkeys(COLUMNS[1:], pl.Float64()))
    out_schema = pl.Schema(columns)

    def run(df: pl.DataFrame) -> pl.DataFrame:
        key = [df[name][0] for name in names] if df.height else [None] * len(names)
        df = _canonical(df)
        estimate = df.select(**{name: expr.cast(pl.Float64) for name, expr in exprs.items()})
        if estimate.height != 1:
            msg = (
                f"the metrics give {estimate.height} values per group, expected one"
                "\n\nHint: use scalar aggregations such as pr.auc('score', 'label')."
            )
            raise ValueError(msg)
        groups = strata(df[label])
        if df.height:
            values = _values(df, exprs, groups, n_boot=n_boot, rng=group_rng(seed, key))
            summary = _summary(values, level)
        else:
            summary = [(None, None, None)] * len(exprs)
        point = estimate.fill_nan(None).row(0)  # undefined is null, never NaN
        rows = [  # no interval around an undefined estimate (e.g. a NaN score)
            (*key, name, value, *(stats if value is not None else (None, None, None)))
            for name, value, stats in zip(exprs, point, summary, strict=True)
        ]
        return pl.DataFrame(rows, schema=out_schema, orient="row")

    if not names:
        return lf.map_batches(
            run,
            schema=out_schema,
            predicate_pushdown=False,
            projection_pushdown=False,
            slice_pushdown=False,
        )
    grouped = lf.group_by(names).map_groups(run, schema=out_schema)
    return grouped.sort(names, nulls_last=True, maintain_order=True)
