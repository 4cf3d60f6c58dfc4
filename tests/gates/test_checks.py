"""pr.checks: a degraded segment fails its gate, each check's number from its oracle."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from sklearn.metrics import roc_auc_score

import polars_roc as pr

SEGMENTS = ["east", "north", "south", "west"]


def champion_challenger(degraded: str = "west", n: int = 40_000) -> pl.DataFrame:
    """
    Simulated champion and a challenger that is the champion plus noise on the logit scale.

    Small noise (sd 0.05) everywhere, sd 0.75 in the `degraded` segment: its AUC drops by
    about 0.05 (measured in the test with scikit-learn), the others' by about 0.
    """
    champ = pr.datasets.simulate(n, models=["champion"], seed=11)
    p = champ["score"].clip(1e-3, 1 - 1e-3).to_numpy()
    noisy = (champ["segment"] == degraded).to_numpy()
    rng = np.random.default_rng(5)
    logit = np.log(p / (1 - p)) + rng.normal(size=len(p)) * np.where(noisy, 0.75, 0.05)
    challenger = champ.with_columns(model=pl.lit("challenger"), score=pl.Series(logit))
    return pl.concat([champ, challenger.with_columns(score=1 / (1 + (-pl.col("score")).exp()))])


@pytest.fixture(scope="module")
def sim() -> pl.DataFrame:
    return champion_challenger()


def test_the_degradation_is_five_points(sim: pl.DataFrame) -> None:
    for segment in SEGMENTS:
        rows = sim.filter(pl.col("segment") == segment)
        a, b = (rows.filter(pl.col("model") == m) for m in ("champion", "challenger"))
        drop = roc_auc_score(a["label"], a["score"]) - roc_auc_score(b["label"], b["score"])
        assert drop == (
            pytest.approx(0.05, abs=0.005) if segment == "west" else pytest.approx(0, abs=0.003)
        )


@pytest.mark.parametrize("lazy", [False, True], ids=["eager", "lazy"])
@pytest.mark.parametrize(("margin", "failing"), [(0.02, ["west"]), (0.10, [])])
def test_the_degraded_segment_fails_at_a_tight_margin_only(
    sim: pl.DataFrame, margin: float, failing: list[str], *, lazy: bool
) -> None:
    frame = sim.lazy() if lazy else sim
    out = pr.checks(
        frame, champion="champion", challenger="challenger", case="case", by="segment",
        margin=margin,
    )  # fmt: skip
    if lazy:
        assert isinstance(out, pl.LazyFrame)
        out = out.collect()
    assert out.columns == ["check", "segment", "value", "limit", "passed", "reason"]
    assert out["check"].unique().to_list() == ["non_inferiority"]
    assert sorted(out.filter(~pl.col("passed"))["segment"].to_list()) == failing
    assert out.height == len(SEGMENTS)


def test_lazy_equals_eager(sim: pl.DataFrame) -> None:
    kwargs = {"champion": "champion", "challenger": "challenger", "case": "case", "by": "segment"}
    limits = {"margin": 0.02, "min_auc": 0.7, "min_p": 0.01, "slope": (0.5, 1.5)}
    eager = pr.checks(sim, **kwargs, **limits)
    lazy = pr.checks(sim.lazy(), **kwargs, **limits).collect()
    assert eager.equals(lazy)
    assert sim.roc.checks(**kwargs, **limits).equals(eager)  # the namespace twin


def _delong_lower(labels: np.ndarray, scores: np.ndarray, z: float = 1.959963984540054) -> float:
    """DeLong's lower bound by brute-force placements (ties one half)."""
    pos, neg = scores[labels], scores[~labels]
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    auc = psi.mean()
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    se = np.sqrt(v10.var(ddof=1) / len(pos) + v01.var(ddof=1) / len(neg))
    return float(max(0.0, auc - z * se))


def test_min_auc_judges_the_lower_bound() -> None:
    small = champion_challenger(n=1200)
    auc = pr.areas.auc(small.filter(pl.col("model") == "challenger"), by="segment")
    limit = round(float(auc["auc"].min()) - 0.01, 2)  # every point AUC above it
    out = pr.checks(
        small, champion="champion", challenger="challenger", by="segment", min_auc=limit
    )
    for row in out.iter_rows(named=True):
        rows = small.filter(
            (pl.col("model") == "challenger") & (pl.col("segment") == row["segment"])
        )
        bound = _delong_lower(rows["label"].to_numpy(), rows["score"].to_numpy())
        assert row["value"] == pytest.approx(bound, abs=1e-9)
        assert row["passed"] == (bound >= limit)
        assert row["limit"] == f">= {limit:.4g}"
    # a point AUC above the limit does not pass when its lower bound is below it
    assert (auc["auc"] > limit).all()
    assert not out["passed"].all()


