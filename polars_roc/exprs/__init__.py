"""Every scalar expression: ``pr.X`` is ``exprs.X`` is ``pl.col(score).roc.X``.

Each is a `pl.Expr` valid in `select`, `group_by().agg()`, `over()`, `group_by_dynamic()`
and the streaming engine, and a metric for :func:`polars_roc.bootstrap`.
"""

from polars_roc.exprs.decisions import net_benefit  # value and decisions (issue 32)
from polars_roc.exprs.ranking import auc

__all__ = ["auc", "net_benefit"]
