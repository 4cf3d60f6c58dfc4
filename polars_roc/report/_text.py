"""
How the report prints a group key and labels a table column, the same in every section.

A key prints as the data holds it: an integer as an integer (no thousands separator: the
key 2024 is a year, not a count), a float as Python gives it (``42.0``, ``0.25``), text,
dates and times as text; a null key as ``null``.

Examples
--------
>>> key_text(42), key_text(42.0), key_text(2024), key_text(None)
('42', '42.0', '2024', 'null')
>>> import datetime
>>> key_text(datetime.date(2024, 3, 1)), key_text("F")
('2024-03-01', 'F')
"""

from __future__ import annotations

import datetime
import html
from typing import Any

__all__ = ["key_cell", "key_text"]


def key_text(value: Any) -> str:
    """A group key as text, as the data holds it (see the module docstring)."""
    if value is None:
        return "null"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat(sep=" ") if isinstance(value, datetime.datetime) else str(value)
    return str(value)


def key_cell(value: Any) -> str:
    """
    A group key as a table cell (``<td>``), escaped.

    Examples
    --------
    >>> key_cell(42.0), key_cell("<b>")
    ('<td>42.0</td>', '<td>&lt;b&gt;</td>')
    """
    if value is None:
        return '<td class="null" title="a null key">null</td>'
    return f"<td>{html.escape(key_text(value))}</td>"
