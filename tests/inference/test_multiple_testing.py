"""The p-value adjustment as one Polars query over families: equal to statsmodels'
``multipletests`` within every family, to the numpy twin bit for bit, ties and nulls kept."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from statsmodels.stats.multitest import multipletests

from polars_roc.inference.multiple_testing import adjusted, with_adjusted

STATSMODELS = {"holm": "holm", "bonferroni": "bonferroni", "bh": "fdr_bh"}

p_values = st.one_of(
    st.none(), st.sampled_from([0.0, 0.001, 0.01, 0.03, 0.5, 1.0]), st.floats(0, 1)
)


@pytest.mark.parametrize("method", list(STATSMODELS))
@given(rows=st.lists(st.tuples(st.integers(0, 3), p_values), min_size=1, max_size=40))
@example(rows=[(0, 0.01), (0, 0.01), (0, 0.04), (1, None), (1, 0.2)])  # ties, a null
def test_with_adjusted_equals_statsmodels_per_family(method: str, rows) -> None:
    frame = pl.DataFrame(rows, schema={"family": pl.Int64, "p": pl.Float64}, orient="row")
    lf = frame.lazy().rename({"p": "p_value"})
    got = with_adjusted(lf, method, by=["family"]).collect()  # type: ignore[arg-type]
    got = got.rename({"p_value": "p", "p_adjusted": "q"})
    assert got.select("family", "p").equals(frame)  # the rows keep their order
    for _, part in got.group_by("family"):
        p = part["p"].to_numpy()
        defined = ~np.isnan(p)
        q = part["q"].to_numpy()
        assert np.isnan(q[~defined]).all()
        if defined.any():
            want = multipletests(p[defined], method=STATSMODELS[method])[1]
            assert q[defined] == pytest.approx(want, rel=1e-12, abs=1e-15)
            # the numpy twin gives the same floats
            assert np.array_equal(adjusted(p, method), q, equal_nan=True)  # type: ignore[arg-type]


def test_with_adjusted_over_all_rows_and_nan_as_missing() -> None:
    frame = pl.DataFrame({"p": [0.01, float("nan"), 0.04, None, 0.03]})
    lf = frame.lazy().rename({"p": "p_value"})
    got = with_adjusted(lf, "holm").collect()["p_adjusted"].to_list()
    assert got == pytest.approx([0.03, None, 0.06, None, 0.06])  # m = 3 defined tests
    bh = with_adjusted(lf, "bh").collect()["p_adjusted"].to_list()
    assert bh == pytest.approx([0.03, None, 0.04, None, 0.04])