def test_monitoring_checks_read_the_last_window(sim: pl.DataFrame) -> None:
    timed = sim.with_columns(month=pl.col("case") % 6)
    out = pr.checks(
        timed, champion="champion", challenger="challenger", by="segment", time="month",
        every="1i", reference=(0, 2), max_psi=0.25,
    )  # fmt: skip
    mine = timed.filter(pl.col("model") == "challenger")
    trend = pr.monitoring.over_time(
        mine, time="month", every="1i", reference=(0, 2), by="segment"
    ).filter(pl.col("window_start") == 5)
    stable = pr.monitoring.score_stability(
        mine, time="month", every="1i", reference=(0, 2), by="segment"
    ).filter(pl.col("window_start") == 5)
    alerts = out.filter(pl.col("check") == "alert").sort("segment")
    assert alerts["value"].to_list() == trend.sort("segment")["estimate"].to_list()
    assert alerts["passed"].to_list() == (~trend.sort("segment")["alert"]).to_list()
    psi = out.filter(pl.col("check") == "psi").sort("segment")
    assert psi["value"].to_list() == stable.sort("segment")["psi"].to_list()
    # last window's rows scored as in the reference: a PSI far below 0.25
    assert psi["passed"].all()
    # the last window of the challenger rows by hand: AUC of month 5
    west = mine.filter((pl.col("month") == 5) & (pl.col("segment") == "west"))
    expected = roc_auc_score(west["label"], west["score"])
    assert alerts.filter(pl.col("segment") == "west")["value"].item() == pytest.approx(expected)


def test_an_undefined_check_fails_with_its_reason() -> None:
    frame = pl.DataFrame(
        {
            "model": ["a"] * 4 + ["b"] * 4,
            "case": [0, 1, 2, 3] * 2,
            "label": [True, True, True, True] * 2,  # no negatives
            "score": [0.1, 0.2, 0.3, 0.4, 0.2, 0.1, 0.4, 0.3],
        }
    )
    out = pr.checks(frame, champion="a", challenger="b", case="case", margin=0.1, min_auc=0.5)
    assert not out["passed"].any()
    assert out["value"].is_null().all()
    assert out["reason"].str.contains("undefined").all()


def test_disparity_and_slope_checks(sim: pl.DataFrame) -> None:
    out = pr.checks(
        sim, champion="champion", challenger="challenger", by="segment", min_p=0.05,
        slope=(0.9, 1.1),
    )  # fmt: skip
    mine = sim.filter(pl.col("model") == "challenger")
    gaps = pr.segments.disparity(mine, segment="segment").sort("segment")
    disparity = out.filter(pl.col("check") == "disparity").sort("segment")
    assert disparity["value"].to_list() == gaps["p_adjusted"].to_list()
    assert disparity["passed"].to_list() == (gaps["p_adjusted"] >= 0.05).to_list()
    fit = pr.calibration.calibration_fit(mine, by="segment").sort("segment")
    slopes = out.filter(pl.col("check") == "calibration_slope").sort("segment")
    assert slopes["value"].to_list() == fit["slope"].to_list()
    assert slopes["passed"].to_list() == fit["slope"].is_between(0.9, 1.1).to_list()


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"champion": "champion", "challenger": "champion", "margin": 0.1}, "two different"),
        ({"champion": "champion", "challenger": "challenger"}, "no check asked"),
        ({"champion": "champion", "challenger": "challenger", "max_psi": 0.2}, "reference"),
        ({"champion": "champion", "challenger": "challenger", "min_p": 0.05}, "needs by"),
        ({"champion": "champion", "challenger": "challenger", "slope": (1.2, 0.8)}, "band"),
        ({"champion": "champion", "challenger": "challenger", "margin": 2.0}, "margin"),
    ],
)
def test_bad_arguments(sim: pl.DataFrame, kwargs: dict[str, object], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        pr.checks(sim.head(100), **kwargs)
