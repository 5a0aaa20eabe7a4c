"""An IBM 1013 on the simulated line: the STR core wrapped in SimPy parts.

A sending 1013 takes cards from its hopper through a card reader into the transmitter; a receiving
1013 passes accepted cards from the receiver to its card punch and stacker.  The terminal itself only
shuttles things: bytes from the line go to the core (:mod:`ibm1013.str`), the core's ``Send`` actions
go to the line, its timers to :class:`~emulator.sim.timers.Timers`, its events to ``on_event``.

Mechanics (``docs/ibm1013.md`` §2, where the serial-mechanism figures are an
alternative explanation of the 100 cards/min, not a documented fact):

* ``none`` — reader and punch keep up with any line speed (the timing model of docs/ibm1013.md §2);
* ``overlap`` — reader and punch run in a pipeline with the line: the reader reads card k+1 while card
  k is on the line, the receiver acknowledges a card as soon as the punch can take it;
* ``serial`` — no overlap: the next card is read only after the last was acknowledged, and a card is
  acknowledged only once it is punched.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, cast

import simpy
from mypy_extensions import mypyc_attr

from emulator.sim.devices import CardPunch, CardReader, Hopper, Stacker
from emulator.sim.kernel import now
from emulator.sim.line import Frame, Port
from emulator.sim.timers import Timers
from ibm1013.str import (
    CancelTimer,
    CardAccepted,
    CardDelivered,
    CardFailed,
    Receiver,
    Send,
    StartTimer,
    Transmitter,
)
from ibm1013.str.events import Event, Output

EventCallback = Callable[["Terminal", Event, object], None]


class EventSink:
    """Hears the events of a terminal's core: ``hear(terminal, event, tag)``.  A terminal is given
    one of these or a plain function (wrapped in one); compiled, a sink of a compiled class is called
    directly, where a function or bound method is a generic call with its arguments parsed."""

    def hear(self, terminal: Terminal, event: Event, tag: object) -> None:
        raise NotImplementedError


class _CallbackSink(EventSink):
    """A plain function as an :class:`EventSink`."""

    def __init__(self, callback: EventCallback) -> None:
        self.callback = callback

    def hear(self, terminal: Terminal, event: Event, tag: object) -> None:
        self.callback(terminal, event, tag)


@mypyc_attr(allow_interpreted_subclasses=True)  # ibm1013.str.stream, ibm1013.sim.stream subclass it
class Terminal:
    """One 1013: ``core`` (a :class:`Transmitter` or :class:`Receiver`) sending through ``port``.

    Frames from the far end arrive through :meth:`put`.  ``on_event`` (an :class:`EventSink`, or a
    function ``on_event(terminal, event, tag)``) hears every event of the core; ``tag`` is the card
    number the arriving frame carried (simulation bookkeeping, not something a real terminal knows).
    """

    def __init__(
        self, env: simpy.Environment, core: Transmitter | Receiver, port: Port, *,
        name: str, on_event: EventSink | EventCallback,
    ) -> None:
        self.env = env
        self.core = core
        self.port = port
        self.name = name
        self.on_event: EventSink = on_event if isinstance(on_event, EventSink) else _CallbackSink(on_event)
        self.timers = Timers(env, self._expired)
        self._held: deque[tuple[Output, int, Any]] = deque()
        self._holding = False
        self.gated = False
        """True when mechanics may hold sends back (``hold_send``/``after_event`` are consulted)."""
        self.now = 0.0
        """The simulated time of the actions being performed (set before each batch): what an event
        sink reads instead of SimPy's clock."""

    # -- inputs ----------------------------------------------------------------------------------
    def start(self) -> None:
        self._run(self.core.start(), None)

    def put(self, frame: Frame) -> None:
        """Characters from the line."""
        self._arrived(self.core.receive_data(frame.data), frame)

    def _expired(self, name: str) -> None:
        self._run(self.core.timer_expired(name), None)

    # -- performing actions ----------------------------------------------------------------------
    def _arrived(self, actions: Output, frame: Frame) -> None:
        """:meth:`_run` for a frame that has just arrived: the clock reads ``frame.time`` (SimPy's
        loop set it to the time the frame was scheduled at), so it need not be read."""
        if self.gated:
            self._run_gated(actions, frame.tag, 0)
        else:
            self._perform(actions, frame.tag, frame.time)

    def _run(self, actions: Output, tag: Any, i: int = 0) -> None:
        if self.gated:  # (only a gated terminal ever holds sends back)
            self._run_gated(actions, tag, i)
            return
        self._perform(actions, tag, now(self.env))

    def _perform(self, actions: Output, tag: Any, at: float) -> None:
        """Perform ``actions`` at the simulated time ``at`` (now), with no send held back."""
        self.now = at
        end = at  # when the last frame sent has left: timers after a Send count from there
        for a in actions:
            # isinstance rather than type(a) is: as fast in Python, and it lets mypyc read the
            # action's fields natively
            if isinstance(a, Send):
                end = self.port.send_at(a.data, a.card, at)
            elif isinstance(a, StartTimer):
                self.timers.start(a.name, end + a.seconds)
            elif isinstance(a, CancelTimer):
                self.timers.cancel(a.name)
            else:
                self.on_event.hear(self, a, tag)

    def _run_gated(self, actions: Output, tag: Any, i: int) -> None:
        """:meth:`_run` when mechanics may hold a send back until a card is read or punched."""
        if self._holding:
            self._held.append((actions, i, tag))
            return
        self.now = now(self.env)
        port = self.port
        last_end = None
        for a in actions[i:] if i else actions:
            i += 1
            if isinstance(a, Send):  # (the action classes have no subclasses: as ``type(a) is``)
                hold = self.hold_send(a)
                if hold is not None:
                    self._hold(actions, i - 1, tag, hold)
                    return
                last_end = port.send(a.data, a.card)
            elif isinstance(a, StartTimer):
                self.timers.start(a.name, (self.env.now if last_end is None else last_end) + a.seconds)
            elif isinstance(a, CancelTimer):
                self.timers.cancel(a.name)
            else:
                self.on_event.hear(self, a, tag)
                self.after_event(a)
        if self._held:
            self._release()

    def hold_send(self, send: Send) -> float | simpy.events.Event | None:
        """Subclasses: ``None`` to send now, or a time / an event to wait for first."""
        return None

    def after_event(self, event: Event) -> None:
        """Subclasses: react to the core's events (feed the reader, the punch …)."""

    def _hold(self, actions: Output, i: int, tag: Any,
              until: float | simpy.events.Event) -> None:
        self._holding = True
        ev = until if isinstance(until, simpy.events.Event) else self.env.timeout(until - self.env.now)
        ev.callbacks.append(lambda _ev: self._resume(actions, i, tag))

    def _resume(self, actions: Output, i: int, tag: Any) -> None:
        self._holding = False
        self._run_released(actions, i, tag)

    def _run_released(self, actions: Output, i: int, tag: Any) -> None:
        # the held action itself is performed now, without asking hold_send again
        self.now = now(self.env)
        held = cast(Send, actions[i])  # only a Send is ever held back (_run_gated)
        end = self.port.send(held.data, held.card)
        rest = list(actions[i + 1:])
        # timers right after it count from its end
        j = 0
        while j < len(rest):
            timer = rest[j]
            if not isinstance(timer, StartTimer):
                break
            self.timers.start(timer.name, end + timer.seconds)
            j += 1
        self._run(rest[j:], tag)

    def _release(self) -> None:
        while self._held and not self._holding:
            actions, i, tag = self._held.popleft()
            self._run(actions, tag, i)


