"""The README's Python examples run as written (the docs pages: tests/docs/test_doc_blocks.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import ROOT

README = ROOT / "README.md"


def _blocks(path: Path) -> list[str]:
    """The ```python blocks of a page (```py blocks are illustrations, not run)."""
    return re.findall(r"```python\n(.*?)```", path.read_text(), flags=re.DOTALL)


def test_readme_python_blocks_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # examples that write files write them here
    blocks = _blocks(README)
    assert len(blocks) >= 2
    namespace: dict[str, object] = {}
    for block in blocks:  # later blocks use names defined by earlier ones
        exec(compile(block, str(README), "exec"), namespace)
    assert type(namespace["chart"]).__module__.startswith("altair")
