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

from typing import Any, Final

import simpy
from simpy.events import NORMAL, URGENT

_NORMAL: Final = NORMAL      # SimPy's priority of an ordinary event; Final: C statics when compiled
assert URGENT < NORMAL       # the sift below relies on no priority after NORMAL


def now(env: simpy.Environment) -> float:
    """The simulated time of ``env`` (``env.now`` without the property)."""
    return env._now


class EventNumbers:
    """SimPy's event numbers (``env._eid``) in a field: :class:`Scheduler` puts one of these in place of
    the environment's ``itertools.count``, going on from the number it would have given next.  SimPy
    still takes its numbers with ``next()``; the scheduler takes them by reading and bumping the field,
    which compiled is two machine operations where ``next()`` is a generic call."""

    def __init__(self, first: int) -> None:
        self.next_number = first

    def __iter__(self) -> EventNumbers:
        return self

    def __next__(self) -> object:  # object: mypyc's iterator slot must return one, not a native int
        number = self.next_number
        self.next_number = number + 1
        return number


def event_numbers(env: simpy.Environment) -> EventNumbers:
    """The :class:`EventNumbers` of ``env`` (put in place at the first call)."""
    insides: Any = env  # SimPy's insides, as the module docstring says
    numbers = insides._eid
    if isinstance(numbers, EventNumbers):
        return numbers
    mine = EventNumbers(next(numbers))
    insides._eid = mine
    return mine


class Scheduler:
    """Puts event-like objects (``callbacks`` and ``_ok``, see the module docstring) on the event
    queue of one environment, the way ``Environment.schedule`` puts its events: at an absolute time,
    with the ordinary priority and the next event number, so that events due at the same time run
    in the order they were scheduled, SimPy's own among them.

    It pushes onto the heap itself, as ``heapq.heappush`` would (the same list afterwards): compiled,
    that compares the new entry's time with its parents' as machine floats, where ``heappush`` is a
    generic call comparing whole tuples.  A new entry is never less than a parent due at the same
    time: the parent's priority is ``NORMAL`` or the more urgent ``URGENT``, and its number is
    smaller, so only a later time moves it up."""

    def __init__(self, env: simpy.Environment) -> None:
        self.env = env
        self._queue: list[Any] = env._queue             # the same list for the environment's life
        self._numbers = event_numbers(env)

    def schedule(self, at: float, event: object) -> None:
        """Have SimPy's loop run ``event``'s callbacks at the absolute time ``at`` (not before now)."""
        numbers = self._numbers
        number = numbers.next_number
        numbers.next_number = number + 1
        entry: object = (at, _NORMAL, number, event)
        queue = self._queue
        pos = len(queue)
        queue.append(entry)
        while pos > 0:  # heapq's _siftdown, on the times alone (see the class docstring)
            up = (pos - 1) >> 1
            parent: tuple[Any, ...] = queue[up]
            parent_at: float = parent[0]
            if at >= parent_at:
                break
            queue[pos] = parent
            pos = up
        queue[pos] = entry

    def pending(self) -> int:
        """Events on the queue now."""
        return len(self._queue)


def scheduled_events(env: simpy.Environment) -> int:
    """How many events ``env`` has scheduled so far (SimPy numbers them in order; this takes one
    number, which is harmless)."""
    return next(env._eid)
