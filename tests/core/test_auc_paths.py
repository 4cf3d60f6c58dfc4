"""The frame AUC's fast paths (one sort, merged class sorts, staged coding) against brute force.

`df.roc.auc` takes a different route from the `pr.auc` expression (one sort and running sums
over tie blocks instead of ranks); both must give the pairwise probability, on every kind
of input the frame path handles on its own: ties, nulls, NaN, Float32 scores, 0/1 and coded
labels, zero weights, groups with no counted row and null group keys.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import polars_roc as pr
from tests.conftest import POOL, pairwise_auc, scored_rows


@st.composite
def messy_rows(draw: st.DrawFn, *, weighted: bool) -> pl.DataFrame:
    """`score, label, weight, group` with ties, nulls and a group key that may be null."""
    n = draw(st.integers(0, 25))
    scores = st.one_of(st.sampled_from(POOL), st.none(), st.floats(-10, 10, allow_nan=False))
    labels = st.one_of(st.sampled_from([0, 1]), st.none())
    weights = st.sampled_from([0.0, 0.5, 1.0, 2.0, None]) if weighted else st.just(1.0)
    groups = st.one_of(st.sampled_from(["a", "b", "c"]), st.none())
    return pl.DataFrame(
        {
            "score": draw(st.lists(scores, min_size=n, max_size=n)),
            "label": draw(st.lists(labels, min_size=n, max_size=n)),
            "weight": draw(st.lists(weights, min_size=n, max_size=n)),
            "group": draw(st.lists(groups, min_size=n, max_size=n)),
        },
        schema={"score": pl.Float64, "label": pl.Int64, "weight": pl.Float64, "group": pl.String},
    )


def _oracle(part: pl.DataFrame, weighted: bool) -> tuple[float | None, float, float]:
    """Brute-force AUC and class totals of the rows that count."""
    kept = part.drop_nulls(["score", "label", "weight"]).filter(pl.col("weight") > 0)
    labels = kept["label"].to_numpy() == 1
    weights = kept["weight"].to_numpy() if weighted else np.ones(kept.height)
    auc = pairwise_auc(labels, kept["score"].to_numpy(), weights)
    return auc, float(weights[labels].sum()), float(weights[~labels].sum())


@pytest.mark.parametrize("weighted", [False, True], ids=["counts", "weights"])
@pytest.mark.parametrize("grouped", [False, "string", "integer"])
@given(data=st.data())
def test_frame_auc_equals_pairwise_and_expression(
    data: st.DataObject, *, weighted: bool, grouped: bool | str
) -> None:
    frame = data.draw(messy_rows(weighted=weighted))
    if grouped == "integer":  # one integer key takes the sorted group-by: nulls sort last
        codes = {"a": 3, "b": -1, "c": 0}
        frame = frame.with_columns(pl.col("group").replace_strict(codes, default=None))
    weight = "weight" if weighted else None
    by = ["group"] if grouped else None
    got = frame.roc.auc(by=by, weight=weight)
    keys = sorted(frame["group"].unique().to_list(), key=lambda g: (g is None, g or 0))
    assert got.height == (len(keys) if grouped else 1)
    if grouped:
        assert got["group"].to_list() == keys  # sorted by group, nulls last
    for row in got.iter_rows(named=True):
        part = frame.filter(pl.col("group").eq_missing(row["group"])) if grouped else frame
        auc, n_pos, n_neg = _oracle(part, weighted)
        assert row["n_pos"] == pytest.approx(n_pos)
        assert row["n_neg"] == pytest.approx(n_neg)
        expression = part.select(pr.auc("score", "label", weight=weight)).item()
        if auc is None:
            assert row["auc"] is None
            assert expression is None
        else:
            assert row["auc"] == pytest.approx(auc, abs=1e-12)
            assert expression == pytest.approx(row["auc"], abs=1e-12)


@pytest.mark.parametrize("weight", [None, "w"])
@pytest.mark.parametrize("by", [None, "g"])
def test_frame_auc_float32_nan_and_pos_label(weight: str | None, by: str | None) -> None:
    frame = pl.DataFrame(
        {
            "s": pl.Series([0.1, 0.4, 0.35, 0.8, 0.4, 0.2, float("nan"), 0.3], dtype=pl.Float32),
            "y": ["n", "n", "p", "p", "p", "n", "p", "n"],
            "w": [1.0, 2.0, 1.0, 1.0, 3.0, 1.0, 1.0, 1.0],
            "g": [0, 0, 0, 0, 0, 0, 1, 1],
        }
    )
    got = frame.roc.auc("s", "y", by=by, weight=weight, pos_label="p")
    first = frame.filter(pl.col("g") == 0)
    scores = first["s"].cast(pl.Float64).to_numpy()
    weights = first["w"].to_numpy() if weight else None
    expected = pairwise_auc(first["y"].to_numpy() == "p", scores, weights)
    if by is None:
        assert got["auc"].item() is None  # a NaN score leaves the AUC undefined
        return
    assert got["g"].to_list() == [0, 1]
    assert got["auc"][0] == pytest.approx(expected, abs=1e-12)
    assert got["auc"][1] is None
    assert not any(isinstance(v, float) and math.isnan(v) for v in got["auc"].to_list())


@given(
    scores=st.lists(st.sampled_from([-0.0, 0.0, 1.0, -1.0, 2.5]), min_size=2, max_size=30),
    data=st.data(),
)
def test_single_auc_counts_signed_zeros_as_ties(scores: list[float], data: st.DataObject) -> None:
    # The single unweighted frame AUC merges the sorted classes: -0.0 and 0.0 must tie.
    labels = data.draw(st.lists(st.booleans(), min_size=len(scores), max_size=len(scores)))
    frame = pl.DataFrame({"score": scores, "label": labels})
    auc = pairwise_auc(np.array(labels), np.array(scores), np.ones(len(scores)))
    got = frame.roc.auc()["auc"].item()
    assert got == (None if auc is None else pytest.approx(auc, abs=1e-15))


@given(
    offsets=st.lists(st.integers(0, 3), min_size=2, max_size=30),
    data=st.data(),
)
def test_single_auc_of_large_integer_scores_is_exact(
    offsets: list[int], data: st.DataObject
) -> None:
    # Integer scores beyond 2**53 are distinct: they must not tie as Float64 would make them.
    labels = data.draw(st.lists(st.booleans(), min_size=len(offsets), max_size=len(offsets)))
    scores = [2**60 + k for k in offsets]
    frame = pl.DataFrame(
        {"score": scores, "label": labels}, schema={"score": pl.Int64, "label": pl.Boolean}
    )
    auc = pairwise_auc(np.array(labels), np.array(offsets, dtype=float), np.ones(len(offsets)))
    got = frame.roc.auc()["auc"].item()
    assert got == (None if auc is None else pytest.approx(auc, abs=1e-15))


@given(
    scores=st.lists(
        st.one_of(
            st.sampled_from([-0.0, 0.0, 1.0, -1.0, 2.5, math.inf, -math.inf, math.nan]),
            st.none(),
            st.floats(-3, 3),
        ),
        max_size=30,
    ),
    data=st.data(),
)
def test_single_curve_equals_brute_force_and_the_grouped_curve(
    scores: list[float | None], data: st.DataObject
) -> None:
    # The single unweighted curve merges each class's sorted scores; a grouped curve sorts
    # the frame. Both must give, at each distinct threshold (signed zeros one threshold),
    # the cases scoring at or above it.
    labels = data.draw(
        st.lists(st.one_of(st.booleans(), st.none()), min_size=len(scores), max_size=len(scores))
    )
    frame = pl.DataFrame(
        {"score": scores, "label": labels}, schema={"score": pl.Float64, "label": pl.Boolean}
    )
    single = frame.roc.curve()
    grouped = frame.with_columns(g=pl.lit(0)).roc.curve(by="g").drop("g")
    # A group whose rows all have a null score or label has no curve rows.
    assert single.equals(grouped) or frame.drop_nulls().height == 0
    kept = frame.drop_nulls()
    s, y = kept["score"].to_numpy(), kept["label"].to_numpy()
    distinct = {"nan" if math.isnan(v) else v + 0.0 for v in s.tolist()}  # -0.0 + 0.0 is 0.0
    assert single.height == 1 + len(distinct)
    for row in single.slice(1).iter_rows(named=True):
        t = row["threshold"]
        at_or_above = np.isnan(s) if math.isnan(t) else (s >= t) | np.isnan(s)
        expected = (int((at_or_above & y).sum()), int((at_or_above & ~y).sum()))
        assert (row["tp"], row["fp"]) == expected


@pytest.mark.parametrize("integer_keys", [False, True], ids=["string", "integer"])
@given(data=st.data())
def test_grouped_counts_equal_unit_weight_sums(data: st.DataObject, *, integer_keys: bool) -> None:
    # Integer counts over groups run as one running sum less each group's offset, with the
    # start rows merged in; unit weights take the per-group float sums: the same table.
    frame = data.draw(messy_rows(weighted=False)).with_columns(weight=pl.lit(1.0))
    if integer_keys:
        codes = {"a": 3, "b": -1, "c": 0}
        frame = frame.with_columns(pl.col("group").replace_strict(codes, default=None))
    counted = frame.roc.curve(by="group")
    weighed = frame.roc.curve(by="group", weight="weight")
    assert counted.columns == weighed.columns
    assert counted.schema["tp"] == pl.Int64
    assert counted.select(pl.all().exclude("tp", "fp", "tn", "fn")).equals(
        weighed.select(pl.all().exclude("tp", "fp", "tn", "fn"))
    )
    for column in ("tp", "fp", "tn", "fn"):
        assert counted[column].cast(pl.Float64).equals(weighed[column])


@pytest.mark.parametrize("weight", [None, "w"])
def test_a_null_key_as_the_only_group_starts_its_group(weight: str | None) -> None:
    # The first row starts a group even when its key is null (there is no row before it to
    # differ from): the weighted AUC of one null-keyed group once came out 0 instead of 1.
    frame = pl.DataFrame(
        {"score": [0.9, 0.1, 0.5], "label": [1, 0, 0], "w": [1.0, 1.0, 2.0], "g": [None] * 3},
        schema_overrides={"g": pl.String},
    )
    got = frame.roc.auc(by="g", weight=weight)
    assert got.rows() == [(None, 1.0, 1.0, 3.0 if weight else 2.0)]
    curve = frame.roc.curve(by="g", weight=weight)
    assert curve["tp"].to_list() == [0, 1, 1, 1]
    assert curve["fp"].to_list() == [0, 0, (2 if weight else 1), (3 if weight else 2)]


@st.composite
def tied_rows(draw: st.DrawFn) -> pl.DataFrame:
    """Few distinct scores, mostly counted rows, 3 group keys and null: ties in every group."""
    n = draw(st.integers(1, 40))
    pick = st.sampled_from([*POOL[:3], *POOL[:3], *POOL[:3], float("nan"), None])
    return pl.DataFrame(
        {
            "score": draw(st.lists(pick, min_size=n, max_size=n)),
            "label": draw(st.lists(st.sampled_from([0, 1, 1, 0, None]), min_size=n, max_size=n)),
            "group": draw(st.lists(st.sampled_from(["a", "b", "c", None]), min_size=n, max_size=n)),
        },
        schema={"score": pl.Float64, "label": pl.Int64, "group": pl.String},
    )


@given(frame=tied_rows(), float32=st.booleans())
def test_grouped_auc_routes_agree_exactly(frame: pl.DataFrame, *, float32: bool) -> None:
    # One integer key ranks in a sorted group-by; a string key, or several keys, rank in a
    # window and sum twice the rank as integers. The same groups give the same table, bit
    # for bit, and the pairwise AUC.
    if float32:
        frame = frame.with_columns(pl.col("score").cast(pl.Float32))
    codes = {"a": 3, "b": -1, "c": 0}
    frame = frame.with_columns(code=pl.col("group").replace_strict(codes, default=None))
    by_code = frame.roc.auc(by="code").drop("code")
    by_string = frame.roc.auc(by="group")
    by_two = frame.with_columns(other=pl.lit("x")).roc.auc(by=["code", "other"])
    assert by_two.drop("code", "other").equals(by_code)
    names = {3: "a", -1: "b", 0: "c", None: None}
    order = [names[c] for c in frame.roc.auc(by="code")["code"].to_list()]
    assert by_string.equals(
        by_code.with_columns(group=pl.Series(order, dtype=pl.String))
        .sort("group", nulls_last=True)
        .select(by_string.columns)
    )
    for row in by_string.iter_rows(named=True):
        part = frame.filter(pl.col("group").eq_missing(row["group"]))
        if part.drop_nulls(["score", "label"])["score"].is_nan().any():
            assert row["auc"] is None  # a counted NaN score leaves its group's AUC undefined
            continue
        auc, _, _ = _oracle(part.with_columns(weight=pl.lit(1.0)), weighted=False)
        assert row["auc"] == (None if auc is None else pytest.approx(auc, abs=1e-12))


@pytest.mark.parametrize("weighted", [False, True], ids=["counts", "weights"])
@given(frame=tied_rows(), float32=st.booleans(), data=st.data())
def test_single_auc_merge_equals_one_group_and_pairwise(
    frame: pl.DataFrame, data: st.DataObject, *, float32: bool, weighted: bool
) -> None:
    # The single AUC merges the sorted classes with as-of joins (the last negative before
    # each positive, and the last at or before it); one group of a grouped AUC ranks, or
    # sums over tie blocks when weighted. Tie-heavy rows: both give the pairwise AUC.
    if float32:
        frame = frame.with_columns(pl.col("score").cast(pl.Float32))
    weights = st.sampled_from([0.0, 0.5, 1.0, 3.0, None])
    n = frame.height
    frame = frame.with_columns(
        weight=pl.Series(data.draw(st.lists(weights, min_size=n, max_size=n)), dtype=pl.Float64)
        if weighted
        else pl.lit(1.0)
    )
    weight = "weight" if weighted else None
    single = frame.roc.auc(weight=weight)
    grouped = frame.with_columns(g=pl.lit(0)).roc.auc(by="g", weight=weight).drop("g")
    assert single.schema == grouped.schema
    (auc, n_pos, n_neg), (g_auc, g_pos, g_neg) = single.row(0), grouped.row(0)
    assert (n_pos, n_neg) == (g_pos, g_neg)
    if g_auc is None:
        assert auc is None
    else:
        assert auc == pytest.approx(g_auc, abs=1e-12)
    kept = frame.drop_nulls(["score", "label", "weight"]).filter(pl.col("weight") > 0)
    if kept["score"].is_nan().any():
        assert auc is None
        return
    expected, pos, neg = _oracle(frame, weighted=weighted)
    assert (n_pos, n_neg) == (pytest.approx(pos), pytest.approx(neg))
    assert auc == (None if expected is None else pytest.approx(expected, abs=1e-12))


def _correctly_rounded_auc(part: pl.DataFrame) -> float | None:
    """``U / (P * N)`` from exact integer pair counts (ties one half), rounded once."""
    kept = part.drop_nulls(["score", "label"])
    pos = kept.filter(pl.col("label") == 1)["score"].to_list()
    neg = kept.filter(pl.col("label") == 0)["score"].to_list()
    if not pos or not neg:
        return None
    twice_u = sum(2 if p > n else 1 if p == n else 0 for p in pos for n in neg)
    return float(Fraction(twice_u, 2 * len(pos) * len(neg)))  # Fraction -> float rounds once


@given(
    frame=tied_rows(),
    scores=st.lists(st.integers(-3, 3), min_size=40, max_size=40),
    float32=st.booleans(),
)
def test_unweighted_auc_is_correctly_rounded_on_every_path(
    frame: pl.DataFrame, scores: list[int], *, float32: bool
) -> None:
    # Every route forms the AUC from exact counts with one rounding division, so all agree
    # bit for bit with Fraction(U, P * N): the single AUC's merge used to divide twice
    # (2U / 2P, then / N) and differ from the grouped AUC in the last bit (23/60).
    frame = frame.with_columns(
        score=pl.Series(scores[: frame.height], dtype=pl.Float64) / 7,
        code=pl.col("group").rank("dense"),
    )
    if float32:
        frame = frame.with_columns(pl.col("score").cast(pl.Float32))
    expected = {
        g: _correctly_rounded_auc(frame.filter(pl.col("group").eq_missing(g)))
        for g in frame["group"].unique().to_list()
    }
    by_string = dict(frame.roc.auc(by="group").select("group", "auc").iter_rows())
    assert by_string == expected
    by_code = dict(frame.roc.auc(by="code").select("code", "auc").iter_rows())
    codes = dict(frame.select("code", "group").unique().iter_rows())
    assert {codes[c]: a for c, a in by_code.items()} == expected
    agg = frame.group_by("group").agg(pr.auc("score", "label"))
    assert dict(agg.iter_rows()) == expected
    for group, auc in expected.items():
        part = frame.filter(pl.col("group").eq_missing(group))
        assert part.roc.auc()["auc"].item() == auc
        assert part.select(pr.auc("score", "label")).item() == auc
        assert part.lazy().roc.auc().collect(engine="streaming")["auc"].item() == auc


@pytest.mark.parametrize("route", ["frame", "grouped", "expression"])
@given(
    frame=scored_rows(weighted=True, groups=2),
    shifts=st.tuples(st.integers(-500, 500), st.integers(-500, 500)),
)
def test_weighted_auc_ignores_a_power_of_two_on_either_class(
    frame: pl.DataFrame, shifts: tuple[int, int], route: str
) -> None:
    # U / (P * N) is unchanged by a power of two on either class's weights: the scaling
    # that keeps products of weights finite changes no bit. (Classes more than about 2**1020
    # apart share one scale and the smaller underflows: see README, "Weights".)
    positive, negative = (math.ldexp(1.0, k) for k in shifts)
    shifted = frame.with_columns(
        weight=pl.col("weight") * pl.when("label").then(positive).otherwise(negative)
    )

    def auc(rows: pl.DataFrame) -> list[float | None]:
        if route == "frame":
            return rows.roc.auc(weight="weight")["auc"].to_list()
        if route == "grouped":
            return rows.roc.auc(by="group", weight="weight")["auc"].to_list()
        query = rows.group_by("group").agg(pr.auc("score", "label", weight="weight"))
        return query.sort("group")["auc"].to_list()

    assert auc(shifted) == auc(frame)
    if route == "frame":
        totals = shifted.roc.auc(weight="weight").select("n_pos", "n_neg").row(0)
        expected = frame.roc.auc(weight="weight").select("n_pos", "n_neg").row(0)
        assert totals == (expected[0] * positive, expected[1] * negative)


@st.composite
def many_small_groups(draw: st.DrawFn) -> pl.DataFrame:
    """Integer-keyed groups of 1 to 12 rows (at, below and above the paired size), in any order."""
    sizes = draw(st.lists(st.integers(1, 12), min_size=1, max_size=12))
    keys = draw(st.lists(st.integers(-5, 30) | st.none(), min_size=len(sizes), max_size=len(sizes)))
    group = [k for k, size in zip(keys, sizes, strict=True) for _ in range(size)]
    n = len(group)
    special = st.sampled_from([-0.0, 0.0, 1.0, -1.0, math.inf, -math.inf, math.nan])
    scores = st.one_of(special, st.none(), st.floats(-3, 3, allow_nan=False))
    labels = st.one_of(st.sampled_from([0, 1]), st.none())
    frame = pl.DataFrame(
        {
            "score": draw(st.lists(scores, min_size=n, max_size=n)),
            "label": draw(st.lists(labels, min_size=n, max_size=n)),
            "group": group,
        },
        schema={"score": pl.Float64, "label": pl.Int64, "group": pl.Int64},
    )
    return frame.sample(fraction=1.0, shuffle=True, seed=draw(st.integers(0, 2**16)))


@given(frame=many_small_groups())
def test_small_integer_groups_compare_pairs_exactly(frame: pl.DataFrame) -> None:
    # Groups of up to 8 rows under one integer key count their positive-negative pairs one
    # by one; larger groups rank. Both give the correctly rounded U / (P * N), the same bits
    # as the string-keyed window ranks, with a null AUC for a NaN score or an empty class.
    got = frame.roc.auc(by="group")
    keys = sorted(frame["group"].unique().to_list(), key=lambda g: (g is None, g or 0))
    assert got["group"].to_list() == keys
    assert frame.lazy().roc.auc(by="group").collect(engine="in-memory").equals(got)
    as_string = frame.with_columns(pl.col("group").cast(pl.String)).roc.auc(by="group")
    by_string = {row["group"]: row for row in as_string.iter_rows(named=True)}
    for row in got.iter_rows(named=True):
        part = frame.filter(pl.col("group").eq_missing(row["group"])).drop_nulls(["score", "label"])
        positives = part.filter(pl.col("label") == 1)["score"]
        assert (row["n_pos"], row["n_neg"]) == (positives.len(), part.height - positives.len())
        nan = part["score"].is_nan().any()
        assert row["auc"] == (None if nan else _correctly_rounded_auc(part))
        twin = by_string[None if row["group"] is None else str(row["group"])]
        assert (twin["auc"], twin["n_pos"], twin["n_neg"]) == (
            row["auc"],
            row["n_pos"],
            row["n_neg"],
        )


def _weighted_auc(part: pl.DataFrame) -> float | None:
    """``U / (P * N)``, weights as exact rationals (ties count one half), rounded once."""
    kept = part.drop_nulls(["score", "label", "weight"]).filter(pl.col("weight") > 0)
    rows = [(s, Fraction(w), y == 1) for s, y, w in kept.select("score", "label", "weight").rows()]
    pos = [(s, w) for s, w, y in rows if y]
    neg = [(s, w) for s, w, y in rows if not y]
    if not pos or not neg or any(math.isnan(s) for s, _, _ in rows):
        return None
    u = sum(
        wp * wn * (1 if sp > sn else Fraction(1, 2) if sp == sn else 0)
        for sp, wp in pos
        for sn, wn in neg
    )
    return float(u / (sum(w for _, w in pos) * sum(w for _, w in neg)))


@pytest.mark.parametrize("weighted", [False, True], ids=["counts", "weights"])
def test_groups_around_the_paired_size_count_every_pair(*, weighted: bool) -> None:
    # 20 groups of each size from 1 to 12 rows, rows shuffled: every positive must meet every
    # negative of its group, however far apart the sort by key leaves them.
    rng = np.random.default_rng(7)
    sizes = np.repeat(np.arange(1, 13), 20)
    group = np.repeat(np.arange(sizes.size), sizes)
    frame = pl.DataFrame(
        {
            "score": rng.choice([-1.0, 0.0, 0.5, 2.0, math.inf], group.size),
            "label": rng.integers(0, 2, group.size),
            "weight": rng.choice([0.25, 1.0, 3.0], group.size),
            "group": group,
        }
    ).sample(fraction=1.0, shuffle=True, seed=3)
    got = frame.roc.auc(by="group", weight="weight" if weighted else None)
    assert got["group"].to_list() == list(range(sizes.size))
    parts = [frame.filter(pl.col("group") == g) for g in range(sizes.size)]
    if weighted:
        expected = [_weighted_auc(part) for part in parts]
        close = [None if auc is None else pytest.approx(auc, rel=1e-13) for auc in expected]
        assert got["auc"].to_list() == close
    else:
        expected = [_correctly_rounded_auc(part) for part in parts]
        assert got["auc"].to_list() == expected
    assert sum(auc is not None for auc in expected) > 180  # most groups have both classes


@given(
    frame=many_small_groups(),
    data=st.data(),
    scale=st.sampled_from([1.0, 1e200, 1e-200]),
)
def test_small_weighted_integer_groups_sum_their_pairs(
    frame: pl.DataFrame, data: st.DataObject, scale: float
) -> None:
    # Weighted groups of up to 8 rows under one integer key sum their pairs' products of
    # weights, each group scaled by a power of two: weights of 1e200 (products overflow) or
    # 1e-200 (products vanish) must give the AUC of weights near 1, within rounding.
    weights = st.sampled_from([0.0, 0.25, 0.5, 1.0, 3.0]) | st.none()
    column = data.draw(st.lists(weights, min_size=frame.height, max_size=frame.height))
    frame = frame.with_columns(weight=pl.Series(column, dtype=pl.Float64) * scale)
    got = frame.roc.auc(by="group", weight="weight")
    keys = sorted(frame["group"].unique().to_list(), key=lambda g: (g is None, g or 0))
    assert got["group"].to_list() == keys
    in_memory = frame.lazy().roc.auc(by="group", weight="weight").collect(engine="in-memory")
    assert_frame_equal(in_memory, got, check_exact=False, rel_tol=1e-15)  # float sums' order
    as_string = frame.with_columns(pl.col("group").cast(pl.String))
    twins = {
        row["group"]: row
        for row in as_string.roc.auc(by="group", weight="weight").iter_rows(named=True)
    }
    for row in got.iter_rows(named=True):
        twin = twins[None if row["group"] is None else str(row["group"])]
        part = frame.filter(pl.col("group").eq_missing(row["group"]))
        kept = part.drop_nulls(["score", "label", "weight"])
        expected = _weighted_auc(part)
        assert row["auc"] == (None if expected is None else pytest.approx(expected, rel=1e-13))
        assert twin["auc"] == (None if expected is None else pytest.approx(expected, rel=1e-13))
        n_pos = kept.filter(pl.col("label") == 1)["weight"].sum()
        assert row["n_pos"] == pytest.approx(n_pos, rel=1e-15)
        assert row["n_neg"] == pytest.approx(kept["weight"].sum() - n_pos, rel=1e-15)
