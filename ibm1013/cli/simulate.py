"""``ibm1013 simulate``: two IBM 1013s on a simulated line, sending a deck.

::

    ibm1013 simulate deck.cbn                       # 1200 bit/s, full duplex, 80 columns
    ibm1013 simulate deck.cbn --columns auto --ber 1e-4 --seed 7 -o copy.cbn --json
    ibm1013 simulate deck.cbn --duplex half --timeline run.png
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from emulator.errors import IbmError
from emulator.words import cards
from ibm1013.cli import argtypes, options
from ibm1013.report import ExitStatus

if TYPE_CHECKING:
    import numpy as np

    from emulator.card import Card
    from ibm1013.sim.transfer import Transfer, TransferConfig


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "simulate", help="simulate sending a deck between two IBM 1013s (SimPy)",
        description="Send DECK from one simulated IBM 1013 to another over a simulated line and "
                    "report cards per minute, retransmissions and errors.  Defaults reproduce the "
                    "documented 100 cards/min (1200 bit/s, full duplex, 80 columns).  Exit status: 0 "
                    "when every card arrived, 1 when some did not, 2 for bad input.",
    )
    p.add_argument("deck", metavar="DECK", nargs="?", help="deck file to send ('-' = standard input)")
    p.add_argument("--parameters", action="store_true",
                   help="list every model parameter with its default and source, and exit")
    p.add_argument("--format", default="auto", metavar="FORMAT", type=argtypes.deck_format_or_auto,
                   help="deck format (default: detect; for -o: from the extension, else cbn); "
                        "see 'ibm1013 cards -h'")
    options.CODE.add(p, default="029")
    add_transfer_options(p)
    p.add_argument("--start-at", type=argtypes.POSITIVE_INT, default=1, metavar="CARD",
                   help="start at this card (resume after a cut)")
    options.SEED.add(p, default=0)
    p.add_argument("-o", "--output", default=None, metavar="RECEIVED_DECK", type=argtypes.output_file,
                   help="write the cards the receiver punched (format from --format or the extension)")
    options.TIMELINE.add(p, default=None)
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=cmd_simulate)


def add_transfer_options(p: argparse.ArgumentParser) -> None:
    """The options that shape the line, the records and what a card given up does, as ``simulate``
    takes them (``theory`` takes the same, so one command line can be simulated and worked out)."""
    options.BIT_RATE.add(p, default=1200)
    options.DUPLEX.add(p, default="full")
    options.TURNAROUND.add(p, default=0.2)
    options.COLUMNS.add(p, default="80")
    options.COLUMN_BINARY.add(p, action="store_true")
    options.MECHANICS.add(p, default="none")
    options.BER.add(p, default=0.0)
    options.BURST.add(p, default=None)
    options.CUT_AT.add(p, default=None)
    p.add_argument("--on-give-up", choices=("stop", "skip"), default="stop",
                   help="a card given up after the retries: stop the session there, as send does, and "
                        "say where to start again (default), or skip it and go on with the next card")


def transfer_config(args: argparse.Namespace, **more: Any) -> TransferConfig:
    """The :class:`~ibm1013.sim.transfer.TransferConfig` of :func:`add_transfer_options`' options."""
    from ibm1013.sim.transfer import TransferConfig

    return TransferConfig.build(
        bit_rate=args.bit_rate, duplex=args.duplex, columns=args.columns,
        column_binary=args.column_binary, ber=args.ber, burst=args.burst, cut_at=args.cut_at,
        mechanics=args.mechanics, turnaround_s=args.turnaround, on_give_up=args.on_give_up, **more)


def read_deck(args: argparse.Namespace) -> np.ndarray:
    """The deck named by ``args.deck`` (``-`` = standard input) as an ``(n, 80)`` array of words."""
    import numpy as np

    from emulator.atomic import open_input
    from emulator.formats import read_deck_arrays

    source = "<stdin>" if args.deck == "-" else args.deck
    try:
        stream = open_input(args.deck)
    except OSError as err:
        raise IbmError(f"{args.deck}: {err.strerror or err}") from None
    with stream:
        _fmt, chunks = read_deck_arrays(stream, args.format, code=args.code, source=source)
        arrays = list(chunks)
    if not arrays:
        return np.zeros((0, 80), dtype=np.uint16)
    return np.concatenate(arrays).astype(np.uint16, copy=False)


