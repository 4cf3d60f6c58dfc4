"""
ROC curves by model, one panel per segment
------------------------------------------
Out-of-fold scores of three models in four customer segments (simulated by the package).
Each panel gives every model's AUC in that segment and marks its Youden cutpoint (the
threshold maximizing TPR - FPR) with its threshold.
"""

import polars_roc as pr

scores = pr.datasets.simulate(20_000, seed=0)
curves = scores.roc.curve(by=["model", "segment"])

chart = pr.charts.roc_chart(curves, color="model", facet="segment", columns=2, points="youden")
chart  # noqa: B018 (the gallery convention: the script ends with its chart)
