"""A Hercules line printer on a socket device, read as it prints: each line becomes a card.

Hercules 3.13 can define a 1403 printer as a socket device (``000E 1403 127.0.0.1:1403 sockdev``):
it listens on that address and sends each printed line, in ASCII with a LF, to the client connected
to it.  Of its unit-record devices only the 3505 reader and the 1403 printer take ``sockdev``; its
3525 punch refuses it (``HHCPU002E Invalid argument: sockdev``) and writes a file, which
:class:`~emulator.follow.PunchFollower` follows.  Connect before the guest prints: Hercules keeps
no line for a client that is not there yet.

:class:`PrinterFollower` is that client.  It turns each line into one card, the rule a 1013 site
used to punch a listing back:

* columns 1-80 of the line are the card; **a longer line is cut at column 80** (the 1403 has 132
  print positions, a card 80 columns), and the lines cut are counted (``lines_cut``);
* carriage return and form feed (a skip to a new page) are dropped; a blank line is a blank card;
* each character is punched in the given code; one the code lacks gets the code's substitute, counted
  in ``substitutions``.

Every line taken from the socket goes first into a *spool*, a text deck on disk, flushed and synced
before the next read, and the cards are followed from there as from a punch file.  So a sender that
is stopped and run again with ``--resume`` finds every line it took (only a line in flight when the
process died is lost), and the socket is read again for the lines printed since.  The deck ends
when the printer closes the connection (Hercules stopped, the device detached), after ``idle_s``
seconds without a line (from the first one), or at :meth:`end`.
"""

from __future__ import annotations

import contextlib
import os
import socket
import time
from collections.abc import Callable

from emulator.card import COLUMNS, Card
from emulator.codes import Substitutions, get_code
from emulator.follow import FollowError, PunchFollower, check_followable
from emulator.formats import get_format
from emulator.sockdev import CONNECT_TIMEOUT_S, SCHEME, parse_address

READ_BYTES = 1 << 16


def spool_name(host: str, port: int) -> str:
    """The spool of a printer's lines, in the current directory: ``sockdev-HOST-PORT.1013print``."""
    return f"sockdev-{host}-{port}.1013print"


def open_follower(source: str, fmt: str, *, code: str = "029", idle_s: float | None = None) -> PunchFollower:
    """What ``send --follow SOURCE`` reads: a punch file, or a sockdev printer ``sockdev://HOST:PORT``
    (whose lines are text cards: a ``fmt`` other than ``auto``/``text`` is a :class:`ValueError`)."""
    if not source.startswith(SCHEME):
        check_followable(source, fmt)
        return PunchFollower(source, fmt, code=code, idle_s=idle_s)
    if fmt not in ("auto", "text"):
        raise ValueError(f"--follow {source}: a printer's lines become text cards; --format {fmt} does "
                         "not apply")
    host, port = parse_address(source)
    return PrinterFollower(host, port, code=code, idle_s=idle_s)


class PrinterFollower(PunchFollower):
    """The cards of the lines a sockdev printer at ``host:port`` prints (see the module docstring)."""

    def __init__(self, host: str, port: int, *, code: str = "029", idle_s: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(spool_name(host, port), "text", code=code, idle_s=idle_s, clock=clock)
        self.name = f"{SCHEME}{host}:{port}"
        self.lines_cut = 0
        self.substitutions = Substitutions()
        self._code = get_code(code)
        self._pending = b""
        try:
            self._sock = socket.create_connection((host, port), timeout=CONNECT_TIMEOUT_S)
        except OSError as err:
            why = "nothing listens there" if isinstance(err, ConnectionRefusedError) else err.strerror or err
            raise FollowError(f"the printer {self.name} cannot be reached ({why}): is Hercules running "
                              "with a sockdev 1403 on that address?") from None
        self._sock.setblocking(False)
        self._spool = open(self.path, "ab")  # noqa: SIM115 - closed in close()

    def poll(self, now: float | None = None) -> list[Card]:
        if not self.finished:
            self._take_lines()
        return super().poll(now)

    def end(self, why: str = "ended by the operator") -> None:
        super().end(why)
        self.close()

    def notes(self) -> list[str]:
        """What did not fit a card as printed: lines cut at 80, characters substituted."""
        said = []
        if self.lines_cut:
            plural = "s" if self.lines_cut != 1 else ""
            said.append(f"{self.lines_cut} printed line{plural} longer than 80 columns cut at column 80")
        if self.substitutions.count:
            plural = "s" if self.substitutions.count != 1 else ""
            said.append(f"{self.substitutions.count} printed character{plural} not in the code punched as "
                        "its substitute")
        return said

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._sock.close()
        if not self._spool.closed:
            self._spool.close()

    def _take_lines(self) -> None:
        """Read what the printer sent, and spool its whole lines as cards."""
        closed = False
        while True:
            try:
                data = self._sock.recv(READ_BYTES)
            except (BlockingIOError, InterruptedError):
                break
            except OSError as err:
                raise FollowError(f"the printer {self.name} dropped the connection ({err.strerror})") \
                    from None
            if not data:
                closed = True
                break
            self._pending += data
        *lines, self._pending = self._pending.split(b"\n")
        if closed and self._pending:  # a last line without its LF
            lines.append(self._pending)
            self._pending = b""
        if lines:
            get_format("text").write([self._card(line) for line in lines], self._spool, code=self.code)
            self._spool.flush()
            os.fsync(self._spool.fileno())
        if closed:
            self.end(f"the printer {self.name} closed the connection")

    def _card(self, line: bytes) -> Card:
        text = line.decode("latin-1").replace("\r", "").replace("\f", "")
        if len(text) > COLUMNS:
            self.lines_cut += 1
            text = text[:COLUMNS]
        return Card(self._code.encode(text, lenient=True, substitutions=self.substitutions))
