"""MkDocs hook: render every script in examples/ into the gallery before the build.

Each example ends with the expression ``chart`` (the Altair gallery convention); the hook runs
it, saves the chart as SVG beside the gallery page and writes the page, so the gallery always
shows what the examples draw today.
"""

from __future__ import annotations

import ast
import contextlib
import io
import runpy
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def _title(path: Path) -> tuple[str, str]:
    doc = ast.get_docstring(ast.parse(path.read_text())) or path.stem
    lines = [line for line in doc.splitlines() if line.strip() and not set(line) <= {"-"}]
    return lines[0], " ".join(lines[1:])


def on_pre_build(config: Any) -> None:
    """Run each example, save its chart under docs/gallery/, write docs/gallery.md."""
    import vl_convert as vlc

    out = DOCS / "gallery"
    out.mkdir(exist_ok=True)
    sections = [
        "# Gallery",
        "",
        "Every chart below is drawn by a script in `examples/` when the site is built.",
        "",
    ]
    for path in sorted((ROOT / "examples").glob("*.py")):
        with contextlib.redirect_stdout(io.StringIO()):  # examples print their tables
            chart = runpy.run_path(str(path), run_name="__main__")["chart"]
        svg = vlc.vegalite_to_svg(chart.to_dict())
        (out / f"{path.stem}.svg").write_text(svg)
        title, text = _title(path)
        sections += [
            f"## {title}",
            "",
            text,
            "",
            f"![{title}](gallery/{path.stem}.svg)",
            "",
            f"Source: `examples/{path.name}`",
            "",
            "```python",
            path.read_text().split('"""', 2)[-1].strip(),
            "```",
            "",
        ]
    (DOCS / "gallery.md").write_text("\n".join(sections))
