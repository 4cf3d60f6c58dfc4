"""
Multiclass ROC: one curve per class, micro and macro averages
--------------------------------------------------------------
A three-class model on scikit-learn's wine data (a deliberately weak logistic regression on two
features): each class against the rest, the pooled (micro) curve and the vertical average of
the class curves (macro, whose area is the macro AUC), the averages dashed.
"""

import numpy as np
import polars as pl
from sklearn.datasets import load_wine
from sklearn.linear_model import LogisticRegression

import polars_roc as pr

X, y = load_wine(return_X_y=True)
names = ["barolo", "grignolino", "barbera"]
model = LogisticRegression(max_iter=1000).fit(X[::2, :2], y[::2])
proba = model.predict_proba(X[:, :2])
wines = pl.DataFrame({"cultivar": np.array(names)[y], **dict(zip(names, proba.T, strict=True))})

print(wines.roc.multiclass_auc(names, "cultivar", average=None, ci="delong"))
print(wines.roc.multiclass_auc(names, "cultivar", method="ovo"))  # Hand & Till's M

curves = wines.roc.multiclass_curve(names, "cultivar")
chart = pr.charts.roc_chart(curves, color="class")
chart  # noqa: B018 (the gallery convention: the script ends with its chart)