def cmd_simulate(args: argparse.Namespace) -> int:
    from emulator.atomic import atomic_output
    from emulator.formats import output_format, write_deck
    from ibm1013.str.events import COMPLETE

    if args.parameters:
        print(parameter_table())
        return ExitStatus.OK
    if args.deck is None:
        raise IbmError("simulate needs a DECK file (or --parameters)")
    out_fmt = output_format(args.output, args.format) if args.output else None
    transfer = simulated(args, progress=not args.json)
    report = transfer.report
    if args.output:
        with writing(args.output), atomic_output(args.output) as out:
            write_deck(transfer.received_cards(), out, out_fmt, code=args.code)
    if args.timeline:
        from ibm1013.sim.timeline import draw

        with writing(args.timeline):
            draw(transfer.timeline, args.timeline,
                 title=f"{os.path.basename(args.deck)}: {args.bit_rate} bit/s, {args.duplex} duplex, "
                       f"{transfer.layout.describe()}")
    print(report.to_json() if args.json else report.to_text())
    # the far end holds every card
    return ExitStatus.OK if report.ended == COMPLETE else ExitStatus.INCOMPLETE


def simulated(args: argparse.Namespace, deck: Sequence[Card] | np.ndarray | None = None, *,
              progress: bool = False) -> Transfer:
    """The transfer ``simulate`` runs (and :func:`ibm1013.simulate`): the deck of ``args.deck`` (or
    ``deck``, cards or a deck array, when given) sent with the settings of ``args``, ``--start-at``
    checked against the deck first; a progress bar for a long deck on a terminal with ``progress``."""
    from emulator.errors import CardError
    from ibm1013.sim.transfer import run_transfer

    words = read_deck(args) if deck is None else deck
    if args.start_at > len(words) + 1:  # --start-at is a positive integer (its type)
        raise IbmError(f"--start-at {args.start_at}: the deck has {cards(len(words))}")
    config = transfer_config(args, seed=args.seed, first_card=args.start_at,
                             timeline=bool(getattr(args, "timeline", None)))
    try:
        return _run_with_progress(run_transfer, words, config, quiet=not progress)
    except CardError as err:
        if args.deck is None:
            raise
        raise err.located(source="<stdin>" if args.deck == "-" else args.deck) from None


@contextmanager
def writing(path: str) -> Iterator[None]:
    """An OS error while writing ``path`` (a full disk, say) as one line; the atomic write has already
    removed its temporary file, so nothing is left behind."""
    try:
        yield
    except OSError as err:
        raise IbmError(f"{path}: {err.strerror or err}") from None


def parameter_table() -> str:
    """Every parameter of the model: name, default, source (the docs/ page and section, or our estimate)."""
    from ibm1013.sim.transfer import CircuitConfig, MechanicsConfig
    from ibm1013.str import SessionConfig, parameter_sources

    lines = []
    for title, obj in (("session (STR line control)", SessionConfig()), ("line", CircuitConfig()),
                       ("mechanics", MechanicsConfig())):
        lines.append(f"{title}:")
        for name, value, source in parameter_sources(obj):
            shown = value.describe() if hasattr(value, "describe") else value
            lines.append(f"  {name:20s} {str(shown):28s} {source}")
    return "\n".join(lines)


def _run_with_progress(run, words, config, *, quiet: bool):
    if quiet or len(words) < 20_000 or not sys.stderr.isatty():
        return run(words, config)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  transient=True) as progress:
        task = progress.add_task("cards", total=len(words) - config.first_card + 1)
        return run(words, config, on_progress=lambda n: progress.update(task, completed=n))
