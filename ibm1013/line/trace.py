"""Watching a real line: a trace of every record, reply and timer, and the frames for a timeline.

A :class:`~ibm1013.line.station.Station` tells its :class:`Trace` everything it does — each session it
starts, each ``Send`` it queues (with when it starts and finishes leaving), each chunk it reads,
each timer started, cancelled or run out, each event of the STR core.  Two monitors come with it:

* :class:`LineTrace` writes one line per happening with a timestamp, the line monitor of tools like
  tio: ``ibm1013 send/receive --trace FILE``.  Characters are shown by name (``IDLE×12``,
  ``TL SOR1``, ``CL ACK2``) and the data of a record as its BCD text, ``LRC=xx`` after it.
* :class:`RelayTrace` does the same for ``ibm1013 line --trace FILE``: what each direction of the
  virtual line carries, as the far end will read it, and what the noise did to it.
* :class:`TimelineFrames` collects ``(direction, start, end, data, card)`` frames in the form
  :func:`ibm1013.sim.timeline.draw` draws, so ``--timeline PNG`` shows a real transfer as ``ibm1013
  simulate --timeline`` shows a simulated one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TextIO

from ibm1013.str import fourofeight as fo
from ibm1013.str.events import CardAccepted, Event, Send
from ibm1013.str.receiver import Receiver
from ibm1013.str.transmitter import Transmitter

_AFTER_TL = {fo.SOR1: "SOR1", fo.SOR2: "SOR2", fo.INQ: "INQ", fo.EOT: "EOT", fo.TEL: "TEL"}
_AFTER_CL = {fo.ACK1: "ACK1", fo.ACK2: "ACK2", fo.ERR: "ERR", fo.EOT: "EOT", fo.TEL: "TEL",
             fo.IDLE: "IDLE"}


def _shown(char: int, name: str) -> str:
    """How a data character is shown in a record: its graphic, a blank, or ``<xx>``."""
    if name == "space":
        return " "
    return name if len(name) == 1 else f"<{char:02X}>"


_TEXT = {row[0]: _shown(row[0], row[2] or row[1]) for row in fo.DATA_TABLE}
_SOR_NAMES = {fo.SOR1: "SOR1", fo.SOR2: "SOR2"}
_LONGEST = 4096
"""A run of idles or a record that has not ended by this many characters is shown as it stands."""


def bcd_text(data: bytes) -> str:
    """A record's data as text: each data character's graphic, anything else as ``<xx>``."""
    return "".join(_TEXT.get(ch, f"<{ch:02X}>") for ch in data)


@dataclass(slots=True)
class Token:
    """One sequence on the line, as the decoder cut it out of the stream.

    ``kind``: ``idle`` (a run of idles), ``TL`` or ``CL`` (a leader and its code: a bid, a reply, an
    end …), ``record`` (``TL SORn`` data ``TL`` LRC; ``code`` is ``None`` when the character after
    the leader is no SOR), ``stray`` (a character that starts no sequence).  ``complete`` is false
    for what was left when the stream ended (a record cut short)."""

    kind: str
    raw: bytes
    code: int | None = None
    data: bytes = b""
    lrc: int | None = None
    complete: bool = True

    @property
    def name(self) -> str:
        """The code by name (``SOR1``, ``ACK2``, ``EOT`` …), or ``<xx>``."""
        if self.code is None:
            return "?" if self.kind == "record" else ""
        if self.kind == "record":
            return _SOR_NAMES.get(self.code, f"<{self.code:02X}>")
        names = _AFTER_TL if self.kind == "TL" else _AFTER_CL
        return names.get(self.code, f"<{self.code:02X}>")

    @property
    def lrc_good(self) -> bool | None:
        """Whether the LRC checks the record's data (``None``: no LRC arrived, or not a record)."""
        return None if self.kind != "record" or self.lrc is None else fo.lrc(self.data) == self.lrc

    def bad_characters(self, valid: bytes = fo.DATA_CHARS) -> int:
        """Characters of a record's data that are no data character of ``valid``."""
        return len(self.data.translate(None, valid))

    def text(self) -> str:
        """The sequence as the trace shows it: ``IDLE×12``, ``TL SOR1 "CARD 7" +74 blank TL LRC=4E``."""
        if self.kind == "idle":
            return "IDLE" if len(self.raw) == 1 else f"IDLE×{len(self.raw)}"
        if self.kind == "stray":
            return f"<{self.raw[0]:02X}>"
        if self.kind != "record":
            return f"{self.kind} {self.name}" if self.code is not None else self.kind
        head = "TL " + self.name
        shown = bcd_text(self.data)
        blanks = len(shown) - len(shown.rstrip(" "))
        body = f' "{shown.rstrip(" ")}"' + (f" +{blanks} blank" if blanks else "") if self.data else ""
        if self.raw.find(bytes([fo.TL]), 2) < 0:  # cut short before its closing TL
            return head + body
        return head + body + " TL" + (f" LRC={self.lrc:02X}" if self.lrc is not None else "")


