"""The recalibration fit converges wherever the estimate exists (statsmodels' GLM as oracle)."""

from __future__ import annotations

import warnings

import numpy as np
import polars as pl
import pytest
import statsmodels.api as sm
from hypothesis import given, settings
from hypothesis import strategies as st

import polars_roc as pr
from polars_roc.calibration._logistic import _softplus

EPS = float(np.finfo(np.float64).eps)


def glm(p: list[float] | np.ndarray, y: list[int] | np.ndarray) -> dict[str, float]:
    """statsmodels on logit of p clipped to [eps, 1 - eps]: slope fit and offset fit."""
    q = np.clip(np.asarray(p, dtype=float), EPS, 1 - EPS)
    x, outcome = np.log(q / (1 - q)), np.asarray(y, dtype=float)
    family = sm.families.Binomial()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        free = sm.GLM(outcome, sm.add_constant(x), family=family).fit(tol=1e-14, maxiter=200)
        large = sm.GLM(outcome, np.ones((len(x), 1)), family=family, offset=x).fit(tol=1e-14)
    (c_lo, b_lo), (c_hi, b_hi) = free.conf_int().T
    return {
        "slope": free.params[1],
        "slope_lower": b_lo,
        "slope_upper": b_hi,
        "intercept_free": free.params[0],
        "intercept_free_lower": c_lo,
        "intercept_free_upper": c_hi,
        "intercept": large.params[0],
    }


