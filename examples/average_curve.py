"""
Cross-validated ROC curves with confidence bands
------------------------------------------------
The ROC curve of each model averaged over its five out-of-fold curves (vertical averaging
on a grid of false positive rates), with a pointwise 95% band.
"""

import polars_roc as pr

scores = pr.datasets.simulate(20_000, seed=0)
average = scores.roc.average_curve(by="model", fold="fold")

chart = pr.charts.average_curve_chart(average, color="model")
chart  # noqa: B018 (the gallery convention: the script ends with its chart)
