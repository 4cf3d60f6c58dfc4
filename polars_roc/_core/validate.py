"""Schema and argument checks: read the schema only, never the data."""

from __future__ import annotations

import difflib
import math
import numbers
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import polars as pl
from polars.exceptions import ColumnNotFoundError, SchemaError

#: Groups: a column name, an expression (named by its output name), or a list of either.
By = str | pl.Expr | Sequence[str | pl.Expr] | None


def plain(value: Any) -> Any:
    """
    NumPy numbers and arrays as the Python numbers and lists they hold; the rest unchanged.

    Goes into lists, tuples and mappings (keys too), so ``(np.float32(0), 0.2)`` and
    ``{(np.int64(0), 1): 5}`` come out plain; frames and Series are left alone.

    Examples
    --------
    >>> import numpy as np
    >>> plain(np.float32(0.5)), plain(np.array([1, 2])), plain((np.int64(3), "a"))
    (0.5, [1, 2], (3, 'a'))
    """
    if isinstance(value, np.generic | np.ndarray):
        return value.tolist()  # a NumPy scalar or 0-d array gives a Python scalar
    if isinstance(value, list | tuple):
        return type(value)(plain(item) for item in value)
    if isinstance(value, Mapping):
        return {plain(key): plain(item) for key, item in value.items()}
    return value


def is_integer(value: Any) -> bool:
    """Whether `value` is an integer, Python's or NumPy's (a bool is not)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool | np.bool_)


def is_real(value: Any) -> bool:
    """Whether `value` is a real number, Python's or NumPy's (a bool is not)."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool | np.bool_)


def as_names(by: By) -> list[str]:
    """
    Normalize `by` (None, a name, or a list of names) to a list of names.

    Expressions in `by` are turned into columns first (:func:`by_expressions`); here they
    are an error.
    """
    if by is None:
        return []
    if isinstance(by, str):
        return [by]
    if isinstance(by, pl.Expr | pl.Series):
        msg = (
            f'`by` takes column names here, not {type(by).__name__} {by!s}\n\nHint: pass by="g" '
            f"(or a list of names); add a computed group with .with_columns() first."
        )
        raise TypeError(msg)
    items = list(by)
    names = [name for name in items if isinstance(name, str)]
    if len(names) != len(items):
        msg = (
            f"`by` must be a column name, an expression or a list of them, got {by!r}"
            f'\n\nHint: by="segment" or '
            f'by=[pl.col("age").bin_quantiles(4, labels=False), "segment"].'
        )
        raise TypeError(msg)
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        msg = f"`by` names column(s) {twice} more than once: {names}\n\nHint: list each once."
        raise ValueError(msg)
    return names


def by_expressions(lf: pl.LazyFrame, by: Any) -> tuple[pl.LazyFrame, Any]:
    """
    Expressions in `by` added as columns (``with_columns``), and `by` as their output names.

    The same frame and names as ``lf.with_columns(*expressions)`` then ``by=<names>``: one
    place turns expression groups into named ones, so every frame function takes them. A
    `by` without expressions comes back as it is.

    Examples
    --------
    >>> lf = pl.LazyFrame({"x": [1, 5, 9], "g": ["a", "b", "a"]})
    >>> frame, names = by_expressions(lf, [(pl.col("x") > 4).alias("big"), "g"])
    >>> names, frame.collect()["big"].to_list()
    (['big', 'g'], [False, True, True])
    >>> by_expressions(lf, "g")[1]
    'g'
    """
    items = [by] if isinstance(by, pl.Expr) else by
    if not isinstance(items, list | tuple) or not any(isinstance(i, pl.Expr) for i in items):
        return lf, by
    names: list[Any] = []
    for item in items:  # an expression's output names, from the schema (no data read)
        names.extend(
            lf.select(item).collect_schema().names() if isinstance(item, pl.Expr) else [item]
        )
    return lf.with_columns(i for i in items if isinstance(i, pl.Expr)), names


def column(schema: pl.Schema, name: str, role: str) -> pl.DataType:
    """Return the dtype of `name`, or raise naming the role and the closest columns."""
    if not isinstance(name, str):
        msg = f"the {role} column must be given by name (a str), got {name!r}"
        raise TypeError(msg)
    if name not in schema:
        close = difflib.get_close_matches(name, list(schema), n=3)
        hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
        msg = (
            f"{role} column {name!r} not found; the frame has {list(schema)}."
            f"{hint}\n\nHint: pass {role}=<column name>."
        )
        raise ColumnNotFoundError(msg)
    return schema[name]


