"""Named timers on a SimPy clock that are cheap to restart.

A protocol restarts its reply timer after every record; making that a fresh SimPy event each time
would double the events per record.  :class:`Timers` keeps only deadlines and one wake-up event for
the earliest of them; restarting a timer just moves a number.  The wake-up is a :class:`WakeUp` put
on SimPy's queue the way ``Environment.schedule`` puts a timeout (at the same time, with the same
priority and the next event number), as the line's frames are (:mod:`emulator.sim.line`): SimPy's
loop reads only its ``callbacks`` and ``_ok``, and it costs no Python-level ``Timeout``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from heapq import heappush
from typing import Any, Final

import simpy
from simpy.events import NORMAL

_NORMAL: Final = NORMAL      # SimPy's priority of an ordinary event; Final: C statics when compiled
_heappush: Final = heappush


class WakeUp:
    """The event that wakes :class:`Timers` at ``at`` (what SimPy's loop reads: ``callbacks``,
    ``_ok``)."""

    def __init__(self, at: float, callbacks: list[Any]) -> None:
        self.at = at
        self.callbacks: list[Any] | None = callbacks
        self._ok = True


class Timers:
    """Deadlines by name; ``on_expire(name)`` is called when one passes."""

    def __init__(self, env: simpy.Environment, on_expire: Callable[[str], None]) -> None:
        self.env = env
        self.on_expire = on_expire
        self.deadlines: dict[str, float] = {}
        self._wake_at = math.inf
        self.wakeups = 0
        self._queue: list[Any] = env._queue    # SimPy's event queue and event numbers (see WakeUp)
        self._next_id: Callable[[], int] = env._eid.__next__
        self._callbacks: list[Any] = [self._wake]  # shared by every wake-up: SimPy only reads it

    def start(self, name: str, at: float) -> None:
        """Run timer ``name`` until the absolute time ``at`` (replacing a running one)."""
        self.deadlines[name] = at
        if at < self._wake_at:
            self._schedule(at)

    def cancel(self, name: str) -> None:
        self.deadlines.pop(name, None)

    def cancel_all(self) -> None:
        self.deadlines.clear()

    def _schedule(self, at: float) -> None:
        self._wake_at = at
        now: float = self.env._now
        when = now + max(0.0, at - now)  # the time env.timeout(at - now) would be scheduled at
        _heappush(self._queue, (when, _NORMAL, self._next_id(), WakeUp(at, self._callbacks)))

    def _wake(self, ev: WakeUp) -> None:
        self.wakeups += 1
        now: float = self.env._now
        if ev.at == self._wake_at:  # the wake-up asked for last (others are older, later ones)
            self._wake_at = math.inf
        deadlines = self.deadlines
        if not deadlines:
            return
        if min(deadlines.values()) <= now:
            for name, at in list(deadlines.items()):
                if at <= now and deadlines.get(name) == at:
                    del deadlines[name]
                    self.on_expire(name)
            if not deadlines:
                return
        nxt = min(deadlines.values())  # usually a timer restarted since: sleep until its deadline
        if nxt < self._wake_at:
            self._schedule(nxt)
