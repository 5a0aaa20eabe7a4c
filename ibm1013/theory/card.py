"""One card from its first record to its end, as STR does it: the expected time, the chances.

The sender sends a record and waits.  What follows each *attempt* depends on what the receiver made
of the frame (:mod:`ibm1013.theory.frames`) and what the sender made of the reply:

=================================  =======================================  ========================
receiver                           sender                                   the next attempt starts
=================================  =======================================  ========================
accepts, answers ``CL ACKn``       reads it: the card is delivered          (next card) ``τ_reply``
refuses, answers ``CL ERR``        reads ``ERR`` or garble: sends again      ``τ_reply``
answers, but the reply is hit      ignores it; the timer runs out           ``τ_ignored``
stays silent (or stuck)            the timer runs out                        ``τ_silent``
=================================  =======================================  ========================

with ``c`` the time of one character (8 bits / bit rate), ``L`` the frame's characters,
``d`` the propagation each way, ``h`` the turnaround (half duplex only), ``A`` the reply timer:

* ``τ_reply = (L + 2) c + 2 d + 2 h`` — the frame, the reply, both delays (and both turnarounds);
* ``τ_silent = L c + A`` — the timer starts when the frame's last bit has left;
* ``τ_ignored = L c + A + h`` — as silent, but the receiver turned the pair round to answer.

A card accepted once is *accepted* for good: later attempts are repeats, answered ``ACK`` when they
arrive clean.  After ``max_retries`` retransmissions the sender bids (``IDLE TL INQ``, answered
``CL ACK2``, up to ``sync_retries`` more times) and gives the card up: *failed* if it was never
accepted, *unconfirmed* if only its acknowledgements were lost.

The state of an attempt is (attempt number, receiver stuck or not, card accepted: no / right / wrong)
and, with bursts, the noise states of both directions (the data and reply directions are separate
chains).  The attempts are at most ``max_retries + 1``, so the chance mass is simply pushed forward
through them — no matrix inverse — for all settings of a batch at once.  With bursts, where a card
ends decides where the next begins: the long-run share of each noise state at a card's start is the
stationary vector of that card-to-card chain, and every figure is weighted by it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ibm1013.theory.frames import BidFrame, RecordFrame, Reply

NOT, RIGHT, WRONG = 0, 1, 2
"""Whether the receiving end has accepted the card: not yet, with the right data, with wrong data."""


@dataclass
class Times:
    """Seconds from one frame's start to the next frame's start, each ``(n,)``."""

    reply: np.ndarray
    silent: np.ndarray
    ignored: np.ndarray
    punch: np.ndarray
    """Serial card mechanics: the acknowledgement of a card accepted now waits for its punch."""


@dataclass
class Batch:
    """Everything the chain needs for ``n`` settings with the same retry limits and noise states."""

    record: RecordFrame
    bid: BidFrame
    ack: Reply
    err: Reply
    bid_answer: np.ndarray     # CL ACK2 read as sent, (n, Sr, Sr)
    reply_any: np.ndarray      # a reply sent, whatever happens to it
    record_times: Times
    bid_times: Times
    max_retries: int
    sync_retries: int


MOMENTS = 5
"""Channels carried with the chance mass: P, E[T·], E[T²·], E[K·], E[K²·] — T the card's seconds so
far, K its retransmissions so far — so the theory gives the spread of a card's time and
retransmissions too (the width of the interval a simulation of ``n`` cards should fall in)."""


class _Totals:
    """Per start state ``(MOMENTS, n, J)`` sums over the cards that end each way."""

    def __init__(self, n: int, j: int, sd: int, sr: int) -> None:
        z = np.zeros((MOMENTS, n, j))
        self.every, self.delivered = z.copy(), z.copy()
        self.given_up, self.failed = z[0].copy(), z[0].copy()
        self.wrong, self.ended = z[0].copy(), z[0].copy()
        self.next_start = np.zeros((n, j, sd, sr))  # noise states where the next card begins

    def finish(self, mass: np.ndarray, accepted: int, given_up: bool) -> None:
        total = mass.sum(axis=(3, 4))
        self.every += total
        self.next_start += mass[0]
        if given_up:
            self.given_up += total[0]
            if accepted == NOT:
                self.failed += total[0]
        else:
            self.delivered += total
        if accepted == WRONG:
            self.wrong += total[0]

    def end(self, mass: np.ndarray) -> None:
        """The session ends at this card (it is neither delivered nor given up)."""
        total = mass.sum(axis=(3, 4))
        self.every += total
        self.ended += total[0]


def _step(mass: np.ndarray, seconds: np.ndarray, retransmission: int) -> np.ndarray:
    """Moments after a step of ``seconds`` (``(n,)``) and ``retransmission`` (0 or 1) more, given
    ``mass`` already moved through the step's chances."""
    p, t1, t2, k1, k2 = mass
    tau = seconds[:, None, None, None]
    out = np.stack([p, t1 + tau * p, t2 + 2 * tau * t1 + tau * tau * p, k1, k2])
    if retransmission:
        out[3] = k1 + p
        out[4] = k2 + 2 * k1 + p
    return out


_Mass = dict[tuple[int, int], np.ndarray]
"""Chance mass by ``(stuck, acc)``: 1 when the attempt is stuck, and how the card was accepted
so far (``NOT``, ``RIGHT`` or ``WRONG``)."""


def _both(mass: np.ndarray, data: np.ndarray, answer: np.ndarray) -> np.ndarray:
    """Mass after a frame (``data``) and its reply (``answer``)."""
    result: np.ndarray = np.einsum("mnjab,nac,nbd->mnjcd", mass, data, answer)
    return result


