"""A sweep's batches on a Dask cluster (``pip install 'ibm1013[dask]'``; Dask is imported only when one
is asked for): a :class:`distributed.LocalCluster` on this machine, or the workers of a running
``dask scheduler``.  What every batch shares goes to each worker once, in a worker plugin
(:mod:`~ibm1013.sweep.dask_shared`); each batch is one task, handed to whichever worker is free.

What a task costs, and so how many there are (:data:`~ibm1013.sweep.backends.DASK_BATCHES_PER_WORKER`),
and what a sweep waits for at its start and its end: docs/speed.md, "Issue 52: Dask against the pool".
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import pickle
import time
import uuid
import warnings
from collections.abc import Generator, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from queue import Empty, SimpleQueue
from typing import Any

from emulator.errors import IbmError
from ibm1013.sweep.backends import (
    DASK_BATCHES_PER_WORKER,
    Batch,
    Common,
    Failure,
    Rows,
    Task,
    Work,
    _failed,
    _guarded,
)


def _dask_work(task: Task[Any, Any], key: str, timeout: float, batch: Batch) -> bytes | Failure:
    """A batch's rows, pickled: Dask sizes, copies and sends a result on its way to the sweep
    (worker, scheduler, client), and a block of bytes is one object to it, where a list of rows is
    thousands.  What the batches share may still be on its way (:mod:`~ibm1013.sweep.dask_shared`):
    the batch waits up to ``timeout`` seconds for it."""
    from ibm1013.sweep.dask_shared import shared

    arrived, value = shared(key, timeout)
    if not arrived:
        return Failure("the Dask worker did not get the sweep's shared data (its worker plugin)")
    result = _guarded(task, value, batch)
    return result if isinstance(result, Failure) else pickle.dumps(result, pickle.HIGHEST_PROTOCOL)


WORKER_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
}
"""Dask settings of the workers of ``--dask local``.  By default a Dask worker samples its own
stack every 10 ms (the dashboard's profile), checks its event loop every 20 ms and the machine
every 0.5 s.  While a worker ran a sweep's batch, that took a fifth of its CPU time, and about a
twelfth with these (medians of ``python -m tools.bench_dask_worker``; docs/speed.md).  A remote
cluster's workers are started by their owner (``dask worker``); the same settings go there as
environment variables, e.g. ``DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False``."""


class DaskCluster:
    """A Dask cluster: ``"local"`` starts a :class:`distributed.LocalCluster` of ``workers``
    processes; ``"tcp://HOST:PORT"`` connects to a running scheduler (``dask scheduler``), whose
    workers must have ibm1013 installed.  ``timeout`` bounds connecting, waiting for a first worker,
    and any time with no worker at all."""

    def __init__(self, address: str, workers: int, timeout: float = 10.0) -> None:
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError:
            raise IbmError("--dask needs Dask: pip install 'ibm1013[dask]'") from None
        for name in ("distributed", "tornado", "asyncio"):
            logging.getLogger(name).setLevel(logging.CRITICAL)  # its worker-restart chatter
        self.address, self.timeout = address, timeout
        self.cluster = None
        try:
            if address == "local":
                # each nanny passes WORKER_CONFIG to its worker.  With no dashboard the scheduler
                # still serves its health checks over HTTP, on port 8787 or, where another Dask
                # holds that, on a free port, with a warning that means nothing to a sweep's user
                with dask.config.set(WORKER_CONFIG), warnings.catch_warnings():
                    warnings.filterwarnings("ignore", "Port .* is already in use", UserWarning)
                    self.cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                dashboard_address=None, silence_logs=logging.CRITICAL)
                self.client = Client(self.cluster, timeout=timeout, direct_to_workers=True)
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
        threads = self.client.nthreads()
        self.workers = sum(threads.values())  # batches are sized by the threads that run them
        self.batches_per_worker = DASK_BATCHES_PER_WORKER
        where = "a Dask LocalCluster" if address == "local" else f"Dask at {address}"
        self.description = f"{where} ({len(threads)} workers" + (
            ")" if self.workers == len(threads) else f", {self.workers} threads)")
        # registers and removes each sweep's plugin, in order, while the sweep does other things
        self._helper = ThreadPoolExecutor(1, thread_name_prefix="ibm1013-dask-plugin")

    def map(self, shared: Common, batches: Sequence[Sequence[Work]], task: Task[Common, Work]
            ) -> Iterator[Rows]:
        """The rows of each batch as it comes back.  What the batches share goes to the workers in a
        plugin registered while the batches are handed out (a batch that arrives first waits for
        it), and is removed while the last rows are fetched and written; either way, it is gone
        from the scheduler and the workers before this generator ends."""
        from ibm1013.sweep.dask_shared import Shared

        key = uuid.uuid4().hex
        plugin, helper = f"ibm1013-shared-{key}", self._helper
        registered = helper.submit(self.client.register_plugin, Shared(key, shared), name=plugin)
        removed: Future[Any] | None = None
        try:
            with contextlib.closing(self._results(key, batches, task, registered)) as results:
                for rows in results:
                    if rows is None:  # every batch is done: the plugin is no longer needed
                        removed = helper.submit(self.client.unregister_worker_plugin, plugin)
                    else:
                        yield rows
        finally:  # after the registration (one thread, in order); the scheduler may be gone
            removed = removed or helper.submit(self.client.unregister_worker_plugin, plugin)
            with contextlib.suppress(Exception):
                removed.result(timeout=self.timeout)

    def _results(self, key: str, batches: Sequence[Batch], task: Task[Any, Any],
                 registered: Future[Any]) -> Generator[Rows | None, None, None]:
        """Each batch's rows as they come back, and ``None`` once, as soon as every batch is done
        (before the rows of the last ones are fetched).  Raises if the registration failed.

        Each task's result is fetched as soon as it is done, by a callback in Dask's callback
        thread, while this thread writes the rows before: one wait a task (``distributed.wait`` on
        the tasks left, each time one came back, was n(n+1)/2 waits a sweep in the client's loop)."""
        from distributed import KilledWorker

        client, n = self.client, len(batches)
        try:  # a task a batch, none depending on another, in one message (one graph) to the scheduler
            futures = dict(zip(client.map(_dask_work, [task] * n, [key] * n, [self.timeout] * n,
                                          batches, pure=False), batches, strict=True))
        except (OSError, TimeoutError) as err:
            raise IbmError(f"--dask {self.address}: lost the scheduler ({err})") from None
        arrived: SimpleQueue[tuple[Any, Any, BaseException | None] | None] = SimpleQueue()
        done = itertools.count(1)

        def fetch(future: Any) -> None:  # in Dask's callback thread, one task after another
            if next(done) == n:
                arrived.put(None)
            try:
                arrived.put((future, future.result(), None))
            except BaseException as raised:  # noqa: BLE001 - handed to the sweep's thread
                arrived.put((future, None, raised))

        for future in futures:
            future.add_done_callback(fetch)
        left, idle_since = set(futures), time.monotonic()
        try:
            while left:
                try:
                    item = arrived.get(timeout=min(2.0, self.timeout))
                except Empty:
                    idle_since = self._check_workers(idle_since, registered)
                    continue
                idle_since = self._check_registered(registered)
                if item is None:
                    yield None
                    continue
                future, result, error = item
                left.discard(future)
                batch = futures[future]
                if isinstance(error, KilledWorker):
                    raise _failed(batch, Failure("it killed every Dask worker that tried it"))
                if error is not None:  # e.g. a worker without ibm1013
                    raise _failed(batch, Failure(f"{type(error).__name__}: {error}"))
                if isinstance(result, Failure):
                    raise _failed(batch, result)
                yield pickle.loads(result)  # noqa: S301 - rows our own task pickled
        finally:
            if left:  # a round trip to the scheduler, 1-6 ms of a sweep's end: none when all came back
                client.cancel(list(left))

    def _check_registered(self, registered: Future[Any]) -> float:
        """Raise if registering the sweep's plugin failed; the time now."""
        if registered.done() and (err := registered.exception()) is not None:
            if isinstance(err, OSError | TimeoutError):
                raise IbmError(f"--dask {self.address}: lost the scheduler ({err})") from None
            raise err  # anything else as it is
        return time.monotonic()

    def _check_workers(self, idle_since: float, registered: Future[Any]) -> float:
        """Raise when there was no worker at all for ``timeout`` seconds, or no plugin registered."""
        self._check_registered(registered)
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
        helper = getattr(self, "_helper", None)
        if helper is not None:
            helper.shutdown(wait=True)
        client = getattr(self, "client", None)
        if client is not None:
            client.close(timeout=self.timeout)
        if self.cluster is not None:
            self.cluster.close(timeout=self.timeout)
