"""
Stratified bootstrap of ROC statistics, vectorized over replicates.

A stratified resample draws ``n_pos`` positives from the group's positives and ``n_neg``
negatives from its negatives, with replacement. Each draw only changes how often every row
counts, so a replicate is the original group with multinomial row counts: its ROC curve lives
on the group's own distinct scores, and a statistic of it is a statistic of two count vectors
(positives and negatives per distinct score). Replicates are computed a chunk at a time as
``(replicates, distinct scores)`` numpy matrices of about 2**16 cells: the Python loop runs
over chunks, never over rows or pairs (a group of more than 2**15 rows of one class gets one
replicate per chunk, each still a single vectorized pass).

Each group draws from its own random stream, seeded by ``seed`` and the group's key values,
so a group's interval does not depend on which other groups the frame holds (grouped ==
one group at a time) nor on the order of its rows.

A cluster bootstrap (``cluster=``, rows of one customer or patient are not independent)
draws whole clusters with replacement, so a row counts as often as its cluster is drawn
(:func:`draw_clusters`). Stratification: a cluster whose rows all hold one class is drawn
within that class's stratum (as many clusters as the stratum holds); clusters holding both
classes form one more stratum, drawn last. Every replicate then keeps both classes, and one
cluster per row is exactly today's stratified row bootstrap (the same draws, the same
numbers for the same seed).

Examples
--------
>>> import polars as pl
>>> import polars_roc as pr
>>> df = pl.DataFrame(
...     {"score": [0.1, 0.4, 0.35, 0.8, 0.7, 0.2, 0.9, 0.3], "label": [0, 0, 1, 1, 1, 0, 1, 0]}
... )
>>> out = df.roc.auc(ci="bootstrap", n_boot=500, seed=1)
>>> out.select("auc", "n_pos", "n_neg")
shape: (1, 3)
┌────────┬───────┬───────┐
│ auc    ┆ n_pos ┆ n_neg │
│ ---    ┆ ---   ┆ ---   │
│ f64    ┆ i64   ┆ i64   │
╞════════╪═══════╪═══════╡
│ 0.9375 ┆ 4     ┆ 4     │
└────────┴───────┴───────┘
>>> bool(out["auc_lower"].item() <= 0.9375 <= out["auc_upper"].item())
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
import polars as pl

from polars_roc._core import validate
from polars_roc._core.columns import INTERVAL, interval
from polars_roc._core.groups import join_groups
from polars_roc._core.kernels import Rows, rows
from polars_roc._core.progress import OFF, Ticks, ticks

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]

#: A replicate statistic: ``(pos, neg, levels) -> (replicates, width)`` where `pos` / `neg`
#: are ``(replicates, K)`` positive / negative counts (or weight sums) per distinct score,
#: and `levels` the ``K`` distinct scores in ascending order.
Statistic = Callable[[FloatArray, FloatArray, FloatArray], FloatArray]

#: Matrix cells per chunk of replicates: small enough to stay in cache.
_CHUNK_CELLS = 1 << 16

BOOT_DTYPE = pl.Struct(
    {"se": pl.List(pl.Float64), "lower": pl.List(pl.Float64), "upper": pl.List(pl.Float64)}
)


def group_rng(seed: int | None, key: Sequence[Any]) -> np.random.Generator:
    """A generator seeded by `seed` and the group's key values (stable across processes)."""
    if seed is None:
        return np.random.default_rng()
    digest = hashlib.blake2b(repr(tuple(key)).encode(), digest_size=8).digest()
    return np.random.default_rng([int(seed), int.from_bytes(digest, "little")])


def _level_counts(
    levels: IntArray, weights: FloatArray | None, draws: IntArray, n_levels: int
) -> FloatArray:
    """``(replicates, K)`` counts (or weight sums) of the drawn rows per distinct score."""
    n_rep = draws.shape[0]
    flat = (levels[draws] + (np.arange(n_rep) * n_levels)[:, None]).ravel()
    w = None if weights is None else weights[draws].ravel()
    counts = np.bincount(flat, weights=w, minlength=n_rep * n_levels)
    return counts.reshape(n_rep, n_levels).astype(np.float64, copy=False)


