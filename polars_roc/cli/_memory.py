"""
The demo's memory check: refuse a ``--rows`` whose estimated memory exceeds what is free.

Examples
--------
>>> from polars_roc.cli._memory import readable
>>> readable(1_500_000_000)
'1.5 GB'
"""

from __future__ import annotations

import os
from pathlib import Path

from polars_roc.cli._files import UsageError

#: Memory per simulated case (3 scored rows, measured: about 126 bytes), times the report's
#: working copies of it (sorting, curves, tables): a deliberately rough upper estimate.
_DEMO_BYTES_PER_CASE = 128 * 4


def _available_memory() -> int | None:
    """Bytes of memory available now (Linux MemAvailable, else free pages), or None."""
    try:
        with Path("/proc/meminfo").open() as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def fits_in_memory(rows: int) -> None:
    """Refuse a --rows whose estimated memory exceeds what is available (before allocating)."""
    available = _available_memory()
    needed = rows * _DEMO_BYTES_PER_CASE
    if available is not None and needed > available:
        msg = (
            f"--rows {rows:,} needs about {readable(needed)} of memory (estimated), more than "
            f"the {readable(available)} available: use fewer rows"
        )
        raise UsageError(msg)


def readable(size: float) -> str:
    """A size in bytes, readably (e.g. "1.5 GB")."""
    for unit in ("B", "kB", "MB", "GB", "TB"):
        if size < 1000:
            return f"{size:.3g} {unit}"
        size /= 1000
    return f"{size:,.0f} PB"