class SendingTerminal(Terminal):
    """A 1013 reading cards and transmitting them.  ``reader`` is ``None`` when mechanics are off;
    ``columns_moved[k]`` is how many columns the reader passes for the k-th card sent."""

    def __init__(
        self, env: simpy.Environment, core: Transmitter, port: Port, *, on_event: EventSink | EventCallback,
        reader: CardReader[int] | None = None, overlap: bool = True,
        columns_moved: Sequence[int] = (),
    ) -> None:
        super().__init__(env, core, port, name="sender", on_event=on_event)
        self.reader = reader
        self.overlap = overlap
        self.columns_moved = columns_moved
        self._read: dict[int, simpy.events.Event] = {}
        self._first = core.first_card
        self.hopper = Hopper(range(core.first_card, core.total_cards + 1))
        self.gated = reader is not None
        if reader is not None:
            reader.out = self._card_read
        self._tx = core          # the core by its own type: compiled, a direct call per frame

    def put(self, frame: Frame) -> None:
        """Replies from the line."""
        self._arrived(self._tx.receive_data(frame.data), frame)

    def start(self) -> None:
        if self.reader is not None:
            self._feed(self._first)
        super().start()

    def _feed(self, number: int) -> None:
        """Take cards from the hopper into the reader up to card ``number``."""
        if self.reader is None:
            return
        while len(self.hopper) and number not in self._read:
            card = self.hopper.take()
            self._read[card] = self.env.event()
            self.reader.put(card, self.columns_moved[card - self._first])

    def _card_read(self, number: int) -> None:
        self._read[number].succeed()

    def hold_send(self, send: Send) -> float | simpy.events.Event | None:
        if self.reader is None or send.attempt != 1 or send.card is None:
            return None
        self._feed(send.card)
        ready = self._read[send.card]
        if self.overlap:
            self._feed(send.card + 1)
        return None if ready.processed else ready

    def after_event(self, event: Event) -> None:
        if self.reader is not None and not self.overlap and isinstance(event, (CardDelivered, CardFailed)):
            self._feed(event.number + 1)


class ReceivingTerminal(Terminal):
    """A 1013 receiving cards and punching them.  ``punch`` is ``None`` when mechanics are off."""

    def __init__(
        self, env: simpy.Environment, core: Receiver, port: Port, *, on_event: EventSink | EventCallback,
        punch: CardPunch[int] | None = None, overlap: bool = True,
        columns_moved: Callable[[bytes], int] | None = None,
    ) -> None:
        super().__init__(env, core, port, name="receiver", on_event=on_event)
        self.punch = punch
        self.overlap = overlap
        self.columns_moved = columns_moved
        self._reply_at: float | None = None
        self.gated = punch is not None
        self.stacker: Stacker[int] = Stacker()  # the numbers of the cards punched
        if punch is not None:
            punch.out = self.stacker.put
        self._rx = core          # the core by its own type: compiled, a direct call per frame

    def put(self, frame: Frame) -> None:
        """Records from the line."""
        self._arrived(self._rx.receive_data(frame.data), frame)

    def after_event(self, event: Event) -> None:
        if self.punch is not None and type(event) is CardAccepted:
            start = self.punch.start_time()
            done = self.punch.put(event.number, self.columns_moved(event.data) if self.columns_moved
                                  else 80)
            self._reply_at = start if self.overlap else done

    def hold_send(self, send: Send) -> float | None:
        at, self._reply_at = self._reply_at, None
        if at is None or at <= self.env.now:
            return None
        return at
