"""
Segments: is the headline AUC real, and where does the model rank worse?
------------------------------------------------------------------------
A churn model scored in eight regions whose base rates and score levels differ. The roll-up
splits the pooled AUC into ranking within regions and the part that comes from the regions'
base rates; the disparity table tests each region against the rest (Holm-adjusted); the
forest plot shows the region AUCs above the pooled, within-region and inverse-variance
summaries, and the heatmap where one region's positives rank below another's negatives.
"""

import numpy as np
import polars as pl

import polars_roc as pr

rng = np.random.default_rng(0)
n = 40_000
regions = np.array(["north", "south", "east", "west", "central", "coast", "hills", "metro"])
region = rng.integers(0, len(regions), n)
churned = rng.random(n) < 0.04 + 0.03 * region  # base rates from 4% to 25%
noise = np.where(regions[region] == "west", 2.5, 1.0)  # the model ranks poorly in the west
score = 0.25 * region + 1.2 * churned + noise * rng.normal(size=n)
scores = pl.DataFrame({"region": regions[region], "score": score, "label": churned})

rollup = scores.roc.rollup(segment="region")
print(rollup.select("pooled_auc", "within_auc", "between", "ivw_auc", "q_p_value", "i2"))
disparity = scores.roc.disparity(segment="region")
print(disparity.filter(pl.col("p_adjusted") < 0.05).sort("p_adjusted"))

aucs = scores.roc.auc(by="region", ci="delong")
forest = pr.charts.auc_interval_chart(aucs, rollup=rollup)
heatmap = pr.charts.cross_auc_chart(scores.roc.cross_auc(segment="region"))

chart = forest | heatmap
chart  # noqa: B018 (the gallery convention: the script ends with its chart)
