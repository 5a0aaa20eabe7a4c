"""Two 1013s on a simulated line: send a deck, get a :class:`~ibm1013.report.TransferReport`.

``simulate(deck, config)`` builds a SimPy environment with a sending terminal, a line (rate, duplex,
propagation, noise, cut) and a receiving terminal, runs the session to its end and counts what
happened.  The simulation sees both ends, so besides the terminals' own counters it can tell what
they cannot: a card accepted although damaged (``undetected_errors``), a card acknowledged but never
accepted (``lost``), a card accepted twice (``duplicated``).

Defaults reproduce the documented 100 cards/min (``docs/ibm1013.md`` §2): 1200
bit/s, full duplex, 80 columns, 1 idle + ``TL SOR`` + 80 + ``TL LRC`` per record, a 2-character reply,
0.02 s of propagation and detection per card (0.01 s each way).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict, Unpack

import numpy as np
import simpy

from emulator.card import COLUMNS, Card
from emulator.noise import LineCut, make_noise
from emulator.sim.devices import CardPunch, CardReader
from emulator.sim.kernel import scheduled_events
from emulator.sim.line import Line
from emulator.sim.timers import Timers
from emulator.words import counted
from ibm1013.report import LINE_CUT, UNFINISHED, Row, TransferReport, card_numbers
from ibm1013.sim.books import Books as _Books
from ibm1013.sim.terminal import ReceivingTerminal, SendingTerminal
from ibm1013.str import (
    ColumnLayout,
    Receiver,
    SessionConfig,
    Transmitter,
    deck_words,
)
from ibm1013.str.config import GIVE_UP_STOP, REF, TIMING, _p
from ibm1013.str.events import (
    ABORTED_BY_RECEIVER,
    CARDS_GIVEN_UP,
    COMPLETE,
    NOT_CONFIRMED,
    PROTOCOL_ERROR,
    SEQUENCE_FAULT,
)
from ibm1013.str.receiver import sequence_fault_message

MAX_BIT_RATE = 99_999
"""The fastest line the model takes, as the serial commands do (their resume handshake names the
rate in five digits).  The timing is arithmetic on the rate (characters per second = bit rate / 8),
so any whole rate from 1 bit/s up works; the SCA's own rates were 600, 1200, 2000 and 2400."""


@dataclass(frozen=True)
class CircuitConfig:
    """The circuit between the two terminals (its rate is the session's: ``SessionConfig.bit_rate``)."""

    duplex: str = _p("full", f"{TIMING} §1 (the 1013 needed a full-duplex circuit)")
    turnaround_s: float = _p(0.2, f"{REF} §2 (a secondary source: about 200 ms turnaround in 2-wire STR)")
    propagation_s: float = _p(0.01, f"{TIMING} §2 (t_fix = 0.02 s per card; our split: 0.01 s each way)")
    ber: float = _p(0.0, "user setting: independent bit errors")
    burst: tuple[float, float, float] | None = _p(None, "user setting: Gilbert-Elliott P_GB,P_BG,BER_BAD")
    cut_at: float | None = _p(None, "user setting: seconds after the start when the line goes dead")


@dataclass(frozen=True)
class MechanicsConfig:
    """Card reader and punch of the two terminals."""

    mode: str = _p("none", f"{TIMING} §2 (the table is the line model; mechanics are optional)")
    feed_s: float = _p(0.1, f"{TIMING} §2 (serial-mechanism hypothesis: 0.1 s feed)")
    read_columns_per_s: float = _p(160.0, f"{TIMING} §2 (1442 punch rate 160 col/s)")
    punch_feed_s: float = _p(0.1, f"{TIMING} §2")
    punch_columns_per_s: float = _p(160.0, f"{TIMING} §2")


class SessionSettings(TypedDict, total=False):
    """The :class:`~ibm1013.str.SessionConfig` settings :meth:`TransferConfig.build` passes on as
    they are (the line's bit rate and the columns it takes itself)."""

    sync_idle_s: float
    listen_s: float
    pre_idles: int
    ack_timeout_s: float
    max_retries: int
    sync_retries: int
    idle_timeout_s: float
    on_give_up: str
    babble_limit: int


