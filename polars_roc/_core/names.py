"""Key columns kept apart from the package's own columns.

Every frame function names columns of its own: outputs (``tpr``, ``auc``, ``threshold``)
and internal helpers (``_positives``, ``_gid``, ``_x``). A key column named like one of them
would overwrite it or collide with it. Key columns are those that come back in the result
under the user's name: the `by` groups, and the classifier column (`across` of scored rows,
`name` of a frame of ROC points). :func:`private_by` renames them to reserved names not in
the frame for the duration of the call and back in the result, so internal columns can
never collide with the user's; an *output* column equal to a key column is an error at call
time naming both.
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, TypeVar, cast

import polars as pl

from polars_roc._core import validate

F = TypeVar("F", bound=Callable[..., Any])

#: Prefix of the reserved names the key columns take during a call.
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
    "cluster",
    "time",
    "event",
    "features",
)

#: Parameters holding the user's own expressions (one, or a mapping of them), which may read
#: the `by` columns by the user's names: those columns are also kept under those names.
EXPRESSIONS = ("metrics", "reference")

#: Roles naming the classifier column, a key of the result like the `by` groups (`model`;
#: `across` and `name` are its names before round 3, kept while their aliases last).
KEYS = ("across", "name", "model")
#: Functions with these parameters pair the models themselves (``compare``: `model` with a
#: `case` column) and name the user's model column in their own messages.
SELF_KEYED = ("case",)


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


def fresh(base: str, taken: Collection[str], *, casefold: bool = False) -> str:
    """
    `base`, lengthened with underscores until no column in `taken` has that name.

    The one way the package names a column of its own. With `casefold`, names that differ
    only in case count as equal (DuckDB's names ignore case). To name several columns, add
    each new name to `taken` (:func:`fresh_names`).

    Examples
    --------
    >>> fresh("__roc_case", ["__roc_case", "score"])
    '__roc_case_'
    >>> fresh("_roc_s", ["_ROC_S"], casefold=True)
    '_roc_s_'
    """
    seen = {name.lower() for name in taken} if casefold else set(taken)
    name = base
    while (name.lower() if casefold else name) in seen:
        name += "_"
    return name


def fresh_names(bases: Sequence[str], taken: set[str], *, casefold: bool = False) -> list[str]:
    """
    A :func:`fresh` name for each of `bases`, apart from each other: each is added to `taken`.

    Examples
    --------
    >>> taken = {"class"}
    >>> fresh_names(["class", "score"], taken), sorted(taken)
    (['class_', 'score'], ['class', 'class_', 'score'])
    """
    out = []
    for base in bases:
        out.append(fresh(base, taken, casefold=casefold))
        taken.add(out[-1])
    return out


def _check_roles(bound: inspect.BoundArguments, names: list[str]) -> None:
    for role in ROLES:
        given = bound.arguments.get(role)
        for value in given if isinstance(given, list | tuple) else [given]:
            _check_role(role, value, names)


def _check_role(role: str, value: Any, names: list[str]) -> None:
    if isinstance(value, str) and value in names:
        msg = (
            f"{role} column {value!r} is already the by column: a column cannot be both "
            f"a role and a `by` group"
            f"\n\nHint: drop {value!r} from by=, or pass another {role}= column."
        )
        raise ValueError(msg)


def _keys(bound: inspect.BoundArguments, names: list[str], schema: pl.Schema) -> dict[str, str]:
    """The key columns to run under reserved names, each with its role."""
    inner = all(name.startswith(PREFIX) for name in names)  # groups already private
    keys: dict[str, str] = {} if inner else dict.fromkeys(names, "by")
    if keys:
        for name in names:
            validate.column(schema, name, "by")
        _check_roles(bound, names)
    used = [value for role in ROLES if isinstance(value := bound.arguments.get(role), str)]
    own = any(role in bound.signature.parameters for role in SELF_KEYED)
    for role in KEYS:
        if own and role == "model":
            continue
        column = bound.arguments.get(role)
        if not isinstance(column, str) or column not in schema or column.startswith(PREFIX):
            continue  # none, missing (the function says so) or already private
        if used.count(column) == 1:  # also another role: the function says so
            keys[column] = role
    return keys


def _read_by_user(bound: inspect.BoundArguments) -> set[str]:
    """The columns the user's expressions (:data:`EXPRESSIONS`) read, by name."""
    read: set[str] = set()
    for parameter in EXPRESSIONS:
        value = bound.arguments.get(parameter)
        exprs = value.values() if isinstance(value, Mapping) else [value]
        for expr in exprs:
            if isinstance(expr, pl.Expr):
                read.update(expr.meta.root_names())
    return read


def _points(bound: inspect.BoundArguments, first: str) -> pl.Schema:
    """The schema of the `points` frame of extra ROC points, if one is given."""
    points = bound.arguments.get("points")
    if first != "points" and isinstance(points, pl.LazyFrame | pl.DataFrame):
        return points.collect_schema()
    return pl.Schema()


def _public(column: str, back: dict[str, str]) -> tuple[str, str | None]:
    """
    A result column's name for the user, and the key column it comes from (if any).

    A reserved name gives the key's own name back; a name derived from one (the ``_a`` of
    ``<across>_a``) gives the name derived from the key's.
    """
    if column in back:
        return back[column], back[column]
    for new, old in back.items():
        if column.startswith(f"{new}_"):
            return old + column[len(new) :], old
    return column, None


def _user_names(text: str, back: dict[str, str]) -> str:
    """
    `text` with each reserved name (longest first) replaced by the user's column name.

    Examples
    --------
    >>> _user_names("the frame has ['score', '__roc_by0']", {"__roc_by0": "model"})
    "the frame has ['score', 'model']"
    """
    for new in sorted(back, key=len, reverse=True):
        text = text.replace(new, back[new])
    return text


#: Attribute of a function whose `by` columns keep their names (see :func:`public_by`).
PUBLIC = "__roc_public_by__"


def public_by(function: F) -> F:
    """
    Mark a frame function whose `by` columns keep the user's names during the call.

    For functions that evaluate the user's own expressions per group (which may read the
    `by` columns by name) and name no internal column that could collide with them.

    Examples
    --------
    >>> import polars as pl
    >>> @private_by
    ... @public_by
    ... def keys(lf: pl.LazyFrame, *, by: list[str]) -> list[str]:
    ...     return lf.collect_schema().names()
    >>> keys(pl.LazyFrame({"g": [1]}), by=["g"])
    ['g']
    """
    setattr(function, PUBLIC, True)
    return function


#: Attribute of a function whose output columns yield their names to the user's key columns.
SUFFIXED = "__roc_suffixed_outputs__"


def suffixes_clashes(function: F) -> F:
    """
    Mark a frame function whose output columns give way to the user's key columns.

    Where a `by` (or other key) column has the name of one of the function's own output
    columns, the user's column keeps its name and ours takes a trailing underscore
    (``segment_``; more underscores while the name is taken), with a ``UserWarning`` naming
    both, instead of the ValueError of :func:`private_by`.

    Examples
    --------
    >>> import warnings
    >>> import polars as pl
    >>> @private_by
    ... @suffixes_clashes
    ... def count(lf: pl.LazyFrame, *, by: list[str]) -> pl.LazyFrame:
    ...     return lf.group_by(by).agg(n=pl.len())
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     columns = count(pl.LazyFrame({"n": ["a", "a"]}), by=["n"]).collect().columns
    >>> columns, str(caught[0].message)
    (['n', 'n_'], "output column 'n' of count() is named 'n_': the `by` column 'n' keeps its name")
    """
    setattr(function, SUFFIXED, True)
    return function


def _suffixed(
    shown: list[str], public: list[tuple[str, str | None]], keys: dict[str, str], name: str
) -> list[str]:
    """`shown` with each output column named like a key column suffixed by underscores."""
    users = {column for column, origin in public if origin is not None}
    out = list(shown)
    for i, (column, origin) in enumerate(public):
        if origin is not None or column not in users:
            continue
        renamed = f"{column}_"
        while renamed in out:
            renamed += "_"
        out[i] = renamed
        role = next(keys[o] for c, o in public if c == column and o is not None)
        warnings.warn(
            f"output column {column!r} of {name}() is named {renamed!r}: the `{role}` column "
            f"{column!r} keeps its name",
            UserWarning,
            stacklevel=5,
        )
    return out


def private_by(function: F) -> F:
    """
    Run a frame function with its key columns under reserved names.

    The key columns are the `by` groups and the classifier column (`across`, or `name`),
    in the frame and in a `points` frame of extra ROC points (which must hold them). A
    result column named after a reserved name (or derived from one, as ``<across>_a``) gets
    the user's name back. The result's columns are checked at call time (from the schema,
    no data read): an output column named like a key column raises a ValueError naming
    both. Functions without a `by` parameter are returned unchanged.

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
    >>> @private_by
    ... def pairs(lf: pl.LazyFrame, *, across: str, by: list[str]) -> pl.LazyFrame:
    ...     return lf.select(pl.col(across).alias(f"{across}_a"), _x=pl.lit(1))
    >>> pairs(pl.LazyFrame({"_x": ["m"]}), across="_x", by=[]).collect().columns
    ['_x_a', '_x']
    """
    signature = inspect.signature(function)
    if "by" not in signature.parameters or getattr(function, PUBLIC, False):
        return function
    keyed = any(role in signature.parameters for role in KEYS)
    first = next(iter(signature.parameters))

    @functools.wraps(function)
    def run(frame: Any, *args: Any, **kwargs: Any) -> Any:
        names = validate.as_names(kwargs.get("by"))
        if not isinstance(frame, pl.LazyFrame) or not (names or keyed):
            return function(frame, *args, **kwargs)
        if not keyed and all(name.startswith(PREFIX) for name in names):  # an inner call
            return function(frame, *args, **kwargs)
        schema = frame.collect_schema()
        bound = signature.bind_partial(frame, *args, **kwargs)
        bound.apply_defaults()
        keys = _keys(bound, names, schema)
        if not keys:
            return function(frame, *args, **kwargs)
        points = _points(bound, first)
        for column, role in keys.items():
            if points:  # extra ROC points belong to the same groups and classifiers
                validate.column(points, column, role)
        mapping = dict(zip(keys, reserved(list(keys), [*schema, *points]), strict=True))
        arguments = bound.arguments
        read = _read_by_user(bound)  # `by` columns the user's expressions name: kept too
        copies = [pl.col(new).alias(old) for old, new in mapping.items() if old in read]
        arguments[first] = frame.rename(mapping).with_columns(copies)
        if points:
            arguments["points"] = arguments["points"].rename(mapping)
        if names:
            arguments["by"] = [mapping.get(name, name) for name in names]
        arguments |= {role: mapping[column] for column, role in keys.items() if role != "by"}
        back = {new: old for old, new in mapping.items()}
        try:
            result = function(*bound.args, **bound.kwargs)
        except (pl.exceptions.PolarsError, ValueError, TypeError) as error:
            # A message found at call time names the user's columns, never the reserved
            # ones (e.g. "the frame has [...]" listing the renamed key columns).
            text = _user_names(str(error), back)
            if text == str(error):
                raise
            raise type(error)(text) from None
        columns = result.collect_schema().names()
        public = [_public(column, back) for column in columns]
        shown = [name for name, _ in public]
        if getattr(function, SUFFIXED, False):
            shown = _suffixed(shown, public, keys, function.__name__)
        for name, origin in public:
            if origin is not None and shown.count(name) > 1:
                role = keys[origin]
                msg = (
                    f"output column {name!r} of {function.__name__}() collides with the "
                    f"`{role}` column {origin!r}: the result cannot hold both\n\nHint: rename "
                    f"the {role} column first, e.g. .rename({{{origin!r}: {origin + '_key'!r}}})."
                )
                raise ValueError(msg)
        return result.rename(dict(zip(columns, shown, strict=True)))

    return cast(F, run)
