"""A data line as a chain of small pieces, each with ``put(frame)`` and an ``out``.

In the manner of ns.py, rate, delay, noise and failure are separate pieces wired by assignment::

    port = Port(env, bit_rate=1200)          # serialization: characters leave one after another
    port.out = Cut(cut)                      # nothing gets through after the line is cut
    port.out.out = Noisy(noise_model)        # bits flipped (emulator.noise)
    port.out.out.out = Wire(env, delay=0.01, out=receiver)   # propagation, then arrival

Only :class:`Wire`, the last piece, touches the SimPy event queue; the pieces before it work out
*when* things happen (``frame.start`` and ``frame.end`` at the sending end, ``frame.time`` at the far
end), so a whole frame — a record of a hundred characters — costs one event, never one per character
or bit.

A frame is sent with ``port.send(data, tag)``, which returns when its last bit leaves;
``port.put(frame)`` takes a frame already made.

Duplex: each direction has its own :class:`Port`.  On a full-duplex (4-wire) circuit the two are
independent.  On a half-duplex (2-wire) circuit they share a :class:`Channel`: one direction at a
time, and a ``turnaround`` delay whenever the direction changes.

Speed: these pieces run twice per card, so :class:`Wire` puts its frame on SimPy's event queue
itself, with no ``simpy.Event`` made, through :mod:`emulator.sim.kernel` (the one module that
touches SimPy's insides); every simulation test runs through these lines.
"""

from __future__ import annotations

import math
from typing import Any, Protocol

import simpy

from emulator.noise import LineCut, NoiseModel, NoNoise
from emulator.sim.kernel import Scheduler, now


class Frame:
    """Characters sent in one go, with the times the line model works out for them.

    A frame is also the SimPy event of its own arrival: :class:`Wire` puts the frame itself on the
    event queue, so the one event of its chain costs no object of its own.  SimPy's loop asks an
    event only for ``callbacks`` (run, then set to ``None``) and ``_ok`` (true: it succeeded), so
    a frame carries those two and needs no ``simpy.Event`` base — which also lets mypyc compile it
    to a native class (:mod:`emulator.compiled`).  ``start``, ``end`` (first and last bit leave the
    sender) and ``time`` (last bit reaches the far end) are set by :class:`Port` and :class:`Wire`.
    """

    __slots__ = ("data", "tag", "start", "end", "time", "env", "callbacks", "_ok")

    def __init__(self, data: bytes, tag: object = None) -> None:
        self.data = data
        self.tag = tag           # whatever the sender wants to follow the frame (e.g. card number)
        self.start = 0.0
        self.end = 0.0
        self.time = 0.0
        self.env: Any = None     # the clock: set in Wire, when the frame becomes an event
        self.callbacks: list[Any] | None = None
        self._ok = True          # a frame only ever succeeds, with no value

    @property
    def _value(self) -> None:
        """An event's value (SimPy reads it only of a failed event; a frame has none)."""
        return None


class Sink(Protocol):
    def put(self, frame: Frame) -> None: ...


class Stage:
    """A piece of the line (:class:`Port`, :class:`Cut`, :class:`Noisy`, :class:`Wire`): ``put(frame)``
    takes a frame and hands it on.  A piece before the wire holds the next one as ``out``, typed as a
    stage so that the compiled build calls it directly rather than looking ``put`` up by name."""

    def put(self, frame: Frame) -> None:
        raise NotImplementedError


class Channel:
    """The one pair of wires both directions share on a half-duplex circuit."""

    def __init__(self, turnaround_s: float) -> None:
        self.turnaround_s = turnaround_s
        self.busy_until = 0.0
        self.direction: object = None
        self.turnarounds = 0


class Port(Stage):
    """Serialization: a frame takes ``len × bits_per_char / bit_rate`` seconds to leave, after any
    frame already leaving (and, half duplex, after the channel is free and turned around)."""

    def __init__(
        self, env: simpy.Environment, bit_rate: float, *, bits_per_char: int = 8,
        channel: Channel | None = None, name: str = "",
    ) -> None:
        self.env = env
        self.char_time = bits_per_char / bit_rate
        self.channel = channel
        self.name = name
        self.busy_until = 0.0
        self.chars = 0
        self.first_tagged: float | None = None
        """When the first frame carrying a tag (a card's record) began to leave."""
        self.monitor: list[tuple[float, float, bytes, object]] | None = None
        self.out: Stage | None = None

    def send(self, data: bytes, tag: object = None) -> float:
        """Send ``data`` as a new frame carrying ``tag``; the time its last bit leaves."""
        return self.send_at(data, tag, now(self.env))

    def send_at(self, data: bytes, tag: object, at: float) -> float:
        """:meth:`send` by a caller that knows the simulated time ``at`` (now): the clock is not read."""
        frame = Frame(data, tag)
        self.put_at(frame, at)
        return frame.end

    def put(self, frame: Frame) -> None:
        """Send ``frame`` as soon as this direction (and a shared channel) is free."""
        self.put_at(frame, now(self.env))

    def put_at(self, frame: Frame, at: float) -> None:
        """:meth:`put` by a caller that knows the simulated time ``at`` (now)."""
        start = self.busy_until
        if start < at:
            start = at
        size = len(frame.data)
        if self.channel is not None:
            start = self._claim_channel(start, size)
        frame.start = start
        self.busy_until = frame.end = end = start + size * self.char_time
        self.chars += size
        if frame.tag is not None and self.first_tagged is None:
            self.first_tagged = start
        if self.monitor is not None:
            self.monitor.append((start, end, frame.data, frame.tag))
        assert self.out is not None, "a stage is wired to the next before frames pass"
        self.out.put(frame)

    def _claim_channel(self, start: float, size: int) -> float:
        """Half duplex: the frame waits for the shared pair, and for it to turn around if the other
        direction had it last; the pair is busy until the frame has left."""
        ch = self.channel
        assert ch is not None
        if ch.busy_until > start:
            start = ch.busy_until
        if ch.direction is not self:
            if ch.direction is not None:
                start += ch.turnaround_s
                ch.turnarounds += 1
            ch.direction = self
        ch.busy_until = start + size * self.char_time
        return start


