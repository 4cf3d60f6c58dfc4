"""Over time: windows, per-window metrics and intervals, bands, PSI, KS, estimated AUC.

Every number against an independent oracle: group_by_dynamic for the windows, df.roc.auc /
df.roc.bootstrap on each window filtered out by hand, scikit-learn per window, numpy for the
reference band, a hand-written PSI, scipy's ks_2samp, and simulated label draws.
"""

from __future__ import annotations

import datetime as dt
import math

import numpy as np
import polars as pl
import pytest
from polars.exceptions import SchemaError
from scipy import stats
from sklearn.metrics import roc_auc_score

import polars_roc as pr
from tests.conftest import pairwise_auc


def drifting(n: int = 2400, seed: int = 0, *, months: int = 12) -> pl.DataFrame:
    """Scored rows over `months` months in two segments; segment 'b' degrades from month 9."""
    rng = np.random.default_rng(seed)
    month = rng.integers(1, months + 1, n)
    segment = rng.choice(["a", "b"], n)
    day = rng.integers(1, 28, n)
    y = rng.random(n) < 0.3
    shift = np.where((segment == "b") & (month >= 9), 0.2, 1.5)
    score = 1 / (1 + np.exp(-(rng.normal(size=n) + shift * y - 1)))
    return pl.DataFrame(
        {
            "t": [dt.datetime(2024, int(m), int(d), 12) for m, d in zip(month, day, strict=True)],
            "segment": segment,
            "score": score,
            "label": y,
        }
    )


def window_oracle(df: pl.DataFrame, every: str, period: str | None = None) -> pl.DataFrame:
    """(segment, window_start, window_end, row id) from group_by_dynamic itself."""
    return (
        df.with_row_index("id")
        .sort("segment", "t")
        .group_by_dynamic(
            "t", every=every, period=period, group_by="segment", include_boundaries=True
        )
        .agg("id")
        .explode("id")
        .select("segment", "_lower_boundary", "_upper_boundary", "id")
        .sort("id", "_lower_boundary")
    )


@pytest.mark.parametrize(
    ("dtype", "every", "period"),
    [
        (pl.Datetime("us"), "1mo", None),
        (pl.Datetime("ns", "Europe/Berlin"), "1mo", None),
        (pl.Datetime("ms", "America/New_York"), "1w", None),
        (pl.Datetime("us", "Europe/Berlin"), "1d", None),
        (pl.Date(), "1mo", None),
        (pl.Date(), "1q", None),
        (pl.Datetime("us"), "1mo", "3mo"),
        (pl.Datetime("us", "Asia/Kolkata"), "2w", "6w"),
    ],
)
def test_windows_are_group_by_dynamics(dtype: pl.DataType, every: str, period: str | None) -> None:
    df = drifting(600, seed=1).with_columns(pl.col("t").cast(dtype))
    if isinstance(dtype, pl.Datetime) and dtype.time_zone:
        df = df.with_columns(
            pl.col("t").dt.replace_time_zone(dtype.time_zone, ambiguous="earliest")
        )
    got = (
        pr.monitoring.windows(
            df.with_row_index("id"), "t", every=every, period=period, by="segment"
        )
        .select("segment", "window_start", "window_end", "id")
        .sort("id", "window_start")
    )
    want = window_oracle(df, every, period)
    if dtype == pl.Date():  # group_by_dynamic's bounds of a Date index are Datetime
        want = want.with_columns(pl.col("_lower_boundary", "_upper_boundary").cast(pl.Date))
    assert got.rows() == want.rows()


def test_integer_windows_floor_negative_times() -> None:
    df = pl.DataFrame({"t": [-7, -3, 0, 4, 12, 25], "x": range(6)})
    got = pr.monitoring.windows(df, "t", every="10i")
    want = df.group_by_dynamic("t", every="10i", include_boundaries=True).agg("x").explode("x")
    assert got["window_start"].to_list() == want["_lower_boundary"].to_list()
    assert got["window_end"].to_list() == want["_upper_boundary"].to_list()
    assert pr.monitoring.windows(df, "t", every=10)["window_start"].to_list() == [
        -10,
        -10,
        0,
        0,
        10,
        20,
    ]


