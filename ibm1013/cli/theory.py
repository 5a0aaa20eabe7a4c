"""``ibm1013 theory``: what a transfer should give, worked out rather than simulated.

::

    ibm1013 theory                                   # 1200 bit/s, 80 columns, clean: 100 cards/min
    ibm1013 theory --ber 1e-4 --columns 20 --json
    ibm1013 theory deck.cbn --ber 1e-5 --duplex half # the deck's characters and length

It takes ``simulate``'s options (the same definitions), so the same line can be simulated and worked
out; the work is :mod:`ibm1013.theory`.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from emulator.errors import IbmError
from emulator.words import counted
from ibm1013.cli import argtypes, options
from ibm1013.cli.simulate import add_transfer_options, read_deck, transfer_config

if TYPE_CHECKING:
    import numpy as np

    from ibm1013.theory import Figures, Setting


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "theory", help="work out cards/min, retransmissions, give-ups and undetected errors (no simulation)",
        description="Work out, from the settings alone, what a transfer between two IBM 1013s gives "
                    "under noise: the chance a record or reply arrives clean, with a detected error "
                    "or with an undetected one, the expected cards per minute, retransmissions per "
                    "card, the chance a card is given up and undetected errors per million cards "
                    "(docs/throughput.md).  Takes the options of 'simulate'.",
    )
    p.add_argument("deck", metavar="DECK", nargs="?",
                   help="a deck whose characters and length to use (default: every character evenly, "
                        "a long deck)")
    p.add_argument("--format", default="auto", metavar="FORMAT", type=argtypes.deck_format_or_auto,
                   help="deck format (default: detect); see 'ibm1013 cards -h'")
    options.CODE.add(p, default="029")
    add_transfer_options(p)
    p.add_argument("--cards", default=None, metavar="N", type=argtypes.integer(1, 10_000_000),
                   help="cards in the deck, for its cards per minute (the last card has no turnaround "
                        "after it; default: the DECK's, else a long deck)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=cmd_theory)


def cmd_theory(args: argparse.Namespace) -> int:
    result, setting, cards = worked_out(args)
    if args.json:
        print(json.dumps({"settings": _settings(args, cards), **result.to_dict()}, indent=2))
    else:
        print(text(result, setting, cards))
    return 0


def worked_out(args: argparse.Namespace,
               deck: np.ndarray | None = None) -> tuple[Figures, Setting, int | None]:
    """What ``theory`` works out (and :func:`ibm1013.work_out`): the figures, the setting of ``args``
    and the cards counted, for the deck of ``args.deck`` (or ``deck``, a deck array, when given)."""
    from ibm1013.theory import Setting, TheoryError, figures

    config = transfer_config(args)
    try:
        setting = Setting.of(config)
    except TheoryError as err:
        raise IbmError(str(err)) from None
    records = None
    cards = args.cards
    if deck is not None or args.deck is not None:
        words = read_deck(args) if deck is None else deck
        if not len(words):
            raise IbmError(f"{args.deck or 'the deck'}: the deck has no cards")
        chars, _lrcs = setting.layout.encode(words)
        records = _as_array(chars)
        cards = cards or len(words)
    return figures(setting, cards=cards, deck=records), setting, cards


def _as_array(records: list[bytes]) -> np.ndarray:
    """A layout's records (all one length) as an ``(n, N)`` array of characters."""
    import numpy as np

    return np.frombuffer(b"".join(records), dtype=np.uint8).reshape(len(records), -1)


def _settings(args: argparse.Namespace, cards: int | None) -> dict[str, Any]:
    return {"bit_rate": args.bit_rate, "duplex": args.duplex, "turnaround": args.turnaround,
            "columns": args.columns, "column_binary": args.column_binary, "ber": args.ber,
            "burst": list(args.burst) if args.burst else None, "on_give_up": args.on_give_up, "cards": cards}


def text(f: Figures, setting: Setting, cards: int | None) -> str:
    """The figures as a short report."""
    deck = f"a deck of {counted(cards, 'card')}" if cards else "a long deck"
    noise = f"BER {setting.ber:g}" + (f", bursts {','.join(f'{v:g}' for v in setting.burst)}"
                                      if setting.burst else "")
    lines = [
        f"theory: {setting.bit_rate} bit/s, {setting.duplex} duplex, {setting.layout.describe()}, "
        f"{noise}; {deck}",
        f"  record   clean {f.record_clean:.6f}   detected {f.record_detected:.6g}   "
        f"undetected {f.record_undetected:.3g}",
        f"  reply    clean {f.reply_clean:.6f}   lost or misread {f.reply_detected:.6g}   "
        f"read as CL EOT {f.reply_undetected:.3g}",
        f"  cards per minute          {f.cards_per_minute:.3f}  (clean line {f.clean_cards_per_minute:.3f})",
        f"  seconds per card          {f.seconds_per_card:.4f}",
        f"  retransmissions per card  {f.retransmissions_per_card:.5g}",
        f"  cards given up            {f.give_up:.4g}  (far end lacks it: {f.failed:.4g})",
        f"  undetected per million    {f.undetected_per_million:.4g}",
        f"  session ends at a card    {f.session_end:.3g}",
    ]
    return "\n".join(lines)
