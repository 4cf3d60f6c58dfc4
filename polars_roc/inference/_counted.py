"""
Replicates of our own metrics from count matrices, for :mod:`._metric_bootstrap`.

A replicate is the group's rows with a count each (how often it was drawn). Our AUC,
average precision, Brier score and log loss, given exactly as ``pr.auc(score, label)`` and
the like, are computed from the ``(replicates, rows)`` counts with numpy: running totals
over the rows sorted by score, or per distinct score where scores tie (the formulas of the
expressions: Mann-Whitney from average ranks, precision at each distinct score).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
import polars as pl

from polars_roc._core.resampling import FloatArray, IntArray, auc_statistic
from polars_roc.exprs.precision import average_precision
from polars_roc.exprs.probability import EPS, brier_score, log_loss
from polars_roc.exprs.ranking import auc

__all__ = [
    "EXACT_SCORES",
    "KNOWN",
    "Counted",
    "Known",
    "Ranked",
    "counted_arrays",
    "counted_metric",
    "from_counts",
    "positives",
    "ranked",
    "ranked_value",
    "recognise",
    "tied_value",
]


class Known(NamedTuple):
    """One of our metrics, recognised: its kind and its score and label columns."""

    kind: str
    score: str
    label: str


#: Our metrics whose replicates are computed from count matrices, with their builders.
KNOWN: dict[str, Callable[[str, str], pl.Expr]] = {
    "auc": auc,
    "average_precision": average_precision,
    "brier_score": brier_score,
    "log_loss": log_loss,
}

#: Score dtypes the count path reads exactly as Float64 (wider integers keep the query).
EXACT_SCORES = (pl.Float64, pl.Float32, pl.Int8, pl.Int16, pl.Int32, pl.UInt8, pl.UInt16, pl.UInt32)


def recognise(expr: pl.Expr, schema: pl.Schema) -> Known | None:
    """
    `expr` if it is exactly ``builder(score, label)`` for one of :data:`KNOWN` (else None).

    Two expressions built by the same calls print the same tree, so the printed trees are
    compared: any other argument (a weight, pos_label, direction, an alias or cast on top)
    prints differently and leaves the expression to the query.
    """
    roots = list(dict.fromkeys(expr.meta.root_names()))
    if len(roots) != 2 or any(name not in schema for name in roots):
        return None
    kind = expr.meta.output_name(raise_if_undetermined=False)
    builder = KNOWN.get(kind or "")
    if kind is None or builder is None:  # each of ours is named for its kind
        return None
    text = str(expr)
    for score, label in (roots, roots[::-1]):
        if str(builder(score, label)) == text:
            return Known(kind, score, label)
    return None


def positives(labels: pl.Series) -> npt.NDArray[np.bool_] | None:
    """Boolean or 0/1 labels without nulls as a Boolean array; None otherwise."""
    if labels.null_count() or not (labels.dtype == pl.Boolean or labels.dtype.is_integer()):
        return None
    if labels.dtype != pl.Boolean and not labels.is_in([0, 1]).all():
        return None
    return np.asarray(labels.cast(pl.Boolean).to_numpy(), dtype=np.bool_)


class Counted(NamedTuple):
    """A recognised metric on a group's laid-out rows, ready for count matrices."""

    kind: str
    pair: tuple[str, str]  # (score, label): metrics on the same pair share their sums
    order: IntArray | None  # the laid-out rows sorted by score (None: they already are)
    starts: IntArray  # the first sorted row of each distinct score
    levels: FloatArray  # the distinct scores, ascending
    positive: npt.NDArray[np.bool_]  # sorted rows
    loss: FloatArray  # per laid-out row: squared error (Brier) or log loss


def counted_metric(known: Known, df: pl.DataFrame, key: str | None) -> Counted | None:
    """The precomputed arrays of a recognised metric, or None where the query must run it."""
    scores, labels = df[known.score], df[known.label]
    positive = positives(labels)
    if positive is None or scores.null_count() or scores.dtype not in EXACT_SCORES:
        return None
    s = np.asarray(scores.cast(pl.Float64).to_numpy(), dtype=np.float64)
    if np.isnan(s).any():
        return None
    return counted_arrays(known, s, positive, presorted=known.score == key)


def counted_arrays(
    known: Known, s: FloatArray, positive: npt.NDArray[np.bool_], *, presorted: bool
) -> Counted:
    """The arrays of a recognised metric from checked scores and labels (laid-out rows)."""
    y = positive.astype(np.float64)
    if known.kind == "brier_score":
        loss = (s - y) ** 2
    else:
        loss = -np.log(np.clip(np.where(positive, s, 1 - s), EPS, 1 - EPS))
    order = None if presorted else np.argsort(s, kind="stable")
    sorted_s = s if order is None else s[order]
    starts = np.flatnonzero(np.r_[True, sorted_s[1:] != sorted_s[:-1]])
    sorted_y = positive if order is None else positive[order]
    pair = (known.score, known.label)
    return Counted(known.kind, pair, order, starts, sorted_s[starts], sorted_y, loss)


