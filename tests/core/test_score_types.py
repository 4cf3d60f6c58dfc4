"""Every numeric score type, at its extremes, in both directions, against an exact oracle.

The oracle compares the scores as Python integers and decimals and sums in fractions, so
it never makes two integers beyond 2**53 tie, never wraps a negated minimum and never
rounds a weight. ``direction="lower"`` must be exact where negating in the score's own
type is not: unsigned types have no negation and Float64 ties integers beyond 2**53; a
signed type's minimum (``-(-128)`` wraps to -128 in Int8) is refused by name, never wrapped.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

import polars_roc as pr

BIG = 2**60  # beyond 2**53: neighbours tie in Float64


def extremes(dtype: pl.DataType) -> list[Any]:
    """The type's minimum and maximum, their neighbours, zero and big neighbours in range."""
    if dtype.is_decimal():
        tiny = Decimal("1e-10")
        return [Decimal(BIG), Decimal(BIG + 1), Decimal(0), tiny, 2 * tiny, -Decimal(BIG)]
    info = {
        pl.Int8: (-(2**7), 2**7 - 1),
        pl.Int16: (-(2**15), 2**15 - 1),
        pl.Int32: (-(2**31), 2**31 - 1),
        pl.Int64: (-(2**63), 2**63 - 1),
        pl.Int128: (-(2**127), 2**127 - 1),
        pl.UInt8: (0, 2**8 - 1),
        pl.UInt16: (0, 2**16 - 1),
        pl.UInt32: (0, 2**32 - 1),
        pl.UInt64: (0, 2**64 - 1),
    }
    low, high = info[type(dtype)]
    values = {low, low + 1, high - 1, high, max(low, 0), max(low, 0) + 1}
    if high > BIG:
        values |= {BIG, BIG + 1, BIG + 2}
    return sorted(values)


DTYPES = [
    pl.Int8(),
    pl.Int16(),
    pl.Int32(),
    pl.Int64(),
    pl.Int128(),
    pl.UInt8(),
    pl.UInt16(),
    pl.UInt32(),
    pl.UInt64(),
    pl.Decimal(38, 10),
]


def exact_auc(rows: list[tuple[Any, bool, int]], lower: bool) -> float | None:
    """Pairwise AUC, ties one half, weights as integers, in exact arithmetic."""
    pos = [(s, w) for s, y, w in rows if y]
    neg = [(s, w) for s, y, w in rows if not y]
    total = Fraction(0)
    for sp, wp in pos:
        for sn, wn in neg:
            win = sp < sn if lower else sp > sn
            total += wp * wn * (Fraction(1) if win else Fraction(1, 2) if sp == sn else 0)
    denominator = sum(w for _, w in pos) * sum(w for _, w in neg)
    return None if denominator == 0 else float(total / denominator)


@st.composite
def typed_rows(draw: st.DrawFn) -> tuple[pl.DataFrame, list[tuple[Any, bool, int]]]:
    dtype = draw(st.sampled_from(DTYPES))
    pool = extremes(dtype)
    n = draw(st.integers(2, 12))
    scores = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))
    labels = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    weights = draw(st.lists(st.integers(1, 3), min_size=n, max_size=n))
    frame = pl.DataFrame(
        {
            "score": pl.Series(scores, dtype=dtype),
            "label": labels,
            "w": pl.Series(weights, dtype=pl.Float64),
            "g": [i % 2 for i in range(n)],
        }
    )
    return frame, list(zip(scores, labels, weights, strict=True))


def refused_under_lower(frame: pl.DataFrame, direction: str) -> bool:
    """Under "lower", a signed type's minimum (no negation in the type) must be refused."""
    dtype = frame["score"].dtype
    bits = {pl.Int8: 8, pl.Int16: 16, pl.Int32: 32, pl.Int64: 64, pl.Int128: 128}
    low = -(2 ** (bits[type(dtype)] - 1)) if type(dtype) in bits else None
    if direction == "higher" or low is None or low not in frame["score"].to_list():
        return False
    match = f"holds {low}, the minimum of {dtype}"
    for run in (
        lambda: frame.roc.auc(direction="lower"),
        lambda: frame.roc.counts(direction="lower"),
        lambda: frame.select(pr.auc("score", "label", direction="lower")),
        lambda: frame.group_by("g").agg(pr.auc("score", "label", direction="lower")),
    ):
        with pytest.raises(ValueError, match=match):
            run()
    return True


def close(got: float | None, want: float | None) -> bool:
    return got == want if want is None or got is None else got == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("direction", ["higher", "lower"])
