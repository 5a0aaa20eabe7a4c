"""The line monitor (`--trace`) and the timeline of a real transfer (`--timeline`)."""

import io
import re

import numpy as np
import pytest
from endpoints import InThread
from test_endpoint_transfer import deck_of, fast, read_text_deck

from emulator.card import Card
from emulator.serial import LineConfig, Link, VirtualLine
from ibm1013.line.endpoint import receive_deck, send_deck
from ibm1013.line.trace import LineTrace, Monitors, TimelineFrames, render
from ibm1013.str import fourofeight as fo
from ibm1013.str.layout import ColumnLayout

pytestmark = pytest.mark.timeout(60)


def test_render_names_every_sequence():
    (record,) = ColumnLayout().encode_records(np.array([Card.from_text("HELLO, WORLD 12").columns],
                                                       dtype=np.uint16))
    lrc = record[-1]
    assert render(bytes([fo.IDLE] * 5 + [fo.TL, fo.SOR2]) + record) == \
        f'IDLE×5 TL SOR2 "HELLO, WORLD 12" +65 blank TL LRC={lrc:02X}'
    assert render(bytes([fo.CL, fo.ACK1, fo.CL, fo.ERR, 0x00, fo.IDLE, fo.TL, fo.EOT])) == \
        "CL ACK1 CL ERR <00> IDLE TL EOT"


def test_trace_and_timeline_of_a_real_transfer(tmp_path):
    deck = deck_of(6)
    out = tmp_path / "copy.txt"
    tx_log, rx_log = io.StringIO(), io.StringIO()
    tx_frames, rx_frames = TimelineFrames("send", 0.0), TimelineFrames("receive", 0.0)
    with VirtualLine(LineConfig(bit_rate=0)) as line:
        a, b = (Link.open(p) for p in line.paths)
        rx = InThread(lambda: receive_deck(b, str(out), "text", fast(ack=20),
                                           monitor=Monitors(LineTrace(rx_log), rx_frames)))
        rx.start()
        sent = send_deck(a, deck, fast(ack=20), monitor=Monitors(LineTrace(tx_log), tx_frames))
        assert not isinstance(rx.outcome(), Exception)
        a.close()
        b.close()
    assert sent.ended == "complete" and read_text_deck(out) == deck
    tx_text = tx_log.getvalue()
    lines = tx_text.splitlines()
    assert all(re.match(r" *\d+\.\d{6} (session|out|in|timer|event) ", line) for line in lines)
    times = [float(line.split()[0]) for line in lines]
    assert times == sorted(times)
    assert tx_text.count(" session ") == 3  # resume handshake, deck, verdict
    # every deck card and the trailer went out once, whole, and came back acknowledged
    records = [line for line in lines if " out " in line and " TL SOR" in line and "try 1]" in line]
    assert len(records) == 7 and '"CARD 00000 THE QUICK BROWN FOX' in records[0]
    assert tx_text.count(" in       CL ACK") == 7 + 1  # and the bid's CL ACK2
    assert "timer    reply start 20 s" in tx_text
    assert "PUBLISHED" in tx_text and "outcome='complete'" in tx_text
    assert "<" not in "".join(line for line in lines if " in " in line)  # reads reassembled whole
    rx_text = rx_log.getvalue()
    assert "CardAccepted(number=7)" in rx_text and '"1013 TRAILER 00000006 CARDS DIGEST' in rx_text
    # the timeline: records on the upper lane (card numbers), replies below, from both ends
    assert [f[4] for f in tx_frames.frames if f[0] == "data" and f[4] is not None] == list(range(1, 8))
    assert [f[4] for f in rx_frames.frames if f[0] == "data" and f[4] is not None] == list(range(1, 8))
    assert all(f[1] <= f[2] for f in tx_frames.frames + rx_frames.frames)
    from ibm1013.sim.timeline import draw

    draw(tx_frames.frames, tmp_path / "tx.png", xlabel="seconds")
    assert (tmp_path / "tx.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_virtual_line_trace_shows_what_arrives_and_what_the_noise_did():
    from endpoints import read_exactly

    from emulator.noise import make_noise
    from ibm1013.line.trace import RelayTrace

    log = io.StringIO()
    sent = bytes([fo.IDLE] * 4 + [fo.TL, fo.INQ])
    with VirtualLine(LineConfig(bit_rate=0), noise_ab=make_noise(ber=0.02, seed=1),
                     monitor=RelayTrace(log)) as line, Link.open(line.paths[0]) as a, \
            Link.open(line.paths[1]) as b:
        for _ in range(20):
            a.write(sent)
            got = read_exactly(b, len(sent))
            b.write(bytes([fo.CL, fo.ACK2]))
            assert read_exactly(a, 2) == bytes([fo.CL, fo.ACK2])
    lines = log.getvalue().splitlines()
    assert sum(line.endswith("b->a     CL ACK2") for line in lines) == 20
    noisy = [line for line in lines if "a->b     noise: " in line]
    assert noisy and all("bits flipped" in line for line in noisy)
    assert sum(line.endswith("a->b     TL INQ") for line in lines) >= 20 - len(noisy)
    assert len(got) == len(sent)
