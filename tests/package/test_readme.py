"""The README's and the task pages' Python examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import ROOT

README = ROOT / "README.md"


def _blocks(path: Path) -> list[str]:
    """The ```python blocks of a page (```py blocks are illustrations, not run)."""
    return re.findall(r"```python\n(.*?)```", path.read_text(), flags=re.DOTALL)


def _task_pages() -> list[Path]:
    """The documentation site's task pages, in the order of its navigation."""
    nav = (ROOT / "mkdocs.yml").read_text()
    return [ROOT / "docs" / page for page in re.findall(r"(tasks/\w+\.md)", nav)]


def test_readme_python_blocks_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # examples that write files write them here
    blocks = _blocks(README)
    assert len(blocks) >= 2
    namespace: dict[str, object] = {}
    for block in blocks:  # later blocks use names defined by earlier ones
        exec(compile(block, str(README), "exec"), namespace)
    assert type(namespace["chart"]).__module__.startswith("altair")
    # The task pages continue the README's session: their examples use its frames.
    pages = _task_pages()
    assert len(pages) >= 10
    ran = 0
    for page in pages:
        for block in _blocks(page):
            exec(compile(block, str(page), "exec"), namespace)
            ran += 1
    assert ran >= 10
