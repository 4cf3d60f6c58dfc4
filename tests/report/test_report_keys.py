"""
Group keys print as the data holds them in every table; every table header is a label; with
two segments the roll-up and the disparity table count their one comparison once.
"""

from __future__ import annotations

import re

import numpy as np
import polars as pl
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

import polars_roc as pr
from tests.report.test_report import delong_interval, tables

#: Raw column names that must never head a table.
RAW = ("reference_value", "reference_estimate", "p_adjusted", "q_p_value", "i2", "window_start")


@pytest.fixture(scope="module")
def rows() -> pl.DataFrame:
    frame = pr.datasets.simulate(1500, seed=9)
    return frame.with_columns(
        site=(pl.col("case") % 3 + 40).cast(pl.Float64),  # float keys 40.0, 41.0, 42.0
        year=pl.col("case") % 2 + 2023,  # integer keys 2023, 2024
        sex=pl.when(pl.col("case") % 2 == 0).then(pl.lit("F")).otherwise(pl.lit("M")),
        days=(pl.col("case") * 37 % 400 + 1),
        churned=pl.col("label"),
        t=pl.col("case") % 6,
    )


def headers(page: str) -> list[str]:
    return re.findall(r"<th>(.*?)</th>", page)


def test_keys_print_as_the_data_holds_them(rows: pl.DataFrame) -> None:
    page = pr.report.to_html(
        rows.filter(pl.col("model") == "gbm"), by=["site", "year"], segment="sex",
        time_to_event="days", event="churned", horizons=[100, 200], js="cdn", gain_tp=5.0,
    )  # fmt: skip
    found = tables(page)
    assert [r["site"] for r in found["auc-table"]] == ["40.0"] * 2 + ["41.0"] * 2 + ["42.0"] * 2
    assert [r["year"] for r in found["auc-table"]] == ["2023", "2024"] * 3
    for key in ("pauc-table", "cutpoint-table", "rollup-table", "disparity-table",
                "survival-table", "survival-mean-table", "value-best"):  # fmt: skip
        assert {r["site"] for r in found[key]} == {"40.0", "41.0", "42.0"}, key
        assert {r["year"] for r in found[key]} == {"2023", "2024"}, key
    assert "40.000" not in page
    assert "2,023" not in page
    assert "40.0 · 2023: within-segment AUC" in page  # the roll-up in words
    gains = re.search(r'<table class="gains" id="gains-table-0">.*?</table>', page, re.S)
    assert gains is not None
    assert "<td>40.0</td>" in gains.group(0)


def test_models_compared_print_as_keys(rows: pl.DataFrame) -> None:
    numbered = rows.with_columns(pl.col("model").replace_strict(
        {"baseline": 1.0, "logit": 2.0, "gbm": 3.0}, return_dtype=pl.Float64))  # fmt: skip
    page = pr.report.to_html(numbered, by="model", ci=None, js="cdn")
    compared = tables(page)["comparison-table"]
    assert {r["model A"] for r in compared} | {r["model B"] for r in compared} == {
        "1.0", "2.0", "3.0"
    }  # fmt: skip


def test_every_table_header_is_a_label(rows: pl.DataFrame) -> None:
    lf = rows.lazy()
    data = pr.report.compute(
        lf, by="model", segment="sex", slices=["segment"], case="case",
        time_to_event="days", event="churned", horizons=[100, 200], gain_tp=5.0,
        decision_curve=True,
    )  # fmt: skip
    over_time = pr.report.compute_over_time(
        lf, "score", "label", time="t", every="1i", reference=(0, 2), by=["model"], min_count=0
    )
    page = pr.report.render(data, js="cdn", over_time=over_time)
    shown = headers(page)
    assert len(shown) > 60
    for head in shown:
        assert "_" not in head, head
        assert head not in RAW, head
    assert "Detectable AUC: the smallest AUC that a group with these positives" in page


def test_two_segments_hold_one_comparison(rows: pl.DataFrame) -> None:
    data = pr.report.compute(rows.lazy(), by="model", segment="sex", ci=None)
    rollup, gaps = data.segments.rollup, data.segments.disparity
    for model in ("baseline", "gbm", "logit"):
        part = rows.filter(pl.col("model") == model)
        f, m = (part.filter(pl.col("sex") == s) for s in ("F", "M"))
        auc_f, se_f, *_ = delong_interval(f["label"].to_numpy(), f["score"].to_numpy())
        auc_m, se_m, *_ = delong_interval(m["label"].to_numpy(), m["score"].to_numpy())
        z = (auc_f - auc_m) / np.hypot(se_f, se_m)
        # F against M, the one comparison: pROC's unpaired test (Welch-type t) ...
        var_f, var_m = se_f**2, se_m**2
        df = (var_f + var_m) ** 2 / (var_f**2 / (f.height - 1) + var_m**2 / (m.height - 1))
        p = 2 * stats.t.sf(abs(z), df)
        tested = gaps.filter(pl.col("model") == model)
        assert tested["p_value"].to_list() == pytest.approx([p, p], rel=1e-9)
        assert tested["p_adjusted"].to_list() == tested["p_value"].to_list()  # not doubled
        # ... and the roll-up's Cochran Q on one degree of freedom, the same question
        cochran = rollup.filter(pl.col("model") == model)["q_p_value"].item()
        assert cochran == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-9)
    page = pr.report.render(data, js="cdn")
    assert "A group of two segments holds one comparison" in page
    assert "the question of the disparity table&#x27;s one test" in page
    assert "Holm-adjusted over the segments of each group" not in page


def test_three_or_more_segments_keep_holm(rows: pl.DataFrame) -> None:
    data = pr.report.compute(rows.lazy(), by="model", segment="segment", ci=None)
    gaps = data.segments.disparity
    for model in ("baseline", "gbm", "logit"):
        tested = gaps.filter(pl.col("model") == model)
        want = multipletests(tested["p_value"].to_numpy(), method="holm")[1]
        np.testing.assert_allclose(tested["p_adjusted"].to_numpy(), want, rtol=1e-12)
    page = pr.report.render(data, js="cdn")
    assert "Holm-adjusted over the segments of each group (4 tests)" in page
    assert "two segments holds one comparison" not in page
