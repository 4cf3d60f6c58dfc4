"""Edges that gave wrong or blank numbers (issue 11, items 5-13), against independent oracles.

Oracles: scikit-learn, brute force over thresholds or positive-negative pairs, and the
documented equivalences (``nan_policy="omit"`` is the same as null scores).
"""

from __future__ import annotations

import math
import re
from decimal import Decimal

import numpy as np
import polars as pl
import pytest
from polars.exceptions import SchemaError
from polars.testing import assert_frame_equal
from sklearn.metrics import average_precision_score, det_curve, roc_auc_score

import polars_roc as pr


def _data(n: int = 60, seed: int = 3) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    label = rng.integers(0, 2, n)
    label[:2] = [0, 1]
    return pl.DataFrame({"score": np.round(rng.normal(size=n) + label, 1), "label": label})


def _brute_auc(score: np.ndarray, label: np.ndarray, weight: np.ndarray) -> float:
    pos, neg = label == 1, label == 0
    s_p, s_n = score[pos][:, None], score[neg][None, :]
    w = weight[pos][:, None] * weight[neg][None, :]
    wins = (s_p > s_n) + 0.5 * (s_p == s_n)
    return float((w * wins).sum() / w.sum())


# --- 5. average_curve(method="threshold") leaves undefined folds out -------------------------


def test_threshold_averaging_leaves_a_fold_without_negatives_out_of_both_means() -> None:
    one = pl.DataFrame(
        {"score": [0.1, 0.4, 0.35, 0.8, 0.6, 0.2], "label": [0, 0, 1, 1, 1, 0], "fold": [1] * 6}
    )
    only_pos = pl.DataFrame({"score": [0.5, 0.7, 0.3], "label": [1, 1, 1], "fold": [2] * 3})
    got = pl.concat([one, only_pos]).roc.average_curve(method="threshold", points=4)
    s, y = one["score"].to_numpy(), one["label"].to_numpy()
    for t, fpr, tpr in got.select("threshold", "fpr", "tpr_mean").iter_rows():
        # fold 1 alone, by brute force: the rates of `score >= t`
        assert tpr == pytest.approx(((s >= t) & (y == 1)).sum() / (y == 1).sum())
        assert fpr == pytest.approx(((s >= t) & (y == 0)).sum() / (y == 0).sum())


# --- 6. extreme uniform weights -----------------------------------------------------------


@pytest.mark.parametrize("scale", [1e154, 1e200, 1e300, 1e-162, 1e-163, 1e-200, 1e-300])
def test_extreme_weights_give_the_unscaled_numbers(scale: float) -> None:
    df = _data()
    rng = np.random.default_rng(1)
    base = rng.uniform(1, 3, df.height)
    weighted = df.with_columns(w=pl.Series(base * scale))
    y, s = df["label"].to_numpy(), df["score"].to_numpy()
    want = roc_auc_score(y, s, sample_weight=base)
    assert want == pytest.approx(_brute_auc(s, y, base), rel=1e-12)
    assert weighted.roc.auc(weight="w")["auc"].item() == pytest.approx(want, rel=1e-12)
    assert weighted.select(pr.auc("score", "label", weight="w")).item() == pytest.approx(
        want, rel=1e-12
    )
    delong = weighted.roc.auc(weight="w", ci="delong").row(0, named=True)
    assert delong["auc"] == pytest.approx(want, rel=1e-12)
    assert delong["auc_se"] is None or math.isfinite(delong["auc_se"])
    ap = average_precision_score(y, s, sample_weight=base)
    assert weighted.roc.average_precision(weight="w")["average_precision"].item() == (
        pytest.approx(ap, rel=1e-12)
    )
    assert weighted.select(pr.average_precision("score", "label", weight="w")).item() == (
        pytest.approx(ap, rel=1e-12)
    )
    # the best threshold is a property of the rates: the same as with the unscaled weights
    plain = df.with_columns(w=pl.Series(base))
    for method in ("youden", "closest_topleft", "cost"):
        want_t = plain.roc.best_threshold(weight="w", method=method, prevalence=0.3)
        got_t = weighted.roc.best_threshold(weight="w", method=method, prevalence=0.3)
        assert got_t["threshold"].item() == want_t["threshold"].item()


def test_uniform_extreme_weights_equal_the_unweighted_auc() -> None:
    df = _data()
    want = roc_auc_score(df["label"], df["score"])
    for scale in (1e154, 1e-163, 1e-162, 5e-324 * 2**20):
        got = df.with_columns(w=pl.lit(scale)).roc.auc(weight="w")["auc"].item()
        assert got == pytest.approx(want, rel=1e-12)


