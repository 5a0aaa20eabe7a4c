"""STR core, plain bytes in and out: the receiver's synchronize-mode cycling (a transmitter started
later still finds it; nobody there ends in a bounded time) and ``Transmitter.abort``."""

from __future__ import annotations

import math

import numpy as np
import pytest

from emulator.card import Card
from ibm1013.str import (
    CancelTimer,
    CardAccepted,
    CardFailed,
    Receiver,
    Send,
    SessionConfig,
    SessionEnded,
    StartTimer,
    Transmitter,
)
from ibm1013.str import fourofeight as fo

SYNC_END = bytes([fo.CL, fo.IDLE])


def deck(n: int, seed: int = 0) -> list[Card]:
    rng = np.random.default_rng(seed)
    chars = [w for w in range(4096) if fo.WORD_TO_CHAR[w]]
    return [Card(rng.choice(chars, size=80).tolist()) for _ in range(n)]


class Clocked:
    """Both cores on a virtual clock: a Send takes its characters' time on the line and arrives that
    much later; timers count from when the preceding Send has left.  ``tx_at``: when the transmitter
    is switched on (its bytes arriving before that are lost)."""

    def __init__(self, tx: Transmitter, rx: Receiver, *, tx_at: float = 0.0) -> None:
        self.tx, self.rx, self.tx_at = tx, rx, tx_at
        self.char_s = 8.0 / rx.config.bit_rate
        self.queue: list[tuple[float, int, str, str, object]] = []  # (time, seq, side, kind, payload)
        self.seq = 0
        self.timers: dict[tuple[str, str], float] = {}
        self.free = {"tx": 0.0, "rx": 0.0}
        self.events: list[tuple[float, str, object]] = []

    def push(self, at: float, side: str, kind: str, payload: object) -> None:
        self.seq += 1
        self.queue.append((at, self.seq, side, kind, payload))

    def handle(self, side: str, actions: list, now: float) -> None:
        left = now
        for a in actions:
            if isinstance(a, Send):
                start = max(now, self.free[side])
                left = self.free[side] = start + len(a.data) * self.char_s
                self.push(left, "rx" if side == "tx" else "tx", "data", a.data)
            elif isinstance(a, StartTimer):
                self.timers[(side, a.name)] = left + a.seconds
            elif isinstance(a, CancelTimer):
                self.timers.pop((side, a.name), None)
            else:
                self.events.append((now, side, a))

    def run(self, until: float = 600.0) -> None:
        self.handle("rx", self.rx.start(), 0.0)
        self.push(self.tx_at, "tx", "start", None)
        while True:
            nxt = min(self.queue, default=None)
            tmr = min(self.timers.items(), key=lambda kv: kv[1], default=None)
            if nxt is None and tmr is None:
                return
            if tmr is not None and (nxt is None or tmr[1] < nxt[0]):
                (side, name), now = tmr
                del self.timers[(side, name)]
                core = self.tx if side == "tx" else self.rx
                self.handle(side, core.timer_expired(name), now)
            else:
                self.queue.remove(nxt)
                now, _, side, kind, payload = nxt
                if kind == "start":
                    self.handle("tx", self.tx.start(), now)
                elif side == "rx":
                    self.handle("rx", self.rx.receive_data(payload), now)
                elif self.tx.state != "new":
                    self.handle("tx", self.tx.receive_data(payload), now)
            assert now < until, "did not settle"

    def of(self, kind: type) -> list:
        return [e for _, _, e in self.events if isinstance(e, kind)]


def test_receiver_cycles_synchronize_mode_until_the_transmitter_bids():
    rx = Receiver()
    first = rx.start()
    sync = first[0]
    assert isinstance(sync, Send) and sync.data.endswith(SYNC_END)
    assert StartTimer("sync", 3.0) in first and StartTimer("idle", 20.0) in first
    again = rx.timer_expired("sync")
    assert again == [Send(sync.data), StartTimer("sync", 3.0)] and rx.sync_cycles == 2
    assert rx.receive_data(bytes([fo.IDLE]) + SYNC_END) == []  # the far end's end-of-idle: go on
    assert not rx.synchronized
    out = rx.receive_data(bytes([fo.IDLE, fo.TL, fo.INQ]))
    assert out[0] == Send(bytes([fo.CL, fo.ACK2])) and out[-1] == CancelTimer("sync")
    assert rx.synchronized and rx.timer_expired("sync") == []


