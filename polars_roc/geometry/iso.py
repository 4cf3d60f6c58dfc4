"""Iso-performance on the ROC convex hull: the optimal classifier, operating ranges, hybrids.

For a positive prevalence ``π`` (N/P = (1 - π) / π) and the costs of a false positive and a
false negative, every line of slope ``m = (cost_fp · N) / (cost_fn · P)`` in ROC space joins
classifiers of equal expected cost; iso-accuracy lines are the equal-cost case, of slope N/P.
The hull vertex that such a line touches first, moving in from the top left, is optimal.
Vertex ``v_i`` (FPR ascending) is optimal for exactly the slopes between those of its two
hull edges, ``s_i <= m <= s_{i-1}``; "always negative" (0, 0) for ``m >= s_0`` and "always
positive" (1, 1) for ``m <= s_last``. At equal costs ``m = (1 - π) / π``, so a slope interval
is a prevalence interval ``[1 / (1 + s_{i-1}), 1 / (1 + s_i)]``; at a fixed prevalence it is
an interval of the cost ratio ``cost_fp / cost_fn = m · π / (1 - π)``.

As in :mod:`polars_roc.geometry.hull`, each analysis comes on scored rows (``optimal``,
``operating_ranges``, ``hybrid``) and on a frame of ROC points (``*_of_points``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from polars_roc._core import validate
from polars_roc._core.aliases import renamed
from polars_roc._core.checks import NanPolicy
from polars_roc._core.convex import Frame, has_threshold, points_vertices
from polars_roc._core.counts import INF
from polars_roc._core.direction import Direction, directed
from polars_roc._core.frames import same_kind
from polars_roc._core.groups import join_groups, per_group
from polars_roc._core.validate import By
from polars_roc.geometry._vertices import scored_vertices

__all__ = [
    "hybrid",
    "hybrid_of_points",
    "operating_ranges",
    "operating_ranges_of_points",
    "optimal",
    "optimal_of_points",
]

_TIE = 1e-12  # expected costs this close (relative to the cost scale) are tied


# --- argument checks -------------------------------------------------------------------------


# --- reading the hull ------------------------------------------------------------------------


def _with_prevalence(
    vertices: pl.LazyFrame, by: list[str], prevalence: float | None, balance: pl.LazyFrame | None
) -> pl.LazyFrame:
    """Add ``_prevalence``: the given one, else the group's own (null where undefined)."""
    if prevalence is not None or balance is None:
        return vertices.with_columns(_prevalence=pl.lit(prevalence, dtype=pl.Float64))
    n_pos, n_neg = pl.col("_n_pos").cast(pl.Float64), pl.col("_n_neg").cast(pl.Float64)
    own = balance.select(
        *by, _prevalence=pl.when((n_pos > 0) & (n_neg > 0)).then(n_pos / (n_pos + n_neg))
    )
    return join_groups(vertices, own, by)


def _with_ranges(vertices: pl.LazyFrame, by: list[str]) -> pl.LazyFrame:
    """Add ``slope_lo, slope_hi``: the slopes of each vertex's outgoing and incoming edges."""
    fpr, tpr = pl.col("fpr"), pl.col("tpr")
    incoming = (tpr - tpr.shift(1)) / (fpr - fpr.shift(1))  # +inf for a vertical edge
    slope_hi = pl.when(fpr.is_not_null()).then(per_group(incoming, by).fill_null(INF))
    slope_lo = pl.when(fpr.is_not_null()).then(per_group(pl.col("slope_hi").shift(-1), by))
    return (
        vertices.sort([*by, "fpr", "tpr"], nulls_last=True)
        .with_columns(slope_hi=slope_hi)
        .with_columns(slope_lo=slope_lo.fill_null(pl.when(fpr.is_not_null()).then(0.0)))
    )


def _visible(by: list[str], model: str | None, *, threshold: bool) -> list[pl.Expr | str]:
    shown: list[pl.Expr | str] = [*by]
    if model is not None:
        shown.append(pl.col("_name").alias(model))
    return [*shown, "fpr", "tpr", *(["threshold"] if threshold else [])]