class Clusters(NamedTuple):
    """Rows grouped into clusters, and the clusters grouped into strata (draw order)."""

    members: IntArray  # row positions, cluster after cluster (canonical order within)
    starts: IntArray  # each cluster's first index into `members`
    sizes: IntArray  # each cluster's number of rows
    strata: list[IntArray]  # the clusters of each non-empty stratum, in draw order


def clusters(codes: IntArray, stratum: IntArray, n_strata: int) -> Clusters:
    """
    The clusters of rows in canonical order, numbered by their first row.

    `codes` is each row's cluster id (any integers), `stratum` its stratum in
    ``0 .. n_strata - 1``. A cluster whose rows share one stratum is drawn in it; a cluster
    spread over several is drawn in a last, mixed stratum. With one cluster per row the
    strata hold the rows themselves, in their order.

    Examples
    --------
    >>> c = clusters(np.array([7, 7, 3, 5]), np.array([0, 1, 1, 1]), 2)
    >>> [s.tolist() for s in c.strata], c.sizes.tolist()
    ([[1, 2], [0]], [2, 1, 1])
    """
    _, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
    number = np.empty(len(first), dtype=np.intp)
    number[np.argsort(first, kind="stable")] = np.arange(len(first))
    cid = number[inverse.reshape(-1)]
    sizes = np.bincount(cid, minlength=len(first)).astype(np.intp)
    low = np.full(len(first), n_strata, dtype=np.intp)
    high = np.full(len(first), -1, dtype=np.intp)
    np.minimum.at(low, cid, stratum)
    np.maximum.at(high, cid, stratum)
    kind = np.where(low == high, low, n_strata)
    strata = [np.flatnonzero(kind == s) for s in range(n_strata + 1)]
    members = np.argsort(cid, kind="stable").astype(np.intp)
    starts = (np.cumsum(sizes) - sizes).astype(np.intp)
    return Clusters(members, starts, sizes, [s for s in strata if len(s)])


def draw_clusters(c: Clusters, rng: np.random.Generator, n_rep: int) -> IntArray:
    """
    ``(n_rep, clusters)``: each replicate's drawn clusters, stratum after stratum.

    Each stratum of k clusters draws k of them with replacement (``rng.integers``), in the
    strata's order: the calls a row bootstrap makes when every cluster is one row.
    """
    draws = [s[rng.integers(0, len(s), size=(n_rep, len(s)))] for s in c.strata]
    return np.concatenate(draws, axis=1) if draws else np.empty((n_rep, 0), dtype=np.intp)


def cluster_rows(c: Clusters, drawn: IntArray) -> tuple[IntArray, IntArray]:
    """The rows of the drawn clusters, replicate after replicate, and how many per replicate."""
    sizes = c.sizes[drawn]
    flat = sizes.ravel()
    ends = np.cumsum(flat)
    within = np.arange(int(ends[-1]) if len(ends) else 0) - np.repeat(ends - flat, flat)
    rows = c.members[np.repeat(c.starts[drawn.ravel()], flat) + within]
    return rows, sizes.sum(axis=1)


def _cluster_counts(
    c: Clusters, levels: IntArray, positive: npt.NDArray[np.bool_], n_levels: int, **draw: Any
) -> tuple[FloatArray, FloatArray]:
    """``(replicates, K)`` positives and negatives per distinct score of a cluster draw."""
    drawn = draw_clusters(c, **draw)
    rows, lengths = cluster_rows(c, drawn)
    flat = levels[rows] + np.repeat(np.arange(drawn.shape[0]) * n_levels, lengths)
    size = drawn.shape[0] * n_levels
    is_pos = positive[rows]

    def counted(mask: npt.NDArray[np.bool_]) -> FloatArray:
        counts = np.bincount(flat[mask], minlength=size).reshape(-1, n_levels)
        return counts.astype(np.float64, copy=False)

    return counted(is_pos), counted(~is_pos)


