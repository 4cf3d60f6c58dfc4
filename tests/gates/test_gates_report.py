"""The report's "Release gates" section: first on the page, from render() and `report --checks`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import polars as pl

import polars_roc as pr
from tests.gates.test_checks import champion_challenger

# The tree whose polars_roc the tests import, for the subprocess to import the same.
ROOT = Path(pr.__file__).resolve().parents[1]


def test_render_puts_the_checks_first() -> None:
    sim = champion_challenger(n=4000)
    table = pr.checks(
        sim, champion="champion", challenger="challenger", case="case", by="segment",
        margin=0.02,
    )  # fmt: skip
    data = pr.report.compute(sim.lazy(), by="model", ci=None)
    page = pr.report.render(data, js="cdn", checks=table)
    gates = page.index('<section id="release-gates">')
    assert gates < page.index("<section", page.index("</section>", gates))  # the first one
    assert page.index("<section") == gates
    failed = table.filter(~pl.col("passed"))["segment"].to_list()
    assert f"{len(failed)} of {table.height} checks failed" in page
    assert page.count("<strong>FAIL</strong>") == len(failed)
    plain = pr.report.render(data, js="cdn")
    assert "release-gates" not in plain


def test_report_command_with_checks(tmp_path: Path) -> None:
    scores = tmp_path / "scores.parquet"
    champion_challenger(n=4000).write_parquet(scores)
    out = tmp_path / "report.html"
    args = [
        "report", str(scores), "--score", "score", "--label", "label", "--by", "model",
        "--ci", "none", "--js", "cdn", "-q", "--checks", "--model", "model", "--champion",
        "champion", "--challenger", "challenger", "--case", "case", "--margin", "0.10",
        "-o", str(out),
    ]  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "polars_roc", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    page = out.read_text()
    assert page.index("<section") == page.index('<section id="release-gates">')
    assert "Release gates: pass, all 1 checks passed." in page
