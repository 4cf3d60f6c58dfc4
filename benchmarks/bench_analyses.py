"""Benchmark: every round-3 analysis against its nearest core call, in one run.

Usage::

    python benchmarks/bench_analyses.py [GROUPS] [ROWS_PER_GROUP] [REPEATS] [ONLY]

Defaults: 2,000 groups of 10 rows, 3 repeats; ONLY (optional) runs the lines whose name
contains one of its comma-separated words (e.g. ``decision,fold``). The shapes of the
Benchmarks page are (a) ``100000 2``, (b) ``2000 10`` and (c) ``100 100000`` (10M rows).
Each analysis and its core call run in turn (round-robin, :func:`timing.race`), so a shift
in machine load hits both alike; the script prints both medians and their ratio. Not a
test: timings are noisy.

Where an analysis must do more than its core call, a ``floor`` line times the same work
hand-built in plain Polars (no checks, no coding): the calibration fits' Newton steps
(per-group sums only); the decision curve's counts of each group
at or above each of 99 thresholds; the 5 fold version's optimum searches (the stacked
training folds and the in-sample search) and held-out tables; the score stability's PSI
and KS statistic (no p-values); for ``pr.auc`` in
``group_by().agg()`` a bare ``rank("average")`` AUC and the same with our null masking and
NaN test in plain Polars.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import numpy as np
import polars as pl
from timing import race

import polars_roc as pr


def scored(groups: int, per_group: int, seed: int = 0) -> pl.LazyFrame:
    """`groups` groups `g` of `per_group` rows: two segments, five folds, a month of days."""
    rng = np.random.default_rng(seed)
    n = groups * per_group
    label = rng.random(n) < 0.4
    score = 1 / (1 + np.exp(-(rng.normal(size=n) + 1.2 * label - 0.5)))
    row = np.arange(n)
    start = datetime(2024, 1, 1)
    return pl.LazyFrame(
        {
            "g": row // per_group,
            "seg": (row % per_group) % 2,
            "k": (row % per_group) % 5,
            "ts": pl.datetime_range(start, start + timedelta(days=59), "1d", eager=True).sample(
                n, with_replacement=True, seed=seed
            ),
            "time": rng.exponential(5.0, n).round(1) + 0.1,
            "event": rng.random(n) < 0.7,
            "label": label,
            "score": score.round(4),
        }
    )


PROBABILITIES = pl.Series("threshold", [i / 100 for i in range(1, 100)])


def decision_floor(lf: pl.LazyFrame) -> pl.LazyFrame:
    """Net benefit at 99 thresholds per group, hand-built: bins, counts, a grid, suffix sums."""
    label = pl.col("label")
    binned = lf.select(
        "g",
        pos=label.cast(pl.Int64),
        neg=(~label).cast(pl.Int64),
        b=pl.lit(PROBABILITIES).search_sorted(pl.col("score"), side="right").cast(pl.Int64),
    )
    counts = binned.group_by("g", "b").agg(pl.col("pos", "neg").sum())
    bins = pl.LazyFrame({"b": range(len(PROBABILITIES) + 1)}, schema={"b": pl.Int64})
    grid = lf.select("g").unique().sort("g").join(bins, how="cross", maintain_order="left_right")
    dense = grid.join(counts, on=["g", "b"], how="left", maintain_order="left").fill_null(0)
    above = dense.with_columns(
        tp=pl.col("pos").cum_sum(reverse=True).over("g") - pl.col("pos"),
        fp=pl.col("neg").cum_sum(reverse=True).over("g") - pl.col("neg"),
        n=pl.col("pos").sum().over("g") + pl.col("neg").sum().over("g"),
    ).filter(pl.col("b") < len(PROBABILITIES))
    t = pl.lit(PROBABILITIES).gather(pl.col("b"))
    return above.select(
        "g", threshold=t, net_benefit=(pl.col("tp") - pl.col("fp") * t / (1 - t)) / pl.col("n")
    )


def calibration_floor(lf: pl.LazyFrame) -> tuple[np.ndarray, np.ndarray]:
    """
    Both recalibration fits per group, hand-built: Newton in plain Polars, per-group sums only.

    The same model and stopping rule as ``calibration_fit`` (steps below 1e-10 relative),
    each step one aggregation of the log-likelihood, gradient and information over all
    groups at once (no step halving, no separation check, no intervals, no label coding):
    the intercept with ``logit(p)`` an offset, then intercept and slope from (0, 1). Read it
    at large groups: in tiny ones the classes are often separated, where the estimate does
    not exist and this plain Newton runs all its 100 steps (the method stops such a group
    before its first step).
    """
    eps = float(np.finfo(np.float64).eps)
    p = pl.col("score").cast(pl.Float64).clip(eps, 1 - eps)
    rows = lf.select(
        gi=pl.col("g").rank("dense").cast(pl.Int64) - 1,
        x=p.log() - (-p).log1p(),
        y=pl.col("label").cast(pl.Float64),
    ).collect()
    n = rows["gi"].max() + 1
    x, y = pl.col("x"), pl.col("y")

    def newton(k: int) -> np.ndarray:
        beta = np.zeros((n, k))
        for _ in range(100):
            b0 = pl.lit(pl.Series(beta[:, 0])).gather(pl.col("gi"))
            eta = b0 + (pl.lit(pl.Series(beta[:, 1])).gather(pl.col("gi")) * x if k == 2 else x)
            e = pl.col("eta")
            mu = pl.col("mu")
            terms = {"r": y - mu, "v": mu * (1 - mu)}
            terms["ll"] = y * e - pl.max_horizontal(e, 0) - (-e.abs()).exp().log1p()
            if k == 2:
                terms |= {"rx": pl.col("r") * x, "vx": pl.col("v") * x}
                terms["vxx"] = pl.col("v") * x * x
            got = (
                rows.lazy()
                .with_columns(eta=eta)
                .with_columns(mu=1 / (1 + (-e).exp()))
                .with_columns(**{c: terms[c] for c in ("r", "v", "ll")})
                .with_columns(**{c: terms[c] for c in terms if c not in ("r", "v", "ll")})
                .group_by("gi")
                .agg(pl.col(*terms).sum())
                .sort("gi")
                .collect()
            )
            if k == 1:
                step = (got["r"] / got["v"]).to_numpy()[:, None]
            else:
                h00, h01, h11 = (got[c].to_numpy() for c in ("v", "vx", "vxx"))
                g0, g1 = got["r"].to_numpy(), got["rx"].to_numpy()
                det = h00 * h11 - h01 * h01
                step = np.column_stack([h11 * g0 - h01 * g1, h00 * g1 - h01 * g0]) / det[:, None]
            beta = beta + step
            if np.all(np.abs(step) < 1e-10 * (1 + np.abs(beta))):
                break
        return beta

    with np.errstate(all="ignore"):  # separated groups: no finite optimum
        return newton(1), newton(2)


def fold_floor(lf: pl.LazyFrame) -> tuple[pl.DataFrame, ...]:
    """What 5 folds must do: the stacked training folds' searches, in-sample, held-out tables."""
    pairs = lf.select("g", pl.col("k").alias("h")).unique()
    train = lf.join(pairs, on="g").filter(pl.col("k") != pl.col("h"))
    return (
        train.roc.best_threshold(by=["g", "h"]).collect(),
        lf.roc.best_threshold(by="g").collect(),
        lf.roc.thresholds(by=["g", "k"]).collect(),
    )


