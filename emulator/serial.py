"""Serial transport: opening real ports and URLs as a :class:`Link` the endpoints drive.

A card terminal of 1961 talked to its data set (modem) over a synchronous serial interface; today the
same bytes go through a USB serial adapter (``/dev/ttyUSB0``), a pseudo-terminal, or a network
serial port.  This module is the thin, careful layer between pyserial 3.5 and the rest of the project
(pitfalls: pyserial issues #88 and #396 on
``inter_byte_timeout``, #76 and #133 on ptys):

* :func:`open_port` opens a device path, a pty path or a pyserial URL (``socket://host:port``,
  ``rfc2217://host:port``, ``loop://``) with sane settings — 8 data bits, no parity, one stop bit, no
  XON/XOFF (the tty layer would swallow 0x11/0x13 from binary data) — and an exclusive lock, and turns
  every failure (missing port, permission denied, port in use, bad URL, refused connection) into one
  :class:`PortError` line.
* :class:`Link` wraps an open port with the only two operations the endpoints need: ``write`` and a
  ``read`` bounded by a :func:`time.monotonic` deadline.  pyserial's ``inter_byte_timeout`` does
  nothing on POSIX, so we never rely on it: on a POSIX tty we ``select`` until the deadline and then
  read what is waiting in one ``read``, and a write is one ``write`` (pyserial follows each write
  with a ``select``); URL ports go through pyserial, polled in short slices.

The ports a line's two ends open when no cable is at hand, two ptys joined by a paced, noisy,
cuttable relay (``ibm1013 line``), are :mod:`emulator.virtual_line`'s.  Over a real UART the port's own
baud rate must leave room for the 1013's line: 1200 bit/s of 1013 line (8 bits a character, no start
or stop bits) needs at least 1500 baud of 8N1; the endpoints do the 1013's pacing themselves.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import select
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import serial as pyserial
from serial import serialposix

from emulator.errors import IbmError

POLL_S = 0.005
"""Longest single blocking read on a port; every wait is a loop of these against a deadline."""


class PortError(IbmError):
    """A port that cannot be opened or used, or a peer that misbehaves on the line."""


# --------------------------------------------------------------------------------------------------
# Opening ports
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PortSettings:
    """Serial settings; pty, ``socket://`` and ``loop://`` ignore the baud rate but accept it.

    ``write_timeout`` bounds a write into a port nobody drains (a pty holds about 18 KB).
    """

    baudrate: int = 9600
    bytesize: int = 8
    parity: str = "N"
    stopbits: float = 1
    rtscts: bool = False
    write_timeout: float = 10.0
    exclusive: bool = True


_ERRNO_TEXT = {
    errno.ENOENT: "no such port",
    errno.EACCES: "permission denied (are you in the 'dialout' group?)",
    errno.EPERM: "permission denied",
    errno.EBUSY: "port busy",
    errno.EAGAIN: "port in use by another program",
    errno.ENOTTY: "not a serial port",
    errno.ECONNREFUSED: "connection refused",
    errno.ENXIO: "no such device",
    errno.EISDIR: "a directory, not a port",
}


def describe_open_error(name: str, err: BaseException) -> str:
    """One readable line for a failure to open ``name``."""
    code = getattr(err, "errno", None)
    text = str(err)
    if code is None:  # pyserial often hides the errno inside the message
        for candidate, _ in _ERRNO_TEXT.items():
            if f"[Errno {candidate}]" in text or f"({candidate}," in text:
                code = candidate
                break
    if "exclusively lock" in text:
        code = errno.EAGAIN
    reason = _ERRNO_TEXT.get(code or -1)
    if reason is None:
        reason = _own_words(text, name) or type(err).__name__
        if re.search(r"\[Errno -\d+\]", text):  # getaddrinfo's (negative) codes: the host's name
            reason = f"cannot find the host ({reason})"
    return f"port {name}: {reason}"


class SerialPort(Protocol):
    """What :class:`Link` uses of an open pyserial port: every pyserial port class has it (the POSIX
    tty, ``socket://``, ``rfc2217://``, ``loop://`` …), though they share no base class that has it."""

    @property
    def in_waiting(self) -> int: ...
    @property
    def write_timeout(self) -> float | None: ...
    def read(self, size: int = 1, /) -> bytes: ...
    def write(self, data: bytes, /) -> int | None: ...
    def flush(self) -> None: ...
    def reset_input_buffer(self) -> None: ...
    def close(self) -> None: ...


def _check_address(name: str) -> None:
    """A network port's URL must name a host and a port (pyserial's own words for one that does not
    speak of its internals, not of the URL)."""
    from urllib.parse import urlsplit

    scheme = name.partition("://")[0].lower()
    if scheme not in ("socket", "rfc2217"):
        return
    try:
        parts = urlsplit(name)
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    if not host or not port:
        raise PortError(f"port {name}: give a host and a port from 1 to 65535, as {scheme}://HOST:PORT")


def _own_words(text: str, name: str) -> str:
    """pyserial's message less what it repeats: its ``could not open port NAME:`` (the port is named
    once, by us), the ``[Errno N]`` tags and a trailing ``: 'NAME'``."""
    line = text.splitlines()[0] if text else ""
    line = re.sub(rf"(?i)(\[Errno -?\d+\] )?could not open port {re.escape(name)}: ", "", line)
    line = re.sub(r"\[Errno -?\d+\] ", "", line)
    return re.sub(rf": '{re.escape(name)}'$", "", line).strip()


def open_port(name: str, settings: PortSettings | None = None) -> SerialPort:
    """Open a device path, pty path or pyserial URL; a :class:`PortError` line on any failure."""
    s = settings or PortSettings()
    if not name:
        raise PortError("no port given")
    if "://" not in name and not os.path.exists(name):
        raise PortError(f"port {name}: no such port")
    _check_address(name)
    # pyserial's rfc2217:// refuses any write_timeout (NotImplementedError); its TCP socket carries
    # a 5 s timeout of its own, so a write into a stuck terminal server still ends in an error.
    write_timeout = None if name.lower().startswith("rfc2217://") else s.write_timeout
    try:
        port = pyserial.serial_for_url(
            name,
            baudrate=s.baudrate,
            bytesize=s.bytesize,
            parity=s.parity,
            stopbits=s.stopbits,
            rtscts=s.rtscts,
            xonxoff=False,
            timeout=POLL_S,
            write_timeout=write_timeout,
            exclusive=s.exclusive,
        )
    except (pyserial.SerialException, ValueError, OSError, NotImplementedError) as err:
        raise PortError(describe_open_error(name, err)) from None
    return port


class Link:
    """An open port seen as a byte pipe with deadline-bounded reads.

    ``read(limit, timeout)`` returns at least one byte, or ``b""`` when ``timeout`` seconds pass in
    silence; it never returns more than ``limit`` bytes, so a babbling peer cannot grow our buffers.
    Port failures (a vanished device, a pty whose other end closed) become :class:`PortError`.
    """

    def __init__(self, port: SerialPort, name: str) -> None:
        self.port = port
        self.name = name
        self.bytes_written = 0
        self.bytes_read = 0
        self._tty = _posix_tty_fd(port)
        """The descriptor of a POSIX tty (read and written directly), or ``None`` (a URL port)."""

    @classmethod
    def open(cls, name: str, settings: PortSettings | None = None) -> Link:
        return cls(open_port(name, settings), name)

    def read(self, limit: int = 4096, timeout: float = POLL_S) -> bytes:
        deadline = time.monotonic() + max(0.0, timeout)
        fd = self._tty
        while fd is not None:  # a POSIX tty: one select and one read (see _read_fd)
            try:
                data = self._read_fd(fd, limit, deadline - time.monotonic())
            except OSError as err:
                raise PortError(f"port {self.name}: the line is gone ({_first_line(err)})") from None
            if data is None:
                return b""
            if data:
                self.bytes_read += len(data)
                return data
        while True:
            try:
                waiting = self.port.in_waiting
                data = self.port.read(max(1, min(limit, waiting)))
            except (pyserial.SerialException, OSError) as err:
                raise PortError(f"port {self.name}: the line is gone ({_first_line(err)})") from None
            if data:
                self.bytes_read += len(data)
                return bytes(data)
            if time.monotonic() >= deadline:
                return b""

    @staticmethod
    def _read_fd(fd: int, limit: int, left: float) -> bytes | None:
        """What a POSIX tty holds, up to ``limit`` bytes, once it is readable; ``None`` if ``left``
        seconds pass first (``b""``: it was readable, then held nothing).  One ``select`` and one
        ``read`` on the (non-blocking) descriptor, as pyserial would do with two of each and an
        ioctl: the per-card cost of a serial transfer.  A whole record that has arrived comes in
        one read (``limit`` is far above a record)."""
        ready, _, _ = select.select((fd,), (), (), left if left > 0.0 else 0.0)
        if not ready:
            return None
        try:
            data = os.read(fd, limit)
        except BlockingIOError:  # readable, then taken by nobody else: nothing after all
            return b""
        if not data:
            raise OSError("the device reports data ready but none came (disconnected?)")
        return data

    @property
    def _fd(self) -> int | None:
        """The tty's descriptor, for a caller that waits on several links at once."""
        return self._tty

    def write(self, data: bytes) -> None:
        try:
            if self._tty is not None:
                self._write_fd(self._tty, data)
            else:
                self.port.write(data)
        except pyserial.SerialTimeoutException:
            raise PortError(
                f"port {self.name}: write timed out (nobody is reading the other end)"
            ) from None
        except (pyserial.SerialException, OSError) as err:
            raise PortError(f"port {self.name}: write failed ({_first_line(err)})") from None
        self.bytes_written += len(data)

    def _write_fd(self, fd: int, data: bytes) -> None:
        """Write all of ``data`` to a POSIX tty: one ``write`` when the tty has room (a record always
        has: a pty holds kilobytes), which pyserial follows with a ``select`` every time; else wait
        for room, up to the port's ``write_timeout`` (:class:`~serial.SerialTimeoutException`; a port
        opened without one waits :attr:`PortSettings.write_timeout`: never for ever)."""
        try:
            done = os.write(fd, data)
        except BlockingIOError:
            done = 0
        if done == len(data):   # (nearly always: one write of the whole record)
            return
        view = memoryview(data)[done:]
        timeout = self.port.write_timeout
        deadline = time.monotonic() + (PortSettings.write_timeout if timeout is None else timeout)
        while view:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select((), (fd,), (), left)[1]:
                raise pyserial.SerialTimeoutException("Write timeout")
            with contextlib.suppress(BlockingIOError):
                view = view[os.write(fd, view):]

    def drain(self) -> None:
        """Wait until the operating system has sent what was written (a no-op on ptys)."""
        with contextlib.suppress(pyserial.SerialException, OSError, AttributeError):
            self.port.flush()

    def discard_input(self) -> None:
        """Throw away bytes already waiting (stale characters from an earlier session)."""
        with contextlib.suppress(pyserial.SerialException, OSError, AttributeError):
            self.port.reset_input_buffer()

    def close(self) -> None:
        self._tty = None  # a closed descriptor's number may be handed out again: use the port's checks
        with contextlib.suppress(Exception):
            self.port.close()

    def __enter__(self) -> Link:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _posix_tty_fd(port: SerialPort) -> int | None:
    """The descriptor of ``port`` if it is pyserial's own POSIX serial port (a tty or pty), which
    :class:`Link` reads and writes directly; ``None`` for a URL port (``socket://``, ``loop://`` …)."""
    if isinstance(port, serialposix.Serial) and type(port).__module__.startswith("serial.serialposix"):
        return port.fd
    return None


def _first_line(err: BaseException) -> str:
    text = str(err) or type(err).__name__
    return text.splitlines()[0]


def wait_for_paths(paths: tuple[str, ...], timeout: float, alive: Callable[[], bool] | None = None) -> None:
    """Wait until every path exists (socat creates its ``link=`` symlinks a moment after starting)."""
    deadline = time.monotonic() + timeout
    while not all(os.path.exists(p) for p in paths):
        if alive is not None and not alive():
            raise PortError(f"the program making {', '.join(paths)} exited")
        if time.monotonic() >= deadline:
            raise PortError(f"{', '.join(paths)} did not appear within {timeout:g} s")
        time.sleep(0.02)
