"""The settings of a transfer in, the theory's figures out.

:class:`Setting` holds what shapes the figures — the circuit (duplex, turnaround, propagation,
noise) and the STR session (bit rate, columns and column binary, idles before a sequence, timers,
retry limits, what a card given up does) — and is made from a transfer's configuration with
:meth:`Setting.of`.  :func:`figures_many`
works out thousands at once (batched by what must match: noise states and retry limits);
:func:`figures` one.

Covered: fixed widths and masks, with or without column binary, full or half duplex, independent
errors and bursts, card mechanics ``none`` (the line sets the pace) and ``serial`` (each card read
after the last was done, each acknowledgement after its punch: two more times a card).  Not covered
(a :class:`TheoryError` says so): ``--columns auto`` (each card's record has its own length), the
``overlap`` pipeline, a line cut.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

import numpy as np

from ibm1013.str import fourofeight as fo
from ibm1013.str.config import GIVE_UP_STOP, SessionConfig
from ibm1013.str.layout import ColumnLayout
from ibm1013.theory import frames, noise, undetected
from ibm1013.theory.card import Batch, Times, long_run, run

if TYPE_CHECKING:  # the settings' type only: the theory imports no SimPy
    from ibm1013.sim.transfer import TransferConfig

MAX_FLIPS = 32
"""Flips counted exactly in the undetected figure under independent errors; the rest is bounded."""


class TheoryError(ValueError):
    """A setting the theory does not cover (one line saying which and why)."""


class TooSlow(TheoryError):
    """A line too slow for STR's timers (:meth:`Setting._check_timers`): a simulated or real session
    fails there too, so ``simulate`` warns of it."""


@dataclass(frozen=True)
class Setting:
    """One transfer's settings, as the theory needs them: the circuit's here, the rest — bit rate,
    columns, idles, timers, retry limits — the STR session's (:class:`SessionConfig`)."""

    session: SessionConfig = SessionConfig()
    duplex: str = "full"
    turnaround_s: float = 0.2
    propagation_s: float = 0.01
    ber: float = 0.0
    burst: tuple[float, float, float] | None = None
    read_s: float = 0.0
    """Serial card mechanics: the reader's time for a card (read only once the last was done)."""
    punch_s: float = 0.0
    """... and the punch's (the card's acknowledgement waits for it)."""

    @property
    def bit_rate(self) -> int:
        return self.session.bit_rate

    @property
    def layout(self) -> ColumnLayout:
        return self.session.columns

    @classmethod
    def of(cls, config: TransferConfig) -> Setting:
        """From a :class:`~ibm1013.sim.transfer.TransferConfig` (its ``session``, ``line`` and
        ``mechanics``); a :class:`TheoryError` for what the theory does not cover."""
        line, session, mech = config.line, config.session, config.mechanics
        if mech.mode not in ("none", "serial"):
            raise TheoryError(f"the theory covers card mechanics none and serial, not {mech.mode!r} "
                              f"(a pipeline's pace is a race between reader, line and punch)")
        if line.cut_at is not None:
            raise TheoryError("the theory covers a line that stays up, not a cut (--cut-at)")
        burst = tuple(line.burst) if line.burst is not None and line.burst[0] > 0 else None
        read = punch = 0.0
        if mech.mode == "serial" and session.columns.mode != "auto":
            last = int(session.columns.indices.max()) + 1  # columns up to the last one sent pass
            read = mech.feed_s + last / mech.read_columns_per_s
            punch = mech.punch_feed_s + last / mech.punch_columns_per_s
        setting = cls(session, line.duplex, line.turnaround_s, line.propagation_s, line.ber,
                      burst, read, punch)  # type: ignore[arg-type]
        setting.check()
        return setting

    def check(self) -> None:
        if self.layout.mode == "auto":
            raise TheoryError("the theory needs one record length: give --columns N or a mask, "
                              "not auto")
        if not 0.0 <= self.ber <= 1.0 or math.isnan(self.ber):
            raise TheoryError(f"bit error rate must be between 0 and 1, not {self.ber}")
        self._check_timers()

    def _check_timers(self) -> None:
        """The line must be fast enough for STR's timers, as the chain counts on it (docs/str.md §2):

        * the sender's reply timer (``ack_timeout_s``, 3 s) runs from a frame's last bit; a reply is 2
          characters, and both delays (and both turnarounds, half duplex) and the punch come first;
        * the receiving terminal's idle timer (``idle_timeout_s``, 20 s) runs from its last reply;
          the next record must have arrived whole before it runs out (after the reply's delay, the
          turnaround, the reader's card and the record's characters), else the receiving end leaves
          and no bid is answered again: the session cannot get its first card through.
        """
        session, char = self.session, 8 / self.bit_rate
        turn = self.turnaround_s if self.duplex == "half" else 0.0
        delays = 2 * self.propagation_s
        reply = 2 * char + delays + 2 * turn
        timer = session.ack_timeout_s
        if reply >= timer:
            raise TooSlow(
                f"at {self.bit_rate} bit/s a reply (2 characters) takes {2 * char:.3g} s, and "
                f"{reply:.3g} s with the line's delays: past the {timer:g} s reply timer, so no reply "
                f"comes back in time (give --bit-rate "
                f"{_slowest(16, timer - delays - 2 * turn)} or more)")
        if reply + self.punch_s >= timer:
            raise TheoryError(f"the punch ({self.punch_s:.3g} s a card) holds the acknowledgement past "
                              f"the {timer:g} s reply timer: the theory counts on it coming back in time")
        idle = session.idle_timeout_s
        record = self.record_chars * char + delays + turn + self.read_s
        if record >= idle:
            raise TooSlow(
                f"at {self.bit_rate} bit/s a record ({self.record_chars} characters) takes "
                f"{record:.4g} s to arrive: past the receiving terminal's {idle:g} s idle timer, which "
                f"ends the session before the first card is in, so no session can start (give "
                f"--bit-rate {_slowest(8 * self.record_chars, idle - delays - turn - self.read_s)} "
                f"or more, or fewer --columns)")

    @cached_property
    def data_chars(self) -> int:
        return self.layout.max_chars

    @cached_property
    def record_chars(self) -> int:
        """Characters of a record frame: idles, ``TL SORn``, the data, ``TL LRC``."""
        return self.session.pre_idles + self.data_chars + 4