def _ranges_table(
    vertices: pl.LazyFrame,
    by: list[str],
    model: str | None,
    *,
    threshold: bool,
    prevalence: float | None,
    balance: pl.LazyFrame | None,
) -> pl.LazyFrame:
    table = _with_ranges(_with_prevalence(vertices, by, prevalence, balance), by)
    odds = pl.col("_prevalence") / (1 - pl.col("_prevalence"))
    return table.select(
        *_visible(by, model, threshold=threshold),
        "slope_lo",
        "slope_hi",
        prevalence_lo=1 / (1 + pl.col("slope_hi")),
        prevalence_hi=1 / (1 + pl.col("slope_lo")),
        cost_ratio_lo=pl.col("slope_lo") * odds,
        cost_ratio_hi=pl.col("slope_hi") * odds,
    )


def _optimal_table(
    vertices: pl.LazyFrame,
    by: list[str],
    model: str | None,
    *,
    threshold: bool,
    prevalence: float | None,
    balance: pl.LazyFrame | None,
    cost_fp: float,
    cost_fn: float,
) -> pl.LazyFrame:
    table = _with_prevalence(vertices, by, prevalence, balance).sort(
        [*by, "fpr", "tpr"], nulls_last=True
    )
    p, fpr, tpr = pl.col("_prevalence"), pl.col("fpr"), pl.col("tpr")
    cost = p * cost_fn * (1 - tpr) + (1 - p) * cost_fp * fpr
    # Least expected cost; vertices within rounding of it are tied (the iso line lies along
    # a hull edge) and the first, of smallest FPR, is chosen: the edge's left end.
    tolerance = _TIE * (p * cost_fn + (1 - p) * cost_fp)
    tied = pl.col("expected_cost") <= per_group(pl.col("expected_cost").min(), by) + tolerance
    scored = table.with_columns(expected_cost=cost, accuracy=p * tpr + (1 - p) * (1 - fpr))
    # Two steps: Polars 1.x refuses a window inside a window.
    scored = scored.with_columns(_tied=tied)
    first = pl.col("_tied") & (per_group(pl.col("_tied").cast(pl.UInt32).cum_sum(), by) == 1)
    chosen = scored.filter(first | fpr.is_null() | p.is_null())
    chosen = chosen.unique(subset=by, keep="first", maintain_order=True) if by else chosen.head(1)
    return chosen.select(*_visible(by, model, threshold=threshold), "expected_cost", "accuracy")


def _hybrid_table(
    vertices: pl.LazyFrame,
    by: list[str],
    model: str | None,
    *,
    threshold: bool,
    targets: list[float],
) -> pl.LazyFrame:
    ordered = vertices.sort([*by, "fpr", "tpr"], nulls_last=True)
    goals = pl.LazyFrame({"_target": targets}, schema={"_target": pl.Float64})
    groups = ordered.select(by).unique(maintain_order=True) if by else None
    frame = goals if groups is None else groups.join(goals, how="cross")
    pairs = ordered.join(goals, how="cross")
    target = pl.col("_target")
    keys = [*by, "_target"]
    carried = ["_name", "fpr", "tpr", "threshold"]
    # a: the highest vertex at or left of the target; b: the first vertex right of it.
    # The order is explicit: a cross join under an inequality filter need not keep row order.
    along = pl.col(carried).sort_by("fpr", "tpr")
    left = pairs.filter(pl.col("fpr") <= target).group_by(keys).agg(along.last())
    right = pairs.filter(pl.col("fpr") > target).group_by(keys).agg(along.first())
    left = left.rename({c: f"{c}_a" for c in carried})
    right = right.rename({c: f"{c}_b" for c in carried})
    joined = frame.join(left, on=keys, how="left", nulls_equal=True).join(
        right, on=keys, how="left", nulls_equal=True
    )
    at_vertex = pl.col("fpr_a") == target
    joined = joined.with_columns(
        pl.when(at_vertex).then(pl.col(f"{c}_a")).otherwise(pl.col(f"{c}_b")).alias(f"{c}_b")
        for c in carried
    )
    p = (
        pl.when(at_vertex)
        .then(0.0)
        .otherwise((target - pl.col("fpr_a")) / (pl.col("fpr_b") - pl.col("fpr_a")))
    )
    joined = joined.with_columns(p_b=pl.when(pl.col("fpr_a").is_not_null()).then(p))
    tpr = pl.col("tpr_a") + pl.col("p_b") * (pl.col("tpr_b") - pl.col("tpr_a"))
    shown: list[pl.Expr | str] = [*by, pl.col("_target").alias("fpr"), tpr.alias("tpr")]
    for end in ("a", "b"):
        if model is not None:
            shown.append(pl.col(f"_name_{end}").alias(f"{model}_{end}"))
        shown += [f"fpr_{end}", f"tpr_{end}"]
        if threshold:
            shown.append(f"threshold_{end}")
    return joined.select(*shown, "p_b").sort([*by, "fpr"], nulls_last=True)


