"""Calibration of probability scores: reliability curves and the expected calibration error.

:func:`calibration` is scikit-learn's ``calibration_curve`` per group: one pass tags each
row with its bin and one group-by sums the bins (a histogram, not a cumulative count). A
row's bin depends on its score alone, so tied scores always share a bin. The bins follow
scikit-learn's rules exactly:

* ``strategy="uniform"``: edges ``numpy.linspace(0, 1, bins + 1)``;
* ``strategy="quantile"``: edges ``numpy.percentile(scores, numpy.linspace(0, 1, bins + 1)
  * 100)`` (linear interpolation between order statistics, numpy's two-sided ``lerp``),
  computed per group; with weights, the same quantiles of the rows repeated by weight
  (counted in units of the smallest weight when all are whole multiples of it);
* a score ``s`` goes to bin ``1 + #{inner edges e < s}``: a score equal to an inner edge
  falls in the bin **below** it, the first bin is closed ``[e_0, e_1]`` and the others are
  ``(e_{i-1}, e_i]``; the outer edges (0 and 1, or the extreme scores) play no part;
* empty bins are left out. Scores must be probabilities in [0, 1], as scikit-learn asks.

:func:`polars_roc.exprs.expected_calibration_error` is the same binning as a scalar
expression.

Neither takes ``direction``: a probability's scale is fixed (negating it, as
``direction="lower"`` does to a score, leaves [0, 1]). For the probability of the other
class, pass that class as `pos_label`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from polars_roc._core import validate
from polars_roc._core.binning import Strategy
from polars_roc._core.binning import check_arguments as _check_arguments
from polars_roc._core.binning import checked as _checked
from polars_roc._core.binning import lerp as _lerp
from polars_roc._core.binning import quantile_levels as _quantile_levels
from polars_roc._core.binning import repeats as _repeats
from polars_roc._core.binning import uniform_edges as _uniform_edges
from polars_roc._core.checks import NanPolicy, is_nan
from polars_roc._core.columns import CALIBRATION, CALIBRATION_FIT
from polars_roc._core.compat import opaque
from polars_roc._core.counts import coded
from polars_roc._core.frames import same_kind
from polars_roc._core.groups import join_groups, per_group
from polars_roc._core.kernels import rows
from polars_roc._core.proportions import PROPORTION_METHODS, ProportionMethod, proportion_interval
from polars_roc._core.validate import By
from polars_roc.calibration import _logistic as logistic

__all__ = ["Strategy", "calibration", "calibration_fit"]


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
    ci: ProportionMethod | None = None,
    level: float = 0.95,
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
        bin's weight sum, quantile edges are those of the rows repeated by weight (in units
        of the group's smallest weight when every weight is a whole multiple of it, so
        that a constant weight changes nothing: :func:`_repeats`).
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
    ci, level
        ``"wilson"``, ``"clopper_pearson"`` or ``"agresti_coull"`` adds ``fraction_lower,
        fraction_upper``: the closed-form interval of each bin's fraction of positives
        (weights read as frequencies), at confidence `level`.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, bin, mean_score, fraction_positive, n`` (+ ``fraction_lower,
        fraction_upper`` with `ci`): `bin` numbers the bins from 1 (the
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
    if validate.ci(ci, PROPORTION_METHODS):
        validate.level(level)
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
    out = _summary(binned, names, weighted=weighted)
    if ci is None:
        return out
    n = pl.col("n").cast(pl.Float64)
    interval = proportion_interval(pl.col("fraction_positive") * n, n, ci, level)
    return out.with_columns(
        fraction_lower=interval.struct.field("lower"), fraction_upper=interval.struct.field("upper")
    )


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
        cumulative, ordered = _repeats(pl.col("_w")).cum_sum(), s
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


@same_kind
def calibration_fit(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    level: float = 0.95,
    nan_policy: NanPolicy = "propagate",
) -> pl.LazyFrame:
    """
    Logistic recalibration per group: calibration slope and intercept with Wald intervals.

    Fits ``logit P(y = 1) = a + b · logit(p)`` by Newton's method with step halving (as R's
    ``glm.fit``), all groups at once (no Python loop over groups). Two intercepts, named
    apart because papers mean either by "the calibration intercept":

    * ``intercept``: ``a`` with the slope fixed at 1, calibration in the large on the
      logit scale (0 is ideal, above 0 the scores are too low on average);
    * ``intercept_free``: the intercept of the fit beside ``slope`` (its ``a`` with ``b``
      free), the "Intercept" of rms' ``val.prob``.

    ``slope`` is ``b`` with a free intercept (1 is ideal; below 1 the scores are too
    extreme, above 1 too timid). ``citl`` is the mean outcome minus the mean probability.
    The numbers are those of statsmodels' ``GLM(y, [1, logit(p)], family=Binomial())``
    (and with ``offset=logit(p)`` for ``intercept``), weights as frequency weights.
    Probabilities of exactly 0 or 1 are clipped to ``[eps, 1 - eps]`` (eps = 2.2e-16, as
    scikit-learn's ``log_loss``); values outside [0, 1] are an error when the query runs.
    There is no `direction`: a probability's scale is fixed.

    A fit is null only where its estimate does not exist: a class is missing (see
    ``n_pos``, ``n_neg``: both fits), a probability is NaN, the classes are separated on
    the score (every positive at or above every negative, or the reverse: ``separated``
    is true and ``slope``, ``intercept_free`` are infinite), or every score of the group is
    equal (the slope is not identified).

    Parameters
    ----------
    lf
        Scored rows; `score` holds probabilities in [0, 1].
    score, label, by, weight, pos_label
        Column roles, as in :func:`calibration`.
    level
        Confidence level of the Wald intervals.
    nan_policy
        NaN scores: ``"propagate"`` (default: the group's numbers are null), ``"omit"`` or
        ``"raise"``.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, intercept, intercept_lower, intercept_upper, slope, slope_lower,
        slope_upper, intercept_free, intercept_free_lower, intercept_free_upper, citl,
        separated, n_pos, n_neg``, one row per group.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {"p": [0.1, 0.3, 0.6, 0.8, 0.2, 0.7], "y": [0, 1, 0, 1, 0, 1]}
    ... )
    >>> fit = df.roc.calibration_fit("p", "y")
    >>> fit.select(pl.col("intercept", "slope", "intercept_free", "citl").round(4))
    shape: (1, 4)
    ┌───────────┬────────┬────────────────┬──────┐
    │ intercept ┆ slope  ┆ intercept_free ┆ citl │
    │ ---       ┆ ---    ┆ ---            ┆ ---  │
    │ f64       ┆ f64    ┆ f64            ┆ f64  │
    ╞═══════════╪════════╪════════════════╪══════╡
    │ 0.28      ┆ 1.1866 ┆ 0.3256         ┆ 0.05 │
    └───────────┴────────┴────────────────┴──────┘
    """
    validate.level(level)
    names = validate.as_names(by)
    clash = sorted(set(names) & set(CALIBRATION_FIT))
    if clash:
        msg = (
            f"by column(s) {clash} would collide with output column(s) of the same name"
            f"\n\nHint: rename the group column(s) first."
        )
        raise ValueError(msg)
    schema = lf.collect_schema()
    validate.roles(schema, score=score, label=label, by=names, weight=weight, pos_label=pos_label)
    r = rows(
        pl.col(score),
        pl.col(label),
        weight=None if weight is None else pl.col(weight),
        pos_label=pos_label,
        masked=True,
        label_dtype=schema[label],
        nan_policy=nan_policy,
    )
    w = pl.lit(1.0) if r.weight is None else r.weight
    data = lf.select(
        *names,
        r.score.cast(pl.Float64).alias("_p"),
        r.positive.cast(pl.Float64).alias("_y"),
        pl.when(r.score.is_not_null()).then(w.cast(pl.Float64)).alias("_w"),
    )
    count = pl.Float64 if weight is not None else pl.Int64
    out_schema = pl.Schema(
        {
            **{n: schema[n] for n in names},
            **dict.fromkeys(CALIBRATION_FIT[:-3], pl.Float64),
            "separated": pl.Boolean,
            "n_pos": count,
            "n_neg": count,
        }
    )

    def fit(df: pl.DataFrame) -> pl.DataFrame:
        if names:
            keys = df.select(names).unique().sort(names, nulls_last=True).with_row_index("_g")
            df = df.join(keys, on=names, how="left", nulls_equal=True)
        else:
            keys = pl.DataFrame({"_g": [0]}, schema={"_g": pl.UInt32})
            df = df.with_columns(_g=pl.lit(0, dtype=pl.UInt32))
        live = df.filter(pl.col("_p").is_not_null() & pl.col("_y").is_not_null())
        columns = logistic.summary(
            live["_g"].to_numpy().astype(np.int64),
            live["_p"].to_numpy(),
            live["_y"].to_numpy(),
            live["_w"].to_numpy(),
            keys.height,
            level=level,
            name=score,
        )
        table = pl.DataFrame(columns).fill_nan(None)
        table = pl.concat([keys.drop("_g"), table], how="horizontal")
        table = table.cast({"n_pos": count, "n_neg": count, "separated": pl.Boolean})
        return table.select(out_schema.names())

    return opaque(data, fit, schema=out_schema)
