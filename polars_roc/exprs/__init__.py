"""Every scalar expression: ``pr.X`` is ``exprs.X`` is ``pl.col(score).roc.X``.

Each is a `pl.Expr` valid in `select`, `group_by().agg()`, `over()`, `group_by_dynamic()`
and the streaming engine, and a metric for :func:`polars_roc.bootstrap`.
"""

from polars_roc.exprs.ranking import auc
from polars_roc.exprs.stability import estimated_auc, psi  # over time (issue 31)

__all__ = ["auc", "estimated_auc", "psi"]
