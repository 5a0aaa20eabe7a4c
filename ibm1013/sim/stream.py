"""A card stream on the simulated line: :mod:`ibm1013.str.stream` in the SimPy model.

The same two machines as over a serial port (:mod:`ibm1013.line.stream`), each in a plain
:class:`~ibm1013.sim.terminal.Terminal` on the SimPy :class:`~emulator.sim.line.Line` (noise, cut,
propagation exactly as for deck transfers).  The player is a SimPy process: at each of its times it
makes cards and hands them to the stream transmitter.  :func:`simulate_stream` returns, for every card,
when it was made and when the far end accepted it, which gives the latency of each move.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import simpy

from emulator.card import Card
from ibm1013.sim.terminal import Terminal
from ibm1013.sim.transfer import TransferConfig, build_line
from ibm1013.str import CardAccepted, CardFailed, SessionEnded
from ibm1013.str.events import Output
from ibm1013.str.stream import KEEPALIVE_S, StreamReceiver, StreamTransmitter

Made = Callable[[], list[Card]]
"""The player's move: called at its time, returns the cards it made."""


@dataclass
class StreamRun:
    """What a simulated stream did.  ``made[n]`` / ``accepted[n]``: simulated time card ``n`` was
    made at the player's end and accepted at the watcher's."""

    made: dict[int, float] = field(default_factory=dict)
    accepted: dict[int, float] = field(default_factory=dict)
    retransmissions: int = 0
    keepalives: int = 0
    records_sent: int = 0
    failed: list[int] = field(default_factory=list)
    ended: dict[str, SessionEnded] = field(default_factory=dict)
    seconds: float = 0.0


class _Player(Terminal):
    """The sending terminal; :meth:`feed` hands it cards as the player makes them."""

    def feed(self, actions: Output) -> None:
        self._run(actions, None)


def simulate_stream(
    first: Sequence[Card], moves: Sequence[tuple[float, Made]], config: TransferConfig, *,
    on_card: Callable[[int, Card, float], None] | None = None, keepalive_s: float = KEEPALIVE_S,
    limit_s: float | None = None,
) -> StreamRun:
    """Stream ``first`` (the game deck) and then, at each ``(time, make)`` of ``moves`` (simulated
    seconds from the start), the cards ``make()`` returns; the session ends when the last is through.
    ``on_card(number, card, now)`` sees each card the watcher accepts (raise to stop the run)."""
    session = config.session
    env = simpy.Environment()
    line = build_line(env, config)
    run = StreamRun()
    tx = StreamTransmitter(first, session, keepalive_s=keepalive_s)
    rx = StreamReceiver(session)
    done = env.event()
    run.made.update({n: 0.0 for n in range(1, len(first) + 1)})

    def event(terminal: Terminal, ev: Any, tag: Any) -> None:
        if isinstance(ev, CardAccepted):
            run.accepted[ev.number] = env.now
            if on_card:
                on_card(ev.number, ev.card, env.now)
        elif isinstance(ev, CardFailed):
            run.failed.append(ev.number)
        elif isinstance(ev, SessionEnded):
            run.ended[terminal.name] = ev
            if len(run.ended) == 2 and not done.triggered:
                done.succeed()

    player = _Player(env, tx, line.from_a, name="player", on_event=event)
    watcher = Terminal(env, rx, line.from_b, name="watcher", on_event=event)
    line.to_b.out = watcher
    line.to_a.out = player

    def play() -> Any:
        for at, make in moves:
            if at > env.now:
                yield env.timeout(at - env.now)
            cards = make()
            for i in range(len(cards)):
                run.made[tx.total_cards + 1 + i] = env.now
            player.feed(tx.append(cards))
        player.feed(tx.close())

    player.start()
    watcher.start()
    env.process(play())
    end = moves[-1][0] if moves else 0.0
    limit = limit_s or end + 120.0 + 10.0 * len(first)
    env.run(until=simpy.AnyOf(env, [done, env.timeout(limit)]))
    run.retransmissions = tx.retransmissions
    run.keepalives = tx.keepalives
    run.records_sent = tx.records_sent
    run.seconds = env.now
    return run
