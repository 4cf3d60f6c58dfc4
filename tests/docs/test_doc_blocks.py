"""Every ```python block of every docs page runs, each page alone from a fresh namespace.

A reader pastes a page's blocks in order into a fresh interpreter; so does this test. A
```text block right after a python block is that block's printed output, and must be what
the block prints today. Regenerate the outputs after changing a page with
``python -m tests.docs.test_doc_blocks --write`` (from the repository root).

A block fenced ```python spark needs PySpark and Java: it must run on its own (its own
imports) and runs with the Spark tests, or is skipped with that reason.
"""

from __future__ import annotations

import contextlib
import io
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import ROOT

DOCS = ROOT / "docs"
#: generated from examples/ at build time (the examples run in tests/package/test_examples.py)
GENERATED = {DOCS / "gallery.md"}
FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
#: the words a python fence may carry after its language, each with what it needs
TAGS = {"spark": "needs PySpark and a Java runtime"}


@dataclass(frozen=True)
class Block:
    """One fenced python block, its tags, and the printed output the page shows after it."""

    page: Path
    line: int
    tags: tuple[str, ...]
    code: str
    output: str | None  # the ```text block right after it, if any
    output_span: tuple[int, int] | None  # where that text block's body sits in the page


def blocks(page: Path) -> list[Block]:
    """The page's python blocks in order (```python or ```py fences at column 0)."""
    text = page.read_text()
    fences = list(FENCE.finditer(text))
    found = []
    for i, fence in enumerate(fences):
        info = fence.group(1).split()
        if not info or info[0] not in {"python", "py"}:
            continue
        output = span = None
        after = fences[i + 1] if i + 1 < len(fences) else None
        if (
            after
            and after.group(1).strip() == "text"
            and not text[fence.end() : after.start()].strip()
        ):
            output, span = after.group(2), after.span(2)
        tags = tuple(word for word in info[1:] if "=" not in word)
        found.append(
            Block(page, text.count("\n", 0, fence.start()) + 1, tags, fence.group(2), output, span)
        )
    return found


def pages() -> list[Path]:
    """Every page of the site's sources, the home page included."""
    return sorted(p for p in DOCS.rglob("*.md") if p not in GENERATED)


def run(block: Block, namespace: dict[str, object]) -> str:
    """Execute one block in `namespace`; what it printed."""
    out = io.StringIO()
    code = compile(block.code, f"{block.page.relative_to(ROOT)}:{block.line}", "exec")
    with contextlib.redirect_stdout(out):
        exec(code, namespace)  # the docs' own code, as a reader runs it
    return out.getvalue()


def check_output(block: Block, printed: str) -> None:
    where = f"{block.page.relative_to(ROOT)}:{block.line}"
    if block.output is None:
        assert not printed, f"{where} prints, but no ```text block after it shows the output"
        return
    assert printed.rstrip() == block.output.rstrip(), (
        f"{where}: the ```text block after it is not what it prints today "
        "(python -m tests.docs.test_doc_blocks --write)"
    )


def page_id(page: Path) -> str:
    return str(page.relative_to(DOCS))


@pytest.mark.parametrize("page", pages(), ids=page_id)
def test_page_blocks_run_alone(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a block may write a file (the report)
    unknown = {tag for block in blocks(page) for tag in block.tags} - set(TAGS)
    assert not unknown, f"{page_id(page)}: unknown fence tags {sorted(unknown)}; known: {TAGS}"
    namespace: dict[str, object] = {"__name__": "__main__"}
    for block in blocks(page):
        if not block.tags:
            check_output(block, run(block, namespace))


SPARK = [b for page in pages() for b in blocks(page) if "spark" in b.tags]


@pytest.mark.spark
@pytest.mark.parametrize("block", SPARK, ids=lambda b: f"{page_id(b.page)}:{b.line}")
def test_spark_blocks_run_alone(
    block: Block, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    pytest.importorskip("pyspark", reason=f"{page_id(block.page)}:{block.line} {TAGS['spark']}")
    if shutil.which("java") is None:
        pytest.skip(f"{page_id(block.page)}:{block.line} {TAGS['spark']}")
    check_output(block, run(block, {"__name__": "__main__"}))


def test_the_pages_have_python_blocks() -> None:
    """The parser finds the blocks (a pattern that found none would pass every page)."""
    assert len([b for page in pages() for b in blocks(page)]) >= 20
    assert any(b.output for page in pages() for b in blocks(page))


def write_outputs(page: Path) -> None:
    """Rewrite each ```text block after a python block with what the block prints now."""
    import os
    import tempfile

    os.chdir(tempfile.mkdtemp())
    namespace: dict[str, object] = {"__name__": "__main__"}
    text = page.read_text()
    edits = []
    for block in blocks(page):
        if block.tags and block.output_span is None:
            continue  # a tagged block runs alone; without an output there is nothing to write
        printed = run(block, {"__name__": "__main__"} if block.tags else namespace)
        if block.output_span is not None:
            edits.append((block.output_span, printed.rstrip() + "\n"))
    for (start, end), new in reversed(edits):
        text = text[:start] + new + text[end:]
    page.write_text(text)


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.docs.test_doc_blocks --write")
    for path in pages():
        write_outputs(path)
