"""Release gates: may the challenger replace the champion? One table of named checks.

:mod:`~polars_roc.gates.frame` holds :func:`checks` (``pr.checks``): non-inferiority per
segment, a minimum AUC by its lower bound, the last window's alert and PSI, disparity and
calibration slope, each a row with its value, limit and verdict.
"""

from polars_roc.gates.frame import checks

__all__ = ["checks"]
