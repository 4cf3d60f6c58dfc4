"""
Clustered intervals beyond ``auc(ci="delong")``: ``compare(cluster=)`` (DeLong and bootstrap),
the cluster bootstrap of ``auc``, ``thresholds`` and ``bootstrap`` (issue 34, item 3).

Oracles: Obuchowski's (1997) variances and covariances of two paired AUCs transcribed in
numpy from pairwise comparisons; the documented cluster draw transcribed in numpy with
scikit-learn's AUC on the expanded rows; and the row-level numbers, which one cluster per
row must reproduce (exactly for the bootstrap, to rounding for DeLong).
"""

from __future__ import annotations

import hashlib
from statistics import NormalDist

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score

import polars_roc as pr

POOL = [0.0, 0.25, 0.5, 0.75, 1.0]  # a small pool forces ties


# --- numpy oracles -------------------------------------------------------------------------


def cluster_terms(scores, labels, clusters):
    """Per cluster ``a_i = V10_i - m_i θ``, ``b_i = V01_i - n_i θ``, and θ, M, N, counts."""
    pos, neg = scores[labels], scores[~labels]
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    theta = psi.mean()
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    ids = np.unique(clusters)
    a, b, m_i, n_i = [], [], [], []
    for c in ids:
        in_pos, in_neg = clusters[labels] == c, clusters[~labels] == c
        m_i.append(in_pos.sum())
        n_i.append(in_neg.sum())
        a.append(v10[in_pos].sum() - in_pos.sum() * theta)
        b.append(v01[in_neg].sum() - in_neg.sum() * theta)
    return theta, np.array(a), np.array(b), np.array(m_i), np.array(n_i), len(pos), len(neg)


def obuchowski_pair(scores_a, scores_b, labels, clusters):
    """AUCs and Var(A) + Var(B) - 2 Cov(A, B) with Obuchowski's covariance terms (or None)."""
    ta, a1, b1, m_i, n_i, big_m, big_n = cluster_terms(scores_a, labels, clusters)
    tb, a2, b2, *_ = cluster_terms(scores_b, labels, clusters)
    i_all, i10, i01 = len(m_i), (m_i > 0).sum(), (n_i > 0).sum()
    if i10 < 2 or i01 < 2:
        return ta, tb, None

    def s10(x, y):
        return i10 / ((i10 - 1) * big_m) * (x * y).sum()

    def s01(x, y):
        return i01 / ((i01 - 1) * big_n) * (x * y).sum()

    def s11(x, y):
        return i_all / (i_all - 1) * (x * y).sum()

    mn = big_m * big_n
    var_a = s10(a1, a1) / big_m + s01(b1, b1) / big_n + 2 * s11(a1, b1) / mn
    var_b = s10(a2, a2) / big_m + s01(b2, b2) / big_n + 2 * s11(a2, b2) / mn
    cov = s10(a1, a2) / big_m + s01(b1, b2) / big_n + (s11(a1, b2) + s11(a2, b1)) / mn
    return ta, tb, var_a + var_b - 2 * cov


def long_frame(cases) -> pl.DataFrame:
    """Two models' scores of the same cases: ``(cluster, label, score_a, score_b)`` each."""
    cid, label, sa, sb = (list(c) for c in zip(*cases, strict=True))
    n = len(cid)
    return pl.DataFrame(
        {
            "case": list(range(n)) * 2,
            "pid": cid * 2,
            "model": ["a"] * n + ["b"] * n,
            "label": label * 2,
            "score": sa + sb,
        }
    )


cases_strategy = st.lists(
    st.tuples(st.integers(0, 5), st.booleans(), st.sampled_from(POOL), st.sampled_from(POOL)),
    min_size=4,
    max_size=30,
)


# --- compare(cluster=), DeLong ---------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(cases=cases_strategy)
def test_paired_compare_equals_obuchowskis_covariance(cases) -> None:
    df = long_frame(cases)
    got = df.roc.compare(case="case", cluster="pid").row(0, named=True)
    assert got["paired"]
    labels = np.array([c[1] for c in cases])
    if labels.all() or not labels.any():
        assert got["diff"] is None
        return
    clusters = np.array([c[0] for c in cases])
    sa, sb = (np.array([c[k] for c in cases]) for k in (2, 3))
    ta, tb, variance = obuchowski_pair(sa, sb, labels, clusters)
    assert got["auc_a"] == pytest.approx(ta, rel=1e-12)
    assert got["diff"] == pytest.approx(ta - tb, abs=1e-12)
    if variance is None:
        assert got["statistic"] is None
        return
    sd = np.sqrt(max(variance, 0.0))
    z = NormalDist().inv_cdf(0.975)
    if sd > 1e-9:
        assert got["statistic"] == pytest.approx((ta - tb) / sd, rel=1e-7)
        assert got["diff_lower"] == pytest.approx(max(-1.0, ta - tb - z * sd), rel=1e-7)
        assert got["diff_upper"] == pytest.approx(min(1.0, ta - tb + z * sd), rel=1e-7)


