"""Deal a game of solitaire, play a few moves, punch it into cards, send the deck down a noisy
simulated 1013 line, and resume the game at the far end.

    python examples/send_a_game.py [GAME] [DEAL]

The API in four steps: ``decks`` deals and plays, ``decks.punch_game`` turns a game state into cards
(``decks.read_game`` back), ``ibm1013.transfer`` sends the cards, and the far end checks it got the
same game.
"""

from __future__ import annotations

import sys

import decks
import ibm1013


def main(game: str = "klondike", deal: int = 617) -> None:
    state = decks.deal(game, deal)
    for _ in range(3):  # the first legal move three times: any game has one at the start
        moves = decks.legal_moves(state)
        if not moves:
            break
        state = decks.apply(state, moves[0])
    cards = decks.punch_game(state)
    print(f"{state.game} deal {deal}, moves {' '.join(str(m) for m in state.history)}: {len(cards)} cards")
    print("card 1:", cards[0].text().rstrip())

    transfer = ibm1013.transfer(cards, ber=2e-4, seed=1)
    report = transfer.report
    print(f"sent at {report.cards_per_minute:.1f} cards/min, {report.retransmissions} records sent again")
    if report.ended != "complete":  # a noisier line can lose cards or the session
        print(f"not delivered ({report.ended}): cards {report.failed_cards} failed; send again")
        return

    resumed = decks.read_game(transfer.received_cards())
    same = resumed.piles == state.piles and resumed.history == state.history
    print(f"far end: {resumed.game} deal {resumed.deal_number}, move {len(resumed.history)}, "
          f"same game: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "klondike", int(sys.argv[2]) if len(sys.argv) > 2 else 617)
