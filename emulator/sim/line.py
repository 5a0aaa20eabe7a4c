"""A data line as a chain of small pieces, each with ``put(frame)`` and an ``out``.

In the manner of ns.py, rate, delay, noise and failure are separate pieces wired by assignment::

    port = Port(env, bit_rate=1200)          # serialization: characters leave one after another
    port.out = Cut(cut_at=30.0)              # nothing gets through after the line is cut
    port.out.out = Noisy(noise_model)        # bits flipped (emulator.noise)
    port.out.out.out = Wire(delay=0.01)      # propagation delay
    … .out = Arrive(env, receiver)           # one SimPy event: the frame's last bit arrives

Only :class:`Arrive` touches the SimPy event queue; the pieces before it work out *when* things
happen (``frame.start``, ``frame.end`` at the sending end, ``frame.time`` at the far end), so a whole
frame — a record of a hundred characters — costs one event, never one per character or bit.

Duplex: each direction has its own :class:`Port`.  On a full-duplex (4-wire) circuit the two are
independent.  On a half-duplex (2-wire) circuit they share a :class:`Channel`: one direction at a
time, and a ``turnaround`` delay whenever the direction changes.
"""

from __future__ import annotations

import math
from typing import Any, Protocol

import simpy
from simpy.events import NORMAL, Event

from emulator.noise import LineCut, NoiseModel, NoNoise


class Frame(Event):
    """Characters sent in one go, with the times the line model works out for them.

    A frame is also the SimPy event of its own arrival: :class:`Arrive` puts the frame itself on the
    event queue, so the one event of its chain costs no object of its own.
    """

    __slots__ = ("data", "tag", "queued", "start", "end", "time", "source")

    def __init__(self, data: bytes, tag: Any = None, source: str = "") -> None:
        # no Event.__init__ here: the frame becomes an event of a clock only in Arrive
        self.data = data
        self.tag = tag           # whatever the sender wants to follow the frame (e.g. card number)
        self.source = source
        self.queued = 0.0        # handed to the line
        self.start = 0.0         # first bit leaves the sender
        self.end = 0.0           # last bit leaves the sender
        self.time = 0.0          # last bit reaches the far end


class Sink(Protocol):
    def put(self, frame: Frame) -> None: ...


class Channel:
    """The one pair of wires both directions share on a half-duplex circuit."""

    def __init__(self, turnaround_s: float) -> None:
        self.turnaround_s = turnaround_s
        self.busy_until = 0.0
        self.direction: object = None
        self.turnarounds = 0


class Port:
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
        self.frames = 0
        self.monitor: list[tuple[float, float, bytes, Any]] | None = None
        self.out: Sink | None = None

    def put(self, frame: Frame) -> None:
        """Send ``frame`` as soon as this direction (and a shared channel) is free."""
        now = self.env.now
        busy = self.busy_until
        start = busy if busy > now else now
        channel = self.channel
        if channel is not None:
            start = self._claim_channel(start)
        data = frame.data
        size = len(data)
        frame.queued = now
        frame.start = start
        frame.end = frame.time = self.busy_until = end = start + size * self.char_time
        if channel is not None:
            channel.busy_until = end
        frame.source = self.name
        self.chars += size
        self.frames += 1
        if self.monitor is not None:
            self.monitor.append((start, end, data, frame.tag))
        self.out.put(frame)  # type: ignore[union-attr]

    def _claim_channel(self, start: float) -> float:
        """Half duplex: the frame waits for the shared pair, and for it to turn around if the other
        direction had it last."""
        ch = self.channel
        assert ch is not None
        if ch.busy_until > start:
            start = ch.busy_until
        if ch.direction is not self:
            if ch.direction is not None:
                start += ch.turnaround_s
                ch.turnarounds += 1
            ch.direction = self
        return start


class Cut:
    """A line cut at ``cut.at_seconds``: characters leaving after it are lost, a frame on the line at
    that moment is truncated."""

    def __init__(self, cut: LineCut) -> None:
        self.cut = cut
        self.out: Sink | None = None

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
            frame.end = frame.time = frame.start + keep * per_char
        self.out.put(frame)  # type: ignore[union-attr]


class Noisy:
    """Bits flipped by a noise model from :mod:`emulator.noise`."""

    def __init__(self, model: NoiseModel) -> None:
        self.model = model
        self.out: Sink | None = None

    def put(self, frame: Frame) -> None:
        model = self.model
        nbits = len(frame.data) << 3
        if nbits <= model.clean_bits:  # the model's clean fast path (see emulator.noise)
            model.clean_bits -= nbits
        else:
            frame.data = model.corrupt(frame.data)[0]
        self.out.put(frame)  # type: ignore[union-attr]


class Wire:
    """Propagation delay: the far end hears each character ``delay`` seconds later."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.out: Sink | None = None

    def put(self, frame: Frame) -> None:
        frame.time += self.delay
        self.out.put(frame)  # type: ignore[union-attr]


class Arrive:
    """Hands the frame to ``out`` at ``frame.time`` — the one SimPy event of the chain (the frame
    itself, triggered and scheduled with ``out.put`` as its callback)."""

    def __init__(self, env: simpy.Environment, out: Sink | None = None) -> None:
        self.env = env
        self.out = out
        self.events = 0

    def put(self, frame: Frame) -> None:
        self.events += 1
        env = frame.env = self.env
        frame.callbacks = [self.out.put]  # type: ignore[union-attr]
        frame._ok = True
        frame._value = None
        env.schedule(frame, NORMAL, frame.time - frame.queued)  # pieces run within one instant


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
        self.from_a = Port(env, bit_rate, channel=self.channel, name="a")
        self.from_b = Port(env, bit_rate, channel=self.channel, name="b")
        self.to_b = Arrive(env)
        self.to_a = Arrive(env)
        for port, noise, arrive in ((self.from_a, noise_ab, self.to_b), (self.from_b, noise_ba, self.to_a)):
            chain: list[Any] = []
            if cut is not None and cut.at_seconds is not None:
                chain.append(Cut(cut))
            if noise is not None and not isinstance(noise, NoNoise):
                chain.append(Noisy(noise))
            if propagation_s:
                chain.append(Wire(propagation_s))
            chain.append(arrive)
            node: Any = port
            for piece in chain:
                node.out = piece
                node = piece

    @property
    def chars(self) -> int:
        """Characters put on the line in both directions."""
        return self.from_a.chars + self.from_b.chars

    @property
    def events(self) -> int:
        """SimPy events the line scheduled."""
        return self.to_a.events + self.to_b.events
