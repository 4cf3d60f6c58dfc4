"""A `by` column named like an output column of `disparity` or `rollup`: the user's name wins.

The user's column keeps its name and values; ours takes a trailing underscore (more while the
name is taken) and a UserWarning names both. The oracle is the same call with a neutral `by`
name: every number equal, only the two names differ.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from polars_roc.segments import ROLLUP_COLUMNS
from polars_roc.segments.disparity import COLUMNS as DISPARITY_COLUMNS

Call = Callable[[pl.DataFrame, str], pl.DataFrame]

CALLS: dict[str, tuple[Call, tuple[str, ...]]] = {
    "disparity": (
        lambda df, g: df.roc.disparity(segment="region", by=g),
        DISPARITY_COLUMNS,
    ),
    "rollup": (
        lambda df, g: df.roc.rollup(segment="region", by=g),
        (*ROLLUP_COLUMNS, "ivw_se", "n_pos", "n_neg"),
    ),
}


def rows() -> pl.DataFrame:
    rng = np.random.default_rng(3)
    n = 240
    label = rng.random(n) < 0.45
    return pl.DataFrame(
        {
            "model": np.repeat(["m1", "m2"], n // 2),
            "region": rng.integers(0, 3, n),
            "score": np.round(rng.normal(size=n) + label, 1),
            "label": label,
        }
    )


@pytest.mark.parametrize(
    ("method", "name"),
    [(method, name) for method, (_, outputs) in CALLS.items() for name in outputs],
)
def test_each_output_name_as_a_by_column(method: str, name: str) -> None:
    call, _ = CALLS[method]
    frame = rows()
    neutral = call(frame, "model")
    with pytest.warns(UserWarning, match="keeps its name") as caught:
        got = call(frame.rename({"model": name}), name)
    messages = [str(w.message) for w in caught]
    assert messages == [
        f"output column {name!r} of {method}() is named {name + '_'!r}: the `by` column "
        f"{name!r} keeps its name"
    ]
    assert got.columns[0] == name  # the user's column, first as every `by`
    assert got[name].to_list() == neutral["model"].to_list()
    expected = neutral.rename({name: f"{name}_"}).rename({"model": name})
    assert_frame_equal(got, expected)


def test_underscores_added_while_the_name_is_taken() -> None:
    frame = rows().with_columns(segment_=pl.col("model").str.to_uppercase())
    frame = frame.rename({"model": "segment"})
    with pytest.warns(UserWarning, match="'segment' of disparity\\(\\) is named 'segment__'"):
        got = frame.roc.disparity(segment="region", by=["segment", "segment_"])
    assert got.columns[:4] == ["segment", "segment_", "segment__", "metric"]
    neutral = rows().roc.disparity(segment="region", by="model")
    assert got["segment__"].to_list() == neutral["segment"].to_list()
    assert got["estimate"].to_list() == neutral["estimate"].to_list()


def test_no_clash_no_warning_and_a_segment_column_may_bear_any_name() -> None:
    frame = rows()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        neutral = frame.roc.disparity(segment="region", by="model")
        named = frame.rename({"region": "estimate"}).roc.disparity(segment="estimate", by="model")
        rolled = frame.rename({"region": "n_pos"}).roc.rollup(segment="n_pos", by="model")
    assert_frame_equal(named, neutral)
    assert_frame_equal(rolled, frame.roc.rollup(segment="region", by="model"))


def test_lazy_frames_take_the_same_names() -> None:
    frame = rows().rename({"model": "metric"})
    with pytest.warns(UserWarning, match="'metric_'"):
        lazy = frame.lazy().roc.disparity(segment="region", by="metric").collect()
    with pytest.warns(UserWarning, match="'metric_'"):
        eager = frame.roc.disparity(segment="region", by="metric")
    assert_frame_equal(lazy, eager)
