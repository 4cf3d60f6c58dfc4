"""Shared data and oracles of the survival tests: censored data, scikit-survival, brute force."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest


def sksurv_auc(df: pl.DataFrame, horizons: list[float]) -> tuple[np.ndarray, float]:
    """scikit-survival's cumulative_dynamic_auc with the rows as train and test data."""
    sksurv_metrics = pytest.importorskip("sksurv.metrics")
    sksurv_util = pytest.importorskip("sksurv.util")
    y = sksurv_util.Surv.from_arrays(
        df["e"].cast(bool).to_numpy(), df["t"].cast(pl.Float64).to_numpy()
    )
    return sksurv_metrics.cumulative_dynamic_auc(y, y, df["s"].to_numpy(), horizons)


def censored(seed: int, n: int = 300, ties: bool = False) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    risk = rng.normal(size=n)
    event_time = rng.exponential(1 / np.exp(0.8 * risk))
    censor_time = rng.exponential(1.5, n)
    t = np.minimum(event_time, censor_time)
    if ties:
        t = np.ceil(t * 10) / 10
    s = risk + rng.normal(scale=0.7, size=n)
    return pl.DataFrame(
        {"s": np.round(s, 1) if ties else s, "t": t, "e": event_time <= censor_time}
    )


def weighted_brute_force(df: pl.DataFrame, horizon: float, *, before: bool = False) -> float | None:
    """
    Weighted IPCW AUC(t) from its definition, one subject at a time (no sort, no cumsum).

    G(u) = Π_{v <= u} (1 - C_v / (R_v - D_v)) with R_v the weight at risk (time >= v), D_v
    the events' and C_v the censorings' weight at v; a case (event by the horizon) weighs
    w / G(its time), a control (time past the horizon) w; ties in the score count one half.
    With `before`, a case reads G just before its time (the product over v < its time).
    """
    t, e, s, w = (df[c].to_numpy() for c in ("t", "e", "s", "w"))
    g, g_before, survival = {}, {}, 1.0
    for u in sorted(set(t.tolist())):
        g_before[u] = survival
        at = t == u
        r = sum(w[i] for i in range(len(t)) if t[i] >= u)
        d = sum(w[i] for i in range(len(t)) if at[i] and e[i])
        c = sum(w[i] for i in range(len(t)) if at[i] and not e[i])
        if r - d > 0:
            survival *= 1 - c / (r - d)
        g[u] = survival
    curve = g_before if before else g
    cases = [(s[i], w[i] / curve[t[i]]) for i in range(len(t)) if e[i] and t[i] <= horizon]
    controls = [(s[j], w[j]) for j in range(len(t)) if t[j] > horizon]
    if not cases or not controls:
        return None
    num = sum(a * b * ((x > y) + 0.5 * (x == y)) for x, a in cases for y, b in controls)
    return num / (sum(a for _, a in cases) * sum(b for _, b in controls))


def integer_times(n: int, seed: int) -> pl.DataFrame:
    """Integer times: censorings tie with cases, where G(T) and G(T-) differ."""
    rng = np.random.default_rng(seed)
    risk = rng.normal(size=n)
    event_time = rng.exponential(6 * np.exp(-0.8 * risk))
    censor_time = rng.exponential(9, n)
    return pl.DataFrame(
        {
            "s": np.round(risk + rng.normal(0, 0.7, n), 1),
            "t": np.ceil(np.minimum(event_time, censor_time)),
            "e": event_time <= censor_time,
            "w": rng.integers(1, 4, n),
        }
    )
