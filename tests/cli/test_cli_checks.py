"""
The CLI's checks of its arguments against the data (issue 28 items 13, 15, 17).

Each is refused before any report is written: status 2, one line naming the problem (the
class names that match no label value, the column given in two roles, the nested `--by`
column, the `--rows` that cannot fit in memory). And a UInt64 score of 0 under
``--direction lower`` is the threshold 0, never -0.0.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import polars_roc as pr
from polars_roc.cli import command as cli
from polars_roc.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main([*argv, "-q", "--js", "cdn"])
    out, err = capsys.readouterr()
    return status, out, err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("polars-roc: error: "), err
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture
def wide(tmp_path: Path) -> Path:
    path = tmp_path / "wide.parquet"
    pl.DataFrame(
        {"a": [0.9, 0.2, 0.1, 0.3], "b": [0.1, 0.8, 0.9, 0.7], "y": [0, 1, 1, 0]}
    ).write_parquet(path)
    return path


# ----------------------------------------------------------- 13: classes matching no label


def test_class_scores_matching_no_label_value_are_refused(
    capsys: pytest.CaptureFixture[str], wide: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.html"
    status, _, err = run(capsys, "report", str(wide), "--class-scores", "a,b", "--label", "y",
                         "-o", str(out))  # fmt: skip
    assert status == 2
    line = one_line(err)
    assert "'a', 'b'" in line
    assert "'0', '1'" in line
    assert "label column 'y'" in line
    assert "CLASS=COLUMN" in line
    assert not out.exists()


def test_class_scores_named_for_the_label_values_are_read(
    capsys: pytest.CaptureFixture[str], wide: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.html"
    status, _, err = run(capsys, "report", str(wide), "--class-scores", "0=a,1=b", "--label", "y",
                         "-o", str(out))  # fmt: skip
    assert status == 0, err
    assert out.exists()


def test_class_scores_with_some_classes_absent_warn(
    capsys: pytest.CaptureFixture[str], wide: Path, tmp_path: Path
) -> None:
    status, _, err = run(capsys, "report", str(wide), "--class-scores", "0=a,7=b", "--label", "y",
                         "-o", str(tmp_path / "out.html"))  # fmt: skip
    assert status == 0
    assert "warning: class '7' of --class-scores is not a value of label column 'y'" in err


# ----------------------------------------------------------- 15: a column in two roles


@pytest.fixture
def scored(tmp_path: Path) -> Path:
    path = tmp_path / "scores.csv"
    pl.DataFrame(
        {
            "p": [0.9, 0.8, 0.7, 0.4, 0.3, 0.1],
            "y": [1, 1, 0, 1, 0, 0],
            "g": ["a", "b"] * 3,
            "w": [1, 2, 1, 2, 1, 2],
            "c": [1, 0, 1, 0, 1, 0],
        }
    ).write_csv(path)
    return path


TWICE = [
    (["--score", "p", "--label", "p"], "'p'", "--score and --label"),
    (["--score", "c", "--label", "c"], "'c'", "--score and --label"),
    (["--score", "p", "--label", "y", "--weight", "p"], "'p'", "--score and --weight"),
    (["--score", "p", "--label", "y", "--weight", "y"], "'y'", "--label and --weight"),
    (["--score", "p", "--label", "y", "--by", "p"], "'p'", "--score and --by"),
    (["--score", "p", "--label", "y", "--by", "g,g"], "'g'", "--by twice"),
    (["--score", "p", "--label", "y", "--by", "w", "--weight", "w"], "'w'", "--weight and --by"),
    (["--class-scores", "0=p,1=p", "--label", "y"], "'p'", "--class-scores twice"),
    (["--class-scores", "0=p,1=y", "--label", "y"], "'y'", "--class-scores and --label"),
    (["--class-scores", "0=p,1=c", "--label", "y", "--by", "c"], "'c'", "--class-scores and --by"),
]


@pytest.mark.parametrize(("flags", "column", "roles"), TWICE)
def test_a_column_given_in_two_roles_is_named(
    capsys: pytest.CaptureFixture[str],
    scored: Path,
    tmp_path: Path,
    flags: list[str],
    column: str,
    roles: str,
) -> None:
    out = tmp_path / "out.html"
    status, _, err = run(capsys, "report", str(scored), *flags, "-o", str(out))
    assert status == 2
    line = one_line(err)
    assert f"column {column} is given twice ({roles})" in line
    assert not out.exists()


# ----------------------------------------------------------- 17: nested --by, --rows, -0.0


@pytest.mark.parametrize("dtype", ["struct", "list", "array"])
def test_a_nested_by_column_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, dtype: str
) -> None:
    values = {
        "struct": pl.Series("nest", [{"a": 1}, {"a": 2}] * 3),
        "list": pl.Series("nest", [[1], [2]] * 3),
        "array": pl.Series("nest", [[1], [2]] * 3, dtype=pl.Array(pl.Int64, 1)),
    }[dtype]
    path = tmp_path / "nested.parquet"
    frame = pl.DataFrame({"p": [0.9, 0.8, 0.7, 0.4, 0.3, 0.1], "y": [1, 1, 0, 1, 0, 0]})
    frame.with_columns(values).write_parquet(path)
    out = tmp_path / "out.html"
    status, _, err = run(capsys, "report", str(path), "--score", "p", "--label", "y", "--by",
                         "nest", "-o", str(out))  # fmt: skip
    assert status == 2
    line = one_line(err)
    assert "--by column 'nest'" in line
    assert dtype in line.lower()
    assert not out.exists()


def test_demo_rows_beyond_memory_is_refused_before_allocating(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "demo.html"
    status, _, err = run(capsys, "demo", "--rows", str(10**15), "-o", str(out))
    assert status == 2
    line = one_line(err)
    assert "--rows 1,000,000,000,000,000" in line
    assert "memory" in line
    assert not out.exists()


def test_demo_memory_error_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should the estimate fall short, running out of memory is still one line, status 2."""

    def exhausted(*args: object, **kwargs: object) -> pl.DataFrame:
        raise MemoryError

    monkeypatch.setattr(cli, "simulate", exhausted)
    status, _, err = run(capsys, "demo", "--rows", "1000", "-o", str(tmp_path / "d.html"))
    assert status == 2
    assert "out of memory" in one_line(err)


