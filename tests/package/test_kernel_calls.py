"""Internal code calls the curve kernel, never the decorated public `curve()` / `counts()`.

A public frame function is check → route → kernel: its decorators (`same_kind`, `directed`)
prepare the rows once (`by` expressions and private names, NaN policy, the positive class's
presence, direction). Code inside the package works on rows its own public function already
prepared, so it calls the kernels :func:`polars_roc._core.counts.roc_points` and
:func:`~polars_roc._core.counts.counted`. Read with `ast` (nothing imported): a call of
`curve` / `counts` of :mod:`polars_roc.curves` under any import form or alias, or of
``.roc.curve`` / ``.roc.counts``, fails here unless its module is named below with the reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT

PACKAGE = ROOT / "polars_roc"

#: The decorated public functions of polars_roc.curves that have a kernel.
DECORATED = {"curve", "counts"}

#: Modules allowed to call them, with the reason.
ALLOWED = {
    # (curves.py defines them and calls the kernels; namespace.py names them, calls nothing)
    # the report composes the public API with the user's own direction, nan_policy and
    # `by` expressions, as a user's script would (it calls auc, thresholds, ... the same way)
    "polars_roc/report/_build.py": "composes the public API with the user's arguments",
}


def calls(source: str) -> list[tuple[int, str]]:
    """(line, call) of every call of a decorated curves function in `source`."""
    tree = ast.parse(source)
    direct: set[str] = set()  # local names of curves.curve / curves.counts
    modules: set[str] = set()  # local names of the polars_roc.curves module
    packages: set[str] = set()  # local names of the polars_roc package
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "polars_roc.curves":
            direct |= {a.asname or a.name for a in node.names if a.name in DECORATED}
        elif isinstance(node, ast.ImportFrom) and node.module == "polars_roc":
            modules |= {a.asname or a.name for a in node.names if a.name == "curves"}
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "polars_roc.curves" and alias.asname:
                    modules.add(alias.asname)
                elif alias.name.split(".")[0] == "polars_roc":
                    packages.add(alias.asname or "polars_roc")

    def decorated(func: ast.expr) -> bool:
        if isinstance(func, ast.Name):
            return func.id in direct
        if not isinstance(func, ast.Attribute) or func.attr not in DECORATED:
            return False
        owner = func.value
        if isinstance(owner, ast.Name):
            return owner.id in modules
        if isinstance(owner, ast.Attribute) and owner.attr == "roc":
            return True  # the df.roc namespace method
        return (
            isinstance(owner, ast.Attribute)
            and owner.attr == "curves"
            and isinstance(owner.value, ast.Name)
            and owner.value.id in packages
        )

    return [
        (node.lineno, ast.unparse(node.func))
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and decorated(node.func)
    ]


def _modules() -> dict[str, Path]:
    return {p.relative_to(ROOT).as_posix(): p for p in sorted(PACKAGE.rglob("*.py"))}


@pytest.mark.parametrize(
    "source",
    [
        "from polars_roc.curves import curve\ncurve(lf)",
        "from polars_roc.curves import counts as c\nc(lf)",
        "from polars_roc import curves\ncurves.curve(lf)",
        "from polars_roc import curves as cv\ncv.counts(lf)",
        "import polars_roc.curves as cv\ncv.curve(lf)",
        "import polars_roc as pr\npr.curves.curve(lf)",
        "import polars_roc.curves\npolars_roc.curves.counts(lf)",
        "lf.roc.curve(by='g')",
        "def f(lf):\n    from polars_roc.curves import curve\n    return curve(lf)",
    ],
)
def test_the_scan_finds_every_import_form(source: str) -> None:
    assert len(calls(source)) == 1


@pytest.mark.parametrize(
    "source",
    [
        "from polars_roc._core.counts import roc_points\nroc_points(lf, 's', 'l')",
        "from polars_roc.multiclass import curve\ncurve.AVERAGED",
        "def curve(x):\n    return x\ncurve(1)",  # a local function of the same name
        "from polars_roc import curves\ncurves.from_counts(lf)",
    ],
)
def test_the_scan_passes_other_calls(source: str) -> None:
    assert calls(source) == []


def test_internal_code_calls_the_curve_kernel() -> None:
    found = {
        name: calls(path.read_text(encoding="utf-8"))
        for name, path in _modules().items()
        if name not in ALLOWED
    }
    offenders = {name: sites for name, sites in found.items() if sites}
    assert not offenders, (
        f"call polars_roc._core.counts.roc_points / counted (the kernels) on the rows your "
        f"decorated public function prepared, not the decorated curve()/counts(): {offenders}"
    )


@pytest.mark.parametrize("name", sorted(ALLOWED))
def test_every_exception_is_still_needed(name: str) -> None:
    path = ROOT / name
    assert path.exists(), f"{name} is gone: drop it from the exceptions"
    assert calls(path.read_text(encoding="utf-8")), f"{name} no longer calls them: drop it"
