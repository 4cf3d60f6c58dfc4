"""
Interactive threshold explorer
------------------------------
Drag the slider: each model's operating point moves along its ROC curve and the table shows
the confusion counts and rates at that threshold. Everything runs in the browser.
"""

import polars_roc as pr

scores = pr.datasets.simulate(20_000, seed=0)
table = scores.roc.thresholds(by="model")

chart = pr.charts.threshold_explorer(table, color="model", threshold=0.3)
chart  # noqa: B018 (the gallery convention: the script ends with its chart)