class LineDecoder:
    """Cuts the characters of one direction, arriving in chunks of any size (often one character at
    a time), into whole :class:`Token` sequences: the one decoder of ``--trace``, ``line --trace``,
    the timeline and ``ibm1013 monitor``.

    ``mode`` ``"replies"``: read the stream as a transmitter reads its reply pair (only idles and
    ``CL`` codes make sequences; a ``TL`` there is one stray character), so a damaged reply cannot
    swallow the replies after it.  ``"records"``: read it as a receiver reads it: a sequence starts only
    after an idle (a leader right behind another sequence is a stray character, so a record whose
    closing ``TL`` was hit does not put every record after it out of step), and a ``TL`` followed by
    anything but ``INQ``, ``EOT`` or ``TEL`` starts a record (a record whose SOR was hit is still a
    record; so is ``TL INQ`` or ``TL EOT`` with characters right behind it).  ``"any"`` (who sends
    what not known): a leader starts a sequence wherever it stands."""

    def __init__(self, mode: str = "any") -> None:
        self.buf = bytearray()
        self.mode = mode
        self._after_idle = True  # watching may begin anywhere: the first leader counts

    def _length(self) -> tuple[int, str]:
        """Length and kind of the first complete sequence in the buffer; 0 while it is arriving."""
        buf = self.buf
        lead = buf[0]
        if lead == fo.IDLE:
            stripped = len(buf) - len(buf.lstrip(bytes([fo.IDLE])))
            return (stripped if stripped < len(buf) or stripped >= _LONGEST else 0), "idle"
        replies = self.mode == "replies"
        if (lead == fo.CL and replies
                or lead in (fo.TL, fo.CL) and not replies and (self._after_idle or self.mode == "any")):
            if len(buf) < 2:
                return 0, ""
            if lead == fo.CL or (buf[1] in _TL_CODES and not (self.mode == "records" and _hit_sor(buf))):
                return 2, "CL" if lead == fo.CL else "TL"
            end = buf.find(bytes([fo.TL]), 2)
            if 0 <= end < len(buf) - 1:
                return end + 2, "record"
            return (len(buf) if len(buf) >= _LONGEST else 0), "record"
        return 1, "stray"

    def feed(self, data: bytes) -> list[Token]:
        """The sequences ``data`` completes."""
        self.buf += data
        out = []
        while self.buf:
            n, kind = self._length()
            if not n:
                break
            out.append(_token(kind, bytes(self.buf[:n])))
            self._after_idle = kind == "idle"
            del self.buf[:n]
        return out

    def flush(self) -> list[Token]:
        """What is left, as it stands: an idle run, a lone leader (stray), or a record cut short."""
        out = self.feed(b"")
        raw = bytes(self.buf)
        self.buf.clear()
        if raw:
            kind = "idle" if raw[0] == fo.IDLE else "stray" if len(raw) == 1 else "record"
            out.append(_token(kind, raw))
        return out


