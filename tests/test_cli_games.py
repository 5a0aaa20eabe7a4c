"""The games command line, run in-process: games, deck shuffle, deal, play (scripted), solve, and a
game punched into a deck and resumed from it."""

from __future__ import annotations

import json
import re

import pytest

from decks import engine, punch
from ibm1013.cli.main import main
from tests.test_games_auld_lang_syne import WIN_246


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_games_lists_every_game(capsys):
    status, out, _ = run(capsys, "games", "--json")
    rows = json.loads(out)
    assert status == 0
    assert {r["name"] for r in rows} == set(engine.game_names())
    als = next(r for r in rows if r["name"] == "auld-lang-syne")
    assert als["pack"] == "standard" and als["reference_row"] == 7 and "regardless of suit" in als["summary"]
    assert als["options"][0]["name"] == "deal_any_time"
    status, out, _ = run(capsys, "games")
    assert "gay-gordons" in out and "--option kq_suits=any" in out


def test_games_points_to_the_table_the_package_installs(capsys):
    """`ibm1013 games` said "docs/games.md row N", a file an installed package does not have: it now
    names the games table the package ships (decks/data/games.md), by a path that exists."""
    from pathlib import Path

    status, out, _ = run(capsys, "games")
    named = [word for word in out.split() if word.endswith("games.md")]
    assert status == 0 and named and all(Path(word).is_absolute() and Path(word).is_file() for word in named)
    assert "| 7 | Auld Lang Syne | `auld-lang-syne` |" in Path(named[0]).read_text(encoding="utf-8")
    als = next(line for line in out.splitlines() if line.startswith("auld-lang-syne "))
    assert als.endswith("standard pack, row 7 of the games table")


def test_a_missing_move_script_is_named_once(capsys, tmp_path):
    """`play --moves missing.txt` said `missing.txt: missing.txt: No such file or directory`."""
    missing = str(tmp_path / "missing.txt")
    for argv in (["play", "klondike", "--moves", missing],
                 ["play", "klondike", "--moves", missing, "--stream", str(tmp_path / "no-port")]):
        status, out, err = run(capsys, *argv)
        assert (status, out, err) == (2, "", f"ibm1013: {missing}: No such file or directory\n"), argv


def test_deck_shuffle_microsoft_deals(capsys):
    _, out, _ = run(capsys, "deck", "shuffle", "standard", "--deal", "1")
    assert out.split()[:8] == "JD 2D 9H JC 5D 7H 7C 5H".split()
    _, out, _ = run(capsys, "deck", "shuffle", "standard", "--deal", "617", "--json")
    data = json.loads(out)
    assert data["cards"][:8] == "7D AD 5C 3S 5S 8C 2D AH".split() and len(data["cards"]) == 52


def test_deal_shows_layout_and_json(capsys):
    _, out, _ = run(capsys, "deal", "bisley", "--deal", "3", "--symbols")
    assert "aces up:    f1:A♣" in out and "t13:" in out
    _, out, _ = run(capsys, "deal", "gay-gordons", "--deal", "2", "--json", "--option", "kq_suits=different")
    data = json.loads(out)
    assert data["options"] == {"kq_suits": "different"} and len(data["piles"]["t1"]) == 5


def test_deal_punch_then_play_load_round_trip(capsys, tmp_path):
    deck = tmp_path / "game.cbn"
    status, _, err = run(capsys, "deal", "auld-lang-syne", "--deal", "246", "-o", str(deck))
    assert status == 0 and "cards" in err
    state = punch.decode(punch.encode(engine.deal("auld-lang-syne", 246)))
    assert deck.stat().st_size == 160 * len(punch.encode(state))      # column binary: 160 bytes a card
    script = tmp_path / "first.txt"
    script.write_text("t4 f1, t1 f1   # two plays\nt3 f1\ns\n")
    saved = tmp_path / "saved.txt"
    status, out, _ = run(capsys, "play", "auld-lang-syne", "--load", str(deck), "--moves", str(script),
                         "--save", str(saved))  # text: the extension says so
    assert status == 0 and "not won" in out
    assert saved.read_text().splitlines()[0].startswith("IBM1013 SOLITAIRE 1 GAME AULD-LANG-SYNE DEAL 246")
    # the rest of the recorded win, resumed from the saved deck
    rest = tmp_path / "rest.txt"
    rest.write_text("\n".join(str(m) for m in engine.parse_moves(WIN_246)[4:]))
    status, out, _ = run(capsys, "play", "auld-lang-syne", "--load", str(saved), "--moves", str(rest))
    assert status == 0 and out.rstrip().splitlines()[-1].startswith("WON in") and "not won" not in out


