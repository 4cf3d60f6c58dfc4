"""
Churn within 90, 180 and 365 days
---------------------------------
A churn score judged at several horizons: cumulative/dynamic AUC(t) with inverse-probability-
of-censoring weights (customers still active at the end of follow-up are censored), per
plan, with scikit-survival's mean AUC over the horizons.
"""

import numpy as np
import polars as pl

import polars_roc as pr

rng = np.random.default_rng(0)
n = 6_000
plan = rng.choice(["basic", "premium"], n)
risk = rng.normal(size=n)
hazard = np.exp(0.9 * risk - np.where(plan == "premium", 0.6, 0.0)) / 300
churn_day = rng.exponential(1 / hazard)
follow_up = rng.uniform(200, 500, n)  # customers joined at different times
customers = pl.DataFrame(
    {
        "plan": plan,
        "score": risk + rng.normal(scale=0.8, size=n),
        "days": np.minimum(churn_day, follow_up).round(),
        "churned": churn_day <= follow_up,
    }
)
horizons = [90, 180, 365]
table = customers.roc.time_auc(
    "score", time="days", event="churned", horizons=horizons, by="plan"
)
print(table)

chart = pr.charts.time_auc_chart(table, color="plan")
chart  # noqa: B018 (the gallery convention: the script ends with its chart)