# --- 7. integer scores beyond 2**53 -------------------------------------------------------


def test_integer_scores_beyond_2_53_are_not_tied() -> None:
    tiny = pl.DataFrame({"score": [2**53, 2**53 + 1], "label": [0, 1]})
    assert roc_auc_score([0, 1], np.array([2**53, 2**53 + 1])) == 1.0
    assert tiny.roc.auc()["auc"].item() == 1.0
    assert tiny.select(pr.auc("score", "label")).item() == 1.0
    assert tiny.roc.auc(ci="delong")["auc"].item() == 1.0
    assert tiny.roc.curve()["tpr"].to_list() == [0.0, 1.0, 1.0]
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 80)
    s = 2**60 + rng.integers(0, 6, 80) * 1 + y * rng.integers(0, 3, 80)
    frame = pl.DataFrame({"score": s, "label": y, "w": rng.uniform(0.5, 2, 80)})
    want = roc_auc_score(y, s)
    assert want == _brute_auc(s, y, np.ones(80))
    assert frame.roc.auc()["auc"].item() == pytest.approx(want, abs=1e-15)
    assert frame.select(pr.auc("score", "label")).item() == pytest.approx(want, abs=1e-15)
    assert frame.roc.counts().height == len(set(s.tolist())) + 1
    w = frame["w"].to_numpy()
    want_w = roc_auc_score(y, s, sample_weight=w)
    assert frame.roc.auc(weight="w")["auc"].item() == pytest.approx(want_w, rel=1e-12)
    assert frame.roc.auc(weight="w", ci="delong")["auc"].item() == pytest.approx(want_w, rel=1e-12)


# --- 8. det_curve keeps a group holding a NaN score ---------------------------------------


def test_det_curve_keeps_a_nan_group_like_curve() -> None:
    good = _data(30, seed=8)
    bad = _data(30, seed=9).with_columns(
        score=pl.when(pl.int_range(pl.len()) == 0).then(float("nan")).otherwise("score")
    )
    frame = pl.concat([good.with_columns(g=pl.lit("a")), bad.with_columns(g=pl.lit("b"))])
    got = frame.roc.det_curve(by="g")
    assert set(got["g"]) == {"a", "b"}
    b = got.filter(pl.col("g") == "b")
    # every threshold of the group's curve, as curve() and pr_curve() keep them
    assert b.height == bad.roc.curve().height
    assert b["fpr"].is_null().all()
    assert b["fnr"].is_null().all()
    fpr, fnr, thresholds = det_curve(good["label"], good["score"])
    a = got.filter(pl.col("g") == "a")
    np.testing.assert_allclose(a["fpr"], fpr)
    np.testing.assert_allclose(a["fnr"], fnr)
    np.testing.assert_allclose(a["threshold"], thresholds)
    assert bad.roc.det_curve().height == bad.roc.curve().height


# --- 9. a pos_label found nowhere; wrong pos_label types in expressions ----------------------


def test_a_pos_label_in_no_row_is_an_error_listing_the_labels() -> None:
    df = _data().with_columns(
        y=pl.when(pl.col("label") == 1).then(pl.lit("yes")).otherwise(pl.lit("no"))
    )
    with pytest.raises(ValueError, match=r"pos_label 'Yes' occurs in no row.*\['no', 'yes'\]"):
        df.roc.auc(label="y", pos_label="Yes")
    with pytest.raises(ValueError, match="pos_label 'Yes' occurs in no row"):
        df.lazy().roc.curve(label="y", pos_label="Yes").collect()
    with pytest.raises(ValueError, match="pos_label 'Yes' occurs in no row"):
        df.roc.partial_auc(label="y", pos_label="Yes", by="label", fpr=(0.0, 0.5))
    # present in one group only is fine: the other group's AUC is null
    got = df.roc.auc(label="y", pos_label="yes", by="label")
    assert got["n_pos"].to_list() == [0, (df["label"] == 1).sum()]


def test_a_pos_label_of_the_wrong_type_is_our_error_in_expressions() -> None:
    df = _data()
    with pytest.raises(TypeError, match="pos_label 'x' does not fit label column 'label'"):
        df.select(pr.auc("score", "label", pos_label="x"))
    boolean = df.with_columns(pl.col("label").cast(pl.Boolean))
    with pytest.raises(TypeError, match="pos_label 'x' does not fit label column 'label'"):
        boolean.select(pr.auc("score", "label", pos_label="x"))
    with pytest.raises(TypeError, match="does not fit"):
        df.select(pr.average_precision("score", "label", pos_label="1"))
    assert df.select(pr.auc("score", "label", pos_label=1)).item() == pytest.approx(
        roc_auc_score(df["label"], df["score"])
    )


