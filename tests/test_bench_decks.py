"""tools.bench_decks: the two solvers side by side, resumable from a results file."""

from __future__ import annotations

import json

import pytest

from tools import bench_decks

RESTARTS = {"king-albert": "2026-12-03e", "klondike-flip3": "2026-12-05c", "la-belle-lucie": "2026-12-03b"}
"""By game, the search version of the restarts' records in docs/solver-bench.jsonl (today's search
for the game: :func:`decks.solver.same_search`; Klondike flip 3 and La Belle Lucie were searched
again when the stuck-card test changed their search, King Albert when its restarts changed to a
best-first order and the new one, and again when that order's measure changed; Klondike flip 3
again with the deeper safe plays of search 2026-12-04, with the stock's turns of 2026-12-04b and
with the turn-up test of 2026-12-04c, with the waste judged the first way in 2026-12-04d, with the
hand cards that reach the tableau only beneath the card asking in 2026-12-05, and with a best-first
run first in its first rounds in 2026-12-05b)."""


def _run(capsys, *args: str) -> list[dict]:
    assert bench_decks.main(["--game", "king-albert", "--nodes", "300", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_results_file_resumes_and_the_counts_are_its_records(tmp_path, capsys):
    path = tmp_path / "bench.jsonl"
    first = _run(capsys, "--deals", "2", "--results", str(path))
    lines = path.read_text().splitlines()
    assert len(lines) == 4                       # 2 deals x 2 solvers
    (entry,) = _run(capsys, "--deals", "1-3", "--workers", "2", "--results", str(path))
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(records) == 6 and records[:4] == [json.loads(line) for line in lines]    # kept, not redone
    assert entry["solvers"]["new"]["deals"][:2] == first[0]["solvers"]["new"]["deals"]
    for name, per in entry["solvers"].items():
        mine = [r for r in records if r["solver"] == name]
        s = per["summary"]
        assert s["nodes"] == sum(r["nodes"] for r in mine)
        assert s["decided"] == sum(r["verdict"] != "undecided" for r in mine) == s["won"] + s["lost"]
    assert entry["deals"] == "1-3"


@pytest.mark.parametrize("args, says", [(["--deals", "0"], "--deals"), (["--workers", "0"], "--workers"),
                                        (["--game", "no-such-game"], "no-such-game")])
def test_bad_arguments_stop_before_any_work(args, says, capsys):
    with pytest.raises(SystemExit) as stop:
        bench_decks.main(args)
    assert stop.value.code == 2 and says in capsys.readouterr().err


def test_a_damaged_results_file_is_named_with_its_line(tmp_path, capsys):
    path = tmp_path / "bench.jsonl"
    path.write_text('{"game": "king-albert"}\n')
    with pytest.raises(SystemExit) as stop:
        bench_decks.main(["--deals", "1", "--results", str(path)])
    assert stop.value.code == 2 and f"{path} line 1: not a bench_decks record" in capsys.readouterr().err
    assert path.read_text() == '{"game": "king-albert"}\n'


def test_the_documented_solver_speeds_are_the_recorded_ones():
    """docs/games.md's table of the solver's speed and reach counts the records it points to."""
    import re
    from pathlib import Path

    from decks import engine, solver

    root = Path(__file__).resolve().parent.parent
    records = [json.loads(line) for line in (root / "docs" / "solver-bench.jsonl").read_text().splitlines()]
    text = (root / "docs" / "games.md").read_text()
    section = text[text.index("## How fast the solver searches"):text.index("## Sources")]
    row = (r"^\| ([^|]*?) \| (before|30 Nov, as Python|30 Nov, compiled|now, compiled) \| ([\d,]+) \| (\d+) "
           r"\| (\d+) \| (\d+) \|$")
    rows = re.findall(row, section, re.M)
    titles = {engine.get_game(name).title: name for name in engine.game_names()}
    assert len(rows) == 12
    game = None
    solvers = {"before": ("baseline", "baseline"), "30 Nov, as Python": ("python", "2026-11-30"),
               "30 Nov, compiled": ("new", "2026-11-30 compiled"),
               "now, compiled": ("new", "restarts")}
    for title, which, speed, won, lost, undecided in rows:
        game = titles[title] if title else game
        name, version = solvers[which]
        version = RESTARTS[game] + " compiled" if version == "restarts" else version
        mine = [r for r in records
                if (r["game"], r["solver"], r["version"], r["node_limit"]) == (game, name, version, 50_000)]
        assert sorted(r["deal"] for r in mine) == list(range(1, 101))
        s = bench_decks.summary(mine)
        assert f"{s['nodes_per_s']:,.0f}" == speed
        assert (s["won"], s["lost"], s["undecided"]) == (int(won), int(lost), int(undecided))
        assert s["bad_replays"] == []
    verdicts = {(r["game"], r["version"], r["node_limit"], r["deal"]): r["verdict"] for r in records}
    nodes = {(r["game"], r["version"].removesuffix(" compiled"), r["solver"], r["deal"]): r["nodes"]
             for r in records if r["node_limit"] == 50_000}
    assert all(nodes[(g, v, "python", d)] == n for (g, v, name, d), n in nodes.items()
               if name == "new" and (g, v, "python", d) in nodes)      # the same search, node for node
    assert len(verdicts) == len(records) == 1500
    for game, restarts in RESTARTS.items():
        assert {r["version"] for r in records
                if r["solver"] == "new" and r["node_limit"] == 50_000 and r["game"] == game} == {
            "2026-11-30 compiled", restarts + " compiled"}
    assert all(solver.same_search(RESTARTS[game], game) for game in {r["game"] for r in records})
    larger = re.findall(r"(\d+) of (?:these|the) (.+?) deals \((\d+) won, (\d+) (?:proved lost|lost in "
                        r"its pruned tree)\)",
                        " ".join(section.split()))
    assert len(larger) == 3
    for decided, title, won, lost in larger:
        mine = [r for r in records if (r["game"], r["node_limit"]) == (titles[title.strip()], 500_000)]
        s = bench_decks.summary(mine)
        assert len(mine) == 100 and (s["decided"], s["won"], s["lost"]) == (int(decided), int(won), int(lost))
    for game in {r["game"] for r in records}:
        for d in range(1, 101):             # "the same verdict on every deal both decide", at either limit
            runs = [("baseline", 50_000), ("2026-11-30", 50_000), ("2026-11-30 compiled", 50_000),
                    ("2026-11-30 compiled", 500_000), (RESTARTS[game] + " compiled", 50_000)]
            seen = {verdicts[(game, version, limit, d)] for version, limit in runs} - {"undecided"}
            assert len(seen) <= 1, (game, d)


def test_ctrl_c_ends_a_parallel_run_with_one_line_and_keeps_every_finished_deal(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    from tests.processes import default_stop_signals

    path = tmp_path / "bench.jsonl"
    run = subprocess.Popen([sys.executable, "-m", "tools.bench_decks", "--game", "king-albert",
                            "--deals", "1-40", "--nodes", "5000", "--workers", "2", "--results", str(path),
                            "--json"],  # 5,000 positions a deal: two rows soon even at load 15
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                           preexec_fn=default_stop_signals)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (path.exists() and path.read_text().count("\n") >= 2):
            time.sleep(0.1)
        os.killpg(run.pid, signal.SIGINT)      # as Ctrl-C does: the whole process group
        out, err = run.communicate(timeout=60)
    finally:
        run.kill()
    assert run.returncode == 130 and out == b""
    assert err.decode().splitlines()[-1] == f"bench_decks: interrupted; every deal finished is kept in {path}"
    assert b"Traceback" not in err
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert 2 <= len(records) < 80 and len({(r["solver"], r["deal"]) for r in records}) == len(records)


def test_all_three_solvers_side_by_side_the_python_one_from_its_source(tmp_path, capsys):
    from decks import solver

    path = tmp_path / "bench.jsonl"
    (entry,) = _run(capsys, "--deals", "1", "--solver", "all", "--results", str(path))
    records = {r["solver"]: r for r in map(json.loads, path.read_text().splitlines())}
    assert set(records) == {"baseline", "python", "new"}
    assert records["python"]["version"] == solver.SEARCH_VERSION            # the source ran, not a build
    assert records["new"]["version"].endswith(" compiled") == (solver.CORE == "compiled")
    assert records["python"]["nodes"] == records["new"]["nodes"]          # the same search
    assert set(entry["versus_baseline"]) == {"python", "new"}
    for name in ("python", "new"):
        s = entry["solvers"][name]["summary"]
        assert entry["versus_baseline"][name]["nodes_per_s"] == pytest.approx(
            s["nodes_per_s"] / entry["solvers"]["baseline"]["summary"]["nodes_per_s"])
