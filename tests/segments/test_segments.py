"""Segments: roll-up, cross-AUC, bias AUCs and disparity against independent oracles.

Oracles: brute-force pairwise counts (pooled, within, cross, subgroup, BPSN, BNSP); the
DeLong variance from its textbook structural components in numpy; the inverse-variance mean
and Cochran's Q by their formulas with scipy's chi-square; scipy's Student t for the
unpaired DeLong test; pROC's published unpaired ``roc.test`` values on aSAH.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from polars.exceptions import ColumnNotFoundError
from polars.testing import assert_frame_equal
from scipy import stats
from sklearn.metrics import brier_score_loss, roc_auc_score

import polars_roc as pr
from tests.conftest import DATA, repeat_rows

POOL = [0.0, 0.25, 0.5, 0.75, 1.0]


@st.composite
def segmented_rows(draw: st.DrawFn, *, weighted: bool = False, max_size: int = 40) -> pl.DataFrame:
    """``model, segment, score, label`` (+ integer ``weight``) rows; tied scores likely."""
    n = draw(st.integers(0, max_size))

    def column(values: st.SearchStrategy) -> list:
        return draw(st.lists(values, min_size=n, max_size=n))

    data = {
        "model": column(st.sampled_from(["a", "b"])),
        "segment": column(st.integers(0, 3)),
        "score": column(st.sampled_from(POOL)),
        "label": column(st.booleans()),
    }
    schema = {"model": pl.String, "segment": pl.Int64, "score": pl.Float64, "label": pl.Boolean}
    if weighted:
        data["weight"] = [float(w) for w in column(st.integers(0, 3))]
        schema["weight"] = pl.Float64
    return pl.DataFrame(data, schema=schema)


# -- oracles --------------------------------------------------------------------------------


def pair_sum(pos: np.ndarray, neg: np.ndarray, wp=None, wn=None) -> float:
    """Σ over (positive, negative) pairs of w_p w_n (1[s_p > s_n] + 1/2 1[s_p = s_n])."""
    wp = np.ones(len(pos)) if wp is None else wp
    wn = np.ones(len(neg)) if wn is None else wn
    total = 0.0
    for s, w in zip(pos, wp, strict=True):
        total += w * (wn[neg < s].sum() + wn[neg == s].sum() / 2)
    return total


def classes(frame: pl.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Scores and weights of the positives and of the negatives (weight 0 dropped)."""
    w = frame["weight"].to_numpy() if "weight" in frame.columns else np.ones(frame.height)
    s, y = frame["score"].to_numpy(), frame["label"].to_numpy().astype(bool)
    keep = w > 0
    return s[y & keep], s[~y & keep], w[y & keep], w[~y & keep]


def textbook_delong(pos: np.ndarray, neg: np.ndarray) -> tuple[float, float] | None:
    """AUC and DeLong variance from the structural components V10, V01 (ddof 1)."""
    m, n = len(pos), len(neg)
    if m < 2 or n < 2:
        return None
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    return float(psi.mean()), float(v10.var(ddof=1) / m + v01.var(ddof=1) / n)


def rollup_oracle(frame: pl.DataFrame, level: float = 0.95) -> dict:
    pos, neg, wp, wn = classes(frame)
    pooled = pair_sum(pos, neg, wp, wn) / (wp.sum() * wn.sum()) if len(pos) and len(neg) else None
    u_total, pairs, aucs, variances = 0.0, 0.0, [], []
    for _, part in frame.group_by("segment"):
        p, n, a, b = classes(part)
        u_total += pair_sum(p, n, a, b)
        pairs += a.sum() * b.sum()
        found = textbook_delong(p, n)
        if found is not None and found[1] > 0:
            aucs.append(found[0])
            variances.append(found[1])
    within = u_total / pairs if pairs else None
    out = {"pooled_auc": pooled, "within_auc": within, "n_segments": len(aucs)}
    k = len(aucs)
    if k < 2:
        return out | dict.fromkeys(["mean_auc", "ivw_auc", "ivw_lower", "q", "q_p_value", "i2"])
    a, w = np.array(aucs), 1 / np.array(variances)
    ivw = float((w * a).sum() / w.sum())
    q = float((w * (a - ivw) ** 2).sum())
    z = stats.norm.ppf((1 + level) / 2)
    return out | {
        "mean_auc": float(a.mean()),
        "ivw_auc": ivw,
        "ivw_lower": max(0.0, ivw - z / math.sqrt(w.sum())),
        "q": q,
        "q_p_value": float(stats.chi2.sf(q, k - 1)),
        "i2": max(0.0, (q - (k - 1)) / q) if q > 0 else 0.0,
    }


