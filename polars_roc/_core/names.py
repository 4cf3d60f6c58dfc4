"""Group columns kept apart from the package's own columns.

Every frame function names columns of its own: outputs (``tpr``, ``auc``, ``threshold``)
and internal helpers (``_positives``, ``_gid``). A `by` column named like one of them would
overwrite it or collide with it. :func:`private_by` renames the `by` columns to reserved
names not in the frame for the duration of the call and back in the result, so internal
columns can never collide with the user's; an *output* column equal to a `by` column is
an error at call time naming both.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar, cast

import polars as pl

from polars_roc._core import validate

F = TypeVar("F", bound=Callable[..., Any])

#: Prefix of the reserved names the `by` columns take during a call.
PREFIX = "__roc_by"

#: Parameters that name a column of the frame (a column cannot be both one and a group).
ROLES = (
    "score",
    "label",
    "weight",
    "fold",
    "model",
    "case",
    "across",
    "prediction",
    "truth",
    "pred",
    "fpr",
    "tpr",
    "name",
)


def reserved(names: list[str], taken: list[str]) -> list[str]:
    """
    One reserved name per group column, none of them in `taken`.

    Examples
    --------
    >>> reserved(["tpr", "g"], ["tpr", "g", "__roc_by0"])
    ['__roc_by_0', '__roc_by_1']
    """
    prefix = PREFIX
    while any(column.startswith(prefix) for column in taken):
        prefix += "_"
    return [f"{prefix}{i}" for i in range(len(names))]


def fresh(base: str, taken: list[str]) -> str:
    """
    `base`, lengthened with underscores until no column in `taken` has that name.

    Examples
    --------
    >>> fresh("__roc_case", ["__roc_case", "score"])
    '__roc_case_'
    """
    name = base
    while name in taken:
        name += "_"
    return name


def _check_roles(bound: inspect.BoundArguments, names: list[str]) -> None:
    for role in ROLES:
        value = bound.arguments.get(role)
        if isinstance(value, str) and value in names:
            msg = (
                f"{role} column {value!r} is already the by column: a column cannot be both "
                f"a role and a `by` group"
                f"\n\nHint: drop {value!r} from by=, or pass another {role}= column."
            )
            raise ValueError(msg)


def _rename(frame: Any, mapping: dict[str, str]) -> Any:
    if isinstance(frame, pl.LazyFrame | pl.DataFrame):
        present = {old: new for old, new in mapping.items() if old in frame.collect_schema()}
        return frame.rename(present)
    return frame


def private_by(function: F) -> F:
    """
    Run a frame function with its `by` columns under reserved names.

    The result's columns are checked at call time (from the schema, no data read): an
    output column named like a `by` column raises a ValueError naming both. Functions
    without a `by` parameter are returned unchanged.

    Examples
    --------
    >>> import polars as pl
    >>> @private_by
    ... def count(lf: pl.LazyFrame, *, by: list[str]) -> pl.LazyFrame:
    ...     return lf.group_by(by).agg(n=pl.len())
    >>> count(pl.LazyFrame({"n": ["a", "a"]}), by=["g"])
    Traceback (most recent call last):
    ...
    polars.exceptions.ColumnNotFoundError: by column 'g' not found; ...
    >>> count(pl.LazyFrame({"g": ["a", "a"]}), by=["g"]).collect().rows()
    [('a', 2)]
    >>> count(pl.LazyFrame({"n": ["a", "a"]}), by=["n"])
    Traceback (most recent call last):
    ...
    ValueError: output column 'n' of count() collides with the `by` column 'n'...
    """
    signature = inspect.signature(function)
    if "by" not in signature.parameters:
        return function

    @functools.wraps(function)
    def run(frame: Any, *args: Any, **kwargs: Any) -> Any:
        names = validate.as_names(kwargs.get("by"))
        if not names or not isinstance(frame, pl.LazyFrame):
            return function(frame, *args, **kwargs)
        if all(name.startswith(PREFIX) for name in names):  # an inner call: already private
            return function(frame, *args, **kwargs)
        schema = frame.collect_schema()
        for name in names:
            validate.column(schema, name, "by")
        bound = signature.bind_partial(frame, *args, **kwargs)
        bound.apply_defaults()
        _check_roles(bound, names)
        private = reserved(names, list(schema))
        mapping = dict(zip(names, private, strict=True))
        if isinstance(kwargs.get("points"), pl.LazyFrame | pl.DataFrame):
            kwargs["points"] = _rename(kwargs["points"], mapping)
        result = function(frame.rename(mapping), *args, **{**kwargs, "by": private})
        clash = [column for column in result.collect_schema() if column in mapping]
        if clash:
            msg = (
                f"output column {clash[0]!r} of {function.__name__}() collides with the `by` "
                f"column {clash[0]!r}: the result cannot hold both\n\nHint: rename the group "
                f"column first, e.g. .rename({{{clash[0]!r}: {clash[0] + '_group'!r}}})."
            )
            raise ValueError(msg)
        return result.rename({new: old for old, new in mapping.items()})

    return cast(F, run)
