"""
riskRegression ``Score`` run live against ``time_auc(censoring_at="before", weight=)``.

``Score(..., cens.model = "km")`` weighs a case by ``1 / G(T-)``; it takes no case weights,
so it runs on the rows repeated by their integer weights and ours on the weights. One
Rscript; without R or the packages the module skips with the reason.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

import polars_roc  # noqa: F401  (registers the .roc namespaces)
from tests.r_oracles.conftest import require_r, run_r
from tests.survival.conftest import integer_times

require_r("riskRegression", "survival", "prodlim")

HORIZONS = [2.0, 4.0, 6.0]

R_CODE = r"""
frames <- inp("frames")
times <- inp("horizons")$horizon
rows <- list()
for (d in unique(frames$data)) {
  f <- frames[frames$data == d, ]
  risk <- matrix(f$s, nrow = nrow(f), ncol = length(times))
  s <- Score(list(risk = risk), formula = Hist(t, e) ~ 1, data = f, times = times,
             metrics = "auc", cens.model = "km", conf.int = FALSE, null.model = FALSE)
  a <- as.data.frame(s$AUC$score)
  rows[[length(rows) + 1]] <- data.frame(data = d, horizon = a$times, auc = a$AUC)
}
out("auc", do.call(rbind, rows))
"""


def test_before_equals_risk_regression_live(tmp_path: Path) -> None:
    # riskRegression takes no case weights: it runs on the repeated rows, ours on the weights.
    frames = {name: integer_times(n, seed) for name, n, seed in [("a", 150, 13), ("b", 60, 5)]}
    repeated = pl.concat(
        [
            f.select(pl.all().repeat_by("w").explode())
            .drop("w")
            .with_columns(data=pl.lit(name), e=pl.col("e").cast(pl.Int64))
            for name, f in frames.items()
        ]
    )
    inputs = {"frames": repeated, "horizons": pl.DataFrame({"horizon": HORIZONS})}
    theirs = run_r(tmp_path, R_CODE, inputs, ["riskRegression", "survival", "prodlim"])["auc"]
    for name, frame in frames.items():
        ours = frame.roc.time_auc(
            "s", time="t", event="e", horizons=HORIZONS, weight="w", censoring_at="before"
        )
        want = theirs.filter(pl.col("data") == name).sort("horizon")
        assert want["horizon"].to_list() == HORIZONS
        assert ours["auc"].to_numpy() == pytest.approx(want["auc"].to_numpy(), abs=1e-9, rel=0)
        default = frame.roc.time_auc("s", time="t", event="e", horizons=HORIZONS, weight="w")
        assert np.abs(default["auc"].to_numpy() - want["auc"].to_numpy()).max() > 1e-6
