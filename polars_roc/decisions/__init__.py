"""Value and decisions: per-row value curves, capacity, decision curves, out-of-fold cutpoints.

* :func:`value_curve`: the value of flagging the top of the score, with amounts per row.
* :func:`decision_curve`: net benefit against treat-all and treat-none (as ``dcurves``).
* :func:`out_of_fold`: a cutpoint chosen on the other folds, measured on the held-out one
  (behind ``best_threshold(..., fold=)``).
"""

from polars_roc.decisions.decision_curve import decision_curve
from polars_roc.decisions.folds import out_of_fold
from polars_roc.decisions.value import value_curve

__all__ = ["decision_curve", "out_of_fold", "value_curve"]