class Ranked(NamedTuple):
    """Per replicate, for distinct scores: positives' counts and their running totals."""

    counts: FloatArray  # (reps, positives): copies of each positive row
    below: FloatArray  # (reps, positives): rows up to and including it (all classes)
    positives_below: FloatArray  # (reps, positives): positive rows up to and including it
    n_pos: FloatArray  # (reps,)


def ranked(metric: Counted, counts: FloatArray) -> Ranked:
    """
    The running totals of one (score, label) pair, scores all distinct.

    A group without positives has no columns and ``n_pos`` 0: its metrics come out NaN
    (0 / 0), which the summary treats as undefined.
    """
    c = counts if metric.order is None else counts[:, metric.order]
    columns = np.flatnonzero(metric.positive)
    on_positives = c[:, columns]
    below = np.cumsum(c, axis=1)[:, columns]
    positives_below = np.cumsum(on_positives, axis=1)
    n_pos = on_positives.sum(axis=1)  # not positives_below[:, -1]: there may be no column
    return Ranked(on_positives, below, positives_below, n_pos)


def ranked_value(kind: str, r: Ranked, n: int | FloatArray) -> FloatArray:
    """
    AUC (Mann-Whitney from average ranks) or average precision, scores all distinct.

    `n`: the rows of each replicate (one number, or one per replicate for a cluster draw).
    """
    c, n_pos = r.counts, r.n_pos
    with np.errstate(divide="ignore", invalid="ignore"):
        if kind == "auc":  # the c copies of a row take the ranks below - c + 1 .. below
            ranks = np.einsum("ij,ij->i", c, r.below) - (np.einsum("ij,ij->i", c, c) - n_pos) / 2
            return np.asarray((ranks - n_pos * (n_pos + 1) / 2) / (n_pos * (n - n_pos)))
        # Precision at a positive row's score: positives over all rows at or above it.
        tp = c - r.positives_below
        tp += n_pos[:, None]
        at_or_above = c - r.below
        at_or_above += np.reshape(n, (-1, 1))
        tp /= np.maximum(at_or_above, 1.0, out=at_or_above)
        return np.asarray(np.einsum("ij,ij->i", c, tp) / n_pos, dtype=np.float64)


def tied_value(metric: Counted, counts: FloatArray) -> FloatArray:
    """AUC or average precision from per-score class counts (tied scores)."""
    c = counts if metric.order is None else counts[:, metric.order]
    pos = np.add.reduceat(c * metric.positive, metric.starts, axis=1)
    neg = np.add.reduceat(c * ~metric.positive, metric.starts, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        if metric.kind == "auc":
            return auc_statistic(pos, neg, metric.levels)[:, 0]
        tp = np.cumsum(pos[:, ::-1], axis=1)
        fp = np.cumsum(neg[:, ::-1], axis=1)
        gained = np.where(pos[:, ::-1] > 0, pos[:, ::-1] * tp / (tp + fp), 0.0)
        return np.asarray(gained.sum(axis=1) / tp[:, -1], dtype=np.float64)


def from_counts(
    counted: dict[int, Counted], counts: FloatArray, *, clustered: bool = False
) -> dict[int, FloatArray]:
    """
    Each recognised metric's replicate values from the row counts ``(reps, rows)``.

    A cluster draw (`clustered`) gives each replicate its own number of rows.
    """
    n = counts.shape[1]
    total: int | FloatArray = counts.sum(axis=1) if clustered else n
    shared: dict[tuple[str, str], Ranked] = {}
    values: dict[int, FloatArray] = {}
    mean = [j for j, metric in counted.items() if metric.kind in ("brier_score", "log_loss")]
    if mean:  # every mean loss in one pass over the counts
        losses = np.stack([counted[j].loss for j in mean], axis=1)
        sums = counts @ losses / np.reshape(total, (-1, 1))
        values.update({j: sums[:, k] for k, j in enumerate(mean)})
    for j, metric in counted.items():
        if j in values:
            continue
        if len(metric.starts) < n:
            values[j] = tied_value(metric, counts)
        else:
            if metric.pair not in shared:
                shared[metric.pair] = ranked(metric, counts)
            values[j] = ranked_value(metric.kind, shared[metric.pair], total)
    return values
