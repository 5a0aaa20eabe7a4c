"""emulator.serial: opening ports with clear errors, raw ptys, and the paced virtual line."""

import errno
import os
import threading
import time
from pathlib import Path

import pytest
import serial as pyserial
from endpoints import Clock, read_exactly, until

from emulator.serial import Link, PortError, PortSettings, open_port
from emulator.virtual_line import LineConfig, VirtualLine, open_pty


def test_missing_port_is_one_clear_line():
    with pytest.raises(PortError, match="/dev/ttyNOPE: no such port"):
        open_port("/dev/ttyNOPE")


def test_not_a_serial_port(tmp_path):
    f = tmp_path / "plain"
    f.write_text("x")
    with pytest.raises(PortError, match="not a serial port"):
        open_port(str(f))


def test_bad_url_and_refused_socket():
    with pytest.raises(PortError, match="bogus://x"):
        open_port("bogus://x")
    with pytest.raises(PortError, match="connection refused"):
        open_port("socket://127.0.0.1:1")


def test_permission_denied_is_explained(monkeypatch):
    def deny(*_a, **_k):
        raise pyserial.SerialException(errno.EACCES, "could not open port /dev/ttyS9: [Errno 13] denied")

    monkeypatch.setattr(pyserial, "serial_for_url", deny)
    monkeypatch.setattr(os.path, "exists", lambda _p: True)
    with pytest.raises(PortError, match="permission denied"):
        open_port("/dev/ttyS9")


def test_port_in_use_is_refused():
    p = open_pty()
    try:
        first = open_port(p.path)
        with pytest.raises(PortError, match="in use"):
            open_port(p.path)
        first.close()
        open_port(p.path).close()  # free again once closed
    finally:
        p.close()


def test_loop_url_self_test():
    with Link.open("loop://", PortSettings(baudrate=115200)) as link:
        link.write(b"\x35\x53hello")
        assert read_exactly(link, 7) == b"\x35\x53hello"


def test_pty_is_raw_binary_clean():
    p = open_pty()
    try:
        with Link.open(p.path) as link:
            payload = bytes(range(256))  # CR, LF, XON, XOFF, ^C, ^D all pass untouched
            link.write(payload)
            got = bytearray()
            deadline = time.monotonic() + 5
            while len(got) < 256 and time.monotonic() < deadline:
                try:
                    got += os.read(p.master, 4096)
                except BlockingIOError:
                    time.sleep(0.01)
            assert bytes(got) == payload
    finally:
        p.close()


def test_read_is_bounded_by_deadline_and_limit():
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        a, b = (Link.open(x) for x in line.paths)
        t = time.monotonic()
        assert b.read(10, 0.2) == b""
        assert 0.15 < time.monotonic() - t < 30  # waited for its deadline (the bound: a guard)
        a.write(b"x" * 100)
        time.sleep(0.1)
        assert len(b.read(10, 1)) <= 10
        a.close()
        b.close()


def test_virtual_line_paces_at_eight_bits_a_character():
    """On the line's own clock: 300 characters at 4800 bit/s (600 a second) come out one every
    1/600 s, the first at once, however late the relay thread runs."""
    clock = Clock()
    with VirtualLine(LineConfig(bit_rate=4800), clock=clock) as line:
        a, b = (Link.open(x) for x in line.paths)
        a.write(bytes(300))
        until(lambda: line.stats()["a->b"]["bytes_in"] == 300, what="300 characters into the line")
        assert read_exactly(b, 1) == bytes(1)
        clock.now = 0.2505  # characters 0 … 150 are due
        assert read_exactly(b, 150) == bytes(150)
        assert b.read(10, 0.3) == b"" and line.stats()["a->b"]["bytes_out"] == 151
        clock.now = 0.5  # the last one, character 299, was due at 299/600 s
        assert read_exactly(b, 149) == bytes(149)
        b.write(b"back")
        until(lambda: line.stats()["b->a"]["bytes_in"] == 4, what="4 characters into the line")
        clock.now = 1.0
        assert read_exactly(a, 4) == b"back"
        a.close()
        b.close()


def test_virtual_line_is_never_faster_than_its_bit_rate():
    with VirtualLine(LineConfig(bit_rate=4800)) as line:
        a, b = (Link.open(x) for x in line.paths)
        t = time.monotonic()
        a.write(bytes(300))
        assert read_exactly(b, 300, 30) == bytes(300)
        assert time.monotonic() - t >= 299 * 8 / 4800
        a.close()
        b.close()


def test_virtual_line_carries_everything_unpaced_in_both_directions():
    data = os.urandom(200_000)
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        a, b = (Link.open(x) for x in line.paths)
        th = threading.Thread(target=a.write, args=(data,))
        th.start()
        got = read_exactly(b, len(data), 10)
        th.join(5)
        assert got == data
        a.close()
        b.close()
    assert line.stats()["a->b"]["bytes_out"] == len(data)  # counted once the relay has stopped


