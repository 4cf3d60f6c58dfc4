"""Accuracy, Brier score, log-loss, confusion matrices and mean cost."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal
from sklearn.metrics import accuracy_score, brier_score_loss, confusion_matrix, log_loss

import polars_roc as pr

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PROBS = [0.0, 0.05, 0.3, 0.5, 0.7, 0.99, 1.0]


@st.composite
def binary(draw: st.DrawFn) -> tuple[list[bool], list[float], list[int]]:
    n = draw(st.integers(2, 25))
    labels = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if all(labels) or not any(labels):
        labels[0] = not labels[0]
    probs = draw(st.lists(st.sampled_from(PROBS), min_size=n, max_size=n))
    weights = draw(st.lists(st.integers(1, 4), min_size=n, max_size=n))
    return labels, probs, weights


@pytest.mark.parametrize("weighted", [False, True])
@SETTINGS
@given(case=binary())
def test_binary_scores_match_sklearn(
    case: tuple[list[bool], list[float], list[int]], *, weighted: bool
) -> None:
    labels, probs, weights = case
    sw = weights if weighted else None
    df = pl.DataFrame({"y": labels, "p": probs, "w": weights})
    w = "w" if weighted else None
    got = df.select(
        pr.brier_score("p", "y", weight=w),
        pr.log_loss("p", "y", weight=w),
        pl.col("p").roc.brier_score("y", weight=w).alias("b2"),
        pl.col("p").roc.log_loss("y", weight=w).alias("l2"),
    ).row(0, named=True)
    brier = brier_score_loss(labels, probs, sample_weight=sw)
    loss = log_loss(labels, probs, sample_weight=sw, labels=[False, True])
    assert got["brier_score"] == pytest.approx(brier, rel=1e-12)
    assert got["b2"] == pytest.approx(brier, rel=1e-12)
    assert got["log_loss"] == pytest.approx(loss, rel=1e-12)
    assert got["l2"] == pytest.approx(loss, rel=1e-12)
    # by hand, with scikit-learn's clipping
    eps = np.finfo(np.float64).eps
    terms = [
        -math.log(min(max(p if y else 1 - p, eps), 1 - eps))
        for y, p in zip(labels, probs, strict=True)
    ]
    wts = weights if weighted else [1] * len(labels)
    assert got["log_loss"] == pytest.approx(np.average(terms, weights=wts), rel=1e-12)


@st.composite
def multiclass(draw: st.DrawFn) -> tuple[list[str], np.ndarray, list[int]]:
    n = draw(st.integers(3, 25))
    labels = draw(st.lists(st.sampled_from(["a", "b", "c"]), min_size=n, max_size=n))
    labels[:3] = ["a", "b", "c"]
    raw = draw(
        st.lists(st.lists(st.integers(0, 5), min_size=3, max_size=3), min_size=n, max_size=n)
    )
    probs = np.asarray(raw, dtype=float) + 0.0
    probs[probs.sum(axis=1) == 0] = 1.0
    probs = probs / probs.sum(axis=1, keepdims=True)
    weights = draw(st.lists(st.integers(1, 4), min_size=n, max_size=n))
    return labels, probs, weights


@pytest.mark.parametrize("weighted", [False, True])
@SETTINGS
@given(case=multiclass())
def test_multiclass_scores_match_sklearn(
    case: tuple[list[str], np.ndarray, list[int]], *, weighted: bool
) -> None:
    labels, probs, weights = case
    sw = weights if weighted else None
    df = pl.DataFrame(
        {"y": labels, "pa": probs[:, 0], "pb": probs[:, 1], "pc": probs[:, 2], "w": weights}
    )
    columns = {"a": "pa", "b": "pb", "c": "pc"}
    w = "w" if weighted else None
    got = df.select(pr.log_loss(columns, "y", weight=w), pr.brier_score(columns, "y", weight=w))
    assert got["log_loss"].item() == pytest.approx(
        log_loss(labels, probs, sample_weight=sw, labels=["a", "b", "c"]), rel=1e-12
    )
    assert got["brier_score"].item() == pytest.approx(
        brier_score_loss(labels, probs, sample_weight=sw, labels=["a", "b", "c"]), rel=1e-12
    )


def test_two_class_mapping_equals_binary() -> None:
    df = pl.DataFrame({"y": [0, 1, 1, 0, 1], "p": [0.2, 0.6, 0.9, 0.4, 0.3]})
    mapping = {0: 1 - pl.col("p"), 1: pl.col("p")}
    got = df.select(
        pr.brier_score(mapping, "y").alias("mb"),
        pr.brier_score("p", "y").alias("b"),
        pr.log_loss(mapping, "y").alias("ml"),
        pr.log_loss("p", "y").alias("l"),
    ).row(0)
    assert got[0] == pytest.approx(got[1])
    assert got[2] == pytest.approx(got[3])


def test_accuracy_matches_sklearn() -> None:
    rng = np.random.default_rng(0)
    n = 200
    truth = rng.choice(["x", "y", "z"], n)
    pred = np.where(rng.random(n) < 0.6, truth, rng.choice(["x", "y", "z"], n))
    w = rng.uniform(0, 2, n)
    df = pl.DataFrame({"t": truth, "p": pred, "w": w, "g": rng.integers(0, 3, n)})
    assert df.select(pr.accuracy("t", "p")).item() == pytest.approx(accuracy_score(truth, pred))
    assert df.select(pr.accuracy("t", "p", weight="w")).item() == pytest.approx(
        accuracy_score(truth, pred, sample_weight=w)
    )
    by_group = df.group_by("g").agg(pr.accuracy("t", "p")).sort("g")
    for g, value in by_group.iter_rows():
        part = df.filter(pl.col("g") == g)
        assert value == pytest.approx(accuracy_score(part["t"], part["p"]))
    over = df.with_columns(pr.accuracy("t", "p").over("g"))
    assert over.group_by("g").agg(pl.col("accuracy").n_unique())["accuracy"].max() == 1


def test_metric_expressions_group_by_over_and_lazy() -> None:
    rng = np.random.default_rng(1)
    n = 300
    df = pl.DataFrame(
        {
            "g": rng.integers(0, 4, n),
            "y": rng.random(n) < 0.3,
            "p": rng.random(n),
            "w": rng.random(n),
        }
    )
    exprs = [
        pr.brier_score("p", "y", weight="w"),
        pr.log_loss("p", "y", weight="w"),
        pr.average_precision("p", "y", weight="w"),
    ]
    agg = df.group_by("g").agg(exprs).sort("g")
    lazy = df.lazy().group_by("g").agg(exprs).sort("g").collect()
    assert_frame_equal(agg, lazy)
    for row in agg.iter_rows(named=True):
        part = df.filter(pl.col("g") == row["g"])
        assert row["brier_score"] == pytest.approx(
            brier_score_loss(part["y"], part["p"], sample_weight=part["w"])
        )
        assert row["log_loss"] == pytest.approx(
            log_loss(part["y"], part["p"], sample_weight=part["w"])
        )
    over = df.with_columns(pr.log_loss("p", "y", weight="w").over("g"))
    assert over.group_by("g").agg(pl.col("log_loss").first()).sort("g")["log_loss"].to_list() == (
        pytest.approx(agg["log_loss"].to_list())
    )


def test_metric_edge_cases() -> None:
    df = pl.DataFrame({"y": [1, 0, None, 1], "p": [0.8, 0.3, 0.5, None], "w": [1.0, 2.0, 1.0, 0.0]})
    # null label / null probability rows skipped
    assert df.select(pr.brier_score("p", "y")).item() == pytest.approx((0.04 + 0.09) / 2)
    nan = pl.DataFrame({"y": [1, 0], "p": [float("nan"), 0.3]})
    assert nan.select(pr.brier_score("p", "y")).item() is None
    assert nan.select(pr.log_loss("p", "y")).item() is None
    empty = pl.DataFrame({"y": [None], "p": [0.3]}, schema={"y": pl.Int64, "p": pl.Float64})
    assert empty.select(pr.log_loss("p", "y")).item() is None
    assert empty.select(pr.accuracy("y", "y")).item() is None
    with pytest.raises(ValueError, match=r"outside \[0, 1\]"):
        pl.DataFrame({"y": [1, 0], "p": [1.5, 0.2]}).select(pr.log_loss("p", "y"))
    with pytest.raises(ValueError, match=r"outside \[0, 1\]"):
        pl.DataFrame({"y": [1, 0], "p": [-0.1, 0.2]}).select(pr.brier_score("p", "y"))
    three = pl.DataFrame({"y": ["a", "d"], "pa": [0.5, 0.5], "pb": [0.5, 0.5]})
    with pytest.raises(ValueError, match="no probability column"):
        three.select(pr.log_loss({"a": "pa", "b": "pb"}, "y"))
    with pytest.raises(ValueError, match="at least two classes"):
        three.select(pr.log_loss({"a": "pa"}, "y"))


# ---------------------------------------------------------------- confusion matrix / cost


def test_confusion_matrix_matches_sklearn_long_format() -> None:
    rng = np.random.default_rng(2)
    n = 250
    classes = ["lo", "mid", "hi", "top"]
    truth = rng.choice(classes[:3], n)  # "top" only ever predicted
    pred = np.where(rng.random(n) < 0.5, truth, rng.choice(classes, n))
    w = rng.integers(0, 3, n).astype(float)
    df = pl.DataFrame({"t": truth, "p": pred, "w": w, "g": rng.integers(0, 2, n)})
    for weight in (None, "w"):
        got = df.roc.confusion_matrix("t", "p", weight=weight)
        assert got.columns == ["truth", "pred", "n"]
        labels = sorted(set(truth) | set(pred))
        expected = confusion_matrix(
            truth, pred, labels=labels, sample_weight=None if weight is None else w
        )
        assert got.height == len(labels) ** 2
        for row in got.iter_rows(named=True):
            cell = expected[labels.index(row["truth"]), labels.index(row["pred"])]
            assert row["n"] == cell
        assert got["n"].dtype == (pl.Int64 if weight is None else pl.Float64)
    grouped = df.roc.confusion_matrix("t", "p", by="g")
    assert_frame_equal(df.lazy().roc.confusion_matrix("t", "p", by="g").collect(), grouped)
    for (g,), part in df.group_by("g"):
        assert_frame_equal(
            grouped.filter(pl.col("g") == g).drop("g"), part.roc.confusion_matrix("t", "p")
        )


def notes_example() -> tuple[pl.DataFrame, pl.DataFrame]:
    """150 cases, 3 classes of 50: 3 errors costing 5 and 4 costing 1, the rest correct."""
    rows = []
    for c in ["setosa", "versicolor", "virginica"]:
        rows += [(c, c)] * 50
    # replace some correct predictions by errors
    errors = [("versicolor", "virginica")] * 3 + [("virginica", "versicolor")] * 4
    for k, (t, p) in enumerate(errors):
        i = 50 + k if t == "versicolor" else 100 + k
        rows[i] = (t, p)
    df = pl.DataFrame(rows, schema=["truth", "pred"], orient="row")
    costs = pl.DataFrame(
        {
            "truth": ["setosa", "setosa", "versicolor", "versicolor", "virginica", "virginica"],
            "pred": ["versicolor", "virginica", "setosa", "virginica", "setosa", "versicolor"],
            "cost": [1.0, 1.0, 1.0, 5.0, 1.0, 1.0],
        }
    )
    return df, costs


def test_mean_cost_reproduces_the_notes_example() -> None:
    df, costs = notes_example()
    assert df.height == 150
    assert (df["truth"] != df["pred"]).sum() == 7
    got = df.roc.mean_cost("truth", "pred", costs)
    assert got.columns == ["mean_cost"]
    assert got.item() == pytest.approx((3 * 5 + 4 * 1) / 150)
    as_mapping = {(t, p): c for t, p, c in costs.iter_rows()}
    assert df.roc.mean_cost("truth", "pred", as_mapping).item() == pytest.approx(19 / 150)
    # equal to Σ cost · n / Σ n over the confusion matrix, computed by hand
    matrix = confusion_matrix(df["truth"], df["pred"])
    names = ["setosa", "versicolor", "virginica"]
    cost_of = {(t, p): c for t, p, c in costs.iter_rows()}
    by_hand = sum(
        matrix[i, j] * cost_of.get((names[i], names[j]), 0.0) for i in range(3) for j in range(3)
    )
    assert got.item() == pytest.approx(by_hand / matrix.sum())


def test_mean_cost_grouped_weighted_lazy() -> None:
    df, costs = notes_example()
    df = df.with_columns(
        g=pl.int_range(pl.len()) % 2, w=(pl.int_range(pl.len()) % 3).cast(pl.Float64)
    )
    got = df.roc.mean_cost("truth", "pred", costs, by="g", weight="w")
    assert_frame_equal(
        df.lazy().roc.mean_cost("truth", "pred", costs, by="g", weight="w").collect(), got
    )
    cost_of = {(t, p): c for t, p, c in costs.iter_rows()}
    for g, value in got.iter_rows():
        part = df.filter(pl.col("g") == g)
        total = sum(
            w * cost_of.get((t, p), 0.0)
            for t, p, w in part.select("truth", "pred", "w").iter_rows()
        )
        assert value == pytest.approx(total / part["w"].sum())


def test_mean_cost_errors() -> None:
    df, costs = notes_example()
    with pytest.raises(ValueError, match="no cost for"):
        df.roc.mean_cost("truth", "pred", costs.filter(pl.col("cost") < 5))
    with pytest.raises(ValueError, match="more than once"):
        df.roc.mean_cost("truth", "pred", pl.concat([costs, costs]))
    with pytest.raises(ValueError, match="lacks column"):
        df.roc.mean_cost("truth", "pred", costs.drop("cost"))
    with pytest.raises(TypeError, match="costs must be"):
        df.roc.mean_cost("truth", "pred", [1, 2, 3])  # type: ignore[arg-type]
    with pytest.raises(pl.exceptions.ColumnNotFoundError):
        df.lazy().roc.mean_cost("truth", "predicted", costs)
    with pytest.raises(pl.exceptions.SchemaError, match="do not fit the class columns"):
        pl.DataFrame({"t": [1, 2], "p": [2, 1]}).roc.mean_cost("t", "p", {("a", "b"): 1.0})
    numbers = pl.DataFrame({"t": [1, 2], "p": ["1", "2"]})
    with pytest.raises(pl.exceptions.SchemaError, match="same kind"):
        numbers.lazy().roc.confusion_matrix("t", "p")