def test_scripted_win_with_undo_and_redo(capsys, tmp_path):
    script = tmp_path / "win.txt"
    script.write_text("t4 f1\nundo\nredo\n" + WIN_246.replace("t4 f1, ", "", 1))
    status, out, _ = run(capsys, "play", "auld-lang-syne", "--deal", "246", "--moves", str(script))
    assert status == 0 and out.count("WON in") == 1 and out.rstrip().splitlines()[-1].startswith("WON in")


def test_scripted_illegal_move_exits_2_naming_the_rule(capsys, tmp_path):
    script = tmp_path / "bad.txt"
    script.write_text("t4 f1\nt2 f\n")
    status, _, err = run(capsys, "play", "auld-lang-syne", "--deal", "246", "--moves", str(script))
    assert status == 2
    assert "bad.txt: line 2: illegal move 't2 f': foundations build up by one rank" in err
    assert "Traceback" not in err


def test_solve_json_and_limit(capsys):
    status, out, _ = run(capsys, "solve", "gay-gordons", "--deal", "1", "--json")
    data = json.loads(out)
    assert status == 0 and data["won"] and len(data["moves"]) == 26
    state = engine.replay("gay-gordons", 1, {}, data["moves"])
    assert engine.is_won(state)
    status, out, _ = run(capsys, "solve", "bisley", "--deal", "1", "--max-nodes", "50")
    assert status == 1 and "none found within the limit" in out and "nodes searched" in out


def test_solve_counts_one_as_one(capsys):
    """Flip 3 deal 33 is proved lost at its root: one position, said so."""
    status, out, _ = run(capsys, "solve", "klondike-flip3", "--deal", "33")
    assert status == 1 and "(solver, time limit 5 s, 1 node searched)" in out
    assert "# searched 1 position in " in out and "(1 run, move order best;" in out


def test_solve_loaded_deck(capsys, tmp_path):
    deck = tmp_path / "g.txt"
    run(capsys, "deal", "baroness", "--deal", "1", "-o", str(deck), "--format", "text")
    status, out, _ = run(capsys, "solve", "baroness", "--load", str(deck))
    assert status == 0 and "# won in" in out


GAME_FORMATS = ("art", "bin", "cbn", "ebcdic", "i1401", "i1401-cbn", "i7094", "i7094-cbn", "text")
"""The deck formats that hold a game deck (``rowbin`` holds columns 1-72 only)."""


@pytest.mark.parametrize("fmt", GAME_FORMATS)
def test_play_and_solve_load_a_game_in_any_format_cards_decode_reads(capsys, tmp_path, fmt):
    """``play --load`` and ``solve --load`` read the deck as ``cards decode`` does (issue 50): a game
    saved in any format — its extension naming it (``.ebcdic``: no first bytes tell EBCDIC), or under
    any name with ``--format`` — is the same game loaded; ``--format`` of play names the format of
    the deck read and of the deck it writes.  (They read ``g.ebcdic`` as text, and ``--format``
    named the written deck's format only.)"""
    from decks import read_game
    from decks.session import save_deck
    from emulator.formats import get_format, read_deck

    state = engine.apply(engine.deal("klondike", 617), engine.parse_move("s"))
    named = tmp_path / "g.deck"
    save_deck(state, str(named), fmt)
    loads = [[str(named), "--format", fmt]]
    for ext in get_format(fmt).extensions:
        save_deck(state, str(tmp_path / f"g{ext}"), fmt)
        loads.append([str(tmp_path / f"g{ext}")])
    for load in loads:
        saved = tmp_path / "out.cbn"  # cbn, or the --format named
        status, out, err = run(capsys, "play", "klondike", "--load", *load, "--moves", "/dev/null",
                               "--save", str(saved))
        assert status == 0, err
        with open(saved, "rb") as stream:
            again = read_game(read_deck(stream, load[2] if len(load) > 2 else "cbn"))
        assert again.to_dict() == state.to_dict(), load
        status, out, err = run(capsys, "solve", "klondike", "--load", *load, "--max-nodes", "1", "--json")
        assert status == 1 and json.loads(out)["deal"] == 617 and not err, (load, err)


