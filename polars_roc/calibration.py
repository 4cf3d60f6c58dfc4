"""Calibration of probability scores: reliability curves and the expected calibration error.

:func:`calibration` is scikit-learn's ``calibration_curve`` per group: one pass tags each
row with its bin and one group-by sums the bins (a histogram, not a cumulative count). A
row's bin depends on its score alone, so tied scores always share a bin. The bins follow
scikit-learn's rules exactly:

* ``strategy="uniform"``: edges ``numpy.linspace(0, 1, bins + 1)``;
* ``strategy="quantile"``: edges ``numpy.percentile(scores, numpy.linspace(0, 1, bins + 1)
  * 100)`` (linear interpolation between order statistics, numpy's two-sided ``lerp``),
  computed per group; with weights, the same quantiles of the rows repeated by weight;
* a score ``s`` goes to bin ``1 + #{inner edges e < s}``: a score equal to an inner edge
  falls in the bin **below** it, the first bin is closed ``[e_0, e_1]`` and the others are
  ``(e_{i-1}, e_i]``; the outer edges (0 and 1, or the extreme scores) play no part;
* empty bins are left out. Scores must be probabilities in [0, 1], as scikit-learn asks.

:func:`expected_calibration_error` is the same binning as a scalar expression.

Neither takes ``direction``: a probability's scale is fixed (negating it, as
``direction="lower"`` does to a score, leaves [0, 1]). For the probability of the other
class, pass that class as `pos_label`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl
from polars._typing import IntoExprColumn

from polars_roc._core import labels, validate
from polars_roc._core.checks import NanPolicy, is_nan
from polars_roc._core.columns import CALIBRATION
from polars_roc._core.counts import coded
from polars_roc._core.frames import same_kind
from polars_roc._core.groups import join_groups, per_group
from polars_roc._core.kernels import rows
from polars_roc._core.validate import By
from polars_roc.typing import Strategy

__all__ = ["Strategy", "calibration", "expected_calibration_error"]


def _check_arguments(bins: Any, strategy: Any) -> None:
    validate.whole(bins, "bins", hint="bins=10")
    if strategy not in ("uniform", "quantile"):
        msg = (
            f"strategy must be 'uniform' or 'quantile', got {strategy!r}"
            f"\n\nHint: strategy='uniform' (equal widths) or 'quantile' (equal counts)."
        )
        raise ValueError(msg)


def _uniform_edges(bins: int) -> list[float]:
    """The inner bin edges of ``strategy="uniform"``, as scikit-learn computes them."""
    return [float(e) for e in np.linspace(0.0, 1.0, bins + 1)[1:-1]]


def _quantile_levels(bins: int) -> list[float]:
    """The quantile levels of the inner edges of ``strategy="quantile"``, as numpy sees them."""
    # scikit-learn passes percentiles (levels * 100) and numpy divides them by 100 again.
    levels = np.true_divide(np.linspace(0.0, 1.0, bins + 1) * 100, 100)
    return [float(q) for q in levels[1:-1]]


def _lerp(a: pl.Expr, b: pl.Expr, t: pl.Expr) -> pl.Expr:
    """Linear interpolation as numpy does it: from `a` below t = 0.5, from `b` above."""
    diff = b - a
    # Sums spelled out, so Polars does not fuse them into multiply-adds (its fused kernel
    # panics on an empty frame's Null-typed columns); b + -x is exactly b - x.
    above = pl.sum_horizontal(b, -(diff * (1 - t)), ignore_nulls=False)
    below = pl.sum_horizontal(a, diff * t, ignore_nulls=False)
    return pl.when(t >= 0.5).then(above).otherwise(below)


def _checked(score: pl.Expr, name: str | None = None) -> pl.Expr:
    """Refuse scores outside [0, 1] when the query runs (NaN passes: its group is null)."""

    def check(values: pl.Series) -> pl.Series:
        numbers = values.cast(pl.Float64)  # decimals and integers too
        bad = numbers.filter(numbers.is_not_nan() & ((numbers < 0) | (numbers > 1)))
        if bad.len() > 0:
            msg = (
                f"calibration needs probabilities in [0, 1]; score column "
                f"{name or values.name!r} holds {bad.unique().sort().head(5).to_list()}"
                f"\n\nHint: pass predicted probabilities (e.g. predict_proba output), not "
                f"raw scores or logits."
            )
            raise ValueError(msg)
        return numbers

    return score.map_batches(check, return_dtype=pl.Float64, is_elementwise=True)


@same_kind
def calibration(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    bins: int = 10,
    strategy: Strategy = "uniform",
    nan_policy: NanPolicy = "propagate",
) -> pl.LazyFrame:
    """
    Calibration (reliability) curve per group, as scikit-learn's ``calibration_curve``.

    The scores are cut into `bins` bins; for each non-empty bin, the mean score (the
    predicted probability) and the fraction of positives (the observed frequency): a
    well-calibrated score lies on the diagonal. ``mean_score`` and ``fraction_positive``
    are scikit-learn's ``prob_pred`` and ``prob_true``, in the same order. See the module
    docstring for the exact bin edges: ``"uniform"`` cuts [0, 1] into equal widths,
    ``"quantile"`` into bins of (about) equal counts per group. Tied scores share a bin.

    Parameters
    ----------
    lf
        Scored rows; scores must be probabilities in [0, 1] (checked when the query runs).
    score
        Numeric score column: the predicted probability of the positive class.
    label
        Class column: Boolean, 0/1 integer, or any coding with `pos_label`.
    by
        Column name(s) to group by: one curve per group.
    weight
        Optional non-negative case weights: means and fractions are weighted, `n` is the
        bin's weight sum, quantile edges are those of the rows repeated by weight.
    pos_label
        The positive class (`score` is its probability). Default: True for Boolean
        labels, 1 for 0/1 integers. There is no `direction`: see the module docstring.
    bins
        Number of bins, at least 1.
    strategy
        ``"uniform"`` (equal widths on [0, 1]) or ``"quantile"`` (equal counts).
    nan_policy
        NaN scores: ``"propagate"`` (default: the group's results are null), ``"omit"``
        (skipped like nulls) or ``"raise"`` (an error naming the column and the count).

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, bin, mean_score, fraction_positive, n``: `bin` numbers the bins from 1 (the
        lowest scores) to `bins`, empty bins left out. A group holding a NaN score has one
        row, with null `bin`, `mean_score` and `fraction_positive`.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {
    ...         "score": [0.1, 0.2, 0.3, 0.4, 0.65, 0.7, 0.8, 0.9, 1.0],
    ...         "label": [0, 0, 0, 0, 1, 1, 1, 1, 1],
    ...     }
    ... )
    >>> df.roc.calibration(bins=3)
    shape: (3, 4)
    ┌─────┬────────────┬───────────────────┬─────┐
    │ bin ┆ mean_score ┆ fraction_positive ┆ n   │
    │ --- ┆ ---        ┆ ---               ┆ --- │
    │ i64 ┆ f64        ┆ f64               ┆ i64 │
    ╞═════╪════════════╪═══════════════════╪═════╡
    │ 1   ┆ 0.2        ┆ 0.0               ┆ 3   │
    │ 2   ┆ 0.525      ┆ 0.5               ┆ 2   │
    │ 3   ┆ 0.85       ┆ 1.0               ┆ 4   │
    └─────┴────────────┴───────────────────┴─────┘

    That is scikit-learn's own example: ``calibration_curve(y, p, n_bins=3)`` gives
    ``prob_true = [0, 0.5, 1]`` and ``prob_pred = [0.2, 0.525, 0.85]``.
    """
    _check_arguments(bins, strategy)
    names = validate.as_names(by)
    validate.no_clash(names, CALIBRATION)
    schema = lf.collect_schema()
    validate.roles(schema, score=score, label=label, by=names, weight=weight, pos_label=pos_label)
    # The rows that count (null score, label or weight and zero weights dropped), one pass.
    coded_rows = coded(
        lf, score, label, names=names, weight=weight, pos_label=pos_label, label_dtype=schema[label]
    )
    weighted = weight is not None
    mass = (pl.col("tp") + pl.col("fp")).alias("_w") if weighted else pl.lit(1).alias("_w")
    scored = coded_rows.select(
        *names,
        _checked(pl.col("threshold").cast(pl.Float64), score).alias("_s"),
        pl.col("tp").alias("_pos"),
        *([mass] if weighted else []),
    )
    if strategy == "uniform":
        edges = pl.lit(pl.Series(_uniform_edges(bins), dtype=pl.Float64))
        binned = scored.with_columns(_bin=edges.search_sorted(pl.col("_s"), side="left"))
    else:
        binned = _quantile_bins(scored, names, bins, weighted=weighted)
    return _summary(binned, names, weighted=weighted)


def _summary(binned: pl.LazyFrame, names: list[str], *, weighted: bool) -> pl.LazyFrame:
    """One row per group and non-empty bin (``_bin`` counted from 0); NaN groups collapse."""
    s, pos = pl.col("_s"), pl.col("_pos")
    if weighted:
        w = pl.col("_w")
        sums = {"_score_sum": (s * w).sum(), "_pos": pos.sum(), "n": w.sum()}
    else:
        sums = {"_score_sum": s.sum(), "_pos": pos.sum(), "n": pl.len().cast(pl.Int64)}
    per_bin = binned.group_by(*names, "_bin").agg(**sums, _nan=is_nan(s).any())
    # A group holding a NaN score keeps one row: null bin, null measures, all its rows in `n`.
    bin_ = pl.when(~per_group(pl.col("_nan").any(), names)).then(pl.col("_bin") + 1)
    again = {name: pl.col(name).sum() for name in ("_score_sum", "_pos", "n")}
    summary = per_bin.group_by(*names, bin_.cast(pl.Int64).alias("bin")).agg(**again)
    ok, total = pl.col("bin").is_not_null(), pl.col("n").cast(pl.Float64)
    out = summary.with_columns(
        mean_score=pl.when(ok).then(pl.col("_score_sum") / total),
        fraction_positive=pl.when(ok).then(pl.col("_pos").cast(pl.Float64) / total),
    )
    out = out.sort([*names, "bin"], nulls_last=True, maintain_order=True)
    return out.select(*names, *CALIBRATION)


def _quantile_bins(
    scored: pl.LazyFrame, names: list[str], bins: int, *, weighted: bool
) -> pl.LazyFrame:
    """
    Tag rows with their quantile bin ``_bin`` (from 0), the edges computed per group.

    The edges are numpy's: for level ``q``, the virtual index ``v = (n - 1) * q`` into the
    group's sorted scores gives ``lerp(x[floor(v)], x[floor(v) + 1], v - floor(v))``
    (indices clipped to the last score). One sort of each group's scores and one gather
    read every order statistic; with weights, positions count weight: position ``k`` is
    held by the first score whose cumulative weight exceeds it. A row's bin is the number
    of edges strictly below its score, as ``numpy.searchsorted(edges, score)``.
    """
    levels = _quantile_levels(bins)
    if not levels:  # one bin
        return scored.with_columns(_bin=pl.lit(0, dtype=pl.UInt32))
    s, k = pl.col("_s"), len(levels)
    source, ordered = scored, s.sort()
    if weighted:  # sorted once up front: each reference to the cumulative weight is cheap
        if names:
            source = scored.select(*names, "_s", "_w").sort(*names, "_s")
        else:
            source = scored.select(s.sort(), pl.col("_w").sort_by(s))
        cumulative, ordered = pl.col("_w").cum_sum(), s
        total = cumulative.last()
    else:
        total = pl.len().cast(pl.Float64)
    below = ((total - 1) * pl.lit(pl.Series(levels, dtype=pl.Float64))).floor()
    last = (total - 1).clip(lower_bound=0)
    positions = pl.concat([below.clip(0, last), (below + 1).clip(0, last)])
    if weighted:
        positions = cumulative.search_sorted(positions, side="right")
    if not names:  # no rows at all: read nulls, not out of bounds
        ordered = ordered.append(pl.lit(None, dtype=pl.Float64))
    measures = {"_total": total, "_ab": ordered.gather(positions.cast(pl.Int64))}
    if names:
        statistics = source.group_by(names).agg(**measures)
    else:
        statistics = source.select(**{n: m.implode() for n, m in measures.items()})
        statistics = statistics.with_columns(pl.col("_total").list.first())
    virtual = pl.col("_total").cast(pl.Float64) - 1

    def at(i: int) -> pl.Expr:
        return pl.col("_ab").list.get(i)

    edges = statistics.select(
        *names,
        *(
            _lerp(at(i), at(k + i), (virtual * q) - (virtual * q).floor()).alias(f"_e{i}")
            for i, q in enumerate(levels)
        ),
    )
    tagged = join_groups(scored, edges, names, how="inner")  # no groups: a cross join
    above = [(s > pl.col(f"_e{i}")).cast(pl.UInt32) for i in range(k)]
    return tagged.with_columns(_bin=pl.sum_horizontal(above))


def expected_calibration_error(
    score: IntoExprColumn,
    label: IntoExprColumn,
    *,
    bins: int = 10,
    strategy: Strategy = "uniform",
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "propagate",
) -> pl.Expr:
    """
    Expected calibration error (ECE) as a scalar expression.

    ``ECE = Σ_b (n_b / n) * |fraction_positive_b - mean_score_b|`` over the bins of
    :func:`calibration` (same edges, same ``strategy``; empty bins contribute nothing): the
    mean distance of the reliability curve from the diagonal, weighted by the bins' sizes
    (Naeini, Cooper & Hauskrecht, 2015). 0 for a perfectly calibrated score. Null when no
    row counts or a score is NaN; scores outside [0, 1] raise when the query runs.

    Parameters
    ----------
    score
        The predicted probability of the positive class (name or expression).
    label
        Class column: Boolean, 0/1 integer, or any coding with `pos_label`.
    bins
        Number of bins, at least 1.
    strategy
        ``"uniform"`` (equal widths on [0, 1]) or ``"quantile"`` (equal counts).
    weight
        Optional non-negative case weights.
    pos_label
        The positive class (`score` is its probability). Default: True for Boolean
        labels, 1 for 0/1 integers. There is no `direction`: see :func:`calibration`.
    nan_policy
        NaN scores: ``"propagate"`` (default: the result is null), ``"omit"`` (skipped like
        nulls) or ``"raise"`` (an error naming the column and the count, when the query runs).

    Returns
    -------
    pl.Expr
        A Float64 scalar named ``expected_calibration_error``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {
    ...         "score": [0.1, 0.2, 0.3, 0.4, 0.65, 0.7, 0.8, 0.9, 1.0],
    ...         "label": [0, 0, 0, 0, 1, 1, 1, 1, 1],
    ...     }
    ... )
    >>> round(df.select(pr.expected_calibration_error("score", "label", bins=3)).item(), 6)
    0.138889

    That is (3 * |0 - 0.2| + 2 * |0.5 - 0.525| + 4 * |1 - 0.85|) / 9, from the bins of
    ``df.roc.calibration(bins=3)``.
    """
    _check_arguments(bins, strategy)
    probability = _checked(labels.score(score, nan_policy=nan_policy))
    r = rows(probability, label, weight=weight, pos_label=pos_label)
    columns = [r.score.alias("s"), r.positive.cast(pl.Float64).alias("y")]
    if r.weight is not None:
        columns.append(r.weight.alias("w"))
    # The checked rows are packed into a list once: inside `list.eval` every reference to
    # them reads the packed values instead of running the rows' checks again.
    packed = pl.struct(columns).sort_by(r.score).implode()
    ece = packed.list.eval(_ece_of_sorted(bins, strategy, weighted=r.weight is not None))
    return ece.list.first().alias("expected_calibration_error")


def _ece_of_sorted(bins: int, strategy: Strategy, *, weighted: bool) -> pl.Expr:
    """ECE of the rows in a list (fields s, y and w), sorted by score, as a 1-element list."""
    row = pl.element().struct
    s, y = row.field("s"), row.field("y")
    w = row.field("w") if weighted else None
    gap = (y - s if w is None else w * (y - s)).cum_sum()  # Σ w (y - s) up to each row
    total = s.len().cast(pl.Float64) if w is None else w.sum()
    if bins == 1:
        per_bin = gap.last()
    else:
        if strategy == "uniform":
            edges = pl.lit(pl.Series(_uniform_edges(bins), dtype=pl.Float64))
        else:
            edges = _expression_edges(s, w, bins)
        # Bins are runs of sorted rows: each bin's sum is a step of `gap` at the run ends.
        runs = edges.search_sorted(s, side="left").rle().struct.field("len")
        at_ends = gap.gather(runs.cum_sum() - 1)
        per_bin = pl.concat([pl.lit(0.0), at_ends]).diff().slice(1)
    defined = (total > 0) & ~is_nan(s).any()
    return pl.when(defined).then(per_bin.abs().sum() / total)


def _expression_edges(s: pl.Expr, w: pl.Expr | None, bins: int) -> pl.Expr:
    """The inner quantile edges of sorted scores `s` (weights `w` sorted alike), as numpy."""
    cumulative = None if w is None else w.cum_sum()
    total = s.len().cast(pl.Float64) if cumulative is None else cumulative.last()
    levels = pl.lit(pl.Series(_quantile_levels(bins), dtype=pl.Float64))
    virtual = (total - 1) * levels  # numpy's (n - 1) * q
    below = virtual.floor()
    last = (total - 1).clip(lower_bound=0)
    k_lo, k_hi = below.clip(0, last), (below + 1).clip(0, last)
    padded = s.append(pl.lit(None, dtype=pl.Float64))  # no rows: read null, not out of bounds
    if cumulative is None:
        a, b = padded.gather(k_lo.cast(pl.Int64)), padded.gather(k_hi.cast(pl.Int64))
    else:
        a = padded.gather(cumulative.search_sorted(k_lo, side="right"))
        b = padded.gather(cumulative.search_sorted(k_hi, side="right"))
    return _lerp(a, b, virtual - below)
