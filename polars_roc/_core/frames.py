"""Frames in, frames out: a function given a DataFrame returns a DataFrame.

Every frame function is written once, lazily (LazyFrame in, LazyFrame out). `same_kind`
lets it take an eager frame too: it runs the lazy query and collects once.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

import polars as pl

from polars_roc._core.names import private_by

F = TypeVar("F", bound=Callable[..., Any])


def same_kind(function: F) -> F:
    """
    Make a LazyFrame function return a DataFrame when its first argument is one.

    Its `by` columns also run under reserved names (:func:`~polars_roc._core.names.private_by`).

    Examples
    --------
    >>> import polars as pl
    >>> @same_kind
    ... def double(lf: pl.LazyFrame) -> pl.LazyFrame:
    ...     return lf.select(pl.col("x") * 2)
    >>> type(double(pl.DataFrame({"x": [1]}))).__name__
    'DataFrame'
    >>> type(double(pl.LazyFrame({"x": [1]}))).__name__
    'LazyFrame'
    """

    inner = private_by(function)  # `by` columns never collide with the function's own

    @functools.wraps(function)
    def run(frame: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(frame, pl.DataFrame):
            return inner(frame.lazy(), *args, **kwargs).collect()
        return inner(frame, *args, **kwargs)

    return cast(F, run)
