"""Named timers on a SimPy clock that are cheap to restart.

A protocol restarts its reply timer after every record; making that a fresh SimPy event each time
would double the events per record.  :class:`Timers` keeps only deadlines and one wake-up event for
the earliest of them; restarting a timer just moves a number.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import simpy


class Timers:
    """Deadlines by name; ``on_expire(name)`` is called when one passes."""

    def __init__(self, env: simpy.Environment, on_expire: Callable[[str], None]) -> None:
        self.env = env
        self.on_expire = on_expire
        self.deadlines: dict[str, float] = {}
        self._wake_at = math.inf
        self.wakeups = 0

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
        self.env.timeout(max(0.0, at - self.env.now), at).callbacks.append(self._wake)

    def _wake(self, ev: simpy.events.Event) -> None:
        self.wakeups += 1
        now = self.env.now
        if ev.value == self._wake_at:  # the wake-up asked for last (others are older, later ones)
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
