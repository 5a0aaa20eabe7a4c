"""tools.bench_solver (positions per second, the restarts against the search before them) and
tools.measure_shorten (a win's length as found and short): their rows hold what the searches did."""

from __future__ import annotations

import json

import pytest

from decks import engine, solver
from tools import bench_solver, measure_shorten


def test_bench_solver_counts_the_positions_of_both_searches(capsys):
    assert bench_solver.main(["--game", "king-albert", "--deals", "2-3", "--nodes", "2000", "--json"]) == 0
    [row] = json.loads(capsys.readouterr().out)
    expected = {name: sum(solver.solve(engine.deal("king-albert", d), 2000, restarts=restarts).nodes
                          for d in (2, 3)) for name, restarts in (("now", True), ("before", False))}
    assert (row["now_nodes"], row["before_nodes"]) == (expected["now"], expected["before"])
    assert row["ratio"] == round(row["now_per_s"] / row["before_per_s"], 2)


def test_measure_shorten_gives_both_lengths_of_a_win_that_replays(capsys):
    assert measure_shorten.main(["--game", "king-albert", "--deals", "2-3", "--max-nodes", "20000",
                                 "--positions", "2000", "--json"]) == 0
    lost, won = json.loads(capsys.readouterr().out)
    assert lost["verdict"] == solver.EXHAUSTED and "moves" not in lost
    assert won["found_moves"] == len(solver.solve(engine.deal("king-albert", 3), 20_000).moves)
    assert won["moves"] < won["found_moves"]


@pytest.mark.parametrize("tool", [bench_solver, measure_shorten])
@pytest.mark.parametrize("deals", ["x", "0", "5-2"])
def test_a_bad_deal_range_is_one_line_before_any_search(tool, deals, capsys):
    with pytest.raises(SystemExit) as stop:
        tool.main(["--game", "klondike", "--deals", deals])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1].endswith(f"error: --deals {deals!r}: " + (
        "write N or FIRST-LAST" if deals == "x" else "need 1 <= FIRST <= LAST"))
    assert "Traceback" not in err


def test_bench_solver_counts_instructions_a_position_in_both_checkouts(monkeypatch, capsys):
    """``--instructions``: the counted script's own searches (run here without valgrind, with made-up
    counts) give the positions, and the idle run's count is taken off."""
    import subprocess
    import sys

    from tools import callgrind

    def count(script, *args, root=callgrind.ROOT):
        out = subprocess.run([sys.executable, "-c", script, *args], cwd=root, capture_output=True,
                             text=True, check=True, timeout=300).stdout
        return (1_000 if args[-1] == "2" else 61_000), out

    monkeypatch.setattr(callgrind, "count", count)
    monkeypatch.setattr(bench_solver.shutil, "which", lambda name: "/usr/bin/" + name)
    assert bench_solver.main(["--instructions", "--before", callgrind.ROOT, "--game", "king-albert",
                              "--deals", "2-3", "--nodes", "300", "--json"]) == 0
    now, before = json.loads(capsys.readouterr().out)
    positions = sum(solver.solve(engine.deal("king-albert", d), 300).nodes for d in (2, 3))
    assert now["positions"] == before["positions"] == positions
    assert now["instructions"] == 60_000 and now["per_position"] == round(60_000 / positions)


@pytest.mark.parametrize("args, message", [
    (["--before", "."], "--before needs --instructions"),
    (["--instructions", "--before", "/nonexistent"], "not a checkout of this project"),
])
def test_bench_solver_refuses_a_before_it_cannot_count(args, message, capsys):
    with pytest.raises(SystemExit) as stop:
        bench_solver.main(args)
    assert stop.value.code == 2
    assert message in capsys.readouterr().err.splitlines()[-1]
