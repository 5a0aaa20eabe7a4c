"""Each two-pack game, punched in the middle of play, crosses the simulated 1013 line with bit
errors (the terminals detect and retransmit), and is resumed at the far end with ``ibm1013 play
--load``: the same position, the same history, and the next move gives the same game."""

from __future__ import annotations

import pytest

from decks import engine, punch
from emulator.formats import read_deck, write_deck
from ibm1013.cli.main import main
from ibm1013.sim.transfer import TransferConfig, run_transfer
from tests.twopack import played

TWO_PACK = ["british-constitution", "colorado", "indian", "limited", "louis", "lucas", "mount-olympus",
            "parallels", "queen-of-italy", "the-plot"]


def test_the_ten_games_are_registered_with_their_packs():
    packs = {g: engine.get_game(g).pack for g in TWO_PACK}
    assert packs == {g: "double-88" if g == "british-constitution" else "double" for g in TWO_PACK}


def in_play(game: str, index: int) -> engine.GameState:
    """A position some random moves into a deal, with moves still to make."""
    for steps in (25, 15, 8):
        state = played(game, 100 + index, steps, index)
        if engine.legal_moves(state):
            return state
    raise AssertionError(f"{game}: no position in play found")


@pytest.mark.parametrize("index, game", enumerate(TWO_PACK))
def test_a_game_in_progress_crosses_a_noisy_line_and_resumes(tmp_path, capsys, index, game):
    state = in_play(game, index)
    cards = punch.encode(state)
    transfer = run_transfer(cards, TransferConfig.build(ber=1e-4, seed=index))
    report = transfer.report
    assert report.ended == "complete" and report.cards_received == len(cards)
    assert report.lost == report.duplicated == report.undetected_errors == 0
    received = transfer.received_cards()
    assert received == cards
    path = tmp_path / "received.cbn"
    with open(path, "wb") as stream:
        write_deck(received, stream, "cbn")

    assert state.history                                     # really in the middle of play
    nxt = engine.legal_moves(state)[0]
    script = tmp_path / "moves.txt"
    script.write_text(f"{nxt}\n")
    out = tmp_path / "resumed.cbn"
    assert main(["play", game, "--load", str(path), "--moves", str(script), "--save", str(out)]) == 0
    capsys.readouterr()
    with open(out, "rb") as stream:
        resumed = punch.decode(read_deck(stream, "auto"))
    assert resumed.to_dict() == engine.apply(state, nxt).to_dict()


def test_noise_really_hit_the_line():
    """Over the ten sends above the line corrupted characters that the terminals caught."""
    retransmitted = 0
    for index, game in enumerate(TWO_PACK):
        cards = punch.encode(in_play(game, index))
        report = run_transfer(cards, TransferConfig.build(ber=1e-4, seed=index)).report
        retransmitted += report.retransmissions
    assert retransmitted > 0
