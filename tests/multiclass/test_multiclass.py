"""Multiclass AUC and curves against scikit-learn, pROC's published values and brute force."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal
from sklearn.datasets import load_iris, load_wine
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score, roc_curve
from sklearn.preprocessing import label_binarize

import polars_roc as pr
from tests.conftest import pairwise_auc, repeat_rows

HERE = Path(__file__).parents[1] / "data"
GOS6 = pl.Enum(["1", "2", "3", "4", "5"])  # pROC's factor levels: no case has level 2


# ---------------------------------------------------------------------------------------
# Oracles
# ---------------------------------------------------------------------------------------


def median(values: np.ndarray, weights: np.ndarray) -> float:
    """R's median of the values repeated `weights` (integer) times."""
    return float(np.median(np.repeat(values, weights.astype(int))))


def pairs_oracle(labels, scores, classes, direction="higher", weights=None):
    """pROC multiclass.roc by brute force: {(a, b): AUC} over the classes present."""
    labels, scores = np.asarray(labels), np.asarray(scores, dtype=float)
    weights = np.ones(len(labels)) if weights is None else np.asarray(weights, dtype=float)
    present = [c for c in classes if ((labels == c) & (weights > 0)).any()]
    out = {}
    for a, b in combinations(present, 2):
        inside = (labels == a) | (labels == b)
        flip = direction == "lower"
        if direction == "auto":
            ma = median(scores[labels == a], weights[labels == a])
            mb = median(scores[labels == b], weights[labels == b])
            flip = ma > mb
        signed = -scores[inside] if flip else scores[inside]
        out[(a, b)] = pairwise_auc(labels[inside] == b, signed, weights[inside])
    return out


def hand_till_oracle(labels, P, classes, weights=None):  # noqa: N803
    """{(a, b): (A(a|b) + A(b|a)) / 2} by brute force."""
    labels = np.asarray(labels)
    weights = np.ones(len(labels)) if weights is None else np.asarray(weights, dtype=float)
    out = {}
    for (i, a), (j, b) in combinations(enumerate(classes), 2):
        inside = (labels == a) | (labels == b)
        lab, w = labels[inside], weights[inside]
        a_b = pairwise_auc(lab == a, P[inside, i], w)
        b_a = pairwise_auc(lab == b, P[inside, j], w)
        out[(a, b)] = None if a_b is None or b_a is None else (a_b + b_a) / 2
    return out


def delong_oracle(positive: np.ndarray, score: np.ndarray) -> float:
    """DeLong's standard error from the placements (DeLong et al. 1988), by brute force."""
    x, y = score[positive], score[~positive]

    def psi(a: float, b: float) -> float:
        return 1.0 if a > b else 0.5 if a == b else 0.0

    v10 = np.array([np.mean([psi(a, b) for b in y]) for a in x])
    v01 = np.array([np.mean([psi(a, b) for a in x]) for b in y])
    return float(np.sqrt(v10.var(ddof=1) / len(x) + v01.var(ddof=1) / len(y)))


def fitted(loader, features: list[int]) -> tuple[pl.DataFrame, np.ndarray, np.ndarray]:
    """A weak model's class probabilities on scikit-learn data (ties from repeated values)."""
    X, y = loader(return_X_y=True)
    model = LogisticRegression(max_iter=1000).fit(X[::3][:, features], y[::3])
    P = model.predict_proba(X[:, features])
    frame = pl.DataFrame(
        {"y": y, "seg": np.arange(len(y)) % 3, **{str(k): P[:, k] for k in range(3)}}
    )
    return frame, y, P


DATASETS = {
    "wine": lambda: fitted(load_wine, [0, 1]),
    "iris": lambda: fitted(load_iris, [1]),
}
COLUMNS = ["0", "1", "2"]


def auc_of(frame: pl.DataFrame | pl.LazyFrame, *args, **kwargs) -> float:
    out = frame.roc.multiclass_auc(*args, **kwargs)
    return (out.collect() if isinstance(out, pl.LazyFrame) else out)["auc"].item()


