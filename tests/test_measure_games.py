"""``python -m tools.measure_games``: win rates over many deals, and the results file it resumes from."""

import json
import re
from collections import Counter
from pathlib import Path

from decks import engine
from tools import measure_games

ROOT = Path(__file__).resolve().parent.parent


def _run(capsys, *args: str) -> tuple[int, dict | str]:
    code = measure_games.main([*args, "--json"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 else err)


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


def test_other_settings_are_searched_anew_and_kept(tmp_path, capsys):
    results = tmp_path / "r.jsonl"
    _run(capsys, "lucas", "--deals", "1-2", "--max-nodes", "200", "--workers", "1", "--results", str(results))
    code, other = _run(capsys, "lucas", "--deals", "1-2", "--max-nodes", "250", "--workers", "1",
                       "--results", str(results))
    assert code == 0 and other["searched_now"] == 2
    assert len(results.read_text().splitlines()) == 4


def test_a_damaged_results_file_is_refused_by_line_and_left_as_it_was(tmp_path, capsys):
    results = tmp_path / "r.jsonl"
    results.write_text('{"deal": 1}\n')
    code, err = _run(capsys, "lucas", "--deals", "1-2", "--max-nodes", "200", "--results", str(results))
    assert code == 2 and "line 1: not a measure_games record" in err and "Traceback" not in err
    assert results.read_text() == '{"deal": 1}\n'


def test_bad_arguments_are_refused_before_any_search(capsys):
    for args in (["lucas", "--deals", "5-2"], ["lucas", "--deals", "x"]):
        code, err = _run(capsys, *args)
        assert code == 2 and "--deals" in err
    for args in (["lucas", "--max-nodes", "0"], ["lucas", "--workers", "0"], ["nosuchgame"]):
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