def stability_floor(lf: pl.LazyFrame, reference: pl.Expr) -> pl.LazyFrame:
    """
    PSI and the KS statistic per group and month against the reference, hand-built.

    What ``score_stability`` must do, in plain Polars with no checks, NaN handling, weights
    or p-values: the reference's 9 decile edges per group, each side's share at or below
    every edge, the PSI sum (a zero share counted as 0.0001); for KS each side's running
    counts at its distinct scores and one as-of join from the month's scores to the
    reference's, the gap read at and just below each month score.
    """
    s, k = pl.col("score"), 9
    rows = lf.select("g", w=pl.col("ts").dt.truncate("1mo"), r=reference, score=s)
    ref = rows.filter(pl.col("r"))
    deciles = [s.quantile((i + 1) / 10, "linear").alias(f"q{i}") for i in range(k)]
    edges = ref.group_by("g").agg(deciles)

    def shares(frame: pl.LazyFrame, keys: list[str], side: str) -> pl.LazyFrame:
        flags = [(s <= pl.col(f"q{i}")).mean().alias(f"{side}{i}") for i in range(k)]
        return frame.join(edges, on="g").group_by(keys).agg(flags)

    cdf = shares(rows, ["g", "w"], "a").join(shares(ref, ["g"], "e"), on="g")

    def bin_share(side: str, i: int) -> pl.Expr:
        hi = pl.col(f"{side}{i}") if i < k else pl.lit(1.0)
        share = hi - pl.col(f"{side}{i - 1}") if i else hi
        return pl.when(share <= 0).then(0.0001).otherwise(share)

    terms = [
        (bin_share("a", i) - bin_share("e", i)) * (bin_share("a", i) / bin_share("e", i)).log()
        for i in range(k + 1)
    ]
    psi = cdf.select("g", "w", psi=pl.sum_horizontal(terms))

    def running(frame: pl.LazyFrame, keys: list[str]) -> pl.LazyFrame:
        counted = frame.group_by(*keys, "score").agg(c=pl.len())
        cum = pl.col("c").cum_sum().over(keys, order_by="score")
        total = pl.col("c").sum().over(keys)
        return counted.with_columns(le=cum / total, lt=(cum - pl.col("c")) / total)

    ref_cdf = running(ref, ["g"]).select("g", "score", r_le="le", r_lt="lt", r_at="score")
    month_cdf = running(rows, ["g", "w"]).sort("score")
    joined = month_cdf.join_asof(
        ref_cdf.sort("score"), on="score", by="g", strategy="backward", check_sortedness=False
    )
    r_lt = pl.when(pl.col("r_at") == s).then(pl.col("r_lt")).otherwise(pl.col("r_le"))
    gap = pl.max_horizontal(
        (pl.col("le") - pl.col("r_le").fill_null(0.0)).abs(),
        (pl.col("lt") - r_lt.fill_null(0.0)).abs(),
    )
    ks = joined.group_by("g", "w").agg(ks=gap.max())
    return psi.join(ks, on=["g", "w"])


