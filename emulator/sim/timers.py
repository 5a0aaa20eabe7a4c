"""Named timers on a SimPy clock that are cheap to restart.

A protocol restarts its reply timer after every record; making that a fresh SimPy event each time
would double the events per record.  :class:`Timers` keeps only deadlines, and the environment's
:class:`AlarmClock` one wake-up event for the earliest deadline of all its timers; restarting a
timer just moves a number.  The wake-up is a :class:`WakeUp` put
on SimPy's queue the way ``Environment.schedule`` puts a timeout, as the line's frames are, through
:mod:`emulator.sim.kernel`: SimPy's loop reads only its ``callbacks`` and ``_ok``, and it costs no
Python-level ``Timeout``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import simpy

from emulator.sim.kernel import Scheduler, now


class WakeUp:
    """The event that wakes :class:`Timers` at ``at`` (what SimPy's loop reads: ``callbacks``,
    ``_ok``)."""

    def __init__(self, at: float, callbacks: list[Callable[[WakeUp], None]]) -> None:
        self.at = at
        self.callbacks: list[Callable[[WakeUp], None]] | None = callbacks
        self._ok = True


class AlarmClock:
    """The one wake-up of every :class:`Timers` of a SimPy environment: on SimPy's queue sits a single
    :class:`WakeUp`, for the earliest deadline of them all.  Each item on SimPy's event heap makes
    every event dearer (a heap of four costs four tuple comparisons an event, a heap of two one), and
    a model's timers are restarted far more often than they expire: a simulated transfer keeps one
    frame on the line and this clock's wake-up, where one wake-up for each terminal and one for the
    run's time limit made four.  Made by :func:`alarm_clock`, one for each environment."""

    def __init__(self, env: simpy.Environment) -> None:
        self.env = env
        self.timers: list[Timers] = []
        self.wake_at = math.inf
        self.wakeups = 0
        self._scheduler = Scheduler(env)
        # shared by every wake-up: SimPy only reads it
        self._callbacks: list[Callable[[WakeUp], None]] = [self._wake]

    def wake_by(self, at: float) -> None:
        """Make sure of a wake-up no later than ``at``."""
        if at < self.wake_at:
            self._schedule(at)

    def _schedule(self, at: float) -> None:
        self.wake_at = at
        t = now(self.env)
        when = t + max(0.0, at - t)  # the time env.timeout(at - t) would be scheduled at
        self._scheduler.schedule(when, WakeUp(at, self._callbacks))

    def _wake(self, ev: WakeUp) -> None:
        self.wakeups += 1
        t = now(self.env)
        if ev.at == self.wake_at:  # the wake-up asked for last (others are older, later ones)
            self.wake_at = math.inf
        nxt = math.inf
        for timers in self.timers:  # in the order they were made; an expiry may start others
            soonest = timers._expire(t)
            if soonest < nxt:
                nxt = soonest
        if nxt < self.wake_at:  # usually a timer restarted since: sleep until its deadline
            self._schedule(nxt)


def alarm_clock(env: simpy.Environment) -> AlarmClock:
    """The :class:`AlarmClock` of ``env`` (made, and kept on the environment, at the first call)."""
    clock = getattr(env, "_alarm_clock", None)
    if clock is None:
        clock = AlarmClock(env)
        setattr(env, "_alarm_clock", clock)  # noqa: B010 (an attribute SimPy's Environment does not declare)
    return clock


class Timers:
    """Deadlines by name; ``on_expire(name)`` is called when one passes.  Every ``Timers`` of an
    environment shares its :class:`AlarmClock`."""

    def __init__(self, env: simpy.Environment, on_expire: Callable[[str], None]) -> None:
        self.env = env
        self.on_expire = on_expire
        self.deadlines: dict[str, float] = {}
        self.clock = alarm_clock(env)
        self.clock.timers.append(self)

    @property
    def wakeups(self) -> int:
        """Wake-ups of the environment's clock so far (shared with its other timers)."""
        return self.clock.wakeups

    def start(self, name: str, at: float) -> None:
        """Run timer ``name`` until the absolute time ``at`` (replacing a running one)."""
        self.deadlines[name] = at
        self.clock.wake_by(at)

    def cancel(self, name: str) -> None:
        self.deadlines.pop(name, None)

    def _expire(self, now: float) -> float:
        """Tell of every deadline passed by ``now``; the soonest one left (infinity if none).  Most
        wake-ups find every timer restarted since (nothing passed): one loop over the deadlines."""
        soonest = _soonest(self.deadlines)
        if soonest > now:
            return soonest
        deadlines = self.deadlines
        for name, at in list(deadlines.items()):
            if at <= now and deadlines.get(name) == at:
                del deadlines[name]
                self.on_expire(name)
        return _soonest(deadlines)


def _soonest(deadlines: dict[str, float]) -> float:
    """The earliest of ``deadlines`` (infinity if none): a loop of machine floats when compiled, where
    ``min(deadlines.values())`` is a generic call."""
    soonest = math.inf
    for at in deadlines.values():
        if at < soonest:
            soonest = at
    return soonest
