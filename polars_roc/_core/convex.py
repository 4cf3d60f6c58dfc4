"""The ROC convex hull kernel: upper hulls of ROC points per group, in numpy batches.

Points come standardized as ``*by, _name, fpr, tpr, threshold, _x, _y`` (``_x, _y`` the
coordinates hulled: counts for one curve, rates across curves); the hull always includes the
trivial classifiers (0, 0) and (1, 1). :mod:`polars_roc.geometry.hull` and
:mod:`polars_roc.geometry.iso` read it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl
from polars.exceptions import SchemaError

from polars_roc._core import validate
from polars_roc._core.compat import opaque

#: A frame of ROC points may be eager or lazy; results are always lazy.
Frame = pl.LazyFrame | pl.DataFrame

EPS = float(np.finfo(np.float64).eps)
_PASSES = 64  # vectorized thinning passes before the exact monotone chain takes over
COLUMNS = ("_name", "fpr", "tpr", "threshold")  # the internal vertex frame, after `*by`


# --- the kernel ------------------------------------------------------------------------------


def _not_right_turn(
    x: np.ndarray[Any, Any], y: np.ndarray[Any, Any], a: Any, p: Any, b: Any, scale: Any
) -> Any:
    """Whether p lies on or below the segment a-b (a before p before b along x)."""
    dx1, dy1 = x[p] - x[a], y[p] - y[a]
    dx2, dy2 = x[b] - x[a], y[b] - y[a]
    cross = dx1 * dy2 - dy1 * dx2
    if x.dtype.kind in "iu":
        return cross >= 0  # integer counts: exact
    # Float rates: a turn within the rounding error of the differences counts as collinear.
    tolerance = 4 * EPS * scale * (abs(dx1) + abs(dy1) + abs(dx2) + abs(dy2))
    return cross >= -tolerance


def _upper_hulls(
    x: np.ndarray[Any, Any], y: np.ndarray[Any, Any], group: np.ndarray[Any, Any]
) -> np.ndarray[Any, Any]:
    """
    Indices of the upper convex hull of each group's points, all groups at once.

    Points run group after group, each group's sorted by x, then y (both ascending). A point
    on or below the segment joining its current neighbours in its group is never a hull
    vertex, so all such points are dropped at once, pass after pass over every group, until
    every turn is strictly clockwise; the chains left are the hulls. A group still changing
    after the passes is finished with Andrew's monotone chain. Collinear points are dropped.
    Integer coordinates (counts) are exact; float coordinates treat turns within rounding
    error of a group's scale as collinear.
    """
    if x.size == 0:
        return np.arange(0)
    # Each group's scale: its largest coordinate (at least 1), repeated over its points.
    starts = np.flatnonzero(np.concatenate(([True], group[1:] != group[:-1])))
    extent = np.maximum(np.abs(x), np.abs(y)).astype(np.float64)
    largest = np.maximum(1.0, np.maximum.reduceat(extent, starts))
    scale = np.repeat(largest, np.diff(np.append(starts, x.size)))
    index = np.arange(x.size)
    moving = np.zeros(0, dtype=group.dtype)
    for _ in range(_PASSES):
        if index.size < 3:
            return index
        g = group[index]
        interior = (g[:-2] == g[1:-1]) & (g[1:-1] == g[2:])
        a, p, b = index[:-2], index[1:-1], index[2:]
        drop = interior & _not_right_turn(x, y, a, p, b, scale[p])
        if not drop.any():
            return index
        moving = np.unique(g[1:-1][drop])
        index = index[np.concatenate(([True], ~drop, [True]))]
    # Rare slow convergence: finish the groups still changing with the monotone chain.
    kept = [index[~np.isin(group[index], moving)]]
    for g in moving.tolist():
        chain: list[int] = []
        for i in index[group[index] == g].tolist():
            while len(chain) >= 2 and _not_right_turn(x, y, chain[-2], chain[-1], i, scale[i]):
                chain.pop()
            chain.append(i)
        kept.append(np.asarray(chain, dtype=np.int64))
    return np.sort(np.concatenate(kept))


def _group_starts(frame: pl.DataFrame, by: list[str]) -> np.ndarray[Any, Any]:
    """The first row of each run of equal `by` keys (groups are contiguous)."""
    if by and frame.height:
        ids = frame.select(pl.struct(by).rle_id()).to_series().to_numpy()
        return np.flatnonzero(np.diff(ids, prepend=-1))
    return np.zeros(min(frame.height, 1), dtype=np.int64)


def _hull_batch(
    frame: pl.DataFrame, by: list[str], *, corners: bool, required: bool
) -> pl.DataFrame:
    """
    The hull vertices of each group of a frame of points, sorted by ``*by, fpr, tpr``.

    Groups must be contiguous and sorted within by `_x`, `_y`, then owner preference: of
    identical points the first is kept. Points with a null rate are skipped, and a group
    left with none gives one row of nulls. With `corners`, (0, 0) and (1, 1) join each
    group as nameless points unless a given point sits there. With `required`, an empty
    frame is an error (a set of points with no hull); otherwise it has no groups. Every
    step runs on all groups at once (no loop over groups).
    """
    if frame.height == 0 and not required:
        return frame
    if frame.height == 0:
        msg = (
            "the set of ROC points is empty: there is no hull\n\n"
            "Hint: pass a frame with at least one (fpr, tpr) point."
        )
        raise ValueError(msg)
    x = frame["_x"].fill_null(0).to_numpy()
    y = frame["_y"].fill_null(0).to_numpy()
    valid = (frame["fpr"].is_not_null() & frame["tpr"].is_not_null()).to_numpy()
    starts = _group_starts(frame, by)
    group_of = np.searchsorted(starts, np.arange(frame.height), side="right") - 1
    undefined = starts[np.add.reduceat(valid.astype(np.int64), starts) == 0].tolist()
    rows = np.flatnonzero(valid)
    g, gx, gy = group_of[rows], x[rows], y[rows]
    # Of identical points in a group, the first (the preferred owner) stays.
    new = np.concatenate(([True], g[1:] != g[:-1])) if rows.size else np.zeros(0, dtype=bool)
    distinct = new | np.concatenate(([True], (gx[1:] != gx[:-1]) | (gy[1:] != gy[:-1])))
    rows, g, gx, gy = rows[distinct], g[distinct], gx[distinct], gy[distinct]
    origins: list[int] = []
    tops: list[int] = []
    if corners and rows.size:
        first = np.concatenate(([True], g[1:] != g[:-1]))
        last = np.concatenate((g[1:] != g[:-1], [True]))
        low = np.flatnonzero(first & ((gx != 0) | (gy != 0)))  # sorted: (0, 0) would be first
        high = np.flatnonzero(last & ((gx != 1) | (gy != 1)))  # and (1, 1) last
        origins, tops = starts[g[low]].tolist(), starts[g[high]].tolist()
        # Inserted together: a group's (1, 1) comes before the next group's (0, 0).
        at = np.concatenate((high + 1, low))
        order = np.argsort(at, kind="stable")
        at, groups = at[order], np.concatenate((g[high], g[low]))[order]
        corner = np.concatenate((np.ones(high.size), np.zeros(low.size)))[order]
        rows = np.insert(rows, at, -1)
        g = np.insert(g, at, groups)
        gx = np.insert(gx.astype(np.float64), at, corner)
        gy = np.insert(gy.astype(np.float64), at, corner)
    chosen = rows[_upper_hulls(gx, gy, g)]  # the corners are always vertices
    taken = chosen[chosen >= 0]
    parts: list[pl.DataFrame] = [frame[taken]] if taken.size else []
    nameless = {"_name": None, "threshold": None}
    for where, at_value in ((origins, 0), (tops, 1)):
        if where:
            corner_row = {"fpr": at_value, "tpr": at_value, "_x": at_value, "_y": at_value}
            parts.append(_replaced(frame[where], {**corner_row, **nameless}))
    if undefined:
        parts.append(_replaced(frame[undefined], dict.fromkeys(frame.columns[len(by) :])))
    out = pl.concat(parts, how="vertical")
    return out.sort([*by, "fpr", "tpr"], nulls_last=True, maintain_order=True)


def _replaced(rows: pl.DataFrame, values: dict[str, Any]) -> pl.DataFrame:
    """`rows` with the given columns set to constants, dtypes kept."""
    schema = rows.schema
    return rows.with_columns(pl.lit(v, dtype=schema[c]).alias(c) for c, v in values.items())


def curve_vertices(curves: pl.LazyFrame, keys: list[str]) -> pl.LazyFrame:
    """
    The hull of each curve, in its own counts: exact for integer counts.

    `curves` is a standardized frame read off :func:`polars_roc.curves.curve`, in its order
    (grouped by `keys`, thresholds descending: counts ascending), so nothing is sorted here.
    """
    schema = curves.collect_schema()
    return opaque(
        curves, lambda df: _hull_batch(df, keys, corners=False, required=False), schema=schema
    )


def vertices(points: pl.LazyFrame, by: list[str], *, required: bool) -> pl.LazyFrame:
    """
    The hull of a standardized points frame (`_x`, `_y` the rates) per group, with corners.

    `points` holds ``*by, _name, fpr, tpr, threshold, _x, _y``. Of identical points the
    first in name order (then the highest threshold) owns the vertex. With `required`,
    no points at all is an error.
    """
    order = [*by, "_x", "_y", "_name", "threshold"]
    table = points.sort(order, descending=[False] * (len(order) - 1) + [True], nulls_last=True)
    schema = table.collect_schema()
    return opaque(
        table, lambda df: _hull_batch(df, by, corners=True, required=required), schema=schema
    )


# --- inputs ----------------------------------------------------------------------------------


def check_rates(values: pl.Series) -> pl.Series:
    bad = values.filter(values.is_not_null() & ~((values >= 0) & (values <= 1)))
    if bad.len() > 0:
        msg = (
            f"column {values.name!r} holds {bad.unique().sort().head(5).to_list()}, "
            f"not rates in [0, 1]\n\nHint: pass fpr= and tpr= columns of rates."
        )
        raise ValueError(msg)
    return values


def _rate(name: str) -> pl.Expr:
    """Float64 rate column that raises at collect on a value outside [0, 1] (or NaN)."""
    checked = pl.col(name).cast(pl.Float64)
    return checked.map_batches(check_rates, return_dtype=pl.Float64, is_elementwise=True)


def points_schema(
    points: pl.LazyFrame, fpr: str, tpr: str, name: str | None, by: list[str]
) -> pl.Schema:
    """Check the roles of a points frame against its schema and return the schema."""
    schema = points.collect_schema()
    for role, column in (("fpr", fpr), ("tpr", tpr)):
        dtype = validate.column(schema, column, role)
        if not dtype.is_numeric() or dtype == pl.Boolean:
            msg = (
                f"{role} column {column!r} has dtype {dtype}, expected rates in [0, 1]"
                f"\n\nHint: pass {role}=<numeric column>."
            )
            raise SchemaError(msg)
    if name is not None:
        validate.column(schema, name, "name")
    for column in by:
        validate.column(schema, column, "by")
    roles = [fpr, tpr] + ([name] if name is not None else [])
    if len(set(roles)) < len(roles) or set(roles) & set(by):
        msg = f"the roles fpr={fpr!r}, tpr={tpr!r}, name={name!r} and by={by} must be distinct"
        raise ValueError(msg)
    return schema


def standard_points(
    points: Frame, fpr: str, tpr: str, name: str | None, by: list[str]
) -> pl.LazyFrame:
    """A points frame as ``*by, _name, fpr, tpr, threshold, _x, _y`` (rates checked)."""
    lf = points.lazy()
    points_schema(lf, fpr, tpr, name, by)
    carried = has_threshold(lf, fpr, tpr, name, by)
    return lf.select(
        *by,
        _name=pl.lit(None) if name is None else pl.col(name),
        fpr=_rate(fpr),
        tpr=_rate(tpr),
        threshold=pl.col("threshold").cast(pl.Float64)
        if carried
        else pl.lit(None, dtype=pl.Float64),
    ).with_columns(_x="fpr", _y="tpr")


def points_vertices(
    points: Frame, fpr: str, tpr: str, name: str | None, by: list[str]
) -> pl.LazyFrame:
    """Hull vertices of a frame of ROC points, per group, with the corners."""
    return vertices(standard_points(points, fpr, tpr, name, by), by, required=True)


def has_threshold(points: Frame, fpr: str, tpr: str, name: str | None, by: list[str]) -> bool:
    """
    Whether a points frame has thresholds to carry along: a ``threshold`` column of its own.

    A role column named ``threshold`` (the classifier names, a rate, a group) is not one.

    Examples
    --------
    >>> import polars as pl
    >>> points = pl.DataFrame({"threshold": ["c1"], "fpr": [0.2], "tpr": [0.6]})
    >>> has_threshold(points, "fpr", "tpr", "threshold", [])
    False
    >>> has_threshold(points.rename({"threshold": "model"}).with_columns(threshold=0.5),
    ...               "fpr", "tpr", "model", [])
    True
    """
    schema = points.lazy().collect_schema()
    return "threshold" in schema and "threshold" not in {fpr, tpr, name, *by}