def _slowest(bits: int, seconds: float) -> int:
    """The slowest whole bit rate that sends ``bits`` in less than ``seconds``."""
    return math.floor(bits / seconds) + 1 if seconds > 0 else 99_999


@dataclass
class Figures:
    """The theory of one setting.  Per card, in the long run."""

    record_clean: float
    """P(a record arrives exactly as sent)."""
    record_detected: float
    """P(the receiving end refuses it or does not see it: a retransmission follows)."""
    record_undetected: float
    """P(it is accepted with wrong data)."""
    record_undetected_bound: float
    """What the flips beyond those counted could add to ``record_undetected`` (independent errors)."""
    reply_clean: float
    """P(``CL ACKn`` is read as sent)."""
    reply_detected: float
    """P(it is lost to the sender: not read as a reply, or as one that asks for the record again)."""
    reply_undetected: float
    """P(it is read as another reply that ends something: ``CL EOT``)."""
    seconds_per_card: float
    """Expected seconds from a card's first record to the next card's (turnarounds included)."""
    seconds_per_card_sd: float
    """Their standard deviation."""
    cards_per_minute: float
    """Cards delivered per minute: 60 × P(delivered) / seconds per card."""
    cards_per_minute_spread: float
    """Its spread per card: cards per minute measured over ``n`` cards with independent errors has
    the standard error ``spread / √n`` (the delta method for the ratio of two sums)."""
    retransmissions_per_card: float
    """Records sent again and bids repeated, per card (as the sender counts ``retransmissions``)."""
    retransmissions_per_card_sd: float
    """Their standard deviation."""
    give_up: float
    """P(the card is given up after the retry limit)."""
    failed: float
    """P(it is given up and the far end lacks it)."""
    undetected_per_million: float
    """Cards accepted with wrong data, per million cards sent."""
    session_end: float
    """P(the session ends at this card: ``CL EOT`` read, a false ``ACK``, no bid answered — and, when
    the session is set to stop at a card given up (``on_give_up`` ``stop``), the card given up; the
    other figures are those of the cards a session that goes on sends)."""
    clean_cards_per_minute: float
    """The same line without noise (the timing arithmetic of ``docs/ibm1013.md`` §2)."""

    @property
    def undetected_meaningful(self) -> bool:
        """Whether the undetected figure means something: what the flips beyond those counted could
        add (``record_undetected_bound``) is under a hundredth of it.  On a very noisy line (BER 0.05
        and up) the bound nears 1 while the counted figure is tiny: it is then no figure at all."""
        return self.record_undetected_bound <= 0.01 * self.record_undetected

    def to_dict(self) -> dict[str, float]:
        """The figures by name, ready for JSON: cards per minute to three decimals and seconds to six
        (as ``simulate --json`` gives its own)."""
        out: dict[str, float] = asdict(self)
        for name in ("cards_per_minute", "cards_per_minute_spread", "clean_cards_per_minute"):
            out[name] = round(out[name], 3)
        for name in ("seconds_per_card", "seconds_per_card_sd"):
            out[name] = round(out[name], 6)
        return out

    def _repr_html_(self) -> str:
        """The figures as an HTML table, one row a figure (Jupyter shows it).

        >>> "<th>cards_per_minute</th>" in Figures(*[0.0] * 18)._repr_html_()
        True
        """
        rows = "\n".join(f"<tr><th>{name}</th><td>{value:.6g}</td></tr>"
                         for name, value in self.to_dict().items())
        return f'<table class="ibm1013-figures">\n{rows}\n</table>'