# ---------------------------------------------------------------------------------------
# scikit-learn
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("data", list(DATASETS))
@pytest.mark.parametrize("method", ["ovr", "ovo"])
@pytest.mark.parametrize("average", ["macro", "weighted"])
def test_equals_scikit_learn(data: str, method: str, average: str) -> None:
    frame, y, P = DATASETS[data]()
    expected = roc_auc_score(y, P, multi_class=method, average=average)
    mapping = {k: str(k) for k in range(3)}
    assert auc_of(frame, COLUMNS, "y", method=method, average=average) == pytest.approx(expected)
    assert auc_of(frame.lazy(), mapping, "y", method=method, average=average) == pytest.approx(
        expected
    )
    expr = pr.multiclass_auc(mapping, "y", method=method, average=average)
    assert frame.select(expr).item() == pytest.approx(expected)


@pytest.mark.parametrize("data", list(DATASETS))
def test_micro_and_per_class_equal_scikit_learn(data: str) -> None:
    frame, y, P = DATASETS[data]()
    Y = label_binarize(y, classes=[0, 1, 2])
    micro = roc_auc_score(Y.ravel(), P.ravel())
    assert auc_of(frame, COLUMNS, "y", average="micro") == pytest.approx(micro)
    assert frame.select(pr.multiclass_auc(COLUMNS, "y", average="micro")).item() == pytest.approx(
        micro
    )
    per_class = frame.roc.multiclass_auc(COLUMNS, "y", average=None)
    assert per_class["class"].to_list() == [0, 1, 2]
    expected = [roc_auc_score(Y[:, k], P[:, k]) for k in range(3)]
    assert per_class["auc"].to_list() == pytest.approx(expected)
    assert per_class["n_pos"].to_list() == np.bincount(y).tolist()


def test_per_pair_equals_brute_force_hand_till() -> None:
    frame, y, P = DATASETS["wine"]()
    got = frame.roc.multiclass_auc(COLUMNS, "y", method="ovo", average=None)
    oracle = hand_till_oracle(y, P, [0, 1, 2])
    assert list(zip(got["class_a"], got["class_b"], strict=True)) == list(oracle)
    assert got["auc"].to_list() == pytest.approx(list(oracle.values()))
    assert got["n_a"].to_list() == [59, 59, 71]


def test_sample_weights_equal_scikit_learn_ovr() -> None:
    frame, y, P = DATASETS["wine"]()
    w = (np.arange(len(y)) % 4).astype(float)
    weighted = frame.with_columns(w=pl.Series(w))
    for average in ("macro", "weighted"):
        expected = roc_auc_score(y, P, multi_class="ovr", average=average, sample_weight=w)
        got = auc_of(weighted, COLUMNS, "y", average=average, weight="w")
        assert got == pytest.approx(expected)
    Y = label_binarize(y, classes=[0, 1, 2])
    micro = roc_auc_score(Y.ravel(), P.ravel(), sample_weight=np.repeat(w, 3))
    assert auc_of(weighted, COLUMNS, "y", average="micro", weight="w") == pytest.approx(micro)


# ---------------------------------------------------------------------------------------
# pROC's published multiclass.roc values (aSAH, gos6)
# ---------------------------------------------------------------------------------------


@pytest.fixture
def gos6() -> pl.DataFrame:
    frame = pl.read_csv(HERE / "aSAH_gos6.csv")
    return frame.with_columns(pl.col("gos6").cast(pl.String).cast(GOS6))


@pytest.mark.parametrize(
    ("direction", "expected"),
    [("auto", 0.6539999352), ("higher", 0.3487473175), ("lower", 0.6512526825)],
)
def test_s100b_equals_proc(gos6: pl.DataFrame, direction: str, expected: float) -> None:
    # pROC tests/testthat/test-multiclass.R: multiclass.roc(aSAH$gos6, aSAH$s100b, direction=)
    # ("<" is "higher": a higher score points to the later level).
    assert auc_of(gos6, "s100b", "gos6", direction=direction) == pytest.approx(expected, abs=1e-9)
    expr = pr.multiclass_auc("s100b", "gos6", direction=direction, classes=GOS6.categories)
    assert gos6.select(expr).item() == pytest.approx(expected, abs=1e-9)


