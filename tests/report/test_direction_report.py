"""direction="lower" in what users see: the threshold charts and the HTML report.

A curve computed with ``direction="lower"`` predicts a row positive iff ``score <=
threshold``: the charts must say so, step the right way, choose the operating point and the
marked ties as the analyses do, and the report must give the numbers of the negated score
with its thresholds in score units.
"""

from __future__ import annotations

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import polars_roc as pr
from polars_roc.charts._direction import runs_lower
from polars_roc.charts.style import threshold_text

# Lower scores lean positive; two Youden / KS ties (at score 1 and 3 under "lower").
TIES = pl.DataFrame({"score": [1, 2, 3, 4], "label": [1, 0, 1, 0]})
FRAME = pl.DataFrame(
    {
        "score": [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.35, 0.55],
        "label": [1, 1, 1, 0, 1, 0, 0, 0, 1],
    }
)


def _dataset(spec: dict) -> list[dict]:
    return spec["datasets"][spec["data"]["name"]]


def _leaning(direction: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    """TIES and FRAME with scores leaning the `direction`'s way (KS and Youden above 0)."""
    if direction == "lower":
        return TIES, FRAME
    return TIES.with_columns(-pl.col("score")), FRAME.with_columns(-pl.col("score"))


def test_a_curve_says_which_way_its_thresholds_run() -> None:
    for frame in (TIES, FRAME, FRAME.with_columns(g=pl.Series([0, 1] * 4 + [0]))):
        by = "g" if "g" in frame.columns else None
        assert not runs_lower(frame.roc.curve(by=by))
        assert runs_lower(frame.roc.curve(by=by, direction="lower"))
        assert runs_lower(frame.roc.thresholds(by=by, direction="lower"))
    # A real -inf score under "higher" predicts every row positive there: still "higher".
    infinite = pl.DataFrame({"score": [float("-inf"), 0.5, 0.2], "label": [0, 1, 0]})
    assert not runs_lower(infinite.roc.curve())
    assert runs_lower(infinite.roc.curve(direction="lower"))
    assert not runs_lower(FRAME.roc.curve().filter(pl.col("threshold").is_finite()))


@pytest.mark.parametrize("direction", ["higher", "lower"])
def test_ks_chart_follows_the_direction(direction: str) -> None:
    lower = direction == "lower"
    for frame in _leaning(direction):
        spec = pr.charts.ks_chart(frame.roc.curve(direction=direction)).to_dict()
        line = spec["layer"][0]
        assert line["mark"]["interpolate"] == ("step-after" if lower else "step-before")
        assert line["encoding"]["y"]["title"].endswith("≤ t" if lower else "≥ t")
        (gap,) = [row for row in _dataset(spec) if row["_mark"] == "gap"]
        ks = pr.gains.ks(frame, direction=direction)
        assert gap["threshold"] == ks["threshold"].item()  # the tie the analysis reports
        assert gap["tpr"] - gap["fpr"] == pytest.approx(ks["ks"].item())


@pytest.mark.parametrize("direction", ["higher", "lower"])
def test_threshold_chart_marks_the_best_threshold_of_the_analysis(direction: str) -> None:
    for frame in _leaning(direction):
        table = frame.roc.thresholds(direction=direction)
        spec = pr.charts.threshold_chart(table).to_dict()
        (marked,) = [row for row in _dataset(spec) if row.get("_mark") == "best"]
        best = frame.roc.best_threshold(direction=direction)
        assert marked["threshold"] == best["threshold"].item()
        title = spec["layer"][0]["encoding"]["x"]["title"]
        assert title.endswith("≤ t)" if direction == "lower" else "≥ t)")


@pytest.mark.parametrize("direction", ["higher", "lower"])
def test_threshold_explorer_picks_the_row_of_the_slider_threshold(direction: str) -> None:
    # The operating point for a slider value t: under "higher" the smallest threshold at or
    # above t; under "lower" the largest at or below t (rows with score <= it are positive).
    spec = pr.charts.threshold_explorer(FRAME.roc.curve(direction=direction)).to_dict()
    bind = spec["params"][0]["bind"]["name"]
    transforms = spec["vconcat"][0]["layer"][2]["transform"]
    cut, pick = transforms[1]["filter"], transforms[2]["joinaggregate"][0]["op"]
    if direction == "lower":
        assert "≤ t" in bind
        assert "datum.threshold <=" in cut
        assert pick == "max"
    else:
        assert "≥ t" in bind
        assert "datum.threshold >=" in cut
        assert pick == "min"


def _negated(frame: pl.DataFrame) -> pl.DataFrame:
    """Thresholds of the negated score back in score units (bounds swapped)."""
    units = [c for c in ("threshold", "op_threshold") if c in frame.columns]
    out = frame.with_columns(-pl.col(c) for c in units)
    if "min_score" in frame.columns:
        out = out.with_columns(min_score=-pl.col("max_score"), max_score=-pl.col("min_score"))
    return out


def test_report_lower_is_the_report_of_the_negated_score() -> None:
    rows = pr.datasets.simulate(600, models=["logit", "gbm"], seed=3).lazy()
    options = {"by": "model", "ci": "delong", "calibration_bins": None}
    lower = pr.report.compute(rows, direction="lower", **options)
    negated = pr.report.compute(rows.with_columns(-pl.col("score")), **options)
    for name in ("auc", "partial_auc"):
        assert_frame_equal(getattr(lower, name), getattr(negated, name))
    for name in ("curve", "thresholds", "best_threshold", "gains"):
        assert_frame_equal(getattr(lower, name), _negated(getattr(negated, name)))
    assert lower.roles["direction"] == "lower"
    assert float(lower.auc["auc"].min()) < 0.5  # simulated scores lean the other way


def test_report_lower_skips_calibration_and_says_so_on_the_page() -> None:
    rows = pr.datasets.simulate(400, models=["logit"], seed=4).lazy()
    higher = pr.report.compute(rows, ci=None)
    lower = pr.report.compute(rows, ci=None, direction="lower")
    assert higher.calibration is not None  # probabilities: drawn under "higher"
    assert lower.calibration is None
    assert "direction" in lower.roles["calibration_skipped"]
    page = pr.report.render(lower, js="cdn")
    assert "score ≤ threshold" in page
    assert "score ≥ threshold" not in page
    assert "lower means positive" in page
    assert "lowest first" in page
    assert "at or below each threshold" in page
    page = pr.report.render(higher, js="cdn")
    assert "score ≥ threshold" in page
    assert "lower means positive" not in page


def test_report_nan_policy() -> None:
    rows = pr.datasets.simulate(400, models=["logit", "gbm"], seed=5).with_columns(
        score=pl.when(pl.int_range(pl.len()) % 50 == 0).then(float("nan")).otherwise("score")
    )
    dropped = rows.filter(~pl.col("score").is_nan())
    options = {"by": "model", "ci": None, "calibration_bins": None}
    omitted = pr.report.compute(rows.lazy(), nan_policy="omit", **options)
    expected = pr.report.compute(dropped.lazy(), **options)
    for name in ("auc", "curve", "best_threshold", "gains"):
        assert_frame_equal(getattr(omitted, name), getattr(expected, name))
    propagated = pr.report.compute(rows.lazy(), **options)
    assert propagated.auc["auc"].is_null().all()  # both models hold a NaN score
    with pytest.raises(ValueError, match="NaN"):
        pr.report.compute(rows.lazy(), nan_policy="raise", **options)
    with pytest.raises(ValueError, match="nan_policy must be"):
        pr.report.compute(rows.lazy(), nan_policy="skip", **options)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="direction must be"):
        pr.report.compute(rows.lazy(), direction="auto", **options)  # type: ignore[arg-type]