def windows_of(df: pl.DataFrame) -> list[tuple[str, dt.datetime]]:
    months = df.select("segment", pl.col("t").dt.truncate("1mo").alias("w")).unique()
    return sorted(months.rows())


@pytest.mark.parametrize("ci", [None, "delong"])
def test_each_window_is_auc_of_the_filtered_rows(ci: str | None) -> None:
    df = drifting()
    out = df.roc.over_time(time="t", every="1mo", by="segment", ci=ci)
    assert out.columns == [
        "segment",
        "window_start",
        "window_end",
        "metric",
        "estimate",
        "lower",
        "upper",
        "n",
        "n_pos",
        "ref_mean",
        "ref_lower",
        "ref_upper",
        "alert",
    ]
    assert out.height == len(windows_of(df)) == 24
    for segment, start in windows_of(df):
        part = df.filter(pl.col("segment") == segment, pl.col("t").dt.truncate("1mo") == start)
        want = part.roc.auc(ci=ci)
        row = out.filter(pl.col("segment") == segment, pl.col("window_start") == start)
        assert row["estimate"].item() == want["auc"].item()
        assert row["estimate"].item() == pytest.approx(
            roc_auc_score(part["label"], part["score"]), abs=1e-12
        )
        assert row["n"].item() == part.height
        assert row["n_pos"].item() == part["label"].sum()
        if ci == "delong":
            # the variance sums run in another order over many groups: equal to the last bit or two
            assert row["lower"].item() == pytest.approx(want["auc_lower"].item(), rel=1e-13)
            assert row["upper"].item() == pytest.approx(want["auc_upper"].item(), rel=1e-13)
        else:
            assert row["lower"].item() is None


def test_bootstrap_windows_are_df_roc_bootstrap_per_window() -> None:
    df = drifting(900, seed=4, months=4)
    metrics = {"auc": pr.auc("score", "label"), "brier": pr.brier_score("score", "label")}
    out = df.roc.over_time(
        time="t", every="1mo", by="segment", metrics=metrics, ci="bootstrap", n_boot=200, seed=7
    )
    assert out["metric"].to_list()[:2] == ["auc", "brier"]
    for segment, start in windows_of(df):
        part = df.filter(pl.col("segment") == segment, pl.col("t").dt.truncate("1mo") == start)
        want = part.with_columns(window_start=pl.lit(start)).roc.bootstrap(
            metrics, by=["segment", "window_start"], n_boot=200, seed=7
        )
        got = out.filter(pl.col("segment") == segment, pl.col("window_start") == start)
        assert (
            got.select("metric", "estimate", "lower", "upper").rows()
            == want.select("metric", "estimate", "lower", "upper").rows()
        )
        brier = float(np.mean((part["score"].to_numpy() - part["label"].to_numpy()) ** 2))
        assert got.filter(pl.col("metric") == "brier")["estimate"].item() == pytest.approx(brier)


def test_custom_metrics_without_intervals_against_sklearn() -> None:
    df = drifting(800, seed=2, months=3)
    metrics = {"gini": pr.gini("score", "label"), "auc": pr.auc("score", "label")}
    out = df.roc.over_time(time="t", every="1mo", metrics=metrics)
    assert out["metric"].to_list() == ["gini", "auc"] * 3
    for start in out["window_start"].unique().to_list():
        part = df.filter(pl.col("t").dt.truncate("1mo") == start)
        auc = roc_auc_score(part["label"], part["score"])
        got = dict(out.filter(pl.col("window_start") == start).select("metric", "estimate").rows())
        assert got["auc"] == pytest.approx(auc)
        assert got["gini"] == pytest.approx(2 * auc - 1)