def is_label_dtype(dtype: pl.DataType) -> bool:
    """Whether `dtype` can hold class labels (Boolean, integer, float, string, categorical)."""
    return (
        dtype == pl.Boolean
        or dtype.is_numeric()
        or isinstance(dtype, pl.String | pl.Categorical | pl.Enum)
    )


def score_type(name: str, dtype: pl.DataType, *, swapped: bool = False) -> None:
    """
    Refuse a score column that is not numeric (Decimal included) or is Boolean.

    `swapped` adds the likely cause: the label column looks like a score.

    Examples
    --------
    >>> score_type("p", pl.Float32)
    """
    if not dtype.is_numeric() or dtype == pl.Boolean:
        hint = " (did you swap score and label?)" if swapped else ""
        msg = (
            f"score column {name!r} has dtype {dtype}, expected a numeric score{hint}"
            f"\n\nHint: pass score=<numeric column>, label=<class column>."
        )
        raise SchemaError(msg)


def label_type(name: str, dtype: pl.DataType, pos_label: Any) -> None:
    """
    Refuse a label column that cannot hold classes, or a float one without `pos_label`.

    Examples
    --------
    >>> label_type("y", pl.Boolean, None)
    """
    if not is_label_dtype(dtype):
        msg = (
            f"label column {name!r} has dtype {dtype}, expected Boolean, integer, "
            f"string or categorical\n\nHint: pass label=<class column>."
        )
        raise SchemaError(msg)
    if dtype.is_float() and pos_label is None:
        msg = (
            f"label column {name!r} has dtype {dtype}: it looks like a score "
            f"(did you swap score and label?)\n\nHint: pass score=<score column>, "
            f"label=<class column>, or pos_label= to use float class codes."
        )
        raise SchemaError(msg)


def roles(
    schema: pl.Schema,
    *,
    score: str,
    label: str,
    by: Sequence[str] = (),
    weight: str | None = None,
    pos_label: Any = None,
) -> None:
    """
    Check the column roles against a schema: present, of a usable type, not swapped.

    Raises
    ------
    ColumnNotFoundError
        A role names a column the frame does not have.
    SchemaError
        The score or weight column is not numeric, or the label is not a label type.
    """
    score_dtype = column(schema, score, "score")
    label_dtype = column(schema, label, "label")
    for name in by:
        column(schema, name, "by")
    overlap = {score, label} & set(by)
    if overlap:
        msg = f"column(s) {sorted(overlap)} cannot be both a role and a `by` group"
        raise ValueError(msg)
    score_type(score, score_dtype, swapped=label_dtype.is_float())
    label_type(label, label_dtype, pos_label)
    if isinstance(label_dtype, pl.Enum) and pos_label is not None:
        categories = label_dtype.categories.to_list()
        if pos_label not in categories:
            msg = (
                f"pos_label {pos_label!r} is not a category of label column {label!r}: {categories}"
            )
            raise ValueError(msg)
    if isinstance(label_dtype, pl.Enum) and pos_label is None:
        categories = label_dtype.categories.to_list()
        msg = (
            f"label column {label!r} is an Enum with categories {categories}; "
            f"which one is positive?\n\nHint: pass pos_label={categories[-1]!r} (or another)."
        )
        raise ValueError(msg)
    if pos_label is not None:
        pos_label_fits(label, label_dtype, pos_label)
    weight_column(schema, weight)


def weight_column(schema: pl.Schema, weight: str | None) -> None:
    """
    Check a weight column: present and numeric (its values are checked when rows are read).

    Examples
    --------
    >>> import polars as pl
    >>> weight_column(pl.Schema({"w": pl.Float64}), "w")
    >>> weight_column(pl.Schema({"w": pl.String}), "w")
    Traceback (most recent call last):
    ...
    polars.exceptions.SchemaError: weight column 'w' has dtype String, expected non-negative numbers
    <BLANKLINE>
    Hint: pass weight=<numeric column> or weight=None.
    """
    if weight is None:
        return
    dtype = column(schema, weight, "weight")
    if not dtype.is_numeric() or dtype == pl.Boolean:
        msg = (
            f"weight column {weight!r} has dtype {dtype}, expected non-negative numbers"
            f"\n\nHint: pass weight=<numeric column> or weight=None."
        )
        raise SchemaError(msg)


def pos_label_fits(label: str, dtype: pl.DataType, pos_label: Any) -> None:
    textual = isinstance(dtype, pl.String | pl.Categorical | pl.Enum)
    if dtype == pl.Boolean:
        ok = isinstance(pos_label, bool | np.bool_)
    elif textual:
        ok = isinstance(pos_label, str)
    else:
        ok = is_real(pos_label)
    if not ok:
        msg = (
            f"pos_label {pos_label!r} does not fit label column {label!r} of dtype {dtype}"
            f"\n\nHint: pass a pos_label of the label column's type."
        )
        raise TypeError(msg)


