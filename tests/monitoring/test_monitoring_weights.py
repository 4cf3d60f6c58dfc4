"""weight= on score_stability, estimated_auc and psi: integer weights are repeated rows."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import polars_roc as pr


def _frame(seed: int, n: int = 80, pool: int = 6) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    return pl.DataFrame(
        {
            "t": rng.integers(0, 3, n),
            "g": rng.choice(["a", "b"], n),
            "score": rng.integers(0, pool, n) / pool,  # ties on purpose
            "w": rng.integers(0, 4, n),
            "label": rng.integers(0, 2, n),
        }
    )


def _repeated(df: pl.DataFrame) -> pl.DataFrame:
    return df.select(pl.all().repeat_by("w").explode()).drop_nulls().drop("w")


def _stability(df: pl.DataFrame, **options: object) -> pl.DataFrame:
    return df.roc.score_stability(time="t", every="1i", reference=(0, 0), by="g", bins=4, **options)


def _as_counts(out: pl.DataFrame) -> pl.DataFrame:
    return out.with_columns(pl.col("n", "n_ref").cast(pl.Float64))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), pool=st.sampled_from([2, 5, 40]))
def test_integer_weights_are_repeated_rows(seed: int, pool: int) -> None:
    df = _frame(seed, pool=pool)
    weighted = _stability(df, weight="w")
    repeated = _stability(_repeated(df))
    # groups a window lacks after repetition (all weights 0) are missing from the oracle
    joined = weighted.join(repeated, on=["g", "window_start"], suffix="_r")
    assert joined.height == repeated.height
    for column in ("psi", "ks", "ks_p_value", "n", "n_ref"):
        np.testing.assert_allclose(
            joined[column].to_numpy().astype(float),
            joined[f"{column}_r"].to_numpy().astype(float),
            rtol=1e-12,
            atol=1e-12,
        )
    e_w = df.roc.estimated_auc(label="label", by="g", weight="w")
    e_r = _repeated(df).roc.estimated_auc(label="label", by="g")
    assert_frame_equal(
        e_w, e_r.with_columns(pl.col("n", "n_pos", "n_neg").cast(pl.Float64)), abs_tol=1e-12
    )
    old = pl.col("t") == 0
    got = df.group_by("g").agg(pr.psi("score", reference=old, bins=4, weight="w")).sort("g")
    want = _repeated(df).group_by("g").agg(pr.psi("score", reference=old, bins=4)).sort("g")
    assert_frame_equal(got, want, abs_tol=1e-12)


def test_weight_zero_or_null_is_a_dropped_row() -> None:
    df = _frame(5).with_columns(w=pl.col("w").cast(pl.Float64) * 0.5 + 0.25)
    extra = pl.DataFrame(
        {
            "t": [0, 1, 2],
            "g": ["a", "a", "b"],
            "score": [0.99, 0.01, 0.5],
            "w": [0.0, None, 0.0],
            "label": [1, 0, 1],
        },
        schema=df.schema,
    )
    more = pl.concat([df, extra])
    assert_frame_equal(_stability(more, weight="w"), _stability(df, weight="w"))
    assert_frame_equal(
        more.roc.estimated_auc(label="label", by="g", weight="w"),
        df.roc.estimated_auc(label="label", by="g", weight="w"),
    )


def _weighted_ecdf_gap(a: np.ndarray, wa: np.ndarray, b: np.ndarray, wb: np.ndarray) -> float:
    points = np.union1d(a, b)
    fa = np.array([wa[a <= v].sum() for v in points]) / wa.sum()
    fb = np.array([wb[b <= v].sum() for v in points]) / wb.sum()
    return float(np.abs(fa - fb).max())


def _weighted_quantile(x: np.ndarray, w: np.ndarray, q: float) -> float:
    # the repeated list's linear quantile, by brute force over cumulative weights
    order = np.argsort(x, kind="stable")
    x, c = x[order], np.cumsum(w[order])
    h = (w.sum() - 1) * q
    low = np.floor(h)
    at = [x[np.argmax(c > i)] if (c > i).any() else x[-1] for i in (low, low + 1)]
    return float(at[0] + (h - low) * (at[1] - at[0]))


def test_fractional_weights_against_brute_force() -> None:
    rng = np.random.default_rng(11)
    n = 200
    t = rng.integers(0, 2, n)
    score = np.round(rng.normal(t * 0.3, 1.0), 1)
    w = rng.uniform(0.1, 3.0, n)
    df = pl.DataFrame({"t": t, "score": score, "w": w})
    out = df.roc.score_stability(time="t", every="1i", reference=(0, 0), bins=5, weight="w")
    late = out.filter(pl.col("window_start") == 1).row(0, named=True)
    ref, new = t == 0, t == 1
    assert late["ks"] == pytest.approx(
        _weighted_ecdf_gap(score[new], w[new], score[ref], w[ref]), abs=1e-12
    )
    assert late["ks_p_value"] is None  # weight sums are not whole: no p-value
    assert late["n"] == pytest.approx(w[new].sum())
    assert late["n_ref"] == pytest.approx(w[ref].sum())
    edges = [_weighted_quantile(score[ref], w[ref], q) for q in (0.2, 0.4, 0.6, 0.8)]
    bins = np.searchsorted(edges, score, side="left")  # (-inf, e1], (e1, e2], ...
    e = np.bincount(bins[ref], w[ref], minlength=5) / w[ref].sum()
    a = np.bincount(bins[new], w[new], minlength=5) / w[new].sum()
    e, a = np.where(e == 0, 1e-4, e), np.where(a == 0, 1e-4, a)
    assert late["psi"] == pytest.approx(float(np.sum((a - e) * np.log(a / e))), abs=1e-12)
    expr = df.select(pr.psi("score", reference=pl.col("t") == 0, bins=5, weight="w")).item()
    assert expr == pytest.approx(late["psi"], abs=1e-12)


def test_weighted_estimated_auc_against_pairs() -> None:
    rng = np.random.default_rng(4)
    p, w = np.round(rng.random(30), 1), rng.uniform(0, 2, 30)
    pos, neg = w * p, w * (1 - p)
    k = (p[:, None] > p[None, :]) + 0.5 * (p[:, None] == p[None, :])
    want = float((pos[:, None] * neg[None, :] * k).sum() / (pos.sum() * neg.sum()))
    df = pl.DataFrame({"p": p, "w": w})
    assert df.select(pr.estimated_auc("p", weight="w")).item() == pytest.approx(want, abs=1e-12)
    assert df.roc.estimated_auc("p", weight="w")["estimated_auc"].item() == pytest.approx(
        want, abs=1e-12
    )


def test_weight_column_errors() -> None:
    df = _frame(1)
    with pytest.raises(pl.exceptions.ColumnNotFoundError, match="weight"):
        _stability(df, weight="nope")
    with pytest.raises(pl.exceptions.SchemaError, match="weight column 'g'"):
        df.roc.estimated_auc(weight="g")
    with pytest.raises(ValueError, match="cannot be both a role and a `by` group"):
        _stability(df.with_columns(g=pl.col("w")), weight="g")
    with pytest.raises(ValueError, match="non-negative"):
        _stability(df.with_columns(w=pl.col("w") - 2), weight="w")


def test_weighted_psi_in_every_context() -> None:
    df = _frame(8).with_columns(w=pl.col("w") * 0.5)
    expr = pr.psi("score", reference=pl.col("t") == 0, bins=4, weight="w")
    per_group = df.group_by("g").agg(expr).sort("g")
    for g, value in per_group.iter_rows():
        alone = df.filter(pl.col("g") == g).select(expr).item()
        assert value == pytest.approx(alone, abs=1e-15)
    over = df.with_columns(expr.over("g")).group_by("g").agg(pl.col("psi").unique()).sort("g")
    assert over["psi"].to_list() == [[v] for v in per_group["psi"]]
    lazy = df.lazy().group_by("g").agg(expr).sort("g").collect(engine="streaming")
    assert_frame_equal(lazy, per_group)
    empty = df.filter(pl.col("t") != 0).select(expr).item()
    assert empty is None  # no reference rows
