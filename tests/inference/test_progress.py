"""Progress bars on long work: tqdm bars that never change a number.

The oracle for "the bar changes nothing" is the same call with ``progress=False``; the bar's
own count is checked against the work done, counted by hand (groups x replicates).
"""

from __future__ import annotations

import importlib
import inspect
import io
import pkgutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import polars_roc as pr
from polars_roc._core import progress
from polars_roc.cli import main
from polars_roc.namespace import FRAME_METHODS

DF = pr.datasets.simulate(300, seed=5)
TWO = DF.filter(pl.col("model") != "baseline")
AUC = {"auc": pr.auc("score", "label")}
TIMED = DF.with_columns(week=(pl.int_range(pl.len()) % 3))

#: Every frame method that resamples, called with a small bootstrap (keyword `progress` added).
CALLS: dict[str, Callable[..., pl.DataFrame]] = {
    "auc": lambda **kw: DF.roc.auc(by="model", ci="bootstrap", n_boot=60, **kw),
    "partial_auc": lambda **kw: DF.roc.partial_auc(
        fpr=(0.0, 0.3), by="model", ci="bootstrap", n_boot=60, **kw
    ),
    "thresholds": lambda **kw: DF.roc.thresholds(
        thresholds=[0.3, 0.6], by="model", ci="bootstrap", n_boot=60, **kw
    ),
    "best_threshold": lambda **kw: DF.roc.best_threshold(
        by="model", ci="bootstrap", n_boot=60, **kw
    ),
    "tpr_at_fpr": lambda **kw: DF.roc.tpr_at_fpr(
        fpr=[0.1], by="model", ci="bootstrap", n_boot=60, **kw
    ),
    "fpr_at_tpr": lambda **kw: DF.roc.fpr_at_tpr(
        tpr=[0.8], by="model", ci="bootstrap", n_boot=60, **kw
    ),
    "compare": lambda **kw: DF.roc.compare(method="bootstrap", n_boot=60, **kw),
    "bootstrap": lambda **kw: DF.roc.bootstrap(AUC, by="model", n_boot=60, **kw),
    "over_time": lambda **kw: TIMED.roc.over_time(
        time="week", every="1i", ci="bootstrap", n_boot=60, **kw
    ),
    "disparity": lambda **kw: TWO.roc.disparity(segment="model", metrics=AUC, n_boot=60, **kw),
    "slices": lambda **kw: DF.roc.slices(
        features=["segment"], by="model", depth=1, metrics=AUC, n_boot=60, **kw
    ),
    "decision_curve": lambda **kw: DF.roc.decision_curve(
        thresholds=[0.2, 0.5], by="model", ci="bootstrap", n_boot=60, **kw
    ),
    "time_auc": lambda **kw: TIMED.with_columns(e=pl.col("label") == 1).roc.time_auc(
        time="week", event="e", horizons=[1, 2], ci="bootstrap", n_boot=60, **kw
    ),
}


