"""Scale-out: the tally and the exact AUC table reduced in each engine equal the raw rows."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import duckdb
import numpy as np
import polars as pl
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from polars.exceptions import ColumnNotFoundError, SchemaError
from sqlframe.duckdb import DuckDBSession

import polars_roc as pr
from tests.conftest import pairwise_auc

NAN = float("nan")
CONNECTION = duckdb.connect()
SQLFRAME = DuckDBSession(conn=duckdb.connect())
SPARK_TYPES = {pl.Float64: "double", pl.Boolean: "boolean", pl.Int64: "bigint", pl.String: "string"}


def _ddl(frame: pl.DataFrame) -> str:
    return ", ".join(f"`{name}` {SPARK_TYPES[dtype]}" for name, dtype in frame.schema.items())


def _duckdb(frame: pl.DataFrame) -> Any:
    return CONNECTION.from_arrow(frame.to_arrow())


def _sqlframe(frame: pl.DataFrame) -> Any:
    return SQLFRAME.createDataFrame(frame.rows(), schema=_ddl(frame))


BACKENDS: dict[str, Callable[[pl.DataFrame], Any]] = {
    "polars-eager": lambda frame: frame,
    "polars-lazy": pl.DataFrame.lazy,
    "duckdb": _duckdb,
    "sqlframe": _sqlframe,
}
backends = pytest.mark.parametrize("backend", list(BACKENDS))


@st.composite
def messy_rows(draw: st.DrawFn, *, nan: bool = True, max_size: int = 25) -> pl.DataFrame:
    """Grouped, weighted rows with ties, null scores/labels/weights and (maybe) NaN scores."""
    n = draw(st.integers(0, max_size))
    pool = [0.0, 0.25, 0.5, 1.0, -2.0, None, *([NAN] if nan else [])]
    rows = st.tuples(
        st.sampled_from(pool),
        st.sampled_from([True, False, None]),
        st.sampled_from([0.0, 1.0, 2.0, 3.0, None]),
        st.sampled_from([0, 1, 2, None]),
    )
    data = draw(st.lists(rows, min_size=n, max_size=n))
    schema = {"score": pl.Float64, "label": pl.Boolean, "weight": pl.Float64, "group": pl.Int64}
    return pl.DataFrame(data, schema=schema, orient="row")


def _oracle(frame: pl.DataFrame, weighted: bool) -> float | None:
    """Pairwise AUC over the rows that count; None where a NaN score makes it undefined."""
    keep = frame.filter(
        pl.col("score").is_not_null()
        & pl.col("label").is_not_null()
        & (pl.col("weight").is_not_null() & (pl.col("weight") > 0) if weighted else True)
    )
    if keep["score"].is_nan().any():
        return None
    weights = keep["weight"].to_list() if weighted else None
    return pairwise_auc(keep["label"].to_list(), keep["score"].to_list(), weights)


def _close(got: Any, want: Any) -> bool:
    if want is None or got is None:
        return got is None and want is None
    return math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-12)


@backends
@settings(max_examples=25)
@given(frame=messy_rows(), weighted=st.booleans())
@example(
    frame=pl.DataFrame(
        schema={"score": pl.Float64, "label": pl.Boolean, "weight": pl.Float64, "group": pl.Int64}
    ),
    weighted=True,
)
def test_tally_gives_the_raw_rows_numbers(
    frame: pl.DataFrame, backend: str, *, weighted: bool
) -> None:
    weight = "weight" if weighted else None
    counts = pr.tally(BACKENDS[backend](frame), by="group", weight=weight)
    assert isinstance(counts, pl.LazyFrame)
    tallied = counts.collect()
    assert tallied.columns == ["group", "score", "label", "weight"]
    assert tallied.schema["label"] == pl.Boolean
    assert tallied.schema["weight"] == pl.Float64
    assert tallied.group_by("group", "score").len()["len"].max() in (None, 1, 2)

    raw = frame.roc.auc(by="group", weight=weight)
    got = tallied.roc.auc(by="group", weight="weight")
    assert got["group"].to_list() == raw["group"].to_list()
    for row, want in zip(got.iter_rows(named=True), raw.iter_rows(named=True), strict=True):
        assert _close(row["auc"], want["auc"])
        assert row["n_pos"] == pytest.approx(want["n_pos"])
        assert row["n_neg"] == pytest.approx(want["n_neg"])
        group = frame.filter(pl.col("group").eq_missing(row["group"]))
        assert _close(row["auc"], _oracle(group, weighted))

    raw_curve = frame.roc.curve(by="group", weight=weight)
    got_curve = tallied.roc.curve(by="group", weight="weight")
    columns = ["group", "threshold", "tp", "fp", "tpr", "fpr"]
    want_curve = raw_curve.select(columns).with_columns(pl.col("tp", "fp").cast(pl.Float64))
    assert got_curve.select(columns).equals(want_curve)

    raw_pauc = frame.roc.partial_auc(fpr=(0.0, 0.5), by="group", weight=weight)
    got_pauc = tallied.roc.partial_auc(fpr=(0.0, 0.5), by="group", weight="weight")
    assert got_pauc["group"].to_list() == raw_pauc["group"].to_list()
    for name in ("pauc", "pauc_std"):
        pairs = zip(got_pauc[name], raw_pauc[name], strict=True)
        assert all(_close(got, want) for got, want in pairs)


@backends
@settings(max_examples=15)
@given(frame=messy_rows(nan=False))
def test_grouped_tally_equals_one_group_at_a_time(frame: pl.DataFrame, backend: str) -> None:
    grouped = pr.tally(BACKENDS[backend](frame), by="group", weight="weight")
    for (group,), part in frame.group_by("group"):
        alone = pr.tally(BACKENDS[backend](part.drop("group")), weight="weight").collect()
        mine = grouped.filter(pl.col("group").eq_missing(group)).drop("group").collect()
        # a group whose rows all fail to count keeps a zero-weight row; alone it has none
        order = ["score", "label"]
        assert mine.filter(pl.col("weight") > 0).sort(order).equals(alone.sort(order))


@backends
@settings(max_examples=25)
@given(frame=messy_rows())
def test_auc_table_is_the_pairwise_probability(frame: pl.DataFrame, backend: str) -> None:
    got = pr.auc_table(BACKENDS[backend](frame.drop("weight")), by="group")
    raw = frame.roc.auc(by="group")
    assert got.columns == ["group", "auc", "n_pos", "n_neg"]
    assert got.select("group", "n_pos", "n_neg").equals(raw.select("group", "n_pos", "n_neg"))
    for row in got.iter_rows(named=True):
        group = frame.filter(pl.col("group").eq_missing(row["group"]))
        assert _close(row["auc"], _oracle(group, weighted=False))


@backends
def test_auc_table_rounds_once_like_the_polars_route(backend: str) -> None:
    # U = 5.5 over 3 x 3 pairs: U / 3 / 3 rounds twice to 0.611111111111111, one division
    # by the 9 pairs gives the correctly rounded 0.6111111111111112, as the Polars route.
    single = pl.DataFrame(
        {"score": [2.5, 1.5, 0.0, 0.0, 1.0, 2.0], "label": [True] * 3 + [False] * 3}
    )
    assert pr.auc_table(BACKENDS[backend](single))["auc"].item() == 11 / 18
    rng = np.random.default_rng(16)
    frame = pl.DataFrame(
        {
            "group": np.repeat(np.arange(300), 40),
            "label": rng.random(12_000) < 0.4,
            "score": np.round(rng.normal(size=12_000), 1),
        }
    )
    got = pr.auc_table(BACKENDS[backend](frame), by="group")
    assert got["auc"].to_list() == frame.roc.auc(by="group")["auc"].to_list()


@backends
def test_auc_table_without_groups_and_with_string_labels(backend: str) -> None:
    frame = pl.DataFrame(
        {"score": [0.9, 0.8, 0.8, 0.1, 0.4], "label": ["sick", "sick", "well", "well", None]}
    )
    got = pr.auc_table(BACKENDS[backend](frame), pos_label="sick")
    assert got.row(0) == (0.875, 2, 2)
    counts = pr.tally(BACKENDS[backend](frame), pos_label="sick")
    assert counts.roc.auc(weight="weight").collect()["auc"].item() == 0.875


@st.composite
def continuous_rows(draw: st.DrawFn) -> pl.DataFrame:
    n = draw(st.integers(2, 40))
    score = st.one_of(st.floats(-1e3, 1e3, allow_nan=False), st.sampled_from([0.5, 1.0]))
    data = {
        "score": draw(st.lists(score, min_size=n, max_size=n)),
        "label": draw(st.lists(st.booleans(), min_size=n, max_size=n)),
        "weight": [float(w) for w in draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))],
        "group": draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)),
    }
    return pl.DataFrame(data)


@backends
@settings(max_examples=25)
@given(frame=continuous_rows(), bins=st.integers(1, 6), grouped=st.booleans())
@example(
    frame=pl.DataFrame(
        {
            "score": [0.0, 1.0, 1.0, 2.0],
            "label": [False, True, False, True],
            "weight": [1.0] * 4,
            "group": [0] * 4,
        }
    ),
    bins=2,
    grouped=True,
)
def test_binned_error_never_exceeds_its_bound(
    frame: pl.DataFrame, backend: str, bins: int, *, grouped: bool
) -> None:
    if not grouped:  # one group: the engine's window-free path
        frame = frame.with_columns(group=pl.lit(0, dtype=pl.Int64))
    by = "group" if grouped else None
    native = BACKENDS[backend](frame if grouped else frame.drop("group"))
    counts = pr.tally(native, by=by, weight="weight", bins=bins).collect()
    if not grouped:
        counts = counts.select(pl.lit(0, dtype=pl.Int64).alias("group"), pl.all())
    assert counts.columns == ["group", "score", "label", "weight", "auc_error_bound"]
    levels = counts.group_by("group").agg(pl.col("score").n_unique())
    assert (levels["score"] <= bins).all()
    # Each bin stands at its smallest score: every threshold is one of the raw scores.
    assert counts["score"].is_in(frame["score"].implode()).all()
    binned = counts.roc.auc(by="group", weight="weight")
    bound = counts.group_by("group").agg(pl.col("auc_error_bound").first())
    for row in binned.join(bound, on="group").iter_rows(named=True):
        exact = _oracle(frame.filter(pl.col("group") == row["group"]), weighted=True)
        if exact is None:
            assert row["auc"] is None
            assert row["auc_error_bound"] is None
        else:
            assert abs(row["auc"] - exact) <= row["auc_error_bound"] + 1e-12


def test_binned_bound_is_tight_and_zero_when_bins_split_every_pair() -> None:
    # one bin holding every score: AUC 1/2 whatever the truth, bound 1/2
    frame = pl.DataFrame({"score": [0.1, 0.2, 0.9], "label": [False, False, True]})
    one = pr.tally(frame, bins=1).collect()
    assert one["auc_error_bound"].unique().to_list() == [0.5]
    assert one.roc.auc(weight="weight")["auc"].item() == 0.5
    # bins as fine as the scores: exact, bound 0
    fine = pr.tally(frame, bins=8).collect()
    assert fine["auc_error_bound"].unique().to_list() == [0.0]
    assert fine.roc.auc(weight="weight")["auc"].item() == 1.0


def test_infinite_and_nan_scores_in_bins() -> None:
    inf = float("inf")
    frame = pl.DataFrame(
        {
            "score": [-inf, 0.0, 1.0, inf, 0.5, 0.5, NAN],
            "label": [False, False, True, True, True, False, True],
            "group": [0, 0, 0, 0, 1, 1, 1],
        }
    )
    counts = pr.tally(_duckdb(frame), by="group", bins=2).collect()
    bound = counts.group_by("group").agg(pl.col("auc_error_bound").first()).sort("group")
    assert bound.rows() == [(0, 0.0), (1, None)]
    aucs = counts.roc.auc(by="group", weight="weight")
    assert aucs["auc"].to_list() == [1.0, None]


@backends
def test_internal_names_never_collide_even_ignoring_case(backend: str) -> None:
    frame = pl.DataFrame(
        {
            "_ROC_KEY": [0.9, 0.8, 0.8, 0.1, 0.3],
            "_Roc_N": [1, 1, 0, 0, 1],
            "_roc_y": ["a", "a", "a", "b", "b"],
            "_ROC_W": [1.0, 2.0, 1.0, 1.0, 1.0],
        }
    )
    if backend == "sqlframe":  # Spark's names ignore case: sqlframe lower-cases them
        frame = frame.rename(str.lower)
    native = BACKENDS[backend](frame)
    score, label, by, weight = frame.columns
    counts = pr.tally(native, score, label, by=by, weight=weight, bins=10)
    got = counts.roc.auc(score, by=by, weight="weight").collect()
    want = frame.roc.auc(score, label, by=by, weight=weight)
    assert got["auc"].to_list() == want["auc"].to_list()
    table = pr.auc_table(native, score, label, by=by)
    assert table["auc"].to_list() == frame.roc.auc(score, label, by=by)["auc"].to_list()


def test_integer_scores_keep_their_type_and_weights_come_back_as_floats() -> None:
    # sqlframe sums integers as decimals: what comes back is cast; integer scores stay
    # integers (distinct past 2**53, issue 28)
    frame = pl.DataFrame({"score": [3, 2, 2, 1], "label": [1, 1, 0, 0], "weight": [2, 1, 1, 5]})
    for native in (_sqlframe(frame), _duckdb(frame)):
        counts = pr.tally(native, weight="weight").collect()
        assert counts.schema == pl.Schema(
            {"score": pl.Int64, "label": pl.Boolean, "weight": pl.Float64}
        )
        want = frame.roc.auc(weight="weight")["auc"].item()
        assert counts.roc.auc(weight="weight")["auc"].item() == want


@backends
def test_bad_inputs_give_our_errors(backend: str) -> None:
    frame = pl.DataFrame(
        {
            "score": [0.9, 0.2, 0.4],
            "label": [2, 0, 1],
            "text": ["a", "b", "c"],
            "w": [1.0, -1.0, 1.0],
        }
    )
    native = BACKENDS[backend](frame)
    with pytest.raises(ColumnNotFoundError, match="score column 'p' not found"):
        pr.tally(native, "p")
    with pytest.raises(ColumnNotFoundError, match="by column 'segment' not found"):
        pr.auc_table(native, by="segment")
    with pytest.raises(SchemaError, match="score column 'text' has dtype"):
        pr.tally(native, "text")
    with pytest.raises(ValueError, match="which class is positive"):
        pr.auc_table(native, label="text")
    with pytest.raises(ValueError, match="not Boolean or 0/1"):
        pr.tally(native).collect()
    with pytest.raises(ValueError, match="not Boolean or 0/1"):
        pr.auc_table(native)
    with pytest.raises(ValueError, match=r"pos_label 7 occurs nowhere .* \[0, 1, 2\]"):
        pr.tally(native, pos_label=7).collect()
    with pytest.raises(ValueError, match=r"pos_label 7 occurs nowhere .* \[0, 1, 2\]"):
        pr.auc_table(native, pos_label=7)
    with pytest.raises(ValueError, match="weight column 'w' holds negative"):
        pr.tally(native, weight="w", pos_label=1).collect()
    with pytest.raises(ValueError, match=r"bins must be (an integer|at least 1)"):
        pr.tally(native, pos_label=1, bins=0)
    with pytest.raises(ValueError, match="would collide with the output column 'label'"):
        pr.tally(native, "score", "text", by="label", pos_label="a")


def test_polars_lazy_stays_lazy_and_streams() -> None:
    frame = pl.DataFrame({"score": [0.9, 0.8, 0.8, 0.1], "label": [1, 1, 0, 2], "g": [0] * 4})
    counts = pr.tally(frame.lazy(), by="g")  # nothing runs yet: the bad label 2 is not seen
    assert isinstance(counts, pl.LazyFrame)
    with pytest.raises(ValueError, match="not Boolean or 0/1"):
        counts.collect(engine="streaming")
    fine = pr.tally(frame.lazy(), by="g", pos_label=2).collect(engine="streaming")
    assert fine.sort("score", "label").rows() == [
        (0, 0.1, True, 1.0),
        (0, 0.8, False, 2.0),
        (0, 0.9, False, 1.0),
    ]


def test_unknown_frames_are_refused() -> None:
    with pytest.raises(TypeError, match="narwhals does not know it"):
        pr.tally({"score": [0.1], "label": [True]})


def test_pyarrow_tables_reduce_too() -> None:
    frame = pl.DataFrame({"score": np.linspace(0, 1, 20), "label": [True, False] * 10})
    counts = pr.tally(frame.to_arrow())
    assert counts.roc.auc(weight="weight").collect()["auc"].item() == pytest.approx(
        frame.roc.auc()["auc"].item()
    )


@pytest.mark.spark
def test_pyspark_local_mode(spark: Any) -> None:
    rng = np.random.default_rng(3)
    frame = pl.DataFrame(
        {
            "score": rng.integers(0, 30, 500) / 3,
            "Label": rng.integers(0, 2, 500),
            "weight": rng.integers(0, 3, 500).astype(float),
            "segment": rng.choice(["x", "y", "z"], 500),
        }
    )
    native = spark.createDataFrame(frame.rows(), schema=_ddl(frame))
    want = frame.roc.auc(label="Label", by="segment", weight="weight")
    counts = pr.tally(native, label="Label", by="segment", weight="weight")
    got = counts.roc.auc(by="segment", weight="weight").collect()
    assert got["auc"].to_list() == pytest.approx(want["auc"].to_list(), rel=1e-12)
    table = pr.auc_table(native, label="Label", by="segment")
    unweighted = frame.roc.auc(label="Label", by="segment")
    assert table["auc"].to_list() == pytest.approx(unweighted["auc"].to_list(), rel=1e-12)
    binned = pr.tally(native, label="Label", by="segment", bins=5).collect()
    assert (binned.group_by("segment").agg(pl.col("score").n_unique())["score"] <= 5).all()
    with pytest.raises(ColumnNotFoundError, match="score column 'p' not found"):
        pr.tally(native, "p", label="Label")
    with pytest.raises(ValueError, match="which class is positive"):
        pr.auc_table(native, label="segment")
