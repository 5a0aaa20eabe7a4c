"""A Hercules socket-device card reader, seen from the submitter's side.

Hercules can define a 3505 reader as a socket device (``000C 3505 127.0.0.1:3505 sockdev ebcdic
trunc eof``): it listens on that address, and a *submitter* connects and writes a deck into it —
80-byte EBCDIC records for a reader defined ``ebcdic``, text lines for one defined ``ascii``.  With
``eof`` the submitter's close is the end of the deck: the guest's next read gets unit exception, as
when the last card leaves a real hopper.  Hercules takes one submitter at a time and sends nothing
back, so the only word a submitter ever hears is the connection itself: refused, or closed.

:class:`SockdevReader` is that submitter: connect, :meth:`~SockdevReader.feed` bytes, close.  Every
failure is a :class:`ReaderError` naming the reader's address.
"""

from __future__ import annotations

import contextlib
import select
import socket

from emulator.serial import PortError

SCHEME = "sockdev://"
CONNECT_TIMEOUT_S = 10.0
WRITE_TIMEOUT_S = 30.0
REJECT_WAIT_S = 0.5
"""How long after connecting a reader may still turn the submitter away (Hercules, busy, accepts
and closes at once)."""


class ReaderError(PortError):
    """The reader is not listening, refused the submitter or dropped it."""


def parse_address(url: str) -> tuple[str, int]:
    """``sockdev://HOST:PORT`` -> ``(HOST, PORT)``; a :class:`ValueError` saying what is wrong."""
    if not url.startswith(SCHEME):
        raise ValueError(f"{url!r} is not {SCHEME}HOST:PORT")
    host, sep, port = url[len(SCHEME):].rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host  # [::1]:3505
    if not sep or not host or not port.isdigit():
        raise ValueError(f"{url!r} is not {SCHEME}HOST:PORT (e.g. {SCHEME}127.0.0.1:3505)")
    number = int(port)
    if not 1 <= number <= 65535:
        raise ValueError(f"{url!r}: port {number} is not from 1 to 65535")
    return host, number


class SockdevReader:
    """One connection to a sockdev card reader: the deck written into it ends when it is closed."""

    def __init__(self, host: str, port: int) -> None:
        self.name = f"{SCHEME}{host}:{port}"
        self._address = (host, port)
        self._sock: socket.socket | None = None

    def connect(self, timeout_s: float = CONNECT_TIMEOUT_S) -> None:
        try:
            self._sock = socket.create_connection(self._address, timeout=timeout_s)
        except OSError as err:
            why = "nothing listens there" if isinstance(err, ConnectionRefusedError) else err.strerror or err
            raise ReaderError(f"the card reader {self.name} cannot be reached ({why}): is Hercules "
                              "running with a sockdev 3505 on that address?") from None
        self._sock.settimeout(WRITE_TIMEOUT_S)
        if self._closed_by_reader(REJECT_WAIT_S):
            self.close()
            raise ReaderError(f"the card reader {self.name} took the connection and closed it: it is "
                              "busy (Hercules takes one submitter at a time, and notices that an earlier "
                              "one closed only when its guest has read that one's cards)")

    def _closed_by_reader(self, wait_s: float) -> bool:
        """Whether the far end has closed (or reset) the connection: a reader never writes to us,
        so the connection turning readable within ``wait_s`` means just that."""
        sock = self._sock
        assert sock is not None, "connect first"
        if not select.select([sock], [], [], wait_s)[0]:
            return False
        try:
            return not sock.recv(1, socket.MSG_PEEK)
        except OSError:
            return True

    def feed(self, data: bytes, what: str) -> None:
        """Write ``data`` (``what``: e.g. "card 3") into the reader; a dropped connection is an error.

        Hercules never writes to a submitter, so the connection turning readable means it was closed
        (or reset) at the far end: checked before each write, so a drop is found at the next card
        rather than one card later, when the write into the dead connection fails."""
        sock = self._sock
        assert sock is not None, "connect first"
        try:
            if self._closed_by_reader(0):
                raise ConnectionResetError(0, "the reader closed it")
            sock.sendall(data)
        except OSError as err:
            self.close()
            raise ReaderError(f"the card reader {self.name} dropped the connection before {what} "
                              f"({err.strerror or err})") from None

    def close(self) -> None:
        """Close the connection: for Hercules (``eof``) the end of the deck."""
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.shutdown(socket.SHUT_WR)
            self._sock.close()
            self._sock = None
