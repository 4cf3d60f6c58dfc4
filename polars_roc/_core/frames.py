"""Frames in, frames out: a function given a DataFrame returns a DataFrame.

Every frame function is written once, lazily (LazyFrame in, LazyFrame out). `same_kind`
lets it take an eager frame too: it runs the lazy query and collects once.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar, cast, overload

import polars as pl

from polars_roc._core.names import private_by
from polars_roc._core.policies import column_policies
from polars_roc._core.validate import by_expressions, plain

P = ParamSpec("P")


class SameKind(Protocol[P]):
    """A frame function as type checkers see it: a DataFrame in gives a DataFrame out."""

    @overload
    def __call__(
        self, frame: pl.DataFrame, /, *args: P.args, **kwargs: P.kwargs
    ) -> pl.DataFrame: ...

    @overload
    def __call__(
        self, frame: pl.LazyFrame, /, *args: P.args, **kwargs: P.kwargs
    ) -> pl.LazyFrame: ...


def same_kind(function: Callable[Concatenate[pl.LazyFrame, P], pl.LazyFrame]) -> SameKind[P]:
    """
    Make a LazyFrame function return a DataFrame when its first argument is one.

    A function marked :func:`in_memory` is collected by Polars' in-memory engine.

    Expressions in its `by` become columns first, named by their output names
    (:func:`~polars_roc._core.validate.by_expressions`). Its `by` columns also run under
    reserved names (:func:`~polars_roc._core.names.private_by`),
    and `nan_policy` and the positive class's presence are applied once, to the input
    columns (:func:`~polars_roc._core.policies.column_policies`).

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
    # `by` columns never collide with the function's own; NaN policy and pos_label checked.
    inner = private_by(column_policies(function))

    @functools.wraps(function)
    def run(frame: Any, *args: Any, **kwargs: Any) -> Any:
        # NumPy numbers and arrays mean what Python numbers and lists do (never a Float32 lit).
        args = tuple(plain(a) for a in args)
        kwargs = {name: plain(value) for name, value in kwargs.items()}
        lazy = frame.lazy() if isinstance(frame, pl.DataFrame) else frame
        if "by" in kwargs and isinstance(lazy, pl.LazyFrame):
            lazy, kwargs["by"] = by_expressions(lazy, kwargs["by"])
        if isinstance(frame, pl.DataFrame):
            return collected(inner(lazy, *args, **kwargs), function)
        return inner(lazy, *args, **kwargs)

    return cast(SameKind[P], run)


#: The attribute :func:`in_memory` sets on a function.
ENGINE = "_polars_roc_engine"

F = TypeVar("F", bound=Callable[..., Any])


def in_memory(function: F) -> F:
    """
    Collect `function`'s eager calls with Polars' in-memory engine (results are the same).

    For functions whose work runs in one Python callback over the whole frame: under the
    streaming engine the callback holds one of Polars' threads while its own Polars calls
    need them all (on 2 cores, half the machine).

    Examples
    --------
    >>> @in_memory
    ... def f() -> None: ...
    >>> getattr(f, ENGINE)
    'in-memory'
    """
    setattr(function, ENGINE, "in-memory")
    return function


def collected(query: pl.LazyFrame, function: Callable[..., Any]) -> pl.DataFrame:
    """
    `function`'s `query` collected (by the engine :func:`in_memory` chose), errors trimmed.

    Examples
    --------
    >>> import polars as pl
    >>> collected(pl.LazyFrame({"x": [1]}), print).height
    1
    """
    try:
        return query.collect(engine=getattr(function, ENGINE, "auto"))
    except Exception as error:  # our message, without Polars' dump of the query plan
        raise trimmed(error) from None


#: Where Polars starts appending the expression an error occurred in.
DUMP = "\n\nThis error occurred in the following expression:"


def trimmed(error: Exception) -> Exception:
    """
    The same error without the (often thousands of characters long) expression dump.

    Examples
    --------
    >>> trimmed(ValueError("bad label" + DUMP + " col('y')..."))
    ValueError('bad label')
    """
    message = str(error)
    if DUMP not in message:
        return error
    try:
        return type(error)(message.split(DUMP)[0])
    except Exception:  # an exception type that needs other arguments: keep it whole
        return error
