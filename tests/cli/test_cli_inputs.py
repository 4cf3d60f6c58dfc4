"""The `polars-roc report` command on unusable input: one clear line, status 2, data intact."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from polars_roc.cli import main

GOOD = "p,y\n0.9,1\n0.8,0\n0.7,1\n0.4,0\n0.3,1\n0.1,0\n"


def report(capsys: pytest.CaptureFixture[str], path: Path | str, out: Path) -> tuple[int, str]:
    argv = ["report", str(path), "--score", "p", "--label", "y", "-q", "--js", "cdn"]
    status = main([*argv, "-o", str(out)])
    captured = capsys.readouterr()
    return status, captured.err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("polars-roc: error: "), err
    assert "Traceback" not in err
    return lines[0]


# ---------------------------------------------------------------- the output is not an input


@pytest.mark.parametrize("spelling", ["same", "relative", "dotted", "symlink"])
def test_output_onto_the_input_file_is_refused(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    spelling: str,
) -> None:
    data = tmp_path / "scores.csv"
    data.write_text(GOOD)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    out = {
        "same": data,
        "relative": Path("scores.csv"),
        "dotted": Path("sub") / ".." / "scores.csv",
        "symlink": tmp_path / "link.csv",
    }[spelling]
    if spelling == "symlink":
        out.symlink_to(data)
    status, err = report(capsys, data, out)
    assert status == 2
    assert "would overwrite the input" in one_line(err)
    assert data.read_text() == GOOD  # the data is untouched


def test_output_inside_an_input_directory_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "parts"
    folder.mkdir()
    pl.read_csv(GOOD.encode()).write_parquet(folder / "0.parquet")
    status, err = report(capsys, folder, folder / "0.parquet")
    assert status == 2
    assert "would overwrite the input" in one_line(err)
    assert pl.read_parquet(folder / "0.parquet").height == 6


def test_output_elsewhere_is_written(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = tmp_path / "scores.csv"
    data.write_text(GOOD)
    status, _ = report(capsys, data, tmp_path / "report.html")
    assert status == 0
    assert (tmp_path / "report.html").read_text().startswith("<!DOCTYPE html>")


# ---------------------------------------------------------------- files without rows


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("header.csv", "p,y\n", "has no rows (only a header: p, y)"),
        ("header-no-newline.csv", "p,y", "has no rows (only a header: p, y)"),
        ("empty.csv", "", "is empty (0 bytes)"),
        ("empty.parquet", "", "is empty (0 bytes)"),
        ("blank.csv", "\n\n", "has no header and no rows"),
    ],
)
def test_files_without_rows(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, content: str, message: str
) -> None:
    path = tmp_path / name
    path.write_text(content)
    status, err = report(capsys, path, tmp_path / "out.html")
    assert status == 2
    line = one_line(err)
    assert message in line
    assert name in line
    assert not (tmp_path / "out.html").exists()


def test_parquet_with_a_schema_and_no_rows(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "none.parquet"
    pl.DataFrame(schema={"p": pl.Float64, "y": pl.Int64}).write_parquet(path)
    status, err = report(capsys, path, tmp_path / "out.html")
    assert status == 2
    assert "has no rows" in one_line(err)


def test_an_empty_directory(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "nothing"
    folder.mkdir()
    status, err = report(capsys, folder, tmp_path / "out.html")
    assert status == 2
    line = one_line(err)
    assert "directory" in line
    assert "holds no data files" in line


# ---------------------------------------------------------------- malformed files


def test_a_ragged_csv_names_the_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "ragged.csv"
    path.write_text("p,y\n0.9,1\n0.8,0\n0.7,1,extra\n0.4,0\n")
    status, err = report(capsys, path, tmp_path / "out.html")
    assert status == 2
    line = one_line(err)
    assert "ragged.csv" in line
    assert "line 4 has 3 fields, the header 2" in line


def test_a_csv_with_text_in_the_score_column_names_the_value(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "text.csv"
    path.write_text("p,y\n0.9,1\n0.8,0\nn/a?,1\n0.4,0\n")
    status, err = report(capsys, path, tmp_path / "out.html")
    assert status == 2
    line = one_line(err)
    assert "score column 'p' has dtype String: line 4 of" in line
    assert "reads 'n/a?', not a number" in line


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('p,y\n0.9,1\n"0.8,0\n0.7,1\n', "malformed CSV"),  # the quote swallows the rest
        ('p,y\n"0.9,1\n0.8,0\n', "no row parses after the header"),  # ... every row
    ],
)
def test_a_csv_with_an_unclosed_quote(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "quote.csv"
    path.write_text(content)
    status, err = report(capsys, path, tmp_path / "out.html")
    assert status == 2
    line = one_line(err)
    assert "quote.csv" in line
    assert message in line
    assert "has no rows" not in line


@pytest.mark.parametrize("name", ["garbage.parquet", "garbage.arrow", "garbage.csv"])
def test_a_binary_or_corrupt_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    path = tmp_path / name
    path.write_bytes(b"\x00\xff\xfe garbage \x89PNG\r\n\x1a\n" * 10)
    status, err = report(capsys, path, tmp_path / "out.html")
    assert status == 2
    line = one_line(err)
    assert f"cannot read {str(path)!r}" in line