@settings(max_examples=40, deadline=None)
@given(cases=cases_strategy)
def test_one_cluster_per_case_is_todays_compare(cases) -> None:
    df = long_frame(cases)
    for paired in (None, False):
        plain = df.roc.compare(case="case", paired=paired)
        clustered = df.roc.compare(case="case", paired=paired, cluster="case")
        assert clustered["paired"].to_list() == plain["paired"].to_list()
        sd = (plain["diff_upper"] - plain["diff_lower"]).abs().max()
        if sd is not None and 0 < sd < 1e-9:  # rounding noise around a zero variance
            continue
        for column in ("auc_a", "auc_b", "diff", "diff_lower", "diff_upper", "p_value", "df"):
            for x, y in zip(clustered[column], plain[column], strict=True):
                if x is None or y is None:
                    assert (x, y) == (None, None), column
                else:
                    assert x == pytest.approx(y, rel=1e-9, abs=1e-12), column


def test_unpaired_compare_sums_each_models_clustered_variance() -> None:
    rng = np.random.default_rng(11)
    frames = []
    for model, shift in (("a", 1.0), ("b", 0.5)):
        n = 120
        pid = rng.integers(0, 30, size=n)
        label = rng.random(n) < 0.4
        score = rng.normal(size=n) + shift * label + rng.normal(size=30)[pid]
        frames.append(pl.DataFrame({"model": model, "pid": pid, "label": label, "score": score}))
    df = pl.concat(frames)
    got = df.roc.compare(cluster="pid", paired=False).row(0, named=True)
    variances, units = [], []
    for model in ("a", "b"):
        part = df.filter(pl.col("model") == model)
        s, y, c = (part[k].to_numpy() for k in ("score", "label", "pid"))
        _, a, b, m_i, n_i, big_m, big_n = cluster_terms(s, y, c)
        i10, i01, i_all = (m_i > 0).sum(), (n_i > 0).sum(), len(m_i)
        v = (
            i10 / ((i10 - 1) * big_m) * (a**2).sum() / big_m
            + i01 / ((i01 - 1) * big_n) * (b**2).sum() / big_n
            + 2 * i_all / (i_all - 1) * (a * b).sum() / (big_m * big_n)
        )
        variances.append(v)
        units.append(i_all)
    total = sum(variances)
    assert got["statistic"] == pytest.approx(got["diff"] / np.sqrt(total), rel=1e-9)
    welch = total**2 / sum(v**2 / (u - 1) for v, u in zip(variances, units, strict=True))
    assert got["df"] == pytest.approx(welch, rel=1e-9)


