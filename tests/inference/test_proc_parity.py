"""pROC parity: variances and covariances as outputs (DeLong, Obuchowski)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import polars_roc as pr
from polars_roc._core.replicates import MEASURES, measures_np
from tests.conftest import asah_long

#: pROC 1.18 on aSAH (outcome Poor, direction "<").
DELONG_VAR_S100B = 0.00266868245717244  # var(roc_s100b)
DELONG_COV_S100B_WFNS = 0.00119615567376754  # cov(roc_s100b, roc_wfns)
OBUCHOWSKI_VAR_S100B = 0.0027347779664149  # var(roc_s100b, method="obuchowski")


@pytest.fixture(scope="module")
def asah() -> pl.DataFrame:
    return asah_long().with_columns(label=pl.col("outcome") == "Poor")


def placements(scores: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """DeLong's V10 (per positive) and V01 (per negative) by brute force over pairs."""
    pos, neg = scores[y], scores[~y]
    wins = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    return wins.mean(axis=1), wins.mean(axis=0)


def test_delong_variances_and_covariance_are_procs(asah: pl.DataFrame) -> None:
    out = asah.roc.compare(case="case").filter(
        (pl.col("model_a") == "s100b") & (pl.col("model_b") == "wfns")
    )
    assert out["var_a"].item() == pytest.approx(DELONG_VAR_S100B, rel=1e-12)
    assert out["cov"].item() == pytest.approx(DELONG_COV_S100B_WFNS, rel=1e-12)


def test_covariance_is_the_placements_covariance(asah: pl.DataFrame) -> None:
    wide = asah.pivot(on="model", index=["case", "label"], values="score").sort("case")
    y = wide["label"].to_numpy()
    out = asah.roc.compare(case="case")
    for row in out.iter_rows(named=True):
        a10, a01 = placements(wide[row["model_a"]].to_numpy(), y)
        b10, b01 = placements(wide[row["model_b"]].to_numpy(), y)
        cov = np.cov(a10, b10)[0, 1] / y.sum() + np.cov(a01, b01)[0, 1] / (~y).sum()
        var_a = np.var(a10, ddof=1) / y.sum() + np.var(a01, ddof=1) / (~y).sum()
        assert row["cov"] == pytest.approx(cov, rel=1e-10)
        assert row["var_a"] == pytest.approx(var_a, rel=1e-10)


def test_unpaired_pairs_have_no_covariance(asah: pl.DataFrame) -> None:
    out = asah.roc.compare(paired=False)
    assert out["cov"].null_count() == out.height
    assert out["var_a"].null_count() == 0


def test_obuchowski_variance_is_procs(asah: pl.DataFrame) -> None:
    out = asah.roc.auc(by="model", ci="obuchowski").filter(pl.col("model") == "s100b")
    assert out["auc_se"].item() ** 2 == pytest.approx(OBUCHOWSKI_VAR_S100B, rel=1e-10)
    z = 1.959963984540054
    assert out["auc_lower"].item() == pytest.approx(out["auc"].item() - z * out["auc_se"].item())


def test_obuchowski_is_null_where_the_curve_cannot_be_fitted() -> None:
    frame = pl.DataFrame({"score": [0.1, 0.2, 0.8, 0.9], "label": [0, 0, 1, 1]})
    out = frame.roc.auc(ci="obuchowski")
    assert out["auc"].item() == 1.0
    assert out["auc_se"].item() is None


def test_obuchowski_refuses_clusters(asah: pl.DataFrame) -> None:
    with pytest.raises(ValueError, match="ci='obuchowski'"):
        asah.roc.auc(ci="obuchowski", cluster="case")


def test_closest_topleft_is_procs(asah: pl.DataFrame) -> None:
    # pROC: coords(roc_s100b, 0.205, ret="closest.topleft") = 0.1716575 (between 0.19 and
    # 0.22; our row holds threshold 0.22, predicted positive iff score >= 0.22).
    rows = asah.filter(pl.col("model") == "s100b").roc.thresholds()
    row = rows.filter(pl.col("threshold") == 0.22)
    assert row["closest_topleft"].item() == pytest.approx(0.1716575, abs=5e-8)
    # Oracle: the definition on the table's own rates, every row.
    expected = (1 - rows["tpr"]) ** 2 + rows["fpr"] ** 2
    np.testing.assert_allclose(rows["closest_topleft"].to_numpy(), expected.to_numpy())


