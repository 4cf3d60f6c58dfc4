"""Clustered DeLong variance (Obuchowski 1997) against a numpy transcription of the paper."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import polars_roc as pr


def obuchowski(scores, labels, clusters) -> tuple[float, float]:
    """AUC and its clustered variance, straight from the paper's formulas (pairwise psi)."""
    scores, labels, clusters = map(np.asarray, (scores, labels, clusters))
    pos, neg = scores[labels], scores[~labels]
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    big_m, big_n = len(pos), len(neg)
    theta = psi.mean()
    v10 = psi.mean(axis=1)  # per positive
    v01 = psi.mean(axis=0)  # per negative
    ids = np.unique(clusters)
    a, b, m_i, n_i = [], [], [], []
    for c in ids:
        in_pos, in_neg = clusters[labels] == c, clusters[~labels] == c
        m_i.append(in_pos.sum())
        n_i.append(in_neg.sum())
        a.append(v10[in_pos].sum() - in_pos.sum() * theta)
        b.append(v01[in_neg].sum() - in_neg.sum() * theta)
    a, b, m_i, n_i = map(np.asarray, (a, b, m_i, n_i))
    i_all, i10, i01 = len(ids), (m_i > 0).sum(), (n_i > 0).sum()
    s10 = i10 / ((i10 - 1) * big_m) * (a**2).sum()
    s01 = i01 / ((i01 - 1) * big_n) * (b**2).sum()
    s11 = i_all / (i_all - 1) * (a * b).sum()
    return theta, s10 / big_m + s01 / big_n + 2 * s11 / (big_m * big_n)


@settings(max_examples=40)
@given(
    data=st.lists(
        st.tuples(st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]), st.booleans(), st.integers(0, 6)),
        min_size=4,
        max_size=40,
    )
)
def test_equals_the_paper(data) -> None:
    scores, labels, clusters = (list(c) for c in zip(*data, strict=True))
    df = pl.DataFrame({"score": scores, "label": labels, "id": clusters})
    got = df.roc.auc(ci="delong", cluster="id").row(0, named=True)
    labels_arr, ids = np.asarray(labels), np.asarray(clusters)
    enough = len(np.unique(ids[labels_arr])) >= 2 and len(np.unique(ids[~labels_arr])) >= 2
    if not enough:
        assert got["auc_se"] is None
        return
    theta, variance = obuchowski(scores, labels, clusters)
    assert got["auc"] == pytest.approx(theta, rel=1e-12)
    assert got["auc_se"] ** 2 == pytest.approx(max(variance, 0.0), rel=1e-9, abs=1e-15)


def test_one_cluster_per_row_is_delong() -> None:
    df = pr.datasets.simulate(2_000, seed=3).with_row_index("rid")
    plain = df.roc.auc(by="model", ci="delong")
    clustered = df.roc.auc(by="model", ci="delong", cluster="rid").drop("n_clusters")
    for column in ("auc_se", "auc_lower", "auc_upper"):
        assert clustered[column].to_numpy() == pytest.approx(plain[column].to_numpy(), rel=1e-12)
    logit = df.roc.auc(by="model", ci="logit", cluster="rid")
    assert logit["auc_lower"].to_numpy() == pytest.approx(
        df.roc.auc(by="model", ci="logit")["auc_lower"].to_numpy(), rel=1e-12
    )


def test_grouped_and_lazy() -> None:
    df = pr.datasets.simulate(1_500, seed=4).with_columns(cid=pl.col("case") // 5)
    grouped = df.roc.auc(by="model", ci="delong", cluster="cid")
    for row in grouped.iter_rows(named=True):
        alone = df.filter(pl.col("model") == row["model"]).roc.auc(ci="delong", cluster="cid")
        assert alone["auc_se"].item() == pytest.approx(row["auc_se"], rel=1e-12)
    lazy = df.lazy().roc.auc(by="model", ci="delong", cluster="cid")
    assert isinstance(lazy, pl.LazyFrame)
    assert lazy.collect()["auc_se"].to_list() == grouped["auc_se"].to_list()


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"cluster": "nope", "ci": "delong"}, "nope"),
        ({"cluster": "id"}, "ci="),
        ({"cluster": "id", "ci": "delong", "weight": "w"}, "weight"),
        ({"cluster": "g", "ci": "delong", "by": "g"}, "by"),
    ],
)
def test_bad_input(kwargs, match: str) -> None:
    df = pl.DataFrame(
        {"score": [0.1, 0.5, 0.7, 0.9], "label": [0, 1, 0, 1], "id": [1, 1, 2, 2], "w": 1.0, "g": 1}
    )
    with pytest.raises(Exception, match=match):
        df.roc.auc(**kwargs)


def test_null_cluster_is_an_error() -> None:
    df = pl.DataFrame({"score": [0.1, 0.5, 0.7, 0.9], "label": [0, 1, 0, 1], "id": [1, None, 2, 2]})
    with pytest.raises(Exception, match="null"):
        df.roc.auc(ci="delong", cluster="id")


@pytest.mark.slow
def test_clustered_interval_covers_where_the_row_interval_does_not() -> None:
    # Each patient contributes 4 correlated rows: a shared random effect on the score.
    rng = np.random.default_rng(7)
    reps, patients, per = 300, 60, 4
    frames = []
    for r in range(reps):
        sick = rng.uniform(size=patients) < 0.4
        effect = rng.normal(scale=1.5, size=patients)
        pid = np.repeat(np.arange(patients), per)
        label = np.repeat(sick, per)
        score = np.repeat(effect, per) + label * 1.0 + rng.normal(scale=0.5, size=patients * per)
        frames.append(pl.DataFrame({"rep": r, "pid": pid, "label": label, "score": score}))
    df = pl.concat(frames)
    # The true AUC of this design, from one very large sample.
    sick = rng.uniform(size=200_000) < 0.4
    big = rng.normal(scale=1.5, size=200_000) + sick + rng.normal(scale=0.5, size=200_000)
    truth = pl.DataFrame({"score": big, "label": sick}).roc.auc()["auc"].item()
    rows = df.roc.auc(by="rep", ci="delong")
    clustered = df.roc.auc(by="rep", ci="delong", cluster="pid")

    def coverage(t: pl.DataFrame) -> float:
        return float(((t["auc_lower"] <= truth) & (t["auc_upper"] >= truth)).mean())

    assert 0.91 <= coverage(clustered) <= 0.99
    assert coverage(rows) < 0.85
