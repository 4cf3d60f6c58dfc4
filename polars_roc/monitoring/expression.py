"""Monitoring expressions: score stability against reference rows, and the label-free AUC.

Both are scalar expressions, valid in ``select``, ``group_by().agg()``, ``over()`` and the
streaming engine, and metrics for :func:`polars_roc.bootstrap`.

Examples
--------
>>> import polars as pl
>>> import polars_roc as pr
>>> df = pl.DataFrame({"p": [0.1, 0.3, 0.2, 0.4, 0.3, 0.5, 0.4, 0.6], "g": ["a", "b"] * 4})
>>> df = df.with_columns(late=pl.int_range(pl.len()) >= 4)
>>> df.group_by("g", maintain_order=True).agg(
...     pr.psi("p", reference=~pl.col("late"), bins=2), pr.estimated_auc("p")
... )
shape: (2, 3)
┌─────┬──────────┬───────────────┐
│ g   ┆ psi      ┆ estimated_auc │
│ --- ┆ ---      ┆ ---           │
│ str ┆ f64      ┆ f64           │
╞═════╪══════════╪═══════════════╡
│ a   ┆ 4.604318 ┆ 0.666667      │
│ b   ┆ 4.604318 ┆ 0.626263      │
└─────┴──────────┴───────────────┘
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import polars as pl
from polars._typing import IntoExprColumn

from polars_roc._core import labels
from polars_roc._core.checks import NanPolicy, apply_nan_policy, is_nan, name_of
from polars_roc._core.direction import Direction, expression
from polars_roc._core.kernels import Rows, auc_of
from polars_roc.monitoring._drift import cut_points, psi_of_cdfs, weighted_quantile

__all__ = ["estimated_auc", "psi"]


def psi(
    score: IntoExprColumn,
    *,
    reference: IntoExprColumn,
    bins: int = 10,
    weight: IntoExprColumn | None = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.Expr:
    """
    Population stability index of the scores against the reference rows.

    The rows where `reference` is true are the expected distribution, the others the
    actual one. The bins are cut at the reference's ``1/bins, ..., (bins-1)/bins``
    quantiles (linear interpolation, numpy's default) and closed on the right:
    ``(-inf, q1], (q1, q2], ..., (q_last, inf)``. With ``e`` and ``a`` the shares of the
    reference and of the other rows in a bin, ``PSI = Σ (a - e) · ln(a / e)``. A share of
    0 counts as 0.0001, as Evidently does: a bin empty on both sides (tied quantiles) adds
    nothing, one empty on one side adds a large, finite term. Customary reading: below 0.1
    stable, 0.1–0.25 some shift, above 0.25 a large shift.

    Null when either side has no rows or a score is NaN. Rows with a null score are
    skipped; a null `reference` counts as false.

    Parameters
    ----------
    score
        Numeric score column (name or expression).
    reference
        Boolean expression marking the reference rows, e.g. ``pl.col("month") <= 3``.
    bins
        Number of bins (at least 2).
    weight
        Optional non-negative row weights (name or expression): the quantiles are those of
        the reference rows repeated by weight (numpy's linear rule on the cumulative
        weights) and each share a weight share, so an integer weight is a repeated row and
        a weight of 0 (or null) a dropped one.
    direction
        ``"higher"`` or ``"lower"`` (the same as negating the score: the bins are then
        closed on the left in score units); never guessed from the data.
    nan_policy
        NaN scores: ``"propagate"`` (default: the result is null), ``"omit"`` (skipped like
        nulls) or ``"raise"`` (an error naming the column and the count, when the query runs).

    Returns
    -------
    pl.Expr
        A Float64 scalar named ``psi``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {"p": [0.1, 0.2, 0.3, 0.4, 0.15, 0.25, 0.35, 0.9], "new": [0, 0, 0, 0, 1, 1, 1, 1]}
    ... )
    >>> old = pl.col("new") == 0
    >>> df.select(pr.psi("p", reference=old, bins=2)).item()  # shares 1/2, 1/2 both sides
    0.0
    >>> round(df.select(pr.psi("p", reference=old, bins=4)).item(), 6)  # a bin empty: 0.0001
    2.128516
    """
    qs = cut_points(bins)
    s = labels.score(expression(score, direction), nan_policy=nan_policy).cast(pl.Float64)
    ref = labels.into_expr(reference).fill_null(False)
    if weight is None:
        expected, actual = s.filter(ref), s.filter(~ref)
        edges = [expected.quantile(q, "linear") for q in qs]
        e_cdf = [(expected <= edge).mean() for edge in edges]
        a_cdf = [(actual <= edge).mean() for edge in edges]
        defined = (expected.count() > 0) & (actual.count() > 0) & ~is_nan(s).any()
        return pl.when(defined).then(psi_of_cdfs(e_cdf, a_cdf)).alias("psi")
    # One node per group: the same kernels on the group's rows, not a tree of copies
    # (Polars evaluates each bin's share several times; a weighted quantile in each copy
    # took seconds on 80 rows).
    parts = pl.struct(s.alias("s"), ref.alias("r"), labels.weight(weight).alias("w"))
    return parts.map_batches(_weighted_psi(qs), return_dtype=pl.Float64, returns_scalar=True).alias(
        "psi"
    )


def _weighted_psi(qs: list[float]) -> Callable[[pl.Series], pl.Series]:
    """The weighted PSI of one group's ``{s, r, w}`` rows, with :func:`psi`'s kernels."""
    s, w = pl.col("s"), pl.col("w")

    def run(rows: pl.Series) -> pl.Series:
        kept = rows.struct.unnest().filter(s.is_not_null() & w.is_not_null() & (w > 0))
        expected, actual = kept.filter(pl.col("r")), kept.filter(~pl.col("r"))
        if not (expected.height and actual.height) or kept["s"].is_nan().any():
            return pl.Series("psi", [None], dtype=pl.Float64)
        edges = expected.select(weighted_quantile(s, w, q).alias(f"{q}") for q in qs).row(0)

        def cdf(side: pl.DataFrame) -> list[pl.Expr]:
            shares = side.select(
                (((s <= e) * w).sum() / w.sum()).alias(f"{i}") for i, e in enumerate(edges)
            ).row(0)
            return [pl.lit(v, dtype=pl.Float64) for v in shares]

        value = pl.select(psi_of_cdfs(cdf(expected), cdf(actual))).item()
        return pl.Series("psi", [value], dtype=pl.Float64)

    return run


def _probabilities(name: str) -> Any:
    def check(values: pl.Series) -> pl.Series:
        if not values.dtype.is_numeric() or values.dtype == pl.Boolean:
            msg = f"score column {name!r} has dtype {values.dtype}, expected probabilities"
            raise pl.exceptions.SchemaError(msg + "\n\nHint: pass score=<probability column>.")
        p = values.cast(pl.Float64)
        bad = p.filter(p.is_not_null() & ~p.is_nan() & ((p < 0) | (p > 1)))
        if bad.len():
            msg = (
                f"score column {name!r} holds {bad.unique().sort().head(5).to_list()} outside "
                f"[0, 1]; the estimated AUC needs calibrated probabilities\n\nHint: map the "
                f"score to a probability first (e.g. a calibrated model's predict_proba)."
            )
            raise ValueError(msg)
        return p

    return check


def estimated_auc(
    score: IntoExprColumn,
    *,
    weight: IntoExprColumn | None = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "propagate",
) -> pl.Expr:
    """
    The AUC expected when each label is drawn from its calibrated probability: no labels.

    Every row counts as a positive with weight ``p`` and as a negative with weight
    ``1 - p`` on the weighted AUC kernel (the one :func:`polars_roc.auc` uses with a
    `weight`): ``Σ_i Σ_j p_i (1 - p_j) K(s_i, s_j) / (Σ p · Σ (1 - p))`` with ``K`` 1 for a
    higher, ½ for a tied score. It is the AUC a window will show once its labels arrive *if
    the scores are calibrated*; for a model whose calibration has drifted it is no estimate
    at all, so show it beside the realised AUC where labels exist. The pairs of a row with
    itself count too (½ each), so it sits about ``1/n`` from the mean over label draws.

    Null when the weights leave a class empty (every ``p`` 0 or every ``p`` 1) or a score
    is NaN; rows with a null score are skipped. A score outside [0, 1] is an error when the
    query runs.

    Parameters
    ----------
    score
        Probability of the positive class (name or expression), in [0, 1].
    weight
        Optional non-negative row weights (name or expression): a row counts as a positive
        with weight ``w p`` and a negative with weight ``w (1 - p)`` (CBPE with case
        weights), so an integer weight is a repeated row and a weight of 0 (or null) a
        dropped one.
    pos_label
        Accepted for the signature shared with :func:`polars_roc.monitoring.estimated_auc`,
        where it codes the `label` column of the realised AUC. The score is the probability
        of the positive class whatever it is called, so here it changes nothing.
    nan_policy
        NaN scores: ``"propagate"`` (default: the result is null), ``"omit"`` (skipped like
        nulls) or ``"raise"`` (an error naming the column and the count, when the query runs).
        There is no `direction`: a probability negated is no probability.

    Returns
    -------
    pl.Expr
        A Float64 scalar named ``estimated_auc``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"p": [0.0, 1.0]})
    >>> df.select(pr.estimated_auc("p")).item()
    1.0
    >>> pl.DataFrame({"p": [0.2, 0.8]}).select(pr.estimated_auc("p")).item()
    0.8
    """
    del pos_label  # the score is the positive class's probability
    expr = labels.into_expr(score)
    name = name_of(expr, "score")
    p = expr.map_batches(_probabilities(name), return_dtype=pl.Float64, is_elementwise=True)
    p = apply_nan_policy(p, nan_policy, name, per_row=True)
    both = p.append(p)
    shares = p.append(1.0 - p)
    if weight is not None:
        w = labels.weight(weight)
        shares = shares * w.append(w)
    rows = Rows(both, (p.is_null() | True).append(p.is_null() & False), shares)
    return auc_of(rows).alias("estimated_auc")