# --- on scored rows --------------------------------------------------------------------------


@renamed(across="model")
@same_kind
@directed
def optimal(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    model: str | None = None,
    points: Frame | None = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    prevalence: float | None = None,
    cost_fp: float = 1.0,
    cost_fn: float = 1.0,
) -> pl.LazyFrame:
    """
    The optimal operating point per group: the hull vertex of least expected cost.

    For the iso-performance slope ``m = cost_fp · (1 - π) / (cost_fn · π)`` the optimal
    classifier is the hull vertex first touched by a line of slope `m` moving in from the top
    left; the trivial classifiers (0, 0) and (1, 1) are candidates. When the line lies along
    a hull edge, both ends (and every mixture of them) are optimal: the end with the smaller
    FPR is reported (expected costs within ``1e-12`` of the cost scale count as tied). With
    equal costs this maximizes accuracy.

    Parameters
    ----------
    lf, score, label, by, model, points, weight, pos_label
        As in :func:`polars_roc.geometry.hull.hull`.
    prevalence
        Share of positives ``π`` in (0, 1) where the classifier will be used; default the
        group's own share of positives (weighted when `weight` is given).
    cost_fp, cost_fn
        Cost of a false positive and of a false negative, positive; only their ratio counts.
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"`` (the same as negating
        the score, with thresholds kept in score units); never guessed from the data.
    nan_policy
        NaN scores: ``"propagate"`` (default: the group's results are null), ``"omit"``
        (skipped like nulls) or ``"raise"`` (an error naming the column and the count).

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, [model], fpr, tpr, threshold, expected_cost, accuracy``, one row per group:
        the expected cost per case ``π · cost_fn · (1 - tpr) + (1 - π) · cost_fp · fpr`` and
        the accuracy ``π · tpr + (1 - π) · (1 - fpr)`` at that prevalence.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {"score": [0.9, 0.8, 0.7, 0.6, 0.5, 0.4], "label": [1, 0, 1, 1, 0, 0]}
    ... )
    >>> df.roc.optimal(prevalence=0.5)
    shape: (1, 5)
    ┌──────────┬─────┬───────────┬───────────────┬──────────┐
    │ fpr      ┆ tpr ┆ threshold ┆ expected_cost ┆ accuracy │
    │ ---      ┆ --- ┆ ---       ┆ ---           ┆ ---      │
    │ f64      ┆ f64 ┆ f64       ┆ f64           ┆ f64      │
    ╞══════════╪═════╪═══════════╪═══════════════╪══════════╡
    │ 0.333333 ┆ 1.0 ┆ 0.6       ┆ 0.166667      ┆ 0.833333 │
    └──────────┴─────┴───────────┴───────────────┴──────────┘
    >>> df.roc.optimal(prevalence=0.5, cost_fp=10.0)["threshold"].item()
    0.9
    """
    validate.prevalence(prevalence)
    validate.cost(cost_fp, "cost_fp")
    validate.cost(cost_fn, "cost_fn")
    names = validate.as_names(by)
    vertices, balance = scored_vertices(
        lf,
        score,
        label,
        by=names,
        model=model,
        points=points,
        weight=weight,
        pos_label=pos_label,
    )
    return _optimal_table(
        vertices,
        names,
        model,
        threshold=True,
        prevalence=prevalence,
        balance=balance,
        cost_fp=cost_fp,
        cost_fn=cost_fn,
    )