# --- 10. nan_policy ------------------------------------------------------------------------


def _with_nan(df: pl.DataFrame) -> pl.DataFrame:
    return df.with_columns(
        score=pl.when(pl.int_range(pl.len()) % 7 == 3).then(float("nan")).otherwise("score")
    )


def test_nan_policy_on_the_auc_against_scikit_learn() -> None:
    df = _with_nan(_data())
    kept = df.filter(pl.col("score").is_not_nan())
    want = roc_auc_score(kept["label"], kept["score"])
    assert df.roc.auc()["auc"].item() is None
    assert df.roc.auc(nan_policy="propagate")["auc"].item() is None
    assert df.roc.auc(nan_policy="omit")["auc"].item() == pytest.approx(want)
    assert df.select(pr.auc("score", "label", nan_policy="omit")).item() == pytest.approx(want)
    want_ap = average_precision_score(kept["label"], kept["score"])
    got_ap = df.select(pr.average_precision("score", "label", nan_policy="omit")).item()
    assert got_ap == pytest.approx(want_ap)
    count = int(df["score"].is_nan().sum())
    with pytest.raises(ValueError, match=f"score column 'score' holds {count} NaN"):
        df.roc.auc(nan_policy="raise")
    # A bare expression checks elementwise (once per column or streaming batch, never per
    # group): the message counts the NaN of the rows checked together.
    for query in (
        df.lazy().select(pr.auc("score", "label", nan_policy="raise")),
        df.lazy()
        .group_by(pl.int_range(pl.len()) % 7)
        .agg(pr.auc("score", "label", nan_policy="raise")),
    ):
        for engine in ("in-memory", "streaming"):
            with pytest.raises(ValueError, match=r"holds at least (\d+) NaN") as raised:
                query.collect(engine=engine)
            seen = re.search(r"at least (\d+)", str(raised.value))
            assert seen is not None
            assert 1 <= int(seen.group(1)) <= count
    with pytest.raises(ValueError, match="nan_policy must be one of"):
        df.roc.auc(nan_policy="drop")  # type: ignore[arg-type]


SCORED = [
    "counts", "curve", "auc", "partial_auc", "thresholds", "best_threshold", "tpr_at_fpr",
    "fpr_at_tpr", "pr_curve", "det_curve", "average_precision", "compare", "cv_auc",
    "average_curve", "hull", "hull_auc", "crossings", "curve_dominance", "optimal",
    "operating_ranges", "hybrid",
]  # fmt: skip
ARGS = {
    "partial_auc": {"fpr": (0.0, 0.5)},
    "tpr_at_fpr": {"fpr": [0.2]},
    "fpr_at_tpr": {"tpr": [0.8]},
    "hybrid": {"fpr": 0.3},
    "compare": {"case": "case"},
    "average_curve": {"points": 5},
}


@pytest.mark.parametrize("method", SCORED)
def test_every_scored_function_takes_nan_policy(method: str) -> None:
    base = _data(48)
    base = base.with_columns(
        model=pl.Series(["m1", "m2"] * 24), case=pl.int_range(pl.len()) // 2,
        fold=pl.int_range(pl.len()) % 2, label=pl.Series([0, 0, 1, 1] * 12)
    )  # fmt: skip
    df = _with_nan(base)
    nulls = df.with_columns(score=pl.col("score").fill_nan(None))
    function = pr.namespace.FRAME_METHODS[method]
    args = ARGS.get(method, {})
    want = function(nulls, **args)
    got = function(df, **args, nan_policy="omit")
    assert_frame_equal(got, want)
    with pytest.raises(
        ValueError, match=f"score column 'score' holds {int(df['score'].is_nan().sum())} NaN value"
    ):
        function(df, **args, nan_policy="raise")
    assert_frame_equal(function(df, **args), function(df, **args, nan_policy="propagate"))


# --- 11. compare: pairing as pROC ----------------------------------------------------------


