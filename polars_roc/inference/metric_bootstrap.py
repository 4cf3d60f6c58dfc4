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
* the generator is :func:`polars_roc._core.resampling.group_rng` ``(seed, key)``, with `key` the
  group's `by` values, so a group's numbers do not depend on the other groups;
* replicates are drawn a chunk at a time: for each chunk, each stratum in turn draws a
  ``(replicates, stratum size)`` matrix of positions with ``rng.integers``; a chunk holds
  ``max(1, 2**21 // rows)`` replicates (all of them when that is at least `n_boot`).

Replicates are evaluated together, without a Python loop over them. A replicate is the
multiset of its drawn rows, held as one count per row (a ``bincount`` of the chunk's draws):

* our AUC, average precision, Brier score and log loss, when given exactly as
  ``pr.auc(score, label)`` (and the like, with no other argument) on a group whose score is
  a float or small integer column without nulls or NaN and whose label is Boolean or 0/1
  without nulls, are computed from the ``(replicates, rows)`` counts matrix with numpy:
  running totals over the rows sorted by score, or per distinct score where scores tie
  (the same formulas as the expressions: Mann-Whitney from average ranks, precision at each
  distinct score); the data were checked once, by the estimate on the group itself;
* any other expression runs once per chunk as ``group_by(replicate).agg(...)`` over the
  drawn rows gathered into one long frame (only the columns the expressions read). The
  replicate column is flagged sorted, so the group-by cuts contiguous slices and runs them
  in parallel. Where an expression sorts (``sort``, ``rank``, ``median``, ... in its printed
  tree), each replicate's rows reach it sorted by the first numeric column the metrics read
  (ties in canonical order): the counts expanded with ``repeat``, no sort per replicate.

The two paths give the same numbers up to the rounding of sums (both are checked against
scikit-learn on explicitly drawn resamples in the tests). Memory: a chunk of draws is at
most ``2**21`` rows (16 MiB of positions, and as much per gathered column); the counts are
taken a block of about ``2**17`` cells at a time, so their numpy passes stay in cache.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
import polars as pl

from polars_roc._core import validate
from polars_roc._core.columns import BOOTSTRAP
from polars_roc._core.frames import same_kind
from polars_roc._core.names import fresh, public_by
from polars_roc._core.progress import OFF, Ticks, ticks
from polars_roc._core.resampling import (
    FloatArray,
    IntArray,
    cluster_rows,
    clusters,
    draw_clusters,
    group_rng,
)
from polars_roc._core.validate import By
from polars_roc.inference._counted import (
    EXACT_SCORES,
    Counted,
    Known,
    counted_arrays,
    counted_metric,
    from_counts,
    recognise,
)

#: Rows gathered per chunk of replicates.
__all__ = ["bootstrap", "strata"]

_CHUNK_ROWS = 1 << 21

#: Words of a printed expression that sorts its rows (replicates then reach it sorted).
_SORTING = ("sort", "rank", "top_k", "bottom_k", "quantile", "median", "unique", "mode", "search")

#: Count-matrix cells per block of replicates: the numpy passes over a block stay in cache.
_BLOCK_CELLS = 1 << 17


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


def _sort_key(schema: pl.Schema, exprs: dict[str, pl.Expr], skip: set[str]) -> str | None:
    """The first numeric column the metrics read (not `skip`): replicates are laid out by it."""
    for expr in exprs.values():
        for name in expr.meta.root_names():
            if name not in skip and name in schema and schema[name].is_numeric():
                return name
    return None


def _read(exprs: Mapping[str, pl.Expr], columns: list[str]) -> list[str]:
    """
    The columns the expressions read: all of them where one uses a selector or wildcard.

    A printed expression shows a selector (``pl.all()``, a regex, ``pl.col(a, b)``, a dtype)
    as ``cs.``; the others read their root names only.
    """
    if any("cs." in str(expr) for expr in exprs.values()):
        return columns
    roots = {name for expr in exprs.values() for name in expr.meta.root_names()}
    return [name for name in columns if name in roots]


def _layout(df: pl.DataFrame, key: str | None) -> IntArray:
    """Canonical positions in the order a replicate's rows are laid out (by `key`, stable)."""
    if key is None:
        return np.arange(df.height)
    order = df.select(pl.arg_sort_by(key, nulls_last=True, maintain_order=True)).to_series()
    return np.asarray(order.to_numpy(), dtype=np.intp)


def _values(
    df: pl.DataFrame,
    exprs: dict[str, pl.Expr],
    groups: list[IntArray],
    *,
    n_boot: int,
    rng: np.random.Generator,
    key: str | None = None,
    known: dict[str, Known] | None = None,
    prepared: tuple[IntArray, dict[int, Counted]] | None = None,
    bar: Ticks = OFF,
    cluster: IntArray | None = None,
) -> FloatArray:
    """
    ``(n_boot, metrics)``: each metric on each stratified resample (NaN where null).

    The draws are the documented ones (canonical positions, stratum by stratum, a chunk at a
    time), taken as positions in the laid-out rows (sorted by `key`). Recognised metrics
    (`known`) come from the row counts of each block of replicates (``bincount``); the others
    run in one query per chunk over the drawn rows, sorted by `key` within each replicate
    where an expression sorts (see the module docstring). `prepared`: the layout and every
    metric's count arrays, computed for many groups at once (then `df` is not read). `bar`
    ticks once per chunk (:mod:`polars_roc._core.progress`).
    `cluster`: each canonical row's cluster id; whole clusters are drawn, stratified as
    :func:`polars_roc._core.resampling.clusters` (with one cluster per row: the same draws).
    """
    n = df.height
    replicate = "_replicate"
    while replicate in df.columns:
        replicate += "_"
    if prepared is None:
        order = _layout(df, key)
        laid_out = df[order]
        counted: dict[int, Counted] = {}
        for j, name in enumerate(exprs):
            found = (known or {}).get(name)
            metric = None if found is None else counted_metric(found, laid_out, key)
            if metric is not None:
                counted[j] = metric
    else:
        (order, counted), laid_out = prepared, df
        n = len(order)
    chunk = max(1, min(n_boot, _CHUNK_ROWS // max(n, 1)))
    rank = np.empty(n, dtype=np.intp)
    rank[order] = np.arange(n)
    queried = {
        name: e.cast(pl.Float64) for j, (name, e) in enumerate(exprs.items()) if j not in counted
    }
    read = _read(queried, laid_out.columns)
    placed = [rank[rows] for rows in groups]  # each stratum's rows, as laid-out positions
    grouped = None
    if cluster is not None:  # clusters of laid-out positions, each in its stratum
        stratum = np.empty(n, dtype=np.intp)
        for s, rows_ in enumerate(groups):
            stratum[rows_] = s
        grouped = clusters(cluster, stratum, len(groups))
        grouped = grouped._replace(members=rank[grouped.members])
    edges = np.cumsum([0, *(len(rows) for rows in placed)])
    block = max(1, min(chunk, _BLOCK_CELLS // max(n, 1)))
    # Expressions that sort get each replicate's rows sorted by `key`; others the drawn order.
    ordered = any(word in str(e) for e in queried.values() for word in _SORTING)
    # Polars gathers by UInt32 positions without a copy.
    tiled = np.tile(np.arange(n, dtype=np.uint32), block if ordered else 0)
    unsorted = np.empty((chunk if queried and not ordered else 0, n), dtype=np.uint32)
    numbers = np.repeat(np.arange(chunk, dtype=np.uint32), n if queried else 0)
    offsets = (np.arange(block, dtype=np.intp) * n)[:, None]
    cells = np.empty((block, n), dtype=np.intp)  # replicate * n + laid-out position
    out = np.empty((n_boot, len(exprs)), dtype=np.float64)
    for start in bar.over(range(0, n_boot, chunk)):  # progress
        reps = min(chunk, n_boot - start)
        if grouped is not None:
            drawn_clusters = draw_clusters(grouped, rng, reps)
        else:
            draws = [rng.integers(0, len(rows), size=(reps, len(rows))) for rows in placed]
        expanded: list[npt.NDArray[np.uint32]] = []
        lengths: list[IntArray] = []  # rows per replicate of a cluster draw
        for first in range(0, reps, block):  # a block of replicates at a time, in cache
            size = min(block, reps - first)
            if grouped is not None:  # the drawn clusters' rows, in drawn order
                picked, length = cluster_rows(grouped, drawn_clusters[first : first + size])
                lengths.append(length)
                if queried and not ordered:
                    expanded.append(picked.astype(np.uint32))
                if not counted and not ordered:
                    continue
                cells_ = picked + np.repeat(offsets[:size, 0], length)
                counts = np.bincount(cells_, minlength=size * n)
                if counted:
                    matrix = counts.reshape(size, n).astype(np.float64)
                    at = start + first
                    for j, column in from_counts(counted, matrix, clustered=True).items():
                        out[at : at + size, j] = column
                if ordered:
                    expanded.append(np.repeat(tiled[: size * n], counts))
                continue
            for rows, drawn, lo, hi in zip(placed, draws, edges[:-1], edges[1:], strict=True):
                picked = rows[drawn[first : first + size]]
                if len(unsorted):
                    unsorted[first : first + size, lo:hi] = picked
                if not counted and not ordered:
                    continue
                np.add(picked, offsets[:size], out=cells[:size, lo:hi])
            if not counted and not ordered:
                continue
            counts = np.bincount(cells[:size].ravel(), minlength=size * n)
            if counted:
                matrix = counts.reshape(size, n).astype(np.float64)
                at = start + first
                for j, column in from_counts(counted, matrix).items():
                    out[at : at + size, j] = column
            if ordered:
                expanded.append(np.repeat(tiled[: size * n], counts))
        if not queried:
            continue
        if grouped is not None:
            positions = pl.Series(np.concatenate(expanded))
            each = np.repeat(np.arange(reps, dtype=np.uint32), np.concatenate(lengths))
            ids = pl.Series(replicate, each).set_sorted()
        else:
            positions = pl.Series(np.concatenate(expanded) if ordered else unsorted[:reps].ravel())
            ids = pl.Series(replicate, numbers[: reps * n]).set_sorted()
        gathered = laid_out.select(read)[positions] if read else pl.DataFrame()
        long = gathered.with_columns(ids)
        measured = long.group_by(replicate, maintain_order=True).agg(**queried)
        table = measured.select(list(queried)).fill_null(np.nan).to_numpy()
        rest = [j for j in range(len(exprs)) if j not in counted]
        out[start : start + reps, rest] = table.astype(np.float64)
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


class _Plan(NamedTuple):
    """What every group shares: the metrics, the roles and the bootstrap's settings."""

    exprs: dict[str, pl.Expr]
    names: list[str]
    label: str
    layout: str | None  # the column replicates are laid out by
    known: dict[str, Known]
    n_boot: int
    seed: int | None
    level: float
    bar: Ticks = OFF  # progress
    cluster: str | None = None  # a cluster bootstrap's column of cluster ids


def _codes(plan: _Plan, df: pl.DataFrame) -> IntArray | None:
    """Each row's cluster id as an integer (None without clusters)."""
    if plan.cluster is None:
        return None
    return np.asarray(df[plan.cluster].rank("dense").to_numpy(), dtype=np.intp)


def _rows(
    plan: _Plan, key: list[Any], point: tuple[Any, ...], summary: list[tuple[float | None, ...]]
) -> list[tuple[Any, ...]]:
    """A group's output rows; no interval around an undefined estimate (e.g. a NaN score)."""
    return [
        (*key, name, value, *(stats if value is not None else (None, None, None)))
        for name, value, stats in zip(plan.exprs, point, summary, strict=True)
    ]


def _group(plan: _Plan, df: pl.DataFrame) -> list[tuple[Any, ...]]:
    """One group's rows, its metrics evaluated on its own frame (any expression, any data)."""
    key = [df[name][0] for name in plan.names] if df.height else [None] * len(plan.names)
    df = _canonical(df)
    exprs = plan.exprs
    estimate = df.select(**{name: expr.cast(pl.Float64) for name, expr in exprs.items()})
    if estimate.height != 1:
        msg = (
            f"the metrics give {estimate.height} values per group, expected one"
            "\n\nHint: use scalar aggregations such as pr.auc('score', 'label')."
        )
        raise ValueError(msg)
    groups = strata(df[plan.label])
    if df.height:
        rng = group_rng(plan.seed, key)
        values = _values(
            df, exprs, groups, n_boot=plan.n_boot, rng=rng, key=plan.layout, known=plan.known,
            bar=plan.bar, cluster=_codes(plan, df),
        )  # fmt: skip
        summary = _summary(values, plan.level)
    else:
        summary = [(None, None, None)] * len(exprs)
    return _rows(plan, key, estimate.fill_nan(None).row(0), summary)  # undefined: null


def _binary(series: pl.Series) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """(value is True or 1, row is usable: Boolean or 0/1 and not null) for each row."""
    if not (series.dtype == pl.Boolean or series.dtype.is_integer()):
        false = np.zeros(series.len(), dtype=np.bool_)
        return false, false
    usable = series.is_not_null() & series.cast(pl.Int64, strict=False).is_in([0, 1])
    value = series.cast(pl.Boolean).fill_null(value=False)
    return value.to_numpy().astype(np.bool_), usable.fill_null(value=False).to_numpy()


def _all_groups(plan: _Plan, df: pl.DataFrame) -> pl.DataFrame | None:
    """
    Every group's rows in one pass, the same numbers as :func:`_group` group by group.

    The frame is put in canonical order once (by the groups, then every column: within a
    group, the order :func:`_group` sorts it into) and laid out once; the estimates come
    from one ``group_by().agg``. Where every metric of a group is recognised on Boolean or
    0/1 strata, its replicates come from count matrices with the group's own generator,
    without Polars; any other group runs :func:`_group` on its slice. None where the frame
    cannot be sorted (nested columns) or a metric uses a selector: then group by group.
    """
    names, exprs = plan.names, plan.exprs
    if any("cs." in str(expr) for expr in exprs.values()):
        return None
    others = [c for c in df.columns if c not in names]
    try:
        canon = df.sort([*names, *others], nulls_last=True, maintain_order=True)
    except pl.exceptions.PolarsError:
        return None
    taken = [*canon.columns]
    row = fresh("_roc_row", taken)
    aliases = [fresh(f"_roc_metric{j}", taken) for j in range(len(exprs))]
    size = fresh("_roc_size", [*taken, *aliases])
    agg = [expr.cast(pl.Float64).alias(a) for a, expr in zip(aliases, exprs.values(), strict=True)]
    table = (
        canon.with_row_index(row)
        .group_by(names, maintain_order=True)
        .agg(pl.col(row).first(), pl.len().alias(size), *agg)
    )
    for name, alias in zip(exprs, aliases, strict=True):
        if not table.schema[alias].is_numeric():
            msg = (
                f"the metric {name!r} gives several values per group, expected one"
                "\n\nHint: use scalar aggregations such as pr.auc('score', 'label')."
            )
            raise ValueError(msg)
    starts = table[row].to_numpy().astype(np.intp)
    sizes = table[size].to_numpy().astype(np.intp)
    keys = table.select(names).rows()
    points = table.select(aliases).fill_nan(None).rows()
    if plan.layout is None:
        order = np.arange(canon.height, dtype=np.intp)
    else:  # stable within each group, as _layout
        laid = canon.with_row_index(row).sort([*names, plan.layout], nulls_last=True,
                                               maintain_order=True)  # fmt: skip
        order = laid[row].to_numpy().astype(np.intp)
    positive, usable = _binary(canon[plan.label])
    fast = np.ones(len(starts), dtype=np.bool_) if len(plan.known) == len(exprs) else None
    arrays: dict[int, tuple[Known, FloatArray, npt.NDArray[np.bool_]]] = {}
    for j, name in enumerate(exprs):
        known = plan.known.get(name)
        if fast is None or known is None or canon.schema[known.score] not in EXACT_SCORES:
            fast = None
            break
        scores = canon[known.score].cast(pl.Float64)
        y, ok = _binary(canon[known.label])
        ok &= scores.is_not_null().to_numpy() & ~np.isnan(scores.fill_null(0.0).to_numpy())
        fast &= np.minimum.reduceat((ok & usable).astype(np.int8), starts).astype(np.bool_)
        arrays[j] = (known, scores.fill_null(0.0).to_numpy()[order], y[order])
    rows: list[tuple[Any, ...]] = []
    plan.bar.expect(len(starts) * plan.n_boot)  # every group's replicates: a known total
    for g, (lo, n) in enumerate(zip(starts.tolist(), sizes.tolist(), strict=True)):
        key = list(keys[g])
        if fast is None or not fast[g]:
            rows.extend(_group(plan, canon.slice(lo, n)))
            continue
        where = slice(lo, lo + n)
        inner = order[where] - lo  # canonical positions of the group's laid-out rows
        counted = {
            j: counted_arrays(known, s[where], y[where], presorted=known.score == plan.layout)
            for j, (known, s, y) in arrays.items()
        }
        label = positive[where]
        groups = [rows_ for rows_ in (np.flatnonzero(~label), np.flatnonzero(label)) if len(rows_)]
        rng = group_rng(plan.seed, key)
        values = _values(
            canon, exprs, groups, n_boot=plan.n_boot, rng=rng, prepared=(inner, counted),
            bar=plan.bar, cluster=_codes(plan, canon.slice(lo, n)),
        )  # fmt: skip
        rows.extend(_rows(plan, key, points[g], _summary(values, plan.level)))
    return _frame(rows, plan, df)


def _frame(rows: list[tuple[Any, ...]], plan: _Plan, df: pl.DataFrame) -> pl.DataFrame:
    """The output rows as a frame of the output schema."""
    return pl.DataFrame(rows, schema=_out_schema(df.schema, plan.names), orient="row")


def _out_schema(schema: pl.Schema, names: list[str]) -> pl.Schema:
    """``*by, metric, estimate, se, lower, upper``."""
    columns: dict[str, pl.DataType] = {name: schema[name] for name in names}
    columns["metric"] = pl.String()
    columns.update(dict.fromkeys(BOOTSTRAP[1:], pl.Float64()))
    return pl.Schema(columns)


@same_kind
@public_by  # the metrics may read the `by` columns by their names
def bootstrap(
    lf: pl.LazyFrame,
    metrics: Mapping[str, pl.Expr],
    *,
    by: By = None,
    label: str = "label",
    n_boot: int = 2000,
    seed: int | None = 0,
    level: float = 0.95,
    progress: bool | None = None,
    cluster: str | None = None,
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
    :mod:`polars_roc.inference.metric_bootstrap`: the same `seed` gives the same numbers,
    whatever the row order, the other groups, or the number of threads.

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
        Random seed (default 0: a re-run gives the same numbers); None draws a fresh,
        unreproducible one.
    level
        Confidence level of the percentile interval.
    progress
        A progress bar on standard error while the bootstrap runs: True, False or None
        (auto: only on a terminal, not under pytest, and with tqdm installed; ``pip install
        polars_roc[progress]``). It ticks once per chunk of replicates, after ~2 s.
    cluster
        Column of cluster ids (a customer, a patient with several rows): a resample draws
        whole clusters with replacement, a row counting as often as its cluster is drawn.
        Strata: a cluster whose rows all hold one class of `label` is drawn within that
        class (as many clusters as the class holds); clusters holding several classes form
        one more stratum, drawn last. One cluster per row gives exactly the row bootstrap's
        draws (the same numbers for the same seed). Null cluster ids are an error.

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

    Rows of one customer are not independent: draw customers, not rows.

    >>> customers = df.with_columns(customer=pl.col("case") // 4)  # 4 rows per customer
    >>> wide = customers.roc.bootstrap(metrics, by="model", n_boot=500, seed=1, cluster="customer")
    >>> wide.columns
    ['model', 'metric', 'estimate', 'se', 'lower', 'upper']
    """
    exprs = _check_metrics(metrics)
    names = validate.as_names(by)
    schema = lf.collect_schema()
    validate.column(schema, label, "label")
    for name in names:
        validate.column(schema, name, "by")
    for name in BOOTSTRAP:
        if name in names:
            msg = (  # the wording of the other frame functions (see _core.names.private_by)
                f"output column {name!r} of bootstrap() collides with the `by` column "
                f"{name!r}: the result cannot hold both\n\nHint: rename the by column first, "
                f"e.g. .rename({{{name!r}: {name + '_key'!r}}})."
            )
            raise ValueError(msg)
    validate.n_boot(n_boot)
    validate.seed(seed)
    validate.level(level)
    if cluster is not None:
        roles = {label: "label", **dict.fromkeys(names, "by")}
        validate.cluster(schema, cluster, roles=roles)
    out_schema = _out_schema(schema, names)
    layout = _sort_key(schema, exprs, {label, *names})
    known = {name: k for name, expr in exprs.items() if (k := recognise(expr, schema))}
    bar = ticks(progress, "bootstrap")  # progress
    plan = _Plan(exprs, names, label, layout, known, n_boot, seed, level, bar, cluster)

    def run(df: pl.DataFrame) -> pl.DataFrame:
        try:
            if cluster is not None:
                validate.cluster_ids(df[cluster], cluster)
            if names and df.height:
                done = _all_groups(plan, df)
                if done is not None:
                    return done
                parts = df.group_by(names).map_groups(lambda g: _frame(_group(plan, g), plan, g))
                return parts.sort(names, nulls_last=True, maintain_order=True)
            return _frame(_group(plan, df) if df.height or not names else [], plan, df)
        finally:
            bar.release()  # announced work that did not run (an error): the bar closes

    return lf.map_batches(
        run,
        schema=out_schema,
        predicate_pushdown=False,
        projection_pushdown=False,
        slice_pushdown=False,
    )