@renamed(across="model")
@same_kind
@directed
def operating_ranges(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    model: str | None = None,
    points: Frame | None = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    prevalence: float | None = None,
) -> pl.LazyFrame:
    """
    For each hull vertex, the slopes, prevalences and cost ratios for which it is optimal.

    Vertex ``v_i`` (FPR ascending) is optimal for iso-performance slopes ``m`` in
    ``[slope_lo, slope_hi]``: the slopes of its outgoing and incoming hull edges (``+inf``
    into the first vertex, 0 out of the last). At equal costs that is the positive
    prevalence interval ``[prevalence_lo, prevalence_hi] = [1 / (1 + slope_hi),
    1 / (1 + slope_lo)]``, and at the prevalence `prevalence` the interval of the cost ratio
    ``cost_fp / cost_fn`` in ``[cost_ratio_lo, cost_ratio_hi]`` (``m · π / (1 - π)``). The
    rows tile the slopes: each boundary is shared with the neighbouring vertex, where both
    are optimal. E.g. if the first row's ``prevalence_hi`` is 0.09, "always negative" is
    optimal (at equal costs) whenever fewer than 9% of cases are positive.

    Parameters
    ----------
    lf, score, label, by, model, points, weight, pos_label
        As in :func:`polars_roc.geometry.hull.hull`.
    prevalence
        Share of positives for the cost-ratio columns; default the group's own.
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"`` (the same as negating
        the score, with thresholds kept in score units); never guessed from the data.
    nan_policy
        NaN scores: ``"propagate"`` (default: the group's results are null), ``"omit"``
        (skipped like nulls) or ``"raise"`` (an error naming the column and the count).

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, [model], fpr, tpr, threshold, slope_lo, slope_hi, prevalence_lo,
        prevalence_hi, cost_ratio_lo, cost_ratio_hi``, per group by FPR ascending.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {"score": [0.9, 0.8, 0.7, 0.6, 0.5, 0.4], "label": [1, 0, 1, 1, 0, 0]}
    ... )
    >>> df.roc.operating_ranges().select("fpr", "tpr", "prevalence_lo", "prevalence_hi")
    shape: (4, 4)
    ┌──────────┬──────────┬───────────────┬───────────────┐
    │ fpr      ┆ tpr      ┆ prevalence_lo ┆ prevalence_hi │
    │ ---      ┆ ---      ┆ ---           ┆ ---           │
    │ f64      ┆ f64      ┆ f64           ┆ f64           │
    ╞══════════╪══════════╪═══════════════╪═══════════════╡
    │ 0.0      ┆ 0.0      ┆ 0.0           ┆ 0.0           │
    │ 0.0      ┆ 0.333333 ┆ 0.0           ┆ 0.333333      │
    │ 0.333333 ┆ 1.0      ┆ 0.333333      ┆ 1.0           │
    │ 1.0      ┆ 1.0      ┆ 1.0           ┆ 1.0           │
    └──────────┴──────────┴───────────────┴───────────────┘
    """
    validate.prevalence(prevalence)
    names = validate.as_names(by)
    vertices, balance = scored_vertices(
        lf,
        score,
        label,
        by=names,
        model=model,
        points=points,
        weight=weight,
        pos_label=pos_label,
    )
    return _ranges_table(
        vertices, names, model, threshold=True, prevalence=prevalence, balance=balance
    )


