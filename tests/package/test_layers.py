"""The package's shape: imports only go down, no cycle, no hidden imports, small modules.

Reads every module of the package with `ast` (nothing is imported), so a violation fails
here with the file and line, before it can hide as a circular import at run time.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT

PACKAGE = ROOT / "polars_roc"

#: Layer of each top-level module or package (a folder is one layer), from the bottom. A
#: module may import its own layer's public names and anything below; `_core` imports
#: nothing outside `_core`. The README's "Layout" section and the package docstring say the
#: same; keep the three in step.
LAYERS: dict[str, int] = {
    # the private floor: what two or more questions share
    "_core": 0,
    # the counts core's public face, the ROC-core scalar expressions, the argument types
    "curves": 1,
    "exprs": 1,
    "typing": 1,
    # questions: one package per question that needs more than one module, else one module
    **dict.fromkeys(
        [
            "areas",
            "thresholds",
            "precision_recall",
            "metrics",
            "multiclass",
            "gains",
            "calibration",
            "crossval",
            "geometry",
            "datasets",
            "decisions",
            "survival",
            "smoothing",
        ],
        2,
    ),
    # "how sure", and the questions that test and resample; other engines
    "inference": 3,
    "gates": 3,
    "segments": 3,
    "slices": 3,
    "monitoring": 3,
    "engines": 3,
    "namespace": 4,
    "charts": 5,
    "report": 6,
    "cli": 7,
    "__main__": 8,
    "__init__": 9,
}

#: Optional dependencies: the only imports allowed inside a function.
OPTIONAL = {"altair", "vl_convert", "narwhals", "duckdb", "pyspark", "sqlframe", "ibis", "tqdm"}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts)


def layer_of(module: str) -> int:
    parts = module.split(".")[1:] or ["__init__"]
    if parts == ["__init__"]:
        return LAYERS["__init__"]
    key = parts[0]
    if key not in LAYERS:
        pytest.fail(f"module {module} has no layer: add it to LAYERS in {__file__}")
    return LAYERS[key]


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(path: Path) -> list[tuple[ast.ImportFrom | ast.Import, bool]]:
    """Every import in the file, with whether it sits at module level (or under an `if`)."""
    tree = ast.parse(path.read_text(), str(path))
    found: list[tuple[ast.ImportFrom | ast.Import, bool]] = []

    def visit(node: ast.AST, top: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                found.append((child, top))
            inner = top and not isinstance(
                child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda
            )
            visit(child, inner)

    visit(tree, top=True)
    return found


def targets(node: ast.Import | ast.ImportFrom) -> list[tuple[str, str | None]]:
    """(module, imported name or None) pairs inside the package."""
    if isinstance(node, ast.Import):
        return [(a.name, None) for a in node.names if a.name.split(".")[0] == "polars_roc"]
    if node.module is None or node.module.split(".")[0] != "polars_roc":
        return []
    out: list[tuple[str, str | None]] = []
    for alias in node.names:
        full = f"{node.module}.{alias.name}"
        is_module = full in MODULES or f"{full}.__init__" in MODULES
        out.append((full, None) if is_module else (node.module, alias.name))
    return out


def resolve(module: str) -> str:
    return module if module in MODULES else f"{module}.__init__"


def edges() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for module, path in MODULES.items():
        for node, top in imports(path):
            if top:
                graph[module] |= {resolve(t) for t, _ in targets(node)} - {module}
    return graph


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_only_go_down(module: str) -> None:
    own = layer_of(module)
    in_core = module.startswith("polars_roc._core")
    for node, top in imports(MODULES[module]):
        for target, name in targets(node):
            where = f"{MODULES[module]}:{node.lineno}"
            if target == "polars_roc":
                continue  # the package itself: only `polars_roc.__init__` names modules
            if in_core:
                assert target.startswith("polars_roc._core"), f"{where}: _core imports {target}"
            assert layer_of(target) <= own, f"{where}: {module} imports {target} from above"
            private_module = any(p.startswith("_") for p in target.split(".")[1:])
            if private_module and not target.startswith("polars_roc._core"):
                package = target.rsplit(".", 1)[0]
                assert module.startswith(package), f"{where}: private module {target}"
            if name is not None and name.startswith("_") and not name.startswith("__"):
                pytest.fail(f"{where}: {module} imports the private name {name} from {target}")
            assert top, f"{where}: import of {target} inside a function"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_import_inside_a_function_but_optional_dependencies(module: str) -> None:
    for node, top in imports(MODULES[module]):
        if top:
            continue
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
        for name in names:
            root = (name or "").split(".")[0]
            assert root in OPTIONAL, f"{MODULES[module]}:{node.lineno}: import {name} in a function"


def test_import_graph_has_no_cycle() -> None:
    graph = edges()
    state: dict[str, int] = {}

    def walk(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycle = [*trail[trail.index(nxt) :], nxt] if nxt in trail else [node, nxt]
                pytest.fail(f"import cycle: {' -> '.join(cycle)}")
            if nxt not in state:
                walk(nxt, [*trail, nxt])
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            walk(module, [module])


@pytest.mark.parametrize("module", sorted(MODULES))
def test_modules_stay_small(module: str) -> None:
    lines = MODULES[module].read_text().count("\n")
    assert lines < 700, f"{MODULES[module]} has {lines} lines: split it by topic"


def test_the_checks_catch_what_they_guard() -> None:
    # The rules above must be able to fail: a function-level import and a private name.
    source = "def f():\n    from polars_roc.exprs import _hidden\n"
    tree = ast.parse(source)
    node = tree.body[0].body[0]  # type: ignore[attr-defined]
    assert isinstance(node, ast.ImportFrom)
    assert targets(node) == [("polars_roc.exprs", "_hidden")]
    assert layer_of("polars_roc.report") > layer_of("polars_roc.curves")


def test_a_split_makes_a_package() -> None:
    # `report_page.py` beside `report.py` hides a package: a split goes into a folder.
    roots = {p.stem for p in PACKAGE.glob("*.py")} | {
        p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()
    }
    for name in sorted(roots):
        for other in roots - {name}:
            assert not name.startswith(f"{other}_"), f"{name}.py: move it into {other}/"


def test_every_folder_and_root_module_has_a_layer() -> None:
    for path in PACKAGE.iterdir():
        if path.name.startswith(".") or path.name in {"__pycache__", "py.typed"}:
            continue
        key = path.stem if path.suffix == ".py" else path.name
        assert key in LAYERS, f"{path}: add it to LAYERS in {__file__}"


#: What each layer holds, for the README's map (the layers themselves come from LAYERS).
LAYER_ROLES = {
    0: "the private floor: what two or more questions share",
    1: "the counts core's public face, the ROC-core scalar expressions, the argument types",
    2: "questions: a package per question of more than one module, else one module",
    3: '"how sure", and the questions that test and resample; other engines',
    4: "DataFrame.roc / LazyFrame.roc / Expr.roc: delegations read from the tables",
    5: "Altair builders: frame in, chart out, one module per question's charts",
    6: "the HTML report: one section per question, named like its package",
    7: "the command line",
}


def layout() -> str:
    """The README's layout map, generated from LAYERS and each module's first docstring line."""
    lines = []
    for layer in sorted({v for k, v in LAYERS.items() if k not in {"__main__", "__init__"}}):
        lines.append(f"{layer}  {LAYER_ROLES[layer]}")
        for key in sorted(k for k, v in LAYERS.items() if v == layer):
            path = PACKAGE / key / "__init__.py"
            path = path if path.exists() else PACKAGE / f"{key}.py"
            doc = ast.get_docstring(ast.parse(path.read_text())) or ""
            first = doc.strip().splitlines()[0] if doc.strip() else ""
            name = f"{key}/" if path.name == "__init__.py" else f"{key}.py"
            line = f"   {name:<19} {first}"
            if len(line) > 100:
                line = line[:98].rsplit(" ", 1)[0] + " …"
            lines.append(line)
    return "\n".join(lines)


def test_the_readme_layout_is_generated_from_the_layers() -> None:
    readme = (PACKAGE.parent / "README.md").read_text()
    block = readme.split("<!-- layout: start -->\n```text\n", 1)[1].split("```", 1)[0]
    block = block.rstrip("\n")
    assert block == layout(), "regenerate: python -m tests.package.test_layers"


def test_the_package_docstring_names_every_layer() -> None:
    doc = ast.get_docstring(ast.parse((PACKAGE / "__init__.py").read_text())) or ""
    for key in LAYERS:
        if key not in {"__main__", "__init__", "datasets", "typing", "namespace"}:
            assert f"``{key}" in doc, f"the package docstring does not name {key}"


if __name__ == "__main__":
    readme_path = PACKAGE.parent / "README.md"
    text = readme_path.read_text()
    head, rest = text.split("<!-- layout: start -->\n```text\n", 1)
    readme_path.write_text(
        f"{head}<!-- layout: start -->\n```text\n{layout()}\n```{rest.split('```', 1)[1]}"
    )
