"""Value and decisions: per-row value curves, capacity, decision curves, out-of-fold cutpoints.

* :func:`value_curve`: the value of flagging the top of the score, with amounts per row.
* :func:`decision_curve`: net benefit against treat-all and treat-none (as ``dcurves``).
* :func:`out_of_fold`: a cutpoint chosen on the other folds, measured on the held-out one
  (behind ``best_threshold(..., fold=)``).

On :func:`polars_roc.thresholds.best_threshold`:

* ``method="value"`` maximizes the value of :func:`value_curve` with the same amounts
  (``gain_tp``, ``cost_fp``, ``cost_fn``, ``gain_tn``: numbers >= 0 or columns; the costs
  default to 0 there, to 1 for ``method="cost"``); values within ``1e-12`` of the group's
  scale tie, and the highest threshold wins a tie, as for every method.
* ``capacity=`` (every method): only thresholds flagging at most that share of the rows
  (a float in (0, 1]) or that many rows (an int, or a whole float above 1; a weight sum
  when weighted) are candidates. The boundary is **inclusive**: depth exactly equal to the
  capacity fits (compared as ``flagged / n <= capacity``, so 29 of 100 rows fit 0.29).
  Tied scores are flagged together, so a tied block that would cross the capacity does not
  fit and the next **higher** threshold wins. The ``+inf`` row (flag nothing) always fits.
* ``fold=`` (a column of fold labels; every method, ``where=`` and ``capacity=`` included):
  per group, each fold is held out in turn; the cutpoint is chosen on the group's other
  folds and every :func:`~polars_roc.thresholds.thresholds` column (and the value columns
  with ``method="value"``) is read at it on the held-out fold. The output
  ``*by, fold, threshold, ..., in_sample`` has one row per held-out fold
  (``in_sample`` false) and one in-sample row per group: chosen and measured on all its
  rows, ``fold`` null, ``in_sample`` true, so the optimism is the difference. Rows with a
  null fold are left out. No ``ci`` with ``fold``.
"""

from polars_roc.decisions.decision_curve import decision_curve
from polars_roc.decisions.folds import out_of_fold
from polars_roc.decisions.value import value_curve

__all__ = ["decision_curve", "out_of_fold", "value_curve"]
