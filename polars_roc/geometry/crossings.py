"""Where ROC curves cross: which of two models is higher over which FPR range.

``crossings`` lists, per pair of curves (the models of a `model` column), the FPR intervals where
each curve lies above the other; ``curve_dominance`` says whether one curve is never below
the other. Curves come from :func:`polars_roc.curves.curve`. LazyFrame in, LazyFrame out.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from polars_roc._core import convex, validate
from polars_roc._core.aliases import renamed
from polars_roc._core.checks import NanPolicy
from polars_roc._core.compat import opaque
from polars_roc._core.counts import roc_points
from polars_roc._core.direction import Direction, directed
from polars_roc._core.frames import same_kind
from polars_roc._core.validate import By

__all__ = ["crossings", "curve_dominance"]


def _limits(
    fpr: np.ndarray[Any, Any], tpr: np.ndarray[Any, Any], at: np.ndarray[Any, Any]
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """
    A curve's left and right limits at the FPR values `at` (sorted, within [0, 1]).

    The curve (sorted by FPR, then TPR) is a function of FPR with jumps where it rises
    vertically: the left limit is the lowest TPR at that FPR, the right limit the highest.
    """
    xs, first = np.unique(fpr, return_index=True)
    last = np.append(first[1:], fpr.size) - 1
    low, high = tpr[first], tpr[last]
    k = np.searchsorted(xs, at, side="right") - 1  # the vertex at or left of each x
    exact = xs[k] == at
    nxt = np.minimum(k + 1, xs.size - 1)
    span = xs[nxt] - xs[k]
    with np.errstate(invalid="ignore", divide="ignore"):
        between = high[k] + (low[nxt] - high[k]) * np.where(span > 0, (at - xs[k]) / span, 0.0)
    return np.where(exact, low[k], between), np.where(exact, high[k], between)


def _pair_intervals(
    a: tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]],
    b: tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]],
) -> list[tuple[float, float, int]]:
    """FPR intervals ``(from, to, sign)``: sign 1 where curve a is higher, -1 b, 0 equal."""
    xs = np.unique(np.concatenate([a[0], b[0]]))
    a_left, a_right = _limits(*a, xs)
    b_left, b_right = _limits(*b, xs)
    d0 = (a_right - b_right)[:-1]  # the difference just right of each breakpoint
    d1 = (a_left - b_left)[1:]  # and just left of the next one
    tolerance = 64 * convex.EPS
    s0 = np.where(np.abs(d0) <= tolerance, 0, np.sign(d0)).astype(int)
    s1 = np.where(np.abs(d1) <= tolerance, 0, np.sign(d1)).astype(int)
    x0, x1 = xs[:-1], xs[1:]
    split = s0 * s1 < 0  # the curves cross inside: split where the difference is zero
    with np.errstate(invalid="ignore", divide="ignore"):
        at = np.where(split, x0 + (x1 - x0) * d0 / np.where(split, d0 - d1, 1.0), x1)
    interval = np.repeat(np.arange(x0.size), 1 + split)
    second = np.concatenate(([False], interval[1:] == interval[:-1]))
    first_of_split = split[interval] & ~second
    lo = np.where(second, at[interval], x0[interval])
    hi = np.where(first_of_split, at[interval], x1[interval])
    sign = np.where(
        split[interval],
        np.where(second, s1[interval], s0[interval]),
        (s0 + s1 * (s0 == 0))[interval],
    )
    keep = hi > lo
    lo, hi, sign = lo[keep], hi[keep], sign[keep]
    if sign.size == 0:
        return []
    run = np.flatnonzero(np.concatenate(([True], sign[1:] != sign[:-1])))
    run_end = np.append(run[1:], sign.size) - 1
    return list(zip(lo[run].tolist(), hi[run_end].tolist(), sign[run].tolist(), strict=True))


def _crossings_batch(frame: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """Per group and pair of named curves, the FPR intervals where each is higher."""
    rows: list[dict[str, Any]] = []
    groups = frame.partition_by(by, maintain_order=True, as_dict=True) if by else {(): frame}
    for key, group in groups.items():
        keys = dict(zip(by, key, strict=True))
        curves: dict[Any, tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]] | None] = {}
        for (curve_name,), part in group.partition_by(
            "_name", maintain_order=True, as_dict=True
        ).items():
            if part["fpr"].is_null().any() or part["tpr"].is_null().any():
                curves[curve_name] = None
            else:
                ordered = part.sort("fpr", "tpr")
                curves[curve_name] = (ordered["fpr"].to_numpy(), ordered["tpr"].to_numpy())
        listed = sorted(curves, key=lambda n: (n is None, n))
        for i, first in enumerate(listed):
            for second in listed[i + 1 :]:
                pair = {**keys, "a": first, "b": second}
                one, other = curves[first], curves[second]
                if one is None or other is None:
                    rows.append({**pair, "fpr_from": None, "fpr_to": None, "higher": None})
                    continue
                for lo, hi, sign in _pair_intervals(one, other):
                    higher = first if sign > 0 else second if sign < 0 else None
                    rows.append({**pair, "fpr_from": lo, "fpr_to": hi, "higher": higher})
    return pl.DataFrame(rows, schema=_crossings_schema(frame.schema, by))


def _crossings_schema(schema: pl.Schema, by: list[str]) -> pl.Schema:
    """Output schema of :func:`crossings`, from that of the ``*by, _name, ...`` curves."""
    name = schema["_name"]
    return pl.Schema(
        {
            **{c: schema[c] for c in by},
            "a": name,
            "b": name,
            "fpr_from": pl.Float64(),
            "fpr_to": pl.Float64(),
            "higher": name,
        }
    )


def _scored_curves(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    by: list[str],
    model: str,
    weight: str | None,
    pos_label: Any,
) -> pl.LazyFrame:
    if not isinstance(model, str) or model in by or model in (score, label):
        msg = (
            f"model={model!r} must name the classifier column, apart from score, label "
            f"and `by`\n\nHint: model='model'."
        )
        raise ValueError(msg)
    curves = roc_points(lf, score, label, by=[*by, model], weight=weight, pos_label=pos_label)
    return curves.select(*by, _name=model, fpr="fpr", tpr="tpr")


@renamed(across="model")
@same_kind
@directed
def crossings(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    model: str = "model",
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.LazyFrame:
    """
    Where ROC curves cross: for each pair of classifiers, the FPR ranges where each is higher.

    Each curve is read as a function of FPR (piecewise linear, jumping where it rises
    vertically); between the pooled breakpoints of two curves their difference is linear,
    so every crossing is found exactly, up to floating-point rounding (differences within
    ``64 * eps`` count as equal).

    Parameters
    ----------
    lf
        Scored rows in long format: one score per case and classifier.
    score, label, by, weight, pos_label, direction, nan_policy
        Column roles, direction and NaN policy, as in :func:`polars_roc.curves.curve`.
    model
        Classifier name column: one curve per classifier (and `by` group).

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, a, b, fpr_from, fpr_to, higher``: per unordered pair (``a < b``), the
        consecutive FPR intervals covering [0, 1]; `higher` names the higher curve, null
        where they coincide. A pair with an undefined curve gives one row of nulls.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {
    ...         "model": ["x"] * 4 + ["y"] * 4,
    ...         "label": [1, 1, 0, 0] * 2,
    ...         "score": [0.9, 0.2, 0.5, 0.1, 0.6, 0.7, 0.8, 0.1],
    ...     }
    ... )
    >>> df.roc.crossings()
    shape: (2, 5)
    ┌─────┬─────┬──────────┬────────┬────────┐
    │ a   ┆ b   ┆ fpr_from ┆ fpr_to ┆ higher │
    │ --- ┆ --- ┆ ---      ┆ ---    ┆ ---    │
    │ str ┆ str ┆ f64      ┆ f64    ┆ str    │
    ╞═════╪═════╪══════════╪════════╪════════╡
    │ x   ┆ y   ┆ 0.0      ┆ 0.5    ┆ x      │
    │ x   ┆ y   ┆ 0.5      ┆ 1.0    ┆ null   │
    └─────┴─────┴──────────┴────────┴────────┘
    """
    names = validate.as_names(by)
    return _crossings(
        lf, score, label, names=names, model=model, weight=weight, pos_label=pos_label
    )


def _crossings(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    names: list[str],
    model: str,
    weight: str | None,
    pos_label: Any,
) -> pl.LazyFrame:
    """The kernel of :func:`crossings`, on rows its decorators prepared."""
    curves = _scored_curves(
        lf, score, label, by=names, model=model, weight=weight, pos_label=pos_label
    )
    schema = _crossings_schema(curves.collect_schema(), names)
    return opaque(curves, lambda df: _crossings_batch(df, names), schema=schema).sort(
        [*names, "a", "b", "fpr_from"], nulls_last=True
    )


@renamed(across="model")
@same_kind
@directed
def curve_dominance(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    model: str = "model",
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.LazyFrame:
    """
    Which classifier's ROC curve dominates which: every ordered pair of curves.

    A dominates B iff A's curve is nowhere below B's and somewhere above it (as for points,
    identical curves dominate neither). Read off :func:`polars_roc.geometry.hull.crossings`.

    Parameters
    ----------
    lf, score, label, model, by, weight, pos_label, direction, nan_policy
        As in :func:`polars_roc.geometry.hull.crossings`.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, a, b, dominates``; null where a curve is undefined.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {
    ...         "model": ["x"] * 4 + ["y"] * 4,
    ...         "label": [1, 1, 0, 0] * 2,
    ...         "score": [0.9, 0.2, 0.5, 0.1, 0.6, 0.7, 0.8, 0.1],
    ...     }
    ... )
    >>> df.roc.curve_dominance()
    shape: (2, 3)
    ┌─────┬─────┬───────────┐
    │ a   ┆ b   ┆ dominates │
    │ --- ┆ --- ┆ ---       │
    │ str ┆ str ┆ bool      │
    ╞═════╪═════╪═══════════╡
    │ x   ┆ y   ┆ true      │
    │ y   ┆ x   ┆ false     │
    └─────┴─────┴───────────┘
    """
    names = validate.as_names(by)
    table = _crossings(
        lf, score, label, names=names, model=model, weight=weight, pos_label=pos_label
    )
    flipped = table.rename({"a": "b", "b": "a"})
    both = pl.concat([table, flipped.select(table.collect_schema().names())])
    higher = pl.col("higher")
    dominates = (higher == pl.col("a")).any() & ~(higher == pl.col("b")).any()
    defined = pl.col("fpr_from").is_not_null().all()
    return (
        both.group_by([*names, "a", "b"])
        .agg(dominates=pl.when(defined).then(dominates))
        .sort([*names, "a", "b"], nulls_last=True)
    )
