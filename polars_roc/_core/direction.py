"""Score direction: which end of the score points to the positive class. Never guessed.

``direction="higher"`` (the default) means a higher score is more likely positive;
``"lower"`` means a lower score is, and is the same as negating the score. Every analysis
runs on the negated score (:func:`scored`, :func:`expression`) and hands its thresholds
back in the score's own units (:func:`restored`): with ``"lower"`` a row is predicted
positive iff ``score <= threshold``, thresholds run from the lowest score up, and the row
that predicts nothing sits at ``threshold=-inf``. Guessing the direction from the data (as
pROC's ``direction="auto"`` does) biases the AUC upwards, so it is always the caller's.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any, Literal, TypeVar, cast

import polars as pl
from polars._typing import IntoExprColumn

from polars_roc._core.labels import into_expr

Direction = Literal["higher", "lower"]
F = TypeVar("F", bound=Callable[..., Any])

#: Output columns in score units: negated back under ``direction="lower"``.
SCORE_UNITS = ("threshold", "op_threshold", "threshold_a", "threshold_b")
#: Pairs of bounds in score units, which swap when negated.
SCORE_BOUNDS = (("min_score", "max_score"), ("threshold_lower", "threshold_upper"))


def flips(direction: Any) -> bool:
    """Check `direction` and say whether the score is negated (``"lower"``)."""
    if direction not in ("higher", "lower"):
        msg = (
            f"direction must be 'higher' or 'lower', got {direction!r}\n\nHint: "
            f"direction='lower' when a lower score means positive (it is never guessed)."
        )
        raise ValueError(msg)
    return bool(direction == "lower")


def scored(lf: pl.LazyFrame, score: str, direction: Direction) -> pl.LazyFrame:
    """
    The rows with the score negated under ``"lower"`` (unchanged under ``"higher"``).

    Only a numeric score is negated (as Float64, unsigned integers included); any other
    column is left for the role checks to refuse with their usual message.

    Examples
    --------
    >>> import polars as pl
    >>> lf = pl.LazyFrame({"score": [1, 3], "label": [0, 1]})
    >>> scored(lf, "score", "lower").collect()["score"].to_list()
    [-1.0, -3.0]
    """
    if not flips(direction):
        return lf
    schema = lf.collect_schema()
    dtype = schema.get(score) if isinstance(score, str) else None
    if dtype is None or not dtype.is_numeric() or dtype == pl.Boolean:
        return lf
    return lf.with_columns(-pl.col(score).cast(pl.Float64))


def restored(lf: pl.LazyFrame, direction: Direction) -> pl.LazyFrame:
    """
    Thresholds back in the score's units: negate them (and swap bounds) under ``"lower"``.

    Examples
    --------
    >>> import polars as pl
    >>> lf = pl.LazyFrame({"threshold": [float("inf"), -3.0], "min_score": [-3.0, -3.0],
    ...                    "max_score": [-1.0, -1.0]})
    >>> restored(lf, "lower").collect().row(1)
    (3.0, 1.0, 3.0)
    """
    if not flips(direction):
        return lf
    names = lf.collect_schema().names()
    columns = {name: -pl.col(name) for name in SCORE_UNITS if name in names}
    for low, high in SCORE_BOUNDS:
        if low in names and high in names:
            columns[low], columns[high] = -pl.col(high), -pl.col(low)
    return lf.with_columns(**columns) if columns else lf


def thresholds(values: Any, direction: Direction) -> Any:
    """A ``thresholds=`` list in score units, negated under ``"lower"``; schemes unchanged."""
    if not flips(direction):
        return values
    if isinstance(values, pl.Series):
        return -values
    if isinstance(values, str) or not isinstance(values, Sequence):
        return values
    return [-v if isinstance(v, int | float) and not isinstance(v, bool) else v for v in values]


def expression(score: IntoExprColumn, direction: Direction) -> pl.Expr:
    """The score as an expression, negated under ``"lower"``."""
    expr = into_expr(score)
    return -expr if flips(direction) else expr


def directed(function: F) -> F:
    """
    Give a frame function (frame first, `score` and `direction` arguments) its direction.

    Under ``direction="lower"`` the function runs on the negated score (and negated
    ``thresholds=`` values) and its thresholds come back in score units; the function body
    itself only ever sees ``"higher"``.

    Examples
    --------
    >>> import polars as pl
    >>> @directed
    ... def top(lf: pl.LazyFrame, score: str = "score", *, direction: Direction = "higher"):
    ...     return lf.select(threshold=pl.col(score).max())
    >>> top(pl.LazyFrame({"score": [1.0, 3.0]}), direction="lower").collect().item()
    1.0
    """
    signature = inspect.signature(function)
    frame = next(iter(signature.parameters))

    @functools.wraps(function)
    def run(*args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        direction = bound.arguments["direction"]
        if not flips(direction):
            return function(*args, **kwargs)
        arguments = bound.arguments
        arguments[frame] = scored(arguments[frame], arguments["score"], direction)
        if "thresholds" in arguments:
            arguments["thresholds"] = thresholds(arguments["thresholds"], direction)
        arguments["direction"] = "higher"
        return restored(function(*bound.args, **bound.kwargs), direction)

    return cast(F, run)
