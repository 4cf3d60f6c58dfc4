"""Every public function that takes a frame takes a DataFrame or a LazyFrame; every docs page's
```python blocks run.

The frame functions of the ``.roc`` namespaces are ``same_kind`` (swept in
``tests/package``); these are the others: the report's, the intervals', the folds' and the
band's. Each is called on a DataFrame and on its LazyFrame, and both answers must agree.
The charts take the eager frames a frame function returns, by design, and are left out.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import polars_roc as pr
from polars_roc.decisions import out_of_fold
from tests.conftest import DATA

ROOT = DATA.resolve().parents[1]  # the repository: tests/data is two levels down
ROWS = (
    pr.datasets.simulate(300, models=["a"], seed=1)
    .with_columns(t=pl.int_range(pl.len()) // 100)
    .drop("weight")
)


def _plain(result: Any) -> Any:
    """A comparable form of a result: frames collected, report data as its frames."""
    if isinstance(result, pl.LazyFrame):
        return result.collect()
    if isinstance(result, tuple):
        return tuple(_plain(item) for item in result)
    if isinstance(result, pr.report.ReportData):
        return result.auc, result.curve, result.best_threshold
    if isinstance(result, pr.report.OverTimeData):
        return result.frame, result.stability
    return result


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, pl.DataFrame):
        return a.equals(b)
    if isinstance(a, tuple | list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, str):  # the page: the same apart from the random ids Altair draws
        ids = r"(vis|view|chart|fig)[-_]?[0-9a-f]{6,}"
        return re.sub(ids, "", a) == re.sub(ids, "", b)
    return bool(a == b)


def _classes(frame: Any) -> Any:
    return frame.with_columns(
        c=pl.when(pl.col("label")).then(pl.lit("x")).otherwise(pl.lit("y")),
        x=pl.col("score"),
        y=1 - pl.col("score"),
    )


CASES: dict[str, Callable[[Any], Any]] = {
    "auc_interval": lambda f: pr.inference.auc_interval(f),
    "tpr_at_fpr_interval": lambda f: pr.inference.tpr_at_fpr_interval(f, fpr=0.2, n_boot=20),
    "fpr_at_tpr_interval": lambda f: pr.inference.fpr_at_tpr_interval(f, tpr=0.5, n_boot=20),
    "partial_auc_interval": lambda f: pr.inference.partial_auc_interval(
        f, fpr=(0.0, 0.2), n_boot=20
    ),
    "reference_band": lambda f: pr.monitoring.reference_band(
        f.select(estimate=pl.col("score"), ref=pl.col("t") == 0), [], reference="ref", k=3.0
    ),
    "out_of_fold": lambda f: out_of_fold(
        f,
        lambda rows, by: rows.roc.best_threshold(by=by),
        lambda rows, by: rows.roc.thresholds(by=by),
        fold="fold",
        names=[],
        columns=["threshold", "tpr"],
    ),
    "compute": lambda f: pr.report.compute(f, ci=None),
    "compute_over_time": lambda f: pr.report.compute_over_time(
        f, "score", "label", time="t", every="1i", reference=(0, 0), by=[]
    ),
    "one_vs_rest": lambda f: pr.report.one_vs_rest(_classes(f), ["x", "y"], "c"),
    "to_html": lambda f: pr.report.to_html(f, ci=None, js="cdn"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_dataframe_is_a_frame(name: str) -> None:
    eager = _plain(CASES[name](ROWS))
    lazy = _plain(CASES[name](ROWS.lazy()))
    assert _same(eager, lazy)


def test_the_home_page_example_takes_a_dataframe() -> None:
    # docs/index.md, its first example's last line: a DataFrame straight into to_html
    scored = ROWS.select("score", "label")
    page = pr.report.to_html(scored, score="score", label="label", js="cdn")
    assert page.startswith("<!DOCTYPE html>") or "<html" in page[:200]


def _frame_takers() -> set[str]:
    """Public functions (not ``same_kind``, not charts) whose first argument is a frame."""
    found = set()
    for module in (pr, pr.inference, pr.monitoring, pr.decisions, pr.report, pr.segments):
        for name in module.__all__:
            obj = getattr(module, name)
            if not inspect.isfunction(obj) or hasattr(obj, "__wrapped__"):
                continue
            first = next(iter(inspect.signature(obj).parameters.values()), None)
            if first is not None and "Frame" in str(first.annotation):
                found.add(name)
    return found


def test_every_frame_taker_is_swept() -> None:
    missing = _frame_takers() - set(CASES)
    assert not missing, f"add a DataFrame/LazyFrame case for {sorted(missing)}"


def _blocks(path: Path) -> list[str]:
    """A page's ```python blocks (```python spark, ```py: illustrations, not run)."""
    return re.findall(r"```python\n(.*?)```", path.read_text(), flags=re.DOTALL)


def _task_pages() -> list[Path]:
    nav = (ROOT / "mkdocs.yml").read_text()
    return [ROOT / "docs" / page for page in re.findall(r"(tasks/\w+\.md)", nav)]


def test_every_docs_page_python_block_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pages the README test does not run (it runs the README and the task pages)."""
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    for block in _blocks(ROOT / "README.md"):  # the pages continue the README's session
        exec(compile(block, "README.md", "exec"), namespace)
    covered = {ROOT / "README.md", *_task_pages()}
    pages = sorted(p for p in (ROOT / "docs").rglob("*.md") if p not in covered)
    ran = []
    for page in pages:
        for block in _blocks(page):
            exec(compile(block, str(page), "exec"), namespace)
            ran.append(page.name)
    assert "index.md" in ran
