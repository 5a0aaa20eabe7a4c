"""tools.bench_decks: the two solvers side by side, resumable from a results file."""

from __future__ import annotations

import json

import pytest

from tools import bench_decks


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
