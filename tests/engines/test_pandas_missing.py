"""pandas' missing marker (NaN) is a null on every route: tally, auc_table, pl.from_pandas."""

from __future__ import annotations

import polars as pl
import pytest

import polars_roc as pr


def test_tally_of_pandas_equals_df_roc_of_from_pandas() -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"score": [0.1, 0.2, float("nan"), 0.9, 0.05], "label": [0, 1, 1, 0, 0]})
    direct = pl.from_pandas(frame).roc.auc()  # Polars reads pandas' NaN as null
    want = direct.row(0, named=True)
    got = pr.tally(frame).roc.auc(weight="weight").collect().row(0, named=True)
    assert got["auc"] == pytest.approx(want["auc"], abs=1e-15)
    assert (got["n_pos"], got["n_neg"]) == (want["n_pos"], want["n_neg"]) == (1, 3)
    # brute force over the pairs of the rows kept: positive 0.2 above negatives 0.1, 0.05
    assert want["auc"] == pytest.approx(2 / 3)
    assert pr.auc_table(frame)["auc"].item() == pytest.approx(2 / 3)
    assert pr.tally(frame, nan_policy="raise").collect().height == 4  # no NaN left to refuse
