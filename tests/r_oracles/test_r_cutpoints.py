"""
cutpointr and OptimalCutpoints run live: optimal cutpoints and the values at them.

One Rscript (see conftest.py) on pROC's aSAH (tests/data) and messy simulated frames (heavy
ties, a tiny group). Both packages put a row on the positive side iff ``score >= cutpoint``
(cutpointr ``direction = ">="``, OptimalCutpoints ``direction = "<"``), with cutpoints among
the scores, as ours: thresholds compare exactly.

Difference on purpose, asserted as such: cutpointr (``break_ties = c``) and
OptimalCutpoints list every tied optimum; ``best_threshold`` returns one row, the tied
optimum of highest threshold (the fewest predicted positives). cutpointr's default
``break_ties = median`` would return the median of the tied cutpoints, a point that need
not be optimal.

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
        pl.DataFrame(
            {
                "data": "ties",
                "score": (rng.integers(0, 6, n) + 2 * y).astype(float),
                "label": y.astype(np.int64),
            }
        )
    )
    parts.append(
        pl.DataFrame(
            {"data": "small", "score": [0.3, 0.9, 0.6, 0.6, 0.2, 0.8], "label": [0, 1, 1, 0, 0, 1]}
        )
    )
    parts.append(  # the tie of issue 44's item 19: Sp 2/3 at thresholds 4 and 3
        pl.DataFrame(
            {
                "data": "dominated",
                "score": [float(s) for s in range(10, 0, -1)],
                "label": [0, 1, 1, 1, 1, 1, 1, 1, 0, 0],
            }
        )
    )
    return pl.concat(parts)


FRAMES = _frames()
DATASETS = FRAMES["data"].unique(maintain_order=True).to_list()

R_CODE = r"""
frames <- inp("frames")
cp <- list(); oc <- list(); mv <- list()
for (d in unique(frames$data)) {
  f <- frames[frames$data == d, ]
  c1 <- cutpointr(f, score, label, method = maximize_metric, metric = youden,
                  pos_class = 1, neg_class = 0, direction = ">=", break_ties = c,
                  tol_metric = 1e-12, silent = TRUE)
  cp[[length(cp) + 1]] <- data.frame(data = d, cutpoint = unlist(c1$optimal_cutpoint),
    youden = unlist(c1$youden), sensitivity = unlist(c1$sensitivity),
    specificity = unlist(c1$specificity))
  for (method in c("Exact", "AgrestiCoull")) {
    o <- suppressWarnings(optimal.cutpoints(X = "score", status = "label", tag.healthy = 0,
      methods = "Youden", data = f, direction = "<", ci.fit = TRUE, conf.level = 0.95,
      control = control.cutpoints(ci.SeSp = method)))
    best <- o$Youden$Global$optimal.cutoff
    oc[[length(oc) + 1]] <- data.frame(data = d, method = method, cutoff = best$cutoff,
      se = best$Se[, 1], sp = best$Sp[, 1], se_lower = best$Se[, 2],
      se_upper = best$Se[, 3], sp_lower = best$Sp[, 2], sp_upper = best$Sp[, 3])
  }
  for (method in c("MinValueSe", "MinValueSp")) {
    o <- optimal.cutpoints(X = "score", status = "label", tag.healthy = 0, methods = method,
      data = f, direction = "<", control = control.cutpoints(valueSe = 0.85, valueSp = 0.6))
    best <- o[[method]]$Global$optimal.cutoff
    mv[[length(mv) + 1]] <- data.frame(data = d, method = method, cutoff = best$cutoff,
      se = best$Se[, 1], sp = best$Sp[, 1])
  }
}
out("constrained", do.call(rbind, mv))
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
    ours = _one(data).roc.best_threshold(pos_label=1)
    theirs = r["cutpointr"].filter(pl.col("data") == data).sort("cutpoint").tail(1)
    assert ours["threshold"].to_list() == theirs["cutpoint"].to_list()
    for mine, name in {"youden": "youden", "tpr": "sensitivity", "tnr": "specificity"}.items():
        for got, expected in zip(ours[mine], theirs[name], strict=True):
            assert got == pytest.approx(expected, abs=TIGHT, rel=0)


