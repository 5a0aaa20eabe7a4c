"""Game state ⇄ deck of punched cards (decks.punch): round trips, the card layout, and every kind of
corruption giving a clear error that names the card."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from twopack import played

from decks import engine, punch
from decks.punch import DeckStateError, Record
from emulator.card import Card

# The punches of the safe characters, by the rule every keypunch table shares
# (docs/cards.md §2): digits one punch, A–I 12-1…9, J–R 11-1…9, S–Z 0-2…9.
SAFE_PUNCHES = {" ": "", "-": "11", "/": "0-1", "$": "11-3-8", "*": "11-4-8", ",": "0-3-8", ".": "12-3-8"}
SAFE_PUNCHES.update({str(d): str(d) for d in range(10)})
SAFE_PUNCHES.update({ch: f"12-{i}" for i, ch in enumerate("ABCDEFGHI", 1)})
SAFE_PUNCHES.update({ch: f"11-{i}" for i, ch in enumerate("JKLMNOPQR", 1)})
SAFE_PUNCHES.update({ch: f"0-{i}" for i, ch in enumerate("STUVWXYZ", 2)})


@pytest.fixture(scope="module")
def klondike() -> engine.GameState:
    return played("klondike-flip3", 617, 40, 3, undos=2)


def repunch(state: engine.GameState, change) -> list[Card]:
    """The deck of ``state`` with its records changed by ``change`` and a correct trailer."""
    records = punch.state_records(state)
    change(records)
    return punch.punch_records(records, punch.deck_label(state.game))


def pile_record(records: list[Record], name: str) -> Record:
    return next(r for r in records if r.keyword == "PILE" and r.tokens[0] == name.upper())


# ---- round trips ------------------------------------------------------------------------------

@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(engine.game_names()),
       deal=st.one_of(st.integers(1, 2**31 - 1), st.integers(2**31, 2**63 - 1)),
       steps=st.integers(0, 60), seed=st.integers(0, 2**32), undos=st.integers(0, 3))
def test_round_trip_random_positions(game, deal, steps, seed, undos):
    state = played(game, deal, steps, seed, undos)
    cards = punch.encode(state)
    back = punch.decode(cards)
    assert back.to_dict() == state.to_dict()
    assert punch.encode(back) == cards


@pytest.mark.parametrize("game", engine.game_names())
def test_every_game_round_trips_with_options_and_long_history(game):
    state = played(game, 11, 200, 7, undos=1)
    assert punch.decode(punch.encode(state)).to_dict() == state.to_dict()


@given(st.text(max_size=30))
def test_escape_round_trips_any_text(text):
    for natural_upper in (False, True):
        token = punch.escape(text, natural_upper=natural_upper)
        assert set(token) <= punch.SAFE_CHARACTERS - {" "}
        assert punch.unescape(token, natural_upper=natural_upper) == text


@given(st.one_of(st.booleans(), st.none(), st.integers(-10**6, 10**6), st.text(max_size=12)))
def test_values_round_trip(value):
    assert punch.parse_value(punch.format_value(value)) == value


# ---- the layout -------------------------------------------------------------------------------

def test_only_safe_bcd_characters_with_the_common_punches(klondike):
    for card in punch.encode(klondike):
        text = card.text("029")
        assert len(text) == 80
        for col, ch in enumerate(text, 1):
            assert ch in SAFE_PUNCHES, ch
            assert card.punches(col) == SAFE_PUNCHES[ch]


def test_header_sequence_field_and_trailer(klondike):
    lines = punch.encode_text(klondike)
    assert lines[0].startswith("IBM1013 SOLITAIRE 1 GAME KLONDIKE-FLIP3 DEAL 617 ")
    assert lines[1].startswith("OPTION DRAW 3 REDEALS UNLIMITED")
    for n, line in enumerate(lines, 1):
        assert line[72:80] == f"KLON{n:04d}"
    assert lines[-1].startswith(f"END CARDS {len(lines):04d} DIGEST ")
    stock = [line for line in lines if line.startswith("PILE S ")][0]
    assert "/" in stock  # the stock lies face down


def test_long_pile_continues_on_cont_cards():
    state = engine.deal("klondike", 5)
    lines = punch.encode_text(state)
    i = next(i for i, line in enumerate(lines) if line.startswith("PILE S 24 "))
    assert lines[i + 1].startswith("CONT PILE S /")
    assert all(len(line.rstrip()) <= 80 for line in lines)


def test_own_label():
    cards = punch.encode(engine.deal("bisley", 3), label="BIS1")
    assert cards[0].text()[72:] == "BIS10001"


# ---- corruption -------------------------------------------------------------------------------

def fails(cards, match: str, card: int | None) -> DeckStateError:
    with pytest.raises(DeckStateError, match=match) as info:
        punch.decode(cards)
    if card is None:  # the test checks the card itself
        assert info.value.card is not None
    else:
        assert info.value.card == card
    assert f"card {info.value.card}" in str(info.value)
    return info.value


def test_changed_card_breaks_the_digest(klondike):
    cards = punch.encode(klondike)
    text = cards[5].text()
    cards[5] = Card.from_text(text.replace("PILE T1", "PILE T9"), "029")
    fails(cards, "digest", len(cards))


def test_missing_repeated_and_shuffled_cards(klondike):
    cards = punch.encode(klondike)
    fails(cards[:4] + cards[5:], "card number 0006 where 0005", 5)
    fails(cards[:5] + cards[4:], "card number 0005 where 0006", 6)
    swapped = cards[:]
    swapped[6], swapped[7] = swapped[7], swapped[6]
    fails(swapped, "card number 0008 where 0007", 7)
    fails(cards[:-1], "without its END card", len(cards) - 1)
    fails(cards + [cards[0]], "after the END card", len(cards) + 1)


def test_card_of_another_deck(klondike):
    other = punch.encode(klondike, label="ZZZZ")
    cards = punch.encode(klondike)
    cards[3] = other[3]
    err = fails(cards, "deck label 'ZZZZ'", 4)
    assert err.column == 73


def test_character_outside_the_bcd_set(klondike):
    cards = punch.encode(klondike)
    cards[1] = Card.from_text(cards[1].text().replace("OPTION", "OPT#ON"), "029")
    err = fails(cards, "not in the BCD set", 2)
    assert err.column == 4


def test_invalid_punches(klondike):
    cards = punch.encode(klondike)
    columns = list(cards[1].columns)
    columns[9] = 0x0C0  # rows 2 and 3 together: no character
    cards[1] = Card(columns)
    err = fails(cards, "unreadable punches", 2)
    assert err.column == 10


def test_duplicated_playing_card(klondike):
    def change(records):
        rec = pile_record(records, "t1")
        other = pile_record(records, "f1")
        rec.tokens[2] = other.tokens[2]
    cards = repunch(klondike, change)
    f1 = next(n for n, c in enumerate(cards, 1) if c.text().startswith("PILE F1 "))
    err = fails(cards, "appears more often", f1)
    assert "also in pile t1, card 6" in str(err)


def test_missing_playing_card(klondike):
    def change(records):
        rec = pile_record(records, "s")
        rec.tokens[1] = str(int(rec.tokens[1]) - 1)
        del rec.tokens[2]
    fails(repunch(klondike, change), "lack", 6)


def test_pile_the_rules_make_impossible(klondike):
    def change(records):
        a, b = pile_record(records, "t3"), pile_record(records, "t7")
        a.tokens[-1], b.tokens[-1] = b.tokens[-1], a.tokens[-1]
    err = fails(repunch(klondike, change), "pile t3 cannot arise", 8)
    assert "gives /5C" in str(err)


def test_unknown_game_and_version(klondike):
    def game(records):
        records[0].tokens[3] = "CANFIELD"
    fails(repunch(klondike, game), "unknown game 'canfield'", 1)

    def version(records):
        records[0].tokens[1] = "9"
    fails(repunch(klondike, version), "format version 9", 1)


def test_bad_option_and_missing_pile(klondike):
    def option(records):
        records[1].tokens[1] = "7"
    fails(repunch(klondike, option), "Klondike turns 1 or 3|draw", None)

    def drop(records):
        records.remove(pile_record(records, "w"))
    cards = repunch(klondike, drop)
    moves = next(n for n, c in enumerate(cards, 1) if c.text().startswith("MOVES "))
    fails(cards, "pile.* w .*missing before this card", moves)


def test_illegal_recorded_move(klondike):
    def change(records):
        moves = next(r for r in records if r.keyword == "MOVES")
        moves.tokens[1] = "T1-T1"
    err = fails(repunch(klondike, change), "recorded move", None)
    assert err.card is not None


def test_deck_survives_a_noisy_1013_line(klondike):
    """The punched game, sent by the simulated 1013 over a line with bit errors (the terminals
    retransmit), decodes at the far end to the same game."""
    from ibm1013.sim.transfer import TransferConfig, run_transfer

    cards = punch.encode(klondike)
    transfer = run_transfer(cards, TransferConfig.build(ber=1e-4, seed=3))
    assert transfer.report.cards_received == len(cards)
    assert punch.decode(transfer.received_cards()).to_dict() == klondike.to_dict()


SAFE_TOKEN = st.text(alphabet=sorted(punch.SAFE_CHARACTERS - {" "}), min_size=1, max_size=6)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), token=SAFE_TOKEN)
def test_any_changed_token_is_refused_cleanly_or_harmless(klondike, data, token):
    """A deck whose records were changed and re-punched with a correct digest either decodes to a
    consistent game or is refused with a DeckStateError naming a card — never another exception."""
    records = punch.state_records(klondike)
    record = data.draw(st.sampled_from(records))
    if record.tokens and data.draw(st.booleans()):
        i = data.draw(st.integers(0, len(record.tokens) - 1))
        record.tokens[i] = token
    else:
        record.tokens.append(token)
    cards = punch.punch_records(records, "KLON")
    try:
        state = punch.decode(cards)
    except DeckStateError as err:
        assert err.card is not None and f"card {err.card}" in str(err)
    else:
        assert punch.decode(punch.encode(state)).to_dict() == state.to_dict()