def test_reference_band_and_alerts_against_numpy() -> None:
    df = drifting()
    ref = (dt.date(2024, 1, 1), dt.date(2024, 6, 30))
    out = df.roc.over_time(time="t", every="1mo", by="segment", reference=ref, k=2.0)
    for segment in ["a", "b"]:
        rows = out.filter(pl.col("segment") == segment).sort("window_start")
        months = rows["window_start"].dt.month().to_numpy()
        estimate = rows["estimate"].to_numpy()
        in_ref = months <= 6
        mean, sd = estimate[in_ref].mean(), estimate[in_ref].std(ddof=1)
        assert rows["ref_mean"].to_numpy() == pytest.approx(np.full(12, mean))
        assert rows["ref_lower"].to_numpy() == pytest.approx(np.full(12, mean - 2 * sd))
        assert rows["ref_upper"].to_numpy() == pytest.approx(np.full(12, mean + 2 * sd))
        outside = (estimate < mean - 2 * sd) | (estimate > mean + 2 * sd)
        assert rows["alert"].to_list() == [
            bool(o) and not r for o, r in zip(outside, in_ref, strict=True)
        ]
    # the simulated drift: segment b after month 9 alerts, segment a does not
    late = out.filter(pl.col("window_start").dt.month() >= 9, pl.col("segment") == "b")
    assert late["alert"].all()


def test_reference_as_expression_is_all_rows_of_the_window() -> None:
    df = drifting(1200, seed=3)
    by_pair = df.roc.over_time(time="t", every="1mo", reference=("2024-01-01", "2024-03-31"))
    by_expr = df.roc.over_time(
        time="t", every="1mo", reference=pl.col("t") < dt.datetime(2024, 4, 1)
    )
    assert by_pair.equals(by_expr)
    assert by_pair["alert"].head(3).to_list() == [False, False, False]
    none = df.roc.over_time(time="t", every="1mo")
    assert none["ref_mean"].null_count() == none.height == none["alert"].null_count()


def test_one_class_window_gives_null_metrics_with_counts() -> None:
    df = pl.DataFrame(
        {
            "t": [1, 1, 1, 2, 2, 3, 3],
            "score": [0.1, 0.9, 0.5, 0.3, 0.4, 0.2, 0.8],
            "label": [0, 1, 0, 0, 0, 1, 0],
        }
    )
    for ci in (None, "delong", "bootstrap"):
        out = df.roc.over_time(time="t", every="1i", ci=ci, n_boot=50, reference=(1, 1))
        row = out.filter(pl.col("window_start") == 2)
        assert row.select("estimate", "lower", "upper").row(0) == (None, None, None)
        assert row.select("n", "n_pos").row(0) == (2, 0)
        assert row["alert"].item() is None


def test_lazy_eager_and_streaming_agree() -> None:
    df = drifting(1500, seed=5)
    kwargs = {
        "time": "t",
        "every": "1mo",
        "by": "segment",
        "reference": ("2024-01-01", "2024-04-30"),
    }
    eager = df.roc.over_time(ci="delong", **kwargs)
    lazy = df.lazy().roc.over_time(ci="delong", **kwargs)
    assert isinstance(lazy, pl.LazyFrame)
    assert lazy.collect().equals(eager)
    assert lazy.collect(engine="streaming").equals(eager)
    stab = df.lazy().roc.score_stability(
        "score", time="t", every="1mo", reference=kwargs["reference"]
    )
    assert isinstance(stab, pl.LazyFrame)
    assert stab.collect(engine="streaming").equals(stab.collect())
    boot = df.lazy().roc.over_time(ci="bootstrap", n_boot=30, time="t", every="3mo", by="segment")
    assert boot.collect(engine="streaming").equals(boot.collect())


def test_overlapping_windows_and_zoned_dates() -> None:
    df = drifting(1200, seed=6).with_columns(pl.col("t").dt.replace_time_zone("Europe/Berlin"))
    out = df.roc.over_time(
        time="t", every="1mo", period="3mo", reference=("2024-01-01", "2024-03-31")
    )
    oracle = window_oracle(df.with_columns(segment=pl.lit("x")), "1mo", "3mo")
    starts = oracle["_lower_boundary"].unique().sort()
    assert out["window_start"].to_list() == starts.to_list()
    for start in starts.to_list()[:3]:
        ids = oracle.filter(pl.col("_lower_boundary") == start)["id"]
        part = df[ids.to_list()]
        assert out.filter(pl.col("window_start") == start)["estimate"].item() == pytest.approx(
            roc_auc_score(part["label"], part["score"])
        )
    assert out["alert"].head(1).to_list() == [False]  # Jan-Mar lies in the reference