CASES = {
    # slope 0.1071: plain Newton from (0, 1) diverged here
    "flat": (
        [0.02, 0.05, 0.1, 0.2, 0.3, 0.7, 0.8, 0.9, 0.95, 0.98],
        [0, 1, 0, 1, 0, 1, 0, 1, 1, 0],
    ),
    # intercept -3.746 (and a negative slope)
    "high": ([0.9, 0.92, 0.94, 0.95, 0.96, 0.97, 0.98, 0.99], [0, 1, 0, 1, 0, 0, 1, 0]),
    # found by a random search: plain Newton diverged on each (slope null)
    "low": (
        [0.9505, 0.1442, 0.9486, 0.3118, 0.4233, 0.8277, 0.4092, 0.5496, 0.0276],
        [1, 0, 0, 0, 1, 0, 0, 0, 0],
    ),
    "mixed": (
        [0.3633, 0.8684, 0.1426, 0.969, 0.7295, 0.0439, 0.3757, 0.045, 0.5512, 0.1043],
        [0, 0, 1, 1, 1, 1, 0, 0, 1, 0],
    ),
    # probabilities of exactly 0 and 1: statsmodels on the clipped p gives 0.178477
    "edges": ([0.0, 0.2, 0.4, 0.6, 0.8, 1.0, 0.3, 0.7], [0, 0, 1, 0, 1, 1, 1, 0]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_ordinary_data_gets_the_glm_fit(case: str) -> None:
    p, y = CASES[case]
    df = pl.DataFrame({"p": p, "y": y})
    got = df.roc.calibration_fit("p", "y").row(0, named=True)
    want = glm(p, y)
    for key, value in want.items():
        assert got[key] == pytest.approx(value, rel=1e-6, abs=1e-9), key
    assert got["separated"] is False
    assert df.select(pr.calibration_slope("p", "y")).item() == pytest.approx(want["slope"], 1e-6)
    intercept = df.select(pr.calibration_intercept("p", "y")).item()
    assert intercept == pytest.approx(want["intercept"], rel=1e-6)


@settings(max_examples=60, deadline=None)
@given(
    p=st.lists(st.floats(0.0, 1.0), min_size=3, max_size=14),
    flips=st.lists(st.booleans(), min_size=14, max_size=14),
)
def test_null_only_where_the_classes_do_not_overlap(p: list[float], flips: list[bool]) -> None:
    y = [int(f) for f in flips[: len(p)]]
    q = np.clip(np.asarray(p), EPS, 1 - EPS)
    x = np.log(q) - np.log1p(-q)
    pos, neg = x[np.asarray(y) == 1], x[np.asarray(y) == 0]
    got = pl.DataFrame({"p": p, "y": y}).roc.calibration_fit("p", "y").row(0, named=True)
    both = len(pos) > 0 and len(neg) > 0
    assert (got["intercept"] is None) is (not both)
    if both:  # in the large: the root of the score equation, by bisection
        score = lambda a: sum(yi - 1 / (1 + np.exp(-(a + xi))) for xi, yi in zip(x, y, strict=True))  # noqa: E731
        assert score(got["intercept"] - 1e-6) > 0 > score(got["intercept"] + 1e-6)
    overlap = both and pos.min() < neg.max() and neg.min() < pos.max()
    assert (got["slope"] is None) is (not overlap)
    if overlap and min(p) >= 1e-3 and max(p) <= 1 - 1e-3:  # statsmodels' IRLS is sure there
        want = glm(p, y)
        assert got["slope"] == pytest.approx(want["slope"], rel=1e-6, abs=1e-8)
        assert got["intercept"] == pytest.approx(want["intercept"], rel=1e-6, abs=1e-8)


def test_published_values() -> None:
    assert glm(*CASES["flat"])["slope"] == pytest.approx(0.1071, abs=5e-5)
    assert glm(*CASES["high"])["intercept"] == pytest.approx(-3.746, abs=5e-4)
    assert glm(*CASES["edges"])["slope"] == pytest.approx(0.178477, abs=5e-7)


def test_both_intercepts_as_rms_val_prob() -> None:
    # rms val.prob: Intercept 0.360020 (slope-free fit); calibration in the large 0.258116
    p, y = (0.1, 0.3, 0.6, 0.8, 0.2, 0.7, 0.55, 0.35), (0, 1, 0, 1, 0, 1, 1, 0)
    got = pl.DataFrame({"p": p, "y": y}).roc.calibration_fit("p", "y").row(0, named=True)
    assert got["intercept_free"] == pytest.approx(0.360020, abs=5e-7)
    assert got["intercept"] == pytest.approx(0.258116, abs=5e-7)
    assert got["intercept_free_lower"] < got["intercept_free"] < got["intercept_free_upper"]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_overconfident_models_are_fitted(seed: int) -> None:
    # A 3x overconfident model (true slope 0.28 and below): the model calibration must flag.
    rng = np.random.default_rng(seed)
    n = 1000
    truth = rng.uniform(0.05, 0.95, n)
    true_slope = [0.28, 0.15, 0.1, 0.05][seed]
    p = 1 / (1 + np.exp(-np.log(truth / (1 - truth)) / true_slope))
    y = (rng.uniform(size=n) < truth).astype(int)
    got = pl.DataFrame({"p": p, "y": y}).roc.calibration_fit("p", "y").row(0, named=True)
    want = glm(p, y)
    assert got["slope"] == pytest.approx(want["slope"], rel=1e-7)
    assert got["intercept"] == pytest.approx(want["intercept"], rel=1e-7)
    assert got["intercept_free"] == pytest.approx(want["intercept_free"], rel=1e-6, abs=1e-9)


def test_many_groups_at_once_equal_one_at_a_time() -> None:
    rng = np.random.default_rng(11)
    frames = []
    for g in range(40):
        n = int(rng.integers(6, 40))
        truth = rng.uniform(0.02, 0.98, n)
        slope = rng.uniform(0.05, 3)
        p = 1 / (1 + np.exp(-(rng.normal() + np.log(truth / (1 - truth)) / slope)))
        frames.append(pl.DataFrame({"g": g, "p": p, "y": rng.uniform(size=n) < truth}))
    df = pl.concat(frames)
    table = df.roc.calibration_fit("p", "y", by="g").sort("g")
    agg = df.group_by("g").agg(pr.calibration_slope("p", "y"), pr.calibration_intercept("p", "y"))
    agg = agg.sort("g")
    fitted = 0
    for row, slope, intercept in zip(
        table.iter_rows(named=True),
        agg["calibration_slope"],
        agg["calibration_intercept"],
        strict=True,
    ):
        part = df.filter(pl.col("g") == row["g"])
        x, y = part["p"].to_numpy(), part["y"].to_numpy()
        pos, neg = x[y], x[~y]
        exists = len(pos) and len(neg) and pos.min() < neg.max() and neg.min() < pos.max()
        assert row["separated"] is (bool(len(pos) and len(neg)) and not exists)
        assert slope == row["slope"]
        assert intercept == row["intercept"]
        if not exists:
            assert row["slope"] is None
            continue
        fitted += 1
        want = glm(x, y.astype(int))
        assert row["slope"] == pytest.approx(want["slope"], rel=1e-6, abs=1e-9)
        assert row["intercept"] == pytest.approx(want["intercept"], rel=1e-6, abs=1e-9)
    assert fitted > 20


def test_separation_is_the_only_null_with_its_reason() -> None:
    df = pl.DataFrame(
        {
            "g": ["sep"] * 4 + ["tie"] * 4 + ["flat"] * 3 + ["one"] * 2,
            "p": [0.1, 0.2, 0.8, 0.9, 0.1, 0.5, 0.5, 0.9, 0.4, 0.4, 0.4, 0.3, 0.6],
            "y": [0, 0, 1, 1, 0, 0, 1, 1, 0, 1, 1, 1, 1],
        }
    )
    got = {r["g"]: r for r in df.roc.calibration_fit("p", "y", by="g").iter_rows(named=True)}
    assert got["sep"]["separated"]
    assert got["sep"]["slope"] is None
    assert got["sep"]["intercept"] is not None  # in the large: defined with both classes
    assert got["tie"]["separated"]  # quasi-complete
    assert got["tie"]["slope"] is None
    assert not got["flat"]["separated"]
    assert got["flat"]["slope"] is None  # not identified
    # one offset for every row: a = logit(mean y) - logit(0.4), in closed form
    assert got["flat"]["intercept"] == pytest.approx(np.log(2) - np.log(0.4 / 0.6), rel=1e-12)
    assert not got["one"]["separated"]
    assert got["one"]["intercept"] is None
    assert got["one"]["n_neg"] == 0


def test_softplus_is_logaddexp_to_the_last_bits() -> None:
    """The log-likelihood's ``log(1 + exp(eta))`` against numpy's ``logaddexp(0, eta)``."""
    rng = np.random.default_rng(5)
    eta = np.concatenate(
        [
            rng.normal(0, 5, 10_000),
            rng.uniform(-800, 800, 1_000),  # exp(800) overflows: no inf may leak in
            [0.0, -0.0, 36.04, -36.04, 1e-300, -1e-300, 710.0, -745.0, np.inf, -np.inf],
        ]
    )
    with np.errstate(all="ignore"):
        expected = np.logaddexp(0.0, eta)
        got = _softplus(eta)
    np.testing.assert_allclose(got, expected, rtol=4 * EPS, atol=0)
    assert np.isnan(_softplus(np.array([np.nan]))).all()


def test_no_numpy_warning_when_no_group_has_rows_to_fit() -> None:
    """A group whose scores are all null leaves nothing to fit: a null, not a RuntimeWarning."""
    df = pl.DataFrame(
        {"g": ["a"] * 4, "p": pl.Series([None] * 4, dtype=pl.Float64), "y": [0, 1, 0, 1]}
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        out = df.roc.calibration_fit("p", "y", by="g")
    assert out["slope"].to_list() == [None]
