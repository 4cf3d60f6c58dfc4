"""ROC geometry: the convex hull, dominance and where curves cross. LazyFrame in, LazyFrame out.

The ROC convex hull (ROCCH; Provost & Fawcett, 2001) of a set of classifiers is the upper-left
boundary of the convex hull of their ROC points together with the trivial classifiers "always
negative" (0, 0) and "always positive" (1, 1). Every point on it is attainable, by a vertex or
by randomizing between the two vertices of an edge; a classifier below it is optimal for no
class distribution and no costs. :mod:`polars_roc.geometry.iso` reads the optimal vertex,
the operating ranges and the hybrid classifiers off this hull.

Every analysis comes twice: on scored rows (``hull``, ``hull_auc``; the curves come from
:func:`polars_roc.curves.curve`) and on a frame of ROC points (``hull_of_points``,
``hull_auc_of_points``), e.g. hard-label classifiers given only as confusion matrices.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from polars_roc._core import convex, validate
from polars_roc._core.aliases import renamed
from polars_roc._core.checks import NanPolicy
from polars_roc._core.compat import opaque
from polars_roc._core.convex import Frame
from polars_roc._core.direction import Direction, directed
from polars_roc._core.frames import same_kind
from polars_roc._core.groups import join_groups, per_group
from polars_roc._core.validate import By
from polars_roc.geometry._vertices import scored_vertices

__all__ = ["dominance", "hull", "hull_auc", "hull_auc_of_points", "hull_of_points"]


def _shown(
    vertices: pl.LazyFrame, by: list[str], model: str | None, *, threshold: bool
) -> pl.LazyFrame:
    """The internal vertex frame with the public column names."""
    columns: list[str | pl.Expr] = [*by]
    if model is not None:
        columns.append(pl.col("_name").alias(model))
    columns += ["fpr", "tpr"] + (["threshold"] if threshold else [])
    return vertices.select(columns)


# --- hull ------------------------------------------------------------------------------------


@renamed(across="model")
@same_kind
@directed
def hull(
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
) -> pl.LazyFrame:
    """
    Vertices of the ROC convex hull per group, from (0, 0) to (1, 1).

    The hull of one curve per group, or with `model` of several classifiers' curves
    together (e.g. ``model="model"`` on long-format scores), plus any hard-label `points`.
    A hard-label classifier scored 0/1 is its own ROC point; so is a `points` row. Points on
    a hull edge between two vertices (collinear) are not vertices. Each curve is hulled in
    its own counts, exactly when they are integers (no weights); the hull across curves
    and points is then taken in rates, where a turn within rounding error counts as
    collinear.

    Parameters
    ----------
    lf
        Scored rows.
    score, label, by, weight, pos_label, direction, nan_policy
        Column roles, direction and NaN policy, as in :func:`polars_roc.curves.curve`; one
        hull per `by` group.
    model
        Classifier name column: the hull is taken over all its classifiers' curves in a
        group, and each vertex names its owner. When several classifiers reach the same
        point, the first in sort order owns it.
    points
        Extra ROC points (e.g. from ``df.roc.point(...)``): ``*by, <model>, fpr, tpr``
        columns; needs `model`. Their vertices have a null threshold.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, [model], fpr, tpr, threshold``, per group by FPR ascending (and TPR, where
        the hull rises vertically at FPR 0). A group without a defined curve (no positives
        or no negatives) gives one row of nulls.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {"score": [0.9, 0.8, 0.7, 0.6, 0.5, 0.4], "label": [1, 0, 1, 1, 0, 0]}
    ... )
    >>> df.roc.hull()
    shape: (4, 3)
    ┌──────────┬──────────┬───────────┐
    │ fpr      ┆ tpr      ┆ threshold │
    │ ---      ┆ ---      ┆ ---       │
    │ f64      ┆ f64      ┆ f64       │
    ╞══════════╪══════════╪═══════════╡
    │ 0.0      ┆ 0.0      ┆ inf       │
    │ 0.0      ┆ 0.333333 ┆ 0.9       │
    │ 0.333333 ┆ 1.0      ┆ 0.6       │
    │ 1.0      ┆ 1.0      ┆ 0.4       │
    └──────────┴──────────┴───────────┘
    """
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
    return _shown(vertices, names, model, threshold=True)


@renamed(name="model")
@same_kind
def hull_of_points(
    points: Frame,
    fpr: str = "fpr",
    tpr: str = "tpr",
    model: str | None = "model",
    *,
    by: By = None,
) -> pl.LazyFrame:
    """
    Vertices of the ROC convex hull of a set of ROC points, per group.

    The points are classifiers' (fpr, tpr) pairs, e.g. hard-label classifiers given as
    confusion matrices, or curves stacked in long format. The trivial classifiers (0, 0) and
    (1, 1) always belong to the hull; where no given point sits there, their name is null.
    Collinear points on an edge are not vertices; turns within floating-point rounding
    error count as collinear.

    Parameters
    ----------
    points
        ROC points, eager or lazy. A ``threshold`` column, if present, is carried along.
    fpr, tpr
        Rate columns, in [0, 1] (checked when the query runs). Points with a null rate are
        skipped.
    model
        Classifier name column (the owner of each vertex), or None. When several points
        coincide, the first name in sort order owns the vertex.
    by
        Column name(s) to group by: one hull per group.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, [model], fpr, tpr, [threshold]``, per group by FPR ascending. A group whose
        points all have null rates gives one row of nulls.

    Raises
    ------
    ValueError
        When the query runs: a rate outside [0, 1], or no points at all.

    Examples
    --------
    The three classifiers of the lecture notes' worked example (given as confusion matrices
    TP/FN/FP/TN 40/60/30/70, 80/20/50/50 and 60/40/20/80): classifier 1 lies below the hull.

    >>> import polars as pl
    >>> import polars_roc as pr
    >>> points = pl.DataFrame(
    ...     {"model": ["c1", "c2", "c3"], "fpr": [0.3, 0.5, 0.2], "tpr": [0.4, 0.8, 0.6]}
    ... )
    >>> pr.hull_of_points(points)
    shape: (4, 3)
    ┌───────┬─────┬─────┐
    │ model ┆ fpr ┆ tpr │
    │ ---   ┆ --- ┆ --- │
    │ str   ┆ f64 ┆ f64 │
    ╞═══════╪═════╪═════╡
    │ null  ┆ 0.0 ┆ 0.0 │
    │ c3    ┆ 0.2 ┆ 0.6 │
    │ c2    ┆ 0.5 ┆ 0.8 │
    │ null  ┆ 1.0 ┆ 1.0 │
    └───────┴─────┴─────┘
    """
    names = validate.as_names(by)
    vertices = convex.points_vertices(points, fpr, tpr, model, names)
    threshold = convex.has_threshold(points, fpr, tpr, model, names)
    return _shown(vertices, names, model, threshold=threshold)


def _area(vertices: pl.LazyFrame, by: list[str]) -> pl.LazyFrame:
    """Trapezoidal area under each group's vertices: ``*by, hull_auc`` (null if undefined)."""
    ordered = vertices.sort([*by, "fpr", "tpr"], nulls_last=True)
    step = (pl.col("fpr") - pl.col("fpr").shift(1)) * (pl.col("tpr") + pl.col("tpr").shift(1)) / 2
    area = pl.when(pl.col("fpr").is_not_null().all()).then(pl.col("_step").sum())
    with_steps = ordered.with_columns(_step=per_group(step, by))
    if not by:
        return with_steps.select(hull_auc=area)
    return with_steps.group_by(by).agg(hull_auc=area).sort(by, nulls_last=True)


