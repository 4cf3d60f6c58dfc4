"""``python -m polars_roc``: the ``polars-roc`` command (see :mod:`polars_roc.cli`)."""

import sys

from polars_roc.cli import main

if __name__ == "__main__":
    sys.exit(main())
