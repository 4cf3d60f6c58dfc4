"""Checks run at collect time on `compare`'s pairs: two models, case ids, partners, clusters.

Each returns a function of a collected frame that raises a one-line error naming the user's
column (or warns, for cases without a partner) and otherwise returns the frame unchanged;
`compare` runs them through ``_core.compat.opaque`` so the query stays lazy.
"""

from __future__ import annotations

import warnings
from typing import Any

import polars as pl

__all__ = ["check_clusters", "check_partners", "check_summary"]


def check_summary(model: str, case: str | None) -> Any:
    """A frame check run at collect time on the per-model summary."""

    def check(summary: pl.DataFrame) -> pl.DataFrame:
        models = summary["_model"].unique().to_list()
        if len(models) < 2:
            msg = (
                f"compare needs at least two models in column {model!r}, found {models}"
                f"\n\nHint: pass the column that names the models as model=<column>, in "
                f"long format (one row per case and model)."
            )
            raise ValueError(msg)
        nulls = summary.filter(pl.col("_null_cases") > 0)
        if nulls.height:
            row = nulls.row(0, named=True)
            msg = (
                f"case column {case!r} holds {row['_null_cases']} null case id(s) for model "
                f"{row['_model']!r}: a case without an id cannot be paired\n\nHint: fill "
                f"or drop them, e.g. .filter(pl.col({case!r}).is_not_null())."
            )
            raise ValueError(msg)
        if case is not None:
            dups = summary.filter(pl.col("_dup").is_not_null())
            if dups.height:
                row = dups.row(0, named=True)
                msg = (
                    f"case {row['_dup']!r} appears more than once for model "
                    f"{row['_model']!r} (column {case!r}); each case must be scored once "
                    f"per model\n\nHint: deduplicate the rows, or add the column that tells "
                    f"them apart to `by`."
                )
                raise ValueError(msg)
        return summary

    return check


def check_partners(model: str, case: str, paired: bool | None) -> Any:
    """
    A check of the pairs of models under `case`: cases without a partner under the other model.

    ``paired=True`` refuses such a pair; ``paired=None`` warns that it ran the unpaired test.
    A case lacks a partner when the other model has no row for it, or one with another label.
    """

    def check(pairs: pl.DataFrame) -> pl.DataFrame:
        matched = pl.col("_matched").fill_null(0)
        alone = pairs.with_columns(_alone=pl.col("_n_a") + pl.col("_n_b") - 2 * matched)
        # A pair with every case matched runs unpaired only when it has no counted rows.
        unmatched = alone.filter(~pl.col("paired") & (pl.col("_alone") > 0))
        for row in unmatched.iter_rows(named=True):
            models = f"models {row['_model_a']!r} and {row['_model_b']!r} (column {model!r})"
            lack = (
                f"{row['_alone']:,} case(s) of column {case!r} lack a partner with the same "
                f"label under the other model"
            )
            if paired:
                msg = (
                    f"paired=True but {models} do not hold the same cases: {lack}\n\nHint: "
                    f"drop the unmatched cases for the paired test, or pass paired=False (or "
                    f"None) for the unpaired test."
                )
                raise ValueError(msg)
            msg = (
                f"compare ran the unpaired test for {models}: {lack}. Hint: drop the "
                f"unmatched cases for the paired test (more powerful), or pass paired=False "
                f"to choose the unpaired test and silence this warning."
            )
            warnings.warn(msg, UserWarning, stacklevel=2)
        return pairs

    return check


def check_clusters(model: str, cluster: str) -> Any:
    """A check of the pairs: a case paired across models is in one cluster under both."""

    def check(pairs: pl.DataFrame) -> pl.DataFrame:
        bad = pairs.filter(pl.col("paired") & (pl.col("_split") > 0))
        if bad.height:
            row = bad.row(0, named=True)
            msg = (
                f"cluster column {cluster!r} puts {row['_split']} case(s) in different "
                f"clusters under models {row['_model_a']!r} and {row['_model_b']!r} "
                f"(column {model!r}); a case belongs to one cluster\n\nHint: take the "
                f"cluster id from the case, e.g. a patient id shared by all its rows."
            )
            raise ValueError(msg)
        return pairs

    return check