@renamed(across="model")
@same_kind
@directed
def hull_auc(
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
) -> pl.LazyFrame:
    """
    Area under the ROC convex hull (ROCCH AUC) per group.

    The AUC attainable by choosing, for each operating point, the best (possibly randomized)
    classifier: at least the AUC of every curve in the group. Arguments as in
    :func:`polars_roc.geometry.hull.hull`.

    Parameters
    ----------
    lf, score, label, by, model, points, weight, pos_label
        Scored rows and column roles, as in :func:`polars_roc.geometry.hull.hull`.
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"`` (the same as negating
        the score); never guessed from the data.
    nan_policy
        NaN scores: ``"propagate"`` (default: the group's results are null), ``"omit"``
        (skipped like nulls) or ``"raise"`` (an error naming the column and the count).

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, hull_auc``; null for a group without a defined curve.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {"score": [0.9, 0.8, 0.7, 0.6, 0.5, 0.4], "label": [1, 0, 1, 1, 0, 0]}
    ... )
    >>> df.roc.hull_auc()["hull_auc"].item()
    0.888889
    >>> df.roc.auc()["auc"].item()
    0.777778
    """
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
    return _area(vertices, names)


@same_kind
def hull_auc_of_points(
    points: Frame, fpr: str = "fpr", tpr: str = "tpr", *, by: By = None
) -> pl.LazyFrame:
    """
    Area under the ROC convex hull of a set of ROC points (with (0, 0) and (1, 1)), per group.

    Parameters
    ----------
    points, fpr, tpr, by
        As in :func:`polars_roc.geometry.hull.hull_of_points`.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, hull_auc``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> points = pl.DataFrame({"fpr": [0.3, 0.5, 0.2], "tpr": [0.4, 0.8, 0.6]})
    >>> pr.hull_auc_of_points(points).item()
    0.72
    """
    names = validate.as_names(by)
    return _area(convex.points_vertices(points, fpr, tpr, None, names), names)