def test_compare_grouped_and_lazy() -> None:
    df = pr.datasets.simulate(1_200, seed=5).with_columns(pid=pl.col("case") // 4)
    grouped = df.roc.compare(case="case", by="segment", cluster="pid")
    for segment in grouped["segment"].unique().to_list():
        alone = df.filter(pl.col("segment") == segment).roc.compare(case="case", cluster="pid")
        mine = grouped.filter(pl.col("segment") == segment).drop("segment")
        assert mine["statistic"].to_numpy() == pytest.approx(alone["statistic"].to_numpy())
    lazy = df.lazy().roc.compare(case="case", by="segment", cluster="pid")
    assert isinstance(lazy, pl.LazyFrame)
    assert lazy.collect().equals(grouped)  # sums in a fixed order: the same bits
    assert df.roc.compare(case="case", by="segment", cluster="pid").equals(grouped)


def test_identical_models_give_zero() -> None:
    df = pr.datasets.simulate(400, seed=1).filter(pl.col("model") == "gbm")
    twice = pl.concat([df, df.with_columns(model=pl.lit("copy"))]).with_columns(
        pid=pl.col("case") // 3
    )
    got = twice.roc.compare(case="case", cluster="pid").row(0, named=True)
    assert (got["statistic"], got["p_value"]) == (0.0, 1.0)


# --- the cluster bootstrap ------------------------------------------------------------------


def transcribed_cluster_bootstrap(score, label, cid, *, n_boot: int, seed: int):
    """The documented draw: one group, no `by`, one chunk; AUCs from scikit-learn."""
    digest = hashlib.blake2b(repr(()).encode(), digest_size=8).digest()
    rng = np.random.default_rng([seed, int.from_bytes(digest, "little")])
    # Canonical rows: by class (negatives first), score, cluster id; clusters numbered
    # by their first row; strata: positives only, negatives only, both.
    order = np.lexsort((cid, score, label))
    score, label, cid = score[order], label[order], cid[order]
    first = {}
    for c in cid:
        first.setdefault(c, len(first))
    members = {c: np.flatnonzero(cid == c) for c in first}
    kinds = {c: tuple(sorted(set(label[rows].tolist()))) for c, rows in members.items()}
    by_number = sorted(first, key=first.get)
    strata = [
        [c for c in by_number if kinds[c] == (True,)],
        [c for c in by_number if kinds[c] == (False,)],
        [c for c in by_number if len(kinds[c]) == 2],
    ]
    strata = [s for s in strata if s]
    draws = [rng.integers(0, len(s), size=(n_boot, len(s))) for s in strata]
    values = []
    for r in range(n_boot):
        rows = np.concatenate(
            [members[s[i]] for s, d in zip(strata, draws, strict=True) for i in d[r]]
        )
        values.append(roc_auc_score(label[rows], score[rows]))
    values = np.array(values)
    return values.std(ddof=1), *np.quantile(values, [0.025, 0.975])


@settings(max_examples=15, deadline=None)
@given(
    data=st.lists(
        st.tuples(st.sampled_from(POOL), st.booleans(), st.integers(0, 7)),
        min_size=6,
        max_size=30,
    )
)
def test_auc_cluster_bootstrap_is_the_documented_draw(data) -> None:
    score, label, cid = (np.array(c) for c in zip(*data, strict=True))
    df = pl.DataFrame({"score": score, "label": label, "pid": cid})
    got = df.roc.auc(ci="bootstrap", cluster="pid", n_boot=100, seed=3).row(0, named=True)
    enough = min(len(np.unique(cid[label])), len(np.unique(cid[~label]))) >= 2
    if not enough:
        assert got["auc_se"] is None
        return
    se, lower, upper = transcribed_cluster_bootstrap(score, label, cid, n_boot=100, seed=3)
    assert got["auc_se"] == pytest.approx(se, rel=1e-9, abs=1e-12)
    assert got["auc_lower"] == pytest.approx(lower, rel=1e-9, abs=1e-12)
    assert got["auc_upper"] == pytest.approx(upper, rel=1e-9, abs=1e-12)
    assert got["n_clusters"] == len(np.unique(cid))


@settings(max_examples=20, deadline=None)
@given(
    data=st.lists(st.tuples(st.sampled_from(POOL), st.booleans()), min_size=4, max_size=40),
    seed=st.integers(0, 50),
)
def test_one_cluster_per_row_is_the_row_bootstrap_exactly(data, seed: int) -> None:
    df = pl.DataFrame(data, schema=["score", "label"], orient="row").with_row_index("rid")
    kwargs = {"n_boot": 100, "seed": seed}
    rows = df.roc.auc(ci="bootstrap", **kwargs)
    clustered = df.roc.auc(ci="bootstrap", cluster="rid", **kwargs).drop("n_clusters")
    assert clustered.equals(rows)
    t = {"thresholds": [0.3, 0.6], "ci": "bootstrap", **kwargs}
    assert df.roc.thresholds(cluster="rid", **t).equals(df.roc.thresholds(**t))
    metrics = {
        "auc": pr.auc("score", "label"),
        "brier": pr.brier_score("score", "label"),
        "mean": pl.col("score").mean(),  # a user's expression: the query path, drawn order
    }
    sorted_metric = {"median": pl.col("score").median()}  # the query path, sorted replicates
    for m in (metrics, sorted_metric):
        assert df.roc.bootstrap(m, cluster="rid", **kwargs).equals(df.roc.bootstrap(m, **kwargs))


def test_compare_bootstrap_one_cluster_per_row_is_todays() -> None:
    df = pr.datasets.simulate(600, seed=2).with_row_index("rid")
    common = {"method": "bootstrap", "n_boot": 200, "seed": 4}
    paired = df.roc.compare(case="case", **common)
    assert df.roc.compare(case="case", cluster="case", **common).equals(paired)
    unpaired = df.roc.compare(case="case", paired=False, **common)
    assert df.roc.compare(case="case", paired=False, cluster="rid", **common).equals(unpaired)


def test_grouped_lazy_and_seeded() -> None:
    df = pr.datasets.simulate(900, seed=8).with_columns(pid=pl.col("case") // 3)
    common = {"ci": "bootstrap", "n_boot": 200, "seed": 1, "cluster": "pid"}
    grouped = df.roc.auc(by="model", **common)
    for row in grouped.iter_rows(named=True):
        one = df.filter(pl.col("model") == row["model"])  # the stream is seeded by the key
        alone = one.roc.auc(by="model", **common).row(0, named=True)
        assert alone["auc_se"] == row["auc_se"]
        assert alone["auc_lower"] == row["auc_lower"]
    assert df.lazy().roc.auc(by="model", **common).collect().equals(grouped)
    assert (
        df.sample(fraction=1.0, shuffle=True, seed=2).roc.auc(by="model", **common).equals(grouped)
    )  # row order does not matter
    t = {"thresholds": [0.2, 0.5], **common}
    grouped_t = df.roc.thresholds(by="model", **t)
    assert df.lazy().roc.thresholds(by="model", **t).collect().equals(grouped_t)
    metrics = {"auc": pr.auc("score", "label"), "mean": pl.col("score").mean()}
    b = {"n_boot": 200, "seed": 1, "cluster": "pid"}
    grouped_b = df.roc.bootstrap(metrics, by="model", **b)
    assert df.lazy().roc.bootstrap(metrics, by="model", **b).collect().equals(grouped_b)
    for model in ("gbm", "logit"):
        alone = df.filter(pl.col("model") == model).roc.bootstrap(metrics, by="model", **b)
        assert alone.equals(grouped_b.filter(pl.col("model") == model))
    assert df.roc.bootstrap(metrics, by="model", **{**b, "seed": 2})["se"].to_list() != (
        grouped_b["se"].to_list()
    )


def test_cluster_bootstrap_matches_clustered_delong() -> None:
    # The two clustered standard errors estimate the same thing: within 15% on 200 patients.
    rng = np.random.default_rng(3)
    patients, per = 200, 4
    sick = rng.random(patients) < 0.4
    effect = rng.normal(scale=1.2, size=patients)
    df = pl.DataFrame(
        {
            "pid": np.repeat(np.arange(patients), per),
            "label": np.repeat(sick, per),
            "score": np.repeat(effect + sick, per) + rng.normal(scale=0.5, size=patients * per),
        }
    )
    delong = df.roc.auc(ci="delong", cluster="pid")["auc_se"].item()
    boot = df.roc.auc(ci="bootstrap", cluster="pid", n_boot=1000)["auc_se"].item()
    rows = df.roc.auc(ci="bootstrap", n_boot=1000)["auc_se"].item()
    assert boot == pytest.approx(delong, rel=0.15)
    assert rows < 0.7 * boot  # the row bootstrap is far too narrow here
    metric = df.roc.bootstrap({"auc": pr.auc("score", "label")}, cluster="pid", n_boot=1000)
    assert metric["se"].item() == pytest.approx(delong, rel=0.15)


# --- bad input ------------------------------------------------------------------------------


def small() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "case": [0, 1, 2, 3] * 2,
            "model": ["a"] * 4 + ["b"] * 4,
            "score": [0.1, 0.5, 0.7, 0.9, 0.2, 0.4, 0.8, 0.6],
            "label": [0, 1, 0, 1] * 2,
            "pid": [1, 1, 2, 2] * 2,
            "g": 1,
            "w": 1.0,
        }
    )