def test_s100b_pairs_and_directions_equal_proc(gos6: pl.DataFrame) -> None:
    pairs = gos6.roc.multiclass_auc("s100b", "gos6", direction="auto", average=None)
    # Level 2 is declared but has no case: skipped, as pROC does (6 pairs of 1, 3, 4, 5).
    assert pairs.select("class_a", "class_b").rows() == [
        ("1", "3"), ("1", "4"), ("1", "5"), ("3", "4"), ("3", "5"), ("4", "5")
    ]  # fmt: skip
    # pROC: sapply(uv.mr$rocs, "[[", "direction") == c("<", ">", ">", ">", ">", ">")
    assert pairs["direction"].to_list() == ["higher"] + ["lower"] * 5
    labels = gos6["gos6"].cast(pl.String).to_numpy()
    oracle = pairs_oracle(labels, gos6["s100b"].to_numpy(), ["1", "3", "4", "5"], "auto")
    assert pairs["auc"].to_list() == pytest.approx(list(oracle.values()))


def test_ndka_equals_proc(gos6: pl.DataFrame) -> None:
    # pROC print_output/multiclass: 0.6087; multiclass_levels (levels = c(3, 4, 5)): 0.6182.
    assert round(auc_of(gos6, "ndka", "gos6", direction="auto"), 4) == 0.6087
    three = gos6.filter(pl.col("gos6").is_in(["3", "4", "5"]))
    assert round(auc_of(three, "ndka", "gos6", direction="auto"), 4) == 0.6182


def test_single_score_label_codings_agree(gos6: pl.DataFrame) -> None:
    integer = gos6.with_columns(pl.col("gos6").cast(pl.String).cast(pl.Int64))
    text = gos6.with_columns(pl.col("gos6").cast(pl.String))
    expected = 0.6539999352
    for frame in (integer, text, text.with_columns(pl.col("gos6").cast(pl.Categorical))):
        assert auc_of(frame, "s100b", "gos6", direction="auto") == pytest.approx(expected)


def test_single_score_delong_per_pair(gos6: pl.DataFrame) -> None:
    pairs = gos6.roc.multiclass_auc("s100b", "gos6", average=None, ci="delong")
    labels = gos6["gos6"].cast(pl.String).to_numpy()
    s = gos6["s100b"].to_numpy()
    for a, b, se in pairs.select("class_a", "class_b", "auc_se").rows():
        inside = (labels == a) | (labels == b)
        assert se == pytest.approx(delong_oracle(labels[inside] == b, s[inside]))


# ---------------------------------------------------------------------------------------
# Properties (hypothesis)
# ---------------------------------------------------------------------------------------

POOL = [0.0, 0.25, 0.5, 0.75, 1.0]


@st.composite
def multiclass_rows(draw: st.DrawFn, *, k: int = 3, groups: int = 1) -> pl.DataFrame:
    n = draw(st.integers(0, 24))
    column = st.lists(st.sampled_from(POOL), min_size=n, max_size=n)
    data = {
        "y": draw(st.lists(st.sampled_from(["a", "b", "c", "d"][:k]), min_size=n, max_size=n)),
        "w": [float(v) for v in draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))],
        "g": draw(st.lists(st.integers(0, groups - 1), min_size=n, max_size=n)),
        **{c: draw(column) for c in ["a", "b", "c", "d"][:k]},
    }
    schema = {"y": pl.String, "w": pl.Float64, "g": pl.Int64} | dict.fromkeys("abcd", pl.Float64)
    return pl.DataFrame(data, schema={c: schema[c] for c in data})


SETTINGS = [
    {"method": "ovr", "average": "macro"},
    {"method": "ovr", "average": "weighted"},
    {"method": "ovr", "average": "micro"},
    {"method": "ovo", "average": "macro"},
    {"method": "ovo", "average": "weighted"},
]


@given(frame=multiclass_rows())
def test_per_class_and_pairs_equal_brute_force(frame: pl.DataFrame) -> None:
    y, P = frame["y"].to_numpy(), frame.select("a", "b", "c").to_numpy()
    per_class = frame.roc.multiclass_auc(["a", "b", "c"], "y", average=None)
    for i, (cls, auc, n_pos) in enumerate(per_class.select("class", "auc", "n_pos").rows()):
        assert n_pos == (y == cls).sum()
        expected = pairwise_auc(y == cls, P[:, i])
        assert (auc is None) == (expected is None)
        if expected is not None:
            assert auc == pytest.approx(expected)
    pairs = frame.roc.multiclass_auc(["a", "b", "c"], "y", method="ovo", average=None)
    oracle = hand_till_oracle(y, P, ["a", "b", "c"])
    assert pairs.height == 3
    for got, expected in zip(pairs["auc"].to_list(), oracle.values(), strict=True):
        assert got == pytest.approx(expected) if expected is not None else got is None


