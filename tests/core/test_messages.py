"""Our column names never appear in a message: a sweep over every public frame method.

Each method (read off ``polars_roc.namespace.FRAME_METHODS``, so a new one is swept too) is
called with bad inputs — a missing column in each role it takes, a string column as a
number, a role column that is also a `by` group, a `pos_label` found nowhere — and every
error it raises must name the user's column (or value) and none of ours (``__roc_by0``,
``_mc_weight``, ``_roc_key``, ``_x``, ...). Polars appends the failing expression to an
error raised while a query runs ("This error occurred in the following expression: ...");
only our message, the part before it, is read.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import numpy as np
import polars as pl
import pytest

import polars_roc as pr
from polars_roc.namespace import FRAME_METHODS
from tests.trust.test_trust_properties import EXTRA

#: Parameters naming a column of the frame (fpr / tpr only where their default is a name).
ROLES = ("score", "label", "weight", "fold", "model", "case", "across", "prediction",
         "truth", "pred", "fpr", "tpr", "name")  # fmt: skip

#: Our internal names: reserved `by` names, multiclass and engine columns, `_x`-style helpers.
INTERNAL = re.compile(r"__roc|_mc_|_roc_|['\"(]_[a-z]")

EXTRA_HERE: dict[str, dict[str, Any]] = {
    **EXTRA,
    "compare": {"model": "m"},
    "dominance": {"model": "id"},  # one point per classifier
    "bootstrap": {"metrics": {"auc": pr.auc("score", "label")}},
    "optimal_of_points": {"prevalence": 0.3},
    "hybrid_of_points": {"target": [0.2]},
    "estimated_auc": {"label": "label"},  # the realised AUC beside the estimate reads it
}


def _frame(*, hostile: bool = False) -> pl.DataFrame:
    rng = np.random.default_rng(3)
    n = 24
    ours = {name: rng.integers(0, 2, n) for name in ("__roc_by0", "_mc_weight", "_x")}
    return pl.DataFrame(
        {
            **(ours if hostile else {}),  # groups named like our own columns
            "score": rng.integers(0, 8, n) / 8,
            "label": rng.random(n) < 0.5,
            "g": rng.integers(0, 2, n),
            "m": ["a", "b"] * (n // 2),
            "model": ["a", "b"] * (n // 2),
            "fold": rng.integers(0, 3, n),
            "pred": rng.random(n) < 0.5,
            "y": rng.choice(["a", "b", "c"], n),
            "a": rng.random(n),
            "b": rng.random(n),
            "c": rng.random(n),
            "w": rng.random(n),
            "fpr": rng.random(n),
            "tpr": rng.random(n),
            "txt": ["x"] * n,
            "id": list(range(n)),
        }
    )


def _our_part(error: BaseException) -> str:
    return str(error).split("This error occurred in the following expression")[0]


def _roles(name: str) -> list[str]:
    parameters = inspect.signature(FRAME_METHODS[name]).parameters
    extra = EXTRA_HERE.get(name, {})
    roles = []
    for role in ROLES:
        if role not in parameters:
            continue
        default = extra.get(role, parameters[role].default)
        if isinstance(default, str) or (role == "weight" and default is None):
            roles.append(role)
    return roles


def _call(method: str, /, *, hostile: bool = False, **changes: Any) -> Any:
    kwargs = {**EXTRA_HERE.get(method, {}), **changes}
    return getattr(_frame(hostile=hostile).roc, method)(**kwargs)


def _check(name: str, needle: str, *, hostile: bool = False, **changes: Any) -> None:
    """The call raises naming `needle`, or succeeds; no internal name in its message."""
    try:
        _call(name, hostile=hostile, **changes)
    except (pl.exceptions.PolarsError, ValueError, TypeError) as error:
        message = _our_part(error)
        assert not INTERNAL.search(message.replace(needle, "")), f"{name}({changes}): {message}"
        assert needle in message, f"{name}({changes}) does not name {needle!r}: {message}"


METHODS = sorted(FRAME_METHODS)


@pytest.mark.parametrize("name", METHODS)
def test_the_plain_call_runs(name: str) -> None:
    # the sweep's base call must work, or its bad calls prove nothing
    _call(name)


@pytest.mark.parametrize("name", METHODS)
def test_missing_columns_are_named(name: str) -> None:
    for role in _roles(name):
        with pytest.raises(pl.exceptions.ColumnNotFoundError) as error:
            _call(name, **{role: "nope"})
        message = _our_part(error.value)
        assert "'nope'" in message
        assert not INTERNAL.search(message), message
    if "by" in inspect.signature(FRAME_METHODS[name]).parameters:
        with pytest.raises(pl.exceptions.ColumnNotFoundError, match="'nope'"):
            _call(name, by="nope")


@pytest.mark.parametrize("name", METHODS)
def test_wrong_dtypes_are_named(name: str) -> None:
    for role in _roles(name):
        if role in ("model", "case", "across", "name", "fold"):
            continue  # identifiers: any dtype
        _check(name, "'txt'", **{role: "txt"})


@pytest.mark.parametrize("name", METHODS)
def test_by_collisions_name_the_users_columns(name: str) -> None:
    if "by" not in inspect.signature(FRAME_METHODS[name]).parameters:
        return
    for role in _roles(name):
        column = (
            EXTRA_HERE.get(name, {}).get(role)
            or inspect.signature(FRAME_METHODS[name]).parameters[role].default
        )
        if isinstance(column, str):
            _check(name, repr(column), by=column)
    # a group named like an output column (missing: also named), or like one of our own
    for column in ("auc", "tpr", "threshold", "class"):
        _check(name, repr(column), by=column)
    for column in ("__roc_by0", "_mc_weight", "_x"):
        _check(name, repr(column), hostile=True, by=column)


@pytest.mark.parametrize("name", METHODS)
def test_a_pos_label_found_nowhere_is_named(name: str) -> None:
    if "pos_label" not in inspect.signature(FRAME_METHODS[name]).parameters:
        return
    frame = _frame().with_columns(pl.col("label").cast(pl.Int64))
    kwargs = {**EXTRA_HERE.get(name, {}), "pos_label": 7}
    try:
        result = getattr(frame.roc, name)(**kwargs)
    except (pl.exceptions.PolarsError, ValueError, TypeError) as error:
        message = _our_part(error)
        assert not INTERNAL.search(message), message
        assert "7" in message
    else:
        pytest.fail(f"{name}(pos_label=7) gave a result:\n{result}")


def test_internal_names_pattern_catches_ours() -> None:
    for message in ("column '__roc_by0'", "weight column '_mc_weight'", "col('_x')"):
        assert INTERNAL.search(message)
    assert not INTERNAL.search("score column 'score' has dtype String")
