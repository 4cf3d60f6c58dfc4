"""
Calibration with closed-form intervals
--------------------------------------
Reliability bins with Wilson intervals (no resampling: they need only the counts), and the
logistic recalibration slope and intercept per model with their Wald intervals.
"""

import polars_roc as pr

scores = pr.datasets.simulate(20_000, seed=0)
bins = scores.roc.calibration(by="model", bins=10, strategy="quantile", ci="wilson")
fit = scores.roc.calibration_fit(by="model")  # slope 1 and intercept 0 are ideal
print(fit.select("model", "slope", "slope_lower", "slope_upper", "intercept", "citl"))

chart = pr.charts.calibration_chart(bins, color="model")
chart  # noqa: B018 (the gallery convention: the script ends with its chart)
