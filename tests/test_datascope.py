"""The datascope: `ibm1013 monitor` on the taps of `ibm1013 line --tap`, and its decoder."""

import json
import queue
import signal
import threading
import time

import numpy as np
import pytest
from endpoints import until
from hypothesis import given, settings
from hypothesis import strategies as st
from processes import finish, start, write_cbn
from test_cli_serial import VirtualLineProcess

from emulator.card import Card
from ibm1013.line.datascope import Datascope
from ibm1013.line.trace import LineDecoder
from ibm1013.str import fourofeight as fo
from ibm1013.str.layout import ColumnLayout

pytestmark = pytest.mark.timeout(120)


def records(*texts: str) -> list[bytes]:
    words = np.array([Card.from_text(t).columns for t in texts], dtype=np.uint16)
    return [bytes([fo.IDLE, fo.TL, sor]) + body for sor, body in
            zip([fo.SOR1, fo.SOR2] * len(texts), ColumnLayout().encode_records(words), strict=False)]


@given(st.binary(max_size=400), st.lists(st.integers(1, 50), max_size=20),
       st.sampled_from(["any", "records", "replies"]))
@settings(max_examples=200, deadline=None)
def test_any_bytes_in_any_chunks_decode_without_loss(data, cuts, mode):
    decoder = LineDecoder(mode)
    tokens, i = [], 0
    for n in [*cuts, len(data)]:
        tokens += decoder.feed(data[i:i + n])
        i += n
    tokens += decoder.flush()
    assert b"".join(t.raw for t in tokens) == data
    assert all(isinstance(t.text(), str) for t in tokens)
    scope = Datascope()
    for k in range(0, len(data), 7):
        for obs in scope.feed("A" if k % 2 else "B", data[k:k + 7], k / 10):
            assert obs.line(hex_bytes=True)
    scope.finish(99.0)
    counted = scope.summary(99.0)["directions"].values()
    assert sum(d["characters"] for d in counted) == len(data)
    assert sum(d["non_four_of_eight"] for d in counted) == sum(c.bit_count() != 4 for c in data)


def test_a_refused_record_its_retransmission_and_a_lost_acknowledgement():
    one, two = records("CARD ONE", "CARD TWO")
    bad = bytearray(one)
    bad[5] ^= 0x01  # three one-bits: no four-of-eight character, and the LRC is wrong
    scope = Datascope()
    script = [("A", bytes([fo.IDLE, fo.TL, fo.INQ])), ("B", bytes([fo.CL, fo.ACK2])),
              ("A", bytes(bad)), ("B", bytes([fo.CL, fo.ERR])),
              ("A", one), ("B", bytes([fo.CL, 0x00])),        # its CL ACK1 garbled on the way back
              ("A", one), ("B", bytes([fo.CL, fo.ACK1])),      # sent again: the receiver repeats ACK1
              ("A", two), ("B", bytes([fo.CL, fo.ACK2])),
              ("A", bytes([fo.IDLE, fo.TL, fo.EOT])), ("B", bytes([fo.CL, fo.EOT]))]
    seen = []
    for t, (direction, data) in enumerate(script):
        seen += [o for o in scope.feed(direction, data, float(t)) if o.kind == "record"]
    assert [(o.verdict, o.card, o.lrc, o.retransmission) for o in seen] == [
        ("bad", None, "bad", False), ("card", 1, "good", True), ("repeat", 1, "good", True),
        ("card", 2, "good", False)]
    assert seen[0].bad_characters == 1 and "<" in seen[0].text and seen[1].text.startswith("CARD ONE")
    (session,) = scope.sessions
    assert (session.cards, session.bad_records, session.error_replies, session.retransmissions,
            session.repeats) == (2, 1, 1, 2, 1)
    assert session.ended == 10.0  # at TL EOT
    # one direction only: a record numbered as the one before it is taken for a retransmission
    alone = Datascope()
    for t, (direction, data) in enumerate(script):
        if direction == "A":
            alone.feed("A", data, float(t))
    assert alone.summary(20.0)["cards"] == 2 and alone.summary(20.0)["retransmissions"] == 2


def test_idle_gaps_end_blocks():
    scope = Datascope(gap_s=0.5)
    scope.feed("A", bytes([fo.IDLE, fo.TL, fo.INQ]), 0.0)
    (gap,) = scope.tick(2.0)
    assert gap.kind == "gap" and gap.seconds == 2.0 and gap.block == 1 and scope.block == 2
    assert "idle 2.000 s" in gap.line() and scope.tick(3.0) == []