def close(got: float | None, want: float | None, rel: float = 1e-9) -> bool:
    if want is None:
        return got is None
    return got is not None and got == pytest.approx(want, rel=rel, abs=1e-12)


# -- roll-up --------------------------------------------------------------------------------


@given(frame=segmented_rows())
@example(
    frame=pl.DataFrame(
        {
            "model": ["a"] * 4,
            "segment": [0, 0, 1, 1],
            "score": [1.0, 0.0] * 2,
            "label": [True, False] * 2,
        }
    )
)
def test_rollup_matches_pairwise_counts_and_textbook_meta_analysis(frame: pl.DataFrame) -> None:
    got = frame.roc.rollup(segment="segment", by="model")
    assert got.columns[:12] == ["model", *pr.segments.ROLLUP_COLUMNS]
    assert got["model"].to_list() == sorted(frame["model"].unique().to_list())
    for row in got.iter_rows(named=True):
        want = rollup_oracle(frame.filter(pl.col("model") == row["model"]))
        for name, value in want.items():
            assert close(row[name], value), (name, row[name], value)
        if want["pooled_auc"] is not None and want["within_auc"] is not None:
            assert row["between"] == pytest.approx(want["pooled_auc"] - want["within_auc"])


def test_rollup_null_keys_masked_rows_and_signed_zeros_match_the_oracle() -> None:
    # The sorted route: two `by` keys (one null), null segments, rows that do not count
    # (null score or label) inside groups and segments, and -0.0 tied with 0.0.
    rng = np.random.default_rng(5)
    n = 400
    pick = lambda values: [values[i] for i in rng.integers(0, len(values), n)]  # noqa: E731
    frame = pl.DataFrame(
        {
            "m": pick(["x", "y", None]),
            "k": pick([1, 2]),
            "segment": pick(["a", "b", "c", None]),
            "score": pick([-0.0, 0.0, 0.5, 1.0, 0.25, None]),
            "label": pick([True, False, False, None]),
        },
        schema={
            "m": pl.String,
            "k": pl.Int64,
            "segment": pl.String,
            "score": pl.Float64,
            "label": pl.Boolean,
        },
    )
    got = frame.roc.rollup(segment="segment", by=["m", "k"])
    assert got.height == 6
    for row in got.iter_rows(named=True):
        part = frame.filter(pl.col("m").eq_missing(row["m"]) & (pl.col("k") == row["k"]))
        want = rollup_oracle(part.drop_nulls(["score", "label"]))
        for name, value in want.items():
            assert close(row[name], value), (name, row[name], value)


def test_rollup_recovers_base_rate_confounding() -> None:
    # Within each segment the score is noise; segments differ in base rate and score level.
    rng = np.random.default_rng(7)
    n = 20_000
    segment = rng.integers(0, 10, n)
    rate = 0.05 + 0.08 * segment
    label = rng.random(n) < rate
    score = segment + rng.normal(size=n)
    frame = pl.DataFrame({"segment": segment, "score": score, "label": label})
    got = frame.roc.rollup(segment="segment").row(0, named=True)
    assert got["pooled_auc"] > 0.65
    assert abs(got["within_auc"] - 0.5) < 0.02
    assert got["between"] == pytest.approx(got["pooled_auc"] - got["within_auc"])
    assert got["n_segments"] == 10
    assert got["q_p_value"] > 0.001  # homogeneous: every segment AUC is 0.5


@given(frame=segmented_rows(weighted=True, max_size=25))
def test_rollup_weights_are_repeated_rows(frame: pl.DataFrame) -> None:
    weighted = frame.roc.rollup(segment="segment", by="model", weight="weight")
    repeated = repeat_rows(frame).roc.rollup(segment="segment", by="model")
    on = repeated["model"].to_list()
    weighted = weighted.filter(pl.col("model").is_in(on))
    for a, b in zip(weighted.iter_rows(named=True), repeated.iter_rows(named=True), strict=True):
        for name in pr.segments.ROLLUP_COLUMNS:
            assert close(a[name], b[name], rel=1e-9), name