@renamed(across="model")
@same_kind
@directed
def hybrid(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    fpr: float | Sequence[float],
    by: By = None,
    model: str | None = None,
    points: Frame | None = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.LazyFrame:
    """
    The randomized classifier on the hull at a target FPR: two vertices and a mixing chance.

    Any point on a hull edge is attained by predicting with vertex b with probability `p_b`
    and with vertex a otherwise: its FPR is ``(1 - p_b) · fpr_a + p_b · fpr_b`` (the target)
    and its TPR the hull's there. Where the target is a vertex's FPR, a = b is that vertex
    (the highest one, where the hull rises vertically) and ``p_b = 0``.

    Parameters
    ----------
    lf, score, label, by, model, points, weight, pos_label
        As in :func:`polars_roc.geometry.hull.hull`.
    fpr
        Target false positive rate(s) in [0, 1].
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"`` (the same as negating
        the score, with thresholds kept in score units); never guessed from the data.
    nan_policy
        NaN scores: ``"propagate"`` (default: the group's results are null), ``"omit"``
        (skipped like nulls) or ``"raise"`` (an error naming the column and the count).

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, fpr, tpr, [model_a], fpr_a, tpr_a, threshold_a, [model_b], fpr_b, tpr_b,
        threshold_b, p_b``: one row per group and target.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {"score": [0.9, 0.8, 0.7, 0.6, 0.5, 0.4], "label": [1, 0, 1, 1, 0, 0]}
    ... )
    >>> df.roc.hybrid(fpr=0.1).select("fpr", "tpr", "threshold_a", "threshold_b", "p_b")
    shape: (1, 5)
    ┌─────┬──────────┬─────────────┬─────────────┬─────┐
    │ fpr ┆ tpr      ┆ threshold_a ┆ threshold_b ┆ p_b │
    │ --- ┆ ---      ┆ ---         ┆ ---         ┆ --- │
    │ f64 ┆ f64      ┆ f64         ┆ f64         ┆ f64 │
    ╞═════╪══════════╪═════════════╪═════════════╪═════╡
    │ 0.1 ┆ 0.533333 ┆ 0.9         ┆ 0.6         ┆ 0.3 │
    └─────┴──────────┴─────────────┴─────────────┴─────┘
    """
    targets = validate.rates(fpr, "fpr")
    names = validate.as_names(by)
    vertices, _ = scored_vertices(
        lf,
        score,
        label,
        by=names,
        model=model,
        points=points,
        weight=weight,
        pos_label=pos_label,
    )
    return _hybrid_table(vertices, names, model, threshold=True, targets=targets)


# --- on ROC points ---------------------------------------------------------------------------


def _point_vertices(
    points: Frame, fpr: str, tpr: str, model: str | None, by: list[str]
) -> tuple[pl.LazyFrame, bool]:
    vertices = points_vertices(points, fpr, tpr, model, by)
    return vertices, has_threshold(points, fpr, tpr, model, by)


@renamed(name="model")
@same_kind
def optimal_of_points(
    points: Frame,
    fpr: str = "fpr",
    tpr: str = "tpr",
    model: str | None = "model",
    *,
    by: By = None,
    prevalence: float,
    cost_fp: float = 1.0,
    cost_fn: float = 1.0,
) -> pl.LazyFrame:
    """
    The optimal classifier among ROC points (and the trivial ones) per group.

    As :func:`polars_roc.geometry.iso.optimal`, over the hull of the points
    (:func:`polars_roc.geometry.hull.hull_of_points`); the prevalence must be given.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, [model], fpr, tpr, [threshold], expected_cost, accuracy``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> points = pl.DataFrame(
    ...     {"model": ["c1", "c2", "c3"], "fpr": [0.3, 0.5, 0.2], "tpr": [0.4, 0.8, 0.6]}
    ... )
    >>> pr.optimal_of_points(points, prevalence=0.5)
    shape: (1, 5)
    ┌───────┬─────┬─────┬───────────────┬──────────┐
    │ model ┆ fpr ┆ tpr ┆ expected_cost ┆ accuracy │
    │ ---   ┆ --- ┆ --- ┆ ---           ┆ ---      │
    │ str   ┆ f64 ┆ f64 ┆ f64           ┆ f64      │
    ╞═══════╪═════╪═════╪═══════════════╪══════════╡
    │ c3    ┆ 0.2 ┆ 0.6 ┆ 0.3           ┆ 0.7      │
    └───────┴─────┴─────┴───────────────┴──────────┘
    """
    if prevalence is None:
        msg = "optimal_of_points needs the prevalence\n\nHint: prevalence=0.1 (10% positives)."
        raise ValueError(msg)
    validate.prevalence(prevalence)
    validate.cost(cost_fp, "cost_fp")
    validate.cost(cost_fn, "cost_fn")
    names = validate.as_names(by)
    vertices, threshold = _point_vertices(points, fpr, tpr, model, names)
    return _optimal_table(
        vertices,
        names,
        model,
        threshold=threshold,
        prevalence=prevalence,
        balance=None,
        cost_fp=cost_fp,
        cost_fn=cost_fn,
    )


@renamed(name="model")
@same_kind
def operating_ranges_of_points(
    points: Frame,
    fpr: str = "fpr",
    tpr: str = "tpr",
    model: str | None = "model",
    *,
    by: By = None,
    prevalence: float | None = None,
) -> pl.LazyFrame:
    """
    Operating ranges of the hull vertices of a set of ROC points, per group.

    As :func:`polars_roc.geometry.iso.operating_ranges`; the cost-ratio columns are null unless
    `prevalence` is given.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, [model], fpr, tpr, [threshold], slope_lo, slope_hi, prevalence_lo,
        prevalence_hi, cost_ratio_lo, cost_ratio_hi``.

    Examples
    --------
    The worked example: at equal costs "always negative" is optimal below 25% positives,
    "always positive" above 5/7 ≈ 71%.

    >>> import polars as pl
    >>> import polars_roc as pr
    >>> points = pl.DataFrame(
    ...     {"model": ["c1", "c2", "c3"], "fpr": [0.3, 0.5, 0.2], "tpr": [0.4, 0.8, 0.6]}
    ... )
    >>> pr.operating_ranges_of_points(points).select(
    ...     "model", "fpr", "tpr", "slope_lo", "slope_hi", "prevalence_lo", "prevalence_hi"
    ... )
    shape: (4, 7)
    ┌───────┬─────┬─────┬──────────┬──────────┬───────────────┬───────────────┐
    │ model ┆ fpr ┆ tpr ┆ slope_lo ┆ slope_hi ┆ prevalence_lo ┆ prevalence_hi │
    │ ---   ┆ --- ┆ --- ┆ ---      ┆ ---      ┆ ---           ┆ ---           │
    │ str   ┆ f64 ┆ f64 ┆ f64      ┆ f64      ┆ f64           ┆ f64           │
    ╞═══════╪═════╪═════╪══════════╪══════════╪═══════════════╪═══════════════╡
    │ null  ┆ 0.0 ┆ 0.0 ┆ 3.0      ┆ inf      ┆ 0.0           ┆ 0.25          │
    │ c3    ┆ 0.2 ┆ 0.6 ┆ 0.666667 ┆ 3.0      ┆ 0.25          ┆ 0.6           │
    │ c2    ┆ 0.5 ┆ 0.8 ┆ 0.4      ┆ 0.666667 ┆ 0.6           ┆ 0.714286      │
    │ null  ┆ 1.0 ┆ 1.0 ┆ 0.0      ┆ 0.4      ┆ 0.714286      ┆ 1.0           │
    └───────┴─────┴─────┴──────────┴──────────┴───────────────┴───────────────┘
    """
    validate.prevalence(prevalence)
    names = validate.as_names(by)
    vertices, threshold = _point_vertices(points, fpr, tpr, model, names)
    return _ranges_table(
        vertices, names, model, threshold=threshold, prevalence=prevalence, balance=None
    )


@renamed(name="model")
@same_kind
def hybrid_of_points(
    points: Frame,
    fpr: str = "fpr",
    tpr: str = "tpr",
    model: str | None = "model",
    *,
    by: By = None,
    target: float | Sequence[float],
) -> pl.LazyFrame:
    """
    Hybrid classifiers on the hull of a set of ROC points at target FPR(s), per group.

    As :func:`polars_roc.geometry.iso.hybrid`; the target FPR is `target` here because `fpr`
    names the rate column.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, fpr, tpr, [name_a], fpr_a, tpr_a, [threshold_a], [name_b], fpr_b, tpr_b,
        [threshold_b], p_b``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> points = pl.DataFrame(
    ...     {"model": ["c1", "c2", "c3"], "fpr": [0.3, 0.5, 0.2], "tpr": [0.4, 0.8, 0.6]}
    ... )
    >>> pr.hybrid_of_points(points, target=0.3).select(
    ...     "fpr", "tpr", "model_a", "model_b", "p_b"
    ... )
    shape: (1, 5)
    ┌─────┬──────────┬─────────┬─────────┬──────────┐
    │ fpr ┆ tpr      ┆ model_a ┆ model_b ┆ p_b      │
    │ --- ┆ ---      ┆ ---     ┆ ---     ┆ ---      │
    │ f64 ┆ f64      ┆ str     ┆ str     ┆ f64      │
    ╞═════╪══════════╪═════════╪═════════╪══════════╡
    │ 0.3 ┆ 0.666667 ┆ c3      ┆ c2      ┆ 0.333333 │
    └─────┴──────────┴─────────┴─────────┴──────────┘
    """
    targets = validate.rates(target, "target")
    names = validate.as_names(by)
    vertices, threshold = _point_vertices(points, fpr, tpr, model, names)
    return _hybrid_table(vertices, names, model, threshold=threshold, targets=targets)