def _data_only(mass: np.ndarray, data: np.ndarray) -> np.ndarray:
    result: np.ndarray = np.einsum("mnjab,nac->mnjcb", mass, data)
    return result


def _reply_only(mass: np.ndarray, answer: np.ndarray) -> np.ndarray:
    result: np.ndarray = np.einsum("mnjab,nbd->mnjad", mass, answer)
    return result


def _add(out: _Mass, key: tuple[int, int], value: np.ndarray) -> None:
    out[key] = out[key] + value if key in out else value


def _attempt(b: Batch, mass: _Mass, t: _Totals, again: int) -> _Mass:
    """One attempt of every state in ``mass``; returns the mass that needs another (``again``: 1 if
    that is a retransmission, 0 if it is the bid after the retry limit)."""
    rec, tm = b.record, b.record_times
    nxt: _Mass = {}
    for (stuck, acc), m in mass.items():
        if stuck:
            _refused(b, _data_only(m, rec.stuck_refused), acc, nxt, t, again)
            _add(nxt, (1, acc), _step(_data_only(m, rec.stuck_silent), tm.silent, again))
            continue
        for data, got in ((rec.accepted, RIGHT), (rec.wrong, WRONG)):
            if acc == NOT or got == RIGHT:  # accepted now, or a clean repeat: answered ACK
                now = got if acc == NOT else acc
                answered = tm.reply + tm.punch if acc == NOT else tm.reply  # a repeat: not punched again
                t.finish(_step(_both(m, data, b.ack.as_sent), answered, 0), now, False)
                _add(nxt, (0, now), _step(_both(m, data, b.ack.resend), answered, again))
                _add(nxt, (0, now), _step(_both(m, data, b.ack.ignored), tm.ignored, again))
                t.end(_step(_both(m, data, b.ack.ends), tm.reply, 0))
            else:  # a damaged repeat that passes the checks: refused (it differs from the card)
                _refused(b, _data_only(m, data), acc, nxt, t, again)
        _refused(b, _data_only(m, rec.refused), acc, nxt, t, again)
        _add(nxt, (0, acc), _step(_data_only(m, rec.silent), tm.silent, again))
        _add(nxt, (1, acc), _step(_data_only(m, rec.stuck), tm.silent, again))
    return nxt


def _refused(b: Batch, m: np.ndarray, acc: int, nxt: _Mass, t: _Totals, again: int) -> None:
    """``m`` (after the data frame) answered ``CL ERR``."""
    tm, err = b.record_times, b.err
    _add(nxt, (0, acc), _step(_reply_only(m, err.as_sent + err.resend), tm.reply, again))
    _add(nxt, (0, acc), _step(_reply_only(m, err.ignored), tm.ignored, again))
    t.end(_step(_reply_only(m, err.ends), tm.reply, 0))
    false_ack = _step(_reply_only(m, err.false_ack), tm.reply, 0)
    if acc == NOT:
        t.end(false_ack)  # the sender moves on with a refused card: a sequence fault
    else:
        t.finish(false_ack, acc, False)


def _give_up(b: Batch, mass: _Mass, t: _Totals) -> None:
    """Bids after the retry limit, until one is answered (the card is given up) or none is."""
    bid, tm = b.bid, b.bid_times
    for attempt in range(b.sync_retries + 1):
        again = int(attempt < b.sync_retries)
        nxt: _Mass = {}
        for (stuck, acc), m in mass.items():
            if stuck:
                _add(nxt, (0, acc), _step(_both(m, bid.stuck_refused, b.reply_any), tm.ignored, again))
                _add(nxt, (1, acc), _step(_data_only(m, bid.stuck_silent), tm.silent, again))
                continue
            t.finish(_step(_both(m, bid.answered, b.bid_answer), tm.reply, 0), acc, True)
            _add(nxt, (0, acc), _step(_both(m, bid.answered, b.reply_any - b.bid_answer), tm.ignored, again))
            _add(nxt, (0, acc), _step(_data_only(m, bid.silent), tm.silent, again))
            _add(nxt, (1, acc), _step(_data_only(m, bid.stuck), tm.silent, again))
        mass = nxt
    for m in mass.values():
        t.end(m)  # no bid answered: the session ends


def run(b: Batch) -> _Totals:
    """Push one card's chance mass through its attempts, for every start state of the noise."""
    n, sd = b.record.accepted.shape[:2]
    sr = b.ack.as_sent.shape[1]
    j = sd * sr
    start = np.zeros((MOMENTS, n, j, sd, sr))
    start[0, :, np.arange(j), np.arange(j) // sr, np.arange(j) % sr] = 1.0
    t = _Totals(n, j, sd, sr)
    mass = {(0, NOT): start}
    for attempt in range(b.max_retries + 1):
        mass = _attempt(b, mass, t, int(attempt < b.max_retries))
    _give_up(b, mass, t)
    return t


def long_run(t: _Totals) -> np.ndarray:
    """The share ``(n, J)`` of cards that begin in each noise state, in the long run."""
    n, j = t.ended.shape
    if j == 1:
        return np.ones((n, 1))
    k = t.next_start.reshape(n, j, j)
    k = k / np.maximum(k.sum(axis=2, keepdims=True), 1e-300)
    a = np.transpose(k, (0, 2, 1)) - np.eye(j)
    a[:, -1, :] = 1.0
    rhs = np.zeros((n, j))
    rhs[:, -1] = 1.0
    share = np.linalg.solve(a, rhs[..., None])[..., 0]
    result: np.ndarray = np.clip(share, 0.0, None)
    return result
