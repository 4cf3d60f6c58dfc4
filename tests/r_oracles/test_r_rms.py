"""
rms ``val.prob`` and R's ``glm`` run live: calibration slope and intercepts, C and Brier.

One Rscript (see conftest.py) on well-conditioned simulated frames (a few hundred rows,
probabilities away from 0 and 1, miscalibrated on purpose). R's ``glm`` is fitted with a
tight convergence tolerance, so its coefficients are the maximum-likelihood ones to ~1e-12;
``val.prob`` fits with ``lrm.fit``, whose stopping rule (a change in -2 log L below 0.025 in
rms 6.5) leaves its coefficients correct to about 1e-7 only: ours are compared to glm at 1e-9
and to val.prob at its own precision.

``val.prob``'s ``C (ROC)`` is approximate (``lrm.fit`` ranks the predictions in 5,001 bins):
the AUC is compared at 1e-9 with Hmisc's exact ``somers2`` and at 2e-4 with ``val.prob``.

Difference on purpose, asserted as such: ``val.prob``'s ``Intercept`` is the intercept of the
slope-free fit ``logit P(y) = a + b logit(p)``; our ``intercept`` is calibration in the large
(the slope fixed at 1: ``glm(y ~ offset(logit(p)))``), a different number.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import polars_roc as pr
from tests.r_oracles.conftest import require_r, run_r

require_r("rms")

TIGHT = 1e-9
LRM_FIT = 1e-6  # val.prob's lrm.fit stops early (see the module docstring)


def _frame(name: str, n: int, a: float, b: float, seed: int) -> pl.DataFrame:
    """`n` rows with p ~ Beta(2, 3) and y ~ Bernoulli(expit(a + b logit p))."""
    rng = np.random.default_rng(seed)
    p = rng.beta(2, 3, n).clip(0.02, 0.98)
    logit = np.log(p / (1 - p))
    y = rng.random(n) < 1 / (1 + np.exp(-(a + b * logit)))
    w = rng.integers(1, 4, n).astype(float)
    return pl.DataFrame({"data": name, "p": p, "y": y.astype(np.int64), "w": w})


FRAMES = pl.concat(
    [
        _frame("calibrated", 400, 0.0, 1.0, 1),
        _frame("overconfident", 300, 0.2, 0.6, 2),
        _frame("timid", 500, -0.3, 1.5, 3),
        _frame("small", 60, 0.1, 0.9, 4),
    ]
)
DATASETS = FRAMES["data"].unique(maintain_order=True).to_list()

R_CODE = r"""
frames <- inp("frames")
rows <- list()
tight <- glm.control(epsilon = 1e-15, maxit = 100)
for (d in unique(frames$data)) {
  f <- frames[frames$data == d, ]
  v <- val.prob(f$p, f$y, pl = FALSE)
  lp <- qlogis(f$p)
  free <- coef(glm(f$y ~ lp, family = binomial, control = tight))
  large <- coef(glm(f$y ~ 1 + offset(lp), family = binomial, control = tight))
  wfree <- coef(glm(f$y ~ lp, family = binomial, weights = f$w, control = tight))
  wlarge <- coef(glm(f$y ~ 1 + offset(lp), family = binomial, weights = f$w, control = tight))
  rows[[length(rows) + 1]] <- data.frame(data = d, c_roc = v[["C (ROC)"]],
    c_exact = somers2(f$p, f$y)[["C"]],
    brier = v[["Brier"]], vp_intercept = v[["Intercept"]], vp_slope = v[["Slope"]],
    slope = free[[2]], free_intercept = free[[1]], intercept = large[[1]],
    w_slope = wfree[[2]], w_intercept = wlarge[[1]])
}
out("fits", do.call(rbind, rows))
"""


@pytest.fixture(scope="module")
def r(tmp_path_factory: pytest.TempPathFactory) -> dict[str, pl.DataFrame]:
    return run_r(tmp_path_factory.mktemp("rms"), R_CODE, {"frames": FRAMES}, ["rms"])


def _pair(r: dict[str, pl.DataFrame], data: str) -> tuple[dict, dict, pl.DataFrame]:
    frame = FRAMES.filter(pl.col("data") == data)
    theirs = r["fits"].filter(pl.col("data") == data).row(0, named=True)
    return frame.roc.calibration_fit("p", "y").row(0, named=True), theirs, frame


@pytest.mark.parametrize("data", DATASETS)
def test_slope_as_val_prob_and_glm(r: dict[str, pl.DataFrame], data: str) -> None:
    ours, theirs, frame = _pair(r, data)
    assert ours["slope"] == pytest.approx(theirs["slope"], abs=TIGHT, rel=0)
    assert ours["slope"] == pytest.approx(theirs["vp_slope"], abs=LRM_FIT, rel=0)
    expr = frame.select(pr.calibration_slope("p", "y")).item()
    assert expr == pytest.approx(theirs["slope"], abs=TIGHT, rel=0)


@pytest.mark.parametrize("data", DATASETS)
def test_intercepts_and_the_documented_difference(r: dict[str, pl.DataFrame], data: str) -> None:
    ours, theirs, frame = _pair(r, data)
    # ours: calibration in the large, glm(y ~ offset(logit p))
    assert ours["intercept"] == pytest.approx(theirs["intercept"], abs=TIGHT, rel=0)
    expr = frame.select(pr.calibration_intercept("p", "y")).item()
    assert expr == pytest.approx(theirs["intercept"], abs=TIGHT, rel=0)
    # val.prob's Intercept: the slope-free fit's, which differs from ours unless the slope is 1
    assert theirs["vp_intercept"] == pytest.approx(theirs["free_intercept"], abs=LRM_FIT)
    assert abs(theirs["vp_intercept"] - ours["intercept"]) > 1e-4


@pytest.mark.parametrize("data", DATASETS)
def test_weights_are_glm_prior_weights(r: dict[str, pl.DataFrame], data: str) -> None:
    frame = FRAMES.filter(pl.col("data") == data)
    theirs = r["fits"].filter(pl.col("data") == data).row(0, named=True)
    ours = frame.roc.calibration_fit("p", "y", weight="w").row(0, named=True)
    assert ours["slope"] == pytest.approx(theirs["w_slope"], abs=TIGHT, rel=0)
    assert ours["intercept"] == pytest.approx(theirs["w_intercept"], abs=TIGHT, rel=0)


@pytest.mark.parametrize("data", DATASETS)
def test_c_index_and_brier(r: dict[str, pl.DataFrame], data: str) -> None:
    frame = FRAMES.filter(pl.col("data") == data)
    theirs = r["fits"].filter(pl.col("data") == data).row(0, named=True)
    auc, brier = frame.select(pr.auc("p", "y"), pr.brier_score("p", "y")).row(0)
    assert brier == pytest.approx(theirs["brier"], abs=TIGHT, rel=0)
    assert auc == pytest.approx(theirs["c_exact"], abs=TIGHT, rel=0)  # Hmisc's somers2
    # On purpose (rms): val.prob's C comes from lrm.fit, which ranks the predictions in
    # 5,001 bins, so it is the AUC to about 1e-4 only (e.g. 0.770975 vs 0.771001).
    assert auc == pytest.approx(theirs["c_roc"], abs=2e-4, rel=0)
