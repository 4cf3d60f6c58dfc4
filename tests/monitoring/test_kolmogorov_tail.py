"""scipy's asymptotic two-sample KS branch: ``kstwo.sf(d, round(m n / (m + n)))``, ported."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy import stats

from polars_roc.monitoring._kolmogorov import kolmogorov_sf, ks_2samp_p_value

SIZES = st.one_of(
    st.integers(1, 150),  # Durbin / Pomeranz / Smirnov region of scipy's small n
    st.integers(141, 5_000),
    st.integers(5_000, 120_000),  # past 100,000: Pelz-Good
)


@settings(max_examples=300, deadline=None)
@given(n=SIZES, u=st.floats(0.0, 1.0), scale=st.sampled_from([None, 0.3, 1.0, 2.0, 5.0]))
@example(n=1, u=0.5, scale=None)
@example(n=140, u=0.0, scale=2.0 / 140**0.5)  # d near 0 (u=0: exactly 0)
@example(n=100_001, u=1.0, scale=None)  # d = 1
def test_kolmogorov_tail_is_scipys_kstwo(n: int, u: float, scale: float | None) -> None:
    # d spread over [0, 1], or over the central scale 1/√n where the branches meet
    d = u if scale is None else min(1.0, u * scale / n**0.5)
    want = stats.kstwo.sf(d, n)
    got = kolmogorov_sf(n, d)[0]
    assert got == pytest.approx(want, abs=1e-12, rel=1e-8)


@pytest.mark.parametrize("n", [1, 2, 7, 140, 141, 10_000, 100_000, 100_001, 400_000])
def test_kolmogorov_tail_at_the_edges(n: int) -> None:
    d = np.array([0.0, 1e-12, 0.5 / n, 0.5 / n + 1e-9, 1 / n, 1.5 / n, 0.5, 1 - 1 / n, 1.0])
    d = np.clip(d, 0, 1)
    np.testing.assert_allclose(kolmogorov_sf(n, d), stats.kstwo.sf(d, n), rtol=1e-9, atol=1e-14)


@pytest.mark.parametrize(
    ("m", "n"), [(10_001, 1), (10_001, 3), (12_000, 40), (10_001, 10_001), (30_000, 20_000)]
)
def test_two_samples_past_ten_thousand_rows_match_scipy_auto(m: int, n: int) -> None:
    rng = np.random.default_rng(m + n)
    for shift in (0.0, 0.02, 0.05, 0.2, 3.0):
        a, b = rng.normal(size=m), rng.normal(shift, size=n)
        want = stats.ks_2samp(a, b)  # method="auto": asymptotic, one sample past 10,000
        got = ks_2samp_p_value(want.statistic, m, n)[0]
        assert got == pytest.approx(want.pvalue, abs=1e-6)
        assert got == pytest.approx(want.pvalue, rel=1e-6, abs=1e-12)


def test_score_stability_past_ten_thousand_rows_is_scipys() -> None:
    # 2,000 reference rows, a window of 12,000: Stephens' form gave 0.0011543, scipy 0.0011678
    rng = np.random.default_rng(7)
    ref, late = rng.normal(size=2_000), rng.normal(0.02, size=12_000)
    df = pl.DataFrame({"t": [0] * ref.size + [1] * late.size, "score": [*ref, *late]})
    out = df.roc.score_stability(time="t", every="1i", reference=(0, 0))
    row = out.filter(pl.col("window_start") == 1).row(0, named=True)
    want = stats.ks_2samp(late, ref)
    assert row["ks"] == pytest.approx(want.statistic, abs=1e-15)
    assert row["ks_p_value"] == pytest.approx(want.pvalue, abs=1e-6)
    assert 1e-3 < want.pvalue < 0.999  # a p-value with digits to lose
