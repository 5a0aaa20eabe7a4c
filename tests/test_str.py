"""The sans-I/O STR core, driven by a tiny loop with no clock: bytes and timers by hand."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emulator.card import Card
from emulator.errors import CardError
from ibm1013.str import (
    CardAccepted,
    CardDelivered,
    CardFailed,
    ColumnLayout,
    OperatorCall,
    ProtocolError,
    Receiver,
    Send,
    SessionConfig,
    SessionEnded,
    StartTimer,
    Transmitter,
)
from ibm1013.str import fourofeight as fo


class Loop:
    """Moves bytes between a transmitter and a receiver; fires a timer only when the line is quiet."""

    def __init__(self, tx: Transmitter, rx: Receiver, *, chunk: int | None = None,
                 forward: Callable[[bytes], bytes] | None = None,
                 backward: Callable[[bytes], bytes] | None = None) -> None:
        self.tx, self.rx = tx, rx
        self.chunk = chunk
        self.forward = forward or (lambda b: b)
        self.backward = backward or (lambda b: b)
        self.to_rx: list[bytes] = []
        self.to_tx: list[bytes] = []
        self.timers: dict[tuple[str, str], float] = {}
        self.events: list = []
        self.accepted: list[CardAccepted] = []

    def handle(self, side: str, actions: list) -> None:
        for a in actions:
            if isinstance(a, Send):
                (self.to_rx if side == "tx" else self.to_tx).append(a.data)
            elif isinstance(a, StartTimer):
                self.timers[(side, a.name)] = a.seconds
            elif type(a).__name__ == "CancelTimer":
                self.timers.pop((side, a.name), None)
            else:
                self.events.append((side, a))
                if isinstance(a, CardAccepted):
                    self.accepted.append(a)

    def feed(self, side: str, data: bytes) -> None:
        target = self.rx if side == "rx" else self.tx
        step = self.chunk or max(1, len(data))
        for i in range(0, len(data), step):
            self.handle(side, target.receive_data(data[i:i + step]))

    def run(self, limit: int = 100_000) -> None:
        self.handle("tx", self.tx.start())
        self.handle("rx", self.rx.start())
        for _ in range(limit):
            if self.tx.ended and (self.rx.ended or not self.to_rx):
                if not self.to_tx and not self.to_rx:
                    return
            if self.to_rx:
                self.feed("rx", self.forward(self.to_rx.pop(0)))
            elif self.to_tx:
                self.feed("tx", self.backward(self.to_tx.pop(0)))
            elif self.timers:
                key = min(self.timers, key=self.timers.get)  # earliest timer first
                del self.timers[key]
                side, name = key
                self.handle(side, (self.tx if side == "tx" else self.rx).timer_expired(name))
            else:
                return
        raise AssertionError("loop did not settle")

    def of(self, kind: type) -> list:
        return [e for _, e in self.events if isinstance(e, kind)]


def is_record(b: bytes) -> bool:
    return len(b) > 3 and b[1] == fo.TL and b[2] in (fo.SOR1, fo.SOR2)


def deck(n: int, seed: int = 0) -> list[Card]:
    rng = np.random.default_rng(seed)
    chars = [w for w in range(4096) if fo.WORD_TO_CHAR[w]]
    return [Card(rng.choice(chars, size=80).tolist()) for _ in range(n)]


@pytest.mark.parametrize("chunk", [None, 1, 7])
def test_clean_transfer_in_any_chunking(chunk):
    cards = deck(5)
    loop = Loop(Transmitter(cards), Receiver(), chunk=chunk)
    loop.run()
    assert [a.card for a in loop.accepted] == cards
    assert [a.number for a in loop.accepted] == [1, 2, 3, 4, 5]
    assert [e.number for e in loop.of(CardDelivered)] == [1, 2, 3, 4, 5]
    assert loop.tx.ended.outcome == "complete" and loop.rx.ended.outcome == "complete"
    assert loop.tx.retransmissions == 0


def test_records_look_like_the_reference():
    cards = [Card.from_text("AB")]
    tx = Transmitter(cards)
    start = tx.start()
    assert start[0].data.endswith(bytes([fo.CL, fo.IDLE])) and start[0].data.count(fo.IDLE) == 196
    bid = tx.receive_data(bytes([fo.CL, fo.IDLE]))
    assert bid[0].data == bytes([fo.IDLE, fo.TL, fo.INQ])
    rec = tx.receive_data(bytes([fo.CL, fo.ACK2]))[0]
    data = bytes([0x71, 0x72]) + bytes([0xF0]) * 78
    assert rec.data == bytes([fo.IDLE, fo.TL, fo.SOR1]) + data + bytes([fo.TL, fo.lrc(data)])
    assert rec.card == 1 and rec.attempt == 1
    nxt = tx.receive_data(bytes([fo.CL, fo.ACK1]))
    assert isinstance(nxt[0], CardDelivered)
    assert nxt[1].data == bytes([fo.IDLE, fo.TL, fo.EOT])


def test_error_reply_resends_with_the_same_sor():
    cards = deck(2)
    hit = {"done": False}

    def damage(b: bytes) -> bytes:
        if is_record(b) and not hit["done"]:
            hit["done"] = True
            return b[:10] + bytes([b[10] ^ 0x01]) + b[11:]  # three 1-bits: character error
        return b

    loop = Loop(Transmitter(cards), Receiver(), forward=damage)
    loop.run()
    assert [a.card for a in loop.accepted] == cards
    assert loop.tx.retransmissions == 1 and loop.tx.error_replies == 1
    assert loop.rx.detected_errors == 1


def test_lrc_error_is_detected():
    cards = deck(1)
    hit = {"done": False}

    def swap(b: bytes) -> bytes:  # swap two data bits in one character: still four-of-eight
        if is_record(b) and not hit["done"]:
            hit["done"] = True
            c = b[5]
            for i in range(8):
                for j in range(8):
                    d = c ^ (1 << i) ^ (1 << j)
                    if i != j and d in fo.CARD_CHARS:
                        return b[:5] + bytes([d]) + b[6:]
        return b

    loop = Loop(Transmitter(cards), Receiver(), forward=swap)
    loop.run()
    assert loop.rx.detected_errors == 1 and [a.card for a in loop.accepted] == cards


def test_lost_ack_gives_a_duplicate_that_is_thrown_away():
    cards = deck(3)
    state = {"n": 0}

    def lose_first_ack1(b: bytes) -> bytes:
        if b == bytes([fo.CL, fo.ACK1]) and state["n"] == 0:
            state["n"] = 1
            return b""
        return b

    loop = Loop(Transmitter(cards), Receiver(), backward=lose_first_ack1)
    loop.run()
    assert [a.card for a in loop.accepted] == cards
    assert loop.rx.duplicates == 1 and loop.tx.timeouts == 1


def test_a_record_that_never_gets_through_is_given_up():
    """Skipped when set to skip (``on_give_up``): the next card goes."""
    cards = deck(3)

    def break_card_2(b: bytes) -> bytes:
        if is_record(b) and b[3:83] == cards_data[1]:
            return b[:4] + b"\x00" + b[5:]
        return b

    cards_data, _ = ColumnLayout().encode(np.array([c.columns for c in cards], dtype=np.uint16))
    skip = SessionConfig(on_give_up="skip")
    loop = Loop(Transmitter(cards, skip), Receiver(skip), forward=break_card_2)
    loop.run()
    assert [a.card for a in loop.accepted] == [cards[0], cards[2]]
    assert [e.number for e in loop.of(CardFailed)] == [2] and loop.tx.failed == [2]
    assert loop.tx.retransmissions == 3
    assert [a.number for a in loop.accepted] == [1, 2]  # the receiver numbers what it gets


def test_dead_line_ends_with_a_resume_point():
    cards = deck(4)
    state = {"ok": 2}

    def die(b: bytes) -> bytes:  # the line goes dead just before the third record
        if is_record(b):
            state["ok"] -= 1
        return b"" if state["ok"] < 0 else b

    loop = Loop(Transmitter(cards), Receiver(), forward=die)
    loop.run()
    assert [a.number for a in loop.accepted] == [1, 2]
    assert loop.tx.ended.outcome == "no answer" and loop.tx.ended.resume_at == 3
    assert loop.tx.failed == []


def test_resume_at_card_k():
    cards = deck(5)
    loop = Loop(Transmitter(cards, first_card=4), Receiver(first_card=4))
    loop.run()
    assert [(a.number, a.card) for a in loop.accepted] == [(4, cards[3]), (5, cards[4])]


def test_receiver_idle_timeout():
    rx = Receiver()
    acts = rx.start()
    assert any(isinstance(a, StartTimer) and a.name == "idle" and a.seconds == 20.0 for a in acts)
    ended = [e for e in rx.timer_expired("idle") if isinstance(e, SessionEnded)]
    assert ended and ended[0].outcome == "no data" and "20 s" in ended[0].message


@settings(max_examples=40, deadline=None)
@given(st.binary(min_size=1, max_size=3000))
def test_babbling_peer_is_a_clear_protocol_error_and_buffers_stay_small(garbage):
    rx = Receiver(SessionConfig(columns=ColumnLayout.parse("10")))
    rx.start()
    out = []
    for _ in range(5):
        out += rx.receive_data(garbage.replace(b"\x39", b"\x00") * 3)
        assert len(rx._buf) <= rx.config.columns.max_chars + 2
    if len(garbage) * 15 > rx.config.babble_chars:
        assert any(isinstance(e, ProtocolError) for e in out)
        assert rx.ended is not None and rx.ended.outcome == "protocol error"
    tx = Transmitter(deck(1))
    tx.start()
    for _ in range(5):
        tx.receive_data(garbage.replace(b"\x39", b"\x00").replace(b"\x55", b"\x00") * 200)
        assert len(tx._buf) <= 2
    assert tx.ended is not None and tx.ended.outcome == "protocol error"


def test_babble_inside_a_record_is_bounded():
    rx = Receiver()
    rx.start()
    rx.receive_data(bytes([fo.IDLE, fo.TL, fo.SOR1]))
    out = []
    for _ in range(100):
        out += rx.receive_data(bytes([0xF0]) * 100)
        assert len(rx._buf) <= 82
    assert any(isinstance(e, ProtocolError) for e in out)


def test_partial_cards_and_column_binary():
    cards = [Card([0xFFF, 0, 0x801] + [0] * 40 + [0x900]), Card.blank()]
    for spec, cb in (("auto", True), ("1-3,44-44", True), ("80", True)):
        cfg = SessionConfig(columns=ColumnLayout.parse(spec, column_binary=cb))
        loop = Loop(Transmitter(cards, cfg), Receiver(cfg), chunk=3)
        loop.run()
        assert [a.card for a in loop.accepted] == cards
    cfg = SessionConfig(columns=ColumnLayout.parse("1-2"))
    loop = Loop(Transmitter([Card.from_text("ABCD")], cfg), Receiver(cfg))
    loop.run()
    assert loop.accepted[0].card == Card.from_text("AB")
    with pytest.raises(CardError, match="card 1, column 1"):
        Transmitter(cards)  # 12-11-0-1-…-9 is no BCD character


def test_wrong_length_record_is_refused_in_fixed_mode():
    cfg = SessionConfig(columns=ColumnLayout.parse("5"))
    rx = Receiver(cfg)
    rx.start()
    data = bytes([0x71] * 4)
    out = rx.receive_data(bytes([fo.IDLE, fo.TL, fo.SOR1]) + data + bytes([fo.TL, fo.lrc(data)]))
    assert out[0] == Send(bytes([fo.CL, fo.ERR])) and rx.detected_errors == 1


@pytest.mark.parametrize("spec, cb", [("1-20", False), ("40", False), ("80", True), ("1-3,44-44", True)])
def test_the_first_record_may_come_in_the_handshake_layout_whatever_the_deck_layout(spec, cb):
    """A refusal of our handshake comes as a whole BCD card: a receiver of a narrower or column
    binary layout takes it as its first record when told the handshake layout (in that layout),
    and still refuses such a record after the first, and without being told."""
    whole = SessionConfig()  # the handshake's form: 80 columns in BCD
    cfg = SessionConfig(columns=ColumnLayout.parse(spec, column_binary=cb))
    card = Card.from_text("1013 REFUSED 00000000 CARDS DIGEST " + "0" * 32)
    loop = Loop(Transmitter([card], whole), Receiver(cfg, first_card=5, handshake=whole.columns))
    loop.run()
    assert [(a.number, a.card, a.layout) for a in loop.accepted] == [(5, card, whole.columns)]
    assert loop.rx.ended.outcome == "complete"
    loop = Loop(Transmitter([card], whole), Receiver(cfg))  # not told: refused for its length
    loop.run()
    assert loop.accepted == [] and loop.rx.detected_errors == 4
    loop = Loop(Transmitter([*deck(1), card], whole), Receiver(cfg, handshake=whole.columns))
    loop.run()  # the first is a whole card too, but only the first record may be: card 2 refused
    assert [a.number for a in loop.accepted] == [1] and loop.of(CardFailed)[0].number == 2


def test_operator_call_both_ways():
    cards = deck(2)
    tx, rx = Transmitter(cards), Receiver()
    tx.call_operator()
    rx.call_operator()
    loop = Loop(tx, rx)
    loop.run()
    assert sorted(side for side, e in loop.events if isinstance(e, OperatorCall)) == ["rx", "tx"]
    assert [a.card for a in loop.accepted] == cards


def test_sequence_fault_ends_cleanly_instead_of_skipping():
    """A CL ERR misread as CL ACK1 makes the transmitter skip a card: the receiver must notice."""
    cards = deck(4)
    state = {"done": False}

    def misread(b: bytes) -> bytes:
        if b == bytes([fo.CL, fo.ERR]) and not state["done"]:
            state["done"] = True
            return bytes([fo.CL, fo.ACK1])
        return b

    def damage_first(b: bytes, seen={"n": 0}) -> bytes:  # noqa: B006
        if is_record(b):
            seen["n"] += 1
            if seen["n"] == 3:  # card 3, SOR1
                return b[:10] + b"\x00" + b[11:]
        return b

    loop = Loop(Transmitter(cards), Receiver(), forward=damage_first, backward=misread)
    loop.run()
    assert [a.number for a in loop.accepted] == [1, 2]
    assert loop.rx.ended.outcome == "sequence fault" and loop.rx.ended.resume_at == 3
    assert loop.tx.ended.outcome == "aborted by receiver"


def test_end_after_a_refused_card_is_a_sequence_fault():
    cards = deck(1)
    state = {"misread": False, "damaged": False}

    def damage(b: bytes) -> bytes:
        if is_record(b) and not state["damaged"]:
            state["damaged"] = True
            return b[:10] + b"\x00" + b[11:]
        return b

    def misread(b: bytes) -> bytes:
        if b == bytes([fo.CL, fo.ERR]) and not state["misread"]:
            state["misread"] = True
            return bytes([fo.CL, fo.ACK1])
        return b

    loop = Loop(Transmitter(cards), Receiver(), forward=damage, backward=misread)
    loop.run()
    assert loop.accepted == []
    assert loop.rx.ended.outcome == "sequence fault" and loop.rx.ended.resume_at == 1


def test_a_record_whose_sor_reads_as_inq_is_not_a_bid():
    rx = Receiver()
    rx.start()
    data = bytes([0x71] * 80)
    out = rx.receive_data(bytes([fo.IDLE, fo.TL, fo.INQ]) + data + bytes([fo.TL, fo.lrc(data)]))
    assert out[0] == Send(bytes([fo.CL, fo.ERR]))
    assert rx.receive_data(bytes([fo.IDLE, fo.TL, fo.INQ]))[0] == Send(bytes([fo.CL, fo.ACK2]))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(1, 90), st.integers(0, 2**32 - 1), st.floats(0.0, 0.2))
def test_noisy_byte_streams_in_any_chunking_always_settle(n, chunk, seed, rate):
    """Random bytes hit in both directions, any chunk size: the session always ends, buffers stay
    bounded, and whatever is accepted is in deck order."""
    import random

    rng = random.Random(seed)

    def hit(b: bytes) -> bytes:
        out = bytearray(b)
        for i in range(len(out)):
            if rng.random() < rate / 10:
                out[i] ^= 1 << rng.randrange(8)
        return bytes(out)

    cards = deck(n, seed % 1000)
    loop = Loop(Transmitter(cards), Receiver(), chunk=chunk, forward=hit, backward=hit)
    loop.run()
    assert loop.tx.ended is not None
    assert len(loop.rx._buf) <= loop.rx.config.columns.max_chars + 2 and len(loop.tx._buf) <= 2
    got = [a.card for a in loop.accepted]
    positions = [cards.index(c) for c in got if c in cards]
    assert positions == sorted(positions)


def test_sent_unchanged_compares_accepted_data_with_the_records_sent():
    cards = [Card.from_text(t) for t in ("HELLO", "WORLD", "", "A LONGER CARD 12345")]
    cfg = SessionConfig(columns=ColumnLayout.parse("auto"))
    tx = Transmitter(cards, cfg, first_card=2)
    data = [tx.sent_data(n) for n in (2, 3, 4)]
    assert data[0] == bytes(int(fo.WORD_TO_CHAR[w]) for w in Card.from_text("WORLD").columns[:5])
    assert tx.sent_unchanged(2, data) and tx.sent_unchanged(3, data[1:]) and tx.sent_unchanged(2, [])
    assert not tx.sent_unchanged(3, data)                       # shifted by one card
    assert not tx.sent_unchanged(1, data[:1])                   # before the first card sent
    assert not tx.sent_unchanged(2, [*data, data[0]])           # one more than the deck holds
    assert not tx.sent_unchanged(2, [data[0][:-1], *data[1:]])  # a record cut short
    assert not tx.sent_unchanged(2, [data[0] + data[0][:1], *data[1:]])  # one character more
    changed = bytes([data[0][0] ^ 0x0F]) + data[0][1:]
    assert not tx.sent_unchanged(2, [changed, *data[1:]])


def test_states_and_outcomes_are_compared_by_their_names_outside_the_core():
    """The core names its states and session outcomes (ibm1013.str.events), the report its own
    (ibm1013.report); a driver, command or report that compares ``.state``, ``.outcome`` or
    ``.ended`` with a bare string breaks silently when a word changes."""
    import ast
    from pathlib import Path

    from ibm1013 import report
    from ibm1013.str import events

    values = {v for k, v in vars(events).items() if k.isupper() and isinstance(v, str)}
    values |= {report.UNFINISHED, report.LINE_CUT, report.FAILED, report.INTERRUPTED}
    assert {"complete", "bid", "aborted by receiver", "line cut"} <= values

    def names(node: ast.AST) -> set[str]:
        return {n.attr if isinstance(n, ast.Attribute) else n.id for n in ast.walk(node)
                if isinstance(n, ast.Attribute | ast.Name)}

    root = Path(__file__).resolve().parents[1]
    bare = []
    for path in [*root.glob("ibm1013/**/*.py"), *root.glob("tools/*.py")]:
        if "str" in path.relative_to(root).parts[1:2]:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Compare) or not names(node) & {"state", "outcome", "ended"}:
                continue
            strings = {c.value for c in ast.walk(node) if isinstance(c, ast.Constant)}
            if strings & values:
                bare.append(f"{path.relative_to(root)}:{node.lineno}")
    assert not bare, bare


def test_the_named_states_and_outcomes_keep_their_printed_words():
    from ibm1013.str import events

    assert (events.COMPLETE, events.CARDS_GIVEN_UP, events.NO_ANSWER, events.ABORTED_BY_RECEIVER,
            events.END_NOT_CONFIRMED) == ("complete", "cards given up", "no answer",
                                          "aborted by receiver", "end not confirmed")
    tx = Transmitter([Card()])
    assert tx.state == events.STATE_NEW == "new"
    tx.start()
    assert tx.state == events.STATE_SYNC == "sync"