def test_closest_topleft_is_null_without_both_classes() -> None:
    frame = pl.DataFrame({"score": [0.1, 0.9], "label": [1, 1]})
    assert frame.roc.thresholds()["closest_topleft"].null_count() == 3


#: pROC's test-power.roc.test.R, list form: A1 = 2.6, B1 = 1, A2 = 1.9, B2 = 1, rn = ra = 0.6,
#: FPR ranges (0, 0.2), delta = 0.037.
PAIR = pr.inference.BinormalPair(2.6, 1, 1.9, 1, rn=0.6, ra=0.6, delta=0.037, fpr1=(0, 0.2))


def test_binormal_list_form_is_procs() -> None:
    n_pos, n_neg = pr.inference.binormal_sample_size(PAIR, power=0.8, alpha=0.05)
    assert n_pos == pytest.approx(107.0238, abs=1e-4)
    assert n_neg == n_pos
    assert pr.inference.binormal_power(PAIR, 107) == pytest.approx(0.7999286, abs=1e-7)
    assert pr.inference.binormal_alpha(PAIR, 107, power=0.8) == pytest.approx(0.05004012, abs=1e-8)


@pytest.mark.parametrize("alternative", ["two-sided", "one-sided"])
@pytest.mark.parametrize("kappa", [0.5, 1.0, 3.0])
def test_binormal_modes_invert_each_other(alternative: str, kappa: float) -> None:
    inference = pr.inference
    n_pos, n_neg = inference.binormal_sample_size(
        PAIR, power=0.9, alpha=0.01, kappa=kappa, alternative=alternative
    )
    assert n_neg == pytest.approx(kappa * n_pos)
    power = inference.binormal_power(PAIR, n_pos, alpha=0.01, kappa=kappa, alternative=alternative)
    assert power == pytest.approx(0.9, abs=1e-10)
    alpha = inference.binormal_alpha(PAIR, n_pos, power=0.9, kappa=kappa, alternative=alternative)
    assert alpha == pytest.approx(0.01, abs=1e-10)


def test_binormal_checks_its_arguments() -> None:
    with pytest.raises(ValueError, match="power"):
        pr.inference.binormal_sample_size(PAIR, power=1.5)


def test_bootstrap_intervals_for_every_measure(asah: pl.DataFrame) -> None:
    # pROC's ci.coords: an interval for every coordinate, from the same replicates.
    rows = asah.filter(pl.col("model") == "s100b")
    wanted = [0.1, 0.22, 0.5]
    out = rows.roc.thresholds(thresholds=wanted, ci="bootstrap", n_boot=300, seed=3)
    table = rows.roc.thresholds(thresholds=wanted)
    measures = table.columns[7:]  # tnr ... closest_topleft (tpr, fpr come first)
    for measure in ["tpr", "fpr", *measures]:
        assert f"{measure}_lower" in out.columns
        assert f"{measure}_upper" in out.columns
    # Monotone transforms of one rate share its replicates: exact identities of percentiles.
    np.testing.assert_allclose(out["fnr_lower"], 1 - out["tpr_upper"], atol=1e-12)
    np.testing.assert_allclose(out["tnr_upper"], 1 - out["fpr_lower"], atol=1e-12)
    # Every defined interval holds its point estimate here (ordinary data, 300 replicates).
    for measure in ["ppv", "npv", "accuracy", "f1", "youden", "mcc", "closest_topleft"]:
        lower, upper = out[f"{measure}_lower"], out[f"{measure}_upper"]
        point = out[measure]
        assert ((lower <= point) & (point <= upper)).all(), measure
    # ppv at a threshold above every score's replicates is undefined in some: null.
    top = rows.roc.thresholds(thresholds=[rows["score"].max()], ci="bootstrap", n_boot=300)
    assert top["ppv_lower"].item() is None


def test_numpy_measures_twin_the_table() -> None:
    rng = np.random.default_rng(11)
    frame = pl.DataFrame({"score": rng.integers(0, 6, 60), "label": rng.random(60) < 0.4})
    table = frame.roc.thresholds()
    tp, fp = (table[c].to_numpy().astype(float) for c in ("tp", "fp"))
    n_pos, n_neg = tp.max(), fp.max()
    got = measures_np(tp, fp, np.full_like(tp, n_pos), np.full_like(fp, n_neg))
    for j, measure in enumerate(MEASURES):
        expected = table[measure].to_numpy().astype(float)
        np.testing.assert_allclose(got[:, j], expected, atol=1e-12, err_msg=measure)