_TL_CODES = frozenset((fo.INQ, fo.EOT, fo.TEL))


def _hit_sor(buf: bytearray) -> bool:
    """``TL INQ`` or ``TL EOT`` with characters right behind it: a record whose SOR was hit (a real
    bid or end is followed by silence or idles), as the receiver takes it."""
    return buf[1] != fo.TEL and len(buf) > 2 and buf[2] != fo.IDLE


def _token(kind: str, raw: bytes) -> Token:
    if kind in ("idle", "stray"):
        return Token(kind, raw)
    if kind in ("TL", "CL"):
        return Token(kind, raw, raw[1] if len(raw) > 1 else None, complete=len(raw) > 1)
    end = raw.find(bytes([fo.TL]), 2)
    if end < 0:  # cut short, or ran past the longest record
        return Token("record", raw, raw[1] if len(raw) > 1 else None, raw[2:], complete=False)
    lrc = raw[end + 1] if end + 1 < len(raw) else None
    return Token("record", raw, raw[1], raw[2:end], lrc, complete=lrc is not None)


def render(data: bytes) -> str:
    """Line characters by name: idle runs counted, ``TL``/``CL`` sequences named, record data as
    text in quotes (trailing blanks counted), the LRC after a record's closing ``TL`` in hex,
    anything else as ``<xx>``."""
    decoder = LineDecoder()
    return " ".join(t.text() for t in decoder.feed(data) + decoder.flush())


class Trace:
    """Sees what a station does; this one ignores it all (subclass what you need)."""

    def session(self, now: float, machine: Transmitter | Receiver) -> None:
        """A new STR session starts with ``machine`` (a Transmitter or Receiver)."""

    def sent(self, now: float, start: float, end: float, send: Send) -> None:
        """``send`` was queued at ``now``; its characters leave from ``start`` until ``end``."""

    def received(self, now: float, data: bytes, machine: Transmitter | Receiver) -> None:
        """``data`` was read from the port."""

    def timer(self, now: float, name: str, what: str) -> None:
        """Timer ``name`` was started (``what`` says for how long), cancelled or ran out."""

    def event(self, now: float, event: Event) -> None:
        """The STR core reported ``event`` (a card accepted or delivered, the end of the session …)."""


class Monitors(Trace):
    """Several monitors as one."""

    def __init__(self, *monitors: Trace) -> None:
        self.monitors = monitors

    def session(self, now: float, machine: Transmitter | Receiver) -> None:
        for m in self.monitors:
            m.session(now, machine)

    def sent(self, now: float, start: float, end: float, send: Send) -> None:
        for m in self.monitors:
            m.sent(now, start, end, send)

    def received(self, now: float, data: bytes, machine: Transmitter | Receiver) -> None:
        for m in self.monitors:
            m.received(now, data, machine)

    def timer(self, now: float, name: str, what: str) -> None:
        for m in self.monitors:
            m.timer(now, name, what)

    def event(self, now: float, event: Event) -> None:
        for m in self.monitors:
            m.event(now, event)


