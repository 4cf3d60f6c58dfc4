"""The report's tables print labels, not raw column names; p-values below 0.001 say so."""

from __future__ import annotations

import re

import pytest

import polars_roc as pr


@pytest.fixture(scope="module")
def page() -> str:
    lf = pr.datasets.simulate(800, seed=1).lazy()
    return pr.report.to_html(lf, by="model", segment="segment", case="case", ci=None, js="cdn")


@pytest.mark.parametrize("key", ["rollup-table", "disparity-table", "comparison-table"])
def test_segment_and_comparison_tables_are_labelled(page: str, key: str) -> None:
    head = re.search(rf'<table id="{key}"><thead><tr>(.*?)</tr>', page)
    assert head, f"no {key}"
    headers = re.findall(r"<th>(.*?)</th>", head.group(1))
    raw = [h for h in headers if "_" in h]
    assert not raw, f"{key} prints raw column names {raw}"


def test_tiny_p_values_print_as_below_0001(page: str) -> None:
    table = re.search(r'<table id="comparison-table">(.*?)</table>', page, re.S)
    assert table
    # logit against baseline on 800 cases: p far below 0.001, never printed as 0.000
    assert "&lt;0.001" in table.group(1)
    assert ">0.000<" not in table.group(1)
