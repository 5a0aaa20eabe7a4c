"""A datascope: what passes on a line, watched without taking part.

A datascope of the 1960s hung on a Y-cable between a terminal and its data set and showed the
characters of both directions as they went by.  :class:`Datascope` does the same with the bytes of
one or two directions, however they arrive (sans-I/O: ``feed(direction, data, now)`` returns
:class:`Observation` records; ``ibm1013 monitor`` reads the ports).  It cuts each direction into
sequences with :class:`~ibm1013.line.trace.LineDecoder` — the decoder of ``--trace`` — and follows the
STR exchange from the sequences alone:

* ``TL INQ`` from one direction starts a session in which that direction transmits records and the
  other answers; ``TL EOT`` (or ``CL EOT``) ends it.  The other direction is then read as a
  transmitter reads its replies.
* A record is judged as the receiving terminal judges it (``docs/str.md`` §1): every character one of
  the layout's data characters, the right length, the LRC right — else it is *bad* and the receiver
  will refuse it.  A good record with the number the receiver expects is a new card; one with the
  other number is a repeat of the card before (its acknowledgement was lost).
* A record that goes out again before the transmitter read the ``CL ACK`` of the one before is a
  *retransmission* (after ``CL ERR``, a wrong or garbled reply, or silence); so is a second bid before
  ``CL ACK2``, and a second synchronize sequence before the bid.  These are the transmitter's own
  counts, as it sees the replies, when the second direction is watched too.  With one direction only,
  a record numbered as the one before it is taken for a retransmission.
* The deck-level cards we add (``1013 TRAILER``, ``RESUME``, ``VERDICT``: :mod:`ibm1013.str.trailer`) are
  named as such and not counted as deck cards.

Characters that are no four-of-eight character are shown as ``<xx>`` in the record, and counted;
nothing on the line can make it fail.  Idle gaps (no character in any direction for ``gap_s``) are
reported and end a *block*.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ibm1013.line.trace import LineDecoder, Token, bcd_text
from ibm1013.report import Row
from ibm1013.str import fourofeight as fo
from ibm1013.str.layout import ColumnLayout

_MARKS = ("1013 TRAILER", "1013 RESUME", "1013 VERDICT")


@dataclass(slots=True)
class Observation:
    """One sequence seen on the line (or an idle gap), ready to show or to write as JSON."""

    t: float
    direction: str
    kind: str
    """``record``, ``bid``, ``end``, ``reply``, ``sync`` (``CL IDLE``), ``idle``, ``stray``,
    ``control`` (another ``TL`` code), ``gap``."""
    code: str = ""
    raw: bytes = b""
    text: str = ""
    """A record's data as BCD text (``<xx>`` for what is no data character)."""
    lrc: str | None = None
    """``good`` or ``bad`` for a record (``None``: no LRC arrived)."""
    bad_characters: int = 0
    verdict: str = ""
    """For a record: ``card`` (new), ``repeat`` (the card before again, acknowledged again),
    ``bad`` (the receiver will refuse it), ``mark`` (trailer, resume or verdict card)."""
    card: int | None = None
    """The record's card number in its session (1, 2 …; a repeat has its card's number)."""
    retransmission: bool = False
    block: int = 0
    seconds: float = 0.0
    """For a gap: how long the line was idle."""

    def as_dict(self) -> Row:
        d: Row = {k: getattr(self, k) for k in self.__slots__}
        d["raw"] = self.raw.hex()
        return d

    def line(self, *, hex_bytes: bool = False) -> str:
        """The observation as one line of the datascope's display."""
        stamp = f"{self.t:11.6f} {self.direction:5s}"
        if self.kind == "gap":
            return f"{stamp} ---- idle {self.seconds:.3f} s (block {self.block} ends)"
        if self.kind == "record":
            what = {"card": f"card {self.card}", "repeat": f"card {self.card} again",
                    "mark": "mark", "bad": "refused"}.get(self.verdict, self.verdict)
            flags = [f"LRC {self.lrc or 'missing'}"]
            if self.bad_characters:
                flags.append(f"{self.bad_characters} bad characters")
            if self.retransmission:
                flags.append("retransmission")
            shown = self.text.rstrip(" ")
            text = f'record {self.code:4s} {what:14s} "{shown}"  {", ".join(flags)}'
        else:
            text = f"{self.kind:7s} {self.code}".rstrip()
            if self.retransmission:
                text += "  (again: retransmission)"
        if hex_bytes:
            text += "\n" + " " * 18 + self.raw.hex(" ").upper()
        return f"{stamp} {text}"