@given(case=typed_rows())
def test_auc_of_every_score_type_is_exact(case: Any, direction: str) -> None:
    frame, rows = case
    if refused_under_lower(frame, direction):
        return
    lower = direction == "lower"
    want = exact_auc([(s, y, 1) for s, y, _ in rows], lower)
    want_w = exact_auc(rows, lower)
    d: Any = {"direction": direction}
    assert close(frame.roc.auc(**d)["auc"].item(), want)
    assert close(frame.lazy().roc.auc(**d).collect(engine="streaming")["auc"].item(), want)
    assert close(frame.select(pr.auc("score", "label", **d)).item(), want)
    assert close(frame.roc.auc(weight="w", **d)["auc"].item(), want_w)
    assert close(frame.select(pr.auc("score", "label", weight="w", **d)).item(), want_w)
    for g in (0, 1):
        part = [r for i, r in enumerate(rows) if i % 2 == g]  # g is the row's parity
        want_g = exact_auc([(s, y, 1) for s, y, _ in part], lower)
        got = frame.roc.auc(by="g", **d).filter(pl.col("g") == g)["auc"].item()
        assert close(got, want_g)
        agg = frame.group_by("g").agg(pr.auc("score", "label", **d)).filter(pl.col("g") == g)
        assert close(agg["auc"].item(), want_g)


@pytest.mark.parametrize("direction", ["higher", "lower"])
@given(case=typed_rows())
def test_counts_of_every_score_type_step_at_each_distinct_score(case: Any, direction: str) -> None:
    # One row per distinct score (plus the start row), in threshold order: every score
    # above (or, under "lower", below) the threshold counted, whatever its type.
    frame, rows = case
    if refused_under_lower(frame, direction):
        return
    lower = direction == "lower"
    counts = frame.roc.counts(direction=direction)
    distinct = sorted({s for s, _, _ in rows}, reverse=not lower)
    assert counts.height == len(distinct) + 1
    for t, tp, fp in zip(distinct, counts["tp"][1:], counts["fp"][1:], strict=True):
        reached = [y for s, y, _ in rows if (s <= t if lower else s >= t)]
        assert (tp, fp) == (sum(reached), len(reached) - sum(reached))


def test_lower_takes_unsigned_scores_in_expressions() -> None:
    # Polars has no negation of an unsigned type: -pl.col(u8) raises, so ours must not use it.
    frame = pl.DataFrame({"score": pl.Series([0, 255, 7], dtype=pl.UInt8), "label": [1, 0, 1]})
    assert frame.select(pr.auc("score", "label", direction="lower")).item() == 1.0
    assert frame.select(pr.average_precision("score", "label", direction="lower")).item() == 1.0
    assert frame.roc.auc(direction="lower")["auc"].item() == 1.0


def test_lower_still_refuses_a_boolean_score_by_name() -> None:
    frame = pl.DataFrame({"flag": [True, False], "label": [1, 0]})
    with pytest.raises(pl.exceptions.SchemaError, match=r"score column 'flag'.*swap"):
        frame.select(pr.auc("flag", "label", direction="lower"))


def test_lower_refuses_a_signed_minimum_and_says_what_to_cast_to() -> None:
    frame = pl.DataFrame({"score": pl.Series([-128, 0, 5], dtype=pl.Int8), "label": [1, 0, 0]})
    assert frame.roc.auc()["auc"].item() == 0.0  # "higher" negates nothing: exact
    assert frame.select(pr.auc("score", "label")).item() == 0.0
    hint = r"(?s)'score' holds -128, the minimum of Int8.*cast\(pl\.Int16\)"
    with pytest.raises(ValueError, match=hint):
        frame.roc.auc(direction="lower")
    with pytest.raises(ValueError, match=hint):
        frame.select(pr.auc("score", "label", direction="lower"))
    wider = frame.with_columns(pl.col("score").cast(pl.Int16))  # the fix the hint gives
    assert wider.roc.auc(direction="lower")["auc"].item() == 1.0
    assert wider.select(pr.auc("score", "label", direction="lower")).item() == 1.0


@pytest.mark.parametrize(
    "metric",
    [pr.pr_auc, pr.average_precision, pr.expected_calibration_error],
    ids=["pr_auc", "average_precision", "expected_calibration_error"],
)
def test_decimal_probabilities_give_the_float_numbers_in_expressions(metric: Any) -> None:
    # Decimal scores once failed in the PR AUC and ECE expressions (`is_nan` is not defined
    # for decimals) while the frame methods took them.
    floats = pl.DataFrame({"score": [0.1, 0.4, 0.35, 0.8, 0.35], "label": [0, 0, 1, 1, 0]})
    decimals = floats.with_columns(pl.col("score").cast(pl.Decimal(10, 2)))
    expected = floats.select(metric("score", "label")).item()
    assert expected is not None
    assert decimals.select(metric("score", "label")).item() == expected
    assert decimals.lazy().select(metric("score", "label")).collect().item() == expected
