"""
Score distributions by class
----------------------------
An odd ROC curve is often explained by the scores themselves: per-class densities, the
sorted-score plot (every case by its rank, with a barcode of where each class sits) and a
jittered strip plot, one row per model. The charts read the scored rows; the package bins or
samples them first, so this works on millions of rows.
"""

import polars_roc as pr

scores = pr.datasets.simulate(20_000, seed=0)

chart = pr.charts.score_chart(
    scores, kind=["density", "sorted", "strip"], row="model", width=260, height=160
)
chart  # noqa: B018 (the gallery convention: the script ends with its chart)
