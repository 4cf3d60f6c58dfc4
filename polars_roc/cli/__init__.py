"""
The ``polars-roc`` command: an HTML ROC report of a scored file, or of simulated demo data.

``polars-roc report SCORES.parquet --score p --label y --by model,segment -o report.html``
scans the file lazily and writes one HTML page (see :mod:`polars_roc.report`);
``polars-roc demo -o report.html`` does the same on :func:`polars_roc.datasets.simulate` data.
The command lives in :mod:`polars_roc.cli.command`; reading and checking the scored file in
its private ``_files`` module.

Examples
--------
>>> from polars_roc.cli import main
>>> main(["report", "no-such-file.csv", "--score", "p", "--label", "y"])
2
"""

from polars_roc.cli._files import READERS, UsageError
from polars_roc.cli.command import PROG, main

__all__ = ["PROG", "READERS", "UsageError", "main"]
