"""Compact game cards (decks/compact.py): round trips for every game, sizes, and every error."""

from __future__ import annotations

import pytest
from bitarray import bitarray
from hypothesis import given, settings
from hypothesis import strategies as st

from decks import compact, engine, punch
from decks.bitcards import COLUMN_WORDS, BitWriter
from decks.records import DeckStateError
from emulator.card import Card
from emulator.codes.bcd1401 import WORDS
from ibm1013.str import SessionConfig, Transmitter
from ibm1013.str.layout import ColumnLayout
from tests.test_punch import played as walk

GAMES = engine.game_names()


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=6, deadline=None)
@given(deal=st.integers(1, 2**63 - 1), moves=st.integers(0, 60), seed=st.integers(0, 99),
       undos=st.integers(0, 3))
def test_round_trip_random_positions(game: str, deal: int, moves: int, seed: int, undos: int) -> None:
    state = walk(game, deal, moves, seed, undos)
    cards = compact.encode(state)
    back = compact.decode(cards)
    assert back.to_dict() == state.to_dict()
    assert compact.decode_any(cards).to_dict() == state.to_dict()


@pytest.mark.parametrize("game", GAMES)
def test_a_fresh_deal_is_one_card(game: str) -> None:
    assert len(compact.encode(engine.deal(game, 617, {}))) == 1


def test_klondike_with_100_moves_fits_three_cards() -> None:
    state = walk("klondike", 2, 100, 0)
    assert len(state.history) == 100
    cards = compact.encode(state)
    assert len(cards) <= 3 < len(punch.encode(state))


def test_options_and_huge_deals_round_trip() -> None:
    state = engine.deal("klondike", 2**62 + 5, {"draw": 3, "redeals": "unlimited", "space": "king-only"})
    assert compact.decode(compact.encode(state)).to_dict() == state.to_dict()


def test_cards_carry_only_characters_the_1013_sends_and_a_sequence_field() -> None:
    state = walk("labyrinth", 7, 60, 3)
    cards = compact.encode(state, "LABY")
    Transmitter(cards, SessionConfig(columns=ColumnLayout()))  # would raise naming a bad column
    assert [c.text("029")[72:] for c in cards] == [f"LABY{n:04d}" for n in range(1, len(cards) + 1)]


def test_decode_any_tells_the_encodings_apart() -> None:
    state = walk("spiderette", 5, 10, 1)
    assert compact.decode_any(punch.encode(state)).to_dict() == state.to_dict()
    assert not compact.is_compact(punch.encode(state))
    assert compact.is_compact(compact.encode(state))


# -- errors: each a DeckStateError naming the card -------------------------------------------------
def long_game() -> list[Card]:
    state = walk("agnes", 617, 100, 1)
    cards = compact.encode(state)
    assert len(cards) >= 2
    return cards


def change_column(card: Card, column: int, word: int) -> Card:
    cols = list(card)
    cols[column - 1] = word
    return Card.from_columns(cols)


def raw_deck(body: BitWriter, version: int = compact.VERSION) -> list[Card]:
    return compact.punch_chunks(compact.pack_bits(body.bits, "TEST", version), "TEST")


def header(game: str = "klondike") -> BitWriter:
    w = BitWriter()
    w.text(game)
    w.fixed(1, 1)  # options at their defaults
    w.gamma(617)
    return w


def test_wrong_digest_names_the_last_card() -> None:
    cards = long_game()
    first = cards[0]
    other = next(w for w in COLUMN_WORDS if w != first[9])
    cards[0] = change_column(first, 10, other)
    with pytest.raises(DeckStateError, match="digest") as err:
        compact.decode(cards)
    assert err.value.card == len(cards)


def test_unknown_game_and_version() -> None:
    w = header("no-such-game")
    with pytest.raises(DeckStateError, match="unknown game 'no-such-game'") as err:
        compact.decode(raw_deck(w))
    assert err.value.card == 1
    with pytest.raises(DeckStateError, match="version 5 is not known") as err:
        compact.decode(raw_deck(header(), version=5))
    assert err.value.card == 1


def test_options_the_game_does_not_have() -> None:
    w = BitWriter()
    w.text("klondike")
    w.fixed(0, 1)  # options follow …
    w.gamma(3 + 1)  # … three of them, but Klondike has five
    with pytest.raises(DeckStateError, match="gives 3 options, klondike has 5") as err:
        compact.decode(raw_deck(w))
    assert err.value.card == 1


def test_an_illegal_move_names_its_card() -> None:
    w = header("klondike")
    state = engine.deal("klondike", 617, {})
    code = compact.move_code(state)
    moves = [engine.Move("stock")] * 40  # legal: turn the hand card by card (24 cards, no redeal)
    w.gamma(len(moves) + 1)
    for move in moves:
        code.write(w, move, state)
        try:
            engine.apply_in_place(state, move)
        except engine.IllegalMove:
            pass
    w.fixed(0, compact.FINAL_CHECK_BITS)
    w.gamma(1)
    w.bits.extend(bitarray("0" * 900))  # padding, so the bad move lies on card 1 of 3
    with pytest.raises(DeckStateError, match="recorded move 25 's' is illegal") as err:
        compact.decode(raw_deck(w))
    assert err.value.card == 1


