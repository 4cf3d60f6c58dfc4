"""Every script in examples/ runs and ends with a chart that validates and renders.

Altair's gallery convention: the script's last statement is the bare expression ``chart``.
"""

from __future__ import annotations

import ast
import json
import runpy
import xml.etree.ElementTree as ET
from pathlib import Path

import altair as alt
import pytest
import vl_convert as vlc

from tests.conftest import ROOT

EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
VL_VERSION = ".".join(alt.SCHEMA_VERSION.lstrip("v").split(".")[:2])


def test_there_are_examples() -> None:
    assert len(EXAMPLES) >= 8


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_ends_with_a_chart_that_renders(path: Path) -> None:
    tree = ast.parse(path.read_text(), filename=str(path))
    assert ast.get_docstring(tree), "an example starts with a docstring saying what it shows"
    last = tree.body[-1]
    assert isinstance(last, ast.Expr)
    assert isinstance(last.value, ast.Name)
    assert last.value.id == "chart", "the script must end with the expression `chart`"

    chart = runpy.run_path(str(path), run_name="__main__")["chart"]
    assert isinstance(chart, alt.TopLevelMixin)
    spec = chart.to_dict()  # validates against the Vega-Lite schema
    text = json.dumps(spec, allow_nan=False)  # no Infinity / NaN in the JSON
    assert "title" not in spec
    svg = ET.fromstring(vlc.vegalite_to_svg(json.loads(text), vl_version=VL_VERSION))
    drawn = [
        item
        for group in svg.iter("{http://www.w3.org/2000/svg}g")
        if "role-mark" in group.get("class", "").split()
        for item in group
    ]
    assert len(drawn) > 0, "the chart draws no marks"
