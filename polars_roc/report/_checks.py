"""
The "Release gates" section: the check table of :func:`polars_roc.gates.checks`, at the top.

Examples
--------
>>> import polars as pl
>>> table = pl.DataFrame(
...     {"check": ["non_inferiority", "min_auc"], "segment": ["west", "west"],
...      "value": [0.31, 0.74], "limit": ["< 0.05", ">= 0.7"], "passed": [False, True],
...      "reason": ["challenger - champion auc -0.05", "auc 0.78 (lower bound 0.74)"]}
... )
>>> headline(table)
'Release gates: FAIL, 1 of 2 checks failed: non_inferiority (segment west).'
>>> section(table)[:2]
('release-gates', 'Release gates')
"""

from __future__ import annotations

import html

import polars as pl

from polars_roc._core.columns import CHECKS
from polars_roc.report._text import key_cell, key_text

__all__ = ["HEADING", "KEY", "headline", "section"]

KEY = "release-gates"
HEADING = "Release gates"


def _group(row: dict[str, object], names: list[str]) -> str:
    return ", ".join(f"{name} {key_text(row[name])}" for name in names)


def headline(table: pl.DataFrame) -> str:
    """The verdict in one line, naming the failed checks and their groups."""
    names = [c for c in table.columns if c not in CHECKS]
    failed = table.filter(~pl.col("passed"))
    if table.height and not failed.height:
        return f"Release gates: pass, all {table.height} checks passed."
    items = [
        row["check"] + (f" ({_group(row, names)})" if names else "")
        for row in failed.iter_rows(named=True)
    ]
    return (
        f"Release gates: FAIL, {failed.height} of {table.height} checks failed: {'; '.join(items)}."
    )


def section(table: pl.DataFrame) -> tuple[str, str, str]:
    """(key, heading, HTML) of the section: one row per check, failed rows marked."""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in table.columns)
    rows = []
    for row in table.iter_rows(named=True):
        cells = []
        for column, value in row.items():
            if column not in CHECKS:  # a group key, as the data holds it
                cells.append(key_cell(value))
            elif value is None:
                cells.append('<td class="null" title="undefined">—</td>')
            elif column == "passed":
                cells.append(f"<td>{'pass' if value else '<strong>FAIL</strong>'}</td>")
            elif isinstance(value, float):
                cells.append(f'<td class="num">{value:.4g}</td>')
            else:
                cells.append(f"<td>{html.escape(str(value))}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    caption = html.escape(headline(table))
    body = (
        f'<section id="{KEY}"><h2>{HEADING}</h2><p class="caption">{caption}</p>'
        f'<table id="{KEY}-table"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></section>"
    )
    return KEY, HEADING, body