def level(value: float) -> None:
    """Check a confidence level lies strictly between 0 and 1."""
    if not is_real(value) or not 0.0 < value < 1.0:
        msg = f"level must lie strictly between 0 and 1, got {value!r}\n\nHint: level=0.95."
        raise ValueError(msg)


def unit_range(bounds: Any, name: str) -> tuple[float, float]:
    """Check `(lo, hi)` with 0 <= lo < hi <= 1 and return it as floats."""
    try:
        lo, hi = plain(bounds)
        if not (is_real(lo) and is_real(hi)):
            raise TypeError
        lo, hi = float(lo), float(hi)
    except (TypeError, ValueError):
        msg = f"{name} must be a pair (lo, hi) of rates in [0, 1], got {bounds!r}"
        raise ValueError(msg) from None
    if not (0.0 <= lo < hi <= 1.0) or math.isnan(lo) or math.isnan(hi):
        msg = f"{name}=({lo}, {hi}) must satisfy 0 <= lo < hi <= 1\n\nHint: e.g. {name}=(0.0, 0.2)."
        raise ValueError(msg)
    return lo, hi


def rates(values: float | Sequence[float], name: str) -> list[float]:
    """Check one rate or a list of rates, each in [0, 1], and return them as a list."""
    given = plain(values)
    items: list[Any]
    if is_real(given):
        items = [given]
    elif isinstance(given, Sequence | pl.Series) and not isinstance(given, str):
        items = list(given)
    else:
        msg = f"{name} must be a rate in [0, 1] or a list of rates, got {given!r}"
        raise ValueError(msg)
    if not items:
        msg = f"{name} needs at least one target rate in [0, 1], got an empty list"
        raise ValueError(msg)
    out = []
    for item in items:
        if not is_real(item) or not 0.0 <= float(item) <= 1.0:
            msg = f"{name} targets must be rates in [0, 1], got {item!r}"
            raise ValueError(msg)
        out.append(float(item))
    return out


def depth(value: Any) -> float | int:
    """
    Check a depth: a fraction of the rows in (0, 1] (a float) or a count of rows (an int >= 1).

    Examples
    --------
    >>> depth(0.1), depth(50)
    (0.1, 50)
    """
    if is_integer(value) and value >= 1:
        return int(value)
    if is_real(value) and not is_integer(value) and 0.0 < float(value) <= 1.0:
        return float(value)
    msg = (
        f"depth must be a fraction of the rows in (0, 1] or a whole number of rows >= 1, "
        f"got {value!r}\n\nHint: depth=0.1 for the top decile, depth=100 for the top 100 rows."
    )
    raise ValueError(msg)


def _is_number(value: Any) -> bool:
    return is_real(value) and math.isfinite(value)


def prevalence(value: Any) -> None:
    """Check a prevalence (share of positives) lies strictly between 0 and 1, or is None."""
    if value is not None and not (_is_number(value) and 0.0 < value < 1.0):
        msg = (
            f"prevalence must lie strictly between 0 and 1, got {value!r}"
            f"\n\nHint: prevalence=0.1 means 10% positives; None uses the data's."
        )
        raise ValueError(msg)


def cost(value: Any, name: str) -> float:
    """Check a misclassification cost is a positive finite number and return it as a float."""
    if not (_is_number(value) and value > 0):
        msg = (
            f"{name} must be a positive finite number, got {value!r}"
            f"\n\nHint: costs are per error, e.g. cost_fp=1.0, cost_fn=5.0."
        )
        raise ValueError(msg)
    return float(value)


def ci(value: Any, allowed: Sequence[str]) -> bool:
    """Check an interval method is one of `allowed` or None; whether one is asked for."""
    if value is not None and value not in allowed:
        options = " or ".join(repr(a) for a in allowed)
        msg = f"ci must be {options} (or None), got {value!r}\n\nHint: ci={allowed[0]!r}."
        raise ValueError(msg)
    return value is not None


def whole(value: Any, name: str, *, minimum: int = 1, hint: str = "") -> int:
    """
    Check `value` is an integer (Python's or NumPy's, not a bool) of at least `minimum`.

    Examples
    --------
    >>> whole(5, "k", minimum=2)
    5
    """
    fix = f"\n\nHint: {hint or f'{name}={max(minimum, 10)}'}."
    if not is_integer(value):
        msg = f"{name} must be an integer, got {value!r}"
        raise ValueError(msg + fix)
    if value < minimum:
        msg = f"{name} must be at least {minimum}, got {value!r}"
        raise ValueError(msg + fix)
    return int(value)


