"""best_threshold(method=<any column>, where=<constraint>) against an exhaustive search."""

from __future__ import annotations

import math

import polars as pl
import pytest
from hypothesis import example, given
from polars.testing import assert_frame_equal

import polars_roc as pr  # noqa: F401  (registers the namespaces)
from tests.conftest import scored_rows

INF = math.inf


def measures_at(labels: list[bool], scores: list[float], t: float) -> dict[str, float | None]:
    """tpr, fpr, ppv, f1 and mcc of `score >= t`, by counting rows; None where undefined."""
    tp = sum(1 for y, s in zip(labels, scores, strict=True) if y and s >= t)
    fp = sum(1 for y, s in zip(labels, scores, strict=True) if not y and s >= t)
    p, n = sum(labels), len(labels) - sum(labels)
    fn, tn = p - tp, n - fp
    denominator = math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    return {
        "tpr": tp / p if p else None,
        "fpr": fp / n if n else None,
        "ppv": tp / (tp + fp) if tp + fp else None,
        "f1": 2 * tp / (2 * tp + fp + fn) if 2 * tp + fp + fn else None,
        "mcc": (tp * tn - fp * fn) / denominator if denominator else None,
    }


def brute_best(labels, scores, method: str, column: str, bound: float, above: bool):
    """The highest threshold maximizing `method` among those meeting the bound; None if none."""
    best = None
    for t in [INF, *sorted(set(scores), reverse=True)]:
        m = measures_at(labels, scores, t)
        value, limit = m[method], m[column]
        if value is None or limit is None:
            continue
        if (limit < bound) if above else (limit > bound):
            continue
        if best is None or value > best[0] + 1e-12:
            best = (value, t)
    return None if best is None else best[1]


@pytest.mark.parametrize(
    ("method", "column", "bound", "above"),
    [
        ("tpr", "ppv", 0.9, True),
        ("tpr", "ppv", 0.6, True),
        ("f1", "fpr", 0.3, False),
        ("mcc", "tpr", 0.5, True),
    ],
)
@given(frame=scored_rows(min_size=2))
@example(frame=pl.DataFrame({"score": [0.9, 0.8, 0.7], "label": [False, True, True]}))
def test_constrained_best_matches_exhaustive_search(
    frame: pl.DataFrame, method: str, column: str, bound: float, *, above: bool
) -> None:
    labels, scores = frame["label"].to_list(), frame["score"].to_list()
    where = pl.col(column) >= bound if above else pl.col(column) <= bound
    got = frame.roc.best_threshold(method=method, where=where)
    assert got.height == 1
    assert got["threshold"].item() == brute_best(labels, scores, method, column, bound, above)
    assert got["n_pos"].item() == sum(labels)
    assert got["n_neg"].item() == len(labels) - sum(labels)


def test_nothing_satisfies_gives_a_null_row_per_group_with_counts() -> None:
    frame = pl.DataFrame(
        {
            "g": ["a", "a", "a", "b", "b"],
            "score": [0.9, 0.5, 0.1, 0.7, 0.2],
            "label": [1, 0, 1, 0, 1],
        }
    )
    got = frame.roc.best_threshold(by="g", method="tpr", where=pl.col("ppv") >= 0.99)
    assert got["g"].to_list() == ["a", "b"]
    assert got.filter(pl.col("g") == "a")["threshold"].item() == 0.9  # ppv 1 at the top
    b = got.filter(pl.col("g") == "b")
    assert b.select("threshold", "tpr", "ppv").row(0) == (None, None, None)
    assert b.select("n_pos", "n_neg").row(0) == (1, 1)


@given(frame=scored_rows(min_size=1, groups=3))
def test_grouped_equals_one_group_at_a_time(frame: pl.DataFrame) -> None:
    where = pl.col("fpr") <= 0.5
    grouped = frame.roc.best_threshold(by="group", method="balanced_accuracy", where=where)
    for (key,), part in frame.group_by("group"):
        alone = part.roc.best_threshold(method="balanced_accuracy", where=where)
        assert_frame_equal(grouped.filter(pl.col("group") == key).drop("group"), alone)


def test_named_methods_keep_their_meaning_and_bad_arguments_fail() -> None:
    frame = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.6, 0.4, 0.1], "label": [1, 1, 0, 1, 0, 0]})
    assert frame.roc.best_threshold()["threshold"].item() == 0.8  # youden, highest on ties
    assert frame.roc.best_threshold(method="youden", where=pl.col("tpr") == 1.0)[
        "threshold"
    ].item() == pytest.approx(0.6)
    with pytest.raises(ValueError, match="column of the thresholds table"):
        frame.roc.best_threshold(method="precision")
    with pytest.raises(TypeError, match="polars expression"):
        frame.roc.best_threshold(where="ppv >= 0.9")  # type: ignore[arg-type]
    with pytest.raises(pl.exceptions.ColumnNotFoundError, match="precision"):
        frame.lazy().roc.best_threshold(method="tpr", where=pl.col("precision") >= 0.9)
