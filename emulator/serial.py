"""Serial transport: opening real ports and URLs, pty pairs, and the virtual line.

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
* :func:`open_pty` makes one pseudo-terminal in raw mode (no echo, no CR/LF mapping).
* :class:`VirtualLine` joins two ptys by a relay thread that behaves like the leased telephone line
  between two 1013s: it paces characters at the bit rate, adds a propagation delay, applies a seeded
  noise model, can drop bytes, and can be cut.  No root and no socat needed.

Character time.  The 1013's line is *synchronous*: every four-of-eight character is exactly 8 bits on
the wire, with no start or stop bits, so one character takes ``8 / bit_rate`` seconds (150 characters
a second at 1200 bit/s; ``docs/ibm1013.md`` §2).  A real UART sending the same
bytes as 8N1 adds a start and a stop bit, 10 bits a character; :class:`VirtualLine` therefore takes
``bits_per_char`` (default 8, the 1013's line) so that a 10-bit UART can be modelled too.  (Over a
real UART the port's own baud rate must leave room: 1200 bit/s of 1013 line needs at least 1500 baud
of 8N1; the endpoints do the 1013's pacing themselves.)
"""

from __future__ import annotations

import contextlib
import errno
import os
import random
import select
import selectors
import threading
import time
import tty
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import serial as pyserial
from serial import serialposix

from emulator.errors import IbmError
from emulator.noise import NoiseModel

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
        reason = text.splitlines()[0] if text else type(err).__name__
    return f"port {name}: {reason}"


def open_port(name: str, settings: PortSettings | None = None) -> Any:
    """Open a device path, pty path or pyserial URL; a :class:`PortError` line on any failure."""
    s = settings or PortSettings()
    if not name:
        raise PortError("no port given")
    if "://" not in name and not os.path.exists(name):
        raise PortError(f"port {name}: no such port")
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

    def __init__(self, port: Any, name: str) -> None:
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


def _posix_tty_fd(port: Any) -> int | None:
    """The descriptor of ``port`` if it is pyserial's own POSIX serial port (a tty or pty), which
    :class:`Link` reads and writes directly; ``None`` for a URL port (``socket://``, ``loop://`` …)."""
    if isinstance(port, serialposix.Serial) and type(port).__module__.startswith("serial.serialposix"):
        return port.fd
    return None


def _first_line(err: BaseException) -> str:
    text = str(err) or type(err).__name__
    return text.splitlines()[0]


# --------------------------------------------------------------------------------------------------
# Pseudo-terminals
# --------------------------------------------------------------------------------------------------
@dataclass
class Pty:
    """One pseudo-terminal: the master fd we drive and the slave path a program opens."""

    master: int
    slave: int
    path: str

    def close(self) -> None:
        for fd in (self.master, self.slave):
            with contextlib.suppress(OSError):
                os.close(fd)


def open_pty() -> Pty:
    """A pty in raw mode (no echo, no CR/LF translation), master non-blocking.

    We keep the slave fd open ourselves so the master never sees a hang-up while the program on the
    other side closes and reopens the path (as a resumed endpoint does).
    """
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    return Pty(master, slave, os.ttyname(slave))


# --------------------------------------------------------------------------------------------------
# The virtual line
# --------------------------------------------------------------------------------------------------
@dataclass
class LineStats:
    """What one direction of the line carried."""

    bytes_in: int = 0
    bytes_out: int = 0
    bytes_corrupted: int = 0
    bits_flipped: int = 0
    bytes_dropped: int = 0
    bytes_lost_in_cut: int = 0
    bytes_tap_dropped: int = 0
    """Characters the tap of this direction could not take (nobody reading it, its buffer full)."""

    def as_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


