"""What the simulation relies on in SimPy's insides (emulator.sim.kernel), pinned: a SimPy release
that changes any of it fails here, by name, rather than somewhere in a transfer."""

from __future__ import annotations

from typing import Any

import simpy
from simpy.events import NORMAL

from emulator.sim.kernel import Scheduler, now, scheduled_events


class Ticket:
    """The least SimPy's loop asks of an event: ``callbacks`` and ``_ok``."""

    def __init__(self, log: list, name: str) -> None:
        self.callbacks = [lambda ev: log.append((ev.env_now(), name))]
        self._ok = True
        self.env_now = lambda: 0.0


def test_the_clock_is_env_now_without_the_property():
    env = simpy.Environment(initial_time=2.5)
    assert now(env) == env.now == 2.5
    env.timeout(4.0)
    env.run()
    assert now(env) == env.now == 6.5


def test_an_entry_of_simpys_queue_is_time_priority_number_event():
    env = simpy.Environment()
    before = scheduled_events(env)
    timeout = env.timeout(3.0)
    assert len(env._queue) == 1
    at, priority, number, event = env._queue[0]
    assert (at, priority, event) == (3.0, NORMAL, timeout) and number == before + 1
    Scheduler(env).schedule(5.0, "x")
    assert sorted(env._queue)[1][:2] == (5.0, NORMAL) and sorted(env._queue)[1][3] == "x"
    assert Scheduler(env).pending() == 2
    assert scheduled_events(env) == before + 3  # the numbers run on, one per event scheduled


def test_an_object_with_callbacks_and_ok_is_an_event_to_simpys_loop_in_scheduling_order():
    """Events due at one time run in the order they were scheduled, SimPy's own and ours alike; the
    loop sets the clock to the entry's time, calls each callback with the event, then sets
    ``callbacks`` to None."""
    env = simpy.Environment()
    log: list = []
    scheduler = Scheduler(env)
    env.timeout(1.0).callbacks.append(lambda _ev: log.append((now(env), "simpy first")))
    ours = Ticket(log, "ours")
    ours.env_now = lambda: now(env)
    scheduler.schedule(1.0, ours)
    env.timeout(1.0).callbacks.append(lambda _ev: log.append((now(env), "simpy last")))
    early = Ticket(log, "earlier")
    early.env_now = lambda: now(env)
    scheduler.schedule(0.5, early)
    env.run()
    assert log == [(0.5, "earlier"), (1.0, "simpy first"), (1.0, "ours"), (1.0, "simpy last")]
    assert ours.callbacks is None and early.callbacks is None
    assert env.now == 1.0


def test_the_loop_stops_at_until_with_our_events_left_on_the_queue():
    env = simpy.Environment()
    log: list = []
    late = Ticket(log, "late")
    Scheduler(env).schedule(10.0, late)
    env.run(until=4.0)
    assert log == [] and now(env) == 4.0 and late.callbacks is not None



def test_the_schedulers_heap_pops_as_heapq_would_among_simpys_own_events():
    """The scheduler sifts its entries up itself (on the times alone); mixed with SimPy's own
    timeouts (int and float times) and urgent events, every event still runs in the order of
    (time, priority, number), the order heapq gives."""
    import random

    env = simpy.Environment()
    scheduler = Scheduler(env)
    rng = random.Random(7)
    log: list = []
    key: dict[int, int] = {}
    for k in range(600):
        at = rng.choice([rng.randint(0, 30), rng.randint(0, 60) / 2, rng.random() * 30])
        event: Any
        if k % 3 == 0:
            event = env.timeout(at)                   # SimPy's own: NORMAL, its next number
        elif k % 7 == 0:
            event = env.event()                       # succeeded now: URGENT, at time 0
            event.succeed()
        else:
            event = Ticket(log, "")
            event.callbacks = []
            scheduler.schedule(float(at), event)
        event.callbacks.append(lambda _ev, k=k: log.append(k))
        key[id(event)] = k
    want = [key[id(entry[3])] for entry in sorted(env._queue, key=lambda e: e[:3])]
    env.run()
    assert len(want) == 600 and log == want
