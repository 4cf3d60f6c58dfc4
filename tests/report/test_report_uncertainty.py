"""The report's closed-form uncertainty: Wilson intervals of the cutpoints, the detectable AUC
of each group (greyed when too small), the calibration panel's bin intervals and fit."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from statsmodels.stats.proportion import proportion_confint

import polars_roc as pr
from polars_roc import report
from polars_roc.cli import main
from tests.report.test_report import specs, tables

BOUNDS = re.compile(r"^(\d\.\d{3})–(\d\.\d{3})$")


def scored(seed: int = 0, n: int = 900) -> pl.DataFrame:
    """Two segments: 'big' with many positives, 'tiny' with 2 (too few to detect much)."""
    rng = np.random.default_rng(seed)
    big = rng.random(n) < 0.3
    tiny = np.zeros(60, bool)
    tiny[:2] = True
    label = np.concatenate([big, tiny])
    segment = ["big"] * n + ["tiny"] * 60
    score = np.clip(0.25 + 0.3 * label + rng.normal(0, 0.2, label.size), 0.0, 1.0)
    return pl.DataFrame({"segment": segment, "score": np.round(score, 3), "label": label})


@pytest.fixture(scope="module")
def page() -> str:
    return report.to_html(scored().lazy(), by="segment", ci=None, js="cdn")


def split(text: str) -> tuple[float, float]:
    match = BOUNDS.match(text)
    assert match, text
    lower, upper = (float(g) for g in match.groups())
    return lower, upper


def test_cutpoint_rows_carry_wilson_intervals_as_statsmodels(page: str) -> None:
    rows = tables(page)["cutpoint-table"]
    assert [row["segment"] for row in rows] == ["big", "tiny"]
    for row in rows:
        tp, fp, tn, fn = (int(row[c].replace(",", "")) for c in ("tp", "fp", "tn", "fn"))
        for column, (k, n) in {
            "TPR": (tp, tp + fn),
            "FPR": (fp, fp + tn),
            "PPV": (tp, tp + fp),
            "NPV": (tn, tn + fn),
        }.items():
            value = float(row[column])
            lower, upper = split(row[f"{column} 95% CI"])
            lo, hi = proportion_confint(k, n, alpha=0.05, method="wilson")
            assert value == pytest.approx(k / n, abs=5e-4)
            assert (lower, upper) == pytest.approx((lo, hi), abs=5e-4), column
    assert "Wilson interval" in page


def test_engine_tally_gives_the_same_intervals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], page: str
) -> None:
    pytest.importorskip("duckdb")
    path = tmp_path / "s.parquet"
    scored().with_columns(pl.col("label").cast(pl.Int8)).write_parquet(path)
    out = tmp_path / "r.html"
    argv = [
        "report",
        str(path),
        "--score",
        "score",
        "--label",
        "label",
        "--by",
        "segment",
        "--ci",
        "none",
        "--engine",
        "duckdb",
    ]
    assert main([*argv, "--js", "cdn", "-q", "-o", str(out)]) == 0, capsys.readouterr().err
    tallied = tables(out.read_text())["cutpoint-table"]
    rows = tables(page)["cutpoint-table"]
    for a, b in zip(rows, tallied, strict=True):
        for column in ("TPR", "FPR", "PPV", "NPV"):
            assert a[f"{column} 95% CI"] == b[f"{column} 95% CI"]


def test_detectable_auc_column_and_greyed_small_segments(page: str) -> None:
    data = report.compute(scored().lazy(), by="segment", ci=None)
    auc = data.auc
    expected = [pr.detectable_auc(p, n, power=0.8) for p, n in auc.select("n_pos", "n_neg").rows()]
    assert auc["detectable_auc"].to_list() == pytest.approx(expected, rel=1e-12)
    big, tiny = expected
    assert big < 0.9 < tiny  # the data are built so
    rows = tables(page)["auc-table"]
    shown = [float(row["detectable AUC (80% power)"]) for row in rows]
    assert shown == pytest.approx(expected, abs=5e-4)
    table = page[page.index('id="auc-table"') :]
    table = table[: table.index("</table>")]
    body = re.findall(r"<tr><td( class=\"dim\")?>(\w+)</td>", table)
    assert body == [("", "big"), (' class="dim"', "tiny")]
    assert 'class="explain">Greyed: 1 group(s) too small' in page


def test_nothing_greyed_without_small_groups() -> None:
    frame = scored().filter(pl.col("segment") == "big")
    page = report.to_html(frame.lazy(), by="segment", ci=None, js="cdn")
    assert 'class="dim"' not in page
    assert 'class="explain"' not in page


def test_calibration_bins_carry_wilson_intervals_and_error_bars(page: str) -> None:
    frame = scored()
    data = report.compute(frame.lazy(), by="segment", ci=None, calibration_bins=5)
    bins = data.calibration
    assert bins is not None
    assert {"fraction_lower", "fraction_upper"} <= set(bins.columns)
    for row in bins.iter_rows(named=True):
        k = round(row["fraction_positive"] * row["n"])
        lo, hi = proportion_confint(k, row["n"], alpha=0.05, method="wilson")
        assert (row["fraction_lower"], row["fraction_upper"]) == pytest.approx((lo, hi), abs=1e-9)
    spec = specs(page)["calibration"]
    text = json.dumps(spec)
    assert '"rule"' in text
    assert '"y2": {"field": "fraction_upper"}' in text
    assert "each bin's 95% Wilson interval" in page.replace("&#x27;", "'")


def test_calibration_fit_table_as_statsmodels_glm(page: str) -> None:
    sm = pytest.importorskip("statsmodels.api")
    frame = scored()
    rows = {row["segment"]: row for row in tables(page)["calibration-fit"]}
    assert sorted(rows) == ["big", "tiny"]
    for segment, row in rows.items():
        part = frame.filter(pl.col("segment") == segment)
        p = np.clip(part["score"].to_numpy(), 2.2e-16, 1 - 2.2e-16)
        y = part["label"].to_numpy().astype(float)
        logit = np.log(p / (1 - p))
        slope = sm.GLM(y, sm.add_constant(logit), family=sm.families.Binomial()).fit()
        large = sm.GLM(y, np.ones_like(y), family=sm.families.Binomial(), offset=logit).fit()
        for column, fit, i in (("slope (ideal 1)", slope, 1), ("intercept (ideal 0)", large, 0)):
            match = re.match(r"^(\S+) \((\S+) to (\S+)\)$", row[column].replace("−", "-"))
            assert match, row[column]
            value, lower, upper = (float(g) for g in match.groups())
            lo, hi = fit.conf_int(alpha=0.05)[i]
            assert (value, lower, upper) == pytest.approx((fit.params[i], lo, hi), abs=5e-4)


def test_auc_chart_ignores_the_detectable_column(page: str) -> None:
    text = json.dumps(specs(page)["auc"])
    assert "detectable" not in text
    assert "fpr_lower" not in json.dumps(specs(page)["roc"])