def test_a_load_refused_is_one_line_naming_the_file_and_card(capsys, tmp_path):
    """A saved game read in the wrong format, or no deck at all: one line, exit status 2."""
    from decks.session import save_deck

    deck = tmp_path / "g.deck"
    save_deck(engine.deal("klondike", 617), str(deck), "ebcdic")
    for command in (["solve", "klondike", "--load", str(deck)],
                    ["play", "klondike", "--load", str(deck), "--moves", "/dev/null"]):
        status, out, err = run(capsys, *command)
        assert status == 2 and err.startswith(f"ibm1013: {deck}: card 1, column 1: ") and err.count("\n") == 1
        status, out, err = run(capsys, *command[:3], str(tmp_path / "none.cbn"), *command[4:])
        assert status == 2 and err == f"ibm1013: {tmp_path / 'none.cbn'}: No such file or directory\n"


def test_corrupted_deck_is_one_line_naming_file_and_card(capsys, tmp_path):
    deck = tmp_path / "g.txt"
    run(capsys, "deal", "labyrinth", "--deal", "2", "-o", str(deck), "--format", "text")
    lines = deck.read_text().splitlines()
    lines[5] = lines[5].replace("PILE", "PILF")
    deck.write_text("\n".join(lines) + "\n")
    status, _, err = run(capsys, "play", "labyrinth", "--load", str(deck), "--moves", "/dev/null")
    assert status == 2 and f"{deck}: card " in err and err.count("\n") == 1


def test_wrong_game_and_bad_option(capsys, tmp_path):
    deck = tmp_path / "g.cbn"
    run(capsys, "deal", "baroness", "-o", str(deck))
    status, _, err = run(capsys, "play", "bisley", "--load", str(deck), "--moves", "/dev/null")
    assert status == 2 and "holds a game of baroness" in err
    status, _, err = run(capsys, "deal", "baroness", "--option", "last_two=nowhere")
    assert status == 2 and "last_two" in err
    status, _, err = run(capsys, "deal", "nosuchgame")
    assert status == 2 and "argument GAME: invalid choice: 'nosuchgame'" in err


@pytest.mark.parametrize("value", ["-1", "-5", "1.5"])
def test_a_negative_redeal_count_is_refused_not_unlimited(capsys, value):
    """Issue 25 §6: ``redeals=-1`` meant unlimited while ``redeals=-5`` was refused."""
    status, out, err = run(capsys, "deal", "klondike", "--option", f"redeals={value}")
    assert status == 2 and f"option redeals={value!r}: expected a number or 'unlimited'" in err, err
    assert out == ""
    assert engine.deal("klondike", 1, {"redeals": "unlimited"}).options["redeals"] == "unlimited"