@pytest.fixture
def at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bars drawn at once (no 2 s delay), so a bar that is on always shows."""
    monkeypatch.setattr(progress, "DELAY", 0.0)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class _FakeBar:
    """Records what a tqdm bar is told (stands in for tqdm)."""

    made: list[_FakeBar] = []  # noqa: RUF012

    def __init__(self, **kwargs: Any) -> None:
        self.kwargs = kwargs
        self.total = kwargs["total"]
        self.n = kwargs.get("initial", 0)
        self.closed = False
        _FakeBar.made.append(self)

    def update(self, units: int) -> None:
        self.n += units

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> list[_FakeBar]:
    _FakeBar.made = []
    monkeypatch.setattr(progress, "_tqdm", lambda: _FakeBar)
    return _FakeBar.made


def _no_tqdm(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tqdm", None)  # `import tqdm` raises ImportError


def test_every_resampling_frame_method_is_called() -> None:
    resampling = {
        name for name, f in FRAME_METHODS.items() if "n_boot" in inspect.signature(f).parameters
    }
    assert resampling == set(CALLS)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_a_bar_changes_no_number(
    name: str, at_once: None, capfd: pytest.CaptureFixture[str]
) -> None:
    quiet = CALLS[name](progress=False)
    assert capfd.readouterr().err == ""
    shown = CALLS[name](progress=True)
    err = capfd.readouterr().err
    assert "replicate" in err
    assert "|" in err  # tqdm's bar
    assert shown.equals(quiet)


@pytest.mark.parametrize("name", ["auc", "bootstrap", "compare"])
def test_auto_under_pytest_and_false_print_nothing(
    name: str, at_once: None, capfd: pytest.CaptureFixture[str]
) -> None:
    default = CALLS[name]()
    assert capfd.readouterr() == ("", "")
    assert CALLS[name](progress=None).equals(default)
    assert CALLS[name](progress=False).equals(default)
    assert capfd.readouterr() == ("", "")


def test_a_short_bootstrap_draws_no_bar_before_the_delay(capfd: pytest.CaptureFixture[str]) -> None:
    # progress=True but a run far shorter than DELAY (2 s): tqdm's delay= keeps it silent.
    assert progress.DELAY == 2.0
    DF.roc.auc(ci="bootstrap", n_boot=20, progress=True)
    assert capfd.readouterr().err == ""


def test_the_bar_counts_every_group_s_replicates(fake: list[_FakeBar]) -> None:
    groups = DF["model"].n_unique()
    DF.roc.bootstrap(AUC, by="model", n_boot=70, progress=True)
    # the metric bootstrap announces groups x replicates up front: one bar, a known total
    assert len(fake) == 1
    assert (fake[0].total, fake[0].n, fake[0].closed) == (groups * 70, groups * 70, True)


def test_grouped_resampler_adds_up_on_one_tally(
    fake: list[_FakeBar], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(progress, "GRACE", 60.0)  # a stalled machine between groups
    groups = DF["model"].n_unique()
    DF.roc.auc(by="model", ci="bootstrap", n_boot=70, progress=True)
    # groups one after another take up the tally (within GRACE): it ends at groups x n_boot
    assert fake
    assert all(bar.closed for bar in fake)
    assert fake[-1].n == fake[-1].total == groups * 70
    assert fake[0].kwargs["leave"] is False
    assert fake[0].kwargs["delay"] == pytest.approx(progress.DELAY, abs=0.5)


def test_ticks_yield_the_same_chunks_and_count_them(fake: list[_FakeBar]) -> None:
    bar = progress.Ticks(on=True, what="x")
    assert list(bar.over(range(0, 10, 4))) == [0, 4, 8]
    assert (fake[0].total, fake[0].n, fake[0].closed) == (10, 10, True)
    off = progress.Ticks(on=False, what="x")
    steps = range(0, 10, 4)
    assert off.over(steps) is steps  # off: the range itself, no wrapper


def test_an_error_in_a_chunk_still_closes_the_bar(fake: list[_FakeBar]) -> None:
    bar = progress.Ticks(on=True, what="x")

    def fail_at_the_second_chunk() -> None:
        for start in bar.over(range(0, 12, 4)):
            if start == 4:
                raise RuntimeError

    with pytest.raises(RuntimeError):
        fail_at_the_second_chunk()
    assert fake[0].closed
    assert fake[0].n == 4


def test_announced_work_that_never_runs_is_released(fake: list[_FakeBar]) -> None:
    bar = progress.Ticks(on=True, what="x")
    bar.expect(20)
    list(bar.over(range(0, 10, 5)))
    assert not fake[0].closed
    bar.release()
    assert fake[0].closed


def test_a_lazy_plan_ticks_when_collected(at_once: None, capfd: pytest.CaptureFixture[str]) -> None:
    plan = DF.lazy().roc.auc(ci="bootstrap", n_boot=50, progress=True)
    assert capfd.readouterr().err == ""  # building the plan draws nothing
    out = plan.collect()
    assert "replicate" in capfd.readouterr().err
    assert out.equals(DF.roc.auc(ci="bootstrap", n_boot=50))


@pytest.mark.parametrize("shown", [True, False])
def test_a_plan_with_a_bar_still_serializes(shown: bool, fake: list[_FakeBar]) -> None:
    plan = DF.lazy().roc.bootstrap(AUC, by="model", n_boot=30, progress=shown)
    again = pl.LazyFrame.deserialize(io.BytesIO(plan.serialize()))
    assert again.collect().equals(plan.collect())
    assert bool(fake) is shown


def test_missing_tqdm_is_a_clear_error_and_auto_stays_quiet(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    _no_tqdm(monkeypatch)
    with pytest.raises(ImportError, match=r"pip install polars_roc\[progress\]"):
        DF.roc.auc(ci="bootstrap", n_boot=20, progress=True)
    with pytest.raises(ImportError, match="tqdm"):
        DF.roc.bootstrap(AUC, n_boot=20, progress=True)
    monkeypatch.setattr(sys, "stderr", _Terminal())
    monkeypatch.delenv("PYTEST_CURRENT_TEST")
    assert progress.resolve(None) is False  # a terminal, but no tqdm: silently none


def test_auto_is_on_only_on_a_terminal_outside_pytest(monkeypatch: pytest.MonkeyPatch) -> None:
    assert progress.resolve(None) is False  # under pytest
    monkeypatch.setattr(sys, "stderr", _Terminal())
    assert progress.resolve(None) is False  # a terminal, still under pytest
    monkeypatch.delenv("PYTEST_CURRENT_TEST")
    assert progress.resolve(None) is True  # a terminal, outside pytest
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert progress.resolve(None) is False  # not a terminal
    assert progress.resolve(True) is True
    assert progress.resolve(False) is False


@pytest.mark.parametrize("value", ["yes", 1, 0.5])
def test_a_bad_progress_value_is_refused(value: Any) -> None:
    with pytest.raises(ValueError, match="progress must be True, False or None"):
        DF.roc.auc(ci="bootstrap", n_boot=20, progress=value)


def test_every_resampling_function_takes_and_documents_progress() -> None:
    modules = [
        importlib.import_module(info.name)
        for info in pkgutil.walk_packages(pr.__path__, "polars_roc.")
        if not any(part.startswith("_") for part in info.name.split("."))
    ]
    functions = {f"{f.__module__}.{f.__name__}": f for f in FRAME_METHODS.values()}
    for module in modules:
        for name in getattr(module, "__all__", []):
            value = getattr(module, name)
            if inspect.isfunction(value):
                functions[f"{value.__module__}.{value.__name__}"] = value
    found = []
    for key, function in functions.items():
        parameters = inspect.signature(function).parameters
        if "n_boot" in parameters:
            found.append(key.rsplit(".", 1)[1])
            assert parameters["progress"].default is None, key
            assert "\n    progress\n" in (function.__doc__ or ""), key
    assert {"auc", "bootstrap", "compare", "over_time", "auc_interval"} <= set(found)
    assert len(found) >= 15


# --- the command line ------------------------------------------------------------------------


def _demo(tmp_path: Path, *flags: str) -> list[str]:
    out = tmp_path / "r.html"
    return ["demo", "--rows", "600", "--js", "cdn", "-o", str(out), *flags]


def test_cli_progress_draws_the_report_steps(
    tmp_path: Path, at_once: None, capfd: pytest.CaptureFixture[str]
) -> None:
    flags = ("--ci", "bootstrap", "--n-boot", "50")
    assert main(_demo(tmp_path, *flags, "--progress")) == 0
    err = capfd.readouterr().err
    assert "report:" in err
    assert "/9 [" in err  # 9 steps with a bootstrap and the model comparison
    assert "ROC confidence band" in err  # a step's text, as the bar's postfix
    assert "bootstrap:" in err  # the report's own bootstraps draw bars too
    assert "[1/9]" not in err  # not the plain lines
    assert "wrote " in err  # still printed, above the bar
    assert (tmp_path / "r.html").stat().st_size > 0
    again = tmp_path / "again"
    again.mkdir()
    assert main(_demo(again, *flags, "--no-progress")) == 0
    plain = capfd.readouterr().err
    assert "[1/9]" in plain
    assert "|" not in plain


def test_cli_default_under_pytest_prints_lines(
    tmp_path: Path, at_once: None, capfd: pytest.CaptureFixture[str]
) -> None:
    assert main(_demo(tmp_path)) == 0
    err = capfd.readouterr().err
    assert "[1/8]" in err
    assert "step" not in err


def test_cli_progress_without_tqdm_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    _no_tqdm(monkeypatch)
    assert main(_demo(tmp_path, "--progress")) == 2
    err = capfd.readouterr().err
    assert "polars_roc[progress]" in err
    assert not (tmp_path / "r.html").exists()


def test_stages_off_passes_every_line_through() -> None:
    seen: list[str] = []
    with progress.Stages(False, seen.append) as say:
        say("[1/2] a")
        say("warning: b")
    assert seen == ["[1/2] a", "warning: b"]
