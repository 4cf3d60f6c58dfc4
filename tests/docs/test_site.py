"""The documentation site builds strictly, names every public name, and renders its markup."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import polars_roc as pr
from polars_roc import namespace
from tests.conftest import ROOT

#: Building the site runs every example (about a minute): with the slow checks.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("mkdocs", reason="the docs extra is not installed")
    pytest.importorskip("mkdocstrings", reason="the docs extra is not installed")
    out = tmp_path_factory.mktemp("site")
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"NO_MKDOCS_2_WARNING": "1", **os.environ},
        check=False,
    )
    assert run.returncode == 0, run.stderr[-4000:]
    return out


def api_text(site: Path) -> str:
    return "\n".join(p.read_text() for p in (site / "api").rglob("*.html"))


def test_site_builds_strictly_with_a_gallery(site: Path) -> None:
    assert (site / "index.html").exists()
    examples = sorted((ROOT / "examples").glob("*.py"))
    gallery = site / "gallery"
    assert {p.stem for p in examples} <= {p.stem for p in gallery.glob("*.svg")}


def test_every_public_name_is_in_the_api_reference(site: Path) -> None:
    text = api_text(site)
    anchors = set(re.findall(r'id="(polars_roc\.[\w.]+)"', text))
    short = {a.rsplit(".", 1)[-1] for a in anchors}
    names = set(pr.__all__) | set(pr.charts.__all__)
    names |= {f.__name__ for f in namespace.FRAME_METHODS.values()}
    names |= {f.__name__ for f in namespace.EXPR_METHODS.values()}
    modules = {n for n in pr.__all__ if type(getattr(pr, n)).__name__ == "module"}
    missing = sorted(n for n in names - modules if n not in short)
    assert not missing, f"public names missing from docs/api: {missing}"


#: a Sphinx role printed as text (docs/sphinx_roles.py turns them into links)
RAW_ROLE = re.compile(r":(?:py:)?(?:func|meth|class|mod|data|attr|obj|exc|const):")


def test_no_raw_sphinx_role_on_any_page(site: Path) -> None:
    left = {
        str(page.relative_to(site)): len(RAW_ROLE.findall(page.read_text()))
        for page in site.rglob("*.html")
        if RAW_ROLE.search(page.read_text())
    }
    assert not left, f"raw Sphinx roles left (page: count): {left}"


def test_docstring_roles_became_links(site: Path) -> None:
    curves = (site / "api" / "curves" / "index.html").read_text()
    # curves.curve's docstring names :func:`polars_roc.areas.auc`, documented on the same page
    assert re.search(r'<a class="autorefs[^"]*"[^>]*href="#polars_roc\.areas\.auc"', curves)


def test_semantics_page_has_headings_and_code_powers(site: Path) -> None:
    page = (site / "semantics" / "index.html").read_text()
    assert len(re.findall(r"<h2 id=", page)) >= 10
    assert "<code>2**53</code>" in page
    assert "<strong>53" not in page  # 2**53 read as bold markup


def test_combined_parameter_entries_keep_each_names_type_and_default() -> None:
    """``score, label, by`` documents three parameters, each with its own default."""
    griffe = pytest.importorskip("griffe", reason="the docs extra is not installed")
    spec = importlib.util.spec_from_file_location("sphinx_roles", ROOT / "docs" / "sphinx_roles.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    extensions = griffe.load_extensions(module.SphinxRoles())
    package = griffe.load("polars_roc", docstring_parser="numpy", extensions=extensions)
    function = package["areas"].members["partial_auc"]
    sections = function.docstring.parse("numpy")
    (parameters,) = [s.value for s in sections if s.kind.value == "parameters"]
    defaults = {p.name: p.default for p in parameters}
    assert defaults["score"] == "'score'"
    assert defaults["label"] == "'label'"
    assert defaults["by"] == "None"
    assert defaults["n_boot"] == "2000"
    assert [p.name for p in parameters].count("label") == 1
