"""Our own column names never collide with the user's: identifier roles and extra columns.

`by` columns run under reserved names (tests/core/test_edges.py). Here the other identifier
roles (`case`, `model`, `across`, `name`) and unrelated extra columns: a call with a column
named like one of our internal or output columns equals the same call with an ordinary name.
"""

from __future__ import annotations

from collections.abc import Callable

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import polars_roc as pr

#: Internal and output column names an identifier column could carry.
NAMES = [
    "_x", "_y", "_s", "_d", "_w", "_name", "_model", "_case", "_n_pos", "_n_neg", "_n",
    "_var", "_dup", "_null_cases", "_prevalence", "_target", "_step", "_tied", "_matched",
    "tp", "fp", "fpr", "tpr", "threshold", "auc", "hull_auc", "slope_hi", "p_b", "model_a",
    "__roc_by0", "__roc_case",
]  # fmt: skip

Call = Callable[[pl.DataFrame, str], pl.DataFrame]


def _rows() -> pl.DataFrame:
    score = [0.9, 0.1, 0.8, 0.3, 0.4, 0.2, 0.5, 0.1, 0.6, 0.3, 0.4, 0.2]
    return pl.DataFrame(
        {
            "case": list(range(6)) * 2,
            "model": ["a"] * 6 + ["b"] * 6,
            "label": [1, 0, 1, 0, 1, 0] * 2,
            "score": score,
        }
    )


def _points() -> pl.DataFrame:
    return pl.DataFrame(
        {"model": ["c1", "c2", "c3"], "fpr": [0.3, 0.5, 0.2], "tpr": [0.4, 0.8, 0.6]}
    )


def _derived(columns: list[str], old: str, new: str) -> list[str]:
    """`columns` with `old` (and the `old_a`, `old_b` derived from it) named after `new`."""
    derived = {f"{old}{end}": f"{new}{end}" for end in ("", "_a", "_b")}
    return [derived.get(column, column) for column in columns]


def _same_as_neutral(call: Call, frame: pl.DataFrame, role: str, name: str) -> None:
    """`call` with the `role` column named `name` equals it with the ordinary name."""
    if name in frame.columns:
        return
    neutral = call(frame, role)
    columns = _derived(neutral.columns, role, name)
    if len(set(columns)) < len(columns):  # the result would hold ours and the user's column
        with pytest.raises(ValueError, match="output column"):
            call(frame.rename({role: name}), name)
        return
    got = call(frame.rename({role: name}), name)
    assert_frame_equal(got, neutral.rename(dict(zip(neutral.columns, columns, strict=True))))


# --- a) an unrelated extra column -------------------------------------------------------------


@pytest.mark.parametrize("extra", ["_model", "_case", "_y", "_d", "_s", "__roc_case"])
def test_an_unrelated_column_named_like_an_internal_one_changes_nothing_in_compare(
    extra: str,
) -> None:
    frame = _rows()
    want = frame.roc.compare(case="case")
    assert_frame_equal(frame.with_columns(pl.lit(0).alias(extra)).roc.compare(case="case"), want)
    want = frame.roc.compare()
    assert_frame_equal(frame.with_columns(pl.lit(0).alias(extra)).roc.compare(), want)


# --- b), c) compare's case and model columns --------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_a_case_column_named_like_an_internal_one_gives_the_neutral_result(name: str) -> None:
    frame = _rows()
    want = frame.roc.compare(case="case")
    assert_frame_equal(frame.rename({"case": name}).roc.compare(case=name), want)


@pytest.mark.parametrize("name", NAMES)
def test_a_model_column_named_like_an_internal_one_gives_the_neutral_result(name: str) -> None:
    frame = _rows()
    for case in ("case", None):
        want = frame.roc.compare(case=case)
        assert_frame_equal(frame.rename({"model": name}).roc.compare(model=name, case=case), want)


def test_compare_errors_name_the_users_columns() -> None:
    frame = _rows().rename({"case": "_d", "model": "_y"})
    twice = pl.concat([frame, frame.head(1)])
    with pytest.raises(ValueError, match=r"appears more than once for model 'a' \(column '_d'\)"):
        twice.roc.compare(case="_d", model="_y")
    lone = frame.filter(pl.col("_y") == "a")
    with pytest.raises(ValueError, match="two models in column '_y'"):
        lone.roc.compare(case="_d", model="_y")
    nulls = frame.with_columns(pl.when(pl.col("_d") == 0).then(None).otherwise("_d").alias("_d"))
    with pytest.raises(ValueError, match=r"case column '_d' holds 1 null case id"):
        nulls.roc.compare(case="_d", model="_y")


