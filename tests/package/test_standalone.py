"""The repository stands alone: tests, examples and benchmarks read nothing outside it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import DATA, ROOT

SOURCES = sorted(
    path
    for folder in ("tests", "examples", "benchmarks", "polars_roc")
    for path in (ROOT / folder).rglob("*.py")
)

# Built from pieces so that this file does not match itself.
OUTSIDE = re.compile(
    "|".join(
        [
            re.escape(".." + "/shared"),  # the project's reference folder beside the checkout
            re.escape("shared" + "/data"),
            re.escape("/work" + "/"),  # an absolute path on the CI machine
            r"parents\[[2-9]\]",  # climbing above the repository root from tests/x.py
            r"\.parent\.parent\.parent",
        ]
    )
)


def test_there_are_sources_to_check() -> None:
    assert len(SOURCES) > 30


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(ROOT)) for p in SOURCES])
def test_no_file_reaches_outside_the_repository(path: Path) -> None:
    hits = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if OUTSIDE.search(line)
    ]
    assert not hits, "reads outside the repository; put the data in tests/data:\n" + "\n".join(hits)


def test_the_data_folder_is_inside_the_repository_and_documented() -> None:
    assert DATA.resolve().is_relative_to(ROOT)
    readme = (DATA / "README.md").read_text()
    csvs = sorted(DATA.glob("*.csv"))
    assert csvs
    for csv in csvs:
        assert f"`{csv.name}`" in readme, f"tests/data/README.md does not describe {csv.name}"
    # every source named has its licence stated in the same row
    for row in readme.splitlines():
        if row.startswith("| `"):
            assert row.rstrip().endswith("|")
            assert len(row.split("|")) == 7, row  # file, rows, what, source, licence
