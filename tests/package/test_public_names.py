"""Say what is public: every public module lists its public names in a sorted `__all__`.

Sorted as ruff's RUF022 sorts (constants, classes, then functions; each alphabetically).

A module is public when no part of its dotted path starts with ``_`` (package
``__init__``\\ s included). Read with `ast` (nothing imported), each public module must
declare ``__all__``; every name it defines at top level (function, class, assignment) is
either in ``__all__`` or starts with ``_``; every name in ``__all__`` is defined or imported
there; a package ``__init__`` lists every name it imports from the package. Helpers of a
package live in its private modules (``report/_page.py``), importable only from inside it.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import polars_roc as pr
from tests.conftest import ROOT

PACKAGE = ROOT / "polars_roc"

#: Public modules allowed to hold no `__all__`: they define no name.
NO_NAMES = {"polars_roc.__main__"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts).removesuffix(".__init__")


def _is_public(module: str) -> bool:
    return not any(part.startswith("_") for part in module.split(".")[1:])


PUBLIC = {
    _module_name(p): p
    for p in sorted(PACKAGE.rglob("*.py"))
    if _is_public(_module_name(p)) and _module_name(p) not in NO_NAMES
}


def _targets(node: ast.expr) -> list[str]:
    return [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]


def _top_level(body: list[ast.stmt]) -> tuple[set[str], set[str], set[str]]:
    """(defined names, names imported from polars_roc, other imported names) of a body."""
    defined: set[str] = set()
    ours: set[str] = set()
    imported: set[str] = set()
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            defined.add(node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                defined.update(_targets(target))
        elif isinstance(node, ast.AnnAssign | ast.AugAssign | ast.For):
            defined.update(_targets(node.target))
        elif isinstance(node, ast.Import):
            imported.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            names = {a.asname or a.name for a in node.names}
            inside = (node.module or "").split(".")[0] == "polars_roc"
            (ours if inside else imported).update(names)
        elif isinstance(node, ast.If | ast.Try):
            branches = [node.body, node.orelse]
            if isinstance(node, ast.Try):
                branches += [node.finalbody, *(h.body for h in node.handlers)]
            for branch in branches:
                more = _top_level(branch)
                defined |= more[0]
                ours |= more[1]
                imported |= more[2]
    return defined, ours, imported


def _declared(tree: ast.Module) -> list[str] | None:
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                assert node.value is not None
                value = ast.literal_eval(node.value)
                return list(value)
    return None


def ruff_order(name: str) -> tuple[int, str]:
    """Ruff's RUF022 order: SCREAMING_CASE constants, then CamelCase classes, then the rest."""
    kind = 0 if name.isupper() else 1 if name[:1].isupper() else 2
    return kind, name


def problems(source: str, *, package: bool = False) -> list[str]:
    """What is wrong with a public module's `__all__` (empty when nothing is)."""
    tree = ast.parse(source)
    declared = _declared(tree)
    if declared is None:
        return ["no __all__: list the public names (and underscore the rest)"]
    defined, ours, imported = _top_level(tree.body)
    defined.discard("__all__")
    found: list[str] = []
    if declared != sorted(declared, key=ruff_order):
        found.append("__all__ is not sorted")
    if len(set(declared)) < len(declared):
        found.append("__all__ names a name twice")
    public = {name for name in defined if not name.startswith("_")}
    if package:  # a package's __init__ re-exports: what it imports from us is its surface
        public |= {name for name in ours if not name.startswith("_")}
    found += [f"{name} is public but not in __all__" for name in sorted(public - set(declared))]
    known = defined | ours | imported
    found += [
        f"{name} is in __all__ but not defined here" for name in declared if name not in known
    ]
    found += [f"{name} in __all__ starts with _" for name in declared if name.startswith("_")]
    return found


@pytest.mark.parametrize("module", sorted(PUBLIC))
def test_every_public_module_says_what_is_public(module: str) -> None:
    path = PUBLIC[module]
    found = problems(path.read_text(), package=path.name == "__init__.py")
    assert not found, f"{path}: " + "; ".join(found)


@pytest.mark.parametrize("module", sorted(PUBLIC))
def test_every_listed_name_exists_at_run_time(module: str) -> None:
    imported = importlib.import_module(module)
    for name in imported.__all__:
        assert hasattr(imported, name), f"{module}.__all__ names {name}, which is missing"


def test_the_package_lists_its_names_sorted() -> None:
    assert pr.__all__ == sorted(pr.__all__)
    assert {"report", "charts"} <= set(pr.__all__)


def test_the_scan_sees_the_modules() -> None:
    # A guard on the guard: public modules at every depth, private ones left out.
    assert {"polars_roc", "polars_roc.areas", "polars_roc.report", "polars_roc.geometry.hull"} <= (
        set(PUBLIC)
    )
    assert not any(part.startswith("_") for m in PUBLIC for part in m.split(".")[1:])
    assert len(PUBLIC) > 30


def test_the_check_can_fail() -> None:
    missing = "import polars as pl\n\ndef helper():\n    pass\n"
    assert problems(missing) == ["no __all__: list the public names (and underscore the rest)"]
    source = (
        "from polars_roc.curves import curve\n"
        "__all__ = ['shown', 'ghost']\n"
        "def shown(): ...\n"
        "def helper(): ...\n"
        "def _hidden(): ...\n"
        "LIMIT = 3\n"
        "if True:\n    branch = 1\n"
    )
    assert problems(source) == [
        "__all__ is not sorted",
        "LIMIT is public but not in __all__",
        "branch is public but not in __all__",
        "helper is public but not in __all__",
        "ghost is in __all__ but not defined here",
    ]
    # a package re-exporting a name must list it; a plain module need not list its imports
    assert problems(source.replace("'ghost'", "'LIMIT', 'branch', 'helper'")) == [
        "__all__ is not sorted"
    ]
    reexport = "from polars_roc.curves import curve\n__all__ = []\n"
    assert problems(reexport) == []
    assert problems(reexport, package=True) == ["curve is public but not in __all__"]
    assert problems("__all__ = ['b', 'Ab', 'C_MAX']\nAb = C_MAX = b = 1\n") == [
        "__all__ is not sorted"
    ]
    assert problems("__all__ = ['C_MAX', 'Ab', 'b']\nAb = C_MAX = b = 1\n") == []
    fine = "import polars as pl\n__all__ = ['a', 'b']\ndef a(): ...\nb = pl.col('x')\n_c = 1\n"
    assert problems(fine) == []
