"""The theory's frame outcomes (``ibm1013/theory/frames.py``) held against the STR core itself.

First the conventions, one frame each, through the receiving core (:class:`Receiver`) and the
sending core (:class:`Transmitter`); then noise: thousands of frames with bits flipped at random,
each passed through a fresh core, counted by what the core did, and compared with the theory's
chance of each outcome (every count inside its 99.9 % interval, a handful of outcomes at once).
"""

import math

import numpy as np
import pytest

from ibm1013.str import CardAccepted, ColumnLayout, Receiver, Send, SessionConfig, Transmitter
from ibm1013.str import fourofeight as fo
from ibm1013.str.events import CardDelivered, SessionEnded
from ibm1013.theory import Setting
from ibm1013.theory.figures import frame_outcomes

LAYOUT = ColumnLayout.parse("4")
CONFIG = SessionConfig(columns=LAYOUT)
WORDS = np.array([[0x200, 0x100, 0x80, 0x40] + [0] * 76], dtype=np.uint16)  # columns 1 2 3 4: 12 11 0 1
BODY = LAYOUT.encode_records(WORDS)[0]                 # data TL LRC
DATA = BODY[:-2]
FRAME = bytes([fo.IDLE, fo.TL, fo.SOR1]) + BODY


def receiver() -> Receiver:
    """A receiving core after the bid, expecting a record numbered 1."""
    rx = Receiver(CONFIG)
    rx.start()
    rx.receive_data(bytes([fo.IDLE, fo.TL, fo.INQ]))
    assert rx.synchronized
    return rx


def record_outcome(rx: Receiver, frame: bytes, data: bytes = DATA) -> str:
    """What the core made of ``frame`` (sent with ``data``): accepted / wrong / refused / silent /
    stuck."""
    actions = rx.receive_data(frame)
    replies = [a.data for a in actions if isinstance(a, Send)]
    accepted = [a for a in actions if isinstance(a, CardAccepted)]
    if accepted:
        return "accepted" if accepted[0].data == data else "wrong"
    if replies == [bytes([fo.CL, fo.ERR])]:
        return "refused"
    assert not replies, replies
    return "stuck" if rx.state == "record" else "silent"


def hit(frame: bytes, position: int, char: int) -> bytes:
    return frame[:position] + bytes([char]) + frame[position + 1:]


@pytest.mark.parametrize("position, char, outcome", [
    (3, fo.TL, "refused"),            # a data character turned into TL: the record is cut short
    (3, fo.IDLE, "refused"),          # ... into another control pattern
    (3, 0x0F, "refused"),             # ... into a character outside four-of-eight
    (len(FRAME) - 1, 0x00, "refused"),  # the LRC hit
    (2, fo.SOR2, "refused"),          # the SOR turned into the other number: a repeat that differs
    (2, 0x0F, "refused"),             # the SOR unreadable: refused
    (2, fo.INQ, "refused"),           # ... INQ with characters behind it is a record whose SOR was hit
    (2, fo.TEL, "silent"),            # the SOR turned into TEL: an operator call, not a record
    (0, 0x0F, "silent"),              # the IDLE hit: a sequence must follow an idle
    (1, 0x0F, "silent"),              # the leading TL hit
    (1, fo.CL, "silent"),             # ... turned into CL
    (len(FRAME) - 2, 0x0F, "stuck"),  # the closing TL hit: the receiver waits inside the record
])
def test_each_convention_of_the_count(position, char, outcome):
    assert record_outcome(receiver(), hit(FRAME, position, char)) == outcome


def test_a_stuck_receiver_refuses_the_next_frame_whatever_it_carries_then_recovers():
    rx = receiver()
    assert record_outcome(rx, hit(FRAME, len(FRAME) - 2, 0x0F)) == "stuck"
    assert record_outcome(rx, FRAME) == "refused"
    assert record_outcome(rx, FRAME) == "accepted"


def test_a_change_the_lrc_matches_gets_through():
    """Four flips: a data character into another (two) and the LRC by the same pattern (two)."""
    change = DATA[0] ^ fo.CARD_CHARS[0] if DATA[0] != fo.CARD_CHARS[0] else DATA[0] ^ fo.CARD_CHARS[1]
    frame = hit(hit(FRAME, 3, DATA[0] ^ change), len(FRAME) - 1, FRAME[-1] ^ change)
    assert record_outcome(receiver(), frame) == "wrong"


def transmitter() -> Transmitter:
    """A sending core waiting for the acknowledgement of its first record (SOR1)."""
    tx = Transmitter(np.repeat(WORDS, 3, axis=0), CONFIG)
    tx.start()
    tx.receive_data(bytes([fo.CL, fo.IDLE]))
    tx.receive_data(bytes([fo.CL, fo.ACK2]))
    assert tx.state == "send"
    return tx