def replicates(
    scores: FloatArray,
    positive: npt.NDArray[np.bool_],
    weights: FloatArray | None,
    statistic: Statistic,
    *,
    width: int,
    n_boot: int,
    rng: np.random.Generator,
    bar: Ticks = OFF,
    cluster: IntArray | None = None,
) -> FloatArray:
    """
    A statistic over `n_boot` stratified resamples of one group: ``(n_boot, width)``.

    Rows are put in a canonical order first (class, score, weight or cluster id), so the
    replicates depend on the rows and the generator only, not on the order the rows came
    in. With `cluster` (an integer id per row, unweighted rows) whole clusters are drawn
    (:func:`clusters`: strata positives, negatives, then clusters holding both). `bar`
    ticks once per chunk of replicates (:mod:`polars_roc._core.progress`).
    """
    keys = (scores, positive) if weights is None else (weights, scores, positive)
    order = np.lexsort(keys if cluster is None else (cluster, *keys))
    scores, positive = scores[order], positive[order]
    levels, inverse = np.unique(scores, return_inverse=True)
    inverse = inverse.reshape(-1).astype(np.intp)
    pos_levels, neg_levels = inverse[positive], inverse[~positive]
    pos_w = neg_w = None
    if weights is not None:
        weights = weights[order]
        pos_w, neg_w = weights[positive], weights[~positive]
    n_pos, n_neg, n_levels = len(pos_levels), len(neg_levels), len(levels)
    out = np.empty((n_boot, width), dtype=np.float64)
    chunk = max(1, min(n_boot, _CHUNK_CELLS // max(n_levels, n_pos, n_neg)))
    grouped = None if cluster is None else clusters(cluster[order], (~positive).astype(np.intp), 2)
    for start in bar.over(range(0, n_boot, chunk)):  # progress
        n_rep = min(chunk, n_boot - start)
        if grouped is not None:
            pos, neg = _cluster_counts(grouped, inverse, positive, n_levels, rng=rng, n_rep=n_rep)
            out[start : start + n_rep] = statistic(pos, neg, levels)
            continue
        pos_draws = rng.integers(0, n_pos, size=(n_rep, n_pos))
        neg_draws = rng.integers(0, n_neg, size=(n_rep, n_neg))
        pos = _level_counts(pos_levels, pos_w, pos_draws, n_levels)
        neg = _level_counts(neg_levels, neg_w, neg_draws, n_levels)
        out[start : start + n_rep] = statistic(pos, neg, levels)
    return out


def auc_statistic(pos: FloatArray, neg: FloatArray, levels: FloatArray) -> FloatArray:
    """AUC of each replicate: positives' weight times negatives below (ties one half)."""
    below = np.cumsum(neg, axis=1) - neg / 2
    u = np.einsum("ij,ij->i", pos, below)
    return np.asarray(u / (pos.sum(axis=1) * neg.sum(axis=1)), dtype=np.float64)[:, None]


def roc_points(pos: FloatArray, neg: FloatArray) -> tuple[FloatArray, FloatArray]:
    """
    Each replicate's ROC vertices, threshold descending: ``(fpr, tpr)``, ``(replicates, K + 1)``.

    The first column is the (0, 0) start; the last is (1, 1).
    """
    zeros = np.zeros((pos.shape[0], 1))
    tp = np.concatenate([zeros, np.cumsum(pos[:, ::-1], axis=1)], axis=1)
    fp = np.concatenate([zeros, np.cumsum(neg[:, ::-1], axis=1)], axis=1)
    return fp / fp[:, -1:], tp / tp[:, -1:]


def segment_area(x: FloatArray, y: FloatArray, lo: float, hi: float) -> FloatArray:
    """Area under each row's polyline (x ascending) between x = lo and x = hi."""
    x0, y0, x1, y1 = x[:, :-1], y[:, :-1], x[:, 1:], y[:, 1:]
    a, b = np.clip(x0, lo, hi), np.clip(x1, lo, hi)
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = (y1 - y0) / (x1 - x0)
        area = (b - a) * ((y0 + slope * (a - x0)) + (y0 + slope * (b - x0))) / 2
    return np.asarray(np.where(b > a, area, 0.0).sum(axis=1), dtype=np.float64)


def partial_auc_statistic(
    *, fpr: tuple[float, float] | None, tpr: tuple[float, float] | None
) -> Statistic:
    """Raw partial area over an FPR range (TPR over FPR) or a TPR range (TNR over TPR)."""

    def statistic(pos: FloatArray, neg: FloatArray, levels: FloatArray) -> FloatArray:
        x_fpr, y_tpr = roc_points(pos, neg)
        if fpr is not None:
            return segment_area(x_fpr, y_tpr, *fpr)[:, None]
        assert tpr is not None
        return segment_area(y_tpr, 1 - x_fpr, *tpr)[:, None]

    return statistic


def tpr_at_fpr_statistic(targets: Sequence[float]) -> Statistic:
    """TPR at each target FPR, linear between vertices; the largest TPR on a vertical part."""
    wanted = np.asarray(targets, dtype=np.float64)

    def statistic(pos: FloatArray, neg: FloatArray, levels: FloatArray) -> FloatArray:
        fpr, tpr = roc_points(pos, neg)
        return _interpolate(fpr, tpr, wanted, last=True)

    return statistic


def fpr_at_tpr_statistic(targets: Sequence[float]) -> Statistic:
    """FPR at each target TPR, linear between vertices; the smallest FPR on a horizontal part."""
    wanted = np.asarray(targets, dtype=np.float64)

    def statistic(pos: FloatArray, neg: FloatArray, levels: FloatArray) -> FloatArray:
        fpr, tpr = roc_points(pos, neg)
        return _interpolate(tpr, fpr, wanted, last=False)

    return statistic


def _interpolate(x: FloatArray, y: FloatArray, wanted: FloatArray, *, last: bool) -> FloatArray:
    """
    The value of y at each wanted x along each row's monotone polyline.

    Where x equals a target over several vertices, take the last vertex (`last`, the largest
    y) or the first (the smallest y); between vertices interpolate linearly.
    """
    rows = np.arange(x.shape[0])[:, None]
    n = x.shape[1]
    out = np.empty((x.shape[0], len(wanted)))
    for j, target in enumerate(wanted):
        if last:
            i = np.clip((x <= target).sum(axis=1) - 1, 0, n - 1)[:, None]
            j0, j1 = i, np.minimum(i + 1, n - 1)
        else:
            i = np.clip((x < target).sum(axis=1), 0, n - 1)[:, None]
            j0, j1 = np.maximum(i - 1, 0), i
        x0, x1, y0, y1 = x[rows, j0], x[rows, j1], y[rows, j0], y[rows, j1]
        exact = x[rows, i] == target
        with np.errstate(divide="ignore", invalid="ignore"):
            between = y0 + (y1 - y0) * (target - x0) / (x1 - x0)
        out[:, j] = np.where(exact, y[rows, i], between)[:, 0]
    return out


def _percentiles(values: FloatArray, probs: list[float], unbounded: Sequence[int]) -> FloatArray:
    """
    ``(len(probs), width)`` type 7 percentiles of each column, +inf allowed in `unbounded`.

    In those columns +inf sorts above every finite value: a percentile that falls on +inf,
    or between a finite value and +inf, is +inf (the limit of the interpolation); others are
    numpy's. Other columns are numpy's (:func:`_summary` nulls one with a non-finite value).
    """
    out = np.asarray(np.quantile(values, probs, axis=0), dtype=np.float64).reshape(len(probs), -1)
    for j in unbounded:
        column = values[:, j]
        if not np.isposinf(column).any():
            continue
        below = np.quantile(column, probs, method="lower")
        above = np.quantile(column, probs, method="higher")
        out[:, j] = np.where(below == above, below, np.where(np.isposinf(above), above, out[:, j]))
    return out


def _summary(
    values: FloatArray, level: float, unbounded: Sequence[int] = ()
) -> dict[str, list[float | None]]:
    """
    Standard error (ddof 1) and percentile interval of each column of replicates.

    A column with a NaN or infinite replicate gets nulls, except that +inf is a value in the
    `unbounded` columns (a threshold above every score, "always negative"): it sorts above
    every finite value, so a bound is +inf where its percentile falls on +inf and finite
    otherwise (see :func:`_percentiles`); the standard error is then null (no finite spread).
    NaN or -inf still give nulls there.
    """
    alpha = 1.0 - level
    allowed = np.isfinite(values)
    for j in unbounded:
        allowed[:, j] |= np.isposinf(values[:, j])
    finite = [bool(ok) for ok in np.asarray(allowed.all(axis=0)).ravel()]
    with np.errstate(invalid="ignore"):  # inf - inf: NaN, reported as null
        lower, upper = _percentiles(values, [alpha / 2, 1 - alpha / 2], unbounded)
        many = values.shape[0] > 1
        se = values.std(axis=0, ddof=1) if many else np.full(values.shape[1], np.nan)

    def listed(column: FloatArray, *, infinite: bool = False) -> list[float | None]:
        return [
            float(v) if ok and (np.isfinite(v) or (infinite and np.isposinf(v))) else None
            for v, ok in zip(column.tolist(), finite, strict=True)
        ]

    return {
        "se": listed(se),
        "lower": listed(lower, infinite=True),
        "upper": listed(upper, infinite=True),
    }


def bootstrap(
    r: Rows,
    key: Sequence[pl.Expr],
    statistic: Statistic,
    *,
    width: int = 1,
    level: float,
    n_boot: int,
    seed: int | None,
    unbounded: Sequence[int] = (),
    progress: bool | None = None,
    cluster: pl.Expr | None = None,
) -> pl.Expr:
    """
    Per-group stratified bootstrap as an aggregation: a struct of ``se, lower, upper`` lists.

    Valid in ``select`` and ``group_by().agg()``. Each list holds `width` values (one per
    target of the statistic). They are null when the group has fewer than 2 positive or
    2 negative rows or a NaN score, and where a replicate is NaN or infinite, except that
    +inf is an ordinary value (above every finite one) in the `unbounded` columns.

    Parameters
    ----------
    r
        The rows that count (from :func:`polars_roc.exprs.rows`).
    key
        Scalar expressions naming the group (e.g. ``pl.col(name).first()``): they seed the
        group's random stream together with `seed`.
    statistic
        Replicate statistic, see :data:`Statistic`.
    width
        Number of values the statistic returns per replicate.
    level
        Confidence level of the percentile interval.
    n_boot
        Number of replicates.
    seed
        Random seed; None draws a fresh one.
    unbounded
        Positions (among the `width` values) where +inf is a legitimate replicate value,
        such as a chosen threshold of +inf ("always negative"): see :func:`_summary`.
    progress
        A bar over the replicates (:mod:`polars_roc._core.progress`): True, False or None
        (auto). The groups' replicates add up on one bar.
    cluster
        Cluster ids of the rows of `r` (filtered like them; unweighted rows): whole
        clusters are drawn (see the module docstring), and the interval needs 2 clusters
        holding positives and 2 holding negatives.
    """
    bar = ticks(progress, "bootstrap")  # progress
    weighted = r.weight is not None
    extra = [e for e in (r.weight, cluster) if e is not None]
    inputs = [r.score, r.positive, *extra, *key]
    nothing: list[float | None] = [None] * width
    empty = {"se": nothing, "lower": nothing, "upper": nothing}

    def run(series: Sequence[pl.Series]) -> dict[str, list[float | None]]:
        scores = series[0].to_numpy().astype(np.float64)
        positive = series[1].to_numpy().astype(bool)
        weights = series[2].to_numpy().astype(np.float64) if weighted else None
        ids = None if cluster is None else series[2 + len(extra) - 1].rank("dense").to_numpy()
        n_pos = int(positive.sum())
        sizes = [n_pos, len(positive) - n_pos]  # rows, or clusters, holding each class
        if ids is not None:
            sizes = [len(np.unique(ids[positive])), len(np.unique(ids[~positive]))]
        if min(sizes) < 2 or np.isnan(scores).any():
            return empty
        group = [s[0] if len(s) else None for s in series[2 + len(extra) :]]
        rng = group_rng(seed, group)
        values = replicates(
            scores,
            positive,
            weights,
            statistic,
            width=width,
            n_boot=n_boot,
            rng=rng,
            bar=bar,
            cluster=ids,
        )
        return _summary(values, level, unbounded)

    return pl.map_groups(inputs, run, return_dtype=BOOT_DTYPE, returns_scalar=True)


def boot_expr(
    r: Rows,
    names: list[str],
    statistic: Statistic,
    *,
    width: int,
    level: float,
    n_boot: int,
    seed: int | None,
    unbounded: Sequence[int] = (),
    progress: bool | None = None,
    cluster: pl.Expr | None = None,
) -> pl.Expr:
    """
    The checked bootstrap aggregation ``_boot`` (a struct of lists), seeded per group.

    `unbounded`: the value positions where +inf is a legitimate replicate; `progress`: a bar
    over the replicates; `cluster`: the rows' cluster ids for a cluster bootstrap (see
    :func:`bootstrap`).
    """
    validate.n_boot(n_boot)
    validate.seed(seed)
    validate.level(level)
    return bootstrap(
        r,
        [pl.col(name).first() for name in names],
        statistic,
        width=width,
        level=level,
        n_boot=n_boot,
        seed=seed,
        unbounded=unbounded,
        progress=progress,
        cluster=cluster,
    ).alias("_boot")


def boot_fields(estimate: str) -> list[pl.Expr]:
    """``{estimate}_se, _lower, _upper`` of a one-value bootstrap; null where the estimate is."""
    defined = pl.col(estimate).is_not_null()
    return [
        pl.when(defined).then(pl.col("_boot").struct.field(f).list.first()).alias(name)
        for f, name in zip(INTERVAL, interval(estimate), strict=True)
    ]


def boot_table(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    names: list[str],
    weight: str | None,
    pos_label: Any,
    statistic: Statistic,
    width: int,
    level: float,
    n_boot: int,
    seed: int | None,
    unbounded: Sequence[int] = (),
    progress: bool | None = None,
    cluster: str | None = None,
) -> pl.LazyFrame:
    """
    ``*names, _boot``: the bootstrap summary struct per group (unsorted).

    `unbounded`: the value positions where +inf is a legitimate replicate; `progress`: a bar
    over the replicates (see :func:`bootstrap`); `cluster`: the column of cluster ids of a
    cluster bootstrap.
    """
    r = rows(score, label, weight=weight, pos_label=pos_label, checked=False)
    ids = None
    if cluster is not None:
        r, ids = clustered_rows(score, label, pos_label=pos_label, cluster=cluster)
    boot = boot_expr(
        r,
        names,
        statistic,
        width=width,
        level=level,
        n_boot=n_boot,
        seed=seed,
        unbounded=unbounded,
        progress=progress,
        cluster=ids,
    )
    return lf.group_by(names).agg(boot) if names else lf.select(boot)


def clustered_rows(score: str, label: str, *, pos_label: Any, cluster: str) -> tuple[Rows, pl.Expr]:
    """
    Unweighted rows that count and their cluster ids, filtered alike (a null id fails).

    Examples
    --------
    >>> df = pl.DataFrame({"s": [0.2, None, 0.9], "y": [0, 1, 1], "id": ["a", "b", "c"]})
    >>> r, ids = clustered_rows("s", "y", pos_label=None, cluster="id")
    >>> df.select(ids)["id"].to_list()
    ['a', 'c']
    """
    masked = rows(score, label, pos_label=pos_label, checked=False, masked=True)
    keep = masked.score.is_not_null() & masked.positive.is_not_null()
    r = Rows(masked.score.filter(keep), masked.positive.filter(keep), None)
    return r, validate.checked_cluster(cluster).filter(keep)


def attach(point: pl.LazyFrame, boot: pl.LazyFrame, names: list[str]) -> pl.LazyFrame:
    """Left-join the bootstrap summaries onto a sorted point table, keeping its order."""
    return join_groups(point, boot, names)
