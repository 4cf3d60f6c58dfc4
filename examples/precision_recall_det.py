"""
Precision-recall and DET curves
-------------------------------
With rare positives the precision-recall curve shows what the ROC curve hides: the dashed
baseline is the prevalence, and the legend gives each model's average precision. The DET
curve plots both error rates on normal-deviate axes, where binormal scores draw straight
lines.
"""

import polars_roc as pr

scores = pr.datasets.simulate(20_000, seed=0)

chart = pr.charts.pr_chart(scores.roc.pr_curve(by="model"), color="model") | pr.charts.det_chart(
    scores.roc.det_curve(by="model"), color="model"
)
chart  # noqa: B018 (the gallery convention: the script ends with its chart)
