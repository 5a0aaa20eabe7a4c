"""Checks every two-pack game's tests share: random positions, deck round trips, corrupted decks,
and a recorded winning move list."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from decks import engine, punch
from decks.packs import pack
from decks.records import DeckStateError, Record


def played(game: str, deal: int, steps: int, seed: int, undos: int = 0) -> engine.GameState:
    """A position reached by random legal moves from a deal (then some undos)."""
    rng = random.Random(seed)
    state = engine.deal(game, deal)
    for _ in range(steps):
        moves = engine.legal_moves(state)
        if not moves:
            break
        state = engine.apply(state, rng.choice(moves))
    for _ in range(min(undos, len(state.history))):
        state = engine.undo(state)
    return state


def round_trip(state: engine.GameState) -> None:
    """The state punches to a deck that decodes to the same state, and punches again identically."""
    cards = punch.encode(state)
    back = punch.decode(cards)
    assert back.to_dict() == state.to_dict()
    assert punch.encode(back) == cards


def pack_counts(state: engine.GameState) -> None:
    """Every card of the game's pack lies in the piles as often as the pack holds it."""
    from collections import Counter

    rules = engine.get_game(state.game)
    want = Counter(c.name for c in pack(rules.pack))
    assert Counter(c.name for p in state.piles.values() for c in p.cards) == want


def _piles_with_cards(records: list[Record]) -> list[Record]:
    return [r for r in records if r.keyword == "PILE" and len(r.tokens) > 2]


def corrupted_decks(state: engine.GameState) -> None:
    """A third copy of a card, a card missing, a card of another pack and an impossible pile are each
    refused with a DeckStateError naming a card."""
    def refused(change, match: str) -> None:
        records = punch.state_records(state)
        change(records)
        cards = punch.punch_records(records, punch.deck_label(state.game))
        with pytest.raises(DeckStateError, match=match) as info:
            punch.decode(cards)
        assert info.value.card is not None and f"card {info.value.card}" in str(info.value)

    def missing(records: list[Record]) -> None:
        rec = _piles_with_cards(records)[-1]
        rec.tokens[1] = str(int(rec.tokens[1]) - 1)
        del rec.tokens[-1]

    def stranger(records: list[Record]) -> None:
        rec = _piles_with_cards(records)[0]
        rec.tokens[-1] = "BUG1"

    refused(missing, "lack")
    refused(stranger, "not a card of the")
    target = _piles_with_cards(punch.state_records(state))[0].tokens[-1].lstrip("/")

    def third_copy(records: list[Record]) -> None:    # both copies are in the piles already
        rec = next(r for r in _piles_with_cards(records) if r.tokens[-1].lstrip("/") != target)
        rec.tokens[-1] = target

    refused(third_copy, "appears more often")


def impossible_pile(state: engine.GameState) -> None:
    """Swapping the top cards of two piles (different cards) gives piles no play makes."""
    records = punch.state_records(state)
    piles = _piles_with_cards(records)
    ra = piles[0]
    rb = next(r for r in piles[1:] if r.tokens[-1].lstrip("/") != ra.tokens[-1].lstrip("/"))
    ra.tokens[-1], rb.tokens[-1] = rb.tokens[-1], ra.tokens[-1]
    cards = punch.punch_records(records, punch.deck_label(state.game))
    with pytest.raises(DeckStateError, match="cannot arise") as info:
        punch.decode(cards)
    assert info.value.card is not None


def wins(game: str, deal: int, moves: str, options: dict | None = None) -> engine.GameState:
    """Replay a recorded move list from a deal; it must end in a win (and undo/redo work there)."""
    end = engine.replay(game, deal, options or {}, engine.parse_moves(moves))
    assert engine.is_won(end)
    pack_counts(end)
    back = engine.undo(end)
    assert not engine.is_won(back) and engine.redo(back).to_dict() == end.to_dict()
    return end


def round_trip_test(game: str, examples: int = 15):
    """A hypothesis test: random positions of ``game`` (any deal number, up to 80 random moves) hold
    the whole pack and punch to decks that decode back exactly."""
    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(deal=st.integers(1, 2**63 - 1), steps=st.integers(0, 80), seed=st.integers(0, 2**32))
    def test(deal: int, steps: int, seed: int) -> None:
        state = played(game, deal, steps, seed)
        pack_counts(state)
        round_trip(state)
    return test


def corruption_test(game: str):
    """A test: a position of ``game`` 30 moves in, punched and corrupted, is refused naming the card."""
    def test() -> None:
        state = played(game, 5, 30, 1)
        corrupted_decks(state)
        impossible_pile(state)
    return test
