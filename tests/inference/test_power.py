"""Power and sample size against pROC's published values (tests/testthat/test-power.roc.test.R).

pROC's tests use aSAH (tests/data): r.s100b = roc(outcome, s100b), 41 cases (Poor) and 72
controls; r.ndka, r.wfns likewise.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import norm

import polars_roc as pr
from tests.conftest import asah_long


def s100b_auc() -> float:
    table = asah_long().filter(pl.col("model") == "s100b")
    return float(table.roc.auc(label="outcome", pos_label="Poor")["auc"].item())


def test_power_of_one_curve_as_proc() -> None:
    # power.roc.test(r.s100b): power 0.9904833
    assert pr.roc_power(41, 72, s100b_auc()) == pytest.approx(0.9904833, abs=1e-6)
    # power.roc.test(ncases = 41, ncontrols = 72, auc = 0.73, sig.level = 0.05)
    assert pr.roc_power(41, 72, 0.73, alpha=0.05) == pytest.approx(0.9897453, abs=1e-6)


def test_sample_size_as_proc() -> None:
    # power.roc.test(auc = r.s100b$auc, sig.level = 0.05, power = 0.95, kappa = 1.7)
    n_pos, n_neg = pr.roc_sample_size(s100b_auc(), power=0.95, alpha=0.05, kappa=1.7)
    assert n_pos == pytest.approx(29.29764, abs=1e-5)
    assert n_neg == pytest.approx(49.806, abs=1e-5)


def test_detectable_auc_as_proc() -> None:
    # power.roc.test(ncases = 41, ncontrols = 72, sig.level = 0.05, power = 0.95): 0.6961054,
    # found by R's uniroot, which stops within about 1e-4 of the root.
    got = pr.detectable_auc(41, 72, power=0.95, alpha=0.05)
    assert got == pytest.approx(0.6961054, abs=1e-4)
    # Ours is the root to the last bits: the sample size it needs is the one given.
    assert got is not None
    assert pr.roc_sample_size(got, power=0.95, kappa=72 / 41)[0] == pytest.approx(41, rel=1e-9)


def test_compare_power_as_proc() -> None:
    # power.roc.test(r.ndka, r.wfns, power = 0.9): ncases 64.77777, ncontrols 113.7561
    got = asah_long().roc.compare(label="outcome", pos_label="Poor", case="case", power=0.9)
    row = got.filter((pl.col("model_a") == "ndka") & (pl.col("model_b") == "wfns"))
    assert row["n_pos_needed"].item() == pytest.approx(64.77777, abs=1e-5)
    assert row["n_neg_needed"].item() == pytest.approx(113.7561, abs=1e-4)


def obuchowski_variance(theta: float, kappa: float) -> float:
    """Obuchowski & McClish (1997) Table 1 for the equal-variance binormal model, by hand."""
    a = norm.ppf(theta) * 1.414
    return 0.0099 * math.exp(-a * a / 2) * ((5 * a * a + 8) + (a * a + 8) / kappa)


@given(
    n_pos=st.integers(5, 5000),
    ratio=st.floats(0.2, 5.0),
    auc=st.floats(0.51, 0.99),
    alpha=st.sampled_from([0.01, 0.05, 0.1]),
)
def test_power_and_sample_size_invert_each_other(
    n_pos: int, ratio: float, auc: float, alpha: float
) -> None:
    n_neg = n_pos * ratio
    power = pr.roc_power(n_pos, n_neg, auc, alpha=alpha)
    # the same number from scipy and the textbook formula
    v0, va = 0.0792 * (1 + 1 / ratio), obuchowski_variance(auc, ratio)
    z_beta = (math.sqrt(n_pos) * (auc - 0.5) - norm.ppf(1 - alpha / 2) * math.sqrt(v0)) / math.sqrt(
        va
    )
    assert power == pytest.approx(norm.cdf(z_beta), abs=1e-12)
    if 1e-6 < power < 1 - 1e-6:
        back, _ = pr.roc_sample_size(auc, power=power, alpha=alpha, kappa=ratio)
        assert back == pytest.approx(n_pos, rel=1e-6)


def test_expressions_equal_numbers_row_by_row() -> None:
    table = pl.DataFrame(
        {"n_pos": [30, 300, 41, 0], "n_neg": [90, 100, 72, 5], "auc": [0.6, 0.8, 0.73, 0.7]}
    )
    got = table.select(
        pr.roc_power("n_pos", "n_neg", "auc"),
        pr.detectable_auc(pl.col("n_pos"), pl.col("n_neg"), power=0.9),
        pr.roc_sample_size(pl.col("auc"), kappa=2.0),
    ).unnest("sample_size")
    for i, row in enumerate(table.iter_rows(named=True)):
        if row["n_pos"] == 0:  # out of range: null in an expression, an error for numbers
            assert got.row(i) == (None, None, *pr.roc_sample_size(row["auc"], kappa=2.0))
            with pytest.raises(ValueError, match="n_pos"):
                pr.roc_power(row["n_pos"], row["n_neg"], row["auc"])
            continue
        assert got["power"][i] == pr.roc_power(row["n_pos"], row["n_neg"], row["auc"])
        assert got["detectable_auc"][i] == pr.detectable_auc(row["n_pos"], row["n_neg"], power=0.9)
        assert (got["n_pos"][i], got["n_neg"][i]) == pr.roc_sample_size(row["auc"], kappa=2.0)


def test_expression_in_group_by_and_over() -> None:
    df = pr.datasets.simulate(4_000, seed=3)
    table = df.roc.auc(by="segment").with_columns(power=pr.roc_power("n_pos", "n_neg", "auc"))
    for row in table.iter_rows(named=True):
        assert row["power"] == pr.roc_power(row["n_pos"], row["n_neg"], row["auc"])
    agg = df.group_by("segment").agg(
        pr.detectable_auc(pl.col("label").sum(), (~pl.col("label")).sum())
    )
    counts = df.group_by("segment").agg(p=pl.col("label").sum(), n=(~pl.col("label")).sum())
    expected = {
        r["segment"]: pr.detectable_auc(r["p"], r["n"]) for r in counts.iter_rows(named=True)
    }
    assert dict(agg.iter_rows()) == expected


def test_detectable_auc_none_when_too_few() -> None:
    assert pr.detectable_auc(2, 2) is None
    assert np.isfinite(pr.detectable_auc(20, 20) or np.nan)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: pr.roc_power(10, 10, 1.5), "auc"),
        (lambda: pr.roc_power(10, -1, 0.7), "n_neg"),
        (lambda: pr.roc_power(10, 10, 0.7, alpha=0), "alpha"),
        (lambda: pr.roc_sample_size(0.5), "0.5"),
        (lambda: pr.roc_sample_size(0.7, power=1.0), "power"),
        (lambda: pr.roc_sample_size(0.7, kappa=0), "kappa"),
        (lambda: pr.detectable_auc(10, 10, alternative="greater"), "alternative"),
    ],
)
def test_bad_arguments_are_named(call, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        call()


def test_compare_power_needs_delong() -> None:
    df = asah_long()
    with pytest.raises(ValueError, match="power"):
        df.roc.compare(label="outcome", pos_label="Poor", case="case", power=1.2)
    with pytest.raises(ValueError, match="delong"):
        df.roc.compare(
            label="outcome", pos_label="Poor", case="case", power=0.9, method="bootstrap"
        )
