"""What a sweep's batches share (its deck; measure_games' game and budget), on every Dask worker.

The Dask counterpart of a process pool's initializer: a worker plugin.  Registering it sends the
value to every worker once; the scheduler keeps it and sends it to every worker that joins later,
so a worker started to replace a dead one has it too.  (Scattered data would be lost with the
worker holding it; the value as the result of one task would tie every batch to the worker that
computed it, and the others would wait for the scheduler to move work to them.)  Each batch then
carries only its own items, and the scheduler hands batches to whichever worker is free.

The sweep does not wait for the registration before it hands out its batches: the plugin travels
client -> scheduler -> every worker and back, a round trip of 3-12 ms, while the batches travel
client -> scheduler -> a worker on another channel.  So a batch may start on a worker before the
plugin has reached it; :func:`shared` then waits for it (the plugin's ``setup`` wakes it).

Imported only when a sweep runs on Dask (``pip install 'ibm1013[dask]'``).
"""

from __future__ import annotations

import threading

from distributed import Worker, WorkerPlugin

SHARED: dict[str, object] = {}
"""In a Dask worker: the shared value of each sweep running on it, by the sweep's key."""

ENDED: set[str] = set()
"""In a Dask worker: the sweeps whose plugin was removed here (a batch of one that starts after
that, cancelled too late, gives up at once instead of waiting for a value that will not come)."""

_ARRIVED = threading.Condition()
"""Notified when a plugin puts a value in :data:`SHARED` (its ``setup`` runs in the worker's event
loop; a batch waiting in :func:`shared` runs in one of the worker's task threads)."""


class Shared(WorkerPlugin):
    """Puts ``value`` in :data:`SHARED` under ``key`` on a worker, and takes it out again when the
    sweep ends (the plugin is unregistered)."""

    def __init__(self, key: str, value: object) -> None:
        self.key, self.value = key, value

    def setup(self, worker: Worker) -> None:
        with _ARRIVED:
            SHARED[self.key] = self.value
            _ARRIVED.notify_all()

    def teardown(self, worker: Worker) -> None:
        with _ARRIVED:
            SHARED.pop(self.key, None)
            ENDED.add(self.key)
            _ARRIVED.notify_all()


def shared(key: str, timeout: float) -> tuple[bool, object]:
    """``(True, value)``: the value of the sweep ``key`` on this worker, waiting up to ``timeout``
    seconds for its plugin to arrive; ``(False, None)`` if it did not come in that time, or the
    sweep has ended here."""
    with _ARRIVED:
        _ARRIVED.wait_for(lambda: key in SHARED or key in ENDED, timeout)
        return (True, SHARED[key]) if key in SHARED else (False, None)
