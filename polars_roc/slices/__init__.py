"""
Slices: where else is the model worse? Every slice of one or two features, ranked.

* ``frame``: :func:`slices`, each slice's AUC against the rest of its group (DeLong,
  the machinery of :func:`polars_roc.segments.disparity`), adjusted for the many tests.
"""

from polars_roc.slices.frame import slices

__all__ = ["slices"]