@dataclass(frozen=True)
class TransferConfig:
    """Everything one simulated transfer needs.  The line runs at ``session.bit_rate``."""

    session: SessionConfig = field(default_factory=SessionConfig)
    line: CircuitConfig = field(default_factory=CircuitConfig)
    mechanics: MechanicsConfig = field(default_factory=MechanicsConfig)
    seed: int = 0
    first_card: int = 1
    timeline: bool = False
    max_seconds: float | None = None
    """Safety stop in simulated seconds (default: generous, from the deck size)."""

    @classmethod
    def build(
        cls, *, bit_rate: int = 1200, duplex: str = "full", columns: str | int = "80",
        column_binary: bool = False, ber: float = 0.0, burst: tuple[float, float, float] | None = None,
        cut_at: float | None = None, mechanics: str = "none", seed: int = 0, first_card: int = 1,
        turnaround_s: float = 0.2, timeline: bool = False, **session: Unpack[SessionSettings],
    ) -> TransferConfig:
        """A config from the handful of settings the command line offers."""
        layout = ColumnLayout.parse(columns, column_binary=column_binary)
        return cls(
            session=SessionConfig(bit_rate=bit_rate, columns=layout, **session),
            line=CircuitConfig(duplex=duplex, turnaround_s=turnaround_s, ber=ber,
                            burst=burst, cut_at=cut_at),
            mechanics=MechanicsConfig(mode=mechanics), seed=seed, first_card=first_card,
            timeline=timeline,
        )

    def validate(self) -> None:
        """Refuse settings the model cannot run: an :class:`~emulator.errors.IbmError` naming the
        setting and its range."""
        from emulator.errors import IbmError

        if not 1 <= self.session.bit_rate <= MAX_BIT_RATE:
            raise IbmError(f"bit rate must be a whole number from 1 to {MAX_BIT_RATE}, "
                           f"not {self.session.bit_rate}")
        if self.line.duplex not in ("full", "half"):
            raise IbmError(f"duplex must be full or half, not {self.line.duplex!r}")
        if self.mechanics.mode not in ("none", "overlap", "serial"):
            raise IbmError(f"mechanics must be none, overlap or serial, not {self.mechanics.mode!r}")
        if not 0.0 <= self.line.ber <= 1.0:
            raise IbmError(f"bit error rate must be between 0 and 1, not {self.line.ber}")


@dataclass
class Transfer:
    """The result of :func:`run_transfer`: the report plus what the receiving end punched."""

    report: TransferReport
    layout: ColumnLayout
    accepted_tags: list[object] = field(default_factory=list)
    """The card number each accepted record carried (simulation bookkeeping), in the order accepted …"""
    accepted_data: list[bytes] = field(default_factory=list)
    """… and the record data the receiving terminal punched."""
    timeline: list[tuple[str, float, float, bytes, object]] = field(default_factory=list)
    """``(direction, start, end, data, card)`` of every frame, when asked for."""
    events: int = 0
    """SimPy events scheduled (line arrivals, timers, mechanics, the end of the run)."""

    @property
    def received(self) -> list[tuple[object, bytes]]:
        """``(card tag, record data)`` in the order accepted."""
        return list(zip(self.accepted_tags, self.accepted_data, strict=True))

    def received_cards(self) -> list[Card]:
        """The cards the receiving terminal punched, in the order it accepted them."""
        return [self.layout.decode(data) for data in self.accepted_data]

    def _repr_html_(self) -> str:
        """The report's table (Jupyter shows it)."""
        return self.report._repr_html_()


