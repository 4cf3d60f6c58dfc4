"""
The ROC convex hull across models
---------------------------------
The hull of the three models' curves: each vertex is a threshold of one model (coloured by
it), and every point on the hull is attainable by randomizing between two vertices. The
dashed iso-performance lines touch the hull at the optimal classifier for three cost/class
ratios (slope = cost_fp * N / (cost_fn * P)).
"""

import polars_roc as pr

scores = pr.datasets.simulate(20_000, seed=0)
hull = scores.roc.hull(model="model")
curves = scores.roc.curve(by="model")

chart = pr.charts.hull_chart(hull, model="model", curves=curves, slopes=[0.5, 2.0, 7.3])
chart  # noqa: B018 (the gallery convention: the script ends with its chart)