def hand_psi(expected: np.ndarray, actual: np.ndarray, bins: int) -> float:
    """PSI written out: quantile edges, right-closed bins, a zero share as 0.0001."""
    edges = np.quantile(expected, [i / bins for i in range(1, bins)])
    e = np.diff(np.r_[0, [np.mean(expected <= q) for q in edges], 1])
    a = np.diff(np.r_[0, [np.mean(actual <= q) for q in edges], 1])
    e, a = np.where(e == 0, 1e-4, e), np.where(a == 0, 1e-4, a)
    return float(np.sum((a - e) * np.log(a / e)))


def test_psi_by_hand() -> None:
    # reference 1..8: quartile edges 2.75, 4.5, 6.25 -> shares 1/4 each; the others
    # [1, 2, 3, 9, 9, 9, 9, 9]: 2/8, 1/8, 0 (counted 0.0001), 5/8.
    df = pl.DataFrame(
        {"s": [*range(1, 9), 1, 2, 3, 9, 9, 9, 9, 9], "ref": [True] * 8 + [False] * 8}
    )
    terms = [(0.25 - 0.25) * 0, (0.125 - 0.25) * math.log(0.5), (1e-4 - 0.25) * math.log(4e-4)]
    terms.append((0.625 - 0.25) * math.log(2.5))
    got = df.select(pr.psi("s", reference=pl.col("ref"), bins=4)).item()
    assert got == pytest.approx(sum(terms), rel=1e-12)
    rng = np.random.default_rng(0)
    exp, act = rng.normal(size=500), rng.normal(0.3, 1.2, size=300)
    frame = pl.DataFrame({"s": np.r_[exp, act], "ref": np.r_[np.ones(500), np.zeros(300)] > 0})
    for bins in (2, 5, 10, 20):
        got = frame.select(pl.col("s").roc.psi(reference=pl.col("ref"), bins=bins)).item()
        assert got == pytest.approx(hand_psi(exp, act, bins), rel=1e-12)


def test_psi_edges() -> None:
    df = pl.DataFrame({"s": [0.1, 0.2, float("nan"), 0.4], "ref": [True, True, False, False]})
    assert df.select(pr.psi("s", reference=pl.col("ref"), bins=2)).item() is None
    only_ref = pl.DataFrame({"s": [0.1, 0.2], "ref": [True, True]})
    assert only_ref.select(pr.psi("s", reference=pl.col("ref"))).item() is None
    with pytest.raises(ValueError, match="bins must be an integer"):
        pr.psi("s", reference=pl.col("ref"), bins=1)


@pytest.mark.parametrize("segments", [True, False], ids=["exact", "asymptotic"])
def test_score_stability_psi_and_ks_against_scipy(segments: bool) -> None:
    # per segment: ~600 reference rows and ~125 per window (exact p-values); overall ~1,000
    # reference rows (asymptotic)
    df = drifting(3000, seed=8)
    if not segments:
        df = df.with_columns(segment=pl.lit("a"))
    ref = ("2024-01-01", "2024-04-30")
    out = df.roc.score_stability(
        "score", time="t", every="1mo", by="segment", reference=ref, bins=10
    )
    assert out.columns == [
        "segment",
        "window_start",
        "window_end",
        "psi",
        "ks",
        "ks_p_value",
        "n",
        "n_ref",
    ]
    exact = asymp = 0
    for segment in ["a", "b"] if segments else ["a"]:
        seg = df.filter(pl.col("segment") == segment)
        expected = seg.filter(pl.col("t") < dt.datetime(2024, 5, 1))["score"].to_numpy()
        for row in out.filter(pl.col("segment") == segment).iter_rows(named=True):
            part = seg.filter(pl.col("t").dt.truncate("1mo") == row["window_start"])
            actual = part["score"].to_numpy()
            assert row["psi"] == pytest.approx(hand_psi(expected, actual, 10), rel=1e-9, abs=1e-12)
            assert (row["n"], row["n_ref"]) == (len(actual), len(expected))
            small = max(len(actual), len(expected)) <= 10_000  # scipy's method="auto"
            want = stats.ks_2samp(actual, expected)
            assert row["ks"] == pytest.approx(want.statistic, abs=1e-12)
            exact += small
            asymp += not small
            assert row["ks_p_value"] == pytest.approx(want.pvalue, rel=1e-9, abs=1e-14)
    assert (exact, asymp) == ((24, 0) if segments else (12, 0))


