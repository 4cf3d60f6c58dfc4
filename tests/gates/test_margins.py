"""compare(margin=) and compare(equivalence=): pROC's aSAH numbers, scipy's tails, every route."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

import polars_roc as pr
from tests.conftest import asah_long

# pROC's published roc.test(roc(aSAH$outcome, aSAH$s100b), roc(aSAH$outcome, aSAH$wfns)):
# Z = -2.208984, p = 0.027176; the DeLong SE of the difference 0.0417886.
DELTA, SE = -0.0923103, 0.0417886  # auc(s100b) - auc(wfns)


def _asah(order: list[str]) -> pl.DataFrame:
    """s100b and wfns, the model column an Enum in the given order (model_a first)."""
    long = asah_long().filter(pl.col("model").is_in(order))
    return long.with_columns(pl.col("model").cast(pl.Enum(order)))


def _compare(frame: pl.DataFrame | pl.LazyFrame, **kwargs: object) -> pl.DataFrame:
    out = pr.inference.compare(frame, case="case", label="outcome", pos_label="Poor", **kwargs)
    return out.collect() if isinstance(out, pl.LazyFrame) else out


def test_plain_test_is_procs() -> None:
    row = _compare(_asah(["s100b", "wfns"])).row(0, named=True)
    assert row["diff"] == pytest.approx(DELTA, abs=1e-7)
    assert row["statistic"] == pytest.approx(-2.208984, abs=1e-6)
    assert row["p_value"] == pytest.approx(0.027176, abs=1e-6)
    assert row["diff"] / row["statistic"] == pytest.approx(SE, abs=1e-7)


@pytest.mark.parametrize(
    ("margin", "z", "p"), [(0.10, 0.184014, 0.427001), (0.15, 1.380513, 0.083714)]
)
@pytest.mark.parametrize("lazy", [False, True], ids=["eager", "lazy"])
def test_non_inferiority_of_s100b_to_wfns(margin: float, z: float, p: float, *, lazy: bool) -> None:
    # model_a = wfns (the reference), model_b = s100b: H0 auc_b - auc_a <= -margin.
    frame = _asah(["wfns", "s100b"])
    row = _compare(frame.lazy() if lazy else frame, margin=margin).row(0, named=True)
    assert (row["model_a"], row["model_b"]) == ("wfns", "s100b")
    assert row["diff"] == pytest.approx(-DELTA, abs=1e-7)  # diff = auc_a - auc_b
    assert row["statistic"] == pytest.approx(z, abs=1e-5)
    assert row["p_value"] == pytest.approx(p, abs=1e-6)
    # independent: scipy's normal tail from pROC's published difference and SE
    assert row["statistic"] == pytest.approx((DELTA + margin) / SE, abs=1e-5)
    assert row["p_value"] == pytest.approx(stats.norm.sf((DELTA + margin) / SE), abs=1e-6)
    assert row["margin"] == margin
    # the interval of the difference is the two-sided one at the level, as without margin
    plain = _compare(frame).row(0, named=True)
    assert (row["diff_lower"], row["diff_upper"]) == (plain["diff_lower"], plain["diff_upper"])


def test_orientation_flips_with_the_model_order() -> None:
    # s100b first: is wfns non-inferior to s100b? It is far better: p tiny.
    row = _compare(_asah(["s100b", "wfns"]), margin=0.10).row(0, named=True)
    assert row["statistic"] == pytest.approx((-DELTA + 0.10) / SE, abs=1e-5)
    assert row["p_value"] == pytest.approx(stats.norm.sf((-DELTA + 0.10) / SE), rel=1e-4)


@pytest.mark.parametrize("bounds", [(-0.15, 0.15), (-0.2, 0.05), (-0.1, 0.3)])
def test_equivalence_is_two_one_sided_tests(bounds: tuple[float, float]) -> None:
    lo, hi = bounds
    row = _compare(_asah(["wfns", "s100b"]), equivalence=bounds).row(0, named=True)
    z_lo, z_hi = (DELTA - lo) / SE, (hi - DELTA) / SE
    assert row["statistic"] == pytest.approx(min(z_lo, z_hi), abs=1e-5)
    expected = max(stats.norm.sf(z_lo), stats.norm.sf(z_hi))
    assert row["p_value"] == pytest.approx(expected, abs=1e-6)
    assert (row["equivalence_lower"], row["equivalence_upper"]) == bounds


def test_unpaired_uses_students_t_with_the_welch_df() -> None:
    frame = _asah(["wfns", "s100b"])
    plain = _compare(frame, paired=False).row(0, named=True)
    sd = plain["diff"] / plain["statistic"]
    row = _compare(frame, paired=False, margin=0.1).row(0, named=True)
    z = (0.1 - row["diff"]) / sd
    assert row["statistic"] == pytest.approx(z, rel=1e-9)
    assert row["p_value"] == pytest.approx(stats.t.sf(z, plain["df"]), rel=1e-6)


@pytest.mark.parametrize(
    "extra",
    [
        {"method": "bootstrap", "n_boot": 300, "seed": 3},
        {"method": "bootstrap", "n_boot": 300, "seed": 3, "fpr": (0.0, 0.3)},
        {"cluster": "gender"},
        {"method": "bootstrap", "n_boot": 300, "seed": 3, "cluster": "gender"},
    ],
    ids=["bootstrap", "partial", "cluster-delong", "cluster-bootstrap"],
)
def test_every_route_tests_the_margin_with_its_own_sd(extra: dict[str, object]) -> None:
    # A cluster of patients by gender is coarse, but the arithmetic is the point here:
    # the margin statistic is (margin - diff) / sd with the route's sd.
    frame = _asah(["wfns", "s100b"]).with_columns(pl.col("gender").cast(pl.String))
    plain = _compare(frame, **extra).row(0, named=True)
    sd = plain["diff"] / plain["statistic"]
    row = _compare(frame, margin=0.05, **extra).row(0, named=True)
    assert row["diff"] == plain["diff"]
    assert row["statistic"] == pytest.approx((0.05 - row["diff"]) / sd, rel=1e-9)
    assert row["p_value"] == pytest.approx(stats.norm.sf(row["statistic"]), rel=1e-9)


def test_per_group_with_holm() -> None:
    frame = _asah(["wfns", "s100b"])
    grouped = _compare(frame, by="gender", margin=0.1, adjust="holm").sort("gender")
    for row in grouped.iter_rows(named=True):
        alone = _compare(frame.filter(pl.col("gender") == row["gender"]), margin=0.1)
        assert row["p_value"] == pytest.approx(alone["p_value"].item(), rel=1e-12)
    expected = multipletests(grouped["p_value"].to_numpy(), method="holm")[1]
    np.testing.assert_allclose(grouped["p_adjusted"].to_numpy(), expected, rtol=1e-12)


def test_identical_curves_are_non_inferior_and_equivalent() -> None:
    one = asah_long().filter(pl.col("model") == "s100b")
    twins = pl.concat([one, one.with_columns(model=pl.lit("z"))])
    row = _compare(twins, margin=0.01).row(0, named=True)
    assert (row["diff"], row["statistic"], row["p_value"]) == (0.0, None, 0.0)
    assert _compare(twins, equivalence=(-0.01, 0.01))["p_value"].item() == 0.0


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"margin": -0.1}, "margin must be a number in"),
        ({"margin": 1.0}, "margin must be a number in"),
        ({"margin": "0.1"}, "margin must be a number in"),
        ({"equivalence": (0.1, -0.1)}, "equivalence must be a pair"),
        ({"equivalence": 0.1}, "equivalence must be a pair"),
        ({"margin": 0.1, "equivalence": (-0.1, 0.1)}, "not both"),
        ({"margin": 0.1, "alternative": "less"}, "alternative='less'"),
    ],
)
def test_bad_margins(kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        _compare(_asah(["wfns", "s100b"]), **kwargs)
