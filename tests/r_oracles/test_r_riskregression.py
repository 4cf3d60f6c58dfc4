"""
riskRegression ``Score`` run live: cumulative/dynamic AUC(t) against our ``time_auc``.

One Rscript (see conftest.py). ``Score(..., metrics = "auc", cens.model = "km")`` weighs each
case (event at or before ``t``) by ``1 / G(T_i-)``, the Kaplan-Meier curve of the censoring
times just *before* its own time; ours, as scikit-survival, by ``1 / G(T_i)``, censorings at
``T_i`` included (events before censorings at a tied time). The two agree whenever no case
shares its time with a censoring: on continuous times they are compared to 1e-9.

Difference on purpose, asserted as such: on integer times where a censoring ties with a case,
riskRegression's value is that of ``G(T-)`` (a brute-force numpy AUC with those weights), and
ours that of ``G(T)`` (the same brute force with the other weights), and the two differ.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import polars_roc  # noqa: F401  (registers the .roc namespaces)
from tests.r_oracles.conftest import require_r, run_r

require_r("riskRegression", "survival", "prodlim")

TIGHT = 1e-9
HORIZONS = [2.0, 4.0, 6.0]


def _frame(name: str, n: int, seed: int, *, integer: bool) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    risk = rng.normal(size=n)
    event_time = rng.exponential(6 * np.exp(-0.8 * risk))
    censor_time = rng.exponential(9, n)
    time = np.minimum(event_time, censor_time)
    if integer:
        time = np.ceil(time)
    score = np.round(risk + rng.normal(0, 0.7, n), 1)  # rounded: ties in the score too
    event = (event_time <= censor_time).astype(np.int64)
    return pl.DataFrame({"data": name, "score": score, "time": time, "event": event})


FRAMES = pl.concat(
    [
        _frame("continuous", 200, 11, integer=False),
        _frame("continuous_small", 40, 12, integer=False),
        _frame("tied_times", 150, 13, integer=True),
    ]
)

R_CODE = r"""
frames <- inp("frames")
times <- inp("horizons")$horizon
rows <- list()
for (d in unique(frames$data)) {
  f <- frames[frames$data == d, ]
  risk <- matrix(f$score, nrow = nrow(f), ncol = length(times))
  s <- Score(list(risk = risk), formula = Hist(time, event) ~ 1, data = f, times = times,
             metrics = "auc", cens.model = "km", conf.int = FALSE, null.model = FALSE)
  a <- as.data.frame(s$AUC$score)
  rows[[length(rows) + 1]] <- data.frame(data = d, horizon = a$times, auc = a$AUC)
}
out("auc", do.call(rbind, rows))
"""


@pytest.fixture(scope="module")
def r(tmp_path_factory: pytest.TempPathFactory) -> dict[str, pl.DataFrame]:
    inputs = {"frames": FRAMES, "horizons": pl.DataFrame({"horizon": HORIZONS})}
    packages = ["riskRegression", "survival", "prodlim"]
    return run_r(tmp_path_factory.mktemp("riskregression"), R_CODE, inputs, packages)


def _ours(data: str) -> pl.DataFrame:
    frame = FRAMES.filter(pl.col("data") == data)
    return frame.roc.time_auc("score", time="time", event="event", horizons=HORIZONS)


def _theirs(r: dict[str, pl.DataFrame], data: str) -> pl.DataFrame:
    return r["auc"].filter(pl.col("data") == data).sort("horizon")


def censoring_curve(time: np.ndarray, event: np.ndarray, *, before: bool) -> np.ndarray:
    """Kaplan-Meier of the censoring times at each row's time: G(T-) or G(T) (brute force)."""
    g = np.empty(len(time))
    for i, t in enumerate(time):
        value = 1.0
        for s in np.unique(time[(time < t) if before else (time <= t)]):
            at_risk = np.sum(time >= s) - np.sum((time == s) & (event == 1))
            value *= 1 - np.sum((time == s) & (event == 0)) / at_risk
        g[i] = value
    return g


def ipcw_auc(frame: pl.DataFrame, g: np.ndarray, horizon: float) -> float:
    """AUC(t) by pairs: cases weighted 1/G, controls 1, ties in the score one half."""
    time, event = frame["time"].to_numpy(), frame["event"].to_numpy()
    score = frame["score"].to_numpy()
    case = (time <= horizon) & (event == 1)
    control = time > horizon
    wins = (score[case, None] > score[None, control]) + 0.5 * (
        score[case, None] == score[None, control]
    )
    weights = 1 / g[case]
    return float((weights[:, None] * wins).sum() / (weights.sum() * control.sum()))


@pytest.mark.parametrize("data", ["continuous", "continuous_small"])
def test_auc_without_censoring_ties(r: dict[str, pl.DataFrame], data: str) -> None:
    ours, theirs = _ours(data), _theirs(r, data)
    assert ours["horizon"].to_list() == theirs["horizon"].to_list() == HORIZONS
    for got, expected in zip(ours["auc"], theirs["auc"], strict=True):
        assert got == pytest.approx(expected, abs=TIGHT, rel=0)


def test_tied_censoring_uses_g_before_the_time(r: dict[str, pl.DataFrame]) -> None:
    frame = FRAMES.filter(pl.col("data") == "tied_times")
    ours, theirs = _ours("tied_times"), _theirs(r, "tied_times")
    time, event = frame["time"].to_numpy(), frame["event"].to_numpy()
    g_before = censoring_curve(time, event, before=True)  # G(T-)
    g_at = censoring_curve(time, event, before=False)  # G(T)
    differ = 0
    for horizon, got, expected in zip(HORIZONS, ours["auc"], theirs["auc"], strict=True):
        assert expected == pytest.approx(ipcw_auc(frame, g_before, horizon), abs=TIGHT)
        assert got == pytest.approx(ipcw_auc(frame, g_at, horizon), abs=TIGHT)
        differ += abs(got - expected) > 1e-6
    assert differ > 0  # the frame does hold censorings tied with cases
