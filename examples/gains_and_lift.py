"""
Cumulative gains by decile
--------------------------
The share of positives each model reaches in its top 10%, 20%, ... of rows (the decile gains
table), against the random ordering (diagonal) and the perfect model (dotted).
"""

import polars_roc as pr

scores = pr.datasets.simulate(20_000, seed=0)
table = scores.roc.gains_table(by="model", bins=10)

chart = pr.charts.gain_chart(table, color="model")
chart  # noqa: B018 (the gallery convention: the script ends with its chart)
