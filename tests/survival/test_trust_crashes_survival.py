"""Survival edges that crashed: a censoring curve falling to 0, horizons past Int64.

Oracles: brute-force IPCW (each case weighted by 1 / G(T) of the censoring Kaplan–Meier
curve, computed by hand below), scikit-learn's weighted ROC curve and scikit-survival.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from sklearn.metrics import auc as trapezoid
from sklearn.metrics import roc_curve

import polars_roc as pr
from polars_roc.cli import main

sksurv_metrics = pytest.importorskip("sksurv.metrics")
sksurv_util = pytest.importorskip("sksurv.util")

# G(1) = 1; at t = 2 one event and one censoring leave nobody at risk: G(2) = 0.
FALLS = pl.DataFrame({"s": [0.9, 0.5, 0.2], "t": [1, 2, 2], "e": [True, True, False]})


def test_time_curve_survives_a_censoring_curve_at_zero() -> None:
    curve = FALLS.roc.time_curve("s", time="t", event="e", horizons=[1, 2])
    one = curve.filter(pl.col("horizon") == 1)
    # brute force at horizon 1: case row 0 (weight 1 / G(1) = 1), controls rows 1 and 2
    fpr, tpr, _ = roc_curve([1, 0, 0], [0.9, 0.5, 0.2], drop_intermediate=False)
    assert one["fpr"].to_list() == pytest.approx(fpr.tolist())
    assert one["tpr"].to_list() == pytest.approx(tpr.tolist())
    assert trapezoid(one["fpr"].to_numpy(), one["tpr"].to_numpy()) == 1.0
    # horizon 2: the case at t = 2 has G = 0 (no weight) and there is no control: undefined
    two = curve.filter(pl.col("horizon") == 2)
    assert two.height > 0
    for column in ("tp", "fn", "tpr"):
        assert two[column].null_count() == two.height


def test_time_auc_agrees_with_its_curve_where_g_falls_to_zero() -> None:
    table = FALLS.roc.time_auc("s", time="t", event="e", horizons=[1, 2])
    assert table["auc"].to_list() == [1.0, None]
    assert table["n_controls"].to_list() == [2, 0]


def _weights_by_hand(t: np.ndarray, e: np.ndarray) -> np.ndarray:
    """1 / G(T_i) for events (G: Kaplan–Meier of the censorings, events first at ties)."""
    weight = np.ones(len(t))
    for i in np.flatnonzero(e):
        g = 1.0
        for s in np.unique(t[t <= t[i]]):
            at_risk = (t >= s).sum() - ((t == s) & e).sum()
            censored = ((t == s) & ~e).sum()
            g *= 1 - censored / at_risk if at_risk > 0 else 1.0
        weight[i] = np.inf if g == 0 else 1 / g
    return weight


def test_time_curve_where_g_falls_in_one_group_only() -> None:
    rng = np.random.default_rng(4)
    ok = pl.DataFrame(  # the last time an event: G stays above 0 (scikit-survival needs it)
        {
            "s": rng.random(41).tolist(),
            "t": [*rng.integers(1, 9, 40).tolist(), 9],
            "e": [*(rng.random(40) < 0.6).tolist(), True],
        }
    )
    frame = pl.concat([ok.with_columns(g=pl.lit("ok")), FALLS.with_columns(g=pl.lit("falls"))])
    curve = frame.roc.time_curve("s", time="t", event="e", horizons=[4], by="g")
    mine = curve.filter(pl.col("g") == "ok")
    t, e, s = ok["t"].to_numpy(), ok["e"].to_numpy(), ok["s"].to_numpy()
    case, control = e & (t <= 4), t > 4
    keep = case | control
    w = np.where(case, _weights_by_hand(t, e), 1.0)[keep]
    fpr, tpr, _ = roc_curve(case[keep], s[keep], sample_weight=w, drop_intermediate=False)
    assert mine["fpr"].to_list() == pytest.approx(fpr.tolist())
    assert mine["tpr"].to_list() == pytest.approx(tpr.tolist())
    y = sksurv_util.Surv.from_arrays(e, t.astype(float))
    expected, _ = sksurv_metrics.cumulative_dynamic_auc(y, y, s, [4])
    area = trapezoid(mine["fpr"].to_numpy(), mine["tpr"].to_numpy())
    assert area == pytest.approx(expected[0])


@pytest.mark.parametrize("horizon", [2**63, 2.0**64, 1e308])
def test_a_horizon_past_int64_on_an_integer_time(horizon: float) -> None:
    frame = pl.DataFrame({"s": [0.9, 0.5, 0.2, 0.4], "t": [1, 2, 3, 5], "e": [1, 1, 0, 1]})
    table = frame.roc.time_auc("s", time="t", event="e", horizons=[1, horizon])
    # every row is before the huge horizon: cases are the events, and no control is left
    assert table["n_controls"].to_list() == [3, 0]
    assert table["auc"].to_list() == [1.0, None]
    assert table["horizon"].dtype == pl.Float64
    assert table["horizon"].to_list() == [1.0, float(horizon)]
    curve = frame.roc.time_curve("s", time="t", event="e", horizons=[1, horizon])
    assert curve["horizon"].unique().sort().to_list() == [1.0, float(horizon)]


def test_cli_horizons_past_int64(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "surv.csv"
    rows = pr.datasets.simulate(200, models=["a"], seed=3).with_columns(
        days=pl.int_range(pl.len()) % 50, died=pl.col("label")
    )
    rows.write_csv(path)
    flags = ["--score", "score", "--label", "label", "--time-to-event", "days"]
    flags += ["--event", "died", "--horizons", "10,1e308", "--js", "cdn", "--quiet"]
    status = main(["report", str(path), *flags, "-o", str(tmp_path / "r.html")])
    err = capsys.readouterr().err
    assert status == 0, err
