"""A network serial port for the tests: one pty served over RFC 2217 (Telnet COM-PORT control).

RFC 2217 carries a serial line over TCP: the data goes as Telnet BINARY (a 0xFF byte doubled), and
Telnet subnegotiations set the far port's baud rate, data bits, parity, stop bits, flow control and
modem lines (DTR, RTS) and report its modem state (CTS, DSR, RI, CD).  Terminal servers such as
ser2net speak it; a client opens it in pyserial as ``rfc2217://host:port``.

The server side here is pyserial's own :class:`serial.rfc2217.PortManager` (the Telnet/RFC 2217 state
machine) around a real serial port object opened on a pty path, with one relay thread moving bytes
between the TCP client and the pty.  A pty has no modem-control lines (the ioctls fail with ENOTTY),
so :class:`DataSetPort` reports the lines of a data set that is on and ready (CTS, DSR and CD on) and
remembers what the client asks of DTR and RTS.  A Linux pty also refuses parity and data sizes other
than 8 bits (``tcsetattr``: EINVAL); the port turns that into the ``ValueError`` PortManager expects,
so the server keeps the old setting and reports it back, as a terminal server does for a setting its
UART lacks.  Everything is bounded: the listener binds 127.0.0.1 on a free port, every wait is a
short ``select``, a client that stops reading is dropped after ``send_timeout_s``, and
:meth:`Rfc2217Server.stop` ends the thread and closes every descriptor.  Setting ``hung`` makes the
server stop reading its client, like a terminal server that has locked up.
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import termios
import threading
from typing import Any

import serial as pyserial
from serial.rfc2217 import PortManager

SLICE_S = 0.05
"""Longest single wait of the relay thread; it checks for stop between waits."""


class DataSetPort(pyserial.Serial):
    """A pty opened as a POSIX serial port, with the modem lines of a data set that is ready."""

    dtr_asked: bool | None = None
    rts_asked: bool | None = None

    @property
    def cts(self) -> bool:
        return True

    @property
    def dsr(self) -> bool:
        return True

    @property
    def cd(self) -> bool:
        return True

    @property
    def ri(self) -> bool:
        return False

    def _reconfigure_port(self, force_update: bool = False) -> None:
        try:
            super()._reconfigure_port(force_update)
        except termios.error as err:
            raise ValueError(f"{self.portstr} refuses the setting: {err}") from None

    def _update_dtr_state(self) -> None:
        self.dtr_asked = self._dtr_state

    def _update_rts_state(self) -> None:
        self.rts_asked = self._rts_state


class _Client:
    """The TCP connection as PortManager wants it: a ``write`` that sends everything or fails."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def write(self, data: bytes) -> None:
        self.sock.sendall(data)


class Rfc2217Server:
    """Serve the serial port at ``path`` over RFC 2217 on 127.0.0.1, one client at a time.

    ``url`` is what a client opens.  ``port`` is the served serial port object (its ``baudrate``,
    ``parity`` … show what the client negotiated).  ``sessions`` counts clients served; ``error``
    holds an exception that ended the relay thread, if any.  :meth:`stop` may be called at any time,
    also mid-transfer: the client then sees its connection close, as if the terminal server died.
    """

    def __init__(self, path: str, *, send_timeout_s: float = 5.0) -> None:
        self.path = path
        self.send_timeout_s = send_timeout_s
        self.port = DataSetPort(path, timeout=0, write_timeout=send_timeout_s)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.setblocking(False)
        self.url = f"rfc2217://127.0.0.1:{self.listener.getsockname()[1]}"
        self.sessions = 0
        self.bytes_to_port = 0
        self.bytes_to_client = 0
        self.error: BaseException | None = None
        self.hung = threading.Event()
        """Set it and the server stops taking data from its client (a terminal server that hangs)."""
        self._stop = threading.Event()
        self._client: socket.socket | None = None
        self._thread = threading.Thread(target=self._run, name="rfc2217-server", daemon=True)

    def start(self) -> Rfc2217Server:
        if self._thread.ident is None:  # not started yet (serve() starts it before ``with``)
            self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
        for thing in (self._client, self.listener, self.port):
            if thing is not None:
                with contextlib.suppress(Exception):
                    thing.close()

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def __enter__(self) -> Rfc2217Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- relay ---------------------------------------------------------------------------------
    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                client = self._accept()
                if client is not None:
                    self._serve(client)
        except BaseException as err:  # noqa: BLE001 - reported through .error
            self.error = err

    def _accept(self) -> socket.socket | None:
        with selectors.DefaultSelector() as sel:
            sel.register(self.listener, selectors.EVENT_READ)
            if not sel.select(SLICE_S):
                return None
        try:
            client, _ = self.listener.accept()
        except BlockingIOError:
            return None
        client.setblocking(True)
        client.settimeout(self.send_timeout_s)
        client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._client = client
        self.sessions += 1
        return client

    def _serve(self, client: socket.socket) -> None:
        """Relay one client until it leaves, fails, or the server is stopped."""
        manager = PortManager(self.port, _Client(client))
        try:
            with selectors.DefaultSelector() as sel:
                sel.register(client, selectors.EVENT_READ, "net")
                sel.register(self.port.fileno(), selectors.EVENT_READ, "port")
                while not self._stop.is_set():
                    for key, _ in sel.select(SLICE_S):
                        if key.data == "net" and self.hung.is_set():
                            self._stop.wait(SLICE_S)
                        elif key.data == "net" and not self._from_client(client, manager):
                            return
                        if key.data == "port":
                            self._to_client(client, manager)
        except (OSError, pyserial.SerialException):
            return  # the client went away mid-write: wait for the next one
        finally:
            with contextlib.suppress(OSError):
                client.close()
            self._client = None

    def _from_client(self, client: socket.socket, manager: PortManager) -> bool:
        data = client.recv(4096)
        if not data:
            return False
        payload = b"".join(manager.filter(data))  # Telnet commands are answered inside the filter
        if payload:
            self.port.write(payload)
            self.bytes_to_port += len(payload)
        return True

    def _to_client(self, client: socket.socket, manager: PortManager) -> None:
        data = self.port.read(self.port.in_waiting or 1)
        if data:
            client.sendall(b"".join(manager.escape(data)))
            self.bytes_to_client += len(data)


def serve(path: str, **kw: Any) -> Rfc2217Server:
    """Start serving ``path``; the caller stops it."""
    return Rfc2217Server(path, **kw).start()