def run_transfer(
    deck: Sequence[Card] | np.ndarray, config: TransferConfig | None = None, *,
    on_progress: Callable[[int], None] | None = None,
) -> Transfer:
    """Simulate sending ``deck`` from one 1013 to another; see :func:`simulate`.

    ``on_progress(cards_done)`` is called every 1000 cards (for progress bars)."""
    cfg = config or TransferConfig()
    cfg.validate()
    session = cfg.session
    words = deck_words(deck)
    tx = Transmitter(words, session, first_card=cfg.first_card)
    rx = Receiver(session, first_card=cfg.first_card)
    env = simpy.Environment()
    books = _Books(env)
    books.on_progress = on_progress
    line = build_line(env, cfg)
    if cfg.timeline:
        line.from_a.monitor = []
        line.from_b.monitor = []
    mech = cfg.mechanics
    layout = session.columns
    reader: CardReader[int] | None = None  # each carries a card's number
    punch: CardPunch[int] | None = None
    moved: list[int] = []
    if mech.mode != "none":
        reader = CardReader(env, feed_s=mech.feed_s, columns_per_s=mech.read_columns_per_s)
        punch = CardPunch(env, feed_s=mech.punch_feed_s, columns_per_s=mech.punch_columns_per_s)
        moved = _columns_moved(words[cfg.first_card - 1:], layout)
    overlap = mech.mode == "overlap"
    sender = SendingTerminal(env, tx, line.from_a, on_event=books.sender, reader=reader,
                             overlap=overlap, columns_moved=moved)
    receiver = ReceivingTerminal(env, rx, line.from_b, on_event=books.receiver, punch=punch,
                                 overlap=overlap, columns_moved=_punch_columns(layout))
    line.to_b.out = receiver
    line.to_a.out = sender
    sender.start()
    receiver.start()
    limit = cfg.max_seconds or _default_limit(len(words), session, cfg.line)
    # the time limit is a timer on the terminals' alarm clock, not an event of its own on SimPy's heap
    Timers(env, lambda _name: books.finish()).start("time limit", limit)
    env.run(until=books.done)
    report = _report(cfg, session, words, tx, rx, line, books, env, layout, limit)
    timeline = []
    if cfg.timeline:
        for direction, port in (("data", line.from_a), ("reply", line.from_b)):
            timeline += [(direction, *entry) for entry in port.monitor or ()]
        timeline.sort(key=lambda e: e[1])
    return Transfer(report, layout, books.accepted_tags, books.accepted_data, timeline,
                    events=scheduled_events(env))


def build_line(env: simpy.Environment, config: TransferConfig) -> Line:
    """The simulated line of ``config`` on ``env``: the session's rate, the circuit's duplex,
    propagation and cut, and a noise model for each direction seeded from ``config.seed``.  Both the
    deck transfer and the live stream (:mod:`ibm1013.sim.stream`) run on a line built here."""
    circuit = config.line
    return Line(
        env, bit_rate=config.session.bit_rate, duplex=circuit.duplex, turnaround_s=circuit.turnaround_s,
        propagation_s=circuit.propagation_s,
        noise_ab=make_noise(circuit.ber, circuit.burst, seed=f"{config.seed}/data"),
        noise_ba=make_noise(circuit.ber, circuit.burst, seed=f"{config.seed}/reply"),
        cut=LineCut(circuit.cut_at),
    )


def simulate(deck: Sequence[Card] | np.ndarray, config: TransferConfig | None = None) -> TransferReport:
    """Simulate sending ``deck`` over the line described by ``config``; the report of the transfer."""
    return run_transfer(deck, config).report


# -- helpers --------------------------------------------------------------------------------------
def _columns_moved(words: np.ndarray, layout: ColumnLayout) -> list[int]:
    """Columns a serial reader must pass for each card: up to the last one sent."""
    if layout.mode == "auto":
        punched = words != 0
        last = np.where(punched.any(axis=1), COLUMNS - np.argmax(punched[:, ::-1], axis=1), 0)
        moved: list[int] = last.tolist()
        return moved
    return [int(layout.indices.max()) + 1] * len(words)


def _punch_columns(layout: ColumnLayout) -> Any:
    if layout.mode == "auto":
        return lambda data: len(data) // layout.per_column
    last = int(layout.indices.max()) + 1
    return lambda data: last


