"""A `by` column named like a monitoring output column keeps its name; ours gets `_`."""

from __future__ import annotations

import warnings
from collections.abc import Callable

import polars as pl
import pytest
from polars.testing import assert_frame_equal

ROWS = pl.DataFrame(
    {
        "t": [1, 1, 1, 2, 2, 2] * 2,
        "score": [0.1, 0.2, 0.3, 0.5, 0.6, 0.7, 0.2, 0.3, 0.4, 0.1, 0.9, 0.5],
        "label": [0, 1, 0, 1, 0, 1] * 2,
        "grp": ["a"] * 6 + ["b"] * 6,
    }
)

Call = Callable[[pl.DataFrame, str], pl.DataFrame]
CALLS: dict[str, tuple[Call, tuple[str, ...]]] = {
    "score_stability": (
        lambda df, by: df.roc.score_stability(
            time="t", every="1i", reference=(1, 1), by=by, bins=2
        ),
        ("window_start", "window_end", "psi", "ks", "ks_p_value", "n", "n_ref"),
    ),
    "over_time": (
        lambda df, by: df.roc.over_time(time="t", every="1i", by=by, reference=(1, 1)),
        (
            "window_start",
            "window_end",
            "metric",
            "estimate",
            "lower",
            "upper",
            "n",
            "n_pos",
            "ref_mean",
            "ref_lower",
            "ref_upper",
            "alert",
        ),
    ),
    "estimated_auc": (
        lambda df, by: df.roc.estimated_auc(label="label", by=by),
        ("estimated_auc", "n", "auc", "n_pos", "n_neg"),
    ),
}


@pytest.mark.parametrize(
    ("method", "name"), [(m, n) for m, (_, names) in CALLS.items() for n in names]
)
def test_a_group_named_like_an_output_keeps_its_name(method: str, name: str) -> None:
    call, _ = CALLS[method]
    neutral = call(ROWS, "grp")
    assert name in neutral.columns
    with pytest.warns(
        UserWarning,
        match=rf"output column '{name}' of {method}\(\) is named "
        rf"'{name}_': the `by` column '{name}' keeps its name",
    ):
        got = call(ROWS.rename({"grp": name}), name)
    want = neutral.rename({name: f"{name}_"}).rename({"grp": name})
    assert_frame_equal(got, want)
    assert got[name].to_list() == neutral["grp"].to_list()  # the user's groups, untouched


def test_no_warning_without_a_clash() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for call, _ in CALLS.values():
            call(ROWS, "grp")


def test_a_taken_suffix_takes_another_underscore() -> None:
    frame = ROWS.with_columns(n_=pl.col("grp").str.to_uppercase()).rename({"grp": "n"})
    with pytest.warns(UserWarning, match="is named 'n__'"):
        got = frame.roc.score_stability(
            time="t", every="1i", reference=(1, 1), by=["n", "n_"], bins=2
        )
    assert got.columns[:2] == ["n", "n_"]
    assert "n__" in got.columns
    assert got["n__"].to_list() == [3, 3, 3, 3]


def test_the_lazy_frame_renames_at_call_time() -> None:
    with pytest.warns(UserWarning, match="'metric_'"):
        lazy = (
            ROWS.rename({"grp": "metric"})
            .lazy()
            .roc.over_time(time="t", every="1i", by="metric", reference=(1, 1))
        )
    assert isinstance(lazy, pl.LazyFrame)
    assert lazy.collect_schema().names()[:4] == ["metric", "window_start", "window_end", "metric_"]
