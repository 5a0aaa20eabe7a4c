"""How every command meets the terminal it runs at: its width, the signals that stop it, and errors.

An error a user can act on (:class:`~emulator.errors.IbmError`, an :class:`OSError`) is one line on
stderr, ``ibm1013: message``, never a traceback.  When the reader of our standard output goes away
(``ibm1013 cards decode X | head -1``) we stop quietly with status 141, as a Unix tool killed by
SIGPIPE does.  SIGTERM and SIGHUP are treated as Ctrl-C (:func:`stop_signals_interrupt`).

Both ways a command is answered use this module: argparse's (:mod:`ibm1013.cli.main`) and the
prepared answers that need no argparse (:mod:`ibm1013.cli.start`), so it imports nothing slow:
the error classes and the stop signals (which import :mod:`enum`) only when they are needed.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing is not imported at run time: this is on the path of every command
if TYPE_CHECKING:
    from collections.abc import Callable
    from contextlib import AbstractContextManager


def terminal_columns() -> int:
    """``shutil.get_terminal_size().columns``, without importing :mod:`shutil` (which imports
    ``bz2``, ``lzma`` and ``fnmatch``): argparse makes a formatter, and asks the width, for every
    ``add_argument``, so every command would pay for it.  The help is this wide, less 2 (as
    argparse's own formatter takes it)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):  # no stdout, or not a terminal
            columns = 80
    return columns


def stop_signals_interrupt() -> AbstractContextManager[None]:
    """While inside (in the main thread), SIGTERM and SIGHUP raise :class:`KeyboardInterrupt` as
    Ctrl-C does, so that each command's Ctrl-C path (what is kept, how to go on) serves all three.
    A signal ignored when we started (``nohup``; ``&`` in a script) stays ignored
    (:mod:`ibm1013.line.stop_signals`)."""
    from ibm1013.line.stop_signals import AS_CTRL_C, STOP_SIGNALS, catching

    return catching(AS_CTRL_C, STOP_SIGNALS[1:])


def answer(command: Callable[[], int]) -> int:
    """Run ``command`` (which parses, runs and returns the exit status, or writes a prepared answer)
    and flush standard output; an error it raises is one line on stderr, a broken pipe a quiet 141."""
    try:
        status = command()
        if sys.stdout is not None:  # None when started with stdout closed (>&-)
            sys.stdout.flush()  # here, not at exit, so that a closed pipe is seen below
    except (OSError, KeyboardInterrupt) as err:
        return _failed(err)
    except Exception as err:
        from emulator.errors import IbmError

        if not isinstance(err, IbmError):
            raise
        return _failed(err)
    return int(status or 0)


def _failed(err: BaseException) -> int:
    """The exit status of a command stopped by ``err`` (an :class:`~emulator.errors.IbmError`, an
    :class:`OSError` or an interruption), after one line saying why (none for a closed pipe)."""
    from emulator.errors import ExitStatus

    if isinstance(err, KeyboardInterrupt):  # a command with nothing to keep (its own handler says so)
        print("ibm1013: interrupted: the command did not finish (its files are written whole or not "
              "at all); run it again", file=sys.stderr)
        return ExitStatus.INTERRUPTED
    if _broken_pipe(err):
        return _quiet_exit()
    print(f"ibm1013: {_one_line(err)}", file=sys.stderr)
    return getattr(err, "exit_status", ExitStatus.FAILED)  # a transfer interrupted, or not confirmed


def _stdout_closed() -> bool:
    """Whether the reader of our standard output has gone (a pipe or socket with no reader)."""
    import select  # here: only a command whose output broke asks

    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(ev & select.POLLERR for _fd, ev in poller.poll(0))
    except (OSError, ValueError, AttributeError):
        return False


def _broken_pipe(err: BaseException) -> bool:
    """Whether ``err`` (or the error it was raised from) is EPIPE on our standard output."""
    import errno  # here: only a command that failed asks

    for cause in (err, err.__context__):
        if isinstance(cause, OSError) and cause.errno == errno.EPIPE:
            return _stdout_closed()
    return False


def _one_line(err: BaseException) -> str:
    """An error as one line: an IbmError's message; an OSError's file and reason (``strerror``)."""
    from emulator.errors import IbmError

    if isinstance(err, OSError) and not isinstance(err, IbmError) and err.strerror:
        return f"{err.filename}: {err.strerror}" if err.filename else err.strerror
    return str(err)


def _quiet_exit() -> int:
    """Stop writing to the closed pipe: point stdout at /dev/null so the final flush stays silent."""
    from emulator.errors import ExitStatus

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return ExitStatus.BROKEN_PIPE
