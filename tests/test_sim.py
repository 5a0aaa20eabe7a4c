"""SimPy line pieces, timers and card machines: each does its one job on the clock."""

from collections import Counter

import pytest
import simpy

from emulator.noise import BitErrors, LineCut
from emulator.sim.devices import CardPunch, CardReader, Hopper, Stacker
from emulator.sim.line import Cut, Frame, Line, Noisy, Port, Wire, scheduled_events
from emulator.sim.timers import Timers


class Catch:
    def __init__(self, env):
        self.env, self.got = env, []

    def put(self, frame):
        self.got.append((self.env.now, frame.data, frame.tag))


def test_port_serializes_at_the_bit_rate_and_the_wire_delivers_with_one_event():
    env = simpy.Environment()
    catch = Catch(env)
    port = Port(env, 1200)
    port.out = Wire(env, 0.01, catch)
    port.put(Frame(b"x" * 150, tag=1))
    port.put(Frame(b"y" * 15, tag=2))  # waits for the first to leave
    env.run()
    assert catch.got[0][0] == pytest.approx(1.01) and catch.got[0][2] == 1
    assert catch.got[1][0] == pytest.approx(1.11)
    assert scheduled_events(env) == 2 and port.chars == 165



def test_send_makes_the_frame_and_the_port_notes_when_the_first_record_left():
    """``send`` returns when the last bit leaves; ``first_tagged`` is the start of the first frame
    with a tag (a card's record), not of the untagged sync characters before it."""
    env = simpy.Environment()
    catch = Catch(env)
    port = Port(env, 1200)
    port.out = Wire(env, 0.0, catch)
    assert port.send(b"s" * 3) == pytest.approx(0.02) and port.first_tagged is None
    assert port.send(b"r" * 90, tag=1) == pytest.approx(0.62)
    port.send(b"q" * 30, tag=2)
    env.run()
    assert port.first_tagged == pytest.approx(0.02)
    assert [tag for _, _, tag in catch.got] == [None, 1, 2]

def test_half_duplex_turns_around_full_duplex_does_not():
    for duplex, expected in (("full", 0.1), ("half", 0.1 + 0.2 + 0.1)):
        env = simpy.Environment()
        line = Line(env, bit_rate=1200, duplex=duplex, turnaround_s=0.2)
        a, b = Catch(env), Catch(env)
        line.to_a.out, line.to_b.out = a, b
        line.from_a.put(Frame(b"r" * 15))
        line.from_b.put(Frame(b"k" * 15))
        env.run()
        assert a.got[0][0] == pytest.approx(expected)


def test_cut_truncates_the_frame_on_the_line_and_drops_later_ones():
    env = simpy.Environment()
    catch = Catch(env)
    port = Port(env, 800)  # 100 characters per second
    port.out = Cut(LineCut(0.055))
    port.out.out = Wire(env, out=catch)
    port.put(Frame(b"abcdefghij"))
    port.put(Frame(b"later"))
    env.run()
    assert catch.got == [(pytest.approx(0.05), b"abcde", None)]


def test_noisy_piece_flips_bits():
    env = simpy.Environment()
    catch = Catch(env)
    port = Port(env, 1200)
    port.out = Noisy(BitErrors(0.05, seed=1))
    port.out.out = Wire(env, out=catch)
    port.put(Frame(bytes(100)))
    env.run()
    assert catch.got[0][1] != bytes(100)


def test_timers_restart_cheaply_and_fire_once():
    env = simpy.Environment()
    fired = []
    timers = Timers(env, lambda name: fired.append((env.now, name)))
    timers.start("reply", 3.0)
    for t in range(1, 10):  # restarted every second: never expires while restarted
        env.timeout(t).callbacks.append(lambda _e: timers.start("reply", env.now + 3.0))
    timers.start("idle", 5.5)
    timers.cancel("idle")
    env.run()
    assert fired == [(12.0, "reply")]
    assert timers.wakeups <= 5


def test_every_timers_of_an_environment_shares_one_wake_up():
    env = simpy.Environment()
    fired = []
    a = Timers(env, lambda name: fired.append((env.now, "a", name)))
    b = Timers(env, lambda name: fired.append((env.now, "b", name)))
    a.start("reply", 2.0)
    b.start("idle", 3.0)
    b.start("reply", 4.0)
    assert len(env._queue) == 1  # one wake-up on SimPy's heap, for the soonest deadline of both
    env.run()
    assert fired == [(2.0, "a", "reply"), (3.0, "b", "idle"), (4.0, "b", "reply")]
    assert a.clock is b.clock and a.wakeups == 3


def test_a_simulated_transfer_keeps_two_events_on_simpys_heap(monkeypatch):
    """The frame on the line and the alarm clock's one wake-up: each more would cost every event
    more comparisons in SimPy's heap (the terminals' two wake-ups and the time limit made four)."""
    from ibm1013.sim.transfer import TransferConfig, run_transfer
    from tools.bench_simulate import make_deck

    sizes = Counter()
    step = simpy.Environment.step

    def counted(env):
        sizes[len(env._queue)] += 1
        step(env)

    monkeypatch.setattr(simpy.Environment, "step", counted)
    transfer = run_transfer(make_deck(300), TransferConfig.build(ber=1e-4, seed=3))
    assert transfer.report.ended == "complete" and transfer.report.retransmissions > 0
    assert sizes[2] > 600 and sum(n for size, n in sizes.items() if size > 2) <= 1  # 3 once, at the start


def test_card_machines_take_feed_plus_columns():
    env = simpy.Environment()
    stacker = Stacker()
    punch = CardPunch(env, feed_s=0.1, columns_per_s=160, out=stacker.put)
    hopper = Hopper(["a", "b"])
    reader = CardReader(env, feed_s=0.1, columns_per_s=160, out=lambda c: punch.put(c, 40))
    assert reader.put(hopper.take(), 80) == pytest.approx(0.6)
    assert reader.put(hopper.take(), 80) == pytest.approx(1.2)
    env.run()
    assert stacker.cards == ["a", "b"] and len(hopper) == 0
    assert env.now == pytest.approx(1.2 + 0.35)


def test_line_refuses_unknown_duplex():
    with pytest.raises(ValueError):
        Line(simpy.Environment(), bit_rate=1200, duplex="quarter")