@pytest.mark.parametrize("game", ["labyrinth", "gay-gordons"])
def test_interactive_play(monkeypatch, capsys, game, tmp_path):
    saved = tmp_path / "s.cbn"
    commands = iter(["moves", "hint", "t9 t9", "help", f"save {saved}", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(commands))
    status, out, _ = run(capsys, "play", game, "--deal", "1")
    assert status == 0 and "legal:" in out and "hint:" in out and "refused:" in out
    assert punch.decode(punch.encode(engine.deal(game, 1))).game == game and saved.exists()


def test_solve_uses_the_exact_search_where_a_game_has_one(capsys):
    status, out, _ = run(capsys, "solve", "auld-lang-syne", "--deal", "765", "--json")
    data = json.loads(out)
    assert status == 0 and data["method"] == "exact search" and data["won"]
    assert engine.is_won(engine.replay("auld-lang-syne", 765, {}, data["moves"]))
    status, out, _ = run(capsys, "solve", "auld-lang-syne", "--deal", "4")
    assert status == 1 and "no solution exists (exact search" in out


def test_an_exact_search_loss_says_what_the_best_line_search_searched(capsys):
    """Issue 47 item 9: a loss proved by the exact search said "122 nodes searched", then "searched no
    positions"; both lines now tell the same search (the one that finds how far best play gets)."""
    status, out, _ = run(capsys, "solve", "auld-lang-syne", "--deal", "12")
    nodes = int(re.search(r"exact search, (\d+) nodes? searched", out).group(1))
    assert status == 1 and nodes > 0 and "searched no positions" not in out
    searched = re.search(r"# searched ([\d,]+) positions? in", out)
    assert searched and int(searched.group(1).replace(",", "")) == nodes, out
    status, out, _ = run(capsys, "solve", "auld-lang-syne", "--deal", "12", "--json")
    data = json.loads(out)
    assert data["nodes"] == nodes and data["runs"] >= 1 and data["searched"].startswith(f"searched {nodes}")


@pytest.mark.parametrize("card", [b"\xc0\x40", b"\xe0\x40" + b"\x40" * 158], ids=["two-byte", "full"])
def test_loading_a_deck_that_is_no_game_stops_at_its_first_bad_card(monkeypatch, tmp_path, card):
    """Issue 25 §6: ``play --load`` read a whole file of tiny cards before it refused card 1."""
    import io

    from decks import session
    from emulator.errors import IbmError

    deck = tmp_path / "junk.cbn"
    deck.write_bytes(card * (6_000_000 // len(card)))
    read = []

    class Counting(io.FileIO):
        def read(self, n=-1):
            data = super().read(n)
            read.append(len(data))
            return data

    monkeypatch.setattr(session, "open_input", lambda path: Counting(path, "rb"))
    with pytest.raises(IbmError, match="card 1"):
        session.load_deck(str(deck))
    assert 0 < sum(read) <= 2 * (1 << 20) < deck.stat().st_size  # a chunk or two of the 6 MB


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_game_stopped_by_a_signal_is_saved_and_exits_130(tmp_path, sig):
    """Ctrl-C (or kill, or the terminal closing) mid-game: status 130, not 0; the game with its
    moves is punched into a new deck (never over a file that is there), and one line says where
    and how to go on."""
    import os
    import signal
    import subprocess

    from decks.session import load_deck
    from tests.processes import IBM1013, default_stop_signals, finish

    (tmp_path / "klondike-617.cbn").write_bytes(b"the user's own file")
    proc = subprocess.Popen([*IBM1013, "play", "klondike", "--deal", "617", "--plain"], cwd=tmp_path,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
                            preexec_fn=default_stop_signals)
    proc.stdin.write("s\nfoo\n")  # a move, then a line refused: once it is, the move was made
    proc.stdin.flush()
    while "refused: move 'foo'" not in (line := proc.stdout.readline()):
        assert line, "play ended early"
    proc.send_signal(getattr(signal, sig))
    code, _, err = finish(proc, 30)
    assert code == 130 and err.strip().count("\n") == 0 and "Traceback" not in err, err
    assert err.strip() == ("ibm1013: interrupted; the game is saved in klondike-617-2.cbn: go on with "
                           "`ibm1013 play klondike --load klondike-617-2.cbn`")
    assert (tmp_path / "klondike-617.cbn").read_bytes() == b"the user's own file"
    saved = load_deck(str(tmp_path / "klondike-617-2.cbn"))
    assert [str(m) for m in saved.history] == ["s"]


def test_a_game_with_nothing_unsaved_stopped_by_a_signal_writes_nothing(tmp_path):
    import os
    import signal
    import subprocess

    from tests.processes import IBM1013, default_stop_signals, finish

    proc = subprocess.Popen([*IBM1013, "play", "klondike", "--plain"], cwd=tmp_path, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"}, preexec_fn=default_stop_signals)
    proc.stdin.write("foo\n")
    proc.stdin.flush()
    while "refused: move 'foo'" not in (line := proc.stdout.readline()):
        assert line, "play ended early"
    proc.send_signal(signal.SIGTERM)
    code, _, err = finish(proc, 30)
    assert code == 130 and err.strip() == "ibm1013: interrupted; no move was left unsaved", err
    assert list(tmp_path.iterdir()) == []


def test_deal_and_save_follow_the_file_extension(capsys, tmp_path, monkeypatch):
    """`deal -o g.txt` and `save x.txt` inside play write text cards, as receive -o and simulate -o
    do; --format still wins when given."""
    status, _, _ = run(capsys, "deal", "klondike", "--deal", "617", "-o", str(tmp_path / "g.txt"))
    assert status == 0
    assert (tmp_path / "g.txt").read_text().startswith("IBM1013 SOLITAIRE")
    run(capsys, "deal", "klondike", "--deal", "617", "-o", str(tmp_path / "g.cbn"))
    assert len((tmp_path / "g.cbn").read_bytes()) % 160 == 0
    run(capsys, "deal", "klondike", "-o", str(tmp_path / "forced.txt"), "--format", "cbn")
    assert len((tmp_path / "forced.txt").read_bytes()) % 160 == 0
    commands = iter(["s", f"save {tmp_path / 'x.txt'}", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(commands))
    status, _, _ = run(capsys, "play", "klondike", "--deal", "617", "--plain")
    assert status == 0 and (tmp_path / "x.txt").read_text().startswith("IBM1013 SOLITAIRE")
    (tmp_path / "m").write_text("s\n")
    status, _, _ = run(capsys, "play", "klondike", "--deal", "617", "--moves", str(tmp_path / "m"),
                       "--save", str(tmp_path / "y.txt"))
    assert status == 0 and (tmp_path / "y.txt").read_text().startswith("IBM1013 SOLITAIRE")