def bare_auc() -> pl.Expr:
    """A bare ``rank("average")`` AUC (as bench_core.py): no coding, checks or nulls."""
    label = pl.col("label")
    n_pos, n_neg = (c.sum().cast(pl.Float64) for c in (label, ~label))
    u = pl.col("score").rank("average").filter(label).sum() - n_pos * (n_pos + 1) / 2
    return (u / (n_pos * n_neg)).alias("auc")


def masked_auc() -> pl.Expr:
    """The bare AUC with ``pr.auc``'s null masking and NaN test, in plain Polars."""
    s = pl.col("score")
    code = pl.col("label").cast(pl.UInt8, strict=False) == 1
    score, positive = pl.when(code.is_not_null()).then(s), pl.when(s.is_not_null()).then(code)
    n_pos, n_neg = (c.sum().cast(pl.Float64) for c in (positive, ~positive))
    u = score.rank("average").filter(positive).sum() - n_pos * (n_pos + 1) / 2
    nan = (s.is_nan() & code.is_not_null()).any()
    return pl.when((n_pos > 0) & (n_neg > 0) & ~nan).then(u / (n_pos * n_neg)).alias("auc")


def pairs(lf: pl.LazyFrame) -> dict[str, tuple[Callable[[], Any], Callable[[], Any]]]:
    """Each analysis beside its nearest core call (the name says which)."""
    t19 = [i / 20 for i in range(1, 20)]
    by = {"by": "g"}
    run = lambda q: lambda: q.collect()  # noqa: E731
    auc_g = run(lf.roc.auc(**by))
    auc_gs = run(lf.roc.auc(by=["g", "seg"]))
    month = lf.with_columns(w=pl.col("ts").dt.truncate("1mo"))
    auc_wg = run(month.roc.auc(by=["w", "g"]))
    reference = pl.col("ts") < datetime(2024, 2, 1)
    return {
        "thresholds(ci=clopper_pearson) / ci=wilson": (
            run(lf.roc.thresholds(**by, thresholds=t19, ci="clopper_pearson")),
            run(lf.roc.thresholds(**by, thresholds=t19, ci="wilson")),
        ),
        "calibration_fit / auc": (run(lf.roc.calibration_fit(**by)), auc_g),
        "calibration_fit / floor (hand-built Newton)": (
            run(lf.roc.calibration_fit(**by)),
            lambda: calibration_floor(lf),
        ),
        "best_threshold(fold=) / best_threshold": (
            run(lf.roc.best_threshold(**by, fold="k")),
            run(lf.roc.best_threshold(**by)),
        ),
        "best_threshold(fold=) / floor (5 folds)": (
            run(lf.roc.best_threshold(**by, fold="k")),
            lambda: fold_floor(lf),
        ),
        "decision_curve / auc": (run(lf.roc.decision_curve(**by)), auc_g),
        "decision_curve / floor (hand-built)": (
            run(lf.roc.decision_curve(**by)),
            run(decision_floor(lf)),
        ),
        "time_auc / auc": (
            run(lf.roc.time_auc(time="time", event="event", horizons=[2.0, 5.0], **by)),
            auc_g,
        ),
        "rollup / auc(by=[g, seg])": (run(lf.roc.rollup(segment="seg", **by)), auc_gs),
        "bias_auc / auc(by=[g, seg])": (run(lf.roc.bias_auc(segment="seg", **by)), auc_gs),
        "cross_auc / auc(by=[g, seg])": (run(lf.roc.cross_auc(segment="seg", **by)), auc_gs),
        "disparity(adjust=holm) / adjust=None": (
            run(lf.roc.disparity(segment="seg", **by, adjust="holm")),
            run(lf.roc.disparity(segment="seg", **by, adjust=None)),
        ),
        "disparity / auc(by=[g, seg], ci=delong)": (
            run(lf.roc.disparity(segment="seg", **by)),
            run(lf.roc.auc(by=["g", "seg"], ci="delong")),
        ),
        "over_time(ci=delong) / auc(by=[month, g])": (
            run(lf.roc.over_time(time="ts", every="1mo", ci="delong", **by)),
            auc_wg,
        ),
        "agg(pr.auc) / bare rank expression": (
            run(lf.group_by("g").agg(pr.auc("score", "label"))),
            run(lf.group_by("g").agg(bare_auc())),
        ),
        "agg(pr.auc) / rank + masking (floor)": (
            run(lf.group_by("g").agg(pr.auc("score", "label"))),
            run(lf.group_by("g").agg(masked_auc())),
        ),
        "over_time(ci=delong, reference=) / auc(ci=delong)": (
            run(lf.roc.over_time(time="ts", every="1mo", ci="delong", reference=reference, **by)),
            run(month.roc.auc(by=["w", "g"], ci="delong")),
        ),
        "score_stability / auc(by=[month, g])": (
            run(lf.roc.score_stability(time="ts", every="1mo", reference=reference, **by)),
            auc_wg,
        ),
        "score_stability / floor (PSI + KS hand-built)": (
            run(lf.roc.score_stability(time="ts", every="1mo", reference=reference, **by)),
            run(stability_floor(lf, reference)),
        ),
    }


def main(groups: int = 2_000, per_group: int = 10, repeats: int = 3, only: str = "") -> None:
    lf = scored(groups, per_group).collect().lazy()  # built once, outside the timings
    print(f"polars {pl.__version__}, {pl.thread_pool_size()} threads; {groups:,} groups x ", end="")
    print(f"{per_group:,} rows ({groups * per_group:,} rows), median of {repeats}")
    print(f"  {'analysis / core call':<46} {'analysis':>9} {'core':>9} {'ratio':>7}")
    words = [word for word in only.split(",") if word]
    for name, (analysis, core) in pairs(lf).items():
        if words and not any(word in name for word in words):
            continue
        seconds = race({"analysis": analysis, "core": core}, repeats)
        ratio = seconds["analysis"] / seconds["core"]
        print(f"  {name:<46} {seconds['analysis']:8.3f}s {seconds['core']:8.3f}s {ratio:6.1f}x")
        sys.stdout.flush()


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:4]), *sys.argv[4:5])
