"""score_stability's KS against scipy's ks_2samp (its own method choice), null group keys."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats

from polars_roc.monitoring._kolmogorov import ks_2samp_p_value


def test_a_null_group_key_is_a_group() -> None:
    # scipy: KS 0.0, p 1.0 (the window equals its reference); the as-of join missed null keys
    df = pl.DataFrame(
        {"t": [0, 0, 0, 1, 1, 1], "g": [None] * 6, "score": [0.1, 0.2, 0.3, 0.1, 0.2, 0.3]},
        schema_overrides={"g": pl.String},
    )
    out = df.roc.score_stability(time="t", every="1i", reference=(0, 0), by="g", bins=2)
    want = stats.ks_2samp([0.1, 0.2, 0.3], [0.1, 0.2, 0.3])
    assert out["ks"].to_list() == [want.statistic] * 2 == [0.0, 0.0]
    assert out["ks_p_value"].to_list() == [want.pvalue] * 2 == [1.0, 1.0]
    # a null key beside other keys: each group against its own reference
    two = pl.concat([df, df.with_columns(g=pl.lit("x"), score=pl.col("score") * (1 + pl.col("t")))])
    out = two.roc.score_stability(time="t", every="1i", reference=(0, 0), by="g", bins=2)
    got = {(r["g"], r["window_start"]): r["ks"] for r in out.iter_rows(named=True)}
    x = stats.ks_2samp([0.2, 0.4, 0.6], [0.1, 0.2, 0.3]).statistic
    assert got == pytest.approx({(None, 0): 0.0, (None, 1): 0.0, ("x", 0): 0.0, ("x", 1): x})


def test_one_row_against_a_thousand_matches_scipy() -> None:
    # scipy (exact: both samples at most 10,000 rows) 0.5035; the asymptotic form gave 0.3645
    reference = np.arange(1000, dtype=float)
    df = pl.DataFrame(
        {"t": [0] * 1000 + [1], "score": [*reference, 250.5]},
    )
    out = df.roc.score_stability(time="t", every="1i", reference=(0, 0))
    want = stats.ks_2samp([250.5], reference)
    row = out.filter(pl.col("window_start") == 1).row(0, named=True)
    assert row["ks"] == pytest.approx(want.statistic, abs=1e-15)
    assert row["ks_p_value"] == pytest.approx(want.pvalue, abs=1e-6)
    assert row["ks_p_value"] == pytest.approx(0.5035, abs=5e-5)


@pytest.mark.parametrize(
    ("m", "n"),
    [(1, 1000), (3, 4), (10, 10), (50, 80), (300, 700), (2000, 3000), (500, 9000), (7, 10000)],
)
def test_p_value_as_scipy_auto(m: int, n: int) -> None:
    rng = np.random.default_rng(m + n)
    for shift in (0.0, 0.1, 0.3, 1.0):
        a, b = rng.normal(size=m), rng.normal(shift, size=n)
        want = stats.ks_2samp(a, b)  # method="auto": exact while both samples <= 10,000
        got = ks_2samp_p_value(want.statistic, m, n)[0]
        assert got == pytest.approx(want.pvalue, abs=1e-6)
        assert got == pytest.approx(want.pvalue, rel=1e-6, abs=1e-12)


def test_many_windows_at_once_equal_one_at_a_time() -> None:
    rng = np.random.default_rng(3)
    sizes = rng.integers(1, 60, size=(200, 2))
    d = rng.uniform(0, 1, 200)
    together = ks_2samp_p_value(d, sizes[:, 0], sizes[:, 1])
    alone = [ks_2samp_p_value(v, a, b)[0] for v, (a, b) in zip(d, sizes, strict=True)]
    assert together.tolist() == alone
