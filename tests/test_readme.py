"""The README's Python examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_blocks_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.DOTALL)
    assert len(blocks) >= 2
    namespace: dict[str, object] = {}
    for block in blocks:  # later blocks use names defined by earlier ones
        exec(compile(block, str(README), "exec"), namespace)
    assert type(namespace["chart"]).__module__.startswith("altair")
