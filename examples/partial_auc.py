"""
Partial AUC over a low false-positive range
-------------------------------------------
When only a low false positive rate is acceptable (say at most 10%), compare models by the
area over that range. The labels give the raw partial AUC and McClish's standardized value
(0.5 = chance, 1 = perfect within the range), which equals scikit-learn's
``roc_auc_score(max_fpr=0.1)``.
"""

import polars_roc as pr

scores = pr.datasets.simulate(20_000, seed=0)
curves = scores.roc.curve(by="model")

chart = pr.charts.partial_auc_chart(curves, fpr=(0.0, 0.1), color="model")
chart  # noqa: B018 (the gallery convention: the script ends with its chart)