def test_both_ends_starting_together_synchronize_in_the_first_cycle():
    cards = deck(3)
    run = Clocked(Transmitter(cards), Receiver())
    run.run()
    assert [a.card for a in run.of(CardAccepted)] == cards
    assert run.rx.sync_cycles == 1 and run.tx.retransmissions == 0
    assert run.rx.ended.outcome == "complete" and run.tx.ended.outcome == "complete"


def test_a_transmitter_switched_on_later_still_hears_an_end_of_idle():
    cards = deck(3, seed=1)
    for late in (2.0, 7.0, 12.5):  # inside the first listen, past it, several cycles on
        run = Clocked(Transmitter(cards), Receiver(), tx_at=late)
        run.run()
        assert [a.card for a in run.of(CardAccepted)] == cards, late
        assert run.rx.ended.outcome == "complete" and run.tx.ended.outcome == "complete"
        cycle = (run.rx.config.sync_idles + 2) * run.char_s + 3.0
        assert run.rx.sync_cycles == 1 + math.ceil(late / cycle) and run.rx.synchronized


def test_a_short_session_start_bound_still_offers_end_of_idle_three_times():
    # a receiver allowed 2 s must not listen the full 3 s: its one end-of-idle may have gone out
    # before the transmitter was listening (a serial endpoint that opened its port a moment later)
    for side in (Receiver(SessionConfig(idle_timeout_s=2.0)), Transmitter(deck(1), SessionConfig(
            idle_timeout_s=2.0))):
        first = side.start()
        timers = [a for a in first if isinstance(a, StartTimer) and a.name in ("sync", "reply")]
        assert timers and timers[0].seconds == pytest.approx(2.0 / 3)
    assert SessionConfig(idle_timeout_s=20.0).sync_listen_s == 3.0  # the documented listen


def test_without_a_transmitter_the_receiver_gives_up_in_bounded_time_saying_no_peer():
    cfg = SessionConfig(idle_timeout_s=20.0)
    run = Clocked(Transmitter(deck(1)), Receiver(cfg), tx_at=1e9)
    run.queue.clear()  # the transmitter never comes
    run.handle("rx", run.rx.start(), 0.0)
    ends: list[SessionEnded] = []
    while run.timers:
        (side, name), now = min(run.timers.items(), key=lambda kv: kv[1])
        del run.timers[(side, name)]
        out = run.rx.timer_expired(name)
        run.handle(side, out, now)
        ends += [e for e in out if isinstance(e, SessionEnded)]
    assert len(ends) == 1 and ends[0].outcome == "no data"
    assert ends[0].message.startswith("no peer") and "20 s" in ends[0].message
    assert now == pytest.approx((cfg.sync_idles + 2) * 8 / cfg.bit_rate + 20.0)  # the idle timer bounds it
    assert run.rx.sync_cycles == 5  # 0, 4.3, 8.6, 12.9, 17.2 s (1.3 s of idles + 3 s listening)
    assert run.rx.timer_expired("sync") == [] and run.rx.timer_expired("idle") == []


def _failing_card_one(tx: Transmitter) -> list:
    """Drive ``tx`` until it gives card 1 up; return the actions of that step."""
    tx.start()
    assert tx.receive_data(SYNC_END)[0].data == bytes([fo.IDLE, fo.TL, fo.INQ])
    tx.receive_data(bytes([fo.CL, fo.ACK2]))
    for _ in range(tx.config.max_retries + 1):
        tx.receive_data(bytes([fo.CL, fo.ERR]))
    return tx.receive_data(bytes([fo.CL, fo.ACK2]))  # the bid after the retries is answered


