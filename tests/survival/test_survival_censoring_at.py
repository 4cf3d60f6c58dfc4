"""censoring_at="before": cases weighted by G(T-) (riskRegression's), against the definition."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import polars_roc  # noqa: F401  (registers the .roc namespaces)
from tests.survival.conftest import censored, integer_times, weighted_brute_force

HORIZONS = [2.0, 4.0, 6.0]


@settings(max_examples=30)
@given(seed=st.integers(0, 10_000), n=st.integers(4, 30))
def test_before_equals_the_weighted_definition_with_g_before(seed: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    df = censored(seed, n=n, ties=True).with_columns(w=pl.Series(rng.uniform(0.1, 3.0, n)))
    horizons = sorted({float(v) for v in df["t"].head(3)})
    kwargs = {"time": "t", "event": "e", "horizons": horizons, "censoring_at": "before"}
    got = df.roc.time_auc("s", weight="w", **kwargs)
    curve = df.roc.time_curve("s", weight="w", **kwargs)
    for horizon, auc in zip(got["horizon"], got["auc"], strict=True):
        want = weighted_brute_force(df, horizon, before=True)
        assert (auc is None) == (want is None)
        if want is not None:
            assert auc == pytest.approx(want, rel=1e-12)
            part = curve.filter(pl.col("horizon") == horizon)
            fpr, tpr = part["fpr"].to_numpy(), part["tpr"].to_numpy()
            area = float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))
            assert area == pytest.approx(want, rel=1e-12)


def test_the_two_rules_differ_only_at_tied_censorings() -> None:
    df = integer_times(150, 13)
    kwargs = {"time": "t", "event": "e", "horizons": HORIZONS}
    at, before = (df.roc.time_auc("s", censoring_at=c, **kwargs) for c in ("time", "before"))
    assert (at["auc"] - before["auc"]).abs().max() > 1e-6  # integer times: they differ
    continuous = censored(3, n=200)  # no censoring shares a case's time: the same numbers
    kwargs["horizons"] = [0.3, 0.8]
    same = [continuous.roc.time_auc("s", censoring_at=c, **kwargs) for c in ("time", "before")]
    assert same[0]["auc"].to_list() == same[1]["auc"].to_list()
    assert at.drop("auc", "mean_auc").equals(before.drop("auc", "mean_auc"))  # the same cases
    with pytest.raises(ValueError, match="censoring_at must be one of 'time', 'before'"):
        df.roc.time_auc("s", censoring_at="after", **kwargs)
    with pytest.raises(ValueError, match="censoring_at must be one of"):
        df.roc.time_curve("s", censoring_at="T-", **kwargs)
