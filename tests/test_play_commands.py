"""The commands of a game being played (decks/session.py): each honours its argument."""

import pytest

from decks import engine
from decks.session import Session
from decks.stream import GameFeed, Watcher
from emulator.errors import IbmError
from ibm1013.cli.main import main


def played(*commands: str, game: str = "klondike", deal: int = 617) -> Session:
    session = Session(engine.deal(game, deal))
    for command in commands:
        session.command(command)
    return session


def test_undo_and_redo_take_a_count():
    session = played("s", "s", "s", "s")
    four = session.state
    session.command("undo 3")
    assert len(session.state.history) == 1 and len(session.state.future) == 3
    session.command("redo 2")
    assert len(session.state.history) == 3
    session.command("redo")
    assert session.state.to_dict() == four.to_dict()


@pytest.mark.parametrize("command, why", [
    ("undo 5", r"only 4 move\(s\) to undo"), ("redo 1", "nothing to redo"), ("undo 0", "undo N"),
    ("undo x", "undo N"), ("undo 1 2", "undo N")])
def test_a_count_that_cannot_be_met_is_refused_whole(command, why):
    session = played("s", "s", "s", "s")
    before = session.state
    with pytest.raises(IbmError, match=why):
        session.command(command)
    assert session.state is before


def test_hint_gives_as_many_moves_as_asked():
    one = played().command("hint")
    three = played().command("hint 3")
    first = one.removeprefix("hint: ").split(" (")[0]
    moves = three.removeprefix("hint: ").split(" (")[0].split(", ")
    assert len(moves) == 3 and moves[0] == first
    state = engine.deal("klondike", 617)
    for move in moves:  # a line of play: each move legal after the one before
        state = engine.apply(state, move)


def test_moves_lists_those_worth_trying_and_moves_all_every_one():
    state = engine.make_state("klondike", {"t1": "KS", "t3": "5H", "s": "-9D"})  # t2 … t7 empty but t3
    worth = Session(state).command("moves")
    every = Session(state).command("moves all")
    assert "t1 t2" not in worth and "moves all" in worth  # a lone king from space to space
    assert "t1 t2" in every and "moves all" not in every
    assert worth == "legal: s (and 5 more that only shuffle cards about: moves all)"
    assert set(worth.split(": ", 1)[1].split(" (")[0].split(", ")) < set(every.split(": ", 1)[1].split(", "))
    with pytest.raises(IbmError, match="moves all"):
        Session(state).command("moves some")


def test_undo_3_streams_as_three_undo_events_the_watcher_follows():
    session = played("s", "s", "s")
    feed = GameFeed(engine.deal("klondike", 617))
    mirror = Watcher()
    for number, card in enumerate(feed.cards, 1):
        mirror.take(number, card)
    cards = []
    state = engine.deal("klondike", 617)
    for move in ("s", "s", "s"):
        new = engine.apply(state, move)
        cards += feed.change(state, new, move)
        state = new
    before = session.state
    session.command("undo 3")
    cards += feed.change(before, session.state, "undo 3")
    assert len(cards) == 6
    for number, card in enumerate(cards, len(feed.cards) + 1):
        mirror.take(number, card)
    assert mirror.state.to_dict() == session.state.to_dict() and mirror.last.kind == "undo"


def test_a_scripted_win_says_won_once(capsys, tmp_path):
    from decks.games.auld_lang_syne import exact_solution

    script = tmp_path / "win.txt"
    script.write_text("\n".join(str(m) for m in exact_solution(engine.deal("auld-lang-syne", 246))))
    assert main(["play", "auld-lang-syne", "--deal", "246", "--moves", str(script)]) == 0
    out = capsys.readouterr().out
    assert out.count("WON in") == 1 and "won" not in out.replace("WON", "")
    assert out.rstrip().splitlines()[-1].startswith("WON in")


def test_play_moves_takes_the_timed_scripts_of_the_stream(capsys, tmp_path):
    script = tmp_path / "timed.txt"
    script.write_text("+0.5 s\n+2 s, s   # think times are for streaming\ns\n")
    assert main(["play", "klondike", "--deal", "617", "--moves", str(script)]) == 0
    out = capsys.readouterr().out
    assert "Klondike, deal 617, move 4" in out and "not won" in out
    from decks.session import timed_script

    assert [(n, w, c) for n, w, c in timed_script(script.read_text(), 1.0)] == [
        (1, 0.5, "s"), (2, 2.0, "s"), (2, 1.0, "s"), (3, 1.0, "s")]


@pytest.mark.parametrize("think", ["+x", "+-1", "+nan", "+inf"])
def test_a_bad_think_time_is_one_line_naming_file_and_line(capsys, tmp_path, think):
    script = tmp_path / "bad.txt"
    script.write_text(f"s\n{think} s\n")
    assert main(["play", "klondike", "--moves", str(script)]) == 2
    err = capsys.readouterr().err
    assert f"{script}: line 2: '{think}' is no think time" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("game, under, on, rank_only", [
    ("klondike", "7S", "5H", True), ("klondike", "7S", "6C", False),       # alternating colours
    ("spiderette", "7S", "5S", False), ("mount-olympus", "9S", "8S", True),  # any suit; in suit by twos
])
def test_a_tableau_building_error_says_whether_only_the_rank_was_wrong(game, under, on, rank_only):
    state = engine.make_state(game, {"t1": under, "t2": on})
    with pytest.raises(engine.IllegalMove) as refused:
        engine.apply(state, "t2 t1")
    assert f"{on} cannot go on {under}" in str(refused.value)
    assert ("is right, the rank is not" in str(refused.value)) == rank_only
