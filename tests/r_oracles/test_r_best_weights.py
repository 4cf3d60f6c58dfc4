"""
pROC 1.18 run live: ``coords(best.method=, best.weights=c(cost, prevalence))`` against
``best_threshold(method=, cost_fn=cost, prevalence=)``.

On aSAH's three markers and a simulated frame with heavy ties, for Youden and
closest-topleft and a grid of weights, pROC's best point (its sensitivity and specificity:
pROC's thresholds are midpoints, ours the scores) is ours. pROC lists every tied optimum;
the grid is checked to give one, so that the comparison is of one point.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from tests.conftest import DATA
from tests.r_oracles.conftest import require_r, run_r

require_r("pROC")

TIGHT = 1e-9
MARKERS = ["s100b", "ndka", "wfns", "tied"]
WEIGHTS = [(1.0, 0.5), (2.0, 0.3), (0.5, 0.2), (3.0, 0.6), (0.8, 0.45), (10.0, 0.1)]


def _wide() -> pl.DataFrame:
    asah = pl.read_csv(DATA / "aSAH.csv")
    rng = np.random.default_rng(11)
    label = (asah["outcome"] == "Poor").cast(pl.Int64)
    tied = np.round(rng.random(asah.height) * 4 + label.to_numpy(), 0)  # five levels, ties
    return pl.DataFrame(
        {
            "label": label,
            "s100b": asah["s100b"].cast(pl.Float64),
            "ndka": asah["ndka"].cast(pl.Float64),
            "wfns": asah["wfns"].cast(pl.Float64),
            "tied": tied,
        }
    )


WIDE = _wide()

R_CODE = r"""
wide <- inp("wide")
grid <- inp("grid")
rows <- list()
for (m in c("s100b", "ndka", "wfns", "tied")) {
  r <- roc(wide$label, wide[[m]], levels = c(0, 1), direction = "<", quiet = TRUE)
  for (method in c("youden", "closest.topleft")) for (i in seq_len(nrow(grid))) {
    w <- c(grid$cost[i], grid$prevalence[i])
    cc <- coords(r, "best", best.method = method, best.weights = w,
                 ret = c("sensitivity", "specificity"), transpose = FALSE)
    rows[[length(rows) + 1]] <- data.frame(
      marker = m, method = sub(".", "_", method, fixed = TRUE), cost = w[1],
      prevalence = w[2], se = cc$sensitivity[1], sp = cc$specificity[1], n = nrow(cc))
  }
}
out("best", do.call(rbind, rows))
"""


@pytest.fixture(scope="module")
def r(tmp_path_factory: pytest.TempPathFactory) -> dict[str, pl.DataFrame]:
    grid = pl.DataFrame(WEIGHTS, schema=["cost", "prevalence"], orient="row")
    inputs = {"wide": WIDE, "grid": grid}
    return run_r(tmp_path_factory.mktemp("best_weights"), R_CODE, inputs, ["pROC"])


@pytest.mark.parametrize(("cost", "prevalence"), WEIGHTS)
@pytest.mark.parametrize("method", ["youden", "closest_topleft"])
@pytest.mark.parametrize("marker", MARKERS)
def test_weighted_best_point_as_proc(
    r: dict[str, pl.DataFrame], marker: str, method: str, cost: float, prevalence: float
) -> None:
    theirs = (
        r["best"]
        .filter(marker=marker, method=method, cost=cost, prevalence=prevalence)
        .row(0, named=True)
    )
    assert theirs["n"] == 1  # one optimum: the comparison is of one point
    best = WIDE.roc.best_threshold(
        marker, "label", method=method, cost_fn=cost, prevalence=prevalence
    ).row(0, named=True)
    assert best["tpr"] == pytest.approx(theirs["se"], abs=TIGHT)
    assert 1 - best["fpr"] == pytest.approx(theirs["sp"], abs=TIGHT)
