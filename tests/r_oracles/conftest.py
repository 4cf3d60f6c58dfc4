"""
Run the R packages live as oracles: one ``Rscript`` per test module.

A module calls :func:`require_r` at import (it skips the whole module, with the reason, when
``Rscript`` or one of the packages is missing), then builds its data, writes the R code that
computes every expected value, and calls :func:`run_r` once from a module-scoped fixture:

* each input frame is written to ``<dir>/in/<name>.csv`` and read in R by ``inp("<name>")``;
* the R code writes each result with ``out("<name>", <data.frame or list>)`` to
  ``<dir>/out/<name>.csv``, every number with 17 significant digits (exact doubles), ``NA`` as
  null and ``NaN``/``Inf`` kept as floats, so that a documented NaN stays visible;
* :func:`run_r` returns ``{name: pl.DataFrame}`` of every result written.

The packages come from Debian (``apt-get install r-cran-proc ...``, see ``.ci/run``); CRAN is
not needed.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
from pathlib import Path

import polars as pl
import pytest

# The R side of the exchange: a reader for the inputs and a writer that keeps every bit.
PRELUDE = r"""
args <- commandArgs(trailingOnly = TRUE)
.dir <- args[[1]]
inp <- function(name) {
  read.csv(file.path(.dir, "in", paste0(name, ".csv")), stringsAsFactors = FALSE)
}
out <- function(name, value) {
  frame <- as.data.frame(value, stringsAsFactors = FALSE)
  for (column in names(frame)) {
    x <- frame[[column]]
    if (is.logical(x) && all(is.na(x))) x <- as.numeric(x)
    if (is.numeric(x)) {
      text <- sprintf("%%.17g", x)
      text[is.infinite(x)] <- ifelse(x[is.infinite(x)] > 0, "inf", "-inf")
      text[is.na(x) & !is.nan(x)] <- "NA"
      frame[[column]] <- text
    }
  }
  write.csv(frame, file.path(.dir, "out", paste0(name, ".csv")), row.names = FALSE,
            quote = FALSE, na = "NA")
}
suppressPackageStartupMessages({ %s })
"""


@functools.cache
def _missing(packages: tuple[str, ...]) -> str | None:
    """Why the R oracles cannot run (no Rscript, or which packages are missing), else None."""
    if shutil.which("Rscript") is None:
        return "Rscript not found: apt-get install r-base-core (see .ci/run)"
    check = "cat(Filter(function(p) !requireNamespace(p, quietly = TRUE), commandArgs(TRUE)))"
    found = subprocess.run(
        ["Rscript", "-e", check, *packages], capture_output=True, text=True, check=False
    )
    missing = found.stdout.split()
    if found.returncode != 0 or missing:
        names = " ".join(missing) or " ".join(packages)
        return f"R package(s) not installed: {names} (apt-get install r-cran-<name>, see .ci/run)"
    return None


def require_r(*packages: str) -> None:
    """Skip the calling test module, with the reason, unless Rscript and `packages` exist."""
    reason = _missing(tuple(packages))
    if reason is not None:
        pytest.skip(reason, allow_module_level=True)


def run_r(
    directory: Path, code: str, inputs: dict[str, pl.DataFrame], packages: list[str]
) -> dict[str, pl.DataFrame]:
    """
    Run `code` in one Rscript with `packages` attached; its `out(...)` results by name.

    Inputs are written as CSV files under `directory` (a tmp_path); the script fails the
    test with R's own message when it errors.
    """
    (directory / "in").mkdir(parents=True, exist_ok=True)
    (directory / "out").mkdir(parents=True, exist_ok=True)
    for name, frame in inputs.items():
        frame.write_csv(directory / "in" / f"{name}.csv", float_precision=None)
    attach = "; ".join(f"library({name})" for name in packages)
    script = directory / "oracle.R"
    script.write_text(PRELUDE % attach + code)
    done = subprocess.run(
        ["Rscript", "--vanilla", str(script), str(directory)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    if done.returncode != 0:
        pytest.fail(f"Rscript failed ({done.returncode}):\n{done.stderr[-3000:]}")
    results = {}
    for path in sorted((directory / "out").glob("*.csv")):
        frame = pl.read_csv(path, null_values="NA", infer_schema_length=None)
        empty = [name for name in frame.columns if frame[name].null_count() == frame.height]
        results[path.stem] = frame.with_columns(pl.col(empty).cast(pl.Float64))
    return results
