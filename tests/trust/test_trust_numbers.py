"""Issue 28 (trust, round 3): the wrong numbers, the pandas/PyArrow AUC table, multiclass
messages and label/key types. Each test is the issue's reproduction, against an oracle
(scikit-learn, brute-force pairs, exact integer arithmetic)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from sklearn.calibration import calibration_curve
from sklearn.metrics import roc_auc_score

import polars_roc as pr
from tests.conftest import pairwise_auc

BIG = 2**53  # Float64 holds every integer up to here, and no odd one above


def _trapezoid(curve: pl.DataFrame) -> float:
    fpr, tpr = curve["fpr"].to_numpy(), curve["tpr"].to_numpy()
    return float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))


# ---------------------------------------------------------------------------------------
# 1. Weighted one-vs-rest skips rows whose label is null
# ---------------------------------------------------------------------------------------


def _null_labels() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "y": ["a", "a", "b", "b", None, None],
            "a": [0.9, 0.8, 0.1, 0.2, 0.5, 0.95],
            "b": [0.1, 0.2, 0.9, 0.8, 0.5, 0.05],
            "w": [1.0, 2.0, 1.0, 3.0, 1.0, 1.0],
        }
    )


@pytest.mark.parametrize("average", [None, "macro", "weighted", "micro"])
def test_weighted_ovr_skips_null_labels(average: str | None) -> None:
    df = _null_labels()
    got = df.roc.multiclass_auc(["a", "b"], "y", average=average, weight="w")
    kept = df.drop_nulls("y")
    expected = kept.roc.multiclass_auc(["a", "b"], "y", average=average, weight="w")
    assert got.equals(expected)
    # the oracle: scikit-learn on the rows that count (two classes: one score per class)
    y, w = kept["y"].to_numpy(), kept["w"].to_numpy()
    for c in ("a", "b"):
        oracle = roc_auc_score(y == c, kept[c].to_numpy(), sample_weight=w)
        if average is None:
            assert got.filter(pl.col("class") == c)["auc"].item() == pytest.approx(oracle)
    assert df.select(pr.multiclass_auc(["a", "b"], "y", weight="w"))["auc"].item() == 1.0


def test_weighted_ovr_null_labels_per_class_exact_value() -> None:
    got = _null_labels().roc.multiclass_auc(["a", "b"], "y", average=None, weight="w")
    assert got["auc"].to_list() == [1.0, 1.0]  # was 0.5 and 0.5: null labels counted


# ---------------------------------------------------------------------------------------
# 2. The micro curve integrates to the micro AUC when a class is absent from a segment
# ---------------------------------------------------------------------------------------


def test_micro_curve_area_is_micro_auc_with_an_absent_class() -> None:
    df = pl.DataFrame(
        {
            "g": [1, 1, 1, 1, 2, 2, 2, 2],
            "y": ["a", "a", "b", "b", "a", "b", "c", "c"],
            "a": [0.9, 0.4, 0.5, 0.2, 0.9, 0.3, 0.2, 0.6],
            "b": [0.05, 0.3, 0.3, 0.6, 0.05, 0.5, 0.1, 0.1],
            "c": [0.05, 0.3, 0.2, 0.2, 0.05, 0.2, 0.7, 0.3],
        }
    )
    curves = df.roc.multiclass_curve(["a", "b", "c"], "y", by="g")
    micro = df.roc.multiclass_auc(["a", "b", "c"], "y", by="g", average="micro")
    for g in (1, 2):
        area = _trapezoid(curves.filter((pl.col("g") == g) & (pl.col("class") == "micro")))
        # the oracle: pooled class-vs-rest pairs of the classes present in the group
        part = df.filter(pl.col("g") == g)
        present = sorted(set(part["y"]))
        truth = np.concatenate([(part["y"] == c).to_numpy() for c in present])
        pooled = np.concatenate([part[c].to_numpy() for c in present])
        oracle = roc_auc_score(truth, pooled)
        assert micro.filter(pl.col("g") == g)["auc"].item() == pytest.approx(oracle)
        assert area == pytest.approx(oracle)  # group 1 was 0.90625 against 0.84375


# ---------------------------------------------------------------------------------------
# 3. gains_table: a constant fractional weight cuts the bins unweighted rows cut
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("c", [0.1, 0.5, 0.3, 3.0])
def test_gains_table_constant_weight_changes_no_bin(c: float) -> None:
    rng = np.random.default_rng(10)
    n = 10
    df = pl.DataFrame({"score": rng.random(n), "label": rng.random(n) < 0.4, "w": [c] * n})
    plain = df.roc.gains_table()
    weighted = df.roc.gains_table(weight="w")
    assert weighted["bin"].to_list() == plain["bin"].to_list() == list(range(1, 11))
    assert weighted["n"].to_list() == pytest.approx([c * n for n in plain["n"].to_list()])
    for column in ("depth", "gain", "lift", "cum_lift", "ks", "response_rate"):
        assert weighted[column].to_list() == pytest.approx(plain[column].to_list())


# ---------------------------------------------------------------------------------------
# 4. calibration(strategy="quantile"): a constant weight leaves scikit-learn's edges
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("c", [0.5, 0.1, 3.0])
def test_weighted_quantile_calibration_matches_sklearn(c: float) -> None:
    rng = np.random.default_rng(1)
    n = 50
    s = np.round(rng.random(n), 2)
    y = rng.random(n) < s
    df = pl.DataFrame({"score": s, "label": y, "w": [c] * n})
    prob_true, prob_pred = calibration_curve(y, s, n_bins=5, strategy="quantile")
    got = df.roc.calibration(strategy="quantile", weight="w", bins=5)
    np.testing.assert_allclose(got["fraction_positive"].to_numpy(), prob_true, rtol=1e-12)
    np.testing.assert_allclose(got["mean_score"].to_numpy(), prob_pred, rtol=1e-12)
    ece = pr.expected_calibration_error("score", "label", bins=5, strategy="quantile")
    weighted = pr.expected_calibration_error(
        "score", "label", bins=5, strategy="quantile", weight="w"
    )
    assert df.select(weighted).item() == pytest.approx(df.select(ece).item(), rel=1e-12)


# ---------------------------------------------------------------------------------------
# 5. ks under weights takes the highest of tied maxima
# ---------------------------------------------------------------------------------------


def test_weighted_ks_takes_the_highest_tied_threshold() -> None:
    # scores and labels from a seed where 0.7 * k sums broke the tie the wrong way
    s = [5.0, 5, 7, 4, 6, 6, 1, 0, 2, 2, 6, 7, 0, 3, 6, 1, 6, 0, 3, 6, 2, 2, 2, 5, 2, 7, 3, 3]
    y = [0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 1, 0, 0, 0, 1, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 0, 0]
    for c in (0.7, 0.1, 3.0):
        df = pl.DataFrame({"score": s, "label": y, "w": [c] * len(s)})
        assert df.roc.ks(weight="w").row(0) == pytest.approx(df.roc.ks().row(0))
    df = pl.DataFrame({"score": s, "label": y})
    # brute force: max over thresholds of tpr - fpr, the highest threshold among ties
    yy, ss = np.array(y, bool), np.array(s)

    def gap(t: float) -> Fraction:  # exact: floats break the ties this test is about
        return Fraction(int((ss[yy] >= t).sum()), int(yy.sum())) - Fraction(
            int((ss[~yy] >= t).sum()), int((~yy).sum())
        )

    gaps = {t: gap(t) for t in [np.inf, *set(s)]}
    top = max(gaps.values())
    expected = (float(top), max(t for t, g in gaps.items() if g == top))
    assert df.roc.ks().row(0) == pytest.approx(expected)


# ---------------------------------------------------------------------------------------
# 6. Integers beyond 2**53 stay distinct in multiclass AUC and in pr.tally
# ---------------------------------------------------------------------------------------


def _big_multiclass() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "y": ["a", "b", "a", "b"],
            "a": [BIG + 1, BIG, BIG + 3, BIG + 2],
            "b": [BIG, BIG + 1, BIG + 2, BIG + 3],
        }
    )


def test_multiclass_auc_is_exact_beyond_2_53() -> None:
    df = _big_multiclass()
    # exact oracle: python integers, pairs counted
    assert pairwise_auc([1, 0, 1, 0], [1, 0, 3, 2]) == 0.75  # the same order, shifted down
    got = df.roc.multiclass_auc(["a", "b"], "y", average=None)
    assert got["auc"].to_list() == [0.75, 0.75]  # was 0.625: B and B+1 tied as floats
    assert df.roc.multiclass_auc(["a", "b"], "y", method="ovo")["auc"].item() == 0.75
    assert df.roc.multiclass_auc(["a", "b"], "y", average="micro")["auc"].item() == 0.75
    ci = df.roc.multiclass_auc(["a", "b"], "y", average=None, ci="delong")
    assert ci["auc"].to_list() == [0.75, 0.75]
    single = df.roc.multiclass_auc("a", "y", average=None)
    assert single["auc"].item() == 0.25  # b's scores (B, B+2) above a's (B+1, B+3): 1 pair in 4
    assert df.select(pr.multiclass_auc(["a", "b"], "y")).item() == 0.75
    micro = df.roc.multiclass_curve(["a", "b"], "y").filter(pl.col("class") == "micro")
    assert _trapezoid(micro) == 0.75
    assert micro.height == 1 + 4  # the start and four distinct thresholds, none merged
    lower = df.roc.multiclass_auc(["a", "b"], "y", average=None, direction="lower")
    assert lower["auc"].to_list() == [0.25, 0.25]
    both = df.roc.multiclass_auc("a", "y", average=None, direction="auto")
    assert both["auc"].item() == 0.75


def test_tally_is_exact_beyond_2_53() -> None:
    df = pl.DataFrame({"score": [BIG, BIG + 1, BIG + 2, BIG + 3], "label": [0, 1, 0, 1]})
    assert df.roc.auc()["auc"].item() == 0.75
    tallied = pr.tally(df)
    assert tallied.collect()["score"].n_unique() == 4
    assert tallied.roc.auc(weight="weight").collect()["auc"].item() == 0.75  # was 0.625
    assert pr.tally(df.to_pandas()).roc.auc(weight="weight").collect()["auc"].item() == 0.75
    assert pr.auc_table(df)["auc"].item() == 0.75


# ---------------------------------------------------------------------------------------
# 7. pr.tally on pandas reads NaN as pandas means it: missing (as pl.from_pandas does)
# ---------------------------------------------------------------------------------------


def test_pandas_tally_reads_nan_as_missing() -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"score": [0.1, 0.2, float("nan"), 0.9], "label": [0, 0, 1, 1]})
    want = pl.from_pandas(frame).roc.auc()  # one positive (0.9) above both negatives
    assert want["auc"].item() == 1.0
    tallied = pr.tally(frame).roc.auc(weight="weight").collect()
    assert tallied["auc"].item() == 1.0
    assert tallied["n_pos"].item() == 1.0
    assert pr.auc_table(frame)["auc"].item() == 1.0


# ---------------------------------------------------------------------------------------
# 11. pr.auc_table on pandas and PyArrow
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["pandas", "pyarrow"])
def test_auc_table_on_pandas_and_pyarrow(kind: str) -> None:
    pytest.importorskip(kind)
    df = pl.DataFrame(
        {
            "g": ["x", "x", "x", "x", "y", "y"],
            "score": [0.1, 0.4, 0.35, 0.8, 0.3, 0.7],
            "label": [0, 0, 1, 1, 1, 0],
        }
    )
    frame = df.to_pandas() if kind == "pandas" else df.to_arrow()
    got = pr.auc_table(frame, by="g")
    assert got["auc"].to_list() == [0.75, 0.0]  # scikit-learn's, below
    assert roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]) == 0.75
    assert got["n_pos"].to_list() == [2, 1]
    tallied = pr.tally(frame, by="g").roc.auc(by="g", weight="weight").collect()
    assert tallied["auc"].to_list() == [0.75, 0.0]


# ---------------------------------------------------------------------------------------
# 14. Multiclass: messages name the user's columns; Boolean labels; integer keys
# ---------------------------------------------------------------------------------------


def _abc() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "y": ["a", "b", "a", "b"],
            "a": [0.9, 0.1, 0.8, 0.3],
            "b": [0.1, 0.9, 0.2, 0.7],
            "w": [1.0, -1.0, 1.0, 1.0],
        }
    )


@pytest.mark.parametrize(
    "call",
    [
        lambda df: df.roc.multiclass_auc(["a", "b"], "y", weight="w"),
        lambda df: df.roc.multiclass_auc(["a", "b"], "y", weight="w", method="ovo"),
        lambda df: df.roc.multiclass_auc(["a", "b"], "y", weight="w", average="micro"),
        lambda df: df.roc.multiclass_auc("a", "y", weight="w"),
        lambda df: df.roc.multiclass_auc("a", "y", weight="w", direction="auto"),
        lambda df: df.roc.multiclass_curve(["a", "b"], "y", weight="w"),
        lambda df: df.select(pr.multiclass_auc(["a", "b"], "y", weight="w")),
    ],
)
def test_multiclass_weight_errors_name_the_users_column(call) -> None:
    with pytest.raises(Exception, match="weight column 'w'") as error:
        call(_abc())
    assert "_mc_" not in str(error.value)  # the single-score form said '_mc_weight'


def test_boolean_label_with_columns_named_true_and_false() -> None:
    df = pl.DataFrame(
        {
            "y": [True, False, True, False],
            "true": [0.9, 0.1, 0.8, 0.3],
            "false": [0.1, 0.9, 0.2, 0.7],
        }
    )
    oracle = roc_auc_score(df["y"].to_numpy(), df["true"].to_numpy())
    got = df.roc.multiclass_auc(["true", "false"], "y", average=None)
    assert got["class"].to_list() == [True, False]
    assert got["auc"].to_list() == [oracle, oracle]
    assert df.roc.multiclass_auc(["false", "true"], "y")["auc"].item() == oracle
    assert df.select(pr.multiclass_auc(["true", "false"], "y")).item() == oracle
    curves = df.roc.multiclass_curve(["true", "false"], "y")
    assert set(curves["class"]) == {"true", "false", "micro", "macro"}


@pytest.mark.parametrize(
    "call",
    [
        lambda df: df.roc.multiclass_auc({1: "a", 2: "b"}, "y"),
        lambda df: df.roc.multiclass_auc({1: "a", 2: "b"}, "y", method="ovo"),
        lambda df: df.roc.multiclass_curve({1: "a", 2: "b"}, "y"),
        lambda df: df.select(pr.multiclass_auc({1: "a", 2: "b"}, "y")),
        lambda df: df.select(pr.multiclass_auc({1: "a", 2: "b"}, "y", method="ovo")),
    ],
)
def test_integer_keys_on_a_string_label_are_a_clear_error(call) -> None:
    with pytest.raises((TypeError, ValueError), match="label column 'y'") as error:
        call(_abc())
    assert "[1, 2]" in str(error.value)


def test_string_keys_still_reach_integer_labels() -> None:
    df = pl.DataFrame({"y": [1, 2, 1, 2], "a": [0.9, 0.1, 0.8, 0.3], "b": [0.1, 0.9, 0.2, 0.7]})
    assert df.roc.multiclass_auc({1: "a", 2: "b"}, "y")["auc"].item() == 1.0
    assert df.select(pr.multiclass_auc({1: "a", 2: "b"}, "y")).item() == 1.0
