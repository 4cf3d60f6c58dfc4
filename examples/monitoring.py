"""
A model drifting in one segment, month by month
-----------------------------------------------
A year of scored loan applications in three regions (simulated). From month 9 the model
loses its signal in the "north" region. Each panel shows the monthly AUC with its DeLong
interval, the reference band (mean ± 3 sd of the first six months' AUCs, shaded grey) and the
months that leave it (red rings); below, the PSI of the scores against the same six months,
with the customary 0.1 and 0.25 lines. In "north" both the AUC and the scores move. Two
months of "west" leave its band upwards: a band set by six months' AUCs is itself noisy,
and an alert is a prompt to look, not a verdict.
"""

import datetime as dt

import numpy as np
import polars as pl

import polars_roc as pr

rng = np.random.default_rng(0)
n = 36_000
month = rng.integers(1, 13, n)
region = rng.choice(["north", "south", "west"], n)
default = rng.random(n) < 0.2
signal = np.where((region == "north") & (month >= 9), 0.3, 1.6)
score = 1 / (1 + np.exp(-(rng.normal(size=n) + signal * default - 1.5)))
scores = pl.DataFrame(
    {
        "scored_at": [
            dt.date(2024, int(m), int(d))
            for m, d in zip(month, rng.integers(1, 29, n), strict=True)
        ],
        "region": region,
        "score": score,
        "default": default,
    }
)

reference = ("2024-01-01", "2024-06-30")
monthly = scores.roc.over_time(
    "score",
    "default",
    time="scored_at",
    every="1mo",
    by="region",
    ci="delong",
    reference=reference,
    k=3.0,
)
stability = scores.roc.score_stability(
    "score", time="scored_at", every="1mo", by="region", reference=reference
)

performance = pr.charts.over_time_chart(monthly, facet="region", columns=3, width=260)
drift = pr.charts.stability_chart(stability, facet="region", columns=3, width=260, height=110)
chart = performance & drift
chart  # noqa: B018 (the gallery convention: the script ends with its chart)
