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

from polars_roc._core import checks, validate
from polars_roc._core.labels import into_expr

Direction = Literal["higher", "lower"]
F = TypeVar("F", bound=Callable[..., Any])

#: Output columns in score units: negated back under ``direction="lower"``.
SCORE_UNITS = ("threshold", "op_threshold", "threshold_a", "threshold_b")
#: Pairs of bounds in score units, which swap when negated.
SCORE_BOUNDS = (("min_score", "max_score"), ("threshold_lower", "threshold_upper"))
#: The signed integer type that holds the negation of every value of an unsigned type.
WIDER: dict[pl.DataType, pl.DataType] = {
    pl.UInt8(): pl.Int16(),
    pl.UInt16(): pl.Int32(),
    pl.UInt32(): pl.Int64(),
    pl.UInt64(): pl.Int128(),
}
#: Each signed integer type's minimum, which has no negation in the type, and the type to
#: cast such a score to first.
SIGNED_MINIMUM: dict[pl.DataType, tuple[int, str]] = {
    pl.Int8(): (-(2**7), "Int16"),
    pl.Int16(): (-(2**15), "Int32"),
    pl.Int32(): (-(2**31), "Int64"),
    pl.Int64(): (-(2**63), "Int128"),
    pl.Int128(): (-(2**127), "Float64"),
}


def flips(direction: Any) -> bool:
    """Check `direction` and say whether the score is negated (``"lower"``)."""
    if direction not in ("higher", "lower"):
        msg = (
            f"direction must be 'higher' or 'lower', got {direction!r}\n\nHint: "
            f"direction='lower' when a lower score means positive (it is never guessed)."
        )
        raise ValueError(msg)
    return bool(direction == "lower")


def negated(score: pl.Expr, dtype: pl.DataType | None = None) -> pl.Expr:
    """
    The score negated exactly, in a type that holds every negation; `dtype` when known.

    ``-score`` in the score's own type is not exact everywhere: unsigned types have no
    negation, Float64 ties integers beyond 2**53, and a signed type's minimum has no
    negation in it (``-(-128)`` wraps to ``-128`` in Int8). So an unsigned score is negated
    in the signed type holding its negation (:data:`WIDER`); a signed one in its own type,
    after a check in the query that refuses its minimum by name (a sentinel more often
    than a score); floats and decimals in their own type. A bare expression's dtype is
    known only when the query runs: it is subtracted from an Int8 zero (whose supertype
    with the score is one of the above), after a check that also refuses a non-numeric
    score by name. The name is kept.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"s": pl.Series([0, 255], dtype=pl.UInt8)})
    >>> df.select(negated(pl.col("s"), pl.UInt8)).to_series().to_list()
    [0, -255]
    >>> df.select(negated(pl.col("s"))).to_series().dtype  # the dtype left to the query
    Int16
    """
    name = checks.name_of(score, "score")
    if dtype is None or dtype.is_signed_integer():
        ok = score.map_batches(_negatable(name), return_dtype=pl.Boolean, is_elementwise=True)
        score = pl.when(ok).then(score)
    if dtype is None:
        return (pl.lit(0, dtype=pl.Int8) - score).alias(name)
    if not dtype.is_integer():
        return -score
    wider = WIDER.get(dtype, dtype)
    # A subtraction: Polars has no unary minus for Int128 (nor for unsigned types).
    return (pl.lit(0, dtype=wider) - score.cast(wider)).alias(name)


def _negatable(name: str) -> Callable[[pl.Series], pl.Series]:
    """An elementwise check that a score column is numeric and can be negated exactly."""

    def check(values: pl.Series) -> pl.Series:
        dtype = values.dtype
        validate.score_type(name, dtype, swapped=dtype == pl.Boolean)
        low, wider = SIGNED_MINIMUM.get(dtype, (None, ""))
        if low is not None and (values == low).any():
            msg = (
                f"score column {name!r} holds {low}, the minimum of {dtype}, which has no "
                f"negation in {dtype}, so direction='lower' cannot rank it exactly\n\n"
                f"Hint: cast the score to a wider type first, e.g. "
                f"pl.col({name!r}).cast(pl.{wider}), or replace the value if it marks a "
                f"missing score."
            )
            raise ValueError(msg)
        return pl.repeat(True, values.len(), dtype=pl.Boolean, eager=True)

    return check


def scored(lf: pl.LazyFrame, score: str, direction: Direction) -> pl.LazyFrame:
    """
    The rows with the score negated under ``"lower"`` (unchanged under ``"higher"``).

    Only a numeric score is negated, exactly (:func:`negated`); any other column is left
    for the role checks to refuse with their usual message.

    Examples
    --------
    >>> import polars as pl
    >>> lf = pl.LazyFrame({"score": [1, 3], "label": [0, 1]})
    >>> scored(lf, "score", "lower").collect()["score"].to_list()
    [-1, -3]
    """
    if not flips(direction):
        return lf
    dtype = lf.collect_schema().get(score) if isinstance(score, str) else None
    if dtype is None or not dtype.is_numeric() or dtype == pl.Boolean:
        return lf
    return lf.with_columns(negated(pl.col(score), dtype))


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
    schema = lf.collect_schema()
    names = schema.names()

    def back(name: str) -> pl.Expr:
        # 0.0 - x, not -x: the threshold of a score of 0 is 0, never -0.0.
        dtype = schema[name]
        return pl.lit(0.0, dtype=dtype) - pl.col(name) if dtype.is_float() else -pl.col(name)

    columns = {name: back(name) for name in SCORE_UNITS if name in names}
    for low, high in SCORE_BOUNDS:
        if low in names and high in names:
            columns[low], columns[high] = back(high), back(low)
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
    """
    The score as an expression, negated exactly under ``"lower"``.

    The score's dtype is checked before the negation (a Boolean or text score is refused
    by name, as under ``"higher"``, rather than turned into numbers).

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"s": pl.Series([0, 255], dtype=pl.UInt8)})
    >>> df.select(expression("s", "lower")).to_series().to_list()
    [0, -255]
    """
    expr = into_expr(score)
    if not flips(direction):
        return expr
    return negated(expr)


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
