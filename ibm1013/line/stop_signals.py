"""The signals that stop a command, and the rule for catching them: what the user ignored stays ignored.

Ctrl-C (SIGINT), SIGTERM (``kill``, a service manager) and SIGHUP (the terminal closed) stop every
long-running command the same way (:mod:`ibm1013.cli.main`).  A signal that is already ignored when
a command catches them was ignored on purpose by whoever started it, and stays ignored:
``nohup ibm1013 send …`` ignores SIGHUP so that the transfer outlives the terminal, and a shell
starting a command in the background with ``&`` (a script, no job control) ignores SIGINT so that a
Ctrl-C at the terminal does not reach it.  SIGTERM is rarely ignored, so such a command still stops
on ``kill``, saying what is kept, as it would on Ctrl-C.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at run time: this is on the path of every command
if TYPE_CHECKING:
    import signal
    from collections.abc import Callable
    from types import FrameType, TracebackType
else:  # the C module behind signal, whose enums (Signals, Handlers) import enum: a fifth of what
    import _signal as signal  # python -c pass costs in a wheel install; these are the same ints

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""The signals that stop a command as Ctrl-C does."""
AS_CTRL_C = signal.default_int_handler
"""The handler of Ctrl-C (SIGINT): it raises :class:`KeyboardInterrupt`."""


class catching:  # lower case: used as a function, ``with catching(handler): ...``
    """While inside, ``handler`` handles each of ``signals`` that is not ignored (or, given
    ``replaces``, each whose handler is that one: :data:`AS_CTRL_C` for only the signals that would
    raise :class:`KeyboardInterrupt`); the dispositions before are restored after.  Only in the
    main thread (signals cannot be caught elsewhere; there this does nothing: :func:`signal.signal`
    refuses at once, which tells without importing :mod:`threading`, on every command's path).  A
    class, not a :func:`contextlib.contextmanager`: ``contextlib`` would cost every command's
    start-up more than the rest of this module."""

    def __init__(self, handler: Callable[[int, FrameType | None], object],
                 signals: tuple[int, ...] = STOP_SIGNALS,
                 replaces: Callable[[int, FrameType | None], object] | None = None) -> None:
        self.handler, self.signals, self.replaces = handler, signals, replaces
        self._before: dict[int, Callable[[int, FrameType | None], object] | int | None] = {}

    def __enter__(self) -> None:
        try:
            for sig in self.signals:
                now = signal.getsignal(sig)
                if (now != signal.SIG_IGN) if self.replaces is None else (now is self.replaces):
                    self._before[sig] = signal.signal(sig, self.handler)
        except ValueError:  # "signal only works in main thread of the main interpreter": nothing set
            pass

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        for sig, before in self._before.items():
            signal.signal(sig, before)
        self._before = {}