def test_ks_with_ties_against_scipy() -> None:
    rng = np.random.default_rng(9)
    t = rng.integers(0, 4, 400)
    s = np.round(rng.random(400) * (1 + (t == 3)), 1)  # heavy ties, a shift in window 3
    df = pl.DataFrame({"t": t, "score": s})
    out = df.roc.score_stability(time="t", every="1i", reference=pl.col("t") == 0)
    for row in out.iter_rows(named=True):
        want = stats.ks_2samp(s[t == row["window_start"]], s[t == 0], method="exact")
        assert row["ks"] == pytest.approx(want.statistic, abs=1e-12)
        assert row["ks_p_value"] == pytest.approx(want.pvalue, rel=1e-9)


def test_ks_p_value_exact_and_asymptotic_against_scipy() -> None:
    from polars_roc.monitoring._kolmogorov import ks_2samp_p_value

    rng = np.random.default_rng(10)
    for m, n in [(3, 4), (10, 10), (50, 80), (300, 700), (2000, 500), (30000, 20000)]:
        for shift in (0.0, 0.15, 0.5):
            a, b = rng.normal(size=m), rng.normal(shift, size=n)
            method = "exact" if max(m, n) <= 10_000 else "asymp"
            want = stats.ks_2samp(a, b, method=method)
            got = ks_2samp_p_value(want.statistic, m, n)[0]
            if method == "exact":
                assert got == pytest.approx(want.pvalue, rel=1e-9, abs=1e-300)
            else:  # scipy's asymptotic branch itself: kstwo at round(m n / (m + n))
                assert got == pytest.approx(want.pvalue, rel=1e-9, abs=1e-300)


def test_ks_exact_p_values_in_one_batch_against_scipy() -> None:
    # Many windows at once (sizes from 1 to 9,000, statistics from 0 to 1): each case's
    # band strip starts, moves and ends on its own diagonals, the cases leave the batch at
    # different lengths; every p-value is scipy's exact one for that pair alone.
    from polars_roc.monitoring._kolmogorov import ks_2samp_p_value

    rng = np.random.default_rng(12)
    sizes = [(1, 1), (1, 7), (6, 6), (40, 13), (250, 250), (900, 2500), (9000, 8000)]
    d, n1, n2, want = [], [], [], []
    for m, n in sizes:
        for shift in (0.0, 0.05, 0.3, 3.0):
            a, b = rng.normal(size=m), rng.normal(shift, size=n)
            result = stats.ks_2samp(a, b, method="exact")
            d.append(result.statistic)
            n1.append(m)
            n2.append(n)
            want.append(result.pvalue)
    same = rng.normal(size=300)
    d.append(stats.ks_2samp(same, same, method="exact").statistic)  # 0: p-value 1
    n1.append(300)
    n2.append(300)
    want.append(1.0)
    got = ks_2samp_p_value(d, n1, n2)
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-300)


def weighted_kernel(p: np.ndarray) -> float:
    """Every row a positive of weight p and a negative of weight 1 - p, pairs by brute force."""
    scores = np.r_[p, p]
    labels = np.r_[np.ones(len(p)), np.zeros(len(p))]
    value = pairwise_auc(labels, scores, np.r_[p, 1 - p])
    assert value is not None
    return value


def test_estimated_auc_is_the_weighted_kernel() -> None:
    rng = np.random.default_rng(11)
    p = np.round(rng.beta(2, 5, 40), 2)  # ties
    df = pl.DataFrame({"p": p, "g": np.arange(40) % 2})
    assert df.select(pr.estimated_auc("p")).item() == pytest.approx(weighted_kernel(p), rel=1e-12)
    grouped = df.roc.estimated_auc("p", by="g")
    for g, value in grouped.select("g", "estimated_auc").rows():
        assert value == pytest.approx(weighted_kernel(p[np.arange(40) % 2 == g]), rel=1e-12)
    assert grouped["n"].to_list() == [20, 20]


