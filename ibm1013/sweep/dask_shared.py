"""What a sweep's batches share (its deck; measure_games' game and budget), on every Dask worker.

The Dask counterpart of a process pool's initializer: a worker plugin.  Registering it sends the
value to every worker once; the scheduler keeps it and sends it to every worker that joins later,
so a worker started to replace a dead one has it too.  (Scattered data would be lost with the
worker holding it; the value as the result of one task would tie every batch to the worker that
computed it, and the others would wait for the scheduler to move work to them.)  Each batch then
carries only its own items, and the scheduler hands batches to whichever worker is free.

Imported only when a sweep runs on Dask (``pip install 'ibm1013[dask]'``).
"""

from __future__ import annotations

from distributed import Worker, WorkerPlugin

SHARED: dict[str, object] = {}
"""In a Dask worker: the shared value of each sweep running on it, by the sweep's key."""


class Shared(WorkerPlugin):
    """Puts ``value`` in :data:`SHARED` under ``key`` on a worker, and takes it out again when the
    sweep ends (the plugin is unregistered)."""

    def __init__(self, key: str, value: object) -> None:
        self.key, self.value = key, value

    def setup(self, worker: Worker) -> None:
        SHARED[self.key] = self.value

    def teardown(self, worker: Worker) -> None:
        SHARED.pop(self.key, None)
