"""Where a sweep's runs are worked: a pool of processes on this machine, or a Dask cluster.

Both hand out *batches* (the missing seeds of one or a few points) and give back each batch's rows
as soon as it is done, in whatever order batches finish.  A worker process that dies (killed, out of memory)
does not lose the sweep: the process pool starts new workers and hands the unfinished batches out
again, and a Dask scheduler reschedules them on the workers it has left.  A batch that kills its
worker every time ends the sweep with one clear line, keeping every row already written.

Dask (``pip install 'ibm1013[dask]'``) is imported only when asked for.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

import numpy as np

from emulator.errors import IbmError
from ibm1013.sweep.grid import Run

Rows = list[dict[str, Any]]
Task = Callable[[np.ndarray, Sequence[Run]], Rows]

MAX_DEATHS = 3
"""Times in a row the workers may die without finishing a batch before the sweep gives up."""

POLL = 0.1
"""Seconds between looks at a stop signal while the pool works (:func:`_stops_noted`)."""


@dataclass(frozen=True)
class Failure:
    """An exception raised by a task, as text (any exception pickles this way), and the point of
    the run that raised it when known."""

    message: str
    point: dict[str, Any] | None = None


def _guarded(task: Task, deck: np.ndarray, runs: Sequence[Run]) -> Rows | Failure:
    try:
        return task(deck, runs)
    except Exception as err:  # noqa: BLE001 - reported as one line naming the point
        text = str(err) if isinstance(err, IbmError) else f"{type(err).__name__}: {err}"
        return Failure(text, getattr(err, "sweep_point", None))


def _failed(runs: Sequence[Run], failure: Failure) -> IbmError:
    points = list(dict.fromkeys(run.key[0] for run in runs))
    where = failure.point or runs[0].point
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


# -- a pool of processes ----------------------------------------------------------------------------
_DECK: np.ndarray | None = None


def _init_worker(deck: np.ndarray) -> None:
    global _DECK
    _DECK = deck
    # Ctrl-C (and SIGHUP when the terminal closes, SIGTERM from a service manager) reaches every
    # process of the group: the sweep itself stops its workers at once (and says what is kept); a
    # worker stopping on its own would only print a traceback, or look like a crash to the pool
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)


def _pool_work(task: Task, runs: Sequence[Run]) -> Rows | Failure:
    assert _DECK is not None
    return _guarded(task, _DECK, runs)


class ProcessPool:
    """``workers`` processes on this machine (the deck is sent to each once, when it starts)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.description = f"{workers} local process{'es' if workers != 1 else ''}"

    def map(self, deck: np.ndarray, batches: Sequence[Sequence[Run]], task: Task) -> Iterator[Rows]:
        pending = dict(enumerate(batches))
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["ibm1013.sweep.grid"])  # workers start with it imported
        _start_helpers()
        with _stops_noted() as stops:
            yield from self._rounds(deck, pending, task, context, stops)
            if stops:  # came while the last rows were being written: the sweep still stops
                raise KeyboardInterrupt

    def _rounds(self, deck: np.ndarray, pending: dict[int, Sequence[Run]], task: Task,
                context: Any, stops: list[int]) -> Iterator[Rows]:
        """Pools one after another, each given the batches not finished yet, until none is left."""
        deaths = 0
        while pending:
            done_before = len(pending)
            with ProcessPoolExecutor(self.workers, mp_context=context, initializer=_init_worker,
                                     initargs=(deck,)) as pool:
                futures = {pool.submit(_pool_work, task, runs): i for i, runs in pending.items()}
                try:
                    yield from self._collect(futures, pending, stops)
                except KeyboardInterrupt:  # stop at once, and keep what is done
                    _kill_workers(pool)
                    yield from self._finished(futures, pending)
                    raise
                except GeneratorExit:  # the caller stopped reading (interrupted while writing rows)
                    _kill_workers(pool)
                    raise
                finally:
                    pool.shutdown(wait=True, cancel_futures=True)
            deaths = deaths + 1 if len(pending) == done_before else 0
            if pending and deaths >= MAX_DEATHS:
                left = sum(len({run.key[0] for run in runs}) for runs in pending.values())
                first = ", ".join(f"{k}={v}" for k, v in next(iter(pending.values()))[0].point.items())
                plural = "s" if left != 1 else ""
                raise IbmError(f"the worker processes died {deaths} times in a row with no point "
                               f"finished; {left} point{plural} not run (the first: {first})")

    @staticmethod
    def _collect(futures: dict[Any, int], pending: dict[int, Sequence[Run]],
                 stops: list[int]) -> Iterator[Rows]:
        left = set(futures)
        while left:
            if stops:
                raise KeyboardInterrupt
            done, left = wait(left, timeout=POLL, return_when=FIRST_COMPLETED)
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
    def _finished(futures: dict[Any, int], pending: dict[int, Sequence[Run]]) -> Iterator[Rows]:
        """The rows of every batch that has finished by now and was not handed back yet."""
        for future in sorted(futures, key=futures.__getitem__):
            if futures[future] in pending and future.done() and not future.cancelled() \
                    and future.exception() is None and not isinstance(future.result(), Failure):
                pending.pop(futures[future])
                yield future.result()

    def close(self) -> None:
        pass


