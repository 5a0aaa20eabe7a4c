"""``python -m tools.bench_serial --where``: a card's round trip timed stage by stage."""

from __future__ import annotations

from tools import bench_serial
from tools.bench_serial import STAGES, Stamps, stages


def stamped(points: list[tuple[str, int]]) -> Stamps:
    s = Stamps()
    s.points = [(kind, t * 1000) for kind, t in points]  # given in µs, kept in ns
    return s


def test_stages_pair_the_two_ends_points_in_time_order():
    # two cards: the record goes (w), arrives in two reads at the far end, the reply goes back
    near = stamped([("w", 0), ("r", 85), ("w", 88), ("r", 176), ("w", 180)])
    far = stamped([("r", 30), ("r", 40), ("w", 45), ("r", 130), ("w", 136)])
    got = stages(near, far)
    assert got[STAGES[0]] == [30.0, 42.0]     # from the write to the first read of the record
    assert got[STAGES[1]] == [5.0, 6.0]       # from the record's last read to the reply's write
    assert got[STAGES[2]] == [40.0, 40.0]
    assert got[STAGES[3]] == [3.0, 4.0]
    assert got["a card"] == [88.0, 92.0]      # from one record's write to the next


def test_the_bare_ping_pong_marks_every_read_and_write_at_both_ends_across_processes():
    with bench_serial.pty_pair("virtual") as (a, b):
        near, far = Stamps(), Stamps()
        bench_serial.os_ping_pong(a, b, 25, apart=True, stamps=(near, far))
    assert [k for k, _ in near.points].count("w") == 25
    assert [k for k, _ in far.points].count("w") == 25   # the echo's points came back from its process
    got = stages(near, far)
    assert len(got[STAGES[0]]) == len(got[STAGES[1]]) == len(got[STAGES[2]]) == 25
    assert len(got[STAGES[3]]) == len(got["a card"]) == 24  # no record follows the last reply
    assert all(v > 0 for values in got.values() for v in values)


def test_where_prints_every_stage_for_the_baseline_and_the_transfer(capsys):
    deck = bench_serial.make_deck(20)
    with bench_serial.pty_pair("virtual") as (a, b):
        bench_serial.where(a, b, deck, 1)
    lines = capsys.readouterr().out.splitlines()
    for name in (*STAGES, "a card"):
        row = next(line for line in lines if line.startswith(name))
        numbers = [float(x) for x in row[len(name):].split()]
        assert len(numbers) == 4 and all(x > 0 for x in numbers), row
