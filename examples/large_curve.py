"""
A curve of a million thresholds
-------------------------------
A million cases with continuous (untied) scores give a million-point ROC curve. The chart
thins it for drawing (collinear points first, then arc-length buckets, with a stated error
bound), so the page stays small and under Altair's 5,000-row limit; the AUC in the legend and
every tooltip are exact.
"""

import numpy as np
import polars as pl

import polars_roc as pr

rng = np.random.default_rng(0)
label = rng.random(1_000_000) < 0.1
scores = pl.DataFrame({"label": label, "score": rng.normal(size=label.size) + 1.2 * label})
curve = scores.roc.curve()

chart = pr.charts.roc_chart(curve)
chart  # noqa: B018 (the gallery convention: the script ends with its chart)
