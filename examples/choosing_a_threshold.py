"""
Choosing a threshold
--------------------
Sensitivity, false positive rate, precision, F1 and Youden's J against the threshold, one
panel per model, with the threshold maximizing Youden's J marked.
"""

import polars_roc as pr

scores = pr.datasets.simulate(20_000, seed=0)
table = scores.roc.thresholds(by="model")

chart = pr.charts.threshold_chart(
    table, measures=["tpr", "fpr", "ppv", "f1", "youden"], facet="model", width=300
)
chart  # noqa: B018 (the gallery convention: the script ends with its chart)
