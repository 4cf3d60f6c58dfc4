"""Thinning large curves for drawing, with a stated error bound; tables keep every row.

A browser draws a few thousand points per chart at most, and Altair refuses more than 5,000
rows by default. A curve of ten million thresholds is thinned in two steps, per group:

1. **Exactly collinear points are dropped**: a point whose two segments point the same way
   on one line (zero cross product, non-negative dot product; on the integer counts ``tp,
   fp`` when the frame has them). The drawn line is unchanged: this step loses nothing.
2. **Arc-length buckets**: if the curve still has more points than its share of
   `max_points`, its L1 arc length ``s`` (the running sum of ``|dx| + |dy|``, each axis
   divided by its drawn span) is cut into ``B = share // 2 - 1`` equal steps ``h = L / B``
   (``L`` the group's total length) and only the first and last point of each step are kept.

Error bound of step 2: between two consecutive kept points the curve travels at most ``h``,
so every dropped point lies within ``h / 2`` of a kept point (Euclidean, in units of the axis
spans), hence of the drawn line. For a monotone curve (ROC, DET, averaged ROC: both
coordinates move one way) ``L <= 2``, a dropped point lies within ``h / (2 * sqrt(2))`` of the
drawn segment, and the drawn area differs from the true one by at most ``L * h / 8 <=
1 / (2 * B)``. With the default budget of 2,000 points and one ROC curve (``B = 999``) that is
a distance of at most 0.00071 of the axis (a quarter of a pixel on a 300-pixel chart).
Rows are only dropped, never moved: every drawn point, and every number in a tooltip, is an
exact row of the input.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

#: Rows a chart may hand to Altair: its default limit (5,000) less room for small layers.
ROW_BUDGET = 4_900


def buckets(max_points: int, n_groups: int, min_points: int = 4) -> int:
    """Number of arc-length steps per group for a budget of `max_points` in all."""
    share = max(min_points, max_points // max(n_groups, 1))
    return max(1, share // 2 - 1)


def budget(n_lines: int, extra: int, max_points: int, what: str, share: int = 1) -> tuple[int, int]:
    """
    ``(max_points, min_points)`` for :func:`thin` so that a chart stays under Altair's limit.

    `n_lines` lines are drawn, `extra` rows of other layers come with them, and each drawn
    row costs `share` rows in all (2 when a layer repeats part of the curve). Each line keeps
    at least 4 points while that fits; with more lines, 3 (its two ends and the point
    farthest from the chord between them) or 2 (its ends). Beyond that no drawing is
    faithful: a ValueError says what to do.
    """
    room = max((ROW_BUDGET - extra) // share, 0)
    lines = max(n_lines, 1)
    if lines * 4 <= room:
        return min(max_points, room), 4
    if lines * 2 > room:
        most = room // 2
        msg = (
            f"{what} cannot draw {n_lines:,} lines: Altair draws at most 5,000 rows, room for "
            f"{most:,} lines of 2 points"
            "\n\nHint: filter the groups (e.g. the largest ones), draw one panel per chart, "
            "or summarize the groups first (e.g. df.roc.average_curve)."
        )
        raise ValueError(msg)
    return room, min(room // lines, 3)


def thin(
    frame: pl.DataFrame,
    x: str,
    y: str,
    *,
    by: Sequence[str] = (),
    max_points: int = 2000,
    span: tuple[float, float] = (1.0, 1.0),
    exact: tuple[str, str] | None = None,
    min_points: int = 4,
) -> pl.DataFrame:
    """
    Drop rows of a curve (in drawing order within each `by` group) not needed to draw it.

    Frames with at most `max_points` rows come back unchanged. See the module docstring for
    the two steps and the error bound.

    Parameters
    ----------
    frame
        Curve rows, in drawing order within each group.
    x, y
        The drawn coordinates.
    by
        Group columns: one line per group.
    max_points
        Row budget for the whole frame (shared evenly by the groups, at least `min_points`
        each).
    span
        Drawn extent of the x and y axes: distances are measured in these units.
    exact
        Columns that are exact linear images of `x` and `y` per group (e.g. ``("fp", "tp")``
        for an ROC curve), used for the collinearity test.
    min_points
        Points each group keeps at least: 4 (the default), or 3 (the ends and the point
        farthest from the chord between them) or 2 (the ends) when many groups must share a
        small budget (see :func:`budget`).
    """
    if max_points < 4:
        msg = f"max_points must be at least 4, got {max_points!r}\n\nHint: max_points=2000."
        raise ValueError(msg)
    if frame.height <= max_points:
        return frame
    part = list(by)

    def over(expr: pl.Expr) -> pl.Expr:
        return expr.over(part) if part else expr

    ex, ey = exact or (x, y)
    back_x, back_y = over(pl.col(ex) - pl.col(ex).shift(1)), over(pl.col(ey) - pl.col(ey).shift(1))
    ahead_x = over(pl.col(ex).shift(-1) - pl.col(ex))
    ahead_y = over(pl.col(ey).shift(-1) - pl.col(ey))
    cross = back_x * ahead_y - back_y * ahead_x
    dot = back_x * ahead_x + back_y * ahead_y
    collinear = ((cross == 0) & (dot >= 0)).fill_null(False)
    kept = frame.filter(~collinear)
    if kept.height <= max_points:
        return kept

    n_groups = kept.select(part).n_unique() if part else 1
    if min_points < 4 and max_points // n_groups < 4:
        return corners(kept, x, y, part, min_points, over)
    steps = buckets(max_points, n_groups, min_points)
    wide = tuple(s if s > 0 else 1.0 for s in span)
    step = over(pl.col(x).diff()).abs() / wide[0] + over(pl.col(y).diff()).abs() / wide[1]
    arc = kept.select(*part, _arc=over(step.fill_null(0.0).fill_nan(0.0).cum_sum()))
    length = over(pl.col("_arc").max())
    arc = arc.with_columns(
        _bucket=pl.when(length > 0).then((pl.col("_arc") * steps / length).floor())
    )
    bucket = pl.col("_bucket")
    index = over(pl.int_range(pl.len()))
    edge = (index == 0) | (index == over(pl.len()) - 1)
    change = (bucket != over(bucket.shift(1))) | (bucket != over(bucket.shift(-1)))
    keep = arc.select(edge | change.fill_null(False)).to_series()
    return kept.filter(keep)


def corners(
    frame: pl.DataFrame, x: str, y: str, part: list[str], points: int, over: Any
) -> pl.DataFrame:
    """Each group's two ends, and with ``points=3`` the point farthest from their chord."""
    index = over(pl.int_range(pl.len()))
    edge = (index == 0) | (index == over(pl.len()) - 1)
    if points < 3:
        return frame.filter(edge)
    x0, y0 = over(pl.col(x).first()), over(pl.col(y).first())
    dx, dy = over(pl.col(x).last()) - x0, over(pl.col(y).last()) - y0
    far = ((pl.col(x) - x0) * dy - (pl.col(y) - y0) * dx).abs().fill_nan(0.0).fill_null(0.0)
    knee = index == over(far.arg_max())
    return frame.filter(edge | knee)


def drawing_order(
    frame: pl.DataFrame, by: Sequence[str], keys: Sequence[str], descending: Sequence[bool]
) -> pl.DataFrame:
    """
    `frame` with each group's rows in drawing order: sorted by `keys` (lexicographically).

    Frames the `.roc` methods return are already in order; that is checked in one pass and
    the sort skipped.
    """
    part = list(by)
    ok: pl.Expr = pl.lit(True)
    for key, down in reversed(list(zip(keys, descending, strict=True))):
        step = pl.col(key).diff()
        step = (step.over(part) if part else step) * (-1 if down else 1)
        ok = (step > 0) | ((step == 0) & ok)
    if frame.select(ok.fill_null(True).all()).item():
        return frame
    return frame.sort([*part, *keys], descending=[False] * len(part) + list(descending))
