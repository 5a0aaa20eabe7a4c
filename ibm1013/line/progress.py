"""What a person or a file sees of a transfer while it runs: the progress bar and the monitors.

* :func:`progress_bar` draws the cards gone through on standard error (``rich``), told no more often
  than 20 times a second so the per-card path stays cheap.
* :func:`transfer_monitor` gives the :class:`~ibm1013.line.trace.Trace` that ``--trace FILE`` and
  ``--timeline PNG`` ask for (:class:`~ibm1013.line.trace.LineTrace`,
  :class:`~ibm1013.line.trace.TimelineFrames`), and draws the timeline when the transfer ends,
  whether it succeeded or not.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from emulator.errors import IbmError
from ibm1013.line.station import EndpointConfig
from ibm1013.line.trace import LineTrace, Monitors, TimelineFrames, Trace

ProgressFn = Callable[[int, int], None]
"""``progress(done, total)``: cards gone through, of ``total`` (0: not known yet)."""


@contextmanager
def progress_bar(label: str, *, shown: bool) -> Iterator[ProgressFn | None]:
    """A bar on standard error labelled ``label`` (``None`` unless ``shown``)."""
    if not shown:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  transient=True, console=Console(stderr=True)) as bar:
        task = bar.add_task(label, total=None)
        told = [0.0]

        def update(done: int, total: int) -> None:
            now = time.monotonic()  # the bar redraws 10 times a second: tell it no more often, off
            if now - told[0] >= 0.05 or done == total:  # the per-card path (its lock, its thread)
                told[0] = now
                bar.update(task, completed=done, total=total or None)

        yield update


@contextmanager
def transfer_monitor(
    trace_path: str | None, timeline_path: str | None, role: str, port: str, config: EndpointConfig,
) -> Iterator[Trace | None]:
    """The monitor ``--trace`` and ``--timeline`` ask for (``None`` if neither); the timeline is
    drawn when the transfer ends, whether it succeeded or not (its path was checked when parsed)."""
    if not trace_path and not timeline_path:
        yield None
        return
    t0 = time.monotonic()
    frames = TimelineFrames(role, 8.0 / config.session.bit_rate if config.paced else 0.0, t0)
    trace = open_trace(trace_path)
    failed = True
    try:
        yield Monitors(*([LineTrace(trace, t0)] if trace else []), *([frames] if timeline_path else []))
        failed = False
    finally:
        if trace:
            trace.close()
        if timeline_path and frames.frames:
            _draw(frames, timeline_path, role, port, config, failed=failed)


def _draw(frames: TimelineFrames, path: str, role: str, port: str, config: EndpointConfig, *,
          failed: bool) -> None:
    from ibm1013.sim.timeline import draw

    session = config.session
    try:
        draw(frames.frames, path, xlabel="seconds",
             title=f"ibm1013 {role} on {port}: {session.bit_rate} bit/s"
                   f"{'' if config.paced else ' (--fast)'}, {session.columns.describe()}")
    except OSError as err:
        if not failed:  # else the transfer's own error is the one to tell
            raise IbmError(f"{path}: cannot write the timeline ({err.strerror})") from None


def open_trace(path: str | None) -> TextIO | None:
    """The ``--trace`` file, opened for writing line by line (``None`` without the option)."""
    if not path:
        return None
    try:
        return open(path, "w", encoding="utf-8", buffering=1)  # noqa: SIM115 - closed by the caller
    except OSError as err:
        raise IbmError(f"{path}: cannot write the trace ({err.strerror})") from None
