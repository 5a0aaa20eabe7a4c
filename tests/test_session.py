"""The game session every interface drives: results, targets, autoplay, new deal, listeners."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from decks import engine
from decks.session import Session, start
from emulator.errors import IbmError

ROOT = Path(__file__).resolve().parent.parent


def test_a_move_says_what_it_changed_and_a_refusal_names_the_rule():
    session = Session(engine.deal("klondike", 1))
    move = engine.legal_moves(session.state)[0]
    result = session.run(str(move))
    assert result.kind == "move" and result.changed and result.moves == (move,)
    assert result.after is session.state and result.before.history == []
    undone = session.run("undo")
    assert undone.kind == "undo" and undone.after.piles == engine.deal("klondike", 1).piles
    with pytest.raises(engine.IllegalMove) as err:
        session.run("t1 t1")
    assert err.value.rule and err.value.rule in str(err.value)
    asked = session.run("moves")
    assert not asked.changed and set(asked.moves) == set(engine.legal_moves(session.state))


def test_targets_are_the_legal_moves_from_a_pile():
    session = Session(engine.deal("klondike", 1))
    for src in session.state.piles:
        expected = {m for m in engine.legal_moves(session.state) if m.kind == "move" and m.src == src}
        assert set(session.targets(src)) == expected


def test_autoplay_sends_every_card_home_each_as_one_change():
    heard = []
    session = Session(engine.deal("klondike", 1))
    session.listeners.append(lambda before, after, line: heard.append(line))
    moves = engine.replay("klondike", 1, {}, []).history
    assert moves == []
    result = session.autoplay()
    assert len(heard) == len(result.moves)
    assert all(engine.role_of(m.dst) == "foundation" for m in result.moves)
    assert not any(engine.role_of(m.dst) == "foundation" for m in engine.legal_moves(session.state))
    assert engine.replay("klondike", 1, {}, result.moves).to_dict() == session.state.to_dict()


def test_new_deal_and_restart_keep_game_and_options():
    session = Session(engine.deal("klondike", 5, {"draw": "3"}))
    session.run(str(engine.legal_moves(session.state)[0]))
    assert session.restart().after.to_dict() == engine.deal("klondike", 5, {"draw": "3"}).to_dict()
    assert session.new_deal().after.deal_number == 6 and session.state.options["draw"] == 3


def test_start_checks_its_arguments(tmp_path):
    with pytest.raises(IbmError, match="NAME=VALUE"):
        start("klondike", 1, ["draw"])
    deck = tmp_path / "g.cbn"
    Session(engine.deal("spiderette", 2)).save(str(deck))
    assert start("spiderette", load=str(deck)).deal_number == 2
    with pytest.raises(IbmError, match="holds a game of spiderette"):
        start("klondike", load=str(deck))


def test_games_and_stream_do_not_import_each_other():
    tree = ast.parse((ROOT / "ibm1013" / "cli" / "stream.py").read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "ibm1013.cli.stream" not in imported and "ibm1013.cli.games" not in imported
    tree = ast.parse((ROOT / "decks" / "session.py").read_text())
    assert "argparse" not in {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}


@pytest.mark.parametrize("command", ["undo ²", "redo ¹", "hint ³"])
def test_a_count_that_is_a_digit_but_no_number_is_refused(command: str) -> None:
    """'²'.isdigit() is true, yet int('²') fails: the count is refused as any other."""
    with pytest.raises(IbmError, match="N a number from 1"):
        Session(engine.deal("klondike", 1)).run(command)