@pytest.mark.parametrize("direction", ["higher", "lower"])
def test_gain_chart_says_which_scores_come_first(direction: str) -> None:
    grouped = FRAME.with_columns(g=pl.Series([0, 1] * 4 + [0]))
    first = "lowest" if direction == "lower" else "highest"
    for frame in (
        FRAME.roc.gain_curve(direction=direction),
        FRAME.roc.gains_table(bins=3, direction=direction),
        grouped.roc.gains_table(by="g", bins=2, direction=direction),
    ):
        spec = pr.charts.gain_chart(frame).to_dict()
        assert spec["layer"][0]["encoding"]["x"]["title"].endswith(f"{first} scores first)")


def test_score_chart_direction_and_nan_policy() -> None:
    # The sorted plot ranks from the least to the most positive score: under "lower" from
    # the highest score down. The other plots draw the scores as they are.
    frame = FRAME.with_columns(weight=pl.lit(1.0))

    def points(**options: object) -> set[tuple[float, float]]:
        spec = pr.charts.score_chart(frame, kind="sorted", **options).to_dict()
        rows = [row for row in _dataset(spec) if row["_mark"] == "point"]
        return {(row["score"], round(row["rank"], 12)) for row in rows}

    higher, lower = points(), points(direction="lower")
    assert lower == {(score, round(1 - rank, 12)) for score, rank in higher}
    assert max(lower, key=lambda p: p[1])[0] == FRAME["score"].min()
    histogram = pr.charts.score_chart(frame).to_dict()
    assert pr.charts.score_chart(frame, direction="lower").to_dict() == histogram
    with_nan = frame.vstack(
        pl.DataFrame({"score": [float("nan")], "label": [1], "weight": [1.0]}),
    )
    for policy in ("propagate", "omit"):  # a NaN has no place on the axis: not drawn
        assert pr.charts.score_chart(with_nan, nan_policy=policy).to_dict() == histogram
    with pytest.raises(ValueError, match="NaN"):
        pr.charts.score_chart(with_nan, nan_policy="raise")
    with pytest.raises(ValueError, match="direction must be"):
        pr.charts.score_chart(frame, direction="auto")  # type: ignore[arg-type]


def test_report_gains_table_shows_where_each_bin_ends() -> None:
    # Going down the ranking a bin ends at its lowest score, or under "lower" its highest:
    # the cutoff a user would apply (score >= t, or score <= t).
    rows = pr.datasets.simulate(400, models=["logit"], seed=6).lazy()
    for direction, column, header in (
        ("higher", "min_score", "lowest score"),
        ("lower", "max_score", "highest score"),
    ):
        result = pr.report.compute(rows, ci=None, calibration_bins=None, direction=direction)
        page = pr.report.render(result, js="cdn")
        table = page[page.index('<table class="gains"') :]
        table = table[: table.index("</table>")]
        assert header in table
        first = table.split("<tr>")[2]  # header row, then bin 1
        cutoff = result.gains.sort("bin")[column][0]
        other = result.gains.sort("bin")["max_score" if column == "min_score" else "min_score"][0]
        cells = [c.split("<")[0] for c in first.split('class="num">')[1:]]
        assert cells[1] == threshold_text(cutoff) != threshold_text(other)
