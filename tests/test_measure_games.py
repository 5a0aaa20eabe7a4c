"""``python -m tools.measure_games``: win rates over many deals, and the results file it resumes from."""

import json
import os
import re
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import external
import pytest

from decks import engine
from tools import measure_games

ROOT = Path(__file__).resolve().parent.parent
PATIENT = pytest.mark.timeout(600)
"""For the tests that start process pools and clusters, or shorten wins: their work is a count of
positions and deals, which a machine at a load of 25 on two cores does a dozen times slower than
an idle one; the timeout only guards against a hang."""


def _run(capsys, *args: str) -> tuple[int, dict | str]:
    code = measure_games.main([*args, "--json"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 else err)


@PATIENT
def test_counts_agree_with_the_records_and_a_rerun_resumes(tmp_path, capsys):
    results = tmp_path / "lucas.jsonl"
    code, first = _run(capsys, "lucas", "--deals", "1-3", "--max-nodes", "300", "--workers", "1",
                       "--results", str(results))
    assert code == 0 and first["searched_now"] == 3 and first["from_results_file"] == 0
    code, again = _run(capsys, "lucas", "--deals", "1-5", "--max-nodes", "300", "--workers", "2",
                       "--results", str(results))
    assert code == 0 and again["searched_now"] == 2 and again["from_results_file"] == 3
    records = [json.loads(line) for line in results.read_text().splitlines()]
    assert sorted(r["deal"] for r in records) == [1, 2, 3, 4, 5]
    for outcome in ("won", "lost", "unknown"):
        assert again[outcome] == sum(r["outcome"] == outcome for r in records)
    assert again["won"] + again["lost"] + again["unknown"] == again["count"] == 5
    assert again["nodes"] == sum(r["nodes"] for r in records)
    # the same deals searched afresh give the same outcomes: the records are reproducible
    code, fresh = _run(capsys, "lucas", "--deals", "1-5", "--max-nodes", "300", "--workers", "1")
    assert [fresh[k] for k in ("won", "unknown", "nodes")] == [again[k] for k in ("won", "unknown", "nodes")]


def test_an_exact_search_is_not_reported_as_zero_solver_nodes(capsys):
    """Issue 47 item 9: a game decided by its exact search printed "0 solver nodes, 0 per second"."""
    code = measure_games.main(["auld-lang-syne", "--deals", "1-3", "--workers", "1"])
    out = capsys.readouterr().out
    assert code == 0 and "exact search" in out and "solver nodes" not in out, out
    assert "decided by the game's exact search" in out


def test_other_settings_are_searched_anew_and_kept(tmp_path, capsys):
    results = tmp_path / "r.jsonl"
    _run(capsys, "lucas", "--deals", "1-2", "--max-nodes", "200", "--workers", "1", "--results", str(results))
    code, other = _run(capsys, "lucas", "--deals", "1-2", "--max-nodes", "250", "--workers", "1",
                       "--results", str(results))
    assert code == 0 and other["searched_now"] == 2
    assert len(results.read_text().splitlines()) == 4


def test_a_time_budget_is_recorded_and_resumed_only_by_the_same_budget(tmp_path, capsys):
    """``--seconds``: the clock stops a search that the node limit would not (King Albert deal 32 is
    undecided at 600,000 positions), its record says where (``nodes``) and that the clock stopped
    it; a search of that many positions finds the same.  A run without the budget, or with another,
    does not take the record as its own."""
    from decks import solver

    results = tmp_path / "r.jsonl"
    args = ("king-albert", "--deals", "32-32", "--max-nodes", "1000000", "--workers", "1",
            "--results", str(results))
    code, timed = _run(capsys, *args, "--seconds", "0.2")
    assert code == 0 and timed["unknown"] == timed["timed_out"] == 1
    assert "0.2 s a deal" in timed["method"]
    (record,) = [json.loads(line) for line in results.read_text().splitlines()]
    assert record["timed_out"] and record["max_seconds"] == 0.2 and 0 < record["nodes"] < 1_000_000
    again = solver.solve(engine.deal("king-albert", 32), record["nodes"])
    assert (again.status, again.nodes) == (solver.LIMIT, record["nodes"])
    code, resumed = _run(capsys, *args, "--seconds", "0.2")
    assert code == 0 and resumed["from_results_file"] == 1 and resumed["searched_now"] == 0
    code, other = _run(capsys, *args[:4], "2000", *args[5:], "--seconds", "0.3")
    assert code == 0 and other["searched_now"] == 1
    code, untimed = _run(capsys, *args[:4], "2000", *args[5:])
    assert code == 0 and untimed["searched_now"] == 1 and untimed["timed_out"] == 0
    assert len(results.read_text().splitlines()) == 3


def test_a_damaged_results_file_is_refused_by_line_and_left_as_it_was(tmp_path, capsys):
    results = tmp_path / "r.jsonl"
    results.write_text('{"deal": 1}\n')
    code, err = _run(capsys, "lucas", "--deals", "1-2", "--max-nodes", "200", "--results", str(results))
    assert code == 2 and "line 1: not a measure_games record" in err and "Traceback" not in err
    assert results.read_text() == '{"deal": 1}\n'


def test_a_run_cut_short_while_appending_resumes_to_the_same_file(tmp_path, capsys):
    """Records are appended as deals finish, in any order; a run killed mid-append leaves a last
    line with no newline.  Resuming drops that torn line, searches its deal again and writes the
    file in deal order: the same file as one whole run, but for the re-searched deal's seconds."""
    whole = tmp_path / "whole.jsonl"
    _run(capsys, "lucas", "--deals", "1-3", "--max-nodes", "300", "--workers", "1", "--results", str(whole))
    lines = whole.read_text().splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text(lines[2] + "\n" + lines[0] + "\n" + lines[1][: len(lines[1]) // 2])
    code, resumed = _run(capsys, "lucas", "--deals", "1-3", "--max-nodes", "300", "--workers", "1",
                         "--results", str(cut))
    assert code == 0 and resumed["searched_now"] == 1 and resumed["from_results_file"] == 2

    def without_seconds(path):
        return [{k: v for k, v in json.loads(line).items() if k != "seconds"}
                for line in path.read_text().splitlines()]

    assert cut.read_text().endswith("\n") and without_seconds(cut) == without_seconds(whole)
    assert [json.loads(line) for line in cut.read_text().splitlines()][::2] == \
        [json.loads(line) for line in whole.read_text().splitlines()][::2]


def test_a_resumed_run_stopped_again_before_its_final_write_leaves_a_file_that_resumes(
        tmp_path, monkeypatch, capsys):
    """The torn line is cut off before anything is appended, so a resumed run that is itself
    stopped before its final write (here: the final write never happens) leaves only whole
    records, and the next run takes them all."""
    whole = tmp_path / "whole.jsonl"
    _run(capsys, "lucas", "--deals", "1-3", "--max-nodes", "300", "--workers", "1", "--results", str(whole))
    lines = whole.read_text().splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text(lines[0] + "\n" + lines[1][:10])
    with monkeypatch.context() as m:
        m.setattr(measure_games, "save_results", lambda path, lines: None)
        code, stopped = _run(capsys, "lucas", "--deals", "1-3", "--max-nodes", "300", "--workers", "1",
                             "--results", str(cut))
    assert code == 0 and stopped["searched_now"] == 2
    assert all(json.loads(line)["game"] == "lucas" for line in cut.read_text().splitlines())
    code, again = _run(capsys, "lucas", "--deals", "1-3", "--max-nodes", "300", "--workers", "1",
                       "--results", str(cut))
    assert code == 0 and again["searched_now"] == 0 and again["from_results_file"] == 3


def test_records_are_appended_as_each_batch_finishes(tmp_path, monkeypatch, capsys):
    """While a run goes on, the file only grows: each batch's records are appended to what is
    there, and nothing already written is rewritten until the final sort."""
    results = tmp_path / "r.jsonl"
    seen: list[str] = []
    add = measure_games.Appender.add

    def spy(self, lines):
        before = results.read_text()
        add(self, lines)
        after = results.read_text()
        assert after.startswith(before) and after[len(before):].count("\n") == len(lines)
        seen.extend(lines)

    monkeypatch.setattr(measure_games.Appender, "add", spy)
    code, r = _run(capsys, "lucas", "--deals", "1-3", "--max-nodes", "200", "--workers", "1",
                   "--results", str(results))  # no win among them: no line to shorten
    assert code == 0 and len(seen) == 3
    assert sorted(results.read_text().splitlines()) == sorted(seen)


def test_records_of_an_earlier_version_that_searched_the_game_alike_are_kept(tmp_path, monkeypatch, capsys):
    """After the search version changes for other games, a game's records are still taken from
    the file; once its own search changed (or its records were shortened the old way), it is
    searched again."""
    from decks import solver

    results = tmp_path / "r.jsonl"
    _run(capsys, "lucas", "--deals", "1-2", "--max-nodes", "200", "--workers", "1", "--results", str(results))
    recorded = solver.SEARCH_VERSION
    monkeypatch.setattr(solver, "SEARCH_VERSION", "9999-01-01")
    changed: list[str] = []
    monkeypatch.setattr(solver, "same_search",
                        lambda version, game: version == recorded and game not in changed)
    code, kept = _run(capsys, "lucas", "--deals", "1-2", "--max-nodes", "200", "--workers", "1",
                      "--results", str(results))
    assert code == 0 and kept["searched_now"] == 0 and kept["from_results_file"] == 2
    changed.append("lucas")
    code, anew = _run(capsys, "lucas", "--deals", "1-2", "--max-nodes", "200", "--workers", "1",
                      "--results", str(results))
    assert code == 0 and anew["searched_now"] == 2
    settings = {"game": "lucas", "options": {}, "max_nodes": 200, "search": "9999-01-01"}
    old = {**settings, "search": "2026-12-01"}
    changed.clear()
    monkeypatch.setattr(solver, "same_search", lambda version, game: True)
    assert not measure_games.same_settings(old, settings)  # shortened the old way
    assert not measure_games.same_settings({**settings, "search": "exact"}, settings)
    assert not measure_games.same_settings({**settings, "max_nodes": 300}, settings)


def test_bad_arguments_are_refused_before_any_search(capsys):
    for args in (["lucas", "--deals", "5-2"], ["lucas", "--deals", "x"]):
        code, err = _run(capsys, *args)
        assert code == 2 and "--deals" in err
    for args in (["lucas", "--max-nodes", "0"], ["lucas", "--workers", "0"], ["nosuchgame"],
                 ["lucas", "--seconds", "nan"], ["lucas", "--seconds", "0"], ["lucas", "--seconds", "inf"]):
        try:
            measure_games.main(args)
        except SystemExit as stop:
            assert stop.code == 2
        else:
            raise AssertionError(f"{args} was accepted")


def test_the_documented_win_rates_are_the_recorded_ones():
    """docs/games.md's table of measured win rates counts the records it points to, deal by deal."""
    data = ROOT / "docs" / "winrates-two-pack.jsonl"
    records = [json.loads(line) for line in data.read_text().splitlines()]
    text = (ROOT / "docs" / "games.md").read_text()
    section = text[text.index("### Measured here"):text.index("### Every game, with the restarts")]
    rows = re.findall(r"^\| ([^|]+?) \| (\d+) \| (\d+) \| (\d+) \| ([\d.]+) % ", section, re.M)
    titles = {engine.get_game(name).title: name for name in engine.game_names()}
    assert len(rows) == 10
    for title, won, lost, unknown, rate in rows:
        game = titles[title]
        mine = [r for r in records if r["game"] == game]
        assert sorted(r["deal"] for r in mine) == list(range(1, 201)), game
        assert {r["max_nodes"] for r in mine} == {50_000}
        counts = Counter(r["outcome"] for r in mine)
        assert (counts["won"], counts["lost"], counts["unknown"]) == (int(won), int(lost), int(unknown)), game
        assert float(rate) == round(100 * counts["won"] / 200, 1)


def _records(path: Path) -> list[dict]:
    """The records of a results file without their timing (``seconds``), in file order."""
    return [{k: v for k, v in json.loads(line).items() if k != "seconds"}
            for line in path.read_text().splitlines()]


@PATIENT
def test_one_process_the_pool_and_dask_write_the_same_records_and_resume(tmp_path, capsys):
    """The same deals at the same node budget give the same records, in deal order, whether this
    process, a pool of two processes or a Dask LocalCluster of two workers searched them; a pool
    resumes what one process began, and Dask what the pool began."""
    external.module("distributed")
    deals = ["la-belle-lucie", "--deals", "1-6", "--max-nodes", "200"]
    runs = {"one": ["--workers", "1"], "pool": ["--workers", "2"],
            "dask": ["--dask", "local", "--workers", "2", "--dask-timeout", "300"]}
    files = {}
    for name, how in runs.items():
        files[name] = tmp_path / f"{name}.jsonl"
        code, out = _run(capsys, *deals, *how, "--results", str(files[name]))
        assert code == 0 and out["searched_now"] == 6, out
        assert out["workers"] == (1 if name == "one" else 2)
    first = _records(files["one"])
    assert [r["deal"] for r in first] == [1, 2, 3, 4, 5, 6]
    assert {r["outcome"] for r in first} == {"won", "unknown"}  # a win: its lengths are compared too
    assert _records(files["pool"]) == _records(files["dask"]) == first
    # resumed: deals 1-3 by one process, then 1-6 on the pool, then 1-8 on Dask
    resumed = tmp_path / "resumed.jsonl"
    for how, last, now in ((runs["one"], 3, 3), (runs["pool"], 6, 3), (runs["dask"], 8, 2)):
        code, out = _run(capsys, "la-belle-lucie", "--deals", f"1-{last}", "--max-nodes", "200", *how,
                         "--results", str(resumed))
        assert code == 0 and out["searched_now"] == now and out["from_results_file"] == last - now
    assert _records(resumed)[:6] == first and [r["deal"] for r in _records(resumed)] == list(range(1, 9))


def test_workers_with_a_remote_scheduler_are_refused_before_any_search(capsys):
    code, err = _run(capsys, "lucas", "--dask", "tcp://127.0.0.1:1", "--workers", "2")
    assert code == 2 and "--workers is for local processes or --dask local" in err


@PATIENT
def test_ctrl_c_keeps_the_deals_searched_in_one_line_and_leaves_no_process(tmp_path):
    """Ctrl-C to the whole group (as a terminal sends it) while a pool of two searches: one line,
    status 130, every record already written kept whole, and no worker or forkserver left."""
    from test_sweep_stop import _alive_in_session, _end_session

    from tests.endpoints import until
    from tests.processes import default_stop_signals

    results = tmp_path / "r.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tools.measure_games", "la-belle-lucie", "--deals", "1-400",
         "--max-nodes", "200", "--workers", "2", "--results", str(results), "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)}, preexec_fn=default_stop_signals)
    try:
        until(lambda: results.exists() and results.read_text().count("\n") >= 1, 300, "a first record")
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        _end_session(proc)
    assert proc.returncode == 130 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"measure_games: interrupted: the deals searched are kept in {results}")
    kept = [json.loads(line) for line in results.read_text().splitlines()]
    assert 1 <= len(kept) < 400 and len({r["deal"] for r in kept}) == len(kept)
    until(lambda: not _alive_in_session(proc.pid), 120, "every process of the run to end")


def test_a_busy_machine_does_not_change_a_record(monkeypatch):
    """Issue 50, item 18: a win's ``moves`` (its line shortened) came from a search that a 10 s clock
    guard could stop before its budget of positions, so on a loaded machine the records differed.
    Here a clock that runs 5 s each time it is read (a machine far busier than any) gives the same
    record as the real clock: the budget of positions alone decides.  (The shortening is given a
    budget of 300 positions, as small as the test needs, the clock guard measure_games passes.)"""
    import types

    from decks.solver import shorten as shortening

    def small(state, moves, max_seconds=None, max_positions=None):
        return shortening.shorten(state, moves, max_seconds=max_seconds, max_positions=300)

    monkeypatch.setattr(measure_games, "shorten", small)
    job = {"game": "lucas", "options": {}, "max_nodes": 300, "exact": False, "max_seconds": None}
    measure_games._init(job)
    calm = measure_games.measure_one(4)
    assert calm["outcome"] == "won" and calm["moves"] < calm["found_moves"], calm
    now = [0.0]

    def crawling() -> float:
        now[0] += 5.0
        return now[0]

    monkeypatch.setattr(shortening, "time", types.SimpleNamespace(monotonic=crawling))
    busy = measure_games.measure_one(4)
    assert now[0] > 10.0, "the clock was read"
    del busy["seconds"], calm["seconds"]
    assert busy == calm
