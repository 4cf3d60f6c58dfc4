"""What a stakeholder reads at a glance: the multiclass header, tie-swallowed gains
bins, four significant digits in the tables, the bootstrap seed, colours with one meaning.

Oracles: the input frames' own sizes and column names, a brute-force count of the bins a
tied block of scores covers, and a re-run with the printed seed.
"""

from __future__ import annotations

import math
import re

import numpy as np
import polars as pl

import polars_roc as pr
from polars_roc import report
from tests.report.test_report import specs, tables
from tests.report.test_report_panels import softmax_scores


def header(page: str) -> dict[str, str]:
    meta = re.search(r'<div class="meta">(.*?)</div>', page, re.S)
    assert meta
    return dict(re.findall(r"<span><b>(.*?)</b> (.*?)</span>", meta.group(1)))


def test_multiclass_header_counts_cases_and_names_the_score_columns() -> None:
    frame = softmax_scores(300, seed=2)
    scores = {"0": "p0", "1": "p1", "2": "p2"}
    rows, roles = report.one_vs_rest(frame.lazy(), scores, "y")
    page = report.to_html(rows, **roles, ci=None, js="cdn")
    facts = header(page)
    assert facts["cases"].startswith(f"{frame.height:,} ")  # not 3 x 300 stacked rows
    assert "rows" not in facts
    assert facts["label"].startswith("y ")
    assert facts["scores"] == "0: p0, 1: p1, 2: p2"
    assert "score score" not in page
    # The classes take their own palette, never the models'.
    palette = set(pr.charts.style.PALETTE)
    for key, spec in specs(page).items():
        text = str(spec)
        for colour in palette:
            assert colour not in text, (key, colour)


def test_a_gains_bin_swallowed_by_ties_says_so() -> None:
    rng = np.random.default_rng(1)
    n = 400
    score = rng.random(n)
    score[:100] = 1.0  # the top quarter tied: bins 1 and 2 lie inside the block
    label = rng.random(n) < score * 0.6
    frame = pl.DataFrame({"score": score, "label": label})
    # Brute force: a row's bin is ceil(10 * c / n), c = rows scoring at or above it.
    at_or_above = (score[None, :] >= score[:, None]).sum(axis=1)
    bins = sorted({math.ceil(10 * c / n) for c in at_or_above})
    empty = sorted(set(range(1, bins[0])))
    assert empty == [1, 2]
    page = report.to_html(frame.lazy(), ci=None, js="cdn")
    (first, *_) = tables(page)["gains-table"]
    assert first["bin"] == f"{bins[0]} (with 1–2: tied scores)"
    assert "tied scores that reaches past one or more bins" in page
    # The gain chart's tooltip names the swallowed bins too.
    (rows,) = specs(page)["gains"]["datasets"].values()
    named = [row["_bin"] for row in rows if row.get("_mark") == "model" and row.get("_bin")]
    assert named[0] == f"{bins[0]} (with 1–2: tied scores)"
    assert named[1:] == [str(b) for b in bins[1:]]
    untied = pl.DataFrame({"score": rng.random(n), "label": label})
    assert "tied scores" not in report.to_html(untied.lazy(), ci=None, js="cdn")


def test_thresholds_in_the_tables_print_four_significant_digits() -> None:
    rng = np.random.default_rng(4)
    n = 500
    label = rng.random(n) < 0.4
    latent = rng.normal(size=n) * 12 + 20 * label - 30
    frame = pl.DataFrame({"score": 1 / (1 + np.exp(-latent)), "label": label})
    assert frame["score"].min() < 1e-20  # type: ignore[operator]
    page = report.to_html(frame.lazy(), ci=None, js="cdn")
    found = tables(page)
    cells = [row["threshold"] for row in found["cutpoint-table"]]
    cells += [row["lowest score"] for row in found["gains-table"]]
    for text in cells:
        value = float(text)
        if abs(value) < 1e-3 and value != 0:
            mantissa, exponent = f"{value:.3e}".split("e")
            assert text == f"{mantissa}e{int(exponent)}", text
        else:
            assert len(text.replace(".", "").replace("-", "").lstrip("0")) == 4, text
    assert re.search(r"0\.0000\d", page.split("<footer>")[0].split("<main>")[1]) is None


def test_the_report_prints_the_seed_it_drew() -> None:
    lf = pr.datasets.simulate(300, seed=5).lazy()
    data = report.compute(lf, by="model", ci="bootstrap", n_boot=30, seed=None)
    seed = data.roles["seed"]
    assert isinstance(seed, int)
    page = report.render(data, js="cdn")
    assert f"seed {seed})" in header(page)["intervals"]
    again = report.compute(lf, by="model", ci="bootstrap", n_boot=30, seed=seed)
    assert again.auc.equals(data.auc)  # the printed seed reproduces the intervals