def _default_limit(cards: int, session: SessionConfig, lc: CircuitConfig) -> float:
    per_card = (session.columns.max_chars + 10) / session.chars_per_second + 2 * lc.turnaround_s + 1.0
    worst = per_card * (session.max_retries + 2) + session.ack_timeout_s * (session.max_retries + 2)
    return 600.0 + cards * worst


def _undetected(
    tx: Transmitter, tags: list[Any], data: list[bytes], layout: ColumnLayout, in_order: bool,
) -> int:
    """Records accepted although their cards differ from the cards sent (tags outside the deck sent
    do not count).  The usual case — every card once, in order (``in_order``), unchanged — is checked
    in bulk."""
    first = tx.first_card
    if in_order and tx.sent_unchanged(first, data):
        return 0
    undetected = 0
    for tag, d in zip(tags, data, strict=True):
        if tag is None or not first <= tag <= tx.total_cards:
            continue
        original = tx.sent_data(tag)
        if d != original and not np.array_equal(layout.decode_words(d), layout.decode_words(original)):
            undetected += 1
    return undetected


def _given_up(failed: list[int], unconfirmed: list[int], retries: int) -> tuple[str, str]:
    """The outcome of a session that ended in order after the transmitter gave cards up: the far end
    lacks the ``failed`` ones; the ``unconfirmed`` ones arrived, their acknowledgements lost."""
    def cards(numbers: list[int]) -> str:
        return f"{len(numbers)} card{'s' if len(numbers) != 1 else ''} ({card_numbers(numbers)})"
    if not failed:
        return NOT_CONFIRMED, (f"end of transmission confirmed; {cards(unconfirmed)} given up arrived "
                               "although every acknowledgement of them was lost")
    return CARDS_GIVEN_UP, (f"end of transmission confirmed, but the far end lacks {cards(failed)}, "
                            f"given up after {retries} retransmissions each: send them again")


def _report(
    cfg: TransferConfig, session: SessionConfig, words: np.ndarray, tx: Transmitter, rx: Receiver,
    line: Line, books: _Books, env: simpy.Environment, layout: ColumnLayout, limit: float,
) -> TransferReport:
    first = cfg.first_card
    sent = range(first, tx.total_cards + 1)
    tags = books.accepted_tags
    stop = first + len(tags)
    in_order = stop <= sent.stop and tags == list(range(first, stop))  # every card once, in order
    accepted: range | set[Any] = range(first, stop) if in_order else set(tags)
    undetected = _undetected(tx, tags, books.accepted_data, layout, in_order)
    given_up = set(books.failed)
    # A card given up may still have arrived (every acknowledgement of it lost): the receiving end
    # holds it, so it is delivered-unconfirmed, not failed — sending it again would duplicate it.
    unconfirmed = {n for n in given_up if n in accepted}
    failed = given_up - unconfirmed
    outcome, message = _outcome(cfg, tx, rx, env, limit, sorted(failed), sorted(unconfirmed))
    resume_at = None
    if outcome != COMPLETE:
        resume_at = _resume_point(sent, accepted, failed)
    if failed and session.on_give_up == GIVE_UP_STOP and outcome != COMPLETE:
        resume_at = min(failed)  # the session stopped at it: nothing after it was sent
    skipped = {resume_at} if outcome == SEQUENCE_FAULT else set()
    if outcome == SEQUENCE_FAULT and rx.fault is not None:  # the receiver's numbers are its own count
        message = _sequence_fault(rx.fault, tags, first, resume_at, sorted(failed))
    delivered = books.delivered
    if in_order and (not delivered or (min(delivered) >= first and max(delivered) < stop)):
        lost = 0  # every card acknowledged was accepted
    else:
        lost = sum(1 for n in set(delivered) - set(accepted)
                   if n not in skipped and (resume_at is None or n < resume_at))
    span = books.last_ack - (line.from_a.first_tagged or 0.0)  # from the first record leaving
    rate = 60.0 * len(books.delivered) / span if books.delivered and span > 0 else 0.0
    return TransferReport(
        cards_sent=len(books.delivered) + len(books.failed),
        cards_received=len(tags),
        cards_per_minute=round(rate, 3),
        simulated_seconds=round(env.now, 6),
        characters_on_line=line.chars,
        retransmissions=tx.retransmissions,
        detected_errors=rx.detected_errors,
        undetected_errors=undetected,
        failed_cards=sorted(failed),
        unconfirmed_cards=sorted(unconfirmed),
        lost=lost,
        duplicated=len(tags) - len(accepted),
        ended=outcome,
        message=message,
        resume_at=resume_at,
        flipped_bits=_flipped_bits(line),
        operator_calls=books.operator_calls,
        settings={**transfer_settings(cfg), "seed": cfg.seed, "first_card": first},
    )


