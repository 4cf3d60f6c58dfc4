"""Coverage: 95% intervals cover the known truth of binormal data about 95% of the time.

Negatives score N(0, 1) and positives N(mu, 1), so the true AUC is Phi(mu / sqrt 2), and at
the threshold z = Phi^-1(1 - f) the true FPR is f and the true TPR Phi(mu - z), which is
also the true TPR at FPR f. Each check runs 400 independent data sets (one group each) and
accepts a coverage count inside the central 99.9% of Binomial(400, 0.95): a sound interval
fails it with probability 0.001, while e.g. 90% coverage fails it almost surely.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
import scipy.stats

import polars_roc as pr

REPS, N_POS, N_NEG, MU, FPR = 400, 100, 100, 1.0, 0.2
Z = float(scipy.stats.norm.ppf(1 - FPR))
TRUE_AUC = float(scipy.stats.norm.cdf(MU / math.sqrt(2)))
TRUE_TPR = float(scipy.stats.norm.cdf(MU - Z))
LOW, HIGH = (int(v) for v in scipy.stats.binom.ppf([0.0005, 0.9995], REPS, 0.95))


@pytest.fixture(scope="module")
def binormal() -> pl.DataFrame:
    rng = np.random.default_rng(20261123)
    label = np.tile(np.r_[np.ones(N_POS, bool), np.zeros(N_NEG, bool)], REPS)
    score = rng.normal(size=label.size) + MU * label
    rep = np.repeat(np.arange(REPS), N_POS + N_NEG)
    return pl.DataFrame({"rep": rep, "score": score, "label": label})


def covered(frame: pl.DataFrame, lower: str, upper: str, truth: float) -> int:
    assert frame.height == REPS
    assert frame[lower].null_count() == frame[upper].null_count() == 0
    return int(((frame[lower] <= truth) & (truth <= frame[upper])).sum())


@pytest.mark.slow
def test_auc_intervals_cover_the_true_auc(binormal: pl.DataFrame) -> None:
    delong = binormal.roc.auc(by="rep", ci="delong")
    boot = binormal.roc.auc(by="rep", ci="bootstrap", n_boot=500, seed=1)
    metric = binormal.roc.bootstrap({"auc": pr.auc("score", "label")}, by="rep", n_boot=200, seed=1)
    counts = {
        "delong": covered(delong, "auc_lower", "auc_upper", TRUE_AUC),
        "bootstrap": covered(boot, "auc_lower", "auc_upper", TRUE_AUC),
        "metric bootstrap": covered(metric, "lower", "upper", TRUE_AUC),
    }
    assert all(LOW <= c <= HIGH for c in counts.values()), (counts, (LOW, HIGH))


@pytest.mark.slow
def test_rate_intervals_cover_the_true_rates(binormal: pl.DataFrame) -> None:
    band = binormal.roc.tpr_at_fpr(fpr=FPR, by="rep", ci="bootstrap", n_boot=500, seed=2)
    at = binormal.roc.thresholds(by="rep", thresholds=[Z], ci="bootstrap", n_boot=500, seed=2)
    counts = {
        "tpr at fpr": covered(band, "tpr_lower", "tpr_upper", TRUE_TPR),
        "tpr at threshold": covered(at, "tpr_lower", "tpr_upper", TRUE_TPR),
        "fpr at threshold": covered(at, "fpr_lower", "fpr_upper", FPR),
    }
    assert all(LOW <= c <= HIGH for c in counts.values()), (counts, (LOW, HIGH))
