"""``ibm1013 demo``: a game of solitaire travels from one simulated IBM 1013 to another.

The whole project in one run, the way it was meant to be used:

1. deal a game by its shareable deal number and play a few moves (the solver's hints), so a game
   *in progress* is on the table;
2. punch the position into a deck of 80-column cards (``decks.punch``: 1401 BCD characters only, so
   the 1013 can send it in its faithful four-of-eight mode);
3. send the deck from terminal A to terminal B over a simulated telephone line (``ibm1013.sim.transfer``:
   STR line control, 1200 bit/s, a little line noise so some records are sent again);
4. read the received deck at B, check it card for card and by its trailer digest, and resume the
   game there: the position and its move history are identical.

Files a person can open are written to ``--out`` (default ``ibm1013-demo/``): both decks as SIMH
column-binary files, a contact sheet of the punched cards, and a timeline of the line.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from emulator.errors import ExitStatus, IbmError
from emulator.words import cards
from ibm1013.cli import argtypes, options

if TYPE_CHECKING:
    from decks.engine import GameState
    from emulator.card import Card
    from ibm1013.report import TransferReport


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "demo", help="deal a game, punch it, send it between two simulated 1013s, resume it",
        description="Deal a solitaire game, play a few moves, punch the position into a card deck, "
                    "send the deck from one simulated IBM 1013 to another and resume the game from "
                    "the cards that arrived.",
    )
    p.add_argument("--game", default="klondike", type=argtypes.game, help="game to deal")
    options.DEAL.add(p, default=617)
    p.add_argument("--moves", type=argtypes.COUNT, default=12,
                   help="moves to play (the solver's hints) before sending")
    options.BIT_RATE.add(p, default=1200)
    options.BER.add(p, default=2e-4)
    options.SEED.add(p, default=1)
    p.add_argument("--out", default="ibm1013-demo", metavar="DIR", type=argtypes.output_directory,
                   help="directory for the decks and pictures (made if missing)")
    p.add_argument("--json", action="store_true", help="print a JSON summary instead of the story")
    p.set_defaults(func=run_demo)


def play_some(game: str, deal_number: int, moves: int) -> GameState:
    """Deal ``game`` and play up to ``moves`` of the solver's hints (fewer if the game ends)."""
    from decks import engine, solver

    state = engine.deal(game, deal_number)
    for _ in range(moves):
        if engine.is_won(state):
            break
        move = solver.hint(state, max_nodes=200)
        if move is None:
            break
        state = engine.apply(state, move)
    return state


def same_game(a: GameState, b: GameState) -> bool:
    """Whether two game states are the same position with the same history (what a player sees)."""
    from decks import punch

    return punch.encode_text(a) == punch.encode_text(b)


def run_demo(args: argparse.Namespace) -> int:
    from decks import punch
    from decks.session import layout
    from emulator import render
    from emulator.atomic import NewFiles, atomic_output
    from emulator.formats import write_deck
    from ibm1013.cli.simulate import writing
    from ibm1013.sim.timeline import draw
    from ibm1013.sim.transfer import TransferConfig, run_transfer

    sent_state = play_some(args.game, args.deal, args.moves)
    deck = punch.encode(sent_state)
    paths = {name: os.path.join(args.out, name) for name in
             ("sent.cbn", "received.cbn", "cards.png", "timeline.png")}
    with writing(args.out), NewFiles(args.out) as files:  # the four files, or none of them
        with writing(paths["sent.cbn"]), atomic_output(files.add(paths["sent.cbn"])) as out:
            write_deck(deck, out, "cbn")
        with writing(paths["cards.png"]):
            title = f"{sent_state.game} deal {args.deal}: sent.cbn"
            render.contact_sheet_png(deck, files.add(paths["cards.png"]), title=title, per_page=len(deck))

        config = TransferConfig.build(bit_rate=args.bit_rate, ber=args.ber, seed=args.seed, timeline=True)
        transfer = run_transfer(deck, config)
        report = transfer.report
        received = transfer.received_cards()
        with writing(paths["received.cbn"]), atomic_output(files.add(paths["received.cbn"])) as out:
            write_deck(received, out, "cbn")
        with writing(paths["timeline.png"]):
            draw(transfer.timeline, files.add(paths["timeline.png"]),
                 title=f"demo: {cards(len(deck))}, {args.bit_rate} bit/s, BER {args.ber:g}")

    try:
        resumed = punch.decode(received)
    except IbmError as err:
        raise IbmError(f"the received deck does not decode: {err}") from None
    identical = received == deck and same_game(sent_state, resumed)
    if args.json:
        print(json.dumps({"game": sent_state.game, "deal": args.deal, "moves_played":
                          len(sent_state.history), "cards": len(deck), "identical": identical,
                          "files": paths, "report": json.loads(report.to_json())}, indent=2))
    else:
        _tell(args, sent_state, deck, report, resumed, identical, paths, layout)
    return ExitStatus.OK if identical else ExitStatus.INCOMPLETE


def _tell(
    args: argparse.Namespace, sent_state: GameState, deck: list[Card], report: TransferReport,
    resumed: GameState, identical: bool, paths: dict[str, str], layout: Callable[[GameState], str],
) -> None:
    from emulator import render

    print(f"== 1. At terminal A: {args.game}, deal {args.deal}, "
          f"{len(sent_state.history)} moves played ==")
    print(layout(sent_state))
    print(f"\n== 2. Punched into {cards(len(deck))} ({paths['sent.cbn']}, "
          f"pictures in {paths['cards.png']}); card 1: ==")
    print(render.card_terminal(deck[0]))
    print(f"\n== 3. Sent from 1013 A to 1013 B: {args.bit_rate} bit/s, full duplex, "
          f"bit error rate {args.ber:g}, seed {args.seed} ==")
    print(report.to_text())
    print(f"(timeline of the line: {paths['timeline.png']})")
    print(f"\n== 4. At terminal B: the deck decodes, trailer digest checks; "
          f"game identical to A's: {'yes' if identical else 'NO'} ==")
    print(layout(resumed))
