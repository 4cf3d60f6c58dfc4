"""time_auc / time_curve with case weights: repeated rows, dropped rows, oracles, errors."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import polars_roc  # noqa: F401  (registers the .roc namespaces)
from tests.survival.conftest import censored, sksurv_auc, weighted_brute_force

COUNTS = ["n_cases", "n_controls"]


def repeated(df: pl.DataFrame, weight: str = "w") -> pl.DataFrame:
    """Each row `weight` times (0 drops it): the frequency meaning of an integer weight."""
    return df.select(pl.all().repeat_by(pl.col(weight)).explode()).drop_nulls(weight)


def weighted_rows(seed: int, n: int, top: int, groups: int = 2) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    df = censored(seed, n=n * groups, ties=True)
    w = rng.integers(0, top + 1, size=df.height)
    w[::n] = np.maximum(w[::n], 1)  # every group keeps a counted row
    return df.with_columns(g=pl.Series(np.arange(df.height) // n), w=pl.Series(w))


@settings(max_examples=40)
@given(seed=st.integers(0, 10_000), n=st.integers(3, 30), top=st.integers(0, 3))
@example(seed=0, n=3, top=0)  # every weight 0 but one per group
def test_integer_weights_are_repeated_rows(seed: int, n: int, top: int) -> None:
    df = weighted_rows(seed, n, top)
    horizons = sorted({float(v) for v in df["t"].head(4)})
    kwargs = {"time": "t", "event": "e", "horizons": horizons, "by": "g"}
    weighted = df.roc.time_auc("s", weight="w", **kwargs)
    plain = repeated(df).roc.time_auc("s", **kwargs)
    assert weighted.schema["n_cases"] == pl.Float64  # weight sums, as auc's n_pos
    assert_frame_equal(
        weighted,
        plain.with_columns(pl.col(COUNTS).cast(pl.Float64)),
        check_exact=False,
        rel_tol=1e-12,
        abs_tol=1e-12,
    )
    # A row that does not count keeps its group's start row at every horizon, as a null
    # score does (and as curve() keeps a group whose weights are all 0).
    uncounted = df.filter(pl.col("w") == 0).with_columns(s=None, w=pl.lit(1, pl.Int64))
    want = pl.concat([repeated(df), uncounted]).roc.time_curve("s", **kwargs)
    curve = df.roc.time_curve("s", weight="w", **kwargs)
    assert_frame_equal(curve, want, check_exact=False, rel_tol=1e-12, abs_tol=1e-12)


def test_zero_or_null_weight_is_a_dropped_row() -> None:
    df = censored(11, n=120, ties=True).with_columns(g=pl.int_range(pl.len()) % 3)
    extra = censored(12, n=40, ties=True).with_columns(g=pl.int_range(pl.len()) % 3)
    w = pl.Series([0.0, None] * 20, dtype=pl.Float64)
    both = pl.concat([df.with_columns(w=pl.lit(1.0)), extra.with_columns(w=w)])
    kwargs = {"time": "t", "event": "e", "horizons": [0.2, 0.5, 1.0], "by": "g"}
    got = both.sample(fraction=1.0, shuffle=True, seed=1).roc.time_auc("s", weight="w", **kwargs)
    want = df.roc.time_auc("s", **kwargs).with_columns(pl.col(COUNTS).cast(pl.Float64))
    assert_frame_equal(got, want)  # the same sums in the same order: the same bits
    curve = both.roc.time_curve("s", weight="w", **kwargs)
    assert_frame_equal(curve, df.roc.time_curve("s", **kwargs))


@pytest.mark.parametrize(("seed", "ties"), [(0, False), (1, True), (2, True)])
def test_equals_scikit_survival_on_the_repeated_rows(seed: int, ties: bool) -> None:
    rng = np.random.default_rng(seed)
    df = censored(seed, n=200, ties=ties).with_columns(w=pl.Series(rng.integers(1, 5, 200)))
    times = df["t"].to_numpy()
    horizons = [float(np.quantile(times, q)) for q in (0.2, 0.4, 0.6, 0.8)]
    got = df.roc.time_auc("s", time="t", event="e", horizons=horizons, weight="w")
    scores, mean = sksurv_auc(repeated(df), horizons)
    assert got["auc"].to_numpy() == pytest.approx(scores, rel=1e-12)
    assert got["mean_auc"][0] == pytest.approx(mean, rel=1e-12)


@settings(max_examples=30)
@given(seed=st.integers(0, 10_000), n=st.integers(4, 30))
def test_fractional_weights_equal_the_weighted_definition(seed: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    df = censored(seed, n=n, ties=True).with_columns(w=pl.Series(rng.uniform(0.05, 3.0, n)))
    horizons = sorted({float(v) for v in df["t"].head(3)})
    got = df.roc.time_auc("s", time="t", event="e", horizons=horizons, weight="w")
    curve = df.roc.time_curve("s", time="t", event="e", horizons=horizons, weight="w")
    for horizon, auc in zip(got["horizon"], got["auc"], strict=True):
        want = weighted_brute_force(df, horizon)
        assert (auc is None) == (want is None)
        if want is not None:
            assert auc == pytest.approx(want, rel=1e-12)
            part = curve.filter(pl.col("horizon") == horizon)
            fpr, tpr = part["fpr"].to_numpy(), part["tpr"].to_numpy()
            area = float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))
            assert area == pytest.approx(want, rel=1e-12)


def test_grouped_weighted_equals_one_group_at_a_time_lazy_and_streaming() -> None:
    rng = np.random.default_rng(5)
    df = pl.concat([censored(i, n=150, ties=True).with_columns(g=pl.lit(i)) for i in range(4)])
    df = df.with_columns(w=pl.Series(rng.uniform(0.1, 4.0, df.height)))
    kwargs = {"time": "t", "event": "e", "horizons": [0.3, 0.8], "weight": "w"}
    grouped = df.roc.time_auc("s", by="g", **kwargs)
    for g in range(4):
        alone = df.filter(pl.col("g") == g).roc.time_auc("s", **kwargs)
        part = grouped.filter(pl.col("g") == g).drop("g")
        assert_frame_equal(part, alone, check_exact=False, rel_tol=1e-12)
    lazy = df.lazy().roc.time_auc("s", by="g", **kwargs)
    assert isinstance(lazy, pl.LazyFrame)
    assert_frame_equal(lazy.collect(), grouped)
    assert_frame_equal(lazy.collect(engine="streaming").sort("g", "horizon"), grouped)


@pytest.mark.parametrize("weighted", [False, True])
def test_each_group_sort_equals_the_whole_frame_sort(
    monkeypatch: pytest.MonkeyPatch, *, weighted: bool
) -> None:
    # sorted_rows sorts the frame for many small groups and each group alone for big ones:
    # both routes must give the same table (a null key and an uncounted group included).
    from polars_roc.survival import _dynamic as dynamic

    rng = np.random.default_rng(3)
    df = pl.concat(
        [censored(i, n=40 + 9 * i, ties=True).with_columns(g=pl.lit(i)) for i in range(6)]
    )
    df = df.with_columns(
        g=pl.when(pl.col("g") == 5).then(None).otherwise(pl.col("g")),
        w=pl.Series(rng.uniform(0.2, 3.0, df.height)),
        s=pl.when(pl.col("g") == 4).then(None).otherwise(pl.col("s")),  # group 4 uncounted
    )
    kwargs = {"time": "t", "event": "e", "horizons": [0.2, 0.6, 1.1], "by": "g"}
    if weighted:
        kwargs["weight"] = "w"
    monkeypatch.setattr(dynamic, "GROUP_SORT_ROWS", 10**9)  # every group small: frame sorts
    frame, frame_curve = df.roc.time_auc("s", **kwargs), df.roc.time_curve("s", **kwargs)
    monkeypatch.setattr(dynamic, "GROUP_SORT_ROWS", 1)  # every group big: per-group sorts
    each, each_curve = df.roc.time_auc("s", **kwargs), df.roc.time_curve("s", **kwargs)
    assert_frame_equal(each, frame, check_exact=False, rel_tol=1e-12)
    assert_frame_equal(each_curve, frame_curve, check_exact=False, rel_tol=1e-12)
    assert frame["g"].to_list()[-3:] == [None] * 3  # null key last, as every grouped table
    assert frame.filter(pl.col("g") == 4)["auc"].to_list() == [None] * 3
    for g in (0, 3):  # and each group its own numbers
        alone = df.filter(pl.col("g") == g).roc.time_auc("s", **{**kwargs, "by": None})
        part = each.filter(pl.col("g") == g).drop("g")
        assert_frame_equal(part, alone, check_exact=False, rel_tol=1e-12)


def test_weighted_censoring_curve_at_zero_is_null_not_a_crash() -> None:
    # Every row at risk censored at once: G falls to 0 exactly, weighted or not.
    df = pl.DataFrame(
        {"s": [0.9, 0.5, 0.2], "t": [1.0, 2.0, 2.0], "e": [True, True, False], "w": [1.0, 2.5, 0.3]}
    )
    got = df.roc.time_auc("s", time="t", event="e", horizons=[1, 2], weight="w")
    assert got["auc"].to_list() == [1.0, None]
    curve = df.roc.time_curve("s", time="t", event="e", horizons=[1, 2], weight="w")
    assert curve.filter(pl.col("horizon") == 2)["tpr"].null_count() > 0


def test_bootstrap_with_unit_weights_is_the_unweighted_bootstrap() -> None:
    df = pl.concat([censored(i, n=60).with_columns(g=pl.lit(f"m{i}")) for i in range(2)])
    kwargs = {
        "time": "t", "event": "e", "horizons": [0.3, 0.8], "by": "g",
        "ci": "bootstrap", "n_boot": 30, "seed": 4,
    }  # fmt: skip
    ones = df.with_columns(w=pl.lit(1.0)).roc.time_auc("s", weight="w", **kwargs)
    plain = df.roc.time_auc("s", **kwargs).with_columns(pl.col(COUNTS).cast(pl.Float64))
    assert_frame_equal(ones, plain)
    doubled = df.with_columns(w=pl.lit(2.0)).roc.time_auc("s", weight="w", **kwargs)
    assert_frame_equal(  # a constant weight changes no estimate, only the weight sums
        doubled.drop(COUNTS), plain.drop(COUNTS), check_exact=False, rel_tol=1e-12
    )


@pytest.mark.parametrize("name", ["time_auc", "time_curve"])
def test_bad_weights_name_the_column(name: str) -> None:
    df = pl.DataFrame({"s": [0.1, 0.2, 0.3, 0.4], "t": [1.0, 2.0, 3.0, 4.0], "e": [1, 0, 1, 1]})
    method = getattr(df.lazy().roc, name)
    kwargs = {"time": "t", "event": "e", "horizons": [2.5]}
    strings = getattr(df.with_columns(w=pl.lit("a")).lazy().roc, name)
    with pytest.raises(pl.exceptions.SchemaError, match="weight column 'w' has dtype String"):
        strings("s", weight="w", **kwargs)  # at call time, from the schema
    with pytest.raises(pl.exceptions.ColumnNotFoundError, match="'nope'"):
        method("s", weight="nope", **kwargs)
    for bad in (-1.0, float("inf"), float("nan")):
        frame = df.with_columns(w=pl.Series([1.0, bad, 1.0, 1.0]))
        with pytest.raises(ValueError, match="weight column 'w' holds"):
            getattr(frame.roc, name)("s", weight="w", **kwargs)