PROBABILITIES = ("record_clean", "record_detected", "record_undetected", "record_undetected_bound",
                 "reply_clean", "reply_detected", "reply_undetected", "give_up", "failed", "session_end")
"""The figures that are chances: kept within 0 and 1."""


def figures(setting: Setting, *, cards: int | None = None, deck: np.ndarray | None = None) -> Figures:
    """The figures of one setting; ``cards``: the deck's length (a finite deck's cards per minute:
    the last card has no turnaround after it), ``deck``: its records' data characters ``(n, N)`` (the
    undetected figure with each position's characters as often as in those records; default: every
    data character of the layout equally often)."""
    return figures_many([setting], cards=cards, deck=deck)[0]


def figures_many(settings: list[Setting], *, cards: int | None = None,
                 deck: np.ndarray | None = None) -> list[Figures]:
    """The figures of many settings, batched."""
    for s in settings:
        s.check()
    groups: dict[tuple[bool, int, int, int], list[int]] = {}
    for i, s in enumerate(settings):
        key = (s.burst is not None, s.session.max_retries, s.session.sync_retries, s.session.pre_idles)
        groups.setdefault(key, []).append(i)
    out: list[Figures | None] = [None] * len(settings)
    for index in groups.values():
        batch = [settings[i] for i in index]
        for i, f in zip(index, _batch(batch, cards, deck), strict=True):
            out[i] = f
    return out  # type: ignore[return-value]


def _times(s: list[Setting], chars: np.ndarray) -> Times:
    c = np.array([8.0 / x.bit_rate for x in s])
    d = np.array([x.propagation_s for x in s])
    h = np.array([x.turnaround_s if x.duplex == "half" else 0.0 for x in s])
    a = np.array([x.session.ack_timeout_s for x in s])
    punch = np.array([x.punch_s for x in s])
    return Times((chars + 2) * c + 2 * d + 2 * h, chars * c + a, chars * c + a + h, punch)


def _bid_times(s: list[Setting], pre_idles: int) -> Times:
    """The bid's times: nothing is punched when it is answered."""
    times = _times(s, np.full(len(s), pre_idles + 2.0))
    times.punch = np.zeros(len(s))
    return times


@lru_cache(maxsize=16)
def _mix(layout: ColumnLayout) -> np.ndarray:
    table = undetected.valid_table(layout.valid_chars)
    result: np.ndarray = table / table.sum()
    return result