def test_compare_pairs_models_scoring_the_same_rows_in_the_same_order() -> None:
    df = _data(40)
    rng = np.random.default_rng(2)
    two = pl.concat(
        [
            df.with_columns(model=pl.lit("a"), case=pl.int_range(pl.len())),
            df.with_columns(
                model=pl.lit("b"),
                case=pl.int_range(pl.len()),
                score=pl.col("score") + pl.Series(rng.normal(size=40)),
            ),
        ]
    )
    by_case = two.roc.compare(case="case")
    by_order = two.roc.compare()
    assert by_case["paired"].item()
    assert by_order["paired"].item()
    assert_frame_equal(by_order.drop("df"), by_case.drop("df"))
    # the same cases in another order, without ids: not the same cases as far as we know
    shuffled = pl.concat(
        [two.filter(pl.col("model") == "a"), two.filter(pl.col("model") == "b").reverse()]
    )
    assert not shuffled.roc.compare()["paired"].item()
    assert shuffled.roc.compare(case="case")["paired"].item()
    with pytest.raises(ValueError, match="null case id"):
        two.with_columns(case=pl.when(pl.col("case") < 2).then(None).otherwise("case")).roc.compare(
            case="case"
        )


# --- 12. the attainable operating point ----------------------------------------------------


def _vertices(s: np.ndarray, y: np.ndarray) -> list[tuple[float, float, float]]:
    out = []
    for t in [math.inf, *sorted(set(s.tolist()), reverse=True)]:
        predicted = s >= t
        out.append((t, predicted[y == 0].mean(), predicted[y == 1].mean()))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_operating_point_is_the_best_attainable_vertex(seed: int) -> None:
    df = _data(30, seed=seed).with_columns(pl.col("score").round(0))
    s, y = df["score"].to_numpy(), df["label"].to_numpy()
    vertices = _vertices(s, y)
    targets = [0.0, 0.1, 0.25, 0.5, 0.8, 1.0]
    for row in df.roc.tpr_at_fpr(fpr=targets).iter_rows(named=True):
        ok = [v for v in vertices if v[1] <= row["fpr"] + 1e-12]
        best = max(ok, key=lambda v: (v[2], -v[1]))
        assert (row["op_threshold"], row["op_fpr"], row["op_tpr"]) == pytest.approx(best)
    for row in df.roc.fpr_at_tpr(tpr=targets).iter_rows(named=True):
        ok = [v for v in vertices if v[2] >= row["tpr"] - 1e-12]
        best = min(ok, key=lambda v: (v[1], -v[2]))
        assert (row["op_threshold"], row["op_fpr"], row["op_tpr"]) == pytest.approx(best)


# --- 13. errors from expressions -----------------------------------------------------------


def test_expression_errors_are_ours() -> None:
    df = _data()
    want = roc_auc_score(df["label"], df["score"])
    decimal = df.with_columns(pl.col("score").cast(pl.Decimal(10, 2)))
    assert decimal.select(pr.auc("score", "label")).item() == pytest.approx(want)
    assert decimal.roc.auc()["auc"].item() == pytest.approx(want)
    assert decimal.select(pr.average_precision("score", "label")).item() == pytest.approx(
        average_precision_score(df["label"], df["score"])
    )
    assert isinstance(decimal["score"][0], Decimal)
    floats = df.with_columns(pl.col("label").cast(pl.Float64))
    with pytest.raises(SchemaError, match=r"label column 'label' has dtype Float64.*swap"):
        floats.select(pr.auc("score", "label"))
    assert floats.select(pr.auc("score", "label", pos_label=1.0)).item() == pytest.approx(want)
    with pytest.raises(SchemaError, match="did you swap score and label"):
        df.select(pr.auc("label", "score"))
    nulls = df.with_columns(n=pl.lit(None))
    with pytest.raises(SchemaError, match="score column 'n' has dtype Null"):
        nulls.select(pr.auc("n", "label"))
    with pytest.raises(SchemaError, match="label column 'n' has dtype Null"):
        nulls.select(pr.auc("score", "n"))
    with pytest.raises(SchemaError, match="score column 'b' has dtype Boolean"):
        df.with_columns(b=pl.col("label") == 1).select(pr.auc("b", "label"))
    with pytest.raises(SchemaError, match="score column 's' has dtype String"):
        df.with_columns(s=pl.lit("x")).select(pr.auc("s", "label"))


def test_label_coding_errors_on_eager_frames_are_short() -> None:
    df = _data().with_columns(y=pl.lit("yes"), code=pl.col("label") + 1)
    for call in (
        lambda: df.roc.auc(label="y"),
        lambda: df.roc.curve(label="code"),
        lambda: pr.namespace.FRAME_METHODS["thresholds"](df, label="code"),
    ):
        with pytest.raises(ValueError, match="which class is positive") as error:
            call()
        assert len(str(error.value)) < 400
        assert "This error occurred" not in str(error.value)