class LineTrace(Trace):
    """One timestamped line per happening, written to ``stream`` (seconds since the trace began)::

          0.000312 session  Receiver (the far end transmits)
          0.000400 out      IDLE×195 CL IDLE   [leaves 0.000400-1.300400]
          0.104925 in       TL INQ
          3.104925 timer    reply ran out
    """

    def __init__(self, stream: TextIO, t0: float | None = None) -> None:
        self.stream = stream
        self.t0 = time.monotonic() if t0 is None else t0
        self._in = LineDecoder()

    def _line(self, now: float, kind: str, text: str) -> None:
        self.stream.write(f"{now - self.t0:11.6f} {kind:8s} {text}\n")
        self.stream.flush()

    def session(self, now: float, machine: Transmitter | Receiver) -> None:
        for token in self._in.flush():  # what was left of the session before
            self._line(now, "in", token.text())
        we_transmit = isinstance(machine, Transmitter)
        self._in.mode = "replies" if we_transmit else "records"
        role = "we transmit" if we_transmit else "the far end transmits"
        self._line(now, "session", f"{type(machine).__name__} ({role})")

    def sent(self, now: float, start: float, end: float, send: Send) -> None:
        card = f" card {send.card} try {send.attempt}" if send.card is not None else ""
        self._line(now, "out", f"{render(send.data)}   [leaves {start - self.t0:.6f}-"
                               f"{end - self.t0:.6f}{card}]")

    def received(self, now: float, data: bytes, machine: Transmitter | Receiver) -> None:
        for token in self._in.feed(data):
            self._line(now, "in", token.text())

    def timer(self, now: float, name: str, what: str) -> None:
        self._line(now, "timer", f"{name} {what}")

    def event(self, now: float, event: Event) -> None:
        self._line(now, "event", f"CardAccepted(number={event.number})"
                   if isinstance(event, CardAccepted) else repr(event))


class TimelineFrames(Trace):
    """Frames for :func:`ibm1013.sim.timeline.draw`: ``role`` ``"send"`` puts what we write on the
    records lane and what we read on the replies lane, ``"receive"`` the other way round.  A chunk
    read by a receiver that holds a record is tagged with the card number it will get, so repeats
    show as retransmissions."""

    def __init__(self, role: str, char_s: float, t0: float | None = None) -> None:
        self.out_lane, self.in_lane = ("data", "reply") if role == "send" else ("reply", "data")
        self.char_s = char_s
        self.t0 = time.monotonic() if t0 is None else t0
        self.frames: list[tuple[str, float, float, bytes, object]] = []
        self._in = LineDecoder()

    def sent(self, now: float, start: float, end: float, send: Send) -> None:
        end = max(end, start + len(send.data) * self.char_s)
        self.frames.append((self.out_lane, start - self.t0, end - self.t0, send.data, send.card))

    def received(self, now: float, data: bytes, machine: Transmitter | Receiver) -> None:
        for token in self._in.feed(data):
            record = token.kind == "record"
            card = machine.next_card if record and hasattr(machine, "next_card") else None
            start = max(0.0, now - self.t0 - len(token.raw) * self.char_s)
            self.frames.append((self.in_lane, start, now - self.t0, token.raw, card))


class RelayTrace:
    """The trace of a virtual line (:class:`emulator.virtual_line.VirtualLine`'s ``monitor``): one line per
    sequence each direction delivers, as the far end reads it, and a ``noise`` line for every chunk
    the line changed (bits flipped, characters dropped, or lost in a cut)::

          1.334210 b->a     CL ACK2
          1.507036 a->b     TL SOR1 "CARD 7" +74 blank TL LRC=4E
          1.507036 a->b     noise: 1 of 87 characters changed (2 bits flipped)
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self._decoders: dict[str, LineDecoder] = {}

    def __call__(self, direction: str, seconds: float, sent: bytes, arrives: bytes) -> None:
        decoder = self._decoders.setdefault(direction, LineDecoder())
        lines = [token.text() for token in decoder.feed(arrives)]
        if sent != arrives:
            lines.append("noise: " + _damage(sent, arrives))
        for text in lines:
            self.stream.write(f"{seconds:11.6f} {direction:8s} {text}\n")
        self.stream.flush()


def _damage(sent: bytes, arrives: bytes) -> str:
    """What the line did to a chunk."""
    if not arrives:
        return f"{len(sent)} characters lost (line cut, or all dropped)"
    if len(arrives) != len(sent):
        return f"{len(sent) - len(arrives)} of {len(sent)} characters dropped"
    changed = [(x, y) for x, y in zip(sent, arrives, strict=True) if x != y]
    bits = sum((x ^ y).bit_count() for x, y in changed)
    return f"{len(changed)} of {len(sent)} characters changed ({bits} bits flipped)"
