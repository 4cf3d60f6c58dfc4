"""Closed-form intervals: proportions against statsmodels, likelihood ratios by hand,
`auc(ci="logit")` by the delta method, and tally == raw rows (no resampling needed)."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.special import betaincinv
from scipy.stats import norm
from statsmodels.stats.proportion import proportion_confint

import polars_roc as pr
from polars_roc._core.distributions import beta_quantile
from polars_roc._core.proportions import (  # the kernels, on counts given directly
    proportion_interval,
    rate_intervals,
)

METHODS = {"wilson": "wilson", "clopper_pearson": "beta", "agresti_coull": "agresti_coull"}


@pytest.mark.parametrize("method", list(METHODS))
@given(
    counts=st.lists(st.tuples(st.integers(0, 400), st.integers(0, 400)), min_size=1, max_size=8),
    level=st.sampled_from([0.8, 0.9, 0.95, 0.99]),
)
def test_rate_intervals_equal_statsmodels(method: str, counts, level: float) -> None:
    tp, fn = (np.array(c) for c in zip(*counts, strict=True))
    fp, tn = fn[::-1].copy(), tp[::-1].copy()
    table = pl.DataFrame({"tp": tp, "fp": fp, "tn": tn, "fn": fn})
    got = table.with_columns(rate_intervals(method, level))  # type: ignore[arg-type]
    for rate, (x, n) in {"tpr": (tp, tp + fn), "fpr": (fp, fp + tn), "ppv": (tp, tp + fp)}.items():
        for i in range(len(x)):
            lower, upper = got[f"{rate}_lower"][i], got[f"{rate}_upper"][i]
            if n[i] == 0:
                assert lower is None
                assert upper is None
                continue
            want = proportion_confint(x[i], n[i], alpha=1 - level, method=METHODS[method])
            assert (lower, upper) == pytest.approx(want, abs=1e-12, rel=1e-10)


def test_likelihood_ratio_intervals_by_hand() -> None:
    table = pl.DataFrame(
        {"tp": [40, 0, 50], "fp": [20, 5, 10], "tn": [80, 95, 90], "fn": [10, 50, 0]}
    )
    got = table.with_columns(rate_intervals("wilson", 0.95))
    z = norm.ppf(0.975)
    tp, fp, tn, fn = 40, 20, 80, 10
    lr = (tp / (tp + fn)) / (fp / (fp + tn))
    se = math.sqrt(1 / tp - 1 / (tp + fn) + 1 / fp - 1 / (fp + tn))
    assert got["lr_pos_lower"][0] == pytest.approx(lr * math.exp(-z * se), rel=1e-12)
    assert got["lr_pos_upper"][0] == pytest.approx(lr * math.exp(z * se), rel=1e-12)
    lrn = (fn / (tp + fn)) / (tn / (fp + tn))
    sen = math.sqrt(1 / fn - 1 / (tp + fn) + 1 / tn - 1 / (fp + tn))
    assert got["lr_neg_lower"][0] == pytest.approx(lrn * math.exp(-z * sen), rel=1e-12)
    # a zero count: log of zero, no interval (never a guess)
    assert got["lr_pos_lower"][1] is None
    assert got["lr_neg_upper"][2] is None


def test_thresholds_ci_wilson_on_rows_and_on_a_tally() -> None:
    df = pr.datasets.simulate(3_000, seed=2).with_columns(pl.col("score").round(2))
    raw = df.roc.thresholds(by="model", thresholds=[0.2, 0.5, 0.8], ci="wilson")
    tallied = pr.tally(df, by="model").collect()
    from_tally = tallied.roc.thresholds(
        by="model", weight="weight", thresholds=[0.2, 0.5, 0.8], ci="wilson"
    )
    cols = [c for c in raw.columns if c.endswith(("_lower", "_upper"))]
    assert len(cols) == 12
    assert from_tally.select(cols).equals(raw.select(cols))
    for row in raw.iter_rows(named=True):
        want = proportion_confint(row["tp"], row["tp"] + row["fn"], method="wilson")
        assert (row["tpr_lower"], row["tpr_upper"]) == pytest.approx(want, rel=1e-10)


def test_weights_are_frequencies() -> None:
    df = pl.DataFrame(
        {"score": [0.1, 0.4, 0.35, 0.8, 0.6], "label": [0, 0, 1, 1, 0], "w": [2, 1, 3, 1, 2]}
    )
    repeated = df.select(pl.all().repeat_by("w").explode()).drop("w")
    for method in METHODS:
        a = df.roc.thresholds(weight="w", ci=method).drop("tp", "fp", "tn", "fn")
        b = repeated.roc.thresholds(ci=method).drop("tp", "fp", "tn", "fn")
        assert a.equals(b, null_equal=True) or np.allclose(
            a.drop_nulls().to_numpy(), b.drop_nulls().to_numpy(), rtol=1e-12
        )


def test_best_threshold_ci_is_the_table_row() -> None:
    df = pr.datasets.simulate(2_000, seed=4)
    best = df.roc.best_threshold(by="model", ci="clopper_pearson")
    chosen = best["threshold"].to_list()
    table = df.roc.thresholds(by="model", thresholds=chosen, ci="clopper_pearson")
    joined = best.join(table, on=["model", "threshold"], suffix="_t")
    assert len(joined) == best.height
    for c in ("tpr_lower", "npv_upper", "lr_pos_lower"):
        assert joined[c].to_list() == joined[f"{c}_t"].to_list()


def test_auc_logit_interval() -> None:
    df = pr.datasets.simulate(1_500, seed=5)
    got = df.roc.auc(by="model", ci="logit")
    delong = df.roc.auc(by="model", ci="delong")
    z = norm.ppf(0.975)
    for row, ref in zip(got.iter_rows(named=True), delong.iter_rows(named=True), strict=True):
        a, se = ref["auc"], ref["auc_se"]
        assert row["auc_se"] == se
        logit = math.log(a / (1 - a))
        for bound, sign in (("auc_lower", -1), ("auc_upper", 1)):
            want = 1 / (1 + math.exp(-(logit + sign * z * se / (a * (1 - a)))))
            assert row[bound] == pytest.approx(want, rel=1e-12)
    perfect = pl.DataFrame({"score": [0.1, 0.2, 0.8, 0.9], "label": [0, 0, 1, 1]})
    row = perfect.roc.auc(ci="logit").row(0, named=True)
    assert (row["auc_lower"], row["auc"], row["auc_upper"]) == (1.0, 1.0, 1.0)


def test_bad_ci_names_the_choices() -> None:
    df = pr.datasets.simulate(200, seed=1)
    with pytest.raises(ValueError, match="wilson"):
        df.roc.thresholds(ci="wald")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="level"):
        df.roc.thresholds(ci="wilson", level=1.5)


@pytest.mark.slow
def test_wilson_interval_on_tpr_covers_about_95_percent() -> None:
    rng = np.random.default_rng(11)
    n_pos, n_neg, reps, true_tpr = 60, 60, 400, None
    # binormal scores; the true TPR at threshold 0.5 is P(N(1, 1) >= 0.5)
    true_tpr = 1 - norm.cdf(0.5 - 1.0)
    frames = []
    for r in range(reps):
        pos, neg = rng.normal(1.0, 1.0, n_pos), rng.normal(0.0, 1.0, n_neg)
        frames.append(
            pl.DataFrame(
                {
                    "rep": r,
                    "score": np.r_[pos, neg],
                    "label": np.r_[np.ones(n_pos), np.zeros(n_neg)],
                }
            )
        )
    df = pl.concat(frames).with_columns(pl.col("label").cast(pl.Int8))
    out = df.roc.thresholds(by="rep", thresholds=[0.5], ci="wilson")
    covered = ((out["tpr_lower"] <= true_tpr) & (out["tpr_upper"] >= true_tpr)).mean()
    assert 0.92 <= covered <= 0.98


def test_clopper_pearson_at_scale_equals_statsmodels() -> None:
    # Every bound of a big table in one vectorised pass: small and huge counts, repeats,
    # x = 0 and x = n, and fractional (weighted) counts.
    rng = np.random.default_rng(7)
    n = np.concatenate([rng.integers(1, 30, 400), rng.integers(1, 2_000_000, 400)]).astype(float)
    x = np.minimum(np.floor(rng.random(n.size) * (n + 1)), n)
    x[:5], x[5:10] = 0, n[5:10]
    frac_n = rng.random(100) * 50 + 0.05
    frac_x = frac_n * rng.random(100)
    x, n = np.concatenate([x, x[:50], frac_x]), np.concatenate([n, n[:50], frac_n])
    got = pl.DataFrame({"x": x, "n": n}).select(
        proportion_interval(pl.col("x"), pl.col("n"), "clopper_pearson", 0.95).struct.unnest()
    )
    want_lower, want_upper = proportion_confint(x, n, alpha=0.05, method="beta")
    assert np.allclose(got["lower"].to_numpy(), want_lower, rtol=1e-10, atol=1e-12)
    assert np.allclose(got["upper"].to_numpy(), want_upper, rtol=1e-10, atol=1e-12)


def test_beta_quantile_equals_scipy_in_both_tails() -> None:
    # Roots in either tail, near 0 (a tiny a) and near 1 (a tiny b), solved together.
    rng = np.random.default_rng(3)
    a = np.concatenate([rng.random(300) * 5 + 0.01, rng.random(300) * 1e5 + 1])
    b = np.concatenate([rng.random(300) * 50 + 0.01, rng.random(300) * 1e5 + 1])
    p = rng.random(a.size)
    got, want = beta_quantile(p, a, b), betaincinv(a, b, p)
    assert np.allclose(got, want, rtol=1e-10, atol=1e-300)
