"""The `polars-roc` command: demo and report on CSV and Parquet, and its one-line errors."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from sklearn.metrics import roc_auc_score

import polars_roc as pr
from polars_roc.cli import main
from tests.conftest import DATA
from tests.report.test_report import tables

ASAH = DATA / "aSAH.csv"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def one_line_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("polars-roc: error: ")
    assert "Traceback" not in err
    return lines[0]


# ---------------------------------------------------------------------------------------------
# demo


def test_demo_writes_the_report_and_prints_the_auc_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "demo.html"
    status, stdout, stderr = run(capsys, "demo", "--rows", "400", "--js", "cdn", "-o", str(out))
    assert status == 0
    # stdout: the AUC table of 3 models x 4 segments with intervals, and the curve sizes
    assert "AUC by group" in stdout
    assert "auc_lower" in stdout
    assert "ROC curve sizes" in stdout
    for model in ("logit", "gbm", "baseline"):
        assert len(re.findall(rf"│ {model}\s+┆ (north|south|east|west)\s+┆", stdout)) == 8
    # stderr: numbered progress steps and the file written
    assert "[1/8]" in stderr  # 7 steps + the model comparison
    assert "[8/8]" in stderr
    assert f"wrote {out}" in stderr
    frame = pr.datasets.simulate(400, seed=0)
    rows = tables(out.read_text())["auc-table"]
    assert len(rows) == 12
    for row in rows:
        part = frame.filter(pl.col("model") == row["model"], pl.col("segment") == row["segment"])
        assert float(row["AUC"]) == pytest.approx(
            roc_auc_score(part["label"], part["score"]), abs=5e-4
        )


def test_python_dash_m_runs_the_command(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "polars_roc",
            "demo",
            "--rows",
            "200",
            "--ci",
            "none",
            "--js",
            "cdn",
            "--quiet",
            "-o",
            str(out),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # --quiet
    assert "AUC by group" in done.stdout
    assert out.read_text().startswith("<!DOCTYPE html>")


# ---------------------------------------------------------------------------------------------
# report


def test_report_on_csv_matches_the_published_asah_auc(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "asah.html"
    status, stdout, _ = run(
        capsys,
        "report",
        str(ASAH),
        "--score",
        "s100b",
        "--label",
        "outcome",
        "--pos-label",
        "Poor",
        "--js",
        "cdn",
        "-o",
        str(out),
    )
    assert status == 0
    (row,) = tables(out.read_text())["auc-table"]
    assert float(row["AUC"]) == pytest.approx(0.7314, abs=5e-4)  # pROC: auc(aSAH$outcome, s100b)
    assert (row["positives"], row["negatives"]) == ("41", "72")
    assert "AUC by group" in stdout


def test_report_on_csv_by_group(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "asah.html"
    argv = ["report", str(ASAH), "--score", "ndka", "--label", "outcome", "--pos-label", "Poor"]
    status, _, _ = run(
        capsys, *argv, "--by", "gender", "--tpr", "0.8,1", "--js", "cdn", "-o", str(out)
    )
    assert status == 0
    frame = pl.read_csv(ASAH)
    rows = tables(out.read_text())["auc-table"]
    assert [row["gender"] for row in rows] == ["Female", "Male"]
    for row in rows:
        part = frame.filter(pl.col("gender") == row["gender"])
        expected = roc_auc_score(part["outcome"] == "Poor", part["ndka"])
        assert float(row["AUC"]) == pytest.approx(expected, abs=5e-4)
    assert "TPR 0.8 to 1" in out.read_text()


def test_report_on_weighted_parquet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    frame = pr.datasets.simulate(300, seed=9).rename({"score": "p", "label": "y"})
    path = tmp_path / "scores.parquet"
    frame.write_parquet(path)
    out = tmp_path / "weighted.html"
    status, _, _ = run(
        capsys,
        *["report", str(path), "--score", "p", "--label", "y", "--by", "model,segment"],
        *["--weight", "weight", "--ci", "none", "--js", "cdn", "-o", str(out)],
    )
    assert status == 0
    for row in tables(out.read_text())["auc-table"]:
        part = frame.filter(pl.col("model") == row["model"], pl.col("segment") == row["segment"])
        expected = roc_auc_score(part["y"], part["p"], sample_weight=part["weight"])
        assert float(row["AUC"]) == pytest.approx(expected, abs=5e-4)
        assert float(row["positives"].replace(",", "")) == pytest.approx(
            part.filter(pl.col("y"))["weight"].sum(), abs=0.006
        )


def test_integer_pos_label_is_parsed_from_the_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = np.random.default_rng(0)
    frame = pl.DataFrame({"grade": rng.integers(1, 4, 200), "p": rng.random(200)})
    path = tmp_path / "grades.csv"
    frame.write_csv(path)
    out = tmp_path / "grades.html"
    argv = ["report", str(path), "--score", "p", "--label", "grade", "--pos-label", "3"]
    status, _, _ = run(capsys, *argv, "--ci", "none", "--js", "cdn", "-o", str(out))
    assert status == 0
    (row,) = tables(out.read_text())["auc-table"]
    expected = roc_auc_score(frame["grade"] == 3, frame["p"])
    assert float(row["AUC"]) == pytest.approx(expected, abs=5e-4)


# ---------------------------------------------------------------------------------------------
# errors: exit status 2 and one line on stderr, no traceback


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["report", "no/such/scores.csv", "--score", "p", "--label", "y"], "file not found"),
        (["report", str(ASAH), "--score", "s100", "--label", "outcome"], "'s100' not found"),
        (["report", str(ASAH), "--score", "s100b", "--label", "outcom"], "'outcom' not found"),
        (
            ["report", str(ASAH), "--score", "s100b", "--label", "wfns"],
            "more than two values (1, 2, 3, 4, 5): name the positive class with --pos-label",
        ),
        (
            ["report", str(ASAH), "--score", "s100b", "--label", "outcome"],
            "holds 'Good', 'Poor', not Boolean or 0/1: name the positive class with --pos-label",
        ),
        (
            ["report", str(ASAH), "--score", "s100b", "--label", "wfns", "--pos-label", "x"],
            "--pos-label 'x' is not a value of label column 'wfns'",
        ),
        (
            ["report", str(ASAH), "--score", "s100b", "--label", "outcome", "--by", "sex"],
            "by column 'sex' not found",
        ),
        (
            ["report", str(ASAH), "--score", "gender", "--label", "outcome"],
            "score column 'gender' has dtype String",
        ),
        (
            [
                "report",
                str(ASAH),
                "--score",
                "s100b",
                "--label",
                "outcome",
                "--pos-label",
                "Poor",
                "--fpr",
                "0.5,0.2",
            ],
            "fpr=(0.5, 0.2) must satisfy 0 <= lo < hi <= 1",
        ),
        (["report", str(DATA / "README.md"), "--score", "p", "--label", "y"], "unknown file type"),
        (["demo", "--rows", "3"], "--rows must be at least 10"),
    ],
)
def test_errors_are_one_line_with_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str, tmp_path: Path
) -> None:
    status, stdout, stderr = run(capsys, *argv, "-o", str(tmp_path / "x.html"))
    assert status == 2
    assert message in one_line_error(stderr)
    assert stdout == ""
    assert not (tmp_path / "x.html").exists()


def test_error_in_a_subprocess_has_no_traceback(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "polars_roc",
            "report",
            str(tmp_path / "missing.parquet"),
            "--score",
            "p",
            "--label",
            "y",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 2
    assert "file not found" in one_line_error(done.stderr)


def test_usage_errors_exit_2_via_argparse(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["report", str(ASAH), "--label", "outcome"])  # no --score
    assert exit_.value.code == 2
    assert "--score" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["report", str(ASAH), "--score", "s", "--label", "y", "--fpr", "0.1"])
    assert "expected LO,HI" in capsys.readouterr().err
