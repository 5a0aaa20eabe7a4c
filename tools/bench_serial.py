"""Benchmark of the serial endpoints (``python -m tools.bench_serial``).

1. **Unthrottled** (``--fast``) cards per second over a pty pair, against a raw byte copy of the same
   number of line characters over the same pair, as a ratio.  The pair is a socat pty pair when socat
   is installed, else our unpaced virtual line.  Two more baselines show the floor any stop-and-wait
   card protocol meets on this pair (one round trip per card): a stop-and-wait ping-pong of the same
   record and reply sizes through our :class:`~emulator.serial.Link`, and the same with bare
   ``os.read``/``os.write`` on the two pty file descriptors (issue 23's baseline: the receive with its
   journal on tmpfs should reach 75 % of it).  Three protocol figures separate the costs: the bare
   STR session (no journal), the full receive with its per-card synchronous journal on ``/dev/shm``
   (tmpfs), and the same with the journal on the disk under the system temporary directory; that
   last one is set beside a bare loop that writes a journal-sized record and ``fsync``-s it, card
   after card, in the same directory — the disk's own limit (target: the receive within 1.3× of it).
   The same bare loop is also run with ``fdatasync``, and as one ``write`` or ``pwrite`` a card on a
   descriptor opened ``O_DSYNC`` (the journal's way), to compare the ways to sync on this disk.  A
   last baseline is the floor of any stop-and-wait receiver that syncs a card before acknowledging
   it: the bare ping-pong with an ``O_DSYNC`` ``pwrite`` at the echoing end before each reply (the
   round trip and the sync cannot overlap, so where the disk syncs about as fast as the pty turns a
   record round, no such receiver comes within 1.3× of the bare sync loop).
   The two ends run as two threads of this process, sharing one interpreter lock; the bare ping-pong
   and the tmpfs receive are also run with the far end in a forked process of its own, as ``send``
   and ``receive`` run on two machines.  Every run is repeated ``--repeat`` times in turns; the best
   and the median are printed, and each ratio as that of the best times and the median of each
   round's own ratio (the runs of one round took place side by side).
2. **Paced** runs at 1200 and 2400 bit/s: measured cards/min against ``ibm1013.sim.transfer.simulate``'s
   prediction for the same settings.
3. ``--instructions`` counts instead of timing, for a machine too busy to time on: valgrind
   (``apt-get install valgrind``) counts the instructions of both ends of a send/receive with its
   journal on tmpfs (two threads of one process, socat's relay not counted), and of the bare
   ``os.read``/``os.write`` ping-pong, each per card from a run of ``N / 4`` and one of ``N`` cards
   (the transfer less the making of its deck).  Only the processes' own instructions are counted,
   not the kernel's or socat's, so the figure measures the ends' own work, card by card, whatever
   the machine's load: the measure for a change to the per-card path (the timed ratio also holds
   the pty's and the scheduler's costs, which no change of ours moves).
4. ``--where`` times a card's round trip stage by stage (:data:`STAGES`): each end marks the start
   of every write and the return of every read with data, on the one monotonic clock every process
   shares, for the bare ``os`` ping-pong and the tmpfs send/receive, each end a process of its own,
   in turns.  The medians and tenth percentiles over thousands of cards tell the ends' own work
   (decoding, journaling, the core) from the line's way through the pty pair, which the totals of
   1. cannot, on a machine whose round trip moves by a fifth from one minute to the next.

Everything but the ``apart`` runs happens in this process (sender and receiver in two threads).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import multiprocessing
import os
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
import tty
from collections.abc import Callable, Iterator
from typing import Any

from emulator import Card
from emulator.serial import POLL_S, Link, wait_for_paths
from emulator.virtual_line import LineConfig, VirtualLine
from ibm1013.line.endpoint import EndpointConfig, Station, receive_deck, send_deck
from ibm1013.line.journal import RECORD_SIZE
from ibm1013.str import Receiver, SessionConfig, Transmitter
from tools import callgrind


def make_deck(n: int) -> list[Card]:
    return [Card.from_text(f"BENCH {i:06d} THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG {i % 97:02d}")
            for i in range(n)]


@contextlib.contextmanager
def pty_pair(kind: str) -> Iterator[tuple[str, str]]:
    """Two connected pty paths: ``socat`` or our unpaced ``virtual`` line."""
    if kind == "socat":
        tmp = tempfile.mkdtemp(prefix="bench-serial-")
        a, b = os.path.join(tmp, "A"), os.path.join(tmp, "B")
        proc = subprocess.Popen(["socat", f"pty,raw,echo=0,link={a}", f"pty,raw,echo=0,link={b}"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for_paths((a, b), 10, alive=lambda: proc.poll() is None)
            yield a, b
        finally:
            proc.terminate()
            proc.wait(5)
            shutil.rmtree(tmp, ignore_errors=True)
    else:
        with VirtualLine(LineConfig(bit_rate=0)) as line:
            yield line.paths


def raw_copy(a: str, b: str, nbytes: int) -> float:
    """Seconds to push ``nbytes`` from ``a`` to ``b`` (writer thread, reader here)."""
    payload = bytes(range(256)) * (nbytes // 256 + 1)
    payload = payload[:nbytes]
    with Link.open(a) as tx, Link.open(b) as rx:
        t0 = time.perf_counter()
        writer = threading.Thread(target=tx.write, args=(payload,))
        writer.start()
        got = 0
        while got < nbytes:
            data = rx.read(65536, 5.0)
            if not data:
                raise RuntimeError("raw copy stalled")
            got += len(data)
        elapsed = time.perf_counter() - t0
        writer.join()
    return elapsed


def raw_ping_pong(a: str, b: str, cards: int, record: int = 85, reply: int = 2) -> float:
    """Seconds for ``cards`` stop-and-wait exchanges of raw bytes: ``record`` bytes out, ``reply``
    bytes back, no protocol logic and no journal (the floor any stop-and-wait card protocol meets)."""
    with Link.open(a) as tx, Link.open(b) as rx:

        def echo() -> None:
            for _ in range(cards):
                got = 0
                while got < record:
                    got += len(rx.read(record - got, 5.0) or b"")
                rx.write(b"\x55\x53"[:reply])

        t = threading.Thread(target=echo)
        t.start()
        data = bytes(record)
        t0 = time.perf_counter()
        for _ in range(cards):
            tx.write(data)
            got = 0
            while got < reply:
                got += len(tx.read(reply - got, 5.0) or b"")
        elapsed = time.perf_counter() - t0
        t.join()
    return elapsed


def os_ping_pong(a: str, b: str, cards: int, record: int = 85, reply: int = 2, *,
                 apart: bool = False, sync_dir: str | None = None,
                 stamps: tuple[Stamps, Stamps] | None = None) -> float:
    """Like :func:`raw_ping_pong`, with nothing but ``os.read``/``os.write`` on the pty descriptors.
    ``apart``: the echoing end is a process of its own (as ``send`` and ``receive`` are), not a thread.
    ``sync_dir``: before each reply the echoing end makes a journal-sized record durable in a file
    there (one ``O_DSYNC`` ``pwrite`` into space written ahead, as the journal does): the floor of
    any stop-and-wait receiver whose acknowledged cards are on disk — the line's round trip plus the
    disk's sync, one after the other, since the reply may not leave before the sync returns.
    ``stamps`` (near end, echoing end): mark every read and write there (see :func:`stages`)."""
    near, far = stamps if stamps is not None else (None, None)
    fa, fb = (os.open(path, os.O_RDWR | os.O_NOCTTY) for path in (a, b))
    with contextlib.ExitStack() as stack:
        stack.callback(os.close, fa)
        stack.callback(os.close, fb)
        for fd in (fa, fb):
            tty.setraw(fd)
        durable = stack.enter_context(synced_file(sync_dir, cards)) if sync_dir else None

        def echo() -> Stamps | None:
            data = bytes(RECORD_SIZE)
            for i in range(cards):
                got = 0
                while got < record:
                    got += len(os.read(fb, record - got))
                    if far is not None:
                        far.mark("r")
                if durable is not None:
                    os.pwrite(durable, data, i * RECORD_SIZE)
                if far is not None:
                    far.mark("w")
                os.write(fb, b"\x55\x53"[:reply])
            return far

        with peer(echo, apart) as far_result:
            data = bytes(record)
            t0 = time.perf_counter()
            for _ in range(cards):
                if near is not None:
                    near.mark("w")
                os.write(fa, data)
                got = 0
                while got < reply:
                    got += len(os.read(fa, reply - got))
                    if near is not None:
                        near.mark("r")
            elapsed = time.perf_counter() - t0
            if far is not None:
                far.points = far_result().points  # (the echo's own, from its process)
    return elapsed


@contextlib.contextmanager
def synced_file(directory: str, cards: int) -> Iterator[int]:
    """A descriptor opened ``O_DSYNC`` on a new file in ``directory``, written ahead with zeros for
    ``cards`` journal-sized records (so a record's write changes no length), deleted afterwards."""
    fd, path = tempfile.mkstemp(prefix="bench-sync-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as ahead:
            ahead.write(bytes(cards * RECORD_SIZE))
            ahead.flush()
            os.fsync(ahead.fileno())
        fd = os.open(path, os.O_RDWR | os.O_DSYNC)
        try:
            yield fd
        finally:
            os.close(fd)
    finally:
        os.unlink(path)


@contextlib.contextmanager
def peer(run: Callable[[], object], apart: bool) -> Iterator[Callable[[], Any]]:
    """Run the far end ``run()`` beside the body: in a thread of this process, or (``apart``) in a
    forked process of its own, each end then with its own interpreter lock as on two machines.
    Yields a function that waits for ``run``'s result (from a process: pickled back)."""
    if not apart:
        got: list[object] = []
        t = threading.Thread(target=lambda: got.append(run()))
        t.start()

        def result() -> object:
            t.join()
            return got[0]

        try:
            yield result
        finally:
            t.join()
        return
    context = multiprocessing.get_context("fork")
    reader, writer = context.Pipe(duplex=False)
    proc = context.Process(target=lambda: writer.send(run()))
    proc.start()

    def result() -> object:
        while not reader.poll(0.5):
            if not proc.is_alive():  # it failed (its traceback is on stderr): never wait for ever
                raise RuntimeError(f"the far end's process ended with status {proc.exitcode}")
        return reader.recv()

    try:
        yield result
    finally:
        proc.join(60)
        if proc.exitcode != 0:
            raise RuntimeError(f"the far end's process ended with status {proc.exitcode}")


SYNC_WAYS = ("fsync", "fdatasync", "O_DSYNC write", "O_DSYNC pwrite")
"""How :func:`fsync_loop` makes each record durable: ``write`` then ``fsync`` (the baseline), ``write``
then ``fdatasync``, or one ``write`` or ``pwrite`` on a descriptor opened ``O_DSYNC`` (the journal's
way: one ``pwrite`` a card)."""


def fsync_loop(directory: str, cards: int, way: str = "fsync") -> float:
    """Seconds to write ``cards`` journal-sized records to a new file in ``directory``, each made
    durable ``way`` (:data:`SYNC_WAYS`; ``fsync``: each ``write`` followed by ``fsync``): what the disk
    allows a receiver that makes every card durable before its reply."""
    fd, path = tempfile.mkstemp(prefix="bench-fsync-", dir=directory)
    try:
        if way.startswith("O_DSYNC"):
            os.close(fd)
            fd = os.open(path, os.O_RDWR | os.O_DSYNC)
        record = bytes(RECORD_SIZE)
        sync = {"fsync": os.fsync, "fdatasync": os.fdatasync}.get(way)
        t0 = time.perf_counter()
        if way == "O_DSYNC pwrite":
            for i in range(cards):
                os.pwrite(fd, record, i * RECORD_SIZE)
        else:
            for _ in range(cards):
                os.write(fd, record)
                if sync is not None:
                    sync(fd)
        return time.perf_counter() - t0
    finally:
        os.close(fd)
        os.unlink(path)


def str_only(a: str, b: str, deck: list[Card]) -> tuple[float, int]:
    """Seconds for the bare STR deck session (no handshake, no journal) and characters on the line."""
    cfg = EndpointConfig(session=SessionConfig(), paced=False, timeout_s=10)
    with Link.open(a) as la, Link.open(b) as lb:
        out: dict[str, float] = {}

        def rx() -> None:
            Station(lb, cfg).run(Receiver(cfg.deck_session()), lambda e, t: None)

        t = threading.Thread(target=rx)
        t.start()
        _, log = Station(la, cfg).run(Transmitter(deck, cfg.deck_session()), lambda e, t: None)
        t.join()
        out["s"] = (log.last_card or 0) - (log.first_record or 0)
        return out["s"], log.chars_written + log.chars_read


def full_transfer(a: str, b: str, deck: list[Card], directory: str, paced: bool = False,
                  bit_rate: int = 1200, *, apart: bool = False,
                  stamps: tuple[Stamps, Stamps] | None = None) -> tuple[float, float]:
    """(wall seconds of the deck session's cards, cards/min) for send + receive with journal; the
    receiving end in a process of its own with ``apart`` (see :func:`peer`).  ``stamps`` (sending
    end, receiving end): mark every read and write there (see :func:`stages`)."""
    cfg = EndpointConfig(session=SessionConfig(bit_rate=bit_rate), paced=paced, timeout_s=20)
    out = os.path.join(directory, "bench-copy.txt")
    kind = Link if stamps is None else StampedLink
    with kind.open(a) as la, kind.open(b) as lb:
        if stamps is not None:
            la.stamps, lb.stamps = stamps  # type: ignore[union-attr]

        def rx() -> Stamps | None:
            receive_deck(lb, out, "text", cfg)
            return stamps[1] if stamps is not None else None

        with peer(rx, apart) as far_result:
            report = send_deck(la, deck, cfg)
            if stamps is not None:
                stamps[1].points = far_result().points  # (the receiving end's own, from its process)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(out)
    return (len(deck) + 1) * 60.0 / report.cards_per_minute, report.cards_per_minute


class Stamps:
    """The moments one end began each write and got each read back with data: the points (``"w"``
    or ``"r"``, :func:`time.monotonic_ns`, one clock for every process) that :func:`stages` pairs
    into the stages of a card's round trip.  A write is marked before it starts, so the far end can
    never read what it carries before its mark."""

    def __init__(self) -> None:
        self.points: list[tuple[str, int]] = []

    def mark(self, kind: str) -> None:
        self.points.append((kind, time.monotonic_ns()))


class StampedLink(Link):
    """A :class:`~emulator.serial.Link` that marks its writes and reads in ``stamps``."""

    def __init__(self, port: Any, name: str) -> None:
        super().__init__(port, name)
        self.stamps = Stamps()

    def write(self, data: bytes) -> None:
        self.stamps.mark("w")
        super().write(data)

    def read(self, limit: int = 4096, timeout: float = POLL_S) -> bytes:
        data = super().read(limit, timeout)
        if data:
            self.stamps.mark("r")
        return data


STAGES = ("the record's way", "the receiving end", "the reply's way", "the sending end")
"""A card's round trip, stage by stage: from the moment the sending end starts to write a record to
the first read at the receiving end that returns it (the write, the pty pair: socat and the kernel,
the wake-up, the read); from the receiving end's last read of it to the start of its reply's write
(the core, decoding, journaling: the end's own work); back the other way; and from the sending
end's read of the reply to the start of its next record's write."""


def stages(near: Stamps, far: Stamps) -> dict[str, list[float]]:
    """Microseconds of each of :data:`STAGES`, one value a card: the two ends' points in time order,
    each stage timed between two points that follow one another (a record that arrives in two reads
    is timed to its first and from its last; the handshake's few records count as cards); and
    "a card", from one record's write at the sending end to the next one's."""
    merged = sorted([(t, "near", k) for k, t in near.points] + [(t, "far", k) for k, t in far.points])
    names = {(("near", "w"), ("far", "r")): STAGES[0], (("far", "r"), ("far", "w")): STAGES[1],
             (("far", "w"), ("near", "r")): STAGES[2], (("near", "r"), ("near", "w")): STAGES[3]}
    out: dict[str, list[float]] = {name: [] for name in STAGES}
    for (t0, who0, k0), (t1, who1, k1) in itertools.pairwise(merged):
        name = names.get(((who0, k0), (who1, k1)))
        if name is not None:
            out[name].append((t1 - t0) / 1000)
    writes = [t for k, t in near.points if k == "w"]
    out["a card"] = [(t1 - t0) / 1000 for t0, t1 in itertools.pairwise(writes)]
    return out


def where(a: str, b: str, deck: list[Card], repeat: int, kind: str = "socat") -> None:
    """Print, stage by stage (:data:`STAGES`), the median and tenth percentile a card of the bare
    ``os`` ping-pong and of the tmpfs send/receive, each end a process of its own, ``repeat``
    rounds in turns (their points pooled)."""
    shm = "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir()
    runs = {"bare os ping-pong": lambda s: os_ping_pong(a, b, len(deck), apart=True, stamps=s),
            "send/receive, tmpfs": lambda s: full_transfer(a, b, deck, shm, apart=True, stamps=s)}
    pooled: dict[str, dict[str, list[float]]] = {run: {n: [] for n in (*STAGES, "a card")} for run in runs}
    for _ in range(repeat):
        for run, go in runs.items():
            near, far = Stamps(), Stamps()
            go((near, far))
            for name, values in stages(near, far).items():
                pooled[run][name].extend(values)
    print(f"## Where a card's time goes: {len(deck)} cards, {kind} pty pair, each end a process of its "
          f"own, {repeat} rounds in turns (microseconds: median, tenth percentile)")
    print(f"{'stage':20}" + "".join(f" {run:>24}" for run in runs))
    for name in (*STAGES, "a card"):
        cells = []
        for run in runs:
            values = pooled[run][name]
            cells.append(f"{statistics.median(values):11.1f} {_decile(values):11.1f}" if values else "-")
        print(f"{name:20}" + "".join(f" {c:>24}" for c in cells))


def _decile(values: list[float]) -> float:
    return sorted(values)[len(values) // 10]


COUNTED = """
import os, sys, threading
from tools.bench_serial import make_deck, os_ping_pong
from emulator.serial import Link
from ibm1013.line.endpoint import EndpointConfig, receive_deck, send_deck
from ibm1013.str import SessionConfig
what, n, a, b = sys.argv[1], int(sys.argv[2]), *sys.argv[3:5]
if what == "pong":
    os_ping_pong(a, b, n)
    sys.exit(0)
deck = make_deck(n)
if what == "transfer":
    cfg = EndpointConfig(session=SessionConfig(), paced=False, timeout_s=120)
    out = os.path.join("/dev/shm", f"bench-counted-{os.getpid()}.txt")
    with Link.open(a) as la, Link.open(b) as lb:
        far = threading.Thread(target=receive_deck, args=(lb, out, "text", cfg))
        far.start()
        send_deck(la, deck, cfg)
        far.join()
    os.unlink(out)
"""
"""What one process counted under valgrind runs over the pty pair ``a``, ``b`` (made outside it, so
that waiting for socat's ptys to appear is not counted): ``transfer`` (send and receive of ``n``
cards), ``deck`` (only the making of that deck) or ``pong`` (the bare ping-pong of ``n`` records)."""


def counted(what: str, n: int) -> int:
    """Instructions a process running ``what`` (:data:`COUNTED`) of size ``n`` takes under valgrind."""
    with pty_pair("socat") as (a, b):
        return callgrind.count(COUNTED, what, str(n), a, b)[0]


def instructions(cards: int) -> dict[str, float]:
    """Instructions a card of both ends of a tmpfs send/receive and of the bare ping-pong."""
    small, large = max(1, cards // 4), cards
    per = {what: (counted(what, large) - counted(what, small)) / (large - small)
           for what in ("transfer", "deck", "pong")}
    return {"transfer_per_card": per["transfer"] - per["deck"], "pong_per_card": per["pong"]}


def best(fn: Callable[[], float], repeat: int) -> float:
    return min(fn() for _ in range(repeat))


def interleaved(runs: dict[str, Callable[[], float]], repeat: int) -> dict[str, list[float]]:
    """``repeat`` times of each run, taken in turns (one of each, then again), so that a change in
    the machine's load falls on every run alike and the ratios between them hold."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, fn in runs.items():
            times[name].append(fn())
    return times


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.bench_serial", description=__doc__.split("\n\n")[0])
    p.add_argument("--cards", type=int, default=2000, help="cards in the unthrottled runs")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--pair", choices=("auto", "socat", "virtual"), default="auto")
    p.add_argument("--no-paced", action="store_true", help="skip the paced runs (about 25 s)")
    p.add_argument("--instructions", action="store_true",
                   help="count instructions under valgrind instead of timing (--cards 1200 is plenty)")
    p.add_argument("--where", action="store_true",
                   help="time each stage of a card's round trip instead (see STAGES)")
    args = p.parse_args(argv)
    if args.cards < 1 or args.repeat < 1:
        p.error("--cards and --repeat must be at least 1")
    kind = args.pair if args.pair != "auto" else ("socat" if shutil.which("socat") else "virtual")
    if args.where:
        with pty_pair(kind) as (a, b):
            where(a, b, make_deck(args.cards), args.repeat, kind)
        return 0
    if args.instructions:
        if shutil.which("valgrind") is None or shutil.which("socat") is None:
            p.error("--instructions needs valgrind and socat (apt-get install valgrind socat)")
        if args.cards < 400:        # below, the runs' fixed costs (start-up, handshake) swamp the cards
            p.error("--instructions needs --cards of 400 or more")
        figures = instructions(args.cards)
        rows = (("both ends of a tmpfs send/receive, a card", f"{figures['transfer_per_card']:,.0f}"),
                ("bare os.read/os.write ping-pong, a card", f"{figures['pong_per_card']:,.0f}"))
        for label, value in rows:
            print(f"{label:44} {value:>9}")
        return 0
    deck = make_deck(args.cards)

    print(f"## Unthrottled, {args.cards} cards of 80 columns, {kind} pty pair ({args.repeat} rounds "
          "taken in turns; best and median)")
    with pty_pair(kind) as (a, b):
        chars = str_only(a, b, deck)[1]
        raw = best(lambda: raw_copy(a, b, chars), args.repeat)
        shm = "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir()
        disk = tempfile.gettempdir()
        n = args.cards
        got = interleaved({
            "pong": lambda: raw_ping_pong(a, b, n),
            "os_pong": lambda: os_ping_pong(a, b, n),
            "os_pong_apart": lambda: os_ping_pong(a, b, n, apart=True),
            "str": lambda: str_only(a, b, deck)[0],
            "shm": lambda: full_transfer(a, b, deck, shm)[0],
            "shm_apart": lambda: full_transfer(a, b, deck, shm, apart=True)[0],
            "disk": lambda: full_transfer(a, b, deck, disk)[0],
            "os_pong_sync": lambda: os_ping_pong(a, b, n, sync_dir=disk),
            **{way: (lambda way=way: fsync_loop(disk, n, way)) for way in SYNC_WAYS},
        }, args.repeat)
    rows = [
        ("raw byte copy (baseline)", [raw]),
        ("ping-pong over Link, 85 out / 2 back", got["pong"]),
        ("ping-pong, bare os.read/os.write", got["os_pong"]),
        ("  the same, the echo in a process of its own", got["os_pong_apart"]),
        ("STR session, no journal", got["str"]),
        ("send/receive, journal on tmpfs", got["shm"]),
        ("  the same, receive in a process of its own", got["shm_apart"]),
        (f"send/receive, journal on disk ({disk})", got["disk"]),
        ("bare ping-pong, O_DSYNC pwrite before each reply", got["os_pong_sync"]),
        *((f"bare write + {way} per card" if not way.startswith("O_") else f"bare {way} per card",
           got[way]) for way in SYNC_WAYS),
    ]
    print(f"{'run':48} {'best s':>8} {'median s':>9} {'cards/s':>9} {'vs raw':>7}")
    for name, times in rows:
        cps = n / min(times)
        print(f"{name:48} {min(times):8.3f} {statistics.median(times):9.3f} {cps:9.0f} "
              f"{cps * raw / n:7.1%}")
    print(f"({chars} line characters per run; target for send/receive: >= 50 % of raw)")

    def ratio(base: str, run: str) -> str:
        """``base``'s time over ``run``'s: of the best times, and the median of each round's ratio."""
        rounds = [b / r for b, r in zip(got[base], got[run], strict=True)]
        return f"{min(got[base]) / min(got[run]):.1%} best, {statistics.median(rounds):.1%} median"

    def times(run: str, base: str) -> str:
        rounds = [r / b for b, r in zip(got[base], got[run], strict=True)]
        return f"{min(got[run]) / min(got[base]):.2f}x best, {statistics.median(rounds):.2f}x median"

    print(f"send/receive (tmpfs journal) against the Link ping-pong: {ratio('pong', 'shm')}; "
          f"bare STR session against it: {ratio('pong', 'str')}")
    print("send/receive (tmpfs journal) against the bare os.read/os.write ping-pong (target >= 75 %):")
    print(f"  both ends threads of one process: {ratio('os_pong', 'shm')}; "
          f"bare STR session: {ratio('os_pong', 'str')}")
    print(f"  each end a process of its own:    {ratio('os_pong_apart', 'shm_apart')}")
    print(f"send/receive (disk journal) against the bare write + fsync loop (target <= 1.3x): "
          f"{times('disk', 'fsync')}")
    print(f"  the floor of a stop-and-wait receive that syncs each card (bare ping-pong + O_DSYNC pwrite) "
          f"against that loop: {times('os_pong_sync', 'fsync')}; the disk receive against the floor: "
          f"{times('disk', 'os_pong_sync')}")
    print("the ways to sync against write + fsync: " + "; ".join(
        f"{way} {times(way, 'fsync')}" for way in SYNC_WAYS[1:]))

    if not args.no_paced:
        from ibm1013 import TransferConfig
        from ibm1013.sim.transfer import simulate

        print("\n## Paced, against the simulator's prediction (target: within 2 %)")
        print(f"{'bit/s':>6} {'cards':>6} {'simulate':>10} {'measured':>10} {'ratio':>8}")
        for rate, n in ((1200, 12), (2400, 20)):
            small = make_deck(n)
            predicted = simulate(small, TransferConfig.build(bit_rate=rate)).cards_per_minute
            with pty_pair(kind) as (a, b):
                _, measured = full_transfer(a, b, small, tempfile.gettempdir(), paced=True, bit_rate=rate)
            print(f"{rate:6d} {n:6d} {predicted:10.2f} {measured:10.2f} {measured / predicted:8.2%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