@settings(max_examples=25)
@given(frame=multiclass_rows())
def test_averages_equal_scikit_learn_when_all_classes_present(frame: pl.DataFrame) -> None:
    y, P = frame["y"].to_numpy(), frame.select("a", "b", "c").to_numpy() + 0.01
    if len(set(y)) < 3:
        return
    P = P / P.sum(axis=1, keepdims=True)  # scikit-learn wants probabilities
    probabilities = pl.DataFrame({"y": y, **{c: P[:, i] for i, c in enumerate("abc")}})
    for setting in SETTINGS:
        if setting["average"] == "micro":
            Y = label_binarize(y, classes=["a", "b", "c"])
            expected = roc_auc_score(Y.ravel(), P.ravel())
        else:
            expected = roc_auc_score(
                y, P, multi_class=setting["method"], average=setting["average"]
            )
        assert auc_of(probabilities, ["a", "b", "c"], "y", **setting) == pytest.approx(expected)
        expr = pr.multiclass_auc(["a", "b", "c"], "y", **setting)
        assert probabilities.select(expr).item() == pytest.approx(expected)


@settings(max_examples=15)  # each example runs 2 frames and a 6-pair expression
@given(frame=multiclass_rows(k=4), direction=st.sampled_from(["higher", "lower", "auto"]))
def test_single_score_pairs_equal_brute_force(frame: pl.DataFrame, direction: str) -> None:
    labels, s, w = frame["y"].to_numpy(), frame["a"].to_numpy(), frame["w"].to_numpy()
    oracle = pairs_oracle(labels, s, ["a", "b", "c", "d"], direction, w)
    got = frame.roc.multiclass_auc("a", "y", direction=direction, average=None, weight="w")
    assert {(a, b): v for a, b, v in got.select("class_a", "class_b", "auc").rows()} == (
        pytest.approx(oracle)
    )
    values = [v for v in oracle.values() if v is not None]
    macro = auc_of(frame, "a", "y", direction=direction, weight="w")
    if len(values) == len(oracle) and values:
        assert macro == pytest.approx(np.mean(values))
    expr = pr.multiclass_auc("a", "y", direction=direction, weight="w", classes="abcd")
    assert frame.select(expr).item() == (pytest.approx(macro) if macro is not None else None)


@settings(max_examples=25)
@given(frame=multiclass_rows(groups=3), setting=st.sampled_from(SETTINGS))
def test_grouped_equals_one_group_at_a_time(frame: pl.DataFrame, setting: dict) -> None:
    scores = {"a": "a", "b": "b", "c": "c"}
    grouped = frame.roc.multiclass_auc(scores, "y", by="g", weight="w", **setting)
    for g, auc, n_classes in grouped.rows():
        alone = frame.filter(pl.col("g") == g).roc.multiclass_auc(
            scores, "y", weight="w", **setting
        )
        assert alone.rows() == [(pytest.approx(auc) if auc is not None else None, n_classes)]
    expr = frame.group_by("g").agg(pr.multiclass_auc(scores, "y", weight="w", **setting))
    assert_frame_equal(
        expr.sort("g"), grouped.select("g", "auc"), check_exact=False, check_dtypes=False
    )
    single = frame.roc.multiclass_auc("a", "y", by="g", weight="w", direction="auto")
    for g, auc, _ in single.rows():
        alone = frame.filter(pl.col("g") == g).roc.multiclass_auc(
            "a", "y", weight="w", direction="auto"
        )
        assert alone["auc"].item() == (pytest.approx(auc) if auc is not None else None)


