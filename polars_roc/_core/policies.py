"""Per-call policies on a frame function's score and label columns, applied once for all.

`nan_policy` (scipy's convention) and the positive class's presence are properties of the
input columns, not of any one analysis: :func:`column_policies` applies them to the frame
before the function runs, with the same coding-layer expressions the scalar kernels use
(:mod:`polars_roc._core.checks`), so every frame function that takes a score honours them.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar, cast

import polars as pl

from polars_roc._core import checks

F = TypeVar("F", bound=Callable[..., Any])


def column_policies(function: F) -> F:
    """
    Apply `nan_policy` to the score column and check that `pos_label` occurs in the label.

    ``nan_policy="omit"`` sets NaN scores to null (dropped like nulls), ``"raise"`` refuses
    them when the query runs, naming the column and the count; ``"propagate"`` leaves them
    (the group's result is null). An explicit `pos_label` that no row of the label column
    holds raises when the query runs, listing the labels found. The function itself never
    sees `nan_policy`.

    Examples
    --------
    >>> import polars as pl
    >>> @column_policies
    ... def mean(lf: pl.LazyFrame, score: str = "s", *, nan_policy: str = "propagate"):
    ...     return lf.select(pl.col(score).mean())
    >>> frame = pl.LazyFrame({"s": [1.0, float("nan"), 3.0]})
    >>> mean(frame, nan_policy="omit").collect().item()
    2.0
    """
    signature = inspect.signature(function)
    parameters = signature.parameters
    if "score" not in parameters and "pos_label" not in parameters:
        return function

    @functools.wraps(function)
    def run(frame: Any, *args: Any, **kwargs: Any) -> Any:
        policy = checks.nan_policy(kwargs.pop("nan_policy", "propagate"))
        if not isinstance(frame, pl.LazyFrame):
            return function(frame, *args, **kwargs)
        if policy == "propagate" and kwargs.get("pos_label") is None:
            return function(frame, *args, **kwargs)  # nothing to apply: no schema read
        bound = signature.bind_partial(frame, *args, **kwargs)
        bound.apply_defaults()
        score, label = bound.arguments.get("score"), bound.arguments.get("label")
        pos_label = bound.arguments.get("pos_label")
        schema = frame.collect_schema()
        adjusted = []
        if policy != "propagate" and isinstance(score, str) and score in schema:
            adjusted.append(checks.apply_nan_policy(pl.col(score), policy, score))
        if pos_label is not None and isinstance(label, str) and label in schema:
            adjusted.append(checks.present(pl.col(label), pos_label, label, schema[label]))
        if adjusted:
            frame = frame.with_columns(adjusted)
        return function(frame, *args, **kwargs)

    return cast(F, run)