# --- dominance -------------------------------------------------------------------------------


def _check_unique_names(frame: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    if frame.height == 0:
        msg = "the set of ROC points is empty\n\nHint: pass at least two classifiers' points."
        raise ValueError(msg)
    if frame["_name"].null_count():
        msg = "a classifier name is null\n\nHint: give every point a name, or drop it."
        raise ValueError(msg)
    repeated = frame.filter(pl.len().over([*by, "_name"]) > 1)
    if repeated.height:
        found = repeated["_name"].unique().sort().head(5).to_list()
        msg = (
            f"classifier name(s) {found} appear more than once in a group: dominance compares "
            f"one point per classifier\n\nHint: add the distinguishing column to `by`."
        )
        raise ValueError(msg)
    return frame


@renamed(name="model")
@same_kind
def dominance(
    points: Frame,
    fpr: str = "fpr",
    tpr: str = "tpr",
    model: str = "model",
    *,
    by: By = None,
) -> pl.LazyFrame:
    """
    Which hard-label classifier dominates which: every ordered pair of ROC points.

    A dominates B iff ``tpr_A >= tpr_B`` and ``fpr_A <= fpr_B`` with at least one of the two
    strict: A is at least as good as B for every class distribution and cost. For scored
    classifiers (curves) see :func:`polars_roc.geometry.hull.curve_dominance`.

    Parameters
    ----------
    points
        One ROC point per classifier (and group), eager or lazy.
    fpr, tpr
        Rate columns, in [0, 1].
    model
        Classifier name column; names must be unique within a group.
    by
        Column name(s) to group by: pairs are formed within each group.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, a, b, dominates`` (Boolean; null where a rate is null), sorted.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> points = pl.DataFrame(
    ...     {"model": ["c1", "c2", "c3"], "fpr": [0.3, 0.5, 0.2], "tpr": [0.4, 0.8, 0.6]}
    ... )
    >>> pr.dominance(points).filter("dominates")
    shape: (1, 3)
    ┌─────┬─────┬───────────┐
    │ a   ┆ b   ┆ dominates │
    │ --- ┆ --- ┆ ---       │
    │ str ┆ str ┆ bool      │
    ╞═════╪═════╪═══════════╡
    │ c3  ┆ c1  ┆ true      │
    └─────┴─────┴───────────┘
    """
    names = validate.as_names(by)
    if {"a", "b", "dominates"} & set(names):
        msg = f"`by` columns {names} clash with the output columns a, b, dominates"
        raise ValueError(msg)
    standard = convex.standard_points(points, fpr, tpr, model, names).select(
        *names, "_name", "fpr", "tpr"
    )
    checked = opaque(
        standard, lambda df: _check_unique_names(df, names), schema=standard.collect_schema()
    )
    left = checked.rename({"_name": "a", "fpr": "_fpr_a", "tpr": "_tpr_a"})
    right = checked.rename({"_name": "b", "fpr": "_fpr_b", "tpr": "_tpr_b"})
    pairs = join_groups(left, right, names, how="inner")
    fpr_a, tpr_a, fpr_b, tpr_b = (pl.col(c) for c in ("_fpr_a", "_tpr_a", "_fpr_b", "_tpr_b"))
    dominates = (tpr_a >= tpr_b) & (fpr_a <= fpr_b) & ((tpr_a > tpr_b) | (fpr_a < fpr_b))
    return (
        pairs.filter(pl.col("a") != pl.col("b"))
        .select(*names, "a", "b", dominates=dominates)
        .sort([*names, "a", "b"], nulls_last=True)
    )