def test_rollup_one_segment_and_undefined_segments_give_nulls_with_counts() -> None:
    frame = pl.DataFrame(
        {
            "segment": ["x"] * 4 + ["y"] * 2 + ["z"] * 3,
            "score": [0.9, 0.2, 0.8, 0.3, 0.15, 0.6, 0.7, 0.1, 0.4],
            "label": [1, 0, 1, 0, 1, 1, 1, 0, 0],  # y: positives only; z: one positive
        }
    )
    row = frame.roc.rollup(segment="segment").row(0, named=True)
    assert row["n_segments"] == 0  # x is perfectly separated: zero variance
    assert row["ivw_auc"] is None
    assert row["q"] is None
    assert row["mean_auc"] is None
    assert row["pooled_auc"] is not None
    assert row["within_auc"] is not None
    one = frame.with_columns(segment=pl.lit("all")).roc.rollup(segment="segment")
    assert one["n_segments"].item() == 1
    assert one["pooled_auc"].item() == one["within_auc"].item()
    assert one["between"].item() == 0.0


def test_rollup_nan_propagates_and_omits() -> None:
    frame = pl.DataFrame(
        {
            "segment": [0, 0, 0, 1, 1, 1],
            "score": [0.9, float("nan"), 0.2, 0.8, 0.1, 0.5],
            "label": [1, 0, 0, 1, 0, 1],
        }
    )
    row = frame.roc.rollup(segment="segment").row(0, named=True)
    assert row["pooled_auc"] is None
    assert row["within_auc"] is None
    omitted = frame.roc.rollup(segment="segment", nan_policy="omit").row(0, named=True)
    dropped = frame.filter(pl.col("score").is_not_nan()).roc.rollup(segment="segment")
    assert omitted == dropped.row(0, named=True)


# -- cross AUC and bias AUCs ----------------------------------------------------------------


@pytest.mark.parametrize("weighted", [False, True], ids=["counts", "weights"])
@given(data=st.data())
def test_cross_auc_is_the_pairwise_matrix(data: st.DataObject, *, weighted: bool) -> None:
    frame = data.draw(segmented_rows(weighted=weighted))
    if not weighted:
        frame = frame.with_columns(weight=pl.lit(1.0))
    got = frame.roc.cross_auc(segment="segment", by="model", weight="weight" if weighted else None)
    assert got.columns == ["model", "segment_pos", "segment_neg", "auc", "n_pos", "n_neg"]
    kept = frame.filter(pl.col("weight") > 0)
    expected_pairs = 0
    for (model,), rows in kept.group_by("model"):
        k = rows["segment"].n_unique()
        expected_pairs += k * k
        for row in got.filter(pl.col("model") == model).iter_rows(named=True):
            a = rows.filter(pl.col("segment") == row["segment_pos"])
            b = rows.filter(pl.col("segment") == row["segment_neg"])
            pos, _, wp, _ = classes(a)
            _, neg, _, wn = classes(b)
            assert row["n_pos"] == pytest.approx(wp.sum())
            assert row["n_neg"] == pytest.approx(wn.sum())
            want = (
                pair_sum(pos, neg, wp, wn) / (wp.sum() * wn.sum()) if wp.sum() * wn.sum() else None
            )
            assert close(row["auc"], want), row
    assert got.height == expected_pairs


@given(frame=segmented_rows(weighted=True))
def test_bias_auc_matches_pairwise_subgroup_bpsn_bnsp(frame: pl.DataFrame) -> None:
    got = frame.roc.bias_auc(segment="segment", by="model", weight="weight")
    assert got.columns == [
        "model",
        "segment",
        "subgroup_auc",
        "bpsn_auc",
        "bnsp_auc",
        "n_pos",
        "n_neg",
    ]
    for row in got.iter_rows(named=True):
        rows = frame.filter(pl.col("model") == row["model"])
        inside = rows.filter(pl.col("segment") == row["segment"])
        outside = rows.filter(pl.col("segment") != row["segment"])
        pin, nin, wpin, wnin = classes(inside)
        pout, nout, wpout, wnout = classes(outside)

        def auc(p, n, a, b):
            return pair_sum(p, n, a, b) / (a.sum() * b.sum()) if a.sum() * b.sum() else None

        assert close(row["subgroup_auc"], auc(pin, nin, wpin, wnin))
        assert close(row["bpsn_auc"], auc(pout, nin, wpout, wnin))
        assert close(row["bnsp_auc"], auc(pin, nout, wpin, wnout))