@settings(max_examples=25)
@given(frame=multiclass_rows(groups=2), setting=st.sampled_from(SETTINGS))
def test_weights_equal_repeated_rows(frame: pl.DataFrame, setting: dict) -> None:
    repeated = repeat_rows(frame, "w")
    kwargs = {"by": "g", **setting}
    weighted = frame.roc.multiclass_auc(["a", "b", "c"], "y", weight="w", **kwargs)
    plain = repeated.roc.multiclass_auc(["a", "b", "c"], "y", **kwargs)
    present = plain["g"].to_list()
    assert_frame_equal(
        weighted.filter(pl.col("g").is_in(present)), plain, check_exact=False, check_dtypes=False
    )
    single = frame.roc.multiclass_auc("a", "y", weight="w", by="g", direction="auto")
    single_plain = repeated.roc.multiclass_auc("a", "y", by="g", direction="auto")
    assert_frame_equal(single.filter(pl.col("g").is_in(present)), single_plain, check_exact=False)


@settings(max_examples=25)
@given(frame=multiclass_rows(groups=2))
def test_lazy_equals_eager(frame: pl.DataFrame) -> None:
    for kwargs in [*SETTINGS, {"average": None}, {"method": "ovo", "average": None}]:
        eager = frame.roc.multiclass_auc(["a", "b", "c"], "y", by="g", **kwargs)
        lazy = frame.lazy().roc.multiclass_auc(["a", "b", "c"], "y", by="g", **kwargs)
        assert isinstance(lazy, pl.LazyFrame)
        assert_frame_equal(lazy.collect(), eager)
    eager_curve = frame.roc.multiclass_curve(["a", "b", "c"], "y", by="g")
    assert_frame_equal(
        frame.lazy().roc.multiclass_curve(["a", "b", "c"], "y", by="g").collect(), eager_curve
    )


# ---------------------------------------------------------------------------------------
# Curves
# ---------------------------------------------------------------------------------------


def trapezoid(frame: pl.DataFrame) -> float:
    f, t = frame["fpr"].to_numpy(), frame["tpr"].to_numpy()
    return float(np.sum(np.diff(f) * (t[1:] + t[:-1]) / 2))


def test_curves_equal_scikit_learn() -> None:
    frame, y, P = DATASETS["wine"]()
    curves = frame.roc.multiclass_curve(COLUMNS, "y")
    assert curves.columns == ["class", "threshold", "tp", "fp", "tn", "fn", "tpr", "fpr"]
    assert curves["class"].unique(maintain_order=True).to_list() == [*COLUMNS, "micro", "macro"]
    Y = label_binarize(y, classes=[0, 1, 2])
    sk = {}
    for k in range(3):
        fpr, tpr, _ = roc_curve(Y[:, k], P[:, k], drop_intermediate=False)
        got = curves.filter(pl.col("class") == str(k))
        np.testing.assert_allclose(got["fpr"], fpr)
        np.testing.assert_allclose(got["tpr"], tpr)
        sk[k] = (fpr, tpr)
    micro = curves.filter(pl.col("class") == "micro")
    assert trapezoid(micro) == pytest.approx(roc_auc_score(Y.ravel(), P.ravel()))
    # Macro: scikit-learn's recipe (np.interp on the union grid takes the top of a vertical
    # step) gives the upper end at each FPR; its area is the mean of the class AUCs.
    macro = curves.filter(pl.col("class") == "macro")
    grid = np.unique(np.concatenate([f for f, _ in sk.values()]))
    mean_tpr = np.mean([np.interp(grid, f, t) for f, t in sk.values()], axis=0)
    top = macro.group_by("fpr").agg(pl.col("tpr").max()).sort("fpr")
    np.testing.assert_allclose(top["fpr"], grid)
    np.testing.assert_allclose(top["tpr"], mean_tpr)
    assert trapezoid(macro) == pytest.approx(roc_auc_score(y, P, multi_class="ovr"))


def test_curve_chart_dashes_the_averages() -> None:
    frame, _, _ = DATASETS["iris"]()
    curves = frame.roc.multiclass_curve(COLUMNS, "y", by="seg")
    chart = pr.charts.roc_chart(curves.filter(pl.col("seg") == 0).drop("seg"), color="class")
    spec = chart.to_dict()  # validates against the Vega-Lite schema
    dash = spec["layer"][1]["encoding"]["strokeDash"]
    assert dash["condition"]["value"] == [6, 4]
    assert "micro" in dash["condition"]["test"]
    plain = pr.charts.roc_chart(frame.roc.curve("0", "y", pos_label=0))
    assert "strokeDash" not in plain.to_dict()["layer"][1]["encoding"]


