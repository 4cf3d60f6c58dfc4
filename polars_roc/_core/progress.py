"""
Progress bars for long work (tqdm, an optional dependency), and nothing when they are off.

Every function that resamples (``ci="bootstrap"``, ``df.roc.bootstrap``,
``compare(method="bootstrap")``, ``over_time(ci="bootstrap")``, ...) takes
``progress=True | False | None``:

* ``False``: no bar;
* ``True``: a tqdm bar on standard error; an :class:`ImportError` naming the extra
  (``pip install polars_roc[progress]``) when tqdm is not installed;
* ``None`` (the default, "auto"): a bar only when standard error is a terminal
  (``sys.stderr.isatty()``), the code is not running under pytest (no
  ``PYTEST_CURRENT_TEST`` in the environment) and tqdm is installed; otherwise silently none.

The choice is made when the function is called (a LazyFrame's plan carries it to its
``collect``). A bar appears only once the work has run :data:`DELAY` seconds (tqdm's
``delay=``), so short work prints nothing, and it clears its line when done (``leave=False``).

A bar advances only where Python code runs: the resampler's loop over chunks of replicates
(one tick per chunk, counted in replicates), inside the ``map_groups`` / ``map_batches``
calls of a Polars plan. The native parts of a plan (reading, sorting, the exact curves)
run without ticks; with ``by=``, the groups' replicates add up on one bar (its total grows
as groups start where their number is not known in advance).

Examples
--------
>>> from polars_roc._core.progress import ticks
>>> bar = ticks(False, "bootstrap")
>>> [start for start in bar.over(range(0, 10, 4))]
[0, 4, 8]
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

__all__ = ["DELAY", "HINT", "OFF", "Stages", "Ticks", "resolve", "ticks"]

#: Seconds of work before a bar is drawn (tqdm's ``delay=``).
DELAY = 2.0

#: A bar closed this recently is taken up again by the next chunk loop (the next group).
GRACE = 1.0

#: How to get the optional dependency.
HINT = "pip install polars_roc[progress]"

_NUMBERED = re.compile(r"\[(\d+)/(\d+)\] (.*)")
#: Messages printed as lines above a report's bar (the others become its postfix).
_PRINTED = ("warning:", "note:", "wrote ")


def _tqdm() -> Any:
    """The ``tqdm`` class (imported lazily: an optional dependency)."""
    from tqdm import tqdm

    return tqdm


def _installed() -> bool:
    """Whether tqdm can be imported."""
    try:
        _tqdm()
    except ImportError:
        return False
    return True


def resolve(progress: Any) -> bool:
    """
    Whether to draw bars: `progress` True, False or None (auto), see the module docstring.

    Examples
    --------
    >>> resolve(False), resolve(None)  # under pytest, auto is off
    (False, False)
    """
    if progress is not None and not isinstance(progress, bool):
        msg = (
            f"progress must be True, False or None (auto: a bar on a terminal), got {progress!r}"
            "\n\nHint: progress=True."
        )
        raise ValueError(msg)
    if progress is False:
        return False
    if progress is None:
        quiet = "PYTEST_CURRENT_TEST" in os.environ or not _isatty()
        return not quiet and _installed()
    if not _installed():
        msg = f"progress=True needs tqdm, which is not installed\n\nHint: {HINT}."
        raise ImportError(msg)
    return True


def _isatty() -> bool:
    """Whether standard error is a terminal."""
    try:
        return bool(sys.stderr.isatty())
    except (AttributeError, ValueError):  # replaced or closed stream
        return False


class Ticks:
    """
    One call's bar over units of work (replicates), opened on the first tick, shared by groups.

    :meth:`over` wraps a chunk loop ``range(0, n, chunk)``: it yields the same starts and,
    when on, advances the bar by each chunk's size after its body ran. Off, it returns the
    range itself. Thread-safe (Polars may run groups on several threads); picklable, as a
    plan holding it may be serialized.
    """

    def __init__(self, on: bool, what: str, unit: str = "replicate") -> None:
        self.on = on
        self.what = what
        self.unit = unit
        self._lock = threading.Lock()
        self._bar: Any = None
        self._reserved = 0  # announced by expect(), not yet started by a loop
        self._count = 0
        self._started = 0.0
        self._closed_at: float | None = None

    def __getstate__(self) -> dict[str, Any]:
        """Pickled with a plan (``LazyFrame.serialize``): the setting, not the live bar."""
        return {"on": self.on, "what": self.what, "unit": self.unit}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["on"], state["what"], state["unit"])  # type: ignore[misc]

    def expect(self, units: int) -> None:
        """Announce `units` of work to come (e.g. every group's replicates): a known total."""
        if self.on and units > 0:
            with self._lock:
                self._reserved += units
                self._grow(units)

    def release(self) -> None:
        """Drop announced work that did not run (closes the bar if the rest is done)."""
        if self.on:
            with self._lock:
                left, self._reserved = self._reserved, 0
                self._shrink(left)

    def over(self, steps: range) -> Iterable[int]:
        """The chunk starts of `steps` (a positive-step range), ticking each chunk's size."""
        return self._counted(steps) if self.on else steps

    def _counted(self, steps: range) -> Iterator[int]:
        units = max(0, steps.stop - steps.start)
        with self._lock:
            taken = min(self._reserved, units)
            self._reserved -= taken
            self._grow(units - taken)
        done = 0
        try:
            for start in steps:
                yield start
                size = min(steps.step, steps.stop - start)
                done += size
                with self._lock:
                    self._advance(size)
        finally:
            if done < units:  # stopped early (an error): the bar must still close
                with self._lock:
                    self._shrink(units - done)

    def _grow(self, units: int) -> None:
        """Add to the total, opening the bar (or taking up one closed moments ago)."""
        if self._bar is not None:
            self._bar.total += units
            return
        if units <= 0:
            return
        now = time.monotonic()
        if self._closed_at is None or now - self._closed_at > GRACE:
            self._count, self._started = 0, now
        self._bar = _tqdm()(
            total=self._count + units,
            initial=self._count,
            desc=self.what,
            unit=self.unit,
            delay=max(0.0, DELAY - (now - self._started)),
            leave=False,
            file=sys.stderr,
            dynamic_ncols=True,
        )

    def _advance(self, units: int) -> None:
        if self._bar is not None:
            self._bar.update(units)
            self._count = self._bar.n
            self._close_if_done()

    def _shrink(self, units: int) -> None:
        if self._bar is not None and units > 0:
            self._bar.total -= units
            self._close_if_done()

    def _close_if_done(self) -> None:
        bar = self._bar
        if bar.n >= bar.total and self._reserved == 0:
            bar.close()
            self._bar, self._closed_at = None, time.monotonic()


#: The bar that is always off (the default of the chunk loops).
OFF = Ticks(on=False, what="")


def ticks(progress: Any, what: str, unit: str = "replicate") -> Ticks:
    """A :class:`Ticks` for one call: on as :func:`resolve` decides `progress`."""
    return Ticks(resolve(progress), what, unit)


class Stages:
    """
    A bar over a report's numbered steps, fed the report's one-line messages.

    Called with ``"[3/8] partial AUC ..."``, it shows step 3 of 8 with its text; warnings,
    notes and the "wrote ..." line go to `lines` (the plain one-line printer) above the bar,
    other messages become the bar's postfix. Off, every message goes to `lines`. `on` also
    tells the report whether its bootstraps draw bars. Use as a context manager: the bar
    closes at exit.

    Examples
    --------
    >>> seen = []
    >>> with Stages(False, seen.append) as say:
    ...     say("[1/2] counting rows")
    >>> seen
    ['[1/2] counting rows']
    """

    def __init__(self, on: bool, lines: Callable[[str], None], what: str = "report") -> None:
        self.on = on
        self._lines = lines
        self._what = what
        self._bar: Any = None

    @classmethod
    def of(cls, progress: bool | None, quiet: bool, lines: Callable[[str], None]) -> Stages:
        """
        The command line's steps: ``--progress`` (True), ``--no-progress`` or the default.

        The default (None) is :func:`resolve`'s auto, off with ``--quiet``; True without
        tqdm is an :class:`ImportError` naming the extra.
        """
        return cls(resolve(False if progress is None and quiet else progress), lines)

    def __call__(self, message: str) -> None:
        if not self.on:
            self._lines(message)
            return
        numbered = _NUMBERED.fullmatch(message)
        if numbered is None:
            if self._bar is None or message.startswith(_PRINTED):
                with _tqdm().external_write_mode(file=sys.stderr):  # above the bar
                    self._lines(message)
            else:
                self._bar.set_postfix_str(message)
            return
        step, total, text = int(numbered[1]), int(numbered[2]), numbered[3]
        if self._bar is None:
            self._bar = _tqdm()(
                total=total,
                desc=self._what,
                unit="step",
                delay=DELAY,
                leave=False,
                file=sys.stderr,
                dynamic_ncols=True,
            )
        self._bar.total = total
        self._bar.update(step - 1 - self._bar.n)
        self._bar.set_postfix_str(text)

    def close(self) -> None:
        """Close the bar (if it was opened)."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Stages:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