def test_estimated_auc_edges() -> None:
    assert pl.DataFrame({"p": [0.0, 0.0]}).select(pr.estimated_auc("p")).item() is None
    assert pl.DataFrame({"p": [0.3, None, 0.6]}).select(
        pr.estimated_auc("p")
    ).item() == pytest.approx(weighted_kernel(np.array([0.3, 0.6])))
    with pytest.raises(ValueError, match=r"score column 'p' holds \[1.5\] outside \[0, 1\]"):
        pl.DataFrame({"p": [0.2, 1.5]}).select(pr.estimated_auc("p"))
    with pytest.raises(ValueError, match="outside"):
        pl.DataFrame({"p": [-0.1, 0.5]}).roc.estimated_auc("p")


@pytest.mark.slow
def test_estimated_auc_is_the_mean_auc_of_label_draws() -> None:
    rng = np.random.default_rng(12)
    p = np.round(rng.beta(2, 3, 2000), 3)  # ties
    estimate = pl.DataFrame({"p": p}).select(pr.estimated_auc("p")).item()
    ranks = stats.rankdata(p)  # the scores never change, only the labels drawn: one ranking
    draws = []
    for _ in range(20_000):
        y = rng.random(p.size) < p
        n_pos = y.sum()
        draws.append((ranks[y].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * (p.size - n_pos)))
    assert draws[-1] == pytest.approx(roc_auc_score(y, p))  # the rank formula, once
    mean, se = np.mean(draws), np.std(draws, ddof=1) / math.sqrt(len(draws))
    # the kernel counts each row's pair with itself (O(1/n)): within 4 se plus that
    assert abs(estimate - mean) < 4 * se + 1 / p.size


def test_errors_name_the_users_columns() -> None:
    df = drifting(200)
    with pytest.raises(SchemaError, match="time column 'segment' has dtype String"):
        df.roc.over_time(time="segment", every="1mo")
    with pytest.raises(pl.exceptions.ColumnNotFoundError, match="time column 'when' not found"):
        df.roc.over_time(time="when", every="1mo")
    with pytest.raises(ValueError, match="ci='delong' gives the AUC's interval only"):
        df.roc.over_time(
            time="t", every="1mo", ci="delong", metrics={"a": pr.auc("score", "label")}
        )
    with pytest.raises(ValueError, match="reference must be a"):
        df.roc.over_time(time="t", every="1mo", reference="2024-01")
    with pytest.raises(ValueError, match="not a window length for an integer time"):
        df.with_columns(pl.col("t").dt.month().alias("m")).roc.over_time(time="m", every="1mo")
    with pytest.raises(ValueError, match="k must be a positive"):
        df.roc.over_time(time="t", every="1mo", reference=("2024-01-01", "2024-02-01"), k=0)


def test_over_time_chart_draws_bands_alerts_and_panels() -> None:
    df = drifting(3000, seed=13)
    frame = df.roc.over_time(
        time="t", every="1mo", by="segment", ci="delong", reference=("2024-01-01", "2024-06-30")
    )
    spec = pr.charts.over_time_chart(frame, facet="segment", columns=1).to_dict()
    assert spec["facet"]["field"] == "segment"
    layers = spec["spec"]["layer"]
    assert [layer["mark"]["type"] for layer in layers] == ["area", "line", "area", "line", "point"]
    assert layers[0]["encoding"]["y"]["field"] == "ref_lower"
    assert layers[2]["encoding"]["y2"]["field"] == "upper"
    assert layers[4]["transform"] == [{"filter": "datum.alert === true"}]
    dated = frame.with_columns(pl.col("window_start", "window_end").cast(pl.Date))
    assert pr.charts.over_time_chart(dated).to_dict()["layer"][3]["encoding"]["x"]["type"] == (
        "temporal"
    )
    colored = pr.charts.over_time_chart(frame, color="segment").to_dict()
    assert colored["layer"][3]["encoding"]["color"]["field"] == "segment"
    with pytest.raises(pl.exceptions.ColumnNotFoundError, match="facet='model'"):
        pr.charts.over_time_chart(frame, facet="model")
    with pytest.raises(pl.exceptions.ColumnNotFoundError, match=r"df\.roc\.over_time"):
        pr.charts.over_time_chart(frame.drop("alert"))


