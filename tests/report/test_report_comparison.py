"""The report's "Model comparison" section: DeLong tests per segment, Holm across them."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

import polars_roc as pr
from polars_roc.cli import main


def placements(labels: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """DeLong's structural components by brute force over every positive-negative pair."""
    pos, neg = scores[labels], scores[~labels]
    wins = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    return wins.mean(axis=1), wins.mean(axis=0)  # V10 per positive, V01 per negative


def oracle(frame: pl.DataFrame, *, paired: bool) -> pl.DataFrame:
    """Every pair of models per segment: pROC's paired DeLong z or unpaired Welch t."""
    rows = []
    for (segment,), part in frame.sort("case").group_by(["segment"], maintain_order=True):
        models = sorted(part["model"].unique())
        for a, b in itertools.combinations(models, 2):
            one = part.filter(pl.col("model") == a)
            two = part.filter(pl.col("model") == b)
            labels = one["label"].to_numpy()
            v10a, v01a = placements(labels, one["score"].to_numpy())
            v10b, v01b = placements(two["label"].to_numpy(), two["score"].to_numpy())
            m, n = len(v10a), len(v01a)
            var_a = np.var(v10a, ddof=1) / m + np.var(v01a, ddof=1) / n
            var_b = np.var(v10b, ddof=1) / m + np.var(v01b, ddof=1) / n
            diff = v10a.mean() - v10b.mean()
            if paired:
                cov = np.cov(v10a, v10b)[0, 1] / m + np.cov(v01a, v01b)[0, 1] / n
                p = 2 * stats.norm.sf(abs(diff) / np.sqrt(var_a + var_b - 2 * cov))
            else:
                df = (var_a + var_b) ** 2 / (var_a**2 / (m + n - 1) + var_b**2 / (m + n - 1))
                p = 2 * stats.t.sf(abs(diff) / np.sqrt(var_a + var_b), df)
            rows.append({"segment": segment, "model_a": a, "model_b": b, "diff": diff, "p": p})
    out = pl.DataFrame(rows)
    holm = multipletests(out["p"].to_numpy(), method="holm")[1]
    return out.with_columns(holm=pl.Series(holm)).sort("segment", "model_a", "model_b")


@pytest.fixture(scope="module")
def scores() -> pl.DataFrame:
    return pr.datasets.simulate(400, seed=3)


@pytest.mark.parametrize("case", ["case", None], ids=["paired", "unpaired"])
def test_the_tests_match_delong_and_holm(scores: pl.DataFrame, case: str | None) -> None:
    data = pr.report.compute(scores.lazy(), by=["model", "segment"], ci=None, case=case)
    got = data.comparison.table.sort("segment", "model_a", "model_b")
    want = oracle(scores, paired=case is not None)
    assert got.height == want.height == 12  # 3 pairs of models x 4 segments
    assert got["model_a"].to_list() == want["model_a"].to_list()
    assert got["diff"].to_numpy() == pytest.approx(want["diff"].to_numpy(), abs=1e-12)
    assert got["p_value"].to_numpy() == pytest.approx(want["p"].to_numpy(), rel=1e-9)
    assert got["p_adjusted"].to_numpy() == pytest.approx(want["holm"].to_numpy(), rel=1e-9)
    assert got["paired"].to_list() == [case is not None] * 12


def section(page: str) -> str:
    found = re.search(r'<section id="comparison">(.*?)</section>', page, flags=re.DOTALL)
    assert found, "no Model comparison section"
    return found.group(1)


def test_to_html_says_which_test_ran(scores: pl.DataFrame) -> None:
    lf = scores.lazy()
    paired = section(pr.report.to_html(lf, by=["model", "segment"], case="case", js="cdn"))
    unpaired = section(pr.report.to_html(lf, by=["model", "segment"], js="cdn"))
    assert "<h2>Model comparison</h2>" in paired
    assert "Paired DeLong test of each pair of models within each segment" in paired
    assert "matched by column case" in paired
    assert "Unpaired DeLong test" in unpaired
    assert "--case" in unpaired
    for body in (paired, unpaired):
        assert "adjusted over the 12 tests" in body
        assert "<th>p (Holm)</th>" in body
        assert "<th>AUC A − AUC B 95% CI</th>" in body
        assert body.count("<tr>") == 13  # the header row and 12 tests
        model_b_then_aucs = (
            r'<td>[a-z]+</td><td class="num">([\d.]+)</td><td class="num">([\d.]+)</td>'
        )
        rows = re.findall(model_b_then_aucs, body)
        assert len(rows) == 12
        assert all(float(a) >= float(b) for a, b in rows)  # model A has the higher AUC
    assert "<th>paired</th>" not in paired + unpaired  # the header says which test ran


def test_a_pair_without_all_its_cases_is_said_to_be_unpaired(scores: pl.DataFrame) -> None:
    gappy = scores.filter(~((pl.col("model") == "gbm") & (pl.col("case") == 0)))
    data = pr.report.compute(gappy.lazy(), by="model", ci=None, case="case")
    table = data.comparison.table.sort("model_a", "model_b")
    # baseline-gbm and gbm-logit miss case 0 under gbm: unpaired; baseline-logit is paired
    assert table["paired"].to_list() == [False, True, False]
    body = section(pr.report.render(data, js="cdn"))
    assert "2 of the 3 pairs do not hold the same cases" in body
    assert "<th>paired</th>" in body


def test_no_section_for_one_model_or_a_weighted_report(scores: pl.DataFrame) -> None:
    one = scores.filter(pl.col("model") == "gbm").lazy()
    assert pr.report.compute(one, by=["model", "segment"], ci=None).comparison is None
    weighted = pr.report.compute(scores.lazy(), by="model", weight="weight", ci=None)
    assert weighted.comparison is None
    assert any(
        note.startswith("No model comparison: the report is weighted") for note in weighted.notes
    )
    assert pr.report.compute(scores.lazy(), ci=None).comparison is None  # no by: no models


def test_a_missing_case_column_is_refused_before_reading(scores: pl.DataFrame) -> None:
    with pytest.raises(pl.exceptions.ColumnNotFoundError, match="patient"):
        pr.report.compute(scores.lazy(), by="model", case="patient")


def test_cli_case_flag(tmp_path: Path, scores: pl.DataFrame) -> None:
    path = tmp_path / "scores.parquet"
    scores.write_parquet(path)
    out = tmp_path / "report.html"
    argv = ["report", str(path), "--score", "score", "--label", "label", "--by", "model"]
    assert main([*argv, "--case", "case", "--js", "cdn", "--quiet", "-o", str(out)]) == 0
    assert "Paired DeLong test of each pair of models (rows" in section(out.read_text())
