"""Watching a real line: a trace of every record, reply and timer, and the frames for a timeline.

A :class:`~ibm1013.endpoint.Station` tells its :class:`Monitor` everything it does — each session it
starts, each ``Send`` it queues (with when it starts and finishes leaving), each chunk it reads,
each timer started, cancelled or run out, each event of the STR core.  Two monitors come with it:

* :class:`LineTrace` writes one line per happening with a timestamp, the line monitor of tools like
  tio: ``ibm1013 send/receive --trace FILE``.  Characters are shown by name (``IDLE×12``,
  ``TL SOR1``, ``CL ACK2``) and the data of a record as its BCD text, ``LRC=xx`` after it.
* :class:`RelayTrace` does the same for ``ibm1013 line --trace FILE``: what each direction of the
  virtual line carries, as the far end will read it, and what the noise did to it.
* :class:`TimelineFrames` collects ``(direction, start, end, data, card)`` frames in the form
  :func:`ibm1013.timeline.draw` draws, so ``--timeline PNG`` shows a real transfer as ``ibm1013
  simulate --timeline`` shows a simulated one.
"""

from __future__ import annotations

import time
from typing import Any, TextIO

from ibm1013 import fourofeight as fo
from ibm1013.str.events import Send
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


def render(data: bytes) -> str:
    """Line characters by name: idle runs counted, ``TL``/``CL`` sequences named, record data as
    text in quotes (trailing blanks counted), the LRC after a record's closing ``TL`` in hex,
    anything else as ``<xx>``."""
    out: list[str] = []
    i, n, in_record = 0, len(data), False
    while i < n:
        c = data[i]
        if c == fo.IDLE and not in_record:
            j = i
            while j < n and data[j] == fo.IDLE:
                j += 1
            out.append("IDLE" if j - i == 1 else f"IDLE×{j - i}")
            i = j
        elif c == fo.TL and in_record:
            out.append("TL" + (f" LRC={data[i + 1]:02X}" if i + 1 < n else ""))
            in_record, i = False, i + 2
        elif c in (fo.TL, fo.CL) and i + 1 < n:
            names = _AFTER_TL if c == fo.TL else _AFTER_CL
            code = names.get(data[i + 1], f"<{data[i + 1]:02X}>")
            out.append(f"{'TL' if c == fo.TL else 'CL'} {code}")
            in_record = c == fo.TL and data[i + 1] in (fo.SOR1, fo.SOR2)
            i += 2
        elif in_record:
            j = data.find(bytes([fo.TL]), i)
            j = n if j < 0 else j
            text = "".join(_TEXT.get(ch, f"<{ch:02X}>") for ch in data[i:j])
            blanks = len(text) - len(text.rstrip(" "))
            out.append(f'"{text.rstrip(" ")}"' + (f" +{blanks} blank" if blanks else ""))
            i = j
        else:
            out.append(f"<{c:02X}>")
            i += 1
    return " ".join(out)


_LONGEST = 4096
"""A run of idles or a record that has not ended by this many characters is shown as it stands."""


def _token_length(buf: bytearray) -> int:
    """Length of the first complete sequence in ``buf`` (an idle run, ``TL``/``CL`` and a code, a
    whole record up to its LRC, or one stray character); 0 while it is still arriving."""
    lead = buf[0]
    if lead == fo.IDLE:
        stripped = len(buf) - len(buf.lstrip(bytes([fo.IDLE])))
        return stripped if stripped < len(buf) or stripped >= _LONGEST else 0
    if lead not in (fo.TL, fo.CL):
        return 1
    if len(buf) < 2:
        return 0
    if lead == fo.TL and buf[1] in (fo.SOR1, fo.SOR2):
        end = buf.find(bytes([fo.TL]), 2)
        if 0 <= end < len(buf) - 1:
            return end + 2
        return len(buf) if len(buf) >= _LONGEST else 0
    return 2


class Sequences:
    """Reassembles what arrives in chunks (often one character at a time) into whole sequences."""

    def __init__(self) -> None:
        self.buf = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        self.buf += data
        out = []
        while self.buf:
            n = _token_length(self.buf)
            if not n:
                break
            out.append(bytes(self.buf[:n]))
            del self.buf[:n]
        return out

    def flush(self) -> list[bytes]:
        out, self.buf = ([bytes(self.buf)] if self.buf else []), bytearray()
        return out


class Monitor:
    """Sees what a station does; this one ignores it all (subclass what you need)."""

    def session(self, now: float, machine: Any) -> None:
        """A new STR session starts with ``machine`` (a Transmitter or Receiver)."""

    def sent(self, now: float, start: float, end: float, send: Send) -> None:
        """``send`` was queued at ``now``; its characters leave from ``start`` until ``end``."""

    def received(self, now: float, data: bytes, machine: Any) -> None:
        """``data`` was read from the port."""

    def timer(self, now: float, name: str, what: str) -> None:
        """Timer ``name`` was started (``what`` says for how long), cancelled or ran out."""

    def event(self, now: float, event: Any) -> None:
        """The STR core reported ``event`` (a card accepted or delivered, the end of the session …)."""