def reply_outcome(tx: Transmitter, reply: bytes) -> str:
    actions = tx.receive_data(reply)
    if any(isinstance(a, SessionEnded) for a in actions):
        return "ends"
    if any(isinstance(a, CardDelivered) for a in actions):
        return "as_sent"
    return "resend" if any(isinstance(a, Send) for a in actions) else "ignored"


@pytest.mark.parametrize("reply, outcome", [
    (bytes([fo.CL, fo.ACK1]), "as_sent"), (bytes([fo.CL, fo.ERR]), "resend"),
    (bytes([fo.CL, fo.ACK2]), "resend"), (bytes([fo.CL, 0x0F]), "resend"),
    (bytes([fo.CL, fo.TEL]), "ignored"), (bytes([fo.CL, fo.IDLE]), "ignored"),
    (bytes([0x0F, fo.ACK1]), "ignored"), (bytes([fo.CL, fo.EOT]), "ends"),
])
def test_each_convention_of_the_replies(reply, outcome):
    assert reply_outcome(transmitter(), reply) == outcome


def noisy(frame: bytes, ber: float, count: int, rng: np.random.Generator) -> list[bytes]:
    bits = np.unpackbits(np.frombuffer(frame, dtype=np.uint8))
    flips = rng.random((count, len(bits))) < ber
    return [bytes(row) for row in np.packbits(bits ^ flips, axis=1)]


def assert_counts_match(counts: dict[str, int], expected: dict[str, float], trials: int) -> None:
    """Each count inside the 99.9 % interval of its binomial around the theory's chance."""
    for name, p in expected.items():
        sd = math.sqrt(trials * p * (1 - p))
        assert abs(counts.get(name, 0) - trials * p) <= 3.29 * sd + 1, (name, counts, trials * p)


def random_frames(count: int, rng: np.random.Generator) -> list[tuple[bytes, bytes]]:
    """``(frame, data)`` of records whose characters are drawn evenly from the 63 the layout sends
    (the theory's assumption when it is given no deck)."""
    chars = np.frombuffer(fo.CARD_CHARS, dtype=np.uint8)
    words = np.zeros((count, 80), dtype=np.uint16)
    words[:, :4] = fo.CHAR_TO_WORD[rng.choice(chars, size=(count, 4))]
    return [(bytes([fo.IDLE, fo.TL, fo.SOR1]) + body, body[:-2]) for body in LAYOUT.encode_records(words)]


def test_record_outcomes_under_noise_are_the_theory_s():
    trials, ber = 8000, 0.02
    rng = np.random.default_rng(46)
    counts: dict[str, int] = {}
    for frame, data in random_frames(trials, rng):
        outcome = record_outcome(receiver(), noisy(frame, ber, 1, rng)[0], data)
        counts[outcome] = counts.get(outcome, 0) + 1
    theory = frame_outcomes(Setting(CONFIG, ber=ber))
    names = ("accepted", "wrong", "refused", "silent", "stuck")
    expected = {name: theory[f"record_{name}"] for name in names}
    assert abs(sum(expected.values()) - 1.0) < 1e-12
    assert_counts_match(counts, expected, trials)


def test_a_stuck_receiver_under_noise_is_the_theory_s():
    """After a frame whose closing TL was hit, the next noisy frame is refused unless it holds no TL."""
    trials, ber = 3000, 0.06
    rng = np.random.default_rng(1961)
    counts: dict[str, int] = {}
    stuck_frame = hit(FRAME, len(FRAME) - 2, 0x0F)
    for frame, data in random_frames(trials, rng):
        rx = receiver()
        assert record_outcome(rx, stuck_frame) == "stuck"
        outcome = record_outcome(rx, noisy(frame, ber, 1, rng)[0], data)
        key = "stuck_silent" if outcome == "stuck" else f"stuck_{outcome}"
        counts[key] = counts.get(key, 0) + 1
    theory = frame_outcomes(Setting(CONFIG, ber=ber))
    names = ("stuck_refused", "stuck_silent")
    assert_counts_match(counts, {name: theory[f"record_{name}"] for name in names}, trials)


def test_reply_outcomes_under_noise_are_the_theory_s():
    trials, ber = 4000, 0.04
    rng = np.random.default_rng(1013)
    counts: dict[str, int] = {}
    for reply in noisy(bytes([fo.CL, fo.ACK1]), ber, trials, rng):
        outcome = reply_outcome(transmitter(), reply)
        counts[outcome] = counts.get(outcome, 0) + 1
    theory = frame_outcomes(Setting(CONFIG, ber=ber), reply_codes=(fo.ACK1,))
    expected = {name: theory[f"reply_{name}"] for name in ("as_sent", "resend", "ignored", "ends")}
    assert_counts_match(counts, expected, trials)
