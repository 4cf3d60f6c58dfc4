"""Calibration of probability scores: reliability curves and the expected calibration error.

:func:`calibration` is scikit-learn's ``calibration_curve`` per group, read off the counts
core (one row per group and distinct score), so tied scores always share a bin. The bins
follow scikit-learn's rules exactly:

* ``strategy="uniform"``: edges ``numpy.linspace(0, 1, bins + 1)``;
* ``strategy="quantile"``: edges ``numpy.percentile(scores, numpy.linspace(0, 1, bins + 1)
  * 100)`` (linear interpolation between order statistics, numpy's two-sided ``lerp``),
  computed per group; with weights, the same quantiles of the rows repeated by weight;
* a score ``s`` goes to bin ``1 + #{inner edges e < s}``: a score equal to an inner edge
  falls in the bin **below** it, the first bin is closed ``[e_0, e_1]`` and the others are
  ``(e_{i-1}, e_i]``; the outer edges (0 and 1, or the extreme scores) play no part;
* empty bins are left out. Scores must be probabilities in [0, 1], as scikit-learn asks.

:func:`expected_calibration_error` is the same binning as a scalar expression.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import polars as pl
from polars._typing import IntoExprColumn

from polars_roc._core import labels, validate
from polars_roc._core.frames import same_kind
from polars_roc._core.groups import group_ids, per_group
from polars_roc._core.kernels import rows
from polars_roc._core.validate import By
from polars_roc.curves import counts

Strategy = Literal["uniform", "quantile"]

#: The calibration table's columns, in order, after the `by` columns.
CALIBRATION_COLUMNS = ("bin", "mean_score", "fraction_positive", "n")


def _check_arguments(bins: Any, strategy: Any) -> None:
    if not isinstance(bins, int) or isinstance(bins, bool) or bins < 1:
        msg = f"bins must be an int >= 1, got {bins!r}\n\nHint: bins=10."
        raise ValueError(msg)
    if strategy not in ("uniform", "quantile"):
        msg = (
            f"strategy must be 'uniform' or 'quantile', got {strategy!r}"
            f"\n\nHint: strategy='uniform' (equal widths) or 'quantile' (equal counts)."
        )
        raise ValueError(msg)


def uniform_edges(bins: int) -> list[float]:
    """The inner bin edges of ``strategy="uniform"``, as scikit-learn computes them."""
    return [float(e) for e in np.linspace(0.0, 1.0, bins + 1)[1:-1]]


def quantile_levels(bins: int) -> list[float]:
    """The quantile levels of the inner edges of ``strategy="quantile"``, as numpy sees them."""
    # scikit-learn passes percentiles (levels * 100) and numpy divides them by 100 again.
    levels = np.true_divide(np.linspace(0.0, 1.0, bins + 1) * 100, 100)
    return [float(q) for q in levels[1:-1]]


def _lerp(a: pl.Expr, b: pl.Expr, t: pl.Expr) -> pl.Expr:
    """Linear interpolation as numpy does it: from `a` below t = 0.5, from `b` above."""
    diff = b - a
    return pl.when(t >= 0.5).then(b - diff * (1 - t)).otherwise(a + diff * t)


def _checked(score: pl.Expr, name: str | None = None) -> pl.Expr:
    """Refuse scores outside [0, 1] when the query runs (NaN passes: its group is null)."""

    def check(values: pl.Series) -> pl.Series:
        bad = values.filter(values.is_not_nan() & ((values < 0) | (values > 1)))
        if bad.len() > 0:
            msg = (
                f"calibration needs probabilities in [0, 1]; score column "
                f"{name or values.name!r} holds {bad.unique().sort().head(5).to_list()}"
                f"\n\nHint: pass predicted probabilities (e.g. predict_proba output), not "
                f"raw scores or logits."
            )
            raise ValueError(msg)
        return values

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
        The positive class. Default: True for Boolean labels, 1 for 0/1 integers.
    bins
        Number of bins, at least 1.
    strategy
        ``"uniform"`` (equal widths on [0, 1]) or ``"quantile"`` (equal counts).

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
    clash = sorted(set(names) & set(CALIBRATION_COLUMNS))
    if clash:
        msg = (
            f"by column(s) {clash} would collide with output column(s) of the same name"
            f"\n\nHint: rename the group column(s) first."
        )
        raise ValueError(msg)
    table = counts(lf, score, label, by=names, weight=weight, pos_label=pos_label)
    tp, fp = pl.col("tp"), pl.col("fp")
    # Per distinct score: its rows and positives (the counts core is cumulative from the top).
    step_pos = tp - per_group(tp.shift(1), names).fill_null(0)
    step_all = tp + fp - per_group((tp + fp).shift(1), names).fill_null(0)
    nan = per_group(pl.col("threshold").is_nan().any(), names)
    total = per_group((tp + fp).max(), names)
    scores = (
        table.with_columns(_pos=step_pos, _n=step_all, _nan=nan, _total=total)
        .filter(pl.col("_n") > 0)  # the +inf start row holds no rows
        .with_columns(_checked(pl.col("threshold"), score))
    )
    if strategy == "uniform":
        edges = pl.lit(pl.Series(uniform_edges(bins), dtype=pl.Float64))
        binned = scores.with_columns(
            _bin=edges.search_sorted(pl.col("threshold"), side="left").cast(pl.Int64) + 1
        )
    else:
        binned = _quantile_bins(scores, names, bins)
    s, n, pos = pl.col("threshold"), pl.col("_n"), pl.col("_pos")
    binned = binned.with_columns(_bin=pl.when(~pl.col("_nan")).then(pl.col("_bin")))
    ok = pl.col("bin").is_not_null()
    summary = binned.group_by(*names, pl.col("_bin").alias("bin")).agg(
        _score_sum=(s * n).sum(), _pos=pos.sum(), n=n.sum()
    )
    total_n = pl.col("n").cast(pl.Float64)
    out = summary.with_columns(
        mean_score=pl.when(ok).then(pl.col("_score_sum") / total_n),
        fraction_positive=pl.when(ok).then(pl.col("_pos").cast(pl.Float64) / total_n),
    )
    out = out.sort([*names, "bin"], nulls_last=True, maintain_order=True)
    return out.select(*names, *CALIBRATION_COLUMNS)


def _quantile_bins(scores: pl.LazyFrame, names: list[str], bins: int) -> pl.LazyFrame:
    """
    Tag distinct scores with their quantile bin (``_bin``), edges computed per group.

    In ascending order, the rows of distinct score ``s`` occupy positions ``[start, start +
    n)`` with ``start = total - (rows at or above s)``; numpy's order statistic ``k`` is the
    score whose block holds position k. With weights, positions count weight.
    """
    levels = quantile_levels(bins)
    if not levels:  # one bin
        return scores.with_columns(_bin=pl.lit(1, dtype=pl.Int64))
    tagged, _ = group_ids(scores, names, scores)
    tagged = tagged.with_columns(
        _start=(pl.col("_total") - pl.col("tp") - pl.col("fp")).cast(pl.Float64)
    )
    blocks = tagged.select("_gid", "_start", _value="threshold").sort("_gid", "_start")
    targets = (
        tagged.group_by("_gid")
        .agg(_total=pl.col("_total").first().cast(pl.Float64))
        .join(pl.LazyFrame({"_level": levels}, schema={"_level": pl.Float64}), how="cross")
    )
    last = (pl.col("_total") - 1).clip(lower_bound=0)
    virtual = (pl.col("_total") - 1) * pl.col("_level")  # numpy's (n - 1) * q
    below = virtual.floor()
    targets = targets.with_columns(
        _gamma=(virtual - below),
        _k_lo=below.clip(0, last),
        _k_hi=(below + 1).clip(0, last),
    )

    def value_at(frame: pl.LazyFrame, position: str, alias: str) -> pl.LazyFrame:
        """The score whose block holds ascending position `position`: the last start <= it."""
        return frame.sort("_gid", position).join_asof(
            blocks.rename({"_value": alias, "_start": position}),
            on=position,
            by="_gid",
            strategy="backward",
            check_sortedness=False,
        )

    both = value_at(value_at(targets, "_k_lo", "_a"), "_k_hi", "_b")
    edges = both.select("_gid", _edge=_lerp(pl.col("_a"), pl.col("_b"), pl.col("_gamma")))
    # For each distinct edge value, how many edges lie at or below it.
    ranked = (
        edges.group_by("_gid", "_edge")
        .agg(_count=pl.len())
        .sort("_gid", "_edge")
        .with_columns(_at_or_below=pl.col("_count").cum_sum().over("_gid", order_by="_edge"))
        .select("_gid", "_edge", "_at_or_below")
    )
    binned = tagged.sort("_gid", "threshold").join_asof(
        ranked,
        left_on="threshold",
        right_on="_edge",
        by="_gid",
        strategy="backward",
        allow_exact_matches=False,  # a score equal to an edge belongs to the bin below
        check_sortedness=False,
    )
    return binned.with_columns(_bin=pl.col("_at_or_below").fill_null(0).cast(pl.Int64) + 1)


def expected_calibration_error(
    score: IntoExprColumn,
    label: IntoExprColumn,
    *,
    bins: int = 10,
    strategy: Strategy = "uniform",
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
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
        The positive class. Default: True for Boolean labels, 1 for 0/1 integers.

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
    r = rows(_checked(labels.score(score)), label, weight=weight, pos_label=pos_label)
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
            edges = pl.lit(pl.Series(uniform_edges(bins), dtype=pl.Float64))
        else:
            edges = _expression_edges(s, w, bins)
        # Bins are runs of sorted rows: each bin's sum is a step of `gap` at the run ends.
        runs = edges.search_sorted(s, side="left").rle().struct.field("len")
        at_ends = gap.gather(runs.cum_sum() - 1)
        per_bin = pl.concat([pl.lit(0.0), at_ends]).diff().slice(1)
    defined = (total > 0) & ~s.is_nan().any()
    return pl.when(defined).then(per_bin.abs().sum() / total)


def _expression_edges(s: pl.Expr, w: pl.Expr | None, bins: int) -> pl.Expr:
    """The inner quantile edges of sorted scores `s` (weights `w` sorted alike), as numpy."""
    cumulative = None if w is None else w.cum_sum()
    total = s.len().cast(pl.Float64) if cumulative is None else cumulative.last()
    levels = pl.lit(pl.Series(quantile_levels(bins), dtype=pl.Float64))
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
