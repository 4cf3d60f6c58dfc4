"""
cutpointr and OptimalCutpoints run live: optimal cutpoints and the values at them.

One Rscript (see conftest.py) on pROC's aSAH (tests/data) and messy simulated frames (heavy
ties, a tiny group). Both packages put a row on the positive side iff ``score >= cutpoint``
(cutpointr ``direction = ">="``, OptimalCutpoints ``direction = "<"``), with cutpoints among
the scores, as ours: thresholds compare exactly. cutpointr keeps every tied optimum with
``break_ties = c``; OptimalCutpoints lists them all.

Bootstrap intervals are not compared: each package draws its own resamples (R's RNG), so
only their distributions could agree. OptimalCutpoints' closed-form intervals at the
cutpoint (``ci.fit``) are compared with ours (``ci=`` on ``best_threshold``).
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import polars_roc  # noqa: F401  (registers the .roc namespaces)
from tests.conftest import DATA
from tests.r_oracles.conftest import require_r, run_r

require_r("cutpointr", "OptimalCutpoints")

TIGHT = 1e-9


def _frames() -> pl.DataFrame:
    asah = pl.read_csv(DATA / "aSAH.csv")
    label = (asah["outcome"] == "Poor").cast(pl.Int64)
    parts = [
        pl.DataFrame({"data": f"asah_{m}", "score": asah[m].cast(pl.Float64), "label": label})
        for m in ["s100b", "ndka", "wfns"]
    ]
    rng = np.random.default_rng(3)
    n = 70
    y = rng.random(n) < 0.4
    parts.append(
        pl.DataFrame({"data": "ties", "score": (rng.integers(0, 6, n) + 2 * y).astype(float),
                      "label": y.astype(np.int64)})  # fmt: skip
    )
    parts.append(
        pl.DataFrame({"data": "small", "score": [0.3, 0.9, 0.6, 0.6, 0.2, 0.8],
                      "label": [0, 1, 1, 0, 0, 1]})  # fmt: skip
    )
    return pl.concat(parts)


FRAMES = _frames()
DATASETS = FRAMES["data"].unique(maintain_order=True).to_list()

R_CODE = r"""
frames <- inp("frames")
cp <- list(); oc <- list(); ci <- list()
for (d in unique(frames$data)) {
  f <- frames[frames$data == d, ]
  c1 <- cutpointr(f, score, label, method = maximize_metric, metric = youden,
                  pos_class = 1, neg_class = 0, direction = ">=", break_ties = c,
                  tol_metric = 1e-12, silent = TRUE)
  cp[[length(cp) + 1]] <- data.frame(data = d, cutpoint = unlist(c1$optimal_cutpoint),
    youden = unlist(c1$youden), sensitivity = unlist(c1$sensitivity),
    specificity = unlist(c1$specificity))
  o <- optimal.cutpoints(X = "score", status = "label", tag.healthy = 0, methods = "Youden",
                         data = f, direction = "<", ci.fit = TRUE, conf.level = 0.95,
                         control = control.cutpoints(ci.SeSp = "Exact"))
  best <- o$Youden$Global$optimal.cutoff
  oc[[length(oc) + 1]] <- data.frame(data = d, cutoff = best$cutoff, se = best$Se[, 1],
    sp = best$Sp[, 1], se_lower = best$Se[, 2], se_upper = best$Se[, 3],
    sp_lower = best$Sp[, 2], sp_upper = best$Sp[, 3])
}
out("cutpointr", do.call(rbind, cp))
out("optimal", do.call(rbind, oc))
"""


@pytest.fixture(scope="module")
def r(tmp_path_factory: pytest.TempPathFactory) -> dict[str, pl.DataFrame]:
    packages = ["cutpointr", "OptimalCutpoints"]
    return run_r(tmp_path_factory.mktemp("cutpoints"), R_CODE, {"frames": FRAMES}, packages)


def _one(data: str) -> pl.DataFrame:
    return FRAMES.filter(pl.col("data") == data).drop("data")


@pytest.mark.parametrize("data", DATASETS)
def test_youden_as_cutpointr(r: dict[str, pl.DataFrame], data: str) -> None:
    ours = _one(data).roc.best_threshold(pos_label=1).sort("threshold")
    theirs = r["cutpointr"].filter(pl.col("data") == data).sort("cutpoint")
    assert ours["threshold"].to_list() == theirs["cutpoint"].to_list()
    for mine, name in {"youden": "youden", "tpr": "sensitivity", "tnr": "specificity"}.items():
        for got, expected in zip(ours[mine], theirs[name], strict=True):
            assert got == pytest.approx(expected, abs=TIGHT, rel=0)


@pytest.mark.parametrize("data", DATASETS)
def test_youden_as_optimal_cutpoints(r: dict[str, pl.DataFrame], data: str) -> None:
    ours = _one(data).roc.best_threshold(pos_label=1, ci="clopper_pearson").sort("threshold")
    theirs = r["optimal"].filter(pl.col("data") == data).sort("cutoff")
    assert ours["threshold"].to_list() == theirs["cutoff"].to_list()
    pairs = {"tpr": "se", "tnr": "sp", "tpr_lower": "se_lower", "tpr_upper": "se_upper"}
    for mine, name in pairs.items():
        for got, expected in zip(ours[mine], theirs[name], strict=True):
            assert got == pytest.approx(expected, abs=TIGHT, rel=0)
    # specificity's interval is the complement of ours on fpr
    for got, expected in zip(1 - ours["fpr_upper"], theirs["sp_lower"], strict=True):
        assert got == pytest.approx(expected, abs=TIGHT, rel=0)
    for got, expected in zip(1 - ours["fpr_lower"], theirs["sp_upper"], strict=True):
        assert got == pytest.approx(expected, abs=TIGHT, rel=0)