def test_a_given_up_card_ends_the_session_by_default():
    """The default policy (``on_give_up`` ``stop``): the core itself sends ``TL EOT`` as it gives
    the card up, so an operator's abort after it has nothing left to do."""
    tx = Transmitter(deck(3))
    step = _failing_card_one(tx)
    assert step[0] == CardFailed(1, step[0].reason)
    assert Send(bytes([fo.IDLE, fo.TL, fo.EOT])) in step and tx.state == "abort"
    assert tx.abort("operator stop") == []


def test_abort_after_a_failed_card_ends_both_ends_at_once():
    tx = Transmitter(deck(3), SessionConfig(on_give_up="skip"))  # the driver decides: it aborts
    step = _failing_card_one(tx)
    assert step[0] == CardFailed(1, step[0].reason)
    out = tx.abort("card 1 given up")
    assert out == [Send(bytes([fo.IDLE, fo.TL, fo.EOT])), StartTimer("reply", 3.0)]
    assert tx.ended is None and tx.state == "abort" and tx.abort("again") == []

    rx = Receiver()
    rx.start()
    rx.receive_data(bytes([fo.IDLE, fo.TL, fo.INQ]))
    reply = rx.receive_data(out[0].data)  # the receiver ends now, not after its idle timeout
    assert reply[0] == Send(bytes([fo.CL, fo.EOT])) and rx.ended is not None

    done = tx.receive_data(reply[0].data)
    assert done[-1] is tx.ended and tx.ended.outcome == "aborted"
    assert tx.ended.resume_at == 1 and "card 1 given up" in tx.ended.message
    assert CancelTimer("reply") in done and tx.abort("late") == []


def test_abort_unanswered_ends_after_one_reply_timeout():
    tx = Transmitter(deck(2))
    tx.start()
    tx.receive_data(SYNC_END)
    tx.receive_data(bytes([fo.CL, fo.ACK2]))
    tx.receive_data(bytes([fo.CL, fo.ACK1]))  # card 1 through, card 2 on the line
    assert tx.abort("operator stop")[0].data == bytes([fo.IDLE, fo.TL, fo.EOT])
    assert tx.receive_data(bytes([fo.CL, fo.ACK2])) == []  # late replies change nothing now
    out = tx.timer_expired("reply")
    assert out[-1].outcome == "aborted" and out[-1].resume_at == 2 and not out[-1].clean
    assert "operator stop" in out[-1].message


def test_abort_before_start_does_nothing():
    tx = Transmitter(deck(1))
    assert tx.abort("why") == [] and tx.state == "new"


def test_receiver_abort_stops_a_transmitter_mid_deck():
    """``Receiver.abort`` (the operator stops the receiving end) answers with ``CL EOT``; a
    transmitter waiting for the acknowledgement of a record ends ``aborted by receiver`` at once."""
    tx, rx = Transmitter(deck(5)), Receiver()
    assert rx.abort("too early") == []  # not started: nothing to tell
    to_rx, to_tx = tx.start(), rx.start()
    for _ in range(6):  # exchange until card 2 is on its way
        data_rx = b"".join(a.data for a in to_rx if isinstance(a, Send))
        data_tx = b"".join(a.data for a in to_tx if isinstance(a, Send))
        to_tx = rx.receive_data(data_rx) if data_rx else []
        to_rx = tx.receive_data(data_tx) if data_tx else []
        if rx.cards_accepted >= 2:
            break
    assert rx.cards_accepted >= 2 and tx.state == "send"
    out = rx.abort("stopped by the operator")
    assert [a.data for a in out if isinstance(a, Send)] == [bytes([fo.CL, fo.EOT])]
    ended = [e for e in out if isinstance(e, SessionEnded)]
    assert ended[0].outcome == "aborted" and ended[0].resume_at == rx.next_card
    assert rx.abort("again") == []
    got = tx.receive_data(bytes([fo.CL, fo.EOT]))
    assert [e.outcome for e in got if isinstance(e, SessionEnded)] == ["aborted by receiver"]
