"""
AUC by segment with DeLong intervals
------------------------------------
A forest plot: each model and segment's AUC with its 95% DeLong interval, sorted by AUC, one
panel per model.
"""

import polars_roc as pr

scores = pr.datasets.simulate(20_000, seed=0)
aucs = scores.roc.auc(by=["model", "segment"], ci="delong")

chart = pr.charts.auc_interval_chart(aucs, label="segment", color="model", facet="model")
chart  # noqa: B018 (the gallery convention: the script ends with its chart)
