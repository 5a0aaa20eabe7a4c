"""How a sweep's worker processes start and stop: the stop signals, the forkserver and its resource
tracker, a worker that need not run the program's main module again, and a worker that must not
outlive its sweep (:class:`ibm1013.sweep.backends.ProcessPool` drives them).

A terminal's Ctrl-C, the SIGHUP of a closed terminal and a service manager's SIGTERM reach every
process of the group.  The sweep alone acts on them: it stops its workers at once and says what is
kept.  A worker ignores them, and ends by itself only once the sweep has gone."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import select
import signal
import sys
import threading
import time
import types
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import context as mp_context
from multiprocessing import spawn
from typing import Any

from ibm1013.line.stop_signals import AS_CTRL_C, STOP_SIGNALS, catching

if sys.platform != "win32":  # no forkserver there (nor a process pool of this module)
    from multiprocessing import popen_forkserver

_MAIN_KEYS = ("init_main_from_name", "init_main_from_path")
"""What multiprocessing's start-up data says of the program's main module (a module run with
``-m``, or a script), for the new process to run it again."""


def serve(sweep: int) -> None:
    """In a worker, as it starts: ignore the stop signals (a worker stopping on its own would only
    print a traceback, or look like a crash to the pool) and end with the sweep (process ``sweep``)."""
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    threading.Thread(target=exit_with, args=(sweep,), name="watching the sweep", daemon=True).start()


def exit_with(sweep: int) -> None:
    """In a worker: end this process as soon as the sweep (process ``sweep``) is gone, however it
    went (``kill -9`` included, which gives it no chance to stop its workers).

    A worker is the forkserver's child, not the sweep's, and it ignores the stop signals; it holds
    the write ends of its own task queue, of the forkserver's "sweep alive" pipe and of the resource
    tracker's pipe, so a worker left behind keeps itself, the forkserver and the tracker running for
    ever, with the sweep's standard output open.  Once the workers have gone, the forkserver and the
    tracker see the ends of their pipes and leave too."""
    try:
        watch = os.pidfd_open(sweep)  # Linux 5.3 on: readable once the process has ended
    except (AttributeError, OSError):  # elsewhere, or the sweep has already gone: look every second
        while alive(sweep):
            time.sleep(1.0)
    else:
        select.select([watch], [], [])
    os._exit(1)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # no signal sent: only whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, under another user
        pass
    return True


@contextlib.contextmanager
def stops_noted() -> Iterator[list[int]]:
    """While inside, a signal that would raise :class:`KeyboardInterrupt` here (Ctrl-C; SIGTERM and
    SIGHUP too under the command line) is only noted in the list, which the pool looks at between
    waits.  Raised wherever the main thread happened to be, the interrupt could land inside
    ``concurrent.futures``' own locking, leave a future's lock held, and hang the pool's shutdown.
    (Outside the main thread nothing is caught: signals reach only the main thread.)"""
    stops: list[int] = []
    with catching(lambda signum, _frame: stops.append(signum), replaces=AS_CTRL_C):
        yield stops


def worker_context(main: bool) -> mp_context.ForkServerContext:
    """Multiprocessing's forkserver context, whose processes run the program's main module again
    when they start, as every process of multiprocessing does; or with ``main`` false,
    :data:`LEAN`, whose processes do not.

    A new process runs the main module again (as ``__mp_main__``, its ``if __name__ ==
    "__main__"`` part left out) so that what was defined there can be unpickled in it.  A sweep's
    workers need it only when the task, the batches or what they share were defined there
    (:func:`needs_main`); otherwise it is only time before a worker's first batch, spent on what
    the main module imports: 3 ms of CPU a worker for the ``ibm1013`` command's script, 8 ms for
    ``python -m tools.bench_sweep`` (argparse, which compiles a regular expression as it loads),
    and whatever a script that imports pandas or matplotlib first spends on them, in each worker.
    (An interactive session's or a notebook's main module is never run again: it has no file.)"""
    return multiprocessing.get_context("forkserver") if main else LEAN


if sys.platform != "win32":
    class _Spawn:
        """``multiprocessing.spawn`` as :class:`LeanPopen`'s launch sees it: its start-up data leaves
        the main module out."""

        def __getattr__(self, name: str) -> Any:
            return getattr(spawn, name)

        @staticmethod
        def get_preparation_data(name: str) -> dict[str, Any]:
            data: dict[str, Any] = spawn.get_preparation_data(name)
            for key in _MAIN_KEYS:
                data.pop(key, None)
            return data


    class LeanPopen(popen_forkserver.Popen):
        """Launches a process as the forkserver's ``Popen`` does, with multiprocessing's own code (its
        ``_launch``, run with :class:`_Spawn` for the ``spawn`` module it calls), less the main module.
        Nothing else differs: the same forkserver, the same pipes and sentinels."""

        _launch = types.FunctionType(vars(popen_forkserver.Popen)["_launch"].__code__,
                                     {**vars(popen_forkserver), "spawn": _Spawn()}, "_launch")


    class LeanProcess(mp_context.ForkServerProcess):
        """A forkserver process started by :class:`LeanPopen` (pickled by reference: the worker finds it
        in this module, which the forkserver has imported)."""

        @staticmethod
        def _Popen(process_obj: Any) -> Any:
            return LeanPopen(process_obj)


    class LeanContext(mp_context.ForkServerContext):
        """The forkserver context whose processes are :class:`LeanProcess` es."""

        Process = LeanProcess


    LEAN = LeanContext()


def needs_main(*pickled: bytes) -> bool:
    """Whether anything in these pickles names the program's main module (a function or a class
    defined there: pickle writes its module's name), so the workers must run it again to unpickle
    them.  A string that happens to hold ``__main__`` only costs the workers that time again."""
    return any(b"__main__" in data for data in pickled)


def start_helpers() -> None:
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


def kill_workers(pool: ProcessPoolExecutor) -> None:
    """End the pool's worker processes now, mid-batch (they ignore the stop signals)."""
    kill = getattr(pool, "kill_workers", None)  # Python 3.14
    if kill is not None:
        kill()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.kill()
