"""The virtual line: two raw ptys joined like the leased telephone line between two 1013s.

``ibm1013 line`` runs this: :class:`VirtualLine` joins two pseudo-terminals (:func:`open_pty`, raw
mode: no echo, no CR/LF mapping) by a relay thread that paces characters at the bit rate, adds a
propagation delay, applies a seeded noise model (:mod:`emulator.noise`, the one the SimPy line uses),
can drop bytes, and can be cut.  No root and no socat needed.  Each end opens its path as any port
(:class:`emulator.serial.Link`).

Character time.  The 1013's line is *synchronous*: every four-of-eight character is exactly 8 bits on
the wire, with no start or stop bits, so one character takes ``8 / bit_rate`` seconds (150 characters
a second at 1200 bit/s; ``docs/ibm1013.md`` §2).  A real UART sending the same bytes as 8N1 adds a
start and a stop bit, 10 bits a character; :class:`VirtualLine` therefore takes ``bits_per_char``
(default 8, the 1013's line) so that a 10-bit UART can be modelled too.
"""

from __future__ import annotations

import contextlib
import errno
import os
import random
import selectors
import threading
import time
import tty
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from emulator.noise import NoiseModel


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
        holder = pty_holder(os.readlink(path))
        if holder is not None:
            raise ValueError(f"{path} leads to {os.readlink(path)}, which process {holder} still holds "
                             "(a line still running?): stop that first, or give another path")
        return
    what = ("a symlink to " + os.readlink(path) if os.path.islink(path)
            else "a directory" if os.path.isdir(path) else "a file")
    raise ValueError(f"{path} exists and is {what}, not a link to a pty: the line would replace it "
                     "and delete it at exit; give a path that does not exist")


def pty_holder(pty_path: str) -> str | None:
    """Another process that holds ``pty_path`` open (as a running line holds both its ptys), as
    ``PID (command)``, or ``None``; processes this one may not look into are not seen."""
    try:
        wanted = os.stat(pty_path).st_rdev
    except OSError:
        return None  # gone: the line that made it has ended
    me = str(os.getpid())
    for pid in (p for p in os.listdir("/proc") if p.isdigit() and p != me):
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    target = os.readlink(f"/proc/{pid}/fd/{fd}")
                    if target.startswith("/dev/pts/") and os.stat(target).st_rdev == wanted:
                        return f"{pid} ({_command(pid)})"
    return None


def _command(pid: str) -> str:
    """The command line of process ``pid``, shortened for a message."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            words = f.read().split(b"\0")
    except OSError:
        return "?"
    text = " ".join(w.decode(errors="replace") for w in words if w)
    return text if len(text) <= 60 else text[:57] + "..."


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