# OptimalCutpoints' ci.SeSp -> ours: its "AgrestiCoull" is the Wilson score interval (its R
# code: (p + z²/2n ± z √(p(1-p)/n + z²/4n²)) / (1 + z²/n)), not Agresti-Coull's.
INTERVALS = {"Exact": "clopper_pearson", "AgrestiCoull": "wilson"}


@pytest.mark.parametrize("data", DATASETS)
@pytest.mark.parametrize("method", list(INTERVALS))
def test_youden_as_optimal_cutpoints(r: dict[str, pl.DataFrame], data: str, method: str) -> None:
    ours = _one(data).roc.best_threshold(pos_label=1, ci=INTERVALS[method])
    theirs = r["optimal"].filter(pl.col("data") == data, pl.col("method") == method)
    theirs = theirs.sort("cutoff").tail(1).row(0, named=True)
    mine = ours.select(
        "threshold", "tpr", "tnr", "tpr_lower", "tpr_upper",
        tnr_lower=1 - pl.col("fpr_upper"), tnr_upper=1 - pl.col("fpr_lower"),
    ).row(0, named=True)  # fmt: skip
    assert mine.pop("threshold") == theirs["cutoff"]
    names = ["se", "sp", "se_lower", "se_upper", "sp_lower", "sp_upper"]
    for (name, got), their_name in zip(mine.items(), names, strict=True):
        expected = theirs[their_name]
        if np.isnan(expected):
            # On purpose: OptimalCutpoints' "Exact" bound is NaN (an F quantile with 0
            # degrees of freedom) when every or no row is a success; Clopper-Pearson's
            # bound is then 1 (upper) or 0 (lower), as ours.
            assert method == "Exact"
            estimate = mine[name.split("_")[0]]
            assert (name.endswith("upper") and estimate == 1.0 and got == 1.0) or (
                name.endswith("lower") and estimate == 0.0 and got == 0.0
            )
        else:
            assert got == pytest.approx(expected, abs=TIGHT, rel=0)


def test_ties_are_listed_by_both_packages(r: dict[str, pl.DataFrame]) -> None:
    """The "small" frame ties J at 0.6 and 0.8: both packages list both, ours gives 0.8."""
    for name, column in [("cutpointr", "cutpoint"), ("optimal", "cutoff")]:
        tied = r[name].filter(pl.col("data") == "small")[column].unique().sort().to_list()
        assert tied == [0.6, 0.8]
    assert _one("small").roc.best_threshold(pos_label=1)["threshold"].to_list() == [0.8]


# OptimalCutpoints' MinValueSe (the best Sp with Se >= 0.85) and MinValueSp (the best Se with
# Sp >= 0.6) -> best_threshold's objective and `where` condition.
CONSTRAINED = {
    "MinValueSe": ("tnr", pl.col("tpr") >= 0.85, "sp"),
    "MinValueSp": ("tpr", pl.col("tnr") >= 0.6, "se"),
}


@pytest.mark.parametrize(
    ("data", "method"),
    # ("asah_ndka", "MinValueSe") and ("dominated", "MinValueSe") tie on the objective: never
    # a dominated point among ties, as OptimalCutpoints (it failed before that rule).
    [(d, m) for d in DATASETS for m in CONSTRAINED],
)
def test_constrained_optimum_as_optimal_cutpoints(
    r: dict[str, pl.DataFrame], data: str, method: str
) -> None:
    objective, where, their_objective = CONSTRAINED[method]
    ours = _one(data).roc.best_threshold(pos_label=1, method=objective, where=where)
    theirs = r["constrained"].filter(pl.col("data") == data, pl.col("method") == method)
    assert theirs.height == 1
    theirs_row = theirs.row(0, named=True)
    got = ours.select("threshold", "tpr", "tnr").row(0, named=True)
    # the same optimum value of the objective ...
    assert got[objective] == pytest.approx(theirs_row[their_objective], abs=TIGHT, rel=0)
    # ... and the same point: the one no tied point dominates
    assert got["threshold"] == theirs_row["cutoff"]
    assert (got["tpr"], got["tnr"]) == pytest.approx(
        (theirs_row["se"], theirs_row["sp"]), abs=TIGHT, rel=0
    )
