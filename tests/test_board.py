"""The solitaire board (decks/board.py) and the terminal play loop around it."""

import io

import pytest

from decks import board, engine
from ibm1013.cli.main import main


class FakeTty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_tableau_is_drawn_in_columns_stacked_downwards():
    state = engine.deal("klondike", 617)
    lines = board.board(state).plain.splitlines()
    head = lines.index("t1  t2  t3  t4  t5  t6  t7")
    for i, name in enumerate(state.names("tableau")):
        pile = state.piles[name]
        for row, (card, up) in enumerate(pile.faces()):
            cell = lines[head + 1 + row][4 * i:4 * i + 2]
            assert cell == (card.name if up else "##"), (name, row)
        if len(pile.cards) < 7:  # nothing under the pile
            assert lines[head + 1 + len(pile.cards)][4 * i:4 * i + 2].strip() == ""


@pytest.mark.parametrize("game", engine.game_names())
def test_every_board_fits_80_columns(game):
    for deal in (1, 2):
        text = board.board(engine.deal(game, deal), symbols=True).plain
        assert max(len(line) for line in text.splitlines()) <= board.WIDTH


def test_many_piles_are_drawn_in_bands():
    state = engine.make_state("la-belle-lucie", {f"t{i}": "AS" if i == 1 else "" for i in range(1, 19)})
    text = board.board(state).plain
    assert "t18" in text and max(len(line) for line in text.splitlines()) <= 80


def test_waste_top_card_is_marked():
    state = engine.deal("klondike", 617)
    for _ in range(2):
        state = engine.apply(state, "s")
    waste = next(line for line in board.board(state).plain.splitlines() if line.startswith("waste"))
    top = state.piles["w"].cards[-1].name
    assert waste.endswith(f"[{top}]") and waste.count("[") == 1


def test_red_suits_in_colour_only_on_a_terminal(monkeypatch):
    text = board.board(engine.deal("klondike", 617))
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    tty = FakeTty()
    board.console(tty).print(text)
    assert "\x1b[31m7D" in tty.getvalue() and "\x1b[31m3C" not in tty.getvalue()
    pipe = io.StringIO()
    board.console(pipe).print(text)
    assert "\x1b" not in pipe.getvalue() and "7D  ##" in pipe.getvalue()
    monkeypatch.setenv("NO_COLOR", "1")
    tty = FakeTty()
    board.console(tty).print(text)
    assert "\x1b[31m" not in tty.getvalue()


def forms(game):
    """The move forms the help lists for a fresh deal of ``game``."""
    lines = board.move_help(engine.deal(game, 1)).splitlines()
    assert lines[-1].startswith("commands:") and "rules" in lines[-1]
    return [line[10:].split("  ")[0] for line in lines[:-1]]


def test_help_shows_only_the_moves_the_game_has():
    assert forms("klondike") == ["t3 f", "w t2", "t1 t4 3", "s"]  # as read: no redeal
    assert forms("klondike-flip3") == ["t3 f", "w t2", "t1 t4 3", "s", "r"]
    assert forms("gay-gordons") == ["x t3 t5"]
    assert forms("labyrinth") == ["t13 f", "s", "p t34"]


def test_help_names_the_games_own_piles():
    assert forms("parallels") == ["t1c f", "f1 f5", "s"]  # its cells are t1a …; f1 f5: a reversal
    assert forms("british-constitution")[:2] == ["t13 f", "t11 t14"]


@pytest.mark.parametrize("game", engine.game_names())
def test_help_examples_name_piles_the_game_has(game):
    state = engine.deal(game, 1)
    for form in forms(game):
        names = [w for w in form.split()[1:] if not w.isdigit() and w != "f"]
        names += [form.split()[0]] if form.split()[0] not in engine.LETTER_KIND else []
        assert all(n in state.piles for n in names), (game, form)


def test_a_move_not_understood_suggests_only_this_games_moves():
    from decks.session import Session

    with pytest.raises(engine.NotUnderstood) as refused:
        Session(engine.deal("klondike", 617)).command("t1 t2 t3 t4")
    text = str(refused.value)
    assert "'t3 f', 'w t2', 't1 t4 3', 's'" in text and "'r'" not in text and "x t3" not in text


@pytest.mark.parametrize("game", engine.game_names())
def test_rules_come_from_the_docs_for_every_game(game):
    section = board.docs_section(game)
    assert section is not None, f"docs/games.md has no section for {game}"
    assert section.splitlines()[0] == engine.get_game(game).title
    assert max(len(line) for line in section.splitlines()) <= 78


def play(monkeypatch, capsys, commands, *args):
    feed = iter(commands)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(feed))
    status = main(["play", *args])
    return status, capsys.readouterr().out


def test_help_keys_and_rules_in_play(monkeypatch, capsys):
    status, out = play(monkeypatch, capsys, ["?", "h", "rules", "quit"], "gay-gordons", "--deal", "3")
    assert status == 0 and out.count("x t3 t5") == 3  # once at the start, then for ? and h
    assert "Gay Gordons\n\nTen piles of five" in out


def test_quitting_a_game_in_progress_offers_to_save(monkeypatch, capsys, tmp_path):
    saved = tmp_path / "left.cbn"
    status, out = play(monkeypatch, capsys, ["s", "quit", str(saved)], "klondike", "--deal", "617")
    assert status == 0 and f"saved 21 cards to {saved}" in out
    assert engine.rules_of(board_state(saved)).name == "klondike" and board_state(saved).history
    # nothing to save: no moves, or declined
    status, out = play(monkeypatch, capsys, ["quit"], "klondike", "--deal", "617")
    assert "save the game" not in out
    status, out = play(monkeypatch, capsys, ["s", "quit", "n"], "klondike", "--deal", "617")
    assert "saved" not in out


def board_state(path):
    from decks.session import load_deck
    return load_deck(str(path))


def test_won_is_printed_once(monkeypatch, capsys):
    from decks.games.auld_lang_syne import exact_solution
    moves = [str(m) for m in exact_solution(engine.deal("auld-lang-syne", 246))]
    status, out = play(monkeypatch, capsys, moves, "auld-lang-syne", "--deal", "246")
    assert status == 0 and out.count("WON") == 1 and "won" not in out.replace("WON", "")


def test_british_constitution_is_drawn_as_its_grid_of_four_rows_of_eight():
    lines = board.board(engine.deal("british-constitution", 3)).plain.splitlines()
    heads = [" ".join(f"t{r}{c}" for c in range(1, 9)) for r in range(1, 5)]
    at = [lines.index(h) for h in heads]
    assert at == sorted(at)
    for i in at:  # under each row's names its eight cards, one a column
        assert len(lines[i + 1].split()) == 8


def test_a_game_can_lay_its_board_out_in_rows():
    state = engine.make_state("little-spider", {"t1": "KS 2C", "t5": "5D", "f1": "AH 2H 3H"})
    lines = board.board(state).plain.splitlines()
    upper, found, lower = (lines.index(h) for h in ("t1  t2  t3  t4", "f1  f2  f3  f4", "t5  t6  t7  t8"))
    assert upper < found < lower
    assert lines[upper + 1:upper + 3] == ["KS  --  --  --", "2C"]
    assert lines[found + 1] == "3H  --  --  --"  # a foundation shows its top card: 3H is above t5
    assert lines[lower + 1] == "5D  --  --  --"