@dataclass
class LineConfig:
    """The virtual line's physics.

    ``bit_rate`` 0 means unpaced (as fast as the ptys go).  ``cut_at_s`` seconds after the line starts
    it goes dead in both directions for ``cut_for_s`` seconds (``None``: for good).  ``drop_rate`` is
    the chance that a character vanishes entirely (a slip of the data set's clock).
    """

    bit_rate: float = 1200
    bits_per_char: int = 8
    propagation_s: float = 0.0
    drop_rate: float = 0.0
    cut_at_s: float | None = None
    cut_for_s: float | None = None
    seed: int = 0
    queue_limit: int = 65536

    @property
    def char_s(self) -> float:
        return self.bits_per_char / self.bit_rate if self.bit_rate > 0 else 0.0


@dataclass
class _Flight:
    """A chunk on the wire: byte ``i`` arrives at ``first_due + i * char_s``.

    The line is a rate limiter: a character is passed on as soon as it comes in, but never sooner than
    ``char_s`` after the previous one, then ``propagation_s`` late.  A sender that already clocks its
    characters out at the bit rate (as our endpoints do) is therefore not delayed a second time, and
    an unpaced sender is slowed to the bit rate.
    """

    first_due: float
    data: bytes
    sent: int = 0


@dataclass
class _Direction:
    name: str
    src: int
    dst: int
    noise: NoiseModel | None
    rng: random.Random
    stats: LineStats = field(default_factory=LineStats)
    flights: deque[_Flight] = field(default_factory=deque)
    queued: int = 0
    free_at: float = 0.0
    tap: int = -1


def check_link(path: str) -> None:
    """Refuse ``path`` as a ``links`` symlink of a :class:`VirtualLine` if something is there that is
    not a symlink to a pty (an earlier line's, left by a crash): the line would replace it, then delete
    it when it stops.  ``ValueError`` says what is there."""
    if not os.path.lexists(path):
        if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            raise ValueError(f"{path}: no such directory {os.path.dirname(os.path.abspath(path))}")
        return
    if os.path.islink(path) and os.readlink(path).startswith("/dev/pts/"):
        return
    what = ("a symlink to " + os.readlink(path) if os.path.islink(path)
            else "a directory" if os.path.isdir(path) else "a file")
    raise ValueError(f"{path} exists and is {what}, not a link to a pty: the line would replace it "
                     "and delete it at exit; give a path that does not exist")