def test_uint64_score_zero_under_lower_is_zero_not_negative_zero(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    scores = pl.Series("p", [0, 1, 2, 3, 4, 5], dtype=pl.UInt64)
    frame = pl.DataFrame({"p": scores, "y": [1, 1, 1, 0, 0, 0]})
    table = frame.roc.thresholds("p", "y", direction="lower")
    zero = table.filter(pl.col("threshold") == 0)["threshold"]
    assert zero.len() == 1
    assert not np.signbit(zero.item())
    curve = frame.roc.curve("p", "y", direction="lower")
    assert not any(math.copysign(1, t) < 0 and t == 0 for t in curve["threshold"].to_list())
    path = tmp_path / "u.parquet"
    frame.write_parquet(path)
    out = tmp_path / "u.html"
    status, _, err = run(capsys, "report", str(path), "--score", "p", "--label", "y",
                         "--direction", "lower", "-o", str(out))  # fmt: skip
    assert status == 0, err
    assert "-0.0" not in out.read_text()


@pytest.mark.parametrize("dtype", [pl.Float64, pl.Int64, pl.UInt8, pl.UInt64])
def test_lower_direction_thresholds_keep_their_sign(dtype: pl.DataType) -> None:
    """Every threshold is the score itself: 0 is 0, the others unchanged, whatever the type."""
    frame = pl.DataFrame({"p": pl.Series([0, 1, 2, 3], dtype=dtype), "y": [1, 1, 0, 0]})
    table = frame.roc.thresholds("p", "y", direction="lower")
    values = [t for t in table["threshold"].to_list() if math.isfinite(t)]
    assert sorted(values) == [0.0, 1.0, 2.0, 3.0]
    assert not any(np.signbit(values))
    assert pr.auc  # the package imported (namespace registered)
