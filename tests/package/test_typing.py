"""Users' type checkers see our types, and help() on an eager method says it gives a DataFrame."""

from __future__ import annotations

import importlib.resources
import pydoc
import re
from pathlib import Path

import polars as pl
import pytest

import polars_roc as pr

FRAME = pl.DataFrame({"score": [0.1, 0.9], "label": [0, 1]})


def test_the_package_ships_the_py_typed_marker() -> None:
    assert importlib.resources.files("polars_roc").joinpath("py.typed").is_file()


def _help(method: object) -> str:
    return pydoc.render_doc(method, renderer=pydoc.plaintext)


@pytest.mark.parametrize("name", sorted(pr.namespace.FRAME_METHODS))
def test_help_on_an_eager_method_says_it_returns_a_dataframe(name: str) -> None:
    text = _help(getattr(FRAME.roc, name))
    signature = text.splitlines()[2]  # after the "Python Library Documentation" title
    assert "-> polars.dataframe.frame.DataFrame" in signature, signature
    assert "LazyFrame" not in signature
    # The Returns section names both kinds and says at once which one `df.roc` gives.
    returns = text.split("Returns\n")[1].split("Examples\n")[0]
    assert re.search(r"pl\.LazyFrame \| pl\.DataFrame\s+The kind of frame given", returns)
    assert "(``df.roc`` gives a DataFrame)" in returns


@pytest.mark.parametrize("name", ["auc", "curve", "hull", "compare"])
def test_help_on_a_lazy_method_says_it_returns_a_lazyframe(name: str) -> None:
    signature = _help(getattr(FRAME.lazy().roc, name)).splitlines()[2]
    assert "-> polars.lazyframe.frame.LazyFrame" in signature


USER_CODE = """
import polars as pl
import polars_roc as pr

df = pl.DataFrame({"score": [0.1, 0.9], "label": [0, 1]})
eager: pl.DataFrame = pr.areas.auc(df, by="label")
lazy: pl.LazyFrame = pr.curves.curve(df.lazy())
points: pl.DataFrame = pr.hull_of_points(pl.DataFrame({"fpr": [0.1], "tpr": [0.6]}))
wrong: pl.LazyFrame = pr.areas.auc(df)
"""


@pytest.mark.slow
def test_a_users_mypy_sees_our_types(tmp_path: Path) -> None:
    mypy = pytest.importorskip("mypy.api")
    script = tmp_path / "user.py"
    script.write_text(USER_CODE)
    out, err, status = mypy.run(
        ["--strict", "--cache-dir", str(tmp_path / "cache"), "--no-error-summary", str(script)]
    )
    assert "py.typed" not in out, out  # "missing library stubs or py.typed marker"
    # exactly one error: a DataFrame in gives a DataFrame out, so the last line is wrong
    assert out.strip().splitlines() == [
        f'{script}:9: error: Incompatible types in assignment (expression has type "DataFrame", '
        'variable has type "LazyFrame")  [assignment]'
    ], out + err
    assert status == 1
