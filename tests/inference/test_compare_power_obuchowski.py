"""compare(power=..., power_method="obuchowski"): pROC's two-curve sample size, binormal variance.

Oracles:
* pROC's published values, tests/testthat/test-power.roc.test.R (xrobin/pROC, commit
  ee2877e8), each quoted with its test name below. pROC's tests build r.ndka, r.wfns,
  r.s100b as roc(aSAH$outcome, aSAH$<marker>) (41 "Poor" cases, 72 controls).
* Obuchowski (2004) Table 4, as that file checks it.
* An independent numpy/scipy transcription of pROC's R code (R/obuchowski.R,
  R/power.roc.test.R, smooth_roc_binormal in R/smooth.R) on brute-force curve points.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from scipy.stats import norm

import polars_roc as pr
from polars_roc._core import binormal
from tests.conftest import asah_long


def plan(df: pl.DataFrame, power: float, **kwargs: object) -> pl.DataFrame:
    kwargs = {"label": "outcome", "pos_label": "Poor", "case": "case", **kwargs}
    return df.roc.compare(power=power, power_method="obuchowski", **kwargs)


def ndka_wfns(power: float) -> tuple[float, float, float]:
    """``diff, n_pos_needed, n_neg_needed`` of ndka (model_a, pROC's roc1) against wfns."""
    got = plan(asah_long(), power).filter(pl.col("model_a") == "ndka", pl.col("model_b") == "wfns")
    return got.select("diff", "n_pos_needed", "n_neg_needed").row(0)


def variances_from_sizes(
    size_at_half: float, size_at: float, z_beta: float, z_alpha: float, delta: float
) -> tuple[float, float]:
    """
    ``√V₀, √V_A`` from two planned sizes: ``√n·|Δ| = z_α√V₀ + z_β√V_A`` at power 0.5
    (``z_β = 0``) and at one other power: the inverse of pROC's ``solve.nd``.
    """
    root_v0 = math.sqrt(size_at_half) * abs(delta) / z_alpha
    root_va = (math.sqrt(size_at) * abs(delta) - z_alpha * root_v0) / z_beta
    return root_v0, root_va


Z_TWO_SIDED = norm.ppf(1 - 0.05 / 2)


# --- pROC's published values -----------------------------------------------------------


def test_sample_size_as_proc() -> None:
    # test_that("power.roc.test ncases/ncontrols can take 2 ROC curves with Obuchowski
    # variance"): power.roc.test(r.ndka, r.wfns, power = 0.9, method = "obuchowski"):
    # ncases 53.23685, ncontrols 93.48911 (expect_equal, tolerance = 1e-6).
    _, n_pos, n_neg = ndka_wfns(0.9)
    assert n_pos == pytest.approx(53.23685, rel=1e-6)
    assert n_neg == pytest.approx(93.48911, rel=1e-6)


def test_power_and_level_as_proc() -> None:
    # Two more published numbers of the same variances, read back from two planned sizes:
    # test_that("power.roc.test can take 2 ROC curves with Obuchowski variance"):
    #   power.roc.test(r.ndka, r.wfns, method = "obuchowski")$power == 0.8061004 (41 cases);
    # test_that("power.roc.test sig.level can take 2 ROC curves with Obuchowski variance"):
    #   power.roc.test(r.ndka, r.wfns, power = 0.9, sig.level = NULL, ...)$sig.level
    #   == 0.1150686.
    delta, at_half, _ = ndka_wfns(0.5)
    _, at_90, _ = ndka_wfns(0.9)
    z90 = norm.ppf(0.9)
    root_v0, root_va = variances_from_sizes(at_half, at_90, z90, Z_TWO_SIDED, delta)
    power = norm.cdf((math.sqrt(41) * abs(delta) - Z_TWO_SIDED * root_v0) / root_va)
    assert power == pytest.approx(0.8061004, rel=1e-6)
    z_alpha = (math.sqrt(41) * abs(delta) - z90 * root_va) / root_v0
    assert 2 * norm.sf(z_alpha) == pytest.approx(0.1150686, rel=1e-6)


def test_delong_default_unchanged_and_model_a_is_proc_roc1() -> None:
    # test_that("power.roc.test ncases/ncontrols can take 2 ROC curves with DeLong
    # variance"): power.roc.test(r.ndka, r.wfns, power = 0.9): 64.77777 / 113.7561.
    df = asah_long()
    kwargs = {"label": "outcome", "pos_label": "Poor", "case": "case", "power": 0.9}
    default = df.roc.compare(**kwargs)
    assert default.equals(df.roc.compare(**kwargs, power_method="delong"))
    row = default.filter(pl.col("model_a") == "ndka", pl.col("model_b") == "wfns")
    assert row["n_pos_needed"].item() == pytest.approx(64.77777, rel=1e-6)
    assert row["n_neg_needed"].item() == pytest.approx(113.7561, rel=1e-6)
    # test_that("kappa works with two ROC curves"): power.roc.test(r.s100b, r.ndka,
    # sig.level = 0.05, power = 0.9): ncases 213.117677, ncontrols 374.255432. The null
    # variance takes roc1 as the reference, so s100b must be model_a: rename to sort first.
    renamed = df.with_columns(pl.col("model").replace({"s100b": "1_s100b", "ndka": "2_ndka"}))
    got = renamed.roc.compare(**kwargs).filter(
        pl.col("model_a") == "1_s100b", pl.col("model_b") == "2_ndka"
    )
    assert got["n_pos_needed"].item() == pytest.approx(213.117677, rel=1e-6)
    assert got["n_neg_needed"].item() == pytest.approx(374.255432, rel=1e-6)


def test_binormal_parameter_form_as_proc() -> None:
    # test_that("power.roc.test works with binormal parameters"): pROC's list form,
    # A1 = 2.6, B1 = 1, A2 = 1.9, B2 = 1, rn = ra = 0.6, FPR in [0, 0.2] for both curves,
    # delta = 0.037, kappa = 1: ncases 107.0238 at power 0.8 and sig.level 0.05; power
    # 0.7999286 with 107 cases; sig.level 0.05004012 at power 0.8 with 107 cases.
    params = {"a1": 2.6, "b1": 1.0, "a2": 1.9, "b2": 1.0, "rn": 0.6, "ra": 0.6}
    params |= {"kappa": 1.0, "delta": 0.037}

    def cases(z_beta: float) -> float:
        expr = binormal.cases_needed(**params, z_alpha=Z_TWO_SIDED, z_beta=z_beta, fpr1=(0, 0.2))
        return float(pl.select(expr).item())

    z80 = norm.ppf(0.8)
    assert cases(z80) == pytest.approx(107.0238, rel=1e-6)
    root_v0, root_va = variances_from_sizes(cases(0.0), cases(z80), z80, Z_TWO_SIDED, 0.037)
    power = norm.cdf((math.sqrt(107) * 0.037 - Z_TWO_SIDED * root_v0) / root_va)
    assert power == pytest.approx(0.7999286, rel=1e-6)
    z_alpha = (math.sqrt(107) * 0.037 - z80 * root_va) / root_v0
    assert 2 * norm.sf(z_alpha) == pytest.approx(0.05004012, rel=1e-6)


# Obuchowski (2004) Table 4, from test_that("power.roc.test returns correct results from
# litterature"): one curve, one-sided alpha 0.05, power 0.9; pROC's corrected cells
# ("# Fixed"). Rows: kappa 0.25, 0.5, 1, 2, 4; columns: AUC 0.6, 0.7, 0.8, 0.9, 0.95.
KAPPAS = (0.25, 0.5, 1.0, 2.0, 4.0)
THETAS = (0.6, 0.7, 0.8, 0.9, 0.95)
TABLE4_CONTROLS = (
    (84, 20, 10, 10, 10),
    (101, 25, 10, 10, 10),
    (135, 33, 14, 10, 10),
    (203, 50, 21, 20, 20),
    (340, 84, 40, 40, 40),
)
TABLE4_CASES = (
    (334, 80, 40, 40, 40),
    (202, 49, 20, 20, 20),
    (135, 33, 14, 10, 10),
    (102, 25, 11, 10, 10),
    (85, 21, 10, 10, 10),
)


@pytest.mark.parametrize(("row", "kappa"), list(enumerate(KAPPAS)))
def test_obuchowski_2004_table_4(row: int, kappa: float) -> None:
    # The one-curve sizes (pr.roc_sample_size) with the table's rounding, as pROC's test:
    # at least 10 per cell, the other class scaled by kappa when one is below 10.
    for column, theta in enumerate(THETAS):
        cases, controls = pr.roc_sample_size(
            theta, power=0.9, alpha=0.05, kappa=kappa, alternative="one-sided"
        )
        small_cases = 10 if math.ceil(cases) < 10 else 0
        small_controls = 10 if math.ceil(controls) < 10 else 0
        assert max(10, small_cases * kappa, math.ceil(controls)) == TABLE4_CONTROLS[row][column]
        assert max(10, small_controls / kappa, math.ceil(cases)) == TABLE4_CASES[row][column]


# --- an independent transcription of pROC's R code --------------------------------------


def proc_cases(
    s1: np.ndarray, s2: np.ndarray, y: np.ndarray, power: float, alpha: float = 0.05
) -> float:
    """pROC's ncases.obuchowski(roc1, roc2, method="obuchowski"), two-sided, in numpy."""

    def binormal_fit(s: np.ndarray) -> tuple[float, float]:
        # roc(): one point per distinct value (thresholds between them), plus se = 0;
        # smooth_roc_binormal: lm(qnorm(sp) ~ qnorm(se)) over the finite points.
        cuts = np.unique(s)
        se = np.array([(s[y] >= t).mean() for t in cuts] + [0.0])
        sp = np.array([(s[~y] < t).mean() for t in cuts] + [1.0])
        with np.errstate(divide="ignore"):
            x, z = norm.ppf(se), norm.ppf(sp)
        ok = np.isfinite(x) & np.isfinite(z)
        slope, intercept = np.polyfit(x[ok], z[ok], 1)
        return intercept, slope

    def f_g(a: float, b: float) -> tuple[float, float]:
        e1 = math.exp(-(a**2) / (2 * (1 + b**2)))
        f = e1 * (2 * math.pi * (1 + b**2)) ** -0.5
        return f, -e1 * a * b * (2 * math.pi * (1 + b**2) ** 3) ** -0.5

    def auc(s: np.ndarray) -> float:
        pos, neg = s[y][:, None], s[~y][None, :]
        return float(((pos > neg) + 0.5 * (pos == neg)).mean())

    (a1, b1), (a2, b2) = binormal_fit(s1), binormal_fit(s2)
    k = (~y).sum() / y.sum()
    ra = np.corrcoef(s1[y], s2[y])[0, 1]
    rn = np.corrcoef(s1[~y], s2[~y])[0, 1]
    (f1, g1), (f2, g2) = f_g(a1, b1), f_g(a2, b2)
    v1 = f1**2 * (1 + b1**2 / k + a1**2 / 2) + g1**2 * b1**2 * (1 + k) / (2 * k)
    v2 = f2**2 * (1 + b2**2 / k + a2**2 / 2) + g2**2 * b2**2 * (1 + k) / (2 * k)
    c = (
        f1 * f2 * (ra + rn * b1 * b2 / k + ra**2 * a1 * a2 / 2)
        + g1 * g2 * (b1 * b2 * (rn**2 + k * ra**2) / (2 * k))
        + f1 * g2 * (ra**2 * a1 * b2 / 2)
        + f2 * g1 * (ra**2 * a2 * b1 / 2)
    )
    za, zb = norm.ppf(1 - alpha / 2), norm.ppf(power)
    delta = auc(s1) - auc(s2)
    return float((za * math.sqrt(2 * v1 - 2 * c) + zb * math.sqrt(v1 + v2 - 2 * c)) ** 2 / delta**2)


def correlated(n: int, seed: int, segments: int = 3) -> pl.DataFrame:
    """Two correlated binormal models on the same cases, coarse scores (ties), segments."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    shared = rng.normal(size=n)
    s1 = np.round(0.6 * shared + rng.normal(size=n) + 1.2 * y, 1)
    s2 = np.round(0.6 * shared + 1.3 * rng.normal(size=n) + 0.7 * y, 1)
    seg = rng.integers(0, segments, n)
    return pl.concat(
        pl.DataFrame({"case": np.arange(n), "segment": seg, "model": m, "label": y, "score": s})
        for m, s in (("m1", s1), ("m2", s2))
    )


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_equals_numpy_transcription_of_proc(seed: int) -> None:
    df = correlated(400, seed)
    got = df.roc.compare(case="case", power=0.8, power_method="obuchowski")
    wide = df.pivot("model", index=["case", "label"], values="score").sort("case")
    y = wide["label"].to_numpy()
    expected = proc_cases(wide["m1"].to_numpy(), wide["m2"].to_numpy(), y, 0.8)
    assert got["n_pos_needed"].item() == pytest.approx(expected, rel=1e-9)
    assert got["n_neg_needed"].item() == pytest.approx(expected * (~y).sum() / y.sum(), rel=1e-9)


# --- grouped, lazy, direction -------------------------------------------------------------


def test_grouped_equals_one_group_at_a_time() -> None:
    df = correlated(900, seed=5, segments=4)
    kwargs = {"case": "case", "power": 0.85, "power_method": "obuchowski", "level": 0.9}
    grouped = df.roc.compare(by="segment", **kwargs).sort("segment")
    assert grouped.height == 4
    assert grouped["n_pos_needed"].is_not_null().all()
    for row in grouped.iter_rows(named=True):
        alone = df.filter(pl.col("segment") == row["segment"]).roc.compare(**kwargs)
        assert alone["n_pos_needed"].item() == pytest.approx(row["n_pos_needed"], rel=1e-12)
        assert alone["n_neg_needed"].item() == pytest.approx(row["n_neg_needed"], rel=1e-12)
        part = df.filter(pl.col("segment") == row["segment"])
        wide = part.pivot("model", index=["case", "label"], values="score").sort("case")
        y = wide["label"].to_numpy()
        expected = proc_cases(wide["m1"].to_numpy(), wide["m2"].to_numpy(), y, 0.85, alpha=0.1)
        assert row["n_pos_needed"] == pytest.approx(expected, rel=1e-9)


def test_lazy_eager_streaming_agree() -> None:
    df = correlated(600, seed=9)
    kwargs = {"case": "case", "by": "segment", "power": 0.9, "power_method": "obuchowski"}
    eager = df.roc.compare(**kwargs)
    lazy = df.lazy().roc.compare(**kwargs)
    assert isinstance(lazy, pl.LazyFrame)
    assert lazy.collect().equals(eager)
    streamed = lazy.collect(engine="streaming").sort("segment")
    cols = ["n_pos_needed", "n_neg_needed"]
    np.testing.assert_allclose(
        streamed.select(cols), eager.sort("segment").select(cols), rtol=1e-12
    )


def test_direction_lower_equals_negated_scores() -> None:
    df = correlated(500, seed=4)
    kwargs = {"case": "case", "power": 0.9, "power_method": "obuchowski"}
    lower = df.roc.compare(direction="lower", **kwargs)
    negated = df.with_columns(-pl.col("score")).roc.compare(**kwargs)
    assert lower["n_pos_needed"].item() == pytest.approx(negated["n_pos_needed"].item(), rel=1e-12)


# --- undefined cases: null ------------------------------------------------------------------


def test_undefined_cases_are_null() -> None:
    df = correlated(300, seed=3)
    kwargs = {"case": "case", "power": 0.9, "power_method": "obuchowski"}
    # identical models: no difference to detect
    same = pl.concat([df.filter(pl.col("model") == "m1"), df.filter(pl.col("model") == "m1")])
    same = same.with_columns(model=pl.Series(["m1"] * 300 + ["m2"] * 300))
    got = same.roc.compare(**kwargs)
    assert got["diff"].item() == 0
    assert got["n_pos_needed"].item() is None
    # unpaired
    unpaired = df.roc.compare(**{**kwargs, "paired": False})
    assert unpaired["n_pos_needed"].item() is None
    assert unpaired["n_neg_needed"].item() is None
    # a perfect curve has no point with both rates inside (0, 1): pROC cannot smooth it
    perfect = df.with_columns(
        score=pl.when(pl.col("model") == "m1")
        .then(pl.col("label").cast(pl.Float64) + pl.col("score") / 100)
        .otherwise("score")
    )
    row = perfect.roc.compare(**kwargs)
    assert row["auc_a"].item() == 1.0
    assert row["n_pos_needed"].item() is None
    # a constant score among the positives: every rate of that curve is 0 or 1 among the
    # positives (nothing to fit), and the correlation is undefined too
    flat = df.with_columns(
        score=pl.when((pl.col("model") == "m2") & pl.col("label")).then(0.5).otherwise("score")
    )
    row = flat.roc.compare(**kwargs)
    assert row["diff"].item() != 0
    assert row["n_pos_needed"].item() is None
    # the DeLong plan of the same pairs is defined where the data allow
    assert flat.roc.compare(case="case", power=0.9)["n_pos_needed"].item() is not None


def test_binormal_fit_needs_two_inner_points() -> None:
    # tp/fp of a 4 + 4 curve: only one point has both rates inside (0, 1) -> null;
    # two points -> the line through them (qnorm(sp) on qnorm(se)).
    one = pl.DataFrame({"tp": [0, 1, 2, 3, 3, 4], "fp": [0, 0, 0, 0, 1, 4]})
    two = pl.DataFrame({"tp": [0, 1, 2, 3, 4], "fp": [0, 0, 1, 3, 4]})
    fit = binormal.fit(pl.col("tp"), pl.col("fp"), pl.lit(4), pl.lit(4))
    assert one.select(fit).row(0) == (None, None)
    a, b = two.select(fit).row(0)
    x, z = norm.ppf([0.5, 0.75]), norm.ppf([0.75, 0.25])
    slope = (z[1] - z[0]) / (x[1] - x[0])
    assert b == pytest.approx(slope, rel=1e-12)
    assert a == pytest.approx(z[0] - slope * x[0], rel=1e-12, abs=1e-12)


# --- bad arguments ----------------------------------------------------------------------------


def test_bad_power_method_is_named() -> None:
    df = asah_long()
    kwargs = {"label": "outcome", "pos_label": "Poor", "case": "case"}
    with pytest.raises(ValueError, match="power_method must be 'delong' or 'obuchowski'"):
        df.roc.compare(**kwargs, power=0.9, power_method="binormal")
    with pytest.raises(ValueError, match=r"power_method='obuchowski' needs power="):
        df.roc.compare(**kwargs, power_method="obuchowski")
    with pytest.raises(ValueError, match="delong"):
        df.roc.compare(
            **kwargs,
            power=0.9,
            power_method="obuchowski",
            method="bootstrap",
        )


def test_kernel_nulls_where_proc_gives_nan() -> None:
    # A well-separated curve 1 strongly correlated with a weak curve 2: the covariance
    # exceeds V1, so V0 = 2 V1 - 2 C < 0 and pROC's sqrt gives NaN; ours gives null.
    args = {"rn": 0.95, "ra": 0.95, "kappa": 1.0, "z_alpha": 1.96, "z_beta": 1.28}
    v1 = pl.select(binormal.variance(2.5, -1.0, 1.0)).item()
    c = pl.select(binormal.covariance(2.5, -1.0, 0.1, -1.0, 0.95, 0.95, 1.0)).item()
    assert 2 * v1 - 2 * c < 0
    null = binormal.cases_needed(2.5, -1.0, 0.1, -1.0, delta=0.1, **args)
    assert pl.select(null).item() is None
    swapped = binormal.cases_needed(0.1, -1.0, 2.5, -1.0, delta=0.1, **args)
    assert pl.select(swapped).item() > 0
    no_difference = binormal.cases_needed(0.1, -1.0, 2.5, -1.0, delta=0.0, **args)
    assert pl.select(no_difference).item() is None
