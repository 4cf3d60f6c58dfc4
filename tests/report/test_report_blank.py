"""The report says why a value is blank: no positives, no negatives, or a NaN score."""

from __future__ import annotations

import polars as pl

from polars_roc import report


def test_blank_auc_cells_name_their_reason() -> None:
    frame = pl.DataFrame(
        {
            "g": ["ok"] * 4 + ["nan"] * 4 + ["allpos"] * 2 + ["allneg"] * 2,
            "score": [0.1, 0.4, 0.35, 0.8, 0.1, float("nan"), 0.3, 0.9, 0.2, 0.7, 0.2, 0.6],
            "label": [0, 0, 1, 1, 0, 0, 1, 1, 1, 1, 0, 0],
        }
    )
    data = report.compute(frame.lazy(), by="g", ci=None)
    page = report.render(data, js="cdn")
    table = page[page.index('id="auc-table"') :]
    table = table[: table.index("</table>")]
    rows = {row.split("</td>")[0].split(">")[-1]: row for row in table.split("<tr>")[2:]}
    assert "— (NaN score)" in rows["nan"]
    assert "— (no negatives)" in rows["allpos"]
    assert "— (no positives)" in rows["allneg"]
    assert "—" not in rows["ok"]
