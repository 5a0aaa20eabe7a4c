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
from typing import TYPE_CHECKING

from emulator.errors import CardError, IbmError
from emulator.words import counted
from ibm1013.cli import argtypes, options
from ibm1013.cli.deckfiles import located
from ibm1013.cli.simulate import add_transfer_options, read_deck, transfer_config

if TYPE_CHECKING:
    import numpy as np

    from ibm1013.sim.transfer import TransferConfig
    from ibm1013.theory import Figures, Setting


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "theory", help="work out cards/min, retransmissions, give-ups and undetected errors (no simulation)",
        description="Work out, from the settings alone, what a transfer between two IBM 1013s gives "
                    "under noise: the chance a record or reply arrives clean, with a detected error "
                    "or with an undetected one, the expected cards per minute, retransmissions per "
                    "card, the chance a card is given up and undetected errors per million cards "
                    "(docs/throughput.md).  Takes the options of 'simulate'.",
    )
    options.add_deck(p, nargs="?",
                     help="a deck whose characters and length to use (default: every character evenly, "
                        "a long deck)")
    options.DECK_FORMAT.add(p, default="auto")
    options.CODE.add(p, default="029")
    add_transfer_options(p, theory=True)
    p.add_argument("--cards", default=None, metavar="N", type=argtypes.integer(1, 10_000_000),
                   help="cards in the deck, for its cards per minute (the last card has no turnaround "
                        "after it; default: the DECK's, else a long deck)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=cmd_theory)


def cmd_theory(args: argparse.Namespace) -> int:
    from ibm1013.sim.transfer import transfer_settings

    result, setting, cards = worked_out(args)
    if args.json:
        settings = {**transfer_settings(transfer_config(args)), "cards": cards}
        print(json.dumps({"settings": settings, **result.to_dict(),
                          "undetected_meaningful": result.undetected_meaningful}, indent=2))
    else:
        print(text(result, setting, cards))
    return 0


def worked_out(args: argparse.Namespace,
               deck: np.ndarray | None = None) -> tuple[Figures, Setting, int | None]:
    """What ``theory`` works out (and :func:`ibm1013.work_out`): the figures, the setting of ``args``
    and the cards counted, for the deck of ``args.deck`` (or ``deck``, a deck array, when given).
    A setting the theory does not cover is refused first (:func:`theory_setting`), before the deck
    is read."""
    from ibm1013.cli.deckfiles import require_cards
    from ibm1013.theory import figures

    setting = theory_setting(transfer_config(args))
    records = None
    cards = args.cards
    if deck is not None or args.deck is not None:
        words = read_deck(args) if deck is None else deck
        require_cards(len(words), "the deck")  # (read_deck refuses an empty file, naming it)
        try:
            chars, _lrcs = setting.layout.encode(words)
        except CardError as err:  # a card four-of-eight cannot carry: named in the deck, as simulate does
            raise located(err, args.deck or "the deck") from None
        records = _as_array(chars)
        cards = cards or len(words)
    return figures(setting, cards=cards, deck=records), setting, cards


def theory_setting(config: TransferConfig) -> Setting:
    """The theory's :class:`~ibm1013.theory.Setting` of a transfer, or the one line saying why the
    theory does not cover it: what ``theory`` refuses and ``sweep --theory`` refuses alike, in the
    same words, when the arguments are checked."""
    from ibm1013.theory import Setting, TheoryError

    try:
        return Setting.of(config)
    except TheoryError as err:
        raise IbmError(str(err)) from None


def _as_array(records: list[bytes]) -> np.ndarray:
    """A layout's records (all one length) as an ``(n, N)`` array of characters."""
    import numpy as np

    return np.frombuffer(b"".join(records), dtype=np.uint8).reshape(len(records), -1)


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
        f"  undetected per million    {f.undetected_per_million:.4g}" + (
            "" if f.undetected_meaningful else
            f"  (no figure: the errors of more flips than counted could add up to "
            f"{f.record_undetected_bound:.3g} a record)"),
        f"  session ends at a card    {f.session_end:.3g}",
    ]
    return "\n".join(lines)
