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

import polars as pl


def buckets(max_points: int, n_groups: int) -> int:
    """Number of arc-length steps per group for a budget of `max_points` in all."""
    share = max(4, max_points // max(n_groups, 1))
    return max(1, share // 2 - 1)


def thin(
    frame: pl.DataFrame,
    x: str,
    y: str,
    *,
    by: Sequence[str] = (),
    max_points: int = 2000,
    span: tuple[float, float] = (1.0, 1.0),
    exact: tuple[str, str] | None = None,
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
        Row budget for the whole frame (shared evenly by the groups, at least 4 each).
    span
        Drawn extent of the x and y axes: distances are measured in these units.
    exact
        Columns that are exact linear images of `x` and `y` per group (e.g. ``("fp", "tp")``
        for an ROC curve), used for the collinearity test.
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
    steps = buckets(max_points, n_groups)
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