class Monitors(Monitor):
    """Several monitors as one."""

    def __init__(self, *monitors: Monitor) -> None:
        self.monitors = monitors

    def session(self, now: float, machine: Any) -> None:
        for m in self.monitors:
            m.session(now, machine)

    def sent(self, now: float, start: float, end: float, send: Send) -> None:
        for m in self.monitors:
            m.sent(now, start, end, send)

    def received(self, now: float, data: bytes, machine: Any) -> None:
        for m in self.monitors:
            m.received(now, data, machine)

    def timer(self, now: float, name: str, what: str) -> None:
        for m in self.monitors:
            m.timer(now, name, what)

    def event(self, now: float, event: Any) -> None:
        for m in self.monitors:
            m.event(now, event)


class LineTrace(Monitor):
    """One timestamped line per happening, written to ``stream`` (seconds since the trace began)::

          0.000312 session  Receiver (the far end transmits)
          0.000400 out      IDLE×195 CL IDLE   [leaves 0.000400-1.300400]
          0.104925 in       TL INQ
          3.104925 timer    reply ran out
    """

    def __init__(self, stream: TextIO, t0: float | None = None) -> None:
        self.stream = stream
        self.t0 = time.monotonic() if t0 is None else t0
        self._in = Sequences()

    def _line(self, now: float, kind: str, text: str) -> None:
        self.stream.write(f"{now - self.t0:11.6f} {kind:8s} {text}\n")
        self.stream.flush()

    def session(self, now: float, machine: Any) -> None:
        for seq in self._in.flush():  # what was left of the session before
            self._line(now, "in", render(seq))
        role = "we transmit" if isinstance(machine, Transmitter) else "the far end transmits"
        self._line(now, "session", f"{type(machine).__name__} ({role})")

    def sent(self, now: float, start: float, end: float, send: Send) -> None:
        card = f" card {send.card} try {send.attempt}" if send.card is not None else ""
        self._line(now, "out", f"{render(send.data)}   [leaves {start - self.t0:.6f}-"
                               f"{end - self.t0:.6f}{card}]")

    def received(self, now: float, data: bytes, machine: Any) -> None:
        for seq in self._in.feed(data):
            self._line(now, "in", render(seq))

    def timer(self, now: float, name: str, what: str) -> None:
        self._line(now, "timer", f"{name} {what}")

    def event(self, now: float, event: Any) -> None:
        self._line(now, "event", repr(event) if not hasattr(event, "layout") else
                   f"CardAccepted(number={event.number})")


class TimelineFrames(Monitor):
    """Frames for :func:`ibm1013.timeline.draw`: ``role`` ``"send"`` puts what we write on the
    records lane and what we read on the replies lane, ``"receive"`` the other way round.  A chunk
    read by a receiver that holds a record is tagged with the card number it will get, so repeats
    show as retransmissions."""

    def __init__(self, role: str, char_s: float, t0: float | None = None) -> None:
        self.out_lane, self.in_lane = ("data", "reply") if role == "send" else ("reply", "data")
        self.char_s = char_s
        self.t0 = time.monotonic() if t0 is None else t0
        self.frames: list[tuple[str, float, float, bytes, Any]] = []
        self._in = Sequences()

    def sent(self, now: float, start: float, end: float, send: Send) -> None:
        end = max(end, start + len(send.data) * self.char_s)
        self.frames.append((self.out_lane, start - self.t0, end - self.t0, send.data, send.card))

    def received(self, now: float, data: bytes, machine: Any) -> None:
        for seq in self._in.feed(data):
            record = seq[:1] == bytes([fo.TL]) and seq[1:2] in (bytes([fo.SOR1]), bytes([fo.SOR2]))
            card = machine.next_card if record and hasattr(machine, "next_card") else None
            start = max(0.0, now - self.t0 - len(seq) * self.char_s)
            self.frames.append((self.in_lane, start, now - self.t0, seq, card))


class RelayTrace:
    """The trace of a virtual line (:class:`emulator.serial.VirtualLine`'s ``monitor``): one line per
    sequence each direction delivers, as the far end reads it, and a ``noise`` line for every chunk
    the line changed (bits flipped, characters dropped, or lost in a cut)::

          1.334210 b->a     CL ACK2
          1.507036 a->b     TL SOR1 "CARD 7" +74 blank TL LRC=4E
          1.507036 a->b     noise: 1 of 87 characters changed (2 bits flipped)
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self._seqs: dict[str, Sequences] = {}

    def __call__(self, direction: str, seconds: float, sent: bytes, arrives: bytes) -> None:
        lines = [render(seq) for seq in self._seqs.setdefault(direction, Sequences()).feed(arrives)]
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
