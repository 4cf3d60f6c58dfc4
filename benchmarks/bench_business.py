"""Business and calibration views against scikit-learn, as ratios measured in the same run.

Usage::

    python benchmarks/bench_business.py [--rows 1000000] [--groups 1000] [--repeats 5]

One group of ``--rows`` rows, then the same rows in ``--groups`` groups. Each task and its
scikit-learn peer run interleaved, round after round, and the median of each is printed
with their ratio (below 1: polars_roc is faster). scikit-learn has no grouped API: its
grouped time is a Python loop over the groups (all of them, not extrapolated). Peers:

* ``calibration`` (uniform, quantile): ``sklearn.calibration.calibration_curve``;
* ``ks``: ``roc_curve`` and the argmax of ``tpr - fpr``;
* ``pr_auc`` (expression and frame method): ``auc(recall, precision)`` of
  ``precision_recall_curve``;
* ``gains_table``: scikit-learn has none; ``roc_curve`` (the curve it is read from) is the
  reference.

Ends with one line per target: "met" or "MISSED". Not a test: timings are noisy on a
shared machine, so compare the ratios, not the seconds.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import numpy as np
import polars as pl
from sklearn.calibration import calibration_curve
from sklearn.metrics import auc, precision_recall_curve, roc_curve
from timing import race

import polars_roc as pr

TARGETS: list[tuple[str, float, float]] = []  # (name, ratio, at most)


def compare(title: str, ours: Callable[[], Any], theirs: Callable[[], Any], repeats: int) -> float:
    medians = race({"ours": ours, "theirs": theirs}, repeats)
    ratio = medians["ours"] / medians["theirs"]
    print(
        f"  {title:<44} polars_roc {medians['ours']:7.3f}s  scikit-learn "
        f"{medians['theirs']:7.3f}s  ratio {ratio:5.2f}",
        flush=True,
    )
    return ratio


def sklearn_ks(y: np.ndarray, s: np.ndarray) -> float:
    fpr, tpr, _ = roc_curve(y, s)
    return float(np.max(tpr - fpr))


def sklearn_pr_auc(y: np.ndarray, s: np.ndarray) -> float:
    precision, recall, _ = precision_recall_curve(y, s)
    return float(auc(recall, precision))


def one_group(df: pl.DataFrame, repeats: int) -> None:
    y, s = df["label"].to_numpy(), df["score"].to_numpy()
    print(f"\none group, {df.height:,} rows:")
    for strategy in ("uniform", "quantile"):
        ratio = compare(
            f"calibration(strategy={strategy!r})",
            lambda strategy=strategy: df.roc.calibration(strategy=strategy),
            lambda strategy=strategy: calibration_curve(y, s, n_bins=10, strategy=strategy),
            repeats,
        )
        TARGETS.append((f"calibration {strategy}, one group / sklearn", ratio, 1.0))
    ratio = compare("ks()", df.roc.ks, lambda: sklearn_ks(y, s), repeats)
    TARGETS.append(("ks, one group / sklearn roc_curve + argmax", ratio, 1.0))
    ratio = compare(
        "pr_auc expression",
        lambda: df.select(pr.pr_auc("score", "label")),
        lambda: sklearn_pr_auc(y, s),
        repeats,
    )
    TARGETS.append(("pr_auc expression, one group / sklearn", ratio, 1.0))
    compare("df.roc.pr_auc()", df.roc.pr_auc, lambda: sklearn_pr_auc(y, s), repeats)
    compare("gains_table() (peer: roc_curve)", df.roc.gains_table, lambda: roc_curve(y, s), repeats)


def many_groups(df: pl.DataFrame, groups: int, repeats: int) -> None:
    parts = [(p["label"].to_numpy(), p["score"].to_numpy()) for _, p in df.group_by("g")]
    print(f"\n{groups:,} groups of about {df.height // groups:,} rows (scikit-learn: a loop):")
    for strategy in ("uniform", "quantile"):

        def loop(strategy: str = strategy) -> None:
            for y, s in parts:
                calibration_curve(y, s, n_bins=10, strategy=strategy)

        ratio = compare(
            f"calibration(by='g', strategy={strategy!r})",
            lambda strategy=strategy: df.roc.calibration(by="g", strategy=strategy),
            loop,
            repeats,
        )
        TARGETS.append((f"calibration {strategy}, {groups:,} groups / sklearn loop", ratio, 0.5))
    ratio = compare(
        "ks(by='g')",
        lambda: df.roc.ks(by="g"),
        lambda: [sklearn_ks(y, s) for y, s in parts],
        repeats,
    )
    TARGETS.append((f"ks, {groups:,} groups / sklearn loop", ratio, 0.5))
    ratio = compare(
        "group_by('g').agg(pr.pr_auc(...))",
        lambda: df.group_by("g").agg(pr.pr_auc("score", "label")),
        lambda: [sklearn_pr_auc(y, s) for y, s in parts],
        repeats,
    )
    TARGETS.append((f"pr_auc expression, {groups:,} groups / sklearn loop", ratio, 0.5))
    compare(
        "gains_table(by='g') (peer: roc_curve loop)",
        lambda: df.roc.gains_table(by="g"),
        lambda: [roc_curve(y, s) for y, s in parts],
        repeats,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--groups", type=int, default=1_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    # Calibrated probabilities with ties (rounded to 6 places), 30 % positives overall.
    score = np.round(rng.beta(2, 5, args.rows), 6)
    label = rng.random(args.rows) < score
    group = rng.integers(0, args.groups, args.rows)
    df = pl.DataFrame({"score": score, "label": label, "g": group})
    print(f"polars {pl.__version__}; median of {args.repeats} interleaved rounds")
    one_group(df, args.repeats)
    many_groups(df, args.groups, args.repeats)
    print("\nTargets (issue 13), ratios measured in this run:")
    for name, ratio, bound in TARGETS:
        met = ratio <= bound
        print(f"  {'met   ' if met else 'MISSED'} {name:<58} {ratio:5.2f} <= {bound}")


if __name__ == "__main__":
    main()
