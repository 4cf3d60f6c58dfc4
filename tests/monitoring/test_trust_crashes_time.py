"""A time column of the wrong type, or a reversed reference, is a clear error everywhere.

Every public function taking a `time` column and a ``(start, end)`` reference: a String or
Float time column is a SchemaError naming the column (never a bare assert); a reference
whose start comes after its end holds no row and is a ValueError (never a silent null band).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import polars as pl
import pytest

import polars_roc as pr
from polars_roc.monitoring import reference_rows

ROWS = pl.DataFrame(
    {
        "t": [1, 1, 2, 2, 3, 3, 4, 4],
        "score": [0.9, 0.2, 0.8, 0.3, 0.7, 0.4, 0.6, 0.5],
        "label": [1, 0] * 4,
    }
)

CALLS: dict[str, Callable[[pl.DataFrame, Any], Any]] = {
    "over_time": lambda f, r: f.roc.over_time(time="t", every="1i", reference=r),
    "score_stability": lambda f, r: f.roc.score_stability(time="t", every="1i", reference=r),
    "compute_over_time": lambda f, r: pr.report.compute_over_time(
        f, "score", "label", time="t", every="1i", reference=r, by=[]
    ),
    "reference_rows": lambda f, r: f.select(reference_rows(r, "t", f.schema["t"])),
}


@pytest.mark.parametrize("call", list(CALLS))
@pytest.mark.parametrize(
    ("dtype", "reference"),
    [(pl.String, ("2024-01-01", "2024-02-01")), (pl.Float64, (1, 2))],
    ids=["text", "float"],
)
def test_a_time_column_of_the_wrong_type_is_a_schema_error(
    call: str, dtype: pl.DataType, reference: tuple[Any, Any]
) -> None:
    frame = ROWS.with_columns(pl.col("t").cast(dtype))
    with pytest.raises(pl.exceptions.SchemaError, match=r"time column 't' has dtype"):
        CALLS[call](frame, reference)


@pytest.mark.parametrize("call", list(CALLS))
@pytest.mark.parametrize(
    ("dtype", "reference"),
    [(pl.Int64, (3, 1)), (pl.Date, ("1970-01-04", "1970-01-02"))],
    ids=["integer", "date"],
)
def test_a_reversed_reference_is_an_error(
    call: str, dtype: pl.DataType, reference: tuple[Any, Any]
) -> None:
    frame = ROWS.with_columns(pl.col("t").cast(dtype))
    with pytest.raises(ValueError, match="after its end"):
        CALLS[call](frame, reference)


def test_an_end_date_covers_its_day_on_a_datetime_column() -> None:
    frame = ROWS.with_columns((pl.col("t") * 3_600_000_000).cast(pl.Datetime("us")))
    inside = frame.select(reference_rows(("1970-01-01T02:00", "1970-01-01"), "t", pl.Datetime()))
    assert inside["t"].to_list() == [False] * 2 + [True] * 6  # from 2:00 to the day's end
