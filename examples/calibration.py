"""
Reliability diagram
-------------------
Observed fraction of positives against the mean predicted probability in ten bins of equal
size per model (scikit-learn's ``calibration_curve(strategy="quantile")``), with each bin's
row count beneath.
"""

import polars_roc as pr

scores = pr.datasets.simulate(20_000, seed=0)
bins = scores.roc.calibration(by="model", bins=10, strategy="quantile")

chart = pr.charts.calibration_chart(bins, color="model")
chart  # noqa: B018 (the gallery convention: the script ends with its chart)
