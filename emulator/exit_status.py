"""The exit statuses commands end with: :class:`ExitStatus`, whose public home is
:mod:`emulator.errors` (re-exported as ``ibm1013.ExitStatus``).

It is defined here, and :mod:`emulator.errors` loads it when it is first asked for, so that the
errors, which every command reading a deck imports, do not import :mod:`enum`: the commands on the
fastest path (``cards decode`` of a small deck) name the one status they end with as a plain int
(``tests/test_startup.py`` checks that it agrees).
"""

from __future__ import annotations

from enum import IntEnum


class ExitStatus(IntEnum):
    """What a command's exit status says, the same for every command (``docs/serial.md`` lists a
    transfer's)."""

    OK = 0
    """All done: every card there and confirmed, the deal won, the deck in order."""
    INCOMPLETE = 1
    """The command ran, but not everything came out: cards given up, a deal not won, a deck out of
    order, a game that did not arrive identical."""
    FAILED = 2
    """An error: a bad argument or file, a dead line, a transfer stopped (its message says how to go
    on)."""
    NOT_CONFIRMED = 3
    """Every card was delivered, but the receiving end's last word (that it wrote the deck) was lost."""
    INTERRUPTED = 130
    """Stopped by Ctrl-C, SIGTERM or SIGHUP: what a shell reports for death by SIGINT."""
    BROKEN_PIPE = 128 + 13
    """Our reader closed standard output: what a shell reports for death by SIGPIPE."""
