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
before the next read, and the cards are followed from there as from a punch file.  The socket is read
by a :class:`PrinterSpool`, a thread of its own from the moment it connects: a client that connects
early (``rje-host`` does, before the job goes into the reader) keeps every line the guest prints
while the line is busy with something else (turning around from the job to the output).  A sender that
is stopped and run again with ``--resume`` finds every line it *spooled*, and the socket is read again
for the lines printed since; but the lines Hercules had written into the connection and the process
had not yet read die with it (the kernel's receive buffer holds many), and so do the lines printed
while no client was connected, and nothing tells how many.  So such a resumed deck may be short
(``rje-host`` runs the job again instead: :mod:`ibm1013.cli.rje`).  Hercules 3.13 turns a client away
by taking the connection and closing it at once, while the guest left the printer an interrupt
pending or while it still counts a client that went: a :class:`PrinterSpool` checks that it was kept
(and may try again for a while, :data:`TURNED_AWAY` saying what lets it in).  The deck ends
when the printer closes the connection (Hercules stopped, the device detached), after ``idle_s``
seconds without a line (from the first one), or at :meth:`end`.
"""

from __future__ import annotations

import contextlib
import os
import select
import socket
import threading
import time
from collections.abc import Callable

from emulator.card import COLUMNS, Card
from emulator.codes import Substitutions, get_code
from emulator.follow import FollowError, PunchFollower, check_followable
from emulator.formats import get_format
from emulator.sockdev import CONNECT_TIMEOUT_S, REJECT_WAIT_S, SCHEME, parse_address
from emulator.words import counted

READ_BYTES = 1 << 16
POLL_S = 0.1
"""How often the spool's thread looks up from the socket to see whether it is told to stop."""


def spool_name(host: str, port: int) -> str:
    """The spool of a printer's lines, in the current directory: ``sockdev-HOST-PORT.1013print``."""
    return f"sockdev-{host}-{port}.1013print"


def open_follower(source: str, fmt: str, *, code: str = "029", idle_s: float | None = None,
                  spool: PrinterSpool | None = None) -> PunchFollower:
    """What ``send --follow SOURCE`` reads: a punch file, or a sockdev printer ``sockdev://HOST:PORT``
    (whose lines are text cards: a ``fmt`` other than ``auto``/``text`` is a :class:`ValueError`),
    through ``spool`` when one is already connected to it."""
    if not source.startswith(SCHEME):
        check_followable(source, fmt)
        return PunchFollower(source, fmt, code=code, idle_s=idle_s)
    if fmt not in ("auto", "text"):
        raise ValueError(f"--follow {source}: a printer's lines become text cards; --format {fmt} does "
                         "not apply")
    host, port = parse_address(source)
    return PrinterFollower(host, port, code=code, idle_s=idle_s, spool=spool)


class PrinterSpool:
    """The client of a sockdev printer at ``host:port``: a thread reads each line it prints into the
    spool (:func:`spool_name`) as a text card, synced before the next read, until :meth:`close` or
    until the printer closes the connection (:attr:`hung_up`).  A failed read is kept in
    :attr:`error` (the follower raises it)."""

    def __init__(self, host: str, port: int, *, code: str = "029", fresh: bool = False,
                 within_s: float = 0.0, on_turned_away: Callable[[str], None] | None = None) -> None:
        self.name = f"{SCHEME}{host}:{port}"
        self.path = spool_name(host, port)
        self.code = code
        self.lines_cut = 0
        self.substitutions = Substitutions()
        self.hung_up = threading.Event()
        self.error: str | None = None
        self._code = get_code(code)
        self._pending = b""
        self._stop = threading.Event()
        self._sock = _accepted_client(host, port, self.name, within_s, on_turned_away)
        self._sock.settimeout(POLL_S)
        self._spool = open(self.path, "wb" if fresh else "ab")  # noqa: SIM115 - closed by the thread
        self._thread = threading.Thread(target=self._read, name=f"printer {self.name}", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop reading (the lines spooled so far stay) and close the connection."""
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join()

    def _read(self) -> None:
        try:
            while not self._stop.is_set():
                try:
                    data = self._sock.recv(READ_BYTES)
                except TimeoutError:
                    continue
                except OSError as err:
                    self.error = f"the printer {self.name} dropped the connection ({err.strerror})"
                    break
                self._spool_lines(data)
                if not data:
                    break
        finally:
            with contextlib.suppress(OSError):
                self._sock.close()
            self._spool.close()
            self.hung_up.set()

    def _spool_lines(self, data: bytes) -> None:
        """Spool the whole lines of what came (``b""``: the printer closed; a last line without its
        LF is taken)."""
        self._pending += data
        *lines, self._pending = self._pending.split(b"\n")
        if not data and self._pending:
            lines.append(self._pending)
            self._pending = b""
        if lines:
            get_format("text").write([self._card(line) for line in lines], self._spool, code=self.code)
            self._spool.flush()
            os.fsync(self._spool.fileno())

    def _card(self, line: bytes) -> Card:
        text = line.decode("latin-1").replace("\r", "").replace("\f", "")
        if len(text) > COLUMNS:
            self.lines_cut += 1
            text = text[:COLUMNS]
        return Card(self._code.encode(text, lenient=True, substitutions=self.substitutions))


TURNED_AWAY = ("Hercules 3.13 does so while the guest has left the printer an interrupt pending, HHCSD015E, "
               "and while it still counts a client that went, HHCSD016E, until it writes to it: at the "
               "Hercules console give `sysreset`, and for HHCSD016E first `devinit` for the 1403 (its "
               "device number, then {address} sockdev)")
"""Why a sockdev 1403 turns a client away, and what lets the next one in."""


def _accepted_client(host: str, port: int, name: str, within_s: float,
                     on_turned_away: Callable[[str], None] | None) -> socket.socket:
    """A connection to the printer that it kept: Hercules 3.13 turns a client away by taking the
    connection and closing it at once (within :data:`~emulator.sockdev.REJECT_WAIT_S`).  Tried again
    for ``within_s`` seconds (``on_turned_away(why)`` hears of the first refusal), then a
    :class:`FollowError` naming the printer and what to do."""
    deadline, said = time.monotonic() + within_s, False
    while True:
        try:
            sock = socket.create_connection((host, port), timeout=CONNECT_TIMEOUT_S)
        except OSError as err:
            why = "nothing listens there" if isinstance(err, ConnectionRefusedError) else err.strerror or err
            if time.monotonic() >= deadline:
                raise FollowError(f"the printer {name} cannot be reached ({why}): is Hercules running "
                                  "with a sockdev 1403 on that address?") from None
        else:
            if not _closed_at_once(sock):
                return sock
            sock.close()
            advice = TURNED_AWAY.format(address=f"{host}:{port}")
            why = f"the printer {name} turned this client away ({advice})"
            if time.monotonic() >= deadline:
                raise FollowError(why)
            if on_turned_away is not None and not said:
                on_turned_away(why)
                said = True
        time.sleep(POLL_S * 2)


def _closed_at_once(sock: socket.socket) -> bool:
    """Whether the printer closed (or reset) the connection right after taking it."""
    if not select.select([sock], [], [], REJECT_WAIT_S)[0]:
        return False
    try:
        return not sock.recv(1, socket.MSG_PEEK)
    except OSError:
        return True


class PrinterFollower(PunchFollower):
    """The cards of the lines a sockdev printer at ``host:port`` prints (see the module docstring),
    read by ``spool`` (a :class:`PrinterSpool` already connected; one is connected when not given)."""

    IDLE = ("the printer printed no line for {:g} s; a line the computer prints later is not in this "
            "deck")

    def __init__(self, host: str, port: int, *, code: str = "029", idle_s: float | None = None,
                 clock: Callable[[], float] = time.monotonic, spool: PrinterSpool | None = None) -> None:
        super().__init__(spool_name(host, port), "text", code=code, idle_s=idle_s, clock=clock)
        self.name = f"{SCHEME}{host}:{port}"
        self.spool = spool if spool is not None else PrinterSpool(host, port, code=code)

    def poll(self, now: float | None = None) -> list[Card]:
        if self.finished:
            return super().poll(now)
        hung_up = self.spool.hung_up.is_set()  # before the read: every line spooled is then read
        cards = super().poll(now)
        if hung_up and not self.finished and os.path.getsize(self.path) == self._offset:
            if self.spool.error is not None:
                raise FollowError(self.spool.error)
            self.end(f"the printer {self.name} closed the connection")
            cards += self._cards(final=True)
        return cards

    def end(self, why: str = "ended by the operator") -> None:
        super().end(why)
        self.close()

    def notes(self) -> list[str]:
        """What did not fit a card as printed: lines cut at 80, characters substituted."""
        said = []
        cut, substituted = self.spool.lines_cut, self.spool.substitutions.count
        if cut:
            said.append(f"{counted(cut, 'printed line')} longer than 80 columns cut at column 80")
        if substituted:
            said.append(f"{counted(substituted, 'printed character')} not in the code punched as its "
                        "substitute")
        return said

    def close(self) -> None:
        self.spool.close()