def test_stability_chart_has_the_guide_lines() -> None:
    df = drifting(2000, seed=14)
    frame = df.roc.score_stability(
        time="t", every="1mo", by="segment", reference=("2024-01-01", "2024-03-31")
    )
    spec = pr.charts.stability_chart(frame, facet="segment").to_dict()
    rows = next(iter(spec["datasets"].values()))
    guides = sorted((r["psi"], r["segment"]) for r in rows if r["_mark"] == "guide")
    assert guides == [(0.1, "a"), (0.1, "b"), (0.25, "a"), (0.25, "b")]


def test_weights_direction_and_nan_policy_reach_every_window() -> None:
    df = drifting(1200, seed=15, months=3).with_columns(
        w=pl.int_range(pl.len()) % 3, neg=-pl.col("score")
    )
    out = df.roc.over_time(time="t", every="1mo", weight="w", ci="delong")
    low = df.roc.over_time("neg", time="t", every="1mo", direction="lower", ci="delong")
    for start in out["window_start"].to_list():
        part = df.filter(pl.col("t").dt.truncate("1mo") == start)
        row = out.filter(pl.col("window_start") == start)
        want = roc_auc_score(part["label"], part["score"], sample_weight=part["w"])
        assert row["estimate"].item() == pytest.approx(want)
        assert row["n"].item() == pytest.approx(part["w"].sum())
        assert row["n_pos"].item() == pytest.approx(part.filter("label")["w"].sum())
        unweighted = roc_auc_score(part["label"], part["score"])
        assert low.filter(pl.col("window_start") == start)["estimate"].item() == pytest.approx(
            unweighted
        )
    nan = df.with_columns(
        score=pl.when(pl.int_range(pl.len()) == 0).then(float("nan")).otherwise("score")
    )
    first = nan.filter(pl.int_range(pl.len()) == 0)["t"].dt.truncate("1mo").item()
    kept = nan.roc.over_time(time="t", every="1mo")
    assert kept.filter(pl.col("window_start") == first)["estimate"].item() is None
    omitted = nan.roc.over_time(time="t", every="1mo", nan_policy="omit")
    assert omitted["estimate"].null_count() == 0
    with pytest.raises(ValueError, match="NaN"):
        nan.roc.over_time(time="t", every="1mo", nan_policy="raise")
    with pytest.warns(UserWarning, match="'metric_': the `by` column 'metric' keeps its name"):
        clash = df.with_columns(metric=pl.lit("x")).roc.over_time(
            time="t", every="1mo", by="metric"
        )
    assert clash["metric"].unique().to_list() == ["x"]
    assert clash["metric_"].unique().to_list() == ["auc"]


def test_new_expressions_work_in_every_context() -> None:
    df = drifting(1500, seed=16, months=4).with_columns(old=pl.col("t").dt.month() <= 2)
    psi = pr.psi("score", reference=pl.col("old"))
    est = pr.estimated_auc("score")
    whole = df.select(psi, est).row(0)
    # over(): the same value on every row of the group
    over = df.with_columns(psi.over("segment"), est.over("segment"))
    grouped = df.group_by("segment").agg(psi, est).sort("segment")
    for segment, p, e in grouped.rows():
        part = over.filter(pl.col("segment") == segment)
        assert part["psi"].unique().to_list() == [p]
        assert part["estimated_auc"].unique().to_list() == [e]
        assert e == pytest.approx(
            df.filter(pl.col("segment") == segment).select(est).item(), rel=1e-12
        )
    # group_by_dynamic(): each window's value is the expression on its rows
    dynamic = df.sort("t").group_by_dynamic("t", every="1mo").agg(est)
    for start, value in dynamic.rows():
        part = df.filter(pl.col("t").dt.truncate("1mo") == start)
        assert value == pytest.approx(weighted_kernel(part["score"].to_numpy()), rel=1e-9)
    # over_time's metrics and the bootstrap take them like any metric
    out = df.roc.over_time(
        time="t", every="1mo", metrics={"estimated": est, "auc": pr.auc("score", "label")}
    )
    assert out.filter(pl.col("metric") == "estimated").height == 4
    boot = df.roc.bootstrap({"psi": psi, "estimated_auc": est}, n_boot=50, seed=1)
    assert boot["estimate"].to_list() == pytest.approx(list(whole))
    assert (boot["lower"] <= boot["upper"]).all()