def n_boot(value: Any) -> int:
    """Check the number of bootstrap replicates: at least 2 (an interval needs a spread)."""
    return whole(value, "n_boot", minimum=2, hint="n_boot=2000")


def seed(value: Any) -> None:
    """Check a seed is None or a non-negative integer."""
    if value is not None and (not is_integer(value) or value < 0):
        msg = (
            f"seed must be a non-negative integer or None, got {value!r}"
            f"\n\nHint: seed=0 (None draws a fresh, unreproducible seed)."
        )
        raise ValueError(msg)


def choice(value: Any, allowed: Sequence[Any], name: str) -> None:
    """
    Check `value` is one of `allowed`.

    Examples
    --------
    >>> choice("log", ("linear", "log"), "fpr_scale")
    """
    if value not in allowed:
        options = ", ".join(repr(a) for a in allowed)
        msg = f"{name} must be one of {options}; got {value!r}\n\nHint: {name}={allowed[0]!r}."
        raise ValueError(msg)


def no_clash(names: Sequence[str], outputs: Sequence[str]) -> None:
    """
    A `by` column named like an output column is an error naming both (at call time).

    Examples
    --------
    >>> no_clash(["model"], ("auc", "n_pos", "n_neg"))
    """
    clash = sorted(set(names) & set(outputs))
    if clash:
        msg = (
            f"`by` column(s) {clash} would collide with the output column(s) of the same name "
            f"(the output has {list(outputs)})\n\nHint: rename them first, e.g. "
            f".rename({{{clash[0]!r}: {clash[0] + '_group'!r}}})."
        )
        raise ValueError(msg)


def open_unit(value: Any, name: str) -> float:
    """Check a number lies strictly between 0 and 1 (a power, a significance level)."""
    if not is_real(value) or not 0.0 < value < 1.0:
        msg = f"{name} must lie strictly between 0 and 1, got {value!r}"
        raise ValueError(msg)
    return float(value)


# clusters: the one set of checks of a `cluster=` column.
def cluster(
    schema: pl.Schema,
    name: str,
    *,
    roles: Mapping[str, str] | None = None,
    weight: str | None = None,
) -> None:
    """
    Check a cluster column at call time: present, no other role, unweighted rows.

    `roles` maps the call's other columns (score, label, by, model, ...) to their role.

    Examples
    --------
    >>> cluster(pl.Schema({"id": pl.Int64, "score": pl.Float64}), "id", roles={"score": "score"})
    """
    column(schema, name, "cluster")
    role = (roles or {}).get(name)
    if role is not None:
        msg = (
            f"cluster column {name!r} is also the {role} column"
            f"\n\nHint: pass the column of cluster ids (customer, patient) as cluster=."
        )
        raise ValueError(msg)
    if weight is not None:
        msg = (
            f"cluster= takes unweighted rows, got weight={weight!r}"
            "\n\nHint: repeat rows by their weight, or drop the cluster."
        )
        raise ValueError(msg)


def cluster_ids(ids: pl.Series, name: str) -> pl.Series:
    """
    `ids` unchanged, or an error naming the cluster column when it holds a null id.

    Examples
    --------
    >>> cluster_ids(pl.Series([1, 2]), "id").to_list()
    [1, 2]
    """
    if ids.null_count():
        msg = (
            f"cluster column {name!r} holds {ids.null_count()} null id(s)"
            "\n\nHint: fill them (e.g. with a row id) or drop those rows."
        )
        raise ValueError(msg)
    return ids


def checked_cluster(name: str) -> pl.Expr:
    """The cluster column as an expression that fails, when the query runs, on a null id."""
    return pl.col(name).map_batches(lambda ids: cluster_ids(ids, name), is_elementwise=True)


def one_line(error: BaseException) -> str:
    r"""
    An exception's message on one line: its first paragraph, then its hint if it has one.

    Parameters
    ----------
    error
        An exception whose message may span lines (polars-roc messages end in a hint).

    Returns
    -------
    str

    Examples
    --------
    >>> from polars_roc._core.validate import one_line
    >>> one_line(ValueError("level must lie in (0, 1), got 2\n\nHint: level=0.95."))
    'level must lie in (0, 1), got 2 (hint: level=0.95.)'
    """
    text = str(error).split("\n\nThis error occurred", 1)[0]
    head, _, hint = text.partition("\n\nHint:")
    line = " ".join(head.split()) or type(error).__name__
    return f"{line} (hint: {' '.join(hint.split())})" if hint else line