def _wrong(s: list[Setting], m: np.ndarray, deck: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Accepted-with-wrong-data matrices ``(n, S, S)`` and a bound on what the flips beyond those
    counted could add."""
    n, states = len(s), m.shape[-1]
    wrong = np.zeros((n, states, states))
    bound = np.zeros(n)
    if states == 2:
        for i, x in enumerate(s):
            wrong[i], bound[i] = _wrong_bursts(x, m[:, i], min(MAX_FLIPS, 8 * (x.data_chars + 1)))
        return wrong, bound
    layouts: dict[tuple[int, bytes], list[int]] = {}  # settings alike but for the line share counts
    for i, x in enumerate(s):
        layouts.setdefault((x.data_chars, x.layout.valid_chars), []).append(i)
    for index in layouts.values():
        x = s[index[0]]
        data_bits = 8 * (x.data_chars + 1)
        counts = _counts(x, deck, min(MAX_FLIPS, data_bits))
        framing = 8 * (4 if x.session.pre_idles else 3)
        bers = np.array([s[i].ber for i in index])
        through, tail = undetected.probability(counts, bers, data_bits, framing)
        wrong[index, 0, 0], bound[index] = through, tail
    return wrong, bound


def _counts(x: Setting, deck: np.ndarray | None, flips: int) -> np.ndarray:
    if deck is not None:
        return undetected.column_counts(deck, x.layout.valid_chars, flips)
    return undetected.uniform_counts(x.data_chars, x.layout.valid_chars, flips)


def _wrong_bursts(x: Setting, m: np.ndarray, flips: int) -> tuple[np.ndarray, float]:
    """Under bursts: :func:`undetected.walk` carrying the chain's matrices (characters drawn evenly),
    and the chance of more flips than walked (from the line's long-run state: a bound)."""
    table = undetected.valid_table(x.layout.valid_chars)
    w = undetected.change_weights(_mix(x.layout)[None, :], table)
    clean = m[0]
    head = np.linalg.matrix_power(m.sum(axis=0), x.session.pre_idles - 1) @ clean @ clean @ clean
    through = undetected.walk(np.repeat(w, x.data_chars, axis=0), flips, m, clean)[1:].sum(axis=0)
    tail = undetected.flip_tail(m, x.data_chars + 1, flips)
    share = noise.stationary(x.burst)
    return head @ through, float(share @ tail @ np.ones(len(share)))


def _batch(s: list[Setting], cards: int | None, deck: np.ndarray | None) -> list[Figures]:
    bursts = [x.burst for x in s]
    ok, flip = noise.bit_matrices([x.ber for x in s], bursts)
    m = noise.char_matrices(ok, flip)
    pre = s[0].session.pre_idles
    wrong, bound = _wrong(s, m, deck)
    record = frames.record_frame(m, np.array([x.data_chars for x in s]), pre,
                                 np.array([_mix(x.layout) for x in s]), wrong)
    ack = frames.reply(m, (fo.ACK1, fo.ACK2))
    batch = Batch(
        record, frames.bid_frame(m, pre), ack, frames.reply(m, (fo.ERR,), (fo.SOR1, fo.SOR2)),
        frames.reply(m, (fo.ACK2,)).as_sent, m.sum(axis=0) @ m.sum(axis=0),
        _times(s, np.array([x.record_chars for x in s], dtype=float)),
        _bid_times(s, pre), s[0].session.max_retries, s[0].session.sync_retries)
    t = run(batch)
    share = long_run(t)
    states = m.shape[-1]
    data_start, reply_start = _start_vector(share, states)

    def per_card(v: np.ndarray) -> np.ndarray:
        result: np.ndarray = (share * v).sum(axis=-1)
        return result

    every, delivered = per_card(t.every), per_card(t.delivered)  # (MOMENTS, n)
    read = np.array([x.read_s for x in s])  # serial mechanics: each card read before its record
    every[2] += 2 * read * every[1] + read ** 2 * every[0]
    every[1] += read * every[0]
    delivered[1] += read * delivered[0]
    seconds = every[1]
    h = np.array([x.turnaround_s if x.duplex == "half" else 0.0 for x in s])
    stop = np.array([x.session.on_give_up == GIVE_UP_STOP for x in s])  # a card given up ends it
    clean_times = _times(s, np.array([x.record_chars for x in s], dtype=float))
    clean = clean_times.reply + clean_times.punch + read
    # the first card is read before the first record leaves; the last has no turnaround after it
    last = 0.0 if cards is None else (h + read) / cards
    ratio = delivered[0] / seconds
    # the spread of (delivered - ratio * seconds) per card: the delta method's variance of a ratio
    spread = np.sqrt(np.maximum(delivered[0] - 2 * ratio * delivered[1] + ratio ** 2 * every[2], 0.0))
    cols = {
        "seconds_per_card": seconds,
        "seconds_per_card_sd": np.sqrt(np.maximum(every[2] - seconds ** 2, 0.0)),
        "cards_per_minute": 60.0 * delivered[0] / (seconds - last),
        "cards_per_minute_spread": 60.0 * spread / seconds,
        "retransmissions_per_card": every[3],
        "retransmissions_per_card_sd": np.sqrt(np.maximum(every[4] - every[3] ** 2, 0.0)),
        "give_up": per_card(t.given_up), "failed": per_card(t.failed),
        "undetected_per_million": 1e6 * per_card(t.wrong),
        "session_end": per_card(t.ended) + np.where(stop, per_card(t.given_up), 0.0),
        "clean_cards_per_minute": 60.0 / (clean - last),
    }
    def chance(mat: np.ndarray, begin: np.ndarray) -> np.ndarray:
        result: np.ndarray = np.einsum("ns,nst->n", begin, mat)
        return result

    ok, wrong_p = chance(record.accepted, data_start), chance(record.wrong, data_start)
    cols.update(record_clean=ok, record_detected=1.0 - ok - wrong_p, record_undetected=wrong_p,
                record_undetected_bound=bound, reply_clean=chance(ack.as_sent, reply_start),
                reply_detected=chance(ack.resend + ack.ignored, reply_start),
                reply_undetected=chance(ack.ends, reply_start))
    for name in PROBABILITIES:  # sums of chances may overshoot 1 by a rounding (1.0000000000000002)
        cols[name] = np.clip(cols[name], 0.0, 1.0)
    columns = [np.asarray(cols[f.name], dtype=float).tolist() for f in fields(Figures)]
    return [Figures(*values) for values in zip(*columns, strict=True)]


def _start_vector(share: np.ndarray, states: int) -> tuple[np.ndarray, np.ndarray]:
    """``(n, S)`` each: the noise state of the data and of the reply direction at a card's start."""
    if states == 1:
        return np.ones((len(share), 1)), np.ones((len(share), 1))
    joint = share.reshape(-1, states, states)
    return joint.sum(axis=2), joint.sum(axis=1)


def frame_outcomes(setting: Setting, reply_codes: tuple[int, ...] = (fo.ACK1, fo.ACK2)) -> dict[str, float]:
    """The chance of each outcome of one record frame (``record_*``, :class:`frames.RecordFrame`'s
    fields) and of one reply ``CL code`` (``reply_*``, :class:`frames.Reply`'s), the noise starting
    in its long-run state: what ``tests/test_theory_frames.py`` holds against the STR core."""
    setting.check()
    ok, flip = noise.bit_matrices([setting.ber], [setting.burst])
    m = noise.char_matrices(ok, flip)
    wrong, _bound = _wrong([setting], m, None)
    record = frames.record_frame(m, np.array([setting.data_chars]), setting.session.pre_idles,
                                 np.array([_mix(setting.layout)]), wrong)
    awaited = (fo.SOR1, fo.SOR2) if reply_codes == (fo.ERR,) else None
    answer = frames.reply(m, reply_codes, awaited)
    start = noise.stationary(setting.burst)
    out = {}
    for prefix, outcome in (("record", record), ("reply", answer)):
        for name, mat in vars(outcome).items():
            out[f"{prefix}_{name}"] = float(start @ mat[0] @ np.ones(len(start)))
    return out