def test_cross_auc_null_keys_and_signed_zeros_match_pairwise_counts() -> None:
    # The merged route: two `by` keys (one null), null segments, -0.0 tied with 0.0, a
    # segment without negatives and one without positives.
    rng = np.random.default_rng(11)
    n = 300
    pick = lambda values: [values[i] for i in rng.integers(0, len(values), n)]  # noqa: E731
    frame = pl.DataFrame(
        {
            "m": pick(["x", None]),
            "k": pick([1, 2]),
            "segment": pick(["a", "b", None]),
            "score": pick([-0.0, 0.0, 0.5, 1.0, 0.25]),
            "label": pick([True, False]),
        },
        schema_overrides={"m": pl.String, "segment": pl.String, "score": pl.Float64},
    )
    extra = pl.DataFrame(
        {"m": ["x", "x"], "k": [1, 1], "segment": ["p", "q"], "score": [0.3, 0.6]}
    ).with_columns(label=pl.Series([True, False]))
    frame = pl.concat([frame, extra])
    got = frame.roc.cross_auc(segment="segment", by=["m", "k"])
    expected_pairs = 0
    for (m, k), rows in frame.group_by("m", "k"):
        expected_pairs += rows["segment"].n_unique() ** 2
        mine = got.filter(pl.col("m").eq_missing(m) & (pl.col("k") == k))
        for row in mine.iter_rows(named=True):
            a = rows.filter(pl.col("segment").eq_missing(row["segment_pos"]))
            b = rows.filter(pl.col("segment").eq_missing(row["segment_neg"]))
            pos, neg = classes(a)[0], classes(b)[1]
            assert (row["n_pos"], row["n_neg"]) == (len(pos), len(neg))
            want = pair_sum(pos, neg) / (len(pos) * len(neg)) if len(pos) * len(neg) else None
            assert close(row["auc"], want), row
    assert got.height == expected_pairs


def test_cross_auc_diagonal_is_each_segment_auc_and_rebuilds_the_pooled_auc() -> None:
    df = pr.datasets.simulate(3000, seed=5).with_columns(region=pl.int_range(pl.len()) % 7)
    cross = df.roc.cross_auc(segment="region", by="model")
    diagonal = cross.filter(pl.col("segment_pos") == pl.col("segment_neg"))
    own = df.roc.auc(by=["model", "region"])
    assert diagonal["auc"].to_list() == pytest.approx(own["auc"].to_list(), rel=1e-12)
    pairs = pl.col("auc") * pl.col("n_pos") * pl.col("n_neg")
    rebuilt = cross.group_by("model").agg(u=pairs.sum()).sort("model")
    pooled = df.roc.auc(by="model")
    totals = pooled["n_pos"] * pooled["n_neg"]
    assert (rebuilt["u"] / totals).to_list() == pytest.approx(pooled["auc"].to_list(), rel=1e-12)


# -- one query, every engine; grouped == one group at a time --------------------------------


@pytest.mark.parametrize("weight", [None, "weight"])
@pytest.mark.parametrize("method", ["rollup", "cross_auc", "bias_auc", "disparity"])
def test_lazy_eager_streaming_and_grouped_agree(method: str, weight: str | None) -> None:
    df = pr.datasets.simulate(1500, seed=11).with_columns(region=pl.int_range(pl.len()) % 4)
    kwargs = {"segment": "region", "by": "model", "weight": weight}
    eager = getattr(df.roc, method)(**kwargs)
    query = getattr(df.lazy().roc, method)(**kwargs)
    assert isinstance(query, pl.LazyFrame)
    # Unweighted: the same bits; weighted sums of floats may add in another order.
    # disparity's DeLong variances are Polars `var` aggregations, whose partial sums may
    # combine in another order from run to run: equal to rounding, not always to the bit.
    exact = weight is None and method != "disparity"
    same = {"check_exact": exact, "rel_tol": 1e-12, "abs_tol": 1e-15}
    assert_frame_equal(query.collect(), eager, **same)
    assert_frame_equal(query.collect(engine="streaming"), eager, **same)
    for (model,), part in df.group_by("model"):
        one = getattr(part.roc, method)(segment="region", weight=weight)
        mine = eager.filter(pl.col("model") == model).drop("model")
        assert_frame_equal(one, mine, **same)  # Holm: each model is its own family


