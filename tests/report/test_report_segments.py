"""The report's "Segments" section: `segment=` / `--segment COL`."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from polars.exceptions import ColumnNotFoundError
from polars.testing import assert_frame_equal

import polars_roc as pr
from polars_roc.cli import main


@pytest.fixture(scope="module")
def scores() -> pl.DataFrame:
    return pr.datasets.simulate(2000, seed=3)


def test_the_section_holds_the_segment_analyses(scores: pl.DataFrame) -> None:
    data = pr.report.compute(scores.lazy(), by="model", segment="segment", ci=None)
    seg = data.segments
    # DeLong variances from Polars `var` aggregations: equal to rounding across runs (a
    # loaded machine splits the parallel sums differently).
    close = {"check_exact": False, "rel_tol": 1e-12, "abs_tol": 1e-15}
    assert_frame_equal(seg.rollup, scores.roc.rollup(segment="segment", by="model"), **close)
    want = scores.roc.disparity(segment="segment", by="model")
    assert_frame_equal(seg.disparity, want, check_exact=False, rel_tol=1e-12, abs_tol=1e-15)
    assert seg.cross.equals(scores.roc.cross_auc(segment="segment", by="model"))
    page = pr.report.render(data, js="cdn")
    assert page.index('id="auc"') < page.index('id="segments"') < page.index('id="roc"')
    assert "within-segment AUC" in page
    assert 'id="disparity-table"' in page
    assert '<a href="#segments">Segments</a>' in page
    plain = pr.report.to_html(scores.lazy(), by="model", ci=None, js="cdn")
    assert 'id="segments"' not in plain


def test_a_bad_segment_is_refused_before_reading(scores: pl.DataFrame) -> None:
    with pytest.raises(ColumnNotFoundError, match="segment column 'region' not found"):
        pr.report.compute(scores.lazy(), by="model", segment="region")
    with pytest.raises(ValueError, match="segment column 'model' is already"):
        pr.report.compute(scores.lazy(), by="model", segment="model")


def test_cli_segment_flag(
    scores: pl.DataFrame, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "scores.parquet"
    scores.write_parquet(path)
    out = tmp_path / "report.html"
    argv = ["report", str(path), "--label", "label", "--by", "model", "--segment", "segment"]
    assert main([*argv, "--score", "score", "-o", str(out), "--js", "cdn", "-q"]) == 0
    assert out.read_text().count('<section id="segments">') == 1
    capsys.readouterr()
    status = main([*argv, "--class-scores", "a,b", "-o", str(out)])
    assert status != 0
    assert "--segment and --slices do not apply with --class-scores" in capsys.readouterr().err


def test_disparity_over_many_segments_tests_the_largest_and_pools_the_rest() -> None:
    # 80 segments: the 30 largest by rows are tested alone, the 50 others as one segment.
    from polars_roc.report._segments import MAX_DISPARITY

    i = pl.int_range(pl.len())
    frame = pr.datasets.simulate(3000, seed=4).with_columns(  # 0..29: 75 rows, 30..79: 15
        seg=pl.when(i % 4 == 0).then(30 + (i // 4) % 50).otherwise(i % 30)
    )
    data = pr.report.compute(frame.lazy(), segment="seg", ci=None)
    seg = data.segments
    n = frame["seg"].n_unique()
    assert n == 80
    big = frame.group_by("seg").len().sort("len", "seg", descending=[True, False])
    got = set(seg.disparity["segment"].to_list())
    largest = set(big.head(MAX_DISPARITY)["seg"].cast(pl.String).to_list())
    assert got == largest | {f"other ({n - MAX_DISPARITY:,} segments)"}
    # a kept segment's test equals disparity run on the relabelled frame by hand
    relabelled = frame.with_columns(
        seg=pl.when(pl.col("seg").cast(pl.String).is_in(list(largest)))
        .then(pl.col("seg").cast(pl.String))
        .otherwise(pl.lit(f"other ({n - MAX_DISPARITY:,} segments)"))
    )
    want = relabelled.roc.disparity(segment="seg")
    assert_frame_equal(
        seg.disparity.sort("segment"), want.sort("segment"), check_exact=False, rel_tol=1e-12
    )
    page = pr.report.render(data, js="cdn")
    assert f"The {MAX_DISPARITY} largest segments by rows are tested one by one" in page