# ---------------------------------------------------------------------------------------
# Edges and errors
# ---------------------------------------------------------------------------------------

SMALL = pl.DataFrame(
    {
        "y": ["a", "a", "b", "b", "c", "c"],
        "a": [0.8, 0.5, 0.1, 0.3, 0.2, 0.1],
        "b": [0.1, 0.3, 0.7, 0.4, 0.2, 0.5],
        "c": [0.1, 0.2, 0.2, 0.3, 0.6, 0.4],
        "d": [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
    }
)


def test_label_without_a_score_column_is_an_error_naming_it() -> None:
    with pytest.raises(Exception, match=r"\['c'\].*no score column"):
        SMALL.roc.multiclass_auc({"a": "a", "b": "b"}, "y")
    with pytest.raises(Exception, match=r"\['c'\].*no score column"):
        SMALL.select(pr.multiclass_auc({"a": "a", "b": "b"}, "y"))


def test_class_absent_from_the_data_is_a_null_row_and_skipped() -> None:
    scores = {"a": "a", "b": "b", "c": "c", "d": "d"}
    per_class = SMALL.roc.multiclass_auc(scores, "y", average=None)
    assert per_class.row(3) == ("d", None, 0, 6)
    macro = SMALL.roc.multiclass_auc(scores, "y")
    assert macro.rows() == [(pytest.approx((1 + 0.875 + 1) / 3), 3)]
    pairs = SMALL.roc.multiclass_auc(scores, "y", method="ovo", average=None)
    assert pairs.filter(pl.col("class_b") == "d")["auc"].to_list() == [None] * 3
    assert pairs.filter(pl.col("class_b") == "d")["n_b"].to_list() == [0] * 3
    expr = SMALL.select(pr.multiclass_auc(scores, "y")).item()
    assert expr == pytest.approx(macro["auc"].item())


def test_nan_score_makes_its_class_and_the_average_null() -> None:
    nan = SMALL.with_columns(
        pl.when(pl.col("y") == "b").then(float("nan")).otherwise("c").alias("c")
    )
    per_class = nan.roc.multiclass_auc(["a", "b", "c"], "y", average=None)
    assert per_class["auc"].to_list()[2] is None
    assert per_class["auc"].to_list()[:2] == [1.0, 0.875]
    assert nan.roc.multiclass_auc(["a", "b", "c"], "y")["auc"].item() is None
    assert nan.select(pr.multiclass_auc(["a", "b", "c"], "y")).item() is None
    macro = nan.roc.multiclass_curve(["a", "b", "c"], "y").filter(pl.col("class") == "macro")
    assert macro["tpr"].null_count() == macro.height


def test_null_score_in_any_column_skips_the_case_for_every_class() -> None:
    holes = SMALL.with_columns(pl.when(pl.col("a") == 0.8).then(None).otherwise("b").alias("b"))
    per_class = holes.roc.multiclass_auc(["a", "b", "c"], "y", average=None)
    assert per_class["n_pos"].to_list() == [1, 2, 2]
    assert per_class["n_neg"].to_list() == [4, 3, 3]


def test_internal_and_output_names_never_collide() -> None:
    clash = SMALL.with_columns(
        _mc_score=pl.lit(1), _mc_class=pl.lit("x"), _mc_code=pl.lit(0), _mc_positive=pl.lit(2)
    )
    expected = SMALL.roc.multiclass_auc(["a", "b", "c"], "y", average=None)
    got = clash.roc.multiclass_auc(["a", "b", "c"], "y", average=None, by="_mc_class")
    assert_frame_equal(got.drop("_mc_class"), expected)
    got = clash.roc.multiclass_auc("a", "y", by=["_mc_score", "_mc_code"])
    assert got["auc"].item() == SMALL.roc.multiclass_auc("a", "y")["auc"].item()
    for by, kwargs in [
        ("auc", {}),
        ("class", {"average": None}),
        ("n_a", {"method": "ovo", "average": None}),
    ]:
        with pytest.raises(ValueError, match=f"'{by}'.*collide"):
            SMALL.with_columns(pl.lit(1).alias(by)).roc.multiclass_auc(
                ["a", "b", "c"], "y", by=by, **kwargs
            )


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"method": "ovo", "average": "micro"}, "micro"),
        ({"ci": "delong"}, "average=None"),
        ({"method": "ovo", "average": None, "ci": "delong"}, "method='ovr'"),
        ({"direction": "auto"}, "auto"),
        ({"method": "ovx"}, "method must be one of"),
        ({"average": "mean"}, "average must be one of"),
    ],
)
def test_bad_arguments(kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        SMALL.roc.multiclass_auc(["a", "b", "c"], "y", **kwargs)


def test_bad_columns() -> None:
    with pytest.raises(pl.exceptions.ColumnNotFoundError, match="'e'"):
        SMALL.roc.multiclass_auc(["a", "b", "e"], "y")
    with pytest.raises(pl.exceptions.SchemaError, match="'a'"):
        SMALL.roc.multiclass_auc(["a", "b", "c"], "a")
    with pytest.raises(ValueError, match="at least two classes"):
        SMALL.roc.multiclass_auc(["a"], "y")
    with pytest.raises(ValueError, match="classes"):
        SMALL.select(pr.multiclass_auc("a", "y"))
    with pytest.raises(ValueError, match="not categories"):
        SMALL.with_columns(pl.col("y").cast(pl.Enum(["a", "b", "c"]))).roc.multiclass_auc(
            ["a", "b", "d"], "y"
        )
    with pytest.raises(ValueError, match="one score column per class"):
        SMALL.roc.multiclass_curve("a", "y")


def test_ovr_delong_per_class_equals_brute_force() -> None:
    frame, y, P = DATASETS["iris"]()
    got = frame.roc.multiclass_auc(COLUMNS, "y", average=None, ci="delong")
    for k in range(3):
        assert got["auc_se"][k] == pytest.approx(delong_oracle(y == k, P[:, k]))
    assert (got["auc_lower"] <= got["auc"]).all()


def test_lazy_method_never_runs_the_query() -> None:
    def boom(values: pl.Series) -> pl.Series:
        msg = "the query was executed"
        raise RuntimeError(msg)

    trap = SMALL.lazy().with_columns(pl.col("a").map_batches(boom, return_dtype=pl.Float64))
    for query in [
        trap.roc.multiclass_auc(["a", "b", "c"], "y"),
        trap.roc.multiclass_auc(["a", "b", "c"], "y", method="ovo", average=None),
        trap.roc.multiclass_auc("a", "y", direction="auto"),
        trap.roc.multiclass_curve(["a", "b", "c"], "y"),
    ]:
        with pytest.raises(Exception, match="the query was executed"):
            query.collect()


def test_micro_skips_a_class_absent_from_a_group_like_the_other_averages() -> None:
    # Group "b" has no case of class 2: its column's rows (all negatives) once joined the
    # pooled rows. The micro AUC pools the classes present, as scikit-learn on those columns.
    frame, _, _ = DATASETS["wine"]()
    frame = frame.with_columns(g=pl.when(pl.col("y") == 2).then(pl.lit("a")).otherwise(pl.lit("b")))
    frame = frame.with_columns(
        g=pl.when(pl.int_range(pl.len()) % 3 == 0).then(pl.lit("a")).otherwise("g")
    )
    got = frame.roc.multiclass_auc(COLUMNS, "y", average="micro", by="g")
    agg = frame.group_by("g").agg(pr.multiclass_auc(COLUMNS, "y", average="micro")).sort("g")
    for g in ("a", "b"):
        part = frame.filter(pl.col("g") == g)
        present = sorted(part["y"].unique().to_list())
        Y = label_binarize(part["y"].to_numpy(), classes=[0, 1, 2])[:, present]
        scores = part.select(COLUMNS[k] for k in present).to_numpy()
        expected = roc_auc_score(Y.ravel(), scores.ravel())
        assert got.filter(pl.col("g") == g)["auc"].item() == pytest.approx(expected)
        assert agg.filter(pl.col("g") == g)["auc"].item() == pytest.approx(expected)
    assert got["n_classes"].to_list() == [3, 2]