def test_direction_lower_is_the_negated_score() -> None:
    df = pr.datasets.simulate(800, seed=2).with_columns(region=pl.int_range(pl.len()) % 3)
    flipped = df.with_columns(-pl.col("score"))
    for method in ("rollup", "cross_auc", "bias_auc", "disparity"):
        a = getattr(df.roc, method)(segment="region", by="model", direction="lower")
        b = getattr(flipped.roc, method)(segment="region", by="model")
        # disparity spreads rows over segments with a join whose row order may vary from
        # run to run: its DeLong sums equal to rounding, not always to the bit.
        exact = method != "disparity"
        assert_frame_equal(a, b, check_exact=exact, rel_tol=1e-12, abs_tol=1e-15)


# -- disparity ------------------------------------------------------------------------------

PROC_UNPAIRED = {  # roc.test(r1, r2, paired = FALSE) on aSAH (pROC), D and p-value
    ("s100b", "wfns"): (-1.43490640926908, 0.152825378808796),
    ("ndka", "wfns"): (-3.10125096778969, 0.00220950791756457),
    ("ndka", "s100b"): (-1.55995743389685, 0.120192832430845),
}


@pytest.mark.parametrize("pair", sorted(PROC_UNPAIRED))
def test_disparity_against_the_rest_is_procs_unpaired_delong_test(pair: tuple[str, str]) -> None:
    wide = pl.read_csv(DATA / "aSAH.csv")
    frame = wide.unpivot(index="outcome", on=list(pair), variable_name="marker", value_name="score")
    frame = frame.with_columns(pl.col("score").cast(pl.Float64))
    got = frame.roc.disparity(
        label="outcome", pos_label="Poor", segment="marker", adjust=None
    ).filter(pl.col("segment") == pair[0])
    row = got.row(0, named=True)
    _, p = PROC_UNPAIRED[pair]
    assert row["p_value"] == pytest.approx(p, rel=1e-8)
    assert row["p_adjusted"] == row["p_value"]


@given(frame=segmented_rows(max_size=40))
def test_disparity_auc_is_a_welch_t_on_textbook_delong_variances(frame: pl.DataFrame) -> None:
    got = frame.roc.disparity(segment="segment", by="model", adjust=None, level=0.9)
    for row in got.iter_rows(named=True):
        rows = frame.filter(pl.col("model") == row["model"])
        inside = rows.filter(pl.col("segment") == row["segment"])
        outside = rows.filter(pl.col("segment") != row["segment"])
        a, b = classes(inside)[:2], classes(outside)[:2]
        value = pair_sum(*a) / (len(a[0]) * len(a[1])) if len(a[0]) * len(a[1]) else None
        ref = pair_sum(*b) / (len(b[0]) * len(b[1])) if len(b[0]) * len(b[1]) else None
        assert close(row["estimate"], value)
        assert close(row["reference_estimate"], ref)
        da, db = textbook_delong(*a), textbook_delong(*b)
        if da is None or db is None or da[1] + db[1] == 0:
            assert row["p_value"] is None
            continue
        va, vb = da[1], db[1]
        sd = math.sqrt(va + vb)
        n_a, n_b = sum(map(len, a)), sum(map(len, b))
        dof = (va + vb) ** 2 / (va**2 / (n_a - 1) + vb**2 / (n_b - 1))
        t = (value - ref) / sd
        assert row["p_value"] == pytest.approx(2 * stats.t.sf(abs(t), dof), rel=1e-7, abs=1e-12)
        margin = stats.t.ppf(0.95, dof) * sd
        assert row["diff_lower"] == pytest.approx(max(-1.0, value - ref - margin), abs=1e-9)


def holm(p: list[float]) -> list[float]:
    order = np.argsort(p)
    m, out, running = len(p), [0.0] * len(p), 0.0
    for i, j in enumerate(order):
        running = max(running, min(1.0, (m - i) * p[j]))
        out[j] = running
    return out


def test_disparity_adjusts_within_each_group_and_metric() -> None:
    df = pr.datasets.simulate(2000, seed=8).with_columns(region=pl.int_range(pl.len()) % 5)
    got = df.roc.disparity(segment="region", by="model")
    for (_model,), part in got.group_by("model"):
        p = part["p_value"].to_list()
        assert part["p_adjusted"].to_list() == pytest.approx(holm(p), rel=1e-12)
    bonf = df.roc.disparity(segment="region", by="model", adjust="bonferroni")
    assert (bonf["p_adjusted"] == (bonf["p_value"] * 5).clip(upper_bound=1.0)).all()