def test_sequence_faults_and_foreign_punches() -> None:
    cards = long_game()
    with pytest.raises(DeckStateError, match="card number 0002 where 0001") as err:
        compact.decode(cards[1:])
    assert err.value.card == 1
    with pytest.raises(DeckStateError, match="says the deck has") as err:
        compact.decode(cards[:-1])
    with pytest.raises(DeckStateError, match="no compact character") as err:
        compact.decode([change_column(cards[0], 5, WORDS[0o20]), *cards[1:]])  # 2-8: lone A bit
    assert (err.value.card, err.value.column) == (1, 5)
    with pytest.raises(DeckStateError, match="not a compact game deck"):
        compact.decode(punch.encode(engine.deal("klondike", 1, {})))


# -- the command line ---------------------------------------------------------------------------
def test_deal_and_play_punch_compact_decks_and_load_detects_them(tmp_path, capsys) -> None:
    from emulator.formats import read_deck
    from ibm1013.cli.main import main

    deck = tmp_path / "k.cbn"
    assert main(["deal", "klondike", "--deal", "617", "--compact", "-o", str(deck)]) == 0
    with open(deck, "rb") as f:
        assert len(list(read_deck(f, "cbn"))) == 1
    moves = tmp_path / "m.txt"
    moves.write_text("s\ns\nundo\n")
    saved = tmp_path / "saved.cbn"
    assert main(["play", "klondike", "--load", str(deck), "--moves", str(moves), "--save", str(saved),
                 "--compact"]) == 0
    with open(saved, "rb") as f:
        state = compact.decode(list(read_deck(f, "cbn")))
    assert [str(m) for m in state.history] == ["s"] and [str(m) for m in state.future] == ["s"]
    capsys.readouterr()
    assert main(["play", "klondike", "--load", str(saved), "--moves", str(moves)]) == 0
    assert "move 2" in capsys.readouterr().out


def test_a_bad_compact_deck_is_one_line_naming_the_card(tmp_path, capsys) -> None:
    from emulator.formats import write_deck
    from ibm1013.cli.main import main

    cards = long_game()
    cards[1] = change_column(cards[1], 3, next(w for w in COLUMN_WORDS if w != cards[1][2]))
    deck = tmp_path / "bad.cbn"
    with open(deck, "wb") as f:
        write_deck(cards, f, "cbn")
    assert main(["play", "agnes", "--load", str(deck), "--moves", str(deck)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("ibm1013: ") and "card" in err and "digest" in err and "\n" not in err


# -- every punch pattern in the sequence field (issue 47, item 14) -------------------------------
@pytest.mark.parametrize("column", range(73, 81))
def test_every_punch_pattern_in_the_sequence_field_is_refused_or_read(column: int) -> None:
    """A one-card deck with each of the 4096 punch patterns in one label or number column: loading
    it (``play --load``) and watching it arrive (``watch``) either reads the game or refuses the deck
    with a :class:`DeckStateError` naming card 1 — never another exception."""
    from decks.stream import Diverged, Watcher

    deck = compact.encode(engine.deal("klondike", 617, {}))
    assert len(deck) == 1
    read = 0
    for word in range(4096):
        card = change_column(deck[0], column, word)
        try:
            state = compact.decode_any([card])
        except DeckStateError as err:
            assert err.card == 1 and "\n" not in str(err)
        else:
            assert state.to_dict() == engine.deal("klondike", 617, {}).to_dict()
            read += 1
        try:
            Watcher().take(1, card)
        except Diverged as err:
            assert "\n" not in str(err)
    assert read == 1  # the card as it was punched; every other pattern changes the label or number


@pytest.mark.parametrize("column, punches", [(74, "11-7-8"), (78, "11-0-2-8-9")])
def test_a_sequence_field_character_beyond_the_bcd_set_is_one_line(tmp_path, capsys, column: int,
                                                                   punches: str) -> None:
    """``¬`` (11-7-8, an ordinary 029 character) in the label; ``²`` in the card number (a punch
    pattern the 029 table reads as a digit that is no 0-9)."""
    from emulator.formats import write_deck
    from emulator.punches import punches_to_word
    from ibm1013.cli.main import main

    first = compact.encode(engine.deal("klondike", 617, {}))[0]
    card = change_column(first, column, punches_to_word(punches))
    assert not card.text("029")[column - 1].isascii()
    deck = tmp_path / "bad.cbn"
    with open(deck, "wb") as f:
        write_deck([card], f, "cbn")
    assert main(["play", "klondike", "--load", str(deck), "--plain"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("ibm1013: ") and "card 1" in err and f"column {column}" in err and "\n" not in err