# --- d), e), f) the `across` column of the hull and iso functions -----------------------------

ACROSS: dict[str, Call] = {
    "hull": lambda df, a: df.roc.hull(model=a),
    "hull_auc": lambda df, a: df.roc.hull_auc(model=a),
    "optimal": lambda df, a: df.roc.optimal(model=a),
    "operating_ranges": lambda df, a: df.roc.operating_ranges(model=a),
    "hybrid": lambda df, a: df.roc.hybrid(fpr=[0.1, 0.5], model=a),
    "crossings": lambda df, a: df.roc.crossings(model=a),
    "curve_dominance": lambda df, a: df.roc.curve_dominance(model=a),
    "hull:by": lambda df, a: df.with_columns(g=pl.lit("x")).roc.hull(by="g", model=a),
    "hybrid:by": lambda df, a: df.with_columns(g=pl.lit("x")).roc.hybrid(fpr=0.3, by="g", model=a),
}


@pytest.mark.parametrize("method", sorted(ACROSS))
def test_an_across_column_named_like_an_internal_one_gives_the_neutral_result(
    method: str,
) -> None:
    for name in NAMES:
        _same_as_neutral(ACROSS[method], _rows(), "model", name)


def test_an_across_column_named_like_an_output_column_says_so() -> None:
    frame = _rows().rename({"model": "fpr"})
    with pytest.raises(ValueError, match="output column 'fpr' of hull"):
        frame.roc.hull(model="fpr")


def test_hull_of_scores_and_points_with_internal_names() -> None:
    frame, points = _rows(), _points().with_columns(model=pl.lit("p"))
    for name in ("_name", "_x", "tp", "threshold"):
        want = frame.roc.hull_auc(model="model", points=points)
        got = frame.rename({"model": name}).roc.hull_auc(
            model=name, points=points.rename({"model": name})
        )
        assert_frame_equal(got, want)
        if name == "threshold":  # optimal's output has a threshold column of its own
            continue
        want = frame.roc.optimal(model="model", points=points, prevalence=0.3)
        got = frame.rename({"model": name}).roc.optimal(
            model=name, points=points.rename({"model": name}), prevalence=0.3
        )
        assert_frame_equal(got, want.rename({"model": name}))


def test_points_without_the_across_column_name_it() -> None:
    with pytest.raises(pl.exceptions.ColumnNotFoundError, match="'_x'"):
        _rows().rename({"model": "_x"}).roc.hull(model="_x", points=_points().drop("model"))


def test_lazy_frames_with_internal_names_give_the_neutral_result() -> None:
    frame = _rows().rename({"model": "_n_pos", "case": "_d"}).lazy()
    got = frame.roc.optimal(model="_n_pos").collect()
    want = _rows().roc.optimal(model="model").rename({"model": "_n_pos"})
    assert_frame_equal(got, want)
    got = frame.roc.compare(model="_n_pos", case="_d").collect()
    assert_frame_equal(got, _rows().roc.compare(case="case"))


# --- g) the `name` column of the points functions ---------------------------------------------

POINTS: dict[str, Call] = {
    "hull_of_points": lambda df, n: pr.hull_of_points(df, model=n),
    "dominance": lambda df, n: pr.dominance(df, model=n),
    "optimal_of_points": lambda df, n: pr.optimal_of_points(df, model=n, prevalence=0.4),
    "operating_ranges_of_points": lambda df, n: pr.operating_ranges_of_points(df, model=n),
    "hybrid_of_points": lambda df, n: pr.hybrid_of_points(df, model=n, target=[0.1, 0.3]),
    "hull_of_points:by": lambda df, n: pr.hull_of_points(
        df.with_columns(g=pl.lit(1)), model=n, by="g"
    ),
}


@pytest.mark.parametrize("method", sorted(POINTS))
def test_a_name_column_named_like_an_internal_one_gives_the_neutral_result(method: str) -> None:
    for name in NAMES:
        if name in ("fpr", "tpr"):
            continue  # the rate columns themselves
        _same_as_neutral(POINTS[method], _points(), "model", name)


def test_a_name_column_called_threshold_is_not_read_as_thresholds() -> None:
    points = _points().rename({"model": "threshold"})
    got = pr.hull_of_points(points, model="threshold")
    assert got.columns == ["threshold", "fpr", "tpr"]
    assert_frame_equal(got, pr.hull_of_points(_points()).rename({"model": "threshold"}))
    got = pr.hybrid_of_points(points.lazy(), model="threshold", target=0.3).collect()
    want = pr.hybrid_of_points(_points(), target=0.3)
    assert_frame_equal(got, want.rename({"model_a": "threshold_a", "model_b": "threshold_b"}))