CALLS = {
    "auc": lambda df, **k: df.roc.auc(ci="bootstrap", n_boot=20, **k),
    "thresholds": lambda df, **k: df.roc.thresholds(
        thresholds=[0.5], ci="bootstrap", n_boot=20, **k
    ),
    "bootstrap": lambda df, **k: df.roc.bootstrap(
        {"auc": pr.auc("score", "label")}, n_boot=20, **k
    ),
    "compare": lambda df, **k: df.roc.compare(case="case", **k),
    "compare_boot": lambda df, **k: df.roc.compare(case="case", method="bootstrap", n_boot=20, **k),
}


@pytest.mark.parametrize("call", sorted(CALLS))
def test_null_cluster_ids_are_an_error_naming_the_column(call: str) -> None:
    df = small().with_columns(pid=pl.when(pl.col("case") == 2).then(None).otherwise("pid"))
    with pytest.raises(Exception, match=r"(?s)cluster column 'pid' holds \d+ null id.*Hint"):
        CALLS[call](df, cluster="pid")


@pytest.mark.parametrize("call", sorted(CALLS))
def test_a_missing_cluster_column_is_an_error(call: str) -> None:
    with pytest.raises(pl.exceptions.ColumnNotFoundError, match="cluster column 'patient'"):
        CALLS[call](small(), cluster="patient")


