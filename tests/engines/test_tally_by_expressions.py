"""`pr.tally` / `pr.auc_table` with Polars expressions in `by`: with_columns then by=<name>."""

from __future__ import annotations

from typing import Any

import duckdb
import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal
from sklearn.metrics import roc_auc_score
from sqlframe.duckdb import DuckDBSession

import polars_roc as pr

DATA = pr.datasets.simulate(3000, seed=9).with_columns(
    grade=(pl.col("case") % 4).cast(pl.Int64),
    score=pl.when(pl.col("case") % 17 == 0).then(None).otherwise("score"),
)
#: A window over the whole frame (the median), bands of the weight, and an unnamed expression.
BAND = (pl.col("weight") > pl.col("weight").median()).alias("heavy")
CUT = (pl.col("weight") * 2).floor().alias("band")
BY: list[Any] = [BAND, [CUT, "model"], [pl.col("segment").str.to_uppercase(), BAND]]
KWARGS: list[dict[str, Any]] = [
    {},
    {"weight": "weight"},
    {"bins": 7},
    {"label": "grade", "pos_label": 3},
    {"direction": "lower", "bins": 5, "weight": "weight"},
]


def _names(by: Any) -> list[str]:
    items = by if isinstance(by, list) else [by]
    return [i if isinstance(i, str) else i.meta.output_name() for i in items]


def _added(frame: Any, by: Any) -> Any:
    items = by if isinstance(by, list) else [by]
    return frame.with_columns(i for i in items if isinstance(i, pl.Expr))


def _sorted(lf: pl.LazyFrame, *, engine: str = "auto") -> pl.DataFrame:
    out = lf.collect(engine=engine)  # type: ignore[call-overload]
    return out.sort(out.columns, nulls_last=True)


@pytest.mark.parametrize("by", BY, ids=["window", "cut+name", "two-expressions"])
@pytest.mark.parametrize("kwargs", KWARGS, ids=["plain", "weight", "bins", "pos_label", "lower"])
def test_polars_tally_is_with_columns_then_names_bit_for_bit(by: Any, kwargs: dict) -> None:
    expected = _sorted(pr.tally(_added(DATA, by), by=_names(by), **kwargs))
    assert_frame_equal(_sorted(pr.tally(DATA, by=by, **kwargs)), expected)
    lazy = pr.tally(DATA.lazy(), by=by, **kwargs)
    assert isinstance(lazy, pl.LazyFrame)
    assert_frame_equal(_sorted(lazy), expected)
    assert_frame_equal(_sorted(lazy, engine="streaming"), expected)
    assert expected.height > 0


@pytest.mark.parametrize("by", BY, ids=["window", "cut+name", "two-expressions"])
def test_the_tally_gives_scikit_learns_auc_per_expression_group(by: Any) -> None:
    names = _names(by)
    aucs = pr.tally(DATA.lazy(), by=by).roc.auc(by=names, weight="weight").collect()
    raw = _added(DATA, by).drop_nulls("score")
    assert aucs.height == raw.select(names).n_unique()
    for row in aucs.iter_rows(named=True):
        part = raw.filter(*(pl.col(n).eq_missing(row[n]) for n in names))
        assert row["auc"] == pytest.approx(roc_auc_score(part["label"], part["score"]), abs=1e-12)
        assert row["n_pos"] == part["label"].sum()


@pytest.mark.parametrize("by", BY, ids=["window", "cut+name", "two-expressions"])
@pytest.mark.parametrize("lazy", [False, True], ids=["eager", "lazy"])
def test_auc_table_takes_expressions_too(by: Any, *, lazy: bool) -> None:
    frame = DATA.lazy() if lazy else DATA
    got = pr.auc_table(frame, by=by)
    expected = pr.auc_table(_added(DATA, by), by=_names(by))
    assert_frame_equal(got, expected)
    assert_frame_equal(got, pr.auc_table(DATA, by=by, nan_policy="omit"))


@pytest.mark.parametrize("kind", ["pandas", "pyarrow"])
def test_pandas_and_pyarrow_are_read_as_polars_so_expressions_run(kind: str) -> None:
    with_nan = DATA.with_columns(score=pl.col("score").fill_null(float("nan")))
    native = with_nan.to_pandas() if kind == "pandas" else with_nan.to_arrow()
    as_polars = pl.from_pandas(native) if kind == "pandas" else pl.from_arrow(native)
    assert isinstance(as_polars, pl.DataFrame)
    by = [CUT, "model"]
    expected = _sorted(pr.tally(as_polars.with_columns(CUT), by=["band", "model"], bins=9))
    assert_frame_equal(_sorted(pr.tally(native, by=by, bins=9)), expected)
    table = pr.auc_table(native, by=by)
    assert_frame_equal(table, pr.auc_table(as_polars.with_columns(CUT), by=["band", "model"]))
    if kind == "pandas":  # pandas' NaN is its missing marker: those rows are skipped
        assert table["auc"].null_count() == 0
        assert np.isfinite(table["auc"].to_numpy()).all()


def _duckdb(frame: pl.DataFrame) -> Any:
    return duckdb.connect().from_arrow(frame.to_arrow())


def _sqlframe(frame: pl.DataFrame) -> Any:
    session = DuckDBSession(conn=duckdb.connect())
    small = frame.select("score", "label", "model").head(20)
    return session.createDataFrame(small.rows(), schema="score double, label boolean, model string")


@pytest.mark.parametrize(("make", "engine"), [(_duckdb, "duckdb"), (_sqlframe, "sqlframe")])
@pytest.mark.parametrize("function", [pr.tally, pr.auc_table], ids=["tally", "auc_table"])
def test_other_engines_refuse_a_polars_expression_in_one_line(make, engine, function) -> None:
    frame = make(DATA)
    with pytest.raises(TypeError) as caught:
        function(frame, by=[pl.col("model").str.to_uppercase(), "model"])
    message = str(caught.value)
    first, hint = message.split("\n\nHint: ")
    assert first == (
        f"`by` holds a Polars expression, which a {engine} frame cannot run; compute the "
        f"group column in {engine} first and pass its name"
    )
    assert "by='band'" in hint
    assert function(frame, by="model") is not None  # names still work


def test_a_bad_by_is_still_refused_by_name() -> None:
    with pytest.raises(TypeError, match="`by` must be a column name, an expression"):
        pr.tally(DATA, by=[CUT, 3])
    with pytest.raises(ValueError, match="more than once"):
        pr.tally(DATA, by=[CUT, CUT])