class Lines:
    """The JSON lines a process prints, read by a thread (select would miss lines already taken
    into the pipe's buffer)."""

    def __init__(self, proc) -> None:
        self.proc, self.queue, self.got = proc, queue.Queue(), []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        for line in iter(self.proc.stdout.readline, ""):
            self.queue.put(json.loads(line))

    def until(self, done, timeout: float = 60) -> list[dict]:
        """Lines until ``done(line)`` is true (the test fails after ``timeout``)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                self.got.append(self.queue.get(timeout=1))
            except queue.Empty:
                continue
            if done(self.got[-1]):
                return self.got
        pytest.fail(f"monitor never saw the end: {self.got[-3:]}")

    def stop(self) -> dict:
        """SIGTERM; the summary it prints last."""
        self.proc.send_signal(signal.SIGTERM)
        assert self.proc.wait(10) == 0, self.proc.stderr.read()
        self.thread.join(10)
        while not self.queue.empty():
            self.got.append(self.queue.get())
        return self.got[-1]["summary"]


def test_monitor_on_both_taps_counts_what_both_ends_report(tmp_path):
    texts = [f"TAPPED CARD {i:03d} OF TWELVE" for i in range(12)]
    cards = [Card.from_text(t) for t in texts]
    write_cbn(tmp_path / "deck.cbn", cards)
    line = VirtualLineProcess("--tap", "--ber", "3e-4", "--seed", "21")
    log = tmp_path / "line.log"
    try:
        info = {"a": line.a, "b": line.b}
        tap_ab, tap_ba = line.info["tap_ab"], line.info["tap_ba"]
        scope = start("monitor", tap_ab, tap_ba, "--name", "a->b", "--name", "b->a", "--json",
                      "--log", str(log))
        until(log.exists, 120, "the monitor to start (it opens its log, then the taps)")
        rx = start("receive", info["b"], "-o", str(tmp_path / "copy.cbn"), "--json")
        tx = start("send", info["a"], str(tmp_path / "deck.cbn"), "--json")
        (tc, tout, terr), (rc, rout, rerr) = finish(tx, 90), finish(rx, 90)
        assert tc == 0 and rc == 0, terr + rerr
        verdict = []

        def verdict_confirmed(obs: dict) -> bool:  # the last thing on the line: CL EOT to the verdict
            if obs.get("verdict") == "mark" and obs["text"].startswith("1013 VERDICT"):
                verdict.append(obs)
            return bool(verdict) and obs["kind"] == "reply" and obs["code"] == "EOT"

        lines = Lines(scope)
        observations = list(lines.until(verdict_confirmed))
        summary = lines.stop()
    finally:
        line.stop()
    sent, got = json.loads(tout), json.loads(rout)
    handshake, deck, answer = summary["sessions"]
    assert (handshake["transmitter"], deck["transmitter"], answer["transmitter"]) == ("b->a", "a->b", "b->a")
    assert deck["cards"] == sent["cards_sent"] == got["cards_received"] == 12
    assert deck["marks"] == 1 and handshake["marks"] == 1 and answer["marks"] == 1  # trailer, resume, verdict
    assert deck["retransmissions"] == sent["retransmissions"]
    assert deck["bad_records"] == got["detected_errors"]
    assert deck["error_replies"] == sent["detected_errors"]
    assert deck["bad_records"] > 0, "the noise hit no record: pick another seed"
    records_seen = [o for o in observations if o["kind"] == "record" and o["direction"] == "a->b"]
    assert [o["card"] for o in records_seen if o["verdict"] == "card"] == list(range(1, 13))
    assert [o["text"].rstrip() for o in records_seen if o["verdict"] == "card"] == \
        texts
    assert sum(o["retransmission"] for o in records_seen) == sent["retransmissions"]
    logged = log.read_text().splitlines()
    assert logged[-1].startswith("12 cards") and logged[0][:4].isdigit() and "T" in logged[0][:11]


def test_monitor_errors_are_one_line(tmp_path):
    for argv, needle in [(["monitor", "a", "b", "c"], "one or two ports"),
                         (["monitor", str(tmp_path / "nope")], "no such port"),
                         (["monitor", "loop://", "--log", str(tmp_path)], "--log"),
                         (["monitor", "loop://", "--gap", "nan"], "--gap")]:
        code, _, err = finish(start(*argv), 20)
        assert code == 2 and len(err.strip().splitlines()) == 1 and needle in err, (argv, err)
