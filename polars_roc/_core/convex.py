"""The ROC convex hull kernel: upper hulls of ROC points per group, in numpy batches.

Points come standardized as ``*by, _name, fpr, tpr, threshold, _x, _y`` (``_x, _y`` the
coordinates hulled: counts for one curve, rates across curves); the hull always includes the
trivial classifiers (0, 0) and (1, 1). :mod:`polars_roc.hull` and :mod:`polars_roc.iso` read
it.
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
    x: np.ndarray[Any, Any], y: np.ndarray[Any, Any], a: Any, p: Any, b: Any, scale: float
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


def _upper_hull(x: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """
    Indices of the upper convex hull of points sorted by x, then y (both ascending).

    A point on or below the segment joining its current neighbours is never a hull vertex,
    so all such points are dropped at once, pass after pass, until every turn is strictly
    clockwise; the chain left is the hull. Collinear points are dropped. Integer coordinates
    (counts) are exact; float coordinates treat turns within rounding error as collinear.
    """
    scale = max(1.0, float(np.abs(x).max()), float(np.abs(y).max())) if x.size else 1.0
    index = np.arange(x.size)
    for _ in range(_PASSES):
        if index.size < 3:
            return index
        drop = _not_right_turn(x, y, index[:-2], index[1:-1], index[2:], scale)
        if not drop.any():
            return index
        index = index[np.concatenate(([True], ~drop, [True]))]
    chain: list[int] = []  # rare slow convergence: finish with Andrew's monotone chain
    for i in index.tolist():
        while len(chain) >= 2 and _not_right_turn(x, y, chain[-2], chain[-1], i, scale):
            chain.pop()
        chain.append(i)
    return np.asarray(chain, dtype=np.int64)


def _group_starts(frame: pl.DataFrame, by: list[str]) -> tuple[list[int], list[int]]:
    """First and one-past-last row of each run of equal `by` keys (groups are contiguous)."""
    if by:
        ids = frame.select(pl.struct(by).rle_id()).to_series().to_numpy()
        starts = np.flatnonzero(np.diff(ids, prepend=-1))
    else:
        starts = np.zeros(1, dtype=np.int64)
    ends = np.append(starts[1:], frame.height)
    return starts.tolist(), ends.tolist()


def _hull_batch(
    frame: pl.DataFrame, by: list[str], *, corners: bool, required: bool
) -> pl.DataFrame:
    """
    The hull vertices of each group of a frame of points, sorted by ``*by, fpr, tpr``.

    Groups must be contiguous and sorted within by `_x`, `_y`, then owner preference: of
    identical points the first is kept. Points with a null rate are skipped, and a group
    left with none gives one row of nulls. With `corners`, (0, 0) and (1, 1) join each
    group as nameless points unless a given point sits there. With `required`, an empty
    frame is an error (a set of points with no hull); otherwise it has no groups.
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
    taken, origins, tops, undefined = [], [], [], []
    for start, end in zip(*_group_starts(frame, by), strict=True):
        rows = start + np.flatnonzero(valid[start:end])
        if rows.size == 0:
            undefined.append(start)
            continue
        gx, gy = x[rows], y[rows]
        distinct = np.concatenate(([True], (gx[1:] != gx[:-1]) | (gy[1:] != gy[:-1])))
        rows, gx, gy = rows[distinct], gx[distinct], gy[distinct]
        if corners and (gx[0] != 0 or gy[0] != 0):  # sorted: (0, 0) would come first
            rows, gx, gy = np.append(-1, rows), np.append(0.0, gx), np.append(0.0, gy)
            origins.append(start)
        if corners and (gx[-1] != 1 or gy[-1] != 1):  # and (1, 1) last
            rows, gx, gy = np.append(rows, -1), np.append(gx, 1.0), np.append(gy, 1.0)
            tops.append(start)
        chosen = rows[_upper_hull(gx, gy)]  # the corners are always vertices
        taken.append(chosen[chosen >= 0])
    parts = [frame[np.concatenate(taken)]] if taken else []
    nameless = {"_name": None, "threshold": None}
    for starts, at in ((origins, 0), (tops, 1)):
        if starts:
            corner = {"fpr": at, "tpr": at, "_x": at, "_y": at, **nameless}
            parts.append(_replaced(frame[starts], corner))
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
    schema = points_schema(lf, fpr, tpr, name, by)
    has_threshold = "threshold" in schema and "threshold" not in {fpr, tpr, name, *by}
    return lf.select(
        *by,
        _name=pl.lit(None) if name is None else pl.col(name),
        fpr=_rate(fpr),
        tpr=_rate(tpr),
        threshold=pl.col("threshold").cast(pl.Float64)
        if has_threshold
        else pl.lit(None, dtype=pl.Float64),
    ).with_columns(_x="fpr", _y="tpr")


def points_vertices(
    points: Frame, fpr: str, tpr: str, name: str | None, by: list[str]
) -> pl.LazyFrame:
    """Hull vertices of a frame of ROC points, per group, with the corners."""
    return vertices(standard_points(points, fpr, tpr, name, by), by, required=True)


def has_threshold(points: Frame, fpr: str, tpr: str, name: str | None, by: list[str]) -> bool:
    schema = points.lazy().collect_schema()
    return "threshold" in schema and "threshold" not in {fpr, tpr, name, *by}
