"""One suite over every backend: a frame tallied in its engine gives Polars' raw-row numbers.

For each backend (Polars eager, lazy and streaming, DuckDB, sqlframe, PySpark local[2]) the
rows go in, `pr.tally` reduces them in that engine, and every `.roc` method on the small
result with ``weight="weight"`` must equal the same method on the raw rows in Polars: curve,
auc with DeLong intervals (DeLong's variance reads weights as frequencies, so the tallied rows
give the raw rows' interval exactly), partial_auc, thresholds, best_threshold, pr_curve,
average_precision and per-class multiclass AUC. The raw-row numbers are themselves checked
against scikit-learn and brute force elsewhere; here the oracle is the raw rows.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import duckdb
import numpy as np
import polars as pl
import polars.selectors as cs
import pytest
from polars.exceptions import ColumnNotFoundError, SchemaError
from polars.testing import assert_frame_equal
from sqlframe.duckdb import DuckDBSession

import polars_roc as pr
from tests.conftest import ROOT, pairwise_auc, spark_session

NAN = float("nan")
CONNECTION = duckdb.connect()
SQLFRAME = DuckDBSession(conn=duckdb.connect())
SPARK_TYPES = {pl.Float64: "double", pl.Boolean: "boolean", pl.Int64: "bigint", pl.String: "string"}


def _ddl(frame: pl.DataFrame) -> str:
    return ", ".join(f"`{name}` {SPARK_TYPES[dtype]}" for name, dtype in frame.schema.items())


def _spark(frame: pl.DataFrame) -> Any:
    return spark_session().createDataFrame(frame.rows(), schema=_ddl(frame))


def _sqlframe(frame: pl.DataFrame) -> Any:
    return SQLFRAME.createDataFrame(frame.rows(), schema=_ddl(frame))


#: backend -> (the rows in that engine, the Polars engine that collects the tally)
BACKENDS: dict[str, tuple[Callable[[pl.DataFrame], Any], str]] = {
    "polars-eager": (lambda frame: frame, "auto"),
    "polars-lazy": (pl.DataFrame.lazy, "in-memory"),
    "polars-streaming": (pl.DataFrame.lazy, "streaming"),
    "duckdb": (lambda frame: CONNECTION.from_arrow(frame.to_arrow()), "auto"),
    "sqlframe": (_sqlframe, "auto"),
    "pyspark": (_spark, "auto"),
}
#: Engines whose column names ignore case.
CASELESS = {"duckdb", "sqlframe", "pyspark"}
backends = pytest.mark.parametrize(
    "backend",
    [
        pytest.param(name, marks=[pytest.mark.spark] if name == "pyspark" else [])
        for name in BACKENDS
    ],
)


def tallied(backend: str, frame: pl.DataFrame, score: str, label: str, **kwargs: Any) -> Any:
    """`pr.tally` of `frame` in `backend`, collected (by the streaming engine where named)."""
    native, engine = BACKENDS[backend]
    counts = pr.tally(native(frame), score, label, **kwargs)
    assert isinstance(counts, pl.LazyFrame)
    return counts.collect(engine=engine)  # type: ignore[arg-type]


def rich_rows(seed: int, n: int = 240) -> pl.DataFrame:
    """Groups (one null), weights (zeros and nulls), tied scores, null scores and labels."""
    rng = np.random.default_rng(seed)
    score = rng.integers(0, 9, n) / 4 - 0.5
    label = rng.random(n) < 0.3 + 0.05 * score
    weight = rng.integers(0, 4, n).astype(float)
    group = rng.choice(["north", "south", "east"], n).astype(object)
    return pl.DataFrame(
        {
            "score": [None if i % 37 == 5 else s for i, s in enumerate(score)],
            "label": [None if i % 41 == 7 else bool(y) for i, y in enumerate(label)],
            "weight": [None if i % 43 == 11 else w for i, w in enumerate(weight)],
            "group": [None if i % 29 == 3 else g for i, g in enumerate(group)],
        },
        schema={"score": pl.Float64, "label": pl.Boolean, "weight": pl.Float64, "group": pl.String},
    )


#: method -> extra keyword arguments; each is run on raw rows and on the tally.
METHODS: dict[str, dict[str, Any]] = {
    "curve": {},
    "auc": {"ci": "delong"},
    "partial_auc": {"fpr": (0.0, 0.3)},
    "thresholds": {},
    "best_threshold": {},
    "pr_curve": {},
    "average_precision": {},
}


def _same(got: pl.DataFrame, want: pl.DataFrame) -> None:
    """Equal up to float rounding; counts may come back as floats (weight sums)."""
    assert got.columns == want.columns

    def floats(frame: pl.DataFrame) -> pl.DataFrame:
        return frame.with_columns(cs.numeric().cast(pl.Float64))

    assert_frame_equal(floats(got), floats(want), rel_tol=1e-9, abs_tol=1e-12)


def check_methods(
    raw: pl.DataFrame,
    counts: pl.DataFrame,
    score: str,
    label: str,
    *,
    by: Any = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: str = "higher",
    methods: dict[str, dict[str, Any]] = METHODS,
) -> None:
    for name, extra in methods.items():
        want = getattr(raw.roc, name)(
            score,
            label,
            by=by,
            weight=weight,
            pos_label=pos_label,
            direction=direction,
            **extra,
        )
        got = getattr(counts.roc, name)(
            score, "label", by=by, weight="weight", direction=direction, **extra
        )
        _same(got, want)


@backends
@pytest.mark.parametrize("seed", [0, 1])
def test_every_method_on_the_tally_equals_the_raw_rows(backend: str, seed: int) -> None:
    frame = rich_rows(seed)
    counts = tallied(backend, frame, "score", "label", by="group", weight="weight")
    check_methods(frame, counts, "score", "label", by="group", weight="weight")
    # unweighted: every row counts once
    ones = tallied(backend, frame, "score", "label", by="group")
    check_methods(frame, ones, "score", "label", by="group")


@backends
def test_delong_of_the_tally_is_the_raw_rows_delong(backend: str) -> None:
    # Spelled out: the interval (not only the AUC) survives the reduction, with and without
    # weights, because DeLong's placements read the weights as frequencies.
    frame = rich_rows(2)
    for weight in (None, "weight"):
        counts = tallied(backend, frame, "score", "label", by="group", weight=weight)
        got = counts.roc.auc(by="group", weight="weight", ci="delong", level=0.9)
        want = frame.roc.auc(by="group", weight=weight, ci="delong", level=0.9)
        _same(got, want)
        assert got["auc_se"].drop_nulls().len() == 3
    # and the unweighted point estimate against brute force, group by group
    counts = tallied(backend, frame, "score", "label", by="group")
    aucs = counts.roc.auc(by="group", weight="weight")
    for group, auc in aucs.select("group", "auc").iter_rows():
        rows = frame.filter(
            pl.col("group").eq_missing(group) & pl.col("score").is_not_null()
        ).drop_nulls("label")
        assert auc == pytest.approx(pairwise_auc(rows["label"], rows["score"]), rel=1e-12)


@backends
def test_nan_scores_make_their_group_null_everywhere(backend: str) -> None:
    frame = rich_rows(3).with_columns(
        score=pl.when((pl.col("group") == "east") & (pl.int_range(pl.len()) % 10 == 0))
        .then(NAN)
        .otherwise(pl.col("score"))
    )
    counts = tallied(backend, frame, "score", "label", by="group", weight="weight")
    methods = {name: METHODS[name] for name in ("curve", "auc", "partial_auc")}
    check_methods(frame, counts, "score", "label", by="group", weight="weight", methods=methods)
    auc = counts.roc.auc(by="group", weight="weight")
    assert auc.filter(pl.col("group") == "east")["auc"].item() is None


@backends
def test_string_labels_with_pos_label_and_internal_names(backend: str) -> None:
    rich = rich_rows(4)
    frame = pl.DataFrame(
        {
            "_roc_key": rich["score"],
            "_roc_y": rich["label"].replace_strict({True: "sick", False: "well"}, default=None),
            "_roc_w": rich["weight"],
            "_roc_n": rich["group"],
        }
    )
    kwargs = {"by": "_roc_n", "weight": "_roc_w", "pos_label": "sick"}
    counts = tallied(backend, frame, "_roc_key", "_roc_y", **kwargs)
    check_methods(frame, counts, "_roc_key", "_roc_y", **kwargs)
    # "well" as the positive class: the complementary AUC
    other = tallied(backend, frame, "_roc_key", "_roc_y", by="_roc_n", pos_label="well")
    sick = counts.roc.auc("_roc_key", by="_roc_n", weight="weight")
    well = other.roc.auc("_roc_key", by="_roc_n", weight="weight")
    unweighted = tallied(backend, frame, "_roc_key", "_roc_y", by="_roc_n", pos_label="sick")
    sick_unweighted = unweighted.roc.auc("_roc_key", by="_roc_n", weight="weight")
    assert (well["auc"] + sick_unweighted["auc"]).to_list() == pytest.approx([1.0] * 4)
    assert sick["_roc_n"].null_count() == 1


@backends
def test_names_that_differ_only_in_case(backend: str) -> None:
    # DuckDB and Spark ignore case: `Label` must not be mixed up with the output `label`,
    # nor `WEIGHT` with `weight`, nor `_ROC_KEY` with the internal key.
    rich = rich_rows(5)
    frame = pl.DataFrame(
        {
            "_ROC_KEY": rich["score"],
            "Y": rich["label"].cast(pl.Int64),
            "WEIGHT": rich["weight"],
            "Label": rich["group"],
        }
    )
    kwargs = {"by": "Label", "weight": "WEIGHT"}
    if backend == "sqlframe":  # it lower-cases every name: `label` then collides, and says so
        lowered = frame.rename(str.lower)
        with pytest.raises(ValueError, match="`by` column 'label' would collide"):
            tallied(backend, lowered, "_roc_key", "y", by="label", weight="weight")
        return
    counts = tallied(backend, frame, "_ROC_KEY", "Y", **kwargs)
    assert counts.columns == ["Label", "_ROC_KEY", "label", "weight"]
    check_methods(frame, counts, "_ROC_KEY", "Y", **kwargs)


@backends
def test_multiclass_one_vs_rest_with_the_class_as_by(backend: str) -> None:
    # One-vs-rest is the binary AUC per class: the rows in long form (class, its score, is
    # it the true class), tallied in the engine with the class as `by`.
    rng = np.random.default_rng(6)
    n = 150
    classes = ["a", "b", "c"]
    truth = rng.choice(classes, n)
    frame = pl.DataFrame(
        {
            "truth": truth,
            **{c: (rng.integers(0, 6, n) + 2 * (truth == c)) / 8 for c in classes},
            "w": rng.integers(1, 4, n).astype(float),
        }
    )
    long = frame.unpivot(classes, index=["truth", "w"], variable_name="class", value_name="p")
    long = long.with_columns(hit=pl.col("truth") == pl.col("class")).drop("truth")
    counts = tallied(backend, long, "p", "hit", by="class", weight="w")
    got = counts.roc.auc("p", by="class", weight="weight", ci="delong")
    want = frame.roc.multiclass_auc(
        {c: c for c in classes}, "truth", average=None, weight="w", ci="delong"
    )
    _same(got, want)
    macro = frame.roc.multiclass_auc({c: c for c in classes}, "truth", weight="w")
    assert got["auc"].mean() == pytest.approx(macro["auc"].item(), rel=1e-12)


@backends
@pytest.mark.parametrize("bins", [None, 3])
def test_direction_lower(backend: str, bins: int | None) -> None:
    frame = rich_rows(7)
    counts = tallied(
        backend, frame, "score", "label", by="group", weight="weight", bins=bins, direction="lower"
    )
    if bins is None:
        check_methods(
            frame, counts, "score", "label", by="group", weight="weight", direction="lower"
        )
        flipped = frame.with_columns(-pl.col("score"))
        want = flipped.roc.auc(by="group", weight="weight")
        got = counts.roc.auc(by="group", weight="weight", direction="lower")
        _same(got, want)
    else:
        # each bin stands at its largest score: every binned threshold is a raw score
        assert counts["score"].drop_nulls().is_in(frame["score"].implode()).all()
        got = counts.roc.auc(by="group", weight="weight", direction="lower")
        exact = frame.roc.auc(by="group", weight="weight", direction="lower")
        bound = counts.group_by("group").agg(pl.col("auc_error_bound").first())
        joined = got.join(exact, on="group", nulls_equal=True).join(
            bound, on="group", nulls_equal=True
        )
        for row in joined.iter_rows(named=True):
            assert abs(row["auc"] - row["auc_right"]) <= row["auc_error_bound"] + 1e-12
    native = BACKENDS[backend][0](frame.drop("weight"))
    table = pr.auc_table(native, by="group", direction="lower")
    want_table = frame.roc.auc(by="group", direction="lower").select(
        "group", "auc", "n_pos", "n_neg"
    )
    _same(table, want_table)


@backends
def test_bad_input_gives_our_error_before_any_work(backend: str) -> None:
    frame = pl.DataFrame(
        {"score": [0.9, 0.2, 0.4], "label": ["x", "y", "x"], "text": ["a", "b", "c"]}
    )
    native = BACKENDS[backend][0](frame)
    for function in (pr.tally, pr.auc_table):
        with pytest.raises(ColumnNotFoundError, match="score column 'p' not found"):
            function(native, "p", pos_label="x")
        with pytest.raises(ColumnNotFoundError, match="label column 'y' not found"):
            function(native, label="y")
        with pytest.raises(SchemaError, match="score column 'text' has dtype"):
            function(native, "text", pos_label="x")
        with pytest.raises(ValueError, match="which class is positive"):
            function(native)
        with pytest.raises(ValueError, match="direction must be 'higher' or 'lower'"):
            function(native, pos_label="x", direction="up")


@pytest.mark.spark
def test_readme_spark_example_runs(spark: Any) -> None:
    # The scale-out page's Spark block (fenced "python spark", so the README test leaves
    # it to this Spark-marked test) runs as written, on this run's session, and is exact.
    page = ROOT / "docs" / "tasks" / "scale.md"
    (block,) = re.findall(r"```python spark\n(.*?)```", page.read_text(), flags=re.DOTALL)
    namespace: dict[str, Any] = {"pl": pl, "pr": pr}
    exec(compile(block, str(page), "exec"), namespace)
    assert namespace["spark"] is spark
    scores = namespace["scores"]
    want = scores.roc.auc(by=["model", "segment"], ci="delong")
    _same(namespace["aucs"], want)


@backends
def test_nan_policy_in_the_engine(backend: str) -> None:
    frame = rich_rows(4).with_columns(
        score=pl.when(pl.int_range(pl.len()) % 7 == 0).then(NAN).otherwise(pl.col("score"))
    )
    n_nan = int(frame["score"].is_nan().sum())
    native = BACKENDS[backend][0]
    # omit: a NaN score counts as a null score, as dropping those rows' scores in Polars.
    nulled = frame.with_columns(score=pl.col("score").fill_nan(None))
    counts = tallied(backend, frame, "score", "label", by="group", nan_policy="omit")
    check_methods(nulled, counts, "score", "label", by="group", methods={"auc": METHODS["auc"]})
    got = pr.auc_table(native(frame), "score", "label", by="group", nan_policy="omit")
    assert got.height == 4  # three groups and the null group
    for row in got.iter_rows(named=True):
        part = nulled.filter(pl.col("group").eq_missing(row["group"]))
        part = part.drop_nulls(["score", "label"])
        want = pairwise_auc(part["label"].to_numpy(), part["score"].to_numpy())
        assert want is not None
        assert row["auc"] == pytest.approx(want, rel=1e-12)
    # raise: our error naming the column and the raw rows' NaN count, from every engine.
    for function in (pr.tally, pr.auc_table):
        with pytest.raises(ValueError, match=f"score column 'score' holds {n_nan} NaN"):
            function(native(frame), "score", "label", by="group", nan_policy="raise")
        with pytest.raises(ValueError, match="nan_policy must be one of"):
            function(native(frame), "score", "label", nan_policy="drop")
    # raise on NaN-free rows changes nothing.
    assert_frame_equal(
        pr.auc_table(native(nulled), "score", "label", by="group", nan_policy="raise"),
        pr.auc_table(native(nulled), "score", "label", by="group"),
    )