@contextlib.contextmanager
def _stops_noted() -> Iterator[list[int]]:
    """While inside, a signal that would raise :class:`KeyboardInterrupt` here (Ctrl-C; SIGTERM and
    SIGHUP too under the command line) is only noted in the list, which the pool looks at between
    waits.  Raised wherever the main thread happened to be, the interrupt could land inside
    ``concurrent.futures``' own locking, leave a future's lock held, and hang the pool's shutdown."""
    stops: list[int] = []
    old: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            if signal.getsignal(sig) is signal.default_int_handler:
                old[sig] = signal.signal(sig, lambda signum, _frame: stops.append(signum))
    try:
        yield stops
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def _start_helpers() -> None:
    """Start multiprocessing's forkserver and resource tracker with SIGHUP and SIGTERM ignored (the
    tracker ignores SIGINT and SIGTERM itself, the forkserver only SIGINT).  A stop signal sent to
    the whole group, as a terminal or a service manager does, then leaves them alive while the sweep
    kills its workers: a forkserver that died first would make each worker look gone already, and
    the kill would miss workers that ignore the signals.  Both follow the sweep out once it has gone."""
    from multiprocessing import forkserver, resource_tracker

    old = {sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGHUP, signal.SIGTERM)}
    try:
        resource_tracker.ensure_running()
        forkserver.ensure_running()
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    """End the pool's worker processes now, mid-batch (they ignore the stop signals)."""
    kill = getattr(pool, "kill_workers", None)  # Python 3.14
    if kill is not None:
        kill()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.kill()


# -- Dask -------------------------------------------------------------------------------------------
def _dask_work(task: Task, deck: np.ndarray, runs: Sequence[Run]) -> Rows | Failure:
    return _guarded(task, deck, runs)


def _the_deck(deck: np.ndarray) -> np.ndarray:
    return deck


class DaskCluster:
    """A Dask cluster: ``"local"`` starts a :class:`distributed.LocalCluster` of ``workers``
    processes; ``"tcp://HOST:PORT"`` connects to a running scheduler (``dask scheduler``), whose
    workers must have ibm1013 installed.  ``timeout`` bounds connecting, waiting for a first worker,
    and any time with no worker at all."""

    def __init__(self, address: str, workers: int, timeout: float = 10.0) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise IbmError("--dask needs Dask: pip install 'ibm1013[dask]'") from None
        for name in ("distributed", "tornado", "asyncio"):
            logging.getLogger(name).setLevel(logging.CRITICAL)  # its worker-restart chatter
        self.address, self.timeout = address, timeout
        self.cluster = None
        try:
            if address == "local":
                self.cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                            dashboard_address=None, silence_logs=logging.CRITICAL)
                self.client = Client(self.cluster, timeout=timeout)
            else:
                self.client = Client(address, timeout=timeout)
        except (OSError, TimeoutError) as err:
            self.close()
            raise IbmError(f"--dask {address}: no Dask scheduler answered within {timeout:g} s "
                           f"({err})") from None
        try:
            self.client.wait_for_workers(1, timeout=timeout)
        except (OSError, TimeoutError):
            self.close()
            raise IbmError(f"--dask {address}: the scheduler has no workers "
                           f"(waited {timeout:g} s)") from None
        self.workers = len(self.client.nthreads())
        where = "a Dask LocalCluster" if address == "local" else f"Dask at {address}"
        self.description = f"{where} ({self.workers} workers)"

    def map(self, deck: np.ndarray, batches: Sequence[Sequence[Run]], task: Task) -> Iterator[Rows]:
        from distributed import KilledWorker
        from distributed import wait as dask_wait

        client = self.client
        try:
            # the deck as the result of a task, not scattered data: a worker that dies with the
            # only copy of scattered data takes it (and every run waiting for it) with it, while a
            # task's result is simply computed again
            deck_future = client.submit(_the_deck, deck, pure=False)
            futures = {client.submit(_dask_work, task, deck_future, runs, pure=False): runs
                       for runs in batches}
        except (OSError, TimeoutError) as err:
            raise IbmError(f"--dask {self.address}: lost the scheduler ({err})") from None
        left = set(futures)
        idle_since = time.monotonic()
        try:
            while left:
                try:
                    done, left = dask_wait(left, timeout=min(2.0, self.timeout),
                                           return_when="FIRST_COMPLETED")
                except TimeoutError:
                    idle_since = self._check_workers(idle_since)
                    continue
                idle_since = time.monotonic()
                for future in done:
                    runs = futures[future]
                    try:
                        result = future.result()
                    except KilledWorker:
                        raise _failed(runs, Failure(
                            "it killed every Dask worker that tried it")) from None
                    except Exception as err:  # noqa: BLE001 - e.g. a worker without ibm1013
                        raise _failed(runs, Failure(f"{type(err).__name__}: {err}")) from None
                    if isinstance(result, Failure):
                        raise _failed(runs, result)
                    yield result
        finally:
            client.cancel(list(left))

    def _check_workers(self, idle_since: float) -> float:
        """Raise when the cluster has had no worker at all for ``timeout`` seconds."""
        try:
            workers = len(self.client.nthreads())
        except (OSError, TimeoutError) as err:
            raise IbmError(f"--dask {self.address}: lost the scheduler ({err})") from None
        if workers:
            return time.monotonic()
        if time.monotonic() - idle_since > self.timeout:
            raise IbmError(f"--dask {self.address}: no workers left for {self.timeout:g} s; "
                           f"the rows already written are kept (--resume continues)")
        return idle_since

    def close(self) -> None:
        client = getattr(self, "client", None)
        if client is not None:
            client.close(timeout=self.timeout)
        if self.cluster is not None:
            self.cluster.close(timeout=self.timeout)
