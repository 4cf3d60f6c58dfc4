"""What differs between the Polars versions we support, in one place.

Polars 1.x lets its optimizer push projections, filters and slices through a
``LazyFrame.map_batches`` (the default was flipped to off in 2.0): the function then sees a
frame without the columns it reads. Every whole-frame function here runs through
:func:`opaque`, which turns those pushdowns off on every version.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import polars as pl


def opaque(
    frame: pl.LazyFrame,
    function: Callable[[pl.DataFrame], pl.DataFrame],
    *,
    schema: Any = None,
) -> pl.LazyFrame:
    """
    Run `function` on the whole collected frame, with no optimization passing through it.

    Examples
    --------
    >>> import polars as pl
    >>> lf = pl.LazyFrame({"a": [1, 2], "b": [3, 4]})
    >>> opaque(lf, lambda df: df.with_columns(a=df["a"] + df["b"])).select("a").collect()
    shape: (2, 1)
    ┌─────┐
    │ a   │
    │ --- │
    │ i64 │
    ╞═════╡
    │ 4   │
    │ 6   │
    └─────┘
    """
    return frame.map_batches(
        function,
        schema=schema,
        predicate_pushdown=False,
        projection_pushdown=False,
        slice_pushdown=False,
    )