class _FlipEveryTenth:
    """A stand-in noise model: flips the low bit of every tenth character."""

    flipped_bits = 0

    def __init__(self):
        self.n = 0

    def corrupt(self, data: bytes) -> tuple[bytes, int]:
        out = bytearray(data)
        flips = 0
        for i in range(len(out)):
            self.n += 1
            if self.n % 10 == 0:
                out[i] ^= 0x01
                flips += 1
        return bytes(out), flips


def test_noise_drops_and_determinism():
    def run(seed):
        cfg = LineConfig(bit_rate=0, drop_rate=0.1, seed=seed)
        with VirtualLine(cfg, noise_ab=_FlipEveryTenth()) as line:
            a, b = (Link.open(x) for x in line.paths)
            for i in range(20):  # split the stream differently each time
                a.write(bytes(range(i, i + 50)))

            def all_through():
                s = line.stats()["a->b"]
                return s["bytes_in"] == 1000 and s["bytes_out"] + s["bytes_dropped"] == 1000 and s

            stats = until(all_through, what="the 1000 characters through the line")
            got = read_exactly(b, stats["bytes_out"], 30)
            assert b.read(10, 0.1) == b""
            a.close()
            b.close()
            return got, stats

    got1, s1 = run(7)
    got2, s2 = run(7)
    got3, _ = run(8)
    assert got1 == got2 and got1 != got3
    assert s1["bytes_dropped"] > 0 and s1["bytes_corrupted"] > 0
    assert len(got1) == 1000 - s1["bytes_dropped"]


def test_seeded_noise_models_from_emulator_noise():
    from emulator.noise import make_noise

    def run():
        noise = make_noise(ber=0.01, seed=3)
        with VirtualLine(LineConfig(bit_rate=0), noise_ab=noise) as line:
            a, b = (Link.open(x) for x in line.paths)
            for i in range(10):
                a.write(bytes(100 + i))
            got = read_exactly(b, sum(100 + i for i in range(10)))
            a.close()
            b.close()
        return got, line.stats()["a->b"]

    (g1, s1), (g2, s2) = run(), run()
    assert len(g1) == 1045 and g1 == g2 and s1 == s2
    assert 40 < s1["bits_flipped"] < 160  # 8360 bits at BER 0.01 ≈ 84


def test_cut_line_loses_bytes_then_recovers():
    clock = Clock()
    cfg = LineConfig(bit_rate=0, cut_at_s=0.0, cut_for_s=0.5)
    with VirtualLine(cfg, clock=clock) as line:
        a, b = (Link.open(x) for x in line.paths)
        a.write(b"lost")
        until(lambda: line.stats()["a->b"]["bytes_lost_in_cut"] == 4, what="the cut to swallow 4 bytes")
        clock.now = 0.6
        a.write(b"kept")
        assert read_exactly(b, 4) == b"kept"
        assert line.stats()["a->b"]["bytes_lost_in_cut"] == 4
        a.close()
        b.close()


def test_links_replace_an_old_link_to_a_pty_and_leave_what_replaced_theirs(tmp_path):
    """A link left by a crashed line (to a pty) is replaced; at the end, a link the user replaced
    meanwhile with a file of their own is not deleted (issue 25 §6)."""
    links = (str(tmp_path / "ttyA"), str(tmp_path / "ttyB"))
    os.symlink("/dev/pts/999999", links[0])
    line = VirtualLine(LineConfig(bit_rate=0), links=links).start()
    try:
        assert os.readlink(links[0]) != "/dev/pts/999999" and os.readlink(links[0]).startswith("/dev/")
        os.unlink(links[1])
        Path(links[1]).write_text("mine")
    finally:
        line.stop()
    assert not os.path.lexists(links[0]) and Path(links[1]).read_text() == "mine"
    with pytest.raises(ValueError, match="exists and is a file, not a link to a pty"):
        VirtualLine(LineConfig(bit_rate=0), links=links).start()


def test_links_and_closed_peer(tmp_path):
    links = (str(tmp_path / "ttyA"), str(tmp_path / "ttyB"))
    line = VirtualLine(LineConfig(bit_rate=0), links=links).start()
    try:
        assert all(os.path.islink(p) for p in links)
        a = Link.open(links[0])
    finally:
        line.stop()
    assert not any(os.path.exists(p) for p in links)
    with pytest.raises(PortError):
        a.read(10, 0.5)
    a.close()


def test_a_peer_that_never_reads_cannot_make_us_buffer_without_bound():
    with VirtualLine(LineConfig(bit_rate=0, queue_limit=4096)) as line:
        a = Link.open(line.paths[0], PortSettings(write_timeout=0.5))
        b = Link.open(line.paths[1])  # open, but never read
        t = time.monotonic()
        with pytest.raises(PortError, match="nobody is reading"):
            for _ in range(1000):
                a.write(bytes(4096))
        assert time.monotonic() - t < 60  # a guard against a hang, not a measure of the 0.5 s
        a.close()
        b.close()
