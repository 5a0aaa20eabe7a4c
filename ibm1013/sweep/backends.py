"""Where a sweep's runs are worked: a pool of processes on this machine, or a Dask cluster
(:mod:`~ibm1013.sweep.cluster`).

Both hand out *batches* (the missing seeds of one or a few points; for ``tools.measure_games``, a
few deals) and give back each batch's rows as soon as it is done, in whatever order batches finish.
What every batch needs and no batch changes (the deck; measure_games' game and budget) is sent to
each worker once, when it starts, never with each batch: a pool's initializer, a Dask worker plugin.

A worker process that dies (killed, out of memory) does not lose the sweep: the process pool starts
new workers and hands the unfinished batches out again, and a Dask scheduler reschedules them on
the workers it has left.  When a pool's worker dies, every batch that was running then is run
again alone, in a pool of its own: a batch that dies beside a guilty one is not blamed for it.  A
batch that kills its worker every time it runs alone is set aside while the rest run; the sweep
then ends with one clear line naming it, keeping every row written.

Dask (``pip install 'ibm1013[dask]'``) is imported only when asked for.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from emulator.errors import IbmError
from ibm1013.report import Row
from ibm1013.sweep import lifecycle

Rows = list[Row]


class Pointed(Protocol):
    """An item of work (a sweep's :class:`~ibm1013.sweep.grid.Run`, a deal of measure_games)."""

    @property
    def point(self) -> Mapping[str, object]:
        """The dict that names the item in an error line."""


Batch = Sequence[Pointed]
Common = TypeVar("Common")
Work = TypeVar("Work", bound=Pointed)
Task = Callable[[Common, Sequence[Work]], Rows]
"""``task(shared, batch)``: the rows of a batch, given what every batch shares (a sweep's deck)."""

class Backend(Protocol):
    """Where a sweep's batches run: :class:`InProcess`, :class:`ProcessPool`, :class:`DaskCluster`."""

    def map(self, shared: Common, batches: Sequence[Sequence[Work]], task: Task[Common, Work]
            ) -> Iterator[Rows]:
        """The rows of each batch, as they come back."""


BATCHES_PER_WORKER = 8
"""Work is handed out in batches of several items when there are many: about this many batches a
worker of a process pool, so a worker rarely waits for its next batch (the pool queues one more
than it has workers) while rows still come back in steady steps.  Each hand-out costs the sweep's
process a round trip through the pool's threads, about 0.4 ms of CPU, on the cores the workers need:
at 16 a worker, a 200-point sweep's process took 31–37 ms of CPU with two workers, at 8, 26–30 ms
(docs/speed.md, "Issue 52: the sweep's own process and a worker's machinery").  A backend may ask
for another number (its ``batches_per_worker``)."""

DASK_BATCHES_PER_WORKER = 2
"""The same for a Dask cluster (a worker: a thread of it), where a hand-out costs far more: about 2 ms
of CPU in the client and scheduler (a LocalCluster's run in the sweep's own process, on the cores the
workers need), 1-2 ms in the worker, whose task thread idles while its event loop takes the result
and starts the next task.  At 16 a worker, Dask took 1.18-1.27x the pool's time, at 4 1.07-1.13x; at 2,
200 points are 11 tasks, not 14 (docs/speed.md, "Issue 52: Dask against the pool")."""

MAX_DEATHS = 3
"""Times in a row a batch may kill the worker running it alone before the sweep sets it aside; or
the workers may die, with no batch started, before the sweep gives up."""

WORKER_IMPORTS = ("multiprocessing.sharedctypes", "multiprocessing.synchronize")
"""What a pool's worker imports to read its start-up data (the flags of the batches started, in
shared memory; its queues' locks), imported once in the forkserver instead: about 2 ms of CPU a
worker (a profile of a worker from its fork to its first batch, docs/speed.md)."""

POLL = 0.1
"""Seconds between looks at a stop signal while the pool works (:func:`_stops_noted`)."""


@dataclass(frozen=True)
class Failure:
    """An exception raised by a task, as text (any exception pickles this way), and the point of
    the run that raised it when known."""

    message: str
    point: Row | None = None


def in_batches(groups: Sequence[Sequence[Work]], workers: int,
               per_worker: int = BATCHES_PER_WORKER) -> list[list[Work]]:
    """``groups`` (items that stay together: a point's missing seeds) in batches of whole groups, in
    order.  About ``per_worker`` batches a worker of equal size; the last ones shrink
    (each about 1/(2 x workers) of what is left, down to an eighth of the full size) so the workers
    end together, not one idle while another finishes a full batch.  The number of batches depends
    on the workers, not on the number of groups."""
    workers = max(1, workers)
    full = max(1, -(-len(groups) // (workers * max(1, per_worker))))
    least = max(1, -(-full // 8))
    batches, i = [], 0
    while i < len(groups):
        size = max(least, min(full, -(-(len(groups) - i) // (2 * workers))))
        batches.append([item for group in groups[i:i + size] for item in group])
        i += size
    return batches


def _points(batch: Batch) -> list[tuple[Any, ...]]:
    """The distinct points of a batch, in order."""
    return list(dict.fromkeys(tuple(item.point.items()) for item in batch))


def _guarded(task: Task[Any, Any], shared: Any, batch: Batch) -> Rows | Failure:
    try:
        return task(shared, batch)
    except Exception as err:  # noqa: BLE001 - reported as one line naming the point
        text = str(err) if isinstance(err, IbmError) else f"{type(err).__name__}: {err}"
        return Failure(text, getattr(err, "sweep_point", None))


def _failed(batch: Batch, failure: Failure) -> IbmError:
    points = _points(batch)
    where = failure.point or batch[0].point
    point = ", ".join(f"{k}={v}" for k, v in where.items())
    if failure.point is None and len(points) > 1:
        return IbmError(f"a batch of {len(points)} points from {point} failed: {failure.message}")
    return IbmError(f"run failed at {point}: {failure.message}")


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


# -- this process -----------------------------------------------------------------------------------
class InProcess:
    """The batches one after another in this process: one worker, nothing to start or send."""

    workers = 1
    batches_per_worker = BATCHES_PER_WORKER
    description = "this process"

    def map(self, shared: Common, batches: Sequence[Sequence[Work]], task: Task[Common, Work]
            ) -> Iterator[Rows]:
        for batch in batches:
            result = _guarded(task, shared, batch)
            if isinstance(result, Failure):
                raise _failed(batch, result)
            yield result

    def close(self) -> None:
        pass


# -- a pool of processes ----------------------------------------------------------------------------
_SHARED: list[Any] = []
"""In a pool's worker process: what its batches share, and the flags of the batches started (one
byte each, shared with the sweep), set once when it starts."""


def _init_worker(shared: Any, started: Any, sweep: int) -> None:
    _SHARED[:] = [pickle.loads(memoryview(shared)), started]  # noqa: S301 - the sweep's own bytes
    lifecycle.serve(sweep)


def _pool_work(task: Task[Any, Any], batch: Batch, index: int) -> Rows | Failure:
    _SHARED[1][index] = 1  # seen by the sweep if this process dies before it gives back the rows
    return _guarded(task, _SHARED[0], batch)


class ProcessPool:
    """``workers`` processes on this machine.  What the batches share (the deck) is pickled once,
    into shared memory each worker reads when it starts; each batch then costs only its items, the
    task (a reference: its module is imported when the first batch arrives, once the worker ignores
    the stop signals) and its rows.  The processes come from multiprocessing's forkserver, which
    imports ``preload`` once (the first pool of a process starts it).  The workers run the program's
    main module again only when the work was defined there (:func:`lifecycle.worker_context`)."""

    def __init__(self, workers: int, preload: Sequence[str] = ("ibm1013.sweep.grid",)) -> None:
        self.workers, self.preload = workers, list(preload)
        self.batches_per_worker = BATCHES_PER_WORKER
        self.description = f"{workers} local process{'es' if workers != 1 else ''}"

    def map(self, shared: Common, batches: Sequence[Sequence[Work]], task: Task[Common, Work]
            ) -> Iterator[Rows]:
        pending: dict[int, Batch] = dict(enumerate(batches))
        data = pickle.dumps(shared, protocol=pickle.HIGHEST_PROTOCOL)
        context = lifecycle.worker_context(_needs_main(data, task, batches))
        # workers start with them imported
        context.set_forkserver_preload([*WORKER_IMPORTS, *self.preload])
        lifecycle.start_helpers()
        with lifecycle.stops_noted() as stops:
            yield from self._rounds(_in_shared_memory(context, data), pending, task, context, stops)
            if stops:  # came while the last rows were being written: the sweep still stops
                raise KeyboardInterrupt

    def _rounds(self, shared: Any, pending: dict[int, Batch], task: Task[Any, Any],
                context: Any, stops: list[int]) -> Iterator[Rows]:
        """Pools one after another, each given the batches not finished yet, until none is left.

        A batch that started in a pool that broke (a worker died) and did not finish is a suspect:
        it runs next, alone in a one-worker pool, until it finishes or has killed that worker
        :data:`MAX_DEATHS` times in a row; then it is set aside, and named once the rest are done."""
        started = context.Array("b", max(pending, default=0) + 1, lock=False)
        deaths, alone_deaths, set_aside = 0, dict.fromkeys(pending, 0), {}
        while pending:
            suspect = next((i for i in pending if started[i]), None)
            if suspect is not None:
                yield from self._round(shared, {suspect: pending[suspect]}, pending, 1, task,
                                       (context, started), stops)
                if suspect in pending:
                    alone_deaths[suspect] += 1
                    if alone_deaths[suspect] >= MAX_DEATHS:
                        set_aside[suspect] = pending.pop(suspect)
                continue
            done_before = len(pending)
            yield from self._round(shared, dict(pending), pending, self.workers, task,
                                   (context, started), stops)
            started_any = any(started[i] for i in pending)
            deaths = deaths + 1 if len(pending) == done_before and not started_any else 0
            if pending and deaths >= MAX_DEATHS:
                raise _not_run(f"the worker processes died {deaths} times in a row with no batch "
                               f"started", pending)
        if set_aside:
            raise _not_run(f"a worker process died each of {MAX_DEATHS} times it ran the same batch "
                           f"alone", set_aside)

    def _round(self, shared: Any, batches: dict[int, Batch], pending: dict[int, Batch], workers: int,
               task: Task[Any, Any], places: tuple[Any, Any], stops: list[int]) -> Iterator[Rows]:
        """One pool of ``workers`` processes, given ``batches``; ends when each has finished, or
        the pool broke (the batches it did not finish stay in ``pending``)."""
        context, started = places
        with ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker,
                                 initargs=(shared, started, os.getpid())) as pool:
            futures = {pool.submit(_pool_work, task, batch, i): i for i, batch in batches.items()}
            try:
                yield from self._collect(futures, pending, stops, pool)
            except KeyboardInterrupt:  # stop at once, and keep what is done
                lifecycle.kill_workers(pool)
                yield from self._finished(futures, pending)
                raise
            except GeneratorExit:  # the caller stopped reading (interrupted while writing rows)
                lifecycle.kill_workers(pool)
                raise
            finally:
                pool.shutdown(wait=True, cancel_futures=True)

    @staticmethod
    def _collect(futures: dict[Any, int], pending: dict[int, Batch], stops: list[int],
                 pool: ProcessPoolExecutor) -> Iterator[Rows]:
        """The rows of each batch as it finishes.  Once every batch has come back (the pool not
        broken), the workers are told to end before the last rows are handed on: they exit, and the
        pool's own thread waits for them, while the sweep writes those rows and its files in order
        (before, the sweep waited 3-5 ms for them to exit first)."""
        left = set(futures)
        while left:
            if stops:
                raise KeyboardInterrupt
            done, left = wait(left, timeout=POLL, return_when=FIRST_COMPLETED)
            if not left and not any(isinstance(f.exception(), BrokenProcessPool) for f in done):
                pool.shutdown(wait=False)
            failed = None
            for future in sorted(done, key=futures.__getitem__):  # in the order handed out
                try:
                    result = future.result()
                except BrokenProcessPool:
                    continue  # a worker died: this batch is handed out again
                runs = pending.pop(futures[future])
                if isinstance(result, Failure):
                    failed = failed or _failed(runs, result)
                    continue
                yield result  # batches finished beside a failing one are still written
            if failed is not None:
                raise failed

    @staticmethod
    def _finished(futures: dict[Any, int], pending: dict[int, Batch]) -> Iterator[Rows]:
        """The rows of every batch that has finished by now and was not handed back yet."""
        for future in sorted(futures, key=futures.__getitem__):
            if futures[future] in pending and future.done() and not future.cancelled() \
                    and future.exception() is None and not isinstance(future.result(), Failure):
                pending.pop(futures[future])
                yield future.result()

    def close(self) -> None:
        pass


def _needs_main(shared: bytes, task: Task[Any, Any], batches: Sequence[Batch]) -> bool:
    """Whether the workers must run the program's main module again to unpickle the task, the
    batches or what they share (``shared``, pickled): :func:`~ibm1013.sweep.lifecycle.needs_main`.
    What does not pickle is left to fail as it always has, in the pool."""
    try:
        work = pickle.dumps((task, list(batches)), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - the pool raises it, with the batch it belongs to
        return True
    return lifecycle.needs_main(shared, work)


def _in_shared_memory(context: Any, data: bytes) -> Any:
    """``data`` (what the batches share, pickled once) in memory the workers map (a ``RawArray``
    of bytes).

    A worker's start-up data goes through a pipe, and the sweep starts its workers one after
    another, each launch returning only once the worker has read what did not fit in the pipe's
    buffer (64 kB): with the deck in it (160 kB at 1000 cards), the next worker was forked only
    once the last had run its main module and read its deck.  In shared memory, the start-up data
    is a few hundred bytes and the workers start together."""
    block = context.RawArray("B", len(data))
    memoryview(block).cast("B")[:] = data
    return block


def _not_run(why: str, batches: dict[int, Batch]) -> IbmError:
    left = sum(len(_points(batch)) for batch in batches.values())
    first = ", ".join(f"{k}={v}" for k, v in next(iter(batches.values()))[0].point.items())
    return IbmError(f"{why}; {left} point{'s' if left != 1 else ''} not run (the first: {first})")
