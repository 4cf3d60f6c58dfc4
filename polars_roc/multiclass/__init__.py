"""Multiclass ROC: one-vs-rest and one-vs-one AUC, pairwise AUC of one score, averaged curves.

Everything here is the binary core with the class as one more group. The per-class score
columns are unpivoted to long form (one row per case and class: the class's score, "is the
case of that class"), and :func:`polars_roc.areas.auc` / :func:`polars_roc.curves.curve` run
on it with the class among the ``by`` columns. One-vs-one and the pairwise AUCs of a single
score (pROC's ``multiclass.roc``) build one group per class pair the same way. There is no
second counting path.

Scores are scores, not probabilities: the columns need not sum to 1 per row (scikit-learn
insists on it for ``multi_class="ovr"``; nothing here depends on it).

``multiclass.multiclass_auc`` is the frame function (``df.roc.multiclass_auc``); the scalar
expression ``pr.multiclass_auc`` lives in :mod:`polars_roc.multiclass.expression` (it reads
the class coding of this package, so it cannot sit in the lower ``exprs`` layer).
"""

from polars_roc.multiclass.auc import multiclass_auc
from polars_roc.multiclass.curve import AVERAGED, multiclass_curve

__all__ = ["AVERAGED", "multiclass_auc", "multiclass_curve"]