def test_disparity_bootstrap_metrics_value_and_a_real_gap() -> None:
    rng = np.random.default_rng(3)
    n = 3000
    region = rng.integers(0, 3, n)
    label = rng.random(n) < 0.3
    noise = np.where(region == 2, 3.0, 0.7)  # region 2 ranks far worse
    score = 1 / (1 + np.exp(-(label * 1.5 - 0.75 + rng.normal(size=n) * noise)))
    df = pl.DataFrame({"region": region, "score": score, "label": label})
    metrics = {"auc": pr.auc("score", "label"), "brier": pr.brier_score("score", "label")}
    got = df.roc.disparity(segment="region", metrics=metrics, n_boot=300, seed=1)
    assert got["metric"].to_list() == ["auc", "brier"] * 3
    for row in got.iter_rows(named=True):
        inside = df.filter(pl.col("region") == row["segment"])
        rest = df.filter(pl.col("region") != row["segment"])
        if row["metric"] == "auc":
            want = roc_auc_score(inside["label"], inside["score"])
            ref = roc_auc_score(rest["label"], rest["score"])
        else:
            want = brier_score_loss(inside["label"], inside["score"])
            ref = brier_score_loss(rest["label"], rest["score"])
        assert row["estimate"] == pytest.approx(want, rel=1e-12)
        assert row["reference_estimate"] == pytest.approx(ref, rel=1e-12)
        assert row["ratio"] == pytest.approx(want / ref, rel=1e-12)
        assert row["diff_lower"] < row["diff"] < row["diff_upper"]
    worst = got.filter((pl.col("segment") == 2) & (pl.col("metric") == "auc")).row(0, named=True)
    assert worst["diff"] < -0.1
    assert worst["p_adjusted"] < 1e-6
    overall = df.roc.disparity(segment="region", reference="overall").row(0, named=True)
    assert overall["reference_estimate"] == pytest.approx(roc_auc_score(df["label"], df["score"]))


# -- bad input ------------------------------------------------------------------------------

FRAME = pl.DataFrame(
    {"g": ["a", "a", "b", "b"], "score": [0.9, 0.1, 0.8, 0.3], "label": [1, 0, 1, 0]}
)


@pytest.mark.parametrize("method", ["rollup", "cross_auc", "bias_auc", "disparity"])
def test_bad_segment_arguments_name_the_column(method: str) -> None:
    call = getattr(FRAME.roc, method)
    with pytest.raises(ColumnNotFoundError, match="segment column 'region' not found"):
        call(segment="region")
    with pytest.raises(ValueError, match="segment column 'g' is also a `by` column"):
        call(segment="g", by="g")
    with pytest.raises(ValueError, match="segment column 'score' is already the score column"):
        call(segment="score")
    with pytest.raises(ColumnNotFoundError, match="segment column 'region' not found"):
        getattr(FRAME.lazy().roc, method)(segment="region")  # at call time, from the schema


def test_bad_disparity_arguments() -> None:
    with pytest.raises(ValueError, match="reference must be 'rest' or 'overall'"):
        FRAME.roc.disparity(segment="g", reference="others")
    with pytest.raises(ValueError, match="metrics must be None"):
        FRAME.roc.disparity(segment="g", metrics={"auc": 0.5})
    with pytest.raises(ValueError, match="adjust must be one of"):
        FRAME.roc.disparity(segment="g", adjust="sidak")


def test_output_names_do_not_collide_with_user_columns() -> None:
    frame = FRAME.rename({"g": "segment_pos"}).with_columns(auc=pl.col("score"))
    got = frame.roc.cross_auc("auc", segment="segment_pos")
    assert got.columns == ["segment_pos", "segment_neg", "auc", "n_pos", "n_neg"]
    assert got["auc"].to_list() == [1.0, 1.0, 1.0, 1.0]


def test_thousands_of_segments_stay_one_query() -> None:
    rng = np.random.default_rng(0)
    n = 60_000
    df = pl.DataFrame(
        {"segment": rng.integers(0, 3000, n), "score": rng.random(n), "label": rng.random(n) < 0.4}
    )
    roll = df.roc.rollup(segment="segment")
    assert 2900 < roll["n_segments"].item() <= 3000
    assert df.roc.bias_auc(segment="segment").height == df["segment"].n_unique()
