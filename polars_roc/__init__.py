"""
ROC analysis as Polars expressions and frames: exact, lazy, grouped.

Importing the package registers the ``.roc`` namespaces on DataFrame, LazyFrame and Expr.

Examples
--------
>>> import polars as pl
>>> import polars_roc as pr
>>> df = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.1], "label": [1, 0, 1, 0]})
>>> df.roc.auc()["auc"].item()
0.75
>>> df.select(pr.auc("score", "label")).item()
0.75
"""

from polars_roc import areas, curves, datasets, exprs, namespace
from polars_roc.exprs import auc

# Keep __all__ sorted; each feature module adds its public names here.
__all__ = ["areas", "auc", "curves", "datasets", "exprs", "namespace"]
__version__ = "0.1.0"