class Cut(Stage):
    """A line cut at ``cut.at_seconds``: characters leaving after it are lost, a frame on the line at
    that moment is truncated."""

    def __init__(self, cut: LineCut) -> None:
        self.cut = cut
        self.out: Stage | None = None

    def put(self, frame: Frame) -> None:
        at = self.cut.at_seconds
        if at is not None and frame.end > at:
            if frame.start >= at:
                return
            per_char = (frame.end - frame.start) / len(frame.data)
            keep = math.floor((at - frame.start) / per_char + 1e-9)
            if keep <= 0:
                return
            frame.data = frame.data[:keep]
            frame.end = frame.start + keep * per_char
        assert self.out is not None, "a stage is wired to the next before frames pass"
        self.out.put(frame)


class Noisy(Stage):
    """Bits flipped by a noise model from :mod:`emulator.noise`.

    The model's clean fast path (``clean_bits``, the bits that will certainly pass) is counted down
    here, in a field of this piece, and handed back to the model only when a frame needs
    ``corrupt``: one subtraction per frame and no look-up of the model's attributes."""

    def __init__(self, model: NoiseModel) -> None:
        self.model = model
        self.out: Stage | None = None
        self._clean: float = model.clean_bits

    def put(self, frame: Frame) -> None:
        nbits = len(frame.data) << 3
        if nbits <= self._clean:
            self._clean -= nbits
        else:
            model = self.model
            model.clean_bits = self._clean
            frame.data = model.corrupt(frame.data)[0]
            self._clean = model.clean_bits
        assert self.out is not None, "a stage is wired to the next before frames pass"
        self.out.put(frame)


class Wire(Stage):
    """Propagation delay and arrival: the far end hears each character ``delay`` seconds after it
    left, and ``out.put(frame)`` runs when the last one arrives — the one SimPy event of the chain
    (the frame itself, triggered and scheduled at ``frame.time``)."""

    def __init__(self, env: simpy.Environment, delay: float = 0.0, out: Sink | None = None) -> None:
        self.env = env
        self.delay = delay
        self._scheduler = Scheduler(env)
        self._callbacks: list[Any] = []
        self._out: Sink | None = None
        self.out = out

    @property
    def out(self) -> Sink | None:
        """The far end, told of each frame as it arrives."""
        return self._out

    @out.setter
    def out(self, out: Sink | None) -> None:
        self._out = out
        # one list of callbacks shared by every frame: SimPy's loop only reads it (and sets the
        # frame's to None), so a frame costs no list and no bound method of its own
        self._callbacks = [out.put] if out is not None else []

    def put(self, frame: Frame) -> None:
        frame.env = self.env
        frame.time = at = frame.end + self.delay
        frame.callbacks = self._callbacks
        self._scheduler.schedule(at, frame)


class Line:
    """Two directions between ends ``a`` and ``b`` (a = sender of data, b = replies).

    ``duplex="full"``: two independent pairs; ``"half"``: one shared :class:`Channel` with
    ``turnaround_s``.  ``noise_ab``/``noise_ba`` are the noise models of each direction.  After
    construction connect the far ends: ``line.to_b.out = receiver``, ``line.to_a.out = sender``;
    send with ``line.from_a.put(frame)`` / ``line.from_b.put(frame)``.
    """

    def __init__(
        self, env: simpy.Environment, *, bit_rate: float, duplex: str = "full",
        turnaround_s: float = 0.2, propagation_s: float = 0.0,
        noise_ab: NoiseModel | None = None, noise_ba: NoiseModel | None = None,
        cut: LineCut | None = None,
    ) -> None:
        if duplex not in ("full", "half"):
            raise ValueError(f"duplex must be 'full' or 'half', not {duplex!r}")
        self.channel = Channel(turnaround_s) if duplex == "half" else None
        self.to_b = Wire(env, propagation_s)
        self.to_a = Wire(env, propagation_s)
        self.from_a = self._direction(env, bit_rate, "a", noise_ab, cut, self.to_b)
        self.from_b = self._direction(env, bit_rate, "b", noise_ba, cut, self.to_a)

    def _direction(
        self, env: simpy.Environment, bit_rate: float, name: str, noise: NoiseModel | None,
        cut: LineCut | None, wire: Wire,
    ) -> Port:
        """One direction: ``Port [→ Cut] [→ Noisy] → Wire``."""
        port = Port(env, bit_rate, channel=self.channel, name=name)
        pieces = (Cut(cut) if cut is not None and cut.at_seconds is not None else None,
                  Noisy(noise) if noise is not None and not isinstance(noise, NoNoise) else None, wire)
        node: Any = port
        for piece in pieces:
            if piece is not None:
                node.out = piece
                node = piece
        return port

    @property
    def chars(self) -> int:
        """Characters put on the line in both directions."""
        return self.from_a.chars + self.from_b.chars