class VirtualLine:
    """Two raw ptys joined by a paced, noisy, cuttable relay; a program opens each path.

    Use as a context manager or call :meth:`start` and :meth:`stop`.  Bytes written to path ``a``
    come out of path ``b`` and vice versa, no sooner than ``char_s`` after the previous one in that
    direction, ``propagation_s`` late, through the noise models ``noise_ab``/``noise_ba`` of
    :mod:`emulator.noise` (the same ones the SimPy line uses; they give the same errors however the
    operating system splits the stream).  With the same seeds and the same bytes in, the same bytes
    come out.  ``links`` optionally names two symlinks to create for the paths (like socat's
    ``link=``).
    """

    def __init__(
        self,
        config: LineConfig | None = None,
        *,
        noise_ab: NoiseModel | None = None,
        noise_ba: NoiseModel | None = None,
        links: tuple[str, str] | None = None,
        monitor: Callable[[str, float, bytes, bytes], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        taps: bool = False,
    ) -> None:
        self.config = config or LineConfig()
        self.taps = taps
        """Two more ptys, :attr:`tap_paths`: each carries a copy of what one direction delivers
        (``a->b``, then ``b->a``), when the far end reads it — the Y-tap of a datascope."""
        self.monitor = monitor
        self.clock = clock
        """The line's time in seconds (:func:`time.monotonic`); a test may give a clock it moves
        itself, so that pacing and cuts are checked without depending on how busy the machine is."""
        """Called from the relay thread as ``monitor(direction, seconds, sent, arrives)`` for every
        chunk that enters the line: ``"a->b"`` or ``"b->a"``, seconds since the start, the bytes
        written into the line and what the far end will read of them (after noise, drops or a cut)."""
        self._noise = (noise_ab, noise_ba)
        self._links = links
        self._ptys: list[Pty] = []
        self._dirs: list[_Direction] = []
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._wake_r = self._wake_w = -1
        self._t0 = 0.0
        self.error: BaseException | None = None

    # -- lifecycle ----------------------------------------------------------------------------
    def start(self) -> VirtualLine:
        for link in self._links or ():
            check_link(link)  # before anything is made: nothing to undo
        a, b = open_pty(), open_pty()
        self._ptys = [a, b]
        seed = self.config.seed
        self._dirs = [
            _Direction("a->b", a.master, b.master, self._noise[0], random.Random(f"{seed}:ab")),
            _Direction("b->a", b.master, a.master, self._noise[1], random.Random(f"{seed}:ba")),
        ]
        if self.taps:
            self._ptys += [open_pty(), open_pty()]
            for d, tap in zip(self._dirs, self._ptys[2:], strict=True):
                d.tap = tap.master
        for link, pty_ in zip(self._links or (), self._ptys[:2], strict=False):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(link)  # an earlier line's link to a pty (check_link refused anything else)
            os.symlink(pty_.path, link)
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        self._t0 = self.clock()
        self._thread = threading.Thread(target=self._run, name="virtual-line", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._wake_w >= 0:
            with contextlib.suppress(OSError):
                os.write(self._wake_w, b"x")
        if self._thread is not None:
            self._thread.join(timeout=5)
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._wake_r = self._wake_w = -1
        for p in self._ptys:
            p.close()
        for link, pty_ in zip(self._links or (), self._ptys, strict=False):
            with contextlib.suppress(OSError):
                if os.readlink(link) == pty_.path:  # ours still: not a file put there meanwhile
                    os.unlink(link)

    def __enter__(self) -> VirtualLine:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def paths(self) -> tuple[str, str]:
        """The two slave paths (or the symlinks if ``links`` was given)."""
        if self._links:
            return self._links
        return self._ptys[0].path, self._ptys[1].path

    @property
    def elapsed(self) -> float:
        return self.clock() - self._t0

    @property
    def tap_paths(self) -> tuple[str, str]:
        """The taps' paths (``a->b``, ``b->a``); only with ``taps=True``."""
        if not self.taps:
            raise ValueError("the line was made without taps")
        return self._ptys[2].path, self._ptys[3].path

    def stats(self) -> dict[str, dict[str, int]]:
        return {d.name: d.stats.as_dict() for d in self._dirs}

    def cut(self, for_s: float | None = None) -> None:
        """Cut the line now, in both directions, for ``for_s`` seconds (``None``: for good)."""
        self.config = replace(self.config, cut_at_s=self.elapsed, cut_for_s=for_s)

    def mend(self) -> None:
        """End a cut now: the line carries characters again."""
        self.config = replace(self.config, cut_at_s=None, cut_for_s=None)

    def is_cut(self, now: float | None = None) -> bool:
        """Whether the line is dead at monotonic time ``now``."""
        c = self.config
        if c.cut_at_s is None:
            return False
        t = (self.clock() if now is None else now) - self._t0
        return t >= c.cut_at_s and (c.cut_for_s is None or t < c.cut_at_s + c.cut_for_s)

    # -- relay --------------------------------------------------------------------------------
    def _run(self) -> None:
        try:
            with selectors.DefaultSelector() as sel:
                while not self._stop.is_set():
                    self._step(sel)
        except BaseException as err:  # noqa: BLE001 - reported through .error, never a hang
            self.error = err

    def _step(self, sel: selectors.BaseSelector) -> None:
        now = self.clock()
        wait = 0.05
        for d in self._dirs:
            blocked = self._deliver(d, now)
            if d.flights and not blocked:
                head = d.flights[0]
                due = head.first_due + head.sent * self.config.char_s
                wait = min(wait, max(0.0, due - now))
        sel_map = sel.get_map()
        for key in list(sel_map.values()):
            sel.unregister(key.fileobj)
        sel.register(self._wake_r, selectors.EVENT_READ, None)
        wanted: dict[int, int] = {}
        for d in self._dirs:
            if d.queued < self.config.queue_limit:
                wanted[d.src] = wanted.get(d.src, 0) | selectors.EVENT_READ
            if d.flights and d.flights[0].first_due + d.flights[0].sent * self.config.char_s <= now:
                wanted[d.dst] = wanted.get(d.dst, 0) | selectors.EVENT_WRITE  # blocked, wait for room
        for fd, events in wanted.items():
            sel.register(fd, events, None)
        for key, events in sel.select(wait):
            if key.fileobj == self._wake_r:
                with contextlib.suppress(OSError):
                    os.read(self._wake_r, 64)
                continue
            if events & selectors.EVENT_READ:
                for d in self._dirs:
                    if d.src == key.fileobj and d.queued < self.config.queue_limit:
                        self._receive(d)

    def _receive(self, d: _Direction) -> None:
        try:
            data = os.read(d.src, 4096)
        except BlockingIOError:
            return
        except OSError as err:
            if err.errno == errno.EIO:  # nobody has the slave open: nothing to relay
                return
            raise
        if not data:
            return
        now = self.clock()
        d.stats.bytes_in += len(data)
        if self.is_cut(now):
            d.stats.bytes_lost_in_cut += len(data)
            if self.monitor is not None:
                self.monitor(d.name, now - self._t0, data, b"")
            return
        sent, data = data, self._impair(d, data)
        if self.monitor is not None:
            self.monitor(d.name, now - self._t0, sent, data)
        if not data:
            return
        c = self.config
        start = max(now, d.free_at)
        d.free_at = start + len(data) * c.char_s
        d.flights.append(_Flight(start + c.propagation_s, data))
        d.queued += len(data)

    def _impair(self, d: _Direction, data: bytes) -> bytes:
        c = self.config
        if c.drop_rate > 0:
            kept = bytes(b for b in data if d.rng.random() >= c.drop_rate)
            d.stats.bytes_dropped += len(data) - len(kept)
            data = kept
        if d.noise is not None and data:
            out, flipped = d.noise.corrupt(data)
            if flipped:
                d.stats.bits_flipped += flipped
                d.stats.bytes_corrupted += sum(1 for x, y in zip(data, out, strict=True) if x != y)
            data = out
        return data

    def _deliver(self, d: _Direction, now: float) -> bool:
        """Write every byte whose arrival time has come; ``True`` if the far pty is full."""
        c = self.config
        while d.flights:
            head = d.flights[0]
            if c.char_s > 0:
                due_count = int((now - head.first_due) / c.char_s) + 1
                count = min(len(head.data), max(0, due_count)) - head.sent
            else:
                count = len(head.data) - head.sent if now >= head.first_due else 0
            if count <= 0:
                return False
            chunk = head.data[head.sent : head.sent + count]
            if self.is_cut(now):
                written = len(chunk)
                d.stats.bytes_lost_in_cut += written
            else:
                try:
                    written = os.write(d.dst, chunk)
                except BlockingIOError:
                    return True
                except OSError as err:
                    if err.errno != errno.EIO:
                        raise
                    written = len(chunk)  # nobody listening: the characters fall off the line
                d.stats.bytes_out += written
                if d.tap >= 0:
                    self._tap(d, chunk[:written])
            head.sent += written
            d.queued -= written
            if head.sent >= len(head.data):
                d.flights.popleft()
            elif written < len(chunk):
                return True
        return False


    @staticmethod
    def _tap(d: _Direction, data: bytes) -> None:
        """Copy what was delivered to the tap; what it cannot take is dropped, never waited for."""
        try:
            taken = os.write(d.tap, data)
        except (BlockingIOError, OSError):
            taken = 0
        d.stats.bytes_tap_dropped += len(data) - taken


def wait_for_paths(paths: tuple[str, ...], timeout: float, alive: Callable[[], bool] | None = None) -> None:
    """Wait until every path exists (socat creates its ``link=`` symlinks a moment after starting)."""
    deadline = time.monotonic() + timeout
    while not all(os.path.exists(p) for p in paths):
        if alive is not None and not alive():
            raise PortError(f"the program making {', '.join(paths)} exited")
        if time.monotonic() >= deadline:
            raise PortError(f"{', '.join(paths)} did not appear within {timeout:g} s")
        time.sleep(0.02)