@dataclass
class SessionCounts:
    """What one STR session carried, as the datascope saw it."""

    transmitter: str
    started: float
    ended: float | None = None
    records: int = 0
    cards: int = 0
    """New cards the receiver will accept (deck cards; marks apart)."""
    marks: int = 0
    repeats: int = 0
    bad_records: int = 0
    retransmissions: int = 0
    error_replies: int = 0
    first_card_at: float | None = None
    last_card_at: float | None = None

    def as_dict(self) -> Row:
        return dict(self.__dict__)


@dataclass
class _Direction:
    decoder: LineDecoder = field(default_factory=LineDecoder)
    syncs: int = 0  # CL IDLE sent since its last session ended
    characters: int = 0
    non_four_of_eight: int = 0


class Datascope:
    """Follows STR over one or two directions; see the module docstring."""

    def __init__(self, layout: ColumnLayout | None = None, *, gap_s: float = 0.5) -> None:
        self.layout = layout or ColumnLayout()
        self.gap_s = gap_s
        self._lengths = self.layout.record_lengths()
        self._valid = self.layout.valid_chars
        self.directions: dict[str, _Direction] = {}
        self.sessions: list[SessionCounts] = []
        self.session: SessionCounts | None = None
        self.block = 1
        self._last_char: float | None = None
        self._outstanding = False       # a record went out and its CL ACK has not come back
        self._bid_outstanding = False
        self._tx_sor = fo.SOR1          # the number the transmitter's record carries
        self._rx_expect = fo.SOR1       # the number the receiver expects
        self._prev_sor: int | None = None

    # -- input ------------------------------------------------------------------------------------
    def feed(self, direction: str, data: bytes, now: float) -> list[Observation]:
        """``data`` arrived from ``direction`` at ``now`` (seconds)."""
        d = self.directions.setdefault(direction, _Direction())
        out = self.tick(now) if data else []
        if data:
            self._last_char = now
        d.characters += len(data)
        d.non_four_of_eight += sum(1 for c in data if c.bit_count() != 4)
        for token in d.decoder.feed(data):
            out += self._token(direction, token, now)
        return out

    def tick(self, now: float) -> list[Observation]:
        """Time passes: an idle gap when nothing arrived for ``gap_s``."""
        if self._last_char is None or now - self._last_char < self.gap_s:
            return []
        gap = Observation(now, "", "gap", seconds=round(now - self._last_char, 6), block=self.block)
        self.block += 1
        self._last_char = None
        return [gap]

    def finish(self, now: float) -> list[Observation]:
        """The watch ends: what is left in the decoders, as it stands."""
        out: list[Observation] = []
        for name, d in self.directions.items():
            for token in d.decoder.flush():
                out += self._token(name, token, now)
        self._end_session(now)
        return out

    # -- the exchange -----------------------------------------------------------------------------
    def _token(self, direction: str, token: Token, now: float) -> list[Observation]:
        obs = Observation(now, direction, token.kind, token.name or token.text(), token.raw,
                          block=self.block)
        s = self.session
        if token.kind == "record":
            return [self._record(obs, token, direction, now)]
        if token.kind == "TL":
            obs.kind = {fo.INQ: "bid", fo.EOT: "end"}.get(token.code or -1, "control")
            if token.code == fo.INQ:
                self._bid(obs, direction, now)
            elif token.code == fo.EOT and s is not None and direction == s.transmitter:
                self._end_session(now)
        elif token.kind == "CL":
            obs.kind = "sync" if token.code == fo.IDLE else "reply"
            if token.code == fo.IDLE:
                self._sync(obs, direction)
            elif s is not None and direction != s.transmitter:
                self._reply(token.code, s, now)
        return [obs]

    def _sync(self, obs: Observation, direction: str) -> None:
        d = self.directions[direction]
        d.syncs += 1
        obs.retransmission = d.syncs > 1 and (self.session is None or self.session.ended is not None)

    def _bid(self, obs: Observation, direction: str, now: float) -> None:
        s = self.session
        if s is None or s.transmitter != direction or s.ended is not None:
            s = self._begin(direction, now)
        elif self._bid_outstanding:
            obs.retransmission = True
            s.retransmissions += 1
        self._bid_outstanding = True
        self._outstanding = False
        self._tx_sor = self._rx_expect = fo.SOR1
        self._prev_sor = None

    def _begin(self, direction: str, now: float) -> SessionCounts:
        syncs = self.directions[direction].syncs  # before the end of the last session clears it
        self._end_session(now)
        s = SessionCounts(direction, now, retransmissions=max(0, syncs - 1))
        self.sessions.append(s)
        self.session = s
        for name, d in self.directions.items():
            d.decoder.mode = "records" if name == direction else "replies"
        return s

    def _end_session(self, now: float) -> None:
        if self.session is not None and self.session.ended is None:
            self.session.ended = now
        for d in self.directions.values():
            d.syncs = 0
            d.decoder.mode = "any"
        self._outstanding = self._bid_outstanding = False

    def _reply(self, code: int | None, s: SessionCounts, now: float) -> None:
        """A reply the transmitter reads, taken as the transmitter takes it."""
        if code == fo.EOT:
            self._end_session(now)
        elif self._bid_outstanding:
            if code == fo.ACK2:
                self._bid_outstanding = False
        elif self._outstanding:
            if code == self._tx_sor:
                self._outstanding = False
                self._tx_sor = fo.SOR2 if code == fo.SOR1 else fo.SOR1
            elif code == fo.ERR:
                s.error_replies += 1

    def _record(self, obs: Observation, token: Token, direction: str, now: float) -> Observation:
        s = self.session
        if s is None or s.transmitter != direction or s.ended is not None:
            s = self._begin(direction, now)  # watching began mid-session
        two_way = len(self.directions) > 1
        obs.text = bcd_text(token.data)
        obs.lrc = None if token.lrc_good is None else "good" if token.lrc_good else "bad"
        obs.bad_characters = token.bad_characters(self._valid)
        obs.retransmission = self._outstanding if two_way else (
            token.code is not None and token.code == self._prev_sor)
        self._prev_sor = token.code
        self._outstanding = True
        s.records += 1
        if obs.retransmission:
            s.retransmissions += 1
        good = (token.code in (fo.SOR1, fo.SOR2) and token.complete and obs.lrc == "good"
                and not obs.bad_characters and len(token.data) in self._lengths)
        if not good:
            obs.verdict = "bad"
            s.bad_records += 1
        elif token.code == self._rx_expect:
            self._rx_expect = fo.SOR2 if token.code == fo.SOR1 else fo.SOR1
            if obs.text.startswith(_MARKS):
                obs.verdict, obs.card = "mark", s.cards + s.marks + 1
                s.marks += 1
            else:
                obs.verdict, obs.card = "card", s.cards + s.marks + 1
                s.cards += 1
                s.first_card_at = s.first_card_at if s.first_card_at is not None else now
                s.last_card_at = now
        else:
            obs.verdict, obs.card = "repeat", s.cards + s.marks
            s.repeats += 1
        return obs

    # -- summary ----------------------------------------------------------------------------------
    def summary(self, now: float) -> Row:
        """Totals over every session: cards, cards a minute, bad records, error replies,
        retransmissions; characters and non-four-of-eight characters per direction."""
        cards = sum(s.cards for s in self.sessions)
        firsts = [s.first_card_at for s in self.sessions if s.first_card_at is not None]
        lasts = [s.last_card_at for s in self.sessions if s.last_card_at is not None]
        span = (max(lasts) - min(firsts)) if firsts else 0.0
        return {
            "cards": cards,
            "cards_per_minute": round(60.0 * (cards - 1) / span, 3) if cards > 1 and span > 0 else 0.0,
            "marks": sum(s.marks for s in self.sessions),
            "bad_records": sum(s.bad_records for s in self.sessions),
            "error_replies": sum(s.error_replies for s in self.sessions),
            "retransmissions": sum(s.retransmissions for s in self.sessions),
            "blocks": self.block,
            "seconds": round(now, 3),
            "directions": {name: {"characters": d.characters, "non_four_of_eight": d.non_four_of_eight}
                           for name, d in self.directions.items()},
            "sessions": [s.as_dict() for s in self.sessions],
        }
