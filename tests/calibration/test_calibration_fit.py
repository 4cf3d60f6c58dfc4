"""Calibration slope / intercept against statsmodels' GLM, and the calibration intervals."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
import statsmodels.api as sm
from statsmodels.stats.proportion import proportion_confint

import polars_roc as pr

EPS = float(np.finfo(np.float64).eps)


def glm(p: np.ndarray, y: np.ndarray, w: np.ndarray | None = None) -> dict[str, float]:
    x = np.log(np.clip(p, EPS, 1 - EPS) / (1 - np.clip(p, EPS, 1 - EPS)))
    family = sm.families.Binomial()
    kw = {} if w is None else {"freq_weights": w}
    slope = sm.GLM(y, sm.add_constant(x), family=family, **kw).fit()
    intercept = sm.GLM(y, np.ones((len(y), 1)), family=family, offset=x, **kw).fit()
    return {
        "slope": slope.params[1],
        "slope_lower": slope.conf_int()[1][0],
        "slope_upper": slope.conf_int()[1][1],
        "intercept": intercept.params[0],
        "intercept_lower": intercept.conf_int()[0][0],
        "intercept_upper": intercept.conf_int()[0][1],
    }


def frame(seed: int, n: int = 600) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    truth = rng.uniform(0.02, 0.98, n)
    p = 1 / (1 + np.exp(-(0.3 + 1.6 * np.log(truth / (1 - truth)))))  # miscalibrated
    y = rng.uniform(size=n) < truth
    return pl.DataFrame({"g": rng.integers(0, 3, n), "p": p, "y": y, "w": rng.integers(1, 4, n)})


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fit_equals_statsmodels_per_group(seed: int) -> None:
    df = frame(seed)
    got = df.roc.calibration_fit("p", "y", by="g").sort("g")
    for row in got.iter_rows(named=True):
        part = df.filter(pl.col("g") == row["g"])
        want = glm(part["p"].to_numpy(), part["y"].cast(float).to_numpy())
        for key, value in want.items():
            # statsmodels' IRLS takes its standard errors from the weights of its last
            # iteration, one step before the estimate: bounds agree to about 1e-7.
            tolerance = 1e-8 if key in ("slope", "intercept") else 1e-6
            assert row[key] == pytest.approx(value, rel=tolerance), key
        assert row["citl"] == pytest.approx(part["y"].mean() - part["p"].mean(), abs=1e-12)
        assert (row["n_pos"], row["n_neg"]) == (part["y"].sum(), (~part["y"]).sum())


def test_weights_are_frequencies() -> None:
    df = frame(5)
    weighted = df.roc.calibration_fit("p", "y", by="g", weight="w").sort("g")
    repeated = df.select(pl.all().repeat_by("w").explode()).roc.calibration_fit("p", "y", by="g")
    cols = ["slope", "intercept", "slope_upper", "intercept_lower", "citl"]
    assert np.allclose(weighted.select(cols).to_numpy(), repeated.sort("g").select(cols).to_numpy())
    part = df.filter(pl.col("g") == 0)
    want = glm(part["p"].to_numpy(), part["y"].cast(float).to_numpy(), part["w"].to_numpy())
    assert weighted["slope"][0] == pytest.approx(want["slope"], rel=1e-8)


def test_expressions_equal_the_frame_method_in_every_context() -> None:
    df = frame(7)
    table = df.roc.calibration_fit("p", "y", by="g").sort("g")
    agg = df.group_by("g").agg(pr.calibration_slope("p", "y"), pr.calibration_intercept("p", "y"))
    agg = agg.sort("g")
    assert agg["calibration_slope"].to_list() == table["slope"].to_list()
    assert agg["calibration_intercept"].to_list() == table["intercept"].to_list()
    over = df.with_columns(s=pl.col("p").roc.calibration_slope("y").over("g"))
    joined = over.join(table, on="g")
    assert (joined["s"] == joined["slope"]).all()
    lazy = df.lazy().roc.calibration_fit("p", "y", by="g").collect().sort("g")
    assert lazy.equals(table)
    one = df.filter(pl.col("g") == 1).select(pr.calibration_slope("p", "y")).item()
    assert one == table["slope"][1]


def test_in_group_by_dynamic_and_bootstrap() -> None:
    df = frame(8).with_row_index("t").with_columns(pl.col("t").cast(pl.Int64))
    windows = df.group_by_dynamic("t", every="200i").agg(pr.calibration_slope("p", "y"))
    for start, slope in windows.iter_rows():
        part = df.filter((pl.col("t") >= start) & (pl.col("t") < start + 200))
        want = glm(part["p"].to_numpy(), part["y"].cast(float).to_numpy())["slope"]
        assert slope == pytest.approx(want, rel=1e-8)
    boot = df.roc.bootstrap({"slope": pr.calibration_slope("p", "y")}, label="y", n_boot=20, seed=1)
    assert boot["estimate"][0] == pytest.approx(
        glm(df["p"].to_numpy(), df["y"].cast(float).to_numpy())["slope"]
    )
    assert boot["lower"][0] < boot["estimate"][0] < boot["upper"][0]


def test_probabilities_of_zero_and_one_are_clipped_as_log_loss() -> None:
    df = pl.DataFrame({"p": [0.0, 0.2, 0.4, 0.6, 1.0, 0.7, 0.3], "y": [0, 0, 1, 0, 1, 1, 1]})
    got = df.roc.calibration_fit("p", "y").row(0, named=True)
    want = glm(df["p"].to_numpy(), df["y"].cast(float).to_numpy())
    assert got["slope"] == pytest.approx(want["slope"], rel=1e-7)


def test_undefined_fits_are_null_with_counts() -> None:
    df = pl.DataFrame(
        {
            "g": ["sep"] * 4 + ["one"] * 3 + ["nan"] * 3,
            "p": [0.1, 0.2, 0.8, 0.9, 0.2, 0.5, 0.7, 0.2, float("nan"), 0.6],
            "y": [0, 0, 1, 1, 1, 1, 1, 0, 1, 1],
        }
    )
    got = {r["g"]: r for r in df.roc.calibration_fit("p", "y", by="g").iter_rows(named=True)}
    assert got["sep"]["slope"] is None  # perfectly separated: the slope diverges
    assert got["one"]["slope"] is None  # one class
    assert got["one"]["n_neg"] == 0
    assert got["nan"]["slope"] is None
    assert got["nan"]["intercept"] is None


def test_bad_input_names_the_column() -> None:
    df = pl.DataFrame({"risk": [0.2, 1.5, 0.4], "y": [0, 1, 1]})
    with pytest.raises(Exception, match="risk"):
        df.roc.calibration_fit("risk", "y")
    with pytest.raises(Exception, match="risk"):
        df.select(pr.calibration_slope("risk", "y"))
    with pytest.raises(ValueError, match="level"):
        df.roc.calibration_fit("risk", "y", level=2)
    with pytest.raises(ValueError, match="collide"):
        df.with_columns(slope=1).roc.calibration_fit("risk", "y", by="slope")


@pytest.mark.parametrize("method", ["wilson", "clopper_pearson", "agresti_coull"])
def test_calibration_bins_carry_intervals(method: str) -> None:
    df = frame(9)
    got = df.roc.calibration("p", "y", bins=5, ci=method)
    name = {"clopper_pearson": "beta"}.get(method, method)
    for row in got.iter_rows(named=True):
        k = round(row["fraction_positive"] * row["n"])
        want = proportion_confint(k, row["n"], method=name)
        assert (row["fraction_lower"], row["fraction_upper"]) == pytest.approx(want, rel=1e-9)