@pytest.mark.parametrize("call", sorted(CALLS))
def test_a_cluster_that_is_also_a_by_column_is_an_error(call: str) -> None:
    with pytest.raises(ValueError, match=r"'g'.*by"):
        CALLS[call](small(), cluster="g", by="g")


def test_other_bad_combinations() -> None:
    df = small()
    with pytest.raises(ValueError, match="ci='bootstrap'"):
        df.roc.thresholds(thresholds=[0.5], cluster="pid")
    with pytest.raises(ValueError, match="weight"):
        df.roc.thresholds(thresholds=[0.5], ci="bootstrap", weight="w", cluster="pid")
    with pytest.raises(ValueError, match="power"):
        df.roc.compare(case="case", cluster="pid", power=0.8)
    with pytest.raises(ValueError, match="model column"):
        df.roc.compare(case="case", cluster="model")
    with pytest.raises(ValueError, match="label column"):
        df.roc.bootstrap({"auc": pr.auc("score", "label")}, cluster="label")


def test_a_case_in_two_clusters_is_an_error() -> None:
    df = small().with_columns(
        pid=pl.when((pl.col("model") == "b") & (pl.col("case") == 0)).then(9).otherwise("pid")
    )
    with pytest.raises(Exception, match="different clusters"):
        df.roc.compare(case="case", cluster="pid")
    with pytest.raises(Exception, match="different clusters"):
        df.roc.compare(case="case", cluster="pid", method="bootstrap", n_boot=20)


# --- coverage -------------------------------------------------------------------------------


@pytest.mark.slow
def test_clustered_intervals_cover_where_row_intervals_do_not() -> None:
    # Each patient has 4 cases, scored by two models sharing a patient effect; the true
    # difference of AUCs is 0 (the models differ only by independent noise of equal size),
    # so an interval covers when it holds 0.
    rng = np.random.default_rng(21)
    reps, patients, per = 150, 50, 4
    frames = []
    for r in range(reps):
        sick = np.repeat(rng.random(patients) < 0.4, per)
        effect = np.repeat(rng.normal(scale=1.5, size=patients), per)
        n = patients * per
        base = effect + 1.0 * sick
        model_effect = np.repeat(rng.normal(scale=0.7, size=(2, patients)), per, axis=1)
        for m, name in enumerate(("a", "b")):
            frames.append(
                pl.DataFrame(
                    {
                        "rep": r,
                        "case": np.arange(n),
                        "pid": np.repeat(np.arange(patients), per),
                        "model": name,
                        "label": sick,
                        "score": base + model_effect[m] + rng.normal(scale=0.3, size=n),
                    }
                )
            )
    df = pl.concat(frames)

    def coverage(table: pl.DataFrame) -> float:
        return float(((table["diff_lower"] <= 0) & (table["diff_upper"] >= 0)).mean())

    rows = coverage(df.roc.compare(case="case", by="rep"))
    clustered = coverage(df.roc.compare(case="case", by="rep", cluster="pid"))
    assert 0.89 <= clustered <= 0.99
    assert rows < 0.85
    boot = df.roc.compare(
        case="case", by="rep", cluster="pid", method="bootstrap", n_boot=200, seed=1
    )
    assert 0.87 <= coverage(boot) <= 0.99
    # The AUC itself: the cluster bootstrap percentile interval against the row bootstrap.
    one = df.filter(pl.col("model") == "a")
    big = 200_000
    sick = rng.random(big) < 0.4
    truth_score = (
        rng.normal(scale=1.5, size=big)
        + sick
        + rng.normal(scale=0.7, size=big)
        + rng.normal(scale=0.3, size=big)
    )
    truth = roc_auc_score(sick, truth_score)

    def covers(table: pl.DataFrame) -> float:
        return float(((table["auc_lower"] <= truth) & (table["auc_upper"] >= truth)).mean())

    cluster_boot = one.roc.auc(by="rep", ci="bootstrap", cluster="pid", n_boot=300)
    row_boot = one.roc.auc(by="rep", ci="bootstrap", n_boot=300)
    assert 0.87 <= covers(cluster_boot) <= 0.99
    assert covers(row_boot) < 0.85
