"""SimPy's insides, reached from this one module.

The line and the timers run once or twice per simulated card, so they skip SimPy's public ways
where those cost a call each time: they read the clock as ``env._now`` (``env.now`` is a property)
and put their own event-like objects on ``env._queue`` exactly as ``Environment.schedule`` does,
as ``(time, priority, event number, event)`` with the next number of ``env._eid``.  SimPy's loop
(``Environment.step``) pops the smallest entry, sets ``env._now`` to its time and asks the event
only for ``callbacks`` (called with the event, then set to ``None``) and ``_ok`` (true: it
succeeded) — so an object with those two attributes is an event as far as the loop is concerned.

None of this is SimPy's public interface.  Every other module of the simulation goes through the
names here, and ``tests/test_sim_kernel.py`` pins what they rely on (the clock, the queue's entry
layout, the order of events at one time), so a SimPy release that changes it fails there, loudly,
rather than somewhere in a transfer.  SimPy is pinned below 5 in ``pyproject.toml``.
"""

from __future__ import annotations

from collections.abc import Callable
from heapq import heappush
from typing import Any, Final

import simpy
from simpy.events import NORMAL

_NORMAL: Final = NORMAL      # SimPy's priority of an ordinary event; Final: C statics when compiled
_heappush: Final = heappush


def now(env: simpy.Environment) -> float:
    """The simulated time of ``env`` (``env.now`` without the property)."""
    return env._now


class Scheduler:
    """Puts event-like objects (``callbacks`` and ``_ok``, see the module docstring) on the event
    queue of one environment, the way ``Environment.schedule`` puts its events: at an absolute time,
    with the ordinary priority and the next event number, so that events due at the same time run
    in the order they were scheduled, SimPy's own among them."""

    def __init__(self, env: simpy.Environment) -> None:
        self.env = env
        self._queue: list[Any] = env._queue             # the same list for the environment's life
        self._next_id: Callable[[], int] = env._eid.__next__

    def schedule(self, at: float, event: object) -> None:
        """Have SimPy's loop run ``event``'s callbacks at the absolute time ``at`` (not before now)."""
        _heappush(self._queue, (at, _NORMAL, self._next_id(), event))

    def pending(self) -> int:
        """Events on the queue now."""
        return len(self._queue)


def scheduled_events(env: simpy.Environment) -> int:
    """How many events ``env`` has scheduled so far (SimPy numbers them in order; this takes one
    number, which is harmless)."""
    return next(env._eid)
