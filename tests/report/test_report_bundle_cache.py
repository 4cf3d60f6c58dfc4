"""The charting JavaScript bundle is cached in the user cache directory between runs."""

from __future__ import annotations

from pathlib import Path

import pytest

import polars_roc as pr
from polars_roc._core.version import __version__
from polars_roc.report import _vega

vl_convert = pytest.importorskip("vl_convert")


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str | None]:
    """A temporary XDG cache, and vl-convert's bundle builder replaced by a counting stub."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    calls: list[str | None] = []

    def bundle(vl_version: str | None = None) -> str:
        calls.append(vl_version)
        return f"/* stub {len(calls)} */ function vegaEmbed() {{}}"

    monkeypatch.setattr(vl_convert, "javascript_bundle", bundle)
    return calls


def test_the_second_report_reads_the_bundle_from_the_cache(
    builds: list[str | None], tmp_path: Path
) -> None:
    lf = pr.datasets.simulate(200, seed=1).lazy()
    first = pr.report.to_html(lf, ci=None, js="inline")
    assert len(builds) == 1
    folder = tmp_path / "cache" / "polars_roc" / __version__
    (cached,) = folder.iterdir()
    assert f"vl-convert-{vl_convert.__version__}" in cached.name
    assert "/* stub 1 */" in cached.read_text()
    second = pr.report.to_html(lf, ci=None, js="inline")
    assert len(builds) == 1  # read, not built again
    assert "/* stub 1 */" in first
    assert "/* stub 1 */" in second
    assert not list(folder.glob("*.tmp"))


def test_a_damaged_cache_file_is_built_again(builds: list[str | None], tmp_path: Path) -> None:
    _vega.javascript("inline")
    (cached,) = (tmp_path / "cache" / "polars_roc" / __version__).iterdir()
    cached.write_text("/* half a bund")
    scripts, note = _vega.javascript("inline")
    assert len(builds) == 2
    assert note is None
    assert "/* stub 2 */" in scripts
    assert "/* stub 2 */" in cached.read_text()


def test_an_unwritable_cache_is_skipped(
    builds: list[str | None], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    scripts, _ = _vega.javascript("inline")
    scripts_again, _ = _vega.javascript("inline")
    assert "/* stub 1 */" in scripts
    assert "/* stub 2 */" in scripts_again
    assert blocked.read_text() == "not a folder"


def test_cache_dir_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert _vega.cache_dir() == tmp_path / "polars_roc" / __version__
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # ignored, as the XDG spec says
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert _vega.cache_dir() == tmp_path / "home" / ".cache" / "polars_roc" / __version__
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert _vega.cache_dir() == tmp_path / "home" / ".cache" / "polars_roc" / __version__
