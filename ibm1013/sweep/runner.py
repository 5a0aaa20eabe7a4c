"""Run a sweep: plan the missing runs, hand them to a backend, write rows as they come back."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from emulator.errors import IbmError
from ibm1013.report import Row
from ibm1013.sweep.backends import BATCHES_PER_WORKER, Backend, ProcessPool, Task, default_workers, in_batches
from ibm1013.sweep.grid import Point, Run, deck_digest, point_key, run_many
from ibm1013.sweep.results import ResultsFile, point_summary, run_key

if TYPE_CHECKING:
    import pandas

Progress = Callable[[int, int, int], None]
"""``on_progress(points_done, points_total, runs_done)``, called as each point comes back."""


@dataclass
class SweepResult:
    """Every row of the sweep's points in sweep order, their summary, and what this call ran."""

    rows: list[Row]
    summary: list[Row]
    ran: int = 0
    """Runs simulated by this call (the others were read back from the results files)."""
    kept: list[Row] = field(default_factory=list)
    """Rows of the results files that are not points of this sweep (kept in the files, after)."""

    def to_pandas(self, *, summary: bool = False) -> pandas.DataFrame:
        """The rows (one a run, the columns of the results files), or with ``summary`` the summary
        (one a point), as a pandas DataFrame (``pip install 'ibm1013[pandas]'``)."""
        try:
            import pandas
        except ImportError:
            raise IbmError("to_pandas needs pandas: pip install 'ibm1013[pandas]'") from None
        return pandas.DataFrame(self.summary if summary else self.rows)


def plan(
    points: Sequence[Point], seeds: int, done: set[tuple[str, int]], workers: int = 1,
    per_worker: int = BATCHES_PER_WORKER,
) -> list[list[Run]]:
    """The runs still to do, in batches of whole points (a point's missing seeds stay together):
    :func:`~ibm1013.sweep.backends.in_batches`, about ``per_worker`` batches a worker."""
    todo = []
    for point in points:
        if done:  # a point's key only where some runs are done (a resumed sweep)
            key = point_key(point)
            runs = [Run(point, i) for i in range(seeds) if (key, i) not in done]
        else:
            runs = [Run(point, i) for i in range(seeds)]
        if runs:
            todo.append(runs)
    return in_batches(todo, workers, per_worker)


def run_sweep(
    deck: np.ndarray, points: Sequence[Point], seeds: int, *, backend: Backend | None = None,
    outputs: Sequence[str] = (), resume: bool = False, on_progress: Progress | None = None,
    task: Task[np.ndarray, Run] = run_many, annotate: dict[str, Row] | None = None,
) -> SweepResult:
    """Run each of ``points`` with ``seeds`` seeds on ``backend`` (default: a process pool on every
    core), appending rows to each of ``outputs`` (``.csv`` / ``.jsonl``) as they come back.  With
    ``resume``, the rows already in the outputs are kept and only missing runs are simulated.  At
    the end each output is rewritten in sweep order.  ``task`` runs one batch (for tests: a task
    that kills its worker); ``annotate`` maps a point's key to values set in each of its rows (the
    theory's columns), the rows read back from the outputs included."""
    if seeds < 1:
        raise IbmError(f"seeds must be at least 1, not {seeds}")
    deck = np.ascontiguousarray(deck, dtype=np.uint16)
    files = [ResultsFile(path) for path in outputs]
    old = _read_old(files, deck) if resume else []
    if annotate:
        for row in old:
            row.update(annotate.get(run_key(row)[0], {}))
    done = {run_key(row) for row in old}
    backend = backend or ProcessPool(default_workers())
    batches = plan(points, seeds, done, getattr(backend, "workers", 1),
                   getattr(backend, "batches_per_worker", BATCHES_PER_WORKER))
    total = 0
    if on_progress:  # the points to run (a point's runs share its dict: one key a point, not one a run)
        total = len({point_key(p) for p in {id(run.point): run.point for b in batches for run in b}.values()})
        on_progress(0, total, 0)
    new: list[Row] = []
    new_keys: list[tuple[str, int]] = []  # each new row's run (point and seed index), made once
    opened: list[ResultsFile] = []
    try:
        for f in files:
            f.open_append(fresh=not (resume and os.path.exists(f.path)))
            opened.append(f)
        points_done = 0
        for rows in backend.map(deck, batches, task) if batches else ():
            if annotate:
                for row in rows:
                    row.update(annotate.get(run_key(row)[0], {}))
            for f in files:
                f.append(rows)
            keys = [run_key(row) for row in rows]
            new.extend(rows)
            new_keys.extend(keys)
            points_done += len({point for point, _ in keys})
            if on_progress:
                on_progress(points_done, total, len(new))
    finally:
        for f in opened:
            f.close()
    groups, kept = _in_order(points, seeds, old, zip(new_keys, new, strict=True))
    ordered = [row for group in groups for row in group]
    for f in files:
        f.rewrite(ordered + kept)
    return SweepResult(ordered, [point_summary(group) for group in groups], ran=len(new), kept=kept)


def _read_old(files: Sequence[ResultsFile], deck: np.ndarray) -> list[Row]:
    """The rows of every existing output (a run in several files counts once)."""
    digest = deck_digest(deck)
    rows: dict[tuple[str, int], Row] = {}
    for f in files:
        if not os.path.exists(f.path):
            continue
        for row in f.read():
            if row["deck_digest"] != digest:
                raise IbmError(f"{f.path}: its runs sent another deck ({row['deck_cards']} cards, "
                               f"digest {row['deck_digest']}); resume with the same deck, or write "
                               f"to another file")
            rows.setdefault(run_key(row), row)
    return list(rows.values())


def _in_order(
    points: Sequence[Point], seeds: int, old: list[Row], new: Iterable[tuple[tuple[str, int], Row]],
) -> tuple[list[list[Row]], list[Row]]:
    """The rows of this sweep in point and seed order, a list a point (those with rows), and the
    others (in the order they came: the old rows first).  Of two rows of the same run, the first
    counts (an old row read back from the files before a new one).  ``new`` pairs each new row
    with its run, made as it came back."""
    by_key: dict[tuple[str, int], Row] = {}
    for row in old:
        by_key.setdefault(run_key(row), row)
    for run, row in new:
        by_key.setdefault(run, row)
    groups = []
    for point in points:
        key = point_key(point)
        group = [by_key.pop((key, i)) for i in range(seeds) if (key, i) in by_key]
        if group:
            groups.append(group)
    return groups, list(by_key.values())
