"""
Fraud review: the value of each threshold, with per-row amounts and a 2% capacity
---------------------------------------------------------------------------------
Each flagged fraud saves its transaction amount; each flagged legitimate transaction costs
a review (25). The team can review 2% of transactions: the best threshold within that
capacity, per model, next to the unconstrained optimum, and the cutpoint chosen on the
other folds and judged on each held-out one (the in-sample optimum is optimistic).
"""

import numpy as np
import polars as pl

import polars_roc as pr

scores = pr.datasets.simulate(20_000, seed=0)
rng = np.random.default_rng(0)
scores = scores.with_columns(amount=pl.Series(rng.lognormal(5, 1.2, scores.height)).round(2))

values = scores.roc.value_curve(gain_tp="amount", cost_fp=25.0, by="model")
best = scores.roc.best_threshold(
    method="value", gain_tp="amount", cost_fp=25.0, capacity=0.02, by="model"
)
print(best.select("model", "threshold", "depth", "tp", "fp", "value"))

# Out of fold: chosen on four folds, measured on the fifth; in_sample marks the optimistic row.
honest = scores.roc.best_threshold(
    method="value", gain_tp="amount", cost_fp=25.0, capacity=0.02, by="model", fold="fold"
)
mean = pl.col("value_per_case").mean()
print(honest.group_by("model", "in_sample").agg(mean).sort("model", "in_sample"))

chart = pr.charts.value_chart(values, capacity=0.02, color="model")
chart  # noqa: B018 (the gallery convention: the script ends with its chart)