def transfer_settings(cfg: TransferConfig) -> Row:
    """The settings of a transfer as the reports give them (``simulate --json`` and ``theory --json``
    alike: one key per option of the line, the records and a card given up)."""
    line = cfg.line
    return {
        "bit_rate": cfg.session.bit_rate, "duplex": line.duplex, "turnaround": line.turnaround_s,
        "columns": cfg.session.columns.describe(), "column_binary": cfg.session.columns.per_column == 2,
        "ber": line.ber, "burst": list(line.burst) if line.burst else None, "cut_at": line.cut_at,
        "mechanics": cfg.mechanics.mode, "on_give_up": cfg.session.on_give_up,
    }


def _outcome(cfg: TransferConfig, tx: Transmitter, rx: Receiver, env: simpy.Environment, limit: float,
             failed: list[int], unconfirmed: list[int]) -> tuple[str, str]:
    """How the session ended, in one named outcome and its message: the sending end's word, unless
    the receiving end saw the root cause, the line was cut, or cards were given up."""
    ended, rx_end = tx.ended, rx.ended
    if ended is None:
        outcome, message = UNFINISHED, f"the simulation stopped at {limit:.0f} s with the session open"
    else:
        outcome, message = ended.outcome, ended.message
    if rx_end is not None and rx_end.outcome in (SEQUENCE_FAULT, PROTOCOL_ERROR):
        outcome, message = rx_end.outcome, rx_end.message  # the receiver saw the root cause
    elif outcome == ABORTED_BY_RECEIVER and rx_end is not None:
        message += f"; the receiver saw TL EOT ({rx_end.message})"  # a damaged TL SOR1 reads so
    if cfg.line.cut_at is not None and outcome != COMPLETE and env.now > cfg.line.cut_at:
        message = f"line cut at {cfg.line.cut_at:g} s; {message}"
        outcome = LINE_CUT
    if outcome == CARDS_GIVEN_UP:
        outcome, message = _given_up(failed, unconfirmed, tx.config.max_retries)
    return outcome, message


def _sequence_fault(what: str, tags: list[Any], first: int, resume_at: int | None,
                    failed: list[int]) -> str:
    """The receiving end's sequence fault, its cards named by their place in the deck: it counts
    the records it accepted, so after cards given up and skipped its count runs behind the deck, and
    at ``TL EOT`` it would name the card after the last."""
    numbers = [t for t in tags if isinstance(t, int)]
    after = max(numbers, default=first - 1)
    lacking = f"{counted(len(failed), 'card')} ({card_numbers(failed)})" if failed else ""
    return sequence_fault_message(after, what, resume_at, lacking)


def _resume_point(sent: range, accepted: range | set[Any], failed: set[int]) -> int | None:
    """Where an operator would start again: count the cards punched, skip those that failed."""
    remaining = sum(1 for tag in accepted if tag is not None and tag not in failed)
    for n in sent:
        if n in failed:
            continue
        if remaining == 0:
            return n
        remaining -= 1
    return None


def _flipped_bits(line: Line) -> int:
    """Bits the noise of both directions flipped (the noise models along each port's chain)."""
    flipped = 0
    for port in (line.from_a, line.from_b):
        node = port.out
        while node is not None and hasattr(node, "out"):
            model = getattr(node, "model", None)
            if model is not None:
                flipped += model.flipped_bits
            node = node.out
    return flipped
