"""Other engines: reduce a frame where it lives (narwhals), and read scored files.

:func:`tally` and :func:`auc_table` run in the frame's own engine (DuckDB, Spark, sqlframe,
ibis, pandas, PyArrow, Polars); :mod:`~polars_roc.engines.sources` reads a scored file with
one of them for the command line.
"""

from polars_roc.engines import sources
from polars_roc.engines.reduce import auc_table, tally

__all__ = ["auc_table", "sources", "tally"]
