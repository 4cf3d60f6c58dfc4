"""The `segment` argument of the segment analyses: checked once, then run under a reserved name.

A segment column splits each `by` group into segments (regions, channels, cohorts). It is a
role like `score` or `label`: it must exist, and it cannot also be a `by` group or another
role. :func:`checked` checks that at call time from the schema, before the `by` columns are
renamed (:func:`polars_roc._core.names.private_by`), so the messages name the user's columns.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar, cast

import polars as pl

from polars_roc._core import validate
from polars_roc._core.names import fresh

F = TypeVar("F", bound=Callable[..., Any])

#: Base of the reserved name the segment column takes inside a computation.
KEY = "__roc_segment"


def checked(function: F) -> F:
    """
    Check a segment function's `segment` argument against the frame's schema at call time.

    Examples
    --------
    >>> import polars as pl
    >>> @checked
    ... def f(lf, score="score", label="label", *, segment, by=None):
    ...     return lf
    >>> f(pl.LazyFrame({"score": [0.5], "label": [1], "g": ["a"]}), segment="g", by="g")
    Traceback (most recent call last):
    ...
    ValueError: segment column 'g' is also a `by` column: ...
    """
    signature = inspect.signature(function)

    @functools.wraps(function)
    def run(*args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        arguments = bound.arguments
        frame = next(iter(arguments.values()))
        segment = arguments["segment"]
        if isinstance(frame, pl.LazyFrame | pl.DataFrame):
            schema = frame.collect_schema()
            validate.column(schema, segment, "segment")
            _, names = validate.by_expressions(frame.lazy(), arguments.get("by"))
            by = validate.as_names(names)
            if segment in by:
                msg = (
                    f"segment column {segment!r} is also a `by` column: a column cannot be "
                    f"both\n\nHint: drop {segment!r} from by= (the segments are compared "
                    f"within each `by` group)."
                )
                raise ValueError(msg)
            for role in ("score", "label", "weight"):
                if arguments.get(role) == segment:
                    msg = (
                        f"segment column {segment!r} is already the {role} column"
                        f"\n\nHint: pass segment=<the column naming each row's segment>."
                    )
                    raise ValueError(msg)
        return function(*args, **kwargs)

    return cast(F, run)


def keyed(lf: pl.LazyFrame, segment: str) -> tuple[pl.LazyFrame, str]:
    """
    The frame with the segment column copied under a reserved name, and that name.

    Examples
    --------
    >>> import polars as pl
    >>> frame, key = keyed(pl.LazyFrame({"g": ["a"]}), "g")
    >>> key, frame.collect_schema().names()
    ('__roc_segment', ['g', '__roc_segment'])
    """
    key = fresh(KEY, lf.collect_schema().names())
    return lf.with_columns(pl.col(segment).alias(key)), key
